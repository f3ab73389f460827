#!/usr/bin/env bash
# Installs schemathesis from PyPI into a virtualenv of its own at the repository root
# (.venv-schemathesis/, git-ignored), for the OpenAPI conformance test. Pinned, so a new release
# cannot turn CI red with new checks overnight; raise the pin on purpose. Safe to run repeatedly:
# once the pinned version is there it only prints the path.
set -euo pipefail

version=4.32.5
root="$(cd "$(dirname "$0")/../.." && pwd)"
venv="$root/.venv-schemathesis"
bin="$venv/bin/schemathesis"

installed_version() {
  "$venv/bin/python" -c 'import importlib.metadata as m; print(m.version("schemathesis"))' 2>/dev/null || true
}

if [ -x "$bin" ] && [ "$(installed_version)" = "$version" ]; then
  echo "schemathesis $version already installed: $bin"
  exit 0
fi

python="${PYTHON:-}"
if [ -z "$python" ]; then
  for candidate in python3 python; do
    if command -v "$candidate" >/dev/null 2>&1; then
      python="$candidate"
      break
    fi
  done
fi
if [ -z "$python" ] || ! command -v "$python" >/dev/null 2>&1; then
  echo "install-schemathesis: need python3 (3.11 or later) with its venv module${python:+; $python not found}" >&2
  exit 1
fi
if ! "$python" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else 1)'; then
  echo "install-schemathesis: $("$python" --version 2>&1) is too old; schemathesis $version needs 3.11 or later" >&2
  exit 1
fi

# Debian ships the venv module (and ensurepip, which it needs) apart from python3 itself.
if ! "$python" -c 'import ensurepip, venv' >/dev/null 2>&1; then
  if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" -eq 0 ]; then
    # CI installs Debian's other packages meanwhile (.ci/run): wait for their lock.
    apt-get -o DPkg::Lock::Timeout=300 update
    env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=300 install -y --no-install-recommends python3-venv
  elif command -v apt-get >/dev/null 2>&1 && command -v sudo >/dev/null 2>&1; then
    sudo apt-get -o DPkg::Lock::Timeout=300 update
    sudo env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=300 install -y --no-install-recommends python3-venv
  else
    echo "install-schemathesis: $python has no venv module (on Debian: apt-get install python3-venv)" >&2
    exit 1
  fi
fi

# A venv left half-made by an interrupted run, or holding another version, is rebuilt from scratch.
rm -rf "$venv"
"$python" -m venv "$venv"
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check --upgrade pip
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check "schemathesis==$version"

echo "schemathesis $(installed_version) installed: $bin"

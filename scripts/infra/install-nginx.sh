#!/usr/bin/env bash
# Installs Debian's nginx for the proxy test, which starts its own instance with deploy/nginx.conf on
# a free loopback port; the system service is kept from starting. Safe to run repeatedly.
set -euo pipefail

if command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ]; then
  echo "nginx already installed: $( (command -v nginx || echo /usr/sbin/nginx) )"
  exit 0
fi

# shellcheck source=as-root.sh
source "$(dirname "$0")/as-root.sh" "apt-get install nginx"

# policy-rc.d exit 101 tells invoke-rc.d not to start services during the install; remove our
# copy afterwards, and keep any policy the machine already has.
policy=/usr/sbin/policy-rc.d
own_policy=0
if [ ! -e "$policy" ]; then
  printf '#!/bin/sh\nexit 101\n' | "${as_root[@]}" tee "$policy" >/dev/null
  "${as_root[@]}" chmod +x "$policy"
  own_policy=1
fi
cleanup() { if [ "$own_policy" -eq 1 ]; then "${as_root[@]}" rm -f "$policy"; fi; }
trap cleanup EXIT

"${as_root[@]}" apt-get update
"${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends nginx

# On machines with systemd the unit may still be enabled for the next boot; tests never need it.
if command -v systemctl >/dev/null 2>&1 && [ -d /run/systemd/system ]; then
  "${as_root[@]}" systemctl disable --now nginx >/dev/null 2>&1 || true
fi

"$( (command -v nginx || echo /usr/sbin/nginx) )" -v

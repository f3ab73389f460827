#!/usr/bin/env bash
# Builds scripts/infra/compose-config (a few lines of Go around compose-go, the Compose
# Specification's loader that Docker Compose itself calls for `docker compose config`) into
# .infra/compose/bin/compose-config (git-ignored), which scripts/test/compose.test.ts runs on
# docker-compose.yml. compose-go is pinned in its go.mod to v2.16.1, the version Docker Compose
# v5.6.0 (the newest that builds with Go 1.26.8) depends on. Not Compose itself: its modules are
# about 360 MB (the Docker CLI, BuildKit, containerd; 267 s to download here) against the 15 of
# compose-go and its dependencies, and none of them adds to what `config` checks; the cmd
# compose-go ships loads only the raw model (no environment, no consistency checks). Nothing is installed system-wide. Safe to run
# repeatedly: once a build of the current sources is there it only prints the path.
set -euo pipefail
cd "$(dirname "$0")/../.."

source_dir=scripts/infra/compose-config
dir=.infra/compose
bin="$dir/bin/compose-config"
stamp="$dir/sources"
sources=$(cat "$source_dir/main.go" "$source_dir/go.mod" "$source_dir/go.sum" | sha256sum | cut -d' ' -f1)

if [ -x "$bin" ] && [ "$(cat "$stamp" 2>/dev/null)" = "$sources" ]; then
  echo "compose-config already built: $bin"
  exit 0
fi

if ! command -v go >/dev/null 2>&1; then
  echo "install-compose: go not found; compose-config is built with Go 1.24 or later" >&2
  exit 1
fi

mkdir -p "$dir/bin"
# The stamp is written last, so an interrupted run is redone next time.
rm -f "$stamp"
(cd "$source_dir" && go build -o "$OLDPWD/$bin" .)
echo "$sources" >"$stamp"
echo "compose-config built: $bin"

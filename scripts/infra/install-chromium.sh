#!/usr/bin/env bash
# Installs Debian's chromium for the browser tests (playwright-core drives it; browsers are never
# downloaded by playwright). Safe to run repeatedly.
set -euo pipefail

if [ -x /usr/bin/chromium ]; then
  echo "chromium already installed: $(/usr/bin/chromium --version 2>/dev/null || echo /usr/bin/chromium)"
  exit 0
fi

# shellcheck source=as-root.sh
source "$(dirname "$0")/as-root.sh" "apt-get install chromium"

"${as_root[@]}" apt-get update
"${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends chromium fonts-liberation

/usr/bin/chromium --version

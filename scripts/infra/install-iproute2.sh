#!/usr/bin/env bash
# Installs Debian's iproute2 (`ip`, `tc`) for the partition tests, which put the distributed
# processes in network namespaces of their own and cut the links between them. Safe to run
# repeatedly.
set -euo pipefail

if command -v ip >/dev/null 2>&1 || [ -x /usr/sbin/ip ] || [ -x /sbin/ip ]; then
  echo "iproute2 already installed: $( (command -v ip || ls /usr/sbin/ip /sbin/ip 2>/dev/null) | head -n 1)"
  exit 0
fi

# shellcheck source=as-root.sh
source "$(dirname "$0")/as-root.sh" "apt-get install iproute2"

"${as_root[@]}" apt-get update
"${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends iproute2

ip -V

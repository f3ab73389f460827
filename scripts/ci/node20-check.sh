#!/usr/bin/env bash
# CI on the machine's Node 20, which `engines` still allows: what differs between Node lines is
# the runtime under the code, not the code (its types are checked once, by `npm test`), so this
# run checks that the timing-sensitive tiers (a browser, processes started and killed, Kafka and
# its partitions, mail, a full disk) pass beside busy loops with scaled deadlines (`npm run test:stress`), and that
# `npm start` the README's way serves. They also run calm, with everything else, on Node 24 (the
# Docker image's line).
set -euo pipefail
cd "$(dirname "$0")/../.."
echo "=== Node $(node --version): the timing-sensitive tiers under load, npm start"
npm run -s test:stress -- \
  web/e2e/verify-email.test.ts web/e2e/live-dashboard.test.ts \
  services/gateway/test/auth-secret.test.ts services/gateway/test/restart.test.ts \
  services/projector/test/projector-process.test.ts services/gateway/test/scan-counting-kafka.test.ts \
  scripts/test/partitions.test.ts services/gateway/test/mail-delivery.test.ts \
  services/gateway/test/disk-full.test.ts

# The README's start, on a data folder of its own and free ports: /readyz must answer 200.
data=$(mktemp -d)
log=$(mktemp)
ports=$(node -e '
  const net = require("node:net");
  const free = () => new Promise((resolve) => { const s = net.createServer().listen(0, "127.0.0.1", () => { const { port } = s.address(); s.close(() => resolve(port)); }); });
  Promise.all([free(), free()]).then((ports) => console.log(ports.join(" ")));')
read -r port ops_port <<< "$ports"
# In a session of its own, so that stopping it stops npm and the node it started.
DATA_DIR="$data" PORT="$port" OPS_PORT="$ops_port" setsid npm start > "$log" 2>&1 &
pid=$!
cleanup() { kill -- -"$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; rm -rf "$data" "$log"; }
trap cleanup EXIT
for _ in $(seq 1 240); do
  if curl -fsS "http://127.0.0.1:$ops_port/readyz" > /dev/null 2>&1; then
    echo "npm start on Node $(node --version): /readyz answered 200"
    exit 0
  fi
  if ! kill -0 "$pid" 2>/dev/null; then break; fi
  sleep 0.5
done
echo "npm start on Node $(node --version) did not answer /readyz; its output:"
cat "$log"
exit 1

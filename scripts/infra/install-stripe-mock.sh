#!/usr/bin/env bash
# Builds Stripe's own mock API server (github.com/stripe/stripe-mock) with `go install` into
# .infra/stripe-mock/ (git-ignored), which scripts/test-support/src/stripe-mock.ts runs. Nothing is
# installed system-wide. Pinned, so that a new release cannot change what the tests read overnight;
# raise the pin on purpose. Safe to run repeatedly: once the pinned version is there it only prints
# the path.
set -euo pipefail
cd "$(dirname "$0")/../.."

version=v0.203.0
module=github.com/stripe/stripe-mock
dir=.infra/stripe-mock
bin="$dir/bin/stripe-mock"
fixtures="$dir/fixtures3.json"
stamp="$dir/version"

if [ -x "$bin" ] && [ -s "$fixtures" ] && [ "$(cat "$stamp" 2>/dev/null)" = "$version" ]; then
  echo "stripe-mock $version already installed: $bin"
  exit 0
fi

if ! command -v go >/dev/null 2>&1; then
  echo "install-stripe-mock: go not found; stripe-mock is built from source with Go 1.22 or later" >&2
  exit 1
fi

mkdir -p "$dir/bin"
# The stamp is written last, so an interrupted run is redone next time. GOBIN must be absolute.
rm -f "$stamp"
GOBIN="$PWD/$dir/bin" go install "$module@$version"

# stripe-mock answers from fixtures; its bundled Checkout Session has no client_secret, which Stripe
# always gives an embedded session. Its own fixtures with that one field set are passed to it with
# -fixtures, so the product reads a session as Stripe answers one.
source_dir=$(go mod download -json "$module@$version" | node -e \
  'let s = ""; process.stdin.on("data", (d) => (s += d)).on("end", () => console.log(JSON.parse(s).Dir))')
node -e '
  const fs = require("node:fs");
  const [from, to] = process.argv.slice(1);
  const fixtures = JSON.parse(fs.readFileSync(from, "utf8"));
  const session = fixtures.resources["checkout.session"];
  session.client_secret = `${session.id}_secret_stripemock`;
  fs.writeFileSync(`${to}.tmp`, JSON.stringify(fixtures));
  fs.renameSync(`${to}.tmp`, to);
' "$source_dir/embedded/openapi/fixtures3.json" "$fixtures"

echo "$version" >"$stamp"
echo "stripe-mock $version installed: $bin"

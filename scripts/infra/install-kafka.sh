#!/usr/bin/env bash
# Resolves an Apache Kafka broker's jars from Maven Central (into ~/.m2, Maven's default) and
# writes their classpath to .infra/kafka/classpath.txt, which scripts/test-support/src/kafka.ts
# runs the broker from. Nothing is installed system-wide. Safe to run repeatedly: it does nothing
# while the classpath file exists and every jar it names is still there.
set -euo pipefail
cd "$(dirname "$0")/../.."

pom=scripts/infra/kafka-jars/pom.xml
cache=.infra/kafka
classpath="$cache/classpath.txt"

missing=()
for tool in java mvn; do
  command -v "$tool" >/dev/null 2>&1 || missing+=("$tool")
done
if [ "${#missing[@]}" -gt 0 ]; then
  echo "install-kafka: ${missing[*]} not found; the local Kafka broker needs Java 17+ and Maven" >&2
  exit 1
fi

all_jars_present() {
  [ -s "$classpath" ] || return 1
  local jar jars=()
  # Maven writes the file without a final newline, so read reports end-of-file after filling jars.
  IFS=: read -r -a jars <"$classpath" || true
  for jar in "${jars[@]}"; do
    [ -f "$jar" ] || return 1
  done
}

if all_jars_present; then
  echo "kafka classpath already resolved: $classpath"
  exit 0
fi

mkdir -p "$cache"
# Written beside the final file (named per process, as parallel test files may resolve at once) and
# moved into place, so an interrupted run never leaves a classpath that looks complete. Maven's
# output is shown only when it fails: on success it is a few stray terminal escapes.
partial="$classpath.$$.tmp"
if ! output=$(mvn -q -B -f "$pom" dependency:build-classpath -Dmdep.outputFile="$PWD/$partial" 2>&1); then
  rm -f "$partial"
  echo "$output" >&2
  echo "install-kafka: mvn could not resolve the broker's jars (is Maven Central reachable?)" >&2
  exit 1
fi
mv "$partial" "$classpath"
echo "kafka classpath resolved: $classpath ($(awk -F: '{ print NF }' "$classpath") jars)"

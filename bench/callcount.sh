#!/usr/bin/env bash
# Instructions per `tools/call` through the core, by callgrind: the difference between runs of
# 2N and N calls, over N (start-up cancels out). Repeatable for the same binary and inputs.
#
#   bench/callcount.sh            # modern (structured, async tool) and legacy (text, sync tool)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-/work/target-ci}"
cargo bench -p beam-mcp --bench callcount --no-run --quiet 2>/dev/null
bin=$(ls -t "$CARGO_TARGET_DIR"/release/deps/callcount-* | grep -v '\.d$' | head -n 1)
n=${CALLS:-1000}
count() {
  local out; out=$(mktemp)
  KIND=$1 CALLS=$2 valgrind --tool=callgrind --callgrind-out-file="$out" "$bin" >/dev/null 2>&1
  grep -m1 '^summary:' "$out" | awk '{print $2}'
  rm -f "$out"
}
for kind in modern legacy; do
  one=$(count "$kind" "$n"); two=$(count "$kind" $((2 * n)))
  echo "$kind: $(( (two - one) / n )) instructions per tools/call ($n and $((2 * n)) calls: $one, $two)"
done
# The observed connectome's hook: the modern call again with a started observer.
one=$(OBSERVE=on count modern "$n"); two=$(OBSERVE=on count modern $((2 * n)))
echo "modern, observer recording: $(( (two - one) / n )) instructions per tools/call ($n and $((2 * n)) calls: $one, $two)"

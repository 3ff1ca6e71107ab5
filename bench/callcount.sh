#!/usr/bin/env bash
# Instructions per `tools/call` through the core, by callgrind: the difference between runs of
# 2N and N calls, over N (start-up cancels out). Repeatable for the same binary and inputs.
#
#   bench/callcount.sh              # builds bench/callcount (a host's build of beam-mcp), counts
#   bench/callcount.sh --bin PATH   # counts PATH instead (the gate's negative controls)
#   bench/callcount.sh --build      # builds, prints the counting binary's path, counts nothing
#
# Prints one line a kind, `<kind>: <instructions> instructions per tools/call (...)`, for
# `modern` (structured, async tool), `legacy` (text, sync tool) and `observer` (the modern call
# with a started observer). Exits non-zero, printing no count for that kind, when the build,
# valgrind or the bench fails, or when the counts make no sense (not numbers, 2N not above N).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-/work/target-ci}"
bin=""
if [ "${1:-}" = "--bin" ]; then
  bin="${2:?--bin takes a path}"
else
  # The path comes from cargo's own report of what it built: in a target dir shared by several
  # checkouts, the newest file by time may be another checkout's.
  bin="$(cargo build --locked --release -p beam-mcp-bench --bin callcount --message-format=json-render-diagnostics \
    | python3 -c 'import json, sys
for line in sys.stdin:
    m = json.loads(line)
    if m.get("reason") == "compiler-artifact" and m["target"]["name"] == "callcount" and m.get("executable"):
        print(m["executable"])')"
fi
if [ -z "$bin" ] || [ ! -x "$bin" ]; then
  echo "callcount: no counting binary (${bin:-cargo reported none})" >&2
  exit 1
fi
if [ "${1:-}" = "--build" ]; then echo "$bin"; exit 0; fi
n=${CALLS:-1000}

# The total instructions of one run of $2 calls of kind $1; fails unless valgrind and the bench
# both succeed and the total is a positive number.
count() {
  local out log total
  out=$(mktemp); log=$(mktemp)
  if ! KIND=$1 CALLS=$2 valgrind --tool=callgrind --callgrind-out-file="$out" "$bin" >"$log" 2>&1; then
    echo "callcount: valgrind or the bench failed ($1, $2 calls):" >&2
    tail -n 5 "$log" >&2
    rm -f "$out" "$log"
    return 1
  fi
  total="$(grep -m1 '^summary:' "$out" | awk '{print $2}')"
  rm -f "$out" "$log"
  if ! [[ "$total" =~ ^[0-9]+$ ]] || [ "$total" -eq 0 ]; then
    echo "callcount: no instruction total in callgrind's output ($1, $2 calls): '${total}'" >&2
    return 1
  fi
  echo "$total"
}

# One line for a kind; the caller's `set -e` stops at the first failure.
per_call() {
  local name=$1 kind=$2 one two
  one=$(count "$kind" "$n")
  two=$(count "$kind" $((2 * n)))
  if [ "$two" -le "$one" ]; then
    echo "callcount: $name: $((2 * n)) calls counted $two, not more than $n calls' $one" >&2
    return 1
  fi
  echo "$name: $(( (two - one) / n )) instructions per tools/call ($n and $((2 * n)) calls: $one, $two)"
}

per_call modern modern
per_call legacy legacy
per_call tagged tagged
per_call tree tree
OBSERVE=on per_call observer modern

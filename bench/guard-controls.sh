#!/usr/bin/env bash
# Negative controls of the instruction guard, run by the gate right after it: each breaks one
# thing the guard depends on and must make bench/guard.sh fail, with the reason that names that
# thing. A control that passes, or fails for another reason, fails the gate.
#
#   bench/guard-controls.sh COUNTS   # COUNTS: the output of the guard's own run (bench/callcount.sh)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
counts="${1:?usage: bench/guard-controls.sh COUNTS}"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-/work/target-ci}"
work="$(mktemp -d)"; trap 'rm -rf "$work"' EXIT
failures=0

# Runs the guard with the given arguments; it must fail, saying $reason.
control() {
  local name=$1 reason=$2; shift 2
  if bash "$here/guard.sh" "$@" >"$work/out" 2>&1; then
    echo "control FAILED: $name: the guard passed"; cat "$work/out"; failures=$((failures + 1))
  elif ! grep -q -- "$reason" "$work/out"; then
    echo "control FAILED: $name: the guard failed, but not saying '$reason'"; cat "$work/out"
    failures=$((failures + 1))
  else
    echo "control held: $name ($(grep -m1 -- "$reason" "$work/out"))"
  fi
}

# Counts as if the measurement had moved by $1 percent from the expectation.
shifted() {
  grep -v '^[[:space:]]*\(#\|$\)' "$here/callcount.expected" \
    | awk -v p="$1" '{printf "%s: %d instructions per tools/call (synthetic)\n", $1, $2 * (100 + p) / 100}'
}

# The measured path: each of these runs valgrind for real, on a small N.
bin="$(bash "$here/callcount.sh" --build)"
control "missing binary" "no counting binary" --bin "$work/no-such-binary"
CALLS=50 CALLCOUNT_PANIC_AFTER=75 control "bench panics partway" "valgrind or the bench failed" --bin "$bin"
printf '#!/bin/sh\necho "not a bench"\n' >"$work/silent" && chmod +x "$work/silent"
control "binary counts nothing" "not more than" --bin "$work/silent"

# The checked path, on the counts of the run the gate just made and on synthetic ones.
: >"$work/empty"
control "empty expectation file" "gives no count for" --counts "$counts" --expected "$work/empty"
grep -v '^observer' "$here/callcount.expected" >"$work/no-observer"
control "expectation without the observer" "gives no count for observer" --counts "$counts" --expected "$work/no-observer"
shifted 5 >"$work/up5"
control "+5% instructions" "over" --counts "$work/up5"
shifted -15 >"$work/down15"
control "-15% instructions" "under" --counts "$work/down15"
grep -v "^legacy" "$work/up5" >"$work/missing"
control "a kind not counted" "no count for legacy" --counts "$work/missing"

# And the positive control: the same synthetic path passes on an unmoved count, so the failures
# above are the guard's bounds at work, not a broken harness.
shifted 0 >"$work/same"
if bash "$here/guard.sh" --counts "$work/same" >"$work/out" 2>&1; then
  echo "control held: the expected counts themselves pass"
else
  echo "control FAILED: the expected counts themselves do not pass"; cat "$work/out"; failures=$((failures + 1))
fi
exit $failures

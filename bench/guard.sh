#!/usr/bin/env bash
# The gate's guard on the core's cost: instructions per tools/call, counted by callgrind
# (bench/callcount.sh), against bench/callcount.expected. Instruction counts do not depend on
# the machine's load, so the bounds can be tight:
#   - a rise of more than 3% fails (raise the file only in a commit that says why);
#   - a fall of more than 10% fails too ("lower the file"): either a commit earned it and the
#     file should say so, or the bench stopped counting what it counted.
# Every kind in the file must be counted, and the file must name modern, legacy and observer.
#
#   bench/guard.sh                                  # measure, then check
#   bench/guard.sh --bin PATH                       # measure PATH (negative controls)
#   bench/guard.sh --counts FILE --expected FILE    # check given counts (negative controls)
#
# Installs valgrind from the Debian packages when it is missing.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
expected_file="$here/callcount.expected"
counts_file=""
bin_args=()
while [ $# -gt 0 ]; do
  case "$1" in
    --expected) expected_file="$2"; shift 2 ;;
    --counts) counts_file="$2"; shift 2 ;;
    --bin) bin_args=(--bin "$2"); shift 2 ;;
    *) echo "guard: unknown argument $1" >&2; exit 2 ;;
  esac
done
rise_pct=${GUARD_RISE_PCT:-3}
fall_pct=${GUARD_FALL_PCT:-10}

# The expectation first: an empty or partial file would turn the guard off.
expected="$(grep -v '^[[:space:]]*\(#\|$\)' "$expected_file" || true)"
for kind in modern legacy observer; do
  if ! echo "$expected" | awk -v k="$kind" '$1 == k && $2 ~ /^[0-9]+$/ && $2 > 0 {found=1} END {exit !found}'; then
    echo "guard: $expected_file gives no count for $kind: an expectation file names modern, legacy and observer, each with a positive count" >&2
    exit 1
  fi
done

if [ -n "$counts_file" ]; then
  counts="$(cat "$counts_file")"
else
  if ! command -v valgrind >/dev/null; then
    apt-get install -y valgrind >/dev/null 2>&1 || { apt-get update >/dev/null && apt-get install -y valgrind >/dev/null; }
  fi
  counts="$(bash "$here/callcount.sh" "${bin_args[@]}")" || { echo "guard: counting failed" >&2; exit 1; }
fi
echo "$counts"

status=0
while read -r kind want; do
  got="$(echo "$counts" | awk -v k="$kind:" '$1 == k {print $2}')"
  if ! [[ "$got" =~ ^[0-9]+$ ]]; then
    echo "guard: no count for $kind" >&2; status=1; continue
  fi
  ceiling=$(( want * (100 + rise_pct) / 100 ))
  floor=$(( want * (100 - fall_pct) / 100 ))
  if [ "$got" -gt "$ceiling" ]; then
    echo "guard: $kind costs $got instructions per call, over $ceiling (expected $want + ${rise_pct}%)" >&2
    status=1
  elif [ "$got" -lt "$floor" ]; then
    echo "guard: $kind costs $got instructions per call, under $floor (expected $want - ${fall_pct}%): lower the file in the commit that earned it, or find what the bench stopped counting" >&2
    status=1
  else
    echo "guard: $kind $got within [$floor, $ceiling] (expected $want)"
  fi
done <<< "$expected"
exit $status

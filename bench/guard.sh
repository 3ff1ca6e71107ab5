#!/usr/bin/env bash
# The gate's guard on the core's cost (issue 11): instructions per tools/call, counted by
# callgrind (bench/callcount.sh), against bench/callcount.expected; fails on a rise of more than
# 10%. Instruction counts do not depend on the machine's load, so this never flakes on a busy
# runner. Installs valgrind from the Debian packages when it is missing.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
if ! command -v valgrind >/dev/null; then
  apt-get install -y valgrind >/dev/null 2>&1 || { apt-get update >/dev/null && apt-get install -y valgrind >/dev/null; }
fi
counts="$(bash "$here/callcount.sh")"
echo "$counts"
status=0
while read -r kind expected; do
  case "$kind" in ''|'#'*) continue ;; esac
  got="$(echo "$counts" | awk -v k="$kind:" '$1 == k {print $2}')"
  if [ -z "$got" ]; then echo "guard: no count for $kind" >&2; status=1; continue; fi
  limit=$(( expected * 110 / 100 ))
  if [ "$got" -gt "$limit" ]; then
    echo "guard: $kind costs $got instructions per call, over $limit (expected $expected + 10%)" >&2
    status=1
  else
    echo "guard: $kind $got <= $limit (expected $expected + 10%)"
  fi
done < "$here/callcount.expected"
exit $status

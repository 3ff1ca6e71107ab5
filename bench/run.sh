#!/usr/bin/env bash
# The one command of the lab (bench/README.md): builds every contestant (release, thin LTO) and
# runs them side by side, printing the table. Needs valgrind, wrk and taskset (util-linux).
#   bench/run.sh             # three interleaved rounds, N = 10,000 for instruction counts
#   bench/run.sh --quick     # small counts, one try of everything
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
for tool in valgrind wrk taskset; do
  command -v "$tool" >/dev/null || { echo "bench: $tool is missing (apt-get install valgrind wrk util-linux)" >&2; exit 2; }
done
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$here/lab/target}"
(cd "$here/lab" && cargo build --quiet --release --locked --bins)
exec python3 "$here/lab/lab.py" "$@"

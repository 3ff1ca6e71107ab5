#!/usr/bin/env bash
# Runs every fuzz target (or the ones named) for SECONDS each (default 600), one after another,
# from the checked-in seeds plus the local corpus, and prints one line per target:
#   <target> <seconds> <executions> <crashes>
# A crash, a hang past 10 s on one input, or a process past 512 MiB stops that target with its
# input under artifacts/<target>/, and the script exits 1 after the rest have run.
#
#   fuzz/run.sh            # 10 minutes each
#   fuzz/run.sh 10         # the gate's smoke
#   fuzz/run.sh 3600 core  # one target, an hour
set -uo pipefail
cd "$(dirname "$0")"
seconds="${1:-600}"
shift || true
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  targets=(core stdio_framing http_headers schema uri_template cursor)
fi
# No nightly toolchain can be fetched here: the installed stable one builds the sanitizer flags.
export RUSTC_BOOTSTRAP=1
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$PWD/target}"
cargo fuzz build -O >/dev/null 2>&1 || cargo fuzz build -O || exit 2
failed=0
for target in "${targets[@]}"; do
  mkdir -p "corpus/$target" "artifacts/$target"
  log="$(mktemp)"
  cargo fuzz run -O "$target" "corpus/$target" "seeds/$target" -- \
    -max_total_time="$seconds" -timeout=10 -rss_limit_mb=512 -malloc_limit_mb=512 \
    -max_len=65536 -print_final_stats=1 \
    -artifact_prefix="artifacts/$target/" >"$log" 2>&1
  status=$?
  runs="$(grep -oE 'stat::number_of_executed_units: *[0-9]+' "$log" | grep -oE '[0-9]+$' | tail -1)"
  crashes=0
  if [ $status -ne 0 ]; then
    crashes=1
    failed=1
    grep -E 'ERROR|panicked|SUMMARY|Test unit written' "$log" | head -5 >&2
  fi
  echo "$target ${seconds}s ${runs:-?} executions ${crashes} crashes"
  rm -f "$log"
done
exit $failed

#!/usr/bin/env bash
# Runs the reference clients (Python `mcp`, TypeScript SDK v2 and v1) against the weather
# example over stdio, on every revision each client speaks. Exits non-zero on any failure.
# Usage: tests/interop/run.sh [path/to/weather]   (default: builds it with cargo)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
"$here/setup.sh"
server="${1:-}"
if [ -z "$server" ]; then
    (cd "$here/../.." && cargo build --quiet -p weather)
    server="${CARGO_TARGET_DIR:-$here/../../target}/debug/weather"
fi
cd "$here"
passed=0; failed=0
run() {
    local label="$1"; shift
    if out="$("$@" 2>&1)"; then
        passed=$((passed + 1)); echo "interop ok:   $label"
    else
        failed=$((failed + 1)); echo "interop FAIL: $label"; echo "$out" | tail -n 20
    fi
}
# Every run also lists, reads and gets: each listed resource, a template-matched URI, a prompt
# with arguments, and a completion of that prompt's argument.
catalog_args=(--read weather://station/Oslo --prompt plan_trip --prompt-args '{"place":"Oslo","duration":"a week"}' --complete plan_trip:place:O)
text_args=(--tool get_weather --args '{"place":"Paris"}' --bad-args '{"place":42}' "${catalog_args[@]}")
structured_args=(--tool reading --args '{"place":"Lisbon"}' --bad-args '{"place":42}')
for rev in auto 2026-07-28 2025-11-25; do
    run "python mcp, $rev, text" timeout 120 .venv/bin/python py_client.py --revision "$rev" "${text_args[@]}" -- "$server"
    run "python mcp, $rev, structured" timeout 120 .venv/bin/python py_client.py --revision "$rev" "${structured_args[@]}" -- "$server"
    run "ts client v2, $rev, text" timeout 120 node ts_client.mjs --revision "$rev" "${text_args[@]}" --server-cmd "$server"
    run "ts client v2, $rev, structured" timeout 120 node ts_client.mjs --revision "$rev" "${structured_args[@]}" --server-cmd "$server"
done
run "ts client v2, 2026-07-28, probe in place" timeout 120 node ts_client.mjs --revision 2026-07-28 --probe-in-place "${text_args[@]}" --server-cmd "$server"
run "ts sdk v1, 2025-11-25, text" timeout 120 node ts_client.mjs --sdk v1 --revision 2025-11-25 "${text_args[@]}" --server-cmd "$server"
run "ts sdk v1, 2025-11-25, structured" timeout 120 node ts_client.mjs --sdk v1 --revision 2025-11-25 "${structured_args[@]}" --server-cmd "$server"
echo "interop: $passed passed, $failed failed"
[ "$failed" -eq 0 ]

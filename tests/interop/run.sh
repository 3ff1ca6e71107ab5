#!/usr/bin/env bash
# Runs the reference clients (Python `mcp`, TypeScript SDK v2 and v1, rmcp) against the weather
# example over stdio, on every revision each client speaks, then the Python and TypeScript v2
# clients over Streamable HTTP at 2026-07-28. Exits non-zero on any failure.
# Usage: tests/interop/run.sh [path/to/weather]   (default: builds it with cargo)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
"$here/setup.sh"
server="${1:-}"
if [ -z "$server" ]; then
    (cd "$here/../.." && cargo build --quiet -p weather)
    server="${CARGO_TARGET_DIR:-$here/../../target}/debug/weather"
fi
rmcp_client="${CARGO_TARGET_DIR:-$here/../../target}/interop-rmcp/debug/beam-mcp-interop-rmcp" # built by setup.sh
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
# with arguments, and a completion of that prompt's argument. The text runs also call `forecast`
# with each SDK's progress callback: at least one notifications/progress must arrive before the
# result, with strictly increasing values.
catalog_args=(--read weather://station/Oslo --prompt plan_trip --prompt-args '{"place":"Oslo","duration":"a week"}' --complete plan_trip:place:O)
progress_args=(--progress-tool forecast --progress-args '{"place":"Oslo","days":3}')
text_args=(--tool get_weather --args '{"place":"Paris"}' --bad-args '{"place":42}' "${catalog_args[@]}" "${progress_args[@]}")
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
# rmcp: 2025-11-25 is its default `serve()` (initialize; `_meta.progressToken` on every request).
for rev in 2025-11-25 2026-07-28 auto; do
    run "rmcp, $rev, text" timeout 120 "$rmcp_client" --revision "$rev" "${text_args[@]}" -- "$server"
    run "rmcp, $rev, structured" timeout 120 "$rmcp_client" --revision "$rev" "${structured_args[@]}" -- "$server"
done
# Streamable HTTP at 2026-07-28: the same example, started with --http on a free loopback port.
port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
"$server" --http "127.0.0.1:$port" 2>"$here/.http-server.log" &
http_pid=$!
trap 'kill "$http_pid" 2>/dev/null || true' EXIT
for _ in $(seq 1 100); do
    grep -q "listening on" "$here/.http-server.log" 2>/dev/null && break
    sleep 0.1
done
url="http://127.0.0.1:$port/mcp"
run "python mcp, 2026-07-28, http, text" timeout 120 .venv/bin/python py_client.py --revision 2026-07-28 --url "$url" "${text_args[@]}"
run "python mcp, 2026-07-28, http, structured" timeout 120 .venv/bin/python py_client.py --revision 2026-07-28 --url "$url" "${structured_args[@]}"
run "python mcp, auto, http, text" timeout 120 .venv/bin/python py_client.py --revision auto --expect-version 2026-07-28 --url "$url" "${text_args[@]}"
run "ts client v2, 2026-07-28, http, text" timeout 120 node ts_client.mjs --revision 2026-07-28 --url "$url" "${text_args[@]}"
run "ts client v2, 2026-07-28, http, structured" timeout 120 node ts_client.mjs --revision 2026-07-28 --url "$url" "${structured_args[@]}"
run "ts client v2, auto, http, text" timeout 120 node ts_client.mjs --revision auto --expect-version 2026-07-28 --url "$url" "${text_args[@]}"
kill "$http_pid" 2>/dev/null || true
echo "interop: $passed passed, $failed failed"
[ "$failed" -eq 0 ]

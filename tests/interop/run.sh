#!/usr/bin/env bash
# Runs the reference clients (Python `mcp`, TypeScript SDK v2 and v1, rmcp) against the weather
# example over stdio, on every revision each client speaks, then the Python and TypeScript v2
# clients over Streamable HTTP at 2026-07-28, each checking the exact values the server answers.
# Then the negative controls: every client against liar.py, which must make each of them fail.
# Exits non-zero on any failure.
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
neg_stderr="$(mktemp)"
trap 'rm -f "$neg_stderr"' EXIT
# The errors of a client's JSON summary (the last stdout line that is one), one per line.
errors_of() {
    python3 -c 'import json, sys
for line in reversed(sys.stdin.read().splitlines()):
    try:
        errors = json.loads(line)["errors"]
    except (ValueError, KeyError, TypeError):
        continue
    print("\n".join(e.replace("\n", " ") for e in errors))
    break'
}
# Shows why a run failed: its summary's errors (they name expected and actual values) and the
# rest of its output (stderr); the raw output if it printed no summary.
why() {
    local errs
    errs="$(printf '%s\n' "$1" | errors_of)"
    if [ -z "$errs" ]; then printf '%s\n' "$1" | tail -n 20; return; fi
    sed 's/^/    /' <<<"$errs"
    grep -v '^{' <<<"$1" | tail -n 10 || true
}
run() {
    local label="$1" out; shift
    if out="$("$@" 2>&1)"; then
        passed=$((passed + 1)); echo "interop ok:   $label"
    else
        failed=$((failed + 1)); echo "interop FAIL: $label"; why "$out"
    fi
}
# A negative control: the client must fail (exit 1) and report "<check> mismatch: expected ..."
# for every check in $2 ("|"-separated), one per lie liar.py tells. Passing means it checks nothing.
negative() {
    local label="negative control, $1" checks="$2" out errs rc=0 missed="" check
    shift 2
    out="$("$@" 2>"$neg_stderr")" || rc=$?
    errs="$(printf '%s\n' "$out" | errors_of)"
    IFS='|' read -ra want <<<"$checks"
    for check in "${want[@]}"; do
        grep -qF "$check mismatch: expected " <<<"$errs" || missed="${missed:+$missed, }$check"
    done
    if [ "$rc" -eq 0 ]; then
        failed=$((failed + 1)); echo "interop FAIL: $label: negative control passed: the client checks nothing"
    elif [ "$rc" -ne 1 ] || [ -n "$missed" ]; then
        failed=$((failed + 1))
        echo "interop FAIL: $label: wanted exit 1 and a mismatch per lie, got exit $rc${missed:+, no mismatch for: $missed}"
        why "$out$(printf '\n'; cat "$neg_stderr")"
    else
        passed=$((passed + 1))
        echo "interop ok:   $label (failed as expected, all ${#want[@]} lies caught: $(head -n 1 <<<"$errs"))"
    fi
}

# The exact values the weather example answers (examples/weather/src); every run compares them.
# The text runs call get_weather, list and read every resource plus a template-matched URI, get a
# prompt with arguments and complete its argument; they also call `forecast` with each SDK's
# progress callback: at least one notifications/progress must arrive before the result, with
# strictly increasing values. The structured runs call `reading` (structuredContent).
# Schema-invalid arguments get a tool error (isError: true), not JSON-RPC -32602: pinned below.
oslo_json='{\"place\":\"Oslo\",\"celsius\":-3,\"sky\":\"snow\"}' # JSON text inside JSON strings
expect_read='{
  "weather://icon.png": [{"uri": "weather://icon.png", "mimeType": "image/png",
    "blob": "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAACklEQVR4nGMAAQAABQABDQottAAAAABJRU5ErkJggg=="}],
  "weather://stations": [{"uri": "weather://stations", "mimeType": "text/plain", "text": "Lisbon\nOslo\nParis"}],
  "weather://station/Oslo": [{"uri": "weather://station/Oslo", "mimeType": "application/json", "text": "'"$oslo_json"'"}]
}'
expect_prompt='[
  {"role": "user", "type": "text", "text": "I am going to Oslo for a week. What should I pack?"},
  {"role": "user", "type": "resource", "uri": "weather://station/Oslo", "mimeType": "application/json", "text": "'"$oslo_json"'"},
  {"role": "assistant", "type": "text", "text": "I will read the current reading first, then suggest a list."}
]'
catalog_args=(--read weather://station/Oslo --expect-read "$expect_read"
    --prompt plan_trip --prompt-args '{"place":"Oslo","duration":"a week"}' --expect-prompt "$expect_prompt"
    --complete plan_trip:place:O --expect-completion '["Oslo"]')
progress_args=(--progress-tool forecast --progress-args '{"place":"Oslo","days":3}')
text_args=(--tool get_weather --args '{"place":"Paris"}' --expect-text 'Paris: 14.5 °C, cloudy'
    --bad-args '{"place":42}' --expect-bad-text 'get_weather: invalid arguments: place must be of type string'
    "${catalog_args[@]}" "${progress_args[@]}")
structured_args=(--tool reading --args '{"place":"Lisbon"}'
    --expect-structured '{"celsius":21.0,"sky":"sunny"}' --expect-text '{"celsius":21.0,"sky":"sunny"}'
    --bad-args '{"place":42}' --expect-bad-text 'reading: invalid arguments: place must be of type string')
# The revision every run must negotiate. `auto` over stdio: each client's auto mode (Python
# negotiate_auto, TS v2 versionNegotiation 'auto', rmcp ClientLifecycleMode::Auto) probes
# server/discover first, and this server answers it, so auto lands on 2026-07-28; a silent
# fallback to initialize (2025-11-25) fails the run.
declare -A negotiates=([auto]=2026-07-28 [2026-07-28]=2026-07-28 [2025-11-25]=2025-11-25)
auto=(--revision auto --expect-version "${negotiates[auto]}")
modern=(--revision 2026-07-28 --expect-version 2026-07-28)
legacy=(--revision 2025-11-25 --expect-version 2025-11-25)
for rev in auto 2026-07-28 2025-11-25; do
    v=(--revision "$rev" --expect-version "${negotiates[$rev]}")
    run "python mcp, $rev, text" timeout 120 .venv/bin/python py_client.py "${v[@]}" "${text_args[@]}" -- "$server"
    run "python mcp, $rev, structured" timeout 120 .venv/bin/python py_client.py "${v[@]}" "${structured_args[@]}" -- "$server"
    run "ts client v2, $rev, text" timeout 120 node ts_client.mjs "${v[@]}" "${text_args[@]}" --server-cmd "$server"
    run "ts client v2, $rev, structured" timeout 120 node ts_client.mjs "${v[@]}" "${structured_args[@]}" --server-cmd "$server"
done
run "ts client v2, 2026-07-28, probe in place" timeout 120 node ts_client.mjs "${modern[@]}" --probe-in-place "${text_args[@]}" --server-cmd "$server"
run "ts sdk v1, 2025-11-25, text" timeout 120 node ts_client.mjs --sdk v1 "${legacy[@]}" "${text_args[@]}" --server-cmd "$server"
run "ts sdk v1, 2025-11-25, structured" timeout 120 node ts_client.mjs --sdk v1 "${legacy[@]}" "${structured_args[@]}" --server-cmd "$server"
# rmcp: 2025-11-25 is its default `serve()` (initialize; `_meta.progressToken` on every request).
for rev in 2025-11-25 2026-07-28 auto; do
    v=(--revision "$rev" --expect-version "${negotiates[$rev]}")
    run "rmcp, $rev, text" timeout 120 "$rmcp_client" "${v[@]}" "${text_args[@]}" -- "$server"
    run "rmcp, $rev, structured" timeout 120 "$rmcp_client" "${v[@]}" "${structured_args[@]}" -- "$server"
done

# Streamable HTTP at 2026-07-28: the same example, started with --http on a free loopback port.
port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
"$server" --http "127.0.0.1:$port" 2>"$here/.http-server.log" &
http_pid=$!
trap 'kill "$http_pid" 2>/dev/null || true; rm -f "$neg_stderr"' EXIT
for _ in $(seq 1 100); do
    grep -q "listening on" "$here/.http-server.log" 2>/dev/null && break
    sleep 0.1
done
url="http://127.0.0.1:$port/mcp"
run "python mcp, 2026-07-28, http, text" timeout 120 .venv/bin/python py_client.py "${modern[@]}" --url "$url" "${text_args[@]}"
run "python mcp, 2026-07-28, http, structured" timeout 120 .venv/bin/python py_client.py "${modern[@]}" --url "$url" "${structured_args[@]}"
run "python mcp, auto, http, text" timeout 120 .venv/bin/python py_client.py "${auto[@]}" --url "$url" "${text_args[@]}"
run "ts client v2, 2026-07-28, http, text" timeout 120 node ts_client.mjs "${modern[@]}" --url "$url" "${text_args[@]}"
run "ts client v2, 2026-07-28, http, structured" timeout 120 node ts_client.mjs "${modern[@]}" --url "$url" "${structured_args[@]}"
run "ts client v2, auto, http, text" timeout 120 node ts_client.mjs "${auto[@]}" --url "$url" "${text_args[@]}"
kill "$http_pid" 2>/dev/null || true

# Negative controls: liar.py runs the same server and tells one lie per check. The text run lies
# about the tool text, the bad call, the read resource, the prompt and the completion, plus the
# version: `auto` gets -32601 for server/discover (a silent fallback to 2025-11-25), TS v1 an
# initialize result that says 2025-06-18. The structured run lies about structuredContent and the
# version. Each client must name every lie as a mismatch.
liar=(python3 "$here/liar.py" --lie tool-text --lie bad-call --lie resource --lie prompt --lie completion)
text_checks="protocolVersion|tools/call get_weather content|tools/call get_weather (bad args)"
text_checks+="|resources/read weather://station/Oslo|prompts/get plan_trip|completion/complete plan_trip:place:O"
structured_liar=(python3 "$here/liar.py" --lie structured --lie old-version)
structured_checks="protocolVersion|tools/call reading structuredContent"
negative "python mcp, auto, text" "$text_checks" \
    timeout 120 .venv/bin/python py_client.py "${auto[@]}" "${text_args[@]}" -- "${liar[@]}" --lie no-discover -- "$server"
negative "python mcp, 2025-11-25, structured" "$structured_checks" \
    timeout 120 .venv/bin/python py_client.py "${legacy[@]}" "${structured_args[@]}" -- "${structured_liar[@]}" -- "$server"
negative "ts client v2, auto, text" "$text_checks" \
    timeout 120 node ts_client.mjs "${auto[@]}" "${text_args[@]}" -- "${liar[@]}" --lie no-discover -- "$server"
negative "ts client v2, 2025-11-25, structured" "$structured_checks" \
    timeout 120 node ts_client.mjs "${legacy[@]}" "${structured_args[@]}" -- "${structured_liar[@]}" -- "$server"
negative "ts sdk v1, 2025-11-25, text" "$text_checks" \
    timeout 120 node ts_client.mjs --sdk v1 "${legacy[@]}" "${text_args[@]}" -- "${liar[@]}" --lie old-version -- "$server"
negative "ts sdk v1, 2025-11-25, structured" "$structured_checks" \
    timeout 120 node ts_client.mjs --sdk v1 "${legacy[@]}" "${structured_args[@]}" -- "${structured_liar[@]}" -- "$server"
negative "rmcp, auto, text" "$text_checks" \
    timeout 120 "$rmcp_client" "${auto[@]}" "${text_args[@]}" -- "${liar[@]}" --lie no-discover -- "$server"
negative "rmcp, 2025-11-25, structured" "$structured_checks" \
    timeout 120 "$rmcp_client" "${legacy[@]}" "${structured_args[@]}" -- "${structured_liar[@]}" -- "$server"
echo "interop: $passed passed, $failed failed"
[ "$failed" -eq 0 ]

#!/usr/bin/env bash
# Runs the reference clients (Python `mcp`, TypeScript SDK v2 and v1, rmcp, rust-mcp-sdk 1.x and
# 2.x, the MCP Inspector CLI) against the weather example over stdio and then over Streamable
# HTTP, on every revision each client speaks, each checking the exact values the server answers;
# the Python and TypeScript clients also drive `book_trip`, which elicits (accepted, then
# declined). Then the negative controls: clients against liar.py (stdio and HTTP), which must make
# each of them fail. A step a client cannot do because of its own bug runs as a known client bug
# (see known_client_bug). Exits non-zero on any failure.
# Usage: tests/interop/run.sh [path/to/weather]   (default: builds it with cargo)
#        tests/interop/run.sh --url URL          (only the clients' HTTP runs, against a weather
#                                                 endpoint already serving at URL: the balancer's
#                                                 replicas, tests/balancer/run.sh clients)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
"$here/setup.sh"
server="${1:-}" only_url=""
if [ "$server" = --url ]; then
    only_url="${2:?--url needs a URL}"
    server=unused
fi
if [ -z "$server" ]; then
    rm -f "${CARGO_TARGET_DIR:-$here/../../target}/debug/weather"  # link this checkout's build
    (cd "$here/../.." && cargo build --locked --quiet -p weather)
    server="${CARGO_TARGET_DIR:-$here/../../target}/debug/weather"
fi
rmcp_client="${CARGO_TARGET_DIR:-$here/../../target}/interop-rmcp/debug/beam-mcp-interop-rmcp" # built by setup.sh
rmsdk_client="${CARGO_TARGET_DIR:-$here/../../target}/interop-rust-mcp-sdk/debug/beam-mcp-interop-rust-mcp-sdk" # built by setup.sh
rmcp_server="${CARGO_TARGET_DIR:-$here/../../target}/interop-rmcp-server/debug/beam-mcp-interop-rmcp-server" # built by setup.sh
cd "$here"
passed=0; failed=0; runs=0; controls=0; known_bugs=0
work="$(mktemp -d)"
neg_stderr="$work/negative.stderr"
bg_pids=()
cleanup() {
    local pid
    for pid in "${bg_pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    rm -rf "$work"
}
trap cleanup EXIT
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
# Seconds since $1 (an $EPOCHREALTIME), to a tenth.
since() { awk -v a="$1" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1fs", b - a }'; }
run() {
    local label="$1" out t0="$EPOCHREALTIME"; shift
    runs=$((runs + 1))
    if out="$("$@" 2>&1)"; then
        passed=$((passed + 1)); echo "interop ok:   $label ($(since "$t0"))"
    else
        failed=$((failed + 1)); echo "interop FAIL: $label ($(since "$t0"))"; why "$out"
    fi
}
# known_client_bug LABEL SIGNATURE CMD...: a step a client cannot do because of a bug of its own
# (README.md, "Known client bugs", has the evidence). It is run and its errors are printed as the
# evidence, but it counts neither as passed nor as failed: only in $known_bugs, which ./counts
# pins. Anything but the known failure is a failure: the step passing (the bug is gone: move it
# back into the runs), or failing with any error that lacks SIGNATURE (something else broke, and
# the known bug must not hide it).
known_client_bug() {
    local label="$1" signature="$2" out errs rc=0 t0="$EPOCHREALTIME"
    shift 2
    known_bugs=$((known_bugs + 1))
    out="$("$@" 2>&1)" || rc=$?
    errs="$(printf '%s\n' "$out" | errors_of)"
    if [ "$rc" -eq 0 ]; then
        failed=$((failed + 1))
        echo "interop FAIL: known client bug, $label ($(since "$t0")): it passed, the bug is gone: make it a run again"
    elif [ "$rc" -ne 1 ] || [ -z "$errs" ] || grep -qvF -- "$signature" <<<"$errs"; then
        failed=$((failed + 1))
        echo "interop FAIL: known client bug, $label ($(since "$t0")): wanted exit 1 and only the error \"$signature...\", got exit $rc"
        why "$out"
    else
        echo "interop known client bug (neither passed nor failed): $label ($(since "$t0")):"
        sed 's/^/    /' <<<"$errs"
    fi
}
# A negative control: the client must fail (exit 1) and report "<check> mismatch: expected ..."
# for every check in $2 ("|"-separated), one per lie liar.py tells. Passing means it checks nothing.
negative() {
    local label="negative control, $1" checks="$2" out errs rc=0 missed="" check t0="$EPOCHREALTIME"
    shift 2
    controls=$((controls + 1))
    out="$("$@" 2>"$neg_stderr")" || rc=$?
    errs="$(printf '%s\n' "$out" | errors_of)"
    IFS='|' read -ra want <<<"$checks"
    for check in "${want[@]}"; do
        grep -qF "$check mismatch: expected " <<<"$errs" || missed="${missed:+$missed, }$check"
    done
    if [ "$rc" -eq 0 ]; then
        failed=$((failed + 1)); echo "interop FAIL: $label ($(since "$t0")): negative control passed: the client checks nothing"
    elif [ "$rc" -ne 1 ] || [ -n "$missed" ]; then
        failed=$((failed + 1))
        echo "interop FAIL: $label ($(since "$t0")): wanted exit 1 and a mismatch per lie, got exit $rc${missed:+, no mismatch for: $missed}"
        why "$out$(printf '\n'; cat "$neg_stderr")"
    else
        passed=$((passed + 1))
        echo "interop ok:   $label ($(since "$t0"); failed as expected, all ${#want[@]} lies caught: $(head -n 1 <<<"$errs"))"
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
# The MCP Apps view (issue 28) is read like every listed resource: its text is the example's file.
expect_read="$(python3 - "$expect_read" "$here/../../examples/weather/assets/reading.html" <<'PY'
import json, sys
read = json.loads(sys.argv[1])
with open(sys.argv[2], encoding="utf-8") as view:
    read["ui://weather/reading"] = [{"uri": "ui://weather/reading", "mimeType": "text/html;profile=mcp-app", "text": view.read()}]
print(json.dumps(read))
PY
)"
expect_prompt='[
  {"role": "user", "type": "text", "text": "I am going to Oslo for a week. What should I pack?"},
  {"role": "user", "type": "resource", "uri": "weather://station/Oslo", "mimeType": "application/json", "text": "'"$oslo_json"'"},
  {"role": "assistant", "type": "text", "text": "I will read the current reading first, then suggest a list."}
]'
catalog_args=(--read weather://station/Oslo --expect-read "$expect_read"
    --prompt plan_trip --prompt-args '{"place":"Oslo","duration":"a week"}' --expect-prompt "$expect_prompt"
    --complete plan_trip:place:O --expect-completion '["Oslo"]')
progress_args=(--progress-tool forecast --progress-args '{"place":"Oslo","days":3}')
weather_args=(--tool get_weather --args '{"place":"Paris"}' --expect-text 'Paris: 14.5 °C, cloudy'
    --bad-args '{"place":42}' --expect-bad-text 'get_weather: invalid arguments: place must be of type string')
text_args=("${weather_args[@]}" "${catalog_args[@]}" "${progress_args[@]}")
# The text runs less progress: rust-mcp-sdk over HTTP, whose progress call is a known client bug.
text_args_no_progress=("${weather_args[@]}" "${catalog_args[@]}")
structured_args=(--tool reading --args '{"place":"Lisbon"}'
    --expect-structured '{"celsius":21.0,"sky":"sunny"}' --expect-text '{"celsius":21.0,"sky":"sunny"}'
    --bad-args '{"place":42}' --expect-bad-text 'reading: invalid arguments: place must be of type string')
# The Python and TypeScript text runs also call the tools whose arguments are a tagged enum
# (`convert`) and a recursive tree (`region_mean`), each with a valid value (its exact answer) and
# an invalid one (the exact refusal, naming the path, before host code runs).
convert_good='{"temperature":{"unit":"fahrenheit","degrees":212}}'
convert_bad='{"temperature":{"unit":"kelvin","degrees":-1}}'
region_good='{"region":{"name":"Europe","stations":["Paris"],"regions":[{"name":"North","stations":["Oslo"]},{"name":"South","regions":[{"name":"Iberia","stations":["Lisbon"]}]}]}}'
region_bad='{"region":{"name":"Europe","regions":[{"name":"North","regions":[{"stations":["Oslo"]}]}]}}'
convert_bad_text='convert: invalid arguments: temperature matches none of the oneOf alternatives; the closest fails with: temperature.degrees must be >= 0'
region_bad_text='region_mean: invalid arguments: region.regions[0].regions[0]: missing required property: name'
shape_calls=(
    --also-call '{"tool":"convert","args":'"$convert_good"',"text":"100 °C = 212 °F = 373.15 K"}'
    --also-call '{"tool":"convert","args":'"$convert_bad"',"error":"'"$convert_bad_text"'"}'
    --also-call '{"tool":"region_mean","args":'"$region_good"',"text":"Europe: 10.83 °C over 3 stations (Lisbon, Oslo, Paris) in 4 regions"}'
    --also-call '{"tool":"region_mean","args":'"$region_bad"',"error":"'"$region_bad_text"'"}')
sdk_text_args=("${text_args[@]}" "${shape_calls[@]}")
# What hosts display (issue 28), read back by the Python client and the Inspector CLI: the server's
# title, description, site and icon; a tool's and a prompt's icons; resources' size and
# annotations; the MCP Apps links of two tools and the view's _meta.ui. The icons are the example's asset files as data: URIs, encoded here by coreutils.
assets="$here/../../examples/weather/assets"
sun_png="data:image/png;base64,$(base64 -w0 "$assets/sun.png")"
weather_svg="data:image/svg+xml;base64,$(base64 -w0 "$assets/weather.svg")"
expect_metadata='{
  "serverInfo": {"name": "weather", "title": "Weather", "websiteUrl": "https://example.invalid/beam-mcp/weather",
    "description": "Current readings and toy forecasts for a few European cities.",
    "icons": [{"src": "'"$weather_svg"'", "mimeType": "image/svg+xml", "sizes": ["any"], "theme": "light"}]},
  "tools": {"get_weather": {"title": "Current weather",
    "icons": [{"src": "'"$sun_png"'", "mimeType": "image/png", "sizes": ["16x16"]}]},
    "reading": {"_meta": {"ui": {"resourceUri": "ui://weather/reading", "visibility": ["model", "app"]},
      "ui/resourceUri": "ui://weather/reading"}},
    "reading_fahrenheit": {"_meta": {"ui": {"resourceUri": "ui://weather/reading", "visibility": ["app"]},
      "ui/resourceUri": "ui://weather/reading"}}},
  "resources": {
    "ui://weather/reading": {"title": "Reading card", "mimeType": "text/html;profile=mcp-app",
      "_meta": {"ui": {"csp": {"connectDomains": ["https://api.example.invalid"],
        "resourceDomains": ["https://fonts.example.invalid"]},
        "permissions": {"clipboardWrite": {}}, "prefersBorder": true}}},
    "weather://stations": {"title": "Stations",
      "annotations": {"audience": ["user", "assistant"], "priority": 0.8, "lastModified": "2026-07-28T09:00:00Z"}},
    "weather://icon.png": {"size": 67, "annotations": {"audience": ["user"], "priority": 0}}},
  "resourceTemplates": {"weather://station/{place}": {"name": "station", "mimeType": "application/json"}},
  "prompts": {"plan_trip": {"title": "Plan a trip",
    "icons": [{"src": "'"$weather_svg"'", "mimeType": "image/svg+xml", "sizes": ["any"]}]}}
}'
metadata_args=(--expect-metadata "$expect_metadata")
# The example's skill (SEP-2640), listed, described and read by the rmcp client (the one pinned
# client that speaks the Skills extension): its frontmatter, and each file's exact text, read
# here from the files themselves.
expect_skills="$(python3 - "$here/../../examples/weather/skills/packing" <<'PY'
import json, os, sys
root = sys.argv[1]
files = {}
for folder, subfolders, names in os.walk(root):
    subfolders.sort()
    for name in sorted(names):
        path = os.path.join(folder, name)
        files["skill://packing/" + os.path.relpath(path, root)] = open(path, encoding="utf-8").read()
frontmatter = {
    "name": "packing",
    "description": "Decide what to pack for a trip from the weather at the destination. Use when someone plans a trip to a place this server has a station for.",
    "license": "Apache-2.0",
    "metadata": {"author": "beam-mcp", "version": "1.0"},
}
print(json.dumps({"skill://packing/SKILL.md": {"frontmatter": frontmatter, "files": dict(sorted(files.items()))}}))
PY
)"
skills_args=(--expect-skills "$expect_skills")
# The Inspector CLI runs: the text runs less completion and progress (the CLI has neither).
inspector_args=(--tool get_weather --args '{"place":"Paris"}' --expect-text 'Paris: 14.5 °C, cloudy'
    --bad-args '{"place":42}' --expect-bad-text 'get_weather: invalid arguments: place must be of type string'
    --read weather://station/Oslo --expect-read "$expect_read"
    --prompt plan_trip --prompt-args '{"place":"Oslo","duration":"a week"}' --expect-prompt "$expect_prompt")
# The elicit runs: book_trip for Oslo asks one form; the handler accepts it (2 travellers, window),
# then, on a second call, declines it. Both calls must ask exactly this and answer exactly that.
elicit_form='[{"message": "Book a trip to Oslo? It is -3 °C there, snow.", "requestedSchema": {
  "type": "object", "required": ["travellers", "seat"], "properties": {
    "travellers": {"type": "integer", "minimum": 1, "maximum": 9, "description": "How many people travel, 1 to 9."},
    "seat": {"type": "string", "enum": ["window", "aisle"], "description": "Where to sit."}}}}]'
elicit_args=(--elicit-tool book_trip --elicit-args '{"place":"Oslo"}' --elicit-content '{"travellers":2,"seat":"window"}'
    --expect-elicit-request "$elicit_form" --expect-elicit-text 'Booked a trip to Oslo for 2, window seats.'
    --expect-decline-text 'Not booked: you declined the trip to Oslo.')
# The revision every run must negotiate, over stdio and HTTP alike. `auto`: each client's auto mode
# (Python negotiate_auto and mcp.Client's default, TS v2 versionNegotiation 'auto', rmcp
# ClientLifecycleMode::Auto, Inspector --protocol-era auto) probes server/discover first, and this
# server answers it, so auto lands on 2026-07-28; a silent fallback to initialize (2025-11-25)
# fails the run. The defaults, pinned by the runs that pass no negotiation option: Python's
# mcp.Client is `auto` (the elicit run at auto), so 2026-07-28; TS v2 (no versionNegotiation),
# TS v1, rmcp (serve()) and the Inspector CLI (no --protocol-era) initialize: 2025-11-25.
declare -A negotiates=([auto]=2026-07-28 [2026-07-28]=2026-07-28 [2025-11-25]=2025-11-25)
auto=(--revision auto --expect-version "${negotiates[auto]}")
modern=(--revision 2026-07-28 --expect-version 2026-07-28)
legacy=(--revision 2025-11-25 --expect-version 2025-11-25)
# Every client on every revision it speaks, over one transport: $1 is "stdio" or "http"; the
# server is "-- CMD" (stdio) or "--url URL" (http). TS v2's probe in place is a stdio transport.
all_clients() {
    local via="$1" rev v at=""
    shift
    if [ "$via" = http ]; then at=", http"; fi
    for rev in auto 2026-07-28 2025-11-25; do
        v=(--revision "$rev" --expect-version "${negotiates[$rev]}")
        run "python mcp, $rev$at, text" timeout 120 .venv/bin/python py_client.py "${v[@]}" "${sdk_text_args[@]}" \
            "${metadata_args[@]}" "$@"
        run "python mcp, $rev$at, structured" timeout 120 .venv/bin/python py_client.py "${v[@]}" "${structured_args[@]}" "$@"
        run "python mcp, $rev$at, elicit" timeout 120 .venv/bin/python py_client.py "${v[@]}" "${elicit_args[@]}" "$@"
        run "ts client v2, $rev$at, text" timeout 120 node ts_client.mjs "${v[@]}" "${sdk_text_args[@]}" "$@"
        run "ts client v2, $rev$at, structured" timeout 120 node ts_client.mjs "${v[@]}" "${structured_args[@]}" "$@"
        run "ts client v2, $rev$at, elicit" timeout 120 node ts_client.mjs "${v[@]}" "${elicit_args[@]}" "$@"
    done
    if [ "$via" = stdio ]; then
        run "ts client v2, 2026-07-28, probe in place" \
            timeout 120 node ts_client.mjs "${modern[@]}" --probe-in-place "${sdk_text_args[@]}" "$@"
    fi
    run "ts sdk v1, 2025-11-25$at, text" timeout 120 node ts_client.mjs --sdk v1 "${legacy[@]}" "${sdk_text_args[@]}" "$@"
    run "ts sdk v1, 2025-11-25$at, structured" timeout 120 node ts_client.mjs --sdk v1 "${legacy[@]}" "${structured_args[@]}" "$@"
    run "ts sdk v1, 2025-11-25$at, elicit" timeout 120 node ts_client.mjs --sdk v1 "${legacy[@]}" "${elicit_args[@]}" "$@"
    # rmcp: 2025-11-25 is its default `serve()` (initialize; `_meta.progressToken` on every
    # request); over HTTP, StreamableHttpClientTransport::from_uri (reqwest).
    for rev in 2025-11-25 2026-07-28 auto; do
        v=(--revision "$rev" --expect-version "${negotiates[$rev]}")
        run "rmcp, $rev$at, text" timeout 120 "$rmcp_client" "${v[@]}" "${text_args[@]}" "${skills_args[@]}" "$@"
        run "rmcp, $rev$at, structured" timeout 120 "$rmcp_client" "${v[@]}" "${structured_args[@]}" "$@"
    done
    # rust-mcp-sdk: 1.x speaks only 2025-11-25 (initialize, offering LATEST_PROTOCOL_VERSION), 2.x
    # only 2026-07-28 (per-request _meta; server/discover); neither has an auto mode. Over HTTP
    # (rust-mcp-transport's client, default RequestOptions) its progress call is a known client
    # bug: the text runs leave it out, and known_client_bug runs it alone with the SDK's request
    # timeout at 5 s (its default is 60 s).
    local rmsdk_text=("${text_args[@]}")
    local rmsdk_progress_bug="tools/call forecast (progress): Transport error: SDK error: MCP error -32001: Request timeout"
    if [ "$via" = http ]; then rmsdk_text=("${text_args_no_progress[@]}"); fi
    run "rust-mcp-sdk 1.x, 2025-11-25$at, text" timeout 120 "$rmsdk_client" "${legacy[@]}" "${rmsdk_text[@]}" "$@"
    run "rust-mcp-sdk 1.x, 2025-11-25$at, structured" timeout 120 "$rmsdk_client" "${legacy[@]}" "${structured_args[@]}" "$@"
    run "rust-mcp-sdk 2.x, 2026-07-28$at, text" timeout 120 "$rmsdk_client" "${modern[@]}" "${rmsdk_text[@]}" "$@"
    run "rust-mcp-sdk 2.x, 2026-07-28$at, structured" timeout 120 "$rmsdk_client" "${modern[@]}" "${structured_args[@]}" "$@"
    if [ "$via" = http ]; then
        known_client_bug "rust-mcp-sdk 1.x, 2025-11-25$at, progress" "$rmsdk_progress_bug" \
            timeout 120 "$rmsdk_client" "${legacy[@]}" --skip-lists --request-timeout 5 "${progress_args[@]}" "$@"
        known_client_bug "rust-mcp-sdk 2.x, 2026-07-28$at, progress" "$rmsdk_progress_bug" \
            timeout 120 "$rmsdk_client" "${modern[@]}" --skip-lists --request-timeout 5 "${progress_args[@]}" "$@"
    fi
    # The Inspector CLI: one invocation per method (ten per run).
    for rev in 2025-11-25 auto 2026-07-28; do
        v=(--revision "$rev" --expect-version "${negotiates[$rev]}")
        run "inspector cli, $rev$at, text" timeout 300 .venv/bin/python inspector_client.py "${v[@]}" "${inspector_args[@]}" \
            "${metadata_args[@]}" "$@"
    done
}
# whole_lines FILE: FILE's lines that end with a newline (a last line still being written is
# left out).
whole_lines() {
    if [ -z "$(tail -c 1 "$1" 2>/dev/null)" ]; then
        cat "$1" 2>/dev/null
    else
        sed '$d' "$1"
    fi
}

# start LOG CMD...: runs CMD in the background with its stderr in LOG, waits for the line
# "listening on http://..." there, and sets $listening to that URL. The EXIT trap stops it.
# Only a whole line is read: a server may write its line in pieces (Rust's `eprintln!` on
# unbuffered stderr writes the text before an argument, the argument, then the rest), and a
# line read in part gave a URL without its port.
start() {
    local log="$1" _
    shift
    "$@" 2>"$log" &
    bg_pids+=("$!")
    # Up to 30 s: a start-up on a busy 2-core machine is not the run's business.
    for _ in $(seq 1 300); do
        listening="$(whole_lines "$log" | sed -n 's/.*listening on \(http[^ ]*\).*/\1/p' | head -n 1)"
        [ -n "$listening" ] && return
        sleep 0.1
    done
    echo "interop FAIL: $* did not start listening:"; cat "$log"; exit 1
}

# Every message the server sends in the runs below is recorded by liar.py --record (no lies: a
# tap on the pipes, or a proxy in front of the HTTP endpoint) and, at the end, validated against
# its revision's schema by wire_check.py, a result also against the keys its type declares.
wire_stdio="$work/wire-stdio.jsonl"
wire_http="$work/wire-http.jsonl"
if [ -n "$only_url" ]; then
    all_clients http --url "$only_url"
    echo "interop: $runs runs against $only_url, $known_bugs known client bugs (neither passed nor failed)"
    echo "interop: $passed passed, $failed failed (${SECONDS}s)"
    [ "$failed" -eq 0 ]
    exit
fi
all_clients stdio -- python3 "$here/liar.py" --record "$wire_stdio" -- "$server"

# Streamable HTTP: the same example, started with --http on a free loopback port, one server for
# every run (2026-07-28 requests and 2025-11-25 sessions on the same endpoint), through the tap.
# The endpoint itself, with no proxy between, is what the conformance suite, the e2e tests and
# the balancer step speak to.
port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
start "$here/.http-server.log" "$server" --http "127.0.0.1:$port"
url="$listening"
start "$work/tap.log" python3 "$here/liar.py" --record "$wire_http" --http "$url"
all_clients http --url "$listening"

# Negative controls: liar.py runs the same server (stdio) or fronts the HTTP one, and tells one lie
# per check. The text run lies about the tool text, the bad call, the read resource, the prompt
# and the completion, plus the version: `auto` gets -32601 for server/discover (a silent fallback
# to 2025-11-25), a 2025-11-25 client an initialize result that says 2025-06-18. The structured
# run lies about structuredContent and the version. The elicit run lies about the form's message
# and both answers. Each client must name every lie as a mismatch.
text_lies=(--lie tool-text --lie bad-call --lie resource --lie prompt --lie completion --lie shapes)
liar=(python3 "$here/liar.py" "${text_lies[@]}")
text_checks="protocolVersion|tools/call get_weather content|tools/call get_weather (bad args)"
text_checks+="|resources/read weather://station/Oslo|prompts/get plan_trip"
inspector_checks="$text_checks" # the Inspector CLI has no completion method
text_checks+="|completion/complete plan_trip:place:O"
# The Python and TypeScript clients also check the calls to `convert` and `region_mean`.
sdk_text_checks="$text_checks|tools/call convert $convert_good|tools/call region_mean $region_good"
structured_liar=(python3 "$here/liar.py" --lie structured --lie old-version)
structured_checks="protocolVersion|tools/call reading structuredContent"
elicit_liar=(python3 "$here/liar.py" --lie elicit-request --lie booking)
elicit_checks="tools/call book_trip elicitation (accept)|tools/call book_trip content (accept)"
elicit_checks+="|tools/call book_trip elicitation (decline)|tools/call book_trip content (decline)"
negative "python mcp, auto, text" "$sdk_text_checks" \
    timeout 120 .venv/bin/python py_client.py "${auto[@]}" "${sdk_text_args[@]}" -- "${liar[@]}" --lie no-discover -- "$server"
negative "python mcp, 2025-11-25, structured" "$structured_checks" \
    timeout 120 .venv/bin/python py_client.py "${legacy[@]}" "${structured_args[@]}" -- "${structured_liar[@]}" -- "$server"
negative "ts client v2, auto, text" "$sdk_text_checks" \
    timeout 120 node ts_client.mjs "${auto[@]}" "${sdk_text_args[@]}" -- "${liar[@]}" --lie no-discover -- "$server"
negative "ts client v2, 2025-11-25, structured" "$structured_checks" \
    timeout 120 node ts_client.mjs "${legacy[@]}" "${structured_args[@]}" -- "${structured_liar[@]}" -- "$server"
negative "ts sdk v1, 2025-11-25, text" "$sdk_text_checks" \
    timeout 120 node ts_client.mjs --sdk v1 "${legacy[@]}" "${sdk_text_args[@]}" -- "${liar[@]}" --lie old-version -- "$server"
negative "ts sdk v1, 2025-11-25, structured" "$structured_checks" \
    timeout 120 node ts_client.mjs --sdk v1 "${legacy[@]}" "${structured_args[@]}" -- "${structured_liar[@]}" -- "$server"
negative "rmcp, auto, text" "$text_checks" \
    timeout 120 "$rmcp_client" "${auto[@]}" "${text_args[@]}" -- "${liar[@]}" --lie no-discover -- "$server"
negative "rmcp, 2025-11-25, structured" "$structured_checks" \
    timeout 120 "$rmcp_client" "${legacy[@]}" "${structured_args[@]}" -- "${structured_liar[@]}" -- "$server"
negative "rust-mcp-sdk 1.x, 2025-11-25, text" "$text_checks" \
    timeout 120 "$rmsdk_client" "${legacy[@]}" "${text_args[@]}" -- "${liar[@]}" --lie old-version -- "$server"
negative "python mcp, 2026-07-28, elicit" "$elicit_checks" \
    timeout 120 .venv/bin/python py_client.py "${modern[@]}" "${elicit_args[@]}" -- "${elicit_liar[@]}" -- "$server"
negative "ts client v2, 2025-11-25, elicit" "$elicit_checks" \
    timeout 120 node ts_client.mjs "${legacy[@]}" "${elicit_args[@]}" -- "${elicit_liar[@]}" -- "$server"
# Over HTTP: three liars in front of the HTTP server, each on its own port.
start "$work/liar-auto.log" python3 "$here/liar.py" "${text_lies[@]}" --lie no-discover --http "$url"
liar_auto="$listening"
start "$work/liar-legacy.log" python3 "$here/liar.py" "${text_lies[@]}" --lie old-version --http "$url"
liar_legacy="$listening"
start "$work/liar-elicit.log" "${elicit_liar[@]}" --http "$url"
liar_elicit="$listening"
negative "python mcp, auto, http, text" "$sdk_text_checks" \
    timeout 120 .venv/bin/python py_client.py "${auto[@]}" "${sdk_text_args[@]}" --url "$liar_auto"
negative "ts client v2, auto, http, text" "$sdk_text_checks" \
    timeout 120 node ts_client.mjs "${auto[@]}" "${sdk_text_args[@]}" --url "$liar_auto"
negative "ts sdk v1, 2025-11-25, http, text" "$sdk_text_checks" \
    timeout 120 node ts_client.mjs --sdk v1 "${legacy[@]}" "${sdk_text_args[@]}" --url "$liar_legacy"
negative "rmcp, auto, http, text" "$text_checks" \
    timeout 120 "$rmcp_client" "${auto[@]}" "${text_args[@]}" --url "$liar_auto"
negative "rust-mcp-sdk 1.x, 2025-11-25, http, text" "$text_checks" \
    timeout 120 "$rmsdk_client" "${legacy[@]}" "${text_args_no_progress[@]}" --url "$liar_legacy"
negative "inspector cli, 2025-11-25, http, text" "$inspector_checks" \
    timeout 300 .venv/bin/python inspector_client.py "${legacy[@]}" "${inspector_args[@]}" --url "$liar_legacy"
negative "python mcp, 2025-11-25, http, elicit" "$elicit_checks" \
    timeout 120 .venv/bin/python py_client.py "${legacy[@]}" "${elicit_args[@]}" --url "$liar_elicit"
negative "ts client v2, 2026-07-28, http, elicit" "$elicit_checks" \
    timeout 120 node ts_client.mjs "${modern[@]}" "${elicit_args[@]}" --url "$liar_elicit"
negative "ts sdk v1, 2025-11-25, http, elicit" "$elicit_checks" \
    timeout 120 node ts_client.mjs --sdk v1 "${legacy[@]}" "${elicit_args[@]}" --url "$liar_elicit"
# OpenTelemetry across a real client: the Python client in its default configuration, with the
# OpenTelemetry SDK set up as an application would, injects its span into `params._meta`; the
# fixture's server span (exported over OTLP to a receiver in otel_check.py) must be its child.
fixture_bin="$(cd "$here/../.." && cargo build --locked --quiet -p beam-mcp-fixture --message-format=json \
    | python3 -c 'import json, sys
for line in sys.stdin:
    m = json.loads(line)
    if m.get("reason") == "compiler-artifact" and m["target"]["name"] == "fixture" and m.get("executable"):
        print(m["executable"])')"
run "python mcp, auto, stdio and http, traceparent in _meta parents the server span" \
    timeout 180 .venv/bin/python otel_check.py "$fixture_bin"
# The schema check of everything recorded above, and its own negative control: a 2026-07-28
# field on a 2025-11-25 result (and a wrong shape) must fail it.
wire_check() {
    local out rc=0 t0="$EPOCHREALTIME"
    runs=$((runs + 1))
    out="$(python3 "$here/wire_check.py" "$wire_stdio" "$wire_http" 2>&1)" || rc=$?
    if [ "$rc" -eq 0 ]; then
        passed=$((passed + 1)); echo "interop ok:   $(tail -n 1 <<<"$out") ($(since "$t0"))"
    else
        failed=$((failed + 1)); echo "interop FAIL: wire check ($(since "$t0")):"; sed 's/^/    /' <<<"$out" | tail -n 40
    fi
}
wire_check
negative_self_test() {
    local out rc=0 t0="$EPOCHREALTIME"
    controls=$((controls + 1))
    out="$(python3 "$here/wire_check.py" --self-test 2>&1)" || rc=$?
    if [ "$rc" -eq 0 ] && ! grep -q MISSED <<<"$out"; then
        passed=$((passed + 1)); echo "interop ok:   negative control, wire check ($(since "$t0"); $(grep -c caught <<<"$out") bad messages caught)"
    else
        failed=$((failed + 1)); echo "interop FAIL: negative control, wire check ($(since "$t0")):"; sed 's/^/    /' <<<"$out"
    fi
}
negative_self_test
# The other direction (issue 26): beam-mcp's own client (beam-mcp/examples/client_check.rs) against
# servers that are not ours, the official Python SDK's (py_server.py), TypeScript SDK v2's
# (ts_server.mjs) and Rust SDK's (rmcp-server/, rmcp 3.11.0), each a copy of the example's catalog so the same exact values are checked, plus
# `wait`/`last_wait` for a cancellation the server must hear (--cancel), at auto (which must land
# on 2026-07-28) and
# 2025-11-25, and against the weather example the same two ways; each elicitation is answered by
# the client's handler (an input-required round at 2026-07-28, a request on the session at
# 2025-11-25). Its negative control: the Python server behind liar.py, every lie caught.
if [ -z "$only_url" ]; then
    (cd "$here/../.." && cargo build --locked --quiet -p beam-mcp --features client-http --example client_check)
    client_check="${CARGO_TARGET_DIR:-$here/../../target}/debug/examples/client_check"
    py_server=(.venv/bin/python "$here/py_server.py")
    ts_server=(node "$here/ts_server.mjs")
    run "beam-mcp client, Python SDK server, stdio, auto" "$client_check" --cancel --expect-revision 2026-07-28 -- "${py_server[@]}"
    run "beam-mcp client, Python SDK server, stdio, 2025-11-25" "$client_check" --cancel --revision 2025-11-25 --expect-revision 2025-11-25 -- "${py_server[@]}"
    run "beam-mcp client, TypeScript SDK v2 server, stdio, auto" "$client_check" --cancel --expect-revision 2026-07-28 -- "${ts_server[@]}"
    run "beam-mcp client, TypeScript SDK v2 server, stdio, 2025-11-25" "$client_check" --cancel --revision 2025-11-25 --expect-revision 2025-11-25 -- "${ts_server[@]}"
    run "beam-mcp client, rmcp server, stdio, auto" "$client_check" --cancel --expect-revision 2026-07-28 -- "$rmcp_server"
    run "beam-mcp client, rmcp server, stdio, 2025-11-25" "$client_check" --cancel --revision 2025-11-25 --expect-revision 2025-11-25 -- "$rmcp_server"
    run "beam-mcp client, weather, stdio, auto" "$client_check" --expect-revision 2026-07-28 -- "$server"
    run "beam-mcp client, weather, stdio, 2025-11-25" "$client_check" --revision 2025-11-25 --expect-revision 2025-11-25 -- "$server"
    negative "beam-mcp client, Python SDK server behind liar.py" "revision|tool-text|bad-call|booking|completion" \
        "$client_check" --expect-revision 2026-07-28 -- python3 "$here/liar.py" --lie no-discover --lie tool-text \
        --lie bad-call --lie booking --lie completion -- "${py_server[@]}"
    # The same over Streamable HTTP: the Python server's endpoint, the example's ($url, above),
    # and the Python endpoint behind liar.py --http.
    start "$work/py-http.log" "${py_server[@]}" --http
    py_url="$listening"
    run "beam-mcp client, Python SDK server, HTTP, auto" "$client_check" --cancel --expect-revision 2026-07-28 --http "$py_url"
    run "beam-mcp client, Python SDK server, HTTP, 2025-11-25" "$client_check" --cancel --revision 2025-11-25 --expect-revision 2025-11-25 --http "$py_url"
    start "$work/ts-http.log" "${ts_server[@]}" --http
    ts_url="$listening"
    run "beam-mcp client, TypeScript SDK v2 server, HTTP, auto" "$client_check" --cancel --expect-revision 2026-07-28 --http "$ts_url"
    run "beam-mcp client, TypeScript SDK v2 server, HTTP, 2025-11-25" "$client_check" --cancel --revision 2025-11-25 --expect-revision 2025-11-25 --http "$ts_url"
    start "$work/rmcp-http.log" "$rmcp_server" --http
    rmcp_url="$listening"
    run "beam-mcp client, rmcp server, HTTP, auto" "$client_check" --cancel --expect-revision 2026-07-28 --http "$rmcp_url"
    run "beam-mcp client, rmcp server, HTTP, 2025-11-25" "$client_check" --cancel --revision 2025-11-25 --expect-revision 2025-11-25 --http "$rmcp_url"
    run "beam-mcp client, weather, HTTP, auto" "$client_check" --expect-revision 2026-07-28 --http "$url"
    run "beam-mcp client, weather, HTTP, 2025-11-25" "$client_check" --revision 2025-11-25 --expect-revision 2025-11-25 --http "$url"
    start "$work/py-liar.log" python3 "$here/liar.py" --lie no-discover --lie tool-text --lie bad-call --lie booking \
        --lie completion --http "$py_url"
    negative "beam-mcp client, Python SDK server behind liar.py, HTTP" "revision|tool-text|bad-call|booking|completion" \
        "$client_check" --expect-revision 2026-07-28 --http "$listening"
fi
# Composition (issue 26): examples/composed mounts two named catalogs that both declare `search`
# under their names beside its own `hello`, and proxies the Python SDK's server (py_server.py,
# over stdio) under `py`. Each client, in its default configuration and at auto, sees the
# namespaced names and calls through both mounts, the proxy and the server's own tool (the
# Python and TypeScript clients; rmcp and the Inspector the first mount's items), reads the
# mounted resource and a URI its mounted template matches, gets the mounted prompt and
# completes its argument, with exact values, over stdio and Streamable HTTP.
if [ -z "$only_url" ]; then
    (cd "$here/../.." && cargo build --locked --quiet -p composed)
    composed="${CARGO_TARGET_DIR:-$here/../../target}/debug/composed"
    composed_read='{
      "notes://notes/today": [{"uri": "notes://notes/today", "mimeType": "text/plain", "text": "nothing yet"}],
      "notes://notes/topic/rust": [{"uri": "notes://notes/topic/rust", "mimeType": "text/plain", "text": "all about rust"}],
      "weather://py/stations": [{"uri": "weather://py/stations", "mimeType": "text/plain", "text": "Lisbon\nOslo\nParis"}]
    }'
    composed_base=(--tool notes_search --args '{"text":"rust"}' --expect-text 'note about rust'
        --bad-args '{"text":1}' --expect-bad-text 'notes_search: invalid arguments: text must be of type string'
        --read notes://notes/topic/rust --expect-read "$composed_read"
        --prompt notes_summary --prompt-args '{"topic":"go"}'
        --expect-prompt '[{"role": "user", "type": "text", "text": "Summarise my notes on go."}]')
    composed_args=("${composed_base[@]}" --complete notes_summary:topic:r --expect-completion '["ruby","rust"]')
    composed_calls=(
        --also-call '{"tool":"files_search","args":{"text":"rust","limit":2},"text":"file about rust (at most 2)"}'
        --also-call '{"tool":"hello","args":{},"text":"hello from the composed server"}'
        --also-call '{"tool":"py_get_weather","args":{"place":"Paris"},"text":"Paris: 14.5 °C, cloudy"}'
        --also-call '{"tool":"py_get_weather","args":{"place":"Atlantis"},"error":"Error executing tool get_weather"}')
    proxied=(--remote py -- "$here/.venv/bin/python" "$here/py_server.py")
    # The proxied server's elicitation, relayed to the caller and its answer back: the Python
    # SDK's server asks the form its pydantic model makes, and refuses a declined one itself.
    py_elicit_form='[{"message": "Book a trip to Oslo? It is -3.0 °C there, snow.", "requestedSchema": {
      "type": "object", "required": ["travellers", "seat"], "properties": {
        "travellers": {"type": "integer", "title": "Travellers", "description": "How many travel"},
        "seat": {"type": "string", "title": "Seat", "description": "window or aisle"}}}}]'
    proxied_elicit=(--elicit-tool py_book_trip --elicit-args '{"place":"Oslo"}' --elicit-content '{"travellers":2,"seat":"window"}'
        --expect-elicit-request "$py_elicit_form" --expect-elicit-text 'Booked a trip to Oslo for 2, window seats.'
        --decline-is-error --expect-decline-text "Error executing tool book_trip: Resolver for parameter 'booking' could not resolve: elicitation was decline")
    composed_clients() {
        local at="$1"
        shift
        run "composed, python mcp, auto$at" timeout 120 .venv/bin/python py_client.py "${auto[@]}" "${composed_args[@]}" "${composed_calls[@]}" "$@"
        run "composed, python mcp, 2025-11-25$at" timeout 120 .venv/bin/python py_client.py "${legacy[@]}" "${composed_args[@]}" "${composed_calls[@]}" "$@"
        run "composed, python mcp, auto$at, proxied elicit" timeout 120 .venv/bin/python py_client.py "${auto[@]}" "${proxied_elicit[@]}" "$@"
        run "composed, python mcp, 2025-11-25$at, proxied elicit" timeout 120 .venv/bin/python py_client.py "${legacy[@]}" "${proxied_elicit[@]}" "$@"
        run "composed, ts client v2, auto$at" timeout 120 node ts_client.mjs "${auto[@]}" "${composed_args[@]}" "${composed_calls[@]}" "$@"
        run "composed, ts client v2, 2025-11-25$at" timeout 120 node ts_client.mjs "${legacy[@]}" "${composed_args[@]}" "${composed_calls[@]}" "$@"
        run "composed, ts sdk v1, 2025-11-25$at" timeout 120 node ts_client.mjs --sdk v1 "${legacy[@]}" "${composed_args[@]}" "${composed_calls[@]}" "$@"
        run "composed, rmcp, 2025-11-25$at" timeout 120 "$rmcp_client" "${legacy[@]}" "${composed_args[@]}" "$@"
        run "composed, inspector cli, 2025-11-25$at" timeout 300 .venv/bin/python inspector_client.py "${legacy[@]}" "${composed_base[@]}" "$@"
    }
    composed_clients "" -- "$composed" "${proxied[@]}"
    start "$work/composed-http.log" "$composed" --http 127.0.0.1:0 "${proxied[@]}"
    composed_clients ", http" --url "$listening"
fi
# The CLI (issue 27): `cargo beam-mcp inspect` and `call` against a server that is not ours, the
# official Python SDK's (py_server.py), over stdio and Streamable HTTP at auto and 2025-11-25,
# with exact text and exit statuses (cli_check.py); through liar.py's lies the check must fail.
# And `dev` kept by the Python SDK's clients while a crate's source changes.
if [ -z "$only_url" ]; then
    (cd "$here/../.." && cargo build --locked --quiet -p cargo-beam-mcp)
    beam_cli="${CARGO_TARGET_DIR:-$here/../../target}/debug/cargo-beam-mcp"
    py_target="$here/.venv/bin/python $here/py_server.py"
    run "cargo beam-mcp, python sdk server, auto" timeout 300 .venv/bin/python cli_check.py "$beam_cli" "$py_target"
    run "cargo beam-mcp, python sdk server, 2025-11-25" timeout 300 .venv/bin/python cli_check.py "$beam_cli" "$py_target" --revision 2025-11-25
    # Its web server's access log goes to stdout: out of the run's way.
    start "$work/py-cli-http.log" sh -c 'exec "$@" >/dev/null' _ "$here/.venv/bin/python" "$here/py_server.py" --http
    run "cargo beam-mcp, python sdk server, auto, http" timeout 300 .venv/bin/python cli_check.py "$beam_cli" "$listening"
    run "cargo beam-mcp, python sdk server, 2025-11-25, http" timeout 300 .venv/bin/python cli_check.py "$beam_cli" "$listening" --revision 2025-11-25
    # `cargo beam-mcp dev` kept by the Python SDK's mcp.Client at 2025-11-25 and at 2026-07-28
    # across three changes of a crate `new` made (dev_check.py).
    run "cargo beam-mcp dev, python mcp 2025-11-25 and 2026-07-28" timeout 600 .venv/bin/python dev_check.py \
        "$beam_cli" "$here/../../beam-mcp" "$here/../../Cargo.lock" "${CARGO_TARGET_DIR:-$here/../../target}"
    negative "cargo beam-mcp, python sdk server" "call stdout|tool error exit" \
        timeout 300 .venv/bin/python cli_check.py "$beam_cli" "python3 $here/liar.py --lie tool-text --lie bad-call -- $py_target"
fi
# The counts the README states are pinned in ./counts: a run added or lost changes them.
pinned_runs="$(awk '$1 == "runs" {print $2}' "$here/counts")"
pinned_controls="$(awk '$1 == "controls" {print $2}' "$here/counts")"
pinned_known_bugs="$(awk '$1 == "known_client_bugs" {print $2}' "$here/counts")"
if [ "$runs" != "$pinned_runs" ] || [ "$controls" != "$pinned_controls" ] || [ "$known_bugs" != "$pinned_known_bugs" ]; then
    failed=$((failed + 1))
    echo "interop FAIL: $runs runs, $controls negative controls and $known_bugs known client bugs ran; tests/interop/counts pins $pinned_runs, $pinned_controls and $pinned_known_bugs (update it and the README together)"
fi
echo "interop: $runs runs, $controls negative controls and $known_bugs known client bugs (neither passed nor failed)"
echo "interop: $passed passed, $failed failed (${SECONDS}s)"
[ "$failed" -eq 0 ]

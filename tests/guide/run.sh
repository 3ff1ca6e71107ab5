#!/usr/bin/env bash
# Follows docs/guide.md in a fresh crate outside the workspace, from `cargo new`: its
# Cargo.toml blocks (the path to beam-mcp pointed at this checkout), then each marked main.rs in
# turn. The first is asked for its tools and called by the Python `mcp` client (default
# configuration); the `cargo beam-mcp` blocks run against it (cli_block.py); the one with tests
# runs `cargo test`; the HTTP one is called without its token (401) and with it (200). Prints the time from `cargo new` to the first answer.
# Every cargo command resolves against tests/guide/Cargo.lock: the versions a fresh crate would
# get move with each upstream release, and the gate must not move with them. A package outside
# that lock fails the run.
# Usage: tests/guide/run.sh [--update-lock]   (--update-lock: resolve afresh, from the
#        workspace's Cargo.lock, and write tests/guide/Cargo.lock)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
update_lock=0
[ "${1:-}" = "--update-lock" ] && update_lock=1
lock="$here/Cargo.lock"
"$repo/tests/interop/setup.sh"
python="$repo/tests/interop/.venv/bin/python"
work="$(mktemp -d)"
server_pid=""
cleanup() {
    if [ -n "$server_pid" ]; then kill "$server_pid" 2>/dev/null || true; fi
    rm -rf "$work"
}
trap cleanup EXIT
blocks="$work/blocks.json"
python3 "$here/extract.py" "$repo/docs/guide.md" > "$blocks"
count() { python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))))' "$blocks"; }
field() { python3 -c 'import json,sys; b=json.load(open(sys.argv[1]))[int(sys.argv[2])]; sys.stdout.write(b[sys.argv[3]])' "$blocks" "$1" "$2"; }

start=$(date +%s.%N)
cd "$work"
cargo new --quiet --bin notes
cd notes
# `cargo new` ends Cargo.toml with an empty [dependencies]; the guide's block is that section.
python3 -c 'import re; t = open("Cargo.toml").read(); open("Cargo.toml", "w").write(re.sub(r"\n\[dependencies\]\n*$", "\n", t))'
# The guide's path assumes a checkout beside the crate; this one is elsewhere.
dependency_path() { sed "s#\"\\.\\./beam-mcp/beam-mcp\"#\"$repo/beam-mcp\"#"; }
target="${CARGO_TARGET_DIR:-$work/notes/target}"
if [ "$update_lock" = 1 ]; then cp "$repo/Cargo.lock" Cargo.lock; fi
# Runs a cargo command against the committed lock; then every package it resolved must be one
# that lock holds, at its version.
locked() {
    [ "$update_lock" = 1 ] || cp "$lock" Cargo.lock
    "$@"
    [ "$update_lock" = 1 ] && return
    python3 - "$lock" Cargo.lock <<'PY'
import re, sys
def packages(path):
    return set(re.findall(r'name = "([^"]+)"\nversion = "([^"]+)"', open(path).read()))
extra = packages(sys.argv[2]) - packages(sys.argv[1])
if extra:
    sys.exit("guide: resolved outside tests/guide/Cargo.lock (run tests/guide/run.sh --update-lock): "
             + ", ".join(f"{n} {v}" for n, v in sorted(extra)))
PY
}
binary="$target/debug/notes"
first_answer=""
stage=0
beam_cli=""
cli_blocks=0
for i in $(seq 0 $(( $(count) - 1 ))); do
    kind="$(field "$i" kind)"
    case "$kind" in
    cargo-toml)
        field "$i" text | dependency_path >> Cargo.toml
        ;;
    cargo-toml-dependency)
        line="$(field "$i" text | dependency_path)"
        python3 - "$line" <<'PY'
import re, sys
text = open("Cargo.toml").read()
text, n = re.subn(r"(?m)^beam-mcp = .*$", lambda _: sys.argv[1].strip(), text)
assert n == 1, "Cargo.toml has no beam-mcp line to replace"
open("Cargo.toml", "w").write(text)
PY
        ;;
    main | main+test | http)
        stage=$((stage + 1))
        field "$i" text > src/main.rs
        echo "guide: main.rs #$stage ($kind)"
        rm -f "$binary"  # a shared target dir: link this crate's build, not another's
        locked cargo build --quiet
        if [ "$kind" = main ] && [ -z "$first_answer" ]; then
            "$python" "$repo/tests/interop/py_client.py" --tool hello --args '{"name":"Ada"}' \
                --bad-args '{"name":42}' --expect-text 'Hello, Ada!' -- "$binary"
            first_answer=$(python3 -c "import sys; print(f'{float(sys.argv[2]) - float(sys.argv[1]):.1f}')" "$start" "$(date +%s.%N)")
            echo "guide: from cargo new to the first answer (tools/list and tools/call by the Python mcp client): ${first_answer} s"
        fi
        if [ "$kind" = main+test ]; then
            locked cargo test --quiet 2>&1 | tee "$work/test.log"
            # Two: the section's own test, and the schema check `#[tool]` adds for `hello`.
            grep -q "test result: ok. 2 passed" "$work/test.log" || { echo "guide: the test of section 6 did not pass" >&2; exit 1; }
        fi
        if [ "$kind" = http ]; then
            NOTES_TOKEN=s3cret "$binary" 2> "$work/http.log" &
            server_pid=$!
            # The whole URL, not "listening on" alone: the line may be written in pieces.
            for _ in $(seq 1 300); do grep -q 'listening on http://[^ ]*/mcp' "$work/http.log" && break; sleep 0.1; done
            url="$(grep -o 'http://[^ ]*/mcp' "$work/http.log" | head -1)"
            [ -n "$url" ] || { echo "guide: the HTTP server did not start:" >&2; cat "$work/http.log" >&2; exit 1; }
            body='{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"guide","version":"1"},"io.modelcontextprotocol/clientCapabilities":{}}}}'
            post() { curl -s -o "$work/answer.json" -w '%{http_code}' -X POST "$url" \
                -H 'Content-Type: application/json' -H 'Accept: application/json, text/event-stream' \
                -H 'MCP-Protocol-Version: 2026-07-28' -H 'Mcp-Method: tools/list' "$@" --data "$body"; }
            without="$(post)"
            with="$(post -H 'Authorization: Bearer s3cret')"
            echo "guide: HTTP tools/list without the token: $without, with it: $with"
            [ "$without" = 401 ] && [ "$with" = 200 ] || { echo "guide: expected 401 then 200" >&2; exit 1; }
            grep -q '"name":"hello"' "$work/answer.json" || { echo "guide: no hello tool in $(cat "$work/answer.json")" >&2; exit 1; }
            kill "$server_pid"; wait "$server_pid" 2>/dev/null || true; server_pid=""
        fi
        ;;
    cli)
        # The guide's `cargo beam-mcp` commands, the CLI built from this checkout, against the
        # binary just built and a temporary home (install writes there, not in yours).
        if [ -z "$beam_cli" ]; then
            (cd "$repo" && cargo build --locked --quiet -p cargo-beam-mcp)
            beam_cli="${CARGO_TARGET_DIR:-$repo/target}/debug/cargo-beam-mcp"
            mkdir -p "$work/home"
        fi
        field "$i" text | python3 "$here/cli_block.py" "$beam_cli" "$binary" "$work/home"
        cli_blocks=$((cli_blocks + 1))
        ;;
    *)
        echo "guide: unknown check kind $kind" >&2; exit 1
        ;;
    esac
done
[ "$stage" -ge 4 ] || { echo "guide: only $stage main.rs blocks were checked" >&2; exit 1; }
[ -n "$first_answer" ] || { echo "guide: no server was asked for its tools" >&2; exit 1; }
[ "$cli_blocks" -ge 2 ] || { echo "guide: only $cli_blocks cargo beam-mcp blocks were run" >&2; exit 1; }
if [ "$update_lock" = 1 ]; then cp Cargo.lock "$lock"; echo "guide: wrote $lock"; fi
echo "guide: $stage main.rs blocks built, the test passed, the first answer came ${first_answer} s after cargo new"

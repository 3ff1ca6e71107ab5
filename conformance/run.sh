#!/usr/bin/env bash
# Runs the official MCP conformance suite (pinned in package.json) against a beam-mcp HTTP server
# at one revision's requirements, judges it against <revision>/baseline.yml, and holds the scores
# to <revision>/expected.json and not-scored.md.
#
# Usage: conformance/run.sh [--revision REV] [--url URL | URL] [--baseline FILE] [--expected FILE] [--out DIR] [--raw] [--update]
#   --revision: 2026-07-28 (default) or 2025-11-25
#   no URL:     starts "$BEAM_MCP_HARNESS" (default: cargo build -p conformance-harness) with
#               PORT=<free port> and tests http://127.0.0.1:<port>/mcp
#   --expected: the pinned scores to hold the run to (default <revision>/expected.json)
#   --out:      results directory (must not exist or be empty); default conformance/out/<timestamp>
#   --raw:      only run the suite and leave its results in --out, judged by the caller
#               (tests/balancer/judge.py); exit 0 when it ran
#   --update:   rewrite <revision>/expected.json from this run (commit it with the change)
# Exit status: the suite's (1 on a failure not in the baseline or on a stale baseline entry),
# else the summarizer's (non-zero when the run differs from the pinned expectation).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/.." && pwd)"
revision=2026-07-28
url="" baseline="" expected="" out="" update=() raw=0
while [ $# -gt 0 ]; do
    case "$1" in
        --revision) revision="${2:?--revision needs a revision}"; shift 2 ;;
        --update) update=(--update); shift ;;
        --raw) raw=1; shift ;;
        --url) url="${2:?--url needs a URL}"; shift 2 ;;
        --baseline) baseline="$(realpath "${2:?--baseline needs a file}")"; shift 2 ;;
        --expected) expected="$(realpath -m "${2:?--expected needs a file}")"; shift 2 ;;
        --out) out="$(realpath -m "${2:?--out needs a directory}")"; shift 2 ;;
        -h|--help) sed -n '2,16p' "$0"; exit 0 ;;
        -*) echo "run.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
        *) url="$1"; shift ;;
    esac
done
case "$revision" in 2026-07-28|2025-11-25) ;; *) echo "run.sh: unknown revision $revision" >&2; exit 2 ;; esac
baseline="${baseline:-$here/$revision/baseline.yml}"
expected="${expected:-$here/$revision/expected.json}"
cd "$here"

# Install the pinned suite and Node 22 when the lockfile changed (the stamp is its hash).
stamp="$(cat package.json package-lock.json | sha256sum | cut -d' ' -f1)"
if [ "$(cat node_modules/.conformance-stamp 2>/dev/null || true)" != "$stamp" ]; then
    echo "conformance: npm ci" >&2
    npm ci --no-audit --no-fund --loglevel=error >&2
    echo "$stamp" > node_modules/.conformance-stamp
fi
# The suite needs Node >= 22 (fs.globSync); system node may be older, so use the pinned binary.
node="$here/node_modules/.bin/node"
version="$("$node" --version 2>/dev/null || true)"
major="${version#v}"; major="${major%%.*}"
if ! [[ "$major" =~ ^[0-9]+$ ]] || [ "$major" -lt 22 ]; then
    echo "run.sh: $node is '${version:-missing}', the suite needs Node >= 22." >&2
    echo "        Delete conformance/node_modules and rerun to reinstall node@22 from package.json." >&2
    exit 1
fi

# Fresh, empty out dir: the suite adds a directory per scenario and would mix runs otherwise.
if [ -z "$out" ]; then
    mkdir -p "$here/out"
    out="$here/out/$(date -u +%Y%m%dT%H%M%SZ)"
    ln -sfn "$(basename "$out")" "$here/out/latest"
fi
mkdir -p "$out"
if [ -n "$(ls -A "$out")" ]; then echo "run.sh: $out is not empty" >&2; exit 2; fi

if [ -z "$url" ]; then
    harness="${BEAM_MCP_HARNESS:-}"
    if [ -z "$harness" ]; then
        target="${CARGO_TARGET_DIR:-$repo/target}"
        case "$target" in /*) ;; *) target="$repo/$target" ;; esac  # cargo resolves it from $repo
        harness="$target/debug/conformance-harness"
        # A target dir shared by several checkouts: removing the linked binary makes cargo link
        # this checkout's own build, even when that build is fresh.
        rm -f "$harness"
        (cd "$repo" && cargo build --locked --quiet -p conformance-harness)
    fi
    port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
    PORT="$port" "$harness" >"$out/harness.log" 2>&1 &
    harness_pid=$!
    trap 'kill "$harness_pid" 2>/dev/null || true; wait "$harness_pid" 2>/dev/null || true' EXIT
    # Wait until it accepts TCP connections (bash /dev/tcp), or give up after 30 s.
    for _ in $(seq 300); do
        if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then break; fi
        if ! kill -0 "$harness_pid" 2>/dev/null; then
            echo "run.sh: $harness exited early; $out/harness.log:" >&2; tail -n 20 "$out/harness.log" >&2; exit 1
        fi
        sleep 0.1
    done
    if ! (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
        echo "run.sh: $harness did not listen on 127.0.0.1:$port within 30 s" >&2; exit 1
    fi
    url="http://127.0.0.1:$port/mcp"
fi

echo "conformance: $url, requirements $revision, results in $out" >&2
echo "conformance: baseline $baseline" >&2
suite_rc=0
"$node" node_modules/.bin/conformance server --url "$url" --requirements "$revision" \
    -o "$out" --expected-failures "$baseline" >"$out/suite.log" 2>&1 || suite_rc=$?
if [ "$raw" = 1 ]; then
    if ! ls "$out" | grep -q '^server-'; then tail -n 20 "$out/suite.log" >&2; exit 1; fi
    exit 0
fi

summary_rc=0
"$node" summarize.mjs "$out" "$revision" "$out/suite.log" --baseline "$baseline" \
    --expected "$expected" --not-scored "$here/not-scored.md" "${update[@]}" || summary_rc=$?
# Show the suite's baseline verdict (unexpected failures, stale entries), which closes its log;
# if there is none, the suite stopped early: show the end of its log instead.
verdict="$(awk '/Expected failures \(in baseline\)|Stale baseline entries|Unexpected failures \(not|Baseline check passed/ {p = 1} p' "$out/suite.log")"
if [ -n "$verdict" ]; then echo "$verdict"; elif [ "$suite_rc" -ne 0 ]; then tail -n 20 "$out/suite.log"; fi
if [ "$suite_rc" -ne 0 ]; then exit "$suite_rc"; fi
exit "$summary_rc"

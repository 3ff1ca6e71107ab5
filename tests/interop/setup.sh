#!/usr/bin/env bash
# Installs the interop clients: Python `mcp` into tests/interop/.venv, the TypeScript SDK
# packages, the MCP Inspector and the Node 22 it needs (npm package `node`) into
# tests/interop/node_modules, and builds the rmcp client (rmcp-client/) into
# ${CARGO_TARGET_DIR:-<repo>/target}/interop-rmcp, the rmcp server (rmcp-server/) into
# ${CARGO_TARGET_DIR:-<repo>/target}/interop-rmcp-server and the rust-mcp-sdk client
# (rust-mcp-sdk-client/) into ${CARGO_TARGET_DIR:-<repo>/target}/interop-rust-mcp-sdk, each its own
# Cargo workspace, --locked. Idempotent (skips work when the pins are unchanged; cargo is
# incremental); prints nothing unless something fails. Needs python3 (with venv) >= 3.10,
# node >= 20 + npm, and cargo.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cd "$here"
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
fail() { echo "tests/interop/setup.sh: $1 failed:" >&2; cat "$log" >&2; exit 1; }

py_stamp="$(cat requirements.txt constraints.txt | sha256sum | cut -d' ' -f1)"
if [ "$(cat .venv/.interop-stamp 2>/dev/null || true)" != "$py_stamp" ]; then
    if [ ! -x .venv/bin/python ]; then
        python3 -m venv .venv >"$log" 2>&1 || fail "python3 -m venv"
    fi
    .venv/bin/python -m pip install --quiet --disable-pip-version-check \
        -r requirements.txt -c constraints.txt >"$log" 2>&1 || fail "pip install"
    echo "$py_stamp" > .venv/.interop-stamp
fi

js_stamp="$(cat package.json package-lock.json | sha256sum | cut -d' ' -f1)"
if [ "$(cat node_modules/.interop-stamp 2>/dev/null || true)" != "$js_stamp" ]; then
    npm ci --no-audit --no-fund --loglevel=error >"$log" 2>&1 || fail "npm ci"
    echo "$js_stamp" > node_modules/.interop-stamp
fi

# run.sh computes the same path: $rmcp_target/debug/beam-mcp-interop-rmcp.
rmcp_target="${CARGO_TARGET_DIR:-$here/../../target}/interop-rmcp"
# Removed first, so that cargo links this checkout's build even where a shared target dir holds
# another checkout's.
rm -f "$rmcp_target/debug/beam-mcp-interop-rmcp"
cargo build --quiet --locked --manifest-path rmcp-client/Cargo.toml --target-dir "$rmcp_target" \
    >"$log" 2>&1 || fail "cargo build (rmcp-client)"

# The same for the rmcp server (rmcp-server/): $rmcp_server_target/debug/beam-mcp-interop-rmcp-server.
rmcp_server_target="${CARGO_TARGET_DIR:-$here/../../target}/interop-rmcp-server"
rm -f "$rmcp_server_target/debug/beam-mcp-interop-rmcp-server"
cargo build --quiet --locked --manifest-path rmcp-server/Cargo.toml --target-dir "$rmcp_server_target" \
    >"$log" 2>&1 || fail "cargo build (rmcp-server)"

# The same for the rust-mcp-sdk client: run.sh computes
# $rmsdk_target/debug/beam-mcp-interop-rust-mcp-sdk.
rmsdk_target="${CARGO_TARGET_DIR:-$here/../../target}/interop-rust-mcp-sdk"
rm -f "$rmsdk_target/debug/beam-mcp-interop-rust-mcp-sdk"
cargo build --quiet --locked --manifest-path rust-mcp-sdk-client/Cargo.toml --target-dir "$rmsdk_target" \
    >"$log" 2>&1 || fail "cargo build (rust-mcp-sdk-client)"

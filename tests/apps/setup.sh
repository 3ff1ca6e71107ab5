#!/usr/bin/env bash
# Installs what the browser test needs: Debian's Chromium (apt-get, when missing and run as root;
# playwright-core drives it, no browser is downloaded) and the pinned npm packages (package.json,
# package-lock.json: the extension's AppBridge, the TypeScript client, playwright-core, esbuild)
# into tests/apps/node_modules. Idempotent; prints nothing unless something fails.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cd "$here"
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
fail() { echo "tests/apps/setup.sh: $1 failed:" >&2; cat "$log" >&2; exit 1; }

if ! [ -x "${BEAM_MCP_CHROMIUM:-/usr/bin/chromium}" ]; then
    [ "$(id -u)" -eq 0 ] || { echo "tests/apps/setup.sh: Chromium is missing: apt-get install chromium (as root)" >&2; exit 1; }
    { apt-get install -y chromium || { apt-get update && apt-get install -y chromium; }; } >"$log" 2>&1 \
        || fail "apt-get install chromium"
fi

stamp="$(cat package.json package-lock.json | sha256sum | cut -d' ' -f1)"
if [ "$(cat node_modules/.apps-stamp 2>/dev/null || true)" != "$stamp" ]; then
    npm ci --no-audit --no-fund --loglevel=error >"$log" 2>&1 || fail "npm ci"
    echo "$stamp" > node_modules/.apps-stamp
fi

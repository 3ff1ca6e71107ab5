#!/usr/bin/env bash
# HTTP throughput of one replica against three behind nginx (issue 25): the weather example's
# release build answering `get_weather` (bench/lab/post.lua, 2026-07-28), driven by wrk with 16
# connections for 10 s, once straight at one replica, once through nginx to one replica, once
# through nginx to three. Prints requests per second for each; nothing is asserted (the ratio is
# the reading). Needs nginx and wrk (apt-get install nginx wrk).
#
#   bench/replicas.sh
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-/work/target-ci}"
nginx="$(command -v nginx || echo /usr/sbin/nginx)"
command -v wrk >/dev/null || { echo "replicas: wrk is not installed (apt-get install wrk)" >&2; exit 2; }
rm -f "$CARGO_TARGET_DIR/release/weather"
cargo build --locked --quiet --release -p weather
weather="$CARGO_TARGET_DIR/release/weather"
work="$(mktemp -d)"
pids=()
trap 'for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; wait 2>/dev/null || true; rm -rf "$work"' EXIT
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
wait_port() {
    for _ in $(seq 300); do
        if (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; then return 0; fi
        sleep 0.1
    done
    echo "replicas: nothing listens on 127.0.0.1:$1" >&2; return 1
}
replica() {
    local p; p="$(free_port)"
    "$weather" --http "127.0.0.1:$p" >"$work/weather-$p.log" 2>&1 &
    pids+=($!)
    wait_port "$p"
    echo "$p"
}
front() {
    local prefix="$work/nginx-$1"; shift
    mkdir -p "$prefix"
    local port upstreams=""
    port="$(free_port)"
    for p in "$@"; do upstreams+="        server 127.0.0.1:$p;"$'\n'; done
    python3 - tests/balancer/nginx.conf.template "$prefix/nginx.conf" "$prefix" "127.0.0.1:$port" "$upstreams" <<'PY'
import sys
template, out, prefix, listen, upstreams = sys.argv[1:]
text = open(template).read().replace("access_log @PREFIX@/access.log;", "access_log off;")
open(out, "w").write(text.replace("@PREFIX@", prefix).replace("@LISTEN@", listen).replace("@UPSTREAMS@", upstreams.rstrip("\n")))
PY
    "$nginx" -p "$prefix" -c "$prefix/nginx.conf" -e "$prefix/error.log" >"$prefix/stderr.log" 2>&1 &
    pids+=($!)
    wait_port "$port"
    echo "$port"
}
# Requests per second, and the errors wrk counted (non-2xx answers included): a run with
# errors is no reading.
load() {
    local out; out="$(wrk -t1 -c16 -d10s -s bench/lab/post.lua "http://127.0.0.1:$1/mcp")"
    local errors; errors="$(echo "$out" | sed -n 's/.*errors=\([0-9]*\).*/\1/p')"
    [ "$errors" = 0 ] || { echo "replicas: $errors errors: $out" >&2; exit 1; }
    echo "$out" | sed -n 's/^Requests\/sec: *//p'
}
one="$(replica)"
echo "one replica, straight: $(load "$one") requests/s"
alone="$(front alone "$one")"
echo "one replica behind nginx: $(load "$alone") requests/s"
two="$(replica)"; three="$(replica)"
all="$(front all "$one" "$two" "$three")"
echo "three replicas behind nginx: $(load "$all") requests/s"
echo "($(nproc) cores for the load, nginx and the replicas together)"

#!/usr/bin/env bash
# Three replicas behind nginx (docs/deploy.md), sharing a Redis: the official suite's 2026-07-28
# run through the balancer, judged by judge.py (every scenario as on one replica, but the checks
# that need state across replicas not yet shared, listed in cross-replica.txt), its 2025-11-25
# run through the same round-robin balancer (sessions shared in Redis; every scenario as on one
# replica), then the same replicas under load while Redis is away for 5 s (outage.py).
#
# The clients part: the interop clients (Python, TypeScript v2 and v1, rmcp, rust-mcp-sdk, the
# Inspector CLI; tests/interop/run.sh --url) through round-robin nginx to three weather replicas
# sharing their 2025-11-25 sessions in Redis, every revision each client speaks.
#
# The kill part (kill.py): one weather replica killed under 2026-07-28 load, then under the load
# of 2025-11-25 sessions (they continue on the others), then one stopped and started again under
# that load (its sessions served by the others meanwhile, and by it after).
#
#   tests/balancer/run.sh                    # every part
#   tests/balancer/run.sh suite|clients|kill # one part
#
# Needs nginx and redis-server (apt-get install nginx redis-server; the gate installs them when
# missing). Exit 0 when every part holds.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
part="${1:-all}"
target="${CARGO_TARGET_DIR:-$repo/target}"
case "$target" in /*) ;; *) target="$repo/$target" ;; esac
nginx="$(command -v nginx || echo /usr/sbin/nginx)"
[ -x "$nginx" ] || { echo "balancer: nginx is not installed (apt-get install nginx)" >&2; exit 2; }

work="$(mktemp -d)"
# Results and logs stay in tests/balancer/out/<time> (not committed).
out="$here/out/$(date -u +%Y%m%dT%H%M%SZ)"
mkdir -p "$out"
pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
    cp "$work"/*.log "$out"/ 2>/dev/null || true
    cp "$work"/nginx-*/*.log "$out"/ 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT

free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
wait_port() {
    for _ in $(seq 300); do
        if (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; then return 0; fi
        sleep 0.1
    done
    echo "balancer: nothing listens on 127.0.0.1:$1" >&2; return 1
}

# Starts nginx in front of the ports given; sets $front to its port.
start_nginx() {
    local prefix="$work/nginx-$1"; shift
    mkdir -p "$prefix"
    local port upstreams=""
    front=""
    port="$(free_port)"
    for p in "$@"; do upstreams+="        server 127.0.0.1:$p max_fails=1 fail_timeout=10s;"$'\n'; done
    python3 - "$here/nginx.conf.template" "$prefix/nginx.conf" "$prefix" "127.0.0.1:$port" "$upstreams" <<'PY'
import sys
template, out, prefix, listen, upstreams = sys.argv[1:]
text = open(template).read()
open(out, "w").write(text.replace("@PREFIX@", prefix).replace("@LISTEN@", listen).replace("@UPSTREAMS@", upstreams.rstrip("\n")))
PY
    "$nginx" -p "$prefix" -c "$prefix/nginx.conf" -e "$prefix/error.log" >"$prefix/stderr.log" 2>&1 &
    pids+=($!)
    wait_port "$port" || { cat "$prefix/error.log" >&2; return 1; }
    front="$port"
}

# Starts a redis-server of its own (Debian's package) on a free loopback port, without
# persistence; sets $redis_port, $redis_pid and $redis_server.
start_redis() {
    redis_server="$(command -v redis-server || echo /usr/bin/redis-server)"
    [ -x "$redis_server" ] || { echo "balancer: redis-server is not installed (apt-get install redis-server)" >&2; exit 2; }
    redis_port="$(free_port)"
    mkdir -p "$work/redis-$1"
    printf 'port %s\nbind 127.0.0.1\nsave ""\nappendonly no\ndir %s\n' "$redis_port" "$work/redis-$1" >"$work/redis-$1.conf"
    "$redis_server" "$work/redis-$1.conf" >"$work/redis-$1.log" 2>&1 &
    redis_pid=$!
    pids+=($redis_pid)
    wait_port "$redis_port"
}

# One shared key seals requestState, so a retry may reach any replica.
export MCP_REQUEST_STATE_KEY="balancer-test-key-of-at-least-32-bytes!"
status=0

if [ "$part" = all ] || [ "$part" = suite ]; then
    # The replicas share a Redis for the live catalog's fan-out, tasks and 2025-11-25 sessions.
    start_redis suite
    # Removing the linked binary makes cargo link this checkout's own build (a shared target dir).
    rm -f "$target/debug/conformance-harness"
    (cd "$repo" && cargo build --locked --quiet -p conformance-harness --features redis)
    ports=() harnesses=()
    for i in 1 2 3; do
        p="$(free_port)"
        BEAM_MCP_REDIS_URL="redis://127.0.0.1:$redis_port/0" PORT="$p" \
            "$target/debug/conformance-harness" >"$work/harness-$i.log" 2>&1 &
        pids+=($!)
        harnesses+=($!)
        ports+=("$p")
    done
    for p in "${ports[@]}"; do wait_port "$p"; done
    start_nginx suite "${ports[@]}" || exit 1
    echo "balancer: the suite through nginx at 127.0.0.1:$front to replicas ${ports[*]}" >&2
    if "$repo/conformance/run.sh" --raw --url "http://127.0.0.1:$front/mcp" --out "$out/suite"; then
        python3 "$here/judge.py" "$out/suite" "$repo/conformance/2026-07-28/expected.json" \
            "$here/cross-replica.txt" || status=$?
    else
        status=1
    fi
    echo "balancer: suite exit $status" >&2
    # The same replicas at 2025-11-25, through round-robin nginx with no affinity: each request
    # of a session may land on any replica, which reads the session from Redis.
    if "$repo/conformance/run.sh" --revision 2025-11-25 --raw --url "http://127.0.0.1:$front/mcp" --out "$out/legacy-suite"; then
        python3 "$here/judge.py" "$out/legacy-suite" "$repo/conformance/2025-11-25/expected.json" \
            /dev/null || status=$?
    else
        status=1
    fi
    echo "balancer: 2025-11-25 suite exit $status" >&2
    # 2025-11-25 sessions under load while Redis is paused for 5 s: it keeps what it held, so
    # no session is lost. Then the same replicas under 2026-07-28 load while their Redis is
    # killed and started again 5 s later (outage.py says what holds).
    python3 "$here/outage.py" --legacy --pause --url "http://127.0.0.1:$front/mcp" --redis-pid "$redis_pid" \
        --redis-port "$redis_port" --redis-command unused \
        --replicas "$(IFS=,; echo "${harnesses[*]}")" || status=1
    python3 "$here/outage.py" --url "http://127.0.0.1:$front/mcp" --redis-pid "$redis_pid" \
        --redis-port "$redis_port" --redis-command "$redis_server $work/redis-suite.conf" \
        --replicas "$(IFS=,; echo "${harnesses[*]}")" || status=1
fi

# Three weather replicas (built with the redis feature) sharing the Redis at $redis_port, behind
# a nginx of their own (named $1); sets $front, ports[] and replicas[] (their pids).
start_weather() {
    local name="$1" i p
    ports=() replicas=()
    for i in 1 2 3; do
        p="$(free_port)"
        BEAM_MCP_REDIS_URL="redis://127.0.0.1:$redis_port/0" \
            "$target/debug/weather" --http "127.0.0.1:$p" >"$work/weather-$name-$i.log" 2>&1 &
        pids+=($!)
        replicas+=($!)
        ports+=("$p")
    done
    for p in "${ports[@]}"; do wait_port "$p"; done
    start_nginx "$name" "${ports[@]}" || exit 1
}
if [ "$part" = all ] || [ "$part" = clients ] || [ "$part" = kill ]; then
    start_redis weather
    # Removing the linked binary makes cargo link this checkout's own build (a shared target dir);
    # it goes again at the end, so that the next plain build of weather links its own.
    rm -f "$target/debug/weather"
    (cd "$repo" && cargo build --locked --quiet -p weather --features redis)
fi

if [ "$part" = all ] || [ "$part" = clients ]; then
    start_weather clients
    echo "balancer: the interop clients through nginx at 127.0.0.1:$front to replicas ${ports[*]}" >&2
    "$repo/tests/interop/run.sh" --url "http://127.0.0.1:$front/mcp" || status=1
fi

if [ "$part" = all ] || [ "$part" = kill ]; then
    # 2026-07-28 calls, then 2025-11-25 sessions, with one replica killed under load; then one
    # replica stopped and started again under 2025-11-25 load. Fresh replicas for each.
    start_weather kill
    python3 "$here/kill.py" --url "http://127.0.0.1:$front/mcp" --victim "${replicas[0]}" \
        --victim-addr "127.0.0.1:${ports[0]}" --access-log "$work/nginx-kill/access.log" || status=$?
    start_weather kill-legacy
    python3 "$here/kill.py" --legacy --url "http://127.0.0.1:$front/mcp" --victim "${replicas[0]}" \
        --victim-addr "127.0.0.1:${ports[0]}" --access-log "$work/nginx-kill-legacy/access.log" || status=$?
    start_weather restart
    python3 "$here/kill.py" --legacy --url "http://127.0.0.1:$front/mcp" --victim "${replicas[0]}" \
        --victim-addr "127.0.0.1:${ports[0]}" --access-log "$work/nginx-restart/access.log" \
        --restart "BEAM_MCP_REDIS_URL=redis://127.0.0.1:$redis_port/0 exec $target/debug/weather --http 127.0.0.1:${ports[0]} >$work/weather-restarted.log 2>&1" \
        --restart-port "${ports[0]}" || status=$?
fi
rm -f "$target/debug/weather"
exit $status

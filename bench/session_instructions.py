#!/usr/bin/env python3
"""Instructions per call of the weather example over HTTP, its 2025-11-25 sessions kept in memory
against shared in Redis, and a 2026-07-28 call beside them (bench/README.md, issue 25).

    python3 bench/session_instructions.py PATH/TO/weather   # a release build with --features redis

The server runs under callgrind (all threads), pinned to core 0; the client (this script) makes N,
then 2N, `get_weather` calls over one keep-alive connection: (I(2N) - I(N)) / N, N = 2,000. The
Redis run starts Debian's redis-server on a loopback port of its own; what Redis itself spends is
not counted (it is another process)."""

import http.client
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "lab"))
from lab import free_port, wait_port  # noqa: E402  (the lab's own helpers)

N = 2000
CALL = {"name": "get_weather", "arguments": {"place": "Paris"}}
META = {"io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {}}


def calls(port, n, legacy):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    headers = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}
    if legacy:
        hello = {"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": "2025-11-25", "capabilities": {},
            "clientInfo": {"name": "bench", "version": "1"}}}
        conn.request("POST", "/mcp", json.dumps(hello), headers)
        response = conn.getresponse()
        response.read()
        headers.update({"Mcp-Session-Id": response.getheader("Mcp-Session-Id"),
                        "MCP-Protocol-Version": "2025-11-25"})
        params = CALL
    else:
        headers.update({"MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/call",
                        "Mcp-Name": "get_weather"})
        params = dict(CALL, _meta=META)
    for i in range(n):
        body = json.dumps({"jsonrpc": "2.0", "id": i + 1, "method": "tools/call", "params": params})
        conn.request("POST", "/mcp", body, headers)
        response = conn.getresponse()
        answer = response.read()
        if response.status != 200 or b"Paris: 14.5" not in answer:
            raise SystemExit(f"session_instructions: call {i}: HTTP {response.status} {answer[:200]!r}")
    conn.close()


def total(path):
    for line in open(path):
        if line.startswith("summary:") or line.startswith("totals:"):
            return int(line.split()[1])
    raise SystemExit(f"session_instructions: no total in {path}")


def per_call(binary, env, legacy):
    totals = []
    for n in (N, 2 * N):
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "cg.out")
            port = free_port()
            proc = subprocess.Popen(
                ["taskset", "-c", "0", "valgrind", "--tool=callgrind", f"--callgrind-out-file={out}",
                 binary, "--http", f"127.0.0.1:{port}"],
                env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            wait_port(port, proc)
            calls(port, n, legacy)
            proc.send_signal(signal.SIGTERM)
            proc.wait(timeout=120)
            totals.append(total(out))
    return (totals[1] - totals[0]) / N


def main():
    binary = sys.argv[1]
    port = free_port()
    redis = subprocess.Popen(["redis-server", "--port", str(port), "--bind", "127.0.0.1",
                              "--save", "", "--appendonly", "no"], stdout=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 10
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise SystemExit("session_instructions: redis-server did not start")
                time.sleep(0.05)
        plain = {k: v for k, v in os.environ.items() if not k.startswith("BEAM_MCP_REDIS")}
        shared = dict(plain, BEAM_MCP_REDIS_URL=f"redis://127.0.0.1:{port}/0")
        rows = [
            ("2025-11-25 session call, sessions in memory", per_call(binary, plain, True)),
            ("2025-11-25 session call, sessions in Redis", per_call(binary, shared, True)),
            ("2026-07-28 tools/call, no Redis", per_call(binary, plain, False)),
            ("2026-07-28 tools/call, sessions in Redis", per_call(binary, shared, False)),
        ]
    finally:
        redis.terminate()
        redis.wait()
    for name, value in rows:
        print(f"{name}: {value:,.0f} instructions per call")


if __name__ == "__main__":
    main()

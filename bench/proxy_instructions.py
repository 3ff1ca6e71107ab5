#!/usr/bin/env python3
"""Instructions per proxied `tools/call` against the same call made directly (bench/README.md,
issue 26).

    python3 bench/proxy_instructions.py PATH/TO/composed PATH/TO/weather   # release builds

Three rows, each the server process alone under callgrind (all threads), pinned to core 0,
(I(2N) - I(N)) / N with N = 2,000 calls at 2026-07-28 over one keep-alive HTTP connection:

- the weather example answering `get_weather` itself;
- `composed --remote weather -- weather` answering its own `hello` (the front's cost of a call);
- the same front answering `weather_get_weather`, relayed over stdio to the weather process: its
  excess over `hello` is the proxy's own cost, the relay and the client (the remote's work is
  another process, not counted here; its stdio call is the lab's stdio row).
"""

import http.client
import json
import os
import signal
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "lab"))
from lab import free_port, wait_port  # noqa: E402  (the lab's own helpers)
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from session_instructions import total  # noqa: E402  (a callgrind file's total)

N = 2000
META = {"io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {}}


def calls(port, n, tool, arguments, expect):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    headers = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream",
               "MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/call", "Mcp-Name": tool}
    params = {"name": tool, "arguments": arguments, "_meta": META}
    for i in range(n):
        body = json.dumps({"jsonrpc": "2.0", "id": i + 1, "method": "tools/call", "params": params})
        conn.request("POST", "/mcp", body, headers)
        response = conn.getresponse()
        answer = response.read()
        if response.status != 200 or expect not in answer:
            raise SystemExit(f"proxy_instructions: {tool} call {i}: HTTP {response.status} {answer[:200]!r}")
    conn.close()


def per_call(command, tool, arguments, expect):
    totals = []
    for n in (N, 2 * N):
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "cg.out")
            port = free_port()
            proc = subprocess.Popen(
                ["taskset", "-c", "0", "valgrind", "--tool=callgrind", f"--callgrind-out-file={out}",
                 command[0], "--http", f"127.0.0.1:{port}", *command[1:]],
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            wait_port(port, proc)
            calls(port, n, tool, arguments, expect)
            # SIGINT: both servers end gracefully on it, and callgrind writes its totals.
            proc.send_signal(signal.SIGINT)
            proc.wait(timeout=300)
            totals.append(total(out))
    return (totals[1] - totals[0]) / N


def main():
    composed, weather = sys.argv[1], sys.argv[2]
    paris = {"place": "Paris"}
    front = [composed, "--remote", "weather", "--", weather]
    rows = [
        ("weather, get_weather answered directly", per_call([weather], "get_weather", paris, b"Paris: 14.5")),
        ("composed front, its own hello", per_call(front, "hello", {}, b"hello from the composed")),
        ("composed front, weather_get_weather relayed", per_call(front, "weather_get_weather", paris, b"Paris: 14.5")),
    ]
    for name, value in rows:
        print(f"{name}: {value:,.0f} instructions per call")
    print(f"the proxy's own cost (relayed minus hello): {rows[2][1] - rows[1][1]:,.0f} instructions per call")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Per-call latency of streamed answers on one kept-alive connection, through the Python `mcp`
client (tests/interop pins it): the 40 ms delayed-ACK stall of issue 22, item 12.

A client that asks for progress (here `call_tool(..., progress_callback=...)`, which puts
`_meta.progressToken` on the request) gets each answer as an event stream. On a server that
wrote the stream's header and its first event in two small writes with Nagle's algorithm on,
the second write waited for the client's delayed ACK: about 40 ms a call. Run it against a
server twice, with and without --progress, and compare the p50s.

Two clients: `--client mcp` (the SDK's `ClientSession` over its httpx transport) and
`--client raw` (a plain HTTP/1.1 keep-alive socket at 2026-07-28: one write a request, the
answer read to its end), which shows the stall most plainly.

Usage (the fixture's `steps` tool takes a context, so it streams when asked for progress):
  target/debug/fixture --http 127.0.0.1:8931 &
  tests/interop/.venv/bin/python bench/lab/stall.py --url http://127.0.0.1:8931/mcp \
      --tool steps --args '{"count":0,"delay_ms":0}' --calls 200 --progress [--client raw]

Prints one JSON line: client, calls, progress, revision, p50_ms, p90_ms, max_ms.
"""

from __future__ import annotations

import argparse
import json
import socket
import statistics
import sys
import time
import urllib.parse

import anyio
from mcp.client.session import ClientSession
from mcp.client.streamable_http import streamable_http_client


def parse_args(argv: list[str]) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--url", required=True, help="the Streamable HTTP endpoint, http://HOST:PORT/mcp")
    p.add_argument("--tool", required=True)
    p.add_argument("--args", default="{}", help="the call's arguments, a JSON object")
    p.add_argument("--calls", type=int, default=200, help="calls measured, after 10 not measured")
    p.add_argument("--progress", action="store_true", help="ask for progress on every call")
    p.add_argument("--revision", choices=("2025-11-25", "2026-07-28"), default="2025-11-25",
                   help="the mcp client's revision (raw is always 2026-07-28)")
    p.add_argument("--client", choices=("mcp", "raw"), default="mcp")
    return p.parse_args(argv)


def raw(ns: argparse.Namespace) -> list[float]:
    """Each call as one write on one kept-alive connection, its answer read to the end."""
    url = urllib.parse.urlsplit(ns.url)
    meta = {"io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": {}}
    if ns.progress:
        meta["progressToken"] = "p"
    timings = []
    with socket.create_connection((url.hostname, url.port)) as sock, sock.makefile("rb") as answers:
        for i in range(10 + ns.calls):
            body = json.dumps({"jsonrpc": "2.0", "id": i, "method": "tools/call", "params": {
                "name": ns.tool, "arguments": json.loads(ns.args), "_meta": meta}}).encode()
            head = (f"POST {url.path} HTTP/1.1\r\nHost: {url.netloc}\r\n"
                    "Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\n"
                    f"MCP-Protocol-Version: 2026-07-28\r\nMcp-Method: tools/call\r\nMcp-Name: {ns.tool}\r\n"
                    f"Content-Length: {len(body)}\r\n\r\n").encode()
            start = time.perf_counter()
            sock.sendall(head + body)
            status = answers.readline()
            if b" 200 " not in status:
                raise SystemExit(f"the call failed: {status!r}")
            headers = {}
            while (line := answers.readline()) not in (b"\r\n", b""):
                name, value = line.decode().split(":", 1)
                headers[name.strip().lower()] = value.strip()
            if headers.get("transfer-encoding") == "chunked":
                while (size := int(answers.readline().strip(), 16)) > 0:
                    answers.read(size + 2)
                answers.readline()
            else:
                answers.read(int(headers["content-length"]))
            if i >= 10:
                timings.append((time.perf_counter() - start) * 1000)
    return timings


async def sdk(ns: argparse.Namespace) -> list[float]:
    arguments = json.loads(ns.args)

    async def on_progress(progress: float, total: float | None, message: str | None) -> None:
        pass

    callback = on_progress if ns.progress else None
    async with streamable_http_client(ns.url) as (read, write):
        async with ClientSession(read, write) as session:
            if ns.revision == "2025-11-25":
                await session.initialize()
            else:
                await session.discover()
            timings = []
            for i in range(10 + ns.calls):
                start = time.perf_counter()
                result = await session.call_tool(ns.tool, arguments, progress_callback=callback)
                elapsed = time.perf_counter() - start
                if result.is_error:
                    raise SystemExit(f"the call failed: {result.content}")
                if i >= 10:
                    timings.append(elapsed * 1000)
    return timings


def summary(ns: argparse.Namespace, timings: list[float]) -> dict:
    timings.sort()
    return {
        "client": ns.client,
        "calls": ns.calls,
        "progress": ns.progress,
        "revision": "2026-07-28" if ns.client == "raw" else ns.revision,
        "p50_ms": round(statistics.median(timings), 2),
        "p90_ms": round(timings[int(len(timings) * 0.9) - 1], 2),
        "max_ms": round(timings[-1], 2),
    }


def main(argv: list[str]) -> int:
    ns = parse_args(argv)
    timings = raw(ns) if ns.client == "raw" else anyio.run(sdk, ns)
    print(json.dumps(summary(ns, timings)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

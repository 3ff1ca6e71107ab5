#!/usr/bin/env python3
"""A soak: N `tools/call` (default 1,000,000) against a release build of the weather example,
over stdio and over Streamable HTTP, checking every answer and printing the server's memory and
open file descriptors as it goes.

    python3 tests/soak/soak.py --binary target/release/weather [--calls N] [--http-calls N]
                               [--transport stdio|http|both]

Passes (exit 0) when every answer is the exact expected text, the resident set after the
warm-up (the first 10% of calls) grows by less than 5% by the end, and the server holds no more
file descriptors after its clients have gone than before they came. Prints one line per sample
and a summary per transport; exits 1 with the reason otherwise.
"""

import argparse
import json
import os
import socket
import subprocess
import sys
import threading
import time

EXPECTED = "Paris: 14.5 °C, cloudy"
META = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientCapabilities": {},
}


def call(id_: int) -> bytes:
    return json.dumps(
        {
            "jsonrpc": "2.0",
            "id": id_,
            "method": "tools/call",
            "params": {"_meta": META, "name": "get_weather", "arguments": {"place": "Paris"}},
        },
        separators=(",", ":"),
    ).encode()


def rss_kib(pid: int) -> int:
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise RuntimeError("no VmRSS")


def fds(pid: int) -> int:
    return len(os.listdir(f"/proc/{pid}/fd"))


def check(answer: dict, seen: set) -> None:
    id_ = answer.get("id")
    if id_ in seen:
        raise SystemExit(f"FAIL: id {id_} answered twice")
    seen.add(id_)
    result = answer.get("result")
    if result is None or result.get("isError") or result["content"][0]["text"] != EXPECTED:
        raise SystemExit(f"FAIL: unexpected answer {json.dumps(answer)[:300]}")


class Samples:
    def __init__(self, transport: str, pid: int, calls: int):
        self.transport, self.pid, self.calls = transport, pid, calls
        self.warm_up = max(calls // 10, 1)
        self.start = self.after_warm_up = None
        self.peak = 0
        self.began = time.monotonic()

    def sample(self, done: int) -> None:
        rss = rss_kib(self.pid)
        self.peak = max(self.peak, rss)
        if self.start is None:
            self.start = rss
        if done >= self.warm_up and self.after_warm_up is None:
            self.after_warm_up = rss
        rate = done / max(time.monotonic() - self.began, 1e-9)
        print(
            f"{self.transport:5} {done:>9} calls  rss {rss / 1024:7.2f} MiB  fds {fds(self.pid):3}"
            f"  {rate:8.0f} calls/s",
            flush=True,
        )

    def verdict(self, fds_before: int, fds_after: int) -> bool:
        """The stdio server's descriptors are counted after its first call; the HTTP server's
        before its clients connect and after they have gone."""
        end = rss_kib(self.pid)
        growth = (end - self.after_warm_up) / self.after_warm_up * 100
        elapsed = time.monotonic() - self.began
        ok = growth < 5 and fds_after <= fds_before
        print(
            f"{self.transport}: {self.calls} calls in {elapsed:.1f} s, 0 errors; rss start "
            f"{self.start / 1024:.2f} MiB, after warm-up {self.after_warm_up / 1024:.2f} MiB, end "
            f"{end / 1024:.2f} MiB (growth {growth:+.2f}%), peak {self.peak / 1024:.2f} MiB; fds "
            f"before clients {fds_before}, after {fds_after}: {'PASS' if ok else 'FAIL'}",
            flush=True,
        )
        return ok


def soak_stdio(binary: str, calls: int, window: int) -> bool:
    server = subprocess.Popen([binary], stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0)
    samples = Samples("stdio", server.pid, calls)
    reader = server.stdout
    # The runtime opens its own descriptors on the first request: count from after it.
    server.stdin.write(call(-1) + b"\n")
    check(json.loads(reader.readline()), set())
    fds_before = fds(server.pid)
    buffered = b""
    seen: set = set()
    done = 0
    every = max(calls // 20, 1)
    next_sample = 0
    while done < calls:
        batch = min(window, calls - done)
        server.stdin.write(b"\n".join(call(done + i) for i in range(batch)) + b"\n")
        got = 0
        while got < batch:
            chunk = reader.read(1 << 20)
            if not chunk:
                raise SystemExit(f"FAIL: the stdio server ended after {done + got} calls")
            buffered += chunk
            *lines, buffered = buffered.split(b"\n")
            for line in lines:
                check(json.loads(line), seen)
                got += 1
        done += batch
        if done >= next_sample:
            samples.sample(done)
            next_sample += every
    fds_during = fds(server.pid)
    ok = samples.verdict(fds_before, fds_during)
    server.stdin.close()
    server.wait(timeout=30)
    if server.returncode != 0:
        print(f"FAIL: the stdio server exited with {server.returncode}")
        return False
    return ok


def http_request(port: int, body: bytes) -> bytes:
    return (
        f"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\n"
        f"Accept: application/json, text/event-stream\r\nMCP-Protocol-Version: 2026-07-28\r\n"
        f"Mcp-Method: tools/call\r\nMcp-Name: get_weather\r\nContent-Length: {len(body)}\r\n\r\n"
    ).encode() + body


def read_responses(conn: socket.socket, count: int, buffered: bytes):
    answers = []
    while len(answers) < count:
        head_end = buffered.find(b"\r\n\r\n")
        if head_end >= 0:
            head = buffered[:head_end].decode("latin-1")
            status = head.split(" ", 2)[1]
            length = next(
                int(line.split(":", 1)[1])
                for line in head.split("\r\n")[1:]
                if line.lower().startswith("content-length:")
            )
            if len(buffered) >= head_end + 4 + length:
                body = buffered[head_end + 4 : head_end + 4 + length]
                buffered = buffered[head_end + 4 + length :]
                if status != "200":
                    raise SystemExit(f"FAIL: HTTP {status}: {body[:300]!r}")
                answers.append(json.loads(body))
                continue
        chunk = conn.recv(1 << 20)
        if not chunk:
            raise SystemExit("FAIL: the HTTP server closed a connection")
        buffered += chunk
    return answers, buffered


def soak_http(binary: str, calls: int, window: int, connections: int) -> bool:
    probe = socket.socket()
    probe.bind(("127.0.0.1", 0))
    port = probe.getsockname()[1]
    probe.close()
    server = subprocess.Popen(
        [binary, "--http", f"127.0.0.1:{port}"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    # Ready once it says it listens (printed after the bind). No probe connection: the server
    # might still hold its descriptor when they are counted below.
    for line in server.stderr:
        if b"listening on http://" in line:
            break
    else:
        raise SystemExit("FAIL: the HTTP server ended before listening")
    # Keep draining its log, so it never blocks on a full pipe.
    threading.Thread(target=server.stderr.read, daemon=True).start()
    samples = Samples("http", server.pid, calls)
    fds_before = fds(server.pid)
    conns = [socket.create_connection(("127.0.0.1", port)) for _ in range(connections)]
    buffers = [b""] * connections
    seen: set = set()
    done = 0
    every = max(calls // 20, 1)
    next_sample = 0
    while done < calls:
        sent = []
        for i, conn in enumerate(conns):
            batch = min(window, calls - done - sum(sent))
            if batch <= 0:
                sent.append(0)
                continue
            base = done + sum(sent)
            conn.sendall(b"".join(http_request(port, call(base + k)) for k in range(batch)))
            sent.append(batch)
        for i, conn in enumerate(conns):
            answers, buffers[i] = read_responses(conn, sent[i], buffers[i])
            for answer in answers:
                check(answer, seen)
        done += sum(sent)
        if done >= next_sample:
            samples.sample(done)
            next_sample += every
    for conn in conns:
        conn.close()
    # The server notices the closed connections; wait (generously, for a loaded machine) until
    # it has let go of them, or the verdict below reports what it still holds.
    deadline = time.monotonic() + 30
    while fds(server.pid) > fds_before and time.monotonic() < deadline:
        time.sleep(0.05)
    ok = samples.verdict(fds_before, fds(server.pid))
    server.terminate()
    server.wait(timeout=30)
    return ok


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--binary", required=True)
    parser.add_argument("--calls", type=int, default=1_000_000)
    parser.add_argument("--http-calls", type=int, help="calls over HTTP (default: --calls)")
    parser.add_argument("--transport", choices=["stdio", "http", "both"], default="both")
    parser.add_argument("--window", type=int, default=256, help="requests in flight per batch")
    parser.add_argument("--connections", type=int, default=4)
    args = parser.parse_args()
    ok = True
    if args.transport in ("stdio", "both"):
        ok &= soak_stdio(args.binary, args.calls, args.window)
    if args.transport in ("http", "both"):
        calls = args.http_calls or args.calls
        ok &= soak_http(args.binary, calls, max(args.window // args.connections, 1), args.connections)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())

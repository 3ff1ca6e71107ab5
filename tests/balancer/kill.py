#!/usr/bin/env python3
"""One replica killed under load (tests/balancer/run.sh): workers call the weather example's
`forecast` tool (about 60 ms each) through the balancer without pause; after a while one replica
gets SIGKILL. Every request is timed, so each failure is placed: in flight at the kill (started
before the replica was seen dead, ended after the signal was sent) or not. Passes when every
failure was in flight at the kill, and no more failed than were in flight.

With --legacy, each worker is a 2025-11-25 client: it opens one session (initialize, through the
balancer, so on any replica) and makes every call on it, each landing on any replica; the
replicas share their sessions in Redis, so the sessions of the replica that died continue on
the others. With --restart CMD, the replica is stopped (SIGTERM: a graceful stop) and CMD starts
it again; its sessions are served by the others meanwhile, and by it once it is back."""

import argparse
import http.client
import json
import os
import signal
import subprocess
import threading
import time
import urllib.parse

META = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientCapabilities": {},
}


def answer_of(response: http.client.HTTPResponse) -> dict:
    body = response.read()
    if response.getheader("Content-Type", "").startswith("text/event-stream"):
        for line in body.decode().splitlines():
            if line.startswith("data:") and line[5:].strip():
                message = json.loads(line[5:])
                if "id" in message:
                    return message
        raise ValueError("a stream without an answer")
    return json.loads(body)


LEGACY = "2025-11-25"


def open_session(url: str) -> str:
    """A 2025-11-25 session opened through the balancer (initialize, then initialized): its id."""
    parsed = urllib.parse.urlsplit(url)
    conn = http.client.HTTPConnection(parsed.hostname, parsed.port, timeout=30)
    headers = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}
    hello = {"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": LEGACY, "capabilities": {}, "clientInfo": {"name": "kill.py", "version": "1"}}}
    conn.request("POST", parsed.path, json.dumps(hello), headers)
    response = conn.getresponse()
    answer = answer_of(response)
    session = response.getheader("Mcp-Session-Id")
    if response.status != 200 or not session or answer.get("result", {}).get("protocolVersion") != LEGACY:
        raise RuntimeError(f"initialize: HTTP {response.status}: {json.dumps(answer)[:200]}")
    headers.update({"Mcp-Session-Id": session, "MCP-Protocol-Version": LEGACY})
    conn.request("POST", parsed.path, json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}), headers)
    told = conn.getresponse()
    told.read()
    if told.status != 202:
        raise RuntimeError(f"notifications/initialized: HTTP {told.status}")
    conn.close()
    return session


def worker(url, stop, records, lock, index, session):
    parsed = urllib.parse.urlsplit(url)
    conn = http.client.HTTPConnection(parsed.hostname, parsed.port, timeout=30)
    n = 0
    while not stop.is_set():
        n += 1
        params = {"name": "forecast", "arguments": {"place": "Paris", "days": 3}}
        if session is None:
            params["_meta"] = META
        body = json.dumps({"jsonrpc": "2.0", "id": f"{index}-{n}", "method": "tools/call", "params": params})
        headers = {
            "Content-Type": "application/json",
            "Accept": "application/json, text/event-stream",
        }
        if session is None:
            headers.update({"MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/call",
                            "Mcp-Name": "forecast"})
        else:
            headers.update({"MCP-Protocol-Version": LEGACY, "Mcp-Session-Id": session})
        began = time.monotonic()
        outcome = "ok"
        try:
            conn.request("POST", parsed.path, body, headers)
            response = conn.getresponse()
            status = response.status
            answer = answer_of(response)
            result = answer.get("result") or {}
            if status != 200 or result.get("isError") or len(result.get("content", [])) != 3:
                outcome = f"HTTP {status}: {json.dumps(answer)[:120]}"
        except Exception as error:  # a reset connection, a 502 page that is not JSON
            outcome = f"{type(error).__name__}: {error}"
            conn.close()
            conn = http.client.HTTPConnection(parsed.hostname, parsed.port, timeout=30)
        ended = time.monotonic()
        with lock:
            records.append((began, ended, outcome))


def call_at(port: int, session: str) -> bool:
    """One call on `session` straight to the replica at `port` (waiting up to 10 s for it to
    answer): true when it was served."""
    headers = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream",
               "MCP-Protocol-Version": LEGACY, "Mcp-Session-Id": session}
    body = json.dumps({"jsonrpc": "2.0", "id": "direct", "method": "tools/call",
                       "params": {"name": "forecast", "arguments": {"place": "Oslo", "days": 2}}})
    deadline = time.monotonic() + 10
    while True:
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
            conn.request("POST", "/mcp", body, headers)
            response = conn.getresponse()
            answer = answer_of(response)
            return response.status == 200 and len((answer.get("result") or {}).get("content", [])) == 2
        except ConnectionRefusedError:
            if time.monotonic() > deadline:
                return False
            time.sleep(0.05)


def dead(pid: int) -> bool:
    """True once `pid` has exited: gone, or a zombie its parent (run.sh) has not reaped yet. Its
    sockets are closed by then, so a request sent later can no longer reach it."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read()
    # Reaped between the open and the read (ESRCH), or before the open.
    except (FileNotFoundError, ProcessLookupError):
        return True
    # The state follows the command name, which is in parentheses and may hold anything.
    return fields.rsplit(")", 1)[1].split()[0] in ("Z", "X")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--url", required=True)
    parser.add_argument("--victim", type=int, required=True, help="pid of the replica to kill")
    parser.add_argument("--workers", type=int, default=24)
    parser.add_argument("--before", type=float, default=3.0, help="seconds of load before the kill")
    parser.add_argument("--after", type=float, default=4.0, help="seconds of load after it")
    parser.add_argument("--legacy", action="store_true",
                        help="2025-11-25 clients: one session per worker, opened through the balancer")
    parser.add_argument("--restart", metavar="CMD",
                        help="stop the replica gracefully (SIGTERM) and start it again with CMD")
    parser.add_argument("--restart-port", type=int, help="the port the restarted replica serves on")
    args = parser.parse_args()
    stop, lock, records = threading.Event(), threading.Lock(), []
    sessions = [open_session(args.url) if args.legacy else None for _ in range(args.workers)]
    threads = [threading.Thread(target=worker, args=(args.url, stop, records, lock, i, sessions[i]))
               for i in range(args.workers)]
    for t in threads:
        t.start()
    time.sleep(args.before)
    killed_at = time.monotonic()
    os.kill(args.victim, signal.SIGTERM if args.restart else signal.SIGKILL)
    # The signal is sent, not yet acted on: until the replica is seen dead, a request may still
    # reach it (its backlog) and fail, in flight at the kill.
    while not dead(args.victim):
        if time.monotonic() - killed_at > 30:
            stop.set()
            print(f"kill: FAIL: replica {args.victim} still alive 30 s after SIGKILL")
            return 1
        time.sleep(0.001)
    dead_at = time.monotonic()
    if args.restart:
        # Started again at once on its own port: nginx sends it work again once it answers.
        restarted = subprocess.Popen(args.restart, shell=True, stdout=subprocess.DEVNULL,
                                     stderr=subprocess.DEVNULL, start_new_session=True)
    time.sleep(args.after)
    stop.set()
    for t in threads:
        t.join()

    def at_kill(r) -> bool:
        return r[0] < dead_at and r[1] > killed_at

    in_flight = [r for r in records if at_kill(r)]
    failed = [r for r in records if r[2] != "ok"]
    failed_in_flight = [r for r in failed if at_kill(r)]
    stray = [r for r in failed if not at_kill(r)]
    before = sum(1 for r in records if r[1] <= killed_at)
    after = sum(1 for r in records if r[0] >= dead_at)
    print(f"kill: {len(records)} calls through the balancer ({before} ended before the kill, "
          f"{len(in_flight)} in flight at it ({(dead_at - killed_at) * 1000:.1f} ms from the signal "
          f"to the replica seen dead), {after} began after it); {len(failed)} failed, "
          f"all in flight at the kill: {len(failed_in_flight)} of {len(in_flight)}; "
          f"failed outside it: {len(stray)}")
    for r in failed[:5]:
        print(f"  failed: {r[2]}")
    ok = not stray and len(failed) <= len(in_flight) and after > 0
    if args.legacy:
        print(f"kill: {len(set(sessions))} 2025-11-25 sessions, each call on its session landing on any replica")
    if args.restart:
        # The restarted replica must serve the sessions too: every session makes one more call on
        # it, straight (not through the balancer).
        port = args.restart_port
        served = sum(1 for s in sessions if call_at(port, s))
        restarted.terminate()
        print(f"kill: the restarted replica, which kept nothing in memory, served {served} of {len(sessions)} sessions")
        ok = ok and served == len(sessions)
    print(f"kill: {'PASS' if ok else 'FAIL'}")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())

#!/usr/bin/env python3
"""One replica killed under load (tests/balancer/run.sh): workers call the weather example's
`forecast` tool (about 60 ms each) through the balancer without pause; after a while one replica
gets SIGKILL. Every request is timed, so each failure is placed: in flight at the kill (started
before the replica was seen dead, ended after the signal was sent) or not, and nginx's access log
says which replica each call went to. Passes when every failure is one nginx sent to the replica
that was killed, and each was in flight at the kill or began within GRACE of it: nginx keeps idle
connections to the replicas, and a call that takes one of the dead replica's before nginx has read
its close is sent on it and answered 502 (it is a POST, so nginx does not send it again).

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

# How long after the replica is seen dead nginx may still send a call on a connection to it that it
# kept idle: it drops such a connection when it reads its close, on its next turn of the loop.
GRACE = 1.0


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
            "X-Call-Id": f"{index}-{n}",
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
            records.append((began, ended, outcome, f"{index}-{n}"))


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


def routes(access_log: str) -> dict:
    """Call id -> the last replica nginx sent it to, from the access log (`log_format calls`)."""
    sent = {}
    with open(access_log) as log:
        for line in log:
            fields = line.split(" ", 3)
            if len(fields) == 4 and fields[1] != "-":
                # "$upstream_addr": "a, b" when a refused connection moved the call on to b.
                sent[fields[1]] = fields[3].split('"')[1].split(", ")[-1]
    return sent


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
    parser.add_argument("--victim-addr", required=True, help="host:port nginx reaches that replica at")
    parser.add_argument("--access-log", required=True, help="nginx's access log (log_format calls)")
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

    sent_to = routes(args.access_log)

    def to_victim(r) -> bool:
        return sent_to.get(r[3]) == args.victim_addr

    def on_a_stale_connection(r) -> bool:
        return dead_at <= r[0] < dead_at + GRACE and to_victim(r)

    in_flight = [r for r in records if at_kill(r)]
    failed = [r for r in records if r[2] != "ok"]
    failed_in_flight = [r for r in failed if at_kill(r)]
    stale = [r for r in failed if not at_kill(r) and on_a_stale_connection(r)]
    # A failure nginx did not send to the killed replica, or long after it died, is the server's.
    stray = [r for r in failed if not to_victim(r) or not (at_kill(r) or on_a_stale_connection(r))]
    before = sum(1 for r in records if r[1] <= killed_at)
    after = sum(1 for r in records if r[0] >= dead_at)
    print(f"kill: {len(records)} calls through the balancer ({before} ended before the kill, "
          f"{len(in_flight)} in flight at it ({(dead_at - killed_at) * 1000:.1f} ms from the signal "
          f"to the replica seen dead), {after} began after it); {len(failed)} failed, "
          f"all in flight at the kill: {len(failed_in_flight)} of {len(in_flight)}; "
          f"{len(stale)} began after it on a connection nginx kept to the dead replica"
          + (f" (the last {(max(r[0] for r in stale) - dead_at) * 1000:.1f} ms after it)" if stale else "")
          + f"; failed otherwise: {len(stray)}")
    for r in stray[:5] + failed[:5]:
        print(f"  failed{' (otherwise)' if r in stray else ''}: {r[2]}, sent to {sent_to.get(r[3], 'nothing')} "
              f"{(r[0] - killed_at) * 1000:+.1f} ms from the signal")
    ok = not stray and after > 0
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

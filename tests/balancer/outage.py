#!/usr/bin/env python3
"""Redis stopped for 5 s under load (tests/balancer/run.sh): workers call the conformance
harness's `test_simple_text` tool through nginx and three replicas whose rate limit is kept in
the shared Redis, so every call asks Redis. After a while Redis is killed, and started again on
the same port 5 s later.

Passes when:
- every answer is a 200 result, or the documented refusal: 503 with `Retry-After` and `-32603`
  "The state store is unavailable: try again later" (no 502: no replica died; no other error);
- no call that began while Redis was away was served, from the store's 500 ms time limit after
  it went to that limit before it was continued or started again (a call begun in the last
  500 ms may be served when Redis answers its queued command);
- service is back within 2 s of Redis answering again, and every call that began after that was
  served;
- every replica is alive at the end.

With --legacy the workers are 2025-11-25 clients, one session each, opened through nginx; each
call on a session touches its record in Redis, on whichever replica it lands. With --pause
Redis is not killed but stopped (SIGSTOP) and continued 5 s later, so it keeps what it held:
then no session is lost either (none is answered 404 after)."""

import argparse
import http.client
import json
import os
import signal
import socket
import subprocess
import threading
import time
import urllib.parse

from kill import open_session

META = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientCapabilities": {},
}
STORE_MESSAGE = "The state store is unavailable: try again later"


def call(conn, path, n, session):
    params = {"name": "test_simple_text", "arguments": {}}
    headers = {
        "Content-Type": "application/json",
        "Accept": "application/json, text/event-stream",
    }
    if session is None:
        params["_meta"] = META
        headers.update({"MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/call",
                        "Mcp-Name": "test_simple_text"})
    else:
        headers.update({"MCP-Protocol-Version": "2025-11-25", "Mcp-Session-Id": session})
    body = json.dumps({"jsonrpc": "2.0", "id": n, "method": "tools/call", "params": params})
    conn.request("POST", path, body, headers)
    response = conn.getresponse()
    answer = json.loads(response.read())
    if response.status == 200 and "result" in answer:
        return "ok"
    error = answer.get("error") or {}
    if (response.status == 503 and response.getheader("Retry-After")
            and error.get("code") == -32603 and error.get("message") == STORE_MESSAGE):
        return "refused"
    return f"HTTP {response.status}: {json.dumps(answer)[:160]}"


def worker(url, stop, records, lock, index, session):
    parsed = urllib.parse.urlsplit(url)
    conn = http.client.HTTPConnection(parsed.hostname, parsed.port, timeout=30)
    n = 0
    while not stop.is_set():
        n += 1
        began = time.monotonic()
        try:
            outcome = call(conn, parsed.path, f"{index}-{n}", session)
        except Exception as error:  # a reset connection, a 502 page that is not JSON
            outcome = f"{type(error).__name__}: {error}"
            conn.close()
            conn = http.client.HTTPConnection(parsed.hostname, parsed.port, timeout=30)
        with lock:
            records.append((began, time.monotonic(), outcome))
        if outcome == "refused":
            time.sleep(0.02)


def answers(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.5) as s:
            s.sendall(b"PING\r\n")
            return s.recv(7) == b"+PONG\r\n"
    except OSError:
        return False


def alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] not in ("Z", "X")
    except (FileNotFoundError, ProcessLookupError):
        return False


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--url", required=True)
    parser.add_argument("--redis-pid", type=int, required=True)
    parser.add_argument("--redis-port", type=int, required=True)
    parser.add_argument("--redis-command", required=True, help="the command line to start it again")
    parser.add_argument("--replicas", required=True, help="the replicas' pids, comma-separated")
    parser.add_argument("--workers", type=int, default=12)
    parser.add_argument("--before", type=float, default=2.0)
    parser.add_argument("--outage", type=float, default=5.0)
    parser.add_argument("--after", type=float, default=4.0)
    parser.add_argument("--legacy", action="store_true",
                        help="2025-11-25 clients: one session per worker, opened through the balancer")
    parser.add_argument("--pause", action="store_true",
                        help="stop Redis (SIGSTOP) and continue it, rather than kill and restart it")
    args = parser.parse_args()
    stop, lock, records = threading.Event(), threading.Lock(), []
    sessions = [open_session(args.url) if args.legacy else None for _ in range(args.workers)]
    threads = [threading.Thread(target=worker, args=(args.url, stop, records, lock, i, sessions[i]))
               for i in range(args.workers)]
    for t in threads:
        t.start()
    time.sleep(args.before)
    os.kill(args.redis_pid, signal.SIGSTOP if args.pause else signal.SIGKILL)
    gone_at = time.monotonic()
    time.sleep(args.outage)
    restarted = None
    resumed_at = time.monotonic()
    if args.pause:
        os.kill(args.redis_pid, signal.SIGCONT)
    else:
        restarted = subprocess.Popen(args.redis_command.split(), stdout=subprocess.DEVNULL,
                                     stderr=subprocess.DEVNULL)
    while not answers(args.redis_port):
        time.sleep(0.005)
    back_at = time.monotonic()
    time.sleep(args.after)
    stop.set()
    for t in threads:
        t.join()
    if restarted is not None:
        restarted.terminate()
        restarted.wait()

    records.sort()
    odd = [r for r in records if r[2] not in ("ok", "refused")]
    # A call that began during the outage, its time limit (500 ms) ending before Redis was back,
    # cannot have been served (with 100 ms to spare either side for the scheduling of this
    # process's threads).
    served_in_outage = [r for r in records if gone_at + 0.6 < r[0] < resumed_at - 0.6
                        and r[2] == "ok"]
    refused = [r for r in records if r[2] == "refused"]
    first_ok_after = next((r[1] for r in records if r[0] >= back_at and r[2] == "ok"), None)
    recovery = None if first_ok_after is None else first_ok_after - back_at
    late = [r for r in records if r[0] >= back_at + 2.0 and r[2] != "ok"]
    dead = [pid for pid in map(int, args.replicas.split(",")) if not alive(pid)]
    before = sum(1 for r in records if r[1] <= gone_at)
    after = sum(1 for r in records if r[0] >= back_at + 2.0)
    print(f"outage: {len(records)} calls ({before} before Redis went, {after} begun 2 s after it "
          f"was back); {len(refused)} refused 503 while it was away, {len(served_in_outage)} "
          f"served then; service back {recovery * 1000:.0f} ms after Redis answered"
          if recovery is not None else "outage: service never came back")
    print(f"outage: other answers {len(odd)}, refused or failed 2 s after: {len(late)}, "
          f"replicas dead: {dead}")
    for r in (odd + late)[:5]:
        print(f"  {r[2]}")
    if args.legacy:
        print(f"outage: {len(sessions)} 2025-11-25 sessions, Redis "
              f"{'paused (it kept them)' if args.pause else 'killed'}; none answered 404 after: "
              f"{not any('HTTP 404' in r[2] for r in records)}")
    ok = (not odd and not served_in_outage and refused and recovery is not None
          and recovery <= 2.0 and not late and after > 0 and not dead)
    print(f"outage: {'PASS' if ok else 'FAIL'}")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())

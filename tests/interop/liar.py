#!/usr/bin/env python3
"""Negative control: a proxy in front of the real server that tells chosen lies in its answers.

usage: liar.py [--record FILE] --lie NAME [--lie NAME ...] -- SERVER_CMD [ARGS...]  (stdio)
       liar.py [--record FILE] --lie NAME [--lie NAME ...] --http UPSTREAM_URL      (HTTP)
       liar.py --record FILE (-- SERVER_CMD [ARGS...] | --http UPSTREAM_URL)         (no lies)

Over stdio it runs the server and sits on its pipes. With --http it listens on a free loopback
port, prints "liar: listening on http://127.0.0.1:PORT/mcp" on stderr, and forwards every
POST, GET and DELETE to UPSTREAM_URL (headers both ways, so sessions work), rewriting JSON bodies
and each SSE `data:` line of event streams.

run.sh puts it in front of the weather example and expects every client to FAIL, naming each
lie as a mismatch; a client that passes against it checks nothing. Each lie changes one value
that a client check pins (the answer keeps its shape, so only a value check can notice):

  no-discover  answer server/discover with -32601 (what a 2025-11-25-only server says), so an
               `auto` client silently falls back to initialize and 2025-11-25
  old-version  the initialize result says protocolVersion 2025-06-18
  tool-text    tools/call text "14.5 °C" becomes "15.5 °C" (get_weather for Paris)
  structured   tools/call structuredContent.celsius is one degree higher
  bad-call     a tools/call result with isError: true says isError: false
  resource     resources/read text "snow" becomes "sleet" (weather://station/Oslo)
  prompt       prompts/get text "a week" becomes "a weekend" (still contains the original)
  completion   completion/complete values gain "Ottawa" (still contain the original)
  shapes       tools/call text: "373.15 K" becomes "373.16 K" (convert), "over 3 stations"
               becomes "over 4 stations" (region_mean)
  booking      tools/call text: "window" becomes "aisle", "declined" becomes "postponed"
               (book_trip's answers)
  elicit-request  the message of an elicitation request: "Book a trip" becomes "Book a flight",
               in a 2026-07-28 `input_required` result's inputRequests and in a 2025-11-25
               `elicitation/create` request to the client

Responses are matched to the method of the request with the same id (over HTTP: of the POST
they answer). Over HTTP, no-discover answers the POST 200 with that JSON-RPC error, and
old-version also turns the client's `MCP-Protocol-Version: 2025-06-18` header back into
2025-11-25 upstream, so the lie holds for the rest of the session. What nothing applies to
passes through byte for byte; each rewrite is logged on stderr. Standard library only.

With --record FILE (and no lies, a transparent tap) every message from the server is appended
to FILE as one JSON line {"rev": R, "method": M, "line": RAW}: R is the revision of the exchange
it belongs to (a request whose `params._meta` names a protocol version is 2026-07-28; else the
`MCP-Protocol-Version` header, else 2025-11-25 once `initialize` was seen, or 2026-07-28 before
it over stdio), M the method of the request a response answers. wire_check.py validates FILE.
"""

import http.client
import json
import subprocess
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Callable
from urllib.parse import urlsplit


def replace_text(blocks: list[Any], old: str, new: str) -> None:
    for block in blocks:
        if isinstance(block, dict) and isinstance(block.get("text"), str):
            block["text"] = block["text"].replace(old, new)


def tool_text(result: dict[str, Any]) -> None:
    replace_text(result.get("content", []), "14.5 °C", "15.5 °C")


def structured(result: dict[str, Any]) -> None:
    sc = result.get("structuredContent")
    if isinstance(sc, dict) and isinstance(sc.get("celsius"), (int, float)):
        sc["celsius"] += 1


def bad_call(result: dict[str, Any]) -> None:
    if result.get("isError") is True:
        result["isError"] = False


def resource(result: dict[str, Any]) -> None:
    replace_text(result.get("contents", []), "snow", "sleet")


def prompt(result: dict[str, Any]) -> None:
    replace_text([m.get("content") for m in result.get("messages", [])], "a week", "a weekend")


def completion(result: dict[str, Any]) -> None:
    values = result.get("completion", {}).get("values")
    if isinstance(values, list) and values:
        values.append("Ottawa")


def old_version(result: dict[str, Any]) -> None:
    result["protocolVersion"] = "2025-06-18"


def shapes(result: dict[str, Any]) -> None:
    replace_text(result.get("content", []), "373.15 K", "373.16 K")
    replace_text(result.get("content", []), "over 3 stations", "over 4 stations")


def booking(result: dict[str, Any]) -> None:
    replace_text(result.get("content", []), "window", "aisle")
    replace_text(result.get("content", []), "declined", "postponed")


def elicit_message(params: Any) -> None:
    if isinstance(params, dict) and isinstance(params.get("message"), str):
        params["message"] = params["message"].replace("Book a trip", "Book a flight")


def elicit_request(result: dict[str, Any]) -> None:
    requests = result.get("inputRequests")
    for request in requests.values() if isinstance(requests, dict) else ():
        if isinstance(request, dict) and request.get("method") == "elicitation/create":
            elicit_message(request.get("params"))


# lie -> (method, rewrite of that method's result)
REWRITES: dict[str, tuple[str, Callable[[dict[str, Any]], None]]] = {
    "tool-text": ("tools/call", tool_text),
    "structured": ("tools/call", structured),
    "bad-call": ("tools/call", bad_call),
    "resource": ("resources/read", resource),
    "prompt": ("prompts/get", prompt),
    "completion": ("completion/complete", completion),
    "old-version": ("initialize", old_version),
    "booking": ("tools/call", booking),
    "shapes": ("tools/call", shapes),
    "elicit-request": ("tools/call", elicit_request),
}
LIES = (*REWRITES, "no-discover")
DISCOVER_ERROR = {"code": -32601, "message": "Method not found: server/discover"}


def lie(lies: set[str], msg: Any, method: str | None) -> bool:
    """Tells the chosen lies in one message from the server (a response to `method`, or a
    request to the client); True if it changed."""
    if not isinstance(msg, dict):
        return False
    before = json.dumps(msg, sort_keys=True)
    if isinstance(msg.get("result"), dict) and "id" in msg:
        for name in lies:
            if name in REWRITES and REWRITES[name][0] == method:
                REWRITES[name][1](msg["result"])
    elif msg.get("method") == "elicitation/create" and "elicit-request" in lies:
        elicit_message(msg.get("params"))
    changed = json.dumps(msg, sort_keys=True) != before
    if changed:
        what = f"the {method} result for id {msg['id']}" if method else f"a {msg.get('method')} request"
        sys.stderr.write(f"liar: rewrote {what}\n")
    return changed


MODERN = "2026-07-28"
LEGACY = "2025-11-25"
META_VERSION = "io.modelcontextprotocol/protocolVersion"


def meta_version(request: Any) -> str | None:
    """The protocol version a 2026-07-28 request names in `params._meta`."""
    if isinstance(request, dict) and isinstance(request.get("params"), dict):
        meta = request["params"].get("_meta")
        if isinstance(meta, dict) and isinstance(meta.get(META_VERSION), str):
            return meta[META_VERSION]
    return None


class Recorder:
    """Appends what the server sent, with its revision and the method it answers, to a file."""

    def __init__(self, path: str | None) -> None:
        self.file = open(path, "a", buffering=1, encoding="utf-8") if path else None
        self.lock = threading.Lock()

    def record(self, raw: bytes, rev: str, method: str | None) -> None:
        if self.file is None or not raw.strip():
            return
        line = json.dumps({"rev": rev, "method": method, "line": raw.decode("utf-8", "replace").strip()})
        with self.lock:
            self.file.write(line + "\n")


def encode(msg: Any) -> bytes:
    return json.dumps(msg, ensure_ascii=False, separators=(",", ":")).encode()


# Headers that belong to one hop, not to the message.
HOP = {"connection", "keep-alive", "transfer-encoding", "content-length", "host", "te", "trailer", "upgrade"}


def serve_http(lies: set[str], upstream: str, recorder: Recorder) -> int:
    target = urlsplit(upstream)

    class Proxy(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, format: str, *args: Any) -> None:  # quiet: only rewrites are logged
            pass

        def do_POST(self) -> None:
            self.forward()

        def do_GET(self) -> None:
            self.forward()

        def do_DELETE(self) -> None:
            self.forward()

        def forward(self) -> None:
            body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
            try:
                request = json.loads(body) if body else None
            except ValueError:
                request = None
            method = request.get("method") if isinstance(request, dict) and "id" in request else None
            rev = meta_version(request) or (self.headers.get("MCP-Protocol-Version") or LEGACY).strip()
            if method == "server/discover" and "no-discover" in lies:
                sys.stderr.write("liar: server/discover -> -32601\n")
                self.reply(200, "application/json", encode({"jsonrpc": "2.0", "id": request["id"], "error": DISCOVER_ERROR}))
                return
            headers = {k: v for k, v in self.headers.items() if k.lower() not in HOP}
            if "old-version" in lies:
                headers = {k: ("2025-11-25" if k.lower() == "mcp-protocol-version" and v.strip() == "2025-06-18" else v)
                           for k, v in headers.items()}
            conn = http.client.HTTPConnection(target.hostname, target.port)
            try:
                conn.request(self.command, target.path, body=body or None, headers={**headers, "Host": target.netloc})
                response = conn.getresponse()
                kind = response.getheader("Content-Type", "")
                self.send_response(response.status)
                for k, v in response.getheaders():
                    if k.lower() not in HOP:
                        self.send_header(k, v)
                if kind.startswith("text/event-stream"):
                    self.stream(response, method, rev)
                else:
                    data = response.read()
                    try:
                        msg = json.loads(data)
                    except ValueError:
                        msg = None
                    if lie(lies, msg, method):
                        data = encode(msg)
                    if msg is not None:
                        recorder.record(data, rev, method)
                    self.send_header("Content-Length", str(len(data)))
                    self.end_headers()
                    self.wfile.write(data)
            except OSError:
                self.close_connection = True
            finally:
                conn.close()

        def stream(self, response: http.client.HTTPResponse, method: str | None, rev: str) -> None:
            """Relays an event stream event by event (chunked), rewriting each `data:` line."""
            self.send_header("Transfer-Encoding", "chunked")
            self.end_headers()
            event = b""
            while line := response.readline():
                if line.startswith(b"data:"):
                    try:
                        msg = json.loads(line[5:])
                    except ValueError:
                        msg = None
                    if lie(lies, msg, method):
                        line = b"data: " + encode(msg) + b"\n"
                    if msg is not None:
                        recorder.record(line[5:], rev, method)
                event += line
                if line in (b"\n", b"\r\n"):
                    self.chunk(event)
                    event = b""
            if event:
                self.chunk(event)
            self.wfile.write(b"0\r\n\r\n")
            self.wfile.flush()

        def chunk(self, data: bytes) -> None:
            self.wfile.write(b"%x\r\n%s\r\n" % (len(data), data))
            self.wfile.flush()

        def reply(self, status: int, kind: str, data: bytes) -> None:
            self.send_response(status)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

    server = ThreadingHTTPServer(("127.0.0.1", 0), Proxy)
    server.daemon_threads = True
    sys.stderr.write(f"liar: listening on http://127.0.0.1:{server.server_address[1]}{target.path}\n")
    sys.stderr.flush()
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    return 0


def main() -> int:
    argv, lies, record = sys.argv[1:], set(), None
    if len(argv) >= 2 and argv[0] == "--record":
        record, argv = argv[1], argv[2:]
    while len(argv) >= 2 and argv[0] == "--lie" and argv[1] in LIES:
        lies.add(argv[1])
        argv = argv[2:]
    recorder = Recorder(record)
    if (lies or record) and len(argv) == 2 and argv[0] == "--http":
        return serve_http(lies, argv[1], recorder)
    if not (lies or record) or len(argv) < 2 or argv[0] != "--":
        sys.stderr.write(__doc__)
        return 2
    initialized = threading.Event()
    out_lock = threading.Lock()
    # json.dumps(id) -> (method, revision), of requests the client sent
    pending: dict[str, tuple[str, str]] = {}

    def emit(raw: bytes) -> None:
        with out_lock:
            sys.stdout.buffer.write(raw)
            sys.stdout.buffer.flush()

    proc = subprocess.Popen(argv[1:], stdin=subprocess.PIPE, stdout=subprocess.PIPE)

    def upstream() -> None:
        try:
            for line in sys.stdin.buffer:
                try:
                    msg = json.loads(line)
                except ValueError:
                    msg = None
                if isinstance(msg, dict) and "method" in msg and "id" in msg:
                    if msg["method"] == "server/discover" and "no-discover" in lies:
                        sys.stderr.write("liar: server/discover -> -32601\n")
                        emit(encode({"jsonrpc": "2.0", "id": msg["id"], "error": DISCOVER_ERROR}) + b"\n")
                        continue
                    if msg["method"] == "initialize":
                        initialized.set()
                    rev = meta_version(msg) or (LEGACY if initialized.is_set() else MODERN)
                    pending[json.dumps(msg["id"])] = (msg["method"], rev)
                proc.stdin.write(line)
                proc.stdin.flush()
        except (BrokenPipeError, OSError):
            pass
        finally:
            try:
                proc.stdin.close()
            except OSError:
                pass

    def rewrite(line: bytes) -> bytes:
        try:
            msg = json.loads(line)
        except ValueError:
            return line
        method, rev = None, (LEGACY if initialized.is_set() else MODERN)
        if isinstance(msg, dict) and "id" in msg and "method" not in msg:  # a response
            method, rev = pending.pop(json.dumps(msg["id"]), (None, rev))
        if lie(lies, msg, method):
            line = encode(msg) + b"\n"
        recorder.record(line, rev, method)
        return line

    threading.Thread(target=upstream, daemon=True).start()
    try:
        for line in proc.stdout:
            emit(rewrite(line))
    except (BrokenPipeError, OSError):
        proc.kill()
    return proc.wait()


if __name__ == "__main__":
    sys.exit(main())

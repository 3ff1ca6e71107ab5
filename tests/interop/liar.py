#!/usr/bin/env python3
"""Negative control: a stdio proxy that runs the real server and tells chosen lies in its answers.

usage: liar.py --lie NAME [--lie NAME ...] -- SERVER_CMD [ARGS...]

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

Responses are matched to the method of the request with the same id. Lines nothing applies to
pass through byte for byte; each rewrite is logged on stderr. Standard library only.
"""

import json
import subprocess
import sys
import threading
from typing import Any, Callable


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


# lie -> (method, rewrite of that method's result)
REWRITES: dict[str, tuple[str, Callable[[dict[str, Any]], None]]] = {
    "tool-text": ("tools/call", tool_text),
    "structured": ("tools/call", structured),
    "bad-call": ("tools/call", bad_call),
    "resource": ("resources/read", resource),
    "prompt": ("prompts/get", prompt),
    "completion": ("completion/complete", completion),
    "old-version": ("initialize", old_version),
}
LIES = (*REWRITES, "no-discover")


def main() -> int:
    argv, lies = sys.argv[1:], set()
    while len(argv) >= 2 and argv[0] == "--lie" and argv[1] in LIES:
        lies.add(argv[1])
        argv = argv[2:]
    if not lies or len(argv) < 2 or argv[0] != "--":
        sys.stderr.write(__doc__)
        return 2
    out_lock = threading.Lock()
    pending: dict[str, str] = {}  # json.dumps(id) -> method, of requests the client sent

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
                        error = {"code": -32601, "message": "Method not found: server/discover"}
                        emit(json.dumps({"jsonrpc": "2.0", "id": msg["id"], "error": error}).encode() + b"\n")
                        continue
                    pending[json.dumps(msg["id"])] = msg["method"]
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
        if not (isinstance(msg, dict) and "id" in msg and isinstance(msg.get("result"), dict)):
            return line
        method = pending.pop(json.dumps(msg["id"]), None)
        before = json.dumps(msg["result"], sort_keys=True)
        for lie in lies:
            if lie in REWRITES and REWRITES[lie][0] == method:
                REWRITES[lie][1](msg["result"])
        if json.dumps(msg["result"], sort_keys=True) == before:
            return line
        sys.stderr.write(f"liar: rewrote the {method} result for id {msg['id']}\n")
        return json.dumps(msg, ensure_ascii=False, separators=(",", ":")).encode() + b"\n"

    threading.Thread(target=upstream, daemon=True).start()
    try:
        for line in proc.stdout:
            emit(rewrite(line))
    except (BrokenPipeError, OSError):
        proc.kill()
    return proc.wait()


if __name__ == "__main__":
    sys.exit(main())

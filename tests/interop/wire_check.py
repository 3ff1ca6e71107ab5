#!/usr/bin/env python3
"""Validates every message a server sent, as liar.py --record wrote them, against the official
schema of the revision each belongs to (tests/spec/<rev>/schema.json, by tests/spec-check).

usage: wire_check.py RECORD_FILE [RECORD_FILE ...]
       wire_check.py --self-test     (the negative control: a 2026-07-28 field on a 2025-11-25
                                      result, and a result of the wrong shape, must each fail)

Each message is held to its envelope (JSONRPCResultResponse, JSONRPCErrorResponse, a request or
a notification), and a result to the type of the method it answers with no key that type does
not declare (closed: the official schemas leave objects open, so a field of the other revision
would pass them); a request or notification the server sent to the type of its method. Prints
one line per failure and a summary; exits 1 if any message fails, 2 on a usage error.
Standard library only, besides the spec-check binary it builds with cargo.
"""

import json
import os
import subprocess
import sys
from typing import Any

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))

# The result type of each method's answer (as tests/support `check_response`).
RESULTS = {
    "initialize": "InitializeResult",
    "server/discover": "DiscoverResult",
    "tools/list": "ListToolsResult",
    "tools/call": "CallToolResult",
    "resources/list": "ListResourcesResult",
    "resources/templates/list": "ListResourceTemplatesResult",
    "resources/read": "ReadResourceResult",
    "prompts/list": "ListPromptsResult",
    "prompts/get": "GetPromptResult",
    "completion/complete": "CompleteResult",
    "subscriptions/listen": "SubscriptionsListenResult",
}
# The type of each request or notification a server sends.
SENT = {
    "notifications/progress": "ProgressNotification",
    "notifications/message": "LoggingMessageNotification",
    "notifications/cancelled": "CancelledNotification",
    "notifications/tools/list_changed": "ToolListChangedNotification",
    "notifications/resources/list_changed": "ResourceListChangedNotification",
    "notifications/prompts/list_changed": "PromptListChangedNotification",
    "notifications/resources/updated": "ResourceUpdatedNotification",
    "elicitation/create": "ElicitRequest",
    "sampling/createMessage": "CreateMessageRequest",
    "roots/list": "ListRootsRequest",
    "ping": "PingRequest",
}
REVISIONS = ("2025-11-25", "2026-07-28")


class SpecCheck:
    """The tests' schema validator, as a process spoken to line by line."""

    def __init__(self) -> None:
        manifest = os.path.join(ROOT, "tests", "spec-check", "Cargo.toml")
        built = subprocess.run(
            ["cargo", "build", "--quiet", "--locked", "--manifest-path", manifest,
             "--bin", "spec-check", "--message-format=json"],
            cwd=ROOT, check=True, capture_output=True, text=True)
        exe = None
        for line in built.stdout.splitlines():
            try:
                message = json.loads(line)
            except ValueError:
                continue
            if message.get("reason") == "compiler-artifact" and message.get("executable"):
                exe = message["executable"]
        if exe is None:
            raise SystemExit("wire_check.py: cargo named no spec-check executable")
        self.proc = subprocess.Popen([exe, os.path.join(ROOT, "tests", "spec")],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def check(self, rev: str, definition: str, instance: Any, closed: bool = False) -> str | None:
        request = {"revision": rev, "def": definition, "instance": instance}
        if closed:
            request["closed"] = True
        assert self.proc.stdin and self.proc.stdout
        self.proc.stdin.write(json.dumps(request) + "\n")
        self.proc.stdin.flush()
        answer = json.loads(self.proc.stdout.readline())
        return None if answer.get("ok") is True else str(answer.get("error"))


def check_message(spec: SpecCheck, rev: str, method: str | None, msg: Any) -> list[str]:
    """Every failure of one message the server sent."""
    if rev not in REVISIONS:
        # A version the server refuses is answered in the 2026-07-28 vocabulary (-32022).
        rev = "2026-07-28"
    if not isinstance(msg, dict):
        return ["not a JSON object"]
    failures = []

    def held(definition: str, instance: Any, closed: bool = False) -> None:
        error = spec.check(rev, definition, instance, closed)
        if error is not None:
            failures.append(f"{definition}: {error}")

    if "method" in msg:
        envelope = "JSONRPCRequest" if "id" in msg else "JSONRPCNotification"
        held(envelope, msg)
        if msg["method"] in SENT:
            held(SENT[msg["method"]], msg)
    elif "error" in msg:
        held("JSONRPCErrorResponse", msg)
    else:
        held("JSONRPCResultResponse", msg)
        result = msg.get("result")
        kind = result.get("resultType") if isinstance(result, dict) else None
        if rev == "2026-07-28" and kind == "input_required" and method in ("tools/call", "prompts/get", "resources/read"):
            definition = "InputRequiredResult"
        elif method == "server/discover":
            rev, definition = "2026-07-28", "DiscoverResult"
        else:
            definition = RESULTS.get(method or "", "Result")
        if rev == "2025-11-25" and method == "initialize" and isinstance(result, dict) \
                and isinstance(result.get("capabilities"), dict) and "extensions" in result["capabilities"]:
            # An extension is declared in `capabilities.extensions` at 2025-11-25 too, as the
            # Skills extension says (SEP-2640, after SEP-2133), though that revision's schema has
            # no such field: held to the 2026-07-28 field, and the rest closed (as tests/support).
            capabilities = dict(result["capabilities"])
            declared = {"extensions": capabilities.pop("extensions")}
            error = spec.check("2026-07-28", "ServerCapabilities", declared, True)
            if error is not None:
                failures.append(f"ServerCapabilities (2026-07-28 extensions): {error}")
            result = {**result, "capabilities": capabilities}
        held(definition, result, closed=True)
    return failures


def self_test(spec: SpecCheck) -> int:
    """The check must refuse what it is there to catch; 0 when it does."""
    result = {"content": [{"type": "text", "text": "hi"}], "isError": False}
    hello = {"protocolVersion": "2025-11-25", "capabilities": {}, "serverInfo": {"name": "s", "version": "1"}}
    cases = [
        ("a 2026-07-28 field (ttlMs) on a 2025-11-25 tools/call result",
         "2025-11-25", "tools/call", {"jsonrpc": "2.0", "id": 1, "result": {**result, "ttlMs": 1000}}),
        ("a 2026-07-28 field (resultType) on a 2025-11-25 tools/list result",
         "2025-11-25", "tools/list", {"jsonrpc": "2.0", "id": 1, "result": {"tools": [], "resultType": "complete"}}),
        ("a tools/call result whose content is not a list",
         "2026-07-28", "tools/call", {"jsonrpc": "2.0", "id": 1, "result": {"content": "hi", "resultType": "complete"}}),
        ("a progress notification without its token",
         "2025-11-25", None, {"jsonrpc": "2.0", "method": "notifications/progress", "params": {"progress": 1}}),
        ("extensions that are not an object of objects on a 2025-11-25 initialize result",
         "2025-11-25", "initialize", {"jsonrpc": "2.0", "id": 1, "result": {
             **hello, "capabilities": {"extensions": {"io.modelcontextprotocol/skills": 1}}}}),
        ("an unknown capability beside extensions on a 2025-11-25 initialize result",
         "2025-11-25", "initialize", {"jsonrpc": "2.0", "id": 1, "result": {
             **hello, "capabilities": {"extensions": {}, "widgets": {}}}}),
    ]
    missed = 0
    for what, rev, method, msg in cases:
        failures = check_message(spec, rev, method, msg)
        print(f"wire_check self-test: {what}: {'caught' if failures else 'MISSED'}")
        missed += not failures
    well_formed = check_message(spec, "2025-11-25", "tools/call", {"jsonrpc": "2.0", "id": 1, "result": result})
    well_formed += check_message(spec, "2025-11-25", "initialize", {"jsonrpc": "2.0", "id": 1, "result": {
        **hello, "capabilities": {"extensions": {"io.modelcontextprotocol/skills": {"directoryRead": True}}}}})
    if well_formed:
        print(f"wire_check self-test: a well-formed result was refused: {well_formed}")
        missed += 1
    return 1 if missed else 0


def main() -> int:
    args = sys.argv[1:]
    if not args:
        sys.stderr.write(__doc__ or "")
        return 2
    spec = SpecCheck()
    if args == ["--self-test"]:
        return self_test(spec)
    checked = failed = 0
    for path in args:
        with open(path, encoding="utf-8") as f:
            for number, line in enumerate(f, 1):
                record = json.loads(line)
                try:
                    msg = json.loads(record["line"])
                except ValueError:
                    msg = None
                failures = check_message(spec, record["rev"], record.get("method"), msg)
                checked += 1
                if failures:
                    failed += 1
                    what = record.get("method") or (msg or {}).get("method") if isinstance(msg, dict) else None
                    print(f"wire_check FAIL: {os.path.basename(path)}:{number} ({record['rev']}, {what}): "
                          + "; ".join(failures)[:2000])
    print(f"wire_check: {checked} messages the server sent, {failed} failed their revision's schema")
    return 1 if failed or checked == 0 else 0


if __name__ == "__main__":
    sys.exit(main())

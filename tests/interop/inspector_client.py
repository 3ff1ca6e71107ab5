#!/usr/bin/env python3
"""Interop client: the MCP Inspector CLI (`@modelcontextprotocol/inspector --cli`, pinned in
package.json) against a stdio or Streamable HTTP MCP server.

The Inspector's CLI does one method per invocation, so this script runs it once per step (those
that do not depend on each other side by side, checked in step order all the same), each
time with `--format json` (one JSON object on stdout: `{"result": ...}`, or `{"error": ...}` on
stderr), and checks what it printed: `--method initialize` (the negotiated version, server info
and capabilities), `tools/list`, `tools/call` with --args (exit 0) and with --bad-args (the
Inspector exits 5, "tool_is_error", and still prints the result), then, when the server
advertises them, `resources/list` and `resources/read` of every listed resource and each --read
URI, and `prompts/list` and `prompts/get` --prompt. The Inspector CLI has no completion or
progress method, so --complete and --progress-tool are not accepted here.

Revisions (--revision) map to `--protocol-era`:
  2025-11-25  no flag: the CLI's default for an ad-hoc target (`legacy`: initialize)
  auto        `--protocol-era auto`: probe server/discover, fall back to initialize
  2026-07-28  `--protocol-era modern`: the TS v2 client pinned to 2026-07-28

The --expect-* options and the summary line are those of py_client.py (same check names, same
"<check> mismatch: expected E, got A" errors, numbers compared by value). Exit codes: 0 = passed,
1 = a check failed, 2 = usage error. The Inspector runs on the Node 22 that package.json pins
(node_modules/.bin/node; the Inspector needs Node >= 22.19), with HOME set to a fresh temporary
directory: the Inspector keeps state under ~/.mcp-inspector, and a run must not read or leave any.

Example:
  .venv/bin/python inspector_client.py --revision 2026-07-28 --tool get_weather \\
      --args '{"place":"Paris"}' --expect-text 'Paris: 14.5 °C, cloudy' -- path/to/server
  .venv/bin/python inspector_client.py --revision 2025-11-25 --url http://127.0.0.1:8080/mcp
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any

from compare import check, check_metadata, compact, norm_content, pick

HERE = Path(__file__).resolve().parent
INSPECTOR = HERE / "node_modules/@modelcontextprotocol/inspector"
LAUNCHER = INSPECTOR / "clients/launcher/build/index.js"
NODE = HERE / "node_modules/.bin/node"
ERAS = {"2025-11-25": [], "auto": ["--protocol-era", "auto"], "2026-07-28": ["--protocol-era", "modern"]}


def parse_args(argv: list[str]) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--url", help="a Streamable HTTP endpoint (http://HOST:PORT/mcp) instead of a stdio command")
    p.add_argument("--revision", choices=tuple(ERAS), default="2025-11-25")
    p.add_argument("--expect-version", help="fail unless this protocol version is negotiated "
                   "(defaults to --revision when it is not 'auto')")
    p.add_argument("--tool", default="get_weather")
    p.add_argument("--args", default='{"place":"Paris"}', help="JSON object: good arguments")
    p.add_argument("--bad-args", default='{"place":42}', help="JSON object: arguments that must yield isError: true")
    p.add_argument("--expect-text")
    p.add_argument("--expect-structured", metavar="JSON")
    p.add_argument("--expect-bad-text")
    p.add_argument("--expect-read", metavar="JSON")
    p.add_argument("--expect-prompt", metavar="JSON")
    p.add_argument("--expect-metadata", metavar="JSON", help="as py_client.py's: what the CLI printed of the "
                   "server and of each listed item, compared on the keys given")
    p.add_argument("--skip-lists", action="store_true")
    p.add_argument("--read", action="append", default=[], metavar="URI")
    p.add_argument("--prompt")
    p.add_argument("--prompt-args", default="{}", help="JSON object of string arguments for --prompt")
    p.add_argument("--timeout", type=float, default=30.0, help="deadline per Inspector invocation, seconds")
    p.add_argument("rest", nargs=argparse.REMAINDER, help="-- server command and args")
    ns = p.parse_args(argv)
    ns.command = ns.rest[1:] if ns.rest[:1] == ["--"] else ns.rest
    if bool(ns.url) == bool(ns.command):
        p.error("give either --url or a server command after --")
    for name in ("args", "bad_args", "prompt_args"):
        try:
            value = json.loads(getattr(ns, name))
        except json.JSONDecodeError as e:
            p.error(f"--{name.replace('_', '-')} is not JSON: {e}")
        if not isinstance(value, dict):
            p.error(f"--{name.replace('_', '-')} must be a JSON object")
        setattr(ns, name, value)
    for name in ("expect_structured", "expect_read", "expect_prompt", "expect_metadata"):
        if getattr(ns, name) is not None:
            try:
                setattr(ns, name, json.loads(getattr(ns, name)))
            except json.JSONDecodeError as e:
                p.error(f"--{name.replace('_', '-')} is not JSON: {e}")
    if ns.expect_version is None and ns.revision != "auto":
        ns.expect_version = ns.revision
    return ns


class StepFailed(Exception):
    pass


class Inspector:
    def __init__(self, ns: argparse.Namespace, home: str) -> None:
        self.env = {**os.environ, "HOME": home}
        target = ["--transport", "http", "--server-url", ns.url] if ns.url else []
        self.base = [str(NODE), str(LAUNCHER), "--cli", "--format", "json", *ERAS[ns.revision], *target]
        self.command = [] if ns.url else ["--", *ns.command]
        self.timeout = ns.timeout
        self.invocations = 0
        self.seconds = 0.0
        self.lock = threading.Lock()

    def __call__(self, method: str, *options: str, tool_error: bool = False) -> dict[str, Any]:
        """The `result` the Inspector printed for one method. With tool_error, exit 5 is expected."""
        argv = [*self.base, "--method", method, *options, *self.command]
        started = time.monotonic()
        try:
            done = subprocess.run(argv, capture_output=True, text=True, timeout=self.timeout, env=self.env)
        except subprocess.TimeoutExpired as e:
            raise StepFailed(f"the Inspector did not finish within {self.timeout}s") from e
        finally:
            with self.lock:
                self.invocations += 1
                self.seconds += time.monotonic() - started
        want = 5 if tool_error else 0
        try:
            result = json.loads(done.stdout)["result"] if done.stdout.strip() else None
        except (ValueError, KeyError, TypeError):
            result = None
        if done.returncode != want or result is None:
            tail = " | ".join((done.stderr.strip() or done.stdout.strip()).splitlines()[-3:])
            raise StepFailed(f"the Inspector exited {done.returncode} (wanted {want}): {tail}")
        return result


def run(ns: argparse.Namespace, summary: dict[str, Any], errors: list[str]) -> None:
    # Invocations that do not depend on each other run side by side (each is a Node process
    # and, over stdio, a server process); results are checked in step order all the same.
    with tempfile.TemporaryDirectory(prefix="interop-inspector-home-") as home, \
            ThreadPoolExecutor(max_workers=min(4, os.cpu_count() or 2)) as pool:
        inspector = Inspector(ns, home)
        steps(lambda *a, **k: pool.submit(inspector, *a, **k), ns, summary, errors)
        summary["invocations"] = inspector.invocations
        summary["inspectorSeconds"] = round(inspector.seconds, 2)


def steps(start: Any, ns: argparse.Namespace, summary: dict[str, Any], errors: list[str]) -> None:
    """`start(method, *options)` starts an invocation and returns its Future."""
    tool = ["--tool-name", ns.tool, "--tool-args-json"]
    init_f: Future = start("initialize")
    tools_f: Future = start("tools/list")
    good_f: Future = start("tools/call", *tool, compact(ns.args))
    bad_f: Future = start("tools/call", *tool, compact(ns.bad_args), tool_error=True)
    step = "initialize"
    try:
        init = init_f.result()
        summary["protocolVersion"] = init.get("protocolVersion")
        summary["serverInfo"] = init.get("serverInfo")
        caps = init.get("capabilities")
        summary["capabilities"] = caps
        if ns.expect_version:
            check(errors, "protocolVersion", ns.expect_version, init.get("protocolVersion"))
        if not isinstance(caps, dict):
            errors.append("the server reported no capabilities")
            caps = {}
        if "tools" not in caps:
            errors.append("the server did not advertise the tools capability")

        seen: dict[str, Any] = {"serverInfo": summary["serverInfo"]}
        step = "tools/list"
        listed_tools = tools_f.result()["tools"]
        seen["tools"] = {t["name"]: t for t in listed_tools}
        summary["tools"] = [t["name"] for t in listed_tools]
        if ns.tool not in summary["tools"]:
            errors.append(f"tool {ns.tool!r} not listed")

        # Everything the capabilities allow, started before the checks below read the results.
        lists = not ns.skip_lists
        resources_f = start("resources/list") if lists and "resources" in caps else None
        templates_f = start("resources/templates/list") if resources_f else None
        reads_f: dict[str, Future] = {uri: start("resources/read", "--uri", uri) for uri in ns.read} if resources_f else {}
        prompts_f = start("prompts/list") if lists and "prompts" in caps else None
        pairs = [f"{k}={v}" for k, v in ns.prompt_args.items()]
        prompt_f = start("prompts/get", "--prompt-name", ns.prompt, "--prompt-args", *pairs) \
            if prompts_f and ns.prompt else None

        step = "tools/call (good args)"
        good = good_f.result()
        summary["call"] = pick(good, "isError", "content", "structuredContent")
        if ns.expect_text is not None:
            check(errors, f"tools/call {ns.tool} content", [{"type": "text", "text": ns.expect_text}],
                  [norm_content(b) for b in good.get("content", [])])
        if ns.expect_structured is not None:
            check(errors, f"tools/call {ns.tool} structuredContent", ns.expect_structured,
                  good.get("structuredContent"))

        step = "tools/call (bad args)"
        try:
            bad = bad_f.result()
        except StepFailed as e:  # not a tool error: report it as the bad call's outcome
            bad = {"inspectorError": str(e)}
        summary["badCall"] = bad
        got = {"isError": bad.get("isError") is True,
               "content": [norm_content(b) for b in bad.get("content", [])]} if "inspectorError" not in bad else bad
        if ns.expect_bad_text is not None:
            want = {"isError": True, "content": [{"type": "text", "text": ns.expect_bad_text}]}
            check(errors, f"tools/call {ns.tool} (bad args)", want, got)
        elif got.get("isError") is not True:
            errors.append(f"bad call did not return isError: true: {compact(bad)}")

        if lists:
            if resources_f:
                step = "resources/list"
                listed_resources = resources_f.result()["resources"]
                seen["resources"] = {r["uri"]: r for r in listed_resources}
                summary["resources"] = [r["uri"] for r in listed_resources]
                step = "resources/templates/list"
                seen["resourceTemplates"] = {t["uriTemplate"]: t for t in templates_f.result()["resourceTemplates"]}
                for uri in summary["resources"]:
                    reads_f.setdefault(uri, start("resources/read", "--uri", uri))
                summary["read"] = {}
                for uri in summary["resources"] + ns.read:
                    step = f"resources/read {uri}"
                    contents = [pick(c, "uri", "mimeType", "text", "blob") for c in reads_f[uri].result()["contents"]]
                    if not contents:
                        errors.append(f"{step}: empty contents")
                    summary["read"][uri] = ["text" if "text" in c else "blob" for c in contents]
                    if ns.expect_read is not None:
                        check(errors, step, ns.expect_read.get(uri), contents)
                for uri in sorted(set(ns.expect_read or {}) - set(summary["read"])):
                    check(errors, f"resources/read {uri}", ns.expect_read[uri], None)
            elif ns.read or ns.expect_read:
                errors.append("resources to read, but the server advertises no resources")
            if prompts_f:
                step = "prompts/list"
                listed_prompts = prompts_f.result()["prompts"]
                seen["prompts"] = {pr["name"]: pr for pr in listed_prompts}
                summary["prompts"] = [pr["name"] for pr in listed_prompts]
                if prompt_f:
                    step = f"prompts/get {ns.prompt}"
                    got_prompt = prompt_f.result()
                    messages = [{"role": m.get("role"), **norm_content(m.get("content") or {})}
                                for m in got_prompt.get("messages", [])]
                    summary["prompt"] = [pick(m, "role", "type") for m in messages]
                    if not messages:
                        errors.append(f"{step}: no messages")
                    if ns.expect_prompt is not None:
                        check(errors, step, ns.expect_prompt, messages)
            elif ns.prompt:
                errors.append("a prompt to get, but the server advertises no prompts")
        if ns.expect_metadata is not None:
            step = "metadata"
            check_metadata(errors, ns.expect_metadata, seen)
    except StepFailed as e:
        errors.append(f"{step}: {e}")
    except (KeyError, TypeError, AttributeError) as e:
        errors.append(f"{step}: unexpected output shape: {type(e).__name__}: {e}")


def main(argv: list[str]) -> int:
    ns = parse_args(argv)
    try:
        version = json.loads((INSPECTOR / "package.json").read_text())["version"]
    except OSError as e:
        print(f"inspector_client.py: the Inspector is not installed (run setup.sh): {e}", file=sys.stderr)
        return 2
    summary: dict[str, Any] = {"client": f"@modelcontextprotocol/inspector {version} --cli",
                               "requestedRevision": ns.revision}
    errors: list[str] = []
    if not os.access(NODE, os.X_OK):
        errors.append(f"{NODE} is missing (run setup.sh: package.json pins node 22 for the Inspector)")
    else:
        run(ns, summary, errors)
    summary["ok"] = not errors
    summary["errors"] = errors
    print(json.dumps(summary, ensure_ascii=False, separators=(",", ":")))
    return 0 if not errors else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

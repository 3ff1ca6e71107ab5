#!/usr/bin/env python3
"""Interop client: the Python `mcp` SDK (ClientSession + stdio_client) against a stdio MCP server.

Does what a new user would: connect, list tools, call one tool with good arguments, call it
with bad arguments (expects a CallToolResult with isError: true, not a JSON-RPC error), and
lists resources / prompts when the server advertises them. Prints one JSON summary line on
stdout and exits 0 only if every step passed (1 = a check failed, 2 = usage error).

The --expect-* options pin exact values (the negotiated version, the call's text and
structuredContent, the bad call's tool error, each read resource's contents, the prompt's
messages, the completion values); a difference is an error "<check> mismatch: expected E, got A"
(run.sh's negative control looks for it). A capability the requested steps need is required.

With --progress-tool NAME, it also calls that tool with --progress-args and a progress callback
(`session.call_tool(..., progress_callback=...)`, which puts `_meta.progressToken` on the
request), and fails unless at least one notifications/progress arrived before the result and
the progress values strictly increase. The SDK spawns each callback in FIFO order ahead of the
result's delivery, so what the callback recorded when call_tool returns is what came before.

With --elicit-tool NAME, it runs the elicitation flow instead, through the SDK's high-level
`mcp.Client` (its default configuration plus an `elicitation_callback`, which declares the
`elicitation` capability): connect (`auto`: no `mode`, the default, which probes; `2026-07-28`:
`mode="2026-07-28"`, adopted without a probe; `2025-11-25`: `mode="legacy"`),
list tools, call NAME with --elicit-args while the callback accepts with --elicit-content, then
call it again while the callback declines. At 2026-07-28 the server answers
`resultType: "input_required"` and `Client.call_tool` fulfils the embedded `elicitation/create`
through the callback and retries (`ClientSession.call_tool` alone would raise); at 2025-11-25
the server sends `elicitation/create` on the session and the callback answers it. Checks:
--expect-elicit-request (what the callback got during one call: `[{"message",
"requestedSchema"}]`, the same for both calls; `format` on a number field is not compared, see
norm_elicit), --expect-elicit-text (the accepted call's text),
--expect-decline-text (the declined call's text).

Revisions (--revision):
  auto        what `mcp.Client(mode="auto")` does: probe `server/discover` at 2026-07-28,
              fall back to `initialize` on any JSON-RPC error except a -32022 that lists
              only modern versions (mcp/client/_probe.py::negotiate_auto).
  2026-07-28  `ClientSession.discover()`: probe, one corrective retry on -32022, no fallback.
              With --no-probe: adopt a synthesized DiscoverResult, no `server/discover` on the
              wire (what `mcp.Client(mode="2026-07-28")` does).
  2025-11-25  `ClientSession.initialize()`: legacy handshake (offers 2025-11-25).

Example:
  .venv/bin/python py_client.py --revision 2026-07-28 --tool get_weather \
      --args '{"place":"Paris"}' --bad-args '{"place":42}' -- path/to/server --stdio
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import sys
from importlib.metadata import version as pkg_version
from typing import Any

import anyio
import mcp_types as types
from mcp import Client
from mcp.client._probe import negotiate_auto
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.exceptions import MCPError

from compare import check, check_metadata, compact, norm_content, pick

REVISIONS = ("auto", "2026-07-28", "2025-11-25")


def parse_args(argv: list[str]) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--server-cmd", help="server command line (shell-split); or give it after `--`")
    p.add_argument("--url", help="a Streamable HTTP endpoint (http://HOST:PORT/mcp) instead of a stdio command")
    p.add_argument("--revision", choices=REVISIONS, default="auto")
    p.add_argument("--no-probe", action="store_true", help="2026-07-28 only: adopt without sending server/discover")
    p.add_argument("--expect-version", help="fail unless this protocol version is negotiated "
                   "(defaults to --revision when it is not 'auto')")
    p.add_argument("--tool", default="get_weather")
    p.add_argument("--args", default='{"place":"Paris"}', help="JSON object: good arguments")
    p.add_argument("--bad-args", default='{"place":42}', help="JSON object: arguments that must yield isError: true")
    p.add_argument("--expect-text", help="the good call's content must be exactly one text block with this text")
    p.add_argument("--expect-structured", metavar="JSON", help="the good call's structuredContent must equal this")
    p.add_argument("--expect-bad-text", help="the bad call must return isError: true with exactly this one text block")
    p.add_argument("--expect-read", metavar="JSON", help='{"URI": [{"uri", "mimeType", "text"|"blob"}, ...], ...}: '
                   "the contents of every resource read (each one read must be here, and each here must be read)")
    p.add_argument("--expect-prompt", metavar="JSON", help='[{"role", "type", "text", ...}, ...]: the messages of '
                   "--prompt (an embedded resource gives its uri, mimeType and text)")
    p.add_argument("--expect-completion", metavar="JSON", help="the exact values of --complete")
    p.add_argument("--expect-metadata", metavar="JSON", help='{"serverInfo": {...}, "tools"|"resources"|'
                   '"resourceTemplates"|"prompts": {KEY: {...}}}: what the client read of the server and of '
                   "each listed item (by name, URI or URI template), compared on the keys given (icons, title, "
                   "size, annotations, ...)")
    p.add_argument("--skip-lists", action="store_true", help="do not list resources/prompts even if advertised")
    p.add_argument("--read", action="append", default=[], metavar="URI",
                   help="after listing, read this URI too (e.g. one a template matches); every listed resource is read")
    p.add_argument("--prompt", help="get this prompt (must be listed) with --prompt-args")
    p.add_argument("--prompt-args", default="{}", help="JSON object of string arguments for --prompt")
    p.add_argument("--complete", metavar="PROMPT:ARG:VALUE",
                   help="completion/complete for a prompt argument; fails unless some value is suggested")
    p.add_argument("--also-call", action="append", default=[], metavar="JSON",
                   help='{"tool": NAME, "args": {...}, "text"|"error": S}: one more call after the bad call, '
                   "answered with exactly that text (a result) or that error text (isError: true); repeatable")
    p.add_argument("--progress-tool", metavar="NAME",
                   help="also call this tool with a progress callback; fails unless progress arrives and increases")
    p.add_argument("--progress-args", default="{}", help="JSON object: arguments for --progress-tool")
    p.add_argument("--elicit-tool", metavar="NAME", help="run the elicitation flow (mcp.Client) with this tool "
                   "instead of the steps above")
    p.add_argument("--elicit-args", default="{}", help="JSON object: arguments for --elicit-tool")
    p.add_argument("--elicit-content", default="{}", help="JSON object: the form the callback accepts with")
    p.add_argument("--expect-elicit-request", metavar="JSON", help='[{"message", "requestedSchema"}]: the '
                   "elicitation requests the callback gets during each call")
    p.add_argument("--expect-elicit-text", help="the accepted call's content must be exactly one text block with this")
    p.add_argument("--expect-decline-text", help="the declined call's content must be exactly one text block with this")
    p.add_argument("--decline-is-error", action="store_true",
                   help="the declined call must be an isError result (a server that refuses a declined form, as the Python SDK's does)")
    p.add_argument("--timeout", type=float, default=30.0, help="overall deadline, seconds")
    p.add_argument("--cwd")
    p.add_argument("--env", action="append", default=[], metavar="K=V", help="extra env for the server (repeatable)")
    p.add_argument("--inherit-env", action="store_true",
                   help="pass this process's whole environment (default: the SDK's safe subset + --env)")
    p.add_argument("rest", nargs=argparse.REMAINDER, help="-- server command and args")
    ns = p.parse_args(argv)
    rest = ns.rest[1:] if ns.rest[:1] == ["--"] else ns.rest
    if ns.server_cmd and rest:
        p.error("give the server either with --server-cmd or after --, not both")
    ns.command = shlex.split(ns.server_cmd) if ns.server_cmd else rest
    if ns.url and ns.command:
        p.error("give either --url or a server command, not both")
    if not ns.command and not ns.url:
        p.error("no server (use --url, --server-cmd or -- CMD ARGS)")
    if ns.no_probe and ns.revision != "2026-07-28":
        p.error("--no-probe only applies to --revision 2026-07-28")
    if ns.elicit_tool and ns.no_probe:
        p.error("--no-probe does not apply to --elicit-tool (mcp.Client pins 2026-07-28 without a probe)")
    for name in ("args", "bad_args", "prompt_args", "progress_args", "elicit_args", "elicit_content"):
        try:
            value = json.loads(getattr(ns, name))
        except json.JSONDecodeError as e:
            p.error(f"--{name.replace('_', '-')} is not JSON: {e}")
        if not isinstance(value, dict):
            p.error(f"--{name.replace('_', '-')} must be a JSON object")
        setattr(ns, name, value)
    for name in ("expect_structured", "expect_read", "expect_prompt", "expect_completion", "expect_elicit_request",
                 "expect_metadata"):
        if getattr(ns, name) is not None:
            try:
                setattr(ns, name, json.loads(getattr(ns, name)))
            except json.JSONDecodeError as e:
                p.error(f"--{name.replace('_', '-')} is not JSON: {e}")
    calls = []
    for raw in ns.also_call:
        try:
            call = json.loads(raw)
        except json.JSONDecodeError as e:
            p.error(f"--also-call is not JSON: {e}")
        ok = isinstance(call, dict) and isinstance(call.get("tool"), str) and isinstance(call.get("args"), dict)
        if not ok or isinstance(call.get("text"), str) == isinstance(call.get("error"), str):
            p.error('--also-call takes {"tool": NAME, "args": {...}, and one of "text" or "error"}')
        calls.append(call)
    ns.also_call = calls
    if ns.expect_version is None and ns.revision != "auto":
        ns.expect_version = ns.revision
    return ns


def content_json(blocks: list[Any]) -> list[Any]:
    return [b.model_dump(by_alias=True, mode="json", exclude_none=True) for b in blocks]


def dumped(items: list[Any], key: str) -> dict[str, Any]:
    """Listed items as the client read them (JSON, by alias), by their key."""
    out = {}
    for item in items:
        entry = item.model_dump(by_alias=True, mode="json", exclude_none=True)
        out[entry[key]] = entry
    return out


def describe(exc: BaseException) -> str:
    if isinstance(exc, MCPError):
        return f"JSON-RPC error {exc.error.code}: {exc.error.message}" + (
            f" data={json.dumps(exc.error.data)}" if exc.error.data is not None else ""
        )
    if isinstance(exc, BaseExceptionGroup):
        return "; ".join(describe(e) for e in exc.exceptions)
    return f"{type(exc).__name__}: {exc}"


async def negotiate(session: ClientSession, ns: argparse.Namespace) -> None:
    if ns.revision == "2025-11-25":
        await session.initialize()
    elif ns.revision == "2026-07-28":
        if ns.no_probe:
            session.adopt(types.DiscoverResult(supported_versions=["2026-07-28"], capabilities=types.ServerCapabilities(),
                                               result_type="complete", ttl_ms=0, cache_scope="public"))
        else:
            await session.discover()
    else:
        await negotiate_auto(session)


async def progress_call(
    session: ClientSession, ns: argparse.Namespace, summary: dict[str, Any], errors: list[str]
) -> None:
    """Call --progress-tool with the SDK's progress callback and check what arrives."""
    seen: list[tuple[float, float | None]] = []

    async def on_progress(progress: float, total: float | None, message: str | None) -> None:
        seen.append((progress, total))

    result = await session.call_tool(ns.progress_tool, ns.progress_args, progress_callback=on_progress)
    before = list(seen)  # callbacks for notifications that preceded the result have run by now
    values = [p for p, _ in before]
    summary["progress"] = values
    if before and before[-1][1] is not None:
        summary["progressTotal"] = before[-1][1]
    summary["progressCall"] = {"isError": bool(result.is_error), "content": content_json(result.content)}
    if result.is_error:
        errors.append(f"progress call to {ns.progress_tool} returned isError: true")
    if not values:
        errors.append(f"progress call to {ns.progress_tool}: no notifications/progress arrived before the result")
    elif any(b <= a for a, b in zip(values, values[1:])):
        errors.append(f"progress call to {ns.progress_tool}: progress did not strictly increase: {values}")


async def run(ns: argparse.Namespace, summary: dict[str, Any], errors: list[str]) -> None:
    env = dict(os.environ) if ns.inherit_env else {}
    env.update(kv.split("=", 1) for kv in ns.env)
    info = types.Implementation(name="beam-mcp-interop-py", version=pkg_version("mcp"))
    if ns.url:
        transport = streamable_http_client(ns.url)
    else:
        params = StdioServerParameters(command=ns.command[0], args=ns.command[1:], env=env or None, cwd=ns.cwd)
        transport = stdio_client(params)
    async with transport as (read, write):
        async with ClientSession(read, write, client_info=info, read_timeout_seconds=ns.timeout) as session:
            step = "connect"
            try:
                await negotiate(session, ns)
                summary["protocolVersion"] = session.protocol_version
                summary["era"] = "modern" if session.discover_result is not None else "legacy"
                si = session.server_info
                summary["serverInfo"] = si.model_dump(mode="json", exclude_none=True) if si else None
                caps = session.server_capabilities
                summary["capabilities"] = caps.model_dump(by_alias=True, mode="json", exclude_none=True) if caps else None
                if ns.expect_version:
                    check(errors, "protocolVersion", ns.expect_version, session.protocol_version)
                if caps is None:  # a missing capability fails every step below that needs it
                    errors.append("the server reported no capabilities")
                    caps = types.ServerCapabilities()
                if caps.tools is None:
                    errors.append("the server did not advertise the tools capability")

                seen: dict[str, Any] = {
                    "serverInfo": si.model_dump(by_alias=True, mode="json", exclude_none=True) if si else None}
                step = "tools/list"
                tools = (await session.list_tools()).tools
                seen["tools"] = dumped(tools, "name")
                summary["tools"] = [t.name for t in tools]
                if ns.tool not in summary["tools"]:
                    errors.append(f"tool {ns.tool!r} not listed")
                if ns.progress_tool and ns.progress_tool not in summary["tools"]:
                    errors.append(f"progress tool {ns.progress_tool!r} not listed")

                step = "tools/call (good args)"
                good = await session.call_tool(ns.tool, ns.args)
                summary["call"] = {"isError": bool(good.is_error), "content": content_json(good.content)}
                if good.structured_content is not None:
                    summary["call"]["structuredContent"] = good.structured_content
                if good.is_error:
                    errors.append("good call returned isError: true")
                if ns.expect_text is not None:
                    check(errors, f"tools/call {ns.tool} content", [{"type": "text", "text": ns.expect_text}],
                          [norm_content(b) for b in summary["call"]["content"]])
                if ns.expect_structured is not None:
                    check(errors, f"tools/call {ns.tool} structuredContent", ns.expect_structured,
                          good.structured_content)

                step = "tools/call (bad args)"
                try:
                    bad = await session.call_tool(ns.tool, ns.bad_args)
                except MCPError as e:
                    summary["badCall"] = {"jsonrpcError": {"code": e.error.code, "message": e.error.message}}
                    bad_got = summary["badCall"]
                    if ns.expect_bad_text is None:
                        errors.append(f"bad call raised {describe(e)} instead of returning isError: true")
                else:
                    summary["badCall"] = {"isError": bool(bad.is_error), "content": content_json(bad.content)}
                    bad_got = {"isError": bool(bad.is_error), "content": list(map(norm_content, content_json(bad.content)))}
                    if not bad.is_error and ns.expect_bad_text is None:
                        errors.append("bad call did not return isError: true")
                if ns.expect_bad_text is not None:
                    want = {"isError": True, "content": [{"type": "text", "text": ns.expect_bad_text}]}
                    check(errors, f"tools/call {ns.tool} (bad args)", want, bad_got)

                for call in ns.also_call:
                    label = f"tools/call {call['tool']} {compact(call['args'])}"
                    step = label
                    if call["tool"] not in summary["tools"]:
                        errors.append(f"tool {call['tool']!r} not listed")
                    got = await session.call_tool(call["tool"], call["args"])
                    is_error = "error" in call
                    want = {"isError": is_error, "content": [{"type": "text", "text": call.get("text", call.get("error"))}]}
                    check(errors, label, want,
                          {"isError": bool(got.is_error), "content": [norm_content(b) for b in content_json(got.content)]})

                if ns.progress_tool:
                    step = f"tools/call {ns.progress_tool} (progress)"
                    await progress_call(session, ns, summary, errors)

                if not ns.skip_lists:
                    if caps.resources is not None:
                        step = "resources/list"
                        resources = (await session.list_resources()).resources
                        seen["resources"] = dumped(resources, "uri")
                        summary["resources"] = [r.uri for r in resources]
                        step = "resources/templates/list"
                        templates = (await session.list_resource_templates()).resource_templates
                        seen["resourceTemplates"] = dumped(templates, "uriTemplate")
                        summary["resourceTemplates"] = [t.uri_template for t in templates]
                        summary["read"] = {}
                        for uri in summary["resources"] + ns.read:
                            step = f"resources/read {uri}"
                            contents = [pick(c.model_dump(by_alias=True, mode="json", exclude_none=True),
                                             "uri", "mimeType", "text", "blob")
                                        for c in (await session.read_resource(uri)).contents]
                            if not contents:
                                errors.append(f"{step}: empty contents")
                            summary["read"][uri] = ["text" if "text" in c else "blob" for c in contents]
                            if ns.expect_read is not None:
                                check(errors, step, ns.expect_read.get(uri), contents)
                        # An expected resource that was neither listed nor asked for is a failure too.
                        for uri in sorted(set(ns.expect_read or {}) - set(summary["read"])):
                            check(errors, f"resources/read {uri}", ns.expect_read[uri], None)
                    elif ns.read or ns.expect_read:
                        errors.append("resources to read, but the server advertises no resources")
                    if caps.prompts is not None:
                        step = "prompts/list"
                        prompts = (await session.list_prompts()).prompts
                        seen["prompts"] = dumped(prompts, "name")
                        summary["prompts"] = [pr.name for pr in prompts]
                        if ns.prompt:
                            step = f"prompts/get {ns.prompt}"
                            got_prompt = await session.get_prompt(ns.prompt, ns.prompt_args)
                            messages = [
                                {"role": m.role, **norm_content(content_json([m.content])[0])}
                                for m in got_prompt.messages
                            ]
                            summary["prompt"] = [{"role": m["role"], "type": m["type"]} for m in messages]
                            if not messages:
                                errors.append(f"{step}: no messages")
                            if ns.expect_prompt is not None:
                                check(errors, step, ns.expect_prompt, messages)
                    elif ns.prompt:
                        errors.append("a prompt to get, but the server advertises no prompts")
                    if ns.complete:
                        step = f"completion/complete {ns.complete}"
                        if caps.completions is None:
                            errors.append("a completion to ask for, but the server advertises no completions")
                        prompt_name, argument, value = ns.complete.split(":", 2)
                        done = await session.complete(
                            types.PromptReference(type="ref/prompt", name=prompt_name),
                            {"name": argument, "value": value},
                        )
                        summary["completion"] = done.completion.values
                        if not done.completion.values:
                            errors.append(f"{step}: no values")
                        if ns.expect_completion is not None:
                            check(errors, step, ns.expect_completion, done.completion.values)
                if ns.expect_metadata is not None:
                    step = "metadata"
                    check_metadata(errors, ns.expect_metadata, seen)
            except Exception as e:  # any failure is a test failure; name the step
                errors.append(f"{step}: {describe(e)}")


def norm_elicit(params: dict[str, Any]) -> dict[str, Any]:
    """What the checks compare of an elicitation request: its message and requestedSchema, less
    `format` on number fields (not in the spec's NumberSchema; the TS SDKs drop it, this one keeps it)."""
    out = pick(params, "message", "requestedSchema")
    schema = out.get("requestedSchema")
    if isinstance(schema, dict) and isinstance(schema.get("properties"), dict):
        out["requestedSchema"] = {**schema, "properties": {
            name: {k: v for k, v in field.items() if not (k == "format" and field.get("type") in ("integer", "number"))}
            if isinstance(field, dict) else field
            for name, field in schema["properties"].items()}}
    return out


# mcp.Client's `mode` per revision; `auto` is its default, so no argument is passed for it.
CLIENT_MODES = {"auto": {}, "2026-07-28": {"mode": "2026-07-28"}, "2025-11-25": {"mode": "legacy"}}


async def run_elicit(ns: argparse.Namespace, summary: dict[str, Any], errors: list[str]) -> None:
    """The elicitation flow through `mcp.Client`: an accepted call, then a declined one."""
    env = dict(os.environ) if ns.inherit_env else {}
    env.update(kv.split("=", 1) for kv in ns.env)
    server: Any = ns.url or StdioServerParameters(
        command=ns.command[0], args=ns.command[1:], env=env or None, cwd=ns.cwd
    )
    answer: dict[str, Any] = {}
    asked: list[dict[str, Any]] = []

    async def on_elicit(context: Any, params: types.ElicitRequestParams) -> types.ElicitResult:
        asked.append(norm_elicit(params.model_dump(by_alias=True, mode="json", exclude_none=True)))
        return types.ElicitResult(**answer)

    info = types.Implementation(name="beam-mcp-interop-py", version=pkg_version("mcp"))
    client = Client(server, **CLIENT_MODES[ns.revision], client_info=info, read_timeout_seconds=ns.timeout,
                    elicitation_callback=on_elicit)
    step = "connect"
    try:
        async with client:
            summary["protocolVersion"] = client.protocol_version
            summary["era"] = "modern" if client.session.discover_result is not None else "legacy"
            if ns.expect_version:
                check(errors, "protocolVersion", ns.expect_version, client.protocol_version)
            step = "tools/list"
            summary["tools"] = [t.name for t in (await client.list_tools()).tools]
            if ns.elicit_tool not in summary["tools"]:
                errors.append(f"tool {ns.elicit_tool!r} not listed")
            summary["elicitations"] = {}
            for label, action, content, expect in (
                ("accept", "accept", ns.elicit_content, ns.expect_elicit_text),
                ("decline", "decline", None, ns.expect_decline_text),
            ):
                step = f"tools/call {ns.elicit_tool} ({label})"
                answer.clear()
                answer.update(action=action, **({"content": content} if content is not None else {}))
                asked.clear()
                result = await client.call_tool(ns.elicit_tool, ns.elicit_args)
                blocks = content_json(result.content)
                summary[f"{label}Call"] = {"isError": bool(result.is_error), "content": blocks}
                summary["elicitations"][label] = list(asked)
                if result.is_error != (label == "decline" and ns.decline_is_error):
                    errors.append(f"{step} returned isError: {str(bool(result.is_error)).lower()}")
                if ns.expect_elicit_request is not None:
                    check(errors, f"tools/call {ns.elicit_tool} elicitation ({label})", ns.expect_elicit_request, asked)
                elif not asked:
                    errors.append(f"{step}: the elicitation callback was not called")
                if expect is not None:
                    check(errors, f"tools/call {ns.elicit_tool} content ({label})", [{"type": "text", "text": expect}],
                          [norm_content(b) for b in blocks])
    except Exception as e:  # any failure is a test failure; name the step
        errors.append(f"{step}: {describe(e)}")


def main(argv: list[str]) -> int:
    ns = parse_args(argv)
    summary: dict[str, Any] = {"client": f"python-mcp {pkg_version('mcp')}", "requestedRevision": ns.revision}
    errors: list[str] = []

    async def guarded() -> None:
        with anyio.fail_after(ns.timeout):
            await (run_elicit if ns.elicit_tool else run)(ns, summary, errors)

    try:
        anyio.run(guarded)
    except TimeoutError:
        errors.append(f"timed out after {ns.timeout}s")
    except Exception as e:  # transport/spawn failures, exception groups
        errors.append(describe(e))
    summary["ok"] = not errors
    summary["errors"] = errors
    print(json.dumps(summary, separators=(",", ":")))
    return 0 if not errors else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

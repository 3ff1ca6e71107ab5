"""`cargo beam-mcp dev` kept by the official Python SDK's `mcp.Client`: one session at 2025-11-25
and one client at 2026-07-28 (each starting its own front in the crate, as a host does), while
the crate's source changes three times: a tool added, a description changed, a compile error
introduced and then fixed with a tool added. Each must hear the list change (the 2025-11-25
session unsolicited, the 2026-07-28 client on its `subscriptions/listen` stream), list the
current catalog after it, hear the broken build's errors as a log message while the last build
answers, and keep its connection throughout. Prints a JSON summary and exits 1 on any mismatch.

Usage: dev_check.py CLI BEAM_MCP_DIR CARGO_LOCK TARGET_DIR
"""

import json
import shutil
import subprocess
import sys
import tempfile
from importlib.metadata import version as pkg_version
from pathlib import Path

import anyio
import mcp_types as types
from mcp import Client
from mcp.client.stdio import StdioServerParameters

cli, beam_mcp, lock, target = sys.argv[1:5]
errors: list[str] = []
summary: dict = {"client": f"python-mcp {pkg_version('mcp')}"}
LIMIT = 120


def expect(what, got, want):
    if got != want:
        errors.append(f"{what} mismatch: expected {want!r}, got {got!r}")


async def main(crate: Path) -> None:
    main_rs = crate / "src" / "main.rs"

    def edit(*changes):
        text = main_rs.read_text()
        for old, new in changes:
            assert old in text, old
            text = text.replace(old, new, 1)
        main_rs.write_text(text)

    params = StdioServerParameters(command=cli, args=["dev", "--target-dir", target], cwd=str(crate))
    legacy_changes = [0]  # how many list changes the 2025-11-25 session heard
    logs = {"legacy": [], "modern": []}

    async def legacy_messages(message):
        if getattr(message, "method", None) == "notifications/tools/list_changed":
            legacy_changes[0] += 1

    def logger(who):
        async def log(params: types.LoggingMessageNotificationParams) -> None:
            logs[who].append(str(params.data))
        return log

    info = types.Implementation(name="beam-mcp-interop-dev", version=pkg_version("mcp"))
    legacy = Client(params, mode="legacy", client_info=info, read_timeout_seconds=LIMIT,
                    message_handler=legacy_messages, logging_callback=logger("legacy"))
    modern = Client(params, mode="2026-07-28", client_info=info, read_timeout_seconds=LIMIT,
                    logging_callback=logger("modern"))
    async with legacy, modern:
        summary["versions"] = [legacy.protocol_version, modern.protocol_version]
        expect("versions", summary["versions"], ["2025-11-25", "2026-07-28"])
        async with modern.listen(tools_list_changed=True) as changes:
            events = changes.__aiter__()

            async def tools(client):
                return sorted((t.name, t.description) for t in (await client.list_tools()).tools)

            seen = [0]

            async def heard(what):
                try:
                    with anyio.fail_after(LIMIT):
                        while legacy_changes[0] == seen[0]:
                            await anyio.sleep(0.05)
                        seen[0] = legacy_changes[0]
                        await events.__anext__()
                except TimeoutError:
                    raise TimeoutError(f"no list change heard after {what}") from None

            for client in (legacy, modern):
                expect("tools at first", await tools(client), [("hello", "Says hello to someone.")])
            edit(("beam_mcp::serve!", '/// Says goodbye.\n#[beam_mcp::tool]\nfn goodbye() -> String {\n    "Goodbye!".into()\n}\n\nbeam_mcp::serve!'))
            await heard("a tool added")
            for client in (legacy, modern):
                expect("tools after a tool added", [n for n, _ in await tools(client)], ["goodbye", "hello"])
                result = await client.call_tool("goodbye", {})
                expect("goodbye", result.content[0].text, "Goodbye!")
            edit(("/// Says hello to someone.", "/// Greets someone by name."))
            await heard("a description changed")
            for client in (legacy, modern):
                expect("hello's description", dict(await tools(client))["hello"], "Greets someone by name.")
            edit(('"Goodbye!".into()', "42"))
            with anyio.fail_after(LIMIT):
                while not all(any("error[E0308]" in l for l in logs[who]) for who in logs):
                    await anyio.sleep(0.1)
            for client in (legacy, modern):
                result = await client.call_tool("goodbye", {})
                expect("goodbye while the build is broken", result.content[0].text, "Goodbye!")
            edit(("42", '"Goodbye again!".into()'),
                 ("beam_mcp::serve!", '/// Waves.\n#[beam_mcp::tool]\nfn wave() -> String {\n    "~".into()\n}\n\nbeam_mcp::serve!'))
            await heard("the error fixed")
            for client in (legacy, modern):
                expect("tools after the fix", [n for n, _ in await tools(client)], ["goodbye", "hello", "wave"])
                result = await client.call_tool("goodbye", {})
                expect("goodbye after the fix", result.content[0].text, "Goodbye again!")
        summary["logs"] = {who: len(l) for who, l in logs.items()}


def run() -> int:
    work = Path(tempfile.mkdtemp())
    try:
        subprocess.run([cli, "new", "devpy", "--beam-mcp", beam_mcp], cwd=work, check=True, capture_output=True)
        crate = work / "devpy"
        shutil.copy(lock, crate / "Cargo.lock")
        anyio.run(main, crate)
    except BaseException as e:  # noqa: BLE001 - every failure is reported in the summary
        errors.append(f"{type(e).__name__}: {e}")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    summary["errors"] = errors
    print(json.dumps(summary))
    return 1 if errors else 0


sys.exit(run())

"""`cargo beam-mcp inspect` and `call` against a server that is not beam-mcp's (the official Python
SDK's, py_server.py), over stdio or Streamable HTTP, with the exact text and exit status each must
give. Prints a JSON summary ({"errors": [...]}) and exits 1 on any mismatch.

Usage: cli_check.py CLI TARGET [--revision R]
"""

import json
import subprocess
import sys

cli, target = sys.argv[1], sys.argv[2]
revision = sys.argv[sys.argv.index("--revision") + 1] if "--revision" in sys.argv else None
errors = []


def run(*args):
    command = [cli, args[0]] + (["--revision", revision] if revision else []) + list(args[1:])
    done = subprocess.run(command, capture_output=True, text=True, timeout=120)
    return done.returncode, done.stdout, done.stderr


def expect(what, got, want):
    if got != want:
        errors.append(f"{what} mismatch: expected {want!r}, got {got!r}")


code, out, err = run("inspect", target)
expect("inspect exit", code, 0)
lines = out.splitlines()
expect("inspect revision", next((l for l in lines if l.startswith("revision: ")), None),
       f"revision: {revision or '2026-07-28'}")
for line in ["tools (5)", "  get_weather", "    Current weather at a place.", "      place: string, required",
             "      days: integer, required", "resources (1)", "  weather://stations  stations  (text/plain)",
             "resource templates (0)", "  plan_trip(place*)"]:
    if line not in lines:
        errors.append(f"inspect line mismatch: expected {line!r} in the output, got {out!r}")

code, out, err = run("inspect", "--json", target)
expect("inspect --json exit", code, 0)
export = json.loads(out)
expect("export revision", export.get("revision"), revision or "2026-07-28")
expect("export tools", [t["name"] for t in export["tools"]], ["get_weather", "forecast", "book_trip", "wait", "last_wait"])

code, out, err = run("call", target, "get_weather", '{"place":"Paris"}')
expect("call exit", code, 0)
expect("call stdout", out, 'Paris: 14.5 °C, cloudy\nstructured: {\n  "result": "Paris: 14.5 °C, cloudy"\n}\n')

code, out, err = run("call", target, "forecast", '{"place":"Oslo","days":2}')
expect("progress exit", code, 0)
expect("progress stderr", err, "progress 1/2 day 1\nprogress 2/2 day 2\n")

code, out, err = run("call", target, "get_weather", '{"place":"Atlantis"}')
expect("tool error exit", code, 1)
expect("tool error stdout", out, "Error executing tool get_weather\n")
expect("tool error stderr", err, "the tool failed (isError)\n")

code, out, err = run("call", target, "no_such_tool")
expect("unknown tool exit", code, 1)

print(json.dumps({"errors": errors}))
sys.exit(1 if errors else 0)

#!/usr/bin/env python3
"""Runs the `cargo beam-mcp` commands of one guide block as a reader would, in the crate's folder
with a temporary home, and checks what each must do: `inspect` lists `hello`, `call` answers
"Hello, Ada!", `install` leaves the server's entry in the host's file. Exits 1 on any failure.
Usage: cli_block.py CLI BINARY HOME < block"""
import json
import os
import re
import shlex
import subprocess
import sys

cli, binary, home = sys.argv[1:4]
env = {k: v for k, v in os.environ.items() if k != "XDG_CONFIG_HOME"}
env["HOME"] = home
files = {
    "claude-desktop": ".config/Claude/claude_desktop_config.json",
    "cursor": ".cursor/mcp.json",
}
project_files = {"vscode": ".vscode/mcp.json", "claude-code": ".mcp.json"}
ran = 0
for line in sys.stdin.read().splitlines():
    line = line.split("  #")[0].strip()
    if not line:
        continue
    line = line.replace("$PWD/target/release/notes", binary).replace("./target/release/notes", binary)
    words = shlex.split(line)
    if words[:2] != ["cargo", "beam-mcp"]:
        sys.exit(f"guide: not a cargo beam-mcp command: {line}")
    done = subprocess.run([cli] + words[2:], capture_output=True, text=True, env=env, timeout=120)
    if done.returncode != 0:
        sys.exit(f"guide: `{line}` failed ({done.returncode}):\n{done.stdout}{done.stderr}")
    sub = words[2]
    if sub == "inspect" and "  hello  [read-only]" not in done.stdout.splitlines():
        sys.exit(f"guide: inspect lists no hello:\n{done.stdout}")
    if sub == "call" and done.stdout != "Hello, Ada!\n":
        sys.exit(f"guide: call answered {done.stdout!r}")
    if sub == "install":
        host = words[3]
        path = os.path.join(home, files[host]) if host in files else project_files[host]
        document = json.loads(re.sub(r"//.*", "", open(path).read()))
        container = "servers" if host == "vscode" else "mcpServers"
        entry = document[container]["notes"]
        if entry["command"] != binary:
            sys.exit(f"guide: {path} starts {entry['command']!r}")
    ran += 1
print(f"guide: {ran} cargo beam-mcp commands ran as the guide writes them")

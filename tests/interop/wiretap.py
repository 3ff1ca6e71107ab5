#!/usr/bin/env python3
"""Transparent stdio tap: run a stdio MCP server and log every newline-delimited message.

usage: wiretap.py LOGFILE -- SERVER_CMD [ARGS...]

Put it in front of the real server command of any client script, e.g.
  node ts_client.mjs -- python3 wiretap.py /tmp/wire.jsonl -- path/to/server
Each line of LOGFILE is {"spawn": <pid of this tap>, "dir": "c2s"|"s2c", "t": <seconds since spawn>,
"line": <the raw line>}. Several spawns may append to one file (the TS v2 client spawns a
short-lived sibling process for its server/discover probe). The server's stderr passes through.
Standard library only; no dependency on the venv.
"""

import json
import os
import subprocess
import sys
import threading
import time


def main() -> int:
    argv = sys.argv[1:]
    if len(argv) < 3 or argv[1] != "--":
        sys.stderr.write(__doc__)
        return 2
    log_path, cmd = argv[0], argv[2:]
    start = time.monotonic()
    lock = threading.Lock()
    log = open(log_path, "a", buffering=1, encoding="utf-8")

    def record(direction: str, raw: bytes) -> None:
        entry = {"spawn": os.getpid(), "dir": direction, "t": round(time.monotonic() - start, 4),
                 "line": raw.decode("utf-8", "replace").rstrip("\r\n")}
        with lock:
            log.write(json.dumps(entry) + "\n")

    proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE)

    def upstream() -> None:
        try:
            for line in sys.stdin.buffer:
                record("c2s", line)
                proc.stdin.write(line)
                proc.stdin.flush()
        except (BrokenPipeError, OSError):
            pass
        finally:
            try:
                proc.stdin.close()
            except OSError:
                pass

    threading.Thread(target=upstream, daemon=True).start()
    try:
        for line in proc.stdout:
            record("s2c", line)
            sys.stdout.buffer.write(line)
            sys.stdout.buffer.flush()
    except (BrokenPipeError, OSError):
        proc.kill()
    return proc.wait()


if __name__ == "__main__":
    sys.exit(main())

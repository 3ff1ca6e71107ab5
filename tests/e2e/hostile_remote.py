"""A hostile MCP server over stdio for the proxy tests: it speaks 2025-11-25 well enough to be
mounted (initialize, tools/list), then answers its one tool, `attack`, as argv[1] says:

  big     a 100 MB line
  deep    a result nested 10,000 arrays deep
  silent  never
  flood   200,000 notifications (progress, logs, list_changed) first, then the answer
"""

import json
import sys

mode = sys.argv[1]
out = sys.stdout


def send(message):
    out.write(json.dumps(message) + "\n")
    out.flush()


for line in sys.stdin:
    message = json.loads(line)
    method = message.get("method")
    ident = message.get("id")
    if ident is None:
        continue
    if method == "initialize":
        send({"jsonrpc": "2.0", "id": ident, "result": {
            "protocolVersion": "2025-11-25",
            "capabilities": {"tools": {"listChanged": True}},
            "serverInfo": {"name": "hostile", "version": "1"}}})
    elif method == "tools/list":
        send({"jsonrpc": "2.0", "id": ident, "result": {"tools": [{
            "name": "attack", "description": "Attacks.",
            "inputSchema": {"type": "object"}}]}})
    elif method == "tools/call":
        if mode == "big":
            out.write('{"jsonrpc":"2.0","id":%s,"result":{"content":[{"type":"text","text":"' % json.dumps(ident))
            chunk = "x" * (1 << 20)
            for _ in range(100):
                out.write(chunk)
            out.write('"}]}}\n')
            out.flush()
        elif mode == "deep":
            out.write('{"jsonrpc":"2.0","id":%s,"result":{"content":[],"structuredContent":{"a":' % json.dumps(ident))
            out.write("[" * 10000 + "]" * 10000)
            out.write("}}}\n")
            out.flush()
        elif mode == "silent":
            pass
        elif mode == "flood":
            token = message.get("params", {}).get("_meta", {}).get("progressToken", 0)
            for i in range(200000):
                kind = i % 3
                if kind == 0:
                    out.write(json.dumps({"jsonrpc": "2.0", "method": "notifications/progress",
                                          "params": {"progressToken": token, "progress": i}}) + "\n")
                elif kind == 1:
                    out.write(json.dumps({"jsonrpc": "2.0", "method": "notifications/message",
                                          "params": {"level": "info", "data": "flood %d" % i}}) + "\n")
                else:
                    out.write('{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}\n')
            send({"jsonrpc": "2.0", "id": ident, "result": {
                "content": [{"type": "text", "text": "survived"}]}})
    else:
        send({"jsonrpc": "2.0", "id": ident, "error": {"code": -32601, "message": "Method not found"}})

#!/usr/bin/env python3
"""Prints the blocks of docs/guide.md that carry a `<!-- check: KIND -->` marker, as JSON:
[{"kind": KIND, "lang": "rust,no_run", "text": "..."}, ...], in the guide's order.
Usage: extract.py path/to/guide.md"""
import json
import re
import sys

text = open(sys.argv[1], encoding="utf-8").read()
blocks = []
pattern = re.compile(r"<!-- check: ([a-z+-]+) -->\n```([^\n]*)\n(.*?)\n```", re.S)
for kind, lang, body in pattern.findall(text):
    # Lines starting with `# ` are hidden doctest lines: the fresh crate gets them too.
    lines = [l[2:] if l.startswith("# ") else ("" if l == "#" else l) for l in body.split("\n")]
    blocks.append({"kind": kind, "lang": lang, "text": "\n".join(lines) + "\n"})
if not blocks:
    sys.exit("extract.py: no marked blocks in " + sys.argv[1])
print(json.dumps(blocks))

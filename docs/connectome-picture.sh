#!/usr/bin/env bash
# Renders the weather example's declared connectome (what its build.rs writes to OUT_DIR) with
# graphviz: docs/weather-connectome.svg, or the file named by $1 (the format is its extension).
#
#   docs/connectome-picture.sh [OUT.svg|OUT.png]
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
out=${1:-docs/weather-connectome.svg}
command -v dot >/dev/null || { echo "graphviz's dot is not installed (apt-get install graphviz)" >&2; exit 1; }
out_dir=$(cargo build -q -p weather --message-format=json | python3 -c '
import json, sys
for line in sys.stdin:
    m = json.loads(line)
    if m.get("reason") == "build-script-executed" and "/examples/weather#" in m["package_id"]:
        print(m["out_dir"])')
cargo run -q -p beam-mcp-connectome --bin connectome -- verify "$out_dir/connectome.json" >&2
cargo run -q -p beam-mcp-connectome --bin connectome -- dot "$out_dir/connectome.json" \
  | dot -Grankdir=LR -T"${out##*.}" -o "$out"
echo "$out"

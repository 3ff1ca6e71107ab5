#!/usr/bin/env bash
# beam-mcp-truth on a corpus of real crates nobody here wrote (not run in CI).
#
# Three crates from crates.io, of three styles, fetched through cargo at pinned versions and
# copied, unchanged, as path members of a scratch workspace (so `cargo rustc` can build each
# alone with its dependencies from the shared cache):
#
#   semver 1.0.28              a parser (lib, ~2.1k lines)
#   walkdir 2.5.0              a file-system helper (lib, ~3.2k lines; std::fs sinks)
#   rust-mcp-sdk 2.0.0         an async service runtime (lib: an MCP server and client over
#                              stdio; async fns, #[async_trait], dyn handlers and transports),
#                              features `server,client,stdio` (~16k lines, the scan reads the
#                              part those features keep)
#
# For each: `measure` (the IR build, the scan, the comparison: reports/NAME.txt and NAME.json)
# and `scan` alone under /usr/bin/time -v (wall time and peak memory of the scan by itself),
# then one table. The acceptance target for the scan: under 2 s per 10,000 lines.
#
#   tools/truth/corpus.sh                      # into target/truth-corpus
#   TRUTH_CORPUS_DIR=/tmp/corpus tools/truth/corpus.sh
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-/work/target-ci}"
dir="${TRUTH_CORPUS_DIR:-$repo/target/truth-corpus}"
cargo_home="${CARGO_HOME:-$HOME/.cargo}"
# name|version|package|measure options
corpus=(
  "semver|1.0.28|semver|"
  "walkdir|2.5.0|walkdir|"
  "rust_mcp_sdk|2.0.0|rust-mcp-sdk|--no-default-features --features server,client,stdio"
)

mkdir -p "$dir/fetch/src" "$dir/ws" "$dir/reports"

# 1. Fetch: a throw-away package depending on the three; `cargo fetch` puts their sources
# under the registry's src/ directory.
{
  echo '[package]'
  echo 'name = "truth-corpus-fetch"'
  echo 'version = "0.0.0"'
  echo 'edition = "2021"'
  echo 'publish = false'
  echo '[dependencies]'
  for entry in "${corpus[@]}"; do
    IFS='|' read -r _ version package _ <<<"$entry"
    echo "$package = { version = \"=$version\", default-features = false }"
  done
  echo '[workspace]'
} >"$dir/fetch/Cargo.toml"
: >"$dir/fetch/src/lib.rs"
cargo fetch --quiet --manifest-path "$dir/fetch/Cargo.toml"

# 2. Copy each as a member of a scratch workspace.
members=()
for entry in "${corpus[@]}"; do
  IFS='|' read -r _ version package _ <<<"$entry"
  src="$(ls -d "$cargo_home"/registry/src/*/"$package-$version" | head -n 1)"
  [ -d "$src" ] || { echo "corpus: $package $version was not fetched" >&2; exit 1; }
  rm -rf "${dir:?}/ws/$package"
  cp -R "$src" "$dir/ws/$package"
  members+=("\"$package\"")
done
{
  echo '[workspace]'
  echo 'resolver = "2"'
  echo "members = [$(IFS=,; echo "${members[*]}")]"
} >"$dir/ws/Cargo.toml"

# 3. The tool.
cargo build --quiet --manifest-path "$repo/Cargo.toml" -p beam-mcp-truth
truth="$CARGO_TARGET_DIR/debug/beam-mcp-truth"

# 4. Measure, and time the scan alone.
for entry in "${corpus[@]}"; do
  IFS='|' read -r name _ package options <<<"$entry"
  read -ra extra <<<"$options"
  args=(--manifest-dir "$dir/ws/$package" --crate "$name" "${extra[@]}")
  echo "== $package" >&2
  nice -n 10 "$truth" measure "${args[@]}" >"$dir/reports/$name.txt"
  "$truth" measure "${args[@]}" --json >"$dir/reports/$name.json"
  if [ -x /usr/bin/time ]; then
    /usr/bin/time -v "$truth" scan "${args[@]}" --json >"$dir/reports/$name.scan.json" \
      2>"$dir/reports/$name.time"
  else
    "$truth" scan "${args[@]}" --json >"$dir/reports/$name.scan.json"
    : >"$dir/reports/$name.time"
  fi
done

# 5. The table.
python3 - "$dir/reports" "${corpus[@]}" <<'PY'
import json, re, sys
reports, entries = sys.argv[1], sys.argv[2:]
def pct(x):
    return "-" if x is None else f"{100 * x:.1f}%"
rows = []
for entry in entries:
    name = entry.split("|")[0]
    m = json.load(open(f"{reports}/{name}.json"))
    scan = json.load(open(f"{reports}/{name}.scan.json"))
    time_text = open(f"{reports}/{name}.time").read()
    rss = re.search(r"Maximum resident set size \(kbytes\): (\d+)", time_text)
    wall = re.search(r"Elapsed \(wall clock\) time.*: (\S+)", time_text)
    d = m["declared"]
    rows.append([
        name, scan["lines"], f'{scan["wall_ms"]:.1f}',
        f'{scan["seconds_per_10k_lines"]:.3f}' if scan["seconds_per_10k_lines"] is not None else "-",
        f'{int(rss.group(1)) / 1024:.1f}' if rss else "-", wall.group(1) if wall else "-",
        m["ir"]["edges"], f'{m["found"]} {pct(m["recall"])}',
        f'{m["confirmed"]}/{d["edges_considered"]} {pct(m["precision"])}',
        f'{d["dispatch_confirmed"]}/{d["dispatch_edges"]}', d["edges_no_code"],
        f'{m["sinks_found"]}/{m["ir"]["sinks"]} {pct(m["sink_recall"])}',
    ])
head = ["crate", "lines", "scan ms", "s/10k lines", "scan peak MiB", "process wall",
        "IR edges", "recall", "precision", "dispatch ok", "no-code edges", "sink recall"]
widths = [max(len(str(r[i])) for r in rows + [head]) for i in range(len(head))]
for row in [head] + rows:
    print("  ".join(str(c).ljust(w) for c, w in zip(row, widths)))
print()
for entry in entries:
    name = entry.split("|")[0]
    m = json.load(open(f"{reports}/{name}.json"))
    print(f"{name}: top missed shapes")
    for s in m["missed_shapes"][:8]:
        print(f'  {s["count"]:5}  {s["shape"]}')
print(f"\nfull reports: {reports}/NAME.txt")
PY

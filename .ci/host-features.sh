#!/usr/bin/env bash
# The beam-mcp that the tests run is the one a host compiles: for each feature set the gate
# tests beam-mcp with, every crate in beam-mcp's own dependency tree has exactly the features a
# host's build gives it. A dev-dependency that turns on more (jsonschema once turned on
# serde_json's float_roundtrip and regex's Perl classes) fails here.
#
# `cargo test --workspace` is not such a build: it unifies beam-mcp's dependencies' features with
# every member's (connectome's proptest turns on regex-syntax's Perl classes, for one). The
# gate's feature step is, and this script holds it to that.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

# "crate version|features" for every crate of a tree ($1: its edges), sorted and unique. With
# dev edges, cargo resolves features as a test build does: what a dev-dependency turns on in a
# host's crates shows there.
tree() {
  local edges=$1; shift
  cargo tree --locked "$@" -e "$edges" --prefix none --format '{p}|{f}' \
    | sed 's/ (\*)$//; s/ (proc-macro)//' | sort -u
}
status=0
# The crates of the host's tree ($2) that the tested build ($3) gives other features.
compare() {
  local label=$1 host=$2 tested=$3 diff
  diff="$(diff "$host" <(awk -F'|' 'NR == FNR {keep[$1]; next} $1 in keep' "$host" "$tested") || true)"
  if [ -n "$diff" ]; then
    echo "host-features: $label: the tested beam-mcp's dependencies differ from a host's (< host, > tested):" >&2
    echo "$diff" | grep '^[<>]' | sed 's/^/    /' >&2
    status=1
  else
    echo "host-features: $label: the tested build is a host's ($(wc -l <"$host") crates, same features)"
  fi
}
work="$(mktemp -d)"; trap 'rm -rf "$work"' EXIT
configs=("" "--no-default-features" "--no-default-features --features stdio" \
  "--no-default-features --features http" "--no-default-features --features oauth" \
  "--no-default-features --features otel" "--no-default-features --features redis" \
  "--no-default-features --features client" "--no-default-features --features client-http" \
  "--no-default-features --features client-https" "--all-features")
for config in "${configs[@]}"; do
  read -ra flags <<<"$config"
  tree normal,build -p beam-mcp "${flags[@]}" >"$work/host"
  tree normal,build,dev -p beam-mcp "${flags[@]}" >"$work/tested"
  compare "cargo test -p beam-mcp ${config:-(default features)}" "$work/host" "$work/tested"
done
exit $status

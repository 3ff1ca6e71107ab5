#!/usr/bin/env python3
"""Every number the README states against the file that holds it.

Each claim is a pattern in the README whose numbers are read, and the source that pins them:
the conformance pins, the trybuild cases, the interop counts that tests/interop/run.sh holds
itself to, the instruction counts the guard holds, the lab's table, the fuzz targets and the
soak's counts in .ci/run. A claim whose pattern no longer matches fails too: reword the README
and this file together.

    .ci/readme_numbers.py              # check README.md
    .ci/readme_numbers.py --self-test  # for each claim, a README with that claim's first number
                                       # changed must fail, and only on that claim
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Callable

ROOT = Path(__file__).resolve().parent.parent


def conformance(revision: str) -> dict:
    return json.loads((ROOT / "conformance" / revision / "expected.json").read_text())


def conformance_scores(revision: str) -> list[str]:
    pin = conformance(revision)
    checks = {"SUCCESS": 0, "FAILURE": 0, "SKIPPED": 0}
    for scenario in pin["scenarios"].values():
        if scenario["scored"]:
            for kind in checks:
                checks[kind] += scenario["checks"].get(kind, 0)
    return [
        str(pin["scored"]["passed"]),
        str(pin["scored"]["total"]),
        str(checks["SUCCESS"]),
        str(checks["FAILURE"]),
        str(checks["SKIPPED"]),
    ]


def not_scored(revision: str) -> list[str]:
    pin = conformance(revision)
    return [str(pin["notScored"]["passed"]), str(pin["notScored"]["total"])]


def trybuild_cases() -> list[str]:
    cases = ROOT / "trybuild" / "cases"
    return [str(len(list((cases / kind).glob("*.rs")))) for kind in ("fail", "pass")]


def interop_counts() -> list[str]:
    pinned = dict(
        line.split()
        for line in (ROOT / "tests" / "interop" / "counts").read_text().splitlines()
        if line.strip() and not line.startswith("#")
    )
    return [pinned["runs"], pinned["controls"]]


def expected_instructions() -> dict[str, int]:
    counts = {}
    for line in (ROOT / "bench" / "callcount.expected").read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            kind, count = line.split()
            counts[kind] = int(count)
    return counts


def grouped(n: int) -> str:
    return f"{n:,}"


def guarded_instructions() -> list[str]:
    counts = expected_instructions()
    return [
        grouped(counts[kind]) for kind in ("modern", "legacy", "tagged", "tree", "observer")
    ]


def observer_cost() -> list[str]:
    counts = expected_instructions()
    return [str(round((counts["observer"] - counts["modern"]) / 50) * 50)]


def lab_cell(metric: str, column: int) -> str:
    """The ratio in brackets of a cell of bench/README.md's table (column 2: beam-mcp × rmcp,
    3: the ceiling)."""
    for line in (ROOT / "bench" / "README.md").read_text().splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if cells and cells[0] == metric:
            found = re.search(r"\((?:beam )?([\d.]+)×\)", cells[column])
            if found:
                return found.group(1)
    raise LookupError(f"bench/README.md has no row {metric!r} with a ratio in column {column}")


def fuzz_targets() -> list[str]:
    words = "zero one two three four five six seven eight nine ten eleven twelve".split()
    count = (ROOT / "fuzz" / "Cargo.toml").read_text().count("[[bin]]")
    return [words[count] if count < len(words) else str(count)]


def soak_counts() -> list[str]:
    run = (ROOT / ".ci" / "run").read_text()
    stdio = re.search(r"--calls (\d+)", run)
    http = re.search(r"--http-calls (\d+)", run)
    if not stdio or not http:
        raise LookupError(".ci/run has no soak with --calls and --http-calls")
    return [grouped(int(stdio.group(1))), grouped(int(http.group(1)))]


# (what, README pattern with one group per number, the numbers that hold).
CLAIMS: list[tuple[str, str, Callable[[], list[str]]]] = [
    (
        "conformance 2026-07-28 scores (conformance/2026-07-28/expected.json)",
        r"reports it: \*\*scenarios (\d+)/(\d+), checks (\d+)/(\d+)/(\d+)\*\*",
        lambda: conformance_scores("2026-07-28"),
    ),
    (
        "conformance 2026-07-28 not scored",
        r"with an empty baseline; not scored (\d+)/(\d+): `http-header-validation`",
        lambda: not_scored("2026-07-28"),
    ),
    (
        "conformance 2025-11-25 scores (conformance/2025-11-25/expected.json)",
        r"harness over HTTP sessions\): \*\*scenarios (\d+)/(\d+), checks (\d+)/(\d+)/(\d+)\*\*",
        lambda: conformance_scores("2025-11-25"),
    ),
    (
        "conformance 2025-11-25 not scored",
        r"baseline; not scored (\d+)/(\d+) \(`server-session-lifecycle`",
        lambda: not_scored("2025-11-25"),
    ),
    (
        "trybuild cases (trybuild/cases/fail, pass)",
        r"holds (\d+) compile-fail cases and (\d+) compile-pass cases",
        trybuild_cases,
    ),
    (
        "trybuild cases in the feature table",
        r"trybuild suite \((\d+) fail, (\d+) pass\)",
        trybuild_cases,
    ),
    (
        "interop runs and negative controls (tests/interop/counts, held by run.sh)",
        r"(\d+) runs and (\d+) negative controls",
        interop_counts,
    ),
    (
        "instructions per tools/call the guard holds (bench/callcount.expected)",
        r"at ([\d,]+) instructions per `tools/call` at 2026-07-28, ([\d,]+) at 2025-11-25, "
        r"([\d,]+) with a tagged-enum argument, ([\d,]+) with a recursive tree 4 deep, and "
        r"([\d,]+) with an observer recording",
        guarded_instructions,
    ),
    (
        "the observer's cost (bench/callcount.expected: observer - modern, to the nearest 50)",
        r"about (\d+) instructions per call when recording",
        observer_cost,
    ),
    (
        "stdio instructions against the bare loop (bench/README.md)",
        r"([\d.]+)× the bare loop's instructions \(([\d.]+)× at 2025-11-25\)",
        lambda: [
            lab_cell("instructions per `tools/call`, stdio 2026-07-28", 3),
            lab_cell("instructions per `tools/call`, stdio 2025-11-25", 3),
        ],
    ),
    (
        "HTTP instructions against bare axum (bench/README.md)",
        r"HTTP at ([\d.]+)× bare axum's instructions per call",
        lambda: [lab_cell("instructions per `tools/call`, HTTP", 3)],
    ),
    (
        "HTTP requests per second against rmcp (bench/README.md)",
        r"([\d.]+)× rmcp's requests per second at 16 connections",
        lambda: [lab_cell("HTTP req/s, c16", 2)],
    ),
    (
        "HTTP CPU per call against bare axum (bench/README.md)",
        r"CPU per call \(measured ([\d.]+)×\)",
        lambda: [lab_cell("HTTP server CPU per call, c16 (µs)", 3)],
    ),
    (
        "fuzz targets (fuzz/Cargo.toml)",
        r"Fuzzing every parser a caller reaches: (\w+) cargo-fuzz targets",
        fuzz_targets,
    ),
    (
        "soak counts (.ci/run)",
        r"the gate runs ([\d,]+) over stdio, ([\d,]+) over HTTP",
        soak_counts,
    ),
]


def faults(readme: str) -> list[tuple[int, str]]:
    """(claim index, fault) for every claim that does not hold."""
    found = []
    for index, (what, pattern, truth) in enumerate(CLAIMS):
        matches = list(re.finditer(pattern, readme))
        if not matches:
            found.append((index, f"{what}: the README no longer says /{pattern}/"))
            continue
        try:
            want = truth()
        except (OSError, LookupError, ValueError) as e:
            found.append((index, f"{what}: its source cannot be read: {e}"))
            continue
        for match in matches:
            said = list(match.groups())
            if said != want:
                line = readme.count("\n", 0, match.start()) + 1
                found.append((index, f"{what}: README.md:{line} says {said}, the source holds {want}"))
    return found


def bumped(number: str) -> str:
    """A number said another way: one more (a ratio: one more in its last place; a word: another
    word)."""
    if number[0].isdigit():
        if "." in number:
            places = len(number.split(".")[1])
            return f"{float(number) + 10 ** -places:.{places}f}"
        return str(int(number.replace(",", "")) + 1)
    return "seven" if number != "seven" else "eight"


def self_test(readme: str) -> int:
    """Each claim, its first number bumped, must fail on that claim alone."""
    failures = 0
    for index, (what, pattern, _) in enumerate(CLAIMS):
        match = re.search(pattern, readme)
        if not match:
            print(f"self-test: {what}: no match to change")
            failures += 1
            continue
        start, end = match.span(1)
        number = match.group(1)
        changed = bumped(number)
        mutant = readme[:start] + changed + readme[end:]
        hit = [i for i, _ in faults(mutant)]
        if hit == [index]:
            print(f"self-test held: {what}: {number} -> {changed} fails the check")
        else:
            print(f"self-test FAILED: {what}: {number} -> {changed} gave faults on claims {hit}")
            failures += 1
    return failures


def main() -> int:
    readme = (ROOT / "README.md").read_text()
    if "--self-test" in sys.argv[1:]:
        if faults(readme):
            print("self-test: the README itself does not pass; run without --self-test")
            return 1
        failures = self_test(readme)
        print(f"readme self-test: {len(CLAIMS) - failures} passed, {failures} failed")
        return 1 if failures else 0
    found = faults(readme)
    for _, fault in found:
        print(f"readme: {fault}")
    print(f"readme: {len(CLAIMS) - len({i for i, _ in found})} of {len(CLAIMS)} claims hold")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Judges the official suite's run through the balancer (tests/balancer/run.sh): every scenario
comes out exactly as on one replica (conformance/<rev>/expected.json), except the checks that
need state across replicas (cross-replica.txt), which may pass or fail. Prints what differed
and how the cross-replica checks came out; exits 1 on any other difference, on a scenario that
did not run, or on a cross-replica line that names nothing."""

import glob
import json
import os
import re
import sys
from collections import Counter


def main() -> int:
    out, expected_path, listed_path = sys.argv[1:4]
    expected = json.load(open(expected_path))["scenarios"]
    whole, checks = set(), {}
    for line in open(listed_path):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        scenario, _, check = line.partition(":")
        if scenario not in expected:
            print(f"judge: {listed_path} names no scenario of the suite: {scenario}")
            return 1
        if check:
            checks.setdefault(scenario, set()).add(check)
        else:
            whole.add(scenario)
    failures, crossed, lucky = [], [], []
    for scenario, pinned in sorted(expected.items()):
        found = [d for d in glob.glob(os.path.join(out, "server-*"))
                 if re.fullmatch(rf"server-{re.escape(scenario)}-\d{{4}}-.*", os.path.basename(d))]
        if len(found) != 1:
            failures.append(f"{scenario}: ran {len(found)} times")
            continue
        results = json.load(open(os.path.join(found[0], "checks.json")))
        if scenario in whole:
            counts = Counter(c["status"] for c in results)
            (lucky if counts == Counter(pinned["checks"]) else crossed).append(
                f"{scenario} {dict(counts)}")
            continue
        mine = checks.get(scenario, set())
        ids = {c["id"] for c in results}
        for check in mine - ids:
            failures.append(f"{scenario}: cross-replica.txt names no check {check}")
        rest = Counter(c["status"] for c in results if c["id"] not in mine)
        # On one replica the listed checks pass: what is left must be the pinned counts less them.
        want = Counter(pinned["checks"])
        want["SUCCESS"] -= len(mine & ids)
        want = +want
        if rest != want:
            failures.append(f"{scenario}: {dict(rest)} outside the cross-replica checks, "
                            f"{dict(want)} on one replica")
        for c in results:
            if c["id"] in mine:
                (lucky if c["status"] == "SUCCESS" else crossed).append(
                    f"{scenario}:{c['id']} {c['status']}")
    print(f"judge: {len(expected) - len(whole)} scenarios as on one replica"
          f"{'' if not failures else ' except ' + str(len(failures))}; "
          f"cross-replica: {len(crossed)} failed, {len(lucky)} passed (their requests met one replica)")
    for line in crossed:
        print(f"  cross-replica, failed: {line}")
    for line in lucky:
        print(f"  cross-replica, passed: {line}")
    for line in failures:
        print(f"  DIFFERS: {line}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

// Summarizes one conformance run: reads every checks.json under OUTDIR and scores it with the
// suite's own split of scored / not-scored scenarios for REVISION.
// Usage: node summarize.mjs OUTDIR [REVISION] [SUITE_LOG]
// Prints the totals and writes them to OUTDIR/summary.json. With SUITE_LOG, also checks that
// our SUCCESS/FAILURE totals equal the suite's own "Total:" line (exit 3 if not).
import { readFileSync, readdirSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parse } from "yaml"; // the suite's own YAML dependency, pinned by package-lock.json

const [outDir, revision = "2026-07-28", suiteLog] = process.argv.slice(2);
if (!outDir) {
  console.error("usage: node summarize.mjs OUTDIR [REVISION] [SUITE_LOG]");
  process.exit(2);
}
const die = (msg) => { console.error(`summarize: ${msg}`); process.exit(2); };

// The scored list comes from the requirement YAML the suite itself loads
// (`requirements/<rev>.yaml` next to its dist/), not from the human-oriented `list` output.
const here = dirname(fileURLToPath(import.meta.url));
const reqFile = join(here, "node_modules/@modelcontextprotocol/conformance/requirements", `${revision}.yaml`);
const req = parse(readFileSync(reqFile, "utf8"));
const scored = req.server ?? [];
const notScored = (req.not_scored ?? []).filter((e) => e.leg === "server").map((e) => e.scenario);
if (scored.length === 0) die(`no scored server scenarios in ${reqFile}`);

// Layout: OUTDIR/server-<scenario>-<ISO timestamp with : and . as ->/checks.json
const dirRe = /^server-(.+)-\d{4}-\d{2}-\d{2}T[\d-]+Z$/;
const found = new Map(); // scenario -> checks[]
for (const rel of readdirSync(outDir, { recursive: true })) {
  if (basename(rel) !== "checks.json") continue;
  const m = dirRe.exec(basename(dirname(join(outDir, rel))));
  if (!m) { console.error(`summarize: ignoring ${rel} (unexpected directory name)`); continue; }
  if (found.has(m[1])) die(`${m[1]} appears twice under ${outDir}; use a fresh, empty out dir`);
  found.set(m[1], JSON.parse(readFileSync(join(outDir, rel), "utf8")));
}
if (found.size === 0) die(`no checks.json under ${outDir}: the suite did not run any scenario`);
for (const s of found.keys()) {
  if (!scored.includes(s) && !notScored.includes(s)) console.error(`summarize: ignoring ${s} (not in the ${revision} set)`);
}

// A scenario passes iff none of its checks is FAILURE (the suite's rule). A scenario without
// checks.json means the suite threw; it reports that as one FAILURE named after the scenario.
function judge(name) {
  const checks = found.get(name) ?? [{ id: name, status: "FAILURE", errorMessage: "no checks.json" }];
  const counts = { SUCCESS: 0, FAILURE: 0, WARNING: 0, SKIPPED: 0, INFO: 0 };
  for (const c of checks) counts[c.status] = (counts[c.status] ?? 0) + 1;
  const ids = (status) => [...new Set(checks.filter((c) => c.status === status).map((c) => c.id))];
  return { scenario: name, passed: counts.FAILURE === 0, missing: !found.has(name), counts,
           failures: ids("FAILURE"), warnings: ids("WARNING") };
}
const sum = (rows, k) => rows.reduce((n, r) => n + r.counts[k], 0);
const s = scored.map(judge);
const n = notScored.map(judge);
const summary = {
  revision,
  scored: { passed: s.filter((r) => r.passed).length, total: s.length,
            success: sum(s, "SUCCESS"), failure: sum(s, "FAILURE"), skipped: sum(s, "SKIPPED"),
            warning: sum(s, "WARNING"), info: sum(s, "INFO") },
  notScored: { passed: n.filter((r) => r.passed).length, total: n.length },
  // What the suite prints as "Total: X passed, Y failed" (scored + not scored).
  suiteTotal: { passed: sum(s, "SUCCESS") + sum(n, "SUCCESS"), failed: sum(s, "FAILURE") + sum(n, "FAILURE") },
  failed: s.filter((r) => !r.passed).map((r) => ({ scenario: r.scenario, checks: r.failures })),
  scenarios: { scored: s, notScored: n },
};
writeFileSync(join(outDir, "summary.json"), JSON.stringify(summary, null, 2) + "\n");

const t = summary.scored;
console.log(`scenarios ${t.passed}/${t.total}, checks ${t.success}/${t.failure}/${t.skipped}`);
console.log(`warnings ${t.warning}, info ${t.info}`);
console.log(`not scored: ${summary.notScored.passed}/${summary.notScored.total} passed`);
for (const f of summary.failed) console.log(`  FAILED ${f.scenario}: ${f.checks.join(", ")}`);

// Self-check against the suite's own totals, so a drift in layout or scoring shows up here.
if (suiteLog) {
  const m = /^Total: (\d+) passed, (\d+) failed/m.exec(readFileSync(suiteLog, "utf8"));
  if (!m) {
    console.error(`summarize: no "Total:" line in ${suiteLog}; cannot cross-check`);
  } else if (+m[1] !== summary.suiteTotal.passed || +m[2] !== summary.suiteTotal.failed) {
    console.error(`summarize: MISMATCH: suite says ${m[1]} passed, ${m[2]} failed; ` +
                  `checks.json gives ${summary.suiteTotal.passed} passed, ${summary.suiteTotal.failed} failed`);
    process.exit(3);
  }
}

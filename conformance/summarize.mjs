// Summarizes one conformance run: reads every checks.json under OUTDIR and scores it with the
// suite's own split of scored / not-scored scenarios for REVISION, then holds the run to what
// the repository claims.
// Usage: node summarize.mjs OUTDIR [REVISION] [SUITE_LOG] [--expected FILE] [--update]
//                           [--not-scored FILE] [--baseline FILE]
// Prints the totals and writes them to OUTDIR/summary.json. Exit status:
//   2  usage or layout error
//   3  our SUCCESS/FAILURE totals differ from the suite's own "Total:" line in SUITE_LOG
//   4  --baseline holds an entry that is not `scenario:check-id` with a `# reason`
//   5  the run differs from --expected (per scenario: passed, and the count of each check status;
//      a rise fails as well as a drop, until the file is rewritten with --update in the same
//      commit) or from --not-scored (the pass/fail column of this revision's rows)
import { existsSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parse } from "yaml"; // the suite's own YAML dependency, pinned by package-lock.json

const positional = [];
const opts = {};
for (const args = process.argv.slice(2); args.length > 0;) {
  const a = args.shift();
  if (a === "--update") opts.update = true;
  else if (["--expected", "--not-scored", "--baseline"].includes(a)) {
    if (args.length === 0) { console.error(`summarize: ${a} needs a file`); process.exit(2); }
    opts[a.slice(2)] = args.shift();
  } else if (a.startsWith("--")) { console.error(`summarize: unknown option ${a}`); process.exit(2); }
  else positional.push(a);
}
const [outDir, revision = "2026-07-28", suiteLog] = positional;
if (!outDir) {
  console.error("usage: node summarize.mjs OUTDIR [REVISION] [SUITE_LOG] [--expected FILE] [--update] [--not-scored FILE] [--baseline FILE]");
  process.exit(2);
}
const die = (msg, code = 2) => { console.error(`summarize: ${msg}`); process.exit(code); };

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

// The baseline's form: one check per entry, each with its reason (the suite itself would accept
// a whole scenario, which hides every new failure inside it).
if (opts.baseline) {
  const bad = [];
  for (const [i, line] of readFileSync(opts.baseline, "utf8").split("\n").entries()) {
    const m = /^\s*-\s*(\S+)(.*)$/.exec(line);
    if (!m) continue;
    const [scenario, check] = m[1].split(":");
    if (!check) bad.push(`line ${i + 1}: "${m[1]}" names a whole scenario; name one check (scenario:check-id)`);
    else if (!scored.includes(scenario)) bad.push(`line ${i + 1}: ${scenario} is not a scored ${revision} scenario`);
    if (!/#\s*reason:\s*\S/.test(m[2])) bad.push(`line ${i + 1}: "${m[1]}" has no "# reason: ..." comment`);
  }
  if (bad.length > 0) die(`${opts.baseline}:\n  ${bad.join("\n  ")}`, 4);
}

// The pinned expectation: per scenario, whether it passed and how many checks of each status.
const drift = [];
if (opts.expected) {
  const pin = (rows, isScored) => Object.fromEntries(rows.map((r) => [r.scenario, {
    scored: isScored, passed: r.passed,
    checks: Object.fromEntries(Object.entries(r.counts).filter(([, v]) => v > 0)) }]));
  const actual = { revision, scored: { passed: t.passed, total: t.total },
                   notScored: { passed: summary.notScored.passed, total: summary.notScored.total },
                   scenarios: { ...pin(s, true), ...pin(n, false) } };
  if (opts.update) {
    writeFileSync(opts.expected, JSON.stringify(actual, null, 2) + "\n");
    console.log(`summarize: wrote ${opts.expected}`);
  } else if (!existsSync(opts.expected)) {
    drift.push(`${opts.expected} does not exist; create it with --update`);
  } else {
    const want = JSON.parse(readFileSync(opts.expected, "utf8"));
    if (want.revision !== revision) drift.push(`${opts.expected} is for ${want.revision}, not ${revision}`);
    const names = new Set([...Object.keys(want.scenarios ?? {}), ...Object.keys(actual.scenarios)]);
    for (const name of [...names].sort()) {
      const w = JSON.stringify(want.scenarios?.[name] ?? null);
      const a = JSON.stringify(actual.scenarios[name] ?? null);
      if (w !== a) drift.push(`${name}: expected ${w}, got ${a}`);
    }
  }
}

// not-scored.md: a table `| revision | scenario | pass or fail | reason |`; this revision's
// rows must name every not-scored scenario with the result of this run.
if (opts["not-scored"]) {
  const rows = new Map();
  for (const line of readFileSync(opts["not-scored"], "utf8").split("\n")) {
    const cells = line.split("|").map((c) => c.trim());
    if (cells.length < 6 || cells[1] !== revision) continue;
    const scenario = cells[2].replace(/`/g, "");
    if (rows.has(scenario)) drift.push(`${opts["not-scored"]}: ${scenario} is listed twice for ${revision}`);
    if (!["pass", "fail"].includes(cells[3])) drift.push(`${opts["not-scored"]}: ${scenario}: result "${cells[3]}" is neither pass nor fail`);
    if (cells[4] === "") drift.push(`${opts["not-scored"]}: ${scenario} has no reason`);
    rows.set(scenario, cells[3]);
  }
  for (const r of n) {
    const got = r.passed ? "pass" : "fail";
    if (!rows.has(r.scenario)) drift.push(`${opts["not-scored"]}: no row for ${revision} ${r.scenario} (this run: ${got})`);
    else if (rows.get(r.scenario) !== got) drift.push(`${opts["not-scored"]}: ${r.scenario} says ${rows.get(r.scenario)}, this run: ${got}`);
  }
  for (const name of rows.keys()) {
    if (!notScored.includes(name)) drift.push(`${opts["not-scored"]}: ${name} is not a not-scored ${revision} scenario`);
  }
}
if (drift.length > 0) {
  die(`the run differs from what the repository claims:\n  ${drift.join("\n  ")}\n` +
      `If the change is intended, rerun with --update (expected file) and edit the table, in the same commit.`, 5);
}

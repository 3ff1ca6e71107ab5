#!/usr/bin/env node
// The weather example's MCP Apps view in a real browser: Debian's Chromium, driven headless by
// playwright-core (no downloaded browser), hosting the view as a web host does.
//
//   node tests/apps/run.mjs <weather binary> [--screenshot-dir DIR] [--readme-screenshot FILE]
//
// Two origins on 127.0.0.1: the host's page (host.html, with the TypeScript client and the
// extension's AppBridge, bundled by esbuild; /mcp passed to the weather server) and the sandbox
// proxy (sandbox.html, served under the Content Security Policy the host built). For each
// revision (the client's default, which is 2025-11-25, then 2026-07-28 pinned) it checks:
//   - the tool's _meta.ui and the view's, by the extension's own zod schemas and helpers;
//   - the view renders the tool's result and the value of the app-only tool it calls itself
//     through the bridge, read from the DOM and compared with the server's own answer;
//   - the policy the host built from _meta.ui, exactly, and that the browser enforces it on the
//     view (a fetch to an undeclared origin is blocked, the violation naming that policy).
// A screenshot of each run is kept in --screenshot-dir (default: <target>/apps).
// Prints one line per check; exit 0 when every check held, 1 otherwise, 2 on a usage error.

import { spawn } from 'node:child_process';
import { mkdirSync, copyFileSync, readFileSync, existsSync } from 'node:fs';
import { createServer, request as httpRequest } from 'node:http';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isDeepStrictEqual } from 'node:util';

import * as esbuild from 'esbuild';
import { chromium } from 'playwright-core';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '../..');
const args = process.argv.slice(2);
const binary = args[0];
if (!binary || binary.startsWith('--')) {
    process.stderr.write('usage: node tests/apps/run.mjs <weather binary> [--screenshot-dir DIR] [--readme-screenshot FILE]\n');
    process.exit(2);
}
const option = name => {
    const at = args.indexOf(name);
    return at > 0 ? args[at + 1] : undefined;
};
const target = process.env.CARGO_TARGET_DIR || join(root, 'target');
const screenshotDir = option('--screenshot-dir') ?? join(target, 'apps');
const readmeShot = option('--readme-screenshot');
const browserPath = process.env.BEAM_MCP_CHROMIUM || '/usr/bin/chromium';
if (!existsSync(browserPath)) {
    process.stderr.write(`apps: no Chromium at ${browserPath} (apt-get install chromium; tests/apps/setup.sh does)\n`);
    process.exit(2);
}

// What the example declares, written out: the test fails if the server says otherwise.
const VIEW = 'ui://weather/reading';
const FONTS = 'https://fonts.example.invalid';
const API = 'https://api.example.invalid';
const EXPECTED_CSP =
    "default-src 'none'; " +
    `script-src 'self' 'unsafe-inline' ${FONTS}; ` +
    `style-src 'self' 'unsafe-inline' ${FONTS}; ` +
    `connect-src 'self' ${API}; ` +
    `img-src 'self' data: ${FONTS}; ` +
    `font-src 'self' ${FONTS}; ` +
    `media-src 'self' data: ${FONTS}; ` +
    "frame-src 'none'; object-src 'none'; base-uri 'self'";
const PLACE = 'Lisbon';

let failed = 0;
const check = (what, ok, detail) => {
    if (!ok) failed++;
    console.log(`apps ${ok ? 'ok  ' : 'FAIL'} ${what}${ok || detail === undefined ? '' : `: ${typeof detail === 'string' ? detail : JSON.stringify(detail)}`}`);
};
const same = (what, expected, actual) => check(what, isDeepStrictEqual(expected, actual), { expected, actual });

const children = [];
const servers = [];
let browser;
const cleanup = async () => {
    await browser?.close().catch(() => {});
    servers.forEach(s => s.close());
    children.forEach(c => c.kill());
};

// The weather server on a free loopback port; resolves with its URL from its "listening on" line.
function startWeather() {
    return new Promise((resolvePromise, reject) => {
        const child = spawn(binary, ['--http', '127.0.0.1:0'], { stdio: ['ignore', 'ignore', 'pipe'] });
        children.push(child);
        let seen = '';
        const timer = setTimeout(() => reject(new Error(`the server did not start: ${seen}`)), 30_000);
        child.stderr.on('data', chunk => {
            seen += chunk;
            const found = /listening on (http\S+)\s/.exec(seen);
            if (found) {
                clearTimeout(timer);
                resolvePromise(found[1]);
            }
        });
        child.on('exit', code => reject(new Error(`the server exited (${code}): ${seen}`)));
    });
}

function listen(handler) {
    return new Promise(resolvePromise => {
        const server = createServer(handler);
        servers.push(server);
        server.listen(0, '127.0.0.1', () => resolvePromise(`http://127.0.0.1:${server.address().port}`));
    });
}

// The host's origin: its page, its bundle, and /mcp passed to the server as it is (a web host's
// backend; the browser's Origin is a loopback one, which the example allows).
async function hostOrigin(mcpUrl, bundle) {
    const page = readFileSync(join(here, 'host/host.html'));
    return listen((req, res) => {
        if (req.url === '/' || req.url === '/host.html') {
            res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page);
        } else if (req.url === '/host.bundle.js') {
            res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8' }).end(bundle);
        } else if (req.url.startsWith('/mcp')) {
            const upstream = new URL(mcpUrl);
            const forward = httpRequest(
                { host: upstream.hostname, port: upstream.port, path: upstream.pathname, method: req.method, headers: { ...req.headers, host: upstream.host } },
                answer => {
                    res.writeHead(answer.statusCode, answer.headers);
                    answer.pipe(res);
                }
            );
            forward.on('error', e => res.writeHead(502).end(String(e)));
            req.pipe(forward);
        } else {
            res.writeHead(404).end();
        }
    });
}

// The sandbox proxy's origin: sandbox.html under the policy the host asks for (?csp=), and its
// script.
async function sandboxOrigin() {
    const script = readFileSync(join(here, 'host/sandbox.js'));
    const page =
        '<!doctype html><html><head><meta charset="utf-8"><style>html,body{margin:0;height:100%}' +
        'iframe{border:0;width:100%;height:100%;display:block}</style></head><body>' +
        '<script src="/sandbox.js"></script></body></html>';
    return listen((req, res) => {
        const url = new URL(req.url, 'http://sandbox');
        if (url.pathname === '/sandbox.html') {
            res.writeHead(200, {
                'content-type': 'text/html; charset=utf-8',
                'content-security-policy': url.searchParams.get('csp') ?? "default-src 'none'"
            }).end(page);
        } else if (url.pathname === '/sandbox.js') {
            res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8' }).end(script);
        } else {
            res.writeHead(404).end();
        }
    });
}

async function waitFor(what, probe, ms = 20_000) {
    const until = Date.now() + ms;
    for (;;) {
        const value = await probe().catch(() => undefined);
        if (value) return value;
        if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
        await new Promise(r => setTimeout(r, 100));
    }
}

async function turn(page, host, sandbox, revision) {
    await page.goto(`${host}/host.html`);
    const report = await page.evaluate(
        options => window.runHost(options),
        { toolName: 'reading', args: { place: PLACE }, sandboxOrigin: sandbox, revision }
    );
    same(`${revision}: negotiated revision`, revision, report.negotiated);
    same(`${revision}: the server declares the extension`, {}, report.serverCapabilities?.extensions?.['io.modelcontextprotocol/ui']);
    same(`${revision}: the tool's _meta`, { ui: { resourceUri: VIEW, visibility: ['model', 'app'] }, 'ui/resourceUri': VIEW }, report.tool.meta);
    check(`${revision}: the tool's _meta.ui is the extension's McpUiToolMeta`, report.toolMetaConforms.ok, report.toolMetaConforms.issues);
    same(`${revision}: visibility as the extension's helpers read it`, {
        reading: { appOnly: false, modelOnly: false },
        reading_fahrenheit: { appOnly: true, modelOnly: false }
    }, report.visibility);
    const viewMeta = {
        ui: { csp: { connectDomains: [API], resourceDomains: [FONTS] }, permissions: { clipboardWrite: {} }, prefersBorder: true }
    };
    same(`${revision}: the view's listing _meta`, viewMeta, report.listedMeta);
    same(`${revision}: the view's read content`, { uri: VIEW, mimeType: 'text/html;profile=mcp-app', meta: viewMeta, length: readFileSync(join(root, 'examples/weather/assets/reading.html'), 'utf8').length }, report.content);
    check(`${revision}: the view's _meta.ui is the extension's McpUiResourceMeta`, report.resourceMetaConforms.ok, report.resourceMetaConforms.issues);
    same(`${revision}: the policy the host built from _meta.ui`, EXPECTED_CSP, report.csp);
    same(`${revision}: the permission asked, as the allow attribute the extension's helper builds`, 'clipboard-write', report.allow);
    check(`${revision}: prefersBorder drew a border`, report.bordered);

    // The view, two frames down: the sandbox proxy's inner srcdoc frame.
    const view = await waitFor('the view frame', async () =>
        page.frames().find(f => f.parentFrame()?.url().startsWith(sandbox) && f !== page.mainFrame()));
    await waitFor('the view to be ready', async () => (await view.textContent('#status')) === 'ready');
    const shown = {
        place: await view.textContent('#place'),
        celsius: await view.textContent('#celsius'),
        sky: await view.textContent('#sky'),
        fahrenheit: await view.textContent('#fahrenheit')
    };
    const reading = report.result.structuredContent;
    same(`${revision}: the view renders the tool's result and the app-only tool's answer`, {
        place: PLACE,
        celsius: `${reading.celsius} °C`,
        sky: reading.sky,
        fahrenheit: `${(reading.celsius * 9) / 5 + 32} °F`
    }, shown);
    same(`${revision}: the view called the app-only tool through the bridge, once`, ['reading_fahrenheit'], await page.evaluate(() => window.appCalls));

    // The policy, as the browser enforces it on the view: a fetch to an origin the view did not
    // declare (the host's own) is refused, and the violation names the policy.
    const probe = await view.evaluate(async target => {
        const violation = new Promise(r => document.addEventListener('securitypolicyviolation', e => r({ directive: e.effectiveDirective, policy: e.originalPolicy, blocked: e.blockedURI }), { once: true }));
        const fetched = await fetch(`${target}/csp-probe`).then(() => 'fetched', e => `refused: ${e.name}`);
        return { fetched, violation: await Promise.race([violation, new Promise(r => setTimeout(() => r(null), 3000))]) };
    }, host);
    same(`${revision}: the browser refuses an undeclared origin to the view`, 'refused: TypeError', probe.fetched);
    same(`${revision}: the violation is connect-src under the policy the host built`, { directive: 'connect-src', policy: EXPECTED_CSP, blocked: `${host}/csp-probe` }, probe.violation);

    mkdirSync(screenshotDir, { recursive: true });
    const shot = join(screenshotDir, `reading-card-${revision}.png`);
    await page.screenshot({ path: shot });
    console.log(`apps: screenshot ${shot}`);
    return shot;
}

try {
    const bundle = (await esbuild.build({
        entryPoints: [join(here, 'host/host.js')],
        bundle: true,
        format: 'esm',
        platform: 'browser',
        target: 'chrome120',
        write: false,
        logLevel: 'error'
    })).outputFiles[0].contents;
    const mcp = await startWeather();
    const host = await hostOrigin(mcp, bundle);
    const sandbox = await sandboxOrigin();
    browser = await chromium.launch({ executablePath: browserPath, headless: true, args: ['--no-sandbox', '--disable-dev-shm-usage', '--disable-gpu'] });
    const page = await browser.newPage({ viewport: { width: 640, height: 420 } });
    const errors = [];
    page.on('pageerror', e => errors.push(String(e)));
    page.on('crash', () => errors.push('the page crashed'));
    if (process.env.APPS_DEBUG) page.on('console', m => process.stderr.write(`[browser] ${m.text()}\n`));
    const first = await turn(page, host, sandbox, '2025-11-25');
    await turn(page, host, sandbox, '2026-07-28');
    same('no script error in any frame', [], errors);
    if (readmeShot) copyFileSync(first, readmeShot);
} catch (e) {
    check('the run', false, e.stack ?? String(e));
} finally {
    await cleanup();
}
console.log(`apps: ${failed === 0 ? 'every check held' : `${failed} checks failed`}`);
process.exit(failed === 0 ? 0 : 1);

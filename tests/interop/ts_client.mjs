#!/usr/bin/env node
// Interop client: the TypeScript MCP SDK against a stdio MCP server.
//
//   --sdk v2 (default): @modelcontextprotocol/client (Client + StdioClientTransport from ./stdio)
//   --sdk v1          : @modelcontextprotocol/sdk 1.x (legacy `initialize` only; no 2026-07-28)
//
// Revisions (--revision), v2:
//   auto        versionNegotiation { mode: 'auto' }: probe server/discover (on a disposable
//               SIBLING process for the base StdioClientTransport), fall back to initialize.
//   2026-07-28  versionNegotiation { mode: { pin: '2026-07-28' } }: probe, no fallback.
//   2025-11-25  no versionNegotiation option: the SDK default ('legacy'), plain initialize.
//   --probe-in-place: use a StdioClientTransport subclass so the probe runs on the session's own
//   process (no sibling spawn); this is what custom stdio transports get.
//
// Does what a new user would: connect, list tools, call a tool with good args, call it with bad
// args (expects a result with isError: true, not a JSON-RPC error), list resources/prompts if
// advertised. Prints one JSON summary line; exit 0 = all passed, 1 = a check failed, 2 = usage.
//
// The --expect-* options pin exact values (the negotiated version, the call's text and
// structuredContent, the bad call's tool error, each read resource's contents, the prompt's
// messages, the completion values); a difference is an error "<check> mismatch: expected E, got A"
// (run.sh's negative control looks for it). A capability the requested steps need is required.
//
// --progress-tool NAME [--progress-args JSON]: also call that tool with an `onprogress` request
// option (v2: client.callTool(params, { onprogress }); v1: client.callTool(params, undefined,
// { onprogress })), which puts `_meta.progressToken` on the request; fails unless at least one
// notifications/progress arrived before the result and the progress values strictly increase.
// The SDK calls `onprogress` synchronously as each notification is read, so what it recorded
// when callTool resolves is what came before the result.
//
// --elicit-tool NAME [--elicit-args JSON] [--elicit-content JSON]: run the elicitation flow
// instead of the steps above: declare `capabilities: { elicitation: {} }`, register an
// `elicitation/create` handler (v2: client.setRequestHandler('elicitation/create', fn); v1:
// client.setRequestHandler(ElicitRequestSchema, fn)), list tools, call NAME while the handler
// accepts with --elicit-content, then again while it declines. At 2026-07-28 the server answers
// `resultType: "input_required"` and v2's default `inputRequired` auto-fulfilment runs the same
// handler and retries the call; at 2025-11-25 the server sends `elicitation/create` on the
// session. Checks: --expect-elicit-request (what the handler got during one call:
// [{"message", "requestedSchema"}], for both calls; `format` on a number field is not
// compared), --expect-elicit-text (the accepted call's text), --expect-decline-text (the
// declined call's text).
//
// Example:
//   node ts_client.mjs --revision 2026-07-28 --tool get_weather --args '{"place":"Paris"}' \
//       --bad-args '{"place":42}' -- path/to/server --stdio
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

const REVISIONS = ['auto', '2026-07-28', '2025-11-25'];

function usage(msg) {
    process.stderr.write(`ts_client.mjs: ${msg}\n`);
    process.exit(2);
}

function splitCommand(line) {
    // Minimal POSIX-ish split: whitespace, single and double quotes, backslash escapes.
    const out = [];
    let cur = '';
    let quote = null;
    let have = false;
    for (let i = 0; i < line.length; i++) {
        const c = line[i];
        if (quote) {
            if (c === quote) quote = null;
            else if (c === '\\' && quote === '"' && i + 1 < line.length) cur += line[++i];
            else cur += c;
        } else if (c === "'" || c === '"') {
            quote = c;
            have = true;
        } else if (c === '\\' && i + 1 < line.length) {
            cur += line[++i];
            have = true;
        } else if (/\s/.test(c)) {
            if (have) out.push(cur);
            cur = '';
            have = false;
        } else {
            cur += c;
            have = true;
        }
    }
    if (quote) usage('unbalanced quote in --server-cmd');
    if (have) out.push(cur);
    return out;
}

const { values: opt, positionals } = parseArgs({
    allowPositionals: true,
    options: {
        'server-cmd': { type: 'string' },
        url: { type: 'string' },
        sdk: { type: 'string', default: 'v2' },
        revision: { type: 'string', default: 'auto' },
        'expect-version': { type: 'string' },
        'probe-in-place': { type: 'boolean', default: false },
        tool: { type: 'string', default: 'get_weather' },
        args: { type: 'string', default: '{"place":"Paris"}' },
        'bad-args': { type: 'string', default: '{"place":42}' },
        'expect-text': { type: 'string' },
        'expect-structured': { type: 'string' },
        'expect-bad-text': { type: 'string' },
        'expect-read': { type: 'string' },
        'expect-prompt': { type: 'string' },
        'expect-completion': { type: 'string' },
        'skip-lists': { type: 'boolean', default: false },
        read: { type: 'string', multiple: true, default: [] },
        prompt: { type: 'string' },
        'prompt-args': { type: 'string', default: '{}' },
        complete: { type: 'string' },
        'also-call': { type: 'string', multiple: true, default: [] },
        'progress-tool': { type: 'string' },
        'progress-args': { type: 'string', default: '{}' },
        'elicit-tool': { type: 'string' },
        'elicit-args': { type: 'string', default: '{}' },
        'elicit-content': { type: 'string', default: '{}' },
        'expect-elicit-request': { type: 'string' },
        'expect-elicit-text': { type: 'string' },
        'expect-decline-text': { type: 'string' },
        timeout: { type: 'string', default: '30' },
        cwd: { type: 'string' },
        env: { type: 'string', multiple: true, default: [] },
        'inherit-env': { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false }
    }
});
if (opt.help) {
    process.stdout.write(
        'usage: node ts_client.mjs [--sdk v2|v1] [--revision auto|2026-07-28|2025-11-25] [--probe-in-place]\n' +
            '  [--expect-version V] [--tool NAME] [--args JSON] [--bad-args JSON] [--skip-lists]\n' +
            '  [--read URI ...] [--prompt NAME --prompt-args JSON] [--complete PROMPT:ARG:VALUE]\n' +
            '  [--expect-text S] [--expect-structured JSON] [--expect-bad-text S] [--expect-read {"URI": CONTENTS}]\n' +
            '  [--expect-prompt MESSAGES] [--expect-completion VALUES]\n' +
            '  [--also-call \'{"tool": NAME, "args": JSON, "text"|"error": S}\' ...]\n' +
            '  [--progress-tool NAME [--progress-args JSON]]\n' +
            '  [--elicit-tool NAME [--elicit-args JSON] [--elicit-content JSON] [--expect-elicit-request JSON]\n' +
            '   [--expect-elicit-text S] [--expect-decline-text S]]\n' +
            '  [--timeout SECS] [--cwd DIR] [--env K=V ...] [--inherit-env] (--server-cmd "CMD ARGS" | -- CMD ARGS)\n'
    );
    process.exit(0);
}
if (!['v1', 'v2'].includes(opt.sdk)) usage(`--sdk must be v1 or v2, not ${opt.sdk}`);
if (!REVISIONS.includes(opt.revision)) usage(`--revision must be one of ${REVISIONS.join(', ')}`);
if (opt['server-cmd'] && positionals.length) usage('give the server either with --server-cmd or after --, not both');
const command = opt['server-cmd'] ? splitCommand(opt['server-cmd']) : positionals;
if (opt.url && command.length) usage('give either --url or a server command, not both');
if (command.length === 0 && !opt.url) usage('no server (use --url, --server-cmd or -- CMD ARGS)');
const parseObj = name => {
    let v;
    try {
        v = JSON.parse(opt[name]);
    } catch (e) {
        usage(`--${name} is not JSON: ${e.message}`);
    }
    if (v === null || typeof v !== 'object' || Array.isArray(v)) usage(`--${name} must be a JSON object`);
    return v;
};
const goodArgs = parseObj('args');
const badArgs = parseObj('bad-args');
const promptArgs = parseObj('prompt-args');
const progressArgs = parseObj('progress-args');
const elicitArgs = parseObj('elicit-args');
const elicitContent = parseObj('elicit-content');
// Each --also-call: one more call after the bad call, answered with exactly `text` (a result) or
// exactly `error` (a result with isError: true).
const alsoCalls = opt['also-call'].map(raw => {
    let call;
    try {
        call = JSON.parse(raw);
    } catch (e) {
        usage(`--also-call is not JSON: ${e.message}`);
    }
    const ok = call && typeof call.tool === 'string' && call.args && typeof call.args === 'object';
    if (!ok || (typeof call.text === 'string') === (typeof call.error === 'string')) {
        usage('--also-call takes {"tool": NAME, "args": {...}, and one of "text" or "error"}');
    }
    return call;
});
const parseJson = name => {
    if (opt[name] === undefined) return undefined;
    try {
        return JSON.parse(opt[name]);
    } catch (e) {
        usage(`--${name} is not JSON: ${e.message}`);
    }
};
const [expectStructured, expectRead, expectPrompt, expectCompletion, expectElicitRequest] = [
    'expect-structured',
    'expect-read',
    'expect-prompt',
    'expect-completion',
    'expect-elicit-request'
].map(parseJson);
const timeoutMs = Math.round(Number(opt.timeout) * 1000);
if (!(timeoutMs > 0)) usage('--timeout must be a positive number of seconds');
const expectVersion = opt['expect-version'] ?? (opt.revision === 'auto' ? undefined : opt.revision);

const pkgName = opt.sdk === 'v2' ? '@modelcontextprotocol/client' : '@modelcontextprotocol/sdk';
const pkgVersion = JSON.parse(readFileSync(new URL(`./node_modules/${pkgName}/package.json`, import.meta.url), 'utf8')).version;
const summary = { client: `${pkgName} ${pkgVersion}`, requestedRevision: opt.revision };
const errors = [];

function describe(e) {
    if (e && typeof e === 'object' && typeof e.code === 'number') {
        return `error ${e.code}: ${e.message}${e.data !== undefined ? ` data=${JSON.stringify(e.data)}` : ''}`;
    }
    return e instanceof Error ? `${e.name}: ${e.message}` : String(e);
}

const pick = (obj, ...keys) => Object.fromEntries(keys.filter(k => obj?.[k] !== undefined).map(k => [k, obj[k]]));
// What the checks compare of a content block: its type and text (an embedded resource's too).
const normContent = b => ({ type: b.type, ...pick(b, 'text'), ...pick(b.resource, 'uri', 'mimeType', 'text', 'blob') });
// JSON with sorted keys, so that equal values compare equal whatever the key order.
function canon(v) {
    if (Array.isArray(v)) return `[${v.map(canon).join(',')}]`;
    if (v === null || typeof v !== 'object') return JSON.stringify(v ?? null);
    const keys = Object.keys(v).sort();
    return `{${keys.map(k => `${JSON.stringify(k)}:${canon(v[k])}`).join(',')}}`;
}
function check(what, expected, actual) {
    if (canon(expected) !== canon(actual)) {
        errors.push(`${what} mismatch: expected ${JSON.stringify(expected ?? null)}, got ${JSON.stringify(actual ?? null)}`);
    }
}

async function loadSdk() {
    if (opt.sdk === 'v2') {
        const { Client } = await import('@modelcontextprotocol/client');
        const { StreamableHTTPClientTransport } = await import('@modelcontextprotocol/client');
        const { StdioClientTransport, getDefaultEnvironment } = await import('@modelcontextprotocol/client/stdio');
        return { Client, StdioClientTransport, getDefaultEnvironment, StreamableHTTPClientTransport };
    }
    const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
    const { StdioClientTransport, getDefaultEnvironment } = await import('@modelcontextprotocol/sdk/client/stdio.js');
    const { StreamableHTTPClientTransport } = await import('@modelcontextprotocol/sdk/client/streamableHttp.js');
    const { ElicitRequestSchema } = await import('@modelcontextprotocol/sdk/types.js');
    return { Client, StdioClientTransport, getDefaultEnvironment, StreamableHTTPClientTransport, ElicitRequestSchema };
}

// The elicitation flow: an accepted call, then a declined one, through the registered handler.
async function elicitSteps(client, callTool, reqOpts, caps, setStep) {
    const tool = opt['elicit-tool'];
    setStep('tools/list');
    if (!caps.tools) errors.push('server did not advertise the tools capability');
    const { tools } = await client.listTools(undefined, reqOpts);
    summary.tools = tools.map(t => t.name);
    if (!summary.tools.includes(tool)) errors.push(`tool '${tool}' not listed`);
    summary.elicitations = {};
    for (const [label, answer, expect] of [
        ['accept', { action: 'accept', content: elicitContent }, opt['expect-elicit-text']],
        ['decline', { action: 'decline' }, opt['expect-decline-text']]
    ]) {
        const step = `tools/call ${tool} (${label})`;
        setStep(step);
        elicitation.answer = answer;
        elicitation.asked = [];
        const result = await callTool({ name: tool, arguments: elicitArgs }, reqOpts);
        summary[`${label}Call`] = { isError: result.isError === true, content: result.content };
        summary.elicitations[label] = elicitation.asked;
        if (result.isError) errors.push(`${step} returned isError: true`);
        if (expectElicitRequest !== undefined) {
            check(`tools/call ${tool} elicitation (${label})`, expectElicitRequest, elicitation.asked);
        } else if (!elicitation.asked.length) {
            errors.push(`${step}: the elicitation handler was not called`);
        }
        if (expect !== undefined) {
            check(`tools/call ${tool} content (${label})`, [{ type: 'text', text: expect }], (result.content ?? []).map(normContent));
        }
    }
}
// What the checks compare of an elicitation request: its message and requestedSchema, less `format`
// on number fields (not in the spec's NumberSchema; the TS SDKs drop it, Python's keeps it).
function normElicit(params) {
    const out = pick(params, 'message', 'requestedSchema');
    const props = out.requestedSchema?.properties;
    if (props && typeof props === 'object') {
        const fields = Object.entries(props).map(([name, f]) => {
            if (!f || typeof f !== 'object' || !['integer', 'number'].includes(f.type)) return [name, f];
            const { format, ...rest } = f;
            return [name, rest];
        });
        out.requestedSchema = { ...out.requestedSchema, properties: Object.fromEntries(fields) };
    }
    return out;
}
// What the elicitation handler answers, and the requests it got, for the current call.
const elicitation = { answer: { action: 'cancel' }, asked: [] };
const onElicit = async request => {
    elicitation.asked.push(normElicit(request.params));
    return elicitation.answer;
};

async function main() {
    const { Client, StdioClientTransport, getDefaultEnvironment, StreamableHTTPClientTransport, ElicitRequestSchema } =
        await loadSdk();
    if (opt.sdk === 'v1' && opt.revision === '2026-07-28') {
        throw new Error('@modelcontextprotocol/sdk 1.x cannot speak 2026-07-28 (use --sdk v2)');
    }

    const env = { ...(opt['inherit-env'] ? process.env : getDefaultEnvironment()) };
    for (const kv of opt.env) {
        const i = kv.indexOf('=');
        if (i < 1) usage(`--env wants K=V, got ${kv}`);
        env[kv.slice(0, i)] = kv.slice(i + 1);
    }
    const params = { command: command[0], args: command.slice(1), env, stderr: 'inherit', ...(opt.cwd && { cwd: opt.cwd }) };
    // A subclass: the v2 negotiator only uses the sibling-process probe for the exact base class.
    class InPlaceStdioTransport extends StdioClientTransport {}
    const transport = opt.url
        ? new StreamableHTTPClientTransport(new URL(opt.url))
        : opt['probe-in-place']
          ? new InPlaceStdioTransport(params)
          : new StdioClientTransport(params);
    let legacyVersion; // v1 has no getter; it calls transport.setProtocolVersion() after initialize
    if (opt.sdk === 'v1') transport.setProtocolVersion = v => (legacyVersion = v);

    const clientOptions = { capabilities: opt['elicit-tool'] ? { elicitation: {} } : {} };
    // 2025-11-25 on v2 sets nothing: the SDK's default negotiation is 'legacy' (initialize), and
    // the run's version pin fails should that default ever change.
    if (opt.sdk === 'v2' && opt.revision !== '2025-11-25') {
        clientOptions.versionNegotiation = { mode: opt.revision === 'auto' ? 'auto' : { pin: '2026-07-28' } };
    }
    const client = new Client({ name: 'beam-mcp-interop-ts', version: pkgVersion }, clientOptions);
    client.onerror = e => process.stderr.write(`[ts_client] onerror: ${describe(e)}\n`);
    if (opt['elicit-tool']) client.setRequestHandler(opt.sdk === 'v2' ? 'elicitation/create' : ElicitRequestSchema, onElicit);
    const reqOpts = { timeout: timeoutMs };
    // The two lines differ here: v2 is callTool(params, options), v1 callTool(params, resultSchema, options).
    const callTool = (params, options) =>
        opt.sdk === 'v2' ? client.callTool(params, options) : client.callTool(params, undefined, options);

    let step = 'connect';
    try {
        await client.connect(transport, reqOpts);
        const negotiated = opt.sdk === 'v2' ? client.getNegotiatedProtocolVersion() : legacyVersion;
        summary.protocolVersion = negotiated ?? null;
        summary.era = opt.sdk === 'v2' ? client.getProtocolEra() : 'legacy';
        summary.serverInfo = client.getServerVersion() ?? null;
        summary.capabilities = client.getServerCapabilities() ?? null;
        if (expectVersion) check('protocolVersion', expectVersion, negotiated);
        if (!summary.capabilities) errors.push('the server reported no capabilities');
        const caps = summary.capabilities ?? {}; // a missing capability fails every step below that needs it
        if (opt['elicit-tool']) {
            await elicitSteps(client, callTool, reqOpts, caps, s => (step = s));
            return;
        }
        if (!caps.tools) errors.push('server did not advertise the tools capability (v2 listTools() then returns [] silently)');

        step = 'tools/list';
        const { tools } = await client.listTools(undefined, reqOpts);
        summary.tools = tools.map(t => t.name);
        if (!summary.tools.includes(opt.tool)) errors.push(`tool '${opt.tool}' not listed`);
        if (opt['progress-tool'] && !summary.tools.includes(opt['progress-tool'])) {
            errors.push(`progress tool '${opt['progress-tool']}' not listed`);
        }

        step = 'tools/call (good args)';
        const good = await callTool({ name: opt.tool, arguments: goodArgs }, reqOpts);
        summary.call = { isError: good.isError === true, content: good.content };
        if (good.structuredContent !== undefined) summary.call.structuredContent = good.structuredContent;
        if (good.isError) errors.push('good call returned isError: true');
        if (opt['expect-text'] !== undefined) {
            check(`tools/call ${opt.tool} content`, [{ type: 'text', text: opt['expect-text'] }], (good.content ?? []).map(normContent));
        }
        if (expectStructured !== undefined) check(`tools/call ${opt.tool} structuredContent`, expectStructured, good.structuredContent);

        step = 'tools/call (bad args)';
        const expectBad = opt['expect-bad-text'];
        let badGot;
        try {
            const bad = await callTool({ name: opt.tool, arguments: badArgs }, reqOpts);
            summary.badCall = { isError: bad.isError === true, content: bad.content };
            badGot = { isError: bad.isError === true, content: (bad.content ?? []).map(normContent) };
            if (bad.isError !== true && expectBad === undefined) errors.push('bad call did not return isError: true');
        } catch (e) {
            summary.badCall = badGot = { jsonrpcError: { code: e?.code, message: e?.message } };
            if (expectBad === undefined) errors.push(`bad call raised ${describe(e)} instead of returning isError: true`);
        }
        if (expectBad !== undefined) {
            check(`tools/call ${opt.tool} (bad args)`, { isError: true, content: [{ type: 'text', text: expectBad }] }, badGot);
        }

        for (const call of alsoCalls) {
            const label = `tools/call ${call.tool} ${JSON.stringify(call.args)}`;
            step = label;
            if (!summary.tools.includes(call.tool)) errors.push(`tool '${call.tool}' not listed`);
            const got = await callTool({ name: call.tool, arguments: call.args }, reqOpts);
            const isError = call.error !== undefined;
            check(label, { isError, content: [{ type: 'text', text: call.text ?? call.error }] },
                { isError: got.isError === true, content: (got.content ?? []).map(normContent) });
        }

        if (opt['progress-tool']) {
            const name = opt['progress-tool'];
            step = `tools/call ${name} (progress)`;
            const seen = [];
            const onprogress = p => seen.push(p);
            const result = await callTool({ name, arguments: progressArgs }, { ...reqOpts, onprogress });
            const before = seen.slice();
            const values = before.map(p => p.progress);
            summary.progress = values;
            if (before.length && before[before.length - 1].total !== undefined) {
                summary.progressTotal = before[before.length - 1].total;
            }
            summary.progressCall = { isError: result.isError === true, content: result.content };
            if (result.isError) errors.push(`progress call to ${name} returned isError: true`);
            if (!values.length) {
                errors.push(`progress call to ${name}: no notifications/progress arrived before the result`);
            } else if (values.some((v, i) => i > 0 && !(v > values[i - 1]))) {
                errors.push(`progress call to ${name}: progress did not strictly increase: ${JSON.stringify(values)}`);
            }
        }

        if (!opt['skip-lists']) {
            if (caps.resources) {
                step = 'resources/list';
                summary.resources = (await client.listResources(undefined, reqOpts)).resources.map(r => r.uri);
                step = 'resources/templates/list';
                summary.resourceTemplates = (await client.listResourceTemplates(undefined, reqOpts)).resourceTemplates.map(
                    t => t.uriTemplate
                );
                summary.read = {};
                for (const uri of [...summary.resources, ...opt.read]) {
                    step = `resources/read ${uri}`;
                    const { contents } = await client.readResource({ uri }, reqOpts);
                    if (!contents.length) errors.push(`${step}: empty contents`);
                    summary.read[uri] = contents.map(c => ('text' in c ? 'text' : 'blob'));
                    const got = contents.map(c => pick(c, 'uri', 'mimeType', 'text', 'blob'));
                    if (expectRead) check(step, expectRead[uri], got);
                }
                // An expected resource that was neither listed nor asked for is a failure too.
                const unread = Object.keys(expectRead ?? {}).filter(u => !(u in summary.read));
                for (const uri of unread.sort()) check(`resources/read ${uri}`, expectRead[uri], null);
            } else if (opt.read.length || expectRead) {
                errors.push('resources to read, but the server advertises no resources');
            }
            if (caps.prompts) {
                step = 'prompts/list';
                summary.prompts = (await client.listPrompts(undefined, reqOpts)).prompts.map(p => p.name);
                if (opt.prompt) {
                    step = `prompts/get ${opt.prompt}`;
                    const got = await client.getPrompt({ name: opt.prompt, arguments: promptArgs }, reqOpts);
                    summary.prompt = got.messages.map(m => ({ role: m.role, type: m.content.type }));
                    if (!got.messages.length) errors.push(`${step}: no messages`);
                    const messages = got.messages.map(m => ({ role: m.role, ...normContent(m.content) }));
                    if (expectPrompt !== undefined) check(step, expectPrompt, messages);
                }
            } else if (opt.prompt) {
                errors.push('a prompt to get, but the server advertises no prompts');
            }
            if (opt.complete) {
                step = `completion/complete ${opt.complete}`;
                if (!caps.completions) errors.push('a completion to ask for, but the server advertises no completions');
                const [name, argument, ...rest] = opt.complete.split(':');
                const done = await client.complete(
                    { ref: { type: 'ref/prompt', name }, argument: { name: argument, value: rest.join(':') } },
                    reqOpts
                );
                summary.completion = done.completion.values;
                if (!done.completion.values.length) errors.push(`${step}: no values`);
                if (expectCompletion !== undefined) check(step, expectCompletion, done.completion.values);
            }
        }
    } catch (e) {
        errors.push(`${step}: ${describe(e)}`);
    } finally {
        await client.close().catch(() => {});
    }
}

const deadline = setTimeout(() => {
    errors.push(`timed out after ${opt.timeout}s`);
    finish();
}, timeoutMs + 5000);

let finished = false;
function finish() {
    if (finished) return;
    finished = true;
    clearTimeout(deadline);
    summary.ok = errors.length === 0;
    summary.errors = errors;
    process.stdout.write(JSON.stringify(summary) + '\n', () => process.exit(errors.length === 0 ? 0 : 1));
}

main()
    .catch(e => errors.push(describe(e)))
    .finally(finish);

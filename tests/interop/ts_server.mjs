#!/usr/bin/env node
/**
 * A server that is not ours: the official TypeScript SDK v2's (`@modelcontextprotocol/server`,
 * its McpServer) serving the same catalog as py_server.py, so that beam-mcp's client is checked
 * against a second foreign server with the same exact values.
 *
 * usage: node ts_server.mjs          (stdio; both revisions, as the SDK's serveStdio negotiates
 *                                     them: `initialize` pins 2025-11-25, `server/discover` or
 *                                     an enveloped request pins 2026-07-28)
 *        node ts_server.mjs --http   (Streamable HTTP on a free loopback port: prints
 *                                     "ts_server: listening on http://127.0.0.1:PORT/mcp" on
 *                                     stderr once it accepts connections; 2026-07-28 requests
 *                                     and 2025-11-25 sessions on the same endpoint)
 *
 * Tools: get_weather, forecast (progress), book_trip (elicitation: an input-required round at
 * 2026-07-28, a request on the session at 2025-11-25: the SDK's legacy shim turns the same
 * `inputRequired(...)` return into `elicitation/create`), wait and last_wait (cancellation);
 * resource weather://stations; prompt plan_trip with completion of its `place`.
 */

import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';

import {
    McpServer,
    WebStandardStreamableHTTPServerTransport,
    acceptedContent,
    completable,
    createMcpHandler,
    hostHeaderValidationResponse,
    inputRequired,
    inputResponse,
    isLegacyRequest,
    localhostAllowedHostnames,
    localhostAllowedOrigins,
    originValidationResponse
} from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import * as z from 'zod';

const READINGS = { Lisbon: [21.0, 'sunny'], Oslo: [-3.0, 'snow'], Paris: [14.5, 'cloudy'] };
const NAMES = Object.keys(READINGS).sort();

/** How Python prints a float (21.0, -3.0, 14.5), so both servers answer the same text. */
function pyFloat(x) {
    return Number.isInteger(x) ? x.toFixed(1) : String(x);
}

function reading(place) {
    if (!Object.hasOwn(READINGS, place)) throw new Error(`no station for ${place}`);
    return READINGS[place];
}

const text = s => ({ content: [{ type: 'text', text: s }] });

/** The form book_trip asks (what py_server.py's pydantic `Booking` sends), and its validator. */
const BOOKING_FORM = {
    type: 'object',
    properties: {
        travellers: { type: 'integer', title: 'Travellers', description: 'How many travel' },
        seat: { type: 'string', title: 'Seat', description: 'window or aisle' }
    },
    required: ['travellers', 'seat']
};
const Booking = z.object({ travellers: z.number().int(), seat: z.string() });

/** How the most recent `wait` ended: "none" (none ran), "finished" or "cancelled". Shared by
 *  every instance the factory builds (one per connection, or per HTTP request at 2026-07-28). */
let lastWait = 'none';

/** The factory: one McpServer with the whole catalog (the serving entries call it per
 *  connection / request). */
function buildServer() {
    const server = new McpServer({ name: 'ts-weather', version: '1.0.0' });

    server.registerTool(
        'get_weather',
        { description: 'Current weather at a place.', inputSchema: z.object({ place: z.string() }) },
        async ({ place }) => {
            const [celsius, sky] = reading(place);
            return text(`${place}: ${pyFloat(celsius)} °C, ${sky}`);
        }
    );

    server.registerTool(
        'forecast',
        {
            description: 'The next days at a place, a degree warmer each day, with progress.',
            inputSchema: z.object({ place: z.string(), days: z.number().int() })
        },
        async ({ place, days }, ctx) => {
            const [celsius, sky] = reading(place);
            const token = ctx.mcpReq._meta?.progressToken;
            const lines = [];
            for (let d = 1; d <= days; d++) {
                if (token !== undefined) {
                    await ctx.mcpReq.notify({
                        method: 'notifications/progress',
                        params: { progressToken: token, progress: d, total: days, message: `day ${d}` }
                    });
                }
                lines.push(`day ${d}: ${pyFloat(celsius + d)} °C, ${sky}`);
            }
            return text(lines.join('\n'));
        }
    );

    // Written once for both revisions: the first round returns inputRequired(...) (at
    // 2026-07-28 the client fulfils it and retries with inputResponses; at 2025-11-25 the SDK's
    // legacy shim sends elicitation/create on the session and re-enters the handler).
    server.registerTool(
        'book_trip',
        { description: 'Asks the user to confirm a trip.', inputSchema: z.object({ place: z.string() }) },
        async ({ place }, ctx) => {
            const [celsius, sky] = reading(place);
            const answer = inputResponse(ctx.mcpReq.inputResponses, 'booking');
            if (answer.kind === 'missing') {
                return inputRequired({
                    inputRequests: {
                        booking: inputRequired.elicit({
                            message: `Book a trip to ${place}? It is ${pyFloat(celsius)} °C there, ${sky}.`,
                            requestedSchema: BOOKING_FORM
                        })
                    }
                });
            }
            if (answer.kind !== 'elicit') throw new Error('booking: not an elicitation result');
            if (answer.action !== 'accept') {
                return text(`Not booked: you ${answer.action === 'cancel' ? 'cancelled' : 'declined'} the trip to ${place}.`);
            }
            const booking = acceptedContent(ctx.mcpReq.inputResponses, 'booking', Booking);
            if (booking === undefined) throw new Error('booking: the form does not match its schema');
            const plural = booking.travellers > 1 ? 's' : '';
            return text(`Booked a trip to ${place} for ${booking.travellers}, ${booking.seat} seat${plural}.`);
        }
    );

    server.registerTool('wait', { description: 'Waits 10 s, or until the request is cancelled.' }, async ctx => {
        const signal = ctx.mcpReq.signal;
        const cancelled = await new Promise(resolve => {
            if (signal.aborted) return resolve(true);
            const onAbort = () => {
                clearTimeout(timer);
                resolve(true);
            };
            const timer = setTimeout(() => {
                signal.removeEventListener('abort', onAbort);
                resolve(false);
            }, 10_000);
            signal.addEventListener('abort', onAbort, { once: true });
        });
        lastWait = cancelled ? 'cancelled' : 'finished';
        if (cancelled) throw new Error('wait: cancelled');
        return text('waited 10 s');
    });

    server.registerTool('last_wait', { description: 'How the most recent wait ended.' }, async () => text(lastWait));

    server.registerResource(
        'stations',
        'weather://stations',
        { description: 'The station names, one a line.', mimeType: 'text/plain' },
        async uri => ({ contents: [{ uri: uri.href, mimeType: 'text/plain', text: NAMES.join('\n') }] })
    );

    server.registerPrompt(
        'plan_trip',
        {
            description: 'Plan a trip.',
            argsSchema: z.object({
                place: completable(z.string(), value => NAMES.filter(p => p.toLowerCase().startsWith(value.toLowerCase())))
            })
        },
        ({ place }) => ({
            messages: [{ role: 'user', content: { type: 'text', text: `I am going to ${place} for a few days. What should I pack?` } }]
        })
    );

    return server;
}

// ---- Streamable HTTP: a node:http server in front of the SDK's web-standard handlers ----

/** A web `Request` from a node request and its (already read) body; `signal` aborts when the
 *  client goes away, which is how a 2026-07-28 request is cancelled over HTTP. */
function toWebRequest(req, body, signal) {
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) {
        if (Array.isArray(value)) for (const v of value) headers.append(name, v);
        else if (value !== undefined) headers.set(name, value);
    }
    const hasBody = req.method !== 'GET' && req.method !== 'HEAD' && body.length > 0;
    return new Request(`http://${req.headers.host ?? '127.0.0.1'}${req.url}`, {
        method: req.method,
        headers,
        body: hasBody ? body : undefined,
        signal
    });
}

/** Writes a web `Response` (JSON or an SSE stream) to the node response. */
async function writeWebResponse(res, response) {
    res.statusCode = response.status;
    response.headers.forEach((value, name) => res.setHeader(name, value));
    if (!response.body) return void res.end();
    res.flushHeaders();
    const reader = response.body.getReader();
    res.on('close', () => reader.cancel().catch(() => {}));
    try {
        for (;;) {
            const { done, value } = await reader.read();
            if (done) break;
            res.write(value);
        }
    } catch {
        // the client went away mid-stream
    }
    res.end();
}

const jsonError = (status, message) =>
    new Response(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }), {
        status,
        headers: { 'content-type': 'application/json' }
    });

/** 2025-11-25 traffic: sessions, each its own McpServer on a WebStandardStreamableHTTPServerTransport
 *  (so elicitation/create and notifications/cancelled reach the right instance), the SDK's
 *  sessionful wiring; createMcpHandler's own legacy leg is stateless and can do neither. */
const sessions = new Map();
async function serveLegacy(request) {
    const sessionId = request.headers.get('mcp-session-id');
    if (sessionId) {
        const transport = sessions.get(sessionId);
        return transport ? transport.handleRequest(request) : jsonError(404, 'Session not found');
    }
    const transport = new WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: id => void sessions.set(id, transport),
        onsessionclosed: id => void sessions.delete(id)
    });
    transport.onclose = () => transport.sessionId && sessions.delete(transport.sessionId);
    const server = buildServer();
    await server.connect(transport);
    const response = await transport.handleRequest(request);
    if (transport.sessionId === undefined) await server.close(); // not an initialize: no session
    return response;
}

/** 2026-07-28 traffic: the SDK's per-request entry (a fresh instance from the factory each time). */
const modern = createMcpHandler(() => buildServer(), { legacy: 'reject' });

async function serveHttp(req, res) {
    const chunks = [];
    for await (const chunk of req) chunks.push(chunk);
    const aborted = new AbortController();
    res.on('close', () => res.writableFinished || aborted.abort());
    const request = toWebRequest(req, Buffer.concat(chunks), aborted.signal);
    let response =
        hostHeaderValidationResponse(request, localhostAllowedHostnames()) ??
        originValidationResponse(request, localhostAllowedOrigins());
    if (!response) {
        if (new URL(request.url).pathname !== '/mcp') response = new Response('Not Found', { status: 404 });
        else if (await isLegacyRequest(request)) response = await serveLegacy(request);
        else response = await modern.fetch(request);
    }
    await writeWebResponse(res, response);
}

if (process.argv.slice(2).join(' ') === '--http') {
    const http = createServer((req, res) => {
        serveHttp(req, res).catch(error => {
            console.error(`ts_server: ${error?.stack ?? error}`);
            if (!res.headersSent) res.writeHead(500).end();
            else res.end();
        });
    });
    // Port 0: the OS picks a free port; listening means it accepts connections.
    http.listen(0, '127.0.0.1', () => {
        console.error(`ts_server: listening on http://127.0.0.1:${http.address().port}/mcp`);
    });
} else {
    serveStdio(() => buildServer(), { onerror: error => console.error(`ts_server: ${error?.message ?? error}`) });
}

// The host side of the browser test, bundled by run.mjs (esbuild) and loaded by host.html: what
// a web host does with an MCP Apps tool (ext-apps 2.0.4, extension text 2026-01-26).
//
// It connects the official TypeScript client (@modelcontextprotocol/client) to the weather
// server (through the test server's same-origin /mcp), calls the tool as the model would,
// reads the tool's view, builds the view's Content Security Policy from its _meta.ui as the
// extension's text writes it, and renders the view in a sandbox proxy on another origin, joined
// to the server by the extension's own host bridge (AppBridge). The view's calls reach the
// server through the bridge; the host lets a view call only tools visible to it.

import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import {
    AppBridge,
    McpUiResourceMetaSchema,
    McpUiToolMetaSchema,
    PostMessageTransport,
    RESOURCE_MIME_TYPE,
    buildAllowAttribute,
    getToolUiResourceUri,
    isToolVisibilityAppOnly,
    isToolVisibilityModelOnly
} from '@modelcontextprotocol/ext-apps/app-bridge';

const EXTENSION = 'io.modelcontextprotocol/ui';

// The policy of the extension's "CSP Construction from Metadata" (Security Implications): the
// view's declared origins added to a restrictive base, every directive written.
export function buildCsp(csp) {
    const join = list => (list && list.length ? ' ' + list.join(' ') : '');
    const resources = join(csp?.resourceDomains);
    return [
        "default-src 'none'",
        `script-src 'self' 'unsafe-inline'${resources}`,
        `style-src 'self' 'unsafe-inline'${resources}`,
        `connect-src 'self'${join(csp?.connectDomains)}`,
        `img-src 'self' data:${resources}`,
        `font-src 'self'${resources}`,
        `media-src 'self' data:${resources}`,
        `frame-src ${csp?.frameDomains?.length ? csp.frameDomains.join(' ') : "'none'"}`,
        "object-src 'none'",
        `base-uri ${csp?.baseUriDomains?.length ? csp.baseUriDomains.join(' ') : "'self'"}`
    ].join('; ');
}

// What a zod schema of the extension makes of `value`: parsed, and nothing dropped.
function conforms(schema, value) {
    const parsed = schema.safeParse(value);
    return {
        ok: parsed.success && JSON.stringify(parsed.data) === JSON.stringify(value),
        issues: parsed.success ? null : parsed.error.issues
    };
}

const log = [];
const note = text => {
    log.push(text);
    document.getElementById('log').textContent = log.join('\n');
};

// Runs one conversation turn: the model calls `toolName` with `args`; the host shows its view.
// Resolves with what the test checks once the view is up; `window.appCalls` records the calls
// the view makes through the bridge.
window.runHost = async function runHost({ toolName, args, sandboxOrigin, revision }) {
    window.appCalls = [];
    const options = {
        capabilities: { extensions: { [EXTENSION]: { mimeTypes: [RESOURCE_MIME_TYPE] } } }
    };
    // The client's default negotiation is 'legacy' (initialize, 2025-11-25): left as it is
    // unless the run pins 2026-07-28.
    if (revision === '2026-07-28') options.versionNegotiation = { mode: { pin: '2026-07-28' } };
    const client = new Client({ name: 'beam-mcp-apps-test-host', version: '0.0.0' }, options);
    await client.connect(new StreamableHTTPClientTransport(new URL('/mcp', location.href)));
    const negotiated = client.getNegotiatedProtocolVersion();
    note(`connected at ${negotiated}`);

    const { tools } = await client.listTools();
    const tool = tools.find(t => t.name === toolName);
    const uri = getToolUiResourceUri(tool);
    note(`the model calls ${toolName}(${JSON.stringify(args)}); its view is ${uri}`);
    const result = await client.callTool({ name: toolName, arguments: args });

    const listed = (await client.listResources()).resources.find(r => r.uri === uri);
    const read = await client.readResource({ uri });
    const content = read.contents[0];
    // The content's _meta.ui first, the listing's as the fallback (the extension's rule).
    const ui = content._meta?.ui ?? listed?._meta?.ui ?? {};
    const csp = buildCsp(ui.csp);
    const allow = buildAllowAttribute(ui.permissions);

    const frame = document.createElement('iframe');
    frame.id = 'view';
    frame.title = listed?.title ?? uri;
    frame.setAttribute('sandbox', 'allow-scripts allow-same-origin');
    if (allow) frame.setAttribute('allow', allow);
    if (ui.prefersBorder) frame.classList.add('bordered');

    const bridge = new AppBridge(
        client,
        { name: 'beam-mcp-apps-test-host', version: '0.0.0' },
        {
            serverTools: {},
            serverResources: {},
            logging: {},
            sandbox: { csp: ui.csp, permissions: ui.permissions }
        },
        {
            hostContext: {
                theme: 'light',
                displayMode: 'inline',
                availableDisplayModes: ['inline'],
                platform: 'web',
                toolInfo: { tool }
            }
        }
    );
    const initialized = new Promise(resolve => {
        bridge.oninitialized = () => resolve();
    });
    bridge.onsandboxready = () => {
        note('the sandbox proxy is ready: sending the view');
        bridge.sendSandboxResourceReady({
            html: content.text,
            sandbox: 'allow-scripts',
            csp: ui.csp,
            permissions: ui.permissions
        });
    };
    bridge.onsizechange = ({ height }) => {
        if (height) frame.style.height = `${height + 4}px`;
    };
    // The bridge listens before the proxy loads: the proxy says it is ready as soon as it is.
    document.getElementById('views').appendChild(frame);
    await bridge.connect(new PostMessageTransport(frame.contentWindow, frame.contentWindow));
    frame.src = `${sandboxOrigin}/sandbox.html?csp=${encodeURIComponent(csp)}`;
    // After connect, which wires the bridge's calls straight to the client: a view may call
    // only the tools visible to it ("app" in _meta.ui.visibility, the default).
    bridge.oncalltool = async params => {
        const called = tools.find(t => t.name === params.name);
        const visibility = called?._meta?.ui?.visibility ?? ['model', 'app'];
        window.appCalls.push(params.name);
        if (!called || !visibility.includes('app')) {
            throw new Error(`the view may not call ${params.name}`);
        }
        note(`the view calls ${params.name}(${JSON.stringify(params.arguments)})`);
        return client.callTool(params);
    };
    await Promise.race([
        initialized,
        new Promise((_, reject) => setTimeout(() => reject(new Error('the view did not initialize in 20 s')), 20_000))
    ]);
    note('the view is initialized: sending the call and its result');
    await bridge.sendToolInput({ arguments: args });
    await bridge.sendToolResult(result);

    return {
        negotiated,
        serverCapabilities: client.getServerCapabilities(),
        tool: { name: tool.name, meta: tool._meta },
        toolMetaConforms: conforms(McpUiToolMetaSchema, tool._meta.ui),
        visibility: Object.fromEntries(
            tools
                .filter(t => t._meta?.ui)
                .map(t => [t.name, { appOnly: isToolVisibilityAppOnly(t), modelOnly: isToolVisibilityModelOnly(t) }])
        ),
        result,
        listedMeta: listed?._meta,
        content: { uri: content.uri, mimeType: content.mimeType, meta: content._meta, length: content.text.length },
        resourceMetaConforms: conforms(McpUiResourceMetaSchema, ui),
        csp,
        allow,
        bordered: frame.classList.contains('bordered')
    };
};

//! Interop client: rmcp (the official Rust MCP SDK) against a stdio or Streamable HTTP MCP server.
//!
//! Does what a new user would: spawn the server with `TokioChildProcess` (or, with `--url`,
//! connect to it with `StreamableHttpClientTransport::from_uri`, rmcp's reqwest-based default),
//! connect with rmcp's default `ClientConfig`, list tools, call one tool with good arguments, call it with bad
//! arguments (expects a `CallToolResult` with `isError: true`, not a JSON-RPC error), list and
//! read resources and get a prompt when the server advertises them, and optionally call a tool
//! that reports progress. Prints one JSON summary line on stdout; exit 0 = every check passed,
//! 1 = a check failed, 2 = usage error.
//!
//! The `--expect-*` options pin exact values (the negotiated version, the call's text and
//! structuredContent, the bad call's tool error, each read resource's contents, the prompt's
//! messages, the completion values); a difference is an error "<check> mismatch: expected E, got
//! A" (run.sh's negative control looks for it). A capability the requested steps need is required.
//!
//! Revisions (`--revision`):
//!   2025-11-25  the default: `ServiceExt::serve`, rmcp's default lifecycle
//!               (`ClientLifecycleMode::Initialize`: the `initialize` handshake; the default
//!               `ClientConfig` offers rmcp's latest version, 2026-07-28, and a dual-era server
//!               answers 2025-11-25). rmcp puts `_meta.progressToken` on every request.
//!   2026-07-28  `ClientServiceExt::serve_with_lifecycle` with `ClientLifecycleMode::Discover`:
//!               probe `server/discover`, then per-request `_meta`; no fallback.
//!   auto        `ClientLifecycleMode::Auto`: probe, fall back to `initialize` (offering
//!               2025-11-25) when the server answers the probe with a legacy error.
//!
//! Progress (`--progress-tool NAME --progress-args JSON`): the call goes out through
//! `Peer::send_cancellable_request`, whose `RequestHandle` names the request's progress token;
//! the `ClientHandler::on_progress` callback records every `notifications/progress`. The check
//! fails unless at least one notification for that token arrived before the result and the
//! `progress` values strictly increase. The runtime is current-thread and the client runs in a
//! spawned task (not the `block_on` future, which the scheduler polls out of turn), so its run
//! queue is FIFO: a handler task rmcp spawned for a notification read before the response runs
//! before this task resumes, and one read after the response runs after it.
//!
//! Example:
//!   beam-mcp-interop-rmcp --revision 2026-07-28 --tool get_weather --args '{"place":"Paris"}' \
//!       --bad-args '{"place":42}' -- path/to/server --stdio
//!   beam-mcp-interop-rmcp --revision 2025-11-25 --url http://127.0.0.1:8080/mcp

use std::{
    process::ExitCode,
    sync::{Arc, Mutex, PoisonError},
    time::Duration,
};

use rmcp::{
    ClientHandler, ServiceError, ServiceExt,
    model::{
        CallToolRequest, CallToolRequestParams, CallToolResult, ClientConfig, ClientRequest,
        ErrorCode, ErrorData, GetPromptRequestParams, GetSkillRequestParams, JsonObject,
        ProgressNotificationParam, ProgressToken, ProtocolVersion, ReadResourceDirectoryRequestParams,
        ReadResourceRequestParams, ResourceContents, ServerResult, SkillResources, validate_skills,
    },
    service::{
        ClientInitializeError, ClientLifecycleMode, ClientServiceExt, NotificationContext,
        PeerRequestOptions, RoleClient, RunningService,
    },
    transport::{
        ConfigureCommandExt, IntoTransport, StreamableHttpClientTransport, TokioChildProcess,
    },
};
use serde_json::{Map, Value, json};

const REVISIONS: [&str; 3] = ["2025-11-25", "2026-07-28", "auto"];
/// What the Python SDK's `get_default_environment()` passes on POSIX (and the TS SDK too).
const SAFE_ENV: [&str; 6] = ["HOME", "LOGNAME", "PATH", "SHELL", "TERM", "USER"];

const USAGE: &str =
    "usage: beam-mcp-interop-rmcp [--revision 2025-11-25|2026-07-28|auto] [--expect-version V]
  [--tool NAME] [--args JSON] [--bad-args JSON] [--skip-lists]
  [--read URI ...] [--prompt NAME --prompt-args JSON] [--complete PROMPT:ARG:VALUE]
  [--expect-text S] [--expect-structured JSON] [--expect-bad-text S] [--expect-read {\"URI\": CONTENTS}]
  [--expect-prompt MESSAGES] [--expect-completion VALUES]
  [--progress-tool NAME [--progress-args JSON]] [--expect-skills {\"SKILL_URI\": {\"frontmatter\", \"files\": {URI: TEXT}}}]
  [--timeout SECS] [--cwd DIR] [--env K=V ...] [--inherit-env] (-- SERVER_CMD [ARGS...] | --url URL)";

struct Opts {
    revision: String,
    expect_version: Option<String>,
    tool: String,
    args: JsonObject,
    bad_args: JsonObject,
    expect_text: Option<String>,
    expect_structured: Option<Value>,
    expect_bad_text: Option<String>,
    expect_read: Option<JsonObject>,
    expect_prompt: Option<Value>,
    expect_completion: Option<Value>,
    /// The skills (SEP-2640) the server must serve: by the URI of each SKILL.md, its
    /// frontmatter and every file's text by URI.
    expect_skills: Option<JsonObject>,
    skip_lists: bool,
    read: Vec<String>,
    prompt: Option<String>,
    prompt_args: JsonObject,
    complete: Option<(String, String, String)>,
    progress_tool: Option<String>,
    progress_args: JsonObject,
    timeout: Duration,
    cwd: Option<String>,
    env: Vec<(String, String)>,
    inherit_env: bool,
    command: Vec<String>,
    /// A Streamable HTTP endpoint instead of a server command.
    url: Option<String>,
}

fn usage_error(msg: &str) -> ! {
    eprintln!("beam-mcp-interop-rmcp: {msg}\n{USAGE}");
    std::process::exit(2);
}

fn json_object(flag: &str, text: &str) -> JsonObject {
    match serde_json::from_str::<Value>(text) {
        Ok(Value::Object(map)) => map,
        Ok(_) => usage_error(&format!("{flag} must be a JSON object")),
        Err(e) => usage_error(&format!("{flag} is not JSON: {e}")),
    }
}

fn json_value(flag: &str, text: &str) -> Value {
    serde_json::from_str(text).unwrap_or_else(|e| usage_error(&format!("{flag} is not JSON: {e}")))
}

/// The Skills extension (SEP-2640) through rmcp's client: every skill listed (all pages) and
/// valid by rmcp's own rules, each exactly as expected and the same through `skills/get`, every
/// file read with exactly the expected text, whose bytes match the manifest's SHA-256 and size;
/// a skill root read as a directory; an unknown skill refused with -32602.
async fn skills(
    client: &RunningService<RoleClient, Handler>,
    caps: &rmcp::model::ServerCapabilities,
    want: &JsonObject,
    step: &mut String,
    summary: &mut Map<String, Value>,
    errors: &mut Vec<String>,
) -> Result<(), ServiceError> {
    if !caps.supports_skills() {
        errors.push("skills to check, but the server does not declare the skills extension".into());
        return Ok(());
    }
    *step = "skills/list".into();
    let listed = client.list_all_skills().await?;
    if let Err(e) = validate_skills(&listed) {
        errors.push(format!("skills/list: rmcp refuses the listing: {e}"));
    }
    let uris: Vec<&str> = listed.iter().map(|s| s.uri.as_str()).collect();
    summary.insert("skills".into(), json!(uris));
    let wanted: Vec<&str> = want.keys().map(String::as_str).collect();
    check(errors, "skills/list uris", &json!(wanted), &json!(uris));
    for skill in &listed {
        let Some(expected) = want.get(&skill.uri) else {
            continue;
        };
        check(
            errors,
            &format!("skills/list {} frontmatter", skill.uri),
            &expected["frontmatter"],
            &to_json(&skill.frontmatter),
        );
        *step = format!("skills/get {}", skill.uri);
        let got = client
            .get_skill(GetSkillRequestParams::new(skill.uri.clone()))
            .await?;
        check(errors, step, &to_json(skill), &to_json(&got.skill));
        let SkillResources::Files(files) = &skill.resources else {
            errors.push(format!("skill {} lists no files (\"dynamic\")", skill.uri));
            continue;
        };
        let file_uris: Vec<&str> = files.iter().map(|f| f.uri.as_str()).collect();
        let expected_files = expected["files"].as_object().cloned().unwrap_or_default();
        let expected_uris: Vec<&str> = expected_files.keys().map(String::as_str).collect();
        check(
            errors,
            &format!("skill {} files", skill.uri),
            &json!(expected_uris),
            &json!(file_uris),
        );
        for file in files {
            *step = format!("resources/read {}", file.uri);
            let read = client
                .read_resource(ReadResourceRequestParams::new(file.uri.clone()))
                .await?;
            let text = match read.contents.first() {
                Some(ResourceContents::TextResourceContents { text, .. }) => text.clone(),
                other => {
                    errors.push(format!("{step}: not one text content: {}", to_json(&other)));
                    continue;
                }
            };
            if let Err(e) = file.verify(text.as_bytes()) {
                errors.push(format!("{step}: {e}"));
            }
            check(errors, step, &expected_files.get(&file.uri).cloned().unwrap_or_default(), &json!(text));
        }
        if caps.supports_directory_read() {
            let root = skill.uri.trim_end_matches("/SKILL.md").to_owned();
            *step = format!("resources/directory/read {root}");
            let children = client
                .read_resource_directory(ReadResourceDirectoryRequestParams::new(root))
                .await?;
            let names: Vec<&str> = children.resources.iter().map(|r| r.name.as_str()).collect();
            if !names.contains(&"SKILL.md") {
                errors.push(format!("{step}: SKILL.md is not among {names:?}"));
            }
        }
    }
    *step = "skills/get (unknown)".into();
    match client
        .get_skill(GetSkillRequestParams::new("skill://no-such-skill/SKILL.md"))
        .await
    {
        Err(ServiceError::McpError(e)) if e.code == ErrorCode::INVALID_PARAMS => {}
        other => errors.push(format!(
            "skills/get of an unknown skill: wanted -32602, got {}",
            match other {
                Ok(result) => to_json(&result).to_string(),
                Err(e) => describe(&e),
            }
        )),
    }
    Ok(())
}

fn parse_args() -> Opts {
    let mut opts = Opts {
        revision: "2025-11-25".into(),
        expect_version: None,
        tool: "get_weather".into(),
        args: json_object("--args", r#"{"place":"Paris"}"#),
        bad_args: json_object("--bad-args", r#"{"place":42}"#),
        expect_text: None,
        expect_structured: None,
        expect_bad_text: None,
        expect_read: None,
        expect_prompt: None,
        expect_completion: None,
        expect_skills: None,
        skip_lists: false,
        read: Vec::new(),
        prompt: None,
        prompt_args: JsonObject::new(),
        complete: None,
        progress_tool: None,
        progress_args: JsonObject::new(),
        timeout: Duration::from_secs(30),
        cwd: None,
        env: Vec::new(),
        inherit_env: false,
        command: Vec::new(),
        url: None,
    };
    let mut argv = std::env::args().skip(1);
    while let Some(arg) = argv.next() {
        let (flag, inline) = match arg.split_once('=') {
            Some((f, v)) if f.starts_with("--") => (f.to_owned(), Some(v.to_owned())),
            _ => (arg.clone(), None),
        };
        let mut value = || {
            inline
                .clone()
                .or_else(|| argv.next())
                .unwrap_or_else(|| usage_error(&format!("{flag} needs a value")))
        };
        match flag.as_str() {
            "--" => {
                opts.command = argv.by_ref().collect();
                break;
            }
            "-h" | "--help" => {
                println!("{USAGE}");
                std::process::exit(0);
            }
            "--revision" => opts.revision = value(),
            "--expect-version" => opts.expect_version = Some(value()),
            "--tool" => opts.tool = value(),
            "--args" => opts.args = json_object("--args", &value()),
            "--bad-args" => opts.bad_args = json_object("--bad-args", &value()),
            "--expect-text" => opts.expect_text = Some(value()),
            "--expect-structured" => {
                opts.expect_structured = Some(json_value("--expect-structured", &value()))
            }
            "--expect-bad-text" => opts.expect_bad_text = Some(value()),
            "--expect-read" => opts.expect_read = Some(json_object("--expect-read", &value())),
            "--expect-prompt" => opts.expect_prompt = Some(json_value("--expect-prompt", &value())),
            "--expect-completion" => {
                opts.expect_completion = Some(json_value("--expect-completion", &value()))
            }
            "--expect-skills" => opts.expect_skills = Some(json_object("--expect-skills", &value())),
            "--skip-lists" => opts.skip_lists = true,
            "--read" => opts.read.push(value()),
            "--prompt" => opts.prompt = Some(value()),
            "--prompt-args" => opts.prompt_args = json_object("--prompt-args", &value()),
            "--complete" => {
                let v = value();
                let mut parts = v.splitn(3, ':');
                match (parts.next(), parts.next(), parts.next()) {
                    (Some(p), Some(a), Some(val)) => {
                        opts.complete = Some((p.into(), a.into(), val.into()))
                    }
                    _ => usage_error("--complete wants PROMPT:ARG:VALUE"),
                }
            }
            "--progress-tool" => opts.progress_tool = Some(value()),
            "--progress-args" => opts.progress_args = json_object("--progress-args", &value()),
            "--timeout" => {
                let v = value();
                match v.parse::<f64>() {
                    Ok(s) if s > 0.0 && s.is_finite() => opts.timeout = Duration::from_secs_f64(s),
                    _ => usage_error("--timeout must be a positive number of seconds"),
                }
            }
            "--cwd" => opts.cwd = Some(value()),
            "--env" => {
                let v = value();
                match v.split_once('=') {
                    Some((k, val)) if !k.is_empty() => opts.env.push((k.into(), val.into())),
                    _ => usage_error(&format!("--env wants K=V, got {v}")),
                }
            }
            "--inherit-env" => opts.inherit_env = true,
            "--url" => opts.url = Some(value()),
            other => usage_error(&format!("unknown argument {other}")),
        }
    }
    if !REVISIONS.contains(&opts.revision.as_str()) {
        usage_error(&format!(
            "--revision must be one of {}",
            REVISIONS.join(", ")
        ));
    }
    match (opts.command.is_empty(), opts.url.is_some()) {
        (true, false) => usage_error("no server (give it after --, or --url)"),
        (false, true) => usage_error("give either --url or a server command, not both"),
        _ => {}
    }
    if opts.expect_version.is_none() && opts.revision != "auto" {
        opts.expect_version = Some(opts.revision.clone());
    }
    opts
}

/// Records every `notifications/progress`, in the order rmcp delivers them.
#[derive(Clone, Default)]
struct Handler {
    progress: Arc<Mutex<Vec<ProgressNotificationParam>>>,
}

impl Handler {
    fn progress(&self) -> Vec<ProgressNotificationParam> {
        self.progress
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }
}

impl ClientHandler for Handler {
    // No `get_info` override: rmcp's default `ClientConfig` (capabilities, clientInfo, version).
    async fn on_progress(
        &self,
        params: ProgressNotificationParam,
        _context: NotificationContext<RoleClient>,
    ) {
        self.progress
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(params);
    }
}

fn describe_error(e: &ErrorData) -> String {
    let mut s = format!("JSON-RPC error {}: {}", e.code.0, e.message);
    if let Some(data) = &e.data {
        s.push_str(&format!(" data={data}"));
    }
    s
}

fn describe(e: &ServiceError) -> String {
    match e {
        ServiceError::McpError(data) => describe_error(data),
        other => other.to_string(),
    }
}

fn describe_init(e: &ClientInitializeError) -> String {
    match e {
        ClientInitializeError::JsonRpcError(data) => describe_error(data),
        other => other.to_string(),
    }
}

fn to_json<T: serde::Serialize + ?Sized>(value: &T) -> Value {
    serde_json::to_value(value).unwrap_or_else(|e| json!(format!("<unserializable: {e}>")))
}

/// JSON equality as the checks see it: 21 and 21.0 are one number (the SDKs differ).
fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x.as_f64() == y.as_f64(),
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(x, y)| same(x, y))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| same(v, w)))
        }
        _ => a == b,
    }
}

fn check(errors: &mut Vec<String>, what: &str, expected: &Value, actual: &Value) {
    if !same(expected, actual) {
        errors.push(format!(
            "{what} mismatch: expected {expected}, got {actual}"
        ));
    }
}

fn pick(obj: &Value, keys: &[&str]) -> Map<String, Value> {
    keys.iter()
        .filter_map(|&k| obj.get(k).map(|v| (k.to_owned(), v.clone())))
        .collect()
}

/// What the checks compare of a content block: its type and text (an embedded resource's too).
fn norm_content(block: &Value) -> Value {
    let mut out = Map::new();
    out.insert("type".into(), block["type"].clone());
    out.extend(pick(block, &["text"]));
    out.extend(pick(
        &block["resource"],
        &["uri", "mimeType", "text", "blob"],
    ));
    Value::Object(out)
}

fn norm_contents(blocks: &Value) -> Value {
    blocks
        .as_array()
        .map_or_else(Vec::new, |b| b.iter().map(norm_content).collect())
        .into()
}

fn call_json(result: &CallToolResult) -> Value {
    let mut call = Map::new();
    call.insert("isError".into(), json!(result.is_error == Some(true)));
    call.insert("content".into(), to_json(&result.content));
    if let Some(structured) = &result.structured_content {
        call.insert("structuredContent".into(), structured.clone());
    }
    Value::Object(call)
}

fn spawn_server(opts: &Opts) -> std::io::Result<TokioChildProcess> {
    let command = tokio::process::Command::new(&opts.command[0]).configure(|cmd| {
        cmd.args(&opts.command[1..]);
        if !opts.inherit_env {
            cmd.env_clear();
            for key in SAFE_ENV {
                if let Ok(v) = std::env::var(key)
                    && !v.starts_with("()")
                {
                    cmd.env(key, v);
                }
            }
        }
        for (k, v) in &opts.env {
            cmd.env(k, v);
        }
        if let Some(dir) = &opts.cwd {
            cmd.current_dir(dir);
        }
    });
    // stderr is inherited (the builder's default), as in the Python and TS clients.
    TokioChildProcess::new(command)
}

async fn connect<T, E, A>(
    opts: &Opts,
    handler: Handler,
    transport: T,
) -> Result<RunningService<RoleClient, Handler>, ClientInitializeError>
where
    T: IntoTransport<RoleClient, E, A>,
    E: std::error::Error + Send + Sync + 'static,
{
    match opts.revision.as_str() {
        "2026-07-28" => {
            let mode = ClientLifecycleMode::Discover {
                preferred_versions: vec![ProtocolVersion::V_2026_07_28],
            };
            handler.serve_with_lifecycle(transport, mode).await
        }
        "auto" => {
            let mode = ClientLifecycleMode::Auto {
                preferred_versions: vec![ProtocolVersion::V_2026_07_28],
                legacy_version: Some(ProtocolVersion::LATEST_WITH_INITIALIZE),
            };
            handler.serve_with_lifecycle(transport, mode).await
        }
        // rmcp's default: `serve` = ClientLifecycleMode::Initialize.
        _ => handler.serve(transport).await,
    }
}

/// Calls `--progress-tool` and checks the progress notifications. Returns the progress token.
async fn progress_call(
    opts: &Opts,
    client: &RunningService<RoleClient, Handler>,
    handler: &Handler,
    name: &str,
    summary: &mut Map<String, Value>,
    errors: &mut Vec<String>,
) -> Result<ProgressToken, ServiceError> {
    let params =
        CallToolRequestParams::new(name.to_owned()).with_arguments(opts.progress_args.clone());
    let request = ClientRequest::CallToolRequest(CallToolRequest::new(params));
    let handle = client
        .send_cancellable_request(request, PeerRequestOptions::no_options())
        .await?;
    let token = handle.progress_token.clone();
    let response = handle.await_response().await?;
    // Snapshot before any further await: what arrived before the result.
    let before: Vec<ProgressNotificationParam> = handler
        .progress()
        .into_iter()
        .filter(|p| p.progress_token == token)
        .collect();
    summary.insert("progressToken".into(), to_json(&token));
    let values: Vec<f64> = before.iter().map(|p| p.progress).collect();
    summary.insert("progress".into(), json!(values));
    if let Some(total) = before.last().and_then(|p| p.total) {
        summary.insert("progressTotal".into(), json!(total));
    }
    match response {
        ServerResult::CallToolResult(result) => {
            if result.is_error == Some(true) {
                errors.push(format!("progress call to {name} returned isError: true"));
            }
            summary.insert("progressCall".into(), call_json(&result));
        }
        other => errors.push(format!(
            "progress call to {name}: unexpected result {}",
            to_json(&other)
        )),
    }
    if values.is_empty() {
        errors.push(format!(
            "progress call to {name}: no notifications/progress arrived before the result (progressToken {})",
            to_json(&token)
        ));
    } else if let Some(w) = values.windows(2).find(|w| w[1] <= w[0]) {
        errors.push(format!(
            "progress call to {name}: progress did not strictly increase ({} then {}): {values:?}",
            w[0], w[1]
        ));
    }
    Ok(token)
}

async fn run(
    opts: &Opts,
    handler: &Handler,
    summary: &mut Map<String, Value>,
    errors: &mut Vec<String>,
) {
    let connected = if let Some(url) = &opts.url {
        // rmcp's default HTTP client: reqwest, the default transport config.
        let transport = StreamableHttpClientTransport::from_uri(url.as_str());
        connect(opts, handler.clone(), transport).await
    } else {
        match spawn_server(opts) {
            Ok(transport) => connect(opts, handler.clone(), transport).await,
            Err(e) => {
                errors.push(format!("spawn {}: {e}", opts.command[0]));
                return;
            }
        }
    };
    let client = match connected {
        Ok(client) => client,
        Err(e) => {
            errors.push(format!("connect: {}", describe_init(&e)));
            return;
        }
    };
    let mut progress_token = None;
    let mut step = "connect".to_owned();
    let outcome: Result<(), ServiceError> = async {
        let info = client.peer_info();
        // Without peer info, every step below that needs a capability fails.
        let caps = info
            .as_ref()
            .map(|i| i.capabilities.clone())
            .unwrap_or_default();
        if let Some(info) = &info {
            let version = info.protocol_version.to_string();
            summary.insert("protocolVersion".into(), json!(version));
            let era = if info.protocol_version.has_initialize() {
                "legacy"
            } else {
                "modern"
            };
            summary.insert("era".into(), json!(era));
            summary.insert("serverInfo".into(), to_json(&info.server_info));
            summary.insert("capabilities".into(), to_json(&info.capabilities));
        } else {
            errors.push("connected, but rmcp reports no peer info".into());
        }
        if let Some(expected) = &opts.expect_version {
            let got = summary.get("protocolVersion").cloned().unwrap_or_default();
            check(errors, "protocolVersion", &json!(expected), &got);
        }
        if caps.tools.is_none() {
            errors.push("the server did not advertise the tools capability".into());
        }

        step = "tools/list".into();
        let tools: Vec<String> = client
            .list_all_tools()
            .await?
            .into_iter()
            .map(|t| t.name.into_owned())
            .collect();
        if !tools.contains(&opts.tool) {
            errors.push(format!("tool '{}' not listed", opts.tool));
        }
        if let Some(p) = &opts.progress_tool
            && !tools.contains(p)
        {
            errors.push(format!("progress tool '{p}' not listed"));
        }
        summary.insert("tools".into(), json!(tools));

        step = "tools/call (good args)".into();
        let good = client
            .call_tool(
                CallToolRequestParams::new(opts.tool.clone()).with_arguments(opts.args.clone()),
            )
            .await?;
        summary.insert("call".into(), call_json(&good));
        if good.is_error == Some(true) {
            errors.push("good call returned isError: true".into());
        }
        if let Some(want) = &opts.expect_text {
            let what = format!("tools/call {} content", opts.tool);
            let want = json!([{"type": "text", "text": want}]);
            let got = norm_contents(&to_json(&good.content));
            check(errors, &what, &want, &got);
        }
        if let Some(want) = &opts.expect_structured {
            let what = format!("tools/call {} structuredContent", opts.tool);
            let got = good.structured_content.clone().unwrap_or_default();
            check(errors, &what, want, &got);
        }

        step = "tools/call (bad args)".into();
        let bad_got;
        match client
            .call_tool(
                CallToolRequestParams::new(opts.tool.clone()).with_arguments(opts.bad_args.clone()),
            )
            .await
        {
            Ok(bad) => {
                let is_error = bad.is_error == Some(true);
                let content = to_json(&bad.content);
                bad_got = json!({"isError": is_error, "content": norm_contents(&content)});
                summary.insert(
                    "badCall".into(),
                    json!({"isError": is_error, "content": content}),
                );
                if !is_error && opts.expect_bad_text.is_none() {
                    errors.push("bad call did not return isError: true".into());
                }
            }
            Err(ServiceError::McpError(e)) => {
                bad_got = json!({"jsonrpcError": {"code": e.code.0, "message": e.message}});
                summary.insert("badCall".into(), bad_got.clone());
                if opts.expect_bad_text.is_none() {
                    errors.push(format!(
                        "bad call raised {} instead of returning isError: true",
                        describe_error(&e)
                    ));
                }
            }
            Err(e) => return Err(e),
        }
        if let Some(want) = &opts.expect_bad_text {
            let what = format!("tools/call {} (bad args)", opts.tool);
            let want = json!({"isError": true, "content": [{"type": "text", "text": want}]});
            check(errors, &what, &want, &bad_got);
        }

        if let Some(name) = &opts.progress_tool {
            step = format!("tools/call {name} (progress)");
            progress_token =
                Some(progress_call(opts, &client, handler, name, summary, errors).await?);
        }

        if !opts.skip_lists {
            if caps.resources.is_some() {
                step = "resources/list".into();
                let resources: Vec<String> = client
                    .list_all_resources()
                    .await?
                    .into_iter()
                    .map(|r| r.uri.clone())
                    .collect();
                step = "resources/templates/list".into();
                let templates: Vec<String> = client
                    .list_all_resource_templates()
                    .await?
                    .into_iter()
                    .map(|t| t.uri_template.clone())
                    .collect();
                summary.insert("resources".into(), json!(resources));
                summary.insert("resourceTemplates".into(), json!(templates));
                let mut read = Map::new();
                for uri in resources.iter().chain(opts.read.iter()) {
                    step = format!("resources/read {uri}");
                    let contents = client
                        .read_resource(ReadResourceRequestParams::new(uri.clone()))
                        .await?
                        .contents;
                    if contents.is_empty() {
                        errors.push(format!("{step}: empty contents"));
                    }
                    let kinds: Vec<&str> = contents
                        .iter()
                        .map(|c| match c {
                            ResourceContents::TextResourceContents { .. } => "text",
                            _ => "blob",
                        })
                        .collect();
                    read.insert(uri.clone(), json!(kinds));
                    if let Some(expected) = &opts.expect_read {
                        let got: Vec<Value> = contents
                            .iter()
                            .map(|c| pick(&to_json(c), &["uri", "mimeType", "text", "blob"]).into())
                            .collect();
                        let want = expected.get(uri).cloned().unwrap_or_default();
                        check(errors, &step, &want, &json!(got));
                    }
                }
                // An expected resource that was neither listed nor asked for is a failure too.
                for (uri, want) in opts.expect_read.iter().flatten() {
                    if !read.contains_key(uri) {
                        check(errors, &format!("resources/read {uri}"), want, &Value::Null);
                    }
                }
                summary.insert("read".into(), Value::Object(read));
            } else if !opts.read.is_empty() || opts.expect_read.is_some() {
                errors.push("resources to read, but the server advertises no resources".into());
            }
            if caps.prompts.is_some() {
                step = "prompts/list".into();
                let prompts: Vec<String> = client
                    .list_all_prompts()
                    .await?
                    .into_iter()
                    .map(|p| p.name)
                    .collect();
                summary.insert("prompts".into(), json!(prompts));
                if let Some(name) = &opts.prompt {
                    step = format!("prompts/get {name}");
                    let got = client
                        .get_prompt(
                            GetPromptRequestParams::new(name.clone())
                                .with_arguments(opts.prompt_args.clone()),
                        )
                        .await?;
                    let messages: Vec<Value> = got
                        .messages
                        .iter()
                        .map(|m| {
                            let m = to_json(m);
                            let mut out = norm_content(&m["content"]);
                            out["role"] = m["role"].clone();
                            out
                        })
                        .collect();
                    if messages.is_empty() {
                        errors.push(format!("{step}: no messages"));
                    }
                    let kinds: Vec<Value> = messages
                        .iter()
                        .map(|m| json!({"role": m["role"], "type": m["type"]}))
                        .collect();
                    summary.insert("prompt".into(), json!(kinds));
                    if let Some(want) = &opts.expect_prompt {
                        check(errors, &step, want, &json!(messages));
                    }
                }
            } else if opts.prompt.is_some() {
                errors.push("a prompt to get, but the server advertises no prompts".into());
            }
            if let Some((prompt, argument, value)) = &opts.complete {
                step = format!("completion/complete {prompt}:{argument}:{value}");
                if caps.completions.is_none() {
                    errors.push(
                        "a completion to ask for, but the server advertises no completions".into(),
                    );
                }
                let values = client
                    .complete_prompt_simple(prompt.clone(), argument.clone(), value.clone())
                    .await?;
                if values.is_empty() {
                    errors.push(format!("{step}: no values"));
                }
                summary.insert("completion".into(), json!(values));
                if let Some(want) = &opts.expect_completion {
                    check(errors, &step, want, &json!(values));
                }
            }
        }
        if let Some(want) = &opts.expect_skills {
            step = "skills".into();
            skills(&client, &caps, want, &mut step, summary, errors).await?;
        }
        Ok(())
    }
    .await;
    if let Err(e) = outcome {
        errors.push(format!("{step}: {}", describe(&e)));
    }
    // The spec says progress stops once the result is sent: give stragglers for our token a
    // moment to arrive, then count them (anything counted here came after the result).
    if let Some(token) = &progress_token {
        tokio::time::sleep(Duration::from_millis(100)).await;
        let all = handler.progress();
        let for_token = all.iter().filter(|p| &p.progress_token == token).count();
        let before = summary
            .get("progress")
            .and_then(Value::as_array)
            .map_or(0, Vec::len);
        if for_token > before {
            errors.push(format!(
                "progress call to {}: {} notifications/progress arrived after the result",
                opts.progress_tool.as_deref().unwrap_or_default(),
                for_token - before
            ));
        }
    }
    if let Err(e) = client.cancel().await {
        eprintln!("[rmcp-client] close: {e}");
    }
}

fn main() -> ExitCode {
    let opts = parse_args();
    let runtime = match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("beam-mcp-interop-rmcp: tokio runtime: {e}");
            return ExitCode::from(1);
        }
    };
    let rmcp_version = ClientConfig::default().client_info.version;
    let mut summary = Map::new();
    summary.insert("client".into(), json!(format!("rmcp {rmcp_version}")));
    summary.insert("requestedRevision".into(), json!(opts.revision));
    let task = runtime.spawn(async move {
        let mut errors = Vec::new();
        let handler = Handler::default();
        let deadline = opts.timeout;
        let run = run(&opts, &handler, &mut summary, &mut errors);
        if tokio::time::timeout(deadline, run).await.is_err() {
            errors.push(format!("timed out after {}s", deadline.as_secs_f64()));
        }
        (summary, errors)
    });
    let (mut summary, errors) = match runtime.block_on(task) {
        Ok(done) => done,
        Err(e) => {
            let mut summary = Map::new();
            summary.insert("client".into(), json!(format!("rmcp {rmcp_version}")));
            (summary, vec![format!("client task failed: {e}")])
        }
    };
    // Dropping the runtime kills the server process if it is still running.
    drop(runtime);
    summary.insert("ok".into(), json!(errors.is_empty()));
    summary.insert("errors".into(), json!(errors));
    println!("{}", Value::Object(summary));
    if errors.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}

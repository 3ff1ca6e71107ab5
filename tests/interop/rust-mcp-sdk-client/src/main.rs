//! Interop client: rust-mcp-sdk (crates.io) against a stdio or Streamable HTTP MCP server.
//!
//! Both majors live in this one binary (Cargo.toml renames them): rust-mcp-sdk 1.x speaks MCP
//! 2025-11-25 only (`initialize`, sessions) and 2.x speaks 2026-07-28 only (per-request `_meta`,
//! no `initialize`, no sessions); neither has an `auto` mode. `--revision` picks the major.
//!
//! Does what a new user would: spawn the server with `StdioTransport::create_with_server_launch`
//! (or, with `--url`, connect with `client_runtime::with_transport_options` and the default
//! `RequestOptions`: rust-mcp-transport's Streamable HTTP client on reqwest), start the client
//! runtime, list tools, call one tool with good arguments, call it with bad arguments (expects a
//! `CallToolResult` with `isError: true`, not a JSON-RPC error), list and read resources and get
//! a prompt when the server advertises them, complete a prompt argument, and optionally call a
//! tool that reports progress. Prints one JSON summary line on stdout; exit 0 = every check
//! passed, 1 = a check failed, 2 = usage error.
//!
//! The `--expect-*` options pin exact values (the negotiated version, the call's text and
//! structuredContent, the bad call's tool error, each read resource's contents, the prompt's
//! messages, the completion values); a difference is an error "<check> mismatch: expected E, got
//! A" (run.sh's negative control looks for it). A capability the requested steps need is required.
//!
//! Revisions (`--revision`):
//!   2025-11-25  rust-mcp-sdk 1.x: `client.start()` sends `initialize` offering
//!               `LATEST_PROTOCOL_VERSION` (2025-11-25), checks the answer with
//!               `ensure_server_protocol_compatibility` (an older server version is accepted) and
//!               sends `notifications/initialized`; over HTTP it also opens the GET stream. The
//!               negotiated version is `server_info().protocol_version`. No `logging/setLevel`:
//!               the SDK's examples call it, if at all, after their tool calls.
//!   2026-07-28  rust-mcp-sdk 2.x: `client.start()` sends nothing; every request carries
//!               `_meta` {protocolVersion 2026-07-28, clientCapabilities, clientInfo}. The
//!               client asks `server/discover` (`request_discover`, as the SDK's examples say to
//!               learn the server's identity and capabilities); the version is 2026-07-28 when
//!               the server lists it in `supportedVersions`, and missing otherwise. Calls go
//!               through `ClientRuntime::call_tool` / `get_prompt` / `read_resource` (the
//!               input_required-aware ones) and the `list_all_*` helpers.
//!
//! Progress (`--progress-tool NAME --progress-args JSON`): the call carries
//! `_meta.progressToken`; `ClientHandler::handle_progress_notification` records every
//! `notifications/progress`. 1.x: `request_tool_call` with `CallToolMeta { progress_token }`.
//! 2.x: its request helpers replace `_meta` with their own (dropping a progressToken), so the call
//! goes out through `McpClient::send` with the `_meta` those helpers build plus the token. The
//! check fails unless at least one notification for the token arrived before the result, the
//! values strictly increase, and none arrives after the result. Over Streamable HTTP both majors
//! handle only the first message of a POST's SSE stream, so a call answered with notifications
//! before its result times out (tests/interop/README.md, "Known client bugs"); `--request-timeout`
//! shortens the wait.
//!
//! The server's stderr: rust-mcp-sdk pipes it and hands each line to
//! `ClientHandler::handle_process_error`; this client prints them to its stderr.
//!
//! Example:
//!   beam-mcp-interop-rust-mcp-sdk --revision 2026-07-28 --tool get_weather \
//!       --args '{"place":"Paris"}' --bad-args '{"place":42}' -- path/to/server
//!   beam-mcp-interop-rust-mcp-sdk --revision 2025-11-25 --url http://127.0.0.1:8080/mcp

use std::{
    collections::{BTreeMap, HashMap},
    process::ExitCode,
    sync::{Arc, Mutex, PoisonError},
    time::Duration,
};

use serde_json::{Map, Value, json};

type JsonObject = Map<String, Value>;

const REVISIONS: [&str; 2] = ["2025-11-25", "2026-07-28"];
/// The pins of Cargo.toml (`rmsdk1`, `rmsdk2`): the summary's `client`, and the clientInfo.
const SDK1_VERSION: &str = "1.1.0";
const SDK2_VERSION: &str = "2.0.0";
const CLIENT_NAME: &str = "beam-mcp-interop-rust-mcp-sdk";
/// What the Python SDK's `get_default_environment()` passes on POSIX (and the TS SDK too).
const SAFE_ENV: [&str; 6] = ["HOME", "LOGNAME", "PATH", "SHELL", "TERM", "USER"];
/// The `_meta.progressToken` of the progress call.
const PROGRESS_TOKEN: &str = "rust-mcp-sdk-progress-1";

const USAGE: &str = "usage: beam-mcp-interop-rust-mcp-sdk [--revision 2025-11-25|2026-07-28] [--expect-version V]
  [--tool NAME] [--args JSON] [--bad-args JSON] [--skip-lists]
  [--read URI ...] [--prompt NAME --prompt-args JSON] [--complete PROMPT:ARG:VALUE]
  [--expect-text S] [--expect-structured JSON] [--expect-bad-text S] [--expect-read {\"URI\": CONTENTS}]
  [--expect-prompt MESSAGES] [--expect-completion VALUES]
  [--progress-tool NAME [--progress-args JSON]]
  [--timeout SECS] [--request-timeout SECS] [--cwd DIR] [--env K=V ...] [--inherit-env]
  (-- SERVER_CMD [ARGS...] | --url URL)";

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
    skip_lists: bool,
    read: Vec<String>,
    prompt: Option<String>,
    prompt_args: BTreeMap<String, String>,
    complete: Option<(String, String, String)>,
    progress_tool: Option<String>,
    progress_args: JsonObject,
    /// The whole run's deadline.
    timeout: Duration,
    /// The SDK's own per-request timeout (`TransportOptions::timeout`,
    /// `RequestOptions::request_timeout`); the SDK's default (60 s) when absent.
    request_timeout: Option<Duration>,
    cwd: Option<String>,
    env: Vec<(String, String)>,
    inherit_env: bool,
    command: Vec<String>,
    /// A Streamable HTTP endpoint instead of a server command.
    url: Option<String>,
}

fn usage_error(msg: &str) -> ! {
    eprintln!("beam-mcp-interop-rust-mcp-sdk: {msg}\n{USAGE}");
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

fn seconds(flag: &str, text: &str) -> Duration {
    match text.parse::<f64>() {
        Ok(s) if s > 0.0 && s.is_finite() => Duration::from_secs_f64(s),
        _ => usage_error(&format!("{flag} must be a positive number of seconds")),
    }
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
        skip_lists: false,
        read: Vec::new(),
        prompt: None,
        prompt_args: BTreeMap::new(),
        complete: None,
        progress_tool: None,
        progress_args: JsonObject::new(),
        timeout: Duration::from_secs(30),
        request_timeout: None,
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
            "--skip-lists" => opts.skip_lists = true,
            "--read" => opts.read.push(value()),
            "--prompt" => opts.prompt = Some(value()),
            "--prompt-args" => {
                // prompts/get takes string arguments only (both SDKs: BTreeMap<String, String>).
                opts.prompt_args = json_object("--prompt-args", &value())
                    .into_iter()
                    .map(|(k, v)| match v {
                        Value::String(s) => (k, s),
                        _ => usage_error("--prompt-args values must be strings"),
                    })
                    .collect();
            }
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
            "--timeout" => opts.timeout = seconds("--timeout", &value()),
            "--request-timeout" => {
                opts.request_timeout = Some(seconds("--request-timeout", &value()))
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
            "--revision must be one of {} (rust-mcp-sdk has no auto mode)",
            REVISIONS.join(", ")
        ));
    }
    match (opts.command.is_empty(), opts.url.is_some()) {
        (true, false) => usage_error("no server (give it after --, or --url)"),
        (false, true) => usage_error("give either --url or a server command, not both"),
        _ => {}
    }
    if opts.expect_version.is_none() {
        opts.expect_version = Some(opts.revision.clone());
    }
    opts
}

/// What rust-mcp-sdk reports back, recorded by both majors' handlers.
#[derive(Clone, Default)]
struct Recorder {
    /// Every `notifications/progress`, as JSON, in the order the SDK delivers them.
    progress: Arc<Mutex<Vec<Value>>>,
    /// How many `notifications/message` arrived (not checked: reported in the summary).
    logs: Arc<Mutex<usize>>,
}

impl Recorder {
    fn progress(&self) -> Vec<Value> {
        self.progress
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    fn record_progress(&self, params: Value) {
        self.progress
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(params);
    }

    fn record_log(&self) {
        *self.logs.lock().unwrap_or_else(PoisonError::into_inner) += 1;
    }

    fn logs(&self) -> usize {
        *self.logs.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// How a request failed: a JSON-RPC error answer, or anything else (transport, timeout, parse).
enum Failure {
    Rpc {
        code: i64,
        message: String,
        data: Option<Value>,
    },
    Other(String),
}

impl Failure {
    fn describe(&self) -> String {
        match self {
            Failure::Rpc {
                code,
                message,
                data,
            } => {
                let mut s = format!("JSON-RPC error {code}: {message}");
                if let Some(data) = data {
                    s.push_str(&format!(" data={data}"));
                }
                s
            }
            Failure::Other(s) => s.clone(),
        }
    }
}

/// What the server said about itself when the client connected.
struct Info {
    /// The negotiated protocol version (None: the client could not settle on one).
    protocol_version: Option<String>,
    server_info: Value,
    capabilities: Value,
}

/// The steps, as each major does them with its own types; results come back as their JSON.
trait Session {
    fn info(&self) -> &Info;
    async fn list_tools(&self) -> Result<Vec<String>, Failure>;
    /// The `CallToolResult` as JSON.
    async fn call_tool(&self, name: &str, args: &JsonObject) -> Result<Value, Failure>;
    /// The same with `_meta.progressToken` = `token`.
    async fn call_tool_with_progress(
        &self,
        name: &str,
        args: &JsonObject,
        token: &str,
    ) -> Result<Value, Failure>;
    async fn list_resources(&self) -> Result<Vec<String>, Failure>;
    async fn list_resource_templates(&self) -> Result<Vec<String>, Failure>;
    /// The `contents` of `resources/read`, each as JSON.
    async fn read_resource(&self, uri: &str) -> Result<Vec<Value>, Failure>;
    async fn list_prompts(&self) -> Result<Vec<String>, Failure>;
    /// The `messages` of `prompts/get`, each as JSON.
    async fn get_prompt(
        &self,
        name: &str,
        args: &BTreeMap<String, String>,
    ) -> Result<Vec<Value>, Failure>;
    async fn complete_prompt(
        &self,
        prompt: &str,
        argument: &str,
        value: &str,
    ) -> Result<Vec<String>, Failure>;
    async fn close(&self);
}

fn to_json<T: serde::Serialize + ?Sized>(value: &T) -> Value {
    serde_json::to_value(value).unwrap_or_else(|e| json!(format!("<unserializable: {e}>")))
}

/// The server's stderr lines, as rust-mcp-sdk hands them over (it pipes the child's stderr).
fn server_stderr(line: &str) {
    eprintln!("{line}");
}

/// A long listing stops here: past it, the server's cursors go round in circles.
const MAX_PAGES: usize = 100;

/// rust-mcp-sdk 1.x: MCP 2025-11-25.
mod v1 {
    use super::*;
    use async_trait::async_trait;
    use rmsdk1::{
        McpClient, RequestOptions, StdioTransport, StreamableTransportOptions, ToMcpClientHandler,
        TransportOptions,
        error::McpSdkError,
        mcp_client::{ClientHandler, ClientRuntime, McpClientOptions, client_runtime},
        schema::{
            CallToolMeta, CallToolRequestParams, ClientCapabilities, CompleteRequestArgument,
            CompleteRequestParams, CompleteRequestRef, GetPromptRequestParams, Implementation,
            InitializeRequestParams, LATEST_PROTOCOL_VERSION, LoggingMessageNotificationParams,
            PaginatedRequestParams, ProgressNotificationParams, ProgressToken, PromptReference,
            ReadResourceRequestParams, RpcError,
        },
    };

    struct Handler(Recorder);

    #[async_trait]
    impl ClientHandler for Handler {
        async fn handle_progress_notification(
            &self,
            params: ProgressNotificationParams,
            _runtime: &dyn McpClient,
        ) -> std::result::Result<(), RpcError> {
            self.0.record_progress(to_json(&params));
            Ok(())
        }

        async fn handle_logging_message_notification(
            &self,
            _params: LoggingMessageNotificationParams,
            _runtime: &dyn McpClient,
        ) -> std::result::Result<(), RpcError> {
            self.0.record_log();
            Ok(())
        }

        async fn handle_process_error(
            &self,
            error_message: String,
            _runtime: &dyn McpClient,
        ) -> std::result::Result<(), RpcError> {
            server_stderr(&error_message);
            Ok(())
        }
    }

    fn failure(e: McpSdkError) -> Failure {
        match e {
            McpSdkError::RpcError(e) => Failure::Rpc {
                code: e.code,
                message: e.message,
                data: e.data,
            },
            other => Failure::Other(other.to_string()),
        }
    }

    pub(super) struct V1 {
        client: Arc<ClientRuntime>,
        info: Info,
    }

    pub(super) async fn connect(opts: &Opts, recorder: Recorder) -> Result<V1, Failure> {
        let client_details = InitializeRequestParams {
            capabilities: ClientCapabilities::default(),
            client_info: Implementation {
                name: CLIENT_NAME.into(),
                version: SDK1_VERSION.into(),
                title: None,
                description: None,
                icons: vec![],
                website_url: None,
            },
            protocol_version: LATEST_PROTOCOL_VERSION.into(),
            meta: None,
        };
        let handler = Handler(recorder);
        let client = if let Some(url) = &opts.url {
            let mut request_options = RequestOptions::default();
            if let Some(t) = opts.request_timeout {
                request_options.request_timeout = t;
            }
            let transport_options = StreamableTransportOptions {
                mcp_url: url.clone(),
                request_options,
            };
            client_runtime::with_transport_options(
                client_details,
                transport_options,
                handler,
                None,
                None,
                None,
            )
        } else {
            let mut options = TransportOptions::default();
            if let Some(t) = opts.request_timeout {
                options.timeout = t;
            }
            let env: Option<HashMap<String, String>> =
                (!opts.env.is_empty()).then(|| opts.env.iter().cloned().collect());
            let transport = StdioTransport::create_with_server_launch(
                opts.command[0].clone(),
                opts.command[1..].to_vec(),
                env,
                options,
            )
            .map_err(|e| Failure::Other(format!("spawn {}: {e}", opts.command[0])))?;
            client_runtime::create_client(McpClientOptions {
                client_details,
                transport,
                handler: handler.to_mcp_client_handler(),
                task_store: None,
                server_task_store: None,
                message_observer: None,
            })
        };
        client.clone().start().await.map_err(failure)?;
        let info = match client.server_info() {
            Some(result) => Info {
                protocol_version: Some(result.protocol_version.clone()),
                server_info: to_json(&result.server_info),
                capabilities: to_json(&result.capabilities),
            },
            None => {
                return Err(Failure::Other(
                    "started, but rust-mcp-sdk reports no server info".into(),
                ));
            }
        };
        Ok(V1 { client, info })
    }

    fn page(cursor: &Option<String>) -> Option<PaginatedRequestParams> {
        cursor.as_ref().map(|c| PaginatedRequestParams {
            cursor: Some(c.clone()),
            meta: None,
        })
    }

    /// Follows `nextCursor` from the first page (no params) on.
    macro_rules! list_all {
        ($self:ident, $method:ident, $items:ident, $key:expr) => {{
            let mut cursor: Option<String> = None;
            let mut all = Vec::new();
            for _ in 0..MAX_PAGES {
                let result = $self.client.$method(page(&cursor)).await.map_err(failure)?;
                all.extend(result.$items.into_iter().map($key));
                match result.next_cursor {
                    Some(c) if !c.is_empty() => cursor = Some(c),
                    _ => return Ok(all),
                }
            }
            Err(Failure::Other(format!("more than {MAX_PAGES} pages")))
        }};
    }

    impl Session for V1 {
        fn info(&self) -> &Info {
            &self.info
        }

        async fn list_tools(&self) -> Result<Vec<String>, Failure> {
            list_all!(self, request_tool_list, tools, |t| t.name)
        }

        async fn call_tool(&self, name: &str, args: &JsonObject) -> Result<Value, Failure> {
            let params = CallToolRequestParams {
                name: name.into(),
                arguments: Some(args.clone()),
                meta: None,
                task: None,
            };
            let result = self
                .client
                .request_tool_call(params)
                .await
                .map_err(failure)?;
            Ok(to_json(&result))
        }

        async fn call_tool_with_progress(
            &self,
            name: &str,
            args: &JsonObject,
            token: &str,
        ) -> Result<Value, Failure> {
            let params = CallToolRequestParams {
                name: name.into(),
                arguments: Some(args.clone()),
                meta: Some(CallToolMeta {
                    progress_token: Some(ProgressToken::String(token.into())),
                    extra: None,
                }),
                task: None,
            };
            let result = self
                .client
                .request_tool_call(params)
                .await
                .map_err(failure)?;
            Ok(to_json(&result))
        }

        async fn list_resources(&self) -> Result<Vec<String>, Failure> {
            list_all!(self, request_resource_list, resources, |r| r.uri)
        }

        async fn list_resource_templates(&self) -> Result<Vec<String>, Failure> {
            list_all!(
                self,
                request_resource_template_list,
                resource_templates,
                |t| t.uri_template
            )
        }

        async fn read_resource(&self, uri: &str) -> Result<Vec<Value>, Failure> {
            let params = ReadResourceRequestParams {
                uri: uri.into(),
                meta: None,
            };
            let result = self
                .client
                .request_resource_read(params)
                .await
                .map_err(failure)?;
            Ok(result.contents.iter().map(to_json).collect())
        }

        async fn list_prompts(&self) -> Result<Vec<String>, Failure> {
            list_all!(self, request_prompt_list, prompts, |p| p.name)
        }

        async fn get_prompt(
            &self,
            name: &str,
            args: &BTreeMap<String, String>,
        ) -> Result<Vec<Value>, Failure> {
            let params = GetPromptRequestParams {
                name: name.into(),
                arguments: Some(args.clone()),
                meta: None,
            };
            let result = self.client.request_prompt(params).await.map_err(failure)?;
            Ok(result.messages.iter().map(to_json).collect())
        }

        async fn complete_prompt(
            &self,
            prompt: &str,
            argument: &str,
            value: &str,
        ) -> Result<Vec<String>, Failure> {
            let params = CompleteRequestParams {
                argument: CompleteRequestArgument {
                    name: argument.into(),
                    value: value.into(),
                },
                context: None,
                meta: None,
                ref_: CompleteRequestRef::PromptReference(PromptReference::new(
                    prompt.into(),
                    None,
                )),
            };
            let result = self
                .client
                .request_completion(params)
                .await
                .map_err(failure)?;
            Ok(result.completion.values)
        }

        async fn close(&self) {
            if let Err(e) = self.client.shut_down().await {
                eprintln!("[rust-mcp-sdk client] shut down: {e}");
            }
        }
    }
}

/// rust-mcp-sdk 2.x: MCP 2026-07-28.
mod v2 {
    use super::*;
    use async_trait::async_trait;
    use rmsdk2::{
        ClientDetails, McpClient, RequestOptions, StdioTransport, StreamableTransportOptions,
        ToMcpClientHandler, TransportOptions,
        error::McpSdkError,
        mcp_client::{ClientHandler, ClientRuntime, McpClientOptions, client_runtime},
        schema::{
            CallToolRequestParams, ClientCapabilities, CompleteRequestArgument,
            CompleteRequestParams, CompleteRequestRef, GetPromptRequestParams, Implementation,
            LoggingMessageNotificationParams, McpMessage, MessageFromClient,
            ProgressNotificationParams, ProgressToken, PromptReference, ProtocolVersion,
            ReadResourceRequestParams, RequestFromClient, RequestMetaObject, RequestParams,
            RpcError, ServerResult,
        },
    };

    struct Handler(Recorder);

    #[async_trait]
    impl ClientHandler for Handler {
        async fn handle_progress_notification(
            &self,
            params: ProgressNotificationParams,
            _runtime: &dyn McpClient,
        ) -> std::result::Result<(), RpcError> {
            self.0.record_progress(to_json(&params));
            Ok(())
        }

        async fn handle_logging_message_notification(
            &self,
            _params: LoggingMessageNotificationParams,
            _runtime: &dyn McpClient,
        ) -> std::result::Result<(), RpcError> {
            self.0.record_log();
            Ok(())
        }

        async fn handle_process_error(
            &self,
            error_message: String,
            _runtime: &dyn McpClient,
        ) -> std::result::Result<(), RpcError> {
            server_stderr(&error_message);
            Ok(())
        }
    }

    fn failure(e: McpSdkError) -> Failure {
        match e {
            McpSdkError::RpcError(e) => Failure::Rpc {
                code: e.code,
                message: e.message,
                data: e.data,
            },
            other => Failure::Other(other.to_string()),
        }
    }

    fn rpc(e: RpcError) -> Failure {
        Failure::Rpc {
            code: e.code,
            message: e.message,
            data: e.data,
        }
    }

    pub(super) struct V2 {
        client: Arc<ClientRuntime>,
        info: Info,
    }

    pub(super) async fn connect(
        opts: &Opts,
        recorder: Recorder,
        errors: &mut Vec<String>,
    ) -> Result<V2, Failure> {
        let client_details = ClientDetails {
            client_info: Implementation {
                name: CLIENT_NAME.into(),
                version: SDK2_VERSION.into(),
                title: None,
                description: None,
                icons: vec![],
                website_url: None,
            },
            capabilities: ClientCapabilities::default(),
        };
        let handler = Handler(recorder);
        let client = if let Some(url) = &opts.url {
            let mut request_options = RequestOptions::default();
            if let Some(t) = opts.request_timeout {
                request_options.request_timeout = t;
            }
            let transport_options = StreamableTransportOptions {
                mcp_url: url.clone(),
                request_options,
            };
            client_runtime::with_transport_options(client_details, transport_options, handler, None)
        } else {
            let mut options = TransportOptions::default();
            if let Some(t) = opts.request_timeout {
                options.timeout = t;
            }
            let env: Option<HashMap<String, String>> =
                (!opts.env.is_empty()).then(|| opts.env.iter().cloned().collect());
            let transport = StdioTransport::create_with_server_launch(
                opts.command[0].clone(),
                opts.command[1..].to_vec(),
                env,
                options,
            )
            .map_err(|e| Failure::Other(format!("spawn {}: {e}", opts.command[0])))?;
            client_runtime::create_client(McpClientOptions::new(
                client_details,
                transport,
                handler.to_mcp_client_handler(),
            ))
        };
        client.clone().start().await.map_err(failure)?;
        let discover = client
            .request_discover(RequestParams::default())
            .await
            .map_err(|e| Failure::Other(format!("server/discover: {}", failure(e).describe())))?;
        let ours = ProtocolVersion::latest().to_string();
        let protocol_version = if discover.supported_versions.contains(&ours) {
            Some(ours)
        } else {
            errors.push(format!(
                "server/discover: supportedVersions {} lacks {ours}, the only version rust-mcp-sdk {SDK2_VERSION} speaks",
                to_json(&discover.supported_versions)
            ));
            None
        };
        let meta = to_json(&discover.meta);
        let info = Info {
            protocol_version,
            server_info: meta["io.modelcontextprotocol/serverInfo"].clone(),
            capabilities: to_json(&discover.capabilities),
        };
        Ok(V2 { client, info })
    }

    impl Session for V2 {
        fn info(&self) -> &Info {
            &self.info
        }

        async fn list_tools(&self) -> Result<Vec<String>, Failure> {
            let tools = self
                .client
                .list_all_tools(None, Some(MAX_PAGES))
                .await
                .map_err(failure)?;
            Ok(tools.into_iter().map(|t| t.name).collect())
        }

        async fn call_tool(&self, name: &str, args: &JsonObject) -> Result<Value, Failure> {
            let params = CallToolRequestParams {
                name: name.into(),
                arguments: Some(args.clone()),
                // request() puts the SDK's own _meta here.
                meta: RequestMetaObject::default(),
                input_responses: None,
                request_state: None,
            };
            let result = self.client.call_tool(params).await.map_err(failure)?;
            Ok(to_json(&result))
        }

        async fn call_tool_with_progress(
            &self,
            name: &str,
            args: &JsonObject,
            token: &str,
        ) -> Result<Value, Failure> {
            // The `_meta` McpClient::request builds, plus the progress token.
            let details = self.client.client_details();
            let meta = RequestMetaObject::new(
                ProtocolVersion::latest().to_string(),
                details.capabilities.clone(),
            )
            .with_client_info(details.client_info.clone())
            .with_progress_token(ProgressToken::String(token.into()));
            let params = CallToolRequestParams {
                name: name.into(),
                arguments: Some(args.clone()),
                meta,
                input_responses: None,
                request_state: None,
            };
            let request =
                MessageFromClient::RequestFromClient(RequestFromClient::CallToolRequest(params));
            let message = self
                .client
                .send(request, None, None)
                .await
                .map_err(failure)?
                .ok_or_else(|| Failure::Other("no response".into()))?;
            if message.is_error() {
                let error = message
                    .as_error()
                    .map_err(|e| Failure::Other(e.to_string()))?;
                return Err(rpc(error.error));
            }
            let response = message
                .as_response()
                .map_err(|e| Failure::Other(e.to_string()))?;
            match response.result {
                ServerResult::CallToolResult(result) => Ok(to_json(&result)),
                other => Err(Failure::Other(format!(
                    "unexpected result {}",
                    to_json(&other)
                ))),
            }
        }

        async fn list_resources(&self) -> Result<Vec<String>, Failure> {
            let resources = self
                .client
                .list_all_resources(None, Some(MAX_PAGES))
                .await
                .map_err(failure)?;
            Ok(resources.into_iter().map(|r| r.uri).collect())
        }

        async fn list_resource_templates(&self) -> Result<Vec<String>, Failure> {
            let templates = self
                .client
                .list_all_resource_templates(None, Some(MAX_PAGES))
                .await
                .map_err(failure)?;
            Ok(templates.into_iter().map(|t| t.uri_template).collect())
        }

        async fn read_resource(&self, uri: &str) -> Result<Vec<Value>, Failure> {
            let params = ReadResourceRequestParams {
                uri: uri.into(),
                meta: RequestMetaObject::default(),
                input_responses: None,
                request_state: None,
            };
            let result = self.client.read_resource(params).await.map_err(failure)?;
            Ok(result.contents.iter().map(to_json).collect())
        }

        async fn list_prompts(&self) -> Result<Vec<String>, Failure> {
            let prompts = self
                .client
                .list_all_prompts(None, Some(MAX_PAGES))
                .await
                .map_err(failure)?;
            Ok(prompts.into_iter().map(|p| p.name).collect())
        }

        async fn get_prompt(
            &self,
            name: &str,
            args: &BTreeMap<String, String>,
        ) -> Result<Vec<Value>, Failure> {
            let params = GetPromptRequestParams {
                name: name.into(),
                arguments: Some(args.clone()),
                meta: RequestMetaObject::default(),
                input_responses: None,
                request_state: None,
            };
            let result = self.client.get_prompt(params).await.map_err(failure)?;
            Ok(result.messages.iter().map(to_json).collect())
        }

        async fn complete_prompt(
            &self,
            prompt: &str,
            argument: &str,
            value: &str,
        ) -> Result<Vec<String>, Failure> {
            let params = CompleteRequestParams {
                argument: CompleteRequestArgument {
                    name: argument.into(),
                    value: value.into(),
                },
                context: None,
                meta: RequestMetaObject::default(),
                ref_: CompleteRequestRef::PromptReference(PromptReference::new(
                    prompt.into(),
                    None,
                )),
            };
            let result = self
                .client
                .request_completion(params)
                .await
                .map_err(failure)?;
            Ok(result.completion.values)
        }

        async fn close(&self) {
            if let Err(e) = self.client.shut_down().await {
                eprintln!("[rust-mcp-sdk client] shut down: {e}");
            }
        }
    }
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

/// A call's result as the summary shows it.
fn call_json(result: &Value) -> Value {
    let mut call = Map::new();
    call.insert("isError".into(), json!(result["isError"] == json!(true)));
    call.insert("content".into(), result["content"].clone());
    if let Some(structured) = result.get("structuredContent") {
        call.insert("structuredContent".into(), structured.clone());
    }
    Value::Object(call)
}

fn has_capability(info: &Info, name: &str) -> bool {
    info.capabilities.get(name).is_some_and(|c| !c.is_null())
}

/// Calls `--progress-tool` with a progress token and checks the notifications.
async fn progress_call<S: Session>(
    opts: &Opts,
    session: &S,
    recorder: &Recorder,
    name: &str,
    summary: &mut Map<String, Value>,
    errors: &mut Vec<String>,
) -> Result<(), Failure> {
    let token = json!(PROGRESS_TOKEN);
    summary.insert("progressToken".into(), token.clone());
    let logs_before = recorder.logs();
    let outcome = session
        .call_tool_with_progress(name, &opts.progress_args, PROGRESS_TOKEN)
        .await;
    // Snapshot before any further await: what arrived before the result.
    let before: Vec<Value> = recorder
        .progress()
        .into_iter()
        .filter(|p| p["progressToken"] == token)
        .collect();
    let values: Vec<f64> = before
        .iter()
        .filter_map(|p| p["progress"].as_f64())
        .collect();
    let result = match outcome {
        Ok(result) => result,
        Err(e) => {
            // What the SDK handed over before the call failed: the evidence of where it stopped.
            let logs = recorder.logs() - logs_before;
            summary.insert("progressBeforeFailure".into(), json!(values));
            summary.insert("logsBeforeFailure".into(), json!(logs));
            return Err(Failure::Other(format!(
                "{} (before it the SDK delivered {logs} notifications/message and progress {values:?})",
                e.describe()
            )));
        }
    };
    summary.insert("progress".into(), json!(values));
    if let Some(total) = before.last().and_then(|p| p.get("total")) {
        summary.insert("progressTotal".into(), total.clone());
    }
    if result["isError"] == json!(true) {
        errors.push(format!("progress call to {name} returned isError: true"));
    }
    summary.insert("progressCall".into(), call_json(&result));
    if values.is_empty() {
        errors.push(format!(
            "progress call to {name}: no notifications/progress arrived before the result (progressToken {token})"
        ));
    } else if let Some(w) = values.windows(2).find(|w| w[1] <= w[0]) {
        errors.push(format!(
            "progress call to {name}: progress did not strictly increase ({} then {}): {values:?}",
            w[0], w[1]
        ));
    }
    Ok(())
}

async fn steps<S: Session>(
    opts: &Opts,
    session: &S,
    recorder: &Recorder,
    summary: &mut Map<String, Value>,
    errors: &mut Vec<String>,
) {
    let mut step = "connect".to_owned();
    let mut progress_called = false;
    let outcome: Result<(), Failure> = async {
        let info = session.info();
        let version = info
            .protocol_version
            .as_ref()
            .map_or(Value::Null, |v| json!(v));
        summary.insert("protocolVersion".into(), version.clone());
        let era = if opts.revision == "2025-11-25" {
            "legacy"
        } else {
            "modern"
        };
        summary.insert("era".into(), json!(era));
        summary.insert("serverInfo".into(), info.server_info.clone());
        summary.insert("capabilities".into(), info.capabilities.clone());
        if let Some(expected) = &opts.expect_version {
            check(errors, "protocolVersion", &json!(expected), &version);
        }
        if !has_capability(info, "tools") {
            errors.push("the server did not advertise the tools capability".into());
        }

        step = "tools/list".into();
        let tools = session.list_tools().await?;
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
        let good = session.call_tool(&opts.tool, &opts.args).await?;
        summary.insert("call".into(), call_json(&good));
        if good["isError"] == json!(true) {
            errors.push("good call returned isError: true".into());
        }
        if let Some(want) = &opts.expect_text {
            let what = format!("tools/call {} content", opts.tool);
            let want = json!([{"type": "text", "text": want}]);
            check(errors, &what, &want, &norm_contents(&good["content"]));
        }
        if let Some(want) = &opts.expect_structured {
            let what = format!("tools/call {} structuredContent", opts.tool);
            let got = good.get("structuredContent").cloned().unwrap_or_default();
            check(errors, &what, want, &got);
        }

        step = "tools/call (bad args)".into();
        let bad_got;
        match session.call_tool(&opts.tool, &opts.bad_args).await {
            Ok(bad) => {
                let is_error = bad["isError"] == json!(true);
                bad_got = json!({"isError": is_error, "content": norm_contents(&bad["content"])});
                summary.insert(
                    "badCall".into(),
                    json!({"isError": is_error, "content": bad["content"]}),
                );
                if !is_error && opts.expect_bad_text.is_none() {
                    errors.push("bad call did not return isError: true".into());
                }
            }
            Err(Failure::Rpc {
                code,
                message,
                data,
            }) => {
                bad_got = json!({"jsonrpcError": {"code": code, "message": message}});
                summary.insert("badCall".into(), bad_got.clone());
                if opts.expect_bad_text.is_none() {
                    let e = Failure::Rpc {
                        code,
                        message,
                        data,
                    };
                    errors.push(format!(
                        "bad call raised {} instead of returning isError: true",
                        e.describe()
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
            progress_called = true;
            progress_call(opts, session, recorder, name, summary, errors).await?;
        }

        if !opts.skip_lists {
            if has_capability(info, "resources") {
                step = "resources/list".into();
                let resources = session.list_resources().await?;
                step = "resources/templates/list".into();
                let templates = session.list_resource_templates().await?;
                summary.insert("resources".into(), json!(resources));
                summary.insert("resourceTemplates".into(), json!(templates));
                let mut read = Map::new();
                for uri in resources.iter().chain(opts.read.iter()) {
                    step = format!("resources/read {uri}");
                    let contents = session.read_resource(uri).await?;
                    if contents.is_empty() {
                        errors.push(format!("{step}: empty contents"));
                    }
                    let kinds: Vec<&str> = contents
                        .iter()
                        .map(|c| {
                            if c.get("text").is_some() {
                                "text"
                            } else {
                                "blob"
                            }
                        })
                        .collect();
                    read.insert(uri.clone(), json!(kinds));
                    if let Some(expected) = &opts.expect_read {
                        let got: Vec<Value> = contents
                            .iter()
                            .map(|c| pick(c, &["uri", "mimeType", "text", "blob"]).into())
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
            if has_capability(info, "prompts") {
                step = "prompts/list".into();
                let prompts = session.list_prompts().await?;
                summary.insert("prompts".into(), json!(prompts));
                if let Some(name) = &opts.prompt {
                    step = format!("prompts/get {name}");
                    let messages: Vec<Value> = session
                        .get_prompt(name, &opts.prompt_args)
                        .await?
                        .iter()
                        .map(|m| {
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
                if !has_capability(info, "completions") {
                    errors.push(
                        "a completion to ask for, but the server advertises no completions".into(),
                    );
                }
                let values = session.complete_prompt(prompt, argument, value).await?;
                if values.is_empty() {
                    errors.push(format!("{step}: no values"));
                }
                summary.insert("completion".into(), json!(values));
                if let Some(want) = &opts.expect_completion {
                    check(errors, &step, want, &json!(values));
                }
            }
        }
        Ok(())
    }
    .await;
    if let Err(e) = outcome {
        errors.push(format!("{step}: {}", e.describe()));
    }
    // The spec says progress stops once the result is sent: give stragglers for our token a
    // moment to arrive, then count them (anything counted here came after the result).
    if progress_called && summary.contains_key("progress") {
        tokio::time::sleep(Duration::from_millis(100)).await;
        let for_token = recorder
            .progress()
            .iter()
            .filter(|p| p["progressToken"] == json!(PROGRESS_TOKEN))
            .count();
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
    summary.insert("logs".into(), json!(recorder.logs()));
    session.close().await;
}

async fn run(
    opts: &Opts,
    recorder: &Recorder,
    summary: &mut Map<String, Value>,
    errors: &mut Vec<String>,
) {
    if opts.revision == "2025-11-25" {
        match v1::connect(opts, recorder.clone()).await {
            Ok(session) => steps(opts, &session, recorder, summary, errors).await,
            Err(e) => errors.push(format!("connect: {}", e.describe())),
        }
    } else {
        match v2::connect(opts, recorder.clone(), errors).await {
            Ok(session) => steps(opts, &session, recorder, summary, errors).await,
            Err(e) => errors.push(format!("connect: {}", e.describe())),
        }
    }
}

/// rust-mcp-sdk's stdio transport passes its own environment to the server (its `env` argument
/// only adds variables) and has no working-directory option: so, before any thread starts, this
/// process keeps only SAFE_ENV (unless --inherit-env) and moves to --cwd; `--env` goes through
/// the SDK's `env` argument.
fn prepare_stdio_environment(opts: &Opts) {
    if !opts.inherit_env {
        let keep: Vec<(String, String)> = SAFE_ENV
            .iter()
            .filter_map(|&k| std::env::var(k).ok().map(|v| (k.to_owned(), v)))
            .filter(|(_, v)| !v.starts_with("()"))
            .collect();
        for (key, _) in std::env::vars_os() {
            // SAFETY: single-threaded here (no runtime, no other thread started yet).
            unsafe { std::env::remove_var(key) };
        }
        for (key, value) in keep {
            // SAFETY: as above.
            unsafe { std::env::set_var(key, value) };
        }
    }
    if let Some(dir) = &opts.cwd
        && let Err(e) = std::env::set_current_dir(dir)
    {
        usage_error(&format!("--cwd {dir}: {e}"));
    }
}

fn main() -> ExitCode {
    let opts = parse_args();
    if opts.url.is_none() {
        prepare_stdio_environment(&opts);
    }
    let sdk_version = if opts.revision == "2025-11-25" {
        SDK1_VERSION
    } else {
        SDK2_VERSION
    };
    let client = format!("rust-mcp-sdk {sdk_version}");
    let runtime = match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("beam-mcp-interop-rust-mcp-sdk: tokio runtime: {e}");
            return ExitCode::from(1);
        }
    };
    let mut summary = Map::new();
    summary.insert("client".into(), json!(client));
    summary.insert("requestedRevision".into(), json!(opts.revision));
    let task = runtime.spawn(async move {
        let mut errors = Vec::new();
        let recorder = Recorder::default();
        let deadline = opts.timeout;
        let run = run(&opts, &recorder, &mut summary, &mut errors);
        if tokio::time::timeout(deadline, run).await.is_err() {
            errors.push(format!("timed out after {}s", deadline.as_secs_f64()));
        }
        (summary, errors)
    });
    let (mut summary, errors) = match runtime.block_on(task) {
        Ok(done) => done,
        Err(e) => {
            let mut summary = Map::new();
            summary.insert("client".into(), json!(client));
            (summary, vec![format!("client task failed: {e}")])
        }
    };
    // Dropping the runtime kills the server process if it is still running (kill_on_drop).
    runtime.shutdown_timeout(Duration::from_secs(1));
    summary.insert("ok".into(), json!(errors.is_empty()));
    summary.insert("errors".into(), json!(errors));
    println!("{}", Value::Object(summary));
    if errors.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}

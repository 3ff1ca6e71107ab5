//! A typed client for a host's unit tests: it drives a built [`Server`] in process, through
//! the same core the transports use (no process, no socket), at either revision.
//!
//! ```
//! use beam_mcp::testing::TestClient;
//!
//! /// Says hello.
//! #[beam_mcp::tool]
//! fn hello(name: String) -> String {
//!     format!("Hello, {name}!")
//! }
//!
//! # #[tokio::main(flavor = "current_thread")]
//! # async fn main() -> Result<(), beam_mcp::testing::TestError> {
//! let server = beam_mcp::Server::builder().tool(hello::DEF).build().unwrap();
//! let mut client = TestClient::new(server);
//! let tools = client.list_tools().await?;
//! assert_eq!(tools[0].name, "hello");
//! let answer = client.call_tool("hello", serde_json::json!({ "name": "Ada" })).await?;
//! assert_eq!(answer.text(), "Hello, Ada!");
//! # Ok(())
//! # }
//! ```
//!
//! Every request carries a progress token and, by default, the log level `debug`, so what
//! host code reports through its [`Context`](crate::Context) is [heard](TestClient::heard) by
//! the test. An ask (elicitation, sampling, roots) is answered [`TestError::InputRequired`]:
//! the test client does not play the user.
//!
//! `TestClient` is the thin, in-process case of the crate's MCP client (`beam_mcp::client::Client`,
//! feature `client`): the same methods by the same names (`list_tools`, `call_tool`,
//! `read_resource`, `get_prompt`, `complete`, `request`, ...) answering the same result types
//! ([`ListedTool`], [`ToolOutcome`], [`PromptOutcome`], [`Completed`]), and both read a JSON-RPC
//! error's code, message and `data` the same way. What only the client has is the wire: a
//! process or an endpoint, the revision negotiated, asks answered by host handlers, time
//! limits. A test that needs those drives the server's process with the client instead.

mod outcome;

use serde_json::{Map, Value, json};

use crate::protocol::Revision;
use crate::protocol::{Outbound, Reply, Session};
use crate::{LogLevel, Server};

#[cfg_attr(not(feature = "client"), allow(unused_imports))]
pub(crate) use outcome::error_parts;
pub use outcome::{Completed, Heard, ListedTool, PromptOutcome, ToolOutcome};

/// Why a test client's request did not give the typed result.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum TestError {
    /// The server answered with a JSON-RPC error.
    #[error("the server answered error {code}: {message}")]
    Protocol {
        /// The error code (`-32602` for invalid params, ...).
        code: i64,
        /// The error message.
        message: String,
        /// The error's `data`, when there is one.
        data: Option<Value>,
    },
    /// The server asked the client for input (an `InputRequiredResult`); the requests are
    /// given as the server wrote them.
    #[error("the server asked the client for input, which the test client does not give: {0}")]
    InputRequired(Value),
    /// The server gave no answer to a request.
    #[error("the server gave no answer to {method}")]
    NoAnswer {
        /// The request's method.
        method: String,
    },
    /// The answer did not have the shape of the method's result.
    #[error("the answer to {method} is not its result: {detail}")]
    Shape {
        /// The request's method.
        method: String,
        /// What was wrong.
        detail: String,
    },
}

/// A client of one [`Server`], in process. See the [module](self) for an example.
pub struct TestClient {
    server: Server,
    session: Session,
    revision: Revision,
    log_level: Option<LogLevel>,
    next_id: u64,
    heard: Vec<Heard>,
}

impl TestClient {
    /// A client at 2026-07-28 (stateless: every request carries its revision in `_meta`).
    pub fn new(server: Server) -> Self {
        TestClient {
            server,
            session: Session::new(),
            revision: Revision::V2026_07_28,
            log_level: Some(LogLevel::Debug),
            next_id: 1,
            heard: Vec::new(),
        }
    }

    /// A client at 2025-11-25: `initialize`, `notifications/initialized`, and the log level
    /// `debug` when the server advertises logging.
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), beam_mcp::testing::TestError> {
    /// let server = beam_mcp::Server::builder().name("quiet").build().unwrap();
    /// let client = beam_mcp::testing::TestClient::legacy(server).await?;
    /// assert_eq!(client.revision(), beam_mcp::protocol::Revision::V2025_11_25);
    /// # Ok(())
    /// # }
    /// ```
    pub async fn legacy(server: Server) -> Result<Self, TestError> {
        let mut client = TestClient {
            revision: Revision::V2025_11_25,
            log_level: None,
            ..TestClient::new(server)
        };
        let params = json!({
            "protocolVersion": Revision::V2025_11_25.as_str(),
            "capabilities": {},
            "clientInfo": { "name": "beam-mcp-testing", "version": env!("CARGO_PKG_VERSION") },
        });
        let init = client.request("initialize", params).await?;
        let notification = json!({ "jsonrpc": "2.0", "method": "notifications/initialized" });
        client.send(notification).await;
        if init.pointer("/capabilities/logging").is_some() {
            client.set_log_level(Some(LogLevel::Debug)).await?;
        }
        Ok(client)
    }

    /// The revision this client speaks.
    pub fn revision(&self) -> Revision {
        self.revision
    }

    /// The log level requests ask for (`None`: no logs). At 2026-07-28 it travels in each
    /// request's `_meta`; at 2025-11-25 it is sent as `logging/setLevel`.
    pub async fn set_log_level(&mut self, level: Option<LogLevel>) -> Result<(), TestError> {
        if let (Revision::V2025_11_25, Some(level)) = (self.revision, level) {
            self.request("logging/setLevel", json!({ "level": level.as_str() }))
                .await?;
        }
        self.log_level = level;
        Ok(())
    }

    /// What the server sent besides answers, in order: progress, logs, and anything else.
    pub fn heard(&self) -> &[Heard] {
        &self.heard
    }

    /// Takes what was heard so far, leaving none.
    pub fn take_heard(&mut self) -> Vec<Heard> {
        std::mem::take(&mut self.heard)
    }

    /// Every tool, across all pages of `tools/list`.
    pub async fn list_tools(&mut self) -> Result<Vec<ListedTool>, TestError> {
        let mut tools = Vec::new();
        for item in self.list_all("tools/list", "tools").await? {
            tools.push(ListedTool::read(item).map_err(|detail| shape("tools/list", detail))?);
        }
        Ok(tools)
    }

    /// Calls a tool. A tool's own failure is `Ok` with [`ToolOutcome::is_error`]; refused
    /// arguments or an unknown tool are [`TestError::Protocol`].
    pub async fn call_tool(
        &mut self,
        name: &str,
        arguments: Value,
    ) -> Result<ToolOutcome, TestError> {
        let params = json!({ "name": name, "arguments": arguments });
        let result = self.request("tools/call", params).await?;
        ToolOutcome::read(result).map_err(|detail| shape("tools/call", detail))
    }

    /// Every resource of `resources/list` (all pages), as the server wrote them.
    pub async fn list_resources(&mut self) -> Result<Vec<Value>, TestError> {
        self.list_all("resources/list", "resources").await
    }

    /// Reads a resource: its contents, as the server wrote them (`uri`, `text` or `blob`).
    pub async fn read_resource(&mut self, uri: &str) -> Result<Vec<Value>, TestError> {
        let mut result = self
            .request("resources/read", json!({ "uri": uri }))
            .await?;
        match result.get_mut("contents").map(Value::take) {
            Some(Value::Array(contents)) => Ok(contents),
            _ => Err(shape("resources/read", "no contents array".into())),
        }
    }

    /// Renders a prompt with string arguments.
    pub async fn get_prompt<'a>(
        &mut self,
        name: &str,
        arguments: impl IntoIterator<Item = (&'a str, &'a str)>,
    ) -> Result<PromptOutcome, TestError> {
        let arguments: Map<String, Value> = arguments
            .into_iter()
            .map(|(k, v)| (k.to_owned(), Value::String(v.to_owned())))
            .collect();
        let params = json!({ "name": name, "arguments": arguments });
        let result = self.request("prompts/get", params).await?;
        PromptOutcome::read(result).map_err(|detail| shape("prompts/get", detail))
    }

    /// Completes an argument of a prompt (`reference` is `{"type": "ref/prompt", "name": ..}`)
    /// or a variable of a resource template (`{"type": "ref/resource", "uri": ..}`).
    pub async fn complete(
        &mut self,
        reference: Value,
        argument: &str,
        value: &str,
    ) -> Result<Completed, TestError> {
        let params = json!({
            "ref": reference,
            "argument": { "name": argument, "value": value },
        });
        let result = self.request("completion/complete", params).await?;
        Completed::read(result).map_err(|detail| shape("completion/complete", detail))
    }

    /// Any request: its `result`, with the revision's `_meta` (and a progress token) added
    /// to `params`.
    pub async fn request(&mut self, method: &str, params: Value) -> Result<Value, TestError> {
        let id = self.next_id;
        self.next_id += 1;
        let mut params = match params {
            Value::Object(map) => map,
            _ => Map::new(),
        };
        let meta = params
            .entry("_meta")
            .or_insert_with(|| Value::Object(Map::new()));
        if let Value::Object(meta) = meta {
            meta.entry("progressToken").or_insert(json!(id));
            if self.revision == Revision::V2026_07_28 {
                use crate::revision::{
                    META_CLIENT_CAPABILITIES, META_CLIENT_INFO, META_LOG_LEVEL,
                    META_PROTOCOL_VERSION,
                };
                meta.insert(META_PROTOCOL_VERSION.into(), json!(self.revision.as_str()));
                meta.insert(
                    META_CLIENT_INFO.into(),
                    json!({ "name": "beam-mcp-testing", "version": env!("CARGO_PKG_VERSION") }),
                );
                meta.entry(META_CLIENT_CAPABILITIES)
                    .or_insert_with(|| json!({}));
                if let Some(level) = self.log_level {
                    meta.insert(META_LOG_LEVEL.into(), json!(level.as_str()));
                }
            }
        }
        let message = json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params });
        let Some(answer) = self.send(message).await else {
            return Err(TestError::NoAnswer {
                method: method.into(),
            });
        };
        if let Some(error) = answer.get("error") {
            let (code, message, data) = outcome::error_parts(error);
            return Err(TestError::Protocol {
                code,
                message,
                data,
            });
        }
        let result = answer.get("result").cloned().unwrap_or(Value::Null);
        if result.get("resultType").and_then(Value::as_str) == Some("input_required") {
            return Err(TestError::InputRequired(result));
        }
        Ok(result)
    }

    /// Sends one message; records what the server says before its answer.
    async fn send(&mut self, message: Value) -> Option<Value> {
        match self.server.handle_value(&self.session, message) {
            Reply::Silent => None,
            Reply::Ready(response) => Some(response.to_value()),
            Reply::Pending(mut exchange) => {
                while let Some(out) = exchange.next().await {
                    match out {
                        Outbound::Notification(note) => self.heard.push(Heard::read(note)),
                        Outbound::Response(response) => return Some(response.to_value()),
                    }
                }
                None
            }
        }
    }

    /// Every item of a paged list.
    async fn list_all(&mut self, method: &str, key: &str) -> Result<Vec<Value>, TestError> {
        let page = async |params| self.request(method, params).await;
        outcome::every_page(key, page, |detail| shape(method, detail)).await
    }
}

fn shape(method: &str, detail: String) -> TestError {
    TestError::Shape {
        method: method.into(),
        detail,
    }
}

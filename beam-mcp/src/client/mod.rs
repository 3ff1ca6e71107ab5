//! An MCP client (feature `client`): it starts a server's process and speaks to it over its
//! stdin and stdout, at 2026-07-28 when the server has it (probed with `server/discover`, as
//! the official SDKs negotiate) and at 2025-11-25 otherwise (`initialize`), or at the revision
//! the host forces. Calls are typed and paged with the same result types as the in-process
//! [`TestClient`](crate::testing::TestClient); the server's asks (elicitation, roots) are
//! answered by the host's handlers at both revisions, by request on a 2025-11-25 session and
//! by retrying a 2026-07-28 request with its `inputResponses`. What it reads passes the
//! server's own bounds (1 MiB, 64 levels, no repeated key); every request has a time limit, and
//! dropping its future cancels it.
//!
//! ```no_run
//! use beam_mcp::client::Client;
//!
//! # async fn run() -> Result<(), beam_mcp::client::ClientError> {
//! let mut server = tokio::process::Command::new("weather");
//! server.arg("--stdio");
//! let client = Client::builder()
//!     .on_elicitation(|_params| async { serde_json::json!({ "action": "decline" }) })
//!     .stdio(server)
//!     .await?;
//! for tool in client.list_tools().await? {
//!     println!("{}", tool.name);
//! }
//! let answer = client
//!     .call_tool("get_weather", serde_json::json!({ "place": "Paris" }))
//!     .await?;
//! println!("{}", answer.text());
//! # Ok(())
//! # }
//! ```
//!
//! Over Streamable HTTP (feature `client-http`, `ClientBuilder::http`) each message is a
//! POST, its answer one JSON message or an event stream; the 2026-07-28 headers
//! (`MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name`) and the 2025-11-25 session
//! (`Mcp-Session-Id`) are kept by the client.
//!
//! Also: tasks ([`ClientBuilder::tasks`], [`Client::start_tool`]), listening to changes as a
//! stream ([`Client::listen`]: `subscriptions/listen` at 2026-07-28, the session's notifications
//! and its GET stream with `Last-Event-ID` at 2025-11-25), sampling ([`ClientBuilder::on_sampling`])
//! and a call's `Mcp-Param-*` headers. Not built yet (issue 26): `https://`, OAuth discovery,
//! and the proxies that mount a remote server through this client.

#[cfg(feature = "client-http")]
mod auth;
mod connection;
mod error;
mod handlers;
#[cfg(feature = "client-http")]
mod http;
mod listen;
mod tasks;
#[cfg(feature = "client-https")]
mod tls;

use std::future::Future;
use std::process::Stdio;
use std::sync::Arc;
use std::time::Duration;

use serde_json::{Map, Value, json};
use tokio::io::{AsyncBufReadExt, BufReader};

#[cfg(feature = "client-http")]
pub use auth::Challenge;
use connection::Connection;
pub use error::ClientError;
use handlers::Handlers;
/// The rustls the client speaks TLS with (feature `client-https`), for [`ClientBuilder::tls`].
#[cfg(feature = "client-https")]
pub use rustls;

use crate::protocol::{
    META_CLIENT_CAPABILITIES, META_CLIENT_INFO, META_PROTOCOL_VERSION, META_SERVER_INFO, Revision,
};
pub use crate::testing::{Completed, Heard, ListedTool, PromptOutcome, ToolOutcome};
pub use listen::{Listen, Subscription};
pub use tasks::{Started, TASKS_EXTENSION, Task, TaskStatus};

/// The longest a request waits for its answer unless the host says otherwise.
pub const DEFAULT_REQUEST_TIMEOUT: Duration = Duration::from_secs(60);
/// How many times a 2026-07-28 request is retried with the input the server asked for.
pub const MAX_INPUT_ROUNDS: usize = 8;
/// The most items a list may have: past it, listing is refused (`ClientError::Shape`).
pub const MAX_LISTED: usize = 100_000;
/// How long the `server/discover` probe waits before the client falls back to `initialize`.
const PROBE_TIMEOUT: Duration = Duration::from_secs(10);

/// How to connect: the revision, the client's name, its handlers and its time limit.
///
/// ```
/// use beam_mcp::client::Client;
/// let builder = Client::builder()
///     .client_info("my-agent", "1.0.0")
///     .request_timeout(std::time::Duration::from_secs(5))
///     .on_heard(|heard| eprintln!("{heard:?}"));
/// # let _ = builder;
/// ```
#[must_use]
pub struct ClientBuilder {
    revision: Option<Revision>,
    name: String,
    version: String,
    handlers: Handlers,
    stderr: Option<Arc<dyn Fn(String) + Send + Sync>>,
    timeout: Duration,
    #[cfg(feature = "client-http")]
    tokens: Option<auth::TokenSource>,
    #[cfg(feature = "client-https")]
    tls: Option<Arc<rustls::ClientConfig>>,
}

impl Default for ClientBuilder {
    fn default() -> Self {
        ClientBuilder {
            revision: None,
            name: "beam-mcp-client".to_owned(),
            version: env!("CARGO_PKG_VERSION").to_owned(),
            handlers: Handlers::default(),
            stderr: None,
            timeout: DEFAULT_REQUEST_TIMEOUT,
            #[cfg(feature = "client-http")]
            tokens: None,
            #[cfg(feature = "client-https")]
            tls: None,
        }
    }
}

impl ClientBuilder {
    /// Declares the tasks extension (2026-07-28): a tool call the server turns into a task is
    /// followed to its end by [`Client::call_tool`] (polled at the server's interval, its asks
    /// answered by the same handlers through `tasks/update`, cancelled when the call is
    /// dropped), or driven by the host ([`Client::start_tool`]). Without it, a tool that
    /// requires a task is refused by the server (`-32021`).
    ///
    /// ```
    /// let builder = beam_mcp::client::Client::builder().tasks();
    /// # let _ = builder;
    /// ```
    pub fn tasks(mut self) -> Self {
        self.handlers.tasks = true;
        self
    }

    /// Speaks `revision` only, instead of negotiating.
    ///
    /// ```
    /// let builder = beam_mcp::client::Client::builder().revision(beam_mcp::protocol::Revision::V2025_11_25);
    /// # let _ = builder;
    /// ```
    pub fn revision(mut self, revision: Revision) -> Self {
        self.revision = Some(revision);
        self
    }

    /// The `clientInfo` sent (default `beam-mcp-client` and this crate's version).
    ///
    /// ```
    /// let builder = beam_mcp::client::Client::builder().client_info("agent", "2.0.0");
    /// # let _ = builder;
    /// ```
    pub fn client_info(mut self, name: &str, version: &str) -> Self {
        self.name = name.to_owned();
        self.version = version.to_owned();
        self
    }

    /// Answers the server's elicitations: the request's params in, the `ElicitResult`
    /// (`{"action": "accept", "content": {..}}`, `decline` or `cancel`) out. The client declares
    /// the `elicitation` capability only with a handler.
    ///
    /// ```
    /// let builder = beam_mcp::client::Client::builder().on_elicitation(|params| async move {
    ///     let _ = params; // the message and the requested schema
    ///     serde_json::json!({ "action": "accept", "content": { "confirm": true } })
    /// });
    /// # let _ = builder;
    /// ```
    pub fn on_elicitation<F, Fut>(mut self, answer: F) -> Self
    where
        F: Fn(Value) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Value> + Send + 'static,
    {
        self.handlers.elicitation = Some(Arc::new(move |params| Box::pin(answer(params))));
        self
    }

    /// Answers the server's sampling requests (`sampling/createMessage`): the request's params
    /// in (messages, model preferences, `maxTokens`, ...), the `CreateMessageResult` (`{"role":
    /// "assistant", "content": {..}, "model": ..}`) out. The client declares `sampling` only
    /// with a handler; 2026-07-28 deprecates sampling, so a host that sets one asks for it there
    /// knowingly (it is answered both as a request on the session and inside an
    /// `InputRequiredResult`).
    ///
    /// ```
    /// let builder = beam_mcp::client::Client::builder().on_sampling(|params| async move {
    ///     let _ = params; // what the server wants a model to answer
    ///     serde_json::json!({
    ///         "role": "assistant",
    ///         "content": { "type": "text", "text": "42" },
    ///         "model": "host-model",
    ///     })
    /// });
    /// # let _ = builder;
    /// ```
    pub fn on_sampling<F, Fut>(mut self, answer: F) -> Self
    where
        F: Fn(Value) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Value> + Send + 'static,
    {
        self.handlers.sampling = Some(Arc::new(move |params| Box::pin(answer(params))));
        self
    }

    /// Lists `roots` (each `{"uri": "file:///…", "name": ..}`) when the server asks; the client
    /// declares the `roots` capability only then.
    ///
    /// ```
    /// let builder = beam_mcp::client::Client::builder()
    ///     .roots(vec![serde_json::json!({ "uri": "file:///work", "name": "work" })]);
    /// # let _ = builder;
    /// ```
    pub fn roots(mut self, roots: Vec<Value>) -> Self {
        self.handlers.roots = Some(roots);
        self
    }

    /// Hears what the server says outside an answer: logs, list changes, progress no request
    /// took. A request's own progress goes to the callback it was given.
    ///
    /// ```
    /// let builder = beam_mcp::client::Client::builder().on_heard(|heard| println!("{heard:?}"));
    /// # let _ = builder;
    /// ```
    pub fn on_heard(mut self, heard: impl Fn(Heard) + Send + Sync + 'static) -> Self {
        self.handlers.heard = Some(Arc::new(heard));
        self
    }

    /// Receives the server process's stderr, line by line (default: dropped).
    ///
    /// ```
    /// let builder = beam_mcp::client::Client::builder().on_stderr(|line| eprintln!("server: {line}"));
    /// # let _ = builder;
    /// ```
    pub fn on_stderr(mut self, line: impl Fn(String) + Send + Sync + 'static) -> Self {
        self.stderr = Some(Arc::new(line));
        self
    }

    /// The longest a request waits for its answer (default [`DEFAULT_REQUEST_TIMEOUT`]); past
    /// it the request is cancelled and answered [`ClientError::Timeout`].
    ///
    /// ```
    /// let builder = beam_mcp::client::Client::builder().request_timeout(std::time::Duration::from_secs(2));
    /// # let _ = builder;
    /// ```
    pub fn request_timeout(mut self, limit: Duration) -> Self {
        self.timeout = limit;
        self
    }

    /// Starts `command` (its environment and working directory as the host set them) and
    /// connects over its stdin and stdout. The process is killed when the client is dropped.
    ///
    /// ```no_run
    /// # async fn run() -> Result<(), beam_mcp::client::ClientError> {
    /// let client = beam_mcp::client::Client::builder()
    ///     .stdio(tokio::process::Command::new("my-server"))
    ///     .await?;
    /// # let _ = client;
    /// # Ok(())
    /// # }
    /// ```
    pub async fn stdio(self, mut command: tokio::process::Command) -> Result<Client, ClientError> {
        let program = command
            .as_std()
            .get_program()
            .to_string_lossy()
            .into_owned();
        command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .kill_on_drop(true);
        let mut child = command.spawn().map_err(|source| ClientError::Spawn {
            program: program.clone(),
            source,
        })?;
        let (Some(stdin), Some(stdout), Some(stderr)) =
            (child.stdin.take(), child.stdout.take(), child.stderr.take())
        else {
            return Err(ClientError::Closed {
                reason: format!("{program} was started without its pipes"),
            });
        };
        let to_host = self.stderr.clone();
        tokio::spawn(async move {
            let mut lines = BufReader::new(stderr).lines();
            while let Ok(Some(line)) = lines.next_line().await {
                if let Some(to_host) = &to_host {
                    to_host(line);
                }
            }
        });
        let mut client = self
            .connect(BufReader::new(stdout), Box::new(stdin))
            .await?;
        client.child = Some(child);
        Ok(client)
    }

    /// Answers a protected HTTP endpoint's refusal (feature `client-http`): when it refuses a
    /// request (`401`, or `403` with `insufficient_scope`), the client reads the RFC 9728
    /// metadata its `WWW-Authenticate` names and asks `source` for a bearer token for that
    /// [`Challenge`] (the resource, its authorization servers, the scopes asked), then sends the
    /// request again with it; the token is kept for the requests after. A source that gives
    /// none, or a token the endpoint refuses, is [`ClientError::Unauthorized`].
    ///
    /// ```no_run
    /// # async fn run() -> Result<(), beam_mcp::client::ClientError> {
    /// let client = beam_mcp::client::Client::builder()
    ///     .oauth(|challenge| async move {
    ///         // Ask one of `challenge.authorization_servers` for a token for
    ///         // `challenge.resource` with `challenge.scopes`, as the host's deployment does.
    ///         Ok::<String, String>(std::env::var("MCP_TOKEN").map_err(|e| e.to_string())?)
    ///     })
    ///     .http("http://127.0.0.1:8080/mcp", Vec::new())
    ///     .await?;
    /// # let _ = client; Ok(())
    /// # }
    /// ```
    #[cfg(feature = "client-http")]
    pub fn oauth<F, Fut>(mut self, source: F) -> Self
    where
        F: Fn(Challenge) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<String, String>> + Send + 'static,
    {
        self.tokens = Some(Arc::new(move |challenge| Box::pin(source(challenge))));
        self
    }

    /// The TLS configuration of `https://` endpoints (feature `client-https`): the host's own
    /// roots, a client certificate, a provider. Without it the client trusts the system's roots
    /// on rustls's ring provider. Its ALPN list is left as given: the client speaks HTTP/1.1.
    ///
    /// ```no_run
    /// use std::sync::Arc;
    /// use beam_mcp::client::rustls;
    /// # fn run(ca_der: rustls::pki_types::CertificateDer<'static>) {
    /// let mut roots = rustls::RootCertStore::empty();
    /// roots.add(ca_der).expect("a CA certificate");
    /// let config = rustls::ClientConfig::builder()
    ///     .with_root_certificates(roots)
    ///     .with_no_client_auth();
    /// let builder = beam_mcp::client::Client::builder().tls(Arc::new(config));
    /// # let _ = builder;
    /// # }
    /// ```
    #[cfg(feature = "client-https")]
    pub fn tls(mut self, config: Arc<rustls::ClientConfig>) -> Self {
        self.tls = Some(config);
        self
    }

    /// Connects to a Streamable HTTP endpoint (`http://host:port/mcp`, or `https://` with
    /// feature `client-https`; feature `client-http`), each request a POST, adding `headers` to
    /// each (an `Authorization`, say).
    ///
    /// ```no_run
    /// # async fn run() -> Result<(), beam_mcp::client::ClientError> {
    /// let client = beam_mcp::client::Client::builder()
    ///     .http("http://127.0.0.1:8080/mcp", vec![("authorization".into(), "Bearer t0ken".into())])
    ///     .await?;
    /// # let _ = client;
    /// # Ok(())
    /// # }
    /// ```
    #[cfg(feature = "client-http")]
    pub async fn http(
        self,
        url: &str,
        headers: Vec<(String, String)>,
    ) -> Result<Client, ClientError> {
        let endpoint = http::Endpoint::parse(url, headers)?.with_tokens(self.tokens.clone());
        #[cfg(feature = "client-https")]
        let endpoint = endpoint.with_tls(self.tls.clone());
        let connection = Connection::open_http(endpoint, self.handlers.clone());
        self.negotiate(connection).await
    }

    /// Connects over any newline-delimited byte stream (a socket, an in-process pipe).
    async fn connect<R>(
        self,
        reader: R,
        writer: Box<dyn tokio::io::AsyncWrite + Send + Unpin>,
    ) -> Result<Client, ClientError>
    where
        R: tokio::io::AsyncBufRead + Send + Unpin + 'static,
    {
        let connection = Connection::open(reader, writer, self.handlers.clone());
        self.negotiate(connection).await
    }

    /// Agrees on a revision over `connection`.
    async fn negotiate(self, connection: Arc<Connection>) -> Result<Client, ClientError> {
        let mut client = Client {
            connection,
            revision: Revision::V2026_07_28,
            server: Value::Null,
            capabilities: Value::Null,
            instructions: None,
            info: json!({ "name": self.name, "version": self.version }),
            handlers: self.handlers,
            timeout: self.timeout,
            child: None,
        };
        match self.revision {
            Some(Revision::V2025_11_25) => client.initialize().await?,
            Some(_) => client.discover(self.timeout).await?,
            None => {
                let modern = client.discover(PROBE_TIMEOUT.min(self.timeout)).await;
                // Credentials refused are the answer at every revision: no fallback.
                #[cfg(feature = "client-http")]
                if let Err(refused @ ClientError::Unauthorized { .. }) = modern {
                    return Err(refused);
                }
                if let Err(modern) = modern
                    && let Err(legacy) = client.initialize().await
                {
                    return Err(ClientError::Negotiation {
                        detail: format!(
                            "server/discover at 2026-07-28: {modern}; initialize at 2025-11-25: {legacy}"
                        ),
                    });
                }
            }
        }
        // A dropped request is announced where nothing else tells the server: on a pipe at
        // either revision, and on a 2025-11-25 HTTP session (whose disconnect is no cancel).
        // A 2026-07-28 POST is cancelled by closing it.
        if client.revision == Revision::V2025_11_25 || client.connection.over_stdio() {
            client
                .connection
                .announce_cancel
                .store(true, std::sync::atomic::Ordering::Relaxed);
        }
        Ok(client)
    }
}

/// A connection to one MCP server. Calls take `&self`: several may be in flight at once.
/// See the [module](self) for an example.
pub struct Client {
    connection: Arc<Connection>,
    revision: Revision,
    server: Value,
    capabilities: Value,
    instructions: Option<String>,
    info: Value,
    handlers: Handlers,
    timeout: Duration,
    child: Option<tokio::process::Child>,
}

impl std::fmt::Debug for Client {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Client")
            .field("revision", &self.revision)
            .field("server", &self.server)
            .finish_non_exhaustive()
    }
}

impl Client {
    /// How to connect, with every default.
    ///
    /// ```
    /// let builder = beam_mcp::client::Client::builder();
    /// # let _ = builder;
    /// ```
    pub fn builder() -> ClientBuilder {
        ClientBuilder::default()
    }

    /// Starts `command` and connects with every default ([`ClientBuilder::stdio`]).
    ///
    /// ```no_run
    /// # async fn run() -> Result<(), beam_mcp::client::ClientError> {
    /// let client = beam_mcp::client::Client::stdio(tokio::process::Command::new("my-server")).await?;
    /// # let _ = client;
    /// # Ok(())
    /// # }
    /// ```
    pub async fn stdio(command: tokio::process::Command) -> Result<Client, ClientError> {
        ClientBuilder::default().stdio(command).await
    }

    /// The revision agreed on.
    ///
    /// ```no_run
    /// # async fn run(client: beam_mcp::client::Client) {
    /// println!("{}", client.revision().as_str());
    /// # }
    /// ```
    pub fn revision(&self) -> Revision {
        self.revision
    }

    /// The server's `Implementation` (name, version, ...), as it sent it.
    ///
    /// ```no_run
    /// # async fn run(client: beam_mcp::client::Client) {
    /// println!("{}", client.server_info()["name"]);
    /// # }
    /// ```
    pub fn server_info(&self) -> &Value {
        &self.server
    }

    /// The server's capabilities, as it sent them.
    ///
    /// ```no_run
    /// # async fn run(client: beam_mcp::client::Client) {
    /// let has_tools = client.capabilities().get("tools").is_some();
    /// # let _ = has_tools;
    /// # }
    /// ```
    pub fn capabilities(&self) -> &Value {
        &self.capabilities
    }

    /// The server's instructions for the model, when it gave any.
    ///
    /// ```no_run
    /// # async fn run(client: beam_mcp::client::Client) {
    /// let _ = client.instructions();
    /// # }
    /// ```
    pub fn instructions(&self) -> Option<&str> {
        self.instructions.as_deref()
    }

    /// Every tool, through every page.
    ///
    /// ```no_run
    /// # async fn run(client: beam_mcp::client::Client) -> Result<(), beam_mcp::client::ClientError> {
    /// let names: Vec<String> = client.list_tools().await?.into_iter().map(|t| t.name).collect();
    /// # let _ = names; Ok(())
    /// # }
    /// ```
    pub async fn list_tools(&self) -> Result<Vec<ListedTool>, ClientError> {
        let mut tools = Vec::new();
        for item in self.list_all("tools/list", "tools").await? {
            tools.push(ListedTool::read(item).map_err(|d| shape("tools/list", d))?);
        }
        self.connection.learn_tools(&tools);
        Ok(tools)
    }

    /// Everything the server advertises at the agreed revision (its tools, resources,
    /// templates and prompts, every page) as the canonical catalog export: byte for byte what
    /// [`Advertised::of`](crate::Advertised::of) gives for the same server in process, so a
    /// running server's surface can be pinned or compared like a built one. A list the server's
    /// capabilities do not declare is empty, as in process.
    ///
    /// ```no_run
    /// # async fn run(client: beam_mcp::client::Client) -> Result<(), beam_mcp::client::ClientError> {
    /// let advertised = client.advertised().await?;
    /// println!("{}", advertised.digest_hex());
    /// # Ok(())
    /// # }
    /// ```
    pub async fn advertised(&self) -> Result<crate::Advertised, ClientError> {
        let serves = |kind: &str| self.capabilities.get(kind).is_some();
        let mut lists: [Vec<Value>; 4] = Default::default();
        for (slot, (capability, method, member)) in lists.iter_mut().zip([
            ("tools", "tools/list", "tools"),
            ("resources", "resources/list", "resources"),
            ("resources", "resources/templates/list", "resourceTemplates"),
            ("prompts", "prompts/list", "prompts"),
        ]) {
            if serves(capability) {
                *slot = self.list_all(method, member).await?;
            }
        }
        let [tools, resources, templates, prompts] = lists;
        crate::Advertised::from_lists(self.revision, tools, resources, templates, prompts).map_err(
            |e| ClientError::Shape {
                method: "tools/list".into(),
                detail: format!("the listings have no canonical bytes: {e}"),
            },
        )
    }

    /// Calls a tool. A tool's own failure is an `Ok` outcome with `is_error` set; a refused
    /// call (unknown tool, arguments the schema refuses) is [`ClientError::Protocol`].
    ///
    /// ```no_run
    /// # async fn run(client: beam_mcp::client::Client) -> Result<(), beam_mcp::client::ClientError> {
    /// let outcome = client.call_tool("add", serde_json::json!({ "a": 1, "b": 2 })).await?;
    /// assert!(!outcome.is_error);
    /// # Ok(())
    /// # }
    /// ```
    pub async fn call_tool(
        &self,
        name: &str,
        arguments: Value,
    ) -> Result<ToolOutcome, ClientError> {
        self.call_tool_with_progress(name, arguments, None::<fn(Heard)>)
            .await
    }

    /// Calls a tool, hearing its progress notifications.
    ///
    /// ```no_run
    /// # async fn run(client: beam_mcp::client::Client) -> Result<(), beam_mcp::client::ClientError> {
    /// let outcome = client
    ///     .call_tool_with_progress("slow", serde_json::json!({}), Some(|p| println!("{p:?}")))
    ///     .await?;
    /// # let _ = outcome; Ok(())
    /// # }
    /// ```
    pub async fn call_tool_with_progress(
        &self,
        name: &str,
        arguments: Value,
        progress: Option<impl Fn(Heard) + Send + Sync + 'static>,
    ) -> Result<ToolOutcome, ClientError> {
        self.call_tool_at(name, arguments, None, progress).await
    }

    /// A call asking for the server's log messages from `log_level` up (at 2026-07-28 in the
    /// call's `_meta`; a 2025-11-25 session's level is `logging/setLevel`'s).
    pub(crate) async fn call_tool_at(
        &self,
        name: &str,
        arguments: Value,
        log_level: Option<crate::LogLevel>,
        progress: Option<impl Fn(Heard) + Send + Sync + 'static>,
    ) -> Result<ToolOutcome, ClientError> {
        self.learn_tool_params(name).await;
        let mut params = json!({ "name": name, "arguments": arguments });
        if let Some(level) = log_level
            && self.revision == Revision::V2026_07_28
        {
            params["_meta"] = json!({ crate::revision::META_LOG_LEVEL: level.as_str() });
        }
        let progress = progress.map(|p| Arc::new(p) as Arc<dyn Fn(Heard) + Send + Sync>);
        let result = self.with_input("tools/call", params, progress).await?;
        self.finish_call(result).await
    }

    /// Every resource, through every page, as the server wrote each.
    ///
    /// ```no_run
    /// # async fn run(client: beam_mcp::client::Client) -> Result<(), beam_mcp::client::ClientError> {
    /// for resource in client.list_resources().await? { println!("{}", resource["uri"]); }
    /// # Ok(())
    /// # }
    /// ```
    pub async fn list_resources(&self) -> Result<Vec<Value>, ClientError> {
        self.list_all("resources/list", "resources").await
    }

    /// Every resource template, through every page.
    ///
    /// ```no_run
    /// # async fn run(client: beam_mcp::client::Client) -> Result<(), beam_mcp::client::ClientError> {
    /// let templates = client.list_resource_templates().await?;
    /// # let _ = templates; Ok(())
    /// # }
    /// ```
    pub async fn list_resource_templates(&self) -> Result<Vec<Value>, ClientError> {
        self.list_all("resources/templates/list", "resourceTemplates")
            .await
    }

    /// Reads a resource: its contents, as the server wrote them.
    ///
    /// ```no_run
    /// # async fn run(client: beam_mcp::client::Client) -> Result<(), beam_mcp::client::ClientError> {
    /// let contents = client.read_resource("weather://stations").await?;
    /// println!("{}", contents[0]["text"]);
    /// # Ok(())
    /// # }
    /// ```
    pub async fn read_resource(&self, uri: &str) -> Result<Vec<Value>, ClientError> {
        let mut result = self
            .with_input("resources/read", json!({ "uri": uri }), None)
            .await?;
        match result.get_mut("contents").map(Value::take) {
            Some(Value::Array(contents)) => Ok(contents),
            _ => Err(shape("resources/read", "no contents array".into())),
        }
    }

    /// Every prompt, through every page.
    ///
    /// ```no_run
    /// # async fn run(client: beam_mcp::client::Client) -> Result<(), beam_mcp::client::ClientError> {
    /// let prompts = client.list_prompts().await?;
    /// # let _ = prompts; Ok(())
    /// # }
    /// ```
    pub async fn list_prompts(&self) -> Result<Vec<Value>, ClientError> {
        self.list_all("prompts/list", "prompts").await
    }

    /// Gets a prompt with its string arguments.
    ///
    /// ```no_run
    /// # async fn run(client: beam_mcp::client::Client) -> Result<(), beam_mcp::client::ClientError> {
    /// let prompt = client.get_prompt("plan_trip", [("place", "Paris")]).await?;
    /// println!("{}", prompt.text());
    /// # Ok(())
    /// # }
    /// ```
    pub async fn get_prompt<'a>(
        &self,
        name: &str,
        arguments: impl IntoIterator<Item = (&'a str, &'a str)>,
    ) -> Result<PromptOutcome, ClientError> {
        let arguments: Map<String, Value> = arguments
            .into_iter()
            .map(|(k, v)| (k.to_owned(), Value::String(v.to_owned())))
            .collect();
        let params = json!({ "name": name, "arguments": arguments });
        let result = self.with_input("prompts/get", params, None).await?;
        PromptOutcome::read(result).map_err(|d| shape("prompts/get", d))
    }

    /// Completes an argument: `reference` is `{"type": "ref/prompt", "name": ..}` or
    /// `{"type": "ref/resource", "uri": ..}`.
    ///
    /// ```no_run
    /// # async fn run(client: beam_mcp::client::Client) -> Result<(), beam_mcp::client::ClientError> {
    /// let reference = serde_json::json!({ "type": "ref/prompt", "name": "plan_trip" });
    /// let done = client.complete(reference, "place", "Par").await?;
    /// println!("{:?}", done.values);
    /// # Ok(())
    /// # }
    /// ```
    pub async fn complete(
        &self,
        reference: Value,
        argument: &str,
        value: &str,
    ) -> Result<Completed, ClientError> {
        let params = json!({ "ref": reference, "argument": { "name": argument, "value": value } });
        let result = self.request("completion/complete", params).await?;
        Completed::read(result).map_err(|d| shape("completion/complete", d))
    }

    /// Any request, its result as the server wrote it. At 2026-07-28 the request's `_meta`
    /// (version, client info and capabilities) is added.
    ///
    /// ```no_run
    /// # async fn run(client: beam_mcp::client::Client) -> Result<(), beam_mcp::client::ClientError> {
    /// let result = client.request("ping", serde_json::json!({})).await;
    /// # let _ = result; Ok(())
    /// # }
    /// ```
    pub async fn request(&self, method: &str, params: Value) -> Result<Value, ClientError> {
        self.request_with(method, params, None).await
    }

    async fn request_with(
        &self,
        method: &str,
        params: Value,
        progress: Option<Arc<dyn Fn(Heard) + Send + Sync>>,
    ) -> Result<Value, ClientError> {
        let params = self.with_meta(params);
        self.connection
            .request(method, params, progress, self.timeout)
            .await
    }

    /// Lists the tools before a 2026-07-28 call over HTTP of a tool no listing showed yet (the
    /// first call, or a tool a live server added since), so each call carries the
    /// `Mcp-Param-*` headers its tool's schema marks (a listing that fails leaves them out, and
    /// the server says what it missed).
    async fn learn_tool_params(&self, tool: &str) {
        if self.revision == Revision::V2026_07_28 && !self.connection.knows_tool_params(tool) {
            let _ = self.list_tools().await;
        }
    }

    /// A request that may answer `input_required` (2026-07-28): the server's asks answered by
    /// the handlers, and the request sent again with them and its `requestState`.
    pub(crate) async fn with_input(
        &self,
        method: &str,
        params: Value,
        progress: Option<Arc<dyn Fn(Heard) + Send + Sync>>,
    ) -> Result<Value, ClientError> {
        let mut params = params;
        for _ in 0..=MAX_INPUT_ROUNDS {
            let result = self
                .request_with(method, params.clone(), progress.clone())
                .await?;
            if result.get("resultType").and_then(Value::as_str) != Some("input_required") {
                return Ok(result);
            }
            let mut responses = Map::new();
            let asks = result.get("inputRequests").and_then(Value::as_object);
            for (key, ask) in asks.into_iter().flatten() {
                let asked = ask
                    .get("method")
                    .and_then(Value::as_str)
                    .unwrap_or_default();
                let ask_params = ask.get("params").cloned().unwrap_or_else(|| json!({}));
                match self.handlers.answer(asked, ask_params).await {
                    Ok(answer) => {
                        responses.insert(key.clone(), answer);
                    }
                    Err((_, why)) => {
                        return Err(ClientError::InputRequired {
                            method: method.to_owned(),
                            what: why,
                        });
                    }
                }
            }
            let Some(object) = params.as_object_mut() else {
                return Err(shape(method, "params are not an object".into()));
            };
            object.insert("inputResponses".into(), Value::Object(responses));
            match result.get("requestState") {
                Some(state) => object.insert("requestState".into(), state.clone()),
                None => object.remove("requestState"),
            };
        }
        Err(ClientError::InputRequired {
            method: method.to_owned(),
            what: format!("still asking after {MAX_INPUT_ROUNDS} rounds"),
        })
    }

    /// Every item of a paged list.
    async fn list_all(&self, method: &str, key: &str) -> Result<Vec<Value>, ClientError> {
        self.list_bounded(method, key, MAX_LISTED).await
    }

    /// Every item of a paged list, refused past `most` items (a server whose cursors never
    /// end cannot keep the client listing, nor grow its memory).
    pub(crate) async fn list_bounded(
        &self,
        method: &str,
        key: &str,
        most: usize,
    ) -> Result<Vec<Value>, ClientError> {
        let mut items = Vec::new();
        let mut params = json!({});
        loop {
            let mut page = self.request(method, params).await?;
            match page.get_mut(key).map(Value::take) {
                Some(Value::Array(listed)) => items.extend(listed),
                _ => return Err(shape(method, format!("no {key} array"))),
            }
            if items.len() > most {
                return Err(shape(method, format!("more than {most} {key}")));
            }
            match page.get("nextCursor") {
                Some(cursor @ Value::String(_)) => params = json!({ "cursor": cursor }),
                _ => return Ok(items),
            }
        }
    }

    /// `params` with the 2026-07-28 request `_meta`.
    fn with_meta(&self, params: Value) -> Value {
        let mut params = match params {
            Value::Object(map) => map,
            _ => Map::new(),
        };
        if self.revision == Revision::V2026_07_28 {
            let meta = params
                .entry("_meta")
                .or_insert_with(|| Value::Object(Map::new()));
            if let Value::Object(meta) = meta {
                meta.insert(
                    META_PROTOCOL_VERSION.into(),
                    json!(Revision::V2026_07_28.as_str()),
                );
                meta.insert(META_CLIENT_INFO.into(), self.info.clone());
                let mut capabilities = self.handlers.capabilities();
                if self.handlers.tasks
                    && let Some(capabilities) = capabilities.as_object_mut()
                {
                    capabilities.insert("extensions".into(), json!({ TASKS_EXTENSION: {} }));
                }
                meta.insert(META_CLIENT_CAPABILITIES.into(), capabilities);
            }
        }
        Value::Object(params)
    }

    /// `server/discover` at 2026-07-28: the server must list the revision.
    async fn discover(&mut self, limit: Duration) -> Result<(), ClientError> {
        self.revision = Revision::V2026_07_28;
        let params = self.with_meta(json!({}));
        let result = self
            .connection
            .request("server/discover", params, None, limit)
            .await?;
        let supported = result
            .get("supportedVersions")
            .and_then(Value::as_array)
            .is_some_and(|v| v.iter().any(|v| v == Revision::V2026_07_28.as_str()));
        if !supported {
            return Err(shape(
                "server/discover",
                "2026-07-28 is not among the supported versions".into(),
            ));
        }
        self.server = result
            .pointer(&format!("/_meta/{}", META_SERVER_INFO.replace('/', "~1")))
            .cloned()
            .unwrap_or(Value::Null);
        self.capabilities = result.get("capabilities").cloned().unwrap_or(Value::Null);
        self.instructions = result
            .get("instructions")
            .and_then(Value::as_str)
            .map(str::to_owned);
        Ok(())
    }

    /// The 2025-11-25 handshake: `initialize`, then `notifications/initialized`.
    async fn initialize(&mut self) -> Result<(), ClientError> {
        self.revision = Revision::V2025_11_25;
        let params = json!({
            "protocolVersion": Revision::V2025_11_25.as_str(),
            "capabilities": self.handlers.capabilities(),
            "clientInfo": self.info,
        });
        let result = self
            .connection
            .request("initialize", params, None, self.timeout)
            .await?;
        let version = result.get("protocolVersion").and_then(Value::as_str);
        if version != Some(Revision::V2025_11_25.as_str()) {
            return Err(shape(
                "initialize",
                format!("the server answered protocolVersion {version:?}"),
            ));
        }
        self.server = result.get("serverInfo").cloned().unwrap_or(Value::Null);
        self.capabilities = result.get("capabilities").cloned().unwrap_or(Value::Null);
        self.instructions = result
            .get("instructions")
            .and_then(Value::as_str)
            .map(str::to_owned);
        self.connection.agreed(Revision::V2025_11_25.as_str());
        self.connection
            .notify("notifications/initialized", json!({}))
            .await
    }

    /// The id of the 2025-11-25 HTTP session the server gave, if any (`Mcp-Session-Id`).
    ///
    /// ```no_run
    /// # async fn run(client: beam_mcp::client::Client) {
    /// if let Some(id) = client.session_id() { println!("session {id}"); }
    /// # }
    /// ```
    pub fn session_id(&self) -> Option<String> {
        self.connection.session_id()
    }

    /// Ends the connection: a 2025-11-25 HTTP session is ended with DELETE; over stdio the
    /// server's stdin is closed by dropping the client, and its process killed if it has not
    /// ended within `grace`.
    ///
    /// ```no_run
    /// # async fn run(client: beam_mcp::client::Client) {
    /// client.close(std::time::Duration::from_secs(1)).await;
    /// # }
    /// ```
    pub async fn close(mut self, grace: Duration) {
        let _ = tokio::time::timeout(grace, self.connection.end()).await;
        let child = self.child.take();
        drop(self);
        if let Some(mut child) = child
            && tokio::time::timeout(grace, child.wait()).await.is_err()
        {
            let _ = child.kill().await;
        }
    }
}

fn shape(method: &str, detail: String) -> ClientError {
    ClientError::Shape {
        method: method.to_owned(),
        detail,
    }
}

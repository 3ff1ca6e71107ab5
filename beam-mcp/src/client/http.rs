//! Streamable HTTP for the client (feature `client-http`): each message a POST to the
//! endpoint, answered with one JSON message, an event stream of messages (the server's
//! notifications and asks, then the answer), or `202 Accepted`. At 2026-07-28 every request
//! carries `MCP-Protocol-Version`, `Mcp-Method` and, for `tools/call`, `prompts/get` and
//! `resources/read` (and the task's id for `tasks/*`), `Mcp-Name` (SEP-2243; the Base64
//! sentinel where the value needs it), and for `tools/call` an `Mcp-Param-{H}` per argument the
//! tool's listed input schema marks `x-mcp-header: H`; at 2025-11-25 the session's
//! `Mcp-Session-Id` once `initialize` gave one, and the negotiated version. `http://`, and
//! `https://` with feature `client-https` (`tls.rs`); every message read passes the same bounds
//! as over stdio.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use base64::Engine;
use http_body_util::{BodyExt, Full};
use hyper::body::Bytes;
use serde_json::Value;

use super::auth::{Challenge, TokenSource};
use super::error::ClientError;
use crate::json::{MAX_MESSAGE_BYTES, read};
use crate::protocol::META_PROTOCOL_VERSION;

/// Where the endpoint hands what it reads: the client's connection (so this file needs nothing
/// of `connection.rs`, which owns the endpoint).
pub(crate) trait Inbox: Send + Sync + 'static {
    /// One message from the server.
    fn route(self: &Arc<Self>, message: Value);
    /// Request `id` can get no answer: it fails with `reason`.
    fn fail(&self, id: u64, reason: String);
    /// Ties the task reading request `id`'s event stream to the request.
    fn attach_reader(&self, id: u64, reader: tokio::task::AbortHandle);
}

/// An MCP endpoint over HTTP/1.1.
pub(crate) struct Endpoint {
    /// `host:port`, for the connection.
    authority: String,
    /// The `Host` header: the URL's authority as written (no default port added).
    host: String,
    /// The host's name or address without the port: what a TLS certificate names.
    #[cfg_attr(not(feature = "client-https"), allow(dead_code))]
    name: String,
    /// `https://`: TLS on the connection, with the host's configuration or the system's roots.
    secure: bool,
    /// The host's TLS configuration (`ClientBuilder::tls`); the system's roots when `None`.
    #[cfg(feature = "client-https")]
    tls: Option<Arc<rustls::ClientConfig>>,
    path: String,
    /// `Mcp-Session-Id`, once the server gave one (2025-11-25).
    session: Mutex<Option<String>>,
    /// The version header of 2025-11-25 requests, once `initialize` agreed on it.
    legacy_version: Mutex<Option<String>>,
    /// Headers the host adds to every request (`Authorization`, ...).
    headers: Vec<(String, String)>,
    /// Each tool's `x-mcp-header` arguments (the header's name and the argument's path), once
    /// the tools were listed.
    params: Mutex<Option<HashMap<String, Vec<HeaderParam>>>>,
    /// Where tokens come from when the endpoint asks for one (`ClientBuilder::oauth`).
    tokens: Option<TokenSource>,
    /// The bearer token the host's source gave last.
    token: Mutex<Option<String>>,
}

/// An argument a tool's schema marks `x-mcp-header`: the header's name, and the argument's path
/// from the arguments object.
type HeaderParam = (String, Vec<String>);

impl Endpoint {
    /// The endpoint at `url` (`http://host:port/path`).
    pub(crate) fn parse(
        url: &str,
        headers: Vec<(String, String)>,
    ) -> Result<Endpoint, ClientError> {
        let refused = |why: &str| ClientError::Closed {
            reason: format!("{url:?} is not an endpoint this client reaches: {why}"),
        };
        let (rest, secure) = if let Some(rest) = url.strip_prefix("http://") {
            (rest, false)
        } else if let Some(rest) = url.strip_prefix("https://") {
            if !cfg!(feature = "client-https") {
                return Err(refused("https:// needs beam-mcp's feature `client-https`"));
            }
            (rest, true)
        } else {
            return Err(refused("not an http:// or https:// URL"));
        };
        let (authority, path) = match rest.find('/') {
            Some(at) => (&rest[..at], &rest[at..]),
            None => (rest, "/"),
        };
        if authority.is_empty() || authority.contains('@') {
            return Err(refused("no host, or user information in it"));
        }
        let (name, port) = split_port(authority);
        let port = port.unwrap_or(if secure { 443 } else { 80 });
        Ok(Endpoint {
            authority: format!("{name}:{port}"),
            host: authority.to_owned(),
            name: name.to_owned(),
            secure,
            #[cfg(feature = "client-https")]
            tls: None,
            path: path.to_owned(),
            session: Mutex::new(None),
            legacy_version: Mutex::new(None),
            headers,
            params: Mutex::new(None),
            tokens: None,
            token: Mutex::new(None),
        })
    }

    /// The endpoint, with the host's TLS configuration for `https://` (the system's roots when
    /// `None`).
    #[cfg(feature = "client-https")]
    pub(crate) fn with_tls(mut self, tls: Option<Arc<rustls::ClientConfig>>) -> Endpoint {
        self.tls = tls;
        self
    }

    /// The endpoint, asking `tokens` for a bearer token when it refuses without one.
    pub(crate) fn with_tokens(mut self, tokens: Option<TokenSource>) -> Endpoint {
        self.tokens = tokens;
        self
    }

    /// The host's headers, and the bearer token when there is one.
    fn added_headers(&self) -> Vec<(String, String)> {
        let mut headers = self.headers.clone();
        if let Some(token) = self.token.lock().ok().and_then(|t| t.clone()) {
            headers.push(("authorization".into(), format!("Bearer {token}")));
        }
        headers
    }

    /// Learns each listed tool's `x-mcp-header` arguments, for its calls' `Mcp-Param-*`.
    pub(crate) fn learn(&self, tools: &[super::ListedTool]) {
        let learned = tools
            .iter()
            .map(|tool| {
                let mut found = Vec::new();
                header_params(&tool.input_schema, &mut Vec::new(), &mut found);
                (tool.name.clone(), found)
            })
            .collect();
        if let Ok(mut params) = self.params.lock() {
            *params = Some(learned);
        }
    }

    /// Whether a listing showed `tool` (so its `Mcp-Param-*` arguments are known).
    pub(crate) fn knows_params(&self, tool: &str) -> bool {
        self.params
            .lock()
            .is_ok_and(|p| p.as_ref().is_some_and(|p| p.contains_key(tool)))
    }

    /// The `Mcp-Param-*` headers of a `tools/call` message: each marked argument present in
    /// the call, as SEP-2243 writes it (a string as it is, a boolean or an integer as its
    /// JSON text; the Base64 sentinel where the text needs it).
    fn param_headers(&self, message: &Value) -> Vec<(String, String)> {
        let Some(tool) = message.pointer("/params/name").and_then(Value::as_str) else {
            return Vec::new();
        };
        let Ok(params) = self.params.lock() else {
            return Vec::new();
        };
        let Some(marked) = params.as_ref().and_then(|p| p.get(tool)) else {
            return Vec::new();
        };
        let arguments = message.pointer("/params/arguments");
        marked
            .iter()
            .filter_map(|(header, path)| {
                let value = path
                    .iter()
                    .try_fold(arguments?, |at, key| at.get(key.as_str()))?;
                let text = match value {
                    Value::String(s) => s.clone(),
                    Value::Bool(b) => b.to_string(),
                    Value::Number(n) if n.is_i64() || n.is_u64() => n.to_string(),
                    Value::Number(n) => {
                        // An integer written with a fraction of zeros (`3.0`) mirrors as `3`.
                        let f = n.as_f64()?;
                        (f.fract() == 0.0 && f.abs() < 9.0e15).then(|| format!("{f:.0}"))?
                    }
                    _ => return None,
                };
                Some((format!("mcp-param-{header}"), header_value(&text)))
            })
            .collect()
    }

    /// Uses `version` as the version header of requests without a 2026-07-28 `_meta`.
    pub(crate) fn agreed(&self, version: &str) {
        if let Ok(mut legacy) = self.legacy_version.lock() {
            *legacy = Some(version.to_owned());
        }
    }

    /// POSTs `message`; what comes back (one message, or a stream of them read on its own
    /// task) is routed to `connection`.
    pub(crate) async fn post<C: Inbox>(
        &self,
        connection: &Arc<C>,
        message: &Value,
    ) -> Result<(), ClientError> {
        let body = Bytes::from(serde_json::to_vec(message).unwrap_or_default());
        let mut response = self.send(self.post_request(message, body.clone())?).await?;
        if let Some(tokens) = &self.tokens
            && wants_token(&response)
        {
            let status = response.status().as_u16();
            let challenge = self.challenge(&response).await;
            let token =
                tokens(challenge.clone())
                    .await
                    .map_err(|detail| ClientError::Unauthorized {
                        status,
                        challenge: Box::new(challenge.clone()),
                        detail: format!("the host's token source gave no token: {detail}"),
                    })?;
            if let Ok(mut kept) = self.token.lock() {
                *kept = Some(token);
            }
            response = self.send(self.post_request(message, body)?).await?;
            if wants_token(&response) {
                let status = response.status().as_u16();
                return Err(ClientError::Unauthorized {
                    status,
                    challenge: Box::new(self.challenge(&response).await),
                    detail: "the endpoint refused the token the host's source gave".into(),
                });
            }
        }
        if self.tokens.is_none() && wants_token(&response) {
            let status = response.status().as_u16();
            return Err(ClientError::Unauthorized {
                status,
                challenge: Box::new(self.challenge(&response).await),
                detail: "no token given (a bearer header, or ClientBuilder::oauth)".into(),
            });
        }
        let status = response.status();
        if let Some(session) = response
            .headers()
            .get("mcp-session-id")
            .and_then(|v| v.to_str().ok())
            && let Ok(mut kept) = self.session.lock()
        {
            *kept = Some(session.to_owned());
        }
        let streamed = response
            .headers()
            .get("content-type")
            .and_then(|v| v.to_str().ok())
            .is_some_and(|t| t.starts_with("text/event-stream"));
        let mut body = response.into_body();
        if status == hyper::StatusCode::ACCEPTED {
            return Ok(());
        }
        if streamed {
            let reading = Arc::clone(connection);
            let id = message.get("id").and_then(Value::as_u64);
            let reader = tokio::spawn(async move {
                let connection = reading;
                let ended = match read_events(&mut body, &connection, &mut None).await {
                    Ok(()) => "the event stream ended without the answer".to_owned(),
                    Err(reason) => reason,
                };
                // The answer came on the stream, or the request fails now rather than at its
                // time limit.
                if let Some(id) = id {
                    connection.fail(id, ended);
                }
            });
            // Dropping the request stops the reader, which closes the stream: at 2026-07-28
            // that is the cancel.
            if let Some(id) = id {
                connection.attach_reader(id, reader.abort_handle());
            }
            return Ok(());
        }
        let bytes = read_bounded(&mut body).await?;
        let asked = message.get("id").and_then(Value::as_u64);
        match read(&bytes) {
            // A JSON-RPC answer, an error one included (4xx with -32020 and the like).
            Ok(mut answer) if answer.get("jsonrpc").is_some() => {
                // An error tied to no id (`"id": null`: the server refused the POST before it
                // read the message, as a 2025-11-25 server does a request without a session)
                // is the answer to the one request this POST carried.
                if let Some(id) = asked
                    && answer.get("id").is_none_or(Value::is_null)
                    && answer.get("error").is_some()
                    && let Some(fields) = answer.as_object_mut()
                {
                    fields.insert("id".into(), Value::from(id));
                }
                connection.route(answer);
                // A JSON body is the whole answer to the POST: a request it did not answer
                // fails now, not at its time limit (a no-op for one it answered).
                if let Some(id) = asked {
                    connection.fail(
                        id,
                        format!("the POST was answered HTTP {status} without an answer to it"),
                    );
                }
                Ok(())
            }
            _ if status.is_success() => {
                if let Some(id) = asked {
                    connection.fail(
                        id,
                        format!("the POST was answered HTTP {status} with no JSON-RPC answer"),
                    );
                }
                Ok(())
            }
            _ => Err(ClientError::Protocol {
                code: -32000 - i64::from(status.as_u16()),
                message: format!(
                    "HTTP {status}: {}",
                    String::from_utf8_lossy(&bytes[..bytes.len().min(200)])
                ),
                data: None,
            }),
        }
    }
}

impl Endpoint {
    /// The POST of `message` with every header it takes.
    fn post_request(
        &self,
        message: &Value,
        body: Bytes,
    ) -> Result<hyper::Request<Full<Bytes>>, ClientError> {
        let mut request = hyper::Request::post(self.path.as_str())
            .header("host", self.host.as_str())
            .header("content-type", "application/json")
            .header("accept", "application/json, text/event-stream");
        let modern = message
            .pointer(&format!(
                "/params/_meta/{}",
                META_PROTOCOL_VERSION.replace('/', "~1")
            ))
            .and_then(Value::as_str)
            .map(str::to_owned);
        let version = modern
            .clone()
            .or_else(|| self.legacy_version.lock().ok().and_then(|v| v.clone()));
        if let Some(version) = &version {
            request = request.header("mcp-protocol-version", version.as_str());
        }
        if let Some(session) = self.session.lock().ok().and_then(|s| s.clone()) {
            request = request.header("mcp-session-id", session);
        }
        if modern.is_some()
            && let Some(method) = message.get("method").and_then(Value::as_str)
        {
            request = request.header("mcp-method", method);
            let name = match method {
                "tools/call" | "prompts/get" => message.pointer("/params/name"),
                "resources/read" => message.pointer("/params/uri"),
                "tasks/get" | "tasks/update" | "tasks/cancel" => message.pointer("/params/taskId"),
                _ => None,
            };
            if let Some(name) = name.and_then(Value::as_str) {
                request = request.header("mcp-name", header_value(name));
            }
            if method == "tools/call" {
                for (header, value) in self.param_headers(message) {
                    request = request.header(header, value);
                }
            }
        }
        for (name, value) in self.added_headers() {
            request = request.header(name, value);
        }
        request
            .body(Full::new(body))
            .map_err(|e| closed(format!("the request could not be built: {e}")))
    }

    /// What a refusal asks for: its `Bearer` challenge, with the RFC 9728 metadata it names
    /// read (an `http://` document, within the message bound).
    async fn challenge(&self, response: &hyper::Response<hyper::body::Incoming>) -> Challenge {
        let parameters = response
            .headers()
            .get("www-authenticate")
            .and_then(|v| v.to_str().ok())
            .map(super::auth::bearer_parameters)
            .unwrap_or_default();
        let url = parameters
            .iter()
            .find(|(k, _)| k == "resource_metadata")
            .map(|(_, v)| v.clone());
        let metadata = match url {
            Some(url) => self.metadata(&url).await,
            None => None,
        };
        super::auth::challenge(&parameters, metadata)
    }

    /// A protected resource's metadata document, when it can be read (over this endpoint's TLS
    /// configuration when it is `https://`).
    async fn metadata(&self, url: &str) -> Option<Value> {
        let endpoint = Endpoint::parse(url, Vec::new()).ok()?;
        #[cfg(feature = "client-https")]
        let endpoint = endpoint.with_tls(self.tls.clone());
        let request = hyper::Request::get(endpoint.path.as_str())
            .header("host", endpoint.host.as_str())
            .header("accept", "application/json")
            .body(Full::new(Bytes::new()))
            .ok()?;
        let response = endpoint.send(request).await.ok()?;
        if !response.status().is_success() {
            return None;
        }
        let mut body = response.into_body();
        let bytes = read_bounded(&mut body).await.ok()?;
        read(&bytes).ok()
    }
}

/// True when the endpoint refused for want of a token: `401`, or `403` with
/// `insufficient_scope` (a step-up).
fn wants_token(response: &hyper::Response<hyper::body::Incoming>) -> bool {
    match response.status().as_u16() {
        401 => true,
        403 => response
            .headers()
            .get("www-authenticate")
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| v.contains("insufficient_scope")),
        _ => false,
    }
}

impl Endpoint {
    /// Sends one request on a connection of its own (TLS on it for `https://`).
    async fn send(
        &self,
        request: hyper::Request<Full<Bytes>>,
    ) -> Result<hyper::Response<hyper::body::Incoming>, ClientError> {
        let stream = tokio::net::TcpStream::connect(self.authority.as_str())
            .await
            .map_err(|e| closed(format!("cannot connect to {}: {e}", self.authority)))?;
        let _ = stream.set_nodelay(true);
        if self.secure {
            #[cfg(feature = "client-https")]
            {
                let config = match &self.tls {
                    Some(config) => config.clone(),
                    None => super::tls::system().map_err(closed)?,
                };
                let stream = super::tls::open(stream, &self.name, config)
                    .await
                    .map_err(closed)?;
                return self.exchange(stream, request).await;
            }
        }
        self.exchange(stream, request).await
    }

    /// One HTTP/1.1 request and its response on `io`.
    async fn exchange<IO>(
        &self,
        io: IO,
        request: hyper::Request<Full<Bytes>>,
    ) -> Result<hyper::Response<hyper::body::Incoming>, ClientError>
    where
        IO: tokio::io::AsyncRead + tokio::io::AsyncWrite + Send + Unpin + 'static,
    {
        let (mut sender, driver) =
            hyper::client::conn::http1::handshake(hyper_util::rt::TokioIo::new(io))
                .await
                .map_err(|e| closed(format!("HTTP handshake with {}: {e}", self.authority)))?;
        tokio::spawn(driver);
        sender
            .send_request(request)
            .await
            .map_err(|e| closed(format!("HTTP request to {}: {e}", self.authority)))
    }

    /// One opening of the 2025-11-25 session's GET stream: every event routed to `connection`
    /// until the stream ends, `Last-Event-ID` sent when an earlier opening saw an id. `ready`
    /// (when given) hears whether the server opened it. `false` when the server has no such
    /// stream (405) or the session ended (404): do not open again.
    pub(crate) async fn session_stream<C: Inbox>(
        &self,
        connection: &Arc<C>,
        last_id: &mut Option<String>,
        ready: &mut Option<tokio::sync::oneshot::Sender<Result<(), String>>>,
    ) -> bool {
        let mut tell = |answer: Result<(), String>| {
            if let Some(ready) = ready.take() {
                let _ = ready.send(answer);
            }
        };
        let mut request = hyper::Request::get(self.path.as_str())
            .header("host", self.host.as_str())
            .header("accept", "text/event-stream");
        if let Some(session) = self.session() {
            request = request.header("mcp-session-id", session);
        }
        if let Some(version) = self.legacy_version.lock().ok().and_then(|v| v.clone()) {
            request = request.header("mcp-protocol-version", version);
        }
        if let Some(last) = last_id.as_deref() {
            request = request.header("last-event-id", last);
        }
        for (name, value) in self.added_headers() {
            request = request.header(name, value);
        }
        let Ok(request) = request.body(Full::new(Bytes::new())) else {
            tell(Err("the GET request could not be built".into()));
            return false;
        };
        match self.send(request).await {
            Ok(response) if response.status() == hyper::StatusCode::OK => {
                tell(Ok(()));
                let mut body = response.into_body();
                let _ = read_events(&mut body, connection, last_id).await;
                true
            }
            Ok(response) => {
                let status = response.status();
                tell(Err(format!(
                    "the session's GET stream was answered HTTP {status}"
                )));
                !matches!(status.as_u16(), 404 | 405)
            }
            Err(e) => {
                tell(Err(e.to_string()));
                true
            }
        }
    }

    /// The 2025-11-25 session's id, once the server gave one.
    pub(crate) fn session(&self) -> Option<String> {
        self.session.lock().ok().and_then(|s| s.clone())
    }

    /// Ends the 2025-11-25 session, if there is one: DELETE with its id. The server answers
    /// 204, or 405 when it keeps sessions to itself; either way the client forgets the id.
    pub(crate) async fn end(&self) {
        let Some(session) = self.session.lock().ok().and_then(|mut s| s.take()) else {
            return;
        };
        let mut request = hyper::Request::delete(self.path.as_str())
            .header("host", self.host.as_str())
            .header("mcp-session-id", session);
        if let Some(version) = self.legacy_version.lock().ok().and_then(|v| v.clone()) {
            request = request.header("mcp-protocol-version", version);
        }
        for (name, value) in self.added_headers() {
            request = request.header(name, value);
        }
        if let Ok(request) = request.body(Full::new(Bytes::new())) {
            let _ = self.send(request).await;
        }
    }
}

/// A header value as SEP-2243 writes it: as is when it is plain visible ASCII without
/// surrounding space, else the Base64 sentinel.
/// Every `x-mcp-header` under `schema`'s `properties`, at any depth: the header's name and the
/// argument's path.
fn header_params(schema: &Value, path: &mut Vec<String>, found: &mut Vec<HeaderParam>) {
    let Some(properties) = schema.get("properties").and_then(Value::as_object) else {
        return;
    };
    for (key, property) in properties {
        path.push(key.clone());
        if let Some(header) = property.get("x-mcp-header").and_then(Value::as_str) {
            found.push((header.to_owned(), path.clone()));
        }
        header_params(property, path, found);
        path.pop();
    }
}

fn header_value(value: &str) -> String {
    let plain = !value.is_empty()
        && value.bytes().all(|b| (0x20..0x7f).contains(&b))
        && !value.starts_with([' ', '\t'])
        && !value.ends_with([' ', '\t'])
        && !value.starts_with("=?base64?");
    if plain || value.is_empty() {
        value.to_owned()
    } else {
        let encoded = base64::engine::general_purpose::STANDARD.encode(value.as_bytes());
        format!("=?base64?{encoded}?=")
    }
}

/// `host:port` split at the port when there is one (`[::1]:8080` → `[::1]`, 8080).
fn split_port(authority: &str) -> (&str, Option<u16>) {
    match authority.rsplit_once(':') {
        Some((name, port)) if !name.starts_with('[') || name.ends_with(']') => {
            match port.parse::<u16>() {
                Ok(port) => (name, Some(port)),
                Err(_) => (authority, None),
            }
        }
        _ => (authority, None),
    }
}

fn closed(reason: String) -> ClientError {
    ClientError::Closed { reason }
}

/// A whole body, refused past [`MAX_MESSAGE_BYTES`].
async fn read_bounded(body: &mut hyper::body::Incoming) -> Result<Vec<u8>, ClientError> {
    let mut bytes = Vec::new();
    while let Some(frame) = body.frame().await {
        let frame = frame.map_err(|e| closed(format!("reading the answer: {e}")))?;
        if let Some(data) = frame.data_ref() {
            if bytes.len() + data.len() > MAX_MESSAGE_BYTES {
                return Err(closed(format!(
                    "the server sent a message over {MAX_MESSAGE_BYTES} bytes"
                )));
            }
            bytes.extend_from_slice(data);
        }
    }
    Ok(bytes)
}

/// Reads an event stream, routing each event's message; an event over the bound, or a
/// message the reader refuses, ends it with the reason.
/// Routes every event of `body` to `connection`; `last_id` keeps the id of the last event that
/// had one (for `Last-Event-ID`).
async fn read_events<C: Inbox>(
    body: &mut hyper::body::Incoming,
    connection: &Arc<C>,
    last_id: &mut Option<String>,
) -> Result<(), String> {
    let mut events = EventReader::default();
    while let Some(frame) = body.frame().await {
        let frame = frame.map_err(|e| format!("reading the event stream: {e}"))?;
        let Some(data) = frame.data_ref() else {
            continue;
        };
        let done = events.feed(data)?;
        if events.last_id.is_some() {
            last_id.clone_from(&events.last_id);
        }
        for message in done {
            match read(&message) {
                Ok(message) => connection.route(message),
                Err(e) => {
                    return Err(format!(
                        "the server sent an event refused by the reader: {e}"
                    ));
                }
            }
        }
    }
    Ok(())
}

/// An event stream read line by line as the SSE format has it: a line ends at CR LF, LF or CR
/// (mixed in one stream too), a blank line ends an event, and an event's `data:` lines are
/// joined by LF; an event's `id:` is kept as the last one seen; other fields (`event:`,
/// `retry:`) and comments are skipped.
#[derive(Default)]
struct EventReader {
    line: Vec<u8>,
    data: Option<Vec<u8>>,
    /// The `id:` of the event being read.
    id: Option<String>,
    /// The id of the last event dispatched that had one.
    last_id: Option<String>,
    /// The last byte was a CR: an LF right after it ends no second line.
    after_cr: bool,
}

impl EventReader {
    /// The data of each event `bytes` completes.
    fn feed(&mut self, bytes: &[u8]) -> Result<Vec<Vec<u8>>, String> {
        let mut done = Vec::new();
        for &byte in bytes {
            let after_cr = std::mem::replace(&mut self.after_cr, byte == b'\r');
            match byte {
                b'\n' if after_cr => {}
                b'\r' | b'\n' => {
                    let line = std::mem::take(&mut self.line);
                    if line.is_empty() {
                        if let Some(id) = self.id.take() {
                            self.last_id = Some(id);
                        }
                        if let Some(data) = self.data.take().filter(|d| !d.is_empty()) {
                            done.push(data);
                        }
                    } else if let Some(value) = line.strip_prefix(b"id:") {
                        let value = value.strip_prefix(b" ").unwrap_or(value);
                        // An id with NUL is ignored, as SSE has it.
                        if !value.contains(&0) {
                            self.id = Some(String::from_utf8_lossy(value).into_owned());
                        }
                    } else if let Some(value) = line.strip_prefix(b"data:") {
                        let value = value.strip_prefix(b" ").unwrap_or(value);
                        let data = self.data.get_or_insert_with(Vec::new);
                        if !data.is_empty() {
                            data.push(b'\n');
                        }
                        data.extend_from_slice(value);
                        if data.len() > MAX_MESSAGE_BYTES {
                            return Err(format!(
                                "the server sent an event over {MAX_MESSAGE_BYTES} bytes"
                            ));
                        }
                    }
                }
                other => {
                    if self.line.len() >= MAX_MESSAGE_BYTES + 8 {
                        return Err(format!(
                            "the server sent an event line over {MAX_MESSAGE_BYTES} bytes"
                        ));
                    }
                    self.line.push(other);
                }
            }
        }
        Ok(done)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn events_end_at_blank_lines_whatever_the_line_endings() {
        // LF, CR LF, a rewritten line ending in LF before a CR LF blank line (what a proxy may
        // write), a bare CR, a comment and an id-only event, fed a byte at a time and whole.
        let stream: &[u8] =
            b"id: 1\ndata: {\"a\":1}\n\nid: 2\r\ndata: {\"b\":\r\ndata: 2}\r\n\r\ndata: 3\n\r\ndata: 4\r\r: c\n\nid: 9\n\n";
        let want: Vec<Vec<u8>> = vec![
            b"{\"a\":1}".to_vec(),
            b"{\"b\":\n2}".to_vec(),
            b"3".to_vec(),
            b"4".to_vec(),
        ];
        let mut whole = EventReader::default();
        assert_eq!(whole.feed(stream).unwrap(), want);
        let mut bytewise = EventReader::default();
        let mut got = Vec::new();
        for byte in stream {
            got.extend(bytewise.feed(std::slice::from_ref(byte)).unwrap());
        }
        assert_eq!(got, want);
    }

    #[test]
    fn an_event_over_the_bound_is_refused() {
        let mut reader = EventReader::default();
        let mut big = b"data: ".to_vec();
        big.extend(std::iter::repeat_n(b'x', MAX_MESSAGE_BYTES + 16));
        assert!(reader.feed(&big).is_err());
    }

    #[test]
    fn header_values_take_the_sentinel_only_when_needed() {
        assert_eq!(header_value("get_weather"), "get_weather");
        assert_eq!(
            header_value("weather://station/Oslo"),
            "weather://station/Oslo"
        );
        assert_eq!(header_value("Zürich"), "=?base64?WsO8cmljaA==?=");
        assert_eq!(header_value(" padded"), "=?base64?IHBhZGRlZA==?=");
        assert_eq!(header_value("=?base64?x?="), "=?base64?PT9iYXNlNjQ/eD89?=");
    }

    #[test]
    fn marked_arguments_become_param_headers() {
        let endpoint = Endpoint::parse("http://127.0.0.1:1/mcp", Vec::new()).unwrap();
        let tool = super::super::ListedTool::read(serde_json::json!({
            "name": "find",
            "inputSchema": { "type": "object", "properties": {
                "region": { "type": "string", "x-mcp-header": "Region" },
                "filter": { "type": "object", "properties": {
                    "limit": { "type": "integer", "x-mcp-header": "Limit" },
                    "exact": { "type": "boolean", "x-mcp-header": "Exact" } } },
                "text": { "type": "string" } } }
        }))
        .unwrap();
        assert!(!endpoint.knows_params("find"));
        endpoint.learn(&[tool]);
        assert!(endpoint.knows_params("find"));
        assert!(
            !endpoint.knows_params("other"),
            "a tool added later is listed again"
        );
        let call = |arguments: Value| {
            let message = serde_json::json!({ "method": "tools/call",
                "params": { "name": "find", "arguments": arguments } });
            let mut headers = endpoint.param_headers(&message);
            headers.sort();
            headers
        };
        let h = |n: &str, v: &str| (n.to_owned(), v.to_owned());
        assert_eq!(
            call(
                serde_json::json!({ "region": "Zürich", "filter": { "limit": 3.0, "exact": true }, "text": "x" })
            ),
            [
                h("mcp-param-Exact", "true"),
                h("mcp-param-Limit", "3"),
                h("mcp-param-Region", "=?base64?WsO8cmljaA==?=")
            ]
        );
        assert_eq!(
            call(serde_json::json!({ "text": "x" })),
            [],
            "absent: no header"
        );
    }

    #[test]
    fn endpoints_are_read_with_their_default_ports() {
        let endpoint = Endpoint::parse("http://127.0.0.1:8080/mcp", Vec::new()).unwrap();
        assert_eq!(
            (endpoint.authority.as_str(), endpoint.path.as_str()),
            ("127.0.0.1:8080", "/mcp")
        );
        let endpoint = Endpoint::parse("http://localhost/mcp", Vec::new()).unwrap();
        assert_eq!(
            (endpoint.authority.as_str(), endpoint.host.as_str()),
            ("localhost:80", "localhost"),
            "the default port to connect to, the Host header as written"
        );
        let endpoint = Endpoint::parse("http://[::1]/mcp", Vec::new()).unwrap();
        assert_eq!(endpoint.authority, "[::1]:80");
        let endpoint = Endpoint::parse("http://[::1]:9/mcp", Vec::new()).unwrap();
        assert_eq!(
            (endpoint.authority.as_str(), endpoint.name.as_str()),
            ("[::1]:9", "[::1]")
        );
        let https = Endpoint::parse("https://example.com/mcp", Vec::new());
        #[cfg(feature = "client-https")]
        {
            let endpoint = https.unwrap();
            assert_eq!(
                (
                    endpoint.authority.as_str(),
                    endpoint.name.as_str(),
                    endpoint.secure
                ),
                ("example.com:443", "example.com", true)
            );
        }
        #[cfg(not(feature = "client-https"))]
        assert!(https.err().unwrap().to_string().contains("client-https"));
        assert!(Endpoint::parse("ftp://example.com/mcp", Vec::new()).is_err());
        assert!(Endpoint::parse("http://user@host/mcp", Vec::new()).is_err());
    }
}

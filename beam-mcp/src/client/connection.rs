//! One connection to a server over a byte stream of newline-delimited JSON-RPC: requests out
//! with their answers matched back by id, the server's notifications (progress to the request
//! that asked for it, logs and the rest to the host's handlers) and its requests (elicitation,
//! roots, ping at 2025-11-25) answered by the host's handlers. Every message read passes the
//! same bounds as the server's reader: 1 MiB, 64 levels, no repeated key.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::{Value, json};
use tokio::io::{AsyncBufRead, AsyncBufReadExt, AsyncWrite, AsyncWriteExt};
use tokio::sync::oneshot;

use super::error::ClientError;
use super::handlers::Handlers;
use crate::json::{MAX_MESSAGE_BYTES, read};
use crate::testing::Heard;

type Writer = Box<dyn AsyncWrite + Send + Unpin>;
type Answer = Result<Value, ClientError>;

/// A request waiting for its answer.
struct Pending {
    answer: oneshot::Sender<Answer>,
    /// Where its progress notifications go (and a listen request's notifications).
    progress: Option<Arc<dyn Fn(Heard) + Send + Sync>>,
    /// The task reading its HTTP event stream: stopped when the request is dropped, which
    /// closes the stream (the 2026-07-28 cancel).
    reader: Option<tokio::task::AbortHandle>,
}

/// Where messages go.
enum Outlet {
    /// A byte stream's writer: one line a message.
    Stream(tokio::sync::Mutex<Writer>),
    /// An HTTP endpoint: one POST a message.
    #[cfg(feature = "client-http")]
    Http(Box<super::http::Endpoint>),
}

pub(crate) struct Connection {
    outlet: Outlet,
    pending: Mutex<HashMap<u64, Pending>>,
    next_id: AtomicU64,
    /// Why the connection ended, once it has.
    closed: Mutex<Option<String>>,
    handlers: Handlers,
    /// Whether a dropped request is announced with `notifications/cancelled`.
    pub(crate) announce_cancel: std::sync::atomic::AtomicBool,
    /// Where the session's unsolicited list changes and resource updates go besides
    /// `on_heard` (2025-11-25 listens); a sender whose receiver is gone is dropped.
    listeners: Mutex<Vec<tokio::sync::mpsc::Sender<Heard>>>,
    /// The task holding the 2025-11-25 session's GET stream open, while a listener needs it.
    session_stream: Mutex<Option<tokio::task::JoinHandle<()>>>,
}

impl Connection {
    /// A connection over `reader` and `writer`, its reading task spawned on the current
    /// runtime.
    pub(crate) fn open<R>(reader: R, writer: Writer, handlers: Handlers) -> Arc<Connection>
    where
        R: AsyncBufRead + Send + Unpin + 'static,
    {
        let connection = Connection::new(Outlet::Stream(tokio::sync::Mutex::new(writer)), handlers);
        tokio::spawn(read_loop(Arc::downgrade(&connection), reader));
        connection
    }

    /// A connection to an HTTP endpoint: what comes back is read with each POST.
    #[cfg(feature = "client-http")]
    pub(crate) fn open_http(
        endpoint: super::http::Endpoint,
        handlers: Handlers,
    ) -> Arc<Connection> {
        Connection::new(Outlet::Http(Box::new(endpoint)), handlers)
    }

    fn new(outlet: Outlet, handlers: Handlers) -> Arc<Connection> {
        Arc::new(Connection {
            outlet,
            pending: Mutex::new(HashMap::new()),
            next_id: AtomicU64::new(1),
            closed: Mutex::new(None),
            handlers,
            announce_cancel: std::sync::atomic::AtomicBool::new(false),
            listeners: Mutex::new(Vec::new()),
            session_stream: Mutex::new(None),
        })
    }

    /// Opens the 2025-11-25 session's GET stream (HTTP) if none is open: held, and opened again
    /// with `Last-Event-ID` 1 s after it ends, while a session listener remains. `ready` hears
    /// when the server has opened it (at once over a pipe, or when one is open already).
    pub(crate) fn keep_session_stream(
        self: &Arc<Self>,
        ready: tokio::sync::oneshot::Sender<Result<(), String>>,
    ) {
        #[cfg(feature = "client-http")]
        {
            if !matches!(self.outlet, Outlet::Http(_)) {
                let _ = ready.send(Ok(()));
                return;
            }
            let Ok(mut slot) = self.session_stream.lock() else {
                let _ = ready.send(Err("the connection's state is poisoned".into()));
                return;
            };
            if slot.as_ref().is_some_and(|task| !task.is_finished()) {
                let _ = ready.send(Ok(()));
                return;
            }
            let connection = Arc::downgrade(self);
            let mut ready = Some(ready);
            *slot = Some(tokio::spawn(async move {
                let mut last_id = None;
                loop {
                    let Some(alive) = connection.upgrade().filter(|c| c.has_listeners()) else {
                        return;
                    };
                    let Outlet::Http(endpoint) = &alive.outlet else {
                        return;
                    };
                    if !endpoint
                        .session_stream(&alive, &mut last_id, &mut ready)
                        .await
                    {
                        return;
                    }
                    drop(alive);
                    tokio::time::sleep(Duration::from_secs(1)).await;
                }
            }));
        }
        #[cfg(not(feature = "client-http"))]
        let _ = ready.send(Ok(()));
    }

    /// Ends the session's GET stream once no listener needs it.
    pub(crate) fn release_session_stream(&self) {
        if !self.has_listeners()
            && let Ok(mut slot) = self.session_stream.lock()
            && let Some(task) = slot.take()
        {
            task.abort();
        }
    }

    /// Hands the session's list changes and resource updates to `to` too (2025-11-25).
    pub(crate) fn listen(&self, to: tokio::sync::mpsc::Sender<Heard>) {
        if let Ok(mut listeners) = self.listeners.lock() {
            listeners.retain(|l| !l.is_closed());
            listeners.push(to);
        }
    }

    /// Whether a session listener is still there (the GET stream is kept while one is).
    pub(crate) fn has_listeners(&self) -> bool {
        self.listeners
            .lock()
            .is_ok_and(|l| l.iter().any(|l| !l.is_closed()))
    }

    /// Ties the task reading request `id`'s event stream to the request: dropped with it.
    #[cfg_attr(
        not(feature = "client-http"),
        allow(dead_code, reason = "event streams are HTTP's")
    )]
    pub(crate) fn attach_reader(&self, id: u64, reader: tokio::task::AbortHandle) {
        if let Ok(mut pending) = self.pending.lock()
            && let Some(waiting) = pending.get_mut(&id)
        {
            waiting.reader = Some(reader);
        }
    }

    /// Learns the listed tools' `Mcp-Param-*` arguments (HTTP only).
    pub(crate) fn learn_tools(&self, tools: &[super::ListedTool]) {
        #[cfg(feature = "client-http")]
        if let Outlet::Http(endpoint) = &self.outlet {
            endpoint.learn(tools);
        }
        #[cfg(not(feature = "client-http"))]
        let _ = tools;
    }

    /// Whether a call of `tool` can get its `Mcp-Param-*` headers now: over a pipe there are
    /// none; over HTTP once a listing showed the tool.
    pub(crate) fn knows_tool_params(&self, tool: &str) -> bool {
        #[cfg(not(feature = "client-http"))]
        let _ = tool;
        match &self.outlet {
            Outlet::Stream(_) => true,
            #[cfg(feature = "client-http")]
            Outlet::Http(endpoint) => endpoint.knows_params(tool),
        }
    }

    /// Whether messages go down a pipe (stdio), not as HTTP requests.
    pub(crate) fn over_stdio(&self) -> bool {
        matches!(self.outlet, Outlet::Stream(_))
    }

    /// Records the agreed 2025-11-25 version for the transport's headers.
    pub(crate) fn agreed(&self, _version: &str) {
        #[cfg(feature = "client-http")]
        if let Outlet::Http(endpoint) = &self.outlet {
            endpoint.agreed(_version);
        }
    }

    /// The HTTP session's id (2025-11-25), once the server gave one.
    pub(crate) fn session_id(&self) -> Option<String> {
        match &self.outlet {
            #[cfg(feature = "client-http")]
            Outlet::Http(endpoint) => endpoint.session(),
            Outlet::Stream(_) => None,
        }
    }

    /// Ends what the transport keeps open on the server's side: an HTTP session.
    pub(crate) async fn end(&self) {
        #[cfg(feature = "client-http")]
        if let Outlet::Http(endpoint) = &self.outlet {
            endpoint.end().await;
        }
    }

    /// Answers request `id`, if it still waits, with `Closed` and `reason`.
    #[cfg_attr(not(feature = "client-http"), allow(dead_code))]
    pub(crate) fn fail(&self, id: u64, reason: String) {
        let waiting = self.pending.lock().ok().and_then(|mut p| p.remove(&id));
        if let Some(waiting) = waiting {
            let _ = waiting.answer.send(Err(ClientError::Closed { reason }));
        }
    }

    /// Sends `method` with `params` and waits for its answer, at most `limit`. Dropping the
    /// future cancels the request.
    pub(crate) async fn request(
        self: &Arc<Self>,
        method: &str,
        mut params: Value,
        progress: Option<Arc<dyn Fn(Heard) + Send + Sync>>,
        limit: Duration,
    ) -> Answer {
        let id = self.next_id.fetch_add(1, Ordering::Relaxed);
        if progress.is_some()
            && let Some(meta) = params
                .as_object_mut()
                .map(|p| p.entry("_meta").or_insert_with(|| json!({})))
            && let Some(meta) = meta.as_object_mut()
        {
            meta.insert("progressToken".into(), json!(id));
        }
        let (answer, answered) = oneshot::channel();
        {
            if let Some(reason) = self.closed.lock().map(|c| c.clone()).unwrap_or(None) {
                return Err(ClientError::Closed { reason });
            }
            if let Ok(mut pending) = self.pending.lock() {
                pending.insert(
                    id,
                    Pending {
                        answer,
                        progress,
                        reader: None,
                    },
                );
            }
        }
        let mut guard = Outstanding {
            connection: self,
            id,
            done: false,
        };
        let message = json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params });
        // The limit covers sending too: a server that stops reading its input, or an endpoint
        // that never answers a POST's headers, ends in `Timeout`, not a call that never returns.
        let exchange = async {
            self.write(&message).await?;
            match answered.await {
                Ok(answer) => answer,
                Err(_) => Err(ClientError::Closed {
                    reason: self.close_reason(),
                }),
            }
        };
        let answer = match tokio::time::timeout(limit, exchange).await {
            Ok(answer) => answer,
            Err(_) => Err(ClientError::Timeout {
                method: method.to_owned(),
                after: limit,
            }),
        };
        if !matches!(answer, Err(ClientError::Timeout { .. })) {
            guard.done = true;
        }
        answer
    }

    /// Sends a notification.
    pub(crate) async fn notify(
        self: &Arc<Self>,
        method: &str,
        params: Value,
    ) -> Result<(), ClientError> {
        self.write(&json!({ "jsonrpc": "2.0", "method": method, "params": params }))
            .await
    }

    async fn write(self: &Arc<Self>, message: &Value) -> Result<(), ClientError> {
        match &self.outlet {
            Outlet::Stream(writer) => {
                let mut line = serde_json::to_vec(message).unwrap_or_default();
                line.push(b'\n');
                let mut writer = writer.lock().await;
                let written = match writer.write_all(&line).await {
                    Ok(()) => writer.flush().await,
                    Err(e) => Err(e),
                };
                written.map_err(|e| match e.kind() {
                    // The server's end of the pipe is gone: the process ended.
                    std::io::ErrorKind::BrokenPipe => ClientError::Closed {
                        reason: "the server closed its input".to_owned(),
                    },
                    _ => ClientError::Write(e),
                })
            }
            #[cfg(feature = "client-http")]
            Outlet::Http(endpoint) => endpoint.post(self, message).await,
        }
    }

    fn close_reason(&self) -> String {
        self.closed
            .lock()
            .ok()
            .and_then(|c| c.clone())
            .unwrap_or_else(|| "the connection ended".to_owned())
    }

    /// Ends the connection: every waiting request is answered `Closed` with `reason`.
    fn close(&self, reason: String) {
        if let Ok(mut closed) = self.closed.lock() {
            closed.get_or_insert(reason.clone());
        }
        let pending: Vec<Pending> = match self.pending.lock() {
            Ok(mut pending) => pending.drain().map(|(_, p)| p).collect(),
            Err(_) => Vec::new(),
        };
        for p in pending {
            let _ = p.answer.send(Err(ClientError::Closed {
                reason: reason.clone(),
            }));
        }
    }

    /// Routes one message from the server.
    pub(crate) fn route(self: &Arc<Self>, message: Value) {
        let method = message
            .get("method")
            .and_then(Value::as_str)
            .map(str::to_owned);
        let id = message.get("id").cloned();
        match (method, id) {
            // An answer to one of ours.
            (None, Some(id)) => {
                let Some(id) = id.as_u64() else { return };
                let waiting = self.pending.lock().ok().and_then(|mut p| p.remove(&id));
                if let Some(waiting) = waiting {
                    let answer = match message.get("error") {
                        Some(error) => {
                            let (code, message, data) = crate::testing::error_parts(error);
                            Err(ClientError::Protocol {
                                code,
                                message,
                                data,
                            })
                        }
                        None => Ok(message.get("result").cloned().unwrap_or(Value::Null)),
                    };
                    let _ = waiting.answer.send(answer);
                }
            }
            // A request of the server's (2025-11-25): answered by the host's handlers, apart
            // from the reading loop.
            (Some(method), Some(id)) => {
                let connection = Arc::clone(self);
                let params = message.get("params").cloned().unwrap_or(Value::Null);
                tokio::spawn(async move {
                    let answer = match connection.handlers.answer(&method, params).await {
                        Ok(result) => json!({ "jsonrpc": "2.0", "id": id, "result": result }),
                        Err((code, text)) => json!({
                            "jsonrpc": "2.0", "id": id,
                            "error": { "code": code, "message": text },
                        }),
                    };
                    let _ = connection.write(&answer).await;
                });
            }
            (Some(method), None) => {
                if method == "notifications/progress" {
                    let token = message
                        .pointer("/params/progressToken")
                        .and_then(Value::as_u64);
                    let to = token.and_then(|t| {
                        self.pending
                            .lock()
                            .ok()
                            .and_then(|p| p.get(&t).and_then(|w| w.progress.clone()))
                    });
                    if let Some(to) = to {
                        to(Heard::read(message));
                        return;
                    }
                }
                // A 2026-07-28 listen stream's notification names its request.
                let subscription = message
                    .pointer("/params/_meta")
                    .and_then(|m| m.get(crate::revision::META_SUBSCRIPTION_ID))
                    .and_then(Value::as_u64);
                let to = subscription.and_then(|s| {
                    self.pending
                        .lock()
                        .ok()
                        .and_then(|p| p.get(&s).and_then(|w| w.progress.clone()))
                });
                if let Some(to) = to {
                    to(Heard::read(message));
                    return;
                }
                if method.starts_with("notifications/") && is_session_change(&method) {
                    let heard = Heard::read(message.clone());
                    if let Ok(mut listeners) = self.listeners.lock() {
                        listeners.retain(|l| !l.is_closed());
                        for l in listeners.iter() {
                            let _ = l.try_send(heard.clone());
                        }
                    }
                }
                self.handlers.heard(Heard::read(message));
            }
            (None, None) => {}
        }
    }
}

/// A request sent and not yet answered: dropped before its answer (the caller's future
/// dropped, or its time limit passed), it is forgotten and, where the transport needs it,
/// announced cancelled (`Connection::announce_cancel`).
struct Outstanding<'a> {
    connection: &'a Arc<Connection>,
    id: u64,
    done: bool,
}

impl Drop for Outstanding<'_> {
    fn drop(&mut self) {
        if self.done {
            return;
        }
        let dropped = self
            .connection
            .pending
            .lock()
            .ok()
            .and_then(|mut pending| pending.remove(&self.id));
        if let Some(reader) = dropped.and_then(|d| d.reader) {
            reader.abort();
        }
        if self.connection.announce_cancel.load(Ordering::Relaxed)
            && let Ok(runtime) = tokio::runtime::Handle::try_current()
        {
            let connection = Arc::clone(self.connection);
            let id = self.id;
            runtime.spawn(async move {
                let params = json!({ "requestId": id, "reason": "the client cancelled it" });
                let _ = connection.notify("notifications/cancelled", params).await;
            });
        }
    }
}

/// Reads the server's messages until the stream ends or breaks a bound.
async fn read_loop<R>(connection: std::sync::Weak<Connection>, mut reader: R)
where
    R: AsyncBufRead + Send + Unpin,
{
    let mut line = Vec::new();
    let reason = loop {
        line.clear();
        match read_line(&mut reader, &mut line).await {
            Ok(false) => break "the server closed its output".to_owned(),
            Err(reason) => break reason,
            Ok(true) => {}
        }
        if line.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        let Some(connection) = connection.upgrade() else {
            return;
        };
        match read(&line) {
            Ok(message) => connection.route(message),
            Err(error) => {
                break format!("the server sent a message refused by the reader: {error}");
            }
        }
    };
    if let Some(connection) = connection.upgrade() {
        connection.close(reason);
    }
}

/// One line into `line`, without its newline: `Ok(false)` at the end of the stream, an error
/// for a line over [`MAX_MESSAGE_BYTES`] (read no further: the bound is the point).
async fn read_line<R>(reader: &mut R, line: &mut Vec<u8>) -> Result<bool, String>
where
    R: AsyncBufRead + Unpin,
{
    loop {
        let available = match reader.fill_buf().await {
            Ok(available) => available,
            Err(e) => return Err(format!("cannot read from the server: {e}")),
        };
        if available.is_empty() {
            return Ok(!line.is_empty());
        }
        let (taken, end) = match available.iter().position(|b| *b == b'\n') {
            Some(at) => (at + 1, true),
            None => (available.len(), false),
        };
        let content = if end { taken - 1 } else { taken };
        if line.len() + content > MAX_MESSAGE_BYTES {
            return Err(format!(
                "the server sent a message over {MAX_MESSAGE_BYTES} bytes"
            ));
        }
        line.extend_from_slice(&available[..content]);
        reader.consume(taken);
        if end {
            return Ok(true);
        }
    }
}

#[cfg(feature = "client-http")]
impl super::http::Inbox for Connection {
    fn route(self: &Arc<Self>, message: Value) {
        Connection::route(self, message);
    }

    fn fail(&self, id: u64, reason: String) {
        Connection::fail(self, id, reason);
    }

    fn attach_reader(&self, id: u64, reader: tokio::task::AbortHandle) {
        Connection::attach_reader(self, id, reader);
    }
}

/// A notification a session's listener hears: a list changed, or a subscribed resource.
fn is_session_change(method: &str) -> bool {
    matches!(
        method,
        "notifications/tools/list_changed"
            | "notifications/prompts/list_changed"
            | "notifications/resources/list_changed"
            | "notifications/resources/updated"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_line_over_the_bound_is_refused_without_reading_it_all() {
        let big = vec![b'x'; MAX_MESSAGE_BYTES + 10];
        let mut reader = tokio::io::BufReader::new(&big[..]);
        let mut line = Vec::new();
        let refused = read_line(&mut reader, &mut line).await.unwrap_err();
        assert!(refused.contains("over 1048576 bytes"), "{refused}");
        let mut reader = tokio::io::BufReader::new(&b"{\"a\":1}\n{}"[..]);
        let mut line = Vec::new();
        assert!(read_line(&mut reader, &mut line).await.unwrap());
        assert_eq!(line, b"{\"a\":1}");
        line.clear();
        assert!(read_line(&mut reader, &mut line).await.unwrap());
        assert_eq!(line, b"{}");
        line.clear();
        assert!(!read_line(&mut reader, &mut line).await.unwrap());
    }
}

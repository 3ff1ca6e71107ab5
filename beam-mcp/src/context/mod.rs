//! The request context: what host code may know of, and say to, the caller of one request.
//!
//! A host function takes it as a parameter (`ctx: Context`), the way it takes
//! [`State<T>`](crate::State). Clones share one request: a notification sent through any clone
//! after the response was produced is refused, never written.

mod asks;
mod cancel;
mod outbox;
mod principal;

use std::any::Any;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};

use serde::Serialize;
use serde_json::{Map, Value, json};

pub use crate::level::{LogLevel, UnknownLevel};
pub use asks::Ask;
pub(crate) use cancel::CancelFlag;
pub(crate) use outbox::{Outbox, Refused};
pub(crate) use principal::Principal;

use crate::ask::{ClientRequests, Round};
use crate::revision::Revision;
use crate::task::Task;

/// Everything a host function may know of the request it serves, and the ways it may speak
/// back before its result: progress, logs, and noticing that the caller gave up.
///
/// ```
/// use beam_mcp::{Context, LogLevel};
///
/// /// Counts to `to`, reporting progress on the way.
/// #[beam_mcp::tool]
/// async fn count(to: u32, ctx: Context) -> String {
///     for i in 1..=to {
///         if ctx.is_cancelled() {
///             break;
///         }
///         // Refused (and harmless) when the caller did not ask for progress.
///         let _ = ctx.progress(f64::from(i), Some(f64::from(to)), None);
///     }
///     let _ = ctx.log(LogLevel::Info, "counted");
///     format!("counted to {to}")
/// }
/// # let _ = count::DEF;
/// ```
#[derive(Clone, Default)]
pub struct Context {
    shared: Arc<Shared>,
}

#[derive(Default)]
struct Shared {
    revision: Option<Revision>,
    meta: Map<String, Value>,
    client: Client,
    principal: Option<Principal>,
    progress_token: Option<Value>,
    log_level: Option<LogLevel>,
    outbox: Option<Arc<Outbox>>,
    /// The multi-round-trip bookkeeping (2026-07-28 requests that may ask the client).
    round: Option<Box<Round>>,
    /// The session's requests to its client (2025-11-25), and how long an answer may take.
    client_requests: Option<Arc<ClientRequests>>,
    ask_time_limit: std::time::Duration,
    /// The task this call became (the tasks extension), once it did.
    task: OnceLock<Arc<Task>>,
    cancel: CancelFlag,
    /// The bits of the last progress sent; NaN before the first.
    last_progress: AtomicU64,
    /// The transport's place for this request among those working (an HTTP in-flight slot),
    /// while it works: given back when it waits on its client or ends.
    place: std::sync::Mutex<Option<Box<dyn std::any::Any + Send>>>,
}

/// Why a notification was not sent.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum NotSent {
    /// The request did not ask for it: no `progressToken`, no log level (or one above this
    /// message's), or an item whose definition does not take a context.
    #[error("the request did not ask for this notification")]
    NotRequested,
    /// The response was already produced; nothing follows it.
    #[error("the response was already sent")]
    Finished,
    /// Progress must increase strictly.
    #[error("progress must increase: {given} after {last}")]
    NotIncreasing {
        /// The last progress sent.
        last: f64,
        /// The refused value.
        given: f64,
    },
    /// Progress must be a finite number.
    #[error("progress must be a finite number")]
    NotFinite,
    /// The request's notification queue is full (the client reads slowly); see
    /// `ServerBuilder::notification_queue`.
    #[error("the notification queue is full")]
    QueueFull,
    /// The log data could not be serialized.
    #[error("the log data could not be serialized: {0}")]
    Unserializable(String),
}

/// What `initialize` told us of the client.
#[derive(Debug, Clone, Default)]
pub(crate) struct Hello {
    /// The revision `initialize` agreed.
    pub(crate) version: Option<crate::revision::Revision>,
    pub(crate) info: Option<Value>,
    pub(crate) capabilities: Option<Map<String, Value>>,
}

/// Where the client's info and capabilities come from.
pub(crate) enum Client {
    /// This request's `_meta` (2026-07-28).
    Request {
        info: Option<Value>,
        capabilities: Option<Map<String, Value>>,
    },
    /// The session's `initialize` (2025-11-25), if it happened.
    Session(Option<Arc<Hello>>),
}

impl Default for Client {
    fn default() -> Self {
        Client::Session(None)
    }
}

/// What the core knows when it builds a request's context.
pub(crate) struct Parts {
    pub(crate) revision: Option<Revision>,
    pub(crate) meta: Map<String, Value>,
    pub(crate) client: Client,
    pub(crate) principal: Option<Principal>,
    pub(crate) progress_token: Option<Value>,
    pub(crate) log_level: Option<LogLevel>,
    pub(crate) outbox: Option<Arc<Outbox>>,
    pub(crate) round: Option<Box<Round>>,
    pub(crate) client_requests: Option<Arc<ClientRequests>>,
    pub(crate) ask_time_limit: std::time::Duration,
}

impl Context {
    pub(crate) fn from_parts(parts: Parts) -> Self {
        Context {
            shared: Arc::new(Shared {
                revision: parts.revision,
                meta: parts.meta,
                client: parts.client,
                principal: parts.principal,
                progress_token: parts.progress_token,
                log_level: parts.log_level,
                outbox: parts.outbox,
                round: parts.round,
                client_requests: parts.client_requests,
                ask_time_limit: parts.ask_time_limit,
                task: OnceLock::new(),
                cancel: CancelFlag::default(),
                last_progress: AtomicU64::new(f64::NAN.to_bits()),
                place: std::sync::Mutex::new(None),
            }),
        }
    }

    /// A context shared by the calls whose host code never reads one
    /// ([`ToolDef::reads_request`](crate::ToolDef::reads_request) cleared): empty, never
    /// cancelled, never registered; nothing the core does to a request reaches it.
    pub(crate) fn inert() -> Context {
        static INERT: std::sync::LazyLock<Context> = std::sync::LazyLock::new(Context::default);
        INERT.clone()
    }

    /// The revision the request was served under (`None`: a legacy-shaped request that named
    /// none).
    pub fn revision(&self) -> Option<Revision> {
        self.shared.revision
    }

    /// The caller's identity, as the transport's `authorize` hook returned it, if it is a `P`.
    ///
    /// ```
    /// let ctx = beam_mcp::Context::default();
    /// assert!(ctx.principal::<String>().is_none());
    /// ```
    pub fn principal<P: Any + Send + Sync>(&self) -> Option<&P> {
        self.shared.principal.as_ref()?.value().downcast_ref()
    }

    /// The client's `Implementation` (`name`, `version`, ...), if it sent one: from this
    /// request's `_meta` at 2026-07-28, from `initialize` on a 2025-11-25 session. Never an
    /// authority: a client may claim any name.
    pub fn client_info(&self) -> Option<&Value> {
        match &self.shared.client {
            Client::Request { info, .. } => info.as_ref(),
            Client::Session(hello) => hello.as_ref()?.info.as_ref(),
        }
    }

    /// The client's capabilities for this request, if known.
    pub fn client_capabilities(&self) -> Option<&Map<String, Value>> {
        match &self.shared.client {
            Client::Request { capabilities, .. } => capabilities.as_ref(),
            Client::Session(hello) => hello.as_ref()?.capabilities.as_ref(),
        }
    }

    /// Whether the client renders MCP Apps views: its capabilities declare the extension
    /// `io.modelcontextprotocol/ui` with the type `text/html;profile=mcp-app`. A tool with a
    /// view answers with text the model can use either way; one may say less in text when
    /// the view will show it.
    ///
    /// ```
    /// assert!(!beam_mcp::Context::default().client_renders_views());
    /// ```
    pub fn client_renders_views(&self) -> bool {
        self.client_capabilities()
            .is_some_and(crate::app::renders_views)
    }

    /// The request's `params._meta` as sent, less the members the core reads itself, each of
    /// which has its own accessor: the protocol version ([`revision`](Self::revision)), the
    /// client's capabilities and info, the progress token and (at 2026-07-28) the log level.
    /// What is left is the client's own: a W3C `traceparent`, a key of its namespace.
    ///
    /// ```
    /// assert!(beam_mcp::Context::default().meta().is_empty());
    /// ```
    pub fn meta(&self) -> &Map<String, Value> {
        &self.shared.meta
    }

    /// The request's `progressToken`, if it asked for progress.
    pub fn progress_token(&self) -> Option<&Value> {
        self.shared.progress_token.as_ref()
    }

    /// The lowest level this request receives logs at, if any.
    pub fn log_level(&self) -> Option<LogLevel> {
        self.shared.log_level
    }

    /// Sends `notifications/progress`: `done` of `total`, with an optional message. `done` must
    /// increase strictly from one call to the next. A full queue merges progress updates (the
    /// newest is kept), so this is never [`NotSent::QueueFull`].
    pub fn progress(
        &self,
        done: f64,
        total: Option<f64>,
        message: Option<&str>,
    ) -> Result<(), NotSent> {
        let (Some(token), Some(outbox)) = (&self.shared.progress_token, &self.shared.outbox) else {
            return Err(NotSent::NotRequested);
        };
        if !done.is_finite() || total.is_some_and(|t| !t.is_finite()) {
            return Err(NotSent::NotFinite);
        }
        let last = f64::from_bits(self.shared.last_progress.load(Ordering::Acquire));
        if done <= last {
            return Err(NotSent::NotIncreasing { last, given: done });
        }
        let mut params = Map::new();
        params.insert("progressToken".into(), token.clone());
        params.insert("progress".into(), json!(done));
        if let Some(total) = total {
            params.insert("total".into(), json!(total));
        }
        if let Some(message) = message {
            params.insert("message".into(), Value::from(message));
        }
        // Claimed before it is queued: of two racing clones, only the larger value goes out.
        if self
            .shared
            .last_progress
            .compare_exchange(
                last.to_bits(),
                done.to_bits(),
                Ordering::AcqRel,
                Ordering::Acquire,
            )
            .is_err()
        {
            let last = f64::from_bits(self.shared.last_progress.load(Ordering::Acquire));
            return Err(NotSent::NotIncreasing { last, given: done });
        }
        push(outbox, "notifications/progress", params, Some("progress"))
    }

    /// Sends `notifications/message` at `level` with `data` (any JSON), when the request asked
    /// for logs at or below `level`. Never log credentials or personal data: the client shows it.
    pub fn log(&self, level: LogLevel, data: impl Serialize) -> Result<(), NotSent> {
        self.log_message(level, None, data)
    }

    /// [`log`](Self::log) with a `logger` name.
    pub fn log_as(
        &self,
        level: LogLevel,
        logger: &str,
        data: impl Serialize,
    ) -> Result<(), NotSent> {
        self.log_message(level, Some(logger), data)
    }

    fn log_message(
        &self,
        level: LogLevel,
        logger: Option<&str>,
        data: impl Serialize,
    ) -> Result<(), NotSent> {
        let (Some(threshold), Some(outbox)) = (self.shared.log_level, &self.shared.outbox) else {
            return Err(NotSent::NotRequested);
        };
        if level < threshold {
            return Err(NotSent::NotRequested);
        }
        let data =
            serde_json::to_value(data).map_err(|e| NotSent::Unserializable(e.to_string()))?;
        let mut params = Map::new();
        params.insert("level".into(), Value::from(level.as_str()));
        if let Some(logger) = logger {
            params.insert("logger".into(), Value::from(logger));
        }
        params.insert("data".into(), data);
        push(outbox, "notifications/message", params, None)
    }

    /// True once the caller cancelled the request (or went away). Synchronous host code polls
    /// this; async host code is dropped at its next `.await` instead.
    pub fn is_cancelled(&self) -> bool {
        self.shared.cancel.is_cancelled()
    }

    /// Completes when the request is cancelled.
    pub async fn cancelled(&self) {
        self.shared.cancel.cancelled().await
    }

    pub(crate) fn cancel(&self) {
        self.shared.cancel.cancel();
    }

    /// Holds `place` (a transport's in-flight slot) while the request works.
    #[cfg(feature = "http")]
    pub(crate) fn occupy(&self, place: Box<dyn std::any::Any + Send>) {
        *self.shared.place.lock().unwrap_or_else(|e| e.into_inner()) = Some(place);
    }

    /// Gives the request's place back: it waits on its client, which is no work, or it ended.
    pub(crate) fn give_back_place(&self) {
        let place = self
            .shared
            .place
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .take();
        drop(place);
    }

    pub(crate) fn round(&self) -> Option<&Round> {
        self.shared.round.as_deref()
    }

    pub(crate) fn client_requests(&self) -> Option<&Arc<ClientRequests>> {
        self.shared.client_requests.as_ref()
    }

    pub(crate) fn ask_time_limit(&self) -> std::time::Duration {
        self.shared.ask_time_limit
    }

    pub(crate) fn task(&self) -> Option<&Arc<Task>> {
        self.shared.task.get()
    }

    pub(crate) fn set_task(&self, task: Arc<Task>) {
        let _ = self.shared.task.set(task);
    }

    /// Lets a task-supporting call become a task here: the caller is answered with a
    /// `CreateTaskResult` and the function goes on in the background, its later asks parking
    /// the task until `tasks/update` answers them. Any call becomes a task the first time it
    /// waits (a timer, I/O); this waits once, on purpose, for a function that asks the user
    /// first thing. Everywhere else it returns at once, having done nothing.
    ///
    /// ```
    /// use beam_mcp::{Context, Elicit, Elicited};
    ///
    /// #[derive(serde::Deserialize, schemars::JsonSchema, Elicit)]
    /// struct Confirm { confirm: bool }
    ///
    /// /// Deletes a file once the user confirms, as a task.
    /// #[beam_mcp::tool(task = "optional")]
    /// async fn delete_file(path: String, ctx: Context) -> String {
    ///     ctx.detach().await;
    ///     match ctx.elicit::<Confirm>(format!("Delete {path}?")).await {
    ///         Ok(Elicited::Accepted(c)) if c.confirm => format!("deleted {path}"),
    ///         _ => "kept".into(),
    ///     }
    /// }
    /// # let _ = delete_file::DEF;
    /// ```
    pub async fn detach(&self) {
        let mut yielded = false;
        std::future::poll_fn(|cx| {
            if yielded {
                std::task::Poll::Ready(())
            } else {
                yielded = true;
                cx.waker().wake_by_ref();
                std::task::Poll::Pending
            }
        })
        .await
    }

    pub(crate) fn outbox(&self) -> Option<&Outbox> {
        self.shared.outbox.as_deref()
    }

    pub(crate) fn outbox_arc(&self) -> Option<Arc<Outbox>> {
        self.shared.outbox.clone()
    }

    /// True when both are the same request's context.
    pub(crate) fn same(&self, other: &Context) -> bool {
        Arc::ptr_eq(&self.shared, &other.shared)
    }
}

fn push(
    outbox: &Outbox,
    method: &str,
    params: Map<String, Value>,
    merge: Option<&'static str>,
) -> Result<(), NotSent> {
    let message = json!({ "jsonrpc": "2.0", "method": method, "params": params });
    outbox
        .push(message, merge)
        .map_err(|refused| match refused {
            Refused::Closed => NotSent::Finished,
            Refused::Full => NotSent::QueueFull,
        })
}

impl std::fmt::Debug for Context {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Context")
            .field("revision", &self.shared.revision)
            .field("progress_token", &self.shared.progress_token)
            .field("log_level", &self.shared.log_level)
            .field("cancelled", &self.is_cancelled())
            .finish_non_exhaustive()
    }
}

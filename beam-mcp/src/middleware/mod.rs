//! The seam around every request: host rules that run after the core has read and checked the
//! envelope, and before the method.
//!
//! A [`Middleware`] sees each request as a [`Call`] (its method, params, revision, caller and,
//! for `tools/call`, `resources/read` and `prompts/get`, the catalog [`Item`] it names), calls
//! [`Next::run`] to go on, and sees the outcome. It may refuse ([`Refusal`]), change the
//! arguments before they are validated, change the result before it is sent, or time and count.
//!
//! Middleware runs in the order it was registered, the first registered outermost, the same on
//! stdio and HTTP at both revisions. A server with none registered takes the core's path as
//! before, at no cost.

use std::any::Any;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use serde_json::{Map, Value};

mod scopes;

use crate::catalog::{Catalog, Prompt, Tool};
use crate::context::Principal;
use crate::error::ProtocolError;
pub use crate::error::Refusal;
use crate::revision::Revision;
pub use scopes::{INSUFFICIENT_SCOPE, Scoped, Scopes, scopes};

/// What a request ends as: its result, or the error it is answered with.
pub type Outcome = Result<Value, ProtocolError>;

/// A boxed future, as [`Middleware::handle`] returns it.
pub type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// A rule around every request.
///
/// Most hosts write one with [`from_fn`]; a type implements this trait when it holds state.
///
/// ```
/// use std::sync::atomic::{AtomicU64, Ordering};
/// use beam_mcp::middleware::{BoxFuture, Call, Middleware, Next, Outcome};
///
/// #[derive(Default)]
/// struct Count(AtomicU64);
///
/// impl Middleware for Count {
///     fn handle<'a>(&'a self, call: Call, next: Next) -> BoxFuture<'a, Outcome> {
///         Box::pin(async move {
///             self.0.fetch_add(1, Ordering::Relaxed);
///             next.run(call).await
///         })
///     }
/// }
///
/// let server = beam_mcp::Server::builder().middleware(Count::default()).build().unwrap();
/// # let _ = server;
/// ```
pub trait Middleware: Send + Sync + 'static {
    /// Handles one request: call `next.run(call)` to go on (at most once), or answer without
    /// it. A panic here is answered as the core answers a panic in host code.
    fn handle<'a>(&'a self, call: Call, next: Next) -> BoxFuture<'a, Outcome>;
}

/// A middleware from an async function or closure.
///
/// ```
/// use beam_mcp::middleware::{self, Refusal};
///
/// let server = beam_mcp::Server::builder()
///     .middleware(middleware::from_fn(|call, next| async move {
///         if call.method() == "prompts/get" {
///             return Err(Refusal::new(-31403, "prompts are closed today").into());
///         }
///         next.run(call).await
///     }))
///     .build()
///     .unwrap();
/// # let _ = server;
/// ```
pub fn from_fn<F, Fut>(f: F) -> FromFn<F>
where
    F: Fn(Call, Next) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = Outcome> + Send + 'static,
{
    FromFn(f)
}

/// The middleware [`from_fn`] makes.
#[derive(Clone)]
pub struct FromFn<F>(F);

impl<F, Fut> Middleware for FromFn<F>
where
    F: Fn(Call, Next) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = Outcome> + Send + 'static,
{
    fn handle<'a>(&'a self, call: Call, next: Next) -> BoxFuture<'a, Outcome> {
        Box::pin((self.0)(call, next))
    }
}

impl<F> std::fmt::Debug for FromFn<F> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("FromFn(..)")
    }
}

/// `middleware` only for the requests `applies` picks; the others go straight on.
///
/// ```
/// use beam_mcp::middleware::{self, Refusal};
///
/// // Every call of a tool tagged "admin" needs an admin.
/// let admins_only = middleware::when(
///     |call| call.has_tag("admin") && call.principal::<String>().map(String::as_str) != Some("root"),
///     middleware::from_fn(|_, _| async { Err(Refusal::new(-31403, "admins only").into()) }),
/// );
/// let server = beam_mcp::Server::builder().middleware(admins_only).build().unwrap();
/// # let _ = server;
/// ```
pub fn when<P, M>(applies: P, middleware: M) -> When<P, M>
where
    P: Fn(&Call) -> bool + Send + Sync + 'static,
    M: Middleware,
{
    When {
        applies,
        middleware,
    }
}

/// `middleware` for the requests naming an item tagged `tag` (see [`Call::has_tag`]).
///
/// ```
/// use beam_mcp::middleware::{self, Refusal};
///
/// let server = beam_mcp::Server::builder()
///     .middleware(middleware::tagged("admin", middleware::from_fn(|call, next| async move {
///         tracing::info!(method = call.method(), "an admin item is used");
///         next.run(call).await
///     })))
///     .build()
///     .unwrap();
/// # let _ = server;
/// ```
pub fn tagged<M: Middleware>(
    tag: &'static str,
    middleware: M,
) -> When<impl Fn(&Call) -> bool + Send + Sync + 'static, M> {
    when(move |call: &Call| call.has_tag(tag), middleware)
}

/// The middleware [`when`] and [`tagged`] make.
pub struct When<P, M> {
    applies: P,
    middleware: M,
}

impl<P, M> Middleware for When<P, M>
where
    P: Fn(&Call) -> bool + Send + Sync + 'static,
    M: Middleware,
{
    fn handle<'a>(&'a self, call: Call, next: Next) -> BoxFuture<'a, Outcome> {
        if (self.applies)(&call) {
            self.middleware.handle(call, next)
        } else {
            Box::pin(next.run(call))
        }
    }
}

impl<P, M> std::fmt::Debug for When<P, M> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("When(..)")
    }
}

/// What kind of catalog item a request names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum ItemKind {
    /// A tool (`tools/call`).
    Tool,
    /// A resource with a fixed URI (`resources/read`).
    Resource,
    /// A resource template a URI matched (`resources/read`).
    Template,
    /// A prompt (`prompts/get`).
    Prompt,
}

/// The catalog item a request names, as the catalog holds it.
#[derive(Debug, Clone)]
pub struct Item {
    pub(crate) kind: ItemKind,
    pub(crate) name: Arc<str>,
    pub(crate) tags: &'static [&'static str],
    pub(crate) scopes: &'static [&'static str],
    pub(crate) annotations: Option<Value>,
    pub(crate) origin: Option<crate::origin::Origin>,
}

impl Item {
    /// Its kind.
    pub fn kind(&self) -> ItemKind {
        self.kind
    }

    /// The tool's or prompt's name, the resource's URI or the template's source.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The host's tags (`#[tool(tags = [..])]`).
    pub fn tags(&self) -> &[&'static str] {
        self.tags
    }

    /// The OAuth scopes a caller needs (`#[tool(scopes = [..])]`).
    pub fn scopes(&self) -> &[&'static str] {
        self.scopes
    }

    /// Whether it carries `tag`.
    pub fn has_tag(&self, tag: &str) -> bool {
        self.tags.contains(&tag)
    }

    /// The advertised annotations (a tool's `annotations`), if any.
    pub fn annotations(&self) -> Option<&Value> {
        self.annotations.as_ref()
    }

    /// Where a mounted item came from: the prefix it is mounted under and its name (or URI)
    /// in its own catalog; `None` for the server's own items. [`name`](Self::name) is the
    /// name it is served by.
    ///
    /// ```
    /// use beam_mcp::middleware::{self, Next};
    /// use beam_mcp::Origin;
    ///
    /// /// Finds a note.
    /// #[beam_mcp::tool]
    /// fn search(text: String) -> String { text }
    ///
    /// // Logs every call to a mounted item by both its names.
    /// let log = middleware::from_fn(|call: middleware::Call, next: Next| async move {
    ///     if let Some(item) = call.item()
    ///         && let Some(Origin { prefix, name }) = item.origin()
    ///     {
    ///         eprintln!("{} is {name} of {prefix}", item.name());
    ///     }
    ///     next.run(call).await
    /// });
    /// let server = beam_mcp::Server::builder()
    ///     .mount("notes", beam_mcp::Server::builder().tool(search::DEF))
    ///     .middleware(log)
    ///     .build()
    ///     .unwrap();
    /// # let _ = server;
    /// ```
    pub fn origin(&self) -> Option<crate::origin::Origin> {
        self.origin
    }
}

impl Item {
    pub(crate) fn of_tool(tool: &Tool) -> Item {
        Item {
            kind: ItemKind::Tool,
            name: Arc::clone(&tool.name),
            tags: tool.tags,
            scopes: tool.scopes,
            annotations: tool.listing.get("annotations").cloned(),
            origin: tool.origin,
        }
    }

    pub(crate) fn of_prompt(prompt: &Prompt) -> Item {
        Item {
            kind: ItemKind::Prompt,
            name: Arc::clone(&prompt.name),
            tags: prompt.tags,
            scopes: prompt.scopes,
            annotations: None,
            origin: prompt.origin,
        }
    }

    /// The listed item of `kind` called `name` (a URI or template source for resources).
    fn listed(catalog: &Catalog, kind: ItemKind, name: &str) -> Option<Item> {
        let item = |name: &Arc<str>, tags, scopes, origin| Item {
            kind,
            name: Arc::clone(name),
            tags,
            scopes,
            annotations: None,
            origin,
        };
        match kind {
            ItemKind::Tool => catalog.tool(name).map(Item::of_tool),
            ItemKind::Prompt => catalog.prompt(name).map(Item::of_prompt),
            ItemKind::Resource => catalog
                .resources()
                .iter()
                .find(|r| &*r.uri == name)
                .map(|r| item(&r.uri, r.tags, r.scopes, r.origin)),
            ItemKind::Template => catalog
                .templates()
                .iter()
                .find(|t| &*t.source == name)
                .map(|t| item(&t.source, t.tags, t.scopes, t.origin)),
        }
    }
}

/// The transport a request came by.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Transport {
    /// Newline-delimited JSON-RPC over a pipe (stdio), or a host calling the core itself.
    Stdio,
    /// Streamable HTTP, either revision.
    Http,
}

/// How a request came in: its transport, its session and the transport's own trace context.
#[derive(Debug, Clone)]
pub(crate) struct Via {
    pub(crate) transport: Transport,
    /// The HTTP version (`"1.1"`, `"2"`), for HTTP.
    #[cfg_attr(not(feature = "otel"), allow(dead_code, reason = "telemetry reads it"))]
    pub(crate) http_version: Option<&'static str>,
    /// The 2025-11-25 HTTP session's id.
    pub(crate) session_id: Option<Arc<str>>,
    /// The HTTP client's address and port, when the connection gave them.
    #[cfg_attr(not(feature = "otel"), allow(dead_code, reason = "telemetry reads it"))]
    pub(crate) peer: Option<std::net::SocketAddr>,
    /// The HTTP request's own `traceparent` and `tracestate` headers, if it had them.
    #[cfg_attr(not(feature = "otel"), allow(dead_code, reason = "telemetry reads it"))]
    pub(crate) trace_headers: Option<(String, Option<String>)>,
}

impl Via {
    /// A pipe with no session id and no trace headers.
    pub(crate) const STDIO: Via = Via {
        transport: Transport::Stdio,
        http_version: None,
        session_id: None,
        peer: None,
        trace_headers: None,
    };
}

/// One request as middleware sees it.
pub struct Call {
    pub(crate) id: Value,
    pub(crate) method: String,
    pub(crate) params: Map<String, Value>,
    pub(crate) revision: Option<Revision>,
    pub(crate) item: Option<Item>,
    pub(crate) principal: Option<Principal>,
    pub(crate) client_name: Option<String>,
    pub(crate) meta: Map<String, Value>,
    pub(crate) catalog: Arc<Catalog>,
    pub(crate) via: Via,
    /// The revision the request's session agreed at `initialize`, for a request that names none.
    pub(crate) session_revision: Option<Revision>,
}

impl Call {
    /// The request's id.
    pub fn id(&self) -> &Value {
        &self.id
    }

    /// The method (`tools/call`, `tools/list`, `initialize`, ...).
    pub fn method(&self) -> &str {
        &self.method
    }

    /// The revision the request was read at: `None` for a request without `params._meta`
    /// naming one (a 2025-11-25 session's).
    pub fn revision(&self) -> Option<Revision> {
        self.revision
    }

    /// The revision the request is served at: the one it names, or the one its session agreed
    /// at `initialize`; `None` before a session's `initialize`.
    pub fn protocol_version(&self) -> Option<Revision> {
        self.revision.or(self.session_revision)
    }

    /// The params, less `params._meta` (see [`meta`](Self::meta)).
    pub fn params(&self) -> &Map<String, Value> {
        &self.params
    }

    /// The params to change before the method reads them. The item a request names is found
    /// before middleware runs: changing `name` or `uri` here does not change it.
    pub fn params_mut(&mut self) -> &mut Map<String, Value> {
        &mut self.params
    }

    /// The arguments of a `tools/call` or `prompts/get`, if the request has an object there.
    pub fn arguments(&self) -> Option<&Map<String, Value>> {
        self.params.get("arguments").and_then(Value::as_object)
    }

    /// The arguments of a `tools/call` or `prompts/get` to change before they are validated
    /// (what middleware writes is validated as what a client sends); `None` for other methods
    /// or when the request's `arguments` is not an object. An absent `arguments` is made `{}`.
    pub fn arguments_mut(&mut self) -> Option<&mut Map<String, Value>> {
        if !matches!(self.method.as_str(), "tools/call" | "prompts/get") {
            return None;
        }
        // Not `Map::entry`: another caller of it stops serde_json inlining it into the reader
        // of every message (the instruction guard saw it).
        if !self.params.contains_key("arguments") {
            self.params
                .insert("arguments".to_owned(), Value::Object(Map::new()));
        }
        self.params
            .get_mut("arguments")
            .and_then(Value::as_object_mut)
    }

    /// The catalog item the request names (`tools/call`, `resources/read`, `prompts/get`),
    /// when the catalog has it.
    pub fn item(&self) -> Option<&Item> {
        self.item.as_ref()
    }

    /// Whether the request names an item tagged `tag`.
    pub fn has_tag(&self, tag: &str) -> bool {
        self.item.as_ref().is_some_and(|i| i.has_tag(tag))
    }

    /// The caller's identity, as the `authorize` hook (or [`Session::with_principal`]) gave it,
    /// if it is a `T`.
    ///
    /// [`Session::with_principal`]: crate::protocol::Session::with_principal
    pub fn principal<T: Any>(&self) -> Option<&T> {
        self.principal
            .as_ref()
            .and_then(|p| p.value().downcast_ref())
    }

    /// The client's `clientInfo.name`: this request's at 2026-07-28, the session's at
    /// 2025-11-25. A claim, not an identity.
    pub fn client_name(&self) -> Option<&str> {
        self.client_name.as_deref()
    }

    /// The transport the request came by.
    pub fn transport(&self) -> Transport {
        self.via.transport
    }

    /// The `Mcp-Session-Id` of the 2025-11-25 HTTP session the request belongs to; `None` on
    /// stdio and for requests that stand alone.
    pub fn session_id(&self) -> Option<&str> {
        self.via.session_id.as_deref()
    }

    /// `params._meta`, less the keys the core reads itself (the protocol version, client
    /// capabilities and info, the log level and the progress token): for example a W3C
    /// `traceparent`.
    pub fn meta(&self) -> &Map<String, Value> {
        &self.meta
    }

    /// Keeps, in a list result (`tools/list`, `prompts/list`, `resources/list`,
    /// `resources/templates/list`), the entries whose item `keep` accepts, and marks the result
    /// `cacheScope: "private"` at 2026-07-28 (a list that differs by caller must not be shared
    /// by caches). Returns how many entries were removed; a result of another method is left
    /// as it is.
    ///
    /// ```
    /// use beam_mcp::middleware;
    ///
    /// // Nobody but "root" sees the tools tagged "admin".
    /// let hide = middleware::from_fn(|call, next| async move {
    ///     let root = call.principal::<String>().is_some_and(|p| p == "root");
    ///     let mut outcome = next.run(call.clone_view()).await;
    ///     if let Ok(result) = &mut outcome {
    ///         call.retain_listed(result, |item| root || !item.has_tag("admin"));
    ///     }
    ///     outcome
    /// });
    /// # let _ = hide;
    /// ```
    pub fn retain_listed(&self, result: &mut Value, keep: impl Fn(&Item) -> bool) -> usize {
        let (field, key, kind) = match self.method.as_str() {
            "tools/list" => ("tools", "name", ItemKind::Tool),
            "prompts/list" => ("prompts", "name", ItemKind::Prompt),
            "resources/list" => ("resources", "uri", ItemKind::Resource),
            "resources/templates/list" => ("resourceTemplates", "uriTemplate", ItemKind::Template),
            _ => return 0,
        };
        let Some(map) = result.as_object_mut() else {
            return 0;
        };
        let mut removed = 0;
        if let Some(Value::Array(entries)) = map.get_mut(field) {
            let before = entries.len();
            entries.retain(|entry| {
                let name = entry.get(key).and_then(Value::as_str).unwrap_or("");
                Item::listed(&self.catalog, kind, name).is_none_or(|item| keep(&item))
            });
            removed = before - entries.len();
        }
        if self.revision.is_some_and(Revision::is_stateless) && map.contains_key("cacheScope") {
            map.insert("cacheScope".into(), Value::from("private"));
        }
        removed
    }

    /// A copy of the call to hand to [`Next::run`] while keeping this one to read after.
    pub fn clone_view(&self) -> Call {
        Call {
            id: self.id.clone(),
            method: self.method.clone(),
            params: self.params.clone(),
            revision: self.revision,
            item: self.item.clone(),
            principal: self.principal.clone(),
            client_name: self.client_name.clone(),
            meta: self.meta.clone(),
            catalog: Arc::clone(&self.catalog),
            via: self.via.clone(),
            session_revision: self.session_revision,
        }
    }
}

impl std::fmt::Debug for Call {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Call")
            .field("id", &self.id)
            .field("method", &self.method)
            .field("revision", &self.revision)
            .field("item", &self.item)
            .finish_non_exhaustive()
    }
}

/// The rest of the chain: the middleware registered after this one, then the method.
pub struct Next {
    pub(crate) chain: Chain,
    pub(crate) index: usize,
    pub(crate) end: Box<dyn Endpoint>,
}

/// The middleware a server runs, in registration order.
pub(crate) type Chain = Arc<[Arc<dyn Middleware>]>;

/// The method at the end of the chain (the core's side, so this room imports nothing of it).
pub(crate) trait Endpoint: Send {
    fn run(self: Box<Self>, call: Call) -> BoxFuture<'static, Outcome>;
}

impl Next {
    /// Runs the rest of the chain and the method with `call`, and gives the outcome.
    pub async fn run(self, call: Call) -> Outcome {
        let Next { chain, index, end } = self;
        let Some(middleware) = chain.get(index).cloned() else {
            return end.run(call).await;
        };
        let item_call = call.item.is_some() && call.method == "tools/call";
        let method = call.method.clone();
        let next = Next {
            chain: Arc::clone(&chain),
            index: index + 1,
            end,
        };
        let started = crate::panic::CatchUnwind::start(|| middleware.handle(call, next));
        let caught = match started {
            Ok(running) => running.await,
            Err(panic) => Err(panic),
        };
        caught.unwrap_or_else(|panic| {
            tracing::error!(%method, panic = %crate::caller_text::Logged(&panic), "middleware panicked");
            if item_call {
                // As a tool's own panic: an error result that says nothing of the panic.
                Ok(crate::tool::CallToolResult::error(
                    "the call failed with an internal error".to_owned(),
                )
                .to_value())
            } else {
                Err(ProtocolError::Internal)
            }
        })
    }
}

impl std::fmt::Debug for Next {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Next")
            .field("remaining", &(self.chain.len().saturating_sub(self.index)))
            .finish_non_exhaustive()
    }
}

//! What a host function (tool, reader, prompt) may take besides its arguments: the one
//! extractor mechanism ([`Extract`], over a request's [`RequestParts`]), host state, the whole
//! argument struct, and the request context.

use std::any::{Any, TypeId};
use std::collections::HashMap;
use std::sync::Arc;

/// Host state a tool takes as a parameter, set once with
/// [`ServerBuilder::state`](crate::ServerBuilder::state), in the manner of axum's `State<T>`.
///
/// The server refuses to start when a tool takes a state type it was not given.
///
/// ```
/// use std::sync::Arc;
/// use beam_mcp::State;
///
/// #[derive(Clone, Default)]
/// struct Stations(Arc<Vec<String>>);
///
/// /// How many weather stations we know.
/// #[beam_mcp::tool(read_only)]
/// fn station_count(State(stations): State<Stations>) -> String {
///     stations.0.len().to_string()
/// }
///
/// let server = beam_mcp::Server::builder()
///     .tool(station_count::DEF)
///     .state(Stations::default())
///     .build()
///     .unwrap();
/// # let _ = server;
/// ```
#[derive(Debug, Clone, Copy, Default)]
pub struct State<T>(pub T);

/// The whole argument object as one struct: `fn add(Args(input): Args<AddInput>)`.
///
/// The tool's input schema is `T`'s schema, which must have an object root.
///
/// ```
/// use beam_mcp::Args;
///
/// #[derive(serde::Deserialize, schemars::JsonSchema)]
/// struct Sum { a: i64, b: i64 }
///
/// /// Adds two integers.
/// #[beam_mcp::tool]
/// fn add(Args(sum): Args<Sum>) -> String {
///     (sum.a + sum.b).to_string()
/// }
/// # let _ = add::DEF;
/// ```
#[derive(Debug, Clone, Copy, Default)]
pub struct Args<T>(pub T);

/// The host state values a server was given, by type (with each type's name, for messages).
#[derive(Clone, Default)]
pub(crate) struct StateMap(HashMap<TypeId, (Arc<dyn Any + Send + Sync>, &'static str)>);

impl std::fmt::Debug for StateMap {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // The values are the host's: only their types are shown.
        f.debug_set()
            .entries(self.0.values().map(|(_, name)| name))
            .finish()
    }
}

impl StateMap {
    pub(crate) fn insert<T: Send + Sync + 'static>(&mut self, value: T) {
        self.0.insert(
            TypeId::of::<T>(),
            (Arc::new(value), std::any::type_name::<T>()),
        );
    }

    pub(crate) fn contains(&self, id: TypeId) -> bool {
        self.0.contains_key(&id)
    }

    pub(crate) fn get<T: 'static>(&self) -> Option<&T> {
        self.0
            .get(&TypeId::of::<T>())
            .and_then(|(v, _)| v.downcast_ref::<T>())
    }

    /// Each type held, with its name.
    pub(crate) fn types(&self) -> impl Iterator<Item = (TypeId, &'static str)> + '_ {
        self.0.iter().map(|(id, (_, name))| (*id, *name))
    }

    /// Adds every value of `other` (a type held by both takes `other`'s).
    pub(crate) fn extend(&mut self, other: StateMap) {
        self.0.extend(other.0);
    }
}

/// What the server hands a running tool: its name, the host state and the request context.
#[derive(Clone)]
pub struct ToolContext {
    pub(crate) tool: Arc<str>,
    pub(crate) states: Arc<StateMap>,
    pub(crate) wrap_output: bool,
    pub(crate) request: crate::context::Context,
}

impl ToolContext {
    /// The name of the tool being called.
    pub fn tool_name(&self) -> &str {
        &self.tool
    }

    /// The host state of type `T`, if the server was given one.
    pub fn state<T: Clone + Send + Sync + 'static>(&self) -> Option<T> {
        self.states.get::<T>().cloned()
    }

    /// The request context: the caller, progress, logs, cancellation.
    pub fn request(&self) -> &crate::context::Context {
        &self.request
    }

    /// True when structured output goes under `{"result": …}` (its schema root is not an object).
    pub(crate) fn wraps_output(&self) -> bool {
        self.wrap_output
    }
}

impl std::fmt::Debug for ToolContext {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ToolContext")
            .field("tool", &self.tool)
            .finish_non_exhaustive()
    }
}

/// What an extractor reads: the item being run, the host state and the request context.
#[derive(Clone, Copy)]
pub struct RequestParts<'a> {
    item: &'a str,
    states: &'a StateMap,
    context: &'a crate::context::Context,
}

impl<'a> RequestParts<'a> {
    pub(crate) fn new(
        item: &'a str,
        states: &'a StateMap,
        context: &'a crate::context::Context,
    ) -> Self {
        RequestParts {
            item,
            states,
            context,
        }
    }

    /// The name of the tool or prompt, or the URI of the resource, being run.
    pub fn item(&self) -> &str {
        self.item
    }

    /// The host state of type `T`, if the server was given one.
    pub fn state<T: Clone + Send + Sync + 'static>(&self) -> Option<T> {
        self.states.get::<T>().cloned()
    }

    /// The request context: the caller (`principal`), the client, `_meta`, progress, logs.
    pub fn context(&self) -> &crate::context::Context {
        self.context
    }
}

/// Why an extractor could not give its value: a fault on the server's side, logged with the
/// item's name and answered `-32603` without details (a refusal of the caller belongs in
/// `authorize`).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{reason}")]
pub struct Rejection {
    reason: String,
}

impl Rejection {
    /// A rejection with a reason for the log.
    ///
    /// ```
    /// let r = beam_mcp::Rejection::new("no database pool");
    /// assert_eq!(r.to_string(), "no database pool");
    /// ```
    pub fn new(reason: impl Into<String>) -> Self {
        Rejection {
            reason: reason.into(),
        }
    }
}

/// A value a tool, reader or prompt takes from the request rather than from its arguments.
///
/// The rule the macros apply, parameter by parameter: a parameter is an **extractor** when it is
/// marked `#[extract]`, or its type is spelled `State<..>` or `Context`; `Args<..>` is the whole
/// argument object; **every other parameter is an argument**, a property of the input schema.
/// Both sides are checked at compile time: an extractor's type must implement `Extract`, an
/// argument's [`ToolArgument`](crate::tool::ToolArgument), each a single error on the parameter
/// when it does not. The input schema is built from the arguments only.
///
/// ```
/// use beam_mcp::{Extract, Rejection, RequestParts};
///
/// /// Who is calling, as `authorize` said.
/// struct Caller(String);
///
/// impl Extract for Caller {
///     fn extract(parts: &RequestParts<'_>) -> Result<Self, Rejection> {
///         let name = parts.context().principal::<String>().cloned();
///         name.map(Caller).ok_or_else(|| Rejection::new("authorize set no caller"))
///     }
/// }
///
/// /// Greets the caller.
/// #[beam_mcp::tool]
/// fn whoami(#[extract] caller: Caller, greeting: String) -> String {
///     format!("{greeting}, {}", caller.0)
/// }
/// # let _ = whoami::DEF;
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be extracted from a request: it does not implement `Extract`",
    label = "an #[extract] parameter is taken from the request, not the arguments",
    note = "implement `beam_mcp::Extract` for `{Self}`, or remove #[extract] to take it as an argument"
)]
pub trait Extract: Sized {
    /// The value, from the request's parts.
    fn extract(parts: &RequestParts<'_>) -> Result<Self, Rejection>;
}

/// A type that can be host state: `Clone + Send + Sync + 'static` (each call takes a clone, so
/// keep shared data behind an `Arc`).
///
/// ```
/// #[derive(Clone)]
/// struct Pool(std::sync::Arc<Vec<String>>);
/// fn assert_state<T: beam_mcp::tool::StateValue>() {}
/// assert_state::<Pool>();
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be host state: it is not `Clone + Send + Sync + 'static`",
    label = "each call takes a clone of the host state",
    note = "derive `Clone` on `{Self}` (keep shared data behind an `Arc`, and what changes behind a lock)"
)]
pub trait StateValue: Clone + Send + Sync + 'static {}

#[diagnostic::do_not_recommend]
impl<T: Clone + Send + Sync + 'static> StateValue for T {}

/// The host state `T` the server was given (checked when it is built).
impl<T: StateValue> Extract for State<T> {
    fn extract(parts: &RequestParts<'_>) -> Result<Self, Rejection> {
        parts.state::<T>().map(State).ok_or_else(|| {
            Rejection::new(format!(
                "no state {} (ServerBuilder::state)",
                std::any::type_name::<T>()
            ))
        })
    }
}

/// The request context.
#[diagnostic::do_not_recommend]
impl Extract for crate::context::Context {
    fn extract(parts: &RequestParts<'_>) -> Result<Self, Rejection> {
        Ok(parts.context().clone())
    }
}

impl ToolContext {
    /// The parts extractors read.
    #[doc(hidden)]
    pub fn __parts(&self) -> RequestParts<'_> {
        RequestParts::new(&self.tool, &self.states, &self.request)
    }
}

impl From<Rejection> for super::ToolFault {
    fn from(rejection: Rejection) -> Self {
        super::ToolFault::Internal(format!("an extractor failed: {rejection}"))
    }
}

//! What a tool function may take besides its arguments: host state, and the whole
//! argument struct.

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

/// The host state values a server was given, by type.
#[derive(Clone, Default)]
pub(crate) struct StateMap(HashMap<TypeId, Arc<dyn Any + Send + Sync>>);

impl StateMap {
    pub(crate) fn insert<T: Send + Sync + 'static>(&mut self, value: T) {
        self.0.insert(TypeId::of::<T>(), Arc::new(value));
    }

    pub(crate) fn contains(&self, id: TypeId) -> bool {
        self.0.contains_key(&id)
    }

    pub(crate) fn get<T: 'static>(&self) -> Option<&T> {
        self.0
            .get(&TypeId::of::<T>())
            .and_then(|v| v.downcast_ref::<T>())
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
    pub fn wraps_output(&self) -> bool {
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

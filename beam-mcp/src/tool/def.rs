//! The static description of one tool, as `#[tool]` generates it.

use std::any::TypeId;
use std::future::Future;
use std::pin::Pin;

use serde_json::Value;

use super::{Arguments, CallToolResult, ToolContext};

/// A boxed, sendable future.
pub type BoxFuture<T> = Pin<Box<dyn Future<Output = T> + Send + 'static>>;

/// Why a tool call could not produce a result.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ToolFault {
    /// The arguments passed the schema but could not become the typed parameters
    /// (for example an integer too large for `u32`); the caller is told, as an `isError` result.
    #[error("invalid arguments: {0}")]
    InvalidArguments(String),
    /// The host's output could not be serialized, or a state value was missing; logged,
    /// answered as `-32603 Internal error`.
    #[error("{0}")]
    Internal(String),
}

/// The hint annotations a tool advertises (`#[tool(read_only, destructive, ...)]`).
///
/// Absent hints are omitted from the wire, so clients apply the spec's defaults.
///
/// ```
/// use beam_mcp::ToolAnnotations;
/// let a = ToolAnnotations::NONE.with_read_only(true);
/// assert_eq!(a.to_value().unwrap()["readOnlyHint"], true);
/// assert!(ToolAnnotations::NONE.to_value().is_none());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub struct ToolAnnotations {
    /// `readOnlyHint`.
    pub read_only: Option<bool>,
    /// `destructiveHint`.
    pub destructive: Option<bool>,
    /// `idempotentHint`.
    pub idempotent: Option<bool>,
    /// `openWorldHint`.
    pub open_world: Option<bool>,
}

impl ToolAnnotations {
    const_setters! {
        /// `readOnlyHint`.
        with_read_only(read_only: bool) => Some(read_only);

        /// `destructiveHint`.
        with_destructive(destructive: bool) => Some(destructive);

        /// `idempotentHint`.
        with_idempotent(idempotent: bool) => Some(idempotent);

        /// `openWorldHint`.
        with_open_world(open_world: bool) => Some(open_world);
    }

    /// No hints.
    pub const NONE: ToolAnnotations = ToolAnnotations {
        read_only: None,
        destructive: None,
        idempotent: None,
        open_world: None,
    };

    /// The `annotations` object, or `None` when no hint is set.
    pub fn to_value(&self) -> Option<Value> {
        let mut out = serde_json::Map::new();
        let hints = [
            ("readOnlyHint", self.read_only),
            ("destructiveHint", self.destructive),
            ("idempotentHint", self.idempotent),
            ("openWorldHint", self.open_world),
        ];
        for (key, hint) in hints {
            if let Some(hint) = hint {
                out.insert(key.into(), Value::Bool(hint));
            }
        }
        (!out.is_empty()).then_some(Value::Object(out))
    }
}

/// A host state type a tool takes through [`State<T>`](crate::State).
#[derive(Debug, Clone, Copy)]
#[non_exhaustive]
pub struct StateRequirement {
    /// The state type's id.
    pub type_id: fn() -> TypeId,
    /// The state type's name, for the startup refusal.
    pub type_name: fn() -> &'static str,
}

impl StateRequirement {
    /// The requirement of `State<T>`.
    ///
    /// ```
    /// let r = beam_mcp::tool::StateRequirement::of::<u32>();
    /// assert_eq!((r.type_name)(), "u32");
    /// ```
    pub const fn of<T: 'static>() -> Self {
        StateRequirement {
            type_id: TypeId::of::<T>,
            type_name: std::any::type_name::<T>,
        }
    }
}

/// The function that runs a tool: validated wire arguments in, a result out.
pub type ToolHandler = fn(Value, ToolContext) -> BoxFuture<Result<CallToolResult, ToolFault>>;

/// A [`ToolHandler`] that takes the arguments as the server read them ([`Arguments`]: a small
/// object's members, no map built), set with [`ToolDef::with_arguments_handler`]. `#[tool]`
/// writes one, decoding its typed parameters from the members directly.
///
/// ```
/// use beam_mcp::tool::{Arguments, BoxFuture, ToolArgumentsHandler, ToolContext, ToolFault};
/// use beam_mcp::{CallToolResult, Content};
///
/// fn greet(arguments: Arguments, _: ToolContext) -> BoxFuture<Result<CallToolResult, ToolFault>> {
///     #[derive(serde::Deserialize)]
///     struct Greet {
///         name: String,
///     }
///     let decoded = arguments.decode::<Greet>();
///     Box::pin(async move {
///         let greet = decoded.map_err(|e| ToolFault::InvalidArguments(e.to_string()))?;
///         Ok(CallToolResult::new(vec![Content::text(format!("hello, {}", greet.name))]))
///     })
/// }
/// let handler: ToolArgumentsHandler = greet;
/// # let _ = handler;
/// ```
pub type ToolArgumentsHandler =
    fn(Arguments, ToolContext) -> BoxFuture<Result<CallToolResult, ToolFault>>;

/// Everything the server needs to advertise and call one tool; `#[tool]` writes one per
/// function and registers it for [`serve!`](crate::serve).
///
/// Hosts composing by hand build one with [`ToolDef::new`] and pass it to
/// [`ServerBuilder::tool`](crate::ServerBuilder::tool). The fields are for reading: new ones
/// may come (`#[non_exhaustive]`), so a definition is built through its constructors.
#[derive(Debug, Clone, Copy)]
#[non_exhaustive]
pub struct ToolDef {
    /// The tool's name (1 to 64 characters of `A-Za-z0-9_.-/`).
    pub name: &'static str,
    /// A human display name.
    pub title: Option<&'static str>,
    /// Icons a host shows beside it (`#[tool(icon = "assets/tool.png")]`).
    pub icons: &'static [crate::icon::Icon],
    /// What the tool does, for the model (the function's doc comment).
    pub description: &'static str,
    /// Hint annotations.
    pub annotations: ToolAnnotations,
    /// Computes the input schema (called once, when the server is built).
    pub input_schema: fn() -> Value,
    /// Computes the output schema of a structured tool (called once).
    pub output_schema: Option<fn() -> Value>,
    /// Runs the tool.
    pub handler: ToolHandler,
    /// Runs the tool from the arguments as read, in place of [`handler`](Self::handler) where
    /// the core has them so ([`with_arguments_handler`](Self::with_arguments_handler)); both
    /// must do the same.
    pub arguments_handler: Option<ToolArgumentsHandler>,
    /// The host state types the tool takes.
    pub states: &'static [StateRequirement],
    /// The client capabilities a call needs (`sampling`, `elicitation`, `roots`): a
    /// 2026-07-28 call from a client that does not declare them is refused with `-32021`.
    pub client_capabilities: &'static [&'static str],
    /// Labels for the host's own rules (`#[tool(tags = ["admin"])]`): middleware and listing
    /// filters read them; they are not advertised (the spec has no field for them).
    pub tags: &'static [&'static str],
    /// The OAuth scopes a caller needs (`#[tool(scopes = ["notes:write"])]`), enforced by the
    /// [`scopes`](crate::middleware::scopes) middleware and published in RFC 9728 metadata.
    pub scopes: &'static [&'static str],
    /// True when the handler may send notifications (progress, logs) through its request
    /// context; `#[tool]` sets it when the function takes a [`Context`](crate::Context). The
    /// server advertises `logging` exactly when some item does, and a request gets a
    /// notification queue only for such an item.
    pub takes_context: bool,
    /// True when the handler may read its request context ([`ToolContext::request`]: the
    /// caller, the client, `_meta`, cancellation). `#[tool]` clears it for a function that
    /// takes no [`Context`](crate::Context) and no extractor reading one; a call to such a tool
    /// whose host code answers at once is then served without a context made for it (one is
    /// made if the host code waits), and its handler is handed an empty one. Set by hand, it
    /// stays `true` unless the handler never reads [`ToolContext::request`].
    pub reads_request: bool,
    /// The longest a call may run before it is answered as an `isError` result naming the
    /// limit (`#[tool(time_limit_ms = ..)]`); `None` takes the server's default.
    pub time_limit: Option<std::time::Duration>,
    /// Whether a call may become a task (`#[tool(task = "optional")]`, the tasks extension).
    pub task_support: crate::task::TaskSupport,
    /// The MCP Apps view a host renders for the tool, and who may call it
    /// (`#[tool(ui = "ui://…")]`, advertised as `_meta.ui`).
    pub ui: Option<crate::app::ToolUi>,
    /// The named catalog it belongs to (`#[tool(catalog = "notes")]`): `serve!` mounts it
    /// under that name, and [`crate_items`](crate::ServerBuilder::crate_items) leaves it out.
    pub catalog: Option<&'static str>,
    /// Where a mounted item came from ([`ServerBuilder::mount`](crate::ServerBuilder::mount)):
    /// the prefix it is mounted under, and its name in its own catalog.
    pub origin: Option<crate::origin::Origin>,
    /// The module that declared the tool (`serve!` serves its own crate's items).
    pub module_path: &'static str,
    /// Where the tool was declared, for diagnostics.
    pub location: (&'static str, u32),
    /// The input and output schemas as another server listed them (a proxied tool): used in
    /// place of the two functions, and checked by the same rules.
    pub(crate) given_schemas: Option<&'static (Value, Option<Value>)>,
}

impl ToolDef {
    /// A tool with no title, no hints, no output schema, no state, no required client
    /// capability, no request context, the server's time limit and no task support, declared
    /// at no module; the `with_*` methods set the rest, in `const` context too.
    ///
    /// ```
    /// use beam_mcp::{CallToolResult, Content, ToolAnnotations, ToolContext, ToolDef};
    /// use beam_mcp::tool::{BoxFuture, ToolFault};
    ///
    /// fn schema() -> serde_json::Value {
    ///     serde_json::json!({ "type": "object" })
    /// }
    /// fn ping(_: serde_json::Value, _: ToolContext) -> BoxFuture<Result<CallToolResult, ToolFault>> {
    ///     Box::pin(async { Ok(CallToolResult::new(vec![Content::text("pong")])) })
    /// }
    ///
    /// const PING: ToolDef = ToolDef::new("ping", "Answers pong.", schema, ping)
    ///     .with_title("Ping")
    ///     .with_annotations(ToolAnnotations::NONE.with_read_only(true))
    ///     .declared_at(module_path!(), file!(), line!());
    /// let server = beam_mcp::Server::builder().tool(PING).build().unwrap();
    /// # let _ = server;
    /// ```
    pub const fn new(
        name: &'static str,
        description: &'static str,
        input_schema: fn() -> Value,
        handler: ToolHandler,
    ) -> Self {
        ToolDef {
            name,
            title: None,
            icons: &[],
            description,
            annotations: ToolAnnotations::NONE,
            input_schema,
            output_schema: None,
            handler,
            arguments_handler: None,
            states: &[],
            client_capabilities: &[],
            takes_context: false,
            reads_request: true,
            tags: &[],
            scopes: &[],
            time_limit: None,
            task_support: crate::task::TaskSupport::Forbidden,
            ui: None,
            catalog: None,
            origin: None,
            module_path: "",
            location: ("", 0),
            given_schemas: None,
        }
    }

    const_setters! {
        /// The tool's name.
        with_name(name: &'static str) => name;

        /// A human display name.
        with_title(title: &'static str) => Some(title);

        /// Icons a host shows beside it.
        with_icons(icons: &'static [crate::icon::Icon]) => icons;

        /// What the tool does, for the model.
        with_description(description: &'static str) => description;

        /// Hint annotations.
        with_annotations(annotations: ToolAnnotations) => annotations;

        /// Computes the input schema.
        with_input_schema(input_schema: fn() -> Value) => input_schema;

        /// Computes the output schema: the tool answers with structured content.
        with_output_schema(output_schema: fn() -> Value) => Some(output_schema);

        /// The host state types the tool takes.
        with_states(states: &'static [StateRequirement]) => states;

        /// The client capabilities a call needs.
        with_client_capabilities(client_capabilities: &'static [&'static str]) => client_capabilities;

        /// Labels middleware and listing filters read; never advertised.
        with_tags(tags: &'static [&'static str]) => tags;

        /// The scopes a caller needs.
        with_scopes(scopes: &'static [&'static str]) => scopes;

        /// Whether the handler may send notifications through its request context.
        with_context(takes_context: bool) => takes_context;

        /// Whether the handler may read its request context ([`ToolContext::request`]).
        with_request_read(reads_request: bool) => reads_request;

        /// The handler that takes the arguments as read ([`ToolArgumentsHandler`]); it must do
        /// what [`handler`](Self::handler) does with their value.
        with_arguments_handler(arguments_handler: ToolArgumentsHandler) => Some(arguments_handler);
    }

    /// Runs the tool with `handler`, in place of both handlers it had (a `#[tool]`'s
    /// [`arguments_handler`](Self::arguments_handler) among them).
    ///
    /// ```
    /// use beam_mcp::tool::{BoxFuture, ToolContext, ToolDef, ToolFault};
    /// use beam_mcp::CallToolResult;
    ///
    /// fn quiet(_: serde_json::Value, _: ToolContext) -> BoxFuture<Result<CallToolResult, ToolFault>> {
    ///     Box::pin(async { Ok(CallToolResult::new(vec![])) })
    /// }
    /// let def = ToolDef::new("t", "", || serde_json::json!({"type": "object"}), quiet)
    ///     .with_handler(quiet);
    /// assert!(def.arguments_handler.is_none());
    /// ```
    #[must_use]
    pub const fn with_handler(mut self, handler: ToolHandler) -> Self {
        self.handler = handler;
        self.arguments_handler = None;
        self
    }

    const_setters! {
        /// The longest a call may run.
        with_time_limit(time_limit: std::time::Duration) => Some(time_limit);

        /// Whether a call may become a task.
        with_task_support(task_support: crate::task::TaskSupport) => task_support;

        /// The MCP Apps view a host renders for the tool: a `ui://` resource of the server.
        with_ui(ui: crate::app::ToolUi) => Some(ui);
    }

    const_setters! {
        /// The named catalog it belongs to (what `#[tool(catalog = "..")]` sets).
        with_catalog(catalog: &'static str) => Some(catalog);
    }

    declared_at_setter!();
}

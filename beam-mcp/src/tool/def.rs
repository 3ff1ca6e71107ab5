//! The static description of one tool, as `#[tool]` generates it.

use std::any::TypeId;
use std::future::Future;
use std::pin::Pin;

use serde_json::Value;

use super::{CallToolResult, ToolContext};

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
    /// `readOnlyHint`.
    #[must_use]
    pub const fn with_read_only(mut self, read_only: bool) -> Self {
        self.read_only = Some(read_only);
        self
    }

    /// `destructiveHint`.
    #[must_use]
    pub const fn with_destructive(mut self, destructive: bool) -> Self {
        self.destructive = Some(destructive);
        self
    }

    /// `idempotentHint`.
    #[must_use]
    pub const fn with_idempotent(mut self, idempotent: bool) -> Self {
        self.idempotent = Some(idempotent);
        self
    }

    /// `openWorldHint`.
    #[must_use]
    pub const fn with_open_world(mut self, open_world: bool) -> Self {
        self.open_world = Some(open_world);
        self
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
    /// The host state types the tool takes.
    pub states: &'static [StateRequirement],
    /// The client capabilities a call needs (`sampling`, `elicitation`, `roots`): a
    /// 2026-07-28 call from a client that does not declare them is refused with `-32021`.
    pub client_capabilities: &'static [&'static str],
    /// True when the handler may send notifications (progress, logs) through its request
    /// context; `#[tool]` sets it when the function takes a [`Context`](crate::Context). The
    /// server advertises `logging` exactly when some item does, and a request gets a
    /// notification queue only for such an item.
    pub takes_context: bool,
    /// The longest a call may run before it is answered as an `isError` result naming the
    /// limit (`#[tool(time_limit_ms = ..)]`); `None` takes the server's default.
    pub time_limit: Option<std::time::Duration>,
    /// Whether a call may become a task (`#[tool(task = "optional")]`, the tasks extension).
    pub task_support: crate::task::TaskSupport,
    /// The module that declared the tool (`serve!` serves its own crate's items).
    pub module_path: &'static str,
    /// Where the tool was declared, for diagnostics.
    pub location: (&'static str, u32),
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
            description,
            annotations: ToolAnnotations::NONE,
            input_schema,
            output_schema: None,
            handler,
            states: &[],
            client_capabilities: &[],
            takes_context: false,
            time_limit: None,
            task_support: crate::task::TaskSupport::Forbidden,
            module_path: "",
            location: ("", 0),
        }
    }

    /// The tool's name.
    #[must_use]
    pub const fn with_name(mut self, name: &'static str) -> Self {
        self.name = name;
        self
    }

    /// A human display name.
    #[must_use]
    pub const fn with_title(mut self, title: &'static str) -> Self {
        self.title = Some(title);
        self
    }

    /// What the tool does, for the model.
    #[must_use]
    pub const fn with_description(mut self, description: &'static str) -> Self {
        self.description = description;
        self
    }

    /// Hint annotations.
    #[must_use]
    pub const fn with_annotations(mut self, annotations: ToolAnnotations) -> Self {
        self.annotations = annotations;
        self
    }

    /// Computes the input schema.
    #[must_use]
    pub const fn with_input_schema(mut self, input_schema: fn() -> Value) -> Self {
        self.input_schema = input_schema;
        self
    }

    /// Computes the output schema: the tool answers with structured content.
    #[must_use]
    pub const fn with_output_schema(mut self, output_schema: fn() -> Value) -> Self {
        self.output_schema = Some(output_schema);
        self
    }

    /// Runs the tool.
    #[must_use]
    pub const fn with_handler(mut self, handler: ToolHandler) -> Self {
        self.handler = handler;
        self
    }

    /// The host state types the tool takes.
    #[must_use]
    pub const fn with_states(mut self, states: &'static [StateRequirement]) -> Self {
        self.states = states;
        self
    }

    /// The client capabilities a call needs.
    #[must_use]
    pub const fn with_client_capabilities(
        mut self,
        client_capabilities: &'static [&'static str],
    ) -> Self {
        self.client_capabilities = client_capabilities;
        self
    }

    /// Whether the handler may send notifications through its request context.
    #[must_use]
    pub const fn with_context(mut self, takes_context: bool) -> Self {
        self.takes_context = takes_context;
        self
    }

    /// The longest a call may run.
    #[must_use]
    pub const fn with_time_limit(mut self, time_limit: std::time::Duration) -> Self {
        self.time_limit = Some(time_limit);
        self
    }

    /// Whether a call may become a task.
    #[must_use]
    pub const fn with_task_support(mut self, task_support: crate::task::TaskSupport) -> Self {
        self.task_support = task_support;
        self
    }

    /// Where the tool was declared: `module_path!()`, `file!()`, `line!()` (`serve!` serves
    /// its own crate's items by module; the connectome names the function by it).
    #[must_use]
    pub const fn declared_at(
        mut self,
        module_path: &'static str,
        file: &'static str,
        line: u32,
    ) -> Self {
        self.module_path = module_path;
        self.location = (file, line);
        self
    }
}

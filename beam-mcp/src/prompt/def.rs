//! The static description of one prompt, as `#[prompt]` generates it.

use std::sync::Arc;

use serde_json::{Map, Value};

use crate::completion::CompletionDef;
use crate::tool::{BoxFuture, StateMap, StateRequirement};

use super::GetPromptResult;

/// One declared argument of a prompt. Prompt arguments are strings on the wire.
#[derive(Debug, Clone, Copy)]
#[non_exhaustive]
pub struct PromptArgument {
    /// The argument's name.
    pub name: &'static str,
    /// A human display name.
    pub title: Option<&'static str>,
    /// What it is, for the model (the parameter's doc comment).
    pub description: Option<&'static str>,
    /// False when the parameter is an `Option<String>`.
    pub required: bool,
}

impl PromptArgument {
    /// A required argument with no title or description.
    ///
    /// ```
    /// use beam_mcp::prompt::PromptArgument;
    /// const TOPIC: PromptArgument = PromptArgument::new("topic").with_description("What to summarize");
    /// assert!(TOPIC.required);
    /// assert!(!PromptArgument::new("tone").optional().required);
    /// ```
    pub const fn new(name: &'static str) -> Self {
        PromptArgument {
            name,
            title: None,
            description: None,
            required: true,
        }
    }

    /// Not required (an `Option<String>` parameter).
    #[must_use]
    pub const fn optional(mut self) -> Self {
        self.required = false;
        self
    }

    const_setters! {
        /// A human display name.
        with_title(title: &'static str) => Some(title);

        /// What it is, for the model.
        with_description(description: &'static str) => Some(description);
    }
}

/// What a prompt function is handed: its validated arguments and the host state.
#[derive(Clone)]
pub struct PromptRequest {
    pub(crate) name: Arc<str>,
    pub(crate) arguments: Map<String, Value>,
    pub(crate) states: Arc<StateMap>,
    pub(crate) context: crate::context::Context,
}

impl PromptRequest {
    /// The parts extractors read.
    #[doc(hidden)]
    pub fn __parts(&self) -> crate::tool::RequestParts<'_> {
        crate::tool::RequestParts::new(&self.name, &self.states, &self.context)
    }

    /// The prompt's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// An argument's value, if the caller gave it (the schema checked it is a string).
    pub fn argument(&self, name: &str) -> Option<&str> {
        self.arguments.get(name).and_then(Value::as_str)
    }

    /// The request context: the caller, progress, logs, cancellation.
    pub fn context(&self) -> &crate::context::Context {
        &self.context
    }

    /// The host state of type `T`, if the server was given one.
    pub fn state<T: Clone + Send + Sync + 'static>(&self) -> Option<T> {
        self.states.get::<T>().cloned()
    }
}

impl std::fmt::Debug for PromptRequest {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PromptRequest")
            .field("name", &self.name)
            .field("arguments", &self.arguments)
            .finish_non_exhaustive()
    }
}

/// Why a prompt produced no messages.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum PromptFault {
    /// The prompt function returned an error; its text goes to the caller (`-32602`, "prompt
    /// … cannot be rendered", with `data.reason`).
    #[error("{0}")]
    Refused(String),
    /// A fault on the server's side: logged, answered `-32603` without details.
    #[error("{0}")]
    Internal(String),
}

/// The function that renders a prompt: validated arguments in, messages out.
pub type PromptHandler = fn(PromptRequest) -> BoxFuture<Result<GetPromptResult, PromptFault>>;

/// Everything the server needs to list and render one prompt; `#[prompt]` writes one per
/// function.
#[derive(Debug, Clone, Copy)]
#[non_exhaustive]
pub struct PromptDef {
    /// The prompt's name.
    pub name: &'static str,
    /// A human display name.
    pub title: Option<&'static str>,
    /// Icons a host shows beside it (`#[prompt(icon = "assets/prompt.png")]`).
    pub icons: &'static [crate::icon::Icon],
    /// What it is for (the function's doc comment).
    pub description: &'static str,
    /// Its arguments, in declaration order.
    pub arguments: &'static [PromptArgument],
    /// Renders it.
    pub handler: PromptHandler,
    /// Labels for the host's own rules (`#[tool(tags = ["admin"])]`): middleware and listing
    /// filters read them; they are not advertised (the spec has no field for them).
    pub tags: &'static [&'static str],
    /// The OAuth scopes a caller needs (`#[tool(scopes = ["notes:write"])]`), enforced by the
    /// [`scopes`](crate::middleware::scopes) middleware and published in RFC 9728 metadata.
    pub scopes: &'static [&'static str],
    /// True when the function takes a [`Context`](crate::Context) and so may send
    /// notifications; see [`ToolDef::takes_context`](crate::ToolDef::takes_context).
    pub takes_context: bool,
    /// Completions for its arguments.
    pub completions: &'static [CompletionDef],
    /// The host state types it takes.
    pub states: &'static [StateRequirement],
    /// The named catalog it belongs to (`#[prompt(catalog = "notes")]`): `serve!` mounts it
    /// under that name, and [`crate_items`](crate::ServerBuilder::crate_items) leaves it out.
    pub catalog: Option<&'static str>,
    /// Where a mounted item came from ([`ServerBuilder::mount`](crate::ServerBuilder::mount)):
    /// the prefix it is mounted under, and its name in its own catalog.
    pub origin: Option<crate::origin::Origin>,
    /// The module that declared it.
    pub module_path: &'static str,
    /// Where it was declared, for diagnostics.
    pub location: (&'static str, u32),
}

impl PromptDef {
    /// A prompt with no title, arguments, context, completion or state, declared at no
    /// module; the `with_*` methods set the rest, in `const` context too.
    ///
    /// ```
    /// use beam_mcp::prompt::{
    ///     GetPromptResult, PromptArgument, PromptDef, PromptFault, PromptMessage, PromptRequest,
    /// };
    /// use beam_mcp::tool::BoxFuture;
    ///
    /// fn render(request: PromptRequest) -> BoxFuture<Result<GetPromptResult, PromptFault>> {
    ///     let topic = request.argument("topic").unwrap_or_default().to_owned();
    ///     let message = PromptMessage::user(format!("Summarize {topic}."));
    ///     Box::pin(async move { Ok(GetPromptResult::new(vec![message])) })
    /// }
    ///
    /// const SUMMARY: PromptDef = PromptDef::new("summary", "Summarizes a topic.", render)
    ///     .with_arguments(&[PromptArgument::new("topic")])
    ///     .declared_at(module_path!(), file!(), line!());
    /// let server = beam_mcp::Server::builder().prompt(SUMMARY).build().unwrap();
    /// # let _ = server;
    /// ```
    pub const fn new(
        name: &'static str,
        description: &'static str,
        handler: PromptHandler,
    ) -> Self {
        PromptDef {
            name,
            title: None,
            icons: &[],
            description,
            arguments: &[],
            handler,
            takes_context: false,
            tags: &[],
            scopes: &[],
            completions: &[],
            states: &[],
            catalog: None,
            origin: None,
            module_path: "",
            location: ("", 0),
        }
    }

    const_setters! {
        /// A human display name.
        with_title(title: &'static str) => Some(title);

        /// Icons a host shows beside it.
        with_icons(icons: &'static [crate::icon::Icon]) => icons;

        /// Its arguments, in declaration order.
        with_arguments(arguments: &'static [PromptArgument]) => arguments;

        /// Renders it.
        with_handler(handler: PromptHandler) => handler;

        /// Labels middleware and listing filters read; never advertised.
        with_tags(tags: &'static [&'static str]) => tags;

        /// The scopes a caller needs.
        with_scopes(scopes: &'static [&'static str]) => scopes;

        /// Whether the handler may send notifications through its request context.
        with_context(takes_context: bool) => takes_context;

        /// Completions for its arguments.
        with_completions(completions: &'static [CompletionDef]) => completions;

        /// The host state types it takes.
        with_states(states: &'static [StateRequirement]) => states;
    }

    const_setters! {
        /// The named catalog it belongs to (what `#[prompt(catalog = "..")]` sets).
        with_catalog(catalog: &'static str) => Some(catalog);
    }

    declared_at_setter!();
}

impl From<crate::tool::Rejection> for PromptFault {
    fn from(rejection: crate::tool::Rejection) -> Self {
        PromptFault::Internal(format!("an extractor failed: {rejection}"))
    }
}

//! The static description of one resource or template, as `#[resource]` generates it.

use std::sync::Arc;

use crate::completion::CompletionDef;
use crate::tool::{BoxFuture, StateMap, StateRequirement};

use super::{ResourceContents, ResourceError};

/// What a reader is handed: the URI asked for, the template's variables bound from it, and
/// the host state.
///
/// ```
/// # fn demo(request: &beam_mcp::resource::ReadRequest) {
/// let uri: &str = request.uri();
/// let id: Option<&str> = request.variable("id");
/// # let _ = (uri, id);
/// # }
/// ```
#[derive(Clone)]
pub struct ReadRequest {
    pub(crate) uri: String,
    pub(crate) variables: Vec<(Arc<str>, String)>,
    pub(crate) states: Arc<StateMap>,
    pub(crate) context: crate::context::Context,
}

impl ReadRequest {
    /// The URI the client asked for, exactly as sent.
    pub fn uri(&self) -> &str {
        &self.uri
    }

    /// The text a template variable matched (never percent-decoded), if the template has it.
    pub fn variable(&self, name: &str) -> Option<&str> {
        self.variables
            .iter()
            .find(|(n, _)| n.as_ref() == name)
            .map(|(_, v)| v.as_str())
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

impl std::fmt::Debug for ReadRequest {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ReadRequest")
            .field("uri", &self.uri)
            .field("variables", &self.variables)
            .finish_non_exhaustive()
    }
}

/// The function that reads a resource: a URI the catalog lists (or a template matches) in,
/// contents out.
pub type ResourceReader =
    fn(ReadRequest) -> BoxFuture<Result<Vec<ResourceContents>, ResourceError>>;

/// Everything the server needs to list and read one resource (a URI) or one family of
/// resources (a URI template); `#[resource]` writes one per function.
///
/// A `uri` with an expression (`{id}`, `{+path}`) is a template, listed by
/// `resources/templates/list`; without one it is a resource, listed by `resources/list`.
#[derive(Debug, Clone, Copy)]
pub struct ResourceDef {
    /// The URI, or the URI template.
    pub uri: &'static str,
    /// The resource's name (the function's name unless set).
    pub name: &'static str,
    /// A human display name.
    pub title: Option<&'static str>,
    /// What it holds, for the model (the function's doc comment).
    pub description: Option<&'static str>,
    /// The MIME type of its contents, when known.
    pub mime_type: Option<&'static str>,
    /// The template variables the reader binds, by name (empty for a static URI); checked
    /// against the template when the server is built.
    pub parameters: &'static [&'static str],
    /// Reads it.
    pub reader: ResourceReader,
    /// True when the function takes a [`Context`](crate::Context) and so may send
    /// notifications; see [`ToolDef::takes_context`](crate::ToolDef::takes_context).
    pub takes_context: bool,
    /// Completions for the template's variables.
    pub completions: &'static [CompletionDef],
    /// The host state types the reader takes.
    pub states: &'static [StateRequirement],
    /// The module that declared it (`serve!` serves its own crate's items).
    pub module_path: &'static str,
    /// Where it was declared, for diagnostics.
    pub location: (&'static str, u32),
}

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
    /// The parts extractors read.
    #[doc(hidden)]
    pub fn __parts(&self) -> crate::tool::RequestParts<'_> {
        crate::tool::RequestParts::new(&self.uri, &self.states, &self.context)
    }

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
#[non_exhaustive]
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
    /// Icons a host shows beside it (`#[resource("..", icon = "assets/doc.png")]`).
    pub icons: &'static [crate::icon::Icon],
    /// Its size in bytes, when known before it is read (a resource, not a template: the
    /// spec's `ResourceTemplate` has no size).
    pub size: Option<u64>,
    /// Who it is for, how much it matters, when it last changed.
    pub annotations: crate::annotations::Annotations,
    /// When it is an MCP Apps view (a `ui://` URI): what the host needs to render it, written
    /// as `_meta.ui` on its listing and on the contents it reads.
    pub app: Option<crate::app::AppView>,
    /// The template variables the reader binds, by name (empty for a static URI); checked
    /// against the template when the server is built.
    pub parameters: &'static [&'static str],
    /// Reads it.
    pub reader: ResourceReader,
    /// Labels for the host's own rules (`#[tool(tags = ["admin"])]`): middleware and listing
    /// filters read them; they are not advertised (the spec has no field for them).
    pub tags: &'static [&'static str],
    /// The OAuth scopes a caller needs (`#[tool(scopes = ["notes:write"])]`), enforced by the
    /// [`scopes`](crate::middleware::scopes) middleware and published in RFC 9728 metadata.
    pub scopes: &'static [&'static str],
    /// True when the function takes a [`Context`](crate::Context) and so may send
    /// notifications; see [`ToolDef::takes_context`](crate::ToolDef::takes_context).
    pub takes_context: bool,
    /// Completions for the template's variables.
    pub completions: &'static [CompletionDef],
    /// The host state types the reader takes.
    pub states: &'static [StateRequirement],
    /// The named catalog it belongs to (`#[resource(catalog = "notes")]`): `serve!` mounts it
    /// under that name, and [`crate_items`](crate::ServerBuilder::crate_items) leaves it out.
    pub catalog: Option<&'static str>,
    /// Where a mounted item came from ([`ServerBuilder::mount`](crate::ServerBuilder::mount)):
    /// the prefix it is mounted under, and its URI in its own catalog.
    pub origin: Option<crate::origin::Origin>,
    /// The module that declared it (`serve!` serves its own crate's items).
    pub module_path: &'static str,
    /// Where it was declared, for diagnostics.
    pub location: (&'static str, u32),
}

impl ResourceDef {
    /// A resource (or, when `uri` has an expression, a template) with the name `name`, no
    /// title, description or MIME type, binding no variables, taking no context, completion or
    /// state, declared at no module; the `with_*` methods set the rest, in `const` context too.
    ///
    /// ```
    /// use beam_mcp::resource::{ReadRequest, ResourceContents, ResourceDef, ResourceError};
    /// use beam_mcp::tool::BoxFuture;
    ///
    /// fn read(request: ReadRequest) -> BoxFuture<Result<Vec<ResourceContents>, ResourceError>> {
    ///     let uri = request.uri().to_owned();
    ///     Box::pin(async move { Ok(vec![ResourceContents::text("hello").with_uri(uri)]) })
    /// }
    ///
    /// const README: ResourceDef = ResourceDef::new("docs://readme", "readme", read)
    ///     .with_mime_type("text/plain")
    ///     .declared_at(module_path!(), file!(), line!());
    /// let server = beam_mcp::Server::builder().resource(README).build().unwrap();
    /// # let _ = server;
    /// ```
    pub const fn new(uri: &'static str, name: &'static str, reader: ResourceReader) -> Self {
        ResourceDef {
            uri,
            name,
            title: None,
            description: None,
            mime_type: None,
            icons: &[],
            size: None,
            annotations: crate::annotations::Annotations::NONE,
            app: None,
            parameters: &[],
            reader,
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

    /// Makes it an MCP Apps view: its MIME type becomes `text/html;profile=mcp-app` and `view`
    /// its `_meta.ui`. The URI must be a `ui://` one (checked by `build()`).
    ///
    /// ```
    /// use beam_mcp::app::AppView;
    /// use beam_mcp::resource::{ReadRequest, ResourceContents, ResourceDef, ResourceError};
    /// use beam_mcp::tool::BoxFuture;
    ///
    /// fn read(_: ReadRequest) -> BoxFuture<Result<Vec<ResourceContents>, ResourceError>> {
    ///     Box::pin(async { Ok(vec![ResourceContents::text("<!doctype html><p>hi</p>")]) })
    /// }
    /// const VIEW: ResourceDef = ResourceDef::new("ui://demo/hello", "hello", read)
    ///     .with_app(AppView::NONE.with_prefers_border(true));
    /// assert_eq!(VIEW.mime_type, Some(beam_mcp::app::MIME_TYPE));
    /// ```
    #[must_use]
    pub const fn with_app(mut self, view: crate::app::AppView) -> Self {
        self.app = Some(view);
        self.mime_type = Some(crate::app::MIME_TYPE);
        self
    }

    const_setters! {
        /// A human display name.
        with_title(title: &'static str) => Some(title);

        /// What it holds, for the model.
        with_description(description: &'static str) => Some(description);

        /// The MIME type of its contents.
        with_mime_type(mime_type: &'static str) => Some(mime_type);

        /// Icons a host shows beside it.
        with_icons(icons: &'static [crate::icon::Icon]) => icons;

        /// Its size in bytes (a resource; `build()` refuses it on a template).
        with_size(size: u64) => Some(size);

        /// Who it is for, how much it matters, when it last changed.
        with_annotations(annotations: crate::annotations::Annotations) => annotations;

        /// The template variables the reader binds, by name.
        with_parameters(parameters: &'static [&'static str]) => parameters;

        /// Reads it.
        with_reader(reader: ResourceReader) => reader;

        /// Labels middleware and listing filters read; never advertised.
        with_tags(tags: &'static [&'static str]) => tags;

        /// The scopes a caller needs.
        with_scopes(scopes: &'static [&'static str]) => scopes;

        /// Whether the reader may send notifications through its request context.
        with_context(takes_context: bool) => takes_context;

        /// Completions for the template's variables.
        with_completions(completions: &'static [CompletionDef]) => completions;

        /// The host state types the reader takes.
        with_states(states: &'static [StateRequirement]) => states;
    }

    const_setters! {
        /// The named catalog it belongs to (what `#[resource(catalog = "..")]` sets).
        with_catalog(catalog: &'static str) => Some(catalog);
    }

    declared_at_setter!();
}

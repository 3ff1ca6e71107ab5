//! # beam-mcp
//!
//! A strict, fast framework for [Model Context Protocol](https://modelcontextprotocol.io)
//! servers. Annotate plain functions; the macros generate, at compile time, the specs, the JSON
//! Schemas and typed dispatch; one pure core serves them over stdio on both protocol revisions,
//! `2026-07-28` (stateless) and `2025-11-25` (the `initialize` handshake).
//!
//! ```no_run
//! /// Read the current weather for a place.
//! #[beam_mcp::tool(read_only)]
//! async fn get_weather(place: String) -> Result<String, beam_mcp::ToolError> {
//!     Ok(format!("Sunny in {place}"))
//! }
//!
//! beam_mcp::serve!(stdio);
//! ```
//!
//! The rooms, in the order a message flows through them: [`transport`] (bytes and
//! connections), [`json`] (the bounded reader), [`protocol`] (the pure core), the catalog
//! (built and checked once by [`ServerBuilder::build`]), [`schema`] (the validator), and the
//! tool dispatch ([`mod@tool`]).
#![forbid(unsafe_code)]
#![cfg_attr(docsrs, feature(doc_cfg))]

#[macro_use]
mod setters;

mod advertised;
mod annotations;
pub mod app;
mod arguments;
pub mod ask;
mod caller_text;
mod catalog;
#[cfg(feature = "client")]
#[cfg_attr(docsrs, doc(cfg(feature = "client")))]
pub mod client;
mod clock;
pub mod completion;
pub mod connectome;
mod context;
mod dispatch;
mod error;
pub mod fanout;
#[cfg(fuzzing)]
#[doc(hidden)]
pub mod fuzzing;
mod icon;
pub mod json;
mod json_out;
mod level;
pub mod limit;
mod live;
pub mod middleware;
mod mount;
mod origin;
mod panic;
mod params;
mod pin;
pub mod prompt;
pub mod protocol;
#[cfg(feature = "client")]
#[cfg_attr(docsrs, doc(cfg(feature = "client")))]
pub mod proxy;
#[cfg(feature = "redis")]
#[cfg_attr(docsrs, doc(cfg(feature = "redis")))]
pub mod redis;
pub mod resource;
mod revision;
pub mod schema;
mod schemagen;
mod server;
mod server_card;
pub mod skill;
pub mod store;
mod task;
#[cfg(feature = "otel")]
pub mod telemetry;
pub mod testing;
pub mod tool;
pub mod transport;

pub use advertised::{Advertised, AdvertisedError};
pub use annotations::{Annotations, Priority, Role, Timestamp};
pub use ask::{
    AskError, Elicit, ElicitChoice, ElicitField, Elicited, Root, Sampled, SamplingRequest,
};
pub use beam_mcp_macros::{Elicit, icon, items, prompt, resource, skills, tool};
pub use catalog::{CatalogError, Message};
pub use context::{Ask, Context, LogLevel, NotSent, UnknownLevel};
pub use icon::{Icon, IconTheme};
pub use limit::{RateLimit, TokenBucket};
pub use live::{LiveCatalog, LiveError};
pub use mount::MountError;
pub use origin::Origin;
pub use pin::PIN_ENV;
pub use schemagen::{SchemaProfile, schema_for};
pub use server::{BuildError, CacheHint, CacheScope, Server, ServerBuilder};
pub use server_card::{SERVER_CARD_MEDIA_TYPE, SERVER_CARD_SCHEMA, ServerCard, ServerCardError};
pub use task::TaskSupport;
pub use tool::{
    Args, CallToolResult, Content, Extract, IntoToolResult, Rejection, RequestParts, State,
    ToolAnnotations, ToolContext, ToolDef, ToolError,
};

/// Serves every `#[tool]`, `#[resource]` and `#[prompt]` of the crate it is written in; the
/// whole `main`.
///
/// - `serve!(stdio)`: newline-delimited JSON-RPC on stdin/stdout, both revisions, with the
///   crate's package name and version as `serverInfo`.
/// - `serve!(stdio, configure = |builder| builder.state(..).instructions(..))`: the same, with
///   the builder adjusted first.
/// - `serve!(http, bind = "127.0.0.1:8080", authorize = .., allowed_origins = ..)` (feature
///   `http`): Streamable HTTP at `/mcp`, 2026-07-28. `authorize` and `allowed_origins` are
///   required; `configure = ..` adjusts the [`ServerBuilder`] and `endpoint = ..` the
///   [`HttpBuilder`](crate::transport::http::HttpBuilder). The bound address is printed on
///   stderr as `beam_mcp: listening on http://ADDR/mcp`.
///
/// The server serves the crate's items declared outside a named catalog
/// ([`ServerBuilder::crate_items`]) and mounts each named catalog (`#[tool(catalog = "notes")]`)
/// under its name ([`ServerBuilder::mount_crate_catalogs`]).
///
/// Diagnostics go to stderr through `tracing` (filter with `RUST_LOG`); stdout carries
/// protocol messages only. A catalog the builder refuses ends the process with the reason on
/// stderr and exit code 2, before the first message is read.
///
/// ```no_run
/// /// Says hello.
/// #[beam_mcp::tool]
/// fn hello(name: String) -> String {
///     format!("Hello, {name}!")
/// }
///
/// beam_mcp::serve!(stdio, configure = |b| b.instructions("Greets people."));
/// ```
///
/// Over HTTP (with the `http` feature):
///
#[cfg_attr(feature = "http", doc = "```no_run")]
#[cfg_attr(not(feature = "http"), doc = "```ignore")]
/// beam_mcp::serve!(
///     http,
///     bind = "127.0.0.1:8080",
///     authorize = |_parts| Ok(()),
///     allowed_origins = beam_mcp::transport::http::Origins::Loopback,
///     endpoint = |h| h.read_timeout(std::time::Duration::from_secs(5)),
/// );
/// ```
#[macro_export]
macro_rules! serve {
    (stdio) => {
        $crate::serve!(stdio, configure = |builder| builder);
    };
    (http, $($rest:tt)*) => {
        $crate::serve_http!($($rest)*);
    };
    (stdio, configure = $configure:expr $(,)?) => {
        fn main() -> ::std::process::ExitCode {
            let builder = $crate::Server::builder()
                .name(::core::env!("CARGO_PKG_NAME"))
                .version(::core::env!("CARGO_PKG_VERSION"))
                .crate_items(::core::module_path!())
                .mount_crate_catalogs(::core::module_path!());
            let configure: fn($crate::ServerBuilder) -> $crate::ServerBuilder = $configure;
            $crate::transport::stdio::main(configure(builder))
        }
    };
}

/// The `http` arm of [`serve!`].
#[doc(hidden)]
#[cfg(feature = "http")]
#[macro_export]
macro_rules! serve_http {
    (
        bind = $bind:expr,
        authorize = $authorize:expr,
        allowed_origins = $origins:expr
        $(, configure = $configure:expr)?
        $(, endpoint = $endpoint:expr)?
        $(,)?
    ) => {
        fn main() -> ::std::process::ExitCode {
            let builder = $crate::Server::builder()
                .name(::core::env!("CARGO_PKG_NAME"))
                .version(::core::env!("CARGO_PKG_VERSION"))
                .crate_items(::core::module_path!())
                .mount_crate_catalogs(::core::module_path!());
            $(
                let configure: fn($crate::ServerBuilder) -> $crate::ServerBuilder = $configure;
                let builder = configure(builder);
            )?
            $crate::transport::http::main($bind, builder, |server| {
                let endpoint = $crate::transport::http::Http::builder(server)
                    .authorize($authorize)
                    .allowed_origins($origins);
                $(
                    let adjust: fn($crate::transport::http::HttpBuilder) -> $crate::transport::http::HttpBuilder = $endpoint;
                    let endpoint = adjust(endpoint);
                )?
                endpoint
            })
        }
    };
}

/// The declared connectome the crate's build step wrote (`beam_mcp_build` in `build.rs`), as
/// `&'static [u8]`, for [`ServerBuilder::declared_connectome`]: it includes
/// `$OUT_DIR/connectome.json`, so it compiles only in a crate whose `build.rs` emits it.
///
/// ```ignore
/// let server = beam_mcp::Server::builder()
///     .name("weather")
///     .declared_connectome(beam_mcp::declared_connectome!())
///     .build()?;
/// ```
#[macro_export]
macro_rules! declared_connectome {
    () => {
        ::core::include_bytes!(::core::concat!(::core::env!("OUT_DIR"), "/connectome.json"))
    };
}

/// The README's Rust examples, compiled as doctests so they cannot drift from the API.
#[cfg(doctest)]
#[doc = include_str!("../../README.md")]
struct ReadmeExamples;

/// The guide's Rust examples (`docs/guide.md`), compiled as doctests (with `http`, which its
/// last section serves: the workspace's test run turns it on).
#[cfg(all(doctest, feature = "http"))]
#[doc = include_str!("../../docs/guide.md")]
struct GuideExamples;

#[doc(hidden)]
pub mod __private_v0_1 {
    //! Used by the macros' generated code; not a public API. The name carries the version
    //! of `beam-mcp-macros` it serves (pinned with `=`): code expanded by another version of
    //! the macros fails to compile on the path instead of misbehaving.
    pub use ::linkme;
    pub use ::schemars;
    pub use ::serde;
    pub use ::serde_json;

    use crate::tool::{CallToolResult, ToolDef, ToolFault};

    /// Every `#[tool]` in the program; `serve!` picks its own crate's.
    #[::linkme::distributed_slice]
    #[linkme(crate = ::linkme)]
    pub static TOOLS: [ToolDef];

    /// Every `#[resource]` in the program.
    #[::linkme::distributed_slice]
    #[linkme(crate = ::linkme)]
    pub static RESOURCES: [crate::resource::ResourceDef];

    /// Every `#[prompt]` in the program.
    #[::linkme::distributed_slice]
    #[linkme(crate = ::linkme)]
    pub static PROMPTS: [crate::prompt::PromptDef];

    pub use crate::dispatch::blocking;

    pub use crate::ask::DerivedElicit;

    /// What a type deriving `Elicit` also needs: named by the derive, so that a missing derive
    /// is one error at `Elicit` naming the fix (not one per bound, or one inside a form's
    /// `JsonSchema`).
    #[diagnostic::on_unimplemented(
        message = "`{Self}` derives `Elicit`, but it must also derive `serde::Deserialize` and `schemars::JsonSchema`",
        label = "a form and its choices are read with serde and described by schemars",
        note = "write `#[derive(beam_mcp::Elicit, serde::Deserialize, schemars::JsonSchema)]` on `{Self}`"
    )]
    pub trait ElicitDerives {}

    #[diagnostic::do_not_recommend]
    impl<T: ::serde::de::DeserializeOwned + ::schemars::JsonSchema + Send + 'static> ElicitDerives
        for T
    {
    }

    /// Names `T: ElicitDerives` where `#[derive(Elicit)]` is written.
    pub fn elicit_derives<T: ElicitDerives>() {}

    /// The `#[cfg(test)]` check `#[tool]` emits for each tool: its schemas are built as
    /// `build()` builds them, and a refusal fails the host's `cargo test`, naming the tool,
    /// the Rust types its schema came from, and the refusal.
    #[track_caller]
    pub fn check_tool_schemas(def: &ToolDef, types: &str) {
        if let Some(refusal) = crate::catalog::schema_refusal(def) {
            panic!(
                "tool {:?} ({types}) would be refused at build(): {refusal}\n\
                 fix: change the type (or its #[schemars(..)] attributes) so that its schema uses \
                 only what beam-mcp enforces (docs/wire.md, \"Argument schemas\")",
                def.name
            );
        }
    }

    /// Deserializes the validated arguments into the tool's typed parameters.
    pub fn decode_args<T: ::serde::de::DeserializeOwned>(
        arguments: crate::tool::Arguments,
    ) -> Result<T, ToolFault> {
        arguments
            .decode()
            .map_err(|e| ToolFault::InvalidArguments(e.to_string()))
    }

    /// An `Err` of a structured tool: an `isError` result with the error's text.
    pub fn error<E: ::core::fmt::Display>(error: E) -> Result<CallToolResult, ToolFault> {
        Ok(CallToolResult::error(error.to_string()))
    }

    /// A template variable, parsed as the reader's parameter type; text that does not parse
    /// names no resource. `parse` is `<T as TemplateVariable>::__parse`, named at the
    /// parameter's type so a type that is not `FromStr` is one error there.
    pub fn variable<T>(
        request: &crate::resource::ReadRequest,
        name: &str,
        parse: fn(&str) -> Option<T>,
    ) -> Result<T, crate::resource::ResourceError> {
        let text = request.variable(name).ok_or_else(|| {
            crate::resource::ResourceError::internal(format!("no template variable {name}"))
        })?;
        parse(text).ok_or_else(|| crate::resource::ResourceError::NotFound {
            reason: Some(format!("{name} {text:?} is not valid here")),
        })
    }

    /// A required prompt argument (the schema checked it is present and a string).
    pub fn prompt_argument(
        request: &crate::prompt::PromptRequest,
        name: &str,
    ) -> Result<String, crate::prompt::PromptFault> {
        request.argument(name).map(str::to_owned).ok_or_else(|| {
            crate::prompt::PromptFault::Internal(format!("no argument {name} after validation"))
        })
    }

    /// An optional prompt argument.
    pub fn prompt_optional(request: &crate::prompt::PromptRequest, name: &str) -> Option<String> {
        request.argument(name).map(str::to_owned)
    }

    /// What a prompt returned, as messages, or why it could not be rendered.
    pub fn prompt_result(
        rendered: Result<crate::prompt::GetPromptResult, String>,
    ) -> Result<crate::prompt::GetPromptResult, crate::prompt::PromptFault> {
        rendered.map_err(crate::prompt::PromptFault::Refused)
    }

    /// Runs a completer of any shape.
    pub fn complete<M>(
        completer: impl crate::completion::Completer<M>,
        request: crate::completion::CompletionRequest,
    ) -> crate::tool::BoxFuture<crate::completion::Completion> {
        completer.complete(request)
    }
}

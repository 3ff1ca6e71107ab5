//! What a type must be to stand in a tool's signature, as traits whose one blanket impl
//! carries the real bounds.
//!
//! The generated code asks for these traits, never for serde's or schemars' directly: a type
//! that lacks a derive then fails one bound of ours, spanned on the parameter or return type,
//! whose message names the type and the derive to add (instead of a page of serde internals
//! and unrelated implementors).

use schemars::{JsonSchema, Schema, SchemaGenerator};
use serde::Serialize;
use serde::de::{Deserialize, DeserializeOwned, Deserializer};
use serde_json::Value;

use super::{CallToolResult, ToolContext, ToolFault};

/// A type a tool takes as an argument: a plain parameter, or the `T` of [`Args<T>`](crate::Args).
///
/// Implemented for every type that is both `serde::Deserialize` (owned) and
/// `schemars::JsonSchema`; derive both on a type of yours:
///
/// ```
/// #[derive(serde::Deserialize, schemars::JsonSchema)]
/// struct Filter {
///     tag: String,
/// }
///
/// /// Finds notes with a tag.
/// #[beam_mcp::tool]
/// fn find(filter: Filter) -> String {
///     filter.tag
/// }
/// # fn assert_argument<T: beam_mcp::tool::ToolArgument>() {}
/// # assert_argument::<Filter>();
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be a tool argument: it is not both `Deserialize` and `JsonSchema`",
    label = "a tool argument is read with serde and described by schemars",
    note = "add `#[derive(serde::Deserialize, schemars::JsonSchema)]` to `{Self}` (a type of another crate: wrap it in a type of yours that derives both); a value taken from the request instead is an extractor: mark the parameter `#[extract]`"
)]
pub trait ToolArgument: Sized {
    #[doc(hidden)]
    fn __deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error>;

    #[doc(hidden)]
    fn __schema(generator: &mut SchemaGenerator) -> Schema;

    #[doc(hidden)]
    fn __deserialize_optional<'de, D: Deserializer<'de>>(
        deserializer: D,
    ) -> Result<Option<Self>, D::Error>;

    #[doc(hidden)]
    fn __schema_optional(generator: &mut SchemaGenerator) -> Schema;

    #[doc(hidden)]
    fn __from_arguments(arguments: Value) -> Result<Self, ToolFault>;

    #[doc(hidden)]
    fn __input_schema() -> Value;
}

#[diagnostic::do_not_recommend]
impl<T: DeserializeOwned + JsonSchema> ToolArgument for T {
    fn __deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        T::deserialize(deserializer)
    }

    fn __schema(generator: &mut SchemaGenerator) -> Schema {
        generator.subschema_for::<T>()
    }

    fn __deserialize_optional<'de, D: Deserializer<'de>>(
        deserializer: D,
    ) -> Result<Option<Self>, D::Error> {
        Option::<T>::deserialize(deserializer)
    }

    fn __schema_optional(generator: &mut SchemaGenerator) -> Schema {
        generator.subschema_for::<Option<T>>()
    }

    fn __from_arguments(arguments: Value) -> Result<Self, ToolFault> {
        serde_json::from_value(arguments).map_err(|e| ToolFault::InvalidArguments(e.to_string()))
    }

    fn __input_schema() -> Value {
        crate::schemagen::schema_for::<T>()
    }
}

/// A type a tool returns as structured content (`structuredContent` and the `outputSchema`).
///
/// Implemented for every type that is both `serde::Serialize` and `schemars::JsonSchema`;
/// text, [`Content`](crate::Content) and [`CallToolResult`] are returned as content instead.
///
/// ```
/// #[derive(serde::Serialize, schemars::JsonSchema)]
/// struct Forecast {
///     celsius: f64,
/// }
///
/// /// Tomorrow's forecast.
/// #[beam_mcp::tool]
/// fn forecast() -> Forecast {
///     Forecast { celsius: 21.0 }
/// }
/// # fn assert_output<T: beam_mcp::tool::StructuredOutput>() {}
/// # assert_output::<Forecast>();
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be a tool's structured result: it is not both `Serialize` and `JsonSchema`",
    label = "a structured result is written with serde and described by schemars",
    note = "add `#[derive(serde::Serialize, schemars::JsonSchema)]` to `{Self}`, or return text (`String`), `Content` or `CallToolResult`"
)]
pub trait StructuredOutput {
    #[doc(hidden)]
    fn __output_schema() -> Value;

    #[doc(hidden)]
    fn __to_result(&self, context: &ToolContext) -> Result<CallToolResult, ToolFault>;
}

#[diagnostic::do_not_recommend]
impl<T: Serialize + JsonSchema> StructuredOutput for T {
    fn __output_schema() -> Value {
        crate::schemagen::output_schema_for::<T>()
    }

    fn __to_result(&self, context: &ToolContext) -> Result<CallToolResult, ToolFault> {
        super::structured(self, context.wraps_output())
            .map_err(|e| ToolFault::Internal(format!("the output could not be serialized: {e}")))
    }
}

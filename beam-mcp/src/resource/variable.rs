//! What a URI template variable binds to.

use std::str::FromStr;

/// A type a `#[resource]` reader takes for a URI template variable: any `FromStr` type.
///
/// Text that does not parse names no resource: the read is answered "not found".
///
/// ```
/// struct NoteId(u64);
///
/// impl std::str::FromStr for NoteId {
///     type Err = std::num::ParseIntError;
///     fn from_str(s: &str) -> Result<Self, Self::Err> {
///         s.parse().map(NoteId)
///     }
/// }
///
/// /// A note by its number.
/// #[beam_mcp::resource("notes://{id}")]
/// fn note(id: NoteId) -> String {
///     format!("note {}", id.0)
/// }
/// # fn assert_variable<T: beam_mcp::resource::TemplateVariable>() {}
/// # assert_variable::<NoteId>();
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be a URI template variable: it is not `FromStr`",
    label = "a template variable is parsed from the URI's text",
    note = "implement `std::str::FromStr` for `{Self}`, or take a `String` and parse it in the reader"
)]
pub trait TemplateVariable: Sized {
    #[doc(hidden)]
    fn __parse(text: &str) -> Option<Self>;
}

#[diagnostic::do_not_recommend]
impl<T: FromStr> TemplateVariable for T {
    fn __parse(text: &str) -> Option<Self> {
        text.parse().ok()
    }
}

//! The `const` `with_*` setters of the definitions (`ToolDef`, `ResourceDef`, `PromptDef`, ...),
//! written once: each sets one field and returns the definition, so a definition is built in a
//! constant and a new field is not a breaking change.

/// `with_title(title: &'static str) => Some(title);` becomes a documented
/// `pub const fn with_title(mut self, title: &'static str) -> Self`.
macro_rules! const_setters {
    ($( $(#[doc = $doc:literal])* $name:ident($field:ident: $ty:ty) => $value:expr; )*) => {
        $(
            $(#[doc = $doc])*
            #[must_use]
            pub const fn $name(mut self, $field: $ty) -> Self {
                self.$field = $value;
                self
            }
        )*
    };
}

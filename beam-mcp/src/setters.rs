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

/// `declared_at(module_path, file, line)`: where a definition was declared (`serve!` serves its
/// own crate's items by module; the connectome names the function by it).
macro_rules! declared_at_setter {
    () => {
        /// Where it was declared: `module_path!()`, `file!()`, `line!()` (`serve!` serves its
        /// own crate's items by module; the connectome names the function by it).
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
    };
}

//! Resources: static URIs and URI templates, their readers, and what a reader returns.

mod contents;
mod def;
mod variable;

pub use contents::{IntoReadResult, NotFound, ResourceContents, ResourceError};
pub use def::{ReadRequest, ResourceDef, ResourceReader};
pub use variable::TemplateVariable;

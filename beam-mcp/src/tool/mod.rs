//! Tools: their static definitions, what they take, and what they return.

mod capability;
mod content;
mod def;
mod extract;
#[cfg(feature = "client")]
mod read;

pub use crate::arguments::Arguments;
pub use capability::{StructuredOutput, ToolArgument};
pub(crate) use content::structured;
pub use content::{
    CallToolResult, Content, EmbeddedResource, IntoToolResult, ResourceBody, ToolError,
};
pub use def::{
    BoxFuture, StateRequirement, ToolAnnotations, ToolArgumentsHandler, ToolDef, ToolFault,
    ToolHandler,
};
pub(crate) use extract::StateMap;
pub use extract::{Args, Extract, Rejection, RequestParts, State, StateValue, ToolContext};
#[cfg(feature = "client")]
pub(crate) use read::blob_bytes;

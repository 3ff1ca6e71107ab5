//! Prompts: their definitions, their arguments, and the messages they render.

mod def;
mod message;

pub use def::{PromptArgument, PromptDef, PromptFault, PromptHandler, PromptRequest};
pub use message::{GetPromptResult, IntoPromptResult, PromptMessage, Role};

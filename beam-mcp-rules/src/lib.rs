//! The catalog rules of beam-mcp, in one place so the compile-time checks (in
//! `beam-mcp-macros`) and the startup checks (in `beam-mcp`) refuse the same things with the
//! same words.
//!
//! Use them through `beam_mcp`; this crate has no dependencies and no runtime state.
//!
//! ```
//! use beam_mcp_rules::{UriTemplate, valid_tool_name};
//! assert!(valid_tool_name("weather.get"));
//! let t = UriTemplate::parse("file:///{+path}").unwrap();
//! assert_eq!(t.variables().collect::<Vec<_>>(), ["path"]);
//! ```

mod message;
mod names;
mod template;

pub use message::Message;
pub use names::{header_name_defect, uri_defect, valid_tool_name};
pub use template::{Part, TemplateError, UriTemplate};

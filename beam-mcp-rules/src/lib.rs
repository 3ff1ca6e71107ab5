//! The catalog rules of beam-mcp, in one place so the compile-time checks (in
//! `beam-mcp-macros`) and the startup checks (in `beam-mcp`) refuse the same things with the
//! same words.
//!
//! Use them through `beam_mcp`; this crate has no runtime state, and no dependencies unless
//! its `attributes` feature is on: then it also holds the one parser of the item attributes
//! (`attributes`), shared by the macros and the build-time scan.
//!
//! ```
//! use beam_mcp_rules::{UriTemplate, valid_tool_name};
//! assert!(valid_tool_name("weather.get"));
//! let t = UriTemplate::parse("file:///{+path}").unwrap();
//! assert_eq!(t.variables().collect::<Vec<_>>(), ["path"]);
//! ```

mod apps;
#[cfg(feature = "attributes")]
pub mod attributes;
mod display;
mod message;
mod names;
mod namespace;
mod skills;
mod template;

pub use apps::{APP_MIME_TYPE, APP_PERMISSIONS, app_domain, app_permission, app_uri, csp_source};
pub use display::{
    ICON_MIME_TYPES, civil_from_days, icon_mime_type, icon_size, icon_source, priority, timestamp,
};
pub use message::Message;
pub use names::{header_name_defect, uri_defect, valid_tool_name};
pub use namespace::{namespaced_name, namespaced_uri, original_uri, prefix_defect};
pub use skills::{
    SKILL_COMPATIBILITY_CHARS, SKILL_DESCRIPTION_CHARS, SKILL_MOST_BYTES, SKILL_MOST_FILES,
    SKILL_NAME_CHARS, skill_bounds, skill_compatibility, skill_description, skill_file_path,
    skill_name, skill_path,
};
pub use template::{Part, TemplateError, UriTemplate};

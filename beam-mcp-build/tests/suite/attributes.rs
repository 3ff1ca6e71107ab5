//! `#[tool]`, `#[resource]` and `#[prompt]` are beam-mcp's only when they resolve to it
//! through the module's `use` items: another crate's attribute of the same name (rmcp's
//! `#[tool(...)]`) is listed in the bound, not read as an item (nor refused in beam-mcp's words).

use crate::common::{entries, scan};
use beam_mcp_build::ItemKind;

#[test]
fn only_beam_mcps_attributes_declare_items() {
    let declared = scan("attrs");
    assert_eq!(
        declared.keys(ItemKind::Tool),
        [
            "bare_tool",
            "beam_glob_tool",
            "globbed_tool",
            "grouped_tool",
            "pathed_tool",
            "renamed_crate_tool",
            "renamed_macro",
            "std_glob_tool",
        ]
        .into()
    );
    assert_eq!(declared.keys(ItemKind::Resource), ["app://grouped"].into());
    assert_eq!(
        declared.keys(ItemKind::Prompt),
        ["inherited", "root_prompt"].into()
    );
    assert_eq!(
        entries(&declared, "attribute_macros"),
        [
            "attrs::other_glob::other_glob_tool #[tool]",
            "attrs::rmcp_user::Server::method_tool #[tool]",
            "attrs::rmcp_user::rmcp_prompt #[prompt]",
            "attrs::rmcp_user::rmcp_tool #[tool]",
        ]
    );
}

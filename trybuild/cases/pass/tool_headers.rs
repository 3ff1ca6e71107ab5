//! `#[header("Name")]` on the parameter types an HTTP header can carry.

#[path = "common/mod.rs"]
mod common;

use serde_json::json;

/// Deploys to a region.
#[beam_mcp::tool]
fn deploy(
    /// Where to.
    #[header("Region")]
    region: String,
    #[header("Priority")] priority: i64,
    #[header("Dry-Run")] dry_run: bool,
    #[header("X-Trace_id")] trace: Option<String>,
    /// Not a header.
    service: String,
) -> String {
    format!("{service}@{region} p{priority} dry={dry_run} trace={trace:?}")
}

fn main() {
    let server = common::server();
    let deploy = common::tool(&server, "deploy");
    let properties = &deploy["inputSchema"]["properties"];
    for (property, header) in [
        ("region", "Region"),
        ("priority", "Priority"),
        ("dry_run", "Dry-Run"),
        ("trace", "X-Trace_id"),
    ] {
        assert_eq!(properties[property]["x-mcp-header"], header, "{deploy}");
    }
    assert!(properties["service"].get("x-mcp-header").is_none());
    assert_eq!(properties["region"]["description"], "Where to.");

    let result = common::call(
        &server,
        "deploy",
        json!({ "region": "eu", "priority": 2, "dry_run": true, "service": "api" }),
    );
    assert_eq!(
        common::text(&result["content"][0]),
        "api@eu p2 dry=true trace=None"
    );
}

//! The schema check every test runs on what the server emits is closed: the official schemas
//! leave objects open, so a field of another revision would pass them unseen.

use beam_mcp_tests::spec;
use serde_json::json;

#[test]
fn a_2026_only_field_in_a_2025_result_fails_the_closed_check_and_passes_the_open_one() {
    let tools =
        json!({ "name": "t", "inputSchema": { "type": "object", "additionalProperties": false } });
    let legacy = json!({ "tools": [tools] });
    spec()
        .check_closed("2025-11-25", "ListToolsResult", &legacy)
        .unwrap();
    for (key, value) in [("ttlMs", json!(0)), ("cacheScope", json!("private"))] {
        let mut stamped = legacy.clone();
        stamped[key] = value;
        // The official schema alone lets it through ...
        spec()
            .check("2025-11-25", "ListToolsResult", &stamped)
            .unwrap();
        // ... the closed check names it.
        let error = spec()
            .check_closed("2025-11-25", "ListToolsResult", &stamped)
            .unwrap_err();
        let named = error.rsplit("does not declare: ").next().unwrap();
        assert_eq!(named, format!("/{key}"), "{error}");
    }
    // At 2026-07-28 the same fields are the result's own.
    let modern =
        json!({ "tools": [tools], "ttlMs": 0, "cacheScope": "private", "resultType": "complete" });
    spec()
        .check_closed("2026-07-28", "ListToolsResult", &modern)
        .unwrap();
    // And the other way, deeper down: `execution` is a 2025-11-25 tool's (tasks moved to an
    // extension), named with its path in a 2026-07-28 listing; a host's schema and `_meta` are
    // open.
    let mut odd = modern.clone();
    odd["tools"][0]["execution"] = json!({ "taskSupport": "optional" });
    odd["tools"][0]["_meta"] = json!({ "anything": 1 });
    odd["tools"][0]["inputSchema"]["x-anything"] = json!(true);
    spec().check("2026-07-28", "ListToolsResult", &odd).unwrap();
    let error = spec()
        .check_closed("2026-07-28", "ListToolsResult", &odd)
        .unwrap_err();
    let named = error.rsplit("does not declare: ").next().unwrap();
    assert_eq!(named, "/tools/0/execution", "{error}");
}

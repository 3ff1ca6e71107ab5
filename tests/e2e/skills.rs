//! The Skills extension (SEP-2640) from the weather example over a real pipe at both revisions:
//! declared in `extensions`, `skills/list` and `skills/get` with the exact entry, every file
//! read with its exact bytes, whose SHA-256 (coreutils `sha256sum`, not our code) and size are
//! the manifest's, folders read with `resources/directory/read`, and the refusals. Every result
//! is checked against the SEP's types, written out below as JSON Schema, and against the
//! official schema of its revision.

use std::process::Command;

use beam_mcp_tests::{ServerProcess, check_against, modern_meta, workspace_root};
use serde_json::{Value, json};

const SKILL: &str = "skill://packing/SKILL.md";

/// The SEP's `Skill`, `skills/list`, `skills/get` and `resources/directory/read` results.
fn sep_schema(def: &str) -> Value {
    let skill = json!({
        "type": "object",
        "required": ["uri", "frontmatter", "resources"],
        "properties": {
            "uri": { "type": "string", "pattern": "/SKILL\\.md$" },
            "frontmatter": {
                "type": "object",
                "required": ["name", "description"],
                "properties": {
                    "name": { "type": "string", "pattern": "^[a-z0-9]+(-[a-z0-9]+)*$", "maxLength": 64 },
                    "description": { "type": "string", "minLength": 1, "maxLength": 1024 },
                },
            },
            "resources": {
                "anyOf": [
                    { "const": "dynamic" },
                    { "type": "array", "maxItems": 512, "items": {
                        "type": "object",
                        "required": ["uri", "digest", "size"],
                        "additionalProperties": false,
                        "properties": {
                            "uri": { "type": "string" },
                            "digest": { "type": "string", "pattern": "^sha256:[0-9a-f]{64}$" },
                            "size": { "type": "integer", "minimum": 0 },
                        },
                    } },
                ],
            },
            "_meta": { "type": "object" },
        },
        "additionalProperties": false,
    });
    let cache = json!({
        "ttlMs": { "type": "integer", "minimum": 0 },
        "cacheScope": { "enum": ["public", "private"] },
        "resultType": { "const": "complete" },
        "_meta": { "type": "object" },
    });
    let mut list = json!({
        "type": "object", "required": ["skills"], "additionalProperties": false,
        "properties": { "skills": { "type": "array", "items": skill }, "nextCursor": { "type": "string" } },
    });
    let mut get = json!({
        "type": "object", "required": ["skill"], "additionalProperties": false,
        "properties": { "skill": skill },
    });
    let mut directory = json!({
        "type": "object", "required": ["resources"], "additionalProperties": false,
        "properties": { "resources": { "type": "array", "items": {
            "type": "object", "required": ["uri", "name"],
            "properties": { "uri": { "type": "string" }, "name": { "type": "string" },
                            "mimeType": { "type": "string" }, "size": { "type": "integer" } },
        } }, "nextCursor": { "type": "string" } },
    });
    for schema in [&mut list, &mut get, &mut directory] {
        for (key, value) in cache.as_object().unwrap() {
            schema["properties"][key] = value.clone();
        }
    }
    match def {
        "list" => list,
        "get" => get,
        _ => directory,
    }
}

fn params(revision: &str, extra: Value) -> Value {
    let mut params = extra;
    if revision == "2026-07-28" {
        params["_meta"] = modern_meta();
    }
    params
}

/// The answer to `method`, checked against the official schema of `revision`.
fn ask(s: &mut ServerProcess, revision: &str, id: u32, method: &str, extra: Value) -> Value {
    let stateless = (revision == "2026-07-28").then_some(revision);
    super::stdio_weather::ask(
        s,
        stateless,
        json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params(revision, extra) }),
    )
}

/// `sha256:<hex>` of a file of the example's skill, by coreutils.
fn sha256(relative: &str) -> String {
    let path = workspace_root()
        .join("examples/weather/skills/packing")
        .join(relative);
    let out = Command::new("sha256sum")
        .arg(&path)
        .output()
        .expect("sha256sum runs");
    let text = String::from_utf8(out.stdout).unwrap();
    format!("sha256:{}", text.split_whitespace().next().unwrap())
}

fn file_text(relative: &str) -> String {
    let path = workspace_root()
        .join("examples/weather/skills/packing")
        .join(relative);
    std::fs::read_to_string(path).unwrap()
}

fn the_skill() -> Value {
    let file = |relative: &str| {
        json!({
            "uri": format!("skill://packing/{relative}"),
            "digest": sha256(relative),
            "size": file_text(relative).len(),
        })
    };
    json!({
        "uri": SKILL,
        "frontmatter": {
            "name": "packing",
            "description": "Decide what to pack for a trip from the weather at the destination. Use when someone plans a trip to a place this server has a station for.",
            "license": "Apache-2.0",
            "metadata": { "author": "beam-mcp", "version": "1.0" },
        },
        "resources": [file("SKILL.md"), file("reference/layers.md")],
    })
}

fn served_the_same_at(revision: &str, s: &mut ServerProcess) {
    let stateless = revision == "2026-07-28";
    let listed = ask(s, revision, 10, "skills/list", json!({}));
    let result = &listed["result"];
    check_against(&sep_schema("list"), result).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(result["skills"], json!([the_skill()]));
    assert!(
        result.get("nextCursor").is_none(),
        "the one page is the last"
    );
    // 2026-07-28 results carry the cache hints; 2025-11-25 ones have no such fields.
    assert_eq!(result.get("ttlMs").is_some(), stateless, "{result}");
    assert_eq!(result.get("resultType").is_some(), stateless, "{result}");

    let got = ask(s, revision, 11, "skills/get", json!({ "uri": SKILL }));
    check_against(&sep_schema("get"), &got["result"]).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(got["result"]["skill"], the_skill());

    for (id, relative) in (12..).zip(["SKILL.md", "reference/layers.md"]) {
        let uri = format!("skill://packing/{relative}");
        let read = ask(s, revision, id, "resources/read", json!({ "uri": uri }));
        assert_eq!(
            read["result"]["contents"],
            json!([{ "uri": uri, "mimeType": "text/markdown", "text": file_text(relative) }])
        );
    }

    let root = ask(
        s,
        revision,
        20,
        "resources/directory/read",
        json!({ "uri": "skill://packing" }),
    );
    check_against(&sep_schema("directory"), &root["result"]).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        root["result"]["resources"],
        json!([
            { "uri": "skill://packing/SKILL.md", "name": "SKILL.md", "mimeType": "text/markdown",
              "size": file_text("SKILL.md").len() },
            { "uri": "skill://packing/reference", "name": "reference", "mimeType": "inode/directory" },
        ])
    );
    let folder = ask(
        s,
        revision,
        21,
        "resources/directory/read",
        json!({ "uri": "skill://packing/reference" }),
    );
    assert_eq!(
        folder["result"]["resources"],
        json!([{ "uri": "skill://packing/reference/layers.md", "name": "layers.md",
                 "mimeType": "text/markdown", "size": file_text("reference/layers.md").len() }])
    );

    let refusals = [
        (
            "skills/get",
            json!({ "uri": "skill://packing/reference/layers.md" }),
        ),
        (
            "skills/get",
            json!({ "uri": "skill://no-such-skill/SKILL.md" }),
        ),
        ("skills/get", json!({})),
        ("resources/directory/read", json!({ "uri": SKILL })),
        (
            "resources/directory/read",
            json!({ "uri": "skill://elsewhere" }),
        ),
    ];
    for (id, (method, extra)) in (30..).zip(refusals) {
        let answer = ask(s, revision, id, method, extra.clone());
        assert_eq!(
            answer["error"]["code"], -32602,
            "{method} {extra}: {answer}"
        );
    }
    // A file no skill has is not found, as any resource.
    let missing = ask(
        s,
        revision,
        40,
        "resources/read",
        json!({ "uri": "skill://packing/nothing.md" }),
    );
    let not_found = if stateless { -32602 } else { -32002 };
    assert_eq!(missing["error"]["code"], not_found, "{missing}");
}

#[test]
fn a_2026_07_28_client_lists_gets_and_reads_the_skills() {
    let mut s = super::stdio_weather::weather();
    let discovered = ask(&mut s, "2026-07-28", 1, "server/discover", json!({}));
    assert_eq!(
        discovered["result"]["capabilities"]["extensions"]["io.modelcontextprotocol/skills"],
        json!({ "directoryRead": true })
    );
    served_the_same_at("2026-07-28", &mut s);
    assert!(s.finish().success());
}

#[test]
fn a_2025_11_25_client_lists_gets_and_reads_the_skills() {
    let mut s = super::stdio_weather::weather();
    let hello = ask(
        &mut s,
        "2025-11-25",
        1,
        "initialize",
        json!({ "protocolVersion": "2025-11-25", "capabilities": {},
                "clientInfo": { "name": "skills-test", "version": "1" } }),
    );
    // Declared in `extensions` at this revision too, as the SEP says (`docs/wire.md`).
    assert_eq!(
        hello["result"]["capabilities"]["extensions"]["io.modelcontextprotocol/skills"],
        json!({ "directoryRead": true })
    );
    s.send(&json!({ "jsonrpc": "2.0", "method": "notifications/initialized" }));
    served_the_same_at("2025-11-25", &mut s);
    assert!(s.finish().success());
}

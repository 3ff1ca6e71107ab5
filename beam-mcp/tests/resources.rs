//! `resources/list`, `resources/templates/list` and `resources/read` through the core, on both
//! revisions, every answer checked against the official schema.

mod common;

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use beam_mcp::resource::{NotFound, ResourceContents, ResourceError};
use beam_mcp::{CacheHint, CacheScope, Server, State};
use common::{bare, error, modern, result};
use serde_json::json;

/// How many times host code ran, per server (tests run in parallel), to prove refusals
/// happen before it.
#[derive(Clone, Default)]
struct Reads(Arc<AtomicUsize>);

/// A greeting.
#[beam_mcp::resource("test://static-text", mime_type = "text/plain", title = "Static")]
fn static_text(State(runs): State<Reads>) -> &'static str {
    runs.0.fetch_add(1, Ordering::SeqCst);
    "This is the content of the static text resource."
}

#[beam_mcp::resource("test://static-binary", name = "binary", mime_type = "image/png")]
fn static_binary() -> Vec<u8> {
    vec![0, 1, 2, 254, 255]
}

/// One item by id; ids are numbers.
#[beam_mcp::resource("test://template/{id}/data", mime_type = "application/json")]
fn by_id(State(runs): State<Reads>, id: u32) -> Result<String, NotFound> {
    runs.0.fetch_add(1, Ordering::SeqCst);
    if id == 404 {
        return Err(NotFound);
    }
    Ok(format!(r#"{{"id":{id}}}"#))
}

/// A file tree.
#[beam_mcp::resource("tree://{root}/{+path}")]
async fn tree(root: String, path: String) -> Result<Vec<ResourceContents>, ResourceError> {
    match path.as_str() {
        "denied" => Err(ResourceError::not_found("outside the tree")),
        "broken" => Err(ResourceError::internal("disk on fire at /srv/secret")),
        "empty" => Ok(Vec::new()),
        "io" => Err(std::io::Error::from(std::io::ErrorKind::NotFound).into()),
        _ => Ok(vec![
            ResourceContents::text(format!("{root}:{path}")),
            ResourceContents::blob(b"\x00".to_vec())
                .with_uri(format!("tree://{root}/{path}.bin"))
                .with_mime_type("application/octet-stream"),
        ]),
    }
}

#[beam_mcp::resource("test://panics")]
fn panics() -> String {
    panic!("reader bug holding a secret")
}

#[derive(Clone)]
struct Motd(&'static str);

#[beam_mcp::resource("test://motd")]
fn motd(State(motd): State<Motd>) -> String {
    motd.0.to_owned()
}

fn server() -> Server {
    server_counting(Reads::default())
}

fn server_counting(runs: Reads) -> Server {
    Server::builder()
        .name("resources")
        .version("1")
        .crate_items(module_path!())
        .state(Motd("hello"))
        .state(runs)
        .resources_cache(CacheHint {
            ttl_ms: 1000,
            scope: CacheScope::Public,
        })
        .build()
        .expect("a valid catalog")
}

#[test]
fn resources_are_listed_sorted_by_uri_with_absent_fields_omitted() {
    let s = server();
    let r = result(&s, modern(1, "resources/list", json!({})));
    assert_eq!(
        r["resources"],
        json!([
            { "uri": "test://motd", "name": "motd" },
            { "uri": "test://panics", "name": "panics" },
            { "uri": "test://static-binary", "name": "binary", "mimeType": "image/png" },
            {
                "uri": "test://static-text", "name": "static_text", "title": "Static",
                "description": "A greeting.", "mimeType": "text/plain"
            },
        ])
    );
    assert_eq!(
        (r["ttlMs"].clone(), r["cacheScope"].clone()),
        (json!(1000), json!("public"))
    );
    assert_eq!(r["resultType"], "complete");
    // Legacy shape: the same list, no resultType.
    let legacy = result(&s, bare(2, "resources/list", json!({})));
    assert_eq!(legacy["resources"], r["resources"]);
    assert!(legacy.get("resultType").is_none());
}

#[test]
fn templates_are_listed_apart_from_resources() {
    let r = result(&server(), modern(1, "resources/templates/list", json!({})));
    assert_eq!(
        r["resourceTemplates"],
        json!([
            {
                "uriTemplate": "test://template/{id}/data", "name": "by_id",
                "description": "One item by id; ids are numbers.", "mimeType": "application/json"
            },
            { "uriTemplate": "tree://{root}/{+path}", "name": "tree", "description": "A file tree." },
        ])
    );
    assert_eq!(r["ttlMs"], 1000);
}

#[test]
fn text_binary_and_template_reads() {
    let s = server();
    let text = result(
        &s,
        modern(1, "resources/read", json!({ "uri": "test://static-text" })),
    );
    assert_eq!(
        text["contents"],
        json!([{
            "uri": "test://static-text", "mimeType": "text/plain",
            "text": "This is the content of the static text resource."
        }])
    );
    assert_eq!(
        (text["ttlMs"].clone(), text["cacheScope"].clone()),
        (json!(1000), json!("public"))
    );
    let blob = result(
        &s,
        bare(
            2,
            "resources/read",
            json!({ "uri": "test://static-binary" }),
        ),
    );
    assert_eq!(
        blob["contents"],
        json!([{ "uri": "test://static-binary", "mimeType": "image/png", "blob": "AAEC/v8=" }])
    );
    let item = result(
        &s,
        modern(
            3,
            "resources/read",
            json!({ "uri": "test://template/123/data" }),
        ),
    );
    assert_eq!(
        item["contents"],
        json!([{ "uri": "test://template/123/data", "mimeType": "application/json", "text": "{\"id\":123}" }])
    );
    let tree = result(
        &s,
        modern(4, "resources/read", json!({ "uri": "tree://r/a/b/c.txt" })),
    );
    assert_eq!(
        tree["contents"],
        json!([
            { "uri": "tree://r/a/b/c.txt", "text": "r:a/b/c.txt" },
            { "uri": "tree://r/a/b/c.txt.bin", "mimeType": "application/octet-stream", "blob": "AA==" },
        ])
    );
    let state = result(
        &s,
        modern(5, "resources/read", json!({ "uri": "test://motd" })),
    );
    assert_eq!(state["contents"][0]["text"], "hello");
}

#[test]
fn not_found_is_32602_modern_and_32002_legacy_and_decided_before_the_reader_runs() {
    let runs = Reads::default();
    let s = server_counting(runs.clone());
    for uri in [
        "test://nonexistent-resource-for-conformance-testing",
        "test://static-text/",
        "test://template//data",
        "test://template/1/2/data",
        "TEST://static-text",
    ] {
        assert_eq!(
            error(&s, modern(1, "resources/read", json!({ "uri": uri }))),
            json!({ "code": -32602, "message": "Resource not found", "data": { "uri": uri } })
        );
        assert_eq!(
            error(&s, bare(2, "resources/read", json!({ "uri": uri })))["code"],
            -32002
        );
    }
    assert_eq!(runs.0.load(Ordering::SeqCst), 0, "no reader ran");
}

#[test]
fn a_reader_says_not_found_with_or_without_a_reason() {
    let s = server();
    let uri = "test://template/404/data";
    assert_eq!(
        error(&s, modern(1, "resources/read", json!({ "uri": uri }))),
        json!({ "code": -32602, "message": "Resource not found", "data": { "uri": uri } })
    );
    // A variable that does not parse as the parameter's type names no resource.
    let e = error(
        &s,
        modern(
            2,
            "resources/read",
            json!({ "uri": "test://template/abc/data" }),
        ),
    );
    assert_eq!(e["code"], -32602);
    assert_eq!(e["data"]["uri"], "test://template/abc/data");
    assert_eq!(
        error(
            &s,
            bare(3, "resources/read", json!({ "uri": "tree://r/denied" }))
        ),
        json!({
            "code": -32002, "message": "Resource not found",
            "data": { "uri": "tree://r/denied", "reason": "outside the tree" }
        })
    );
    assert_eq!(
        error(
            &s,
            modern(4, "resources/read", json!({ "uri": "tree://r/io" }))
        )["code"],
        -32602
    );
}

#[test]
fn host_faults_are_32603_and_say_nothing_about_the_host() {
    let s = server();
    for uri in ["tree://r/broken", "tree://r/empty", "test://panics"] {
        assert_eq!(
            error(&s, modern(1, "resources/read", json!({ "uri": uri }))),
            json!({ "code": -32603, "message": "Internal error" })
        );
    }
    // The server still serves.
    result(
        &s,
        modern(2, "resources/read", json!({ "uri": "test://static-text" })),
    );
}

#[test]
fn a_read_without_a_string_uri_is_refused() {
    let s = server();
    for params in [json!({}), json!({ "uri": 7 }), json!({ "uri": null })] {
        assert_eq!(
            error(&s, modern(1, "resources/read", params)),
            json!({ "code": -32602, "message": "Invalid params: resources/read requires a string uri" })
        );
    }
    assert_eq!(
        error(
            &s,
            json!({ "jsonrpc": "2.0", "id": 2, "method": "resources/read" })
        )["code"],
        -32602
    );
}

#[test]
fn a_server_without_resources_does_not_serve_resource_methods() {
    let s = Server::builder().build().unwrap();
    for method in [
        "resources/list",
        "resources/templates/list",
        "resources/read",
    ] {
        assert_eq!(
            error(
                &s,
                modern(1, method, json!({ "uri": "test://static-text" }))
            )["code"],
            -32601
        );
    }
    let discover = result(&s, modern(2, "server/discover", json!({})));
    assert!(discover["capabilities"].get("resources").is_none());
    let d = result(&server(), modern(3, "server/discover", json!({})));
    assert_eq!(
        d["capabilities"]["resources"],
        json!({ "listChanged": false, "subscribe": false })
    );
    assert!(d["capabilities"].get("completions").is_none());
}

//! One keyset cursor for the four lists: pages of the configured size, and a cursor from one
//! list refused by another, by name.

mod common;

use beam_mcp::Server;
use beam_mcp::protocol::Session;
use common::{bare, modern, send};
use serde_json::{Value, json};

/// A.
#[beam_mcp::tool]
fn t_a() {}
/// B.
#[beam_mcp::tool]
fn t_b() {}
/// C.
#[beam_mcp::tool]
fn t_c() {}

#[beam_mcp::resource("r://a")]
fn r_a() -> &'static str {
    "a"
}
#[beam_mcp::resource("r://b")]
fn r_b() -> &'static str {
    "b"
}
#[beam_mcp::resource("r://c")]
fn r_c() -> &'static str {
    "c"
}

#[beam_mcp::resource("t://a/{x}")]
fn tpl_a(x: String) -> String {
    x
}
#[beam_mcp::resource("t://b/{x}")]
fn tpl_b(x: String) -> String {
    x
}
#[beam_mcp::resource("t://c/{x}")]
fn tpl_c(x: String) -> String {
    x
}

/// A.
#[beam_mcp::prompt]
fn p_a() -> &'static str {
    "a"
}
/// B.
#[beam_mcp::prompt]
fn p_b() -> &'static str {
    "b"
}
/// C.
#[beam_mcp::prompt]
fn p_c() -> &'static str {
    "c"
}

const LISTS: [(&str, &str, &str, &str); 4] = [
    ("tools/list", "tools", "name", "tools"),
    ("resources/list", "resources", "uri", "resources"),
    (
        "resources/templates/list",
        "resourceTemplates",
        "uriTemplate",
        "resource_templates",
    ),
    ("prompts/list", "prompts", "name", "prompts"),
];

fn walk(server: &Server, method: &str, field: &str, key: &str) -> (Vec<String>, Vec<Value>) {
    let mut keys = Vec::new();
    let mut cursors = Vec::new();
    let mut cursor = Value::Null;
    loop {
        let r = send(
            server,
            &Session::new(),
            modern(1, method, json!({ "cursor": cursor })),
        )
        .unwrap();
        let page = r["result"][field].as_array().unwrap();
        assert!(page.len() <= 2, "{method}: page size");
        keys.extend(page.iter().map(|i| i[key].as_str().unwrap().to_owned()));
        match r["result"].get("nextCursor") {
            Some(next) => {
                cursors.push(next.clone());
                cursor = next.clone();
            }
            None => return (keys, cursors),
        }
        assert!(keys.len() < 10, "the walk ends");
    }
}

#[test]
fn every_list_pages_by_key_and_refuses_another_lists_cursor_by_name() {
    let server = Server::builder()
        .crate_items(module_path!())
        .page_size(2)
        .build()
        .unwrap();
    let mut cursors = Vec::new();
    for (method, field, key, _) in LISTS {
        let (keys, found) = walk(&server, method, field, key);
        assert_eq!(keys.len(), 3, "{method}: {keys:?}");
        let mut sorted = keys.clone();
        sorted.sort();
        assert_eq!(keys, sorted, "{method} is sorted by key");
        assert_eq!(
            found.len(),
            1,
            "{method}: one next cursor for 3 items in pages of 2"
        );
        cursors.push(found[0].clone());
    }
    for (i, (method, _, _, kind)) in LISTS.iter().enumerate() {
        for (j, cursor) in cursors.iter().enumerate() {
            if i == j {
                continue;
            }
            let r = send(
                &server,
                &Session::new(),
                bare(2, method, json!({ "cursor": cursor })),
            )
            .unwrap();
            assert_eq!(
                r["error"],
                json!({ "code": -32602, "message": format!("Invalid params: cursor belongs to another list, not {kind}") }),
                "{method} given the cursor of list {j}"
            );
        }
    }
}

#[test]
fn the_default_page_is_50() {
    let mut builder = Server::builder();
    for n in 0..120 {
        let name: &'static str = Box::leak(format!("tool_{n:03}").into_boxed_str());
        builder = builder.tool(t_a::DEF.with_name(name));
    }
    let server = builder.build().unwrap();
    let mut sizes = Vec::new();
    let mut cursor = Value::Null;
    loop {
        let r = send(
            &server,
            &Session::new(),
            modern(1, "tools/list", json!({ "cursor": cursor })),
        )
        .unwrap();
        sizes.push(r["result"]["tools"].as_array().unwrap().len());
        match r["result"].get("nextCursor") {
            Some(next) => cursor = next.clone(),
            None => break,
        }
    }
    assert_eq!(sizes, [50, 50, 20]);
}

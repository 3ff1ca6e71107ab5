//! Resources and templates with every return type, `{+rest}` templates and a non-String
//! variable.

#[path = "common/mod.rs"]
mod common;

use beam_mcp::resource::{NotFound, ResourceContents};
use serde_json::{Value, json};

/// Returns a String.
#[beam_mcp::resource("docs://owned", mime_type = "text/plain")]
fn owned() -> String {
    "owned".into()
}

/// Returns a &'static str.
#[beam_mcp::resource("docs://borrowed")]
fn borrowed() -> &'static str {
    "borrowed"
}

/// Returns bytes.
#[beam_mcp::resource("docs://bytes", mime_type = "application/octet-stream")]
fn bytes() -> Vec<u8> {
    vec![0, 1, 2, 255]
}

/// Returns one ResourceContents.
#[beam_mcp::resource("docs://one")]
fn one() -> ResourceContents {
    ResourceContents::text("one").with_mime_type("text/markdown")
}

/// Returns several contents.
#[beam_mcp::resource("docs://many")]
fn many() -> Vec<ResourceContents> {
    vec![
        ResourceContents::text("first"),
        ResourceContents::blob(vec![7]).with_uri("docs://many#2"),
    ]
}

/// A note by id: Result<_, NotFound>; `id` is a u32, so text that does not parse is not found.
#[beam_mcp::resource("notes://{id}", name = "note")]
async fn note(id: u32) -> Result<String, NotFound> {
    match id {
        1..=9 => Ok(format!("note {id}")),
        _ => Err(NotFound),
    }
}

/// A file by path: `{+rest}` crosses segments; Result<_, std::io::Error>.
#[beam_mcp::resource("files://{root}/{+rest}")]
fn file(root: String, rest: String) -> Result<Vec<u8>, std::io::Error> {
    if rest.ends_with(".missing") {
        return Err(std::io::Error::from(std::io::ErrorKind::NotFound));
    }
    Ok(format!("{root}|{rest}").into_bytes())
}

/// A report: Result<Vec<ResourceContents>, NotFound>.
#[beam_mcp::resource("reports://{year}/summary")]
fn report(year: u16) -> Result<Vec<ResourceContents>, NotFound> {
    (year >= 2000)
        .then(|| vec![ResourceContents::text(format!("summary {year}"))])
        .ok_or(NotFound)
}

fn read(server: &beam_mcp::Server, uri: &str) -> Vec<Value> {
    let result = common::result(server, "resources/read", json!({ "uri": uri }));
    result["contents"].as_array().expect("contents").clone()
}

fn main() {
    let server = common::server();
    assert_eq!(
        common::names(&server, "resources/list", "resources"),
        ["borrowed", "bytes", "many", "one", "owned"]
    );
    let templates = common::result(&server, "resources/templates/list", json!({}));
    let mut sources: Vec<&str> = templates["resourceTemplates"]
        .as_array()
        .expect("templates")
        .iter()
        .map(|t| t["uriTemplate"].as_str().expect("a uriTemplate"))
        .collect();
    sources.sort();
    assert_eq!(
        sources,
        [
            "files://{root}/{+rest}",
            "notes://{id}",
            "reports://{year}/summary"
        ]
    );

    assert_eq!(
        read(&server, "docs://owned"),
        [json!({ "uri": "docs://owned", "mimeType": "text/plain", "text": "owned" })]
    );
    assert_eq!(read(&server, "docs://borrowed")[0]["text"], "borrowed");
    assert_eq!(
        read(&server, "docs://bytes"),
        [
            json!({ "uri": "docs://bytes", "mimeType": "application/octet-stream", "blob": "AAEC/w==" })
        ]
    );
    assert_eq!(read(&server, "docs://one")[0]["mimeType"], "text/markdown");
    let many = read(&server, "docs://many");
    assert_eq!(many[0], json!({ "uri": "docs://many", "text": "first" }));
    assert_eq!(many[1], json!({ "uri": "docs://many#2", "blob": "Bw==" }));

    assert_eq!(read(&server, "notes://7")[0]["text"], "note 7");
    let not_found =
        |uri: &str| common::error_code(&server, "resources/read", json!({ "uri": uri }));
    assert_eq!(not_found("notes://12"), -32002, "NotFound from the reader");
    assert_eq!(
        not_found("notes://seven"),
        -32002,
        "a u32 that does not parse"
    );
    assert_eq!(
        not_found("notes://7/extra"),
        -32002,
        "{{id}} is one segment"
    );

    assert_eq!(
        read(&server, "files://home/a/b/c.txt")[0]["blob"],
        "aG9tZXxhL2IvYy50eHQ=",
        "root=home, rest=a/b/c.txt"
    );
    assert_eq!(not_found("files://home/a/b.missing"), -32002, "io NotFound");

    assert_eq!(
        read(&server, "reports://2024/summary")[0]["text"],
        "summary 2024"
    );
    assert_eq!(not_found("reports://1999/summary"), -32002);
    assert_eq!(not_found("reports://70000/summary"), -32002, "out of u16");
}

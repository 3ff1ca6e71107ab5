//! The canonical catalog export: every page of the four list methods, per revision, as
//! canonical bytes with their SHA-256, and the pin a host's test compares them with.

use beam_mcp::connectome::{Algorithm, canonical};
use beam_mcp::protocol::Revision;
use beam_mcp::tool::{BoxFuture, CallToolResult, ToolContext, ToolDef, ToolFault};
use beam_mcp::{Advertised, AdvertisedError, Server};
use serde_json::{Value, json};

/// Echoes.
#[beam_mcp::tool(read_only, idempotent)]
fn echo(text: String) -> String {
    text
}

/// A note.
#[beam_mcp::resource("notes://{id}", mime_type = "text/plain")]
fn note(id: String) -> String {
    id
}

/// The readme.
#[beam_mcp::resource("docs://readme")]
fn readme() -> String {
    "read me".into()
}

/// A greeting.
#[beam_mcp::prompt]
fn hello(name: String) -> String {
    format!("Hello {name}")
}

fn scaled(_: Value, _: ToolContext) -> BoxFuture<Result<CallToolResult, ToolFault>> {
    Box::pin(std::future::ready(Ok(CallToolResult::new(vec![]))))
}

/// A hand-written tool whose schema holds floats, as a host's may.
fn scale() -> ToolDef {
    ToolDef::new(
        "scale",
        "Scales.",
        || json!({ "type": "object", "properties": { "factor": { "type": "number", "minimum": 0.5, "maximum": 1e21, "default": 2.0 } } }),
        scaled,
    )
    .declared_at(module_path!(), file!(), line!())
}

fn server(page_size: usize) -> Server {
    Server::builder()
        .name("adv")
        .crate_items(module_path!())
        .tool(scale())
        .page_size(page_size)
        .build()
        .unwrap()
}

#[test]
fn every_page_of_every_list_at_each_revision_in_canonical_bytes() {
    for revision in Revision::ALL {
        let export = Advertised::of(&server(50), revision).unwrap();
        assert_eq!(export.revision(), revision);
        let value: Value = serde_json::from_slice(export.bytes()).unwrap();
        assert_eq!(value["revision"], revision.as_str());
        let names = |member: &str, key: &str| -> Vec<String> {
            value[member]
                .as_array()
                .unwrap()
                .iter()
                .map(|e| e[key].as_str().unwrap().to_owned())
                .collect()
        };
        assert_eq!(names("tools", "name"), ["echo", "scale"]);
        assert_eq!(names("resources", "uri"), ["docs://readme"]);
        assert_eq!(names("resourceTemplates", "uriTemplate"), ["notes://{id}"]);
        assert_eq!(names("prompts", "name"), ["hello"]);
        // One page at a time lists the same.
        assert_eq!(Advertised::of(&server(1), revision).unwrap(), export);
        assert_eq!(
            export.digest_hex(),
            canonical::hash_hex(export.bytes(), Algorithm::Sha256)
        );
        // Numbers as RFC 8785 writes them.
        let text = std::str::from_utf8(export.bytes()).unwrap();
        assert!(
            text.contains(r#""default":2,"maximum":1e+21,"minimum":0.5,"type":"number""#),
            "{text}"
        );
    }
    let modern = Advertised::of(&server(50), Revision::V2026_07_28).unwrap();
    let legacy = Advertised::of(&server(50), Revision::V2025_11_25).unwrap();
    assert_ne!(
        modern.digest_hex(),
        legacy.digest_hex(),
        "the revision is part of the bytes"
    );
    let only_legacy = Server::builder()
        .supported_versions([Revision::V2025_11_25])
        .build()
        .unwrap();
    assert!(matches!(
        Advertised::of(&only_legacy, Revision::V2026_07_28),
        Err(AdvertisedError::Revision(Revision::V2026_07_28))
    ));
}

#[test]
fn a_pin_fails_on_any_change_and_names_it() {
    let dir = std::env::temp_dir().join(format!("beam-mcp-pin-{}", std::process::id()));
    let path = dir.join("catalog.json");
    let export = Advertised::of(&server(50), Revision::V2026_07_28).unwrap();
    let missing = export.check_pinned(&path).unwrap_err();
    assert!(
        matches!(missing, AdvertisedError::NotPinned { .. }),
        "{missing}"
    );
    export.write_pin(&path).unwrap();
    assert_eq!(std::fs::read(&path).unwrap(), export.bytes());
    export.check_pinned(&path).unwrap();

    let fewer = Server::builder()
        .name("adv")
        .tool(echo::DEF)
        .prompt(hello::DEF)
        .build()
        .unwrap();
    let changed = Advertised::of(&fewer, Revision::V2026_07_28)
        .unwrap()
        .check_pinned(&path)
        .unwrap_err();
    let message = changed.to_string();
    assert!(message.contains(r#"removed tools "scale""#), "{message}");
    assert!(
        message.contains(r#"removed resources "docs://readme""#),
        "{message}"
    );
    assert!(message.contains(export.digest_hex()), "{message}");
    std::fs::remove_dir_all(dir).unwrap();
}

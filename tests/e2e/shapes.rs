//! Every serde shape a tool argument has, over stdio against the fixture process: `tools/list`
//! advertises a self-contained schema (every `$ref` resolves inside it, which compiling it
//! proves), a valid argument reaches host code (the tool answers with the `Debug` form of what
//! it received), and an invalid one is refused before host code, naming the path.

use std::path::PathBuf;
use std::sync::OnceLock;

use beam_mcp::schema::CompiledSchema;
use beam_mcp_tests::ServerProcess;
use serde_json::{Value, json};

fn fixture() -> ServerProcess {
    static BIN: OnceLock<PathBuf> = OnceLock::new();
    ServerProcess::spawn(
        BIN.get_or_init(|| beam_mcp_tests::workspace_binary("beam-mcp-fixture", "fixture")),
    )
}

/// A 2025-11-25 session on a fresh fixture, and its tools by name.
fn session() -> (ServerProcess, serde_json::Map<String, Value>) {
    let mut server = fixture();
    let init = server.request(&json!({ "jsonrpc": "2.0", "id": 0, "method": "initialize",
        "params": { "protocolVersion": "2025-11-25", "capabilities": {},
            "clientInfo": { "name": "t", "version": "1" } } }));
    assert_eq!(init["result"]["protocolVersion"], "2025-11-25", "{init}");
    server.send(&json!({ "jsonrpc": "2.0", "method": "notifications/initialized" }));
    let listed = server.request(&json!({ "jsonrpc": "2.0", "id": 1, "method": "tools/list" }));
    let tools = listed["result"]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| (t["name"].as_str().unwrap().to_owned(), t.clone()))
        .collect();
    (server, tools)
}

/// The one text of a call's result, and whether it is an error.
fn call(server: &mut ServerProcess, tool: &str, arguments: Value) -> (String, bool) {
    let answer = server.request(&json!({ "jsonrpc": "2.0", "id": 2, "method": "tools/call",
        "params": { "name": tool, "arguments": arguments } }));
    let result = &answer["result"];
    (
        result["content"][0]["text"].as_str().unwrap().to_owned(),
        result["isError"] == true,
    )
}

/// `(tool, [(valid arguments, what host code received)], (invalid arguments, the reason))`.
type Case = (
    &'static str,
    Vec<(Value, &'static str)>,
    (Value, &'static str),
);

fn cases() -> Vec<Case> {
    vec![
        (
            "shape_tagged",
            vec![(
                json!({"shape": {"kind": "circle", "r": 1.5}}),
                "Circle { r: 1.5 }",
            )],
            (
                json!({"shape": {"kind": "circle", "r": "x"}}),
                "shape matches none of the oneOf alternatives; the closest fails with: shape.r must be of type number",
            ),
        ),
        (
            "shape_external",
            vec![
                (json!({"op": {"Add": [1, 2]}}), "Add(1, 2)"),
                (json!({"op": "Reset"}), "Reset"),
                (json!({"op": {"Set": {"value": -4}}}), "Set { value: -4 }"),
            ],
            (
                json!({"op": {"Add": [1]}}),
                "the closest fails with: op.Add must have at least 2 items",
            ),
        ),
        (
            "shape_adjacent",
            vec![(json!({"event": {"t": "Pair", "c": [1, 2]}}), "Pair(1, 2)")],
            (
                json!({"event": {"t": "Pair", "c": [1, 300]}}),
                "the closest fails with: event.c[1] must be <= 255",
            ),
        ),
        (
            "shape_untagged",
            vec![
                (json!({"id": 7}), "Number(7)"),
                (json!({"id": "ann"}), "Name(\"ann\")"),
            ],
            (
                json!({"id": -1}),
                "id matches none of the anyOf alternatives",
            ),
        ),
        (
            "shape_tree",
            vec![(
                json!({"tree": {"name": "a", "children": [{"name": "b", "children": []}]}}),
                "Tree { name: \"a\", children: [Tree { name: \"b\", children: [] }] }",
            )],
            (
                json!({"tree": {"name": "a", "children": [{"name": 1, "children": []}]}}),
                "tree.children[0].name must be of type string",
            ),
        ),
        (
            "shape_list",
            vec![(
                json!({"list": {"value": 1, "next": {"value": 2, "next": null}}}),
                "Node { value: 1, next: Some(Node { value: 2, next: None }) }",
            )],
            (
                json!({"list": {"value": 1, "next": {"value": "2"}}}),
                "list.next.value must be of type integer",
            ),
        ),
        (
            "shape_tuple",
            vec![(
                json!({"pair": [3, "x"], "point": [1, -2]}),
                "(3, \"x\") Point(1, -2)",
            )],
            (
                json!({"pair": [3, "x", 4], "point": [1, 2]}),
                "pair must have at most 2 items",
            ),
        ),
        (
            "shape_map",
            vec![
                (json!({"scores": {"a": 1}, "boxed": 5}), "{\"a\": 1} 5"),
                // A whole number written with a fraction is the integer.
                (json!({"scores": {}, "boxed": 5.0}), "{} 5"),
            ],
            (
                json!({"scores": {"a": -1}, "boxed": 5}),
                "scores.a must be >= 0",
            ),
        ),
        (
            "shape_optional",
            vec![
                (json!({"note": null}), "None"),
                (json!({}), "None"),
                (json!({"note": "x"}), "Some(\"x\")"),
            ],
            (json!({"note": 5}), "note must be of type string or null"),
        ),
        (
            "shape_struct",
            vec![(
                json!({"settings": {"maxItems": 3}, "job": {"name": "j", "type": "every", "minutes": 5}}),
                "Settings { max_items: 3, verbose: false } Job { name: \"j\", schedule: Every { minutes: 5 } }",
            )],
            (
                json!({"settings": {"maxItems": 3, "max_items": 3}, "job": {"name": "j", "type": "once", "at": "9"}}),
                "settings: unknown property: max_items",
            ),
        ),
        (
            "shape_unit",
            vec![(
                json!({"unit": "celsius", "bounded": {"n": 3, "s": "ab", "code": "xy"}}),
                "Celsius Bounded { n: 3, s: \"ab\", code: \"xy\" }",
            )],
            (
                json!({"unit": "celsius", "bounded": {"n": 3, "s": "ab", "code": "XY"}}),
                "bounded.code does not match the required pattern",
            ),
        ),
        (
            "shape_extend",
            vec![(json!({"step": {"minutes": 10}}), "Step { minutes: 10 }")],
            (
                json!({"step": {"minutes": 7}}),
                "step.minutes must be a multiple of 5",
            ),
        ),
        (
            "shape_command",
            vec![
                (
                    json!({"command": "start", "delay": 3}),
                    "Start { delay: 3 }",
                ),
                (json!({"command": "stop"}), "Stop"),
            ],
            (
                json!({"command": "jump"}),
                "arguments matches none of the oneOf alternatives",
            ),
        ),
    ]
}

#[test]
fn every_serde_shape_is_advertised_self_contained_reaches_host_code_and_is_refused_by_path() {
    let (mut server, tools) = session();
    for (tool, valid, (invalid, reason)) in cases() {
        let schema = &tools[tool]["inputSchema"];
        assert_eq!(schema["type"], "object", "{tool}: {schema}");
        if let Err(e) = CompiledSchema::compile(schema) {
            panic!("{tool}: the advertised schema is not self-contained: {e}");
        }
        for (arguments, received) in valid {
            let (text, error) = call(&mut server, tool, arguments.clone());
            assert!(!error, "{tool} {arguments}: {text}");
            assert_eq!(text, received, "{tool} {arguments}");
        }
        let (text, error) = call(&mut server, tool, invalid.clone());
        assert!(error, "{tool} {invalid}: {text}");
        assert!(
            text.starts_with(&format!("{tool}: invalid arguments: ")) && text.contains(reason),
            "{tool} {invalid}: {text}"
        );
    }
    // What schemars' `extend` adds is advertised: the assertion and the annotation.
    let minutes =
        &tools["shape_extend"]["inputSchema"]["properties"]["step"]["properties"]["minutes"];
    assert_eq!(minutes["multipleOf"], 5, "{minutes}");
    assert_eq!(minutes["x-unit"], "minutes", "{minutes}");
    // Recursive types keep `$defs` (nothing else can express them); the rest is inlined.
    for (tool, defs) in [
        ("shape_tree", Some("Tree")),
        ("shape_list", Some("Node")),
        ("shape_tagged", None),
    ] {
        let schema = &tools[tool]["inputSchema"];
        assert_eq!(
            schema
                .get("$defs")
                .map(|d| d.as_object().unwrap().keys().cloned().collect::<Vec<_>>()),
            defs.map(|d| vec![d.to_owned()]),
            "{tool}: {schema}"
        );
    }
    assert!(server.finish().success());
}

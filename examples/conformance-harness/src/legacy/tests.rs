//! The 2025-11-25 fixtures driven over a stdio pipe as the suite's client drives them over an
//! HTTP session: the same requests, the suite's canned answers to the server's requests, and
//! the suite's checks on what the server sends (plus the exact texts these fixtures return).

use serde_json::{Value, json};
use tokio::io::{
    AsyncBufReadExt, AsyncWriteExt, BufReader, DuplexStream, Lines, ReadHalf, WriteHalf,
};

/// How long any one message may take to arrive.
const PATIENCE: std::time::Duration = std::time::Duration::from_secs(10);

/// A 2025-11-25 client on a pipe to the harness.
struct Client {
    writer: WriteHalf<DuplexStream>,
    lines: Lines<BufReader<ReadHalf<DuplexStream>>>,
    next_id: i64,
}

/// A call's outcome: what the server sent before the response (its requests and
/// notifications, in order), and the response.
struct Outcome {
    before: Vec<Value>,
    response: Value,
}

impl Outcome {
    fn text(&self) -> &str {
        assert_ne!(
            self.response["result"]["isError"], true,
            "{}",
            self.response
        );
        self.response["result"]["content"][0]["text"]
            .as_str()
            .unwrap_or_else(|| panic!("no text in {}", self.response))
    }

    /// The one request the server sent the client.
    fn asked(&self) -> &Value {
        let asked: Vec<&Value> = self
            .before
            .iter()
            .filter(|m| m.get("id").is_some())
            .collect();
        assert_eq!(asked.len(), 1, "{:?}", self.before);
        asked[0]
    }

    fn notifications(&self, method: &str) -> Vec<&Value> {
        self.before
            .iter()
            .filter(|m| m.get("id").is_none() && m["method"] == method)
            .collect()
    }
}

impl Client {
    /// Starts the harness on a pipe and initializes a session with these client capabilities.
    async fn start(capabilities: Value) -> Client {
        let (builder, catalog) = beam_mcp::Server::builder()
            .name("beam-mcp-conformance-harness")
            .version("0")
            .crate_items(module_path!())
            .live();
        let server = builder.state(catalog).build().expect("the harness builds");
        let (ours, theirs) = tokio::io::duplex(1 << 20);
        let (input, output) = tokio::io::split(theirs);
        tokio::spawn(beam_mcp::transport::stdio::serve(server, input, output));
        let (reader, writer) = tokio::io::split(ours);
        let mut client = Client {
            writer,
            lines: BufReader::new(reader).lines(),
            next_id: 1,
        };
        let init = client
            .request(
                "initialize",
                json!({
                    "protocolVersion": "2025-11-25",
                    "capabilities": capabilities,
                    "clientInfo": { "name": "conformance-test-client", "version": "1.0.0" },
                }),
                |_| unreachable!(),
            )
            .await;
        assert_eq!(
            init.response["result"]["protocolVersion"], "2025-11-25",
            "{}",
            init.response
        );
        client
            .send(json!({ "jsonrpc": "2.0", "method": "notifications/initialized" }))
            .await;
        client
    }

    async fn send(&mut self, message: Value) {
        let mut line = message.to_string().into_bytes();
        line.push(b'\n');
        self.writer
            .write_all(&line)
            .await
            .expect("the pipe is open");
    }

    async fn recv(&mut self) -> Value {
        let line = tokio::time::timeout(PATIENCE, self.lines.next_line())
            .await
            .expect("the server answers in time")
            .expect("the pipe is open")
            .expect("the server did not end the stream");
        serde_json::from_str(&line).expect("one JSON message a line")
    }

    /// Sends a request; answers each request of the server with `answer` until the response.
    async fn request(
        &mut self,
        method: &str,
        params: Value,
        mut answer: impl FnMut(&Value) -> Value,
    ) -> Outcome {
        let id = self.next_id;
        self.next_id += 1;
        self.send(json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params }))
            .await;
        let mut before = Vec::new();
        loop {
            let message = self.recv().await;
            if message.get("method").is_none() && message["id"] == id {
                return Outcome {
                    before,
                    response: message,
                };
            }
            if message.get("method").is_some() && message.get("id").is_some() {
                let result = answer(&message);
                self.send(json!({ "jsonrpc": "2.0", "id": message["id"], "result": result }))
                    .await;
            }
            before.push(message);
        }
    }

    async fn call(
        &mut self,
        tool: &str,
        arguments: Value,
        answer: impl FnMut(&Value) -> Value,
    ) -> Outcome {
        self.request(
            "tools/call",
            json!({ "name": tool, "arguments": arguments }),
            answer,
        )
        .await
    }
}

fn both() -> Value {
    json!({ "sampling": {}, "elicitation": {} })
}

fn never(asked: &Value) -> Value {
    panic!("the server asked {asked}")
}

#[tokio::test]
async fn tools_call_with_logging_logs_three_infos_about_50_ms_apart() {
    let mut client = Client::start(both()).await;
    let set = client
        .request("logging/setLevel", json!({ "level": "debug" }), never)
        .await;
    assert_eq!(set.response["result"], json!({}));
    let begun = std::time::Instant::now();
    let call = client
        .call("test_tool_with_logging", json!({}), never)
        .await;
    assert!(begun.elapsed() >= std::time::Duration::from_millis(100));
    let logs: Vec<&Value> = call
        .notifications("notifications/message")
        .into_iter()
        .map(|n| &n["params"])
        .collect();
    assert_eq!(
        logs,
        [
            &json!({ "level": "info", "data": "Tool execution started" }),
            &json!({ "level": "info", "data": "Tool processing data" }),
            &json!({ "level": "info", "data": "Tool execution completed" }),
        ]
    );
    assert_eq!(call.text(), "Tool with logging executed successfully.");
}

#[tokio::test]
async fn tools_call_sampling_sends_the_prompt_and_returns_the_llm_text() {
    let mut client = Client::start(both()).await;
    let call = client
        .call(
            "test_sampling",
            json!({ "prompt": "Test prompt for sampling" }),
            |_| {
                json!({
                    "role": "assistant",
                    "content": { "type": "text", "text": "This is a test response from the client" },
                    "model": "test-model",
                    "stopReason": "endTurn",
                })
            },
        )
        .await;
    let asked = call.asked();
    assert_eq!(asked["method"], "sampling/createMessage");
    assert_eq!(
        asked["params"],
        json!({
            "messages": [{ "role": "user", "content": { "type": "text", "text": "Test prompt for sampling" } }],
            "maxTokens": 100,
        })
    );
    assert_eq!(
        call.text(),
        "LLM response: This is a test response from the client"
    );
}

#[tokio::test]
async fn tools_call_elicitation_asks_for_username_and_email_and_returns_the_answer() {
    let mut client = Client::start(both()).await;
    let call = client
        .call(
            "test_elicitation",
            json!({ "message": "Please provide your information" }),
            |_| json!({ "action": "accept", "content": { "username": "testuser", "email": "test@example.com" } }),
        )
        .await;
    let asked = call.asked();
    assert_eq!(asked["method"], "elicitation/create");
    assert_eq!(
        asked["params"]["message"],
        "Please provide your information"
    );
    let schema = &asked["params"]["requestedSchema"];
    assert_eq!(schema["type"], "object");
    assert_eq!(
        schema["properties"],
        json!({
            "username": { "type": "string", "description": "User's response" },
            "email": { "type": "string", "description": "User's email address" },
        })
    );
    assert_eq!(schema["required"], json!(["username", "email"]));
    assert_eq!(
        call.text(),
        r#"User response: action=accept, content={"username":"testuser","email":"test@example.com"}"#
    );

    let declined = client
        .call(
            "test_elicitation",
            json!({ "message": "Again?" }),
            |_| json!({ "action": "decline" }),
        )
        .await;
    assert_eq!(declined.text(), "User response: action=decline, content={}");
}

#[tokio::test]
async fn elicitation_sep1034_defaults_every_primitive_has_its_default() {
    let mut client = Client::start(both()).await;
    let call = client
        .call("test_elicitation_sep1034_defaults", json!({}), |_| {
            json!({ "action": "accept", "content": {
                "name": "Jane Smith", "age": 25, "score": 88, "status": "inactive", "verified": false } })
        })
        .await;
    let properties = &call.asked()["params"]["requestedSchema"]["properties"];
    // The suite's checks, field by field.
    for (field, ty, default) in [
        ("name", "string", json!("John Doe")),
        ("age", "integer", json!(30)),
        ("score", "number", json!(95.5)),
        ("status", "string", json!("active")),
        ("verified", "boolean", json!(true)),
    ] {
        assert_eq!(properties[field]["type"], ty, "{field}: {properties}");
        assert_eq!(
            properties[field]["default"], default,
            "{field}: {properties}"
        );
    }
    assert_eq!(
        properties["status"]["enum"],
        json!(["active", "inactive", "pending"])
    );
    assert_eq!(
        call.text(),
        r#"Elicitation completed: action=accept, content={"name":"Jane Smith","age":25,"score":88.0,"status":"inactive","verified":false}"#
    );

    // A field left out takes its default.
    let empty = client
        .call(
            "test_elicitation_sep1034_defaults",
            json!({}),
            |_| json!({ "action": "accept", "content": {} }),
        )
        .await;
    assert_eq!(
        empty.text(),
        r#"Elicitation completed: action=accept, content={"name":"John Doe","age":30,"score":95.5,"status":"active","verified":true}"#
    );
}

#[tokio::test]
async fn elicitation_sep1330_enums_every_select_has_the_suites_shape() {
    let mut client = Client::start(both()).await;
    let call = client
        .call("test_elicitation_sep1330_enums", json!({}), |_| {
            json!({ "action": "accept", "content": {
                "untitledSingle": "option1", "titledSingle": "value1", "legacyEnum": "opt1",
                "untitledMulti": ["option1", "option2"], "titledMulti": ["value1", "value2"] } })
        })
        .await;
    let properties = &call.asked()["params"]["requestedSchema"]["properties"];
    assert_eq!(
        properties["untitledSingle"],
        json!({ "type": "string", "description": "Select one option", "enum": ["option1", "option2", "option3"] })
    );
    assert_eq!(
        properties["titledSingle"],
        json!({ "type": "string", "description": "Select one option with titles", "oneOf": [
            { "type": "string", "const": "value1", "title": "First Option" },
            { "type": "string", "const": "value2", "title": "Second Option" },
            { "type": "string", "const": "value3", "title": "Third Option" },
        ] })
    );
    assert_eq!(
        properties["legacyEnum"],
        json!({ "type": "string", "description": "Select one option (legacy)",
            "enum": ["opt1", "opt2", "opt3"], "enumNames": ["Option One", "Option Two", "Option Three"] })
    );
    assert_eq!(
        properties["untitledMulti"],
        json!({ "type": "array", "description": "Select multiple options", "minItems": 1, "maxItems": 3,
            "items": { "type": "string", "enum": ["option1", "option2", "option3"] } })
    );
    assert_eq!(
        properties["titledMulti"],
        json!({ "type": "array", "description": "Select multiple options with titles", "minItems": 1, "maxItems": 3,
            "items": { "anyOf": [
                { "type": "string", "const": "value1", "title": "First Choice" },
                { "type": "string", "const": "value2", "title": "Second Choice" },
                { "type": "string", "const": "value3", "title": "Third Choice" },
            ] } })
    );
    assert_eq!(
        call.text(),
        r#"Elicitation completed: action=accept, content={"untitledSingle":"option1","titledSingle":"value1","legacyEnum":"opt1","untitledMulti":["option1","option2"],"titledMulti":["value1","value2"]}"#
    );
}

#[tokio::test]
async fn a_client_without_the_capability_gets_a_tool_error() {
    let mut client = Client::start(json!({})).await;
    for (tool, arguments) in [
        ("test_sampling", json!({ "prompt": "p" })),
        ("test_elicitation", json!({ "message": "m" })),
        ("test_elicitation_sep1034_defaults", json!({})),
        ("test_elicitation_sep1330_enums", json!({})),
    ] {
        let call = client.call(tool, arguments, never).await;
        assert_eq!(
            call.response["result"]["isError"], true,
            "{}",
            call.response
        );
    }
}

#[tokio::test]
async fn resources_subscribe_hears_the_watched_resource_change_until_unsubscribe() {
    let mut client = Client::start(both()).await;
    let uri = "test://watched-resource";
    let read = client
        .request("resources/read", json!({ "uri": uri }), never)
        .await;
    let contents = &read.response["result"]["contents"][0];
    assert_eq!(contents["mimeType"], "text/plain");
    assert!(contents["text"].as_str().is_some(), "{}", read.response);

    let subscribed = client
        .request("resources/subscribe", json!({ "uri": uri }), never)
        .await;
    assert_eq!(subscribed.response["result"], json!({}));
    let updated = json!({ "jsonrpc": "2.0", "method": "notifications/resources/updated", "params": { "uri": uri } });
    let call = client
        .call("test_update_watched_resource", json!({}), never)
        .await;
    let mut heard = call.before.contains(&updated);
    // The update may come after the call's response; a ping answered after it is the bound.
    let ping = client.request("ping", json!({}), never).await;
    heard |= ping.before.contains(&updated);
    assert!(heard, "no update after subscribing");

    let unsubscribed = client
        .request("resources/unsubscribe", json!({ "uri": uri }), never)
        .await;
    assert_eq!(unsubscribed.response["result"], json!({}));
    let call = client
        .call("test_update_watched_resource", json!({}), never)
        .await;
    let ping = client.request("ping", json!({}), never).await;
    assert!(!call.before.contains(&updated) && !ping.before.contains(&updated));
}

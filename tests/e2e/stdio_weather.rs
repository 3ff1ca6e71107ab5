//! The weather example over a real pipe, on both revisions, and under hostile input.

use std::path::PathBuf;
use std::sync::OnceLock;
use std::sync::mpsc;
use std::time::Duration;

use beam_mcp_tests::{ServerProcess, modern_meta, spec, workspace_binary};
use serde_json::{Value, json};

pub(crate) fn weather() -> ServerProcess {
    static BIN: OnceLock<PathBuf> = OnceLock::new();
    ServerProcess::spawn(BIN.get_or_init(|| workspace_binary("weather", "weather")))
}

/// Sends a request and checks the answer against the schema of `revision`.
pub(crate) fn ask(server: &mut ServerProcess, revision: Option<&str>, request: Value) -> Value {
    let method = request["method"].as_str().unwrap_or_default().to_owned();
    server.send(&request);
    // A 2025-11-25 session is sent logs at every level until it sets one: skip them.
    let response = loop {
        let message = server.recv().expect("an answer");
        if message.get("method").is_none() {
            break message;
        }
        let rev = revision.unwrap_or("2025-11-25");
        spec()
            .check(rev, "JSONRPCNotification", &message)
            .unwrap_or_else(|e| panic!("{e}"));
    };
    spec()
        .check_response(revision, &method, &response)
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        response.get("id"),
        request.get("id"),
        "the answer echoes the id"
    );
    response
}

#[test]
fn a_2026_07_28_client_discovers_lists_and_calls() {
    let mut s = weather();
    let rev = Some("2026-07-28");
    let d = ask(
        &mut s,
        rev,
        json!({ "jsonrpc": "2.0", "id": 1, "method": "server/discover", "params": { "_meta": modern_meta() } }),
    );
    assert_eq!(
        d["result"]["supportedVersions"],
        json!(["2026-07-28", "2025-11-25"])
    );
    assert_eq!(
        d["result"]["_meta"]["io.modelcontextprotocol/serverInfo"]["name"],
        "weather"
    );
    let l = ask(
        &mut s,
        rev,
        json!({ "jsonrpc": "2.0", "id": "two", "method": "tools/list", "params": { "_meta": modern_meta() } }),
    );
    let names: Vec<&str> = l["result"]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "book_trip",
            "convert",
            "forecast",
            "get_weather",
            "reading",
            "reading_fahrenheit",
            "region_mean"
        ]
    );
    let c = ask(
        &mut s,
        rev,
        json!({ "jsonrpc": "2.0", "id": 3, "method": "tools/call",
        "params": { "name": "reading", "arguments": { "place": "Lisbon" }, "_meta": modern_meta() } }),
    );
    assert_eq!(
        c["result"]["structuredContent"],
        json!({ "celsius": 21.0, "sky": "sunny" })
    );
    assert_eq!(c["result"]["resultType"], "complete");
    let bad = ask(
        &mut s,
        rev,
        json!({ "jsonrpc": "2.0", "id": 4, "method": "tools/call",
        "params": { "name": "get_weather", "arguments": { "place": 42 }, "_meta": modern_meta() } }),
    );
    assert_eq!(bad["result"]["isError"], true);
    assert_eq!(
        bad["result"]["content"][0]["text"],
        "get_weather: invalid arguments: place must be of type string"
    );
    // A tagged enum and a recursive tree: exact answers, and refusals naming the path before
    // host code runs.
    let calls = [
        (
            "convert",
            json!({ "temperature": { "unit": "fahrenheit", "degrees": 212 } }),
            false,
            "100 °C = 212 °F = 373.15 K",
        ),
        (
            "convert",
            json!({ "temperature": { "unit": "kelvin", "degrees": -1 } }),
            true,
            "convert: invalid arguments: temperature matches none of the oneOf alternatives; the closest fails with: temperature.degrees must be >= 0",
        ),
        (
            "region_mean",
            json!({ "region": { "name": "Europe", "stations": ["Paris"], "regions": [
                { "name": "North", "stations": ["Oslo"] },
                { "name": "South", "regions": [{ "name": "Iberia", "stations": ["Lisbon"] }] }
            ] } }),
            false,
            "Europe: 10.83 °C over 3 stations (Lisbon, Oslo, Paris) in 4 regions",
        ),
        (
            "region_mean",
            json!({ "region": { "name": "Europe", "regions": [{ "name": "North", "regions": [{ "stations": ["Oslo"] }] }] } }),
            true,
            "region_mean: invalid arguments: region.regions[0].regions[0]: missing required property: name",
        ),
    ];
    for (id, (name, arguments, is_error, text)) in calls.into_iter().enumerate() {
        let answer = ask(
            &mut s,
            rev,
            json!({ "jsonrpc": "2.0", "id": 10 + id, "method": "tools/call",
            "params": { "name": name, "arguments": arguments, "_meta": modern_meta() } }),
        );
        let failed = answer["result"]["isError"].as_bool().unwrap_or(false);
        assert_eq!(failed, is_error, "{answer}");
        assert_eq!(answer["result"]["content"][0]["text"], text);
    }
    assert!(s.finish().success());
}

#[test]
fn a_2025_11_25_client_initializes_lists_and_calls() {
    let mut s = weather();
    let i = ask(
        &mut s,
        None,
        json!({ "jsonrpc": "2.0", "id": 0, "method": "initialize",
        "params": { "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": { "name": "t", "version": "1" } } }),
    );
    assert_eq!(i["result"]["protocolVersion"], "2025-11-25");
    assert_eq!(i["result"]["serverInfo"]["name"], "weather");
    s.send(&json!({ "jsonrpc": "2.0", "method": "notifications/initialized" }));
    let l = ask(
        &mut s,
        None,
        json!({ "jsonrpc": "2.0", "id": 1, "method": "tools/list" }),
    );
    assert_eq!(l["result"]["tools"].as_array().unwrap().len(), 7);
    let c = ask(
        &mut s,
        None,
        json!({ "jsonrpc": "2.0", "id": 2, "method": "tools/call",
        "params": { "name": "get_weather", "arguments": { "place": "Oslo" } } }),
    );
    assert_eq!(
        c["result"]["content"],
        json!([{ "type": "text", "text": "Oslo: -3 °C, snow" }])
    );
    let f = ask(
        &mut s,
        None,
        json!({ "jsonrpc": "2.0", "id": 3, "method": "tools/call",
        "params": { "name": "forecast", "arguments": { "place": "Oslo", "days": 2 } } }),
    );
    assert_eq!(f["result"]["content"].as_array().unwrap().len(), 2);
    let missing = ask(
        &mut s,
        None,
        json!({ "jsonrpc": "2.0", "id": 4, "method": "tools/call",
        "params": { "name": "get_weather", "arguments": { "place": "Atlantis" } } }),
    );
    assert_eq!(
        missing["result"],
        json!({ "content": [{ "type": "text", "text": "no station for Atlantis" }], "isError": true })
    );
    assert!(s.finish().success());
}

/// What `book_trip` asks, on either revision.
fn booking_form() -> Value {
    json!({
        "message": "Book a trip to Oslo? It is -3 °C there, snow.",
        "requestedSchema": {
            "type": "object",
            "properties": {
                "travellers": { "type": "integer", "minimum": 1, "maximum": 9,
                    "description": "How many people travel, 1 to 9." },
                "seat": { "type": "string", "enum": ["window", "aisle"], "description": "Where to sit." }
            },
            "required": ["travellers", "seat"]
        }
    })
}

#[test]
fn book_trip_asks_the_user_on_both_revisions() {
    // 2026-07-28: the ask is an `input_required` result; the retry carries the answer.
    let mut s = weather();
    let rev = Some("2026-07-28");
    let mut meta = modern_meta();
    meta["io.modelcontextprotocol/clientCapabilities"] = json!({ "elicitation": {} });
    let call = |id: i64, extra: Value| {
        let mut params =
            json!({ "name": "book_trip", "arguments": { "place": "Oslo" }, "_meta": meta });
        params
            .as_object_mut()
            .unwrap()
            .extend(extra.as_object().unwrap().clone());
        json!({ "jsonrpc": "2.0", "id": id, "method": "tools/call", "params": params })
    };
    let first = ask(&mut s, rev, call(1, json!({})));
    assert_eq!(first["result"]["resultType"], "input_required");
    assert_eq!(
        first["result"]["inputRequests"],
        json!({ "elicit-1": { "method": "elicitation/create", "params": booking_form() } })
    );
    let answer = json!({ "action": "accept", "content": { "travellers": 1, "seat": "aisle" } });
    let state = first["result"]["requestState"].clone();
    let done = ask(
        &mut s,
        rev,
        call(
            2,
            json!({ "inputResponses": { "elicit-1": answer }, "requestState": state }),
        ),
    );
    assert_eq!(done["result"]["resultType"], "complete");
    assert_eq!(
        done["result"]["content"],
        json!([{ "type": "text", "text": "Booked a trip to Oslo for 1, aisle seat." }])
    );
    assert!(s.finish().success());

    // 2025-11-25: the ask is an `elicitation/create` request on the session, answered by id.
    let mut s = weather();
    let init = json!({ "jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": { "elicitation": {} },
        "clientInfo": { "name": "t", "version": "1" } } });
    ask(&mut s, None, init);
    s.send(&json!({ "jsonrpc": "2.0", "method": "notifications/initialized" }));
    s.send(&json!({ "jsonrpc": "2.0", "id": 1, "method": "tools/call",
        "params": { "name": "book_trip", "arguments": { "place": "Oslo" } } }));
    let request = loop {
        let message = s.recv().expect("the elicitation request");
        if message.get("id").is_some() {
            break message;
        }
    };
    spec()
        .check("2025-11-25", "ElicitRequest", &request)
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(request["method"], "elicitation/create");
    assert_eq!(request["params"], booking_form());
    s.send(&json!({ "jsonrpc": "2.0", "id": request["id"], "result": { "action": "decline" } }));
    let done = loop {
        let message = s.recv().expect("the call's result");
        if message.get("id") == Some(&json!(1)) {
            break message;
        }
    };
    spec()
        .check_response(None, "tools/call", &done)
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        done["result"],
        json!({ "content": [{ "type": "text", "text": "Not booked: you declined the trip to Oslo." }], "isError": false })
    );
    assert!(s.finish().success());
}

/// The request that proves the server still serves after a refusal.
fn ping_ok(s: &mut ServerProcess, id: i64) {
    let r = s.request(&json!({ "jsonrpc": "2.0", "id": id, "method": "ping" }));
    assert_eq!(r, json!({ "jsonrpc": "2.0", "id": id, "result": {} }));
}

fn error(code: i64, message: &str) -> Value {
    json!({ "jsonrpc": "2.0", "error": { "code": code, "message": message } })
}

#[test]
fn bad_input_is_answered_with_a_clear_error_and_the_server_keeps_serving() {
    let mut s = weather();
    let two_mib = {
        let mut line = br#"{"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":""#.to_vec();
        line.extend(std::iter::repeat_n(b'x', 2 * 1024 * 1024));
        line.extend_from_slice(b"\"}}\n");
        line
    };
    let deep = format!(
        "{{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"params\":{{\"a\":{}{}}}}}\n",
        "[".repeat(64),
        "]".repeat(64)
    );
    let many_then_repeat = {
        let members: Vec<String> = (0..20).map(|i| format!("\"k{i}\":{i}")).collect();
        format!(
            "{{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{{\"name\":\"get_weather\",\"arguments\":{{{},\"k3\":0}}}}}}\n",
            members.join(",")
        )
    };
    let cases: Vec<(Vec<u8>, Value)> = vec![
        (
            b"{not json\n".to_vec(),
            error(-32700, "Parse error: body is not valid JSON"),
        ),
        (
            b"[1,2]\n".to_vec(),
            error(
                -32600,
                "Batch requests are not supported at any supported protocol version",
            ),
        ),
        (
            b"\"a string\"\n".to_vec(),
            error(-32600, "Expected a JSON object, got a string"),
        ),
        (
            deep.into_bytes(),
            error(-32600, "Request body nests deeper than 64 levels"),
        ),
        (
            b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"method\":\"ping\"}\n".to_vec(),
            json!({ "jsonrpc": "2.0", "error": { "code": -32600,
                "message": "Request body repeats a key", "data": { "key": "method" } } }),
        ),
        // A call's arguments, kept as their members when few: a key repeated there (escaped,
        // or past the members kept without a map) is refused as anywhere else.
        (
            b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"get_weather\",\"arguments\":{\"place\":\"Oslo\",\"pl\\u0061ce\":\"Rome\"}}}\n".to_vec(),
            json!({ "jsonrpc": "2.0", "error": { "code": -32600,
                "message": "Request body repeats a key", "data": { "key": "place" } } }),
        ),
        (
            many_then_repeat.into_bytes(),
            json!({ "jsonrpc": "2.0", "error": { "code": -32600,
                "message": "Request body repeats a key", "data": { "key": "k3" } } }),
        ),
        (two_mib, error(-32600, "Request line exceeds 1048576 bytes")),
        (
            b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"\xff\xfe\"}\n".to_vec(),
            error(-32700, "Parse error: body is not valid JSON"),
        ),
        (
            b"{\"jsonrpc\":\"2.0\",\"id\":8,\"method\":\"no/such\"}\n".to_vec(),
            json!({ "jsonrpc": "2.0", "id": 8, "error": { "code": -32601, "message": "Method not found", "data": { "method": "no/such" } } }),
        ),
        (
            b"{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"tools/list\",\"_meta\":{}}\n".to_vec(),
            json!({ "jsonrpc": "2.0", "id": 9, "error": { "code": -32602,
            "message": "Invalid params: _meta belongs in params._meta (2026-07-28 RequestParams), not at the top level of the request" } }),
        ),
        (
            b"Content-Length: nope\r\n\r\n".to_vec(),
            error(-32700, "Parse error: invalid_content_length"),
        ),
    ];
    for (i, (bytes, expected)) in cases.into_iter().enumerate() {
        s.send_raw(&bytes);
        let got = s.recv().expect("an answer");
        assert_eq!(got, expected, "case {i}");
        spec()
            .check("2026-07-28", "JSONRPCErrorResponse", &got)
            .unwrap();
        spec()
            .check("2025-11-25", "JSONRPCErrorResponse", &got)
            .unwrap();
        ping_ok(&mut s, 100 + i as i64);
    }
    // A notification with bad parts is dropped silently; the next request is still served.
    s.send_raw(b"{\"jsonrpc\":\"2.0\",\"method\":\"notifications/unknown\"}\n\n\r\n");
    ping_ok(&mut s, 200);
    // Content-Length framing is accepted on read.
    let body = br#"{"jsonrpc":"2.0","id":300,"method":"ping"}"#;
    s.send_raw(format!("Content-Length: {}\r\n\r\n", body.len()).as_bytes());
    s.send_raw(body);
    assert_eq!(
        s.recv().unwrap(),
        json!({ "jsonrpc": "2.0", "id": 300, "result": {} })
    );
    assert!(s.finish().success(), "EOF ends the server cleanly");
}

#[test]
fn pipelined_requests_are_all_answered_and_shutdown_stops_after_its_answer() {
    let mut s = weather();
    let mut batch = Vec::new();
    for id in 0..200 {
        let call = json!({ "jsonrpc": "2.0", "id": id, "method": "tools/call",
            "params": { "name": "get_weather", "arguments": { "place": "Paris" }, "_meta": modern_meta() } });
        batch.extend(call.to_string().into_bytes());
        batch.push(b'\n');
    }
    batch.extend_from_slice(b"{\"jsonrpc\":\"2.0\",\"id\":\"bye\",\"method\":\"shutdown\"}\n");
    batch.extend_from_slice(b"{\"jsonrpc\":\"2.0\",\"id\":\"late\",\"method\":\"ping\"}\n");
    s.send_raw(&batch);
    let mut ids = Vec::new();
    while let Some(answer) = s.recv() {
        if answer["id"] != "bye" {
            assert_eq!(
                answer["result"]["content"][0]["text"],
                "Paris: 14.5 °C, cloudy"
            );
        }
        ids.push(answer["id"].clone());
    }
    assert_eq!(
        ids.len(),
        201,
        "every call and the shutdown answered, nothing after"
    );
    assert!(ids.contains(&json!("bye")));
    assert!(!ids.contains(&json!("late")));
}

/// The server's stdout read on a thread, so a test can wait with a deadline: each message,
/// then `None` at EOF.
fn stdout_of(s: &mut ServerProcess) -> mpsc::Receiver<Option<Value>> {
    use std::io::BufRead;
    let mut stdout = s.take_stdout();
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        loop {
            let mut line = String::new();
            let message = match stdout.read_line(&mut line) {
                Ok(0) | Err(_) => None,
                Ok(_) => Some(serde_json::from_str(line.trim_end()).expect("a JSON line")),
            };
            let end = message.is_none();
            if tx.send(message).is_err() || end {
                return;
            }
        }
    });
    rx
}

fn within(rx: &mpsc::Receiver<Option<Value>>, wait: Duration, what: &str) -> Option<Value> {
    rx.recv_timeout(wait)
        .unwrap_or_else(|_| panic!("{what}: nothing within {wait:?}"))
}

fn ping(id: i64) -> Vec<u8> {
    format!("{{\"jsonrpc\":\"2.0\",\"id\":{id},\"method\":\"ping\"}}\n").into_bytes()
}

#[test]
fn a_content_length_past_the_drain_bound_is_answered_at_once_and_ends_the_session() {
    let mut s = weather();
    let out = stdout_of(&mut s);
    s.send_raw(b"Content-Length: 18446744073709551615\r\n\r\n");
    s.send_raw(&ping(1));
    let refused = within(&out, Duration::from_secs(10), "the refusal");
    assert_eq!(
        refused,
        Some(error(-32600, "Request frame exceeds 1048576 bytes"))
    );
    // Nothing after it can be found again without reading 16 EiB: the session ends, with
    // stdin still open, and the process exits cleanly.
    assert_eq!(
        within(&out, Duration::from_secs(15), "the end of the session"),
        None
    );
    assert!(s.finish().success());
}

#[test]
fn a_content_length_within_the_drain_bound_is_answered_at_once_then_its_body_dropped() {
    let mut s = weather();
    let out = stdout_of(&mut s);
    let length = 2 * 1024 * 1024;
    s.send_raw(format!("Content-Length: {length}\r\n\r\n").as_bytes());
    // Answered before a byte of the body is sent.
    assert_eq!(
        within(&out, Duration::from_secs(10), "the refusal"),
        Some(error(-32600, "Request frame exceeds 1048576 bytes"))
    );
    // A body of requests: any of them answered would mean the body was read as messages.
    let mut body = Vec::with_capacity(length);
    while body.len() < length {
        body.extend_from_slice(&ping(66));
    }
    body.truncate(length);
    s.send_raw(&body);
    s.send_raw(&ping(2));
    assert_eq!(
        within(&out, Duration::from_secs(20), "the next request"),
        Some(json!({ "jsonrpc": "2.0", "id": 2, "result": {} }))
    );
    assert!(s.finish().success());
    assert_eq!(out.recv().unwrap(), None, "nothing else was answered");
}

#[test]
fn lines_of_only_whitespace_are_no_message() {
    let mut s = weather();
    let out = stdout_of(&mut s);
    s.send_raw(b"   \n\t\t\n \r\n\r\n\n \t \r \n");
    s.send_raw(&ping(1));
    assert_eq!(
        within(&out, Duration::from_secs(10), "the ping"),
        Some(json!({ "jsonrpc": "2.0", "id": 1, "result": {} }))
    );
    assert!(s.finish().success());
    assert_eq!(
        out.recv().unwrap(),
        None,
        "nothing answered the blank lines"
    );
}

#[test]
fn caller_text_comes_back_once_in_data_cut_to_256_bytes() {
    let mut s = weather();
    let room = 1024 * 1024 - 512;
    // A tool name of ASCII: cut at exactly 256 bytes.
    let name = "t".repeat(room);
    let call = json!({ "jsonrpc": "2.0", "id": 1, "method": "tools/call",
        "params": { "name": name, "arguments": {}, "_meta": modern_meta() } });
    // A URI whose 256th byte is inside a two-byte character: cut before it, at 255.
    let uri = format!("weather:/{}", "é".repeat((room - 9) / 2));
    let read = json!({ "jsonrpc": "2.0", "id": 2, "method": "resources/read",
        "params": { "uri": uri, "_meta": modern_meta() } });
    for (request, key, text, kept) in [
        (call, "name", name.as_str(), 256),
        (read, "uri", uri.as_str(), 255),
    ] {
        assert!(request.to_string().len() <= 1024 * 1024);
        assert!(text.len() > 1024 * 1024 - 1024);
        let answer = s.request(&request);
        spec()
            .check("2026-07-28", "JSONRPCErrorResponse", &answer)
            .unwrap_or_else(|e| panic!("{e}"));
        let size = answer.to_string().len();
        assert!(size < 2048, "a {size}-byte answer to a 1 MiB {key}");
        assert_eq!(answer["error"]["code"], -32602);
        assert_eq!(answer["error"]["data"][key], text[..kept]);
        let message = answer["error"]["message"].as_str().unwrap();
        assert!(!message.contains(&text[kept - 20..kept]), "{message}");
    }
    ping_ok(&mut s, 3);
    assert!(s.finish().success());
}

//! The stdio ceiling: a loop that reads lines, parses each with serde_json and writes a fixed
//! result with the request's id, flushing when no more input is waiting. No MCP at all: what
//! reading, parsing and writing cost.

use std::io::{BufRead, BufReader, BufWriter, Write};

use serde_json::Value;

fn main() {
    let mut input = BufReader::with_capacity(64 * 1024, std::io::stdin().lock());
    let mut out = BufWriter::with_capacity(64 * 1024, std::io::stdout().lock());
    let mut line = String::new();
    loop {
        line.clear();
        match input.read_line(&mut line) {
            Ok(0) | Err(_) => break,
            Ok(_) => {}
        }
        let Ok(request) = serde_json::from_str::<Value>(&line) else {
            continue;
        };
        if request.get("id").is_none() {
            continue; // a notification: nothing to answer
        }
        let place = request["params"]["arguments"]["place"]
            .as_str()
            .unwrap_or("");
        let result = if request["method"] == "tools/list" {
            // The cold-start probe's question: a fixed list.
            serde_json::json!({"tools": [{"name": "get_weather", "inputSchema": {"type": "object"}}]})
        } else {
            serde_json::json!({"content": [{"type": "text", "text": format!("{place}: 21C, clear")}]})
        };
        let reply = serde_json::json!({"jsonrpc": "2.0", "id": request["id"], "result": result});
        let _ = serde_json::to_writer(&mut out, &reply);
        let _ = out.write_all(b"\n");
        // Batched: written once the requests already read are answered.
        if input.buffer().is_empty() {
            let _ = out.flush();
        }
    }
    let _ = out.flush();
}

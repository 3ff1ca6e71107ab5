//! The stdio ceiling: a loop that reads lines, reads each into a borrowed struct (the id kept as
//! its raw text, the method and the one argument borrowed) and writes fixed bytes around them,
//! flushing when no more input is waiting. No MCP and no `Value`: what reading, parsing and
//! writing cost at the least.

use std::io::{BufRead, BufReader, BufWriter, Write};

use serde::Deserialize;
use serde_json::value::RawValue;

/// The request, borrowed from the line.
#[derive(Deserialize)]
struct Request<'a> {
    #[serde(borrow)]
    id: Option<&'a RawValue>,
    #[serde(borrow, default)]
    method: Option<&'a str>,
    #[serde(borrow, default)]
    params: Option<Params<'a>>,
}

#[derive(Deserialize)]
struct Params<'a> {
    #[serde(borrow, default)]
    arguments: Option<Arguments<'a>>,
}

#[derive(Deserialize)]
struct Arguments<'a> {
    #[serde(borrow, default)]
    place: Option<&'a str>,
}

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
        let Ok(request) = serde_json::from_str::<Request<'_>>(&line) else {
            continue;
        };
        let Some(id) = request.id else {
            continue; // a notification: nothing to answer
        };
        let _ = out.write_all(br#"{"jsonrpc":"2.0","id":"#);
        let _ = out.write_all(id.get().as_bytes());
        if request.method == Some("tools/list") {
            // The cold-start probe's question: a fixed list.
            let _ = out.write_all(
                br#","result":{"tools":[{"name":"get_weather","inputSchema":{"type":"object"}}]}}"#,
            );
        } else {
            let place = request
                .params
                .and_then(|p| p.arguments)
                .and_then(|a| a.place)
                .unwrap_or("");
            // A place with a quote or a backslash would need escaping; the lab's places have none.
            let _ = out.write_all(br#","result":{"content":[{"type":"text","text":""#);
            let _ = out.write_all(place.as_bytes());
            let _ = out.write_all(br#": 21C, clear"}]}}"#);
        }
        let _ = out.write_all(b"\n");
        // Batched: written once the requests already read are answered.
        if input.buffer().is_empty() {
            let _ = out.flush();
        }
    }
    let _ = out.flush();
}

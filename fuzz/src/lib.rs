//! The server every fuzz target drives: a small catalog with one of each shape a caller can
//! reach (typed and optional arguments, a documented enum, a nested object, mirrored headers, a
//! static resource, a template with completions, a prompt), and the runtime that answers it.

use std::sync::OnceLock;
use std::time::Duration;

use beam_mcp::completion::{Completion, CompletionRequest};
use beam_mcp::protocol::{Reply, Session};
use beam_mcp::resource::NotFound;
use beam_mcp::{Content, Server, ToolError};
use schemars::JsonSchema;
use serde::Deserialize;

/// A unit enum: its schema is an `enum` of strings.
#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Unit {
    /// Degrees Celsius.
    Celsius,
    /// Degrees Fahrenheit.
    Fahrenheit,
}

/// A nested object with bounds.
#[derive(Deserialize, JsonSchema)]
pub struct Window {
    /// From, inclusive.
    #[schemars(range(min = 0, max = 1000))]
    pub from: u32,
    /// Up to, exclusive.
    pub to: Option<u32>,
    /// A code of two capital letters.
    #[schemars(regex(pattern = r"^[A-Z]{2}$"))]
    pub code: Option<String>,
}

/// Echoes its typed arguments.
#[beam_mcp::tool]
fn echo(
    /// Any text.
    text: String,
    /// How often.
    times: Option<u8>,
    /// A unit.
    unit: Option<Unit>,
    /// Numbers.
    numbers: Option<Vec<i64>>,
    /// A window.
    window: Option<Window>,
    /// A flag.
    flag: Option<bool>,
) -> Result<String, ToolError> {
    let times = usize::from(times.unwrap_or(1).min(4));
    let sum: i64 = numbers
        .unwrap_or_default()
        .iter()
        .fold(0i64, |a, b| a.wrapping_add(*b));
    let from = window.map_or(0, |w| w.from);
    let unit = match unit {
        Some(Unit::Celsius) => "C",
        Some(Unit::Fahrenheit) => "F",
        None => "-",
    };
    if flag == Some(true) {
        return Err(ToolError::new("flag set"));
    }
    Ok(format!("{} {sum} {from} {unit}", text.repeat(times)))
}

/// Mirrors arguments in `Mcp-Param-*` headers.
#[beam_mcp::tool]
fn mirrored(
    /// Mirrored in `Mcp-Param-Region`.
    #[header("Region")]
    region: String,
    /// Mirrored in `Mcp-Param-Priority`.
    #[header("Priority")]
    priority: Option<i64>,
    /// Mirrored in `Mcp-Param-Verbose`.
    #[header("Verbose")]
    verbose: Option<bool>,
) -> Vec<Content> {
    vec![Content::text(format!("{region} {priority:?} {verbose:?}"))]
}

// No tool panics here: libFuzzer's panic hook aborts on any panic, even one the core catches
// (a host panic as a tool error is held by the wire tests instead).

/// A static resource.
#[beam_mcp::resource("fuzz://static", mime_type = "text/plain")]
fn fixed() -> String {
    "fixed".into()
}

/// A template with two variables.
#[beam_mcp::resource("fuzz://items/{kind}/{id}", name = "item", complete(kind = kinds))]
fn item(kind: String, id: u32) -> Result<String, NotFound> {
    if kind == "none" {
        return Err(NotFound);
    }
    Ok(format!("{kind}/{id}"))
}

fn kinds(request: &CompletionRequest) -> Completion {
    ["alpha", "beta", "gamma"]
        .into_iter()
        .filter(|k| k.starts_with(request.value()))
        .map(String::from)
        .collect()
}

/// A prompt with a completed argument.
#[beam_mcp::prompt(complete(topic = kinds))]
fn brief(
    /// The topic.
    topic: String,
    /// How long.
    length: Option<String>,
) -> String {
    format!("Write about {topic} in {}", length.unwrap_or_default())
}

/// The server, built once per fuzzing process.
pub fn server() -> &'static Server {
    static SERVER: OnceLock<Server> = OnceLock::new();
    SERVER.get_or_init(|| {
        Server::builder()
            .name("fuzz")
            .version("0")
            .crate_items(module_path!())
            .page_size(2)
            .call_time_limit(Duration::from_secs(2))
            .build()
            .expect("the fuzz catalog builds")
    })
}

/// One current-thread runtime per fuzzing process.
pub fn runtime() -> &'static tokio::runtime::Runtime {
    static RUNTIME: OnceLock<tokio::runtime::Runtime> = OnceLock::new();
    RUNTIME.get_or_init(|| {
        tokio::runtime::Builder::new_current_thread()
            .enable_time()
            .build()
            .expect("a runtime")
    })
}

/// Waits for a reply's answer, if it has one; each must come within the call time limit.
pub fn settle(reply: Reply) {
    if let Reply::Pending(exchange) = reply {
        runtime().block_on(async {
            let answered = tokio::time::timeout(Duration::from_secs(5), exchange.response()).await;
            assert!(answered.is_ok(), "a request was not answered within 5 s");
        });
    }
}

/// A 2025-11-25 session after its handshake.
pub fn legacy_session() -> Session {
    let session = Session::new();
    let init = br#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"fuzz","version":"0"}}}"#;
    settle(server().handle(&session, init));
    settle(server().handle(
        &session,
        br#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
    ));
    session
}

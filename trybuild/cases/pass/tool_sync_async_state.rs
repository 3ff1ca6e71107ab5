//! Sync and async tools, with host state taken by `State<T>`.

#[path = "common/mod.rs"]
mod common;

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use beam_mcp::State;
use serde_json::json;

/// A counter shared by every call.
#[derive(Clone, Default)]
struct Counter(Arc<AtomicU64>);

/// A greeting set once on the builder.
#[derive(Clone)]
struct Greeting(&'static str);

/// Greets, synchronously.
#[beam_mcp::tool]
fn greet(name: String, State(greeting): State<Greeting>) -> String {
    format!("{}, {name}!", greeting.0)
}

/// Counts, asynchronously, after yielding once.
#[beam_mcp::tool]
async fn count(by: u64, State(counter): State<Counter>) -> String {
    tokio::task::yield_now().await;
    (counter.0.fetch_add(by, Ordering::SeqCst) + by).to_string()
}

/// Takes two states and no argument.
#[beam_mcp::tool]
async fn both(State(greeting): State<Greeting>, State(counter): State<Counter>) -> String {
    format!("{} {}", greeting.0, counter.0.load(Ordering::SeqCst))
}

fn main() {
    let counter = Counter::default();
    let server = common::builder()
        .state(Greeting("Hello"))
        .state(counter.clone())
        .build()
        .expect("every state is given");
    let text = |name: &str, arguments| {
        let result = common::call(&server, name, arguments);
        assert_eq!(result["isError"], false, "{result}");
        common::text(&result["content"][0]).to_owned()
    };
    assert_eq!(text("greet", json!({ "name": "Ada" })), "Hello, Ada!");
    assert_eq!(text("count", json!({ "by": 2 })), "2");
    assert_eq!(text("count", json!({ "by": 3 })), "5");
    assert_eq!(counter.0.load(Ordering::SeqCst), 5);
    assert_eq!(text("both", json!({})), "Hello 5");

    // State is not an argument: the schemas list only the real ones.
    let greet = common::tool(&server, "greet");
    assert_eq!(greet["inputSchema"]["required"], json!(["name"]));
    let both = common::tool(&server, "both");
    let properties = both["inputSchema"]["properties"].as_object();
    assert!(properties.is_none_or(|p| p.is_empty()), "{both}");

    // A state the builder lacks is refused when the server is built, not at the call.
    let missing = common::builder().state(Greeting("Hi")).build();
    assert!(missing.is_err(), "a missing Counter must be refused");
}

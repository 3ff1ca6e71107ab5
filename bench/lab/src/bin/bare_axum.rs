//! The HTTP ceiling: an axum handler that parses the JSON-RPC body with serde_json and answers
//! a fixed result with the request's id. No MCP at all: what the stack underneath costs.

use axum::Router;
use axum::body::Bytes;
use axum::http::header;
use axum::response::IntoResponse;
use axum::routing::post;
use serde_json::Value;

async fn answer(body: Bytes) -> impl IntoResponse {
    let request: Value = match serde_json::from_slice(&body) {
        Ok(v) => v,
        Err(_) => {
            return (
                axum::http::StatusCode::BAD_REQUEST,
                [(header::CONTENT_TYPE, "application/json")],
                Vec::new(),
            );
        }
    };
    let place = request["params"]["arguments"]["place"]
        .as_str()
        .unwrap_or("");
    let reply = serde_json::json!({
        "jsonrpc": "2.0",
        "id": request["id"],
        "result": {"content": [{"type": "text", "text": format!("{place}: 21C, clear")}]},
    });
    (
        axum::http::StatusCode::OK,
        [(header::CONTENT_TYPE, "application/json")],
        serde_json::to_vec(&reply).unwrap_or_default(),
    )
}

#[tokio::main]
async fn main() {
    let port = std::env::args()
        .nth(2)
        .expect("usage: bare_axum --http PORT");
    let listener = tokio::net::TcpListener::bind(format!("127.0.0.1:{port}"))
        .await
        .expect("bind");
    let app = Router::new().route("/mcp", post(answer));
    let stop = async {
        let mut term = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())
            .expect("signal");
        tokio::select! { _ = term.recv() => {}, _ = tokio::signal::ctrl_c() => {} }
    };
    tokio::select! {
        served = axum::serve(listener, app) => served.expect("serve"),
        () = stop => {}
    }
}

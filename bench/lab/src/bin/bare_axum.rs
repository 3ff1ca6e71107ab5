//! The HTTP ceiling: an axum handler that reads the JSON-RPC body into a borrowed struct (the
//! id kept as its raw text, the one argument borrowed) and writes fixed bytes around them. No
//! MCP and no `Value`: the leanest honest answer the stack underneath allows.

use axum::Router;
use axum::body::Bytes;
use axum::http::header;
use axum::response::IntoResponse;
use axum::routing::post;
use serde::Deserialize;
use serde_json::value::RawValue;

/// The request, borrowed from the body.
#[derive(Deserialize)]
struct Request<'a> {
    #[serde(borrow)]
    id: Option<&'a RawValue>,
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

async fn answer(body: Bytes) -> impl IntoResponse {
    let Ok(request) = serde_json::from_slice::<Request<'_>>(&body) else {
        return (
            axum::http::StatusCode::BAD_REQUEST,
            [(header::CONTENT_TYPE, "application/json")],
            Vec::new(),
        );
    };
    let place = request
        .params
        .and_then(|p| p.arguments)
        .and_then(|a| a.place)
        .unwrap_or("");
    let id = request.id.map_or("null", RawValue::get);
    // A place with a quote or a backslash would need escaping; the lab's places have none.
    let mut reply = Vec::with_capacity(96 + id.len() + place.len());
    reply.extend_from_slice(br#"{"jsonrpc":"2.0","id":"#);
    reply.extend_from_slice(id.as_bytes());
    reply.extend_from_slice(br#","result":{"content":[{"type":"text","text":""#);
    reply.extend_from_slice(place.as_bytes());
    reply.extend_from_slice(br#": 21C, clear"}]}}"#);
    (
        axum::http::StatusCode::OK,
        [(header::CONTENT_TYPE, "application/json")],
        reply,
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

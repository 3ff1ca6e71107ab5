//! The Server Card route ([`server_card`](super::HttpBuilder::server_card)): `GET
//! <endpoint>/server-card` answers the card as `application/mcp-server-card+json`, where the
//! Server Card draft reserves it, with the CORS and caching headers its discovery document
//! asks for. Public metadata: none of the endpoint's checks run for it (a discovery client
//! fetches it before it has credentials, from any origin).

use axum::Router;
use axum::body::Body;
use axum::http::{HeaderValue, Method, StatusCode, header};
use axum::response::Response as HttpResponse;
use hyper::body::Bytes;

/// Where the card of an endpoint served at `endpoint` is: `<endpoint>/server-card`.
pub(super) fn path(endpoint: &str) -> String {
    format!("{}/server-card", endpoint.trim_end_matches('/'))
}

/// The route at `path` answering `card`.
pub(super) fn router(path: &str, card: Bytes) -> Router {
    Router::new().route(
        path,
        axum::routing::any(move |method: Method| {
            let card = card.clone();
            async move { answer(&method, card) }
        }),
    )
}

fn answer(method: &Method, card: Bytes) -> HttpResponse {
    let (status, body, typed) = match *method {
        Method::GET => (StatusCode::OK, Body::from(card), true),
        Method::HEAD => (StatusCode::OK, Body::empty(), true),
        Method::OPTIONS => (StatusCode::NO_CONTENT, Body::empty(), false),
        _ => (StatusCode::METHOD_NOT_ALLOWED, Body::empty(), false),
    };
    let mut response = HttpResponse::new(body);
    *response.status_mut() = status;
    let headers = response.headers_mut();
    headers.insert(
        header::ACCESS_CONTROL_ALLOW_ORIGIN,
        HeaderValue::from_static("*"),
    );
    headers.insert(
        header::ACCESS_CONTROL_ALLOW_METHODS,
        HeaderValue::from_static("GET"),
    );
    headers.insert(
        header::ACCESS_CONTROL_ALLOW_HEADERS,
        HeaderValue::from_static("Content-Type"),
    );
    if status == StatusCode::METHOD_NOT_ALLOWED {
        headers.insert(
            header::ALLOW,
            HeaderValue::from_static("GET, HEAD, OPTIONS"),
        );
    }
    if typed {
        headers.insert(
            header::CONTENT_TYPE,
            HeaderValue::from_static(crate::SERVER_CARD_MEDIA_TYPE),
        );
        headers.insert(
            header::CACHE_CONTROL,
            HeaderValue::from_static("public, max-age=3600"),
        );
    }
    response
}

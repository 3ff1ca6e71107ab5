//! The health route for load balancers ([`health_route`](super::HttpBuilder::health_route)):
//! `GET` answers 200 `ok`, and 503 once the endpoint is shutting down or while the shared store
//! it was given ([`health_probe`](super::HttpBuilder::health_probe)) does not answer, so a
//! balancer stops sending it work. Off unless set.
//!
//! It is its own route beside the endpoint, so none of the endpoint's checks run for it
//! (`Origin`, `Host`, `authorize`, the in-flight bound): a balancer probes by address, with no
//! credentials. It reveals only that the process is up, and reads nothing but the request
//! line.

use std::sync::Arc;

use axum::Router;
use axum::body::Body;
use axum::extract::State;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::Response as HttpResponse;

use crate::caller_text::Logged;
use crate::context::CancelFlag;
use crate::store::Probe;

/// The longest health path accepted.
const MAX_PATH: usize = 256;

/// Why `path` cannot be the health route, if it cannot.
///
/// Only a literal path is taken (no `{capture}` or wildcard that the router would read as a
/// pattern, so the route is exactly the path), outside `/mcp`, where the endpoint is served.
pub(super) fn refusal(path: &str) -> Option<&'static str> {
    if !path.starts_with('/') {
        return Some("it must start with '/'");
    }
    if path.len() > MAX_PATH {
        return Some("it is longer than 256 bytes");
    }
    if !path
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'/' | b'-' | b'.' | b'_' | b'~'))
    {
        return Some("only ASCII letters, digits, '/', '-', '.', '_' and '~' may be used");
    }
    if path.contains("//") {
        return Some("it has an empty segment");
    }
    if path == "/mcp" || path.starts_with("/mcp/") {
        return Some("/mcp is the endpoint's");
    }
    None
}

/// What the route answers from.
#[derive(Clone)]
struct Health {
    stopping: Arc<CancelFlag>,
    probe: Option<Arc<dyn Probe>>,
}

/// The route at `path`, answering from `stopping` and the store's `probe`.
pub(super) fn router(
    path: &str,
    stopping: Arc<CancelFlag>,
    probe: Option<Arc<dyn Probe>>,
) -> Router {
    Router::new()
        .route(path, axum::routing::get(health))
        .with_state(Health { stopping, probe })
}

async fn health(State(health): State<Health>) -> HttpResponse {
    let store = match &health.probe {
        Some(probe) if !health.stopping.is_cancelled() => probe.probe().await,
        _ => Ok(()),
    };
    let (status, text) = if health.stopping.is_cancelled() {
        (StatusCode::SERVICE_UNAVAILABLE, "shutting down")
    } else if let Err(error) = store {
        tracing::warn!(detail = %Logged(error.detail()), "health: the shared store does not answer");
        (StatusCode::SERVICE_UNAVAILABLE, "store unavailable")
    } else {
        (StatusCode::OK, "ok")
    };
    let mut out = HttpResponse::new(Body::from(text));
    *out.status_mut() = status;
    let headers = out.headers_mut();
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/plain; charset=utf-8"),
    );
    // A cached "ok" would hide the shutdown.
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::Request;
    use http_body_util::BodyExt;
    use hyper::service::Service;
    use hyper_util::service::TowerToHyperService;

    #[test]
    fn only_literal_paths_outside_the_endpoint_are_taken() {
        for ok in ["/healthz", "/", "/-/ready", "/status/live.txt", "/mcpx"] {
            assert_eq!(refusal(ok), None, "{ok}");
        }
        for bad in [
            "healthz",
            "",
            "/{id}",
            "/*rest",
            "/a b",
            "/a?b",
            "//x",
            "/mcp",
            "/mcp/healthz",
        ] {
            assert!(refusal(bad).is_some(), "{bad}");
        }
        assert!(refusal(&format!("/{}", "a".repeat(MAX_PATH))).is_some());
    }

    #[tokio::test]
    async fn get_is_ok_until_the_endpoint_stops_then_503() {
        let stopping = Arc::new(CancelFlag::default());
        let route = TowerToHyperService::new(router("/healthz", Arc::clone(&stopping), None));
        let get = || Request::get("/healthz").body(Body::empty()).unwrap();
        let response = route.call(get()).await.unwrap();
        assert_eq!(response.status(), 200);
        assert_eq!(response.headers()[header::CACHE_CONTROL], "no-store");
        let body = response.into_body().collect().await.unwrap().to_bytes();
        assert_eq!(&body[..], b"ok");
        let post = Request::post("/healthz").body(Body::empty()).unwrap();
        assert_eq!(route.call(post).await.unwrap().status(), 405);
        stopping.cancel();
        let response = route.call(get()).await.unwrap();
        assert_eq!(response.status(), 503);
        let body = response.into_body().collect().await.unwrap().to_bytes();
        assert_eq!(&body[..], b"shutting down");
    }

    /// A store that is there now and gone later: `ok`, then 503 `store unavailable`.
    #[tokio::test]
    async fn a_store_that_does_not_answer_is_a_503() {
        use crate::store::{StoreError, StoreFuture};
        use std::sync::atomic::{AtomicBool, Ordering};

        #[derive(Default)]
        struct Flaky(AtomicBool);
        impl Probe for Flaky {
            fn probe(&self) -> StoreFuture<Result<(), StoreError>> {
                let gone = self.0.load(Ordering::SeqCst);
                StoreFuture::later(async move {
                    if gone {
                        Err(StoreError::unavailable("gone"))
                    } else {
                        Ok(())
                    }
                })
            }
        }
        let flaky = Arc::new(Flaky::default());
        let probe: Arc<dyn Probe> = flaky.clone();
        let stopping = Arc::new(CancelFlag::default());
        let route = TowerToHyperService::new(router("/healthz", stopping, Some(probe)));
        let get = || Request::get("/healthz").body(Body::empty()).unwrap();
        assert_eq!(route.call(get()).await.unwrap().status(), 200);
        flaky.0.store(true, Ordering::SeqCst);
        let response = route.call(get()).await.unwrap();
        assert_eq!(response.status(), 503);
        let body = response.into_body().collect().await.unwrap().to_bytes();
        assert_eq!(&body[..], b"store unavailable");
    }
}

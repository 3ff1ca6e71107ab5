//! `resources/list`, `resources/templates/list` and `resources/read`.

use std::sync::Arc;

use serde_json::{Map, Value};

use super::{ListSpec, list};
use crate::Server;
use crate::catalog::{Resource, Template};
use crate::panic::CatchUnwind;
use crate::protocol::core::Request;
use crate::protocol::{ProtocolError, Reply};
use crate::resource::{ReadRequest, ResourceError};

pub(crate) fn list_resources(
    server: &Server,
    params: &Map<String, Value>,
) -> Result<Value, ProtocolError> {
    let spec = ListSpec {
        items: server.inner.catalog.resources(),
        key: |r: &Resource| &r.uri,
        listing: |r: &Resource| &r.listing,
        kind: "resources",
        field: "resources",
        cache: server.inner.resources_cache,
    };
    list(server, params, spec)
}

pub(crate) fn list_templates(
    server: &Server,
    params: &Map<String, Value>,
) -> Result<Value, ProtocolError> {
    let spec = ListSpec {
        items: server.inner.catalog.templates(),
        key: |t: &Template| &t.source,
        listing: |t: &Template| &t.listing,
        kind: "resource_templates",
        field: "resourceTemplates",
        cache: server.inner.resources_cache,
    };
    list(server, params, spec)
}

/// Decides readability before any host code runs; reads later, concurrently if the
/// transport wants.
pub(crate) fn read_resource(server: &Server, request: Request<'_>) -> Reply {
    let Request {
        id,
        mut params,
        era,
        ..
    } = request;
    let Some(Value::String(uri)) = params.remove("uri") else {
        return Reply::Ready(server.respond(id, era, Err(ProtocolError::ResourceUriMissing)));
    };
    let Some(readable) = server.inner.catalog.readable(&uri) else {
        let error = ProtocolError::ResourceNotFound { uri, reason: None };
        return Reply::Ready(server.respond(id, era, Err(error)));
    };
    let read = ReadRequest {
        uri: uri.clone(),
        variables: readable
            .variables
            .iter()
            .map(|(name, value)| (Arc::from(*name), (*value).to_owned()))
            .collect(),
        states: Arc::clone(&server.inner.states),
    };
    let mime_type = readable.mime_type;
    let running = match CatchUnwind::start(|| (readable.reader)(read)) {
        Ok(running) => running,
        Err(panic) => {
            tracing::error!(uri = %uri, panic = %panic, "resource reader panicked");
            return Reply::Ready(server.respond(id, era, Err(ProtocolError::Internal)));
        }
    };
    let server = server.clone();
    Reply::Pending(Box::pin(async move {
        let outcome = match running.await {
            Ok(Ok(contents)) if contents.is_empty() => {
                // An empty answer would read as "exists, holds nothing"; say what it is.
                tracing::error!(%uri, "a resource reader returned no contents");
                Err(ProtocolError::Internal)
            }
            Ok(Ok(contents)) => {
                let items: Vec<Value> = contents
                    .iter()
                    .map(|item| item.to_value(&uri, mime_type))
                    .collect();
                let mut result = Map::new();
                result.insert("contents".into(), Value::Array(items));
                server.inner.resources_cache.stamp(&mut result);
                Ok(Value::Object(result))
            }
            Ok(Err(ResourceError::NotFound { reason })) => {
                Err(ProtocolError::ResourceNotFound { uri, reason })
            }
            Ok(Err(ResourceError::Internal(detail))) => {
                tracing::error!(%uri, %detail, "resource reader fault");
                Err(ProtocolError::Internal)
            }
            Err(panic) => {
                tracing::error!(%uri, panic = %panic, "resource reader panicked");
                Err(ProtocolError::Internal)
            }
        };
        server.respond(id, era, outcome)
    }))
}

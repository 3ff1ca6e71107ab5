//! `resources/list`, `resources/templates/list` and `resources/read`.

use std::sync::Arc;

use serde_json::{Map, Value};

use super::admission::{admit, admitted};
use super::{ListSpec, input_required, list};
use crate::catalog::{Resource, Template};
use crate::dispatch::{self, Call, Ran};
use crate::limit::Limited;
use crate::params::Params;
use crate::protocol::answer::Answer;
use crate::protocol::request::{Era, Request};
use crate::protocol::{Logged, ProtocolError};
use crate::resource::{ReadRequest, ResourceError};
use crate::server::Server;

pub(crate) fn list_resources(
    server: &Server,
    params: &Params,
    era: Era,
) -> Result<Value, ProtocolError> {
    let catalog = server.catalog();
    let spec = ListSpec {
        items: catalog.resources(),
        key: |r: &Resource| &r.uri,
        listing: &|r: &Resource| &r.listing,
        kind: "resources",
        field: "resources",
        cache: era.is_stateless().then_some(server.inner.resources_cache),
    };
    list(server, params, spec)
}

pub(crate) fn list_templates(
    server: &Server,
    params: &Params,
    era: Era,
) -> Result<Value, ProtocolError> {
    let catalog = server.catalog();
    let spec = ListSpec {
        items: catalog.templates(),
        key: |t: &Template| &t.source,
        listing: &|t: &Template| &t.listing,
        kind: "resource_templates",
        field: "resourceTemplates",
        cache: era.is_stateless().then_some(server.inner.resources_cache),
    };
    list(server, params, spec)
}

/// Decides readability before any host code runs; reads later, concurrently if the
/// transport wants.
pub(crate) fn read_resource(server: &Server, request: &mut Request<'_>) -> Answer {
    let era = request.era;
    // Only a 2026-07-28 request has rounds: no lookup for the others.
    let may_ask = era.is_stateless()
        && match request.params.get("uri") {
            Some(Value::String(uri)) => server
                .catalog()
                .readable(uri)
                .is_some_and(|r| r.takes_context),
            _ => false,
        };
    if let Err(error) = request.open_round(server, may_ask) {
        return Answer::Now(Err(error));
    }
    let Some(Value::String(uri)) = request.params.remove("uri") else {
        return Answer::Now(Err(ProtocolError::ResourceUriMissing));
    };
    let catalog = server.catalog();
    let Some(readable) = catalog.readable(&uri) else {
        // A skill's file is read from memory: no host code runs, so nothing to admit.
        if let Some(mut result) = super::skills::read_file(catalog.skills(), &uri) {
            if era.is_stateless() {
                server.inner.resources_cache.stamp(&mut result);
            }
            return Answer::Now(Ok(Value::Object(result)));
        }
        return Answer::Now(Err(ProtocolError::ResourceNotFound { uri, reason: None }));
    };
    // The host's rate limit, last: only a read that would run spends a token.
    let verdict = match admit(server, request.session, Limited::ResourceRead { uri: &uri }) {
        Ok(verdict) => verdict,
        Err(error) => return Answer::Now(Err(error)),
    };
    let begun = request.begin(server, readable.takes_context);
    let variables: Vec<(Arc<str>, String)> = readable
        .variables
        .iter()
        .map(|(name, value)| (Arc::from(*name), (*value).to_owned()))
        .collect();
    let states = Arc::clone(&server.inner.states);
    let read_uri = uri.clone();
    let read = move |context| ReadRequest {
        uri: read_uri,
        variables,
        states,
        context,
    };
    let mime_type = readable.mime_type;
    let app_meta = readable.app_meta.cloned();
    let reader = readable.reader;
    let call = Call {
        kind: "resource",
        name: Arc::from(uri.as_str()),
        limit: server.inner.limits.call_time_limit,
        observed: readable.observed.and_then(|c| c.recording()),
    };
    let responder = server.clone();
    let context = begun.context.clone();
    let stateless = era.is_stateless();
    let work = async move {
        admitted(verdict).await?;
        let asking = context.clone();
        match dispatch::run(&call, context, |context| reader(read(context))).await {
            Ran::Done(Ok(contents)) if contents.is_empty() => {
                // An empty answer would read as "exists, holds nothing"; say what it is.
                tracing::error!(uri = %Logged(&uri), "a resource reader returned no contents");
                Err(ProtocolError::Internal)
            }
            Ran::Done(Ok(contents))
                if app_meta.is_some() && contents.iter().any(|c| c.retypes_view(&uri)) =>
            {
                // A view's content is of the extension's type (its MUST): not sent otherwise.
                tracing::error!(uri = %Logged(&uri), "a view's reader gave its content another MIME type than text/html;profile=mcp-app");
                Err(ProtocolError::Internal)
            }
            Ran::Done(Ok(contents)) => {
                let items: Vec<Value> = contents
                    .iter()
                    .map(|item| item.to_value(&uri, mime_type, app_meta.as_deref()))
                    .collect();
                let mut result = Map::new();
                result.insert("contents".into(), Value::Array(items));
                if stateless {
                    responder.inner.resources_cache.stamp(&mut result);
                }
                Ok(Value::Object(result))
            }
            Ran::Done(Err(ResourceError::NotFound { reason })) => {
                Err(ProtocolError::ResourceNotFound { uri, reason })
            }
            Ran::Done(Err(ResourceError::Internal(detail))) => {
                tracing::error!(uri = %Logged(&uri), detail = %Logged(&detail), "resource reader fault");
                Err(ProtocolError::Internal)
            }
            Ran::Panicked(panic) => {
                tracing::error!(uri = %Logged(&uri), panic = %Logged(&panic), "resource reader panicked");
                Err(ProtocolError::Internal)
            }
            Ran::TimedOut(limit) => {
                tracing::warn!(uri = %Logged(&uri), ?limit, "a resource reader overran the call time limit");
                Err(ProtocolError::Internal)
            }
            Ran::InputRequired => input_required(&responder, &asking),
        }
    };
    Answer::run(begun, work)
}

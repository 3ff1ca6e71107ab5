//! `subscriptions/listen` (2026-07-28) and `resources/subscribe` / `unsubscribe`
//! (2025-11-25): subscribers of the live catalog's broadcaster.

use std::sync::Arc;

use serde_json::{Map, Value, json};

use crate::live::{Filter, Listener};
use crate::params::Params;
use crate::protocol::answer::Answer;
use crate::protocol::request::Request;
use crate::protocol::session::{MAX_SUBSCRIPTIONS, Unsubscribable};
use crate::protocol::{META_SUBSCRIPTION_ID, ProtocolError, Session};
use crate::server::Server;

/// Reads `params.notifications`: the filter, and the part of it this server honours (every
/// part it recognises, since a live catalog serves them all).
fn filter(params: &Params) -> Result<(Filter, Map<String, Value>), ProtocolError> {
    const MALFORMED: &str = "subscriptions/listen needs params.notifications: {toolsListChanged?, promptsListChanged?, resourcesListChanged?: boolean, resourceSubscriptions?: string[]}";
    let Some(Value::Object(asked)) = params.get("notifications") else {
        return Err(ProtocolError::Malformed(MALFORMED));
    };
    let mut filter = Filter::default();
    let mut honoured = Map::new();
    for (key, slot) in [
        ("toolsListChanged", &mut filter.tools),
        ("promptsListChanged", &mut filter.prompts),
        ("resourcesListChanged", &mut filter.resources),
    ] {
        match asked.get(key) {
            None => {}
            Some(Value::Bool(wanted)) => {
                *slot = *wanted;
                honoured.insert(key.into(), Value::Bool(*wanted));
            }
            Some(_) => return Err(ProtocolError::Malformed(MALFORMED)),
        }
    }
    match asked.get("resourceSubscriptions") {
        None => {}
        Some(Value::Array(uris)) if uris.len() > MAX_SUBSCRIPTIONS => {
            return Err(ProtocolError::Malformed(
                "a listen stream holds at most 1000 resourceSubscriptions",
            ));
        }
        Some(Value::Array(uris)) => {
            for uri in uris {
                let Value::String(uri) = uri else {
                    return Err(ProtocolError::Malformed(MALFORMED));
                };
                filter.uris.push(uri.clone());
            }
            honoured.insert("resourceSubscriptions".into(), Value::Array(uris.clone()));
        }
        Some(_) => return Err(ProtocolError::Malformed(MALFORMED)),
    }
    Ok((filter, honoured))
}

/// A listen stream: the acknowledgement first, then what the filter asked for, each with the
/// subscription id (the request's id, in its JSON type); ended with its result when the
/// server closes its subscriptions or the connection ends, silently when cancelled.
pub(crate) fn listen(server: &Server, request: &mut Request<'_>) -> Answer {
    let id = request.id.clone();
    let (wanted, honoured) = match filter(request.params) {
        Ok(found) => found,
        Err(error) => return Answer::Now(Err(error)),
    };
    let Some(live) = server.live() else {
        let error = ProtocolError::MethodNotFound("subscriptions/listen".into());
        return Answer::Now(Err(error));
    };
    let begun = request.begin_stream(server);
    let Some(outbox) = begun.context.outbox_arc() else {
        return Answer::Now(Err(ProtocolError::Internal));
    };
    let acknowledged = json!({
        "jsonrpc": "2.0",
        "method": "notifications/subscriptions/acknowledged",
        "params": { "_meta": { META_SUBSCRIPTION_ID: id }, "notifications": honoured },
    });
    // Queued before the subscription exists, so nothing can come before it.
    let _ = outbox.push(acknowledged, None);
    let subscription = live.subscribe(Listener::new(wanted, outbox, Some(id.clone())));
    let live = Arc::clone(live);
    let connection_ends = request.session.ending();
    let work = async move {
        let _subscription = subscription;
        tokio::select! {
            () = live.closing().cancelled() => {}
            () = connection_ends.cancelled() => {}
        }
        // The core's stamp adds the server's brief serverInfo beside the subscription.
        Ok(json!({
            "resultType": "complete",
            "_meta": { META_SUBSCRIPTION_ID: id },
        }))
    };
    Answer::run(begun, work)
}

/// `resources/subscribe` and `resources/unsubscribe` on a 2025-11-25 session.
pub(crate) fn subscribe(
    session: &Session,
    params: &Params,
    on: bool,
) -> Result<Value, ProtocolError> {
    let Some(Value::String(uri)) = params.get("uri") else {
        return Err(ProtocolError::ResourceUriMissing);
    };
    match session.subscribe(uri, on) {
        Ok(()) => Ok(Value::Object(Map::new())),
        Err(Unsubscribable::NotInitialized) => Err(ProtocolError::Malformed(
            "resources/subscribe needs an initialized session: send initialize first",
        )),
        Err(Unsubscribable::TooMany) => Err(ProtocolError::Malformed(
            "a session holds at most 1000 resource subscriptions: unsubscribe first",
        )),
    }
}

//! One function per method: the result object, before the per-revision decoration. One file
//! per family: lifecycle here, then tools, resources, prompts and completion.

mod admission;
mod completion;
mod prompts;
mod resources;
mod skills;
mod subscriptions;
mod tasks;
mod tools;

use serde_json::{Map, Value};

pub(crate) use completion::complete;
pub(crate) use prompts::{get_prompt, list_prompts};
pub(crate) use resources::{list_resources, list_templates, read_resource};
pub(crate) use skills::{get_skill, list_skills, read_directory};
pub(crate) use subscriptions::{listen, subscribe};
pub(crate) use tasks::{cancel as cancel_task, get as get_task, update as update_task};
pub(crate) use tools::{call_tool, list_tools};

use super::cursor::{self, CursorError};
use super::{ProtocolError, Revision, Session};
use crate::ask::Round;
use crate::context::Context;
use crate::context::Hello;
use crate::context::LogLevel;
use crate::params::Params;
use crate::revision::META_SERVER_INFO;
use crate::server::CacheHint;
use crate::server::Server;

pub(crate) fn discover(server: &Server) -> Value {
    let inner = &server.inner;
    let mut result = Map::new();
    result.insert(
        "supportedVersions".into(),
        Value::from(inner.supported_names.clone()),
    );
    result.insert("capabilities".into(), inner.discover_capabilities.clone());
    if let Some(instructions) = &inner.instructions {
        result.insert("instructions".into(), Value::from(instructions.as_str()));
    }
    inner.discover_cache.stamp(&mut result);
    // serverInfo in full here; every other result's `_meta` carries it in brief.
    let mut meta = Map::new();
    meta.insert(META_SERVER_INFO.into(), inner.info.clone());
    result.insert("_meta".into(), Value::Object(meta));
    Value::Object(result)
}

/// The legacy handshake: echo a served version, or offer the newest legacy one we serve.
pub(crate) fn initialize(
    server: &Server,
    session: &Session,
    params: &Params,
) -> Result<Value, ProtocolError> {
    let inner = &server.inner;
    let requested = params
        .get("protocolVersion")
        .and_then(Value::as_str)
        .unwrap_or("2025-11-25");
    let legacy = inner.revisions.iter().copied().find(|r| !r.is_stateless());
    let version = match (Revision::parse(requested), legacy) {
        (Some(r), _) if !r.is_stateless() && inner.revisions.contains(&r) => r,
        (_, Some(offer)) => offer,
        (_, None) => return Err(server.unsupported(requested)),
    };
    session.mark_initialized();
    if let Some(live) = server.live() {
        session.follow(live);
    }
    session.set_hello(Hello {
        version: Some(version),
        info: params.get("clientInfo").cloned(),
        capabilities: params
            .get("capabilities")
            .and_then(Value::as_object)
            .cloned(),
    });
    let mut result = Map::new();
    result.insert("protocolVersion".into(), Value::from(version.as_str()));
    result.insert("capabilities".into(), inner.capabilities.clone());
    result.insert("serverInfo".into(), inner.info.clone());
    if let Some(instructions) = &inner.instructions {
        result.insert("instructions".into(), Value::from(instructions.as_str()));
    }
    Ok(Value::Object(result))
}

/// `logging/setLevel` (2025-11-25): the session's logs from now on, at or above `level`.
pub(crate) fn set_level(session: &Session, params: &Params) -> Result<Value, ProtocolError> {
    let level = match params.get("level") {
        Some(Value::String(level)) => level
            .parse::<LogLevel>()
            .map_err(|_| ProtocolError::LogLevel(level.clone()))?,
        _ => {
            return Err(ProtocolError::Malformed(
                "logging/setLevel needs params.level",
            ));
        }
    };
    session.set_log_level(level);
    Ok(Value::Object(Map::new()))
}

/// The result of a run that stopped on asks: the `InputRequiredResult`.
pub(crate) fn input_required(server: &Server, context: &Context) -> Result<Value, ProtocolError> {
    let asked = context
        .round()
        .and_then(Round::input_required)
        .ok_or(ProtocolError::Internal)?;
    // Answers too large to carry to the next round are the client's to shorten.
    asked
        .into_result(&server.inner.state_keys)
        .ok_or(ProtocolError::AnswersTooLarge)
}

/// The cursor's key for the list `kind`, or the refusal.
fn after_cursor(params: &Params, kind: &'static str) -> Result<Option<String>, ProtocolError> {
    match params.get("cursor") {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(cursor)) => match cursor::decode(kind, cursor) {
            Ok(key) => Ok(Some(key)),
            Err(CursorError::Malformed) => Err(ProtocolError::CursorMalformed),
            Err(CursorError::Foreign) => Err(ProtocolError::CursorForeign(kind)),
        },
        Some(_) => Err(ProtocolError::CursorMalformed),
    }
}

/// One page of a list: the items after the request's cursor, the next cursor when more
/// remain, and the list's caching hints.
pub(crate) struct ListSpec<'a, T> {
    pub(crate) items: &'a [T],
    pub(crate) key: fn(&T) -> &str,
    pub(crate) listing: &'a dyn Fn(&T) -> &Value,
    /// The cursor's kind, which a cursor from another list does not carry.
    pub(crate) kind: &'static str,
    /// The result's member holding the page.
    pub(crate) field: &'static str,
    /// The list's caching hints: 2026-07-28 results carry them, 2025-11-25 ones have no such
    /// fields.
    pub(crate) cache: Option<CacheHint>,
}

pub(crate) fn list<T>(
    server: &Server,
    params: &Params,
    spec: ListSpec<'_, T>,
) -> Result<Value, ProtocolError> {
    let after = after_cursor(params, spec.kind)?;
    let (page, next) = cursor::page(
        spec.items,
        spec.key,
        after.as_deref(),
        server.inner.page_size,
        spec.kind,
    );
    let mut result = Map::new();
    result.insert(
        spec.field.into(),
        Value::Array(
            page.iter()
                .map(|item| (spec.listing)(item).clone())
                .collect(),
        ),
    );
    if let Some(next) = next {
        result.insert("nextCursor".into(), Value::from(next));
    }
    if let Some(cache) = spec.cache {
        cache.stamp(&mut result);
    }
    Ok(Value::Object(result))
}

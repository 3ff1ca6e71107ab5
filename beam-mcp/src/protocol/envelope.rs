//! A message as the core reads it, once, from bytes: what the transports route on (its method,
//! whether it is a request, its id, the era its `_meta` names) without reading the JSON
//! themselves; and what a transport's header rules are given to compare (`Said`).

use serde_json::{Map, Value};

use super::top::{self, Capabilities, Members, MetaMember, ParamsMember};
use crate::error::ProtocolError;
use crate::json::JsonError;
use crate::params::Params;
use crate::server::Server;

/// One message read by the core's bounded reader: its top level's members apart (no map is
/// built for them), or, for a message that is no object, its value.
#[cfg_attr(
    not(feature = "http"),
    allow(dead_code, reason = "the HTTP transport routes on them")
)]
#[derive(Debug)]
pub(crate) struct Envelope {
    /// An object's members (all absent for a message that is no object).
    pub(super) members: Members,
    /// A message that is no object (an array: a batch; a scalar), read whole.
    pub(super) other: Option<Value>,
}

#[cfg_attr(
    not(feature = "http"),
    allow(dead_code, reason = "the HTTP transport routes on them")
)]
impl Envelope {
    /// Reads one message for `server` (a transport has bounded its size).
    pub(crate) fn read(server: &Server, bytes: &[u8]) -> Result<Envelope, JsonError> {
        let mut envelope = Envelope {
            members: Members {
                arguments_as_value: server.inner.middleware.is_some(),
                ..Members::default()
            },
            other: None,
        };
        envelope.other = top::read_into(bytes, &mut envelope.members)?;
        Ok(envelope)
    }

    fn members(&self) -> Option<&Members> {
        match self.other {
            None => Some(&self.members),
            Some(_) => None,
        }
    }
}

#[cfg_attr(
    not(feature = "http"),
    allow(dead_code, reason = "the HTTP transport routes on them")
)]
impl Envelope {
    /// The method, if the message names one as a string.
    pub(crate) fn method(&self) -> Option<&str> {
        self.members().and_then(Members::method)
    }

    /// The id, if any (not checked: the core refuses a bad one when it answers).
    pub(crate) fn id(&self) -> Option<&Value> {
        self.members().and_then(|m| m.id.as_ref())
    }

    /// A request: a method and an id.
    pub(crate) fn is_request(&self) -> bool {
        self.method().is_some() && self.id().is_some()
    }

    /// A response (to a request the server sent): no method, and a result or an error.
    pub(crate) fn is_response(&self) -> bool {
        self.members().is_some_and(Members::is_response)
    }

    /// A response as an object of its `jsonrpc`, `id`, `result` or `error`.
    pub(crate) fn response_object(&self) -> Option<Map<String, Value>> {
        self.members()
            .filter(|m| m.is_response())
            .map(Members::response_object)
    }

    /// A copy of the params as one map, if they are an object (`_meta` apart).
    pub(crate) fn params_map(&self) -> Option<Map<String, Value>> {
        match self.members()?.params.as_ref()? {
            ParamsMember::Object(params) => Some(params.clone().into_map()),
            ParamsMember::Other(_) => None,
        }
    }

    /// A JSON-RPC 2.0 object whose id, if any, is a string or an integer.
    pub(crate) fn is_well_formed(&self) -> bool {
        self.members().is_some_and(|m| {
            m.jsonrpc
                && m.id
                    .as_ref()
                    .is_none_or(|id| id.is_string() || id.is_i64() || id.is_u64())
        })
    }

    /// Whether `params._meta` names a protocol version or client capabilities: the mark of a
    /// 2026-07-28 message (DIGEST §0), whatever its method.
    pub(crate) fn names_modern_era(&self) -> bool {
        match self.members().and_then(|m| m.params_meta.as_ref()) {
            Some(MetaMember::Object(parts)) => {
                parts.protocol_version.is_some() || parts.capabilities.is_some()
            }
            _ => false,
        }
    }
}

/// What a well-formed message says that a transport's header rules compare with its headers
/// (SEP-2243), read by the core so that no transport reads the body. Read on demand: a
/// transport without such rules (stdio) pays for none of it.
#[derive(Debug, Clone, Copy)]
#[cfg_attr(
    not(feature = "http"),
    allow(dead_code, reason = "the HTTP transport routes on them")
)]
pub(crate) struct Said<'m> {
    /// A request (else a notification).
    pub(crate) is_request: bool,
    pub(crate) method: &'m str,
    params: Option<&'m Params>,
    meta: Option<&'m MetaMember>,
}

#[cfg_attr(
    not(feature = "http"),
    allow(dead_code, reason = "the HTTP transport routes on them")
)]
impl<'m> Said<'m> {
    /// What `params` (without their `_meta`) and `params._meta` say of a message of `method`.
    pub(crate) fn of(
        is_request: bool,
        method: &'m str,
        params: Option<&'m Params>,
        meta: Option<&'m MetaMember>,
    ) -> Said<'m> {
        Said {
            is_request,
            method,
            params,
            meta,
        }
    }

    /// `params._meta`: `Err` when it is there but not an object.
    pub(crate) fn meta(&self) -> Result<(), ProtocolError> {
        match self.meta {
            Some(MetaMember::Other(_)) => Err(ProtocolError::MetaNotObject),
            _ => Ok(()),
        }
    }

    /// `params._meta`'s protocol version, if it names one as a string.
    pub(crate) fn version(&self) -> Option<&'m str> {
        self.meta.and_then(MetaMember::parts)?.version()
    }

    /// Whether `params._meta` carries client capabilities (an object).
    pub(crate) fn capabilities(&self) -> bool {
        match self.meta {
            Some(MetaMember::Object(parts)) => parts
                .capabilities
                .as_ref()
                .is_some_and(Capabilities::is_object),
            _ => false,
        }
    }

    /// What the method's params name: a tool's or prompt's `name`, a resource's `uri`, a
    /// task's `taskId` (`Some(None)`: the method names one, the params do not).
    pub(crate) fn named(&self) -> Option<Option<&'m str>> {
        let field = match self.method {
            "tools/call" | "prompts/get" => "name",
            "resources/read" => "uri",
            // The tasks extension (SEP-2663) names the task.
            "tasks/get" | "tasks/update" | "tasks/cancel" => "taskId",
            _ => return None,
        };
        Some(
            self.params
                .and_then(|p| p.get(field))
                .and_then(Value::as_str),
        )
    }
}

//! A request that passed the envelope checks: its id, method, params, era and what its
//! `_meta` said; and what beginning it makes (its context, registered with the session).

use std::sync::Arc;

use serde_json::Value;

use super::door::Door;
use super::session::Registration;
use super::session::Session;
use crate::ask::{Round, RoundError};
use crate::context::{Client, Context, LogLevel, Outbox, Parts as ContextParts};
use crate::error::ProtocolError;
use crate::json::Sparse;
use crate::params::Params;
use crate::revision::Revision;
use crate::schemagen::SchemaProfile;
use crate::server::Server;

/// How a request chose its revision.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Era {
    /// No `params._meta`: served legacy-shaped (stdio's tracked-not-enforced session).
    Bare,
    /// `params._meta` named this revision.
    Named(Revision),
}

impl Era {
    pub(crate) fn revision(self) -> Option<Revision> {
        match self {
            Era::Bare => None,
            Era::Named(r) => Some(r),
        }
    }

    pub(crate) fn is_stateless(self) -> bool {
        self.revision().is_some_and(Revision::is_stateless)
    }
}

/// A request that passed the envelope checks.
pub(crate) struct Request<'a> {
    /// The id, which the door keeps to answer with.
    pub(crate) id: &'a Value,
    pub(crate) method: &'a str,
    /// The params, where the door read them (a method takes out what it keeps).
    pub(crate) params: &'a mut Params,
    pub(crate) era: Era,
    pub(crate) session: &'a Session,
    /// The transport's rules at the steps where they interleave.
    pub(crate) door: &'a dyn Door,
    /// `params._meta` less the keys read into the fields below.
    pub(crate) meta: Sparse,
    /// The client's capabilities, when the request carries them (2026-07-28).
    /// A `Sparse`: most requests send `{}`, and an empty map's drop still walks it.
    pub(crate) client_capabilities: Option<Sparse>,
    pub(crate) client_info: Option<Value>,
    pub(crate) progress_token: Option<Value>,
    /// The lowest level this request is sent logs at, if any.
    pub(crate) log_level: Option<LogLevel>,
    /// The multi-round-trip round, for the methods that may ask the client (2026-07-28).
    /// Boxed, as `begun` is: the request is moved along every method's path, and a round
    /// (some 270 bytes) is there only for an item that may ask.
    pub(crate) round: Option<Box<Round>>,
    /// The context begun before the host's middleware ran (its round opened then, on the
    /// params as sent): the method takes it rather than beginning its own.
    /// Boxed: the request is moved along every method's path, and this is rarely there.
    pub(crate) begun: Option<Box<Begun>>,
}

/// A request's context (which its exchange shares), registered with its session.
pub(crate) struct Begun {
    pub(crate) context: Context,
    pub(crate) registration: Option<Registration>,
    /// Not registered yet: the transport does it if the request goes on
    /// ([`Door::registers_late`]).
    pub(crate) late: bool,
}

impl<'a> Request<'a> {
    /// A request that passed the envelope checks, with what its `_meta` said.
    #[inline(always)]
    pub(super) fn new(
        id: &'a Value,
        method: &'a str,
        params: &'a mut Params,
        meta: Meta,
        session: &'a Session,
        door: &'a dyn Door,
    ) -> Self {
        Request {
            id,
            method,
            params,
            era: meta.era,
            session,
            door,
            meta: meta.rest,
            client_capabilities: meta.client_capabilities,
            client_info: meta.client_info,
            progress_token: meta.progress_token,
            log_level: meta.log_level,
            round: None,
            begun: None,
        }
    }

    /// The form of the tools' input schemas this request's client is shown: by its
    /// `clientInfo.name` (this request's at 2026-07-28, the session's at 2025-11-25).
    pub(crate) fn schema_profile(&self, server: &Server) -> SchemaProfile {
        let profiles = &server.inner.schema_profiles;
        if profiles.is_uniform() {
            return profiles.default;
        }
        let name_of = |info: Option<&Value>| {
            profiles.for_client(info.and_then(|i| i.get("name")).and_then(Value::as_str))
        };
        if self.era.is_stateless() {
            name_of(self.client_info.as_ref())
        } else {
            let hello = self.session.hello();
            name_of(hello.as_ref().and_then(|h| h.info.as_ref()))
        }
    }

    /// The request's context. It gets a notification queue when the request asked for progress
    /// or logs, or its 2025-11-25 session sends logs to an item that can emit (`emits`: it
    /// takes a context); any other request takes a path with no per-request queue.
    pub(crate) fn begin(&mut self, server: &Server, emits: bool) -> Begun {
        let streams = self.streams(emits);
        self.begin_with(server, streams)
    }

    /// Whether [`begin`](Self::begin) gives the request a notification queue: it asked for
    /// notifications itself (over HTTP: an event stream, even if its item sends none), or its
    /// session sends logs and the item can log, or its session's client can be asked.
    pub(crate) fn streams(&self, emits: bool) -> bool {
        let asked =
            self.progress_token.is_some() || (self.era.is_stateless() && self.log_level.is_some());
        let session_logs = !self.era.is_stateless() && emits && self.log_level.is_some();
        asked || session_logs || self.may_ask_session(emits)
    }

    /// A 2025-11-25 request to an item that takes a context, on a session whose client can be
    /// asked something: its asks go out as requests on the request's stream.
    fn may_ask_session(&self, emits: bool) -> bool {
        !self.era.is_stateless()
            && emits
            && self.session.hello().is_some_and(|hello| {
                hello.capabilities.as_ref().is_some_and(|c| {
                    ["elicitation", "sampling", "roots"]
                        .iter()
                        .any(|k| c.contains_key(*k))
                })
            })
    }

    /// Opens the round of a request to a method whose host code may ask the client (2026-07-28
    /// only): takes `inputResponses` and `requestState` out of the params, checking the state.
    /// Called before any other field is taken, since the state binds the params as sent.
    ///
    /// `may_ask`: the item takes a context. An item that cannot ask gets a round only when the
    /// request carries round fields (to check them), so a plain call pays for no digest.
    pub(crate) fn open_round(
        &mut self,
        server: &Server,
        may_ask: bool,
    ) -> Result<(), ProtocolError> {
        if self.begun.is_some() {
            return Ok(());
        }
        // Both are among the params' other members, never a field.
        let carries = || {
            let rest = &self.params.rest;
            rest.contains_key("requestState") || rest.contains_key("inputResponses")
        };
        if self.era.is_stateless() && (may_ask || carries()) {
            let principal = self.session.principal().map(|p| p.digest());
            let round = Round::take(
                &server.inner.state_keys,
                self.method,
                self.params,
                principal,
            )
            .map_err(|error| match error {
                RoundError::State(state) => ProtocolError::RequestState(state),
                RoundError::ResponsesNotObject => ProtocolError::InputResponsesNotObject,
            })?;
            self.round = Some(Box::new(round));
        }
        Ok(())
    }

    /// The context of a request that always streams (a subscription).
    pub(crate) fn begin_stream(&mut self, server: &Server) -> Begun {
        self.begin_with(server, true)
    }

    pub(crate) fn begin_with(&mut self, server: &Server, streams: bool) -> Begun {
        if let Some(begun) = self.begun.take() {
            return *begun;
        }
        let outbox = streams.then(|| Arc::new(Outbox::new(server.inner.limits.notification_queue)));
        let client_requests =
            (!self.era.is_stateless() && outbox.is_some() && self.session.hello().is_some())
                .then(|| Arc::clone(self.session.client_requests()));
        let client = if self.era.is_stateless() {
            Client::Request {
                info: self.client_info.take(),
                capabilities: self.client_capabilities.take().map(Sparse::into_inner),
            }
        } else {
            Client::Session(self.session.hello())
        };
        let context = Context::from_parts(ContextParts {
            revision: self.era.revision(),
            meta: std::mem::take(&mut self.meta).into_inner(),
            client,
            principal: self.session.principal(),
            progress_token: self.progress_token.take(),
            log_level: self.log_level,
            outbox,
            round: self.round.take(),
            client_requests,
            ask_time_limit: server.inner.limits.ask_time_limit,
        });
        let late = self.door.registers_late();
        let registration = if late {
            None
        } else {
            self.session.register(self.id, &context)
        };
        Begun {
            context,
            registration,
            late,
        }
    }
}

/// What `params._meta` said.
pub(super) struct Meta {
    pub(super) era: Era,
    pub(super) rest: Sparse,
    pub(super) client_capabilities: Option<Sparse>,
    pub(super) client_info: Option<Value>,
    pub(super) progress_token: Option<Value>,
    pub(super) log_level: Option<LogLevel>,
}

impl Meta {
    /// What a request with no `_meta` said: its era and log level, nothing else.
    pub(super) fn bare((era, log_level): (Era, Option<LogLevel>)) -> Meta {
        Meta {
            era,
            rest: Sparse::default(),
            client_capabilities: None,
            client_info: None,
            progress_token: None,
            log_level,
        }
    }
}

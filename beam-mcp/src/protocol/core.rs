//! The pure core: one message in, a reply out. No sockets, no threads of its own.
//!
//! The order of the checks below is the semantics (see `docs/wire.md`).

use serde_json::{Map, Value};

use super::answer::{Answer, Body, Ended};
use super::door::{Bare, Door};
use super::envelope::{Envelope, Said};
use super::exchange::{Answerer, Exchange};
use super::methods;
use super::request::{Era, Meta, Request};
use super::top::{self, Capabilities, Members, MetaMember, MetaParts, ParamsMember, Text};
use super::{Logged, META_LOG_LEVEL, ProtocolError, Reply, Response, Revision, Session};
use crate::context::LogLevel;
use crate::json::{self, kind_name};
use crate::params::Params;
use crate::server::Server;

impl Server {
    /// Handles one message given as bytes (at most 1 MiB): reads it with the bounded JSON
    /// reader, then
    /// answers as [`handle_value`](Self::handle_value) does.
    ///
    /// ```
    /// # async fn demo() {
    /// let server = beam_mcp::Server::builder().build().unwrap();
    /// let session = beam_mcp::protocol::Session::new();
    /// let reply = server.handle(&session, b"[1]").resolve().await.unwrap();
    /// assert_eq!(reply.to_value()["error"]["code"], -32600);
    /// # }
    /// ```
    pub fn handle(&self, session: &Session, bytes: &[u8]) -> Reply {
        self.handle_through(session, bytes, &Bare)
    }

    /// [`handle`](Self::handle) for a transport that reads one message at a time: a request
    /// that goes on running is registered with `session` by the transport
    /// ([`Exchange::register`]) before it reads the next message. `in_place`: the transport
    /// holds a slot for the message's host code and nothing waits for one, so host code may
    /// be polled here, once.
    #[cfg(feature = "stdio")]
    pub(crate) fn handle_in_turn(&self, session: &Session, bytes: &[u8], in_place: bool) -> Reply {
        self.handle_through(session, bytes, &super::door::Sequential { in_place })
    }

    /// [`handle`](Self::handle) with a transport's rules.
    pub(crate) fn handle_through(&self, session: &Session, bytes: &[u8], door: &dyn Door) -> Reply {
        // Transports bound their reads; the core holds the same bound for hosts calling it directly.
        if bytes.len() > json::MAX_MESSAGE_BYTES {
            return ready_error(None, ProtocolError::TooLarge, None);
        }
        // Read where it lies and handed on (not an `Envelope` returned): each move of a
        // message's members is a copy of some 400 bytes.
        let mut members = Members {
            arguments_as_value: self.inner.middleware.is_some(),
            ..Members::default()
        };
        match top::read_into(bytes, &mut members) {
            Ok(None) => self.handle_members(session, &mut members, door),
            Ok(Some(other)) => refuse_not_an_object(&other),
            Err(error) => Reply::Ready(Response::error(None, error.into(), None)),
        }
    }

    /// A message a transport read with [`Envelope::read`] (and routed on), answered as
    /// [`handle`](Self::handle) does.
    #[cfg_attr(not(feature = "http"), allow(dead_code, reason = "HTTP reads first"))]
    pub(crate) fn handle_envelope(
        &self,
        session: &Session,
        mut envelope: Envelope,
        door: &dyn Door,
    ) -> Reply {
        match envelope.other {
            None => self.handle_members(session, &mut envelope.members, door),
            Some(other) => refuse_not_an_object(&other),
        }
    }

    /// Handles one decoded message. Notifications are never answered; a request is answered
    /// now, or after its host code has run ([`Reply::Pending`]).
    pub fn handle_value(&self, session: &Session, message: Value) -> Reply {
        self.handle_value_through(session, message, &Bare)
    }

    /// [`handle_value`](Self::handle_value) with a transport's rules.
    pub(crate) fn handle_value_through(
        &self,
        session: &Session,
        message: Value,
        door: &dyn Door,
    ) -> Reply {
        match message {
            Value::Object(map) => self.handle_members(session, &mut Members::of(map), door),
            other => refuse_not_an_object(&other),
        }
    }

    /// The envelope's checks, in their order, on a message's top-level members.
    /// Taken by reference, its members taken out one by one: the whole is never copied.
    fn handle_members(&self, session: &Session, message: &mut Members, door: &dyn Door) -> Reply {
        let (jsonrpc_ok, top_meta) = (message.jsonrpc, message.meta);
        let (id, method) = (message.id.take(), message.method.take());
        // The params and their `_meta` are read where they lie, their fields taken out one by
        // one: moving the whole is a copy of some 300 bytes.
        let Members {
            params,
            params_meta,
            result,
            error,
            ..
        } = message;
        // What the telemetry of a refused message reads (its `_meta`, as sent but for the
        // members the core takes apart).
        let meta_parts = params_meta.as_ref().and_then(MetaMember::parts);
        // A request id is a string or an integer; anything else cannot be echoed validly.
        if id
            .as_ref()
            .is_some_and(|id| !(id.is_string() || id.is_i64() || id.is_u64()))
        {
            return ready_error(None, ProtocolError::InvalidRequest, None);
        }
        // A response from the client to a request the server sent (2025-11-25 asks): delivered
        // to whoever waits for it, never answered.
        if jsonrpc_ok
            && door.accepts_responses()
            && method.is_none()
            && (result.is_some() || error.is_some())
            && let Some(id) = &id
        {
            if !session
                .client_requests()
                .answer(id, result.as_ref(), error.as_ref())
            {
                tracing::debug!(id = %Logged(&id.to_string()), "a response nobody waits for");
            }
            return Reply::Silent;
        }
        let method = match method.map(Text::into_string) {
            Some(Ok(method)) if jsonrpc_ok => method,
            method => {
                if let Some(Ok(method)) = &method {
                    let error = ProtocolError::InvalidRequest;
                    self.refused_before_seam(
                        session,
                        door,
                        method,
                        id.as_ref(),
                        meta_parts,
                        &error,
                    );
                }
                return match id {
                    Some(id) => ready_error(Some(id), ProtocolError::InvalidRequest, None),
                    None if door.refuses_non_messages() => {
                        ready_error(None, ProtocolError::InvalidRequest, None)
                    }
                    None => Reply::Silent,
                };
            }
        };
        let refuse = |error: ProtocolError| {
            self.refused_before_seam(session, door, &method, id.as_ref(), meta_parts, &error);
            match &id {
                Some(id) => ready_error(Some(id.clone()), error, None),
                None if door.refuses_non_messages() => ready_error(None, error, None),
                None => Reply::Silent,
            }
        };
        if top_meta {
            return refuse(ProtocolError::TopLevelMeta);
        }
        let params = match params {
            None => None,
            Some(ParamsMember::Object(params)) => Some(params),
            Some(ParamsMember::Other(_)) => return refuse(ProtocolError::ParamsNotObject),
        };
        if matches!(&*method, "shutdown" | "exit") && !door.has_session_control() {
            let error = ProtocolError::MethodNotFound(method.to_string());
            self.refused_before_seam(session, door, &method, id.as_ref(), meta_parts, &error);
            return match id {
                Some(id) => ready_error(Some(id), error, None),
                None => Reply::Silent,
            };
        }
        let said = Said::of(
            id.is_some(),
            &method,
            params.as_deref(),
            params_meta.as_ref(),
        );
        if let Err(error) = door.check_message(said) {
            return refuse(error);
        }
        let Some(id) = id else {
            // Its span ends once the core has acted on it.
            #[cfg(feature = "otel")]
            let _span = self.inner.telemetry.as_ref().map(|telemetry| {
                let agreed = session.hello().and_then(|h| h.version);
                telemetry.notification(&method, sent_meta(meta_parts), door.via(), agreed)
            });
            return self.notification(session, &method, params.as_deref(), meta_parts);
        };
        // Made only for a request without params (an unused one is still dropped).
        let mut no_params = None;
        let params = match params {
            Some(params) => params,
            None => no_params.insert(Params::default()),
        };
        let meta = match self.meta(params_meta.as_mut(), session) {
            Ok(meta) => meta,
            Err(error) => {
                let parts = params_meta.as_ref().and_then(MetaMember::parts);
                self.refused_before_seam(session, door, &method, Some(&id), parts, &error);
                return ready_error(Some(id), error, None);
            }
        };
        let era = meta.era;
        let mut request = Request::new(&id, &method, params, meta, session, door);
        // `exit` ends the connection and is never answered: no rule runs around it.
        let answer = match &self.inner.middleware {
            Some(chain) if method != "exit" => self.around(session, request, chain),
            _ => self.route(session, &mut request),
        };
        self.reply(id, era, answer)
    }

    /// The one place a request is answered: now, or once its host work has run (its exchange
    /// sharing the context the method began).
    fn reply(&self, id: Value, era: Era, answer: Answer) -> Reply {
        match answer {
            Answer::Silent => Reply::Silent,
            Answer::Now(outcome) => Reply::Ready(self.respond(id, era, outcome.map(Body::Value))),
            // Its context (and any registration) ends with the answer.
            Answer::Ended(_begun, ended) => Reply::Ready(self.respond(id, era, ended)),
            Answer::Run(begun, work) => {
                let answerer = Answerer {
                    server: self.clone(),
                    id,
                    era,
                };
                Reply::Pending(Exchange::new(work, answerer, begun))
            }
        }
    }

    /// Reads `params._meta` (read apart), deciding the request's revision (DIGEST §0): it is
    /// 2026-07-28 exactly when `_meta` names a protocol version or client capabilities; a
    /// `_meta` naming neither (a 2025-11-25 client's `progressToken`) is legacy. The parts
    /// are taken out where they were read, and only once checked: a refusal's telemetry reads
    /// them as sent.
    fn meta(
        &self,
        meta: Option<&mut MetaMember>,
        session: &Session,
    ) -> Result<Meta, ProtocolError> {
        let parts = match meta {
            None => {
                return self
                    .check_meta(&MetaParts::default(), session)
                    .map(Meta::bare);
            }
            Some(MetaMember::Object(parts)) => parts,
            Some(MetaMember::Other(_)) => return Err(ProtocolError::MetaNotObject),
        };
        let (era, log_level) = self.check_meta(parts, session)?;
        let mut rest = std::mem::take(&mut parts.rest);
        // A legacy request's `_meta` keeps a level it names (it means nothing there).
        if !era.is_stateless()
            && let Some(level) = parts.log_level.take()
        {
            rest.insert(META_LOG_LEVEL.into(), level);
        }
        Ok(Meta {
            era,
            rest,
            client_capabilities: match parts.capabilities.take() {
                Some(Capabilities::Object(capabilities)) => Some(capabilities),
                _ => None,
            },
            client_info: parts.client_info.take(),
            progress_token: parts.progress_token.take(),
            log_level,
        })
    }

    /// The era `_meta` names and the level its request logs at, or why it is refused.
    fn check_meta(
        &self,
        meta: &MetaParts,
        session: &Session,
    ) -> Result<(Era, Option<LogLevel>), ProtocolError> {
        let version = meta.protocol_version.as_ref();
        let era = if version.is_some() || meta.capabilities.is_some() {
            let Some(requested) = version.and_then(Text::as_str) else {
                return Err(ProtocolError::MetaLacksVersion);
            };
            let revision = Revision::parse(requested)
                .filter(|r| self.inner.revisions.contains(r))
                .ok_or_else(|| self.unsupported(requested))?;
            Era::Named(revision)
        } else {
            Era::Bare
        };
        if era.is_stateless()
            && !meta
                .capabilities
                .as_ref()
                .is_some_and(Capabilities::is_object)
        {
            return Err(ProtocolError::MetaLacksCapabilities);
        }
        if let Some(token) = &meta.progress_token
            && !(token.is_string() || token.is_i64() || token.is_u64())
        {
            return Err(ProtocolError::ProgressToken);
        }
        // 2026-07-28: logs only when this request names a level. A legacy session: every level
        // until `logging/setLevel` says otherwise.
        let log_level = if era.is_stateless() {
            match &meta.log_level {
                None => None,
                Some(Value::String(level)) => Some(
                    level
                        .parse::<LogLevel>()
                        .map_err(|_| ProtocolError::LogLevel(level.clone()))?,
                ),
                Some(other) => return Err(ProtocolError::LogLevel(other.to_string())),
            }
        } else {
            Some(session.log_level())
        };
        Ok((era, log_level))
    }

    pub(crate) fn unsupported(&self, requested: &str) -> ProtocolError {
        ProtocolError::UnsupportedVersion {
            supported: self.inner.supported_names.clone(),
            requested: requested.to_owned(),
        }
    }

    /// A message refused before the seam is an operation too: with telemetry on, it gets its
    /// span and its duration, named by its method (a message naming none is not an operation).
    #[inline]
    fn refused_before_seam(
        &self,
        session: &Session,
        door: &dyn Door,
        method: &str,
        id: Option<&Value>,
        meta: Option<&MetaParts>,
        error: &ProtocolError,
    ) {
        #[cfg(feature = "otel")]
        if let Some(telemetry) = &self.inner.telemetry {
            let agreed = session.hello().and_then(|h| h.version);
            telemetry.refused(method, id, sent_meta(meta), door.via(), agreed, error);
        }
        #[cfg(not(feature = "otel"))]
        let _ = (session, door, method, id, meta, error);
    }

    fn notification(
        &self,
        session: &Session,
        method: &str,
        params: Option<&Params>,
        meta: Option<&MetaParts>,
    ) -> Reply {
        match method {
            "notifications/initialized" => {
                // Only a session (no modern `_meta`) tracks the handshake.
                let modern = meta
                    .and_then(MetaParts::version)
                    .and_then(Revision::parse)
                    .is_some_and(Revision::is_stateless);
                if !modern {
                    session.mark_initialized();
                }
            }
            "exit" => session.close(),
            "notifications/cancelled" => {
                // An unknown or finished id is ignored, as the spec allows.
                if let Some(id) = params.and_then(|p| p.get("requestId")) {
                    session.cancel(id);
                }
            }
            _ => {}
        }
        Reply::Silent
    }

    /// The method table: a request that passed the envelope checks (and the host's
    /// middleware, if any) to its method.
    pub(crate) fn route(&self, session: &Session, request: &mut Request<'_>) -> Answer {
        let era = request.era;
        let stateless = era.is_stateless();
        let serves = self.inner.serves;
        let outcome = match request.method {
            "server/discover" => {
                // Always the stateless shape: on stdio it is the era probe.
                let mut result = methods::discover(self);
                self.decorate(&mut result);
                return Answer::Now(Ok(result));
            }
            "initialize" if !stateless => methods::initialize(self, session, request.params),
            "ping" if !stateless => Ok(Value::Object(Map::new())),
            "logging/setLevel" if !stateless && serves.logging => {
                methods::set_level(session, request.params)
            }
            "shutdown" => {
                session.close();
                Ok(Value::Object(Map::new()))
            }
            "exit" => {
                session.close();
                return Answer::Silent;
            }
            "tools/list" if serves.tools => {
                methods::list_tools(self, request.params, era, request.schema_profile(self))
            }
            "tools/call" if serves.tools => {
                return methods::call_tool(self, request);
            }
            "resources/list" if serves.resources => {
                methods::list_resources(self, request.params, era)
            }
            "resources/templates/list" if serves.resources => {
                methods::list_templates(self, request.params, era)
            }
            "resources/read" if serves.resources => {
                return methods::read_resource(self, request);
            }
            "prompts/list" if serves.prompts => methods::list_prompts(self, request.params, era),
            "prompts/get" if serves.prompts => {
                return methods::get_prompt(self, request);
            }
            "skills/list" if self.has_extension(crate::skill::EXTENSION) => {
                methods::list_skills(self, request.params, era)
            }
            "skills/get" if self.has_extension(crate::skill::EXTENSION) => {
                methods::get_skill(self, request.params, era)
            }
            "resources/directory/read" if self.has_extension(crate::skill::EXTENSION) => {
                methods::read_directory(self, request.params, era)
            }
            "completion/complete" if serves.completions => {
                return methods::complete(self, request);
            }
            "subscriptions/listen" if stateless && self.live().is_some() => {
                return methods::listen(self, request);
            }
            "tasks/get" if stateless && self.has_tasks() => {
                return methods::get_task(self, request);
            }
            "tasks/update" if stateless && self.has_tasks() => {
                return methods::update_task(self, request);
            }
            "tasks/cancel" if stateless && self.has_tasks() => {
                return methods::cancel_task(self, request);
            }
            "resources/subscribe" if !stateless && self.live().is_some() => {
                methods::subscribe(session, request.params, true)
            }
            "resources/unsubscribe" if !stateless && self.live().is_some() => {
                methods::subscribe(session, request.params, false)
            }
            other => Err(ProtocolError::MethodNotFound(other.to_owned())),
        };
        Answer::Now(outcome)
    }

    /// True when some tool can become a task (the tasks extension is advertised).
    fn has_tasks(&self) -> bool {
        self.has_extension(crate::task::EXTENSION)
    }

    /// True when the server declares the extension `name` at 2026-07-28 (`server/discover`).
    fn has_extension(&self, name: &str) -> bool {
        self.inner
            .discover_capabilities
            .get("extensions")
            .and_then(|e| e.get(name))
            .is_some()
    }

    /// The response, with a stateless result stamped with `resultType` and serverInfo `_meta`.
    pub(crate) fn respond(&self, id: Value, era: Era, outcome: Ended) -> Response {
        match outcome {
            Ok(result) if era.is_stateless() => {
                Response::stamped(id, result, &self.inner.result_stamp)
            }
            Ok(result) => Response::of(Some(id), result),
            Err(error) => Response::error(Some(id), error, era.revision()),
        }
    }

    pub(crate) fn decorate(&self, result: &mut Value) {
        self.inner.result_stamp.apply(result);
    }
}

/// A message that is no object: a batch (refused as such), or a scalar.
fn refuse_not_an_object(message: &Value) -> Reply {
    match message {
        Value::Array(_) => ready_error(None, ProtocolError::Batch, None),
        other => ready_error(None, ProtocolError::NotAnObject(kind_name(other)), None),
    }
}

fn ready_error(id: Option<Value>, error: ProtocolError, revision: Option<Revision>) -> Reply {
    Reply::Ready(Response::error(id, error, revision))
}

/// What the telemetry reads of a `_meta` the core took apart.
#[cfg(feature = "otel")]
fn sent_meta(parts: Option<&MetaParts>) -> crate::telemetry::SentMeta<'_> {
    crate::telemetry::SentMeta {
        rest: parts.map(|p| &*p.rest),
        version: parts.and_then(MetaParts::version),
    }
}

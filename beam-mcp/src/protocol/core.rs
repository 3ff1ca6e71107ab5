//! The pure core: one message in, a reply out. No sockets, no threads of its own.
//!
//! The order of the checks below is the semantics (see `docs/wire.md`).

use serde_json::{Map, Value};

use super::methods;
use super::{
    META_CLIENT_CAPABILITIES, META_PROTOCOL_VERSION, ProtocolError, Reply, Response, Revision,
    Session,
};
use crate::Server;
use crate::json::{self, kind_name};

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
    pub(crate) id: Value,
    pub(crate) method: &'a str,
    pub(crate) params: Map<String, Value>,
    pub(crate) era: Era,
    /// The client's capabilities, when the request carries them (2026-07-28).
    pub(crate) client_capabilities: Option<Map<String, Value>>,
}

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
        // Transports bound their reads; the core holds the same bound for hosts calling it directly.
        if bytes.len() > json::MAX_MESSAGE_BYTES {
            return ready_error(None, ProtocolError::TooLarge, None);
        }
        match json::read(bytes) {
            Ok(value) => self.handle_value(session, value),
            Err(error) => Reply::Ready(Response::error(None, error.into(), None)),
        }
    }

    /// Handles one decoded message. Notifications are never answered; a request is answered
    /// now, or after its host code has run ([`Reply::Pending`]).
    pub fn handle_value(&self, session: &Session, message: Value) -> Reply {
        let mut message = match message {
            Value::Object(map) => map,
            Value::Array(_) => return ready_error(None, ProtocolError::Batch, None),
            other => return ready_error(None, ProtocolError::NotAnObject(kind_name(&other)), None),
        };
        let id = message.remove("id");
        let jsonrpc_ok = message.get("jsonrpc").and_then(Value::as_str) == Some("2.0");
        let Some(id) = id else {
            return match (jsonrpc_ok, message.get("method").and_then(Value::as_str)) {
                (true, Some(method)) => self.notification(session, method, &message),
                _ => Reply::Silent,
            };
        };
        // A request id is a string or an integer; anything else cannot be echoed validly.
        if !(id.is_string() || id.is_i64() || id.is_u64()) {
            return ready_error(None, ProtocolError::InvalidRequest, None);
        }
        if !jsonrpc_ok || !message.get("method").is_some_and(Value::is_string) {
            return ready_error(Some(id), ProtocolError::InvalidRequest, None);
        }
        if message.contains_key("_meta") {
            return ready_error(Some(id), ProtocolError::TopLevelMeta, None);
        }
        let Some(Value::String(method)) = message.remove("method") else {
            return ready_error(Some(id), ProtocolError::InvalidRequest, None);
        };
        let mut params = match message.remove("params") {
            None => Map::new(),
            Some(Value::Object(params)) => params,
            Some(_) => return ready_error(Some(id), ProtocolError::ParamsNotObject, None),
        };
        let (era, client_capabilities) = match self.era(&mut params) {
            Ok(found) => found,
            Err(error) => return ready_error(Some(id), error, None),
        };
        let request = Request {
            id,
            method: &method,
            params,
            era,
            client_capabilities,
        };
        self.request(session, request)
    }

    /// Reads and removes `params._meta`, deciding the request's revision; keeps the client's
    /// capabilities when it names them.
    fn era(
        &self,
        params: &mut Map<String, Value>,
    ) -> Result<(Era, Option<Map<String, Value>>), ProtocolError> {
        let mut meta = match params.remove("_meta") {
            None => return Ok((Era::Bare, None)),
            Some(Value::Object(meta)) => meta,
            Some(_) => return Err(ProtocolError::MetaNotObject),
        };
        let Some(Value::String(requested)) = meta.get(META_PROTOCOL_VERSION) else {
            return Err(ProtocolError::MetaLacksVersion);
        };
        let revision = Revision::parse(requested)
            .filter(|r| self.inner.revisions.contains(r))
            .ok_or_else(|| self.unsupported(requested))?;
        let capabilities = match meta.remove(META_CLIENT_CAPABILITIES) {
            Some(Value::Object(capabilities)) => Some(capabilities),
            _ if revision.is_stateless() => return Err(ProtocolError::MetaLacksCapabilities),
            _ => None,
        };
        Ok((Era::Named(revision), capabilities))
    }

    pub(crate) fn unsupported(&self, requested: &str) -> ProtocolError {
        ProtocolError::UnsupportedVersion {
            supported: self.inner.supported_names.clone(),
            requested: requested.to_owned(),
        }
    }

    fn notification(&self, session: &Session, method: &str, message: &Map<String, Value>) -> Reply {
        match method {
            "notifications/initialized" => {
                // Only a session (no modern `_meta`) tracks the handshake.
                let modern = message
                    .get("params")
                    .and_then(|p| p.get("_meta"))
                    .and_then(|m| m.get(META_PROTOCOL_VERSION))
                    .and_then(Value::as_str)
                    .and_then(Revision::parse)
                    .is_some_and(Revision::is_stateless);
                if !modern {
                    session.mark_initialized();
                }
            }
            "exit" => session.close(),
            _ => {}
        }
        Reply::Silent
    }

    fn request(&self, session: &Session, request: Request<'_>) -> Reply {
        let era = request.era;
        let stateless = era.is_stateless();
        let outcome = match request.method {
            "server/discover" => {
                // Always the stateless shape: on stdio it is the era probe.
                let mut result = methods::discover(self);
                self.decorate(&mut result);
                return Reply::Ready(Response::result(Some(request.id), result));
            }
            "initialize" if !stateless => methods::initialize(self, session, &request.params),
            "ping" if !stateless => Ok(Value::Object(Map::new())),
            "shutdown" => {
                session.close();
                Ok(Value::Object(Map::new()))
            }
            "exit" => {
                session.close();
                return Reply::Silent;
            }
            "tools/list" if self.has_capability("tools") => {
                methods::list_tools(self, &request.params)
            }
            "tools/call" if self.has_capability("tools") => {
                return methods::call_tool(self, request);
            }
            "resources/list" if self.has_capability("resources") => {
                methods::list_resources(self, &request.params)
            }
            "resources/templates/list" if self.has_capability("resources") => {
                methods::list_templates(self, &request.params)
            }
            "resources/read" if self.has_capability("resources") => {
                return methods::read_resource(self, request);
            }
            "prompts/list" if self.has_capability("prompts") => {
                methods::list_prompts(self, &request.params)
            }
            "prompts/get" if self.has_capability("prompts") => {
                return methods::get_prompt(self, request);
            }
            "completion/complete" if self.has_capability("completions") => {
                methods::complete(self, &request.params)
            }
            other => Err(ProtocolError::MethodNotFound(other.to_owned())),
        };
        self.ready(request.id, era, outcome)
    }

    fn has_capability(&self, name: &str) -> bool {
        self.inner.capabilities.get(name).is_some()
    }

    fn ready(&self, id: Value, era: Era, outcome: Result<Value, ProtocolError>) -> Reply {
        Reply::Ready(self.respond(id, era, outcome))
    }

    /// The response, with a stateless result stamped with `resultType` and serverInfo `_meta`.
    pub(crate) fn respond(
        &self,
        id: Value,
        era: Era,
        outcome: Result<Value, ProtocolError>,
    ) -> Response {
        match outcome {
            Ok(mut result) => {
                if era.is_stateless() {
                    self.decorate(&mut result);
                }
                Response::result(Some(id), result)
            }
            Err(error) => Response::error(Some(id), error, era.revision()),
        }
    }

    pub(crate) fn decorate(&self, result: &mut Value) {
        if let Value::Object(map) = result {
            map.insert("resultType".into(), Value::from("complete"));
            map.insert("_meta".into(), self.inner.result_meta.clone());
        }
    }
}

fn ready_error(id: Option<Value>, error: ProtocolError, revision: Option<Revision>) -> Reply {
    Reply::Ready(Response::error(id, error, revision))
}

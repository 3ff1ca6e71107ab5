//! The dev front's routing, without I/O: each line from the host or a backend in, the lines to
//! write out. The host sees one server for the whole session; behind it, each build is a
//! backend process (a generation), the newest taking new requests while an older one finishes
//! the calls it started.
//!
//! - Requests go to the newest backend, and each answer back to the host from the backend that
//!   took it; a backend with nothing left to answer is stopped once a newer one serves.
//! - A backend's own requests to the host (elicitation, sampling, roots) get ids of the front's
//!   (`beam-dev:GEN:ID`), so two generations never collide; the host's answer goes back to the
//!   one that asked, with its id.
//! - A 2025-11-25 session is replayed to each new backend (`initialize`, `initialized`, the log
//!   level, the subscriptions) before it serves, under internal ids whose answers stay here.
//! - `subscriptions/listen` (2026-07-28) is answered here: the front is the server that knows
//!   when the catalog changes, and tells each listener; a 2025-11-25 session hears
//!   `notifications/*/list_changed` unsolicited. The capabilities the host is shown say
//!   `listChanged` for each list the server has.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::{Value, json};

/// A backend's number: one per successful build, the newest serving.
pub(crate) type Generation = u64;

/// What to write where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Action {
    /// A line to the host.
    ToHost(String),
    /// A line to a backend.
    ToBackend(Generation, String),
    /// Stop a backend: it has nothing left to answer and a newer one serves.
    Stop(Generation),
}

/// Which lists changed between two builds.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Changes {
    pub(crate) tools: bool,
    pub(crate) prompts: bool,
    pub(crate) resources: bool,
}

/// A listen stream the front holds for the host (2026-07-28).
#[derive(Debug, Clone)]
struct Listener {
    /// The listen request's id, as the host sent it.
    id: Value,
    changes: Changes,
}

/// The session as the front keeps it.
#[derive(Debug, Default)]
pub(crate) struct Relay {
    /// The backend taking new requests, once a build serves.
    current: Option<Generation>,
    /// Each host request in flight (its id's JSON text) and the backend that took it.
    pending: BTreeMap<String, Generation>,
    /// The host requests answered with a rewrite of their result's capabilities.
    shown: BTreeSet<String>,
    /// Backends older than `current` still answering.
    draining: BTreeSet<Generation>,
    /// The 2025-11-25 session: `initialize`'s params, and what followed it that a new backend
    /// must hear too.
    initialize: Option<Value>,
    initialized: bool,
    log_level: Option<Value>,
    subscriptions: BTreeSet<String>,
    listeners: Vec<Listener>,
    /// The next internal id (`beam-dev-internal:N`), for the replay's requests.
    next_internal: u64,
}

/// The id of a request from backend `generation` as the host sees it.
fn front_id(generation: Generation, id: &Value) -> Value {
    Value::from(format!("beam-dev:{generation}:{id}"))
}

/// The backend and its own id for an id `front_id` made.
fn backend_id(id: &Value) -> Option<(Generation, Value)> {
    let rest = id.as_str()?.strip_prefix("beam-dev:")?;
    let (generation, original) = rest.split_once(':')?;
    Some((
        generation.parse().ok()?,
        serde_json::from_str(original).ok()?,
    ))
}

fn line(message: &Value) -> String {
    message.to_string()
}

/// A JSON-RPC error answer to `id`.
pub(crate) fn error(id: &Value, code: i64, message: &str) -> String {
    line(&json!({ "jsonrpc": "2.0", "id": id, "error": { "code": code, "message": message } }))
}

impl Relay {
    /// The backend taking new requests.
    pub(crate) fn current(&self) -> Option<Generation> {
        self.current
    }

    /// True when a 2025-11-25 session was opened (`initialize`).
    pub(crate) fn legacy(&self) -> bool {
        self.initialize.is_some()
    }

    /// A line from the host.
    pub(crate) fn host_line(&mut self, text: &str) -> Vec<Action> {
        let Ok(message) = serde_json::from_str::<Value>(text) else {
            // Not JSON: the backend answers it as any server would (a parse error).
            return self
                .current
                .map(|g| Action::ToBackend(g, text.to_owned()))
                .into_iter()
                .collect();
        };
        let method = message
            .get("method")
            .and_then(Value::as_str)
            .map(str::to_owned);
        let id = message.get("id").cloned();
        match (method.as_deref(), id) {
            (Some(method), Some(id)) => self.host_request(method, id, &message, text),
            (Some(method), None) => self.host_notification(method, &message, text),
            (None, Some(id)) => match backend_id(&id) {
                // The host's answer to a backend's request.
                Some((generation, original)) => {
                    let mut answer = message.clone();
                    answer["id"] = original;
                    vec![Action::ToBackend(generation, line(&answer))]
                }
                None => Vec::new(),
            },
            (None, None) => Vec::new(),
        }
    }

    fn host_request(
        &mut self,
        method: &str,
        id: Value,
        message: &Value,
        text: &str,
    ) -> Vec<Action> {
        let key = id.to_string();
        match method {
            "subscriptions/listen" => return self.listen(id, message),
            "initialize" => {
                self.initialize = message.get("params").cloned();
                self.shown.insert(key.clone());
            }
            "server/discover" => {
                self.shown.insert(key.clone());
            }
            "logging/setLevel" => self.log_level = message.get("params").cloned(),
            "resources/subscribe" | "resources/unsubscribe" => {
                if let Some(uri) = message.pointer("/params/uri").and_then(Value::as_str) {
                    if method == "resources/subscribe" {
                        self.subscriptions.insert(uri.to_owned());
                    } else {
                        self.subscriptions.remove(uri);
                    }
                }
            }
            _ => {}
        }
        let Some(generation) = self.current else {
            self.shown.remove(&key);
            return vec![Action::ToHost(error(
                &id,
                -32603,
                "cargo beam-mcp dev: no build of the server serves (its errors are on stderr); save a change to build it",
            ))];
        };
        self.pending.insert(key, generation);
        vec![Action::ToBackend(generation, text.to_owned())]
    }

    /// Answers `subscriptions/listen` here: acknowledged with the list changes it honours.
    fn listen(&mut self, id: Value, message: &Value) -> Vec<Action> {
        let asked = |key: &str| {
            message
                .pointer(&format!("/params/notifications/{key}"))
                .and_then(Value::as_bool)
                == Some(true)
        };
        let changes = Changes {
            tools: asked("toolsListChanged"),
            prompts: asked("promptsListChanged"),
            resources: asked("resourcesListChanged"),
        };
        let mut honoured = serde_json::Map::new();
        for (key, on) in [
            ("toolsListChanged", changes.tools),
            ("promptsListChanged", changes.prompts),
            ("resourcesListChanged", changes.resources),
        ] {
            if on {
                honoured.insert(key.into(), Value::Bool(true));
            }
        }
        let acknowledged = json!({ "jsonrpc": "2.0", "method": "notifications/subscriptions/acknowledged",
            "params": { "_meta": { beam_mcp::protocol::META_SUBSCRIPTION_ID: id }, "notifications": honoured } });
        self.listeners.push(Listener { id, changes });
        vec![Action::ToHost(line(&acknowledged))]
    }

    fn host_notification(&mut self, method: &str, message: &Value, text: &str) -> Vec<Action> {
        match method {
            "notifications/cancelled" => {
                let Some(request) = message.pointer("/params/requestId") else {
                    return Vec::new();
                };
                let before = self.listeners.len();
                self.listeners.retain(|l| &l.id != request);
                if self.listeners.len() != before {
                    return Vec::new();
                }
                match self.pending.get(&request.to_string()) {
                    Some(&generation) => vec![Action::ToBackend(generation, text.to_owned())],
                    None => Vec::new(),
                }
            }
            _ => {
                if method == "notifications/initialized" {
                    self.initialized = true;
                }
                self.current
                    .map(|g| Action::ToBackend(g, text.to_owned()))
                    .into_iter()
                    .collect()
            }
        }
    }

    /// A line from backend `generation`.
    pub(crate) fn backend_line(&mut self, generation: Generation, text: &str) -> Vec<Action> {
        let Ok(message) = serde_json::from_str::<Value>(text) else {
            return Vec::new();
        };
        let method = message.get("method").is_some();
        let Some(id) = message.get("id").cloned() else {
            // A notification: progress and logs of the calls it runs, its own list changes.
            return vec![Action::ToHost(text.to_owned())];
        };
        if method {
            let mut request = message.clone();
            request["id"] = front_id(generation, &id);
            return vec![Action::ToHost(line(&request))];
        }
        if id
            .as_str()
            .is_some_and(|i| i.starts_with("beam-dev-internal:"))
        {
            return Vec::new();
        }
        let key = id.to_string();
        if self.pending.get(&key) != Some(&generation) {
            return Vec::new();
        }
        self.pending.remove(&key);
        let mut out = Vec::new();
        if self.shown.remove(&key) {
            let mut answer = message.clone();
            if let Some(capabilities) = answer
                .pointer_mut("/result/capabilities")
                .and_then(Value::as_object_mut)
            {
                for list in ["tools", "prompts", "resources"] {
                    if let Some(Value::Object(capability)) = capabilities.get_mut(list) {
                        capability.insert("listChanged".into(), Value::Bool(true));
                    }
                }
            }
            out.push(Action::ToHost(line(&answer)));
        } else {
            out.push(Action::ToHost(text.to_owned()));
        }
        out.extend(self.stop_idle());
        out
    }

    /// Backend `generation` ended on its own: what it had not answered is answered with an
    /// error, and it serves no more.
    pub(crate) fn ended(&mut self, generation: Generation, why: &str) -> Vec<Action> {
        let lost: Vec<String> = self
            .pending
            .iter()
            .filter(|(_, g)| **g == generation)
            .map(|(k, _)| k.clone())
            .collect();
        let mut out = Vec::new();
        for key in lost {
            self.pending.remove(&key);
            self.shown.remove(&key);
            let id: Value = serde_json::from_str(&key).unwrap_or(Value::Null);
            out.push(Action::ToHost(error(
                &id,
                -32603,
                &format!("cargo beam-mcp dev: {why}"),
            )));
        }
        if self.current == Some(generation) {
            self.current = None;
        }
        self.draining.remove(&generation);
        out
    }

    /// What a new backend must hear before it serves a 2025-11-25 session: `initialize` (its
    /// answer kept here), `initialized`, the log level and each subscription.
    pub(crate) fn replay(&mut self) -> Vec<String> {
        let Some(params) = self.initialize.clone() else {
            return Vec::new();
        };
        let mut internal = |method: &str, params: Value| {
            self.next_internal += 1;
            line(
                &json!({ "jsonrpc": "2.0", "id": format!("beam-dev-internal:{}", self.next_internal),
                "method": method, "params": params }),
            )
        };
        let mut lines = vec![internal("initialize", params)];
        let level = self.log_level.clone();
        let subscriptions: Vec<String> = self.subscriptions.iter().cloned().collect();
        let mut after = Vec::new();
        if let Some(level) = level {
            after.push(internal("logging/setLevel", level));
        }
        for uri in subscriptions {
            after.push(internal("resources/subscribe", json!({ "uri": uri })));
        }
        if self.initialized {
            lines.push(line(
                &json!({ "jsonrpc": "2.0", "method": "notifications/initialized" }),
            ));
        }
        lines.extend(after);
        lines
    }

    /// Backend `generation` serves from now on; the one before finishes what it took. The host
    /// hears `changes`: each listen stream that asked, or the 2025-11-25 session.
    pub(crate) fn serve(&mut self, generation: Generation, changes: Changes) -> Vec<Action> {
        if let Some(previous) = self.current.replace(generation) {
            self.draining.insert(previous);
        }
        let mut out = self.stop_idle();
        for (kind, changed) in [
            ("tools", changes.tools),
            ("prompts", changes.prompts),
            ("resources", changes.resources),
        ] {
            if !changed {
                continue;
            }
            let method = format!("notifications/{kind}/list_changed");
            for listener in &self.listeners {
                let wants = match kind {
                    "tools" => listener.changes.tools,
                    "prompts" => listener.changes.prompts,
                    _ => listener.changes.resources,
                };
                if wants {
                    out.push(Action::ToHost(line(&json!({ "jsonrpc": "2.0", "method": method,
                        "params": { "_meta": { beam_mcp::protocol::META_SUBSCRIPTION_ID: listener.id } } }))));
                }
            }
            if self.legacy() {
                out.push(Action::ToHost(line(
                    &json!({ "jsonrpc": "2.0", "method": method }),
                )));
            }
        }
        out
    }

    /// Stops each draining backend with nothing left to answer.
    fn stop_idle(&mut self) -> Vec<Action> {
        let busy: BTreeSet<Generation> = self.pending.values().copied().collect();
        let idle: Vec<Generation> = self
            .draining
            .iter()
            .copied()
            .filter(|g| !busy.contains(g))
            .collect();
        for generation in &idle {
            self.draining.remove(generation);
        }
        idle.into_iter().map(Action::Stop).collect()
    }

    /// The listen streams' ends when the host's input ends: each answered with its result.
    pub(crate) fn close(&mut self) -> Vec<Action> {
        self.listeners
            .drain(..)
            .map(|l| Action::ToHost(line(&json!({ "jsonrpc": "2.0", "id": l.id, "result": { "resultType": "complete" } }))))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn to_host(actions: &[Action]) -> Vec<Value> {
        actions
            .iter()
            .filter_map(|a| match a {
                Action::ToHost(l) => Some(serde_json::from_str(l).unwrap()),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn a_call_is_answered_by_the_backend_that_took_it_and_the_old_one_stops_after() {
        let mut relay = Relay::default();
        let refused = relay.host_line(r#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#);
        assert_eq!(
            to_host(&refused)[0]["error"]["code"],
            -32603,
            "no build yet"
        );
        relay.serve(1, Changes::default());
        assert_eq!(
            relay.host_line(r#"{"jsonrpc":"2.0","id":2,"method":"tools/call"}"#),
            [Action::ToBackend(
                1,
                r#"{"jsonrpc":"2.0","id":2,"method":"tools/call"}"#.into()
            )]
        );
        // Build 2 serves; build 1 still owes the answer to request 2.
        assert!(
            !relay
                .serve(2, Changes::default())
                .contains(&Action::Stop(1))
        );
        assert_eq!(
            relay.host_line(r#"{"jsonrpc":"2.0","id":3,"method":"tools/list"}"#),
            [Action::ToBackend(
                2,
                r#"{"jsonrpc":"2.0","id":3,"method":"tools/list"}"#.into()
            )]
        );
        let answered = relay.backend_line(1, r#"{"jsonrpc":"2.0","id":2,"result":{}}"#);
        assert_eq!(
            answered,
            [
                Action::ToHost(r#"{"jsonrpc":"2.0","id":2,"result":{}}"#.into()),
                Action::Stop(1)
            ]
        );
        // A cancel goes where the request went.
        assert_eq!(
            relay.host_line(
                r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":3}}"#
            ),
            [Action::ToBackend(
                2,
                r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":3}}"#
                    .into()
            )]
        );
    }

    #[test]
    fn a_backends_request_to_the_host_gets_an_id_of_the_fronts_and_its_answer_goes_back() {
        let mut relay = Relay::default();
        relay.serve(4, Changes::default());
        let asked = relay.backend_line(
            4,
            r#"{"jsonrpc":"2.0","id":0,"method":"elicitation/create","params":{}}"#,
        );
        let asked = to_host(&asked);
        assert_eq!(asked[0]["id"], "beam-dev:4:0");
        let answer = relay
            .host_line(r#"{"jsonrpc":"2.0","id":"beam-dev:4:0","result":{"action":"decline"}}"#);
        assert_eq!(
            answer,
            [Action::ToBackend(
                4,
                r#"{"id":0,"jsonrpc":"2.0","result":{"action":"decline"}}"#.into()
            )]
        );
    }

    #[test]
    fn a_legacy_session_is_replayed_and_hears_list_changes() {
        let mut relay = Relay::default();
        relay.serve(1, Changes::default());
        relay.host_line(r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25"}}"#);
        let shown = relay.backend_line(
            1,
            r#"{"jsonrpc":"2.0","id":0,"result":{"capabilities":{"tools":{}}}}"#,
        );
        assert_eq!(
            to_host(&shown)[0]["result"]["capabilities"]["tools"]["listChanged"],
            true
        );
        relay.host_line(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#);
        relay.host_line(
            r#"{"jsonrpc":"2.0","id":1,"method":"logging/setLevel","params":{"level":"debug"}}"#,
        );
        let replay: Vec<Value> = relay
            .replay()
            .iter()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        let methods: Vec<&str> = replay
            .iter()
            .map(|m| m["method"].as_str().unwrap())
            .collect();
        assert_eq!(
            methods,
            [
                "initialize",
                "notifications/initialized",
                "logging/setLevel"
            ]
        );
        assert_eq!(replay[0]["params"]["protocolVersion"], "2025-11-25");
        // The replay's answers stay here.
        assert!(
            relay
                .backend_line(
                    2,
                    &format!(
                        r#"{{"jsonrpc":"2.0","id":{},"result":{{}}}}"#,
                        replay[0]["id"]
                    )
                )
                .is_empty()
        );
        let told = to_host(&relay.serve(
            2,
            Changes {
                tools: true,
                ..Changes::default()
            },
        ));
        assert_eq!(
            told,
            [json!({ "jsonrpc": "2.0", "method": "notifications/tools/list_changed" })]
        );
    }

    #[test]
    fn listen_streams_are_held_here_and_hear_what_they_asked_for() {
        let mut relay = Relay::default();
        let ack = relay.host_line(r#"{"jsonrpc":"2.0","id":"l","method":"subscriptions/listen","params":{"notifications":{"toolsListChanged":true}}}"#);
        let ack = to_host(&ack);
        assert_eq!(ack[0]["method"], "notifications/subscriptions/acknowledged");
        assert_eq!(
            ack[0]["params"]["notifications"],
            json!({ "toolsListChanged": true })
        );
        let told = to_host(&relay.serve(
            1,
            Changes {
                tools: true,
                prompts: true,
                resources: false,
            },
        ));
        assert_eq!(told.len(), 1, "tools only: {told:?}");
        assert_eq!(
            told[0]["params"]["_meta"][beam_mcp::protocol::META_SUBSCRIPTION_ID],
            "l"
        );
        assert!(relay.host_line(r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"l"}}"#).is_empty());
        assert!(
            to_host(&relay.serve(
                2,
                Changes {
                    tools: true,
                    ..Changes::default()
                }
            ))
            .is_empty()
        );
    }
}

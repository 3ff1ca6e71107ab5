//! `requestState`: what the earlier rounds of a multi-round-trip request answered, sealed so
//! that the client carries it but cannot forge or alter it, use it past its expiry, replay it
//! for another caller, another method or other parameters, or carry an answer to a question
//! other than the one it answered.
//!
//! The form is `v1.<payload>.<tag>`, both base64url without padding. The payload is JSON
//! `{"exp": unix seconds, "m": method, "d": params digest, "p": principal digest, "a": answers,
//! "q": question digests}`, where `q` names, for each key answered so far or asked in the round
//! that issued the state, a digest of the input request under that key. The expiry is set by
//! the first round and carried unchanged through the later ones, so a request's rounds all end
//! within one lifetime. The tag is HMAC-SHA256 over a domain label and the payload bytes, under
//! the server's key.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD as B64;
use hmac::{Hmac, KeyInit, Mac};
use serde_json::{Map, Value, json};
use sha2::{Digest, Sha256};

use crate::params::Params;

/// The largest `requestState` accepted or issued, in bytes.
pub(crate) const MAX_REQUEST_STATE: usize = 64 * 1024;

const VERSION: &str = "v1";
const DOMAIN: &[u8] = b"beam-mcp requestState v1\0";

/// Why a `requestState` was refused. Every case is answered -32602 and asks nothing again: a
/// client that sends a bad state must start over.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum StateError {
    /// Longer than the bound.
    #[error("requestState exceeds {MAX_REQUEST_STATE} bytes")]
    TooLarge,
    /// Not a state this server issues (wrong form or encoding).
    #[error("requestState is malformed")]
    Malformed,
    /// The tag does not verify under the current or the previous key.
    #[error("requestState failed its integrity check")]
    Forged,
    /// Issued for another caller, method or parameters.
    #[error("requestState was issued for another request")]
    Foreign,
    /// Past its expiry.
    #[error("requestState has expired")]
    Expired,
}

/// The keys a server seals states with, and how long a state lives.
#[derive(Clone)]
pub(crate) struct StateKeys {
    pub(crate) current: Vec<u8>,
    pub(crate) previous: Option<Vec<u8>>,
    pub(crate) lifetime: Duration,
}

impl StateKeys {
    /// A random key for this process (states do not survive a restart or cross replicas).
    pub(crate) fn random() -> Self {
        let mut key = vec![0u8; 32];
        // Without an entropy source nothing else here would be safe either.
        getrandom::fill(&mut key).expect("the operating system's random source");
        StateKeys {
            current: key,
            previous: None,
            lifetime: Duration::from_secs(600),
        }
    }
}

/// What a state is bound to: one caller, one method, one set of parameters.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Binding {
    pub(crate) method: String,
    pub(crate) params: [u8; 32],
    pub(crate) principal: Option<[u8; 32]>,
}

impl Binding {
    /// `params` less `inputResponses`, `requestState` and `_meta`, digested in a canonical form
    /// (keys sorted at every level), so that the same call digests alike on every replica.
    pub(crate) fn new(method: &str, params: &Params, principal: Option<[u8; 32]>) -> Self {
        let mut bytes = Vec::new();
        let mut keys: Vec<&str> = params
            .keys()
            .filter(|k| !matches!(*k, "inputResponses" | "requestState" | "_meta"))
            .collect();
        keys.sort_unstable();
        bytes.push(b'{');
        for key in keys {
            canonical(&Value::from(key), &mut bytes);
            bytes.push(b':');
            if let Some(value) = params.get(key) {
                canonical(value, &mut bytes);
            }
            bytes.push(b',');
        }
        bytes.push(b'}');
        Binding {
            method: method.to_owned(),
            params: Sha256::digest(&bytes).into(),
            principal,
        }
    }
}

fn canonical(value: &Value, out: &mut Vec<u8>) {
    match value {
        Value::Object(map) => {
            let mut keys: Vec<&String> = map.keys().collect();
            keys.sort();
            out.push(b'{');
            for key in keys {
                canonical(&Value::from(key.as_str()), out);
                out.push(b':');
                canonical(&map[key], out);
                out.push(b',');
            }
            out.push(b'}');
        }
        Value::Array(items) => {
            out.push(b'[');
            for item in items {
                canonical(item, out);
                out.push(b',');
            }
            out.push(b']');
        }
        scalar => out.extend_from_slice(scalar.to_string().as_bytes()),
    }
}

fn tag(key: &[u8], payload: &[u8]) -> Hmac<Sha256> {
    let mut mac =
        <Hmac<Sha256> as KeyInit>::new_from_slice(key).expect("HMAC takes any key length");
    mac.update(DOMAIN);
    mac.update(payload);
    mac
}

fn now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

/// A digest of one input request (`{"method": …, "params": …}`), in a canonical form, so an
/// answer can be bound to the very question it answered.
pub(crate) fn question_digest(request: &Value) -> String {
    let mut bytes = Vec::new();
    canonical(request, &mut bytes);
    B64.encode(Sha256::digest(&bytes))
}

/// What a state carries to the next round.
#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) struct Carried {
    /// The answers used so far, by key.
    pub(crate) answers: Map<String, Value>,
    /// For each key answered or asked, the digest of its question ([`question_digest`]).
    pub(crate) questions: Map<String, Value>,
    /// The expiry set by the request's first round (unix seconds); `None` in the first round.
    pub(crate) expiry: Option<u64>,
}

/// Seals what the next round needs; `None` when the result would exceed the bound.
pub(crate) fn seal(keys: &StateKeys, binding: &Binding, carried: &Carried) -> Option<String> {
    let expiry = carried
        .expiry
        .unwrap_or_else(|| now().saturating_add(keys.lifetime.as_secs()));
    let mut payload = json!({
        "exp": expiry,
        "m": binding.method,
        "d": B64.encode(binding.params),
        "a": carried.answers,
        "q": carried.questions,
    });
    if let Some(principal) = binding.principal {
        payload["p"] = Value::from(B64.encode(principal));
    }
    let payload = serde_json::to_vec(&payload).ok()?;
    let tag = tag(&keys.current, &payload).finalize().into_bytes();
    let state = format!("{VERSION}.{}.{}", B64.encode(&payload), B64.encode(tag));
    (state.len() <= MAX_REQUEST_STATE).then_some(state)
}

/// Opens a state this server sealed for this very request, giving what it carries.
pub(crate) fn open(
    keys: &StateKeys,
    binding: &Binding,
    state: &str,
) -> Result<Carried, StateError> {
    if state.len() > MAX_REQUEST_STATE {
        return Err(StateError::TooLarge);
    }
    let mut parts = state.split('.');
    let (Some(VERSION), Some(payload), Some(sent_tag), None) =
        (parts.next(), parts.next(), parts.next(), parts.next())
    else {
        return Err(StateError::Malformed);
    };
    let payload = B64.decode(payload).map_err(|_| StateError::Malformed)?;
    let sent_tag = B64.decode(sent_tag).map_err(|_| StateError::Malformed)?;
    // Constant-time comparison, under the current key and then the previous one (rotation).
    let verified = std::iter::once(&keys.current)
        .chain(keys.previous.as_ref())
        .any(|key| tag(key, &payload).verify_slice(&sent_tag).is_ok());
    if !verified {
        return Err(StateError::Forged);
    }
    let Ok(Value::Object(mut payload)) = serde_json::from_slice::<Value>(&payload) else {
        return Err(StateError::Malformed);
    };
    let Some(expiry) = payload.get("exp").and_then(Value::as_u64) else {
        return Err(StateError::Malformed);
    };
    if expiry < now() {
        return Err(StateError::Expired);
    }
    let principal = binding.principal.map(|p| Value::from(B64.encode(p)));
    if payload.get("m").and_then(Value::as_str) != Some(binding.method.as_str())
        || payload.get("d").and_then(Value::as_str) != Some(B64.encode(binding.params).as_str())
        || payload.get("p") != principal.as_ref()
    {
        return Err(StateError::Foreign);
    }
    // A state without question digests binds no answer to a question: none of its answers
    // is used (each is asked again).
    let questions = match payload.remove("q") {
        None => Map::new(),
        Some(Value::Object(questions)) => questions,
        Some(_) => return Err(StateError::Malformed),
    };
    match payload.remove("a") {
        Some(Value::Object(answers)) => Ok(Carried {
            answers,
            questions,
            expiry: Some(expiry),
        }),
        _ => Err(StateError::Malformed),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keys(key: &[u8]) -> StateKeys {
        StateKeys {
            current: key.to_vec(),
            previous: None,
            lifetime: Duration::from_secs(60),
        }
    }

    fn binding(principal: Option<[u8; 32]>) -> Binding {
        let params = json!({ "name": "t", "arguments": { "b": 1, "a": [1, 2] } });
        Binding::new(
            "tools/call",
            &Params::from(params.as_object().unwrap().clone()),
            principal,
        )
    }

    /// What a first round carries: one answer, bound to its question.
    fn carried() -> Carried {
        let mut questions = Map::new();
        questions.insert(
            "user_name".into(),
            Value::from(question_digest(&json!({"m": 1}))),
        );
        Carried {
            answers: answers(),
            questions,
            expiry: None,
        }
    }

    fn answers() -> Map<String, Value> {
        json!({ "user_name": { "action": "accept", "content": { "name": "Alice" } } })
            .as_object()
            .unwrap()
            .clone()
    }

    #[test]
    fn a_sealed_state_opens_to_its_answers_for_the_same_request() {
        let k = keys(b"0123456789abcdef0123456789abcdef");
        let state = seal(&k, &binding(None), &carried()).unwrap();
        assert!(state.starts_with("v1."));
        let opened = open(&k, &binding(None), &state).unwrap();
        assert_eq!(opened.answers, answers());
        assert_eq!(opened.questions, carried().questions);
        assert!(opened.expiry.is_some());
        // A later round's state keeps the first round's expiry, however late it is sealed.
        let later = seal(&k, &binding(None), &opened).unwrap();
        assert_eq!(
            open(&k, &binding(None), &later).unwrap().expiry,
            opened.expiry
        );
    }

    #[test]
    fn the_params_digest_ignores_key_order_and_the_round_fields() {
        let a = json!({ "arguments": { "a": [1, 2], "b": 1 }, "name": "t", "requestState": "x",
                        "inputResponses": {}, "_meta": { "k": 1 } });
        assert_eq!(
            Binding::new(
                "tools/call",
                &Params::from(a.as_object().unwrap().clone()),
                None
            ),
            binding(None)
        );
        let other = json!({ "name": "t", "arguments": { "b": 2, "a": [1, 2] } });
        assert_ne!(
            Binding::new(
                "tools/call",
                &Params::from(other.as_object().unwrap().clone()),
                None
            ),
            binding(None)
        );
    }

    #[test]
    fn tampered_foreign_expired_oversize_and_malformed_states_are_refused() {
        let k = keys(b"0123456789abcdef0123456789abcdef");
        let state = seal(&k, &binding(None), &carried()).unwrap();
        let tampered = open(&k, &binding(None), &format!("{state}-TAMPERED"));
        assert!(
            matches!(tampered, Err(StateError::Forged | StateError::Malformed)),
            "{tampered:?}"
        );
        // One flipped character of the payload: still base64, no longer the signed bytes.
        let mut flipped = state.clone().into_bytes();
        flipped[5] = if flipped[5] == b'A' { b'B' } else { b'A' };
        let flipped = String::from_utf8(flipped).unwrap();
        assert!(matches!(
            open(&k, &binding(None), &flipped),
            Err(StateError::Forged | StateError::Malformed)
        ));
        // Another key: forged.
        assert_eq!(
            open(
                &keys(b"another key, just as long, 32 by"),
                &binding(None),
                &state
            ),
            Err(StateError::Forged)
        );
        // Another caller, another method: foreign.
        assert_eq!(
            open(&k, &binding(Some([7; 32])), &state),
            Err(StateError::Foreign)
        );
        let prompts = Binding {
            method: "prompts/get".into(),
            ..binding(None)
        };
        assert_eq!(open(&k, &prompts, &state), Err(StateError::Foreign));
        // Expired.
        let past = StateKeys {
            lifetime: Duration::ZERO,
            ..k.clone()
        };
        let old = seal(&past, &binding(None), &carried()).unwrap();
        std::thread::sleep(Duration::from_millis(1100));
        assert_eq!(open(&k, &binding(None), &old), Err(StateError::Expired));
        // Oversize, and not a state at all.
        assert_eq!(
            open(&k, &binding(None), &"a".repeat(MAX_REQUEST_STATE + 1)),
            Err(StateError::TooLarge)
        );
        assert_eq!(open(&k, &binding(None), "v1.x"), Err(StateError::Malformed));
        assert_eq!(open(&k, &binding(None), ""), Err(StateError::Malformed));
    }

    #[test]
    fn the_previous_key_still_opens_states_during_a_rotation() {
        let old = keys(b"the old key, thirty-two bytes!!!");
        let state = seal(&old, &binding(None), &carried()).unwrap();
        let rotated = StateKeys {
            previous: Some(old.current.clone()),
            ..keys(b"the new key, thirty-two bytes!!!")
        };
        assert_eq!(
            open(&rotated, &binding(None), &state).map(|c| c.answers),
            Ok(answers())
        );
        let dropped = keys(b"the new key, thirty-two bytes!!!");
        assert_eq!(
            open(&dropped, &binding(None), &state),
            Err(StateError::Forged)
        );
    }

    #[test]
    fn a_state_too_large_to_issue_is_not_sealed() {
        let k = keys(b"0123456789abcdef0123456789abcdef");
        let mut big = Map::new();
        big.insert("k".into(), Value::from("x".repeat(MAX_REQUEST_STATE)));
        let big = Carried {
            answers: big,
            ..Carried::default()
        };
        assert_eq!(seal(&k, &binding(None), &big), None);
    }
}

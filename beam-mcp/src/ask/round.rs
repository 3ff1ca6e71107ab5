//! One round of a multi-round-trip request (2026-07-28): the answers it brought, and what the
//! host code asked that nobody has answered yet.
//!
//! The host function runs from the start on every round. Each ask has a key (the host's, or
//! one made from its place in the call order); an ask whose key has an answer (carried in
//! `requestState` from earlier rounds, or sent in this round's `inputResponses`) returns it, an
//! ask without one is recorded, and the round ends as soon as the host future waits on an
//! unanswered ask. The result lists every ask recorded, and a new `requestState` carries every
//! answer used so far, and those offered for asks the run did not reach.
//!
//! An answer is bound to the question it answered: the state names a digest of each key's
//! input request, an answer is used only by an ask whose request digests alike (else the ask
//! goes out again), and with a state, `inputResponses` are taken only for the asks it left
//! open. A first round (no `requestState`) may carry answers too, as the official suite sends
//! them: those answer whatever this run asks under their keys, since no earlier question binds
//! them.

use std::sync::Mutex;

use serde_json::{Map, Value};

use super::state::{self, Binding, Carried, StateError, StateKeys};
use crate::params::Params;

/// Why a request's round could not be opened.
#[derive(Debug)]
pub(crate) enum RoundError {
    /// The `requestState` was refused.
    State(StateError),
    /// `inputResponses` was not an object.
    ResponsesNotObject,
}

/// What the next round needs: the input requests to send and the sealed answers so far.
pub(crate) struct InputRequired {
    pub(crate) requests: Map<String, Value>,
    pub(crate) carried: Carried,
    pub(crate) binding: Binding,
}

/// The round's bookkeeping, shared by every clone of the request's context.
pub(crate) struct Round {
    inner: Mutex<Inner>,
}

struct Inner {
    binding: Binding,
    /// Answers offered: from `requestState`, then this round's `inputResponses` to the asks
    /// the state left open.
    offered: Map<String, Value>,
    /// The digest of the question each offered answer answers (from `requestState`).
    questions: Map<String, Value>,
    /// The expiry the first round set, carried unchanged.
    expiry: Option<u64>,
    /// No `requestState` came: the answers offered answer this run's questions.
    first_round: bool,
    /// Answers used by the asks of this run, to carry to the next round.
    used: Map<String, Value>,
    /// Asks of this run with no usable answer.
    asked: Map<String, Value>,
    /// The question digest of each key used or asked in this run.
    bound: Map<String, Value>,
    /// Asks made so far in this run (for keys made from the call order).
    count: usize,
}

/// What an ask found.
pub(crate) enum Lookup<T> {
    /// A usable answer.
    Answered(T),
    /// None (or a malformed one): the ask is recorded for the client.
    Asked,
    /// The key was already used by another ask of this run.
    Duplicate(String),
}

impl Round {
    /// The round a request opens: `requestState` checked and opened, `inputResponses` taken.
    /// Both are removed from `params`.
    pub(crate) fn take(
        keys: &StateKeys,
        method: &str,
        params: &mut Params,
        principal: Option<[u8; 32]>,
    ) -> Result<Round, RoundError> {
        let responses = params.remove("inputResponses");
        let state = params.remove("requestState");
        let binding = Binding::new(method, params, principal);
        let first_round = state.is_none();
        let Carried {
            answers: mut offered,
            questions,
            expiry,
        } = match state {
            None => Carried::default(),
            Some(Value::String(state)) => {
                state::open(keys, &binding, &state).map_err(RoundError::State)?
            }
            Some(_) => return Err(RoundError::State(StateError::Malformed)),
        };
        match responses {
            None => {}
            Some(Value::Object(responses)) => {
                for (key, answer) in responses {
                    // With a state, only an answer to an ask it left open is taken: one to
                    // nothing asked is ignored, and one sent again for a key answered earlier
                    // loses to the sealed answer.
                    if (first_round || questions.contains_key(&key)) && !offered.contains_key(&key)
                    {
                        offered.insert(key, answer);
                    }
                }
            }
            Some(_) => return Err(RoundError::ResponsesNotObject),
        }
        Ok(Round {
            inner: Mutex::new(Inner {
                binding,
                offered,
                questions,
                expiry,
                first_round,
                used: Map::new(),
                asked: Map::new(),
                bound: Map::new(),
                count: 0,
            }),
        })
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Looks up the answer to an ask; `read` turns a well-formed answer into the host's value
    /// (`None`: malformed, so the ask goes out again).
    pub(crate) fn ask<T>(
        &self,
        key: Option<&str>,
        prefix: &str,
        request: Value,
        read: impl FnOnce(&Value) -> Option<T>,
    ) -> Lookup<T> {
        let mut inner = self.lock();
        inner.count += 1;
        let key = match key {
            Some(key) => key.to_owned(),
            None => format!("{prefix}-{}", inner.count),
        };
        if inner.used.contains_key(&key) || inner.asked.contains_key(&key) {
            return Lookup::Duplicate(key);
        }
        let question = state::question_digest(&request);
        // An answer given to another question under this key (the host asked differently
        // this run) is not this question's: it is asked again.
        let same_question = match inner.questions.get(&key) {
            Some(asked) => asked.as_str() == Some(question.as_str()),
            None => inner.first_round,
        };
        if same_question
            && let Some(answer) = inner.offered.get(&key)
            && let Some(value) = read(answer)
        {
            let answer = answer.clone();
            inner.used.insert(key.clone(), answer);
            inner.bound.insert(key, Value::from(question));
            return Lookup::Answered(value);
        }
        inner.bound.insert(key.clone(), Value::from(question));
        inner.asked.insert(key, request);
        Lookup::Asked
    }

    /// True once an ask of this run is waiting for the client.
    pub(crate) fn waiting(&self) -> bool {
        !self.lock().asked.is_empty()
    }

    /// The asks to send and the answers to seal, when the run stopped on asks.
    pub(crate) fn input_required(&self) -> Option<InputRequired> {
        let inner = self.lock();
        if inner.asked.is_empty() {
            return None;
        }
        // Answers offered for asks this run did not reach (it stopped earlier) are carried
        // on with their questions, so the client need not send them again; an answer to a
        // key asked again this run (malformed, or its question changed) is not.
        let mut answers = Map::new();
        let mut questions = Map::new();
        for (key, answer) in &inner.offered {
            if let Some(question) = inner.questions.get(key)
                && !inner.asked.contains_key(key)
            {
                answers.insert(key.clone(), answer.clone());
                questions.insert(key.clone(), question.clone());
            }
        }
        answers.extend(inner.used.iter().map(|(k, v)| (k.clone(), v.clone())));
        questions.extend(inner.bound.iter().map(|(k, v)| (k.clone(), v.clone())));
        Some(InputRequired {
            requests: inner.asked.clone(),
            carried: Carried {
                answers,
                questions,
                expiry: inner.expiry,
            },
            binding: inner.binding.clone(),
        })
    }
}

impl InputRequired {
    /// The `InputRequiredResult` (before `_meta`), or `None` when the answers so far are too
    /// large to seal.
    pub(crate) fn into_result(self, keys: &StateKeys) -> Option<Value> {
        let state = state::seal(keys, &self.binding, &self.carried)?;
        let mut result = Map::new();
        result.insert("resultType".into(), Value::from("input_required"));
        result.insert("inputRequests".into(), Value::Object(self.requests));
        result.insert("requestState".into(), Value::from(state));
        Some(Value::Object(result))
    }
}

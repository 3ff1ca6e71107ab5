//! Requests the server sent the client on a 2025-11-25 session (elicitation, sampling, roots),
//! waiting for the client's responses, which are matched to them by id.

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

use serde_json::Value;
use tokio::sync::oneshot;

/// The most requests one session may have waiting on the client at once.
pub(crate) const MAX_WAITING: usize = 256;

/// What the client answered: its result, or its JSON-RPC error (code and message).
pub(crate) type Answer = Result<Value, (i64, String)>;

/// One session's requests to its client, by id.
#[derive(Default)]
pub(crate) struct ClientRequests {
    /// The ids this session's requests are numbered after here (see `numbered_after`).
    base: u64,
    next: AtomicU64,
    waiting: Mutex<HashMap<u64, oneshot::Sender<Answer>>>,
}

/// One request waiting for its answer; dropping it forgets the request, so a late answer is
/// ignored.
pub(crate) struct Waiting {
    pub(crate) id: u64,
    pub(crate) answer: oneshot::Receiver<Answer>,
    requests: Arc<ClientRequests>,
}

impl Drop for Waiting {
    fn drop(&mut self) {
        self.requests.lock().remove(&self.id);
    }
}

impl ClientRequests {
    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<u64, oneshot::Sender<Answer>>> {
        self.waiting.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A new id and its waiter; `None` when the session has too many waiting already.
    pub(crate) fn open(self: &Arc<Self>) -> Option<Waiting> {
        let mut waiting = self.lock();
        if waiting.len() >= MAX_WAITING {
            return None;
        }
        let id = self.next.fetch_add(1, Ordering::Relaxed) + 1;
        let (tx, rx) = oneshot::channel();
        waiting.insert(id, tx);
        Some(Waiting {
            id,
            answer: rx,
            requests: Arc::clone(self),
        })
    }

    /// Requests numbered after `base` (a replica serving a session another replica opened
    /// numbers its requests apart, so a response relayed between them reaches one waiter).
    pub(crate) fn numbered_after(base: u64) -> ClientRequests {
        ClientRequests {
            base,
            next: AtomicU64::new(base),
            ..ClientRequests::default()
        }
    }

    /// True for an id this session's requests here are numbered with (waited for or not): a
    /// response to one is this replica's, never another's.
    #[cfg_attr(
        not(feature = "http"),
        allow(dead_code, reason = "used by the HTTP transport")
    )]
    pub(crate) fn numbers(&self, id: &Value) -> bool {
        id.as_u64()
            .is_some_and(|id| id > self.base && id - self.base <= u64::from(u32::MAX))
    }

    /// Delivers a response from the client (`result` or `error` of the message); a response
    /// nobody waits for (unknown id, or given up) is ignored. True when someone waited.
    pub(crate) fn answer(&self, id: &Value, result: Option<&Value>, error: Option<&Value>) -> bool {
        let Some(id) = id.as_u64() else { return false };
        let Some(waiter) = self.lock().remove(&id) else {
            return false;
        };
        let answer = match (result, error) {
            (Some(result), None) => Ok(result.clone()),
            (None, Some(error)) => Err((
                error.get("code").and_then(Value::as_i64).unwrap_or(0),
                error
                    .get("message")
                    .and_then(Value::as_str)
                    .unwrap_or("")
                    .to_owned(),
            )),
            _ => Err((
                -32600,
                "the response had neither a result nor an error".to_owned(),
            )),
        };
        waiter.send(answer).is_ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// The ids a replica numbers its requests with are told from another replica's: a
    /// response to one of them is never relayed elsewhere.
    #[test]
    fn a_replica_knows_the_ids_it_numbers() {
        let opener = Arc::new(ClientRequests::default());
        let first = opener.open().unwrap();
        assert!(opener.numbers(&json!(first.id)));
        assert!(opener.numbers(&json!(u64::from(u32::MAX))));
        assert!(
            !opener.numbers(&json!((7u64 << 32) + 1)),
            "another replica's"
        );
        assert!(!opener.numbers(&json!("1")), "ids here are integers");
        let base = 7u64 << 32;
        let adopter = Arc::new(ClientRequests::numbered_after(base));
        let asked = adopter.open().unwrap();
        assert_eq!(asked.id, base + 1);
        assert!(adopter.numbers(&json!(asked.id)));
        assert!(!adopter.numbers(&json!(1)), "the opener's");
        assert!(!adopter.numbers(&json!(base)));
        assert!(!adopter.numbers(&json!(-1)));
    }

    #[tokio::test]
    async fn answers_reach_their_waiter_by_id_and_a_dropped_waiter_is_forgotten() {
        let requests = Arc::new(ClientRequests::default());
        let a = requests.open().unwrap();
        let mut b = requests.open().unwrap();
        assert_ne!(a.id, b.id);
        let ok = json!({ "result": { "roots": [] } });
        assert!(requests.answer(&json!(b.id), ok.get("result"), ok.get("error")));
        assert_eq!((&mut b.answer).await.unwrap(), Ok(json!({ "roots": [] })));
        let id = a.id;
        drop(a);
        assert!(
            !requests.answer(&json!(id), ok.get("result"), ok.get("error")),
            "forgotten"
        );
        let mut c = requests.open().unwrap();
        let refused = json!({ "error": { "code": -1, "message": "User rejected" } });
        assert!(requests.answer(&json!(c.id), refused.get("result"), refused.get("error")));
        assert_eq!(
            (&mut c.answer).await.unwrap(),
            Err((-1, "User rejected".to_owned()))
        );
        assert!(!requests.answer(&json!("x"), ok.get("result"), ok.get("error")));
    }

    #[test]
    fn a_session_holds_a_bounded_number_of_waiting_requests() {
        let requests = Arc::new(ClientRequests::default());
        let held: Vec<Waiting> = (0..MAX_WAITING).map(|_| requests.open().unwrap()).collect();
        assert!(requests.open().is_none());
        drop(held);
        assert!(requests.open().is_some());
    }
}

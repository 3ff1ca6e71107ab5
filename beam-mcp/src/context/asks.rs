//! The asks host code awaits: [`Context::elicit`], [`Context::elicit_url`],
//! [`Context::sample`], [`Context::roots`] (see [`crate::ask`]).

use std::future::{Future, IntoFuture};
use std::pin::Pin;

use serde_json::{Value, json};

use std::sync::Arc;

use super::Context;
use crate::ask::{
    AskError, Elicit, Elicited, Lookup, Needs, Root, Sampled, SamplingRequest, read_form,
    read_roots, read_sampled, read_url,
};
use crate::task::{Parked, Task};

/// One ask, awaited to get its answer. Made by [`Context::elicit`], [`Context::elicit_url`],
/// [`Context::sample`] and [`Context::roots`].
#[must_use = "an ask does nothing until it is awaited"]
pub struct Ask<'a, T> {
    context: &'a Context,
    key: Option<String>,
    prefix: &'static str,
    needs: Needs,
    request: Value,
    read: fn(&Value) -> Option<T>,
}

impl<T> Ask<'_, T> {
    /// Names the ask on the wire (its key in `inputRequests`); by default the key is made from
    /// its place in the call order. Keys must be unique within one request.
    pub fn key(mut self, key: impl Into<String>) -> Self {
        self.key = Some(key.into());
        self
    }
}

impl<'a, T: Send + 'a> IntoFuture for Ask<'a, T> {
    type Output = Result<T, AskError>;
    type IntoFuture = Pin<Box<dyn Future<Output = Self::Output> + Send + 'a>>;

    fn into_future(self) -> Self::IntoFuture {
        Box::pin(async move {
            if !self.needs.declared(self.context.client_capabilities()) {
                return Err(AskError::Unsupported(self.needs.name()));
            }
            if let Some(task) = self.context.task() {
                let task = Arc::clone(task);
                return self.park(&task).await;
            }
            let Some(round) = self.context.round() else {
                return self.send().await;
            };
            match round.ask(self.key.as_deref(), self.prefix, self.request, self.read) {
                Lookup::Answered(value) => Ok(value),
                Lookup::Duplicate(key) => Err(AskError::DuplicateKey(key)),
                // The dispatch sees the recorded ask and ends the round; this never resumes.
                Lookup::Asked => std::future::pending().await,
            }
        })
    }
}

impl<T> Ask<'_, T> {
    /// In a task: the task waits in `input_required` until `tasks/update` answers this ask
    /// (one of the wrong shape is asked again).
    /// Within `ask_time_limit`, like an ask on a 2025-11-25 session: a task nobody answers
    /// does not wait for ever.
    async fn park(self, task: &Arc<Task>) -> Result<T, AskError> {
        let key = self.key.unwrap_or_else(|| task.next_key(self.prefix));
        let limit = self.context.ask_time_limit();
        loop {
            let answer = match task.ask(key.clone(), self.request.clone()) {
                Ok(answer) => answer,
                Err(Parked::Duplicate) => return Err(AskError::DuplicateKey(key)),
                Err(Parked::Ended) => return Err(AskError::Unavailable("the task ended")),
            };
            let answer = match tokio::time::timeout(limit, answer).await {
                Ok(Ok(answer)) => answer,
                Ok(Err(_)) => return Err(AskError::Unavailable("the task ended")),
                Err(_) => {
                    task.give_up(&key);
                    return Err(AskError::TimedOut(limit));
                }
            };
            if let Some(value) = (self.read)(&answer) {
                return Ok(value);
            }
        }
    }

    /// 2025-11-25: a request to the client on the session, answered by id within the time limit.
    async fn send(self) -> Result<T, AskError> {
        let (Some(requests), Some(outbox)) =
            (self.context.client_requests(), self.context.outbox())
        else {
            return Err(AskError::Unavailable(
                "the request has no session to ask on (a stateless HTTP request, or no initialize)",
            ));
        };
        let Some(mut waiting) = requests.open() else {
            return Err(AskError::Unavailable(
                "too many requests are waiting on the client",
            ));
        };
        let mut request = self.request;
        request["jsonrpc"] = Value::from("2.0");
        request["id"] = Value::from(waiting.id);
        // A URL elicitation names itself at 2025-11-25, so the client can report completion.
        if request["params"]["mode"] == "url" {
            request["params"]["elicitationId"] = Value::from(format!("beam-{}", waiting.id));
        }
        if outbox.push(request, None).is_err() {
            return Err(AskError::Unavailable(
                "the request's outbound queue is full or closed",
            ));
        }
        // Waiting on the client is no work: the request's in-flight place goes back, so that
        // the client's answer (a request of its own over HTTP) and other callers find the
        // endpoint open even when every place was taken by calls that wait. The waits are
        // bounded apart: `MAX_WAITING` a session, and the ask time limit.
        self.context.give_back_place();
        let limit = self.context.ask_time_limit();
        match tokio::time::timeout(limit, &mut waiting.answer).await {
            Err(_) => Err(AskError::TimedOut(limit)),
            Ok(Err(_)) => Err(AskError::Unavailable("the session ended")),
            Ok(Ok(Err((code, message)))) => Err(AskError::Refused { code, message }),
            Ok(Ok(Ok(result))) => (self.read)(&result).ok_or(AskError::Malformed),
        }
    }
}

impl Context {
    /// Asks the user to fill in the form `T` (elicitation, form mode). Never ask for secrets
    /// this way (use [`elicit_url`](Self::elicit_url)).
    pub fn elicit<T: Elicit>(&self, message: impl Into<String>) -> Ask<'_, Elicited<T>> {
        let params = json!({
            "message": message.into(),
            "requestedSchema": crate::ask::requested_schema::<T>().as_ref().clone(),
        });
        self.ask(
            "elicit",
            Needs::Form,
            "elicitation/create",
            params,
            read_form::<T>,
        )
    }

    /// Sends the user to `url` (elicitation, URL mode), for what must not pass through the
    /// client: credentials, payments, consent. `Accepted(())` means the user completed it.
    pub fn elicit_url(
        &self,
        message: impl Into<String>,
        url: impl Into<String>,
    ) -> Ask<'_, Elicited<()>> {
        let params = json!({ "mode": "url", "message": message.into(), "url": url.into() });
        self.ask("elicit", Needs::Url, "elicitation/create", params, read_url)
    }

    /// Relays another server's `elicitation/create` to this request's client as it was asked
    /// (a proxy's remote asking): the answer as the client gave it, when its `action` is one
    /// the spec has.
    #[cfg(feature = "client")]
    pub(crate) fn elicit_relayed(&self, params: Value) -> Ask<'_, Value> {
        let needs = if params.get("mode").and_then(Value::as_str) == Some("url") {
            Needs::Url
        } else {
            Needs::Form
        };
        fn answer(result: &Value) -> Option<Value> {
            let action = result.get("action").and_then(Value::as_str)?;
            matches!(action, "accept" | "decline" | "cancel").then(|| result.clone())
        }
        self.ask("elicit", needs, "elicitation/create", params, answer)
    }

    /// Asks the client's model (sampling).
    pub fn sample(&self, request: SamplingRequest) -> Ask<'_, Sampled> {
        let params = Value::Object(request.into_params());
        self.ask(
            "sample",
            Needs::Sampling,
            "sampling/createMessage",
            params,
            read_sampled,
        )
    }

    /// Asks for the client's roots.
    pub fn roots(&self) -> Ask<'_, Vec<Root>> {
        self.ask("roots", Needs::Roots, "roots/list", json!({}), read_roots)
    }

    fn ask<T>(
        &self,
        prefix: &'static str,
        needs: Needs,
        method: &str,
        params: Value,
        read: fn(&Value) -> Option<T>,
    ) -> Ask<'_, T> {
        Ask {
            context: self,
            key: None,
            prefix,
            needs,
            request: json!({ "method": method, "params": params }),
            read,
        }
    }
}

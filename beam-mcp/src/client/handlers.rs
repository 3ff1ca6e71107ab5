//! What the host answers when the server asks (elicitation, sampling, roots) and hears when it speaks
//! (logs, list changes): the same handlers at both revisions, whether the ask comes as a
//! request on the session (2025-11-25) or inside an `InputRequiredResult` (2026-07-28).

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use serde_json::{Value, json};

use crate::testing::Heard;

/// An answerer of one kind of ask (elicitation, sampling): the request's params in, its
/// result out.
pub(crate) type Elicit =
    Arc<dyn Fn(Value) -> Pin<Box<dyn Future<Output = Value> + Send>> + Send + Sync>;

#[derive(Clone, Default)]
pub(crate) struct Handlers {
    pub(crate) elicitation: Option<Elicit>,
    /// The host's model, for `sampling/createMessage`.
    pub(crate) sampling: Option<Elicit>,
    /// The roots given to `roots/list`, when the host gives any.
    pub(crate) roots: Option<Vec<Value>>,
    pub(crate) heard: Option<Arc<dyn Fn(Heard) + Send + Sync>>,
    /// The client declares the tasks extension (2026-07-28) and follows tasks.
    pub(crate) tasks: bool,
}

impl Handlers {
    /// The capabilities the client declares: exactly what it can answer.
    pub(crate) fn capabilities(&self) -> Value {
        let mut capabilities = serde_json::Map::new();
        if self.elicitation.is_some() {
            capabilities.insert("elicitation".into(), json!({ "form": {} }));
        }
        if self.roots.is_some() {
            capabilities.insert("roots".into(), json!({}));
        }
        if self.sampling.is_some() {
            capabilities.insert("sampling".into(), json!({}));
        }
        Value::Object(capabilities)
    }

    /// The answer to one of the server's asks, by method: `Err` with a JSON-RPC code and
    /// message when the client gives none.
    pub(crate) async fn answer(&self, method: &str, params: Value) -> Result<Value, (i64, String)> {
        match method {
            "ping" => Ok(json!({})),
            "elicitation/create" => match &self.elicitation {
                Some(elicit) => Ok(elicit(params).await),
                None => Err((-32601, "this client does not answer elicitation".into())),
            },
            "sampling/createMessage" => match &self.sampling {
                Some(sample) => Ok(sample(params).await),
                None => Err((-32601, "this client does not answer sampling".into())),
            },
            "roots/list" => match &self.roots {
                Some(roots) => Ok(json!({ "roots": roots })),
                None => Err((-32601, "this client does not list roots".into())),
            },
            other => Err((-32601, format!("this client does not answer {other}"))),
        }
    }

    pub(crate) fn heard(&self, heard: Heard) {
        if let Some(to) = &self.heard {
            to(heard);
        }
    }
}

//! `completion/complete`: suggestions for a prompt argument or a template variable, declared
//! beside the item (`#[prompt(complete(place = complete_place))]`).

use std::future::Future;

use serde_json::{Map, Value, json};

use crate::tool::BoxFuture;

/// The most values one answer carries (the specification's bound).
pub const MAX_VALUES: usize = 100;

/// What a completer is asked: the argument, the text typed so far, and the arguments already
/// resolved.
#[derive(Debug, Clone)]
pub struct CompletionRequest {
    pub(crate) argument: String,
    pub(crate) value: String,
    pub(crate) context: Map<String, Value>,
    pub(crate) request: crate::context::Context,
    /// The `ref` completed, as the client sent it (a proxy relays it to its remote).
    #[cfg_attr(
        not(feature = "client"),
        allow(dead_code, reason = "read by the proxy")
    )]
    pub(crate) reference: Value,
    /// The server's host state.
    #[cfg_attr(
        not(feature = "client"),
        allow(dead_code, reason = "read by the proxy")
    )]
    pub(crate) states: std::sync::Arc<crate::tool::StateMap>,
}

impl CompletionRequest {
    /// The argument (or template variable) being completed.
    pub fn argument(&self) -> &str {
        &self.argument
    }

    /// The text typed so far.
    pub fn value(&self) -> &str {
        &self.value
    }

    /// The request context: the caller, the client, cancellation.
    pub fn request_context(&self) -> &crate::context::Context {
        &self.request
    }

    /// An argument the client already resolved (`context.arguments`).
    pub fn resolved(&self, name: &str) -> Option<&str> {
        self.context.get(name).and_then(Value::as_str)
    }
}

/// Suggestions: at most [`MAX_VALUES`] are sent; the rest are counted in `total` and flagged
/// by `hasMore`.
///
/// ```
/// use beam_mcp::completion::Completion;
/// let c = Completion::from_iter((0..150).map(|i| i.to_string()));
/// let wire = c.to_value();
/// assert_eq!(wire["completion"]["values"].as_array().unwrap().len(), 100);
/// assert_eq!(wire["completion"]["total"], 150);
/// assert_eq!(wire["completion"]["hasMore"], true);
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Completion {
    /// The suggestions, most relevant first.
    pub values: Vec<String>,
    /// How many there are in all, when known and more than `values` holds.
    pub total: Option<u64>,
    /// True when there are more than `values` holds.
    pub has_more: bool,
}

impl FromIterator<String> for Completion {
    fn from_iter<I: IntoIterator<Item = String>>(iter: I) -> Self {
        Completion {
            values: iter.into_iter().collect(),
            total: None,
            has_more: false,
        }
    }
}

impl Completion {
    /// The result object (`{"completion": …}`), cut to [`MAX_VALUES`].
    pub fn to_value(&self) -> Value {
        let count = self.values.len();
        let values = &self.values[..count.min(MAX_VALUES)];
        let mut completion = Map::new();
        completion.insert("values".into(), json!(values));
        // A total never below what exists here; more than is sent means there is more.
        let total = match self.total {
            Some(total) => Some(total.max(count as u64)),
            None => (count > MAX_VALUES).then_some(count as u64),
        };
        if let Some(total) = total {
            completion.insert("total".into(), Value::from(total));
        }
        if self.has_more || total.is_some_and(|t| t > values.len() as u64) {
            completion.insert("hasMore".into(), Value::Bool(true));
        }
        json!({ "completion": completion })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_host_total_is_never_below_the_values_and_more_than_sent_means_more() {
        let under = Completion {
            values: vec!["a".into(), "b".into()],
            total: Some(1),
            has_more: false,
        };
        assert_eq!(
            under.to_value()["completion"],
            json!({ "values": ["a", "b"], "total": 2 })
        );
        let over = Completion {
            values: vec!["a".into()],
            total: Some(500),
            has_more: false,
        };
        assert_eq!(
            over.to_value()["completion"],
            json!({ "values": ["a"], "total": 500, "hasMore": true })
        );
    }
}

/// What a completer may return: a [`Completion`], or any list of strings.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be a list of completions",
    label = "a completer returns suggestions",
    note = "return Vec<String>, Vec<&str> or Completion"
)]
pub trait IntoCompletion {
    /// The completion.
    fn into_completion(self) -> Completion;
}

impl IntoCompletion for Completion {
    fn into_completion(self) -> Completion {
        self
    }
}

impl IntoCompletion for Vec<String> {
    fn into_completion(self) -> Completion {
        self.into_iter().collect()
    }
}

impl IntoCompletion for Vec<&str> {
    fn into_completion(self) -> Completion {
        self.into_iter().map(str::to_owned).collect()
    }
}

/// A completer function: `fn(&str) -> R` (given the typed text), `fn(&CompletionRequest) -> R`
/// (given everything, the request context included), or `async fn(CompletionRequest) -> R` (it
/// may wait: a database, a remote index), where `R:` [`IntoCompletion`]. `M` tells the shapes
/// apart and is inferred.
///
/// ```
/// use beam_mcp::completion::{Completer, CompletionRequest};
/// fn by_text(prefix: &str) -> Vec<String> { vec![format!("{prefix}!")] }
/// fn by_request(r: &CompletionRequest) -> Vec<&'static str> { vec!["x"] }
/// async fn by_lookup(r: CompletionRequest) -> Vec<String> { vec![r.value().to_uppercase()] }
/// fn takes<M>(_: impl Completer<M>) {}
/// takes(by_text);
/// takes(by_request);
/// takes(by_lookup);
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot complete an argument",
    label = "not a completer",
    note = "a completer is a fn(&str) -> Vec<String> (given the text typed so far), a fn(&CompletionRequest) -> Vec<String>, or an async fn(CompletionRequest) -> Vec<String>; Vec<&str> and Completion work as returns too"
)]
pub trait Completer<M> {
    /// Runs it.
    fn complete(&self, request: CompletionRequest) -> BoxFuture<Completion>;
}

#[doc(hidden)]
pub enum ByText {}
#[doc(hidden)]
pub enum ByRequest {}
#[doc(hidden)]
pub enum ByRequestLater {}

impl<F: Fn(&str) -> R, R: IntoCompletion> Completer<ByText> for F {
    fn complete(&self, request: CompletionRequest) -> BoxFuture<Completion> {
        Box::pin(std::future::ready(self(&request.value).into_completion()))
    }
}

impl<F: Fn(&CompletionRequest) -> R, R: IntoCompletion> Completer<ByRequest> for F {
    fn complete(&self, request: CompletionRequest) -> BoxFuture<Completion> {
        Box::pin(std::future::ready(self(&request).into_completion()))
    }
}

impl<F, Fut, R> Completer<ByRequestLater> for F
where
    F: Fn(CompletionRequest) -> Fut,
    Fut: Future<Output = R> + Send + 'static,
    R: IntoCompletion,
{
    fn complete(&self, request: CompletionRequest) -> BoxFuture<Completion> {
        let running = self(request);
        Box::pin(async move { running.await.into_completion() })
    }
}

/// One completion declared on a prompt argument or a template variable.
#[derive(Debug, Clone, Copy)]
#[non_exhaustive]
pub struct CompletionDef {
    /// The argument or variable it completes.
    pub argument: &'static str,
    /// Runs it.
    pub complete: fn(CompletionRequest) -> BoxFuture<Completion>,
}

impl CompletionDef {
    /// The completion of `argument` by `complete`.
    ///
    /// ```
    /// use beam_mcp::completion::{Completion, CompletionDef, CompletionRequest};
    /// use beam_mcp::tool::BoxFuture;
    ///
    /// fn topics(_: CompletionRequest) -> BoxFuture<Completion> {
    ///     Box::pin(async { ["rust".to_owned()].into_iter().collect::<Completion>() })
    /// }
    /// const TOPICS: CompletionDef = CompletionDef::new("topic", topics);
    /// assert_eq!(TOPICS.argument, "topic");
    /// ```
    pub const fn new(
        argument: &'static str,
        complete: fn(CompletionRequest) -> BoxFuture<Completion>,
    ) -> Self {
        CompletionDef { argument, complete }
    }
}

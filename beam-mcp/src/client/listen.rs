//! Listening to what changes on the server, as a stream: at 2026-07-28 a `subscriptions/listen`
//! request that stays open (its notifications carry its id); at 2025-11-25 the session's own
//! notifications (`resources/subscribe` for updates), which over HTTP come on the session's GET
//! stream, held open and resumed with `Last-Event-ID` while someone listens.

use std::sync::Arc;
use std::time::Duration;

use serde_json::{Map, Value, json};
use tokio::sync::mpsc;

use super::connection::Connection;
use super::{Client, ClientError, Heard, shape};
use crate::protocol::Revision;

/// How many notifications a subscription keeps for a reader that falls behind; past it the
/// newest are dropped (a later list change says as much as an earlier one).
const QUEUE: usize = 64;

/// What to listen to: list changes of tools, prompts or resources, and updates of resources by
/// URI.
///
/// ```
/// use beam_mcp::client::Listen;
/// let what = Listen::new().tools().resource("file:///notes/today.md");
/// # let _ = what;
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Listen {
    tools: bool,
    prompts: bool,
    resources: bool,
    uris: Vec<String>,
}

impl Listen {
    /// Nothing yet.
    pub fn new() -> Listen {
        Listen::default()
    }

    /// `notifications/tools/list_changed`.
    pub fn tools(mut self) -> Listen {
        self.tools = true;
        self
    }

    /// `notifications/prompts/list_changed`.
    pub fn prompts(mut self) -> Listen {
        self.prompts = true;
        self
    }

    /// `notifications/resources/list_changed`.
    pub fn resources(mut self) -> Listen {
        self.resources = true;
        self
    }

    /// `notifications/resources/updated` for `uri`.
    pub fn resource(mut self, uri: impl Into<String>) -> Listen {
        self.uris.push(uri.into());
        self
    }

    /// Whether `heard` is something this asked for.
    fn wants(&self, heard: &Heard) -> bool {
        let Heard::Other(note) = heard else {
            return false;
        };
        match note.get("method").and_then(Value::as_str) {
            Some("notifications/tools/list_changed") => self.tools,
            Some("notifications/prompts/list_changed") => self.prompts,
            Some("notifications/resources/list_changed") => self.resources,
            Some("notifications/resources/updated") => note
                .pointer("/params/uri")
                .and_then(Value::as_str)
                .is_some_and(|uri| self.uris.iter().any(|u| u == uri)),
            _ => false,
        }
    }

    /// The 2026-07-28 filter (`SubscriptionFilter`): only what is asked.
    fn filter(&self) -> Value {
        let mut filter = Map::new();
        for (key, on) in [
            ("toolsListChanged", self.tools),
            ("promptsListChanged", self.prompts),
            ("resourcesListChanged", self.resources),
        ] {
            if on {
                filter.insert(key.into(), json!(true));
            }
        }
        if !self.uris.is_empty() {
            filter.insert("resourceSubscriptions".into(), json!(self.uris));
        }
        Value::Object(filter)
    }
}

/// What the server says changed, in order, until it is dropped (which ends the listening on
/// the server too: the listen request cancelled at 2026-07-28; at 2025-11-25 the resources
/// unsubscribed and the GET stream closed when no one else listens).
pub struct Subscription {
    heard: mpsc::Receiver<Heard>,
    what: Listen,
    /// What the server said it honours (2026-07-28's acknowledgement), when it said.
    acknowledged: Option<Value>,
    /// The listen request, running (2026-07-28).
    request: Option<tokio::task::JoinHandle<()>>,
    /// The session's connection and the time limit of its unsubscribes (2025-11-25).
    session: Option<(Arc<Connection>, Duration)>,
}

impl std::fmt::Debug for Subscription {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Subscription")
            .field("what", &self.what)
            .field("acknowledged", &self.acknowledged)
            .finish_non_exhaustive()
    }
}

impl Subscription {
    /// The next change the server tells of, or `None` once the server ended the listening
    /// (or the connection closed).
    ///
    /// ```no_run
    /// # async fn run(client: beam_mcp::client::Client) -> Result<(), beam_mcp::client::ClientError> {
    /// let mut changes = client.listen(beam_mcp::client::Listen::new().tools()).await?;
    /// while let Some(change) = changes.next().await {
    ///     println!("{change:?}: list the tools again");
    /// }
    /// # Ok(())
    /// # }
    /// ```
    pub async fn next(&mut self) -> Option<Heard> {
        loop {
            let heard = self.heard.recv().await?;
            if self.what.wants(&heard) {
                return Some(heard);
            }
        }
    }

    /// What the server acknowledged it will send (the `notifications` of
    /// `notifications/subscriptions/acknowledged`, 2026-07-28); `None` at 2025-11-25.
    pub fn acknowledged(&self) -> Option<&Value> {
        self.acknowledged.as_ref()
    }
}

impl Drop for Subscription {
    fn drop(&mut self) {
        if let Some(request) = self.request.take() {
            request.abort();
        }
        self.heard.close();
        if let Some((connection, limit)) = self.session.take() {
            connection.release_session_stream();
            let uris = self.what.uris.clone();
            if !uris.is_empty()
                && let Ok(runtime) = tokio::runtime::Handle::try_current()
            {
                runtime.spawn(async move {
                    for uri in uris {
                        let params = json!({ "uri": uri });
                        let _ = connection
                            .request("resources/unsubscribe", params, None, limit)
                            .await;
                    }
                });
            }
        }
    }
}

impl Client {
    /// Listens to what the server says changed: the lists and resources `what` names.
    ///
    /// At 2026-07-28 this is a `subscriptions/listen` request held open; it returns once the
    /// server acknowledged it (within the request time limit), or with the server's refusal
    /// (`ClientError::Protocol`, `-32601` from a server without it). At 2025-11-25 the
    /// session's own notifications are handed over (each URI subscribed with
    /// `resources/subscribe` first), over HTTP from the session's GET stream, opened here
    /// (returned once the server opened it; a server without one, 405, is an error) and resumed
    /// with `Last-Event-ID` when it drops. They still reach `on_heard` too.
    ///
    /// ```no_run
    /// # async fn run(client: beam_mcp::client::Client) -> Result<(), beam_mcp::client::ClientError> {
    /// use beam_mcp::client::Listen;
    /// let mut changes = client.listen(Listen::new().tools().prompts()).await?;
    /// if let Some(change) = changes.next().await {
    ///     println!("{change:?}");
    /// }
    /// # Ok(())
    /// # }
    /// ```
    pub async fn listen(&self, what: Listen) -> Result<Subscription, ClientError> {
        let (to, heard) = mpsc::channel(QUEUE);
        if self.revision == Revision::V2025_11_25 {
            return self.listen_on_session(what, to, heard).await;
        }
        let params = self.with_meta(json!({ "notifications": what.filter() }));
        let deliver = to.clone();
        let progress: Arc<dyn Fn(Heard) + Send + Sync> = Arc::new(move |h| {
            let _ = deliver.try_send(h);
        });
        let connection = Arc::clone(&self.connection);
        // The server's refusal, kept whole for the caller (`to` is dropped with the task).
        let (refused, refusal) = tokio::sync::oneshot::channel();
        let request = tokio::spawn(async move {
            let _ended = to;
            // Held open until the server ends it, or this task is aborted (the cancel).
            let answer = connection
                .request(
                    "subscriptions/listen",
                    params,
                    Some(progress),
                    Duration::MAX,
                )
                .await;
            if let Err(error) = answer {
                let _ = refused.send(error);
            }
        });
        let mut subscription = Subscription {
            heard,
            what,
            acknowledged: None,
            request: Some(request),
            session: None,
        };
        let first = tokio::time::timeout(self.timeout, subscription.heard.recv()).await;
        match first {
            Ok(Some(Heard::Other(note)))
                if note.get("method").and_then(Value::as_str)
                    == Some("notifications/subscriptions/acknowledged") =>
            {
                subscription.acknowledged = note.pointer("/params/notifications").cloned();
                Ok(subscription)
            }
            // The request ended before any notification: the server's own error, as it said it.
            Ok(None) => Err(refusal.await.unwrap_or_else(|_| {
                shape(
                    "subscriptions/listen",
                    "the stream ended before its acknowledgement".into(),
                )
            })),
            Ok(other) => Err(shape(
                "subscriptions/listen",
                format!("the stream did not begin with its acknowledgement: {other:?}"),
            )),
            Err(_) => Err(ClientError::Timeout {
                method: "subscriptions/listen".to_owned(),
                after: self.timeout,
            }),
        }
    }

    /// 2025-11-25: the session's notifications, each URI subscribed first.
    async fn listen_on_session(
        &self,
        what: Listen,
        to: mpsc::Sender<Heard>,
        heard: mpsc::Receiver<Heard>,
    ) -> Result<Subscription, ClientError> {
        for uri in &what.uris {
            self.request("resources/subscribe", json!({ "uri": uri }))
                .await?;
        }
        self.connection.listen(to);
        let subscription = Subscription {
            heard,
            what,
            acknowledged: None,
            request: None,
            session: Some((Arc::clone(&self.connection), self.timeout)),
        };
        // Over HTTP the changes come on the session's GET stream: returned once it is open, so
        // nothing changed after this call is missed.
        let (ready, opened) = tokio::sync::oneshot::channel();
        self.connection.keep_session_stream(ready);
        match tokio::time::timeout(self.timeout, opened).await {
            Ok(Ok(Ok(()))) => Ok(subscription),
            Ok(Ok(Err(why))) => Err(shape("GET", why)),
            Ok(Err(_)) => Err(shape("GET", "the session's stream ended at once".into())),
            Err(_) => Err(ClientError::Timeout {
                method: "GET".to_owned(),
                after: self.timeout,
            }),
        }
    }
}

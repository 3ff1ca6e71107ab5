//! One remote server as the proxy holds it: the client connected now (or why there is none),
//! what it listed last, the reconnection with back-off when it goes away, and the refresh of
//! the mounted view when it says its lists changed.

use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock, RwLock, Weak};
use std::time::Duration;

use serde_json::Value;
use tokio::sync::{Notify, mpsc, oneshot};

use super::view::{self, Handlers, Listing, Routes};
use crate::client::{Client, ClientBuilder, ClientError, Heard, Listen};
use crate::level::LogLevel;
use crate::live::{Change, Live};

/// How a remote is (re)connected: a client builder with the proxy's hooks in, a client out.
pub(crate) type Connector = Box<
    dyn Fn(ClientBuilder) -> Pin<Box<dyn Future<Output = Result<Client, ClientError>> + Send>>
        + Send
        + Sync,
>;

/// The first wait before reconnecting, doubled after each failure up to [`MAX_BACKOFF`].
pub(crate) const FIRST_BACKOFF: Duration = Duration::from_millis(200);
/// The longest wait between two reconnection attempts.
pub(crate) const MAX_BACKOFF: Duration = Duration::from_secs(10);

/// A remote, as its mount holds it.
pub(crate) struct Link {
    /// The prefix it is mounted under: its name in every error.
    pub(crate) prefix: &'static str,
    connect: Connector,
    /// The relays the remote's items are served by.
    handlers: Handlers,
    state: Mutex<State>,
    /// Rung when the remote says a list changed: many notifications make one refresh.
    changed: Arc<Notify>,
    /// The server's live catalog, once the server is built.
    live: OnceLock<Arc<Live>>,
    /// Which served names are the remote's, for the relays.
    pub(crate) routes: RwLock<Routes>,
    /// The relayed calls in flight, each with where the remote's asks for it go.
    callers: Mutex<Vec<(u64, Asks, crate::context::Context)>>,
    next_caller: AtomicU64,
}

/// A remote's ask (`elicitation/create`), handed to the call it belongs to, and where the
/// caller's answer goes.
pub(crate) struct Asked {
    pub(crate) params: Value,
    pub(crate) answer: oneshot::Sender<Value>,
}

/// Where a relayed call takes the remote's asks.
pub(crate) type Asks = mpsc::Sender<Asked>;

/// A relayed call's place among the link's callers, given back when it ends.
pub(crate) struct Calling {
    link: Arc<Link>,
    id: u64,
}

impl Drop for Calling {
    fn drop(&mut self) {
        let mut callers = self.link.callers.lock().unwrap_or_else(|e| e.into_inner());
        callers.retain(|(id, _, _)| *id != self.id);
    }
}

struct State {
    client: Option<Arc<Client>>,
    /// The tasks that hear the client's list changes and its resources' updates.
    hearing: Hearing,
    /// Why there is no client.
    down: String,
    reconnecting: bool,
    listing: Listing,
}

/// The tasks reading a client's listen streams: what it says changed, and which of its
/// resources were updated (subscribed again when its resources change).
#[derive(Default)]
struct Hearing {
    changes: Option<tokio::task::JoinHandle<()>>,
    updates: Option<tokio::task::JoinHandle<()>>,
}

impl Hearing {
    fn stop(&mut self) {
        for task in [self.changes.take(), self.updates.take()]
            .into_iter()
            .flatten()
        {
            task.abort();
        }
    }
}

/// A client connected, what it listed, and the tasks hearing it.
type Connected = (Arc<Client>, Listing, Hearing);

impl Drop for Link {
    fn drop(&mut self) {
        self.lock().hearing.stop();
        // The watcher holds only a weak reference: woken, it finds the link gone and ends.
        self.changed.notify_one();
    }
}

impl Link {
    /// Connects and lists; the link and its definitions, or why not.
    pub(crate) async fn open(
        prefix: &'static str,
        connect: Connector,
        handlers: Handlers,
    ) -> Result<(Arc<Link>, crate::catalog::Definitions), super::ProxyError> {
        let link = Arc::new(Link {
            prefix,
            connect,
            handlers,
            state: Mutex::new(State {
                client: None,
                hearing: Hearing::default(),
                down: String::new(),
                reconnecting: false,
                listing: Listing::default(),
            }),
            changed: Arc::new(Notify::new()),
            live: OnceLock::new(),
            routes: RwLock::new(Routes::default()),
            callers: Mutex::new(Vec::new()),
            next_caller: AtomicU64::new(0),
        });
        let (client, listing, hearing) =
            link.connect().await.map_err(super::ProxyError::Connect)?;
        let (definitions, routes) = view::definitions(remote_name(prefix), &listing, handlers)
            .map_err(|reason| super::ProxyError::Listing {
                remote: prefix.to_owned(),
                reason,
            })?;
        *link.routes.write().unwrap_or_else(|e| e.into_inner()) = routes;
        {
            let mut state = link.lock();
            state.client = Some(client);
            state.hearing = hearing;
            state.listing = listing;
        }
        tokio::spawn(watch(Arc::downgrade(&link), Arc::clone(&link.changed)));
        Ok((link, definitions))
    }

    /// Binds the link to the server that mounts it.
    pub(crate) fn bind(&self, live: Arc<Live>) {
        let _ = self.live.set(live);
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Registers a relayed call: the remote's asks that name no call go to it while it is the
    /// only one in flight.
    pub(crate) fn calling(
        self: &Arc<Self>,
        asks: Asks,
        caller: crate::context::Context,
    ) -> Calling {
        let id = self.next_caller.fetch_add(1, Ordering::Relaxed);
        let mut callers = self.callers.lock().unwrap_or_else(|e| e.into_inner());
        callers.push((id, asks, caller));
        Calling {
            link: Arc::clone(self),
            id,
        }
    }

    /// The one relayed call in flight, if exactly one is: an ask the remote sends on its
    /// session (2025-11-25) does not say which call it is for, and with two in flight the proxy
    /// does not guess.
    pub(crate) fn only_caller(&self) -> Option<Asks> {
        let callers = self.callers.lock().unwrap_or_else(|e| e.into_inner());
        match callers.as_slice() {
            [(_, asks, _)] => Some(asks.clone()),
            _ => None,
        }
    }

    /// A log message the remote sent: to the caller of the one relayed call in flight, at the
    /// level it asked for (a log names no call; with two in flight it is not relayed).
    fn logged(&self, level: &str, logger: Option<&str>, data: &Value) {
        let callers = self.callers.lock().unwrap_or_else(|e| e.into_inner());
        let ([(_, _, caller)], Ok(level)) = (callers.as_slice(), level.parse::<LogLevel>()) else {
            return;
        };
        let _ = match logger {
            Some(logger) => caller.log_as(level, logger, data),
            None => caller.log(level, data),
        };
    }

    /// The client connected now, or why there is none.
    pub(crate) fn client(&self) -> Result<Arc<Client>, String> {
        let state = self.lock();
        state.client.clone().ok_or_else(|| state.down.clone())
    }

    /// A client for the remote, with the proxy's hooks, its four lists, and the task that
    /// hears their changes (listening before listing, so no change falls between).
    async fn connect(self: &Arc<Self>) -> Result<Connected, ClientError> {
        let changed = Arc::downgrade(&self.changed);
        let asking = Arc::downgrade(self);
        let logging = Arc::downgrade(self);
        let builder = Client::builder()
            .on_elicitation(move |params| asked(asking.clone(), params))
            .client_info("beam-mcp-proxy", env!("CARGO_PKG_VERSION"))
            .on_heard(move |heard| match &heard {
                Heard::Log {
                    level,
                    logger,
                    data,
                } => {
                    if let Some(link) = logging.upgrade() {
                        link.logged(level, logger.as_deref(), data);
                    }
                }
                Heard::Other(note)
                    if note
                        .get("method")
                        .and_then(Value::as_str)
                        .is_some_and(|m| m.ends_with("/list_changed")) =>
                {
                    if let Some(changed) = changed.upgrade() {
                        changed.notify_one();
                    }
                }
                _ => {}
            });
        let client = Arc::new((self.connect)(builder).await?);
        // A 2025-11-25 session's log level is the session's: every message is asked for, and
        // each relayed at the level its caller asked for (a 2026-07-28 call asks in its `_meta`).
        if client.revision() == crate::protocol::Revision::V2025_11_25
            && client.capabilities().get("logging").is_some()
        {
            let level = serde_json::json!({ "level": "debug" });
            if let Err(e) = client.request("logging/setLevel", level).await {
                tracing::warn!(remote = self.prefix, error = %e, "the remote's log messages are not asked for");
            }
        }
        let changes = self.hear(&client).await;
        let listing = list(&client).await?;
        let updates = self.hear_updates(&client, &listing).await;
        Ok((client, listing, Hearing { changes, updates }))
    }

    /// Listens to updates of the remote's resources (when it takes subscriptions), each told
    /// to this server's subscribers of the resource as it is served here. The URIs are those
    /// `listing` has: the remote's when connected, and again each time its resources change.
    async fn hear_updates(
        self: &Arc<Self>,
        client: &Client,
        listing: &Listing,
    ) -> Option<tokio::task::JoinHandle<()>> {
        let subscribes = client
            .capabilities()
            .pointer("/resources/subscribe")
            .and_then(Value::as_bool)
            == Some(true);
        let uris: Vec<&str> = listing
            .resources
            .iter()
            .filter_map(|r| r.get("uri").and_then(Value::as_str))
            .collect();
        if !subscribes || uris.is_empty() {
            return None;
        }
        let what = uris
            .iter()
            .fold(Listen::new(), |what, uri| what.resource(*uri));
        let mut subscription = match client.listen(what).await {
            Ok(subscription) => subscription,
            Err(e) => {
                tracing::warn!(remote = self.prefix, error = %e, "the remote's resource updates are not heard");
                return None;
            }
        };
        let link = Arc::downgrade(self);
        Some(tokio::spawn(async move {
            while let Some(heard) = subscription.next().await {
                let Heard::Other(note) = heard else {
                    continue;
                };
                let Some(link) = link.upgrade() else {
                    return;
                };
                if let Some(uri) = note.pointer("/params/uri").and_then(Value::as_str)
                    && let (Some(live), Some(served)) = (
                        link.live.get(),
                        beam_mcp_rules::namespaced_uri(link.prefix, uri),
                    )
                {
                    live.resource_updated(&served);
                }
            }
        }))
    }

    /// Listens to the lists the remote says change (`listChanged`): at 2026-07-28 they are told
    /// only on a listen stream. A remote that refuses it is refreshed only when reconnected.
    async fn hear(&self, client: &Client) -> Option<tokio::task::JoinHandle<()>> {
        let changes = |kind: &str| {
            client
                .capabilities()
                .get(kind)
                .and_then(|c| c.get("listChanged"))
                .and_then(serde_json::Value::as_bool)
                == Some(true)
        };
        let mut what = Listen::new();
        let mut any = false;
        for (kind, add) in [
            ("tools", Listen::tools as fn(Listen) -> Listen),
            ("prompts", Listen::prompts),
            ("resources", Listen::resources),
        ] {
            if changes(kind) {
                what = add(what);
                any = true;
            }
        }
        if !any {
            return None;
        }
        let mut subscription = match client.listen(what).await {
            Ok(subscription) => subscription,
            Err(e) => {
                tracing::warn!(remote = self.prefix, error = %e, "the remote's list changes are not heard");
                return None;
            }
        };
        let changed = Arc::downgrade(&self.changed);
        Some(tokio::spawn(async move {
            while subscription.next().await.is_some() {
                match changed.upgrade() {
                    Some(changed) => changed.notify_one(),
                    None => return,
                }
            }
        }))
    }

    /// The client `lost` went away (`why`): calls fail naming the remote until a new client is
    /// connected, tried after a back-off that doubles.
    pub(crate) fn lost(self: &Arc<Self>, lost: &Arc<Client>, why: String) {
        let mut state = self.lock();
        if !state.client.as_ref().is_some_and(|c| Arc::ptr_eq(c, lost)) {
            return;
        }
        tracing::warn!(remote = self.prefix, reason = %why, "remote lost; reconnecting");
        state.client = None;
        state.hearing.stop();
        state.down = why;
        if !state.reconnecting {
            state.reconnecting = true;
            tokio::spawn(reconnect(Arc::downgrade(self)));
        }
    }

    /// Lists again, and mounts what changed.
    async fn refresh(self: &Arc<Self>) {
        let Ok(client) = self.client() else {
            return;
        };
        match list(&client).await {
            Ok(listing) => {
                if self.remount(listing) {
                    self.subscribe_again(&client).await;
                }
            }
            Err(e) if is_lost(&e) => self.lost(&client, e.to_string()),
            Err(e) => tracing::warn!(remote = self.prefix, error = %e, "remote not listed again"),
        }
    }

    /// Hears the updates of the resources the remote lists now (the new subscription open
    /// before the old one ends, so no update falls between), when `client` is still the link's.
    async fn subscribe_again(self: &Arc<Self>, client: &Arc<Client>) {
        let listing = self.lock().listing.clone();
        let updates = self.hear_updates(client, &listing).await;
        let mut state = self.lock();
        if !state
            .client
            .as_ref()
            .is_some_and(|c| Arc::ptr_eq(c, client))
        {
            if let Some(task) = updates {
                task.abort();
            }
            return;
        }
        if let Some(old) = std::mem::replace(&mut state.hearing.updates, updates) {
            old.abort();
        }
    }

    /// Puts `listing` in place of the mounted view, when it differs; a view the catalog refuses
    /// (a clash, a schema) is logged and the old one kept. True when the resources' URIs
    /// changed in the view served now (their updates are to be subscribed again).
    fn remount(&self, listing: Listing) -> bool {
        let old = self.lock().listing.clone();
        let uris = |listing: &Listing| -> Vec<String> {
            let mut uris: Vec<String> = listing
                .resources
                .iter()
                .filter_map(|r| r.get("uri").and_then(Value::as_str).map(str::to_owned))
                .collect();
            uris.sort_unstable();
            uris
        };
        let resubscribe = uris(&old) != uris(&listing);
        let mut changes = Vec::new();
        if old.tools != listing.tools {
            changes.push(Change::Tools);
        }
        if old.prompts != listing.prompts {
            changes.push(Change::Prompts);
        }
        if old.resources != listing.resources || old.templates != listing.templates {
            changes.push(Change::Resources);
        }
        if changes.is_empty() {
            return false;
        }
        let refused = |reason: String| {
            tracing::warn!(remote = self.prefix, %reason, "the remote's new lists are not served; the old view stays");
            false
        };
        let (definitions, routes) =
            match view::definitions(remote_name(self.prefix), &listing, self.handlers) {
                Ok(done) => done,
                Err(reason) => return refused(reason),
            };
        if let Some(live) = self.live.get()
            && let Err(e) =
                live.replace_mount(self.prefix, remote_name(self.prefix), definitions, &changes)
        {
            return refused(e.to_string());
        }
        *self.routes.write().unwrap_or_else(|e| e.into_inner()) = routes;
        self.lock().listing = listing;
        resubscribe
    }
}

tokio::task_local! {
    /// Where the remote's asks for the relayed call this task is running go: an ask the client
    /// answers within the call (a 2026-07-28 `input_required` round) finds its call here.
    pub(crate) static CALLER: Asks;
}

/// The client's answer to a remote's `elicitation/create`: relayed to the caller of the call it
/// belongs to (this task's, or the only one in flight), that caller's answer returned. With no
/// call to relay it to, the ask is cancelled: the proxy does not guess whom to ask.
pub(crate) async fn asked(link: Weak<Link>, params: Value) -> Value {
    let cancel = serde_json::json!({ "action": "cancel" });
    let asks = CALLER
        .try_with(Asks::clone)
        .ok()
        .or_else(|| link.upgrade().and_then(|l| l.only_caller()));
    let Some(asks) = asks else {
        tracing::warn!("a remote asked with no single relayed call in flight; cancelled");
        return cancel;
    };
    let (answer, answered) = tokio::sync::oneshot::channel();
    if asks.send(Asked { params, answer }).await.is_err() {
        return cancel;
    }
    answered.await.unwrap_or(cancel)
}

/// The name every item of the remote is declared at, for a clash's message.
fn remote_name(prefix: &str) -> &'static str {
    crate::mount::intern(format!("remote {prefix:?}"))
}

/// True when the error means the connection is gone (not a refusal or a slow answer).
pub(crate) fn is_lost(error: &ClientError) -> bool {
    matches!(
        error,
        ClientError::Closed { .. } | ClientError::Write(_) | ClientError::Spawn { .. }
    )
}

/// The remote's four lists, each only when its capabilities say it serves it.
async fn list(client: &Client) -> Result<Listing, ClientError> {
    let serves = |kind: &str| client.capabilities().get(kind).is_some();
    let mut listing = Listing {
        completes: serves("completions"),
        ..Listing::default()
    };
    if serves("tools") {
        listing.tools = every_page(client, "tools/list", "tools").await?;
    }
    if serves("prompts") {
        listing.prompts = every_page(client, "prompts/list", "prompts").await?;
    }
    if serves("resources") {
        listing.resources = every_page(client, "resources/list", "resources").await?;
        listing.templates =
            every_page(client, "resources/templates/list", "resourceTemplates").await?;
    }
    Ok(listing)
}

async fn every_page(client: &Client, method: &str, key: &str) -> Result<Vec<Value>, ClientError> {
    client.list_bounded(method, key, view::MAX_ITEMS).await
}

/// Refreshes the view each time the remote says a list changed, while the link lives.
async fn watch(link: Weak<Link>, changed: Arc<Notify>) {
    loop {
        changed.notified().await;
        let Some(link) = link.upgrade() else {
            return;
        };
        link.refresh().await;
    }
}

/// Connects again until it works (or the link is dropped), then mounts what the remote lists.
async fn reconnect(link: Weak<Link>) {
    let mut wait = FIRST_BACKOFF;
    loop {
        tokio::time::sleep(wait).await;
        let Some(strong) = link.upgrade() else {
            return;
        };
        match strong.connect().await {
            Ok((client, listing, hearing)) => {
                {
                    let mut state = strong.lock();
                    state.client = Some(client);
                    state.hearing = hearing;
                    state.reconnecting = false;
                }
                tracing::info!(remote = strong.prefix, "remote reconnected");
                // Its updates are heard already: `connect` subscribed what it listed.
                strong.remount(listing);
                return;
            }
            Err(e) => {
                tracing::warn!(remote = strong.prefix, error = %e, "remote still down");
                strong.lock().down = e.to_string();
                wait = (wait * 2).min(MAX_BACKOFF);
            }
        }
    }
}

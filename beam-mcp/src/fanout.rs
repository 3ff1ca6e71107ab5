//! The fan-out of catalog changes across replicas: a change made through one replica's
//! [`LiveCatalog`](crate::LiveCatalog) reaches the listen streams and legacy sessions held by
//! every other replica, exactly once each.
//!
//! A replica tells its own subscribers at once, then publishes the change on a [`Fanout`]; the
//! other replicas hear it and tell theirs. What travels is the notification, not the catalog:
//! each replica's catalog is its own, and a host that changes one replica's items changes the
//! others' the same way (from the same configuration, say). With no fan-out configured a
//! change reaches the replica's own subscribers only, as before.

use std::sync::{Arc, Weak};

use crate::store::{StoreError, StoreFuture};

/// What one replica tells the others: which list changed, or which resource was updated.
///
/// ```
/// use beam_mcp::fanout::Broadcast;
///
/// let update = Broadcast::ResourceUpdated { uri: "file:///a.txt".into() };
/// assert_eq!(Broadcast::decode(&update.encode()), Some(update));
/// assert_eq!(Broadcast::decode("tools"), Some(Broadcast::ToolsChanged));
/// assert_eq!(Broadcast::decode("no such thing"), None);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Broadcast {
    /// `notifications/tools/list_changed`.
    ToolsChanged,
    /// `notifications/prompts/list_changed`.
    PromptsChanged,
    /// `notifications/resources/list_changed`.
    ResourcesChanged,
    /// `notifications/resources/updated` for `uri` (and what is under it).
    ResourceUpdated {
        /// The updated resource.
        uri: String,
    },
}

impl Broadcast {
    /// The message as text, for a store's channel: `tools`, `prompts`, `resources`, or
    /// `updated ` and the URI.
    pub fn encode(&self) -> String {
        match self {
            Broadcast::ToolsChanged => "tools".into(),
            Broadcast::PromptsChanged => "prompts".into(),
            Broadcast::ResourcesChanged => "resources".into(),
            Broadcast::ResourceUpdated { uri } => format!("updated {uri}"),
        }
    }

    /// The message [`encode`](Self::encode) wrote; `None` for text it cannot have written.
    pub fn decode(text: &str) -> Option<Broadcast> {
        match text {
            "tools" => Some(Broadcast::ToolsChanged),
            "prompts" => Some(Broadcast::PromptsChanged),
            "resources" => Some(Broadcast::ResourcesChanged),
            _ => text
                .strip_prefix("updated ")
                .map(|uri| Broadcast::ResourceUpdated { uri: uri.into() }),
        }
    }
}

/// Carries [`Broadcast`]s between the replicas of one server. The Redis engine implements it
/// on pub/sub (`redis`, feature `redis`); a host may bring its own bus.
///
/// ```
/// use beam_mcp::fanout::{Broadcast, Delivery, Fanout};
/// use beam_mcp::store::{StoreError, StoreFuture};
/// use std::sync::Mutex;
///
/// /// One process standing in for many: what is published is heard back, as a bus would
/// /// deliver it to another replica.
/// #[derive(Default)]
/// struct Loopback(Mutex<Option<Delivery>>);
///
/// impl Fanout for Loopback {
///     fn publish(&self, message: Broadcast) -> StoreFuture<Result<(), StoreError>> {
///         if let Some(delivery) = &*self.0.lock().unwrap() {
///             delivery.deliver(&message);
///         }
///         StoreFuture::ready(Ok(()))
///     }
///     fn deliver_to(&self, delivery: Delivery) {
///         *self.0.lock().unwrap() = Some(delivery);
///     }
/// }
///
/// let (builder, catalog) = beam_mcp::Server::builder().live();
/// let server = builder.fanout(Loopback::default()).build().unwrap();
/// catalog.resource_updated("file:///a.txt");
/// # let _ = server;
/// ```
pub trait Fanout: Send + Sync + 'static {
    /// Tells every other replica. The replica that publishes has told its own subscribers
    /// already, so a bus must not deliver a message back to the replica that sent it. A
    /// failure is logged by the caller; the change stands in the replica that made it.
    fn publish(&self, message: Broadcast) -> StoreFuture<Result<(), StoreError>>;

    /// From now on, hands what the other replicas publish to `delivery`. Called once, when
    /// the server is built. A bus that lost messages (a broken connection) delivers the three
    /// list changes once it is back, so no subscriber keeps a list it was not told is stale.
    fn deliver_to(&self, delivery: Delivery);
}

impl<T: Fanout + ?Sized> Fanout for Arc<T> {
    fn publish(&self, message: Broadcast) -> StoreFuture<Result<(), StoreError>> {
        (**self).publish(message)
    }

    fn deliver_to(&self, delivery: Delivery) {
        (**self).deliver_to(delivery)
    }
}

/// What hears another replica's messages: the live catalog's broadcaster.
pub(crate) trait Hear: Send + Sync + 'static {
    /// Tells this replica's subscribers.
    fn hear(&self, message: &Broadcast);
}

/// Where a [`Fanout`] hands what other replicas published: this replica's subscribers. It
/// holds the server weakly, so a bus that outlives its server delivers to no one.
#[derive(Clone)]
pub struct Delivery {
    live: Weak<dyn Hear>,
}

impl Delivery {
    pub(crate) fn new<H: Hear>(live: &Arc<H>) -> Delivery {
        let live: Weak<dyn Hear> = Arc::downgrade(live) as Weak<dyn Hear>;
        Delivery { live }
    }

    /// Tells this replica's subscribers what another replica published.
    pub fn deliver(&self, message: &Broadcast) {
        if let Some(live) = self.live.upgrade() {
            live.hear(message);
        }
    }

    /// Tells this replica's subscribers that every list may have changed: what a bus does
    /// when it may have missed messages.
    pub fn deliver_all_changed(&self) {
        for message in [
            Broadcast::ToolsChanged,
            Broadcast::PromptsChanged,
            Broadcast::ResourcesChanged,
        ] {
            self.deliver(&message);
        }
    }
}

impl std::fmt::Debug for Delivery {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Delivery")
            .field("server_alive", &(self.live.strong_count() > 0))
            .finish()
    }
}

/// Publishes `message` on `fanout`, now or on the current runtime; a failure is logged.
pub(crate) fn publish(fanout: &dyn Fanout, message: Broadcast) {
    match fanout.publish(message).into_ready() {
        Ok(result) => published(result),
        Err(later) => match tokio::runtime::Handle::try_current() {
            Ok(runtime) => {
                runtime.spawn(async move { published(later.await) });
            }
            Err(_) => tracing::error!(
                "a catalog change was made outside a tokio runtime: the other replicas are not told"
            ),
        },
    }
}

fn published(result: Result<(), StoreError>) {
    if let Err(error) = result {
        tracing::error!(
            detail = %crate::caller_text::Logged(error.detail()),
            "a catalog change could not be told to the other replicas"
        );
    }
}

//! The fan-out on Redis pub/sub: one channel per server, each message tagged with the replica
//! that sent it, so a replica skips its own and every other hears it once.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use redis::aio::{AsyncPushSender, SendError};
use redis::{PushInfo, PushKind, Value};

use super::{Redis, Shared};
use crate::fanout::{Broadcast, Delivery, Fanout};
use crate::store::{StoreError, StoreFuture};

/// The live catalog's fan-out over Redis pub/sub (`PUBLISH` on `beam-mcp:{server}:bus`).
/// Built by [`Redis::fanout`]; give it to
/// [`ServerBuilder::fanout`](crate::ServerBuilder::fanout).
///
/// A replica that lost its connection may have missed messages: once it is subscribed again it
/// tells its own subscribers that every list changed, so none keeps a stale list unawares.
#[derive(Debug, Clone)]
pub struct RedisFanout {
    redis: Redis,
    channel: Arc<str>,
}

impl Redis {
    /// The fan-out of this server's live catalog changes across the replicas sharing this
    /// Redis.
    pub fn fanout(&self) -> RedisFanout {
        RedisFanout {
            redis: self.clone(),
            channel: self.key("bus").into(),
        }
    }
}

impl Fanout for RedisFanout {
    fn publish(&self, message: Broadcast) -> StoreFuture<Result<(), StoreError>> {
        self.redis.publish(&self.channel, &message.encode())
    }

    fn deliver_to(&self, delivery: Delivery) {
        if self.redis.shared.delivery.set(delivery).is_err() {
            tracing::warn!(
                "a Redis fan-out was given to a second server; it delivers to the first"
            );
        }
    }
}

/// Receives the connection's push messages: the bus's messages, and the confirmations of
/// (re)subscription.
pub(super) struct Pushes {
    shared: Arc<Shared>,
    channel: String,
    /// The channel of task relays.
    tasks: String,
    /// The channel of session relays.
    sessions: String,
    /// Set by the first subscription's confirmation; a later one follows a reconnection.
    subscribed: AtomicBool,
}

impl Pushes {
    pub(super) fn new(
        shared: Arc<Shared>,
        channel: String,
        tasks: String,
        sessions: String,
    ) -> Pushes {
        Pushes {
            shared,
            channel,
            tasks,
            sessions,
            subscribed: AtomicBool::new(false),
        }
    }

    fn message(&self, data: &[Value]) {
        let [Value::BulkString(channel), Value::BulkString(payload)] = data else {
            return;
        };
        let Ok(payload) = std::str::from_utf8(payload) else {
            return;
        };
        let Some((replica, text)) = payload.split_once(' ') else {
            return;
        };
        if replica == self.shared.replica {
            return;
        }
        if channel.as_slice() == self.tasks.as_bytes() {
            match (super::tasks::relayed(text), self.shared.tasks.get()) {
                (Some((id, relay)), Some(delivery)) => delivery.deliver(id, relay),
                (None, _) => tracing::warn!("a task relay this version cannot read was skipped"),
                (Some(_), None) => {}
            }
            return;
        }
        if channel.as_slice() == self.sessions.as_bytes() {
            match (super::sessions::relayed(text), self.shared.sessions.get()) {
                (Some((id, relay)), Some(delivery)) => delivery.deliver(id, relay),
                (None, _) => tracing::warn!("a session relay this version cannot read was skipped"),
                (Some(_), None) => {}
            }
            return;
        }
        if channel.as_slice() != self.channel.as_bytes() {
            return;
        }
        match (Broadcast::decode(text), self.shared.delivery.get()) {
            (Some(message), Some(delivery)) => delivery.deliver(&message),
            (None, _) => tracing::warn!("a fan-out message this version cannot read was skipped"),
            (Some(_), None) => {}
        }
    }
}

impl Pushes {
    fn is_bus(&self, data: &[Value]) -> bool {
        matches!(data.first(), Some(Value::BulkString(c)) if c.as_slice() == self.channel.as_bytes())
    }
}

impl AsyncPushSender for Pushes {
    fn send(&self, info: PushInfo) -> Result<(), SendError> {
        match info.kind {
            PushKind::Message => self.message(&info.data),
            // One confirmation per channel; the bus's after the first is a resubscription.
            PushKind::Subscribe if self.is_bus(&info.data) => {
                if self.subscribed.swap(true, Ordering::AcqRel)
                    && let Some(delivery) = self.shared.delivery.get()
                {
                    // Back after a lost connection: whatever was published meanwhile is gone.
                    delivery.deliver_all_changed();
                }
            }
            _ => {}
        }
        Ok(())
    }
}

//! 2025-11-25 sessions shared in Redis: each session's record in a hash that every request
//! touches, and what replicas tell each other of a session on the server's session channel.

use std::collections::HashMap;
use std::sync::{Arc, LazyLock};
use std::time::Duration;

use redis::Script;
use serde_json::{Map, Value};

use super::Redis;
use super::tasks::{hex, unhex};
use crate::context::LogLevel;
use crate::store::{
    SessionDelivery, SessionRelay, SessionShare, SharedSession, StoreError, StoreFuture,
};

/// A new session's record, unless its principal holds `ARGV[2]` sessions already (0: no share
/// to hold it to). `KEYS[1]` the session's hash, `KEYS[2]` its principal's set of sessions (each
/// scored by when it expires, in ms on Redis's clock); `ARGV`: the idle lifetime in ms, the
/// share, the session id, then the record's fields and values.
static OPEN: LazyLock<Script> = LazyLock::new(|| {
    Script::new(
        r"
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local idle = tonumber(ARGV[1])
if tonumber(ARGV[2]) > 0 then
  redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now)
  if redis.call('ZCARD', KEYS[2]) >= tonumber(ARGV[2]) then return 0 end
  redis.call('ZADD', KEYS[2], now + idle, ARGV[3])
  redis.call('PEXPIRE', KEYS[2], idle)
end
redis.call('DEL', KEYS[1])
redis.call('HSET', KEYS[1], unpack(ARGV, 4))
redis.call('PEXPIRE', KEYS[1], idle)
return 1
",
    )
});

/// The record, its expiry pushed on (and its place in its principal's set): `KEYS[1]` the
/// session's hash, `ARGV[1]` the idle lifetime in ms, `ARGV[2]` the prefix of the principals'
/// sets, `ARGV[3]` the session id. Nothing (an empty array) when the session ended or expired.
static TOUCH: LazyLock<Script> = LazyLock::new(|| {
    Script::new(
        r"
local held = redis.call('HGETALL', KEYS[1])
if #held > 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  local share = redis.call('HGET', KEYS[1], 'share')
  if share and share ~= '' then
    local t = redis.call('TIME')
    local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
    redis.call('ZADD', ARGV[2] .. share, 'XX', now + tonumber(ARGV[1]), ARGV[3])
    redis.call('PEXPIRE', ARGV[2] .. share, ARGV[1])
  end
end
return held
",
    )
});

/// A change of the record and its relay, in one step: `KEYS[1]` the hash, `KEYS[2]` the
/// channel; `ARGV`: what changes (`level`, `sub`, `unsub`, `end`, or `relay` for nothing), its
/// value, the message to publish, the prefix of the principals' sets and the session id. A
/// record that is gone is not brought back; an ended one leaves its principal's set.
static CHANGE: LazyLock<Script> = LazyLock::new(|| {
    Script::new(
        r"
local op = ARGV[1]
if op == 'end' then
  local share = redis.call('HGET', KEYS[1], 'share')
  if share and share ~= '' then redis.call('ZREM', ARGV[4] .. share, ARGV[5]) end
  redis.call('DEL', KEYS[1])
elseif op ~= 'relay' and redis.call('EXISTS', KEYS[1]) == 1 then
  if op == 'level' then redis.call('HSET', KEYS[1], 'level', ARGV[2])
  elseif op == 'sub' then redis.call('HSET', KEYS[1], 'sub:' .. ARGV[2], '1')
  elseif op == 'unsub' then redis.call('HDEL', KEYS[1], 'sub:' .. ARGV[2]) end
end
redis.call('PUBLISH', KEYS[2], ARGV[3])
return 1
",
    )
});

/// The server's 2025-11-25 sessions in Redis (`beam-mcp:{server}:session:{id}`, a hash that
/// expires after the session's idle lifetime, pushed on by each request), served by every
/// replica; what replicas tell each other travels on `beam-mcp:{server}:sessions`. Built by
/// [`Redis::sessions`]; give it to `HttpBuilder::session_share`, with [`Redis::event_store`]
/// as the endpoint's `event_store`.
///
/// ```no_run
/// # async fn run(redis: beam_mcp::redis::Redis, server: beam_mcp::Server) {
/// use beam_mcp::transport::http::{Http, Origins};
///
/// let endpoint = Http::builder(server)
///     .authorize(|_| Ok(()))
///     .allowed_origins(Origins::Loopback)
///     .session_share(redis.sessions())
///     .event_store(redis.event_store())
///     .build()
///     .unwrap();
/// # let _ = endpoint;
/// # }
/// ```
#[derive(Debug, Clone)]
pub struct RedisSessions {
    redis: Redis,
    channel: Arc<str>,
}

impl Redis {
    /// This server's 2025-11-25 sessions, shared across the replicas using this Redis.
    pub fn sessions(&self) -> RedisSessions {
        RedisSessions {
            redis: self.clone(),
            channel: self.key("sessions").into(),
        }
    }
}

/// `duration` in whole milliseconds, at least 1 (Redis refuses a zero expiry).
pub(super) fn millis(duration: Duration) -> u64 {
    u64::try_from(duration.as_millis())
        .unwrap_or(u64::MAX)
        .max(1)
}

impl RedisSessions {
    fn record_key(&self, id: &str) -> String {
        self.redis.key(&format!("session:{id}"))
    }

    /// The prefix of the principals' sets of sessions (`sessions-of:{share}`).
    fn sets(&self) -> String {
        self.redis.key("sessions-of:")
    }

    /// Changes the record (`op`, `value`) and relays `payload`, in one script.
    fn run(
        &self,
        id: &str,
        op: &'static str,
        value: &str,
        payload: String,
    ) -> StoreFuture<Result<(), StoreError>> {
        let (key, channel) = (self.record_key(id), self.channel.to_string());
        let tagged = format!("{} {payload}", self.redis.shared.replica);
        let (value, sets, id) = (value.to_owned(), self.sets(), id.to_owned());
        let mut manager = self.redis.manager();
        let changed = self
            .redis
            .timed(super::Command::script("session.change"), async move {
                CHANGE
                    .key(key)
                    .key(channel)
                    .arg(op)
                    .arg(value)
                    .arg(tagged)
                    .arg(sets)
                    .arg(id)
                    .invoke_async::<i64>(&mut manager)
                    .await
            });
        StoreFuture::later(async move { changed.await.map(drop) })
    }
}

impl SessionShare for RedisSessions {
    fn open(
        &self,
        session: SharedSession,
        idle: Duration,
        most: usize,
    ) -> StoreFuture<Result<bool, StoreError>> {
        let key = self.record_key(&session.id);
        // A principal that tells no caller apart has no set: it is held to each replica's bound.
        let (set, most) = match session.share {
            Some(share) => (format!("{}{share}", self.sets()), most),
            None => (self.redis.key("sessions-of:none"), 0),
        };
        let mut fields = vec![
            "principal".to_owned(),
            hex(session.principal),
            "share".to_owned(),
            session.share.map(|s| s.to_string()).unwrap_or_default(),
            "hello".to_owned(),
            Value::Object(session.hello).to_string(),
            "level".to_owned(),
            session
                .log_level
                .map(|l| l.as_str().to_owned())
                .unwrap_or_default(),
        ];
        for uri in session.subscriptions {
            fields.push(format!("sub:{uri}"));
            fields.push("1".to_owned());
        }
        let id = session.id;
        let mut manager = self.redis.manager();
        let opened = self
            .redis
            .timed(super::Command::script("session.open"), async move {
                OPEN.key(key)
                    .key(set)
                    .arg(millis(idle))
                    .arg(most)
                    .arg(id)
                    .arg(fields)
                    .invoke_async::<i64>(&mut manager)
                    .await
            });
        StoreFuture::later(async move { opened.await.map(|kept| kept == 1) })
    }

    fn touch(
        &self,
        id: &str,
        idle: Duration,
    ) -> StoreFuture<Result<Option<SharedSession>, StoreError>> {
        let (key, sets) = (self.record_key(id), self.sets());
        let id = id.to_owned();
        let member = id.clone();
        let mut manager = self.redis.manager();
        let read = self
            .redis
            .timed(super::Command::script("session.touch"), async move {
                TOUCH
                    .key(key)
                    .arg(millis(idle))
                    .arg(sets)
                    .arg(member)
                    .invoke_async::<HashMap<String, String>>(&mut manager)
                    .await
            });
        StoreFuture::later(async move {
            let held = read.await?;
            if held.is_empty() {
                return Ok(None);
            }
            read_record(id, &held).map(Some)
        })
    }

    fn change(&self, id: &str, change: SessionRelay) -> StoreFuture<Result<(), StoreError>> {
        let (op, value, payload) = match &change {
            SessionRelay::Response(message) => (
                "relay",
                String::new(),
                format!("response {id} {}", Value::Object(message.clone())),
            ),
            SessionRelay::Cancelled(params) => (
                "relay",
                String::new(),
                format!("cancel {id} {}", Value::Object(params.clone())),
            ),
            SessionRelay::LogLevel(level) => (
                "level",
                level.as_str().to_owned(),
                format!("level {id} {}", level.as_str()),
            ),
            SessionRelay::Subscribed(uri, true) => ("sub", uri.clone(), format!("sub {id} {uri}")),
            SessionRelay::Subscribed(uri, false) => {
                ("unsub", uri.clone(), format!("unsub {id} {uri}"))
            }
            SessionRelay::Listening => ("relay", String::new(), format!("listening {id}")),
            SessionRelay::Ended => ("end", String::new(), format!("ended {id}")),
        };
        self.run(id, op, &value, payload)
    }

    fn deliver_to(&self, delivery: SessionDelivery) {
        if self.redis.shared.sessions.set(delivery).is_err() {
            tracing::warn!(
                "Redis sessions were given to a second endpoint; they deliver to the first"
            );
        }
    }
}

/// A record as the hash holds it; one this version did not write is the store failing, not a
/// session to guess at.
fn read_record(id: String, held: &HashMap<String, String>) -> Result<SharedSession, StoreError> {
    let unreadable = || {
        StoreError::unavailable(format!(
            "redis: session {id} is not a record this version wrote"
        ))
    };
    let principal = held
        .get("principal")
        .and_then(|p| unhex(p))
        .ok_or_else(unreadable)?;
    let share = match held.get("share").map(String::as_str) {
        None | Some("") => None,
        Some(share) => Some(share.parse::<u64>().map_err(|_| unreadable())?),
    };
    let hello = held
        .get("hello")
        .and_then(|h| serde_json::from_str::<Map<String, Value>>(h).ok())
        .ok_or_else(unreadable)?;
    let log_level = match held.get("level").map(String::as_str) {
        None | Some("") => None,
        Some(level) => Some(level.parse::<LogLevel>().map_err(|_| unreadable())?),
    };
    let mut subscriptions: Vec<String> = held
        .keys()
        .filter_map(|field| field.strip_prefix("sub:"))
        .map(str::to_owned)
        .collect();
    subscriptions.sort_unstable();
    Ok(SharedSession {
        id,
        principal,
        share,
        hello,
        log_level,
        subscriptions,
    })
}

/// A relay as published (the replica's id taken off): `{verb} {session} {rest}`.
pub(super) fn relayed(text: &str) -> Option<(&str, SessionRelay)> {
    let (verb, rest) = text.split_once(' ')?;
    let (id, rest) = rest.split_once(' ').unwrap_or((rest, ""));
    let object = || serde_json::from_str::<Map<String, Value>>(rest).ok();
    let relay = match verb {
        "response" => SessionRelay::Response(object()?),
        "cancel" => SessionRelay::Cancelled(object()?),
        "level" => SessionRelay::LogLevel(rest.parse().ok()?),
        "sub" => SessionRelay::Subscribed(rest.to_owned(), true),
        "unsub" => SessionRelay::Subscribed(rest.to_owned(), false),
        "listening" => SessionRelay::Listening,
        "ended" => SessionRelay::Ended,
        _ => return None,
    };
    Some((id, relay))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relays_read_back_and_records_refuse_what_they_cannot_read() {
        let (id, relay) = relayed(r#"response s1 {"id": 7, "result": {}}"#).unwrap();
        assert_eq!(id, "s1");
        assert!(matches!(relay, SessionRelay::Response(m) if m["id"] == 7));
        assert_eq!(
            relayed("level s2 warning"),
            Some(("s2", SessionRelay::LogLevel(LogLevel::Warning)))
        );
        assert_eq!(
            relayed("sub s3 file:///a b"),
            Some(("s3", SessionRelay::Subscribed("file:///a b".into(), true)))
        );
        assert_eq!(relayed("ended s4"), Some(("s4", SessionRelay::Ended)));
        assert_eq!(relayed("level s2 loud"), None);
        assert_eq!(relayed("response s1 not-json"), None);
        assert_eq!(relayed("shout s5"), None);

        let mut held = HashMap::new();
        held.insert("principal".to_owned(), hex(Some([3; 32])));
        held.insert("share".to_owned(), "9".to_owned());
        held.insert(
            "hello".to_owned(),
            r#"{"protocolVersion":"2025-11-25"}"#.to_owned(),
        );
        held.insert("level".to_owned(), "error".to_owned());
        held.insert("sub:b".to_owned(), "1".to_owned());
        held.insert("sub:a".to_owned(), "1".to_owned());
        let record = read_record("s".into(), &held).unwrap();
        assert_eq!(record.principal, Some([3; 32]));
        assert_eq!(record.share, Some(9));
        assert_eq!(record.log_level, Some(LogLevel::Error));
        assert_eq!(record.subscriptions, ["a", "b"]);
        held.insert("hello".to_owned(), "[".to_owned());
        assert!(read_record("s".into(), &held).is_err());
    }
}

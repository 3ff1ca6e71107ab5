//! The events of 2025-11-25 session streams in Redis, so a resumption (`Last-Event-ID`) is
//! served by whichever replica it reaches, with the same answers as the in-memory store.

use std::sync::LazyLock;
use std::time::Duration;

use axum::body::Bytes;
use redis::Script;

use super::Redis;
use crate::store::{StoreError, StoreFuture};
use crate::transport::http::{EventStore, ResumeError, StoredEvent};

/// Keeps one event and bounds the session, in one script. `KEYS[1]` is the session's list of
/// events (`{stream} {seq} {data}`), `KEYS[2]` its bookkeeping: `bytes` held, `evicted:{stream}`
/// (the last seq of that stream that went) and `forgotten:{base}` (every stream of that base up
/// to it lost its record). Past `ARGV[2]` events or `ARGV[3]` bytes the oldest go; past
/// `ARGV[5]` records the record of the oldest stream of a base goes into that base's mark.
///
/// A stream's base is its number's high bits (`stream >> 32`): one per replica serving a shared
/// session, each numbering its streams upward from it (0 where sessions are not shared). Streams
/// are ordered within a base only, so each base has a mark of its own; a base's GET stream (low
/// 32 bits zero) keeps its record always. Both keys expire `ARGV[4]` ms after the last event.
static KEEP: LazyLock<Script> = LazyLock::new(|| {
    Script::new(
        r"
redis.call('RPUSH', KEYS[1], ARGV[1])
local bytes = redis.call('HINCRBY', KEYS[2], 'bytes', #ARGV[1])
local max_events = tonumber(ARGV[2])
local max_bytes = tonumber(ARGV[3])
while redis.call('LLEN', KEYS[1]) > max_events or bytes > max_bytes do
  local e = redis.call('LPOP', KEYS[1])
  if not e then break end
  bytes = redis.call('HINCRBY', KEYS[2], 'bytes', -#e)
  local a = string.find(e, ' ', 1, true)
  local b = string.find(e, ' ', a + 1, true)
  local field = 'evicted:' .. string.sub(e, 1, a - 1)
  local seq = tonumber(string.sub(e, a + 1, b - 1))
  if seq > tonumber(redis.call('HGET', KEYS[2], field) or '0') then
    redis.call('HSET', KEYS[2], field, seq)
  end
end
-- The count of records, less 'bytes' and the marks, is read only when the hash may be past it.
local records = 0
if redis.call('HLEN', KEYS[2]) > tonumber(ARGV[5]) + 1 then
  for _, f in ipairs(redis.call('HKEYS', KEYS[2])) do
    if string.sub(f, 1, 8) == 'evicted:' then records = records + 1 end
  end
end
if records > tonumber(ARGV[5]) then
  local oldest, oldest_field, oldest_base, oldest_offset = nil, nil, nil, nil
  for _, f in ipairs(redis.call('HKEYS', KEYS[2])) do
    local text = string.match(f, '^evicted:(%d+)$')
    local stream = tonumber(text or '')
    if stream then
      local base = math.floor(stream / 4294967296)
      local offset = stream - base * 4294967296
      if offset ~= 0 and (oldest_offset == nil or offset < oldest_offset) then
        oldest, oldest_field, oldest_base, oldest_offset = stream, f, base, offset
      end
    end
  end
  if oldest then
    redis.call('HDEL', KEYS[2], oldest_field)
    local mark = string.format('forgotten:%.0f', oldest_base)
    if oldest > tonumber(redis.call('HGET', KEYS[2], mark) or '-1') then
      redis.call('HSET', KEYS[2], mark, string.format('%.0f', oldest))
    end
  end
end
redis.call('PEXPIRE', KEYS[1], ARGV[4])
redis.call('PEXPIRE', KEYS[2], ARGV[4])
return 1
",
    )
});

/// The events of session streams, in Redis: bounded per session in number (default 1000) and
/// bytes (default 16 MiB), expiring with the session's idle lifetime (default 30 minutes after
/// its last event). Built by [`Redis::event_store`]; give it to
/// [`HttpBuilder::event_store`](crate::transport::http::HttpBuilder::event_store).
///
/// The answers are the in-memory store's: a resumption that would need an evicted event is
/// refused, never served in part; one the store cannot read for is refused with 503. Unlike
/// [`MemoryEventStore`](crate::transport::http::MemoryEventStore) it holds no share per
/// principal across sessions: the session bound per principal bounds what one principal keeps.
///
/// ```no_run
/// # async fn run(redis: beam_mcp::redis::Redis) {
/// let events = redis.event_store().per_session(500);
/// # let _ = events;
/// # }
/// ```
#[derive(Debug, Clone)]
pub struct RedisEventStore {
    redis: Redis,
    per_session: usize,
    session_bytes: usize,
    lifetime: Duration,
    /// Eviction records kept per session before the oldest stream's is folded into one mark.
    records: usize,
}

impl Redis {
    /// The events of this server's session streams, kept in Redis.
    pub fn event_store(&self) -> RedisEventStore {
        RedisEventStore {
            redis: self.clone(),
            per_session: 1000,
            session_bytes: 16 << 20,
            lifetime: Duration::from_secs(30 * 60),
            records: 1024,
        }
    }
}

impl RedisEventStore {
    /// Events kept per session (at least 1; default 1000).
    pub fn per_session(mut self, events: usize) -> Self {
        self.per_session = events.max(1);
        self
    }

    /// Bytes kept per session (default 16 MiB).
    pub fn max_session_bytes(mut self, bytes: usize) -> Self {
        self.session_bytes = bytes.max(1);
        self
    }

    /// How long a session's events outlive its last event (default 30 minutes, the sessions'
    /// idle lifetime).
    pub fn lifetime(mut self, lifetime: Duration) -> Self {
        self.lifetime = lifetime.max(Duration::from_millis(1));
        self
    }

    fn keys(&self, session: &str) -> (String, String) {
        (
            self.redis.key(&format!("events:{session}")),
            self.redis.key(&format!("events-meta:{session}")),
        )
    }
}

impl EventStore for RedisEventStore {
    fn store(&self, session: &str, event: StoredEvent) -> StoreFuture<Result<(), StoreError>> {
        let (events, meta) = self.keys(session);
        let mut element = format!("{} {} ", event.stream, event.seq).into_bytes();
        element.extend_from_slice(&event.data);
        let mut manager = self.redis.manager();
        let lifetime = u64::try_from(self.lifetime.as_millis()).unwrap_or(u64::MAX);
        let (per_session, bytes, records) = (self.per_session, self.session_bytes, self.records);
        let kept = self
            .redis
            .timed(super::Command::script("events.keep"), async move {
                KEEP.key(events)
                    .key(meta)
                    .arg(element)
                    .arg(per_session)
                    .arg(bytes)
                    .arg(lifetime)
                    .arg(records)
                    .invoke_async::<i64>(&mut manager)
                    .await
            });
        StoreFuture::later(async move { kept.await.map(drop) })
    }

    fn after(
        &self,
        session: &str,
        stream: u64,
        seq: u64,
    ) -> StoreFuture<Result<Vec<StoredEvent>, ResumeError>> {
        let (events, meta) = self.keys(session);
        let mut manager = self.redis.manager();
        type Held = (Vec<Vec<u8>>, Option<u64>, Option<u64>, bool);
        let read = self
            .redis
            .timed(super::Command::transaction("events.read"), async move {
                redis::pipe()
                    .atomic()
                    .lrange(&events, 0, -1)
                    .hget(&meta, format!("evicted:{stream}"))
                    .hget(&meta, format!("forgotten:{}", stream >> 32))
                    .exists(&meta)
                    .query_async::<Held>(&mut manager)
                    .await
            });
        StoreFuture::later(async move {
            let (held, evicted, forgotten, known) = read.await?;
            if !known && held.is_empty() {
                return Err(ResumeError::Unknown);
            }
            let held: Vec<StoredEvent> = held.iter().filter_map(|e| decode(e)).collect();
            if let Some(gone) = evicted {
                if gone > seq {
                    return Err(ResumeError::Evicted);
                }
            } else if stream & 0xffff_ffff != 0 && forgotten.is_some_and(|f| stream <= f) {
                return Err(ResumeError::Evicted);
            } else if !held.iter().any(|e| e.stream == stream) {
                return Err(ResumeError::Unknown);
            }
            Ok(held
                .into_iter()
                .filter(|e| e.stream == stream && e.seq > seq)
                .collect())
        })
    }

    fn forget(&self, session: &str) -> StoreFuture<Result<(), StoreError>> {
        let (events, meta) = self.keys(session);
        let mut manager = self.redis.manager();
        let deleted = self.redis.timed(super::Command::plain("DEL"), async move {
            redis::cmd("DEL")
                .arg(events)
                .arg(meta)
                .query_async::<i64>(&mut manager)
                .await
        });
        StoreFuture::later(async move { deleted.await.map(drop) })
    }
}

/// One kept element back as an event; `None` for one this version did not write.
fn decode(element: &[u8]) -> Option<StoredEvent> {
    let mut parts = element.splitn(3, |&b| b == b' ');
    let stream = std::str::from_utf8(parts.next()?).ok()?.parse().ok()?;
    let seq = std::str::from_utf8(parts.next()?).ok()?.parse().ok()?;
    let data = Bytes::copy_from_slice(parts.next()?);
    Some(StoredEvent { stream, seq, data })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_element_reads_back_with_spaces_in_its_data() {
        let event = decode(b"3 17 {\"a\": \"b c\"}").unwrap();
        assert_eq!((event.stream, event.seq), (3, 17));
        assert_eq!(&event.data[..], b"{\"a\": \"b c\"}");
        assert_eq!(decode(b"3 x {}"), None);
        assert_eq!(decode(b"3"), None);
    }
}

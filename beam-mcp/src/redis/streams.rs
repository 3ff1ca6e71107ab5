//! A principal's listen streams counted in Redis: a sorted set per principal, each open stream
//! scored by when its lease lapses (ms on Redis's clock), so a replica that dies without giving
//! its streams back holds them only until their leases lapse.

use std::sync::LazyLock;
use std::time::Duration;

use redis::Script;

use super::Redis;
use super::sessions::millis;
use crate::store::{StoreError, StoreFuture, StreamShare};

/// Counts stream `ARGV[3]` in the principal's set `KEYS[1]` with a lease of `ARGV[1]` ms, unless
/// `ARGV[2]` streams hold unlapsed leases there already: 1 when counted, 0 when refused.
static OPEN: LazyLock<Script> = LazyLock::new(|| {
    Script::new(
        r"
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then return 0 end
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[1]), ARGV[3])
if redis.call('PTTL', KEYS[1]) < tonumber(ARGV[1]) then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return 1
",
    )
});

/// Pushes the lease of stream `ARGV[2]` in `KEYS[1]` to `ARGV[1]` ms from now, if it still
/// counts there (a lapsed lease is not taken back).
static RENEW: LazyLock<Script> = LazyLock::new(|| {
    Script::new(
        r"
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
if redis.call('ZADD', KEYS[1], 'XX', 'CH', now + tonumber(ARGV[1]), ARGV[2]) == 1
  and redis.call('PTTL', KEYS[1]) < tonumber(ARGV[1]) then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
end
return 1
",
    )
});

/// Every principal's open listen streams, counted across the replicas using this Redis; give
/// it to `HttpBuilder::stream_share`. Built by [`Redis::streams`].
///
/// Opening a stream is one script run (one round trip), renewing its lease another every
/// third of the lease, ending it a `ZREM`. A stream's place is refused with 503 while Redis
/// cannot answer.
///
/// ```no_run
/// # async fn run(redis: beam_mcp::redis::Redis, server: beam_mcp::Server) {
/// use beam_mcp::transport::http::{Http, Origins};
///
/// let endpoint = Http::builder(server)
///     .authorize(|parts| Ok(parts.headers.get("x-user").map(|v| v.as_bytes().to_vec())))
///     .allowed_origins(Origins::Loopback)
///     .max_streams_per_principal(4)
///     .stream_share(redis.streams())
///     .build()
///     .unwrap();
/// # let _ = endpoint;
/// # }
/// ```
#[derive(Debug, Clone)]
pub struct RedisStreams {
    redis: Redis,
}

impl Redis {
    /// Every principal's open listen streams, counted across the replicas using this Redis.
    pub fn streams(&self) -> RedisStreams {
        RedisStreams {
            redis: self.clone(),
        }
    }
}

impl RedisStreams {
    /// The principal's set of streams (`streams-of:{share}`).
    fn set(&self, share: u64) -> String {
        self.redis.key(&format!("streams-of:{share}"))
    }
}

impl StreamShare for RedisStreams {
    fn open(
        &self,
        share: u64,
        stream: &str,
        lease: Duration,
        most: usize,
    ) -> StoreFuture<Result<bool, StoreError>> {
        let (set, stream) = (self.set(share), stream.to_owned());
        let mut manager = self.redis.manager();
        let opened = self
            .redis
            .timed(super::Command::script("streams.open"), async move {
                OPEN.key(set)
                    .arg(millis(lease))
                    .arg(most)
                    .arg(stream)
                    .invoke_async::<i64>(&mut manager)
                    .await
            });
        StoreFuture::later(async move { opened.await.map(|counted| counted == 1) })
    }

    fn renew(
        &self,
        share: u64,
        stream: &str,
        lease: Duration,
    ) -> StoreFuture<Result<(), StoreError>> {
        let (set, stream) = (self.set(share), stream.to_owned());
        let mut manager = self.redis.manager();
        let renewed = self
            .redis
            .timed(super::Command::script("streams.renew"), async move {
                RENEW
                    .key(set)
                    .arg(millis(lease))
                    .arg(stream)
                    .invoke_async::<i64>(&mut manager)
                    .await
            });
        StoreFuture::later(async move { renewed.await.map(drop) })
    }

    fn close(&self, share: u64, stream: &str) -> StoreFuture<Result<(), StoreError>> {
        let (set, stream) = (self.set(share), stream.to_owned());
        let mut manager = self.redis.manager();
        let closed = self.redis.timed(super::Command::plain("ZREM"), async move {
            redis::cmd("ZREM")
                .arg(set)
                .arg(stream)
                .query_async::<i64>(&mut manager)
                .await
        });
        StoreFuture::later(async move { closed.await.map(drop) })
    }
}

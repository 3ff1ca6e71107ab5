//! The token bucket of [`TokenBucket`](crate::limit::TokenBucket), kept in Redis so that every
//! replica draws from one bucket per caller.

use std::sync::{Arc, LazyLock};
use std::time::Duration;

use redis::Script;

use super::Redis;
use crate::limit::{Caller, Checked, Limited, RateLimit, Retry};

/// GCRA, as the in-memory bucket counts, in one script so that a spend is atomic across
/// replicas. The time is Redis's own (`TIME`), so replicas' clocks do not matter. `tat` (when
/// the bucket is full again, in µs) expires exactly then: a full bucket is as if absent.
/// Returns 0 to admit, or the wait in µs.
static SPEND: LazyLock<Script> = LazyLock::new(|| {
    Script::new(
        r"
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000000 + tonumber(t[2])
local interval = tonumber(ARGV[1])
local tolerance = interval * (tonumber(ARGV[2]) - 1)
local tat = tonumber(redis.call('GET', KEYS[1]) or '0')
if tat < now then tat = now end
if tat - now > tolerance then
  return math.max(1, tat - now - tolerance)
end
local full = tat + interval
redis.call('SET', KEYS[1], string.format('%d', full), 'PX', math.max(1, math.ceil((full - now) / 1000)))
return 0
",
    )
});

/// A rate limit whose buckets live in Redis: `burst` requests at once per caller, then one per
/// interval, counted across every replica together. Built by [`Redis::rate_limit_per_second`]
/// or [`Redis::rate_limit_every`].
///
/// Each check is one script run (one round trip). When Redis cannot answer in time the
/// request is refused with `-32603` (HTTP 503 with `Retry-After`), never admitted on a guess.
///
/// ```no_run
/// # async fn run(redis: beam_mcp::redis::Redis) {
/// let limit = redis.rate_limit_per_second(10).burst(20);
/// let server = beam_mcp::Server::builder().rate_limit(limit).build().unwrap();
/// # let _ = server;
/// # }
/// ```
#[derive(Debug, Clone)]
pub struct RedisRateLimit {
    redis: Redis,
    /// Microseconds per token (at least 1).
    interval: u64,
    burst: u32,
    key: Arc<str>,
}

impl Redis {
    /// `rate` tokens per second (at least 1) per caller, with a burst of `rate`.
    pub fn rate_limit_per_second(&self, rate: u32) -> RedisRateLimit {
        let rate = rate.max(1);
        self.rate_limit_every(Duration::from_secs(1) / rate)
            .burst(rate)
    }

    /// One token every `interval` (at least 1 µs) per caller, with a burst of 1.
    pub fn rate_limit_every(&self, interval: Duration) -> RedisRateLimit {
        RedisRateLimit {
            redis: self.clone(),
            interval: u64::try_from(interval.as_micros())
                .unwrap_or(u64::MAX)
                .max(1),
            burst: 1,
            key: self.key("bucket:").into(),
        }
    }
}

impl RedisRateLimit {
    /// Requests a full bucket admits at once (at least 1).
    pub fn burst(mut self, tokens: u32) -> Self {
        self.burst = tokens.max(1);
        self
    }

    /// The refill interval of one token.
    pub fn interval(&self) -> Duration {
        Duration::from_micros(self.interval)
    }
}

impl RateLimit for RedisRateLimit {
    fn check(&self, caller: Caller<'_>, _kind: Limited<'_>) -> Checked {
        let mut key = String::with_capacity(self.key.len() + 64);
        key.push_str(&self.key);
        for byte in caller.key() {
            key.push_str(&format!("{byte:02x}"));
        }
        let mut manager = self.redis.manager();
        let (interval, burst) = (self.interval, self.burst);
        let spend = self
            .redis
            .timed(super::Command::script("rate_limit"), async move {
                SPEND
                    .key(key)
                    .arg(interval)
                    .arg(burst)
                    .invoke_async::<u64>(&mut manager)
                    .await
            });
        Checked::later(async move {
            match spend.await? {
                0 => Ok(()),
                micros => Err(Retry::after(Duration::from_micros(micros)).into()),
            }
        })
    }
}

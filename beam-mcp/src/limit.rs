//! Rate limits per caller for `tools/call` and `completion/complete` (the spec: servers MUST
//! rate-limit both): the [`RateLimit`] hook and its default, [`TokenBucket`].
//!
//! The hook runs after the request is checked (tool found, arguments valid) and before host
//! code runs; a refusal is the JSON-RPC error `-31429` with `data.retryAfterMs`.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hash, Hasher};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::store::{StoreError, StoreFuture};

/// Decides, per caller, whether a rate-limited request may run now.
///
/// Called on the request path, once per `tools/call`, `resources/read`, `prompts/get` and
/// `completion/complete` that passed every other check. A limiter that decides in memory
/// answers at once ([`StoreFuture::ready`], no allocation, no await); one that asks a shared
/// store (replicas behind a balancer counting together) answers later ([`StoreFuture::later`]) and the
/// call waits for its verdict before any host code runs. Object-safe: the server holds it as
/// `Arc<dyn RateLimit>`.
///
/// ```
/// use beam_mcp::limit::{Caller, Checked, Limited, RateLimit, Retry};
/// use std::time::Duration;
///
/// /// Completions are free; tool calls of anonymous callers are refused.
/// struct SignedInOnly;
///
/// impl RateLimit for SignedInOnly {
///     fn check(&self, caller: Caller<'_>, kind: Limited<'_>) -> Checked {
///         Checked::ready(match kind {
///             Limited::ToolCall { .. } if caller.is_anonymous() => {
///                 Err(Retry::after(Duration::from_secs(60)).into())
///             }
///             _ => Ok(()),
///         })
///     }
/// }
///
/// let server = beam_mcp::Server::builder().rate_limit(SignedInOnly).build().unwrap();
/// # let _ = server;
/// ```
pub trait RateLimit: Send + Sync + 'static {
    /// `Ok` to run the request now, or how long the caller should wait: now, or once a store
    /// has answered. The verdict owns what it needs (it outlives the borrowed `caller` and
    /// `kind`: copy the key and the name into it).
    fn check(&self, caller: Caller<'_>, kind: Limited<'_>) -> Checked;
}

impl<T: RateLimit + ?Sized> RateLimit for Arc<T> {
    fn check(&self, caller: Caller<'_>, kind: Limited<'_>) -> Checked {
        (**self).check(caller, kind)
    }
}

impl<T: RateLimit + ?Sized> RateLimit for Box<T> {
    fn check(&self, caller: Caller<'_>, kind: Limited<'_>) -> Checked {
        (**self).check(caller, kind)
    }
}

/// A [`RateLimit`]'s verdict: known now ([`StoreFuture::ready`]), or a future a shared store
/// resolves ([`StoreFuture::later`]).
///
/// ```
/// use beam_mcp::limit::{Checked, Denied, Retry};
/// use std::time::Duration;
///
/// // Decided in memory: no future to drive.
/// assert_eq!(Checked::ready(Ok(())).into_ready().ok(), Some(Ok(())));
///
/// // Decided by a store: awaited.
/// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
/// let later = Checked::later(async { Err(Retry::after(Duration::from_millis(5)).into()) });
/// let later = later.into_ready().unwrap_err();
/// assert_eq!(later.await, Err(Denied::Retry(Retry::after(Duration::from_millis(5)))));
/// # });
/// ```
pub type Checked = StoreFuture<Result<(), Denied>>;

/// Why a rate-limited request may not run now: the caller is over its limit, or the store that
/// keeps the counts could not answer (the request is refused, never admitted on a guess).
///
/// ```
/// use beam_mcp::limit::{Denied, Retry};
/// use beam_mcp::store::StoreError;
/// use std::time::Duration;
///
/// let over: Denied = Retry::after(Duration::from_secs(1)).into();
/// assert_eq!(over.to_string(), "rate limit exceeded: retry after 1000 ms");
/// let lost: Denied = StoreError::unavailable("connection refused").into();
/// assert_eq!(lost.to_string(), "the state store is unavailable");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Denied {
    /// Over the limit: try again after the delay (`-31429`, HTTP 429 at 2026-07-28).
    #[error(transparent)]
    Retry(#[from] Retry),
    /// The counts could not be read (`-32603`, HTTP 503 with `Retry-After`).
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// The key of anonymous callers: not a SHA-256 output anyone can produce.
static ANONYMOUS: [u8; 32] = [0; 32];

/// Who is asking: the digest of the principal an `authorize` hook returned, or one shared key
/// for every anonymous caller (stdio, or HTTP without a principal).
///
/// ```
/// use beam_mcp::limit::Caller;
/// let anonymous = Caller::anonymous();
/// assert!(anonymous.is_anonymous());
/// assert_eq!(anonymous.key(), &[0; 32]);
/// let alice = Caller::from_digest(&[7; 32]);
/// assert_ne!(alice.key(), anonymous.key());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Caller<'a> {
    digest: Option<&'a [u8; 32]>,
}

impl<'a> Caller<'a> {
    /// A caller without a principal.
    pub const fn anonymous() -> Self {
        Caller { digest: None }
    }

    /// A caller known by its principal's digest (SHA-256 over the principal's type and
    /// `Hash`: equal principals have equal digests, on every replica of one build).
    pub const fn from_digest(digest: &'a [u8; 32]) -> Self {
        Caller {
            digest: Some(digest),
        }
    }

    pub(crate) fn new(digest: Option<&'a [u8; 32]>) -> Self {
        Caller { digest }
    }

    /// The key to count under: the principal's digest, or all zeros for anonymous callers.
    pub fn key(&self) -> &'a [u8; 32] {
        self.digest.unwrap_or(&ANONYMOUS)
    }

    /// The principal's digest, if the caller has one.
    pub fn digest(&self) -> Option<&'a [u8; 32]> {
        self.digest
    }

    /// True when no principal was given.
    pub fn is_anonymous(&self) -> bool {
        self.digest.is_none()
    }
}

/// What is being rate-limited.
///
/// ```
/// use beam_mcp::limit::Limited;
/// let kind = Limited::ToolCall { name: "search" };
/// assert!(matches!(kind, Limited::ToolCall { name: "search" }));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Limited<'a> {
    /// A `tools/call` of a listed tool, with valid arguments.
    ToolCall {
        /// The tool's name.
        name: &'a str,
    },
    /// A valid `completion/complete`.
    Completion,
    /// A `resources/read` of a URI some resource or template serves.
    ResourceRead {
        /// The URI asked for.
        uri: &'a str,
    },
    /// A `prompts/get` of a listed prompt, with valid arguments.
    PromptGet {
        /// The prompt's name.
        name: &'a str,
    },
}

/// A refusal: the caller may try again after [`delay`](Self::delay).
///
/// ```
/// use beam_mcp::limit::Retry;
/// use std::time::Duration;
/// let retry = Retry::after(Duration::from_micros(1_500));
/// assert_eq!(retry.delay(), Duration::from_micros(1_500));
/// assert_eq!(retry.after_ms(), 2);
/// assert_eq!(retry.to_string(), "rate limit exceeded: retry after 2 ms");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("rate limit exceeded: retry after {} ms", self.after_ms())]
pub struct Retry {
    delay: Duration,
}

impl Retry {
    /// Try again after `delay`.
    pub const fn after(delay: Duration) -> Self {
        Retry { delay }
    }

    /// How long to wait.
    pub const fn delay(&self) -> Duration {
        self.delay
    }

    /// The wait in whole milliseconds, rounded up (what `data.retryAfterMs` says).
    pub fn after_ms(&self) -> u64 {
        let ms = self.delay.as_nanos().div_ceil(1_000_000);
        u64::try_from(ms).unwrap_or(u64::MAX)
    }
}

/// The default limiter: a token bucket per caller, refilled at a steady rate up to a burst.
///
/// Each caller (principal digest; anonymous callers share one) may make `burst` requests at
/// once, then one per refill interval. The table of buckets holds at most
/// [`max_callers`](Self::max_callers) callers (default 10 000): when a new caller arrives at a
/// full table, the buckets closest to full are evicted until it is 7/8 full. A full bucket is
/// exactly as if absent, so idle callers go first and nothing is forgiven; past them, the
/// evicted buckets are those whose debt is smallest. A flood of distinct principals therefore
/// cannot grow memory past the bound, and eviction costs one pass per eighth of the table.
///
/// Tool calls and completions draw from the same bucket. The counting is the generic cell rate
/// algorithm: one instant per caller, no floating point.
///
/// ```
/// use beam_mcp::limit::{Caller, Denied, Limited, RateLimit, TokenBucket};
///
/// let limit = TokenBucket::per_second(10).burst(2);
/// let alice = Caller::from_digest(&[1; 32]);
/// let now = |kind| limit.check(alice, kind).into_ready().expect("decided in memory");
/// assert!(now(Limited::Completion).is_ok());
/// assert!(now(Limited::Completion).is_ok());
/// let Err(Denied::Retry(retry)) = now(Limited::Completion) else { panic!("refused") };
/// assert!(retry.after_ms() <= 100);
/// // Another caller has a bucket of its own.
/// assert!(limit.spend(Caller::anonymous()).is_ok());
///
/// let server = beam_mcp::Server::builder().rate_limit(limit).build().unwrap();
/// # let _ = server;
/// ```
#[derive(Debug)]
pub struct TokenBucket {
    /// Nanoseconds per token.
    interval: u64,
    /// Tokens a full bucket holds.
    burst: u32,
    max_callers: usize,
    epoch: Instant,
    /// Each caller's theoretical arrival time, in ns since `epoch`: `u128`, so no interval or
    /// burst, however large, saturates it (a saturated time would admit every call).
    table: Mutex<HashMap<Key, u128, BuildHasherDefault<KeyHasher>>>,
}

impl TokenBucket {
    /// `rate` tokens per second (at least 1), with a burst of `rate`.
    pub fn per_second(rate: u32) -> Self {
        let rate = rate.max(1);
        Self::every(Duration::from_secs(1) / rate).burst(rate)
    }

    /// One token every `interval` (at least 1 ns), with a burst of 1.
    ///
    /// ```
    /// use std::time::Duration;
    /// let limit = beam_mcp::limit::TokenBucket::every(Duration::from_secs(6)).burst(10);
    /// assert_eq!(limit.interval(), Duration::from_secs(6));
    /// ```
    pub fn every(interval: Duration) -> Self {
        let interval = u64::try_from(interval.as_nanos())
            .unwrap_or(u64::MAX)
            .max(1);
        TokenBucket {
            interval,
            burst: 1,
            max_callers: 10_000,
            epoch: Instant::now(),
            table: Mutex::default(),
        }
    }

    /// Requests a full bucket admits at once (at least 1).
    pub fn burst(mut self, tokens: u32) -> Self {
        self.burst = tokens.max(1);
        self
    }

    /// The most callers whose buckets are kept (at least 8; default 10 000).
    pub fn max_callers(mut self, callers: usize) -> Self {
        self.max_callers = callers.max(8);
        self
    }

    /// The refill interval of one token.
    pub fn interval(&self) -> Duration {
        Duration::from_nanos(self.interval)
    }

    /// How many callers have a bucket now (never above `max_callers`).
    pub fn tracked(&self) -> usize {
        lock(&self.table).len()
    }

    fn take(&self, key: &[u8; 32], now: u64) -> Result<(), Retry> {
        // GCRA: `tat` is when the bucket will be full again; a request is admitted while that
        // lies at most `burst - 1` intervals ahead.
        let now = u128::from(now);
        let interval = u128::from(self.interval);
        let tolerance = interval * u128::from(self.burst - 1);
        let mut table = lock(&self.table);
        let key = Key(*key);
        let tat = match table.get(&key) {
            Some(&tat) => tat.max(now),
            None => {
                if table.len() >= self.max_callers {
                    evict(&mut table, now, self.max_callers - self.max_callers / 8);
                }
                now
            }
        };
        if tat - now > tolerance {
            let wait = u64::try_from(tat - now - tolerance).unwrap_or(u64::MAX);
            return Err(Retry::after(Duration::from_nanos(wait)));
        }
        table.insert(key, tat + interval);
        Ok(())
    }
}

impl TokenBucket {
    /// Spends one of `caller`'s tokens now, or says how long until one is there: what
    /// [`check`](RateLimit::check) answers, at once.
    ///
    /// ```
    /// use beam_mcp::limit::{Caller, TokenBucket};
    ///
    /// let limit = TokenBucket::per_second(1).burst(1);
    /// assert!(limit.spend(Caller::anonymous()).is_ok());
    /// assert!(limit.spend(Caller::anonymous()).unwrap_err().after_ms() <= 1000);
    /// ```
    pub fn spend(&self, caller: Caller<'_>) -> Result<(), Retry> {
        let now = u64::try_from(self.epoch.elapsed().as_nanos()).unwrap_or(u64::MAX);
        self.take(caller.key(), now)
    }
}

impl RateLimit for TokenBucket {
    fn check(&self, caller: Caller<'_>, _kind: Limited<'_>) -> Checked {
        Checked::ready(self.spend(caller).map_err(Denied::Retry))
    }
}

/// Drops full buckets, then the fullest (smallest `tat`) until at most `keep` remain.
fn evict(table: &mut HashMap<Key, u128, BuildHasherDefault<KeyHasher>>, now: u128, keep: usize) {
    table.retain(|_, tat| *tat > now);
    if table.len() <= keep {
        return;
    }
    let mut tats: Vec<u128> = table.values().copied().collect();
    let cut = tats.len() - keep;
    let (_, &mut threshold, _) = tats.select_nth_unstable(cut - 1);
    // Exactly `cut` go: every bucket below the threshold, then ties at it.
    let mut ties = cut - tats.iter().filter(|&&t| t < threshold).count();
    table.retain(|_, tat| {
        if *tat == threshold && ties > 0 {
            ties -= 1;
            return false;
        }
        *tat > threshold
    });
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    // A bucket table is valid after any panic (each update is one insert).
    mutex
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// A digest as a table key, hashed by its first eight bytes: SHA-256 output is already uniform,
/// and no caller can choose it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Key([u8; 32]);

impl Hash for Key {
    fn hash<H: Hasher>(&self, state: &mut H) {
        let mut head = [0; 8];
        head.copy_from_slice(&self.0[..8]);
        state.write_u64(u64::from_ne_bytes(head));
    }
}

#[derive(Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn write(&mut self, bytes: &[u8]) {
        // Only `write_u64` is called by `Key`; fold anything else in, for completeness.
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }

    fn write_u64(&mut self, n: u64) {
        self.0 ^= n;
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MS: u64 = 1_000_000;

    fn digest(n: u32) -> [u8; 32] {
        use sha2::{Digest, Sha256};
        Sha256::digest(n.to_le_bytes()).into()
    }

    #[test]
    fn huge_intervals_and_bursts_never_saturate_into_no_limit() {
        // "Two calls, ever": times past u64 would once saturate and admit every later call.
        let bucket = TokenBucket::every(Duration::MAX).burst(2);
        let key = digest(1);
        assert!(bucket.take(&key, 0).is_ok());
        assert!(bucket.take(&key, 1).is_ok());
        // One interval (u64::MAX ns, the clock's end) after the start, a token is back.
        for now in [2, u64::MAX / 2, u64::MAX - 1] {
            assert!(bucket.take(&key, now).is_err(), "admitted at {now}");
        }
        let bucket = TokenBucket::every(Duration::from_secs(100 * 365 * 86_400)).burst(10);
        let admitted = (0..20).filter(|_| bucket.take(&key, 5).is_ok()).count();
        assert_eq!(admitted, 10);
    }

    #[test]
    fn a_burst_then_one_token_per_interval() {
        let limit = TokenBucket::every(Duration::from_millis(10)).burst(3);
        let key = digest(1);
        for _ in 0..3 {
            assert!(limit.take(&key, 0).is_ok());
        }
        let retry = limit.take(&key, 0).unwrap_err();
        assert_eq!(retry.delay(), Duration::from_millis(10));
        // Refused requests take nothing.
        assert!(limit.take(&key, 4 * MS).is_err());
        assert!(limit.take(&key, 10 * MS).is_ok());
        assert!(limit.take(&key, 10 * MS).is_err());
        // Idle long enough, the bucket is full again, and no fuller.
        for _ in 0..3 {
            assert!(limit.take(&key, 1_000 * MS).is_ok());
        }
        assert!(limit.take(&key, 1_000 * MS).is_err());
    }

    #[test]
    fn the_table_stays_bounded_under_twenty_thousand_principals() {
        let limit = TokenBucket::per_second(1).burst(5);
        // All within one instant: no bucket refills, so eviction must pick by fullness.
        for n in 0..20_000 {
            assert!(limit.take(&digest(n), 0).is_ok());
            assert!(limit.tracked() <= 10_000);
        }
        assert!(limit.tracked() >= 10_000 - 10_000 / 8);
        // The newest caller keeps its debt: its next four requests pass, the fifth does not.
        let last = digest(19_999);
        for _ in 0..4 {
            assert!(limit.take(&last, 0).is_ok());
        }
        assert!(limit.take(&last, 0).is_err());
        assert!(limit.tracked() <= 10_000);
    }

    #[test]
    fn idle_buckets_are_evicted_first() {
        let limit = TokenBucket::every(Duration::from_millis(1)).max_callers(8);
        for n in 1..8 {
            limit.take(&digest(n), 0).unwrap();
        }
        // A later caller, still in debt when the table fills.
        let busy = digest(0);
        limit.take(&busy, 900_000).unwrap();
        // At 1.5 ms the first seven are full again: they go, the busy one stays.
        limit.take(&digest(100), 1_500_000).unwrap();
        assert_eq!(limit.tracked(), 2);
        assert!(limit.take(&busy, 1_500_000).is_err());
    }

    #[test]
    fn anonymous_callers_share_one_bucket() {
        let limit = TokenBucket::per_second(1);
        let kind = Limited::Completion;
        let now = |caller| limit.check(caller, kind).into_ready().expect("in memory");
        assert!(now(Caller::anonymous()).is_ok());
        assert!(now(Caller::new(None)).is_err());
        assert!(now(Caller::from_digest(&digest(3))).is_ok());
    }

    #[test]
    fn retry_rounds_up_to_whole_milliseconds() {
        assert_eq!(Retry::after(Duration::from_nanos(1)).after_ms(), 1);
        assert_eq!(Retry::after(Duration::from_millis(7)).after_ms(), 7);
        assert_eq!(Retry::after(Duration::ZERO).after_ms(), 0);
    }
}

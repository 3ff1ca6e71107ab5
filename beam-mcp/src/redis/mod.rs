//! The Redis engine of the state seam (feature `redis`): one connection per replica, shared by
//! the rate limit ([`RedisRateLimit`]), tasks ([`RedisTasks`]), 2025-11-25 sessions
//! ([`RedisSessions`]), the events of resumable streams
#![cfg_attr(feature = "http", doc = "([`RedisEventStore`])")]
#![cfg_attr(not(feature = "http"), doc = "(`RedisEventStore`, with `http`)")]
//! and the fan-out of catalog changes ([`RedisFanout`]).
//!
//! Built on `redis` (redis-rs) rather than `fred`: it is the Redis project's own Rust client,
//! released monthly; its `ConnectionManager` multiplexes every command of a replica over one
//! connection (pipelined by construction), reconnects by itself with a bounded back-off, and
//! over RESP3 carries pub/sub on that same connection and subscribes again after a
//! reconnection. `fred` has more (pools, its own reconnect policies) at about twice the
//! dependencies; nothing here needs them.
//!
//! What holds, whatever the engine is asked:
//! - **Keys** are `beam-mcp:{server}:…`, so servers of different names share one Redis safely
//!   ([`Redis::key`] says the layout; `docs/deploy.md` lists it).
//! - **Every record expires**: buckets when full again, events with their session's idle
//!   lifetime (30 minutes, refreshed on each event).
//! - **Arithmetic is atomic**: a bucket's spend and an event's keeping are each one Lua script.
//! - **A lost Redis refuses**: each command waits at most [`RedisOptions::response_timeout`]
//!   (default 500 ms); past it the request is refused (`-32603`, HTTP 503 with `Retry-After`),
//!   never answered from memory. The connection comes back by itself (back-off at most
//!   [`RedisOptions::max_reconnect_delay`], default 500 ms) and service with it.
//! - **Credentials** come from the environment ([`RedisOptions::from_env`]), TLS from the
//!   `rediss://` scheme; the `requestState` sealing key never goes to Redis.

mod fanout;
mod options;
mod rate_limit;
mod sessions;
mod streams;
mod tasks;

#[cfg(feature = "http")]
mod events;

use std::future::Future;
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use redis::aio::{ConnectionManager, ConnectionManagerConfig};

use crate::fanout::Delivery;
use crate::store::StoreError;

#[cfg(feature = "http")]
pub use events::RedisEventStore;
pub use fanout::RedisFanout;
pub use options::{ConnectError, RedisOptions};
pub use rate_limit::RedisRateLimit;
pub use sessions::RedisSessions;
pub use streams::RedisStreams;
pub use tasks::RedisTasks;

/// One replica's connection to the shared Redis, for one server name. Cheap to clone: every
/// clone multiplexes over the same connection.
///
/// ```no_run
/// use beam_mcp::redis::{Redis, RedisOptions};
///
/// # async fn run() -> Result<(), Box<dyn std::error::Error>> {
/// // BEAM_MCP_REDIS_URL=rediss://redis.internal:6380/0, credentials in
/// // BEAM_MCP_REDIS_USERNAME and BEAM_MCP_REDIS_PASSWORD.
/// let redis = Redis::connect("weather", RedisOptions::from_env()?).await?;
/// let (builder, _catalog) = beam_mcp::Server::builder().live();
/// let server = builder
///     .rate_limit(redis.rate_limit_per_second(20).burst(40))
///     .fanout(redis.fanout())
///     .build()?;
/// # let _ = server;
/// # Ok(())
/// # }
/// ```
#[derive(Clone)]
pub struct Redis {
    manager: ConnectionManager,
    prefix: Arc<str>,
    shared: Arc<Shared>,
    /// The most one command may take, reconnection included.
    limit: Duration,
}

/// What the connection's push messages and the engine's parts share.
struct Shared {
    /// This replica's id on the bus: its own messages come back to it and are skipped.
    replica: String,
    /// Where the bus delivers, once a server took the fan-out.
    delivery: OnceLock<Delivery>,
    /// Where task relays go, once a server took the tasks.
    tasks: OnceLock<crate::store::TaskDelivery>,
    /// Where session relays go, once an endpoint shares its sessions here.
    sessions: OnceLock<crate::store::SessionDelivery>,
    /// Where each command's duration is reported, once the host asks for it.
    #[cfg(feature = "otel")]
    telemetry: OnceLock<crate::telemetry::Telemetry>,
}

/// One kind of command the engine sends: the command, and the script it runs if any (what
/// `db.client.operation.duration` names it by, with the `otel` feature).
#[derive(Debug, Clone, Copy)]
#[cfg_attr(
    not(feature = "otel"),
    allow(dead_code, reason = "read where telemetry reports it")
)]
pub(crate) struct Command {
    name: &'static str,
    script: Option<&'static str>,
}

impl Command {
    /// A plain command (`PING`, `PUBLISH`, ...).
    pub(crate) const fn plain(name: &'static str) -> Command {
        Command { name, script: None }
    }

    /// A Lua script, named by what it does.
    pub(crate) const fn script(name: &'static str) -> Command {
        Command {
            name: "EVALSHA",
            script: Some(name),
        }
    }

    /// An atomic pipeline (`MULTI` ... `EXEC`), named by what it does.
    #[cfg_attr(
        not(feature = "http"),
        allow(dead_code, reason = "the event store reads with one")
    )]
    pub(crate) const fn transaction(name: &'static str) -> Command {
        Command {
            name: "MULTI",
            script: Some(name),
        }
    }
}

impl Redis {
    /// Connects to Redis for the server named `server` (the namespace of every key), and
    /// subscribes to the server's fan-out channel. Fails at once, with the reason, when Redis
    /// cannot be reached or refuses the credentials: a replica that cannot share its state does
    /// not start.
    pub async fn connect(server: &str, options: RedisOptions) -> Result<Redis, ConnectError> {
        let client = options.client()?;
        let prefix: Arc<str> = format!("beam-mcp:{server}:").into();
        let shared = Arc::new(Shared {
            replica: replica_id(),
            delivery: OnceLock::new(),
            tasks: OnceLock::new(),
            sessions: OnceLock::new(),
            #[cfg(feature = "otel")]
            telemetry: OnceLock::new(),
        });
        let pushes = fanout::Pushes::new(
            Arc::clone(&shared),
            format!("{prefix}bus"),
            format!("{prefix}tasks"),
            format!("{prefix}sessions"),
        );
        let config = ConnectionManagerConfig::new()
            .set_response_timeout(Some(options.response_timeout))
            .set_connection_timeout(Some(options.response_timeout))
            .set_min_delay(Duration::from_millis(50))
            .set_max_delay(options.max_reconnect_delay)
            // Retried for as long as Redis is away: each command in the meantime is refused by
            // its own time limit (`timed`), and the connection is back as soon as Redis is.
            .set_number_of_retries(usize::MAX)
            .set_push_sender(pushes)
            .set_automatic_resubscription();
        // One plain connection first, with the time limits: the manager retries for ever, so
        // a wrong password or an untrusted certificate would otherwise hang the start.
        let probe = redis::AsyncConnectionConfig::new()
            .set_connection_timeout(Some(options.response_timeout))
            .set_response_timeout(Some(options.response_timeout));
        let reached = client.get_multiplexed_async_connection_with_config(&probe);
        match tokio::time::timeout(options.response_timeout * 4, reached).await {
            Ok(Ok(_)) => {}
            Ok(Err(e)) => return Err(ConnectError::Unreachable(e.to_string())),
            Err(_) => return Err(ConnectError::Unreachable("no answer in time".into())),
        }
        let channels = [
            format!("{prefix}bus"),
            format!("{prefix}tasks"),
            format!("{prefix}sessions"),
        ];
        let managed = async move {
            let mut manager = ConnectionManager::new_with_config(client, config).await?;
            manager.subscribe(&channels).await?;
            Ok::<_, redis::RedisError>(manager)
        };
        let manager = match tokio::time::timeout(options.response_timeout * 4, managed).await {
            Ok(Ok(manager)) => manager,
            Ok(Err(e)) => return Err(ConnectError::Unreachable(e.to_string())),
            Err(_) => return Err(ConnectError::Unreachable("no answer in time".into())),
        };
        Ok(Redis {
            manager,
            prefix,
            shared,
            limit: options.response_timeout,
        })
    }

    /// [`connect`](Self::connect) from a synchronous `main`, outside any runtime (before
    /// `transport::http::main` or `serve!`, say): the connection runs on
    /// a thread of its own (`beam-mcp-redis`) for as long as the process does, and serves every
    /// runtime of the process.
    ///
    /// ```no_run
    /// use beam_mcp::redis::{Redis, RedisOptions};
    ///
    /// fn main() -> Result<(), Box<dyn std::error::Error>> {
    ///     let redis = Redis::connect_blocking("weather", RedisOptions::from_env()?)?;
    ///     let (builder, _catalog) = beam_mcp::Server::builder().live();
    ///     let server = builder.fanout(redis.fanout()).build()?;
    ///     # let _ = server;
    ///     Ok(())
    /// }
    /// ```
    pub fn connect_blocking(server: &str, options: RedisOptions) -> Result<Redis, ConnectError> {
        let (tx, rx) = std::sync::mpsc::channel();
        let server = server.to_owned();
        std::thread::Builder::new()
            .name("beam-mcp-redis".into())
            .spawn(move || {
                let runtime = match tokio::runtime::Builder::new_current_thread()
                    .enable_all()
                    .build()
                {
                    Ok(runtime) => runtime,
                    Err(e) => {
                        let _ = tx.send(Err(ConnectError::Unreachable(format!("no runtime: {e}"))));
                        return;
                    }
                };
                runtime.block_on(async move {
                    let connected = Redis::connect(&server, options).await;
                    let ok = connected.is_ok();
                    let _ = tx.send(connected);
                    if ok {
                        // The connection's tasks run here until the process ends.
                        std::future::pending::<()>().await;
                    }
                });
            })
            .map_err(|e| ConnectError::Unreachable(format!("no thread for the connection: {e}")))?;
        rx.recv().unwrap_or_else(|_| {
            Err(ConnectError::Unreachable(
                "the connection thread ended".into(),
            ))
        })
    }

    /// The key of `what` in this server's namespace: `beam-mcp:{server}:{what}`.
    ///
    /// The layout: `bucket:{caller}` (a rate-limit bucket; the caller's principal digest in
    /// hex), `events:{session}` and `events-meta:{session}` (a session's stream events and
    /// their bookkeeping), `task:{id}` (a task's copy), `session:{id}` (a 2025-11-25 session's
    /// record), `sessions-of:{share}` and `streams-of:{share}` (a principal's sessions and open
    /// listen streams, each scored by when it lapses), and the channels `bus` (the fan-out), `tasks` (relays to the replica that runs a
    /// task) and `sessions` (what replicas tell each other of a session).
    pub fn key(&self, what: &str) -> String {
        format!("{}{what}", self.prefix)
    }

    /// Asks Redis whether it is there (`PING`): for a health check.
    pub async fn ping(&self) -> Result<(), StoreError> {
        let mut manager = self.manager.clone();
        let ping = async move { redis::cmd("PING").query_async::<String>(&mut manager).await };
        self.timed(Command::plain("PING"), ping).await.map(drop)
    }

    pub(crate) fn manager(&self) -> ConnectionManager {
        self.manager.clone()
    }

    /// Publishes `payload` on `channel`, tagged with this replica's id (its own messages come
    /// back to it and are skipped).
    pub(crate) fn publish(
        &self,
        channel: &str,
        payload: &str,
    ) -> crate::store::StoreFuture<Result<(), StoreError>> {
        let (channel, tagged) = (
            channel.to_owned(),
            format!("{} {payload}", self.shared.replica),
        );
        let mut manager = self.manager();
        let published = self.timed(Command::plain("PUBLISH"), async move {
            redis::cmd("PUBLISH")
                .arg(channel)
                .arg(tagged)
                .query_async::<i64>(&mut manager)
                .await
        });
        crate::store::StoreFuture::later(async move { published.await.map(drop) })
    }

    /// `command`'s answer, or a [`StoreError`] when it fails or takes longer than the
    /// response time limit: a command issued while the connection is being re-established
    /// waits for it, and Redis may be away for long.
    pub(crate) fn timed<T>(
        &self,
        kind: Command,
        command: impl Future<Output = redis::RedisResult<T>> + Send + 'static,
    ) -> impl Future<Output = Result<T, StoreError>> + Send + 'static
    where
        T: Send + 'static,
    {
        let limit = self.limit;
        #[cfg(feature = "otel")]
        let telemetry = self.shared.telemetry.get().cloned();
        #[cfg(not(feature = "otel"))]
        let _ = kind;
        async move {
            #[cfg(feature = "otel")]
            let started = std::time::Instant::now();
            let answer = match tokio::time::timeout(limit, command).await {
                Ok(answer) => answer.map_err(unavailable),
                Err(_) => Err(StoreError::unavailable(format!(
                    "redis: no answer within {} ms",
                    limit.as_millis()
                ))),
            };
            #[cfg(feature = "otel")]
            if let Some(telemetry) = telemetry {
                let operation = crate::telemetry::StoreOperation {
                    system: "redis",
                    command: kind.name,
                    script: kind.script,
                };
                // The conventions' `error.type`: what kind of failure, not its words.
                let error = answer.as_ref().err().map(|_| "unavailable");
                telemetry.store_operation(&operation, started.elapsed().as_secs_f64(), error);
            }
            answer
        }
    }

    /// Reports the duration of every command this connection sends, from now on, as
    /// `db.client.operation.duration` (seconds; `db.system.name` `redis`, `db.operation.name`
    /// the command, `db.stored_procedure.name` the script it runs, `error.type` when it failed
    /// or timed out) through `telemetry`, the one the server reports through. Every part built
    /// from this connection reports, whenever it was built.
    ///
    /// ```no_run
    /// # async fn run(redis: beam_mcp::redis::Redis) {
    /// use opentelemetry::metrics::noop::NoopMeterProvider;
    /// use opentelemetry::trace::noop::NoopTracerProvider;
    ///
    /// // A host passes its SDK providers (with an OTLP exporter, say); no-ops here.
    /// let telemetry = beam_mcp::telemetry::Telemetry::new(&NoopTracerProvider::new(), &NoopMeterProvider::new());
    /// redis.report_to(&telemetry);
    /// let server = beam_mcp::Server::builder()
    ///     .telemetry(telemetry)
    ///     .rate_limit(redis.rate_limit_per_second(20))
    ///     .build()
    ///     .unwrap();
    /// # let _ = server;
    /// # }
    /// ```
    #[cfg(feature = "otel")]
    #[cfg_attr(docsrs, doc(cfg(feature = "otel")))]
    pub fn report_to(&self, telemetry: &crate::telemetry::Telemetry) {
        if self.shared.telemetry.set(telemetry.clone()).is_err() {
            tracing::warn!(
                "a Redis connection was given a second telemetry; it reports to the first"
            );
        }
    }
}

impl crate::store::Probe for Redis {
    fn probe(&self) -> crate::store::StoreFuture<Result<(), StoreError>> {
        let redis = self.clone();
        crate::store::StoreFuture::later(async move { redis.ping().await })
    }
}

impl std::fmt::Debug for Redis {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Redis")
            .field("prefix", &self.prefix)
            .field("replica", &self.shared.replica)
            .finish_non_exhaustive()
    }
}

/// A Redis failure as the seam's error: the words for the log, never for a client.
pub(crate) fn unavailable(error: redis::RedisError) -> StoreError {
    StoreError::unavailable(format!("redis: {error}"))
}

/// A random id for this replica's connection, so its own bus messages are told apart.
fn replica_id() -> String {
    let mut bytes = [0u8; 12];
    // The OS's randomness; were it missing, the time and the process still tell replicas apart.
    if getrandom::fill(&mut bytes).is_err() {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos())
            .unwrap_or(0);
        bytes[..8].copy_from_slice(&(nanos as u64).to_le_bytes());
        bytes[8..].copy_from_slice(&std::process::id().to_le_bytes());
    }
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

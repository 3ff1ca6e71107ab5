//! The observed connectome: what did happen, counted at dispatch.
//!
//! One counter per catalog item (server → item edges, written by the dispatch when a call
//! ends) and one per edge a host reports with [`Observer::observe`]. A counter holds the
//! call count and the latency sum and maximum: edge identity, counts and latency only, never
//! a byte of a request or an answer.

use std::collections::{BTreeMap, HashMap};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, SystemTime};

use beam_mcp_connectome::{
    Edge, EdgeKind, Graph, GraphError, Identity, Labels, Node, NodeKind, Provenance,
};

/// How many distinct edges a host may report with [`Observer::observe`]: the table grows with
/// distinct edges only, and this bounds it.
pub const MAX_HOST_EDGES: usize = 10_000;

/// The counts of one edge, updated with relaxed atomics on the caller's thread.
#[derive(Debug, Default)]
pub(crate) struct Counter {
    count: AtomicU64,
    latency_sum_ns: AtomicU64,
    latency_max_ns: AtomicU64,
}

impl Counter {
    /// One call that took `latency`.
    pub(crate) fn record(&self, latency: Duration) {
        let ns = u64::try_from(latency.as_nanos()).unwrap_or(u64::MAX);
        self.count.fetch_add(1, Ordering::Relaxed);
        self.latency_sum_ns.fetch_add(ns, Ordering::Relaxed);
        self.latency_max_ns.fetch_max(ns, Ordering::Relaxed);
    }

    fn read(&self) -> (u64, u64, u64) {
        (
            self.count.load(Ordering::Relaxed),
            self.latency_sum_ns.load(Ordering::Relaxed),
            self.latency_max_ns.load(Ordering::Relaxed),
        )
    }
}

/// Collects the observed connectome of a server: hand a clone to
/// [`ServerBuilder::observer`](crate::ServerBuilder::observer), call [`start`](Observer::start)
/// when the window opens, and read it with [`graph`](Observer::graph). Before `start`, reading
/// is an error ([`ObserveError::NotStarted`]), never an empty graph.
///
/// ```
/// use beam_mcp::Server;
/// use beam_mcp::connectome::{EdgeKind, Identity, Observer, ObserveError};
///
/// let observer = Observer::new();
/// let server = Server::builder().name("srv").observer(observer.clone()).build()?;
/// assert_eq!(observer.graph().unwrap_err(), ObserveError::NotStarted);
///
/// observer.start();
/// let worker = Identity::Process { server: "srv".into(), name: "indexer".into() };
/// let server_node = Identity::Server { server: "srv".into() };
/// observer.observe(&server_node, &worker, EdgeKind::Message)?;
/// let observed = observer.graph()?;
/// assert_eq!(observed.graph.edges()[0].weight, Some(1));
/// # let _ = server;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Default)]
pub struct Observer {
    inner: Arc<Shared>,
}

#[derive(Default)]
struct Shared {
    recording: AtomicBool,
    started_at: OnceLock<SystemTime>,
    /// The server's name, fixed when the server is built.
    server: OnceLock<String>,
    /// Catalog items by (kind, key): a rebuilt catalog finds its items' counters here.
    items: Mutex<BTreeMap<(NodeKind, String), Arc<Counter>>>,
    /// Edges the host reported, by identity.
    host: Mutex<HashMap<(Identity, Identity, EdgeKind), Arc<Counter>>>,
}

/// The observed graph and the window it covers.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Observed {
    /// The graph: provenance `observed`, weight = count, sign `unset`, no labels; only edges
    /// seen at least once.
    pub graph: Graph,
    /// From [`Observer::start`] to this read.
    pub window: super::window::Window,
}

/// The latency of one observed edge (never part of any digest).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct EdgeLatency {
    /// The caller's node id.
    pub from: String,
    /// The callee's node id.
    pub to: String,
    /// The edge's kind.
    pub kind: EdgeKind,
    /// How many calls.
    pub count: u64,
    /// Their mean latency, in microseconds (rounded down).
    pub mean_us: u64,
    /// The longest, in microseconds (rounded down).
    pub max_us: u64,
}

/// Why the observed graph could not be read or an edge not recorded.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ObserveError {
    /// [`Observer::start`] was not called: nothing was watching, so there is no graph (an
    /// empty one would say "nothing happened").
    #[error("the observer has not started: call Observer::start before reading the observed graph")]
    NotStarted,
    /// The observer was given to no built server, so it has no server name.
    #[error("the observer belongs to no server yet: pass it to ServerBuilder::observer and build")]
    NoServer,
    /// The host reported more distinct edges than [`MAX_HOST_EDGES`].
    #[error(
        "the host reported more than {MAX_HOST_EDGES} distinct edges; this one is not recorded"
    )]
    TooManyEdges,
    /// The recorded edges do not make a graph (an edge names another server's node).
    #[error("the observed edges do not make a graph: {0}")]
    Graph(#[from] GraphError),
}

impl Observer {
    /// A new observer, not yet started.
    pub fn new() -> Observer {
        Observer::default()
    }

    /// Opens the window: from now on, calls are counted. Starting twice keeps the first start.
    pub fn start(&self) {
        self.inner.started_at.get_or_init(SystemTime::now);
        self.inner.recording.store(true, Ordering::Release);
    }

    /// True once [`start`](Observer::start) was called.
    pub fn is_started(&self) -> bool {
        self.inner.recording.load(Ordering::Relaxed)
    }

    /// Records one `kind` edge from `from` to `to` (for example from a tool to a process it
    /// messages). Only identities are kept.
    pub fn observe(
        &self,
        from: &Identity,
        to: &Identity,
        kind: EdgeKind,
    ) -> Result<(), ObserveError> {
        self.observe_timed(from, to, kind, Duration::ZERO)
    }

    /// [`observe`](Observer::observe), with how long the call took.
    pub fn observe_timed(
        &self,
        from: &Identity,
        to: &Identity,
        kind: EdgeKind,
        latency: Duration,
    ) -> Result<(), ObserveError> {
        self.edge(from, to, kind)?.record(latency)
    }

    /// A handle on one host edge, to record it many times without a lookup (a hot path keeps
    /// it). Counts only from [`start`](Observer::start) on; the edge counts against
    /// [`MAX_HOST_EDGES`] from its first handle.
    ///
    /// ```
    /// use std::time::Duration;
    /// use beam_mcp::connectome::{EdgeKind, Identity, Observer};
    ///
    /// let observer = Observer::new();
    /// let _server = beam_mcp::Server::builder().name("srv").observer(observer.clone()).build()?;
    /// let tool = Identity::Tool { server: "srv".into(), name: "index".into() };
    /// let store = Identity::Process { server: "srv".into(), name: "store".into() };
    /// let writes = observer.edge(&tool, &store, EdgeKind::Message)?;
    /// observer.start();
    /// for _ in 0..3 {
    ///     writes.record(Duration::from_micros(40))?;
    /// }
    /// assert_eq!(observer.graph()?.graph.edges()[0].weight, Some(3));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn edge(
        &self,
        from: &Identity,
        to: &Identity,
        kind: EdgeKind,
    ) -> Result<HostEdge, ObserveError> {
        let mut host = self.inner.host.lock().unwrap_or_else(|e| e.into_inner());
        let key = (from.clone(), to.clone(), kind);
        let counter = match host.get(&key) {
            Some(counter) => Arc::clone(counter),
            None if host.len() >= MAX_HOST_EDGES => return Err(ObserveError::TooManyEdges),
            None => Arc::clone(host.entry(key).or_default()),
        };
        Ok(HostEdge {
            observer: self.clone(),
            counter,
        })
    }

    /// The observed graph now, with its window.
    pub fn graph(&self) -> Result<Observed, ObserveError> {
        let (rows, window) = self.rows()?;
        let mut nodes: BTreeMap<String, Identity> = BTreeMap::new();
        let mut edges = Vec::new();
        for row in rows {
            let edge = Edge::new(row.from.id(), row.to.id(), row.kind, Provenance::Observed)
                .with_weight(row.count);
            nodes.insert(edge.from.clone(), row.from);
            nodes.insert(edge.to.clone(), row.to);
            edges.push(edge);
        }
        edges.sort_by(|a: &Edge, b: &Edge| (&a.from, &a.to, a.kind).cmp(&(&b.from, &b.to, b.kind)));
        let nodes = nodes
            .into_values()
            .map(|identity| Node::new(identity, Labels::new()))
            .collect::<Result<Vec<_>, _>>()?;
        let graph = Graph::new(nodes, edges)?;
        Ok(Observed { graph, window })
    }

    /// The latency of every observed edge, sorted by (from, to, kind).
    pub fn latency(&self) -> Result<Vec<EdgeLatency>, ObserveError> {
        let (rows, _) = self.rows()?;
        let mut out: Vec<EdgeLatency> = rows
            .into_iter()
            .map(|row| EdgeLatency {
                from: row.from.id(),
                to: row.to.id(),
                kind: row.kind,
                count: row.count,
                mean_us: row.latency_sum_ns / row.count.max(1) / 1000,
                max_us: row.latency_max_ns / 1000,
            })
            .collect();
        out.sort_by(|a, b| (&a.from, &a.to, a.kind).cmp(&(&b.from, &b.to, b.kind)));
        Ok(out)
    }

    /// Every edge seen at least once, and the window up to now.
    fn rows(&self) -> Result<(Vec<Row>, super::window::Window), ObserveError> {
        let Some(started_at) = self.inner.started_at.get().copied() else {
            return Err(ObserveError::NotStarted);
        };
        let server = self.inner.server.get().ok_or(ObserveError::NoServer)?;
        let server_node = Identity::Server {
            server: server.clone(),
        };
        let mut rows = Vec::new();
        for ((kind, key), counter) in self
            .inner
            .items
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .iter()
        {
            let (to, edge_kind) = match kind {
                NodeKind::Tool => (
                    Identity::Tool {
                        server: server.clone(),
                        name: key.clone(),
                    },
                    EdgeKind::Invoke,
                ),
                NodeKind::Prompt => (
                    Identity::Prompt {
                        server: server.clone(),
                        name: key.clone(),
                    },
                    EdgeKind::Invoke,
                ),
                _ => (
                    Identity::Resource {
                        server: server.clone(),
                        uri: key.clone(),
                    },
                    EdgeKind::Read,
                ),
            };
            rows.push(Row::of(server_node.clone(), to, edge_kind, counter));
        }
        for ((from, to, kind), counter) in self
            .inner
            .host
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .iter()
        {
            rows.push(Row::of(from.clone(), to.clone(), *kind, counter));
        }
        rows.retain(|row| row.count > 0);
        // A host may report an edge the dispatch also counts (server -> tool): one edge.
        let mut merged: BTreeMap<(String, String, EdgeKind), Row> = BTreeMap::new();
        for row in rows {
            let key = (row.from.id(), row.to.id(), row.kind);
            match merged.get_mut(&key) {
                Some(seen) => seen.add(&row),
                None => {
                    merged.insert(key, row);
                }
            }
        }
        let rows = merged.into_values().collect();
        let window = super::window::Window::between(started_at, SystemTime::now());
        Ok((rows, window))
    }

    /// The name of the server the observer counts for, once one was built with it.
    pub fn server(&self) -> Option<&str> {
        self.inner.server.get().map(String::as_str)
    }

    /// Ties the observer to the server just built. The builder refused it before if it
    /// counts for another server, so a second `set` can only repeat the name.
    pub(crate) fn bind(&self, server: &str) {
        let _ = self.inner.server.set(server.to_owned());
    }

    /// The counter of one catalog item (`Tool`, `Resource` (URIs and templates) or `Prompt`),
    /// the same one every time the catalog is rebuilt.
    pub(crate) fn item(&self, kind: NodeKind, key: &str) -> Arc<Counter> {
        let mut items = self.inner.items.lock().unwrap_or_else(|e| e.into_inner());
        Arc::clone(items.entry((kind, key.to_owned())).or_default())
    }
}

impl std::fmt::Debug for Observer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Observer")
            .field("started", &self.is_started())
            .field("server", &self.inner.server.get())
            .finish_non_exhaustive()
    }
}

/// One host edge, recorded without a lookup: see [`Observer::edge`].
#[derive(Clone)]
pub struct HostEdge {
    observer: Observer,
    counter: Arc<Counter>,
}

impl HostEdge {
    /// Records one crossing of the edge that took `latency`; before the observer starts it
    /// is [`ObserveError::NotStarted`] and nothing is counted.
    pub fn record(&self, latency: Duration) -> Result<(), ObserveError> {
        if !self.observer.is_started() {
            return Err(ObserveError::NotStarted);
        }
        self.counter.record(latency);
        Ok(())
    }
}

impl std::fmt::Debug for HostEdge {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (count, _, _) = self.counter.read();
        f.debug_struct("HostEdge")
            .field("count", &count)
            .finish_non_exhaustive()
    }
}

/// One counted edge.
struct Row {
    from: Identity,
    to: Identity,
    kind: EdgeKind,
    count: u64,
    latency_sum_ns: u64,
    latency_max_ns: u64,
}

impl Row {
    fn add(&mut self, other: &Row) {
        self.count = self.count.saturating_add(other.count);
        self.latency_sum_ns = self.latency_sum_ns.saturating_add(other.latency_sum_ns);
        self.latency_max_ns = self.latency_max_ns.max(other.latency_max_ns);
    }

    fn of(from: Identity, to: Identity, kind: EdgeKind, counter: &Counter) -> Row {
        let (count, latency_sum_ns, latency_max_ns) = counter.read();
        Row {
            from,
            to,
            kind,
            count,
            latency_sum_ns,
            latency_max_ns,
        }
    }
}

/// The counter a call records into, when an observer is recording.
#[derive(Clone)]
pub(crate) struct ItemCounter {
    observer: Observer,
    counter: Arc<Counter>,
}

impl ItemCounter {
    pub(crate) fn new(observer: &Observer, kind: NodeKind, key: &str) -> ItemCounter {
        ItemCounter {
            observer: observer.clone(),
            counter: observer.item(kind, key),
        }
    }

    /// The counter, if the observer records now (one relaxed load when it does not).
    pub(crate) fn recording(&self) -> Option<Arc<Counter>> {
        self.observer
            .is_started()
            .then(|| Arc::clone(&self.counter))
    }
}

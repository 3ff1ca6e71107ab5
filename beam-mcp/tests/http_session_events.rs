//! What a 2025-11-25 session's event store keeps, over real sockets on 127.0.0.1: a resumption
//! of the session's GET stream that some events are gone from is refused whatever else the
//! session streamed, and nothing of a session outlives it (a DELETE racing an event being kept,
//! or a session left idle that nobody names again), and a store that fails is refused around,
//! never skipped.

mod loopback;

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::time::Duration;

use beam_mcp::store::{StoreError, StoreFuture};
use beam_mcp::transport::http::{
    EventStore, Http, HttpBuilder, MemoryEventStore, Origins, ResumeError, StoredEvent,
};
use beam_mcp::{Context, LiveCatalog, Server};
use beam_mcp_tests::http_client::{Connection, HttpResponse};
use beam_mcp_tests::wait_until;
use loopback::start;
use serde_json::{Value, json};
use tokio::sync::Notify;

/// Reports `steps` steps of progress, `delay_ms` apart.
#[beam_mcp::tool]
async fn steps(steps: u32, delay_ms: u64, ctx: Context) -> String {
    for i in 1..=steps {
        tokio::time::sleep(Duration::from_millis(delay_ms)).await;
        let _ = ctx.progress(f64::from(i), Some(f64::from(steps)), None);
    }
    format!("{steps} steps")
}

/// Added and removed by the tests, so that sessions hear `tools/list_changed` on their GET
/// stream.
#[beam_mcp::tool]
fn hello() -> String {
    "hello".into()
}

fn endpoint(store: impl EventStore) -> (HttpBuilder, LiveCatalog) {
    let (builder, live) = Server::builder().tool(steps::DEF).live();
    let http = Http::builder(builder.build().unwrap())
        .authorize(|_| Ok(()))
        .allowed_origins(Origins::Loopback)
        .event_store(store);
    (http, live)
}

/// A 2025-11-25 session.
struct Session {
    addr: SocketAddr,
    id: String,
}

impl Session {
    fn open(addr: SocketAddr) -> Session {
        let mut session = Session {
            addr,
            id: String::new(),
        };
        let r = session.post(&json!({ "jsonrpc": "2.0", "id": 0, "method": "initialize",
            "params": { "protocolVersion": "2025-11-25", "capabilities": {},
                "clientInfo": { "name": "t", "version": "1" } } }));
        assert_eq!(r.status, 200);
        session.id = r.header("mcp-session-id").unwrap().to_owned();
        let initialized =
            session.post(&json!({ "jsonrpc": "2.0", "method": "notifications/initialized" }));
        assert_eq!(initialized.status, 202);
        session
    }

    fn headers(&self, extra: &[(&str, &str)]) -> Vec<(String, String)> {
        let mut h: Vec<(String, String)> = [
            ("host", format!("127.0.0.1:{}", self.addr.port())),
            ("content-type", "application/json".to_owned()),
            ("accept", "application/json, text/event-stream".to_owned()),
        ]
        .into_iter()
        .map(|(n, v)| (n.to_owned(), v))
        .collect();
        if !self.id.is_empty() {
            h.push(("mcp-session-id".to_owned(), self.id.clone()));
            h.push(("mcp-protocol-version".to_owned(), "2025-11-25".to_owned()));
        }
        h.extend(
            extra
                .iter()
                .map(|(n, v)| ((*n).to_owned(), (*v).to_owned())),
        );
        h
    }

    fn post(&self, message: &Value) -> HttpResponse {
        let h = self.headers(&[]);
        let borrowed: Vec<(&str, &str)> = h.iter().map(|(n, v)| (n.as_str(), v.as_str())).collect();
        Connection::open(self.addr).post(&borrowed, message.to_string().as_bytes())
    }

    /// Sends a request on a connection of its own; the connection, and the response's head.
    fn send(
        &self,
        method: &str,
        message: Option<&Value>,
        extra: &[(&str, &str)],
    ) -> (Connection, HttpResponse) {
        let h = self.headers(extra);
        let borrowed: Vec<(&str, &str)> = h.iter().map(|(n, v)| (n.as_str(), v.as_str())).collect();
        let body = message.map(|m| m.to_string()).unwrap_or_default();
        let mut c = Connection::open(self.addr);
        let head = c.head(method, &borrowed, body.as_bytes());
        (c, head)
    }

    /// A `steps` call asking for progress, its events read to the end; its stream's number.
    fn streamed_call(&self, id: u64, steps: u32) -> u64 {
        let message = json!({ "jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {
            "name": "steps", "arguments": { "steps": steps, "delay_ms": 0 },
            "_meta": { "progressToken": id } } });
        let (mut stream, head) = self.send("POST", Some(&message), &[]);
        assert_eq!(head.status, 200);
        let (priming, _) = stream.next_event_with_id().expect("a priming event");
        let mut events = 0;
        while stream.next_event_with_id().is_some() {
            events += 1;
        }
        assert_eq!(events, steps + 1, "each step's progress, then the result");
        stream_of(&priming.unwrap())
    }
}

fn stream_of(event_id: &str) -> u64 {
    event_id.split('-').next().unwrap().parse().unwrap()
}

/// The number of streams a session streams past the store's record of what it evicted
/// (4096 streams are remembered).
const MANY_STREAMS: u64 = 5000;

/// Past thousands of streamed answers, a resumption of the GET stream from before its evicted
/// events is refused (400), and one from after them replays exactly what followed. (Before, the
/// GET stream's eviction record was the first dropped past 4096 streams: resuming from `0-1`
/// answered 200 with `0-4` alone, silently skipping `0-2` and `0-3`.)
#[test]
fn the_get_stream_is_refused_not_partly_replayed_after_thousands_of_streams() {
    let (http, live) = endpoint(MemoryEventStore::new(2));
    let addr = start(http.build().unwrap());
    let session = Session::open(addr);
    let (mut get, head) = session.send("GET", None, &[]);
    assert_eq!(head.status, 200);
    assert_eq!(get.next_event_with_id().unwrap().0.as_deref(), Some("0-0"));
    // One list change heard on the GET stream: its event id.
    let mut change = |n: u64| {
        if n % 2 == 1 {
            live.add_tool(hello::DEF).unwrap();
        } else {
            live.remove_tool("hello").unwrap();
        }
        let (id, data) = get.next_event_with_id().expect("a list change");
        let message: Value = serde_json::from_str(&data).unwrap();
        assert_eq!(message["method"], "notifications/tools/list_changed");
        id.unwrap()
    };
    let heard: Vec<String> = (1..=3).map(&mut change).collect();
    assert_eq!(heard, ["0-1", "0-2", "0-3"]);
    let mut last = 0;
    for id in 1..=MANY_STREAMS {
        last = session.streamed_call(id, 1);
    }
    assert!(
        last >= MANY_STREAMS,
        "each answer streamed on a stream of its own"
    );
    assert_eq!(change(4), "0-4");
    let (_, head) = session.send("GET", None, &[("last-event-id", "0-1")]);
    assert_eq!(
        head.status, 400,
        "0-2 and 0-3 are gone: nothing is replayed"
    );
    let (mut resumed, head) = session.send("GET", None, &[("last-event-id", "0-3")]);
    assert_eq!(head.status, 200);
    assert_eq!(
        resumed.next_event_with_id().unwrap().0.as_deref(),
        Some("0-3")
    );
    let (id, data) = resumed.next_event_with_id().unwrap();
    assert_eq!(id.as_deref(), Some("0-4"));
    assert!(data.contains("notifications/tools/list_changed"));
}

/// A store as a host may write one: a remote store answers later, so a session can end while
/// one of its events is being kept. It holds the events in a [`MemoryEventStore`] the test
/// reads, and holds one `store` open until told to finish, when asked to.
#[derive(Clone, Default)]
struct SlowStore {
    inner: Arc<MemoryEventStore>,
    /// The `store` call (counted from 1) to hold open; 0: none.
    hold_at: Arc<AtomicUsize>,
    stores: Arc<AtomicUsize>,
    /// Set by the test to let the held `store` finish.
    released: Arc<AtomicBool>,
    release: Arc<Notify>,
}

impl EventStore for SlowStore {
    fn store(&self, session: &str, event: StoredEvent) -> StoreFuture<Result<(), StoreError>> {
        let n = self.stores.fetch_add(1, Ordering::SeqCst) + 1;
        if n != self.hold_at.load(Ordering::SeqCst) {
            self.inner.store(session, event);
            return StoreFuture::ready(Ok(()));
        }
        // As a remote store answers: later, the stream's task waiting meanwhile.
        let (inner, session) = (Arc::clone(&self.inner), session.to_owned());
        let (released, release) = (Arc::clone(&self.released), Arc::clone(&self.release));
        StoreFuture::later(async move {
            while !released.load(Ordering::SeqCst) {
                release.notified().await;
            }
            inner.store(&session, event);
            Ok(())
        })
    }

    fn after(
        &self,
        session: &str,
        stream: u64,
        seq: u64,
    ) -> StoreFuture<Result<Vec<StoredEvent>, ResumeError>> {
        StoreFuture::ready(self.inner.after(session, stream, seq))
    }

    fn forget(&self, session: &str) -> StoreFuture<Result<(), StoreError>> {
        self.inner.forget(session);
        StoreFuture::ready(Ok(()))
    }
}

impl SlowStore {
    fn finish_held(&self) {
        self.released.store(true, Ordering::SeqCst);
        // A permit for a waiter not yet waiting, besides waking one that is.
        self.release.notify_one();
    }
}

/// A store over a network that fails: it cannot keep the event `fail_seq` of POST streams,
/// and answers no resumption while `after_fails` is set.
#[derive(Clone, Default)]
struct FlakyStore {
    inner: Arc<MemoryEventStore>,
    fail_seq: Arc<AtomicU64>,
    after_fails: Arc<AtomicBool>,
}

impl EventStore for FlakyStore {
    fn store(&self, session: &str, event: StoredEvent) -> StoreFuture<Result<(), StoreError>> {
        if event.stream != 0 && event.seq == self.fail_seq.load(Ordering::SeqCst) {
            return StoreFuture::ready(Err(StoreError::unavailable("connection reset")));
        }
        self.inner.store(session, event);
        StoreFuture::ready(Ok(()))
    }

    fn after(
        &self,
        session: &str,
        stream: u64,
        seq: u64,
    ) -> StoreFuture<Result<Vec<StoredEvent>, ResumeError>> {
        if self.after_fails.load(Ordering::SeqCst) {
            let refused = StoreError::unavailable("timed out").into();
            return StoreFuture::later(async move { Err(refused) });
        }
        StoreFuture::ready(self.inner.after(session, stream, seq))
    }

    fn forget(&self, session: &str) -> StoreFuture<Result<(), StoreError>> {
        self.inner.forget(session);
        StoreFuture::ready(Ok(()))
    }
}

/// An event the store failed to keep is never skipped by a resumption: one from before it is
/// refused (400), one from after it replays what followed. A store that cannot answer a
/// resumption is a 503 with `Retry-After`, never an empty replay.
#[test]
fn a_store_that_fails_is_refused_around_not_skipped() {
    let store = FlakyStore::default();
    store.fail_seq.store(2, Ordering::SeqCst);
    let (http, _live) = endpoint(store.clone());
    let addr = start(http.build().unwrap());
    let session = Session::open(addr);
    // Three steps of progress and the result: events 1 to 4, the second not kept.
    let stream = session.streamed_call(1, 3);
    let kept = store.inner.after(&session.id, stream, 0).unwrap();
    let seqs: Vec<u64> = kept.iter().map(|e| e.seq).collect();
    assert_eq!(seqs, [1, 3, 4], "the store lost the second");
    let from = |seq: u64| {
        let last = format!("{stream}-{seq}");
        session.send("GET", None, &[("last-event-id", last.as_str())])
    };
    let (_, head) = from(1);
    assert_eq!(head.status, 400, "resuming after 1 would skip 2");
    let (mut resumed, head) = from(2);
    assert_eq!(head.status, 200);
    let ids: Vec<String> = std::iter::from_fn(|| resumed.next_event_with_id())
        .filter_map(|(id, _)| id)
        .collect();
    assert_eq!(ids, [format!("{stream}-3"), format!("{stream}-4")]);
    // The store stops answering: a resumption is refused for now, to be tried again.
    store.after_fails.store(true, Ordering::SeqCst);
    let (_, head) = from(2);
    assert_eq!(head.status, 503);
    assert!(
        head.header("retry-after").is_some(),
        "503 says when to retry"
    );
    store.after_fails.store(false, Ordering::SeqCst);
    let (_, head) = from(2);
    assert_eq!(head.status, 200, "served again once the store answers");
}

/// A DELETE that ends the session while one of its events is being kept: once the call's
/// stream ends, the store holds nothing of the session. (Before, the event was kept after the
/// session's events were forgotten, and stayed for good: the session's id is never named
/// again.)
#[test]
fn an_event_kept_while_its_session_ends_does_not_outlive_it() {
    let store = SlowStore::default();
    let (http, _live) = endpoint(store.clone());
    let addr = start(http.build().unwrap());
    let session = Session::open(addr);
    // The call's third event is held in the store while the session ends.
    let held = store.stores.load(Ordering::SeqCst) + 3;
    store.hold_at.store(held, Ordering::SeqCst);
    let message = json!({ "jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {
        "name": "steps", "arguments": { "steps": 100, "delay_ms": 5 },
        "_meta": { "progressToken": 1 } } });
    let (mut stream, head) = session.send("POST", Some(&message), &[]);
    assert_eq!(head.status, 200);
    let number = stream_of(&stream.next_event_with_id().unwrap().0.unwrap());
    wait_until("the third event being kept", || {
        store.stores.load(Ordering::SeqCst) >= held
    });
    let (_, deleted) = session.send("DELETE", None, &[]);
    assert_eq!(deleted.status, 200);
    store.finish_held();
    while stream.next_event_with_id().is_some() {}
    // Whatever the call still streamed went nowhere: the store holds no stream of it.
    std::thread::sleep(Duration::from_millis(200));
    for stream in [0, number] {
        assert_eq!(
            store.inner.after(&session.id, stream, 0),
            Err(ResumeError::Unknown),
            "stream {stream} of the ended session"
        );
    }
}

/// A session left idle that nobody names again is ended, its events with it, at the next
/// traffic of any session: a new session, or a request of another one. (Before, an idle
/// session was ended only when its own id was named again, or when the table was full: its
/// events stayed until then.)
#[test]
fn an_idle_session_nobody_names_again_is_ended_with_its_events() {
    let store = SlowStore::default();
    let (http, _live) = endpoint(store.clone());
    let addr = start(
        http.session_idle_timeout(Duration::from_millis(300))
            .build()
            .unwrap(),
    );
    let held = |session: &Session, stream: u64| store.inner.after(&session.id, stream, 0);
    let left = Session::open(addr);
    let left_stream = left.streamed_call(1, 2);
    assert_eq!(held(&left, left_stream).unwrap().len(), 3);
    // Idle past its limit, and past a second since the last sweep: a new session ends it.
    std::thread::sleep(Duration::from_millis(1500));
    let other = Session::open(addr);
    assert_eq!(
        held(&left, left_stream),
        Err(ResumeError::Unknown),
        "opening a session ends the idle one"
    );
    // A request of another session ends an idle one too. `other` holds its GET stream open,
    // so it is never idle itself, however slowly this test runs.
    let (mut other_get, head) = other.send("GET", None, &[]);
    assert_eq!(head.status, 200);
    assert!(other_get.next_event_with_id().is_some());
    let also_left = Session::open(addr);
    let also_stream = also_left.streamed_call(1, 2);
    for id in 2..17 {
        std::thread::sleep(Duration::from_millis(100));
        let ping = other.post(&json!({ "jsonrpc": "2.0", "id": id, "method": "ping" }));
        assert_eq!(ping.status, 200);
    }
    assert_eq!(
        held(&also_left, also_stream),
        Err(ResumeError::Unknown),
        "a request of another session ends the idle one"
    );
    // The ended sessions are gone for their clients too.
    let gone = left.post(&json!({ "jsonrpc": "2.0", "id": 99, "method": "tools/list" }));
    assert_eq!(gone.status, 404);
}

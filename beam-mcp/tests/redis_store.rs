//! The Redis engine against a real `redis-server` on 127.0.0.1 (Debian's package; `.ci/run`
//! installs it when missing), with replicas served over real sockets: one rate-limit bucket per
//! caller across replicas, a catalog change heard once on every replica, the events of a
//! session resumed through another connection, keys in the server's namespace with their
//! lifetimes, TLS and ACL credentials, and a Redis that goes away refused clearly (the health
//! route says so) and served again when it is back.

mod loopback;

use std::net::{SocketAddr, TcpListener, TcpStream};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use beam_mcp::redis::{Redis, RedisOptions};
use beam_mcp::transport::http::{EventStore, Http, Origins, ResumeError, StoredEvent};
use beam_mcp::{LiveCatalog, Server};
use beam_mcp_tests::http_client::{Connection, HttpResponse};
use serde_json::{Value, json};

/// Answers pong.
#[beam_mcp::tool]
fn ping() -> String {
    "pong".into()
}

/// Says hello.
#[beam_mcp::tool]
fn hello() -> String {
    "hello".into()
}

/// Whether `long_wait`'s host code was dropped.
static DROPPED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Sets [`DROPPED`] when the host code holding it is dropped.
struct Guard;

impl Drop for Guard {
    fn drop(&mut self) {
        DROPPED.store(true, std::sync::atomic::Ordering::SeqCst);
    }
}

/// Runs as a task for a minute, unless it is cancelled.
#[beam_mcp::tool(task = "required")]
async fn long_wait() -> String {
    let _guard = Guard;
    tokio::time::sleep(Duration::from_secs(60)).await;
    "done".into()
}

/// A yes or no.
#[derive(serde::Deserialize, schemars::JsonSchema, beam_mcp::Elicit)]
struct Confirm {
    confirm: bool,
}

/// Becomes a task, then asks the client one question.
#[beam_mcp::tool(task = "required")]
async fn ask_once(ctx: beam_mcp::Context) -> Result<String, beam_mcp::ToolError> {
    ctx.detach().await;
    let answer = ctx.elicit::<Confirm>("Go on?").key("go").await;
    Ok(match answer {
        Ok(beam_mcp::Elicited::Accepted(Confirm { confirm })) => format!("confirm={confirm}"),
        _ => "no answer".into(),
    })
}

/// A `redis-server` of the test's own, on a free loopback port, without persistence.
struct RedisServer {
    child: Option<Child>,
    port: u16,
    dir: PathBuf,
    /// What the test adds to the command line (TLS, ACL users).
    extra: Vec<String>,
    /// Serves TLS only: ready once the port accepts a connection.
    tls: bool,
}

impl RedisServer {
    fn start() -> RedisServer {
        RedisServer::start_with(Vec::new(), false)
    }

    fn start_with(extra: Vec<String>, tls: bool) -> RedisServer {
        let port = TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let dir =
            std::env::temp_dir().join(format!("beam-mcp-redis-{}-{port}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let mut server = RedisServer {
            child: None,
            port,
            dir,
            extra,
            tls,
        };
        server.restart();
        server
    }

    /// Starts (again) on the same port, and waits until it answers.
    fn restart(&mut self) {
        let binary = ["/usr/bin/redis-server", "/usr/local/bin/redis-server"]
            .into_iter()
            .find(|p| std::path::Path::new(p).exists())
            .expect("redis-server is not installed: apt-get install redis-server (.ci/run does)");
        let port = self.port.to_string();
        let ports = if self.tls {
            ["--port", "0", "--tls-port", &port]
        } else {
            ["--port", &port, "--tls-port", "0"]
        };
        let child = Command::new(binary)
            .args(ports)
            .args(["--bind", "127.0.0.1"])
            .args(&self.extra)
            .args(["--save", "", "--appendonly", "no", "--daemonize", "no"])
            .arg("--dir")
            .arg(&self.dir)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("redis-server starts");
        self.child = Some(child);
        let deadline = Instant::now() + Duration::from_secs(10);
        while !self.answers() {
            assert!(
                Instant::now() < deadline,
                "redis-server did not answer in 10 s"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// Kills it, and waits until the port is closed.
    fn stop(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }

    fn answers(&self) -> bool {
        use std::io::{Read, Write};
        let Ok(mut stream) = TcpStream::connect(("127.0.0.1", self.port)) else {
            return false;
        };
        if self.tls {
            return true;
        }
        stream
            .set_read_timeout(Some(Duration::from_millis(500)))
            .unwrap();
        let mut reply = [0u8; 7];
        stream.write_all(b"PING\r\n").is_ok()
            && stream.read_exact(&mut reply).is_ok()
            && &reply == b"+PONG\r\n"
    }

    fn url(&self) -> String {
        format!("redis://127.0.0.1:{}/0", self.port)
    }
}

impl Drop for RedisServer {
    fn drop(&mut self) {
        self.stop();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// A runtime that outlives the test's replicas: their Redis connections run on it.
fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .unwrap()
}

fn connect(runtime: &tokio::runtime::Runtime, redis: &RedisServer) -> Redis {
    runtime
        .block_on(Redis::connect("weather", RedisOptions::new(redis.url())))
        .expect("connects")
}

fn serve(server: Server) -> SocketAddr {
    let http = Http::builder(server)
        .authorize(|_| Ok(()))
        .allowed_origins(Origins::Loopback)
        .build()
        .unwrap();
    loopback::start(http)
}

/// Served with a health route at `/healthz` that asks `store` too.
fn serve_with_health(server: Server, store: &Redis) -> SocketAddr {
    let http = Http::builder(server)
        .authorize(|_| Ok(()))
        .allowed_origins(Origins::Loopback)
        .health_route("/healthz")
        .health_probe(store.clone())
        .build()
        .unwrap();
    loopback::start(http)
}

/// `GET /healthz`: the status line's code and the body.
fn health(addr: SocketAddr) -> (u16, String) {
    use std::io::{Read, Write};
    let mut stream = TcpStream::connect(addr).unwrap();
    let request = format!(
        "GET /healthz HTTP/1.1\r\nhost: 127.0.0.1:{}\r\nconnection: close\r\n\r\n",
        addr.port()
    );
    stream.write_all(request.as_bytes()).unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).unwrap();
    let status = answer[9..12].parse().unwrap();
    let body = answer
        .split_once("\r\n\r\n")
        .map(|(_, b)| b.to_owned())
        .unwrap_or_default();
    (status, body)
}

fn headers(addr: SocketAddr, method: &str, name: Option<&str>) -> Vec<(String, String)> {
    let mut h = vec![
        ("host".to_owned(), format!("127.0.0.1:{}", addr.port())),
        ("content-type".to_owned(), "application/json".to_owned()),
        (
            "accept".to_owned(),
            "application/json, text/event-stream".to_owned(),
        ),
        ("mcp-protocol-version".to_owned(), "2026-07-28".to_owned()),
        ("mcp-method".to_owned(), method.to_owned()),
    ];
    if let Some(name) = name {
        h.push(("mcp-name".to_owned(), name.to_owned()));
    }
    h
}

fn body(method: &str, mut params: Value) -> String {
    params["_meta"] = beam_mcp_tests::modern_meta();
    // Every request declares the tasks extension and elicitation (the task tools need both).
    params["_meta"]["io.modelcontextprotocol/clientCapabilities"] = json!({
        "elicitation": {},
        "extensions": { "io.modelcontextprotocol/tasks": {} },
    });
    json!({ "jsonrpc": "2.0", "id": 1, "method": method, "params": params }).to_string()
}

fn post(connection: &mut Connection, h: &[(String, String)], body: &str) -> HttpResponse {
    let h: Vec<(&str, &str)> = h.iter().map(|(n, v)| (n.as_str(), v.as_str())).collect();
    connection.post(&h, body.as_bytes())
}

/// A 2026-07-28 `tools/call` of `ping`.
fn ping_at(addr: SocketAddr) -> HttpResponse {
    let h = headers(addr, "tools/call", Some("ping"));
    let b = body("tools/call", json!({ "name": "ping", "arguments": {} }));
    post(&mut Connection::open(addr), &h, &b)
}

/// Five replicas' worth of calls on two replicas: the bucket of three is one bucket.
#[test]
fn replicas_draw_from_one_bucket_per_caller() {
    let redis = RedisServer::start();
    let rt = runtime();
    let replicas: Vec<SocketAddr> = (0..2)
        .map(|_| {
            let store = connect(&rt, &redis);
            let limit = store.rate_limit_every(Duration::from_secs(60)).burst(3);
            serve(
                Server::builder()
                    .tool(ping::DEF)
                    .rate_limit(limit)
                    .build()
                    .unwrap(),
            )
        })
        .collect();
    for (i, replica) in [0, 1, 0].into_iter().enumerate() {
        let answer = ping_at(replicas[replica]);
        assert_eq!(answer.status, 200, "call {i}: {}", answer.json());
    }
    let refused = ping_at(replicas[1]);
    assert_eq!(refused.status, 429, "{}", refused.json());
    let error = &refused.json()["error"];
    assert_eq!(error["code"], -31429, "{error}");
    let wait = error["data"]["retryAfterMs"].as_u64().unwrap();
    // Three spent of a bucket of three, one token a minute: the next is a minute away.
    assert!((59_000..=60_000).contains(&wait), "{wait}");
    assert_eq!(
        refused.header("retry-after"),
        Some(&*(wait.div_ceil(1000)).to_string())
    );
    // The other replica counts the same bucket: refused there too.
    assert_eq!(ping_at(replicas[0]).status, 429);
}

/// Redis goes away: a call that needs it is refused at once, 503 with `Retry-After` and
/// `-32603` naming the store; one that needs nothing of it is served; when Redis is back the
/// replica serves again within two seconds, by itself.
#[test]
fn a_lost_redis_is_refused_clearly_and_service_comes_back_by_itself() {
    let mut redis = RedisServer::start();
    let rt = runtime();
    let store = connect(&rt, &redis);
    let addr = serve_with_health(
        Server::builder()
            .tool(ping::DEF)
            .rate_limit(store.rate_limit_per_second(1000))
            .build()
            .unwrap(),
        &store,
    );
    assert_eq!(ping_at(addr).status, 200);
    assert_eq!(health(addr), (200, "ok".to_owned()));

    redis.stop();
    let asked = Instant::now();
    let refused = ping_at(addr);
    let took = asked.elapsed();
    assert_eq!(refused.status, 503, "{}", refused.json());
    assert_eq!(refused.header("retry-after"), Some("1"));
    let error = &refused.json()["error"];
    assert_eq!(error["code"], -32603, "{error}");
    assert_eq!(
        error["message"],
        "The state store is unavailable: try again later"
    );
    assert!(
        took < Duration::from_secs(3),
        "refused within the store's time limit: {took:?}"
    );
    // Listing touches no shared state: served while Redis is away.
    let h = headers(addr, "tools/list", None);
    let listed = post(
        &mut Connection::open(addr),
        &h,
        &body("tools/list", json!({})),
    );
    assert_eq!(listed.status, 200, "{}", listed.json());
    assert_eq!(health(addr), (503, "store unavailable".to_owned()));

    redis.restart();
    let back = Instant::now();
    loop {
        let answer = ping_at(addr);
        if answer.status == 200 {
            break;
        }
        assert_eq!(answer.status, 503, "{}", answer.json());
        assert!(
            back.elapsed() < Duration::from_secs(2),
            "still refused 2 s after Redis came back"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    eprintln!("served again {:?} after Redis answered", back.elapsed());
    assert_eq!(health(addr), (200, "ok".to_owned()));
}

/// A 2026-07-28 listen stream on `addr`, past its acknowledgement.
fn listen(addr: SocketAddr) -> Connection {
    let h = headers(addr, "subscriptions/listen", None);
    let b = body(
        "subscriptions/listen",
        json!({ "notifications": { "toolsListChanged": true } }),
    );
    let mut connection = Connection::open(addr);
    let hh: Vec<(&str, &str)> = h.iter().map(|(n, v)| (n.as_str(), v.as_str())).collect();
    let head = connection.post_head(&hh, b.as_bytes());
    assert_eq!(head.status, 200);
    let first = connection.next_event().expect("the acknowledgement");
    assert!(
        first.contains("notifications/subscriptions/acknowledged"),
        "{first}"
    );
    connection
}

/// `n` replicas with live catalogs sharing the fan-out: their addresses and catalogs.
fn live_replicas(
    rt: &tokio::runtime::Runtime,
    redis: &RedisServer,
    n: usize,
) -> (Vec<SocketAddr>, Vec<LiveCatalog>) {
    (0..n)
        .map(|_| {
            let store = connect(rt, redis);
            let (builder, catalog) = Server::builder().tool(ping::DEF).live();
            (
                serve(builder.fanout(store.fanout()).build().unwrap()),
                catalog,
            )
        })
        .unzip()
}

/// Every replica's listeners hear a change made on one replica, each exactly once.
#[test]
fn a_catalog_change_on_one_replica_is_heard_once_on_every_replica() {
    let redis = RedisServer::start();
    let rt = runtime();
    let (replicas, catalogs) = live_replicas(&rt, &redis, 3);
    let mut streams: Vec<Connection> = replicas.iter().map(|&a| listen(a)).collect();
    // The change is made on replica 0, from a task of the runtime its publication runs on.
    rt.block_on(async { catalogs[0].add_tool(hello::DEF).unwrap() });
    for (i, stream) in streams.iter_mut().enumerate() {
        hears_once(stream, &format!("replica {i}"));
    }
}

/// `stream` hears the tools list change, and nothing more within half a second: the one way to
/// see that a second copy does not come is to give it the time to.
fn hears_once(stream: &mut Connection, who: &str) {
    let heard = stream
        .next_event_within(Duration::from_secs(5))
        .unwrap_or_else(|| panic!("{who} heard nothing"));
    assert!(
        heard.contains("notifications/tools/list_changed"),
        "{who}: {heard}"
    );
    assert!(
        stream
            .next_event_within(Duration::from_millis(500))
            .is_none(),
        "{who} heard the change twice"
    );
}

/// The events one replica keeps are resumed through another's connection, with the in-memory
/// store's answers; the keys sit in the server's namespace and expire.
#[test]
fn events_kept_through_one_connection_are_resumed_through_another() {
    let redis = RedisServer::start();
    let rt = runtime();
    let (a, b) = (connect(&rt, &redis), connect(&rt, &redis));
    let writer = a.event_store().per_session(3);
    let reader = b.event_store().per_session(3);
    rt.block_on(async {
        for seq in 1..=4 {
            let data = format!("{{\"n\": \"{seq} {seq}\"}}").into();
            writer
                .store(
                    "s1",
                    StoredEvent {
                        stream: 2,
                        seq,
                        data,
                    },
                )
                .await
                .unwrap();
        }
        // Four kept past a bound of three: the first went, so resuming before it is refused.
        assert_eq!(reader.after("s1", 2, 0).await, Err(ResumeError::Evicted));
        let missed = reader.after("s1", 2, 2).await.unwrap();
        let seqs: Vec<u64> = missed.iter().map(|e| e.seq).collect();
        assert_eq!(seqs, [3, 4]);
        assert_eq!(&missed[0].data[..], b"{\"n\": \"3 3\"}");
        assert_eq!(reader.after("s1", 9, 0).await, Err(ResumeError::Unknown));
        assert_eq!(reader.after("s2", 2, 0).await, Err(ResumeError::Unknown));

        let client = redis::Client::open(redis.url()).unwrap();
        let mut raw = client.get_multiplexed_async_connection().await.unwrap();
        let mut keys: Vec<String> = redis::cmd("KEYS")
            .arg("*")
            .query_async(&mut raw)
            .await
            .unwrap();
        keys.sort();
        assert_eq!(
            keys,
            [
                "beam-mcp:weather:events-meta:s1",
                "beam-mcp:weather:events:s1"
            ]
        );
        for key in &keys {
            let ttl: i64 = redis::cmd("PTTL")
                .arg(key)
                .query_async(&mut raw)
                .await
                .unwrap();
            assert!(
                (29 * 60_000..=30 * 60_000).contains(&ttl),
                "{key}: {ttl} ms"
            );
        }

        writer.forget("s1").await.unwrap();
        assert_eq!(reader.after("s1", 2, 2).await, Err(ResumeError::Unknown));
        let keys: Vec<String> = redis::cmd("KEYS")
            .arg("*")
            .query_async(&mut raw)
            .await
            .unwrap();
        assert!(keys.is_empty(), "{keys:?}");
    });
}

/// `rediss://` checked against a private CA, with an ACL user whose keys and channels are only
/// the `beam-mcp:` namespace, its credentials from the environment: the engine works within
/// them. Without the CA, or with a wrong password, it does not start.
#[test]
fn tls_and_acl_credentials_from_the_environment() {
    let certs = std::env::temp_dir().join(format!("beam-mcp-redis-tls-{}", std::process::id()));
    std::fs::create_dir_all(&certs).unwrap();
    let openssl = |args: &[&str]| {
        let status = Command::new("openssl")
            .args(args)
            .current_dir(&certs)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .expect("openssl runs");
        assert!(status.success(), "openssl {args:?}");
    };
    openssl(&[
        "req",
        "-x509",
        "-newkey",
        "rsa:2048",
        "-nodes",
        "-keyout",
        "ca.key",
        "-out",
        "ca.pem",
        "-days",
        "1",
        "-subj",
        "/CN=beam-mcp test CA",
    ]);
    openssl(&[
        "req",
        "-newkey",
        "rsa:2048",
        "-nodes",
        "-keyout",
        "redis.key",
        "-out",
        "redis.csr",
        "-subj",
        "/CN=127.0.0.1",
    ]);
    std::fs::write(certs.join("ext"), "subjectAltName=IP:127.0.0.1").unwrap();
    openssl(&[
        "x509",
        "-req",
        "-in",
        "redis.csr",
        "-CA",
        "ca.pem",
        "-CAkey",
        "ca.key",
        "-CAcreateserial",
        "-out",
        "redis.pem",
        "-days",
        "1",
        "-extfile",
        "ext",
    ]);
    let path = |name: &str| certs.join(name).to_string_lossy().into_owned();
    let redis = RedisServer::start_with(
        vec![
            "--tls-cert-file".into(),
            path("redis.pem"),
            "--tls-key-file".into(),
            path("redis.key"),
            "--tls-ca-cert-file".into(),
            path("ca.pem"),
            "--tls-auth-clients".into(),
            "no".into(),
            // Each word its own argument: redis-server quotes an argument that has spaces.
            "--user".into(),
            "default".into(),
            "off".into(),
            "--user".into(),
            "mcp".into(),
            "on".into(),
            ">s3cret".into(),
            "~beam-mcp:*".into(),
            "&beam-mcp:*".into(),
            "+@all".into(),
        ],
        true,
    );
    let url = format!("rediss://127.0.0.1:{}/0", redis.port);
    let rt = runtime();
    // SAFETY: no other test of this binary reads or writes these variables.
    unsafe {
        std::env::set_var("BEAM_MCP_REDIS_URL", &url);
        std::env::set_var("BEAM_MCP_REDIS_USERNAME", "mcp");
        std::env::set_var("BEAM_MCP_REDIS_PASSWORD", "s3cret");
        std::env::set_var("BEAM_MCP_REDIS_CA_FILE", path("ca.pem"));
    }
    let options = RedisOptions::from_env().unwrap();
    rt.block_on(async {
        let store = Redis::connect("weather", options.clone())
            .await
            .expect("connects over TLS");
        store.ping().await.unwrap();
        let limit = store.rate_limit_every(Duration::from_secs(60));
        use beam_mcp::limit::{Caller, Limited, RateLimit};
        let alice = Caller::from_digest(&[7; 32]);
        assert_eq!(limit.check(alice, Limited::Completion).await, Ok(()));
        assert!(limit.check(alice, Limited::Completion).await.is_err());

        let wrong = Redis::connect("weather", options.clone().password("guess")).await;
        assert!(wrong.is_err(), "a wrong password does not connect");
        let untrusted = Redis::connect(
            "weather",
            RedisOptions::new(&url).username("mcp").password("s3cret"),
        )
        .await;
        assert!(
            untrusted.is_err(),
            "a certificate of an unknown CA is not trusted"
        );
    });
    let _ = std::fs::remove_dir_all(&certs);
}

/// Redis restarts while no replica issues a command: each replica reconnects and subscribes
/// again by itself, tells its listeners every list may have changed (what was published
/// meanwhile is lost), and hears the other replicas' changes again.
#[test]
fn after_redis_restarts_listeners_are_told_and_changes_travel_again() {
    let mut redis = RedisServer::start();
    let rt = runtime();
    let (replicas, catalogs) = live_replicas(&rt, &redis, 2);
    let mut stream = listen(replicas[1]);
    redis.stop();
    redis.restart();
    let heard = stream
        .next_event_within(Duration::from_secs(5))
        .expect("told after the reconnection");
    assert!(
        heard.contains("notifications/tools/list_changed"),
        "{heard}"
    );
    assert!(
        stream
            .next_event_within(Duration::from_millis(300))
            .is_none()
    );
    // Replica 0 publishes on its own reconnected connection; replica 1 hears it once.
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        rt.block_on(async { catalogs[0].add_tool(hello::DEF).unwrap() });
        if let Some(heard) = stream.next_event_within(Duration::from_millis(500)) {
            assert!(
                heard.contains("notifications/tools/list_changed"),
                "{heard}"
            );
            break;
        }
        assert!(Instant::now() < deadline, "changes did not travel again");
    }
}

/// A 2026-07-28 request of `method` to `addr`: its JSON-RPC answer.
fn request(addr: SocketAddr, method: &str, name: Option<&str>, params: Value) -> Value {
    let h = headers(addr, method, name);
    let answer = post(&mut Connection::open(addr), &h, &body(method, params));
    assert_eq!(answer.status, 200, "{method}: {}", answer.json());
    answer.json()
}

/// Calls task tool `tool` on `addr`: the id of the task it became.
fn start_task(addr: SocketAddr, tool: &str) -> String {
    let created = request(
        addr,
        "tools/call",
        Some(tool),
        json!({ "name": tool, "arguments": {} }),
    );
    let id = created["result"]["taskId"].as_str();
    id.unwrap_or_else(|| panic!("a task: {created}")).to_owned()
}

fn task_at(addr: SocketAddr, id: &str) -> Value {
    request(addr, "tasks/get", Some(id), json!({ "taskId": id }))["result"].clone()
}

/// Polls `addr` until `done` holds of the task, for 5 s at most.
fn task_until(addr: SocketAddr, id: &str, what: &str, done: impl Fn(&Value) -> bool) -> Value {
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        let task = task_at(addr, id);
        if done(&task) {
            return task;
        }
        assert!(Instant::now() < deadline, "{what}: {task}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Three replicas sharing tasks: a task created on one is read on another, answered through a
/// third, and its result is read everywhere; a task cancelled through another replica is
/// cancelled where it runs (its host code dropped) and reads so everywhere.
#[test]
fn a_task_created_on_one_replica_is_read_answered_and_cancelled_on_the_others() {
    let redis = RedisServer::start();
    let rt = runtime();
    let replicas: Vec<SocketAddr> = (0..3)
        .map(|_| {
            let store = connect(&rt, &redis);
            let server = Server::builder()
                .tool(ask_once::DEF)
                .tool(long_wait::DEF)
                .task_share(store.tasks())
                .build()
                .unwrap();
            serve(server)
        })
        .collect();
    let (a, b, c) = (replicas[0], replicas[1], replicas[2]);

    let id = start_task(a, "ask_once");
    let parked = task_until(b, &id, "the ask, read on another replica", |t| {
        t["status"] == "input_required"
    });
    assert_eq!(
        parked["inputRequests"]["go"]["method"], "elicitation/create",
        "{parked}"
    );
    let ack = request(
        c,
        "tasks/update",
        Some(&id),
        json!({ "taskId": id, "inputResponses": {
            "go": { "action": "accept", "content": { "confirm": true } } } }),
    );
    assert!(ack["result"].is_object(), "{ack}");
    for replica in [b, c, a] {
        let done = task_until(replica, &id, "the result, on every replica", |t| {
            t["status"] == "completed"
        });
        assert_eq!(
            done["result"]["content"][0]["text"], "confirm=true",
            "{done}"
        );
    }

    let id = start_task(a, "long_wait");
    assert_eq!(task_at(c, &id)["status"], "working");
    request(b, "tasks/cancel", Some(&id), json!({ "taskId": id }));
    for replica in [c, a, b] {
        task_until(replica, &id, "cancelled, on every replica", |t| {
            t["status"] == "cancelled"
        });
    }
    let deadline = Instant::now() + Duration::from_secs(5);
    while !DROPPED.load(std::sync::atomic::Ordering::SeqCst) {
        assert!(
            Instant::now() < deadline,
            "the host code ran on after the cancel"
        );
        std::thread::sleep(Duration::from_millis(10));
    }

    // An id no replica knows is unknown on every one.
    let unknown = request(
        c,
        "tasks/get",
        Some("no-such-task"),
        json!({ "taskId": "no-such-task" }),
    );
    assert_eq!(unknown["error"]["code"], -32602, "{unknown}");
}

/// A 2025-11-25 session on `addr`: initialized, then its GET stream open past the priming
/// event.
fn legacy_get_stream(addr: SocketAddr) -> Connection {
    legacy_session(addr).0
}

/// A 2025-11-25 session on `addr`: its GET stream open past the priming event, and its id.
fn legacy_session(addr: SocketAddr) -> (Connection, String) {
    let host = format!("127.0.0.1:{}", addr.port());
    let base = [
        ("host", host.as_str()),
        ("content-type", "application/json"),
        ("accept", "application/json, text/event-stream"),
    ];
    let hello = json!({ "jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {},
        "clientInfo": { "name": "t", "version": "1" } } });
    let opened = Connection::open(addr).post(&base, hello.to_string().as_bytes());
    assert_eq!(opened.status, 200);
    let id = opened
        .header("mcp-session-id")
        .expect("a session")
        .to_owned();
    let mut on_session = base.to_vec();
    on_session.push(("mcp-session-id", id.as_str()));
    on_session.push(("mcp-protocol-version", "2025-11-25"));
    let initialized = json!({ "jsonrpc": "2.0", "method": "notifications/initialized" });
    let told = Connection::open(addr).post(&on_session, initialized.to_string().as_bytes());
    assert_eq!(told.status, 202);
    let mut stream = Connection::open(addr);
    let head = stream.head("GET", &on_session, b"");
    assert_eq!(head.status, 200);
    let (priming, _) = stream.next_event_with_id().expect("the priming event");
    assert_eq!(priming.as_deref(), Some("0-0"));
    (stream, id)
}

/// A change made on one replica reaches the 2025-11-25 sessions of the others (on their GET
/// streams) exactly once, as it reaches their listen streams.
#[test]
fn a_catalog_change_on_one_replica_reaches_the_legacy_sessions_of_the_others_once() {
    let redis = RedisServer::start();
    let rt = runtime();
    let (replicas, catalogs) = live_replicas(&rt, &redis, 3);
    let mut streams: Vec<Connection> = replicas[1..]
        .iter()
        .map(|&a| legacy_get_stream(a))
        .collect();
    rt.block_on(async { catalogs[0].add_tool(hello::DEF).unwrap() });
    for (i, stream) in streams.iter_mut().enumerate() {
        hears_once(stream, &format!("the session on replica {}", i + 1));
    }
}

/// The endpoint keeps a session's stream events in Redis: a client whose GET stream dropped
/// resumes with `Last-Event-ID` and is replayed exactly what it missed, read back from Redis.
#[test]
fn a_session_stream_resumes_from_events_kept_in_redis() {
    let redis = RedisServer::start();
    let rt = runtime();
    let store = connect(&rt, &redis);
    let (builder, catalog) = Server::builder().tool(ping::DEF).live();
    let http = Http::builder(builder.build().unwrap())
        .authorize(|_| Ok(()))
        .allowed_origins(Origins::Loopback)
        .event_store(store.event_store())
        .build()
        .unwrap();
    let addr = loopback::start(http);
    let (mut stream, id) = legacy_session(addr);
    rt.block_on(async { catalog.add_tool(hello::DEF).unwrap() });
    let (event, heard) = stream.next_event_with_id().expect("the change");
    assert!(
        heard.contains("notifications/tools/list_changed"),
        "{heard}"
    );
    assert_eq!(event.as_deref(), Some("0-1"));
    drop(stream);
    rt.block_on(async { catalog.remove_tool("hello").unwrap() });

    let host = format!("127.0.0.1:{}", addr.port());
    let resume = [
        ("host", host.as_str()),
        ("accept", "text/event-stream"),
        ("mcp-session-id", id.as_str()),
        ("mcp-protocol-version", "2025-11-25"),
        ("last-event-id", "0-1"),
    ];
    let mut resumed = Connection::open(addr);
    let head = resumed.head("GET", &resume, b"");
    assert_eq!(head.status, 200);
    // The resumption point first (its id, no data), then what was missed.
    let (point, nothing) = resumed.next_event_with_id().expect("the resumption point");
    assert_eq!((point.as_deref(), nothing.as_str()), (Some("0-1"), ""));
    let (event, missed) = resumed.next_event_with_id().expect("the missed change");
    assert_eq!(event.as_deref(), Some("0-2"), "{missed}");
    assert!(
        missed.contains("notifications/tools/list_changed"),
        "{missed}"
    );
    rt.block_on(async {
        let client = redis::Client::open(redis.url()).unwrap();
        let mut raw = client.get_multiplexed_async_connection().await.unwrap();
        let kept: i64 = redis::cmd("LLEN")
            .arg(format!("beam-mcp:weather:events:{id}"))
            .query_async(&mut raw)
            .await
            .unwrap();
        assert!(kept >= 2, "the session's events are in Redis: {kept}");
    });
}

/// Asks the client one question on its 2025-11-25 session, and says what it answered.
#[beam_mcp::tool]
async fn confirm_now(ctx: beam_mcp::Context) -> Result<String, beam_mcp::ToolError> {
    Ok(match ctx.elicit::<Confirm>("Go on?").await {
        Ok(beam_mcp::Elicited::Accepted(Confirm { confirm })) => format!("confirm={confirm}"),
        _ => "no answer".into(),
    })
}

/// Replicas sharing their 2025-11-25 sessions (and the events of their streams) in `redis`;
/// each caller is the `x-user` header's value.
fn session_replicas(
    rt: &tokio::runtime::Runtime,
    redis: &RedisServer,
    n: usize,
) -> (Vec<SocketAddr>, Vec<LiveCatalog>) {
    session_replicas_holding(rt, redis, n, 250, None)
}

/// [`session_replicas`] where a principal may hold `per_principal` sessions and, when given,
/// `streams` streams counted across the replicas (`stream_share`).
fn session_replicas_holding(
    rt: &tokio::runtime::Runtime,
    redis: &RedisServer,
    n: usize,
    per_principal: usize,
    streams: Option<usize>,
) -> (Vec<SocketAddr>, Vec<LiveCatalog>) {
    (0..n)
        .map(|_| {
            let store = connect(rt, redis);
            let (builder, catalog) = Server::builder()
                .tool(ping::DEF)
                .tool(confirm_now::DEF)
                .live();
            let http = Http::builder(builder.fanout(store.fanout()).build().unwrap())
                .authorize(|parts| Ok(x_user(parts)))
                .allowed_origins(Origins::Loopback)
                .max_sessions_per_principal(per_principal)
                .session_share(store.sessions())
                .event_store(store.event_store());
            let http = match streams {
                Some(most) => http
                    .max_streams_per_principal(most)
                    .stream_share(store.streams()),
                None => http,
            };
            (loopback::start(http.build().unwrap()), catalog)
        })
        .unzip()
}

/// Who the caller is: the `x-user` header's value (`anyone` without one).
fn x_user(parts: &axum::http::request::Parts) -> String {
    parts
        .headers
        .get("x-user")
        .and_then(|v| v.to_str().ok())
        .unwrap_or("anyone")
        .to_owned()
}

/// A 2025-11-25 client of several replicas: its session id and who it is.
#[derive(Debug)]
struct LegacyClient {
    session: String,
    user: &'static str,
}

impl LegacyClient {
    fn headers(&self, addr: SocketAddr) -> Vec<(String, String)> {
        vec![
            ("host".into(), format!("127.0.0.1:{}", addr.port())),
            ("content-type".into(), "application/json".into()),
            (
                "accept".into(),
                "application/json, text/event-stream".into(),
            ),
            ("mcp-session-id".into(), self.session.clone()),
            ("mcp-protocol-version".into(), "2025-11-25".into()),
            ("x-user".into(), self.user.into()),
        ]
    }

    /// Opens a session on `addr` as `user`, declaring elicitation.
    fn open(addr: SocketAddr, user: &'static str) -> LegacyClient {
        Self::try_open(addr, user).unwrap_or_else(|refused| panic!("{refused:?}"))
    }

    /// Opens a session on `addr` as `user`, or the refusal.
    fn try_open(addr: SocketAddr, user: &'static str) -> Result<LegacyClient, HttpResponse> {
        let mut client = LegacyClient {
            session: String::new(),
            user,
        };
        let mut h = client.headers(addr);
        h.retain(|(n, _)| n != "mcp-session-id" && n != "mcp-protocol-version");
        let hello = json!({ "jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": "2025-11-25", "capabilities": { "elicitation": {} },
            "clientInfo": { "name": "t", "version": "1" } } });
        let opened = post(&mut Connection::open(addr), &h, &hello.to_string());
        if opened.status != 200 {
            return Err(opened);
        }
        client.session = opened
            .header("mcp-session-id")
            .expect("a session")
            .to_owned();
        Ok(client)
    }

    fn send(&self, addr: SocketAddr, message: &Value) -> HttpResponse {
        post(
            &mut Connection::open(addr),
            &self.headers(addr),
            &message.to_string(),
        )
    }

    fn call(&self, addr: SocketAddr, method: &str, params: Value) -> HttpResponse {
        self.send(
            addr,
            &json!({ "jsonrpc": "2.0", "id": 5, "method": method, "params": params }),
        )
    }
}

/// The raw record of session `id` in Redis.
fn record(
    rt: &tokio::runtime::Runtime,
    redis: &RedisServer,
    id: &str,
) -> std::collections::HashMap<String, String> {
    rt.block_on(async {
        let client = redis::Client::open(redis.url()).unwrap();
        let mut raw = client.get_multiplexed_async_connection().await.unwrap();
        redis::cmd("HGETALL")
            .arg(format!("beam-mcp:weather:session:{id}"))
            .query_async(&mut raw)
            .await
            .unwrap()
    })
}

/// One 2025-11-25 session served by three replicas, each request landing elsewhere: opened on
/// one, told `initialized`, called and set a log level on others; a tool on one asks the client,
/// whose answer lands on another and reaches it; another caller cannot use the id; DELETE on one
/// ends it on all; a lost Redis is refused clearly.
#[test]
fn a_legacy_session_is_served_by_every_replica() {
    let mut redis = RedisServer::start();
    let rt = runtime();
    let (r, _catalogs) = session_replicas(&rt, &redis, 3);
    let client = LegacyClient::open(r[0], "alice");
    let held = record(&rt, &redis, &client.session);
    assert_eq!(held.get("level").map(String::as_str), Some(""), "{held:?}");
    assert!(held["hello"].contains("\"elicitation\""), "{held:?}");

    let initialized = json!({ "jsonrpc": "2.0", "method": "notifications/initialized" });
    assert_eq!(client.send(r[1], &initialized).status, 202);
    let pinged = client.call(
        r[2],
        "tools/call",
        json!({ "name": "ping", "arguments": {} }),
    );
    assert_eq!(pinged.status, 200);
    assert_eq!(pinged.answer()["result"]["content"][0]["text"], "pong");

    // Another caller naming the id is told nothing of it, on any replica.
    let mallory = LegacyClient {
        session: client.session.clone(),
        user: "mallory",
    };
    for &addr in &r {
        assert_eq!(mallory.call(addr, "ping", json!({})).status, 404);
    }

    // The level set through one replica is in the record every replica reads.
    let set = client.call(r[1], "logging/setLevel", json!({ "level": "error" }));
    assert_eq!(set.status, 200);
    assert_eq!(
        record(&rt, &redis, &client.session)
            .get("level")
            .map(String::as_str),
        Some("error")
    );

    // A tool on replica 1 asks the client; the answer goes to replica 2 and reaches it.
    let mut asking = Connection::open(r[1]);
    let h = client.headers(r[1]);
    let h: Vec<(&str, &str)> = h.iter().map(|(n, v)| (n.as_str(), v.as_str())).collect();
    let call = json!({ "jsonrpc": "2.0", "id": 9, "method": "tools/call",
        "params": { "name": "confirm_now", "arguments": {} } });
    assert_eq!(
        asking.post_head(&h, call.to_string().as_bytes()).status,
        200
    );
    let asked: Value = loop {
        let (_, data) = asking.next_event_with_id().expect("the ask");
        if data.contains("elicitation/create") {
            break serde_json::from_str(&data).unwrap();
        }
    };
    let ask_id = asked["id"].as_u64().expect("an integer id");
    assert!(
        ask_id < 1 << 53,
        "an id every client reads exactly: {ask_id}"
    );
    let answer = json!({ "jsonrpc": "2.0", "id": ask_id,
        "result": { "action": "accept", "content": { "confirm": true } } });
    assert_eq!(client.send(r[2], &answer).status, 202);
    let result: Value = loop {
        let (_, data) = asking.next_event_with_id().expect("the result");
        if data.contains("\"result\"") {
            break serde_json::from_str(&data).unwrap();
        }
    };
    assert_eq!(result["id"], 9);
    assert_eq!(
        result["result"]["content"][0]["text"], "confirm=true",
        "{result}"
    );

    // A GET stream on replica 2 is numbered apart from any other replica's.
    let mut listening = Connection::open(r[2]);
    assert_eq!(head(&mut listening, "GET", &client, r[2]), 200);
    let (priming, _) = listening.next_event_with_id().expect("the priming event");
    let stream: u64 = priming.unwrap().split('-').next().unwrap().parse().unwrap();
    assert!(stream != 0 && stream.trailing_zeros() >= 32, "{stream}");
    // A GET opened on replica 0 takes the stream over: the one on replica 2 ends at once.
    // (It waits first, on a quiet stream: what must wake it is the takeover.)
    assert_eq!(
        listening.next_event_within(Duration::from_millis(300)),
        None
    );
    let mut moved = Connection::open(r[0]);
    assert_eq!(head(&mut moved, "GET", &client, r[0]), 200);
    let waited = Instant::now();
    assert_eq!(listening.next_event_within(Duration::from_secs(10)), None);
    assert!(
        waited.elapsed() < Duration::from_secs(5),
        "the GET stream on replica 2 ran on for {:?}",
        waited.elapsed()
    );

    // Ended through replica 2: gone on every replica, and from Redis.
    assert_eq!(
        head(&mut Connection::open(r[2]), "DELETE", &client, r[2]),
        200
    );
    for &addr in &r {
        assert_eq!(client.call(addr, "ping", json!({})).status, 404);
    }
    assert!(record(&rt, &redis, &client.session).is_empty());

    // A session opened now, while Redis is away, is refused clearly; when it is back, served.
    let again = LegacyClient::open(r[1], "alice");
    redis.stop();
    let refused = again.call(r[0], "ping", json!({}));
    assert_eq!(refused.status, 503);
    assert_eq!(refused.header("retry-after"), Some("1"));
    assert_eq!(refused.json()["error"]["code"], -32603);
    redis.restart();
    // Redis here keeps nothing across a restart: the session it lost is unknown, not guessed.
    let back = Instant::now();
    loop {
        let status = again.call(r[0], "ping", json!({})).status;
        if status == 404 {
            break;
        }
        assert_eq!(status, 503);
        assert!(back.elapsed() < Duration::from_secs(2), "still refused");
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Sends `method` (GET, DELETE) with `client`'s headers on `connection`, reading the head.
fn head(connection: &mut Connection, method: &str, client: &LegacyClient, addr: SocketAddr) -> u16 {
    let h = client.headers(addr);
    let h: Vec<(&str, &str)> = h.iter().map(|(n, v)| (n.as_str(), v.as_str())).collect();
    connection.head(method, &h, b"").status
}

/// Says five lines a tenth of a second apart, then answers.
#[beam_mcp::tool]
async fn five_lines(ctx: beam_mcp::Context) -> String {
    for line in 1..=5 {
        let _ = ctx.log(beam_mcp::LogLevel::Info, format!("line {line}"));
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    "said".into()
}

/// A POST's stream dropped after its first event is resumed through another replica: what was
/// kept in Redis, then the rest as the replica that runs the call keeps it, to the answer.
#[test]
fn a_stream_is_resumed_through_another_replica() {
    let redis = RedisServer::start();
    let rt = runtime();
    let r: Vec<SocketAddr> = (0..2)
        .map(|_| {
            let store = connect(&rt, &redis);
            let http = Http::builder(Server::builder().tool(five_lines::DEF).build().unwrap())
                .authorize(|_| Ok(()))
                .allowed_origins(Origins::Loopback)
                .session_share(store.sessions())
                .event_store(store.event_store())
                .build()
                .unwrap();
            loopback::start(http)
        })
        .collect();
    let client = LegacyClient::open(r[0], "anyone");
    let mut calling = Connection::open(r[0]);
    let h = client.headers(r[0]);
    let h: Vec<(&str, &str)> = h.iter().map(|(n, v)| (n.as_str(), v.as_str())).collect();
    let call = json!({ "jsonrpc": "2.0", "id": 3, "method": "tools/call",
        "params": { "name": "five_lines", "arguments": {} } });
    assert_eq!(
        calling.post_head(&h, call.to_string().as_bytes()).status,
        200
    );
    let (priming, _) = calling.next_event_with_id().expect("the priming event");
    let (first, said) = calling.next_event_with_id().expect("the first line");
    assert!(said.contains("line 1"), "{said}");
    let first = first.unwrap();
    let stream = first.split('-').next().unwrap().to_owned();
    assert_eq!(priming.as_deref(), Some(format!("{stream}-0").as_str()));
    drop(calling);

    let mut resumed = Connection::open(r[1]);
    let mut h = client.headers(r[1]);
    h.push(("last-event-id".into(), first.clone()));
    let h: Vec<(&str, &str)> = h.iter().map(|(n, v)| (n.as_str(), v.as_str())).collect();
    assert_eq!(resumed.head("GET", &h, b"").status, 200);
    let mut heard = Vec::new();
    while let Some((id, data)) = resumed.next_event_with_id() {
        if data.is_empty() {
            continue;
        }
        heard.push((id.unwrap(), data));
    }
    let ids: Vec<&str> = heard.iter().map(|(id, _)| id.as_str()).collect();
    let want: Vec<String> = (2..=6).map(|seq| format!("{stream}-{seq}")).collect();
    assert_eq!(
        ids, want,
        "every event after the one named, once, in order: {heard:?}"
    );
    assert!(heard[3].1.contains("line 5"), "{heard:?}");
    let answer: Value = serde_json::from_str(&heard[4].1).unwrap();
    assert_eq!(answer["id"], 3);
    assert_eq!(answer["result"]["content"][0]["text"], "said");

    // A Last-Event-ID of a stream no replica opened is refused, not waited on.
    let mut bogus = Connection::open(r[1]);
    let mut h = client.headers(r[1]);
    h.push(("last-event-id".into(), format!("{}-4", (7u64 << 32) + 9)));
    let h: Vec<(&str, &str)> = h.iter().map(|(n, v)| (n.as_str(), v.as_str())).collect();
    assert_eq!(bogus.head("GET", &h, b"").status, 400);
}

/// The GET stream of one replica, resumed through another with `Last-Event-ID`: what the first
/// kept after that event is replayed from Redis, then the second's own stream follows.
#[test]
fn a_get_stream_moves_to_another_replica_without_losing_an_event() {
    let redis = RedisServer::start();
    let rt = runtime();
    let (r, catalogs) = session_replicas(&rt, &redis, 2);
    let client = LegacyClient::open(r[0], "anyone");
    let mut listening = Connection::open(r[0]);
    assert_eq!(head(&mut listening, "GET", &client, r[0]), 200);
    let (priming, _) = listening.next_event_with_id().expect("the priming event");
    let base = priming.unwrap().split('-').next().unwrap().to_owned();
    rt.block_on(async { catalogs[0].add_tool(hello::DEF).unwrap() });
    let (first, heard) = listening.next_event_with_id().expect("the change");
    assert!(heard.contains("tools/list_changed"), "{heard}");
    assert_eq!(first.as_deref(), Some(format!("{base}-1").as_str()));
    // A second change reaches this stream (and is kept) while the client reads no further.
    rt.block_on(async { catalogs[0].remove_tool("hello").unwrap() });
    let kept = Instant::now();
    while record_events(&rt, &redis, &client.session) < 2 {
        assert!(
            kept.elapsed() < Duration::from_secs(5),
            "the second change was not kept"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    drop(listening);

    let mut moved = Connection::open(r[1]);
    let mut h = client.headers(r[1]);
    h.push(("last-event-id".into(), format!("{base}-1")));
    let h: Vec<(&str, &str)> = h.iter().map(|(n, v)| (n.as_str(), v.as_str())).collect();
    assert_eq!(moved.head("GET", &h, b"").status, 200);
    let (own, nothing) = moved
        .next_event_with_id()
        .expect("this replica's priming event");
    let own = own.unwrap();
    assert!(nothing.is_empty());
    assert!(
        !own.starts_with(&format!("{base}-")),
        "its own stream: {own}"
    );
    let (replayed, data) = moved.next_event_with_id().expect("the missed change");
    assert_eq!(
        replayed.as_deref(),
        Some(format!("{base}-2").as_str()),
        "{data}"
    );
    assert!(data.contains("tools/list_changed"), "{data}");
}

/// How many events Redis keeps for session `id`.
fn record_events(rt: &tokio::runtime::Runtime, redis: &RedisServer, id: &str) -> i64 {
    rt.block_on(async {
        let client = redis::Client::open(redis.url()).unwrap();
        let mut raw = client.get_multiplexed_async_connection().await.unwrap();
        redis::cmd("LLEN")
            .arg(format!("beam-mcp:weather:events:{id}"))
            .query_async(&mut raw)
            .await
            .unwrap()
    })
}

/// With `otel`, every command the engine sends is a `db.client.operation.duration` datapoint
/// through the server's telemetry: the rate limit's script, a failure while Redis is away.
#[cfg(feature = "otel")]
#[test]
fn every_command_is_timed_through_the_telemetry() {
    use opentelemetry::KeyValue;
    use opentelemetry::metrics::{
        Histogram, HistogramBuilder, InstrumentProvider, Meter, MeterProvider, SyncInstrument,
    };
    use std::sync::{Arc, Mutex};

    /// (histogram name, value, attributes) of every measurement.
    type Seen = Arc<Mutex<Vec<(String, f64, Vec<(String, String)>)>>>;

    /// A meter that remembers what it is given: the API's own seam, no SDK.
    struct Recording(Seen);
    struct Recorder(Seen, String);
    impl SyncInstrument<f64> for Recorder {
        fn measure(&self, value: f64, attributes: &[KeyValue]) {
            let attributes = attributes
                .iter()
                .map(|kv| (kv.key.to_string(), kv.value.to_string()))
                .collect();
            self.0
                .lock()
                .unwrap()
                .push((self.1.clone(), value, attributes));
        }
    }
    impl InstrumentProvider for Recording {
        fn f64_histogram(&self, builder: HistogramBuilder<'_, Histogram<f64>>) -> Histogram<f64> {
            Histogram::new(Arc::new(Recorder(
                Arc::clone(&self.0),
                builder.name.to_string(),
            )))
        }
    }
    impl MeterProvider for Recording {
        fn meter_with_scope(&self, _: opentelemetry::InstrumentationScope) -> Meter {
            Meter::new(Arc::new(Recording(Arc::clone(&self.0))))
        }
    }

    let seen: Seen = Arc::default();
    let telemetry = beam_mcp::telemetry::Telemetry::new(
        &opentelemetry::trace::noop::NoopTracerProvider::new(),
        &Recording(Arc::clone(&seen)),
    );
    let mut redis = RedisServer::start();
    let rt = runtime();
    let store = connect(&rt, &redis);
    // Built before the telemetry is given: it reports all the same.
    let limit = store.rate_limit_per_second(1000);
    store.report_to(&telemetry);
    let addr = serve(
        Server::builder()
            .tool(ping::DEF)
            .rate_limit(limit)
            .telemetry(telemetry)
            .build()
            .unwrap(),
    );
    assert_eq!(ping_at(addr).status, 200);
    redis.stop();
    assert_eq!(ping_at(addr).status, 503);

    let store_points: Vec<_> = seen
        .lock()
        .unwrap()
        .iter()
        .filter(|(name, _, _)| name == "db.client.operation.duration")
        .cloned()
        .collect();
    let attribute = |point: &(String, f64, Vec<(String, String)>), key: &str| {
        point
            .2
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.clone())
    };
    assert_eq!(store_points.len(), 2, "{store_points:?}");
    for point in &store_points {
        assert_eq!(attribute(point, "db.system.name").as_deref(), Some("redis"));
        assert_eq!(
            attribute(point, "db.operation.name").as_deref(),
            Some("EVALSHA")
        );
        assert_eq!(
            attribute(point, "db.stored_procedure.name").as_deref(),
            Some("rate_limit")
        );
        assert!(point.1 > 0.0 && point.1 < 5.0, "{point:?}");
    }
    assert_eq!(attribute(&store_points[0], "error.type"), None);
    assert_eq!(
        attribute(&store_points[1], "error.type").as_deref(),
        Some("unavailable")
    );
}

/// A principal's share of the sessions holds across the replicas: two sessions per principal
/// here, opened through two replicas, and a third refused through the third replica (503,
/// `Retry-After: 30`) while another principal is served; a DELETE gives the place back.
#[test]
fn a_principals_share_of_the_sessions_holds_across_replicas() {
    let redis = RedisServer::start();
    let rt = runtime();
    let (r, _catalogs) = session_replicas_holding(&rt, &redis, 3, 2, None);
    let first = LegacyClient::open(r[0], "alice");
    let _second = LegacyClient::open(r[1], "alice");
    let refused = LegacyClient::try_open(r[2], "alice").expect_err("past alice's share");
    assert_eq!(refused.status, 503);
    assert_eq!(refused.header("retry-after"), Some("30"));
    assert_eq!(
        refused.json()["error"]["message"],
        "Too many sessions: try again later"
    );
    let _bob = LegacyClient::open(r[2], "bob");
    assert_eq!(
        head(&mut Connection::open(r[1]), "DELETE", &first, r[1]),
        200
    );
    let _again = LegacyClient::open(r[2], "alice");
}

/// A 2026-07-28 `tools/call` of task tool `tool` on `addr` as `user`: the answer.
fn call_as(addr: SocketAddr, user: &str, tool: &str) -> Value {
    let mut h = headers(addr, "tools/call", Some(tool));
    h.push(("x-user".into(), user.into()));
    let b = body("tools/call", json!({ "name": tool, "arguments": {} }));
    let answer = post(&mut Connection::open(addr), &h, &b);
    answer.json()
}

/// A principal's share of the tasks holds across the replicas: one running task per principal
/// here. A second one started through the other replica is refused while another principal's
/// starts there; once the first is cancelled (through either replica), its place is free.
#[test]
fn a_principals_share_of_the_tasks_holds_across_replicas() {
    let redis = RedisServer::start();
    let rt = runtime();
    let r: Vec<SocketAddr> = (0..2)
        .map(|_| {
            let store = connect(&rt, &redis);
            let server = Server::builder()
                .tool(long_wait::DEF)
                .task_share(store.tasks())
                .max_running_tasks_per_principal(1)
                .build()
                .unwrap();
            let http = Http::builder(server)
                .authorize(|parts| Ok(x_user(parts)))
                .allowed_origins(Origins::Loopback)
                .build()
                .unwrap();
            loopback::start(http)
        })
        .collect();
    let first = call_as(r[0], "alice", "long_wait");
    let id = first["result"]["taskId"]
        .as_str()
        .unwrap_or_else(|| panic!("a task: {first}"))
        .to_owned();
    let refused = call_as(r[1], "alice", "long_wait");
    assert_eq!(
        refused["error"]["message"], "Too many tasks: try again later",
        "{refused}"
    );
    let bobs = call_as(r[1], "bob", "long_wait");
    assert!(bobs["result"]["taskId"].is_string(), "{bobs}");

    let mut h = headers(r[1], "tasks/cancel", Some(&id));
    h.push(("x-user".into(), "alice".into()));
    let cancelled = post(
        &mut Connection::open(r[1]),
        &h,
        &body("tasks/cancel", json!({ "taskId": id })),
    );
    assert_eq!(cancelled.status, 200, "{}", cancelled.json());
    // The cancel is relayed to replica 0, whose task ends and leaves the running set.
    let freed = Instant::now();
    loop {
        let again = call_as(r[1], "alice", "long_wait");
        if again["result"]["taskId"].is_string() {
            break;
        }
        assert_eq!(
            again["error"]["message"], "Too many tasks: try again later",
            "{again}"
        );
        assert!(
            freed.elapsed() < Duration::from_secs(5),
            "alice's place was not given back"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Streams of a shared session are numbered from each replica's base; the eviction records a
/// session folds away are folded per base, so a new stream of one replica is not taken for
/// evicted because another replica's older records went. (Before, one mark for the whole
/// session refused every stream below the highest stream folded, across bases.)
#[test]
fn eviction_marks_are_kept_per_replica_base() {
    let redis = RedisServer::start();
    let rt = runtime();
    let store = connect(&rt, &redis).event_store().per_session(1);
    let (a, b) = (1u64 << 32, 7u64 << 32);
    let event = |stream: u64| StoredEvent {
        stream,
        seq: 1,
        data: "{}".into(),
    };
    rt.block_on(async {
        // Ten streams of replica A, then 1,100 of replica B: each evicts the one before, and
        // past 1,024 eviction records the oldest are folded into marks.
        for n in 1..=10 {
            store.store("s", event(a + n)).await.unwrap();
        }
        for n in 1..=1100 {
            store.store("s", event(b + n)).await.unwrap();
        }
        // A's next stream, and B's, resume from what they kept.
        store.store("s", event(a + 11)).await.unwrap();
        assert_eq!(store.after("s", a + 11, 0).await.unwrap().len(), 1);
        // An old stream of B whose record was folded is refused as evicted, not replayed.
        assert_eq!(store.after("s", b + 1, 0).await, Err(ResumeError::Evicted));
    });
}

/// The headers and body of a 2026-07-28 listen request as `user`.
fn listen_request(addr: SocketAddr, user: &str) -> (Vec<(String, String)>, String) {
    let mut h = headers(addr, "subscriptions/listen", None);
    h.push(("x-user".into(), user.into()));
    let b = body(
        "subscriptions/listen",
        json!({ "notifications": { "toolsListChanged": true } }),
    );
    (h, b)
}

/// A listen stream as `user`, open past its acknowledgement.
fn listen_as(addr: SocketAddr, user: &str) -> Connection {
    let (h, b) = listen_request(addr, user);
    let hh: Vec<(&str, &str)> = h.iter().map(|(n, v)| (n.as_str(), v.as_str())).collect();
    let mut connection = Connection::open(addr);
    let head = connection.post_head(&hh, b.as_bytes());
    assert_eq!(head.status, 200, "{user}'s listen stream");
    let first = connection.next_event().expect("the acknowledgement");
    assert!(first.contains("acknowledged"), "{first}");
    connection
}

/// A listen request as `user` that must be refused: the refusal.
fn listen_refused(addr: SocketAddr, user: &str) -> HttpResponse {
    let (h, b) = listen_request(addr, user);
    post(&mut Connection::open(addr), &h, &b)
}

/// A principal's share of the listen streams holds across the replicas: two streams per
/// principal here, a 2026-07-28 listen stream on one replica and a 2025-11-25 session's GET
/// stream on another; a third is refused through the third replica (503, `Retry-After`) while
/// another principal is served there; the place comes back when a stream ends, and a store that
/// does not answer refuses a stream with the store's error. A replica that dies without giving
/// its streams back holds them until their leases lapse (the engine, with a short lease).
#[test]
fn a_principals_share_of_the_streams_holds_across_replicas() {
    let mut redis = RedisServer::start();
    let rt = runtime();
    let (r, _catalogs) = session_replicas_holding(&rt, &redis, 3, 250, Some(2));
    let listening = listen_as(r[0], "alice");
    let session = LegacyClient::open(r[1], "alice");
    let mut get = Connection::open(r[1]);
    assert_eq!(head(&mut get, "GET", &session, r[1]), 200);
    let refused = listen_refused(r[2], "alice");
    assert_eq!(refused.status, 503);
    assert_eq!(refused.header("retry-after"), Some("1"));
    assert_eq!(
        refused.json()["error"]["message"],
        "Too many streams open: try again later"
    );
    let mut other_get = Connection::open(r[2]);
    assert_eq!(
        head(&mut other_get, "GET", &session, r[2]),
        503,
        "a GET stream counts in the same share"
    );
    let _bob = listen_as(r[2], "bob");
    // The place comes back once the replica has seen the stream end.
    drop(listening);
    let freed = Instant::now();
    loop {
        let answer = listen_refused(r[2], "alice");
        if answer.status == 200 {
            break;
        }
        assert_eq!(answer.status, 503);
        assert!(freed.elapsed() < Duration::from_secs(5), "never freed");
        std::thread::sleep(Duration::from_millis(50));
    }
    // The engine: a lease lapses by itself.
    let store = connect(&rt, &redis);
    rt.block_on(async {
        use beam_mcp::store::StreamShare;
        let streams = store.streams();
        let short = Duration::from_millis(300);
        assert!(streams.open(9, "dead", short, 1).await.unwrap());
        assert!(!streams.open(9, "next", short, 1).await.unwrap(), "held");
        streams.renew(9, "dead", short).await.unwrap();
        tokio::time::sleep(Duration::from_millis(400)).await;
        assert!(streams.open(9, "next", short, 1).await.unwrap(), "lapsed");
        streams.close(9, "next").await.unwrap();
        assert!(streams.open(9, "again", short, 1).await.unwrap(), "closed");
    });
    redis.stop();
    let unavailable = listen_refused(r[2], "carol");
    assert_eq!(unavailable.status, 503);
    assert_eq!(unavailable.json()["error"]["code"], -32603);
}

//! `dev`: the crate's server behind a front that the host starts (over stdio) and keeps. The
//! front watches the sources, rebuilds into its own target folder on each save, starts the new
//! build beside the old, moves new requests to it (replaying a 2025-11-25 session first), lets
//! the old finish its calls, and tells the host when the catalog changed. A build that fails
//! changes nothing: the old build serves on, and the compiler's errors go to stderr and to the
//! host as a log message. Each swap prints the time from the save to serving.

pub(crate) mod build;
mod relay;
mod watch;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant, SystemTime};

use beam_mcp::client::Client;
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::process::{Child, ChildStdin};
use tokio::sync::mpsc;

use build::Built;
use relay::{Action, Changes, Generation, Relay};
use watch::Snapshot;

/// What `dev` was asked.
pub(crate) struct Options {
    /// The crate's `Cargo.toml`.
    pub(crate) manifest: PathBuf,
    pub(crate) bin: Option<String>,
    /// Where it builds (`target/beam-mcp-dev` of the crate by default).
    pub(crate) target_dir: Option<PathBuf>,
    /// What else to watch besides `src/`, `Cargo.toml` and `build.rs`.
    pub(crate) watch: Vec<PathBuf>,
}

/// How often the sources are looked at.
const POLL: Duration = Duration::from_millis(250);
/// How long a save must rest before it is built (an editor writes a file in steps).
const SETTLE: Duration = Duration::from_millis(150);
/// How long a new build may take to answer the replayed `initialize`.
const REPLAY_LIMIT: Duration = Duration::from_secs(10);
/// How many times a build whose process ends on its own is started again before the front
/// waits for the next save.
const RESTARTS: u32 = 3;
/// The most of the compiler's text sent to the host in one log message.
const MAX_LOGGED: usize = 64 * 1024;

enum Event {
    Host(Option<String>),
    Backend(Generation, Option<String>),
    Built {
        built: Built,
        saved: SystemTime,
        took: Duration,
    },
}

/// A running build of the server.
struct Backend {
    child: Child,
    stdin: ChildStdin,
    /// The copy of the executable it runs (so the next build can replace the original).
    executable: PathBuf,
}

impl Drop for Backend {
    fn drop(&mut self) {
        let _ = self.child.start_kill();
        let _ = std::fs::remove_file(&self.executable);
    }
}

/// The front's state between events.
struct Front {
    relay: Relay,
    backends: HashMap<Generation, Backend>,
    generation: Generation,
    /// The catalog the serving build advertised (its export), to tell what a new build changed.
    export: Option<Value>,
    events: mpsc::UnboundedSender<Event>,
    stdout: tokio::io::Stdout,
    runs: PathBuf,
    /// The executable of the build serving, to start again if its process ends.
    serving: Option<PathBuf>,
    /// How many times the serving build was started again (at most [`RESTARTS`]).
    restarts: u32,
}

pub(crate) async fn run(options: Options) -> Result<ExitCode, String> {
    let manifest = std::path::absolute(&options.manifest).map_err(|e| e.to_string())?;
    if !manifest.is_file() {
        return Err(format!(
            "{}: no Cargo.toml (run in the crate, or give --manifest-path)",
            manifest.display()
        ));
    }
    let dir = manifest.parent().unwrap_or(Path::new(".")).to_path_buf();
    // Its own target folder, whatever CARGO_TARGET_DIR the shell has: incremental builds that
    // no other build invalidates.
    let target = options
        .target_dir
        .clone()
        .unwrap_or_else(|| dir.join("target/beam-mcp-dev"));
    let mut roots = vec![
        dir.join("src"),
        dir.join("Cargo.toml"),
        dir.join("build.rs"),
    ];
    roots.extend(options.watch.iter().cloned());
    let runs = target.join("beam-mcp-dev-run");
    // Copies left by a front that was killed: a running one's copy may go too (the process
    // keeps its file open; where the system refuses, the copy stays).
    if let Ok(stale) = std::fs::read_dir(&runs) {
        for entry in stale.flatten() {
            let _ = std::fs::remove_file(entry.path());
        }
    }
    std::fs::create_dir_all(&runs).map_err(|e| format!("{}: {e}", runs.display()))?;

    let (events, mut inbox) = mpsc::unbounded_channel();
    let mut front = Front {
        relay: Relay::default(),
        backends: HashMap::new(),
        generation: 0,
        export: None,
        events: events.clone(),
        stdout: tokio::io::stdout(),
        runs,
        serving: None,
        restarts: 0,
    };
    let start_build = |saved: SystemTime| {
        let events = events.clone();
        let (manifest, target, bin) = (manifest.clone(), target.clone(), options.bin.clone());
        tokio::spawn(async move {
            let started = Instant::now();
            let built = build::build(&manifest, &target, bin.as_deref()).await;
            let _ = events.send(Event::Built {
                built,
                saved,
                took: started.elapsed(),
            });
        });
    };
    eprintln!("cargo beam-mcp dev: building {}", manifest.display());
    let mut snapshot = Snapshot::take(&roots);
    // The first build before the host is read: its first request waits in the pipe for a
    // server to answer it, rather than being refused for want of one.
    let started = Instant::now();
    let first = build::build(&manifest, &target, options.bin.as_deref()).await;
    front.built(first, None, started.elapsed()).await;
    let host = events.clone();
    tokio::spawn(async move {
        let mut lines = BufReader::new(tokio::io::stdin()).lines();
        while let Ok(Some(line)) = lines.next_line().await {
            if host.send(Event::Host(Some(line))).is_err() {
                return;
            }
        }
        let _ = host.send(Event::Host(None));
    });
    let mut building = false;
    let mut again: Option<SystemTime> = None;
    let mut poll = tokio::time::interval(POLL);
    loop {
        tokio::select! {
            event = inbox.recv() => {
                let Some(event) = event else { break };
                match event {
                    Event::Host(Some(line)) => {
                        let actions = front.relay.host_line(&line);
                        front.apply(actions).await;
                    }
                    Event::Host(None) => {
                        let actions = front.relay.close();
                        front.apply(actions).await;
                        break;
                    }
                    Event::Backend(generation, Some(line)) => {
                        let actions = front.relay.backend_line(generation, &line);
                        front.apply(actions).await;
                    }
                    Event::Backend(generation, None) => {
                        front.backends.remove(&generation);
                        let serving = front.relay.current() == Some(generation);
                        let actions = front.relay.ended(generation, "the server's process ended");
                        front.apply(actions).await;
                        if serving {
                            front.restart(generation).await;
                        }
                    }
                    Event::Built { built, saved, took } => {
                        building = false;
                        front.built(built, Some(saved), took).await;
                        if let Some(saved) = again.take() {
                            start_build(saved);
                            building = true;
                        }
                    }
                }
            }
            _ = poll.tick() => {
                let now = Snapshot::take(&roots);
                if now.saved_since(&snapshot).is_none() {
                    continue;
                }
                tokio::time::sleep(SETTLE).await;
                let settled = Snapshot::take(&roots);
                let saved = settled.saved_since(&snapshot).unwrap_or_else(SystemTime::now);
                snapshot = settled;
                if building {
                    again = Some(saved);
                } else {
                    start_build(saved);
                    building = true;
                }
            }
        }
    }
    front.backends.clear();
    Ok(ExitCode::SUCCESS)
}

impl Front {
    async fn apply(&mut self, actions: Vec<Action>) {
        for action in actions {
            match action {
                Action::ToHost(line) => {
                    let written = self.stdout.write_all(format!("{line}\n").as_bytes()).await;
                    if written.is_err() || self.stdout.flush().await.is_err() {
                        // The host is gone; its input's end stops the loop.
                        return;
                    }
                }
                Action::ToBackend(generation, line) => {
                    if let Some(backend) = self.backends.get_mut(&generation) {
                        let _ = backend
                            .stdin
                            .write_all(format!("{line}\n").as_bytes())
                            .await;
                        let _ = backend.stdin.flush().await;
                    }
                }
                Action::Stop(generation) => {
                    self.backends.remove(&generation);
                }
            }
        }
    }

    /// A build ended: served when it built, its errors told when it did not.
    /// `saved` is when the save it builds was made (none for the first build).
    async fn built(&mut self, built: Built, saved: Option<SystemTime>, took: Duration) {
        let executable = match built {
            Built::Binary(executable) => executable,
            Built::Failed(errors) => {
                eprintln!("{errors}");
                eprintln!(
                    "cargo beam-mcp dev: the build failed after {} ms; {}",
                    took.as_millis(),
                    if self.relay.current().is_some() {
                        "the last build serves on"
                    } else {
                        "nothing serves yet"
                    }
                );
                let mut text = format!("the build failed; the last build serves on:\n{errors}");
                if text.len() > MAX_LOGGED {
                    let mut cut = MAX_LOGGED;
                    while !text.is_char_boundary(cut) {
                        cut -= 1;
                    }
                    text.truncate(cut);
                }
                let log = json!({ "jsonrpc": "2.0", "method": "notifications/message",
                    "params": { "level": "error", "logger": "cargo beam-mcp dev", "data": text } });
                self.apply(vec![Action::ToHost(log.to_string())]).await;
                return;
            }
        };
        let Some((generation, copy)) = self.next_copy(&executable) else {
            return;
        };
        let export = match export_of(&copy).await {
            Ok(export) => export,
            Err(e) => {
                eprintln!(
                    "cargo beam-mcp dev: build {generation} does not answer: {e}; the last build serves on"
                );
                let _ = std::fs::remove_file(&copy);
                return;
            }
        };
        let changes = match &self.export {
            Some(old) => Changes {
                tools: old["tools"] != export["tools"],
                prompts: old["prompts"] != export["prompts"],
                resources: old["resources"] != export["resources"]
                    || old["resourceTemplates"] != export["resourceTemplates"],
            },
            None => Changes::default(),
        };
        let replay = self.relay.replay();
        match start(&copy, generation, replay, self.events.clone()).await {
            Ok(backend) => {
                self.backends.insert(generation, backend);
            }
            Err(e) => {
                eprintln!(
                    "cargo beam-mcp dev: build {generation} did not start: {e}; the last build serves on"
                );
                let _ = std::fs::remove_file(&copy);
                return;
            }
        }
        self.export = Some(export);
        self.serving = Some(executable);
        self.restarts = 0;
        let actions = self.relay.serve(generation, changes);
        self.apply(actions).await;
        let since_save = saved.map(|saved| {
            let ms = SystemTime::now()
                .duration_since(saved)
                .unwrap_or_default()
                .as_millis();
            format!(", {ms} ms after the save")
        });
        let changed: Vec<&str> = [
            ("tools", changes.tools),
            ("prompts", changes.prompts),
            ("resources", changes.resources),
        ]
        .iter()
        .filter(|(_, c)| *c)
        .map(|(k, _)| *k)
        .collect();
        eprintln!(
            "cargo beam-mcp dev: build {generation} serving{} (the build {} ms){}",
            since_save.unwrap_or_default(),
            took.as_millis(),
            if changed.is_empty() {
                String::new()
            } else {
                format!("; changed: {}", changed.join(", "))
            }
        );
    }
}

impl Front {
    /// The serving build's process (`ended`) ended on its own: the same build is started again,
    /// the session replayed to it, and the host told, up to [`RESTARTS`] times a build.
    /// The next generation and its own copy of `executable` (a later build overwrites the
    /// original while this one runs), or `None`, said on stderr, when it cannot be copied.
    fn next_copy(&mut self, executable: &Path) -> Option<(Generation, PathBuf)> {
        self.generation += 1;
        let generation = self.generation;
        let copy = self
            .runs
            .join(format!("server-{}-{generation}", std::process::id()));
        if let Err(e) = std::fs::copy(executable, &copy) {
            eprintln!("cargo beam-mcp dev: {}: {e}", copy.display());
            return None;
        }
        Some((generation, copy))
    }

    async fn restart(&mut self, ended: Generation) {
        let Some(executable) = self.serving.clone() else {
            return;
        };
        let warn = |text: String| {
            eprintln!("cargo beam-mcp dev: {text}");
            let log = json!({ "jsonrpc": "2.0", "method": "notifications/message",
                "params": { "level": "warning", "logger": "cargo beam-mcp dev", "data": text } });
            vec![Action::ToHost(log.to_string())]
        };
        if self.restarts >= RESTARTS {
            let told = warn(format!(
                "the server's process ended {} times; save a change to build and start it again",
                RESTARTS + 1
            ));
            self.apply(told).await;
            return;
        }
        self.restarts += 1;
        let Some((generation, copy)) = self.next_copy(&executable) else {
            return;
        };
        let replay = self.relay.replay();
        match start(&copy, generation, replay, self.events.clone()).await {
            Ok(backend) => {
                self.backends.insert(generation, backend);
                let mut actions = self.relay.serve(generation, Changes::default());
                actions.extend(warn(format!(
                    "the server's process ended (build {ended}); started again as build {generation}"
                )));
                self.apply(actions).await;
            }
            Err(e) => {
                let _ = std::fs::remove_file(&copy);
                let told = warn(format!(
                    "the server's process ended and did not start again: {e}"
                ));
                self.apply(told).await;
            }
        }
    }
}

/// What the build at `executable` advertises, read through a client of its own.
async fn export_of(executable: &Path) -> Result<Value, String> {
    // Negotiated as any client does: a server built for one revision alone is listed too.
    let client = Client::builder()
        .client_info("cargo-beam-mcp-dev", env!("CARGO_PKG_VERSION"))
        .stdio(tokio::process::Command::new(executable))
        .await
        .map_err(|e| e.to_string())?;
    let advertised = client.advertised().await.map_err(|e| e.to_string())?;
    client.close(Duration::from_secs(2)).await;
    serde_json::from_slice(advertised.bytes()).map_err(|e| e.to_string())
}

/// Starts the build at `executable` as backend `generation`: a 2025-11-25 session's replay
/// written first (`initialize` answered before the rest), then its output routed as events.
async fn start(
    executable: &Path,
    generation: Generation,
    replay: Vec<String>,
    events: mpsc::UnboundedSender<Event>,
) -> Result<Backend, String> {
    let mut child = tokio::process::Command::new(executable)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::inherit())
        .kill_on_drop(true)
        .spawn()
        .map_err(|e| e.to_string())?;
    let mut stdin = child.stdin.take().ok_or("no stdin")?;
    let mut lines = BufReader::new(child.stdout.take().ok_or("no stdout")?).lines();
    let backend_error = |e: std::io::Error| e.to_string();
    let mut replay = replay.into_iter();
    if let Some(initialize) = replay.next() {
        let id = serde_json::from_str::<Value>(&initialize)
            .ok()
            .and_then(|m| m.get("id").cloned());
        stdin
            .write_all(format!("{initialize}\n").as_bytes())
            .await
            .map_err(backend_error)?;
        stdin.flush().await.map_err(backend_error)?;
        let answered = tokio::time::timeout(REPLAY_LIMIT, async {
            while let Ok(Some(line)) = lines.next_line().await {
                let message: Value = serde_json::from_str(&line).unwrap_or(Value::Null);
                if message.get("id") == id.as_ref() && message.get("method").is_none() {
                    return message.get("result").is_some();
                }
                let _ = events.send(Event::Backend(generation, Some(line)));
            }
            false
        })
        .await;
        if answered != Ok(true) {
            return Err("it did not answer the session's initialize".into());
        }
        for line in replay {
            stdin
                .write_all(format!("{line}\n").as_bytes())
                .await
                .map_err(backend_error)?;
        }
        stdin.flush().await.map_err(backend_error)?;
    }
    tokio::spawn(async move {
        while let Ok(Some(line)) = lines.next_line().await {
            if events.send(Event::Backend(generation, Some(line))).is_err() {
                return;
            }
        }
        let _ = events.send(Event::Backend(generation, None));
    });
    Ok(Backend {
        child,
        stdin,
        executable: executable.to_path_buf(),
    })
}

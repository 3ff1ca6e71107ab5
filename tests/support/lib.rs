//! Test support shared by the workspace's tests: the official MCP schemas as validators, and
//! a server process spoken to over real pipes.
//!
//! Every message a test sees from the server goes through [`Spec::check_response`], which
//! validates it against the official `schema.json` of its revision (vendored in `tests/spec/`).

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

pub mod http_client;

/// The two official schemas, checked by the validator process `spec-check` (`tests/spec-check`,
/// a workspace of its own so that `jsonschema`'s features stay out of the beam-mcp under test).
pub struct Spec {
    revisions: Vec<String>,
    validator: Mutex<Validator>,
}

/// The validator process and its pipes.
struct Validator {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

/// The process-wide [`Spec`].
pub fn spec() -> &'static Spec {
    static SPEC: OnceLock<Spec> = OnceLock::new();
    SPEC.get_or_init(Spec::start)
}

fn spec_dir() -> PathBuf {
    workspace_root().join("tests").join("spec")
}

/// The workspace root of the checkout whose tests are running, found at run time from the
/// `CARGO_MANIFEST_DIR` cargo sets for the test process. A compile-time `env!` would name
/// whichever checkout last compiled this crate into a shared target dir (CI clones share one).
pub fn workspace_root() -> PathBuf {
    let start = std::env::var_os("CARGO_MANIFEST_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| std::env::current_dir().expect("a current directory"));
    start
        .ancestors()
        .find(|dir| dir.join("tests").join("spec-check").is_dir())
        .unwrap_or_else(|| panic!("no workspace root above {}", start.display()))
        .to_path_buf()
}

impl Spec {
    fn start() -> Spec {
        let manifest = workspace_root().join("tests/spec-check/Cargo.toml");
        let program = built_binary(&manifest, None, "spec-check");
        let mut child = Command::new(&program)
            .arg(spec_dir())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .unwrap_or_else(|e| panic!("spawn {}: {e}", program.display()));
        let stdin = child.stdin.take().expect("piped stdin");
        let stdout = BufReader::new(child.stdout.take().expect("piped stdout"));
        Spec {
            revisions: vec!["2025-11-25".into(), "2026-07-28".into()],
            validator: Mutex::new(Validator {
                child,
                stdin,
                stdout,
            }),
        }
    }

    /// One request to the validator process; its verdict.
    fn ask(&self, request: &Value) -> Result<(), String> {
        let mut validator = self.validator.lock().unwrap_or_else(|e| e.into_inner());
        let mut line = request.to_string();
        line.push('\n');
        validator
            .stdin
            .write_all(line.as_bytes())
            .and_then(|()| validator.stdin.flush())
            .expect("write to spec-check");
        let mut answer = String::new();
        let n = validator
            .stdout
            .read_line(&mut answer)
            .expect("read from spec-check");
        assert!(n > 0, "spec-check exited: {:?}", validator.child.try_wait());
        let answer: Value = serde_json::from_str(&answer).expect("spec-check answers JSON");
        match answer["error"].as_str() {
            None if answer["ok"] == true => Ok(()),
            None => panic!("spec-check answered neither ok nor error: {answer}"),
            Some(error) => Err(error.to_owned()),
        }
    }

    /// Validates `instance` against the definition `def` of `revision`'s schema.
    pub fn check(&self, revision: &str, def: &str, instance: &Value) -> Result<(), String> {
        self.ask(&json!({ "revision": revision, "def": def, "instance": instance }))
    }

    /// Validates a response to `method` at `revision` (`None`: a bare request, served with
    /// 2025-11-25 shapes): the envelope, then the result's own type.
    pub fn check_response(
        &self,
        revision: Option<&str>,
        method: &str,
        response: &Value,
    ) -> Result<(), String> {
        // A bare request is served with 2025-11-25 shapes; a version we refuse is answered in
        // the 2026-07-28 vocabulary (-32022).
        let revision = match revision {
            None => "2025-11-25",
            Some(r) if self.revisions.iter().any(|known| known == r) => r,
            Some(_) => "2026-07-28",
        };
        if response.get("error").is_some() {
            return self.check(revision, "JSONRPCErrorResponse", response);
        }
        self.check(revision, "JSONRPCResultResponse", response)?;
        let input_required = response["result"]["resultType"] == "input_required";
        let def = match (revision, method) {
            // Only these three may answer with an `InputRequiredResult` (2026-07-28).
            ("2026-07-28", "tools/call" | "prompts/get" | "resources/read") if input_required => {
                "InputRequiredResult"
            }
            // A task (the tasks extension, SEP-2663): the core schema has no type for it.
            ("2026-07-28", "tools/call") if response["result"]["resultType"] == "task" => {
                return self.check(revision, "Result", &response["result"]);
            }
            (_, "server/discover") => {
                return self.check_closed("2026-07-28", "DiscoverResult", &response["result"]);
            }
            (_, "initialize") => {
                // An extension is declared in `capabilities.extensions` at 2025-11-25 too, as
                // the Skills extension says (SEP-2640, after SEP-2133), though that revision's
                // schema has no such field: checked here as the 2026-07-28 field, and the rest
                // closed.
                let mut result = response["result"].clone();
                if revision == "2025-11-25"
                    && let Some(extensions) = result["capabilities"]
                        .as_object_mut()
                        .and_then(|c| c.remove("extensions"))
                {
                    let declared = json!({ "extensions": extensions });
                    self.check_closed("2026-07-28", "ServerCapabilities", &declared)?;
                }
                return self.check_closed(revision, "InitializeResult", &result);
            }
            (_, "tools/list") => "ListToolsResult",
            (_, "tools/call") => "CallToolResult",
            (_, "resources/list") => "ListResourcesResult",
            (_, "resources/templates/list") => "ListResourceTemplatesResult",
            (_, "resources/read") => "ReadResourceResult",
            (_, "prompts/list") => "ListPromptsResult",
            (_, "prompts/get") => "GetPromptResult",
            (_, "completion/complete") => "CompleteResult",
            (_, "subscriptions/listen") => "SubscriptionsListenResult",
            _ => "Result",
        };
        self.check_closed(revision, def, &response["result"])
    }

    /// [`check`](Self::check), and `instance` holds no key `def` does not declare (a field of
    /// another revision would pass the open official schema): see `tests/spec-check`.
    pub fn check_closed(&self, revision: &str, def: &str, instance: &Value) -> Result<(), String> {
        self.ask(&json!({ "revision": revision, "def": def, "instance": instance, "closed": true }))
    }
}

/// Validates `instance` against a schema a server advertised (e.g. a tool's `outputSchema`).
pub fn check_against(schema: &Value, instance: &Value) -> Result<(), String> {
    spec().ask(&json!({ "schema": schema, "instance": instance }))
}

/// How long [`wait_until`] waits: far past anything a loaded machine needs, so that only a
/// condition that never comes fails.
pub const READY_WITHIN: Duration = Duration::from_secs(30);

/// Polls `ready` until it holds; panics naming `what` after [`READY_WITHIN`]. For what a test
/// needs to have happened, instead of a sleep that presumes it has.
pub fn wait_until(what: &str, mut ready: impl FnMut() -> bool) {
    let deadline = Instant::now() + READY_WITHIN;
    while !ready() {
        assert!(
            Instant::now() < deadline,
            "not ready after {READY_WITHIN:?}: {what}"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// The `params._meta` of a 2026-07-28 request.
pub fn modern_meta() -> Value {
    json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {},
        "io.modelcontextprotocol/clientInfo": { "name": "beam-mcp-tests", "version": "0" },
    })
}

/// A server process spoken to over its stdin/stdout pipes. Every message it sends is validated
/// against the schema of the revision it belongs to as it is read (see [`ServerProcess::recv`]).
pub struct ServerProcess {
    child: Child,
    stdin: Option<ChildStdin>,
    stdout: Option<BufReader<ChildStdout>>,
    wire: Wire,
}

/// What the requests sent so far say of the revision of what comes back.
#[derive(Default)]
struct Wire {
    /// The method and revision of each request sent by [`ServerProcess::send`], by its id.
    pending: std::collections::HashMap<String, (String, String)>,
    /// The revision of the last request sent: a notification or request from the server
    /// belongs to it.
    revision: Option<String>,
}

impl Wire {
    fn sent(&mut self, message: &Value) {
        let (Some(method), Some(id)) = (message["method"].as_str(), message.get("id")) else {
            return;
        };
        // A request without `_meta` is served with 2025-11-25 shapes.
        let revision = message["params"]["_meta"]["io.modelcontextprotocol/protocolVersion"]
            .as_str()
            .unwrap_or("2025-11-25")
            .to_owned();
        self.revision = Some(revision.clone());
        self.pending
            .insert(id.to_string(), (method.to_owned(), revision));
    }

    /// Validates one message the server sent; panics naming what failed.
    fn check(&mut self, message: &Value) {
        let revision = self
            .revision
            .clone()
            .unwrap_or_else(|| "2025-11-25".to_owned());
        let answers = message
            .get("id")
            .filter(|_| message.get("method").is_none())
            .and_then(|id| self.pending.remove(&id.to_string()));
        match answers {
            Some((method, revision)) => check_sent(&revision, Some(&method), message),
            // An answer to what `send_raw` wrote (hostile input): its envelope.
            None => check_sent(&revision, None, message),
        }
    }
}

/// Validates one message a server sent, at `revision`: an answer to `method` against the result
/// type of that method with no key the type does not declare (an answer to an unknown request,
/// `None`, against its envelope); a request or notification against its envelope. Panics
/// naming what failed.
pub(crate) fn check_sent(revision: &str, method: Option<&str>, message: &Value) {
    let verdict = if let Some(sent) = message["method"].as_str() {
        let envelope = if message.get("id").is_some() {
            "JSONRPCRequest"
        } else {
            "JSONRPCNotification"
        };
        spec()
            .check(revision, envelope, message)
            .map_err(|e| format!("{sent}: {e}"))
    } else {
        match method {
            Some(method) => spec()
                .check_response(Some(revision), method, message)
                .map_err(|e| format!("the answer to {method}: {e}")),
            None if message.get("error").is_some() => {
                spec().check(revision, "JSONRPCErrorResponse", message)
            }
            None => spec().check(revision, "JSONRPCResultResponse", message),
        }
    };
    if let Err(failure) = verdict {
        panic!("the server sent a message its revision's schema refuses: {failure}\n{message}");
    }
}

impl ServerProcess {
    /// Starts `program` with piped stdin/stdout (stderr inherited, so its logs show on failure).
    pub fn spawn(program: &Path) -> ServerProcess {
        Self::spawn_with_env(program, &[])
    }

    /// [`spawn`](Self::spawn), with these variables set in its environment.
    pub fn spawn_with_env(program: &Path, env: &[(&str, &str)]) -> ServerProcess {
        let mut child = Command::new(program)
            .envs(env.iter().copied())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .unwrap_or_else(|e| panic!("spawn {}: {e}", program.display()));
        let stdin = child.stdin.take();
        let stdout = Some(BufReader::new(child.stdout.take().expect("piped stdout")));
        ServerProcess {
            child,
            stdin,
            stdout,
            wire: Wire::default(),
        }
    }

    /// Writes raw bytes to the server's stdin.
    pub fn send_raw(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(bytes).expect("write to server");
        stdin.flush().expect("flush to server");
    }

    /// Writes one message as a line.
    pub fn send(&mut self, message: &Value) {
        self.wire.sent(message);
        let mut line = message.to_string().into_bytes();
        line.push(b'\n');
        self.send_raw(&line);
    }

    /// Reads one line from the server's stdout as JSON (`None` at EOF), validated against the
    /// schema of its revision: an answer to a request [`send`](Self::send) wrote, against the
    /// result type of its method with no key that type does not declare; anything else against
    /// its envelope, at the revision of the last request sent.
    pub fn recv(&mut self) -> Option<Value> {
        let mut line = String::new();
        let stdout = self.stdout.as_mut().expect("stdout not taken");
        let n = stdout.read_line(&mut line).expect("read from server");
        if n == 0 {
            return None;
        }
        assert!(
            line.ends_with('\n'),
            "every message ends with a newline: {line:?}"
        );
        let message: Value = serde_json::from_str(line.trim_end())
            .unwrap_or_else(|e| panic!("server wrote non-JSON {line:?}: {e}"));
        self.wire.check(&message);
        Some(message)
    }

    /// Sends a request and reads its answer (the server answers pipelined requests in order
    /// only when they do not run host code; callers that pipeline match by id).
    pub fn request(&mut self, message: &Value) -> Value {
        self.send(message);
        self.recv().expect("an answer")
    }

    /// Closes stdin and waits for the process; its exit status.
    pub fn finish(mut self) -> std::process::ExitStatus {
        drop(self.stdin.take());
        let mut rest = String::new();
        if let Some(stdout) = self.stdout.as_mut() {
            let _ = std::io::Read::read_to_string(stdout, &mut rest);
        }
        assert!(rest.is_empty(), "unexpected output after EOF: {rest:?}");
        self.child.wait().expect("wait for server")
    }
}

impl Drop for ServerProcess {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Builds a binary of the workspace with cargo (quick when it is fresh) and returns its path.
///
/// When cargo finds the build fresh it does not link the binary again, and in a target dir
/// shared by several checkouts the file at that path may be another checkout's: it is removed
/// then, and cargo links this checkout's build.
///
/// Built once per test process: tests running in parallel share the path, so none spawns the
/// binary while another replaces it.
pub fn workspace_binary(package: &str, bin: &str) -> PathBuf {
    built_binary(&workspace_root().join("Cargo.toml"), Some(package), bin)
}

/// [`workspace_binary`] for the workspace of `manifest` (the package, when one is given).
fn built_binary(manifest: &Path, package: Option<&str>, bin: &str) -> PathBuf {
    type Built = Vec<((PathBuf, String), PathBuf)>;
    static BUILT: Mutex<Built> = Mutex::new(Vec::new());
    let mut built = BUILT.lock().unwrap_or_else(|e| e.into_inner());
    let key = (manifest.to_path_buf(), bin.to_owned());
    if let Some((_, path)) = built.iter().find(|(k, _)| *k == key) {
        return path.clone();
    }
    let (mut exe, fresh) = cargo_build(manifest, package, bin);
    if fresh {
        let _ = std::fs::remove_file(&exe);
        exe = cargo_build(manifest, package, bin).0;
    }
    built.push((key, exe.clone()));
    exe
}

/// `cargo build --locked [-p package] --bin bin`: the executable's path, and whether cargo found
/// it fresh.
fn cargo_build(manifest: &Path, package: Option<&str>, bin: &str) -> (PathBuf, bool) {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let mut command = Command::new(cargo);
    command
        .current_dir(workspace_root())
        .args(["build", "--quiet", "--locked", "--manifest-path"])
        .arg(manifest)
        .args(["--bin", bin, "--message-format=json"]);
    // Another workspace (spec-check) would otherwise build into a target dir of its own, cold:
    // the one this test binary was built in is shared instead.
    if std::env::var_os("CARGO_TARGET_DIR").is_none()
        && let Some(target) = std::env::current_exe()
            .ok()
            .and_then(|exe| exe.ancestors().nth(3).map(Path::to_path_buf))
    {
        command.arg("--target-dir").arg(target);
    }
    if let Some(package) = package {
        command.args(["-p", package]);
    }
    let output = command
        .stderr(Stdio::inherit())
        .output()
        .expect("run cargo build");
    if !output.status.success() {
        // With --message-format=json the compiler's errors are on stdout: show them.
        let rendered: Vec<String> = String::from_utf8_lossy(&output.stdout)
            .lines()
            .filter_map(|l| serde_json::from_str::<Value>(l).ok())
            .filter_map(|m| m["message"]["rendered"].as_str().map(str::to_owned))
            .collect();
        panic!(
            "cargo build of {bin} ({}) failed:\n{}",
            manifest.display(),
            rendered.join("\n")
        );
    }
    for line in String::from_utf8_lossy(&output.stdout).lines() {
        let Ok(message) = serde_json::from_str::<Value>(line) else {
            continue;
        };
        if message["reason"] == "compiler-artifact"
            && message["target"]["name"] == bin
            && let Some(exe) = message["executable"].as_str()
        {
            return (PathBuf::from(exe), message["fresh"] == true);
        }
    }
    panic!("cargo build did not report the {bin} executable");
}

/// A server process serving Streamable HTTP on a loopback port it chose itself.
pub struct HttpServerProcess {
    child: Child,
    /// Where it listens.
    pub addr: std::net::SocketAddr,
}

impl HttpServerProcess {
    /// Starts `program --http 127.0.0.1:0` and reads the address from its
    /// `beam_mcp: listening on http://ADDR/mcp` line on stderr.
    pub fn spawn(program: &Path) -> HttpServerProcess {
        Self::spawn_with_env(program, &[])
    }

    /// [`spawn`](Self::spawn), with these variables set in its environment.
    pub fn spawn_with_env(program: &Path, env: &[(&str, &str)]) -> HttpServerProcess {
        Self::spawn_with(program, env, &[])
    }

    /// [`spawn`](Self::spawn), with more arguments after `--http 127.0.0.1:0`.
    pub fn spawn_with_args(program: &Path, args: &[&str]) -> HttpServerProcess {
        Self::spawn_with(program, &[], args)
    }

    fn spawn_with(program: &Path, env: &[(&str, &str)], args: &[&str]) -> HttpServerProcess {
        let mut child = Command::new(program)
            .envs(env.iter().copied())
            .args(["--http", "127.0.0.1:0"])
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| panic!("spawn {}: {e}", program.display()));
        let mut stderr = BufReader::new(child.stderr.take().expect("piped stderr"));
        let addr = loop {
            let mut line = String::new();
            assert!(
                stderr.read_line(&mut line).expect("read stderr") > 0,
                "the server ended before listening"
            );
            if let Some(rest) = line.trim().strip_prefix("beam_mcp: listening on http://") {
                break rest
                    .trim_end_matches("/mcp")
                    .parse()
                    .expect("a socket address");
            }
        };
        // Keep draining its log, so a chatty server never blocks on a full pipe.
        std::thread::spawn(move || {
            let mut sink = String::new();
            while stderr.read_line(&mut sink).is_ok_and(|n| n > 0) {
                sink.clear();
            }
        });
        HttpServerProcess { child, addr }
    }
}

impl Drop for HttpServerProcess {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl ServerProcess {
    /// The process id, to read its memory from `/proc`.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Takes the stdin pipe, to write from another thread.
    pub fn take_stdin(&mut self) -> ChildStdin {
        self.stdin.take().expect("stdin open")
    }
}

/// The resident set size of process `pid` in KiB, from `/proc/PID/status`.
pub fn rss_kib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).expect("proc status");
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .expect("VmRSS in /proc/PID/status")
}

/// True once process `pid` catches `signal` (its bit in `SigCgt` of `/proc/PID/status`): its
/// handler is installed, so the signal no longer ends the process by default.
pub fn catches_signal(pid: u32, signal: u32) -> bool {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).expect("proc status");
    let caught = status
        .lines()
        .find_map(|l| l.strip_prefix("SigCgt:"))
        .and_then(|mask| u64::from_str_radix(mask.trim(), 16).ok())
        .expect("SigCgt in /proc/PID/status");
    caught & (1 << (signal - 1)) != 0
}

impl ServerProcess {
    /// Takes the stdout pipe (with what was read ahead), to read in bulk.
    pub fn take_stdout(&mut self) -> BufReader<ChildStdout> {
        self.stdout.take().expect("stdout not taken yet")
    }
}

#!/usr/bin/env python3
"""The side-by-side lab (bench/README.md): beam-mcp, rmcp and the ceilings (bare axum, a bare
stdio loop) serving one tool, measured in one invocation, interleaved, with medians and ratios.

    bench/run.sh [--rounds 3] [--quick]

Each server is pinned to core 0 and the load to core 1 (taskset). Instruction counts come from
callgrind (all threads): (instructions for 2N calls - for N) / N, N = 10,000.
"""

import argparse
import json
import os
import re
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
TARGET = os.environ.get("CARGO_TARGET_DIR", os.path.join(HERE, "target"))
BIN = os.path.join(TARGET, "release")
REVS = ["2026-07-28", "2025-11-25"]
CONTESTANTS = {
    "rmcp": {"bin": "rmcp_server"},
    "beam": {"bin": "beam_server"},
    "ceiling": {"bin": None},  # bare_axum over HTTP, bare_stdio over stdio
}
SERVER_CORE, LOAD_CORE = "0", "1"


def log(*args):
    print(*args, file=sys.stderr, flush=True)


def server_cmd(who, transport, port=None):
    if who == "ceiling":
        name = "bare_axum" if transport == "http" else "bare_stdio"
    else:
        name = CONTESTANTS[who]["bin"]
    cmd = [os.path.join(BIN, name)]
    cmd += ["--http", str(port)] if transport == "http" else ["--stdio"]
    return cmd


def pinned(core, cmd):
    return ["taskset", "-c", core] + cmd


def load(*args):
    out = subprocess.run(pinned(LOAD_CORE, [os.path.join(BIN, "load"), *map(str, args)]),
                         capture_output=True, text=True)
    if out.returncode != 0:
        raise SystemExit(f"lab: load {' '.join(map(str, args))[:200]} failed: {out.stderr.strip()}")
    return json.loads(out.stdout)


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def wait_port(port, proc, seconds=60):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"lab: server exited with {proc.returncode}")
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
            return
        except OSError:
            time.sleep(0.02)
    raise SystemExit(f"lab: nothing listens on {port}")


def stop(proc):
    proc.send_signal(signal.SIGTERM)
    try:
        proc.wait(timeout=60)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def cpu_seconds(pid):
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def hwm_kib(pid):
    for line in open(f"/proc/{pid}/status"):
        if line.startswith("VmHWM:"):
            return int(line.split()[1])
    return 0


def callgrind_total(path):
    for line in open(path):
        if line.startswith("summary:") or line.startswith("totals:"):
            return int(line.split()[1])
    raise SystemExit(f"lab: no total in {path}")


def instructions(who, transport, rev, n):
    """Instructions per call: (I(2n) - I(n)) / n, the whole process under callgrind."""
    totals = []
    for calls in (n, 2 * n):
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "cg.out")
            vg = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}"]
            if transport == "stdio":
                load("stdio-seq-exact", rev, calls, "--", *pinned(SERVER_CORE, vg + server_cmd(who, "stdio")))
            else:
                port = free_port()
                proc = subprocess.Popen(pinned(SERVER_CORE, vg + server_cmd(who, "http", port)),
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                wait_port(port, proc)
                load("http-seq", rev, calls, f"http://127.0.0.1:{port}/mcp")
                stop(proc)
            totals.append(callgrind_total(out))
    return (totals[1] - totals[0]) / n


def http_load(who, connections, seconds):
    port = free_port()
    proc = subprocess.Popen(pinned(SERVER_CORE, server_cmd(who, "http", port)),
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_port(port, proc)
        # Correct answers first (and a warm-up), then the load.
        load("http-seq", "2026-07-28", 2000, f"http://127.0.0.1:{port}/mcp")
        before = cpu_seconds(proc.pid)
        out = subprocess.run(pinned(LOAD_CORE, ["wrk", "-t1", f"-c{connections}", f"-d{seconds}s",
                                                "--latency", "-s", os.path.join(HERE, "post.lua"),
                                                f"http://127.0.0.1:{port}/mcp"]),
                             capture_output=True, text=True, check=True).stdout
        cpu = cpu_seconds(proc.pid) - before
        m = re.search(r"LAB requests=(\d+) p99_us=(\d+) p50_us=(\d+) errors=(\d+)", out)
        requests, p99, p50, errors = map(int, m.groups())
        if errors:
            raise SystemExit(f"lab: {who} answered {errors} requests with errors under load")
        rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))
        return {"rps": rps, "cpu_us": cpu / requests * 1e6, "p99_us": p99, "rss_kib": hwm_kib(proc.pid)}
    finally:
        stop(proc)


def generated_crates(root):
    """A 100-tool crate in each framework (one parameter struct per tool where rmcp needs one)."""
    repo = os.path.dirname(os.path.dirname(HERE))
    head = """[package]
name = "{name}"
version = "0.0.0"
edition = "2024"
publish = false

[workspace]

[dependencies]
{deps}
serde = {{ version = "1", features = ["derive"] }}
schemars = {{ version = "1", default-features = false, features = ["derive", "std"] }}
tokio = {{ version = "1", default-features = false, features = ["rt", "rt-multi-thread", "macros", "io-std", "io-util", "net", "time", "signal", "process", "sync"] }}

[profile.release]
lto = "thin"
debug = 1
"""
    beam_deps = f'beam-mcp = {{ path = "{repo}/beam-mcp", features = ["stdio", "http"] }}'
    rmcp_deps = 'rmcp = { version = "=3.11.0", default-features = false, features = ["server", "macros", "schemars", "transport-io", "transport-streamable-http-server"] }'
    beam_src = "".join(
        f"""/// Tool {i}.
#[beam_mcp::tool]
async fn tool_{i:03}(
    /// A place.
    place: String,
) -> String {{
    format!("{{place}}: {i}")
}}

""" for i in range(100)) + """fn main() -> std::process::ExitCode {
    beam_mcp::transport::stdio::main(beam_mcp::Server::builder().crate_items(module_path!()))
}
"""
    structs = "".join(f"""#[derive(serde::Deserialize, schemars::JsonSchema)]
struct P{i:03} {{
    /// A place.
    place: String,
}}

""" for i in range(100))
    methods = "".join(f"""    #[tool(description = "Tool {i}.")]
    async fn tool_{i:03}(&self, Parameters(P{i:03} {{ place }}): Parameters<P{i:03}>) -> String {{
        format!("{{place}}: {i}")
    }}

""" for i in range(100))
    rmcp_src = f"""use rmcp::handler::server::{{router::tool::ToolRouter, wrapper::Parameters}};
use rmcp::model::{{ServerCapabilities, ServerConfig}};
use rmcp::{{ServerHandler, ServiceExt, tool, tool_handler, tool_router}};

{structs}#[derive(Clone)]
struct Hundred {{
    tool_router: ToolRouter<Self>,
}}

#[tool_router]
impl Hundred {{
{methods}}}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Hundred {{
    fn get_info(&self) -> ServerConfig {{
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
    }}
}}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {{
    let tools = Hundred {{ tool_router: Hundred::tool_router() }};
    tools.serve(rmcp::transport::stdio()).await?.waiting().await?;
    Ok(())
}}
"""
    crates = {}
    for who, deps, src in (("beam", beam_deps, beam_src), ("rmcp", rmcp_deps, rmcp_src)):
        d = os.path.join(root, f"hundred-{who}")
        os.makedirs(os.path.join(d, "src"), exist_ok=True)
        open(os.path.join(d, "Cargo.toml"), "w").write(head.format(name=f"hundred-{who}", deps=deps))
        open(os.path.join(d, "src", "main.rs"), "w").write(src)
        lock = os.path.join(HERE, "Cargo.lock")
        if os.path.exists(lock) and not os.path.exists(os.path.join(d, "Cargo.lock")):
            # The lab's versions: the generated crate reuses the lab's prebuilt dependencies.
            open(os.path.join(d, "Cargo.lock"), "w").write(open(lock).read())
        crates[who] = d
    return crates


def rebuild_seconds(crate, times=3):
    """Median release rebuild of the crate alone, its dependencies prebuilt."""
    env = dict(os.environ, CARGO_TARGET_DIR=TARGET)
    subprocess.run(["cargo", "build", "--release", "--quiet"], cwd=crate, env=env, check=True)
    took = []
    for _ in range(times):
        os.utime(os.path.join(crate, "src", "main.rs"))
        began = time.monotonic()
        subprocess.run(["cargo", "build", "--release", "--quiet"], cwd=crate, env=env, check=True)
        took.append(time.monotonic() - began)
    return statistics.median(took)


def stripped_mib(path):
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "stripped")
        subprocess.run(["strip", "-o", out, path], check=True)
        return os.path.getsize(out) / 2**20


def session_kib(who, count):
    """Resident growth per open 2025-11-25 session, and per listen stream (beam: live catalog)."""
    port = free_port()
    proc = subprocess.Popen(pinned(SERVER_CORE, server_cmd(who, "http", port)[:-2] + ["--http-sessions", str(port)]),
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_port(port, proc)
        load("http-seq", "2026-07-28", 200, f"http://127.0.0.1:{port}/mcp")
        before = rss_kib(proc.pid)
        load("http-sessions", count, f"http://127.0.0.1:{port}/mcp")
        return (rss_kib(proc.pid) - before) / count
    finally:
        stop(proc)


def listen_kib(count):
    port = free_port()
    proc = subprocess.Popen(pinned(SERVER_CORE, [os.path.join(BIN, "beam_server"), "--http-live", str(port)]),
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_port(port, proc)
        load("http-seq", "2026-07-28", 200, f"http://127.0.0.1:{port}/mcp")
        before = rss_kib(proc.pid)
        holder = subprocess.Popen(pinned(LOAD_CORE, [os.path.join(BIN, "load"), "http-listen", str(count),
                                                     f"http://127.0.0.1:{port}/mcp"]),
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        ready = holder.stdout.readline()
        if "listening" not in ready:
            raise SystemExit(f"lab: listen streams did not open: {ready!r}")
        grown = (rss_kib(proc.pid) - before) / count
        holder.stdin.close()
        holder.wait()
        return grown
    finally:
        stop(proc)


def rss_kib(pid):
    for line in open(f"/proc/{pid}/status"):
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def fmt(v, unit=""):
    if v is None:
        return "—"
    if isinstance(v, float) and v < 100:
        return f"{v:.2f}{unit}" if v < 10 else f"{v:.1f}{unit}"
    return f"{v:,.0f}{unit}"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--quick", action="store_true", help="small counts, to try the lab")
    parser.add_argument("--skip-instructions", action="store_true")
    parser.add_argument("--skip-rebuild", action="store_true")
    args = parser.parse_args()
    n = 1000 if args.quick else 10_000
    seconds = 2 if args.quick else 5
    seq_calls = 2000 if args.quick else 10_000
    pipe_calls = 20_000 if args.quick else 200_000
    who_all = list(CONTESTANTS)
    rows = {}  # (row, who) -> [values]

    def add(row, who, value):
        rows.setdefault((row, who), []).append(value)

    for r in range(args.rounds):
        order = who_all[r % 3:] + who_all[:r % 3]
        log(f"lab: round {r + 1}/{args.rounds}, order {order}")
        for who in order:
            for c in (16, 64):
                res = http_load(who, c, seconds)
                add(f"http_rps_c{c}", who, res["rps"])
                add(f"http_cpu_us_c{c}", who, res["cpu_us"])
                add(f"http_p99_us_c{c}", who, res["p99_us"])
                add("http_rss_kib", who, res["rss_kib"])
            if who != "ceiling":
                add("session_kib", who, session_kib(who, 200 if args.quick else 1000))
            if who == "beam":
                add("listen_kib", who, listen_kib(50 if args.quick else 200))
            for rev in REVS:
                seq = load("stdio-seq", rev, seq_calls, "--", *pinned(SERVER_CORE, server_cmd(who, "stdio")))
                add(f"stdio_p50_us_{rev}", who, seq["p50_us"])
                add(f"stdio_rss_seq_kib_{rev}", who, seq["rss_kib"])
                pipe = load("stdio-pipe", rev, pipe_calls, "--", *pinned(SERVER_CORE, server_cmd(who, "stdio")))
                add(f"stdio_pipe_{rev}", who, pipe["msgs_per_s"])
                add(f"stdio_rss_pipe_kib_{rev}", who, pipe["rss_kib"])
                colds = [load("stdio-cold", rev, "--", *pinned(SERVER_CORE, server_cmd(who, "stdio")))["cold_ms"]
                         for _ in range(5)]
                add(f"cold_ms_{rev}", who, statistics.median(colds))
                if who != "ceiling":
                    hol = load("stdio-hol", rev, 200, "--", *pinned(SERVER_CORE, server_cmd(who, "stdio")))
                    add(f"stdio_hol_p50_us_{rev}", who, hol["p50_us"])
    if not args.skip_instructions:
        log("lab: instruction counts (callgrind)")
        for who in who_all:
            add("instr_http", who, instructions(who, "http", "2026-07-28", n))
            for rev in REVS:
                add(f"instr_stdio_{rev}", who, instructions(who, "stdio", rev, n))
    for who in who_all:
        binary = CONTESTANTS[who]["bin"]
        if binary:
            add("binary_mib", who, stripped_mib(os.path.join(BIN, binary)))
    if not args.skip_rebuild:
        log("lab: release rebuild of a generated 100-tool crate (dependencies prebuilt)")
        crates = generated_crates(os.path.join(TARGET, "lab-gen"))
        for who in ("rmcp", "beam"):
            add("rebuild_s", who, rebuild_seconds(crates[who]))

    med = {k: statistics.median(v) for k, v in rows.items()}
    spread = {k: (min(v), max(v)) for k, v in rows.items()}
    json.dump({f"{k[0]}|{k[1]}": v for k, v in rows.items()},
              open(os.path.join(HERE, "latest.json"), "w"), indent=1)

    print("| metric | rmcp 3.11 | beam-mcp (× rmcp) | ceiling |")
    print("|---|---|---|---|")
    table = [
        ("instructions per `tools/call`, HTTP", "instr_http", ""),
        ("HTTP server CPU per call, c16 (µs)", "http_cpu_us_c16", ""),
        ("HTTP server CPU per call, c64 (µs)", "http_cpu_us_c64", ""),
        ("HTTP req/s, c16", "http_rps_c16", ""),
        ("HTTP req/s, c64", "http_rps_c64", ""),
        ("HTTP p99 at c64 (µs)", "http_p99_us_c64", ""),
        ("HTTP peak RSS (KiB)", "http_rss_kib", ""),
    ]
    for rev in REVS:
        table += [
            (f"instructions per `tools/call`, stdio {rev}", f"instr_stdio_{rev}", ""),
            (f"stdio sequential p50 (µs), {rev}", f"stdio_p50_us_{rev}", ""),
            (f"stdio pipelined messages/s, {rev}", f"stdio_pipe_{rev}", ""),
            (f"stdio RSS sequential (KiB), {rev}", f"stdio_rss_seq_kib_{rev}", ""),
            (f"stdio RSS pipelined peak (KiB), {rev}", f"stdio_rss_pipe_kib_{rev}", ""),
            (f"stdio fast-call p50 while a slow call runs (µs), {rev}", f"stdio_hol_p50_us_{rev}", ""),
            (f"cold start to first `tools/list` (ms), {rev}", f"cold_ms_{rev}", ""),
        ]
    table += [
        ("memory per open 2025-11-25 HTTP session (KiB)", "session_kib", ""),
        ("memory per open listen stream (KiB)", "listen_kib", ""),
        ("release binary, stripped (MiB)", "binary_mib", ""),
        ("release rebuild of a 100-tool crate (s)", "rebuild_s", ""),
    ]
    for label, row, unit in table:
        rm, be, ce = (med.get((row, w)) for w in who_all)
        if rm is None and be is None:
            continue
        ratio = f" ({be / rm:.2f}×)" if rm and be else ""
        cel = f"{fmt(ce)} (beam {be / ce:.2f}×)" if ce and be else fmt(ce)
        lo_hi = spread.get((row, "beam"))
        rng = f" [{fmt(lo_hi[0])}–{fmt(lo_hi[1])}]" if lo_hi and lo_hi[0] != lo_hi[1] else ""
        print(f"| {label} | {fmt(rm)} | {fmt(be)}{ratio}{rng} | {cel} |")


if __name__ == "__main__":
    main()

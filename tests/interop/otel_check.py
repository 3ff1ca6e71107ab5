#!/usr/bin/env python3
"""OpenTelemetry across a real client: the Python `mcp` client in its default configuration
(`mcp.Client`, mode "auto") with the OpenTelemetry SDK set up as an application would, against
the fixture server with `BEAM_FIXTURE_OTLP` pointing at an OTLP/HTTP receiver here.

The client makes a CLIENT span per request and injects its W3C trace context into
`params._meta` (SEP-414); the server's SERVER span for that request must have the client's span
as its parent, in the client's trace. The receiver decodes the server's export with the official
protobuf definitions (`opentelemetry-proto`). Over stdio and over Streamable HTTP.

Prints one JSON summary line; exits 0 only if every check held (1: a check failed).

Usage: .venv/bin/python otel_check.py path/to/fixture
"""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import anyio
from mcp import Client
from mcp.client.stdio import StdioServerParameters
from opentelemetry import trace
from opentelemetry.proto.collector.metrics.v1.metrics_service_pb2 import ExportMetricsServiceRequest
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

SERVER_KIND = 2  # SPAN_KIND_SERVER

received_spans: list[Any] = []
received_metrics: list[str] = []
lock = threading.Lock()


class Receiver(BaseHTTPRequestHandler):
    def do_POST(self) -> None:  # noqa: N802 (the stdlib's name)
        body = self.rfile.read(int(self.headers.get("content-length", "0")))
        try:
            if self.path == "/v1/traces":
                request = ExportTraceServiceRequest.FromString(body)
                with lock:
                    for resource in request.resource_spans:
                        for scope in resource.scope_spans:
                            received_spans.extend(scope.spans)
            elif self.path == "/v1/metrics":
                request = ExportMetricsServiceRequest.FromString(body)
                with lock:
                    for resource in request.resource_metrics:
                        for scope in resource.scope_metrics:
                            received_metrics.extend(m.name for m in scope.metrics)
            status = 200
        except Exception:  # a body that does not decode is the exporter's failure
            status = 400
        self.send_response(status)
        self.send_header("content-length", "0")
        self.end_headers()

    def log_message(self, *args: Any) -> None:
        pass


def attrs(span: Any) -> dict[str, str]:
    out = {}
    for kv in span.attributes:
        v = kv.value
        out[kv.key] = v.string_value if v.HasField("string_value") else str(v.int_value)
    return out


def wait_for_server_span(request_id: str, timeout: float = 15.0) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with lock:
            for span in received_spans:
                a = attrs(span)
                if (span.kind == SERVER_KIND and a.get("mcp.method.name") == "tools/call"
                        and a.get("jsonrpc.request.id") == request_id):
                    return span
        time.sleep(0.05)
    return None


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


async def call_echo(server: Any) -> None:
    async with Client(server) as client:
        result = await client.call_tool("echo", {"text": "traced"})
        if result.is_error:
            raise RuntimeError(f"echo failed: {result}")


def check_transport(label: str, exporter: InMemorySpanExporter, errors: list[str], summary: dict) -> None:
    client_spans = [s for s in exporter.get_finished_spans()
                    if s.attributes.get("mcp.method.name") == "tools/call"]
    if len(client_spans) != 1:
        errors.append(f"{label}: the client made {len(client_spans)} tools/call spans, wanted 1")
        return
    client = client_spans[0]
    request_id = client.attributes.get("jsonrpc.request.id")
    server = wait_for_server_span(str(request_id))
    if server is None:
        errors.append(f"{label}: no server span for request {request_id}")
        return
    got = {
        "trace_id": server.trace_id.hex(),
        "parent_span_id": server.parent_span_id.hex(),
        "name": server.name,
    }
    want = {
        "trace_id": format(client.context.trace_id, "032x"),
        "parent_span_id": format(client.context.span_id, "016x"),
        "name": "tools/call echo",
    }
    summary[label] = got
    if got != want:
        errors.append(f"{label}: server span mismatch: expected {want}, got {got}")


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    fixture = argv[1]
    receiver = ThreadingHTTPServer(("127.0.0.1", 0), Receiver)
    threading.Thread(target=receiver.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{receiver.server_address[1]}"

    # The application's OpenTelemetry set-up; the client's own spans land in memory.
    exporter = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    trace.set_tracer_provider(provider)

    errors: list[str] = []
    summary: dict[str, Any] = {}
    env = {"BEAM_FIXTURE_OTLP": base, "PATH": "/usr/bin:/bin"}
    try:
        anyio.run(call_echo, StdioServerParameters(command=fixture, args=[], env=env))
        check_transport("stdio", exporter, errors, summary)
    except Exception as e:  # noqa: BLE001 (the summary names it)
        errors.append(f"stdio: {type(e).__name__}: {e}")

    exporter.clear()
    with lock:  # the next request ids start again at the same numbers
        received_spans.clear()
    port = free_port()
    process = subprocess.Popen([fixture, "--http", f"127.0.0.1:{port}"], env=env,
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                time.sleep(0.05)
        anyio.run(call_echo, f"http://127.0.0.1:{port}/mcp")
        check_transport("http", exporter, errors, summary)
    except Exception as e:  # noqa: BLE001
        errors.append(f"http: {type(e).__name__}: {e}")
    finally:
        process.terminate()
        process.wait(timeout=10)

    with lock:
        if "mcp.server.operation.duration" not in received_metrics:
            errors.append(f"no mcp.server.operation.duration exported (got {sorted(set(received_metrics))})")
    summary["errors"] = errors
    print(json.dumps(summary))
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

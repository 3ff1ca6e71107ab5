-- wrk: the same tools/call POST as every other lab request (2026-07-28).
wrk.method = "POST"
wrk.body = '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}},"name":"get_weather","arguments":{"place":"Paris"}}}'
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Accept"] = "application/json, text/event-stream"
wrk.headers["MCP-Protocol-Version"] = "2026-07-28"
wrk.headers["Mcp-Method"] = "tools/call"
wrk.headers["Mcp-Name"] = "get_weather"

-- Answers are checked by `load http-seq` before each load; wrk counts non-2xx as errors.
done = function(summary, latency, requests)
  io.write(string.format("LAB requests=%d p99_us=%d p50_us=%d errors=%d\n",
    summary.requests, latency:percentile(99), latency:percentile(50),
    summary.errors.status + summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout))
end

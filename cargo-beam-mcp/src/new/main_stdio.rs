
beam_mcp::serve!(stdio);

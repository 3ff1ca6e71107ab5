//! The declared connectome of this server, from its sources, function by function:
//! `OUT_DIR/connectome.json` (served through `beam_mcp::declared_connectome!()`).

fn main() {
    beam_mcp_build::connectome("weather")
        .level(beam_mcp_build::Level::Mfa)
        .emit();
}

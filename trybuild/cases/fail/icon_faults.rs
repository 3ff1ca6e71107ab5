/// An icon file that is not there.
#[beam_mcp::tool(icon = "assets/missing.png")]
fn missing() -> String {
    String::new()
}

/// A file of the crate that is not an image.
#[beam_mcp::tool(icon = "Cargo.toml")]
fn not_an_image() -> String {
    String::new()
}

/// A type no host renders as an icon.
#[beam_mcp::prompt(icon(src = "https://example.com/a.tiff", mime_type = "image/tiff"))]
fn tiff() -> String {
    String::new()
}

/// A size that is not WxH.
#[beam_mcp::resource("app://a", icon(src = "https://example.com/a.png", sizes = ["48"]))]
fn sized_wrong() -> String {
    String::new()
}

/// An icon that is neither a file nor an https: or data: URI.
#[beam_mcp::tool(icon = "ftp://example.com/a.png")]
fn ftp() -> String {
    String::new()
}

fn main() {
    let _ = beam_mcp::icon!(src = "https://example.com/a.svg", theme = "blue");
}

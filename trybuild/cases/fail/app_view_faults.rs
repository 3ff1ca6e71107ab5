// A view's faults, each refused at compile time: an origin that is not one, a permission no
// host grants, app(...) on a URI that is not ui://, another MIME type, a template, an HTML file
// that is missing or not an HTML5 document, and a function with a body beside html = ....

/// Any origin at all.
#[beam_mcp::resource("ui://demo/a", app(csp(connect_domains = ["*"])))]
fn any_origin() -> String {
    String::new()
}

/// A second directive smuggled into an origin.
#[beam_mcp::resource("ui://demo/b", app(csp(resource_domains = ["https://a.example.com; script-src *"])))]
fn smuggled() -> String {
    String::new()
}

/// A permission no host grants.
#[beam_mcp::resource("ui://demo/c", app(permissions = ["usb"]))]
fn usb() -> String {
    String::new()
}

/// A view that is not at a ui:// URI.
#[beam_mcp::resource("docs://card", app(prefers_border))]
fn not_ui() -> String {
    String::new()
}

/// A view of another type.
#[beam_mcp::resource("ui://demo/d", mime_type = "text/html")]
fn plain_html() -> String {
    String::new()
}

/// A view that is a template.
#[beam_mcp::resource("ui://demo/{id}")]
fn templated(id: String) -> String {
    id
}

/// Its HTML is not there.
#[beam_mcp::resource("ui://demo/e", app(html = "./views/missing.html"))]
fn missing() {}

/// Its HTML is a fragment.
#[beam_mcp::resource("ui://demo/f", app(html = "./views/fragment.html"))]
fn fragment() {}

/// Its HTML is embedded, and it reads too.
#[beam_mcp::resource("ui://demo/g", app(html = "../pass/views/card.html"))]
fn both() -> String {
    String::new()
}

fn main() {}

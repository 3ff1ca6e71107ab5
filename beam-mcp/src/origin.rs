//! Where a mounted item came from: a leaf the catalog, the definitions and the mounting all read
//! (so the catalog imports nothing of `mount.rs`, which builds on it).

/// Where a mounted item came from: the prefix it is mounted under, and its name (a tool's or
/// prompt's) or URI (a resource's or template's) in the catalog that was mounted.
///
/// ```
/// /// Finds notes.
/// #[beam_mcp::tool]
/// fn search(text: String) -> String { text }
///
/// let notes = beam_mcp::Server::builder().tool(search::DEF);
/// let server = beam_mcp::Server::builder().mount("notes", notes).build().unwrap();
/// # let _ = server;
/// let origin = beam_mcp::Origin { prefix: "notes", name: "search" };
/// assert_eq!(origin.to_string(), "notes: search");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Origin {
    /// The prefix it is mounted under.
    pub prefix: &'static str,
    /// Its name or URI in the mounted catalog.
    pub name: &'static str,
}

impl std::fmt::Display for Origin {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.prefix, self.name)
    }
}

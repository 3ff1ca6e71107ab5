//! The two protocol revisions and the `_meta` keys that name them.

/// The `params._meta` key naming the protocol version of a request.
pub const META_PROTOCOL_VERSION: &str = "io.modelcontextprotocol/protocolVersion";
/// The `params._meta` key carrying the client's capabilities.
pub const META_CLIENT_CAPABILITIES: &str = "io.modelcontextprotocol/clientCapabilities";
/// The `params._meta` key carrying the client's identity (never required).
pub const META_CLIENT_INFO: &str = "io.modelcontextprotocol/clientInfo";
/// The `params._meta` key asking for `notifications/message` at or above a level (2026-07-28).
pub const META_LOG_LEVEL: &str = "io.modelcontextprotocol/logLevel";
/// The notification `_meta` key naming the `subscriptions/listen` request it belongs to.
pub const META_SUBSCRIPTION_ID: &str = "io.modelcontextprotocol/subscriptionId";
/// The result `_meta` key carrying the server's identity.
pub const META_SERVER_INFO: &str = "io.modelcontextprotocol/serverInfo";

/// A protocol revision this crate serves.
///
/// ```
/// use beam_mcp::protocol::Revision;
/// assert_eq!(Revision::parse("2025-11-25"), Some(Revision::V2025_11_25));
/// assert_eq!(Revision::V2026_07_28.as_str(), "2026-07-28");
/// assert!(Revision::V2026_07_28.is_stateless());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum Revision {
    /// `2025-11-25`: the `initialize` handshake, session-scoped.
    V2025_11_25,
    /// `2026-07-28`: stateless, version and capabilities in every request's `params._meta`.
    V2026_07_28,
}

impl Revision {
    /// Every revision, newest first: the default advertised order.
    pub const ALL: [Revision; 2] = [Revision::V2026_07_28, Revision::V2025_11_25];

    /// The revision's wire name.
    pub const fn as_str(self) -> &'static str {
        match self {
            Revision::V2025_11_25 => "2025-11-25",
            Revision::V2026_07_28 => "2026-07-28",
        }
    }

    /// The revision a wire name names, if this crate serves it.
    pub fn parse(name: &str) -> Option<Revision> {
        match name {
            "2025-11-25" => Some(Revision::V2025_11_25),
            "2026-07-28" => Some(Revision::V2026_07_28),
            _ => None,
        }
    }

    /// True when `name` is a version of the legacy, `initialize`-negotiated era (2024-11-05 to
    /// 2025-11-25), served or not: the era a header naming it asks for (DIGEST §0, step 2).
    ///
    /// ```
    /// use beam_mcp::protocol::Revision;
    /// assert!(Revision::is_legacy_era("2025-06-18"));
    /// assert!(!Revision::is_legacy_era("2026-07-28"));
    /// assert!(!Revision::is_legacy_era("2099-01-01"));
    /// ```
    pub fn is_legacy_era(name: &str) -> bool {
        matches!(
            name,
            "2024-11-05" | "2025-03-26" | "2025-06-18" | "2025-11-25"
        )
    }

    /// True for the stateless revision (results carry `resultType` and serverInfo `_meta`).
    pub const fn is_stateless(self) -> bool {
        matches!(self, Revision::V2026_07_28)
    }
}

impl std::fmt::Display for Revision {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

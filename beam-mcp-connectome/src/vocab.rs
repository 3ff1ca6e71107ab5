//! The closed vocabularies of the connectome: node kinds, levels, edge kinds, provenance and
//! signs. Each word is written on the wire exactly as [`as_str`](NodeKind::as_str) spells it,
//! and read back only from that spelling.

use std::fmt;

macro_rules! vocabulary {
    ($(#[$doc:meta])* $name:ident, $what:literal { $($(#[$vdoc:meta])* $variant:ident => $word:literal),+ $(,)? }) => {
        $(#[$doc])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum $name {
            $($(#[$vdoc])* $variant,)+
        }

        impl $name {
            /// Every word of this vocabulary, in its declared order.
            pub const ALL: &'static [$name] = &[$($name::$variant),+];

            /// The word as written in canonical bytes.
            ///
            /// ```
            #[doc = concat!("use beam_mcp_connectome::", stringify!($name), ";")]
            #[doc = concat!("for word in ", stringify!($name), "::ALL {")]
            #[doc = concat!("    assert_eq!(", stringify!($name), "::parse(word.as_str()), Some(*word));")]
            /// }
            /// ```
            pub const fn as_str(self) -> &'static str {
                match self {
                    $($name::$variant => $word,)+
                }
            }

            /// The word spelled exactly `text`, if it is one of this vocabulary.
            pub fn parse(text: &str) -> Option<Self> {
                match text {
                    $($word => Some($name::$variant),)+
                    _ => None,
                }
            }

            /// What this vocabulary is called in error messages.
            pub const WHAT: &'static str = $what;
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.as_str())
            }
        }
    };
}

vocabulary! {
    /// What a node stands for.
    NodeKind, "node kind" {
        /// The MCP server itself: the root every declared graph starts from.
        Server => "server",
        /// A tool of the catalog.
        Tool => "tool",
        /// A resource or resource template of the catalog.
        Resource => "resource",
        /// A prompt of the catalog.
        Prompt => "prompt",
        /// A long-lived task or thread the host names (the seed's registered process).
        Process => "process",
        /// Code: a function, a module or a crate (the level says which).
        Module => "module",
    }
}

vocabulary! {
    /// How coarse a node is, finest first.
    Level, "level" {
        /// A function (the seed's module-function-arity).
        Mfa => "mfa",
        /// A module.
        Module => "module",
        /// A crate, or another boundary the host groups modules by.
        Boundary => "boundary",
        /// The server and its catalog items.
        Server => "server",
    }
}

vocabulary! {
    /// What an edge means.
    EdgeKind, "edge kind" {
        /// A call.
        Invoke => "invoke",
        /// A read of a resource.
        Read => "read",
        /// A message sent.
        Message => "message",
        /// A supervisor over what it starts.
        Supervise => "supervise",
    }
}

vocabulary! {
    /// Where an edge comes from.
    Provenance, "provenance" {
        /// Read from the code, before it runs.
        Declared => "declared",
        /// Seen while it ran.
        Observed => "observed",
    }
}

vocabulary! {
    /// A consumer's verdict on an edge. The connectome writes only [`Sign::Unset`]; the other
    /// words are a consumer's to write (by rebuilding the graph with the edge's field changed).
    Sign, "sign" {
        /// Allowed by the consumer's policy.
        Allow => "allow",
        /// Denied by the consumer's policy.
        Deny => "deny",
        /// Held for a decision.
        Hold => "hold",
        /// Outside any policy, on purpose.
        Ungoverned => "ungoverned",
        /// No verdict given (the only sign this library writes).
        Unset => "unset",
    }
}

vocabulary! {
    /// The digest named in canonical bytes and computed over them; [`Default`] is SHA-256.
    /// More may come: match with a wildcard arm, or go through [`Algorithm::ALL`] and
    /// [`Algorithm::parse`].
    ///
    /// ```
    /// use beam_mcp_connectome::Algorithm;
    ///
    /// let bits = |a: Algorithm| match a {
    ///     Algorithm::Sha256 => Some(256),
    ///     Algorithm::Sha384 => Some(384),
    ///     Algorithm::Sha512 => Some(512),
    ///     _ => None,
    /// };
    /// assert_eq!(Algorithm::parse("sha384").and_then(bits), Some(384));
    /// assert_eq!(Algorithm::ALL.len(), 3);
    /// ```
    #[derive(Default)]
    #[non_exhaustive]
    Algorithm, "algorithm" {
        /// SHA-256, the default (forever).
        #[default]
        Sha256 => "sha256",
        /// SHA-384.
        Sha384 => "sha384",
        /// SHA-512.
        Sha512 => "sha512",
    }
}

/// The envelope version this library writes: `3` (the `algorithm` member appeared in 3).
pub const SCHEMA_VERSION: u64 = 3;

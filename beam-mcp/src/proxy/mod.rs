//! Proxies (feature `client`): a remote MCP server's tools, prompts, resources and templates
//! served through this server under a prefix, as [`mount`](crate::ServerBuilder::mount) serves
//! another builder's ([`ServerBuilder::mount_remote`](crate::ServerBuilder::mount_remote)).
//!
//! The remote is reached through this crate's [client](crate::client), at whatever revision it
//! speaks, over stdio or HTTP: a stdio-only server becomes reachable over HTTP by mounting it
//! in a server that serves HTTP. Its listings are checked by this server's rules as its own
//! items are (a name, URI template or input schema the catalog refuses is refused by name at
//! `build()`), and its arguments are validated here against the schema it advertised before
//! the call goes out.
//!
//! - A call relays the caller's progress token: the remote's progress reaches the caller. A
//!   caller that cancels drops the relayed request, which the client cancels at the remote.
//! - When the remote says a list changed, the proxy lists again and swaps its view in one step;
//!   this server's listeners hear the change.
//! - A remote that goes away makes its items answer errors naming it ("remote \"weather\" is
//!   unavailable: ...; reconnecting") while every other item serves on; the proxy connects again
//!   after 200 ms, then doubling up to 10 s, and mounts what the remote lists when it is back.
//! - What a remote can make this process keep is bounded: at most [`MAX_ITEMS`] items of each
//!   kind per remote, and [`TEXT_BUDGET`] bytes of names, descriptions and schemas over all
//!   remotes and refreshes (a text seen before costs nothing again); each message passes the
//!   client's bounds (1 MiB, 64 levels), each request its time limit.
//!
//! - The remote's asks (`elicitation/create`) go to the caller of the call they belong to, and
//!   the caller's answer back: at 2026-07-28 the caller's round ends as for any ask, and when it
//!   sends the call again with its answer, the proxy calls the remote again and answers the
//!   remote's ask with it (the remote's own rounds and `requestState` stay between the proxy's
//!   client and the remote, opaque to the caller); at 2025-11-25 the ask is a request on the
//!   caller's session. An ask a remote sends on its 2025-11-25 session names no call: with one
//!   relayed call in flight it goes to that call's caller, with more it is cancelled (the proxy
//!   does not guess).
//!
//! - The remote's log messages reach the caller of the one relayed call in flight, at the level
//!   that caller asked for (the remote is asked for every level: in a 2026-07-28 call's `_meta`,
//!   by `logging/setLevel` on a 2025-11-25 session). A log message names no call: with two in
//!   flight it is not relayed.
//!
//! - A remote that serves `completion/complete` completes each of its prompts' arguments and
//!   templates' variables: the `ref` is relayed with the remote's own name or URI. A remote that
//!   cannot answer gives no suggestions (and, when it is gone, is reconnected).
//!
//! - A remote that takes resource subscriptions is subscribed to each resource it listed when it
//!   was connected; its `notifications/resources/updated` reach this server's subscribers of the
//!   resource as it is served here.
//!
//! Not built yet (issue 26): relaying icons, sampling and roots; re-subscribing to resources a
//! remote lists after it was connected; passing a schema this server cannot enforce through
//! unenforced.
//!
//! ```no_run
//! use beam_mcp::proxy::Remote;
//!
//! # async fn run() -> Result<(), Box<dyn std::error::Error>> {
//! let weather = Remote::connect("weather", |client| {
//!     Box::pin(client.stdio(tokio::process::Command::new("weather-server")))
//! })
//! .await?;
//! let server = beam_mcp::Server::builder().mount_remote(weather).build()?;
//! # let _ = server; Ok(())
//! # }
//! ```

mod link;
pub(crate) mod relay;
pub(crate) use link::Link;
mod view;

use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, RwLock};

pub use view::{MAX_ITEMS, TEXT_BUDGET};

use crate::ServerBuilder;
use crate::catalog::Definitions;
use crate::client::{Client, ClientBuilder, ClientError};

/// Why a remote could not be mounted.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ProxyError {
    /// The prefix cannot name a mount.
    #[error("remote {prefix:?}: {why}")]
    Prefix {
        /// The prefix given.
        prefix: String,
        /// What is wrong with it.
        why: &'static str,
    },
    /// The remote could not be reached or listed.
    #[error(transparent)]
    Connect(ClientError),
    /// The remote listed what cannot be served.
    #[error("remote {remote:?} lists what this server cannot serve: {reason}")]
    Listing {
        /// The remote's prefix.
        remote: String,
        /// What.
        reason: String,
    },
}

/// A remote server, connected and listed, ready to be mounted with
/// [`ServerBuilder::mount_remote`](crate::ServerBuilder::mount_remote). See the
/// [module](self).
pub struct Remote {
    pub(crate) link: Arc<Link>,
    pub(crate) definitions: Definitions,
}

impl Remote {
    /// Connects to a remote through `connect`, which finishes the client builder it is given
    /// (the proxy's hooks are in it) with a transport; lists what the remote serves. The remote
    /// is mounted under `prefix`; `connect` is called again to reconnect when it goes away.
    ///
    /// ```no_run
    /// # async fn run() -> Result<(), beam_mcp::proxy::ProxyError> {
    /// let search = beam_mcp::proxy::Remote::connect("search", |client| {
    ///     Box::pin(client.http("http://127.0.0.1:9000/mcp", Vec::new()))
    /// })
    /// .await?;
    /// # let _ = search; Ok(())
    /// # }
    /// ```
    pub async fn connect<F>(prefix: &str, connect: F) -> Result<Remote, ProxyError>
    where
        F: Fn(ClientBuilder) -> Pin<Box<dyn Future<Output = Result<Client, ClientError>> + Send>>
            + Send
            + Sync
            + 'static,
    {
        if let Some(why) = beam_mcp_rules::prefix_defect(prefix) {
            return Err(ProxyError::Prefix {
                prefix: prefix.to_owned(),
                why,
            });
        }
        let prefix = crate::mount::intern(prefix.to_owned());
        let (link, definitions) = Link::open(prefix, Box::new(connect), RELAYS).await?;
        Ok(Remote { link, definitions })
    }

    /// The prefix it is mounted under.
    ///
    /// ```no_run
    /// # fn run(remote: beam_mcp::proxy::Remote) { assert_eq!(remote.prefix(), "weather"); }
    /// ```
    pub fn prefix(&self) -> &'static str {
        self.link.prefix
    }
}

/// The handlers every remote's items are served by.
const RELAYS: view::Handlers = view::Handlers {
    tool: relay::call_tool,
    prompt: relay::get_prompt,
    read: relay::read_resource,
    complete: relay::complete,
};

/// The remotes a server mounts, as host state its relays read.
#[derive(Clone, Default)]
pub(crate) struct Proxies {
    links: Arc<RwLock<Vec<Arc<Link>>>>,
}

impl Proxies {
    /// The remotes mounted now.
    pub(crate) fn links(&self) -> Vec<Arc<Link>> {
        self.links.read().unwrap_or_else(|e| e.into_inner()).clone()
    }
}

impl ServerBuilder {
    /// Serves a remote server's tools, prompts, resources and templates under its prefix, named
    /// as [`mount`](Self::mount) names them, each call relayed to it (feature `client`; see
    /// [`proxy`](crate::proxy)). The server's catalog becomes live: the remote's list changes
    /// reach this server's listeners.
    ///
    /// ```no_run
    /// # async fn run() -> Result<(), Box<dyn std::error::Error>> {
    /// let weather = beam_mcp::proxy::Remote::connect("weather", |client| {
    ///     Box::pin(client.stdio(tokio::process::Command::new("weather-server")))
    /// })
    /// .await?;
    /// let server = beam_mcp::Server::builder().mount_remote(weather).build()?;
    /// # let _ = server; Ok(())
    /// # }
    /// ```
    #[cfg_attr(docsrs, doc(cfg(feature = "client")))]
    pub fn mount_remote(self, remote: Remote) -> Self {
        let Remote { link, definitions } = remote;
        let (builder, proxies) = match self.state_of::<Proxies>() {
            Some(proxies) => (self, proxies),
            None => {
                let proxies = Proxies::default();
                (self.state(proxies.clone()), proxies)
            }
        };
        proxies
            .links
            .write()
            .unwrap_or_else(|e| e.into_inner())
            .push(Arc::clone(&link));
        let prefix = link.prefix;
        builder.mount_view(prefix, definitions, move |live| link.bind(Arc::clone(live)))
    }
}

//! Live catalogs: a handle the host keeps to add, replace and remove items while the server
//! runs, and the broadcaster that tells open subscriptions (`subscriptions/listen` streams at
//! 2026-07-28, initialized sessions at 2025-11-25) what changed.
//!
//! A change rebuilds the catalog from the definitions under the same rules as
//! [`ServerBuilder::build`](crate::ServerBuilder::build) and swaps it in one step: a request
//! sees the old catalog or the new one, never a mix, and a call in flight finishes on the
//! definition it started with.

use std::sync::{Arc, Mutex, OnceLock, RwLock};

use serde_json::{Map, Value, json};

use crate::catalog::{Catalog, CatalogError, Definitions};
use crate::context::{CancelFlag, Outbox};
use crate::fanout::{self, Broadcast, Delivery, Fanout, Hear};
use crate::prompt::PromptDef;
use crate::resource::ResourceDef;
use crate::revision::META_SUBSCRIPTION_ID;
use crate::tool::{StateMap, ToolDef};

/// The handle to a server's catalog while it runs. Take it with
/// [`ServerBuilder::live`](crate::ServerBuilder::live); a server built from that builder
/// advertises `listChanged: true` (and resource subscriptions) and serves
/// `subscriptions/listen`.
///
/// ```
/// use beam_mcp::{LiveCatalog, Server, State};
///
/// /// Says hello.
/// #[beam_mcp::tool]
/// fn hello() -> String { "hello".into() }
///
/// /// Adds the `hello` tool.
/// #[beam_mcp::tool]
/// fn unlock(State(catalog): State<LiveCatalog>) -> Result<String, beam_mcp::ToolError> {
///     catalog.add_tool(hello::DEF).map_err(|e| beam_mcp::ToolError::new(e.to_string()))?;
///     Ok("unlocked".into())
/// }
///
/// let (builder, catalog) = Server::builder().tool(unlock::DEF).live();
/// let server = builder.state(catalog.clone()).build().unwrap();
/// catalog.add_tool(hello::DEF).unwrap(); // every open listener hears tools/list_changed
/// catalog.remove_tool("hello").unwrap();
/// assert!(catalog.remove_tool("hello").is_err());
/// # let _ = server;
/// ```
#[derive(Clone, Default)]
pub struct LiveCatalog {
    inner: Arc<Live>,
}

/// What a live server and its handles share.
#[derive(Default)]
pub(crate) struct Live {
    bound: OnceLock<Bound>,
    listeners: Mutex<Vec<Arc<Listener>>>,
    /// Set when the server ends its subscriptions (shutdown).
    closing: CancelFlag,
    /// Where changes go to the other replicas, when the host configured a bus.
    fanout: OnceLock<Arc<dyn Fanout>>,
}

struct Bound {
    definitions: Mutex<Definitions>,
    states: Arc<StateMap>,
    current: RwLock<Arc<Catalog>>,
}

/// Why a live change was refused; the catalog is unchanged.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum LiveError {
    /// The server this handle belongs to was not built yet.
    #[error("the live catalog's server is not built yet")]
    NotBuilt,
    /// The changed catalog breaks a rule; the words are the build's.
    #[error(transparent)]
    Catalog(#[from] CatalogError),
    /// A skill added to a server that does not declare the Skills extension: it declares it
    /// when it is built with skills (`ServerBuilder::skills`, an empty slice too).
    #[error(
        "the server does not declare the skills extension: give its builder .skills(..) (an empty slice will do)"
    )]
    SkillsNotDeclared,
    /// A remote's new lists clash with what the server serves, or have no place for the prefix.
    #[error(transparent)]
    Mount(#[from] crate::mount::MountError),
    /// Nothing of that kind has that key.
    #[error("there is no {kind} {key:?} to remove")]
    NotFound {
        /// `tool`, `resource`, `prompt` or `skill`.
        kind: &'static str,
        /// The name or URI.
        key: String,
    },
}

/// Which list changed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Change {
    Tools,
    Prompts,
    Resources,
}

impl Change {
    fn broadcast(self) -> Broadcast {
        match self {
            Change::Tools => Broadcast::ToolsChanged,
            Change::Prompts => Broadcast::PromptsChanged,
            Change::Resources => Broadcast::ResourcesChanged,
        }
    }

    fn method(self) -> &'static str {
        match self {
            Change::Tools => "notifications/tools/list_changed",
            Change::Prompts => "notifications/prompts/list_changed",
            Change::Resources => "notifications/resources/list_changed",
        }
    }
}

/// What one subscriber asked to hear.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Filter {
    pub(crate) tools: bool,
    pub(crate) prompts: bool,
    pub(crate) resources: bool,
    /// URIs whose updates are wanted (an update of `u/x` reaches a subscriber of `u`).
    pub(crate) uris: Vec<String>,
}

impl Filter {
    fn wants(&self, change: Change) -> bool {
        match change {
            Change::Tools => self.tools,
            Change::Prompts => self.prompts,
            Change::Resources => self.resources,
        }
    }

    fn wants_uri(&self, uri: &str) -> bool {
        self.uris.iter().any(|u| {
            uri == u
                || uri
                    .strip_prefix(u.as_str())
                    .is_some_and(|rest| rest.starts_with('/') || u.ends_with('/'))
        })
    }
}

/// One subscriber: a listen stream (with its subscription id) or a legacy session.
pub(crate) struct Listener {
    filter: Mutex<Filter>,
    outbox: Arc<Outbox>,
    /// The `subscriptions/listen` request's id (2026-07-28); `None` for a legacy session.
    subscription: Option<Value>,
}

impl Listener {
    pub(crate) fn new(filter: Filter, outbox: Arc<Outbox>, subscription: Option<Value>) -> Self {
        Listener {
            filter: Mutex::new(filter),
            outbox,
            subscription,
        }
    }

    pub(crate) fn filter(&self) -> std::sync::MutexGuard<'_, Filter> {
        self.filter.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn notify(&self, method: &str, mut params: Map<String, Value>, merge: Option<&'static str>) {
        if let Some(id) = &self.subscription {
            params.insert("_meta".into(), json!({ META_SUBSCRIPTION_ID: id }));
        }
        let message = json!({ "jsonrpc": "2.0", "method": method, "params": params });
        if self.outbox.push(message, merge).is_err() {
            tracing::warn!(
                method,
                "a subscriber's queue is full or closed; notification dropped"
            );
        }
    }
}

/// A subscriber's place in the broadcaster; removed when dropped.
pub(crate) struct Subscription {
    live: Arc<Live>,
    listener: Arc<Listener>,
}

impl Subscription {
    pub(crate) fn listener(&self) -> &Listener {
        &self.listener
    }
}

impl Drop for Subscription {
    fn drop(&mut self) {
        let mut listeners = self.live.lock_listeners();
        listeners.retain(|l| !Arc::ptr_eq(l, &self.listener));
    }
}

impl Live {
    /// Binds the handle to the server being built; a handle binds once.
    pub(crate) fn bind(
        &self,
        definitions: Definitions,
        states: Arc<StateMap>,
        catalog: Arc<Catalog>,
    ) {
        let bound = Bound {
            definitions: Mutex::new(definitions),
            states,
            current: RwLock::new(catalog),
        };
        if self.bound.set(bound).is_err() {
            tracing::warn!(
                "a LiveCatalog handle was given to a second server; it serves the first"
            );
        }
    }

    /// The catalog requests are served from now.
    pub(crate) fn current(&self) -> Option<Arc<Catalog>> {
        let bound = self.bound.get()?;
        Some(Arc::clone(
            &bound.current.read().unwrap_or_else(|e| e.into_inner()),
        ))
    }

    pub(crate) fn subscribe(self: &Arc<Self>, listener: Listener) -> Subscription {
        let listener = Arc::new(listener);
        self.lock_listeners().push(Arc::clone(&listener));
        Subscription {
            live: Arc::clone(self),
            listener,
        }
    }

    pub(crate) fn closing(&self) -> &CancelFlag {
        &self.closing
    }

    /// Sends this replica's changes to the others through `fanout`, and delivers theirs here.
    pub(crate) fn connect(self: &Arc<Self>, fanout: Arc<dyn Fanout>) {
        // Delivered to only by the fan-out it publishes on: one bus, both ways.
        if self.fanout.set(Arc::clone(&fanout)).is_err() {
            tracing::warn!("a LiveCatalog handle was given a second fan-out; it keeps the first");
            return;
        }
        fanout.deliver_to(Delivery::new(self));
    }

    fn tell_others(&self, message: Broadcast) {
        if let Some(fanout) = self.fanout.get() {
            fanout::publish(fanout.as_ref(), message);
        }
    }

    fn updated(&self, uri: &str) {
        for listener in self.lock_listeners().iter() {
            if listener.filter().wants_uri(uri) {
                let mut params = Map::new();
                params.insert("uri".into(), Value::from(uri));
                listener.notify("notifications/resources/updated", params, None);
            }
        }
    }

    fn lock_listeners(&self) -> std::sync::MutexGuard<'_, Vec<Arc<Listener>>> {
        self.listeners.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn broadcast(&self, change: Change) {
        for listener in self.lock_listeners().iter() {
            if listener.filter().wants(change) {
                listener.notify(change.method(), Map::new(), Some(change.method()));
            }
        }
    }

    /// Rebuilds from the changed definitions; swaps only when the new catalog is accepted.
    fn change(
        &self,
        change: Change,
        edit: impl FnOnce(&mut Definitions) -> Result<(), LiveError>,
    ) -> Result<(), LiveError> {
        let bound = self.bound.get().ok_or(LiveError::NotBuilt)?;
        {
            let mut definitions = bound.definitions.lock().unwrap_or_else(|e| e.into_inner());
            let mut next = definitions.clone();
            edit(&mut next)?;
            let catalog = Catalog::build(&next, &bound.states)?;
            *bound.current.write().unwrap_or_else(|e| e.into_inner()) = Arc::new(catalog);
            *definitions = next;
        }
        self.broadcast(change);
        self.tell_others(change.broadcast());
        Ok(())
    }
}

impl Live {
    /// Tells `uri`'s subscribers here, and the other replicas, that it changed.
    pub(crate) fn resource_updated(&self, uri: &str) {
        self.updated(uri);
        self.tell_others(Broadcast::ResourceUpdated { uri: uri.into() });
    }

    /// Puts `definitions` in place of the items mounted under `prefix` and declared at `source`
    /// (a remote's old view: another mount under the same prefix keeps its own), in one rebuild,
    /// and tells the subscribers of each list in `changes`.
    #[cfg(feature = "client")]
    pub(crate) fn replace_mount(
        &self,
        prefix: &'static str,
        source: &'static str,
        definitions: Definitions,
        changes: &[Change],
    ) -> Result<(), LiveError> {
        let bound = self.bound.get().ok_or(LiveError::NotBuilt)?;
        {
            let mut current = bound.definitions.lock().unwrap_or_else(|e| e.into_inner());
            let mut next = current.clone();
            let theirs = |origin: Option<crate::origin::Origin>, at: (&str, u32)| {
                origin.is_some_and(|o| o.prefix == prefix) && at.0 == source
            };
            next.tools.retain(|t| !theirs(t.origin, t.location));
            next.prompts.retain(|p| !theirs(p.origin, p.location));
            next.resources.retain(|r| !theirs(r.origin, r.location));
            let mount = crate::mount::Mounted {
                prefix: prefix.to_owned(),
                keep_uris: false,
                catalog: Ok((definitions, StateMap::default())),
            };
            crate::mount::apply(&mut next, &mut StateMap::default(), vec![mount])?;
            let catalog = Catalog::build(&next, &bound.states)?;
            *bound.current.write().unwrap_or_else(|e| e.into_inner()) = Arc::new(catalog);
            *current = next;
        }
        for change in changes {
            self.broadcast(*change);
            self.tell_others(change.broadcast());
        }
        Ok(())
    }
}

impl Hear for Live {
    /// What another replica published, told to this replica's subscribers.
    fn hear(&self, message: &Broadcast) {
        match message {
            Broadcast::ToolsChanged => self.broadcast(Change::Tools),
            Broadcast::PromptsChanged => self.broadcast(Change::Prompts),
            Broadcast::ResourcesChanged => self.broadcast(Change::Resources),
            Broadcast::ResourceUpdated { uri } => self.updated(uri),
        }
    }
}

impl LiveCatalog {
    pub(crate) fn shared(&self) -> &Arc<Live> {
        &self.inner
    }

    /// Adds a tool, or replaces the tool of the same name. Every subscriber is told, on every
    /// replica when a fan-out is configured; the other replicas' catalogs are theirs to change.
    pub fn add_tool(&self, def: ToolDef) -> Result<(), LiveError> {
        self.inner.change(Change::Tools, |d| {
            d.tools.retain(|t| t.name != def.name);
            d.tools.push(def);
            Ok(())
        })
    }

    /// Removes the tool named `name`.
    pub fn remove_tool(&self, name: &str) -> Result<(), LiveError> {
        self.inner.change(Change::Tools, |d| {
            remove(&mut d.tools, |t| t.name == name, "tool", name)
        })
    }

    /// Adds a resource or template, or replaces the one with the same URI.
    pub fn add_resource(&self, def: ResourceDef) -> Result<(), LiveError> {
        self.inner.change(Change::Resources, |d| {
            d.resources.retain(|r| r.uri != def.uri);
            d.resources.push(def);
            Ok(())
        })
    }

    /// Removes the resource or template whose URI is `uri` (as declared).
    pub fn remove_resource(&self, uri: &str) -> Result<(), LiveError> {
        self.inner.change(Change::Resources, |d| {
            remove(&mut d.resources, |r| r.uri == uri, "resource", uri)
        })
    }

    /// Adds a prompt, or replaces the prompt of the same name.
    pub fn add_prompt(&self, def: PromptDef) -> Result<(), LiveError> {
        self.inner.change(Change::Prompts, |d| {
            d.prompts.retain(|p| p.name != def.name);
            d.prompts.push(def);
            Ok(())
        })
    }

    /// Adds a skill, or replaces the skill at the same path: `skills/list` and `skills/get`
    /// answer with it, its files are read through `resources/read`, and subscribers hear
    /// `notifications/resources/list_changed` (the extension has no notification of its own).
    /// The server must declare the extension ([`LiveError::SkillsNotDeclared`]).
    pub fn add_skill(&self, def: crate::skill::SkillDef) -> Result<(), LiveError> {
        self.inner.change(Change::Resources, |d| {
            if !d.skills_declared {
                return Err(LiveError::SkillsNotDeclared);
            }
            d.skills.retain(|s| s.path != def.path);
            d.skills.push(def);
            Ok(())
        })
    }

    /// Removes the skill at `path` (`weather/packing` for `skill://weather/packing/SKILL.md`).
    pub fn remove_skill(&self, path: &str) -> Result<(), LiveError> {
        self.inner.change(Change::Resources, |d| {
            remove(&mut d.skills, |s| s.path == path, "skill", path)
        })
    }

    /// Removes the prompt named `name`.
    pub fn remove_prompt(&self, name: &str) -> Result<(), LiveError> {
        self.inner.change(Change::Prompts, |d| {
            remove(&mut d.prompts, |p| p.name == name, "prompt", name)
        })
    }

    /// Tells every subscriber of `uri` (or of a URI it is under) that the resource changed:
    /// `notifications/resources/updated`.
    ///
    /// With a fan-out configured ([`ServerBuilder::fanout`](crate::ServerBuilder::fanout)),
    /// the subscribers of every other replica are told too.
    pub fn resource_updated(&self, uri: &str) {
        self.inner.resource_updated(uri);
    }

    /// How many subscribers are listening now (open listen streams and legacy sessions).
    pub fn listeners(&self) -> usize {
        self.inner.lock_listeners().len()
    }
}

fn remove<T>(
    items: &mut Vec<T>,
    matches: impl Fn(&T) -> bool,
    kind: &'static str,
    key: &str,
) -> Result<(), LiveError> {
    let before = items.len();
    items.retain(|item| !matches(item));
    if items.len() == before {
        return Err(LiveError::NotFound {
            kind,
            key: key.to_owned(),
        });
    }
    Ok(())
}

impl std::fmt::Debug for LiveCatalog {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LiveCatalog")
            .field("bound", &self.inner.bound.get().is_some())
            .field("listeners", &self.listeners())
            .finish()
    }
}

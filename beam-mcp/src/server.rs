//! The server: a checked catalog plus its options, built once and shared by every transport.

use std::sync::Arc;
use std::time::Duration;

use serde_json::{Map, Value, json};

use crate::ask::state::StateKeys;
use crate::catalog::{Catalog, CatalogError, Definitions};
use crate::connectome::{self, Declared, DeclaredError, Surface};
use crate::limit::RateLimit;
use crate::live::{Live, LiveCatalog};
use crate::prompt::PromptDef;
use crate::resource::ResourceDef;
use crate::revision::{META_SERVER_INFO, Revision};
use crate::schemagen::{Profiles, SchemaProfile};
use crate::task::{Share as TaskShare, TaskLimits, Tasks};
use crate::tool::{StateMap, ToolDef};

/// `cacheScope`: who may reuse a cached result.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum CacheScope {
    /// Only within the same authorization context (the default).
    #[default]
    Private,
    /// Shared caches may reuse it across users.
    Public,
}

impl CacheScope {
    /// The wire name.
    pub const fn as_str(self) -> &'static str {
        match self {
            CacheScope::Private => "private",
            CacheScope::Public => "public",
        }
    }
}

/// The caching hints (`ttlMs`, `cacheScope`) stamped on one kind of cacheable result.
///
/// ```
/// use beam_mcp::{CacheHint, CacheScope};
/// let hint = CacheHint { ttl_ms: 300_000, scope: CacheScope::Public };
/// assert_eq!(CacheHint::default(), CacheHint { ttl_ms: 0, scope: CacheScope::Private });
/// # let _ = hint;
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct CacheHint {
    /// Freshness in milliseconds (`0`: stale at once).
    pub ttl_ms: u64,
    /// Who may reuse it.
    pub scope: CacheScope,
}

impl CacheHint {
    pub(crate) fn stamp(&self, result: &mut Map<String, Value>) {
        result.insert("ttlMs".into(), Value::from(self.ttl_ms));
        result.insert("cacheScope".into(), Value::from(self.scope.as_str()));
    }
}

/// Why a server could not be built.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum BuildError {
    /// The catalog was refused.
    #[error(transparent)]
    Catalog(#[from] CatalogError),
    /// `supported_versions` was empty.
    #[error("supported_versions must name at least one revision")]
    NoRevisions,
    /// `supported_versions` named a revision twice.
    #[error("supported_versions names {0} more than once")]
    RepeatedRevision(Revision),
    /// The declared connectome was refused.
    #[error(transparent)]
    Connectome(#[from] DeclaredError),
    /// The observer already counts for a server of another name: its ids would mix the two.
    #[error(
        "the observer counts for server {observer:?}; give server {server:?} an observer of its own"
    )]
    ObserverOfAnotherServer {
        /// The server the observer counts for.
        observer: String,
        /// The server being built.
        server: String,
    },
    /// `page_size` was zero.
    #[error("page_size must be at least 1")]
    ZeroPageSize,
    /// A queue bound, `max_in_flight`, `call_time_limit` or `ask_time_limit` was zero.
    #[error(
        "notification_queue, max_in_flight, write_queue, call_time_limit and ask_time_limit must be above zero"
    )]
    ZeroLimit,
    /// A `requestState` key shorter than 32 bytes.
    #[error("a requestState key must be at least 32 bytes, got {0}")]
    ShortStateKey(usize),
    /// A task bound, a per-principal share of one, or `task_lifetime` was zero.
    #[error(
        "max_tasks, max_running_tasks, their per-principal shares and task_lifetime must be above zero"
    )]
    ZeroTaskBound,
    /// A fan-out was given to a server whose catalog is not live: there is nothing for it to
    /// carry.
    #[error("a fan-out carries a live catalog's changes: call live() on the builder too")]
    FanoutWithoutLive,
    /// A mounted catalog was refused.
    #[error(transparent)]
    Mount(#[from] crate::mount::MountError),
}

/// Builds a [`Server`]: the catalog, the host state, and the options.
///
/// ```
/// use beam_mcp::{CacheHint, CacheScope, Server};
///
/// /// Says hello.
/// #[beam_mcp::tool]
/// fn hello(name: String) -> String {
///     format!("Hello, {name}!")
/// }
///
/// let server = Server::builder()
///     .name("greeter")
///     .version("1.2.3")
///     .instructions("Greets people.")
///     .tool(hello::DEF)
///     .tools_cache(CacheHint { ttl_ms: 60_000, scope: CacheScope::Public })
///     .page_size(20)
///     .build()
///     .expect("a valid catalog");
/// # let _ = server;
/// ```
#[derive(Default)]
#[must_use = "a builder does nothing until .build()"]
pub struct ServerBuilder {
    name: Option<String>,
    version: Option<String>,
    presentation: Presentation,
    instructions: Option<String>,
    revisions: Option<Vec<Revision>>,
    definitions: Definitions,
    states: StateMap,
    discover_cache: CacheHint,
    tools_cache: CacheHint,
    resources_cache: CacheHint,
    prompts_cache: CacheHint,
    page_size: Option<usize>,
    limits: Limits,
    live: Option<LiveCatalog>,
    fanout: Option<Arc<dyn crate::fanout::Fanout>>,
    task_share: Option<Arc<dyn crate::store::TaskShare>>,
    state_key: Option<Vec<u8>>,
    previous_state_key: Option<Vec<u8>>,
    state_lifetime: Option<Duration>,
    declared: Option<&'static [u8]>,
    connectome_resources: bool,
    connectome_tool: bool,
    rate_limit: Option<Arc<dyn RateLimit>>,
    middleware: Vec<Arc<dyn crate::middleware::Middleware>>,
    #[cfg(feature = "otel")]
    telemetry: Option<crate::telemetry::Telemetry>,
    tasks: TaskSettings,
    /// Other builders' catalogs mounted under prefixes, applied by `build()`.
    mounts: Vec<crate::mount::Mounted>,
    /// What is told the live catalog once the server is built (a proxy's remote, which swaps
    /// its mounted view there when its lists change).
    #[cfg(feature = "client")]
    on_live: Vec<OnLive>,
}

/// Told the live catalog once the server is built.
#[cfg(feature = "client")]
type OnLive = Box<dyn FnOnce(&Arc<Live>) + Send + Sync>;

/// What a host shows of the server beside its name: the optional fields of `Implementation`.
#[derive(Default)]
struct Presentation {
    title: Option<String>,
    description: Option<String>,
    website_url: Option<String>,
    icons: Vec<crate::icon::Icon>,
}

impl Presentation {
    /// `serverInfo` in full (`server/discover`'s `_meta`, `initialize`), and in brief (every
    /// other 2026-07-28 result's `_meta`: name, version and title, without the icons, whose
    /// `data:` URIs would ride on every answer).
    fn implementations(&self, name: &str, version: &str) -> Result<(Value, Value), CatalogError> {
        let refuse = |reason: String| CatalogError::Display {
            item: "server".into(),
            reason,
        };
        crate::catalog::check_icons(|| "server".into(), &self.icons)?;
        if let Some(url) = &self.website_url {
            let web = url
                .strip_prefix("https://")
                .or_else(|| url.strip_prefix("http://"))
                .is_some_and(|rest| !rest.is_empty() && rest.bytes().all(|b| b.is_ascii_graphic()));
            if !web {
                return Err(refuse(format!(
                    "website_url {url:?} is not an https: (or http:) URL"
                )));
            }
        }
        let mut brief = Map::new();
        brief.insert("name".into(), Value::from(name));
        brief.insert("version".into(), Value::from(version));
        if let Some(title) = &self.title {
            brief.insert("title".into(), Value::from(title.as_str()));
        }
        let mut full = brief.clone();
        if let Some(description) = &self.description {
            full.insert("description".into(), Value::from(description.as_str()));
        }
        if let Some(url) = &self.website_url {
            full.insert("websiteUrl".into(), Value::from(url.as_str()));
        }
        crate::icon::insert_icons(&mut full, &self.icons);
        Ok((Value::Object(full), Value::Object(brief)))
    }
}

/// The task bounds a builder was given; the rest take their defaults at `build`.
#[derive(Default)]
struct TaskSettings {
    max: Option<usize>,
    running: Option<usize>,
    share_kept: Option<usize>,
    share_running: Option<usize>,
    lifetime: Option<Duration>,
}

impl TaskSettings {
    /// The bounds, shares defaulting to a quarter of their bound (at least 1); `None` when one
    /// is zero.
    fn limits(&self) -> Option<TaskLimits> {
        let defaults = TaskLimits::default();
        let max = self.max.unwrap_or(defaults.max);
        let running = self.running.unwrap_or(defaults.running);
        let limits = TaskLimits {
            max,
            running,
            share: TaskShare {
                kept: self.share_kept.unwrap_or((max / 4).max(1)),
                running: self.share_running.unwrap_or((running / 4).max(1)),
            },
            lifetime: self.lifetime.unwrap_or(defaults.lifetime),
            ..defaults
        };
        let zero = [
            limits.max,
            limits.running,
            limits.share.kept,
            limits.share.running,
        ]
        .contains(&0)
            || limits.lifetime.is_zero();
        (!zero).then_some(limits)
    }
}

/// The bounds of a running server; each has a builder setting (listed in `docs/security.md`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Limits {
    /// Notifications waiting per request before logs are dropped (progress merges).
    pub(crate) notification_queue: usize,
    /// The default time limit of host code (tools without their own, readers, prompts,
    /// completers).
    pub(crate) call_time_limit: Option<Duration>,
    /// Requests running at once per connection (stdio): past it, the connection stops reading.
    pub(crate) in_flight: usize,
    /// Messages waiting to be written per connection (stdio): past it, producers wait.
    pub(crate) write_queue: usize,
    /// How long a 2025-11-25 request to the client (elicitation, sampling, roots) may wait.
    pub(crate) ask_time_limit: Duration,
    /// Whether a tool's structured content is checked against its `outputSchema` before it is
    /// sent.
    pub(crate) check_output: bool,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            notification_queue: 64,
            call_time_limit: None,
            in_flight: 64,
            write_queue: 256,
            ask_time_limit: Duration::from_secs(300),
            check_output: cfg!(debug_assertions),
        }
    }
}

impl ServerBuilder {
    /// The name in `serverInfo` (default `beam_mcp`).
    pub fn name(mut self, name: impl Into<String>) -> Self {
        self.name = Some(name.into());
        self
    }

    /// The version in `serverInfo` (default: this crate's version).
    pub fn version(mut self, version: impl Into<String>) -> Self {
        self.version = Some(version.into());
        self
    }

    /// A human display name in `serverInfo` (its `title`), where the name is a program's.
    ///
    /// ```
    /// let server = beam_mcp::Server::builder()
    ///     .name("weather")
    ///     .title("Weather")
    ///     .description("Forecasts for any place.")
    ///     .website_url("https://example.com/weather")
    ///     .icon(beam_mcp::Icon::url("https://example.com/weather.svg").with_sizes(&["any"]))
    ///     .build()
    ///     .unwrap();
    /// # let _ = server;
    /// ```
    pub fn title(mut self, title: impl Into<String>) -> Self {
        self.presentation.title = Some(title.into());
        self
    }

    /// What the server is, for a person (`serverInfo.description`); the model's guidance goes
    /// in [`instructions`](Self::instructions).
    pub fn description(mut self, description: impl Into<String>) -> Self {
        self.presentation.description = Some(description.into());
        self
    }

    /// The server's web page (`serverInfo.websiteUrl`): an `https:` (or `http:`) URL, checked
    /// at `build()`.
    pub fn website_url(mut self, url: impl Into<String>) -> Self {
        self.presentation.website_url = Some(url.into());
        self
    }

    /// Adds an icon to `serverInfo.icons` ([`icon!`](crate::icon!) embeds a file of the crate).
    pub fn icon(mut self, icon: crate::icon::Icon) -> Self {
        self.presentation.icons.push(icon);
        self
    }

    /// Guidance for the model, sent in `server/discover` and `initialize`.
    pub fn instructions(mut self, instructions: impl Into<String>) -> Self {
        self.instructions = Some(instructions.into());
        self
    }

    /// The revisions served, in advertised order (default: 2026-07-28, then 2025-11-25).
    pub fn supported_versions(mut self, revisions: impl IntoIterator<Item = Revision>) -> Self {
        self.revisions = Some(revisions.into_iter().collect());
        self
    }

    /// Adds one tool.
    pub fn tool(mut self, def: ToolDef) -> Self {
        self.definitions.tools.push(def);
        self
    }

    /// Adds one resource or URI template.
    pub fn resource(mut self, def: ResourceDef) -> Self {
        self.definitions.resources.push(def);
        self
    }

    /// Adds one prompt.
    pub fn prompt(mut self, def: PromptDef) -> Self {
        self.definitions.prompts.push(def);
        self
    }

    /// Adds skills (the Skills extension): [`skills!`](crate::skills!) embeds a folder of them.
    /// The server then declares `io.modelcontextprotocol/skills` (with `directoryRead`) and
    /// `resources`, and serves `skills/list`, `skills/get`, `resources/directory/read` and every
    /// file of every skill through `resources/read`, at both revisions.
    ///
    /// ```
    /// use beam_mcp::skill::{SkillDef, SkillFile};
    /// const SKILL: SkillDef = SkillDef::new(
    ///     "hello",
    ///     r#"{"name":"hello","description":"Greets."}"#,
    ///     &[SkillFile::new("SKILL.md", b"---\nname: hello\ndescription: Greets.\n---\n", "text/markdown")],
    /// );
    /// let server = beam_mcp::Server::builder().skills(&[SKILL]).build().unwrap();
    /// # let _ = server;
    /// ```
    pub fn skills(mut self, skills: &[crate::skill::SkillDef]) -> Self {
        self.definitions.skills.extend_from_slice(skills);
        self.definitions.skills_declared = true;
        self
    }

    /// Adds several tools: a `#[beam_mcp::items]` impl block's `TOOLS`, for one.
    ///
    /// ```
    /// #[derive(Clone)]
    /// struct Counter {
    ///     start: u64,
    /// }
    ///
    /// #[beam_mcp::items]
    /// impl Counter {
    ///     /// Counts from the start.
    ///     #[tool]
    ///     fn next(&self, step: u64) -> String {
    ///         (self.start + step).to_string()
    ///     }
    /// }
    ///
    /// let server = beam_mcp::Server::builder()
    ///     .tools(Counter::TOOLS)
    ///     .state(Counter { start: 10 })
    ///     .build()
    ///     .unwrap();
    /// # let _ = server;
    /// ```
    pub fn tools(mut self, defs: &[ToolDef]) -> Self {
        self.definitions.tools.extend_from_slice(defs);
        self
    }

    /// Adds several resources (an impl block's `RESOURCES`).
    pub fn resources(mut self, defs: &[ResourceDef]) -> Self {
        self.definitions.resources.extend_from_slice(defs);
        self
    }

    /// Adds several prompts (an impl block's `PROMPTS`).
    pub fn prompts(mut self, defs: &[PromptDef]) -> Self {
        self.definitions.prompts.extend_from_slice(defs);
        self
    }

    /// Adds every `#[tool]`, `#[resource]` and `#[prompt]` declared in the crate of
    /// `module_path` outside a named catalog (what `serve!` does with its own
    /// `module_path!()`, before it mounts each named catalog under its name).
    pub fn crate_items(self, module_path: &str) -> Self {
        self.registered(module_path, None)
    }

    /// Adds the items declared in the crate of `module_path` with `catalog = "{catalog}"`
    /// (`#[tool(catalog = "notes")]`): a named catalog, to [`mount`](Self::mount). Mounted
    /// under its own name, its names were checked for clashes at compile time; under another
    /// prefix, `build()` checks them.
    ///
    /// ```
    /// /// Finds a note.
    /// #[beam_mcp::tool(catalog = "notes")]
    /// fn search(text: String) -> String { text }
    ///
    /// let notes = beam_mcp::Server::builder().crate_catalog(module_path!(), "notes");
    /// let server = beam_mcp::Server::builder().mount("notes", notes).build().unwrap();
    /// # let _ = server;
    /// ```
    pub fn crate_catalog(self, module_path: &str, catalog: &str) -> Self {
        self.registered(module_path, Some(catalog))
    }

    /// The registered items of `module_path`'s crate in `catalog` (`None`: in none).
    fn registered(mut self, module_path: &str, catalog: Option<&str>) -> Self {
        let krate = crate_of(module_path);
        let ours = |path: &str, of: Option<&str>| crate_of(path) == krate && of == catalog;
        let defs = &mut self.definitions;
        let registered = &crate::__private_v0_1::TOOLS;
        defs.tools
            .extend(registered.iter().filter(|d| ours(d.module_path, d.catalog)));
        let registered = &crate::__private_v0_1::RESOURCES;
        defs.resources
            .extend(registered.iter().filter(|d| ours(d.module_path, d.catalog)));
        let registered = &crate::__private_v0_1::PROMPTS;
        defs.prompts
            .extend(registered.iter().filter(|d| ours(d.module_path, d.catalog)));
        self
    }

    /// Mounts every named catalog declared in the crate of `module_path` under its own name
    /// (what `serve!` does): the mounts whose names the macros checked for clashes at compile
    /// time.
    ///
    /// ```
    /// /// Finds a note.
    /// #[beam_mcp::tool(catalog = "notes")]
    /// fn search(text: String) -> String { text }
    ///
    /// /// Finds a file.
    /// #[beam_mcp::tool(name = "search", catalog = "files")]
    /// fn search_files(text: String) -> String { text }
    ///
    /// let server = beam_mcp::Server::builder()
    ///     .crate_items(module_path!())
    ///     .mount_crate_catalogs(module_path!())
    ///     .build()
    ///     .unwrap(); // serves notes_search and files_search
    /// # let _ = server;
    /// ```
    pub fn mount_crate_catalogs(mut self, module_path: &str) -> Self {
        let krate = crate_of(module_path);
        let tools = crate::__private_v0_1::TOOLS
            .iter()
            .map(|d| (d.module_path, d.catalog));
        let resources = crate::__private_v0_1::RESOURCES
            .iter()
            .map(|d| (d.module_path, d.catalog));
        let prompts = crate::__private_v0_1::PROMPTS
            .iter()
            .map(|d| (d.module_path, d.catalog));
        let mut names: Vec<&'static str> = tools
            .chain(resources)
            .chain(prompts)
            .filter(|(path, _)| crate_of(path) == krate)
            .filter_map(|(_, catalog)| catalog)
            .collect();
        names.sort_unstable();
        names.dedup();
        for name in names {
            let catalog = Server::builder().crate_catalog(module_path, name);
            self = self.mount(name, catalog);
        }
        self
    }

    /// Mounts `other`'s catalog under `prefix`: its tools and prompts are served as
    /// `{prefix}_{name}`, its resources and templates as `scheme://{prefix}/{rest}`, each with
    /// its schemas, annotations, tags, scopes, completions and handler unchanged; a tool's
    /// view moves with its resource. `other`'s host state joins this server's (a type given
    /// to both is refused: give it once, here). `other` may mount catalogs of its own.
    ///
    /// Checked by `build()` ([`BuildError::Mount`]): the prefix (1 to 32 ASCII letters, digits,
    /// `_` or `-`, starting with a letter); a name or URI shared by two sources once mounted,
    /// named both; and a setting that belongs to a whole server given to `other` (middleware,
    /// a rate limit, telemetry, an observer, a declared connectome, the connectome surface, a
    /// live catalog, a fan-out, a task share, skills, supported versions or `requestState`
    /// keys), which the mount would drop: give it here. `other`'s name, version, instructions,
    /// caches, page size and limits are not kept: this server's hold.
    ///
    /// A middleware sees a mounted item's name here and its origin
    /// ([`Item::origin`](crate::middleware::Item::origin)).
    ///
    /// ```
    /// /// Finds a note.
    /// #[beam_mcp::tool]
    /// fn search(text: String) -> String { text }
    ///
    /// let notes = beam_mcp::Server::builder().tool(search::DEF);
    /// let files = beam_mcp::Server::builder().tool(search::DEF);
    /// let server = beam_mcp::Server::builder()
    ///     .mount("notes", notes)
    ///     .mount("files", files)
    ///     .build()
    ///     .unwrap(); // serves notes_search and files_search
    /// # let _ = server;
    ///
    /// let clash = beam_mcp::Server::builder()
    ///     .tool(search::DEF.with_name("notes_search"))
    ///     .mount("notes", beam_mcp::Server::builder().tool(search::DEF))
    ///     .build()
    ///     .unwrap_err();
    /// assert!(clash.to_string().starts_with(
    ///     "tool \"notes_search\" is declared twice once mounted: by the server's own tool \"notes_search\""
    /// ));
    /// ```
    pub fn mount(self, prefix: impl Into<String>, other: ServerBuilder) -> Self {
        self.mount_as(prefix.into(), other, false)
    }

    /// [`mount`](Self::mount), keeping resource and template URIs as they are (their schemes
    /// are distinct already, or a client must read them by their own URIs); a URI that clashes
    /// is refused by `build()`.
    ///
    /// ```
    /// /// Today's note.
    /// #[beam_mcp::resource("notes://today")]
    /// fn today() -> String { "nothing yet".into() }
    ///
    /// let notes = beam_mcp::Server::builder().resource(today::DEF);
    /// let server = beam_mcp::Server::builder()
    ///     .mount_keeping_uris("notes", notes)
    ///     .build()
    ///     .unwrap(); // serves notes://today
    /// # let _ = server;
    /// ```
    pub fn mount_keeping_uris(self, prefix: impl Into<String>, other: ServerBuilder) -> Self {
        self.mount_as(prefix.into(), other, true)
    }

    /// Mounts `definitions` (a remote's view, read from its listings) under `prefix`, makes
    /// the catalog live, and tells `on_live` the live catalog once the server is built.
    #[cfg(feature = "client")]
    pub(crate) fn mount_view(
        mut self,
        prefix: &str,
        definitions: crate::catalog::Definitions,
        on_live: impl FnOnce(&Arc<Live>) + Send + Sync + 'static,
    ) -> Self {
        self.mounts.push(crate::mount::Mounted {
            prefix: prefix.to_owned(),
            keep_uris: false,
            catalog: Ok((definitions, StateMap::default())),
        });
        self.live.get_or_insert_with(LiveCatalog::default);
        self.on_live.push(Box::new(on_live));
        self
    }

    /// The host state of type `T` given so far.
    #[cfg(feature = "client")]
    pub(crate) fn state_of<T: Clone + Send + Sync + 'static>(&self) -> Option<T> {
        self.states.get::<T>().cloned()
    }

    fn mount_as(mut self, prefix: String, other: ServerBuilder, keep_uris: bool) -> Self {
        let catalog = other.into_mounted(&prefix);
        self.mounts.push(crate::mount::Mounted {
            prefix,
            keep_uris,
            catalog,
        });
        self
    }

    /// This builder's catalog as a mount under `prefix` takes it: its own mounts applied, or
    /// the whole-server setting it cannot keep.
    fn into_mounted(
        mut self,
        prefix: &str,
    ) -> Result<(crate::catalog::Definitions, StateMap), crate::mount::MountError> {
        let refused = |setting| crate::mount::MountError::ServerSetting {
            prefix: prefix.to_owned(),
            setting,
        };
        #[cfg(feature = "otel")]
        if self.telemetry.is_some() {
            return Err(refused("telemetry"));
        }
        let settings: [(bool, &'static str); 12] = [
            (!self.middleware.is_empty(), "middleware"),
            (self.rate_limit.is_some(), "a rate limit"),
            (self.definitions.observer.is_some(), "an observer"),
            (self.declared.is_some(), "a declared connectome"),
            (
                self.connectome_resources || self.connectome_tool,
                "the connectome surface",
            ),
            (self.live.is_some(), "a live catalog"),
            (self.fanout.is_some(), "a fan-out"),
            (self.task_share.is_some(), "a task share"),
            (self.definitions.skills_declared, "skills"),
            (self.revisions.is_some(), "supported versions"),
            (
                self.state_key.is_some() || self.previous_state_key.is_some(),
                "requestState keys",
            ),
            (self.state_lifetime.is_some(), "a requestState lifetime"),
        ];
        if let Some((_, setting)) = settings.into_iter().find(|(given, _)| *given) {
            return Err(refused(setting));
        }
        #[cfg(feature = "client")]
        if !self.on_live.is_empty() {
            return Err(refused("a remote mount"));
        }
        let mounts = std::mem::take(&mut self.mounts);
        crate::mount::apply(&mut self.definitions, &mut self.states, mounts)?;
        Ok((self.definitions, self.states))
    }

    /// Counts calls per catalog item into `observer`'s observed connectome once it is
    /// [started](crate::connectome::Observer::start); see [`Observer`](crate::connectome::Observer).
    pub fn observer(mut self, observer: crate::connectome::Observer) -> Self {
        self.definitions.observer = Some(observer);
        self
    }

    /// The declared connectome the host's build step emitted (`beam_mcp_build`), as
    /// [`declared_connectome!`](crate::declared_connectome) includes it. At
    /// [`build`](Self::build) it must read as a canonical graph emitted for this server's name.
    ///
    /// ```ignore
    /// let server = Server::builder()
    ///     .name("weather")
    ///     .declared_connectome(beam_mcp::declared_connectome!())
    ///     .connectome_resources()
    ///     .build()?;
    /// ```
    pub fn declared_connectome(mut self, bytes: &'static [u8]) -> Self {
        self.declared = Some(bytes);
        self
    }

    /// Adds three read-only resources, `connectome://declared`, `connectome://observed` and
    /// `connectome://diff` (the diff of the two over the observer's window), each answering
    /// the canonical bytes. Reading one the server cannot answer (no declared connectome, no
    /// started [`observer`](Self::observer)) is "not found" with the reason.
    pub fn connectome_resources(mut self) -> Self {
        self.connectome_resources = true;
        self
    }

    /// Adds the read-only tool `connectome`: `{"graph": "declared" | "observed" | "diff"}` in,
    /// `{graph, bytes, <algorithm>: hex}` out: the bytes verbatim, their digest under the name of
    /// the declared file's algorithm (`sha256` unless the build step chose another). For hosts whose clients use tools only.
    pub fn connectome_tool(mut self) -> Self {
        self.connectome_tool = true;
        self
    }

    /// Host state that tools take as [`State<T>`](crate::State); one value per type.
    pub fn state<T: Clone + Send + Sync + 'static>(mut self, value: T) -> Self {
        self.states.insert(value);
        self
    }

    /// Caching hints for `server/discover` (default 0 / private).
    pub fn discover_cache(mut self, hint: CacheHint) -> Self {
        self.discover_cache = hint;
        self
    }

    /// Caching hints for `tools/list` (default 0 / private).
    pub fn tools_cache(mut self, hint: CacheHint) -> Self {
        self.tools_cache = hint;
        self
    }

    /// Caching hints for `resources/list`, `resources/templates/list` and `resources/read`
    /// (default 0 / private).
    pub fn resources_cache(mut self, hint: CacheHint) -> Self {
        self.resources_cache = hint;
        self
    }

    /// Caching hints for `prompts/list` (default 0 / private).
    pub fn prompts_cache(mut self, hint: CacheHint) -> Self {
        self.prompts_cache = hint;
        self
    }

    /// The form of the tools' input schemas every client is shown and checked against
    /// (default [`SchemaProfile::Portable`]), unless [`client_schema_profile`] names it.
    /// Each form is derived once, when the catalog is built.
    ///
    /// [`client_schema_profile`]: Self::client_schema_profile
    ///
    /// ```
    /// use beam_mcp::SchemaProfile;
    /// let server = beam_mcp::Server::builder().schema_profile(SchemaProfile::Strict).build().unwrap();
    /// # let _ = server;
    /// ```
    pub fn schema_profile(mut self, profile: SchemaProfile) -> Self {
        self.definitions.profiles.default = profile;
        self
    }

    /// The form of the tools' input schemas shown to the client whose `clientInfo.name` is
    /// exactly `client_name` (from `initialize` at 2025-11-25, from each request's `_meta` at
    /// 2026-07-28), and checked against for it. A name is a claim, not an identity: a client
    /// may send any name, and every form is as safe as the next (the arguments always meet the
    /// schema the client was shown, and then serde). A later call for the same name replaces
    /// the earlier.
    ///
    /// ```
    /// use beam_mcp::SchemaProfile;
    /// let server = beam_mcp::Server::builder()
    ///     .client_schema_profile("gemini-cli", SchemaProfile::Flat)
    ///     .build()
    ///     .unwrap();
    /// # let _ = server;
    /// ```
    pub fn client_schema_profile(
        mut self,
        client_name: impl Into<String>,
        profile: SchemaProfile,
    ) -> Self {
        let name = client_name.into();
        let by_client = &mut self.definitions.profiles.by_client;
        by_client.retain(|(n, _)| *n != name);
        by_client.push((name, profile));
        self
    }

    /// Items per page of a list (default 50).
    pub fn page_size(mut self, size: usize) -> Self {
        self.page_size = Some(size);
        self
    }

    /// Notifications (progress, logs) that may wait per request while the client reads
    /// (default 64). At the bound a progress update replaces the waiting one; a log is dropped
    /// and counted.
    pub fn notification_queue(mut self, messages: usize) -> Self {
        self.limits.notification_queue = messages;
        self
    }

    /// The time limit of host code (default: none): a tool call whose tool sets none, a
    /// resource read, a prompt and a completion. An overrunning call is answered as an `isError`
    /// result naming the limit; the others as `-32603`. The future is dropped.
    pub fn call_time_limit(mut self, limit: Duration) -> Self {
        self.limits.call_time_limit = Some(limit);
        self
    }

    /// Requests one connection may have running at once (default 64). At the bound a stdio
    /// server stops reading until one finishes, so a client that never reads its answers
    /// cannot grow the server's memory.
    pub fn max_in_flight(mut self, requests: usize) -> Self {
        self.limits.in_flight = requests;
        self
    }

    /// Messages waiting to be written on one connection (default 256); producers wait past it.
    pub fn write_queue(mut self, messages: usize) -> Self {
        self.limits.write_queue = messages;
        self
    }

    /// Whether a tool's structured content is checked against its advertised `outputSchema`
    /// before it is sent (default: on in debug builds, so in tests, and off in release). The
    /// spec makes conforming output a MUST; content built from the same Rust type conforms by
    /// construction, so the check finds a host's hand-built `CallToolResult` or a type whose
    /// `Serialize` and `JsonSchema` disagree. A mismatch is answered as an `isError` result
    /// naming it (and logged), never sent.
    ///
    /// ```
    /// let server = beam_mcp::Server::builder().check_structured_output(true).build().unwrap();
    /// # let _ = server;
    /// ```
    pub fn check_structured_output(mut self, check: bool) -> Self {
        self.limits.check_output = check;
        self
    }

    /// How long host code waits for the client to answer an ask on a 2025-11-25 session
    /// (default 5 minutes: elicitation waits on a person); past it the ask returns
    /// `AskError::TimedOut`. At 2026-07-28 an ask ends the round instead, and nothing waits.
    pub fn ask_time_limit(mut self, limit: Duration) -> Self {
        self.limits.ask_time_limit = limit;
        self
    }

    /// Makes the catalog live: the returned handle adds, replaces and removes items while the
    /// server runs, and signals resource updates. The server then advertises `listChanged:
    /// true` for tools, resources and prompts (served even while a list is empty) and
    /// resource subscriptions, and serves `subscriptions/listen` (2026-07-28) and
    /// `resources/subscribe` (2025-11-25). Give the handle to tools as state, if they change
    /// the catalog: `builder.state(handle.clone())`.
    pub fn live(mut self) -> (Self, LiveCatalog) {
        let handle = self.live.get_or_insert_with(LiveCatalog::default).clone();
        (self, handle)
    }

    /// Carries the live catalog's changes to the other replicas behind a balancer, and theirs
    /// here: a change made on one replica reaches the listen streams and legacy sessions of all
    /// of them, exactly once (see [`fanout`](crate::fanout)). Needs [`live`](Self::live);
    /// the Redis engine brings one (`redis::Redis::fanout`, feature `redis`).
    pub fn fanout(mut self, fanout: impl crate::fanout::Fanout) -> Self {
        self.fanout = Some(Arc::new(fanout));
        self
    }

    /// Shares this server's tasks with the other replicas behind a balancer: a task created on
    /// one is read (`tasks/get`), answered (`tasks/update`) and cancelled (`tasks/cancel`)
    /// through any of them, and its result is there. The replica that created a task runs it;
    /// the others read its copy in the store and relay answers and cancellations to it. The
    /// Redis engine brings one (`redis::Redis::tasks`, feature `redis`).
    pub fn task_share(mut self, share: impl crate::store::TaskShare) -> Self {
        self.task_share = Some(Arc::new(share));
        self
    }

    /// The key that seals a multi-round-trip `requestState` (HMAC-SHA256; at least 32 bytes).
    /// The default is random per process, so a state does not survive a restart: replicas
    /// behind a balancer must share one key, from the host's secret store.
    ///
    /// ```
    /// let server = beam_mcp::Server::builder()
    ///     .request_state_key(*b"a 32-byte secret from the vault!")
    ///     .build()
    ///     .unwrap();
    /// # let _ = server;
    /// ```
    pub fn request_state_key(mut self, key: impl Into<Vec<u8>>) -> Self {
        self.state_key = Some(key.into());
        self
    }

    /// The key before the current one, still accepted (never used to seal) while states it
    /// sealed may be in flight: set it for one state lifetime after a rotation.
    pub fn previous_request_state_key(mut self, key: impl Into<Vec<u8>>) -> Self {
        self.previous_state_key = Some(key.into());
        self
    }

    /// How long a multi-round request's `requestState` is accepted, counted from the first
    /// round (default 10 minutes): later rounds carry the first round's expiry, so all the
    /// rounds of one request end within it and an answer cannot be carried on for ever.
    pub fn request_state_lifetime(mut self, lifetime: Duration) -> Self {
        self.state_lifetime = Some(lifetime);
        self
    }

    /// Rate-limits what runs host code per caller (default: none): `tools/call`,
    /// `resources/read`, `prompts/get` and `completion/complete`. The check runs once the
    /// request is valid (the tool or prompt is listed and its arguments pass, the URI is served)
    /// and before host code runs; a refusal is the JSON-RPC error `-31429` with
    /// `data.retryAfterMs`. Callers are told apart by their principal's digest (what
    /// `authorize` returned); callers without one share a key.
    ///
    /// There is no default: over stdio the one caller is the process that started the server,
    /// and over HTTP only the host knows what its callers may afford. An HTTP host facing
    /// callers it does not trust should set one; [`TokenBucket`](crate::limit::TokenBucket)
    /// is a bounded default.
    ///
    /// ```
    /// use beam_mcp::limit::TokenBucket;
    /// let server = beam_mcp::Server::builder()
    ///     .rate_limit(TokenBucket::per_second(10).burst(20))
    ///     .build()
    ///     .unwrap();
    /// # let _ = server;
    /// ```
    pub fn rate_limit(mut self, limit: impl RateLimit) -> Self {
        self.rate_limit = Some(Arc::new(limit));
        self
    }

    /// Adds a [`Middleware`](crate::middleware::Middleware) around every request, inside the
    /// ones added before it: the first added sees each request first and its outcome last.
    /// The order is the same on every transport and at both revisions. A server with none
    /// takes the core's path at no cost.
    ///
    /// ```
    /// use beam_mcp::middleware;
    ///
    /// let server = beam_mcp::Server::builder()
    ///     .middleware(middleware::from_fn(|call, next| async move {
    ///         let started = std::time::Instant::now();
    ///         let method = call.method().to_owned();
    ///         let outcome = next.run(call).await;
    ///         tracing::info!(%method, elapsed_us = started.elapsed().as_micros() as u64, "answered");
    ///         outcome
    ///     }))
    ///     .build()
    ///     .unwrap();
    /// # let _ = server;
    /// ```
    pub fn middleware(mut self, middleware: impl crate::middleware::Middleware) -> Self {
        self.middleware.push(Arc::new(middleware));
        self
    }

    /// Reports through OpenTelemetry (the `otel` feature): a span per request and
    /// notification, and the operation and session duration histograms, by the semantic
    /// conventions for MCP. Its middleware is the outermost, whenever it is added, so its span
    /// covers the host's middleware too.
    ///
    /// ```
    /// use opentelemetry::metrics::noop::NoopMeterProvider;
    /// use opentelemetry::trace::noop::NoopTracerProvider;
    ///
    /// let telemetry =
    ///     beam_mcp::telemetry::Telemetry::new(&NoopTracerProvider::new(), &NoopMeterProvider::new());
    /// let server = beam_mcp::Server::builder().telemetry(telemetry).build().unwrap();
    /// # let _ = server;
    /// ```
    #[cfg(feature = "otel")]
    pub fn telemetry(mut self, telemetry: crate::telemetry::Telemetry) -> Self {
        self.telemetry = Some(telemetry);
        self
    }

    /// The most tasks kept at once, running or ended within their 5 minutes of readability
    /// (default 1000); past it a call that would become a task is `-32603` "Too many tasks:
    /// try again later". One principal keeps at most a quarter of them unless
    /// [`max_tasks_per_principal`](Self::max_tasks_per_principal) says otherwise.
    ///
    /// ```
    /// let server = beam_mcp::Server::builder().max_tasks(200).build().unwrap();
    /// # let _ = server;
    /// ```
    pub fn max_tasks(mut self, tasks: usize) -> Self {
        self.tasks.max = Some(tasks);
        self
    }

    /// The most tasks running at once, host code working or waiting on its client (default
    /// 64): tasks are answered at once and run on, so they have an in-flight bound of their
    /// own. One principal runs at most a quarter of them unless
    /// [`max_running_tasks_per_principal`](Self::max_running_tasks_per_principal) says
    /// otherwise.
    ///
    /// ```
    /// let server = beam_mcp::Server::builder().max_running_tasks(16).build().unwrap();
    /// # let _ = server;
    /// ```
    pub fn max_running_tasks(mut self, tasks: usize) -> Self {
        self.tasks.running = Some(tasks);
        self
    }

    /// The most tasks one principal keeps at once (default: a quarter of
    /// [`max_tasks`](Self::max_tasks)). Principals are what `authorize` returned; the
    /// anonymous `()` and stdio's one caller are held to the bound alone.
    ///
    /// ```
    /// let server = beam_mcp::Server::builder().max_tasks_per_principal(10).build().unwrap();
    /// # let _ = server;
    /// ```
    pub fn max_tasks_per_principal(mut self, tasks: usize) -> Self {
        self.tasks.share_kept = Some(tasks);
        self
    }

    /// The most tasks one principal runs at once (default: a quarter of
    /// [`max_running_tasks`](Self::max_running_tasks)).
    ///
    /// ```
    /// let server = beam_mcp::Server::builder()
    ///     .max_running_tasks_per_principal(4)
    ///     .build()
    ///     .unwrap();
    /// # let _ = server;
    /// ```
    pub fn max_running_tasks_per_principal(mut self, tasks: usize) -> Self {
        self.tasks.share_running = Some(tasks);
        self
    }

    /// How long a task may run (default 1 hour); past it, it is cancelled (its host code
    /// dropped, its status `cancelled`) rather than kept running.
    ///
    /// ```
    /// use std::time::Duration;
    /// let server = beam_mcp::Server::builder()
    ///     .task_lifetime(Duration::from_secs(600))
    ///     .build()
    ///     .unwrap();
    /// # let _ = server;
    /// ```
    pub fn task_lifetime(mut self, lifetime: Duration) -> Self {
        self.tasks.lifetime = Some(lifetime);
        self
    }

    /// Checks the catalog and the options, and builds the server.
    pub fn build(mut self) -> Result<Server, BuildError> {
        let mounts = std::mem::take(&mut self.mounts);
        crate::mount::apply(&mut self.definitions, &mut self.states, mounts)?;
        let task_limits = self.tasks.limits().ok_or(BuildError::ZeroTaskBound)?;
        if self.fanout.is_some() && self.live.is_none() {
            return Err(BuildError::FanoutWithoutLive);
        }
        // Telemetry is the outermost middleware: its span covers the host's.
        #[cfg_attr(not(feature = "otel"), allow(unused_mut))]
        let mut middleware = std::mem::take(&mut self.middleware);
        #[cfg(feature = "otel")]
        if let Some(telemetry) = &self.telemetry {
            middleware.insert(0, Arc::new(telemetry.clone()));
        }
        let revisions = self.revisions.unwrap_or_else(|| Revision::ALL.to_vec());
        if revisions.is_empty() {
            return Err(BuildError::NoRevisions);
        }
        for (i, r) in revisions.iter().enumerate() {
            if revisions[..i].contains(r) {
                return Err(BuildError::RepeatedRevision(*r));
            }
        }
        let page_size = self.page_size.unwrap_or(50);
        if page_size == 0 {
            return Err(BuildError::ZeroPageSize);
        }
        let limits = self.limits;
        if limits.notification_queue == 0 || limits.in_flight == 0 || limits.write_queue == 0 {
            return Err(BuildError::ZeroLimit);
        }
        if limits.call_time_limit.is_some_and(|l| l.is_zero()) || limits.ask_time_limit.is_zero() {
            return Err(BuildError::ZeroLimit);
        }
        let mut state_keys = StateKeys::random();
        for key in [&self.state_key, &self.previous_state_key]
            .into_iter()
            .flatten()
        {
            if key.len() < 32 {
                return Err(BuildError::ShortStateKey(key.len()));
            }
        }
        if let Some(key) = self.state_key {
            state_keys.current = key;
        }
        state_keys.previous = self.previous_state_key;
        if let Some(lifetime) = self.state_lifetime {
            state_keys.lifetime = lifetime;
        }
        let name = self.name.unwrap_or_else(|| "beam_mcp".into());
        if let Some(observer) = &self.definitions.observer
            && let Some(counted) = observer.server()
            && counted != name
        {
            return Err(BuildError::ObserverOfAnotherServer {
                observer: counted.to_owned(),
                server: name,
            });
        }
        if self.connectome_resources {
            self.definitions
                .resources
                .extend(connectome::wire::resources());
        }
        if self.connectome_tool {
            self.definitions.tools.push(connectome::wire::tool());
        }
        // Checked against every item linked, the surface's own included (hand-built).
        let declared = match self.declared {
            Some(bytes) => Some(Arc::new(
                Declared::read(bytes, &name)?.agree(&self.definitions, &name)?,
            )),
            None => None,
        };
        if self.connectome_resources || self.connectome_tool {
            self.states.insert(Surface {
                declared: declared.clone(),
                observer: self.definitions.observer.clone(),
            });
        }
        let defs = &self.definitions;
        let emits = defs.tools.iter().any(|d| d.takes_context)
            || defs.resources.iter().any(|d| d.takes_context)
            || defs.prompts.iter().any(|d| d.takes_context);
        let catalog = Arc::new(Catalog::build(&self.definitions, &self.states)?);
        let states = Arc::new(self.states);
        let live = self.live.is_some();
        let version = self
            .version
            .unwrap_or_else(|| env!("CARGO_PKG_VERSION").into());
        let (info, brief_info) = self.presentation.implementations(&name, &version)?;
        let mut capabilities = Map::new();
        // Advertised exactly when served: a method of a kind the catalog lacks is -32601. A
        // live catalog may gain any kind of item, so it serves every kind from the start.
        if live || !catalog.tools().is_empty() {
            capabilities.insert("tools".into(), json!({ "listChanged": live }));
        }
        let skills = defs.skills_declared;
        if live || skills || !catalog.resources().is_empty() || !catalog.templates().is_empty() {
            capabilities.insert(
                "resources".into(),
                json!({ "listChanged": live, "subscribe": live }),
            );
        }
        if live || !catalog.prompts().is_empty() {
            capabilities.insert("prompts".into(), json!({ "listChanged": live }));
        }
        if live || catalog.has_completions() {
            capabilities.insert("completions".into(), json!({}));
        }
        // Advertised exactly when some item can emit (it takes a request context), or may.
        if live || emits {
            capabilities.insert("logging".into(), json!({}));
        }
        // The Skills extension is declared in `extensions` at both revisions, as SEP-2640 says
        // (at 2025-11-25 beside the schema's fields: `docs/wire.md`).
        // MCP Apps asks nothing of the server's capabilities (the client declares it renders
        // views); a server with views declares the extension there too, as SEP-2133 has both
        // sides do, at both revisions like Skills (`docs/wire.md`).
        let mut extensions = Map::new();
        if skills {
            extensions.insert(
                crate::skill::EXTENSION.into(),
                json!({ "directoryRead": true }),
            );
        }
        if crate::catalog::has_views(&catalog) {
            extensions.insert(crate::app::EXTENSION.into(), json!({}));
        }
        if !extensions.is_empty() {
            capabilities.insert("extensions".into(), Value::Object(extensions));
        }
        // The tasks extension exists only at 2026-07-28 (`server/discover`), and only when some
        // tool can become a task.
        let mut discover_capabilities = capabilities.clone();
        if defs
            .tools
            .iter()
            .any(|d| d.task_support != crate::task::TaskSupport::Forbidden)
        {
            let extensions = discover_capabilities
                .entry("extensions")
                .or_insert_with(|| Value::Object(Map::new()));
            if let Value::Object(extensions) = extensions {
                extensions.insert(crate::task::EXTENSION.into(), json!({}));
            }
        }
        if let Some(observer) = &self.definitions.observer {
            observer.bind(&name);
        }
        let schema_profiles = self.definitions.profiles.clone();
        let catalog = match self.live {
            Some(handle) => {
                handle
                    .shared()
                    .bind(self.definitions, Arc::clone(&states), catalog);
                #[cfg(feature = "client")]
                for told in self.on_live {
                    told(handle.shared());
                }
                if let Some(fanout) = self.fanout {
                    handle.shared().connect(fanout);
                }
                CatalogCell::Live(Arc::clone(handle.shared()))
            }
            None => CatalogCell::Fixed(catalog),
        };
        let tasks = Arc::new(Tasks::new(task_limits, self.task_share.clone()));
        if let Some(share) = &self.task_share {
            share.deliver_to(crate::store::TaskDelivery::new(&tasks));
        }
        Ok(Server {
            inner: Arc::new(Inner {
                result_stamp: Stamp::new(Map::from_iter([(
                    META_SERVER_INFO.to_owned(),
                    brief_info,
                )])),
                info,
                instructions: self.instructions,
                supported_names: revisions.iter().map(|r| r.as_str()).collect(),
                revisions,
                serves: Serves::of(&capabilities),
                capabilities: Value::Object(capabilities),
                discover_capabilities: Value::Object(discover_capabilities),
                tasks,
                catalog,
                states,
                discover_cache: self.discover_cache,
                tools_cache: self.tools_cache,
                resources_cache: self.resources_cache,
                prompts_cache: self.prompts_cache,
                page_size,
                limits,
                state_keys,
                declared,
                rate_limit: self.rate_limit,
                middleware: (!middleware.is_empty()).then(|| middleware.into()),
                #[cfg(feature = "otel")]
                telemetry: self.telemetry,
                schema_profiles,
            }),
        })
    }
}

fn crate_of(module_path: &str) -> &str {
    module_path.split("::").next().unwrap_or(module_path)
}

/// A built server: cheap to clone, shared by every transport and request.
///
/// See [`Server::handle`](crate::Server::handle) for the protocol core and
/// [`serve!`](crate::serve) for the one-line `main`.
#[derive(Clone)]
pub struct Server {
    pub(crate) inner: Arc<Inner>,
}

/// The capabilities a server declares, read once: the method table asks on every request.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Serves {
    pub(crate) tools: bool,
    pub(crate) resources: bool,
    pub(crate) prompts: bool,
    pub(crate) completions: bool,
    pub(crate) logging: bool,
}

impl Serves {
    fn of(capabilities: &Map<String, Value>) -> Serves {
        let has = |name| capabilities.contains_key(name);
        Serves {
            tools: has("tools"),
            resources: has("resources"),
            prompts: has("prompts"),
            completions: has("completions"),
            logging: has("logging"),
        }
    }
}

#[derive(Clone)]
pub(crate) struct Inner {
    pub(crate) info: Value,
    /// What every 2026-07-28 result carries.
    pub(crate) result_stamp: Stamp,
    pub(crate) instructions: Option<String>,
    pub(crate) revisions: Vec<Revision>,
    pub(crate) supported_names: Vec<&'static str>,
    pub(crate) capabilities: Value,
    /// What `capabilities` declares, as flags the method table reads on every request.
    pub(crate) serves: Serves,
    /// `capabilities` as `server/discover` says them (with the extensions of 2026-07-28).
    pub(crate) discover_capabilities: Value,
    /// The tasks of task-supporting tools.
    pub(crate) tasks: Arc<Tasks>,
    pub(crate) catalog: CatalogCell,
    pub(crate) states: Arc<StateMap>,
    pub(crate) discover_cache: CacheHint,
    pub(crate) tools_cache: CacheHint,
    pub(crate) resources_cache: CacheHint,
    pub(crate) prompts_cache: CacheHint,
    pub(crate) page_size: usize,
    pub(crate) limits: Limits,
    pub(crate) state_keys: StateKeys,
    /// The declared connectome, when the host gave one.
    pub(crate) declared: Option<Arc<Declared>>,
    /// The rate limit of `tools/call` and `completion/complete`, when the host set one.
    pub(crate) rate_limit: Option<Arc<dyn RateLimit>>,
    /// The host's middleware, outermost first; `None` when there is none.
    pub(crate) middleware: Option<crate::middleware::Chain>,
    /// The OpenTelemetry instruments, when the host gave them (also first in `middleware`).
    #[cfg(feature = "otel")]
    pub(crate) telemetry: Option<crate::telemetry::Telemetry>,
    /// Which form of the tools' input schemas each client is shown.
    pub(crate) schema_profiles: Profiles,
}

/// Where requests find the catalog: fixed at build, or swapped by a live handle.
#[derive(Clone)]
pub(crate) enum CatalogCell {
    Fixed(Arc<Catalog>),
    Live(Arc<Live>),
}

/// A session's clock for telemetry; nothing without the `otel` feature.
#[cfg(feature = "otel")]
#[cfg_attr(
    not(any(feature = "stdio", feature = "http")),
    allow(dead_code, reason = "the transports time their sessions")
)]
pub(crate) type SessionTimer = crate::telemetry::SessionTimer;
/// A session's clock for telemetry; nothing without the `otel` feature.
#[cfg(not(feature = "otel"))]
#[cfg_attr(
    not(any(feature = "stdio", feature = "http")),
    allow(dead_code, reason = "the transports time their sessions")
)]
pub(crate) type SessionTimer = ();

impl Server {
    /// Times a session (a stdio connection, a 2025-11-25 HTTP session) while the timer lives,
    /// when telemetry is on; `agreed` reads, when it ends, the revision its `initialize` agreed.
    #[cfg_attr(not(feature = "otel"), allow(clippy::unused_unit, unused_variables))]
    #[cfg_attr(
        not(any(feature = "stdio", feature = "http")),
        allow(dead_code, reason = "the transports time their sessions")
    )]
    pub(crate) fn time_session(
        &self,
        agreed: impl Fn() -> Option<Revision> + Send + Sync + 'static,
        via: impl FnOnce() -> crate::middleware::Via,
    ) -> Option<SessionTimer> {
        #[cfg(feature = "otel")]
        {
            self.inner
                .telemetry
                .as_ref()
                .map(|telemetry| telemetry.session(Box::new(agreed), via()))
        }
        #[cfg(not(feature = "otel"))]
        {
            None
        }
    }

    /// The scopes the catalog's items declare, each once, in catalog order.
    #[cfg_attr(
        not(feature = "oauth"),
        allow(dead_code, reason = "published by the OAuth resource server")
    )]
    pub(crate) fn item_scopes(&self) -> Vec<String> {
        let catalog = self.catalog();
        let declared = catalog
            .tools()
            .iter()
            .flat_map(|t| t.scopes)
            .chain(catalog.resources().iter().flat_map(|r| r.scopes))
            .chain(catalog.templates().iter().flat_map(|t| t.scopes))
            .chain(catalog.prompts().iter().flat_map(|p| p.scopes));
        let mut scopes: Vec<String> = Vec::new();
        for scope in declared {
            if !scopes.iter().any(|s| s == scope) {
                scopes.push((*scope).to_owned());
            }
        }
        scopes
    }

    /// The catalog as it is now; a request keeps the one it started with.
    pub(crate) fn catalog(&self) -> Arc<Catalog> {
        match &self.inner.catalog {
            CatalogCell::Fixed(catalog) => Arc::clone(catalog),
            CatalogCell::Live(live) => live.current().unwrap_or_default(),
        }
    }

    /// The live catalog's shared state, when the server has one.
    pub(crate) fn live(&self) -> Option<&Arc<Live>> {
        match &self.inner.catalog {
            CatalogCell::Fixed(_) => None,
            CatalogCell::Live(live) => Some(live),
        }
    }

    /// Ends every `subscriptions/listen` stream with its result; what a transport does before
    /// it shuts down. A server without a live catalog has none.
    pub fn close_subscriptions(&self) {
        if let Some(live) = self.live() {
            live.closing().cancel();
        }
    }

    /// A builder with the default options and an empty catalog.
    pub fn builder() -> ServerBuilder {
        ServerBuilder::default()
    }

    /// The catalog items the server links that the declared connectome does not hold (tools,
    /// resources and prompts built by hand, and the connectome surface's own), by node id,
    /// sorted; empty without a declared connectome. Every item the graph declares is linked
    /// (`build()` refuses otherwise); these are recorded rather than reported as drift: the
    /// surface's diff counts their calls as declared.
    ///
    /// ```
    /// let server = beam_mcp::Server::builder().name("srv").connectome_tool().build()?;
    /// assert!(server.hand_built_items().is_empty()); // no declared connectome given
    /// # Ok::<(), beam_mcp::BuildError>(())
    /// ```
    pub fn hand_built_items(&self) -> &[String] {
        self.inner
            .declared
            .as_ref()
            .map_or(&[][..], |d| d.hand_built.as_slice())
    }

    /// The declared connectome given to the builder, as a graph.
    pub fn declared_connectome(&self) -> Option<&crate::connectome::Graph> {
        self.inner.declared.as_ref().map(|d| &d.graph)
    }

    /// The revisions this server serves, in advertised order.
    pub fn revisions(&self) -> &[Revision] {
        &self.inner.revisions
    }

    /// Its `serverInfo` in full (name, version, title, description, icons, website).
    pub(crate) fn info(&self) -> &Value {
        &self.inner.info
    }
}

impl std::fmt::Debug for Server {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Server")
            .field("info", &self.inner.info)
            .field("revisions", &self.inner.revisions)
            .field("tools", &self.catalog().tools().len())
            .finish_non_exhaustive()
    }
}

/// What every 2026-07-28 result carries (`resultType`, and the server's `_meta`), rendered once
/// when the server is built: each answer writes the bytes rather than a clone of the value.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Stamp(Arc<Rendered>);

#[derive(Debug, PartialEq)]
struct Rendered {
    /// The server's `_meta` keys (its serverInfo).
    meta: Map<String, Value>,
    /// `meta` as JSON.
    meta_json: Box<str>,
}

impl Stamp {
    /// The stamp of a server whose results carry `meta` as their `_meta`.
    pub(crate) fn new(meta: Map<String, Value>) -> Stamp {
        let meta_json = Value::Object(meta.clone()).to_string().into_boxed_str();
        Stamp(Arc::new(Rendered { meta, meta_json }))
    }

    /// The server's `_meta` as JSON.
    pub(crate) fn meta_json(&self) -> &str {
        &self.0.meta_json
    }

    /// Stamps `result` in place: `resultType` unless it says one itself, and the server's keys
    /// in its `_meta`, beside any of its own (a listen stream's subscription id).
    pub(crate) fn apply(&self, result: &mut Value) {
        if let Value::Object(map) = result {
            map.entry("resultType")
                .or_insert_with(|| Value::from("complete"));
            match map.entry("_meta") {
                serde_json::map::Entry::Occupied(mut theirs) => {
                    // A key the result has is its own (`server/discover` carries serverInfo in
                    // full, icons and all).
                    if let Value::Object(theirs) = theirs.get_mut() {
                        for (key, value) in &self.0.meta {
                            theirs.entry(key.as_str()).or_insert_with(|| value.clone());
                        }
                    }
                }
                serde_json::map::Entry::Vacant(place) => {
                    place.insert(Value::Object(self.0.meta.clone()));
                }
            }
        }
    }
}

//! MCP Apps (`io.modelcontextprotocol/ui`, SEP-1865; `@modelcontextprotocol/ext-apps` 2.0.4,
//! extension text 2026-01-26): an interactive HTML view a host renders in a sandboxed iframe
//! for a tool. The view is a `ui://` resource of type [`MIME_TYPE`] whose `_meta.ui`
//! ([`AppView`]) tells the host the Content Security Policy and permissions to give it; a tool
//! links to it with [`ToolUi`] (`_meta.ui.resourceUri`) and says who may call it
//! ([`Visibility`]).
//!
//! `#[resource("ui://…", app(...))]` declares a view (its HTML embedded from a file of the
//! crate with `app(html = "assets/view.html")`) and `#[tool(ui = "ui://…")]` links a tool to
//! it; both are checked at compile time, and again by
//! [`ServerBuilder::build`](crate::ServerBuilder::build) for definitions built by hand.
//!
//! ```
//! use beam_mcp::app::{AppView, Csp, Permissions, ToolUi, Visibility};
//!
//! const VIEW: AppView = AppView::NONE
//!     .with_csp(Csp::NONE.with_connect_domains(&["https://api.example.com"]))
//!     .with_permissions(Permissions::NONE.with_clipboard_write(true))
//!     .with_prefers_border(true);
//! assert_eq!(
//!     VIEW.to_value(),
//!     serde_json::json!({
//!         "csp": { "connectDomains": ["https://api.example.com"] },
//!         "permissions": { "clipboardWrite": {} },
//!         "prefersBorder": true,
//!     })
//! );
//! const LINK: ToolUi = ToolUi::new("ui://weather/reading").with_visibility(Visibility::App);
//! assert_eq!(LINK.to_value()["visibility"], serde_json::json!(["app"]));
//! ```

use serde_json::{Map, Value};

/// The extension's identifier, the key of `capabilities.extensions`.
pub const EXTENSION: &str = "io.modelcontextprotocol/ui";

/// The MIME type of a view's HTML.
pub const MIME_TYPE: &str = beam_mcp_rules::APP_MIME_TYPE;

/// The flat key older hosts read a tool's view from (`_meta["ui/resourceUri"]`); written
/// beside `_meta.ui.resourceUri`, as the extension's own server helpers do.
pub const LEGACY_RESOURCE_URI_KEY: &str = "ui/resourceUri";

/// The origins a view may reach, by kind; a host builds the view's Content Security Policy
/// from them (`connect-src` from `connect_domains`, the script, style, image, font and media
/// sources from `resource_domains`, `frame-src` from `frame_domains`, `base-uri` from
/// `base_uri_domains`) and blocks every other. Each is an origin (`https://api.example.com`,
/// `https://*.example.com`).
///
/// ```
/// use beam_mcp::app::Csp;
/// let csp = Csp::NONE.with_resource_domains(&["https://cdn.example.com"]);
/// assert_eq!(csp.to_value(), Some(serde_json::json!({ "resourceDomains": ["https://cdn.example.com"] })));
/// assert_eq!(Csp::NONE.to_value(), None);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub struct Csp {
    /// Origins for `fetch`, XHR and WebSocket (`connect-src`).
    pub connect_domains: &'static [&'static str],
    /// Origins for scripts, styles, images, fonts and media.
    pub resource_domains: &'static [&'static str],
    /// Origins for nested iframes (`frame-src`).
    pub frame_domains: &'static [&'static str],
    /// Origins the document's base URI may be (`base-uri`).
    pub base_uri_domains: &'static [&'static str],
}

impl Csp {
    /// No origin beyond the view's own: the host's restrictive default.
    pub const NONE: Csp = Csp {
        connect_domains: &[],
        resource_domains: &[],
        frame_domains: &[],
        base_uri_domains: &[],
    };

    const_setters! {
        /// Origins for `fetch`, XHR and WebSocket.
        with_connect_domains(connect_domains: &'static [&'static str]) => connect_domains;

        /// Origins for scripts, styles, images, fonts and media.
        with_resource_domains(resource_domains: &'static [&'static str]) => resource_domains;

        /// Origins for nested iframes.
        with_frame_domains(frame_domains: &'static [&'static str]) => frame_domains;

        /// Origins the document's base URI may be.
        with_base_uri_domains(base_uri_domains: &'static [&'static str]) => base_uri_domains;
    }

    /// The `csp` object, or `None` when it names no origin.
    ///
    /// ```
    /// let csp = beam_mcp::app::Csp::NONE.with_frame_domains(&["https://www.youtube.com"]);
    /// assert_eq!(csp.to_value().unwrap()["frameDomains"][0], "https://www.youtube.com");
    /// ```
    pub fn to_value(&self) -> Option<Value> {
        let mut csp = Map::new();
        for (key, domains) in self.fields() {
            if !domains.is_empty() {
                csp.insert(key.into(), Value::from(domains.to_vec()));
            }
        }
        (!csp.is_empty()).then_some(Value::Object(csp))
    }

    fn fields(&self) -> [(&'static str, &'static [&'static str]); 4] {
        [
            ("connectDomains", self.connect_domains),
            ("resourceDomains", self.resource_domains),
            ("frameDomains", self.frame_domains),
            ("baseUriDomains", self.base_uri_domains),
        ]
    }
}

/// The browser features a view asks for; a host may grant them through the iframe's `allow`
/// attribute, and a view must still test for them.
///
/// ```
/// use beam_mcp::app::Permissions;
/// let asked = Permissions::NONE.with_camera(true).with_geolocation(true);
/// assert_eq!(asked.to_value(), Some(serde_json::json!({ "camera": {}, "geolocation": {} })));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub struct Permissions {
    /// The camera.
    pub camera: bool,
    /// The microphone.
    pub microphone: bool,
    /// The device's location.
    pub geolocation: bool,
    /// Writing to the clipboard.
    pub clipboard_write: bool,
}

impl Permissions {
    /// None asked for.
    pub const NONE: Permissions = Permissions {
        camera: false,
        microphone: false,
        geolocation: false,
        clipboard_write: false,
    };

    const_setters! {
        /// Whether it asks for the camera.
        with_camera(camera: bool) => camera;

        /// Whether it asks for the microphone.
        with_microphone(microphone: bool) => microphone;

        /// Whether it asks for the device's location.
        with_geolocation(geolocation: bool) => geolocation;

        /// Whether it asks to write to the clipboard.
        with_clipboard_write(clipboard_write: bool) => clipboard_write;
    }

    /// The `permissions` object (each asked-for feature as `{}`), or `None` when none is.
    ///
    /// ```
    /// let asked = beam_mcp::app::Permissions::NONE.with_microphone(true);
    /// assert_eq!(asked.to_value(), Some(serde_json::json!({ "microphone": {} })));
    /// ```
    pub fn to_value(&self) -> Option<Value> {
        let asked = [
            ("camera", self.camera),
            ("microphone", self.microphone),
            ("geolocation", self.geolocation),
            ("clipboardWrite", self.clipboard_write),
        ];
        let object: Map<String, Value> = asked
            .into_iter()
            .filter(|(_, asked)| *asked)
            .map(|(key, _)| (key.to_owned(), Value::Object(Map::new())))
            .collect();
        (!object.is_empty()).then_some(Value::Object(object))
    }
}

/// What a host needs to render a view: its `_meta.ui` (the CSP origins, the permissions, a
/// dedicated sandbox origin, whether it wants a border). Set on a `ui://` resource with
/// [`ResourceDef::with_app`](crate::resource::ResourceDef::with_app) or `#[resource("ui://…",
/// app(...))]`; the server writes it on the resource's listing and on the content it reads.
///
/// ```
/// use beam_mcp::app::AppView;
/// assert_eq!(AppView::NONE.to_value(), serde_json::json!({}));
/// let framed = AppView::NONE.with_prefers_border(false).with_domain("abc.example-host.com");
/// assert_eq!(framed.to_value(), serde_json::json!({ "domain": "abc.example-host.com", "prefersBorder": false }));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub struct AppView {
    /// The origins the view may reach.
    pub csp: Csp,
    /// The browser features it asks for.
    pub permissions: Permissions,
    /// A dedicated sandbox origin, in the form the host defines.
    pub domain: Option<&'static str>,
    /// Whether it wants the host to draw a border and background (`None`: the host decides).
    pub prefers_border: Option<bool>,
}

impl AppView {
    /// No origin, no permission, the host's sandbox origin and border.
    pub const NONE: AppView = AppView {
        csp: Csp::NONE,
        permissions: Permissions::NONE,
        domain: None,
        prefers_border: None,
    };

    const_setters! {
        /// The origins the view may reach.
        with_csp(csp: Csp) => csp;

        /// The browser features it asks for.
        with_permissions(permissions: Permissions) => permissions;

        /// A dedicated sandbox origin, in the form the host defines.
        with_domain(domain: &'static str) => Some(domain);

        /// Whether it wants the host to draw a border and background.
        with_prefers_border(prefers_border: bool) => Some(prefers_border);
    }

    /// The `_meta.ui` object.
    ///
    /// ```
    /// let view = beam_mcp::app::AppView::NONE.with_prefers_border(true);
    /// assert_eq!(view.to_value(), serde_json::json!({ "prefersBorder": true }));
    /// ```
    pub fn to_value(&self) -> Value {
        let mut ui = Map::new();
        if let Some(csp) = self.csp.to_value() {
            ui.insert("csp".into(), csp);
        }
        if let Some(permissions) = self.permissions.to_value() {
            ui.insert("permissions".into(), permissions);
        }
        if let Some(domain) = self.domain {
            ui.insert("domain".into(), Value::from(domain));
        }
        if let Some(prefers_border) = self.prefers_border {
            ui.insert("prefersBorder".into(), Value::from(prefers_border));
        }
        Value::Object(ui)
    }

    /// Why `build()` refuses it, if it does: an origin that is not one, a domain no host
    /// could mean.
    pub(crate) fn defect(&self) -> Option<String> {
        for (key, domains) in self.csp.fields() {
            for domain in domains {
                if let Err(why) = beam_mcp_rules::csp_source(domain) {
                    return Some(format!("csp {key} {domain:?}: {why}"));
                }
            }
            if let Some(twice) = domains
                .iter()
                .enumerate()
                .find_map(|(i, d)| domains[..i].contains(d).then_some(d))
            {
                return Some(format!("csp {key} names {twice:?} twice"));
            }
        }
        if let Some(domain) = self.domain {
            beam_mcp_rules::app_domain(domain)
                .err()
                .map(|why| format!("domain {domain:?}: {why}"))
        } else {
            None
        }
    }
}

/// Who may call a tool that has a view: the model, the view, or both (the default).
///
/// ```
/// use beam_mcp::app::Visibility;
/// assert_eq!(Visibility::default(), Visibility::ModelAndApp);
/// assert_eq!(Visibility::App.as_slice(), ["app"]);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Visibility {
    /// The model and the view (`["model", "app"]`).
    #[default]
    ModelAndApp,
    /// The model only: a host does not let the view call it (`["model"]`).
    Model,
    /// The view only: a host hides it from the model, and lets only a view of this server
    /// call it (`["app"]`); `tools/list` still lists it.
    App,
}

impl Visibility {
    /// The wire list.
    ///
    /// ```
    /// assert_eq!(beam_mcp::app::Visibility::ModelAndApp.as_slice(), ["model", "app"]);
    /// ```
    pub const fn as_slice(self) -> &'static [&'static str] {
        match self {
            Visibility::ModelAndApp => &["model", "app"],
            Visibility::Model => &["model"],
            Visibility::App => &["app"],
        }
    }
}

/// A tool's link to its view (`_meta.ui`): the `ui://` resource a host renders when the tool
/// is called, and who may call the tool.
///
/// ```
/// use beam_mcp::app::ToolUi;
/// let link = ToolUi::new("ui://weather/reading");
/// assert_eq!(
///     link.to_value(),
///     serde_json::json!({ "resourceUri": "ui://weather/reading", "visibility": ["model", "app"] })
/// );
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct ToolUi {
    /// The view's `ui://` URI: a resource of the same server.
    pub resource_uri: &'static str,
    /// Who may call the tool.
    pub visibility: Visibility,
}

impl ToolUi {
    /// A link to the view at `resource_uri`, callable by the model and the view.
    ///
    /// ```
    /// assert_eq!(beam_mcp::app::ToolUi::new("ui://a/b").resource_uri, "ui://a/b");
    /// ```
    pub const fn new(resource_uri: &'static str) -> Self {
        ToolUi {
            resource_uri,
            visibility: Visibility::ModelAndApp,
        }
    }

    const_setters! {
        /// Who may call the tool.
        with_visibility(visibility: Visibility) => visibility;
    }

    /// The `_meta.ui` object (the visibility always written, so that a host need not know
    /// the default).
    ///
    /// ```
    /// let link = beam_mcp::app::ToolUi::new("ui://a/b");
    /// assert_eq!(link.to_value()["resourceUri"], "ui://a/b");
    /// ```
    pub fn to_value(&self) -> Value {
        serde_json::json!({
            "resourceUri": self.resource_uri,
            "visibility": self.visibility.as_slice(),
        })
    }
}

/// The tool's `_meta`: `ui` and the flat key older hosts read.
pub(crate) fn tool_meta(link: &ToolUi) -> Value {
    let mut meta = Map::new();
    meta.insert("ui".into(), link.to_value());
    meta.insert(
        LEGACY_RESOURCE_URI_KEY.into(),
        Value::from(link.resource_uri),
    );
    Value::Object(meta)
}

/// Whether a client's capabilities say it renders views: `extensions["io.modelcontextprotocol/ui"]
/// .mimeTypes` holds [`MIME_TYPE`].
pub(crate) fn renders_views(capabilities: &Map<String, Value>) -> bool {
    capabilities
        .get("extensions")
        .and_then(|e| e.get(EXTENSION))
        .and_then(|ui| ui.get("mimeTypes"))
        .and_then(Value::as_array)
        .is_some_and(|types| types.iter().any(|t| t.as_str() == Some(MIME_TYPE)))
}

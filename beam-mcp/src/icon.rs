//! Icons a host shows beside the server and its items (`Icon` in both revisions' schemas).

use serde_json::{Map, Value};

/// The background an icon is drawn for.
///
/// ```
/// assert_eq!(beam_mcp::IconTheme::Dark.as_str(), "dark");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum IconTheme {
    /// For a light background.
    Light,
    /// For a dark background.
    Dark,
}

impl IconTheme {
    /// The wire word: `light` or `dark`.
    ///
    /// ```
    /// assert_eq!(beam_mcp::IconTheme::Light.as_str(), "light");
    /// ```
    pub const fn as_str(self) -> &'static str {
        match self {
            IconTheme::Light => "light",
            IconTheme::Dark => "dark",
        }
    }
}

/// One icon: where it is (an `https:` URL or a `data:` URI), its MIME type, the sizes it fits
/// and its theme. `#[tool(icon = "assets/tool.png")]` and [`icon!`](crate::icon!) build one at
/// compile time from a file in the crate, as a `data:` URI with its type and size read from
/// the file; [`Icon::url`] names one served elsewhere.
///
/// ```
/// use beam_mcp::{Icon, IconTheme};
///
/// const LOGO: Icon = Icon::url("https://example.com/logo.svg")
///     .with_mime_type("image/svg+xml")
///     .with_sizes(&["any"])
///     .with_theme(IconTheme::Dark);
/// assert_eq!(
///     LOGO.to_value(),
///     serde_json::json!({
///         "src": "https://example.com/logo.svg",
///         "mimeType": "image/svg+xml",
///         "sizes": ["any"],
///         "theme": "dark",
///     })
/// );
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct Icon {
    /// The icon's URI: `https:` (or `http:`) or `data:`.
    pub src: &'static str,
    /// Its MIME type (`image/png`, `image/svg+xml`, ...), when given.
    pub mime_type: Option<&'static str>,
    /// The sizes it fits (`"48x48"`, or `"any"` for a scalable image); empty when any.
    pub sizes: &'static [&'static str],
    /// The background it is drawn for; `None` for any.
    pub theme: Option<IconTheme>,
}

impl Icon {
    /// An icon at `src`, with no MIME type, sizes or theme; the `with_*` methods set them.
    /// [`ServerBuilder::build`](crate::ServerBuilder::build) refuses a `src` that is not an
    /// `https:`, `http:` or `data:` URI, and sizes not written `WxH` or `any`.
    ///
    /// ```
    /// let icon = beam_mcp::Icon::url("https://example.com/a.png").with_sizes(&["48x48"]);
    /// assert_eq!(icon.sizes, ["48x48"]);
    /// ```
    pub const fn url(src: &'static str) -> Self {
        Icon {
            src,
            mime_type: None,
            sizes: &[],
            theme: None,
        }
    }

    const_setters! {
        /// Its MIME type.
        with_mime_type(mime_type: &'static str) => Some(mime_type);

        /// The sizes it fits: `"48x48"`, or `"any"`.
        with_sizes(sizes: &'static [&'static str]) => sizes;

        /// The background it is drawn for.
        with_theme(theme: IconTheme) => Some(theme);
    }

    /// The icon as the wire spells it.
    ///
    /// ```
    /// let icon = beam_mcp::Icon::url("https://example.com/a.png");
    /// assert_eq!(icon.to_value(), serde_json::json!({ "src": "https://example.com/a.png" }));
    /// ```
    pub fn to_value(&self) -> Value {
        let mut icon = Map::new();
        icon.insert("src".into(), Value::from(self.src));
        if let Some(mime_type) = self.mime_type {
            icon.insert("mimeType".into(), Value::from(mime_type));
        }
        if !self.sizes.is_empty() {
            icon.insert("sizes".into(), Value::from(self.sizes.to_vec()));
        }
        if let Some(theme) = self.theme {
            icon.insert("theme".into(), Value::from(theme.as_str()));
        }
        Value::Object(icon)
    }

    /// Why `build()` refuses this icon, if it does: a `src` that is not an `https:`, `http:`
    /// or `data:` URI, or a size not written `WxH` or `any`.
    pub(crate) fn refusal(&self) -> Option<String> {
        if let Err(why) = beam_mcp_rules::icon_source(self.src) {
            return Some(format!("icon {:?}: {why}", shorten(self.src)));
        }
        if let Some(mime_type) = self.mime_type {
            if let Err(why) = beam_mcp_rules::icon_mime_type(mime_type) {
                return Some(format!("icon {:?}: {why}", shorten(self.src)));
            }
            if let Some(data) = self.src.strip_prefix("data:")
                && !data.starts_with(&format!("{mime_type};"))
            {
                return Some(format!(
                    "icon {:?}: its mime_type {mime_type} is not the type of its data: URI",
                    shorten(self.src)
                ));
            }
        }
        self.sizes.iter().find_map(|size| {
            beam_mcp_rules::icon_size(size)
                .err()
                .map(|why| format!("icon {:?}: {why}", shorten(self.src)))
        })
    }
}

/// A `data:` URI cut to its start, for a message.
fn shorten(src: &str) -> &str {
    match src.char_indices().nth(48) {
        Some((end, _)) => &src[..end],
        None => src,
    }
}

/// The `icons` array of a listing entry, when there are icons.
pub(crate) fn insert_icons(entry: &mut Map<String, Value>, icons: &[Icon]) {
    if !icons.is_empty() {
        let icons = icons.iter().map(Icon::to_value).collect();
        entry.insert("icons".into(), Value::Array(icons));
    }
}

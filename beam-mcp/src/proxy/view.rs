//! A remote's four lists turned into definitions this server serves: each name, description
//! and schema kept as the remote listed it, each handler a relay. The texts live as long as
//! the definitions that hold them (`&'static`), so they are made `'static` through one
//! bounded store: a remote that renames its items without end stops being refreshed when the
//! store is full, and never grows this process's memory past [`TEXT_BUDGET`].

use std::collections::{HashMap, HashSet};
use std::sync::{LazyLock, Mutex};

use beam_mcp_rules::UriTemplate;
use serde_json::Value;

use crate::annotations::Annotations;
use crate::app::{AppView, ToolUi, Visibility};
use crate::catalog::Definitions;
use crate::completion::{Completion, CompletionDef, CompletionRequest};
use crate::prompt::{PromptArgument, PromptDef};
use crate::resource::ResourceDef;
use crate::tool::{ToolAnnotations, ToolDef};

/// The most bytes of remote texts (names, descriptions, schemas) this process keeps, over all
/// its remotes and all their refreshes; a text already kept costs nothing again.
pub const TEXT_BUDGET: usize = 16 * 1024 * 1024;

/// The most items of each kind one remote may list.
pub const MAX_ITEMS: usize = 1_000;

/// The texts made `'static` so far, and their bytes.
struct Texts {
    strings: HashSet<&'static str>,
    schemas: HashMap<String, &'static (Value, Option<Value>)>,
    bytes: usize,
}

static TEXTS: LazyLock<Mutex<Texts>> = LazyLock::new(|| {
    Mutex::new(Texts {
        strings: HashSet::new(),
        schemas: HashMap::new(),
        bytes: 0,
    })
});

const FULL: &str = "this process keeps no more remote texts (16 MiB of names, descriptions and schemas): the remote's view is not refreshed";

fn lock() -> std::sync::MutexGuard<'static, Texts> {
    TEXTS.lock().unwrap_or_else(|e| e.into_inner())
}

/// `text`, made `'static` once per process.
fn keep(text: &str) -> Result<&'static str, String> {
    let mut texts = lock();
    if let Some(known) = texts.strings.get(text) {
        return Ok(known);
    }
    if texts.bytes + text.len() > TEXT_BUDGET {
        return Err(FULL.into());
    }
    texts.bytes += text.len();
    let kept: &'static str = Box::leak(text.to_owned().into_boxed_str());
    texts.strings.insert(kept);
    Ok(kept)
}

/// A tool's two schemas, made `'static` once per process (keyed by their bytes).
fn keep_schemas(
    input: &Value,
    output: Option<&Value>,
) -> Result<&'static (Value, Option<Value>), String> {
    let key = serde_json::to_string(&(input, output)).map_err(|e| e.to_string())?;
    let mut texts = lock();
    if let Some(known) = texts.schemas.get(&key) {
        return Ok(known);
    }
    if texts.bytes + 2 * key.len() > TEXT_BUDGET {
        return Err(FULL.into());
    }
    texts.bytes += 2 * key.len();
    let kept: &'static (Value, Option<Value>) =
        Box::leak(Box::new((input.clone(), output.cloned())));
    texts.schemas.insert(key, kept);
    Ok(kept)
}

/// `items`, made `'static`, their bytes counted against the same budget.
fn keep_slice<T>(items: Vec<T>) -> Result<&'static [T], String> {
    let mut texts = lock();
    let bytes = items.len() * std::mem::size_of::<T>();
    if texts.bytes + bytes > TEXT_BUDGET {
        return Err(FULL.into());
    }
    texts.bytes += bytes;
    Ok(Box::leak(items.into_boxed_slice()))
}

fn text<'a>(item: &'a Value, key: &str) -> Option<&'a str> {
    item.get(key).and_then(Value::as_str)
}

fn required<'a>(item: &'a Value, key: &str, kind: &str) -> Result<&'a str, String> {
    text(item, key).ok_or_else(|| format!("a listed {kind} without a string {key:?}"))
}

fn optional(item: &Value, key: &str) -> Result<Option<&'static str>, String> {
    text(item, key).map(keep).transpose()
}

/// The handlers a remote's items are served by (the relays), given by the module that knows
/// them, so that this file names none.
#[derive(Clone, Copy)]
pub(crate) struct Handlers {
    pub(crate) tool: crate::tool::ToolHandler,
    pub(crate) prompt: crate::prompt::PromptHandler,
    pub(crate) read: crate::resource::ResourceReader,
    pub(crate) complete: fn(CompletionRequest) -> crate::tool::BoxFuture<Completion>,
}

/// What the remote listed: the four lists as it wrote them.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Listing {
    /// The remote serves `completion/complete`: each prompt argument and template variable is
    /// completed by relaying.
    pub(crate) completes: bool,
    pub(crate) tools: Vec<Value>,
    pub(crate) prompts: Vec<Value>,
    pub(crate) resources: Vec<Value>,
    pub(crate) templates: Vec<Value>,
}

/// Where a served item goes on the remote: its own name or URI there.
#[derive(Debug, Clone, Default)]
pub(crate) struct Routes {
    pub(crate) tools: HashSet<String>,
    pub(crate) prompts: HashSet<String>,
}

/// The definitions of `listing`, named as the remote names them (the mount adds the prefix),
/// each declared at `remote`; refused by what is wrong with the first item that cannot be
/// served.
pub(crate) fn definitions(
    remote: &'static str,
    listing: &Listing,
    handlers: Handlers,
) -> Result<(Definitions, Routes), String> {
    for (kind, list) in [
        ("tools", &listing.tools),
        ("prompts", &listing.prompts),
        ("resources", &listing.resources),
        ("resource templates", &listing.templates),
    ] {
        if list.len() > MAX_ITEMS {
            return Err(format!(
                "the remote lists {} {kind}; a mount takes at most {MAX_ITEMS}",
                list.len()
            ));
        }
    }
    let mut defs = Definitions::default();
    let mut routes = Routes::default();
    let at = (remote, 0);
    for item in &listing.tools {
        let name = required(item, "name", "tool")?;
        let input = item
            .get("inputSchema")
            .ok_or_else(|| format!("tool {name:?} lists no inputSchema"))?;
        let output = item.get("outputSchema").filter(|v| !v.is_null());
        let mut def = ToolDef::new(
            keep(name)?,
            keep(text(item, "description").unwrap_or(""))?,
            no_schema,
            handlers.tool,
        );
        def.title = optional(item, "title")?;
        def.annotations = tool_annotations(item.get("annotations"));
        def.given_schemas = Some(keep_schemas(input, output)?);
        def.ui = tool_ui(item)?;
        def.takes_context = true;
        def.location = at;
        routes.tools.insert(name.to_owned());
        defs.tools.push(def);
    }
    for item in &listing.prompts {
        let name = required(item, "name", "prompt")?;
        let mut arguments = Vec::new();
        for argument in item
            .get("arguments")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            let mut a = PromptArgument::new(keep(required(argument, "name", "prompt argument")?)?);
            a.title = optional(argument, "title")?;
            a.description = optional(argument, "description")?;
            a.required = argument
                .get("required")
                .and_then(Value::as_bool)
                .unwrap_or(false);
            arguments.push(a);
        }
        let mut def = PromptDef::new(
            keep(name)?,
            keep(text(item, "description").unwrap_or(""))?,
            handlers.prompt,
        );
        def.title = optional(item, "title")?;
        def.completions = completions(
            listing.completes,
            arguments.iter().map(|a| a.name),
            handlers,
        )?;
        def.arguments = keep_slice(arguments)?;
        def.takes_context = true;
        def.location = at;
        routes.prompts.insert(name.to_owned());
        defs.prompts.push(def);
    }
    for item in &listing.resources {
        let uri = required(item, "uri", "resource")?;
        defs.resources
            .push(resource(item, uri, &[], at, handlers.read)?);
    }
    for item in &listing.templates {
        let source = required(item, "uriTemplate", "resource template")?;
        let template =
            UriTemplate::parse(source).map_err(|e| format!("template {source:?}: {e}"))?;
        let variables = template
            .variables()
            .map(keep)
            .collect::<Result<Vec<_>, _>>()?;
        let mut def = resource(item, source, keep_slice(variables)?, at, handlers.read)?;
        def.completions = completions(listing.completes, def.parameters.iter().copied(), handlers)?;
        defs.resources.push(def);
    }
    Ok((defs, routes))
}

/// A relayed completer for each of `names`, when the remote completes at all.
fn completions(
    completes: bool,
    names: impl Iterator<Item = &'static str>,
    handlers: Handlers,
) -> Result<&'static [CompletionDef], String> {
    if !completes {
        return Ok(&[]);
    }
    keep_slice(
        names
            .map(|name| CompletionDef::new(name, handlers.complete))
            .collect(),
    )
}

fn resource(
    item: &Value,
    uri: &str,
    parameters: &'static [&'static str],
    at: (&'static str, u32),
    reader: crate::resource::ResourceReader,
) -> Result<ResourceDef, String> {
    let name = text(item, "name").unwrap_or(uri);
    let mut def = ResourceDef::new(keep(uri)?, keep(name)?, reader);
    def.title = optional(item, "title")?;
    def.description = optional(item, "description")?;
    def.mime_type = optional(item, "mimeType")?;
    if parameters.is_empty() {
        def.size = item.get("size").and_then(Value::as_u64);
    }
    if let Some(annotations) = item.get("annotations") {
        def.annotations = Annotations::from_value(annotations).unwrap_or(Annotations::NONE);
    }
    if uri.starts_with("ui://") {
        // A view: its MIME type is the extension's, its CSP and border as listed. The
        // permissions a view asks for are not relayed: a proxied view is granted none.
        def = def.with_app(app_view(item)?);
    }
    def.parameters = parameters;
    def.takes_context = true;
    def.location = at;
    Ok(def)
}

/// A tool's link to its view (`_meta.ui.resourceUri`, with its visibility), as listed.
fn tool_ui(item: &Value) -> Result<Option<ToolUi>, String> {
    let Some(ui) = item.pointer("/_meta/ui") else {
        return Ok(None);
    };
    let Some(uri) = ui.get("resourceUri").and_then(Value::as_str) else {
        return Ok(None);
    };
    let said = |word: &str| {
        ui.get("visibility")
            .and_then(Value::as_array)
            .is_some_and(|v| v.iter().any(|w| w == word))
    };
    let visibility = match (ui.get("visibility").is_some(), said("model"), said("app")) {
        (true, true, false) => Visibility::Model,
        (true, false, true) => Visibility::App,
        _ => Visibility::ModelAndApp,
    };
    Ok(Some(ToolUi::new(keep(uri)?).with_visibility(visibility)))
}

/// A view's `_meta.ui` as listed: its CSP domains, its domain and its border.
fn app_view(item: &Value) -> Result<AppView, String> {
    let ui = item.pointer("/_meta/ui");
    let domains = |key: &str| -> Result<&'static [&'static str], String> {
        let listed = ui
            .and_then(|u| u.pointer(&format!("/csp/{key}")))
            .and_then(Value::as_array);
        let kept = listed
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
            .map(keep)
            .collect::<Result<Vec<_>, _>>()?;
        keep_slice(kept)
    };
    let mut view = AppView::NONE;
    view.csp.connect_domains = domains("connectDomains")?;
    view.csp.resource_domains = domains("resourceDomains")?;
    view.csp.frame_domains = domains("frameDomains")?;
    view.csp.base_uri_domains = domains("baseUriDomains")?;
    view.domain = ui
        .and_then(|u| u.get("domain"))
        .and_then(Value::as_str)
        .map(keep)
        .transpose()?;
    view.prefers_border = ui
        .and_then(|u| u.get("prefersBorder"))
        .and_then(Value::as_bool);
    Ok(view)
}

/// The hints the remote gave, each only when it is a boolean.
fn tool_annotations(hints: Option<&Value>) -> ToolAnnotations {
    let hint = |key: &str| hints.and_then(|h| h.get(key)).and_then(Value::as_bool);
    let mut out = ToolAnnotations::NONE;
    out.read_only = hint("readOnlyHint");
    out.destructive = hint("destructiveHint");
    out.idempotent = hint("idempotentHint");
    out.open_world = hint("openWorldHint");
    out
}

/// Never called: a relayed tool's schemas are given (`ToolDef::given_schemas`).
fn no_schema() -> Value {
    Value::Object(serde_json::Map::new())
}

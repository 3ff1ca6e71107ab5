//! Resources and templates: URIs checked, templates parsed into the matcher, readers kept.

use std::sync::Arc;

use beam_mcp_rules::{UriTemplate, uri_defect};
use serde_json::{Map, Value};

use super::{CatalogError, Message};
use crate::completion::CompletionDef;
use crate::connectome::ItemCounter;
use crate::resource::{ResourceDef, ResourceReader};
use crate::tool::StateMap;

/// One static resource as the server serves it.
pub(crate) struct Resource {
    pub(crate) uri: Arc<str>,
    pub(crate) listing: Value,
    pub(crate) mime_type: Option<&'static str>,
    pub(crate) reader: ResourceReader,
    pub(crate) takes_context: bool,
    /// The host's labels (never advertised).
    pub(crate) tags: &'static [&'static str],
    /// The scopes a caller needs.
    pub(crate) scopes: &'static [&'static str],
    /// Its counter in the observed connectome, when the server has an observer.
    pub(crate) observed: Option<ItemCounter>,
    /// Where it came from, when mounted.
    pub(crate) origin: Option<crate::origin::Origin>,
    /// An MCP Apps view's `_meta` (`{"ui": ...}`), written on each content it reads too.
    pub(crate) app_meta: Option<Arc<Value>>,
}

/// One URI template as the server serves it.
pub(crate) struct Template {
    pub(crate) source: Arc<str>,
    pub(crate) template: UriTemplate,
    pub(crate) listing: Value,
    pub(crate) mime_type: Option<&'static str>,
    pub(crate) reader: ResourceReader,
    pub(crate) takes_context: bool,
    /// The host's labels (never advertised).
    pub(crate) tags: &'static [&'static str],
    /// The scopes a caller needs.
    pub(crate) scopes: &'static [&'static str],
    pub(crate) completions: &'static [CompletionDef],
    /// Its counter in the observed connectome, when the server has an observer.
    pub(crate) observed: Option<ItemCounter>,
    /// Where it came from, when mounted.
    pub(crate) origin: Option<crate::origin::Origin>,
}

/// What `resources/read` may read for a URI: the reader, the declared MIME type, and the
/// template's variables bound from the URI.
pub(crate) struct Readable<'c, 'u> {
    pub(crate) reader: ResourceReader,
    pub(crate) takes_context: bool,
    pub(crate) mime_type: Option<&'static str>,
    pub(crate) variables: Vec<(&'c str, &'u str)>,
    /// The resource's URI, or the template's source.
    pub(crate) key: &'c Arc<str>,
    /// Whether a template matched.
    pub(crate) is_template: bool,
    pub(crate) tags: &'static [&'static str],
    /// The scopes a caller needs.
    pub(crate) scopes: &'static [&'static str],
    /// The counter of the resource or template read.
    pub(crate) observed: Option<&'c ItemCounter>,
    /// Where it came from, when mounted.
    pub(crate) origin: Option<crate::origin::Origin>,
    /// An MCP Apps view's `_meta`, for each content read.
    pub(crate) app_meta: Option<&'c Arc<Value>>,
}

pub(crate) fn build(
    defs: &[ResourceDef],
    states: &StateMap,
) -> Result<(Vec<Resource>, Vec<Template>), CatalogError> {
    let mut resources = Vec::new();
    let mut templates = Vec::new();
    let mut refused = Vec::new();
    for def in defs {
        let item = || format!("resource {:?}", def.uri);
        let checked = super::check_states(item, def.states, states)
            .and_then(|()| super::check_icons(item, def.icons))
            .and_then(|()| parse(def))
            .and_then(|template| check_view(def, &template).map(|()| template))
            .and_then(|template| match def.size {
                Some(_) if !template.is_static() => Err(CatalogError::Display {
                    item: item(),
                    reason: "a template has no size (the spec's ResourceTemplate has none); give it to each resource it reads".into(),
                }),
                _ => Ok(template),
            });
        let template = match checked {
            Ok(template) => template,
            Err(e) => {
                refused.push(e);
                continue;
            }
        };
        let listing = listing(def, template.is_static());
        if template.is_static() {
            resources.push(Resource {
                uri: Arc::from(def.uri),
                listing,
                mime_type: def.mime_type,
                reader: def.reader,
                takes_context: def.takes_context,
                tags: def.tags,
                scopes: def.scopes,
                observed: None,
                origin: def.origin,
                app_meta: def
                    .app
                    .map(|view| Arc::new(serde_json::json!({ "ui": view.to_value() }))),
            });
        } else {
            templates.push(Template {
                source: Arc::from(def.uri),
                template,
                listing,
                mime_type: def.mime_type,
                reader: def.reader,
                takes_context: def.takes_context,
                tags: def.tags,
                scopes: def.scopes,
                completions: def.completions,
                observed: None,
                origin: def.origin,
            });
        }
    }
    CatalogError::gathered(refused)?;
    super::sort_unique(&mut resources, |r| &r.uri, "resource URI")?;
    // Two templates of one shape match the same URIs, whatever their variables are called.
    let mut shapes: Vec<(String, &str)> = templates
        .iter()
        .map(|t| (t.template.shape(), t.source.as_ref()))
        .collect();
    shapes.sort();
    if let Some(pair) = shapes.windows(2).find(|w| w[0].0 == w[1].0) {
        return Err(Message::Duplicate {
            kind: "resource template",
            key: pair[1].1.to_owned(),
        }
        .into());
    }
    templates.sort_by(|a, b| a.source.cmp(&b.source));
    Ok((resources, templates))
}

/// An MCP Apps view's rules: a `ui://` URI is a view and a view has a `ui://` URI (one URI,
/// not a template), of the extension's MIME type, its CSP origins and domain well formed.
fn check_view(def: &ResourceDef, template: &UriTemplate) -> Result<(), CatalogError> {
    let refuse = |reason: String| CatalogError::App {
        item: format!("resource {:?}", def.uri),
        reason,
    };
    let Some(view) = def.app else {
        return if def.uri.starts_with("ui://") {
            Err(refuse(
                "a ui:// resource is an MCP Apps view: declare it with app(...) (ResourceDef::with_app)".into(),
            ))
        } else {
            Ok(())
        };
    };
    if let Err(why) = beam_mcp_rules::app_uri(def.uri) {
        return Err(refuse(why.into()));
    }
    if !template.is_static() {
        return Err(refuse(
            "an app's URI is one URI, not a template: a tool links to exactly one view".into(),
        ));
    }
    if def.mime_type != Some(crate::app::MIME_TYPE) {
        return Err(refuse(format!(
            "a view's MIME type is {:?}, not {:?}",
            crate::app::MIME_TYPE,
            def.mime_type.unwrap_or("none")
        )));
    }
    match view.defect() {
        Some(reason) => Err(refuse(reason)),
        None => Ok(()),
    }
}

/// The template (a static URI is one without variables), checked against the reader's
/// parameters and completions.
fn parse(def: &ResourceDef) -> Result<UriTemplate, CatalogError> {
    let template = UriTemplate::parse(def.uri).map_err(|error| Message::Template {
        template: def.uri.into(),
        error,
    })?;
    if let Some(reason) = uri_defect(def.uri) {
        return Err(Message::InvalidUri {
            uri: def.uri.into(),
            reason,
        }
        .into());
    }
    if let Some(variable) = template.variables().find(|v| !def.parameters.contains(v)) {
        return Err(Message::VariableWithoutParameter {
            template: def.uri.into(),
            variable: variable.into(),
        }
        .into());
    }
    if let Some(parameter) = def
        .parameters
        .iter()
        .find(|p| !template.variables().any(|v| v == **p))
    {
        return Err(Message::ParameterWithoutVariable {
            template: def.uri.into(),
            parameter: (*parameter).into(),
        }
        .into());
    }
    if let Some(completion) = def
        .completions
        .iter()
        .find(|c| !template.variables().any(|v| v == c.argument))
    {
        return Err(Message::CompletionTarget {
            item: def.uri.into(),
            argument: completion.argument.into(),
        }
        .into());
    }
    Ok(template)
}

fn listing(def: &ResourceDef, is_static: bool) -> Value {
    let mut item = Map::new();
    let key = if is_static { "uri" } else { "uriTemplate" };
    item.insert(key.into(), Value::from(def.uri));
    item.insert("name".into(), Value::from(def.name));
    let optional = [
        ("title", def.title),
        ("description", def.description),
        ("mimeType", def.mime_type),
    ];
    for (key, value) in optional {
        if let Some(value) = value {
            item.insert(key.into(), Value::from(value));
        }
    }
    if let Some(size) = def.size {
        item.insert("size".into(), Value::from(size));
    }
    crate::annotations::insert_annotations(&mut item, &def.annotations);
    crate::icon::insert_icons(&mut item, def.icons);
    if let Some(view) = &def.app {
        // On the listing too: a host may read the CSP before it reads the view.
        item.insert("_meta".into(), serde_json::json!({ "ui": view.to_value() }));
    }
    Value::Object(item)
}

pub(crate) fn readable<'c, 'u>(
    resources: &'c [Resource],
    templates: &'c [Template],
    uri: &'u str,
) -> Option<Readable<'c, 'u>> {
    if let Ok(i) = resources.binary_search_by(|r| r.uri.as_ref().cmp(uri)) {
        let resource = &resources[i];
        return Some(Readable {
            reader: resource.reader,
            takes_context: resource.takes_context,
            mime_type: resource.mime_type,
            variables: Vec::new(),
            key: &resource.uri,
            is_template: false,
            tags: resource.tags,
            scopes: resource.scopes,
            observed: resource.observed.as_ref(),
            origin: resource.origin,
            app_meta: resource.app_meta.as_ref(),
        });
    }
    templates.iter().find_map(|t| {
        t.template.matches(uri).map(|variables| Readable {
            reader: t.reader,
            takes_context: t.takes_context,
            mime_type: t.mime_type,
            variables,
            key: &t.source,
            is_template: true,
            tags: t.tags,
            scopes: t.scopes,
            observed: t.observed.as_ref(),
            origin: t.origin,
            app_meta: None,
        })
    })
}

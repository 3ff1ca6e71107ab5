//! The checked catalog: every tool, resource, template and prompt, with its compiled schema
//! and its advertised entry, built once when the server is built.
//!
//! The refusals use the wording of `beam_mcp_rules::Message`, the same words the macros print
//! at compile time, so a hand-written definition is refused as a macro-written one would be.

mod prompts;
mod resources;
mod skills;
mod tools;

use std::sync::Arc;

pub use beam_mcp_rules::Message;
pub(crate) use prompts::Prompt;
pub(crate) use resources::{Readable, Resource, Template};
pub(crate) use skills::Skills;
#[cfg(feature = "http")]
pub(crate) use tools::HeaderParameter;
pub(crate) use tools::Tool;
pub(crate) use tools::schema_refusal;

use crate::connectome::{ItemCounter, NodeKind, Observer};
use crate::prompt::PromptDef;
use crate::resource::ResourceDef;
use crate::schemagen::Profiles;
use crate::tool::{StateMap, StateRequirement, ToolDef};

/// Why a catalog was refused when the server was built. Every refusal names the item.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum CatalogError {
    /// A mistake the macros also refuse at compile time, in the same words.
    #[error(transparent)]
    Rule(#[from] Message),
    /// A tool whose input schema the validator cannot enforce, or which is not portable.
    #[error("{item}: {reason}")]
    Schema {
        /// The item (`tool "name"`).
        item: String,
        /// What is wrong with its schema.
        reason: String,
    },
    /// An item takes a `State<T>` the server was not given.
    #[error(
        "{item} takes State<{type_name}>, but the server was given no such state; call .state(..) on the builder"
    )]
    MissingState {
        /// The item (`tool "name"`, `resource "uri"`, `prompt "name"`).
        item: String,
        /// The missing state type.
        type_name: &'static str,
    },
    /// An icon that is not an image URI, or a size given to a template (whose listing has no
    /// `size`).
    #[error("{item}: {reason}")]
    Display {
        /// The item (`tool "name"`, `resource "uri"`, `prompt "name"`, `server`).
        item: String,
        /// What is wrong with what it shows.
        reason: String,
    },
    /// An MCP Apps view or link the extension's rules refuse: a `ui://` resource that is not a
    /// view (or a view whose URI is not `ui://`), a CSP origin that is not one, a tool linked
    /// to a view the server does not serve.
    #[error("{item}: {reason}")]
    App {
        /// The item (`tool "name"`, `resource "uri"`).
        item: String,
        /// What is wrong with its view or link.
        reason: String,
    },
    /// A skill the Skills extension's rules refuse (its name, description, files or bounds).
    #[error("skill {uri:?}: {reason}")]
    Skill {
        /// The URI of its `SKILL.md`.
        uri: String,
        /// What is wrong with it.
        reason: String,
    },
    /// More than one item was refused: each refusal, in the order of the tools, the resources
    /// and the prompts, so that one build names every mistake.
    #[error("{} items were refused:{}", .0.len(), list(.0))]
    Many(Vec<CatalogError>),
}

/// Each refusal on a line of its own.
fn list(errors: &[CatalogError]) -> String {
    errors.iter().map(|e| format!("\n- {e}")).collect()
}

/// The icons' refusal, if one is refused: a `src` that is not an image URI, a size or MIME
/// type that is not an icon's.
pub(crate) fn check_icons(
    item: impl FnOnce() -> String,
    icons: &[crate::icon::Icon],
) -> Result<(), CatalogError> {
    match icons.iter().find_map(crate::icon::Icon::refusal) {
        Some(reason) => Err(CatalogError::Display {
            item: item(),
            reason,
        }),
        None => Ok(()),
    }
}

impl CatalogError {
    /// The refusals one build found: one error, or [`Many`](Self::Many) of them.
    pub(super) fn gathered(mut errors: Vec<CatalogError>) -> Result<(), CatalogError> {
        match errors.len() {
            0 => Ok(()),
            1 => Err(errors.remove(0)),
            _ => Err(CatalogError::Many(errors)),
        }
    }

    /// The refusals inside this one (itself, or each of [`Many`](Self::Many)).
    fn into_each(self) -> Vec<CatalogError> {
        match self {
            CatalogError::Many(each) => each,
            one => vec![one],
        }
    }
}

/// Every item the server serves, each list sorted by its key.
#[derive(Default)]
pub(crate) struct Catalog {
    tools: Vec<Tool>,
    resources: Vec<Resource>,
    templates: Vec<Template>,
    prompts: Vec<Prompt>,
    skills: Skills,
}

/// The definitions a catalog is built from.
#[derive(Default, Clone)]
pub(crate) struct Definitions {
    pub(crate) tools: Vec<ToolDef>,
    pub(crate) resources: Vec<ResourceDef>,
    pub(crate) prompts: Vec<PromptDef>,
    /// The skills (the Skills extension).
    pub(crate) skills: Vec<crate::skill::SkillDef>,
    /// The builder was given skills (perhaps none, for a live catalog to add): the server
    /// declares the extension.
    pub(crate) skills_declared: bool,
    /// Counts calls per item for the observed connectome.
    pub(crate) observer: Option<Observer>,
    /// The client profiles: each tool's input schema is derived in every one some client is
    /// shown.
    pub(crate) profiles: Profiles,
}

impl Catalog {
    pub(crate) fn build(defs: &Definitions, states: &StateMap) -> Result<Self, CatalogError> {
        // Every list is built before any refusal is returned: one build names every mistake.
        let tools = tools::build(&defs.tools, states, &defs.profiles.derived());
        let resources = resources::build(&defs.resources, states);
        let prompts = prompts::build(&defs.prompts, states);
        let skills = skills::build(&defs.skills);
        let mut errors = Vec::new();
        let mut keep = |e: CatalogError| errors.extend(e.into_each());
        let tools = tools.map_err(&mut keep).ok();
        let resources = resources.map_err(&mut keep).ok();
        let prompts = prompts.map_err(&mut keep).ok();
        let skills = skills.map_err(&mut keep).ok();
        CatalogError::gathered(errors)?;
        let (
            Some(mut tools),
            Some((mut resources, mut templates)),
            Some(mut prompts),
            Some(skills),
        ) = (tools, resources, prompts, skills)
        else {
            unreachable!("no refusal, so every list was built");
        };
        if let Some(observer) = &defs.observer {
            let counter = |kind, key: &str| Some(ItemCounter::new(observer, kind, key));
            tools
                .iter_mut()
                .for_each(|t| t.observed = counter(NodeKind::Tool, &t.name));
            prompts
                .iter_mut()
                .for_each(|p| p.observed = counter(NodeKind::Prompt, &p.name));
            resources
                .iter_mut()
                .for_each(|r| r.observed = counter(NodeKind::Resource, &r.uri));
            templates
                .iter_mut()
                .for_each(|t| t.observed = counter(NodeKind::Resource, &t.source));
        }
        CatalogError::gathered(
            tools
                .iter()
                .filter_map(|tool| unserved_view(tool, &resources))
                .collect(),
        )?;
        // A skill's file is served from its bytes: a resource or template of the host answering
        // its URI instead would serve other bytes than its manifest's digest.
        if let Some((file, item)) = skills.file_uris().find_map(|uri| {
            resources::readable(&resources, &templates, uri).map(|r| (uri, r.key.to_string()))
        }) {
            return Err(CatalogError::Skill {
                uri: file.to_owned(),
                reason: format!(
                    "the resource {item:?} answers this file's URI too; a skill's files are served from its folder, so no resource may answer them"
                ),
            });
        }
        Ok(Catalog {
            tools,
            resources,
            templates,
            prompts,
            skills,
        })
    }

    pub(crate) fn tools(&self) -> &[Tool] {
        &self.tools
    }

    pub(crate) fn tool(&self, name: &str) -> Option<&Tool> {
        self.tool_by_bytes(name.as_bytes())
    }

    /// [`tool`](Self::tool), by the name's bytes (ordered as its text is): a name read inline
    /// is looked up without being checked as text first.
    pub(crate) fn tool_by_bytes(&self, name: &[u8]) -> Option<&Tool> {
        find(&self.tools, name, |t| &t.name)
    }

    pub(crate) fn resources(&self) -> &[Resource] {
        &self.resources
    }

    pub(crate) fn templates(&self) -> &[Template] {
        &self.templates
    }

    pub(crate) fn prompts(&self) -> &[Prompt] {
        &self.prompts
    }

    pub(crate) fn prompt(&self, name: &str) -> Option<&Prompt> {
        find(&self.prompts, name.as_bytes(), |p| &p.name)
    }

    /// The resource `uri` names: a listed URI, else the first listed template matching it.
    pub(crate) fn readable<'u>(&self, uri: &'u str) -> Option<Readable<'_, 'u>> {
        resources::readable(&self.resources, &self.templates, uri)
    }

    pub(crate) fn template(&self, source: &str) -> Option<&Template> {
        find(&self.templates, source.as_bytes(), |t| &t.source)
    }

    /// The skills.
    pub(crate) fn skills(&self) -> &Skills {
        &self.skills
    }

    /// True when some prompt or template declares a completion.
    pub(crate) fn has_completions(&self) -> bool {
        self.prompts.iter().any(|p| !p.completions.is_empty())
            || self.templates.iter().any(|t| !t.completions.is_empty())
    }
}

/// The refusal of a tool linked to a view no resource of the catalog is: a tool's view is
/// read from the server that listed the tool.
fn unserved_view(tool: &Tool, resources: &[Resource]) -> Option<CatalogError> {
    let uri = tool.view?;
    let served = find(resources, uri.as_bytes(), |r| &r.uri).is_some_and(|r| r.app_meta.is_some());
    (!served).then(|| CatalogError::App {
        item: format!("tool {:?}", tool.name.as_ref()),
        reason: format!(
            "its view {uri:?} is not a resource of this server; declare it with #[resource({uri:?}, app(...))]"
        ),
    })
}

/// Whether the catalog has an MCP Apps view: the server declares the extension.
pub(crate) fn has_views(catalog: &Catalog) -> bool {
    catalog.resources.iter().any(|r| r.app_meta.is_some())
}

fn find<'a, T>(items: &'a [T], key: &[u8], key_of: impl Fn(&T) -> &Arc<str>) -> Option<&'a T> {
    items
        .binary_search_by(|item| key_of(item).as_bytes().cmp(key))
        .ok()
        .map(|i| &items[i])
}

/// Sorts by key and refuses the first key given twice.
fn sort_unique<T>(
    items: &mut [T],
    key_of: impl Fn(&T) -> &str,
    kind: &'static str,
) -> Result<(), CatalogError> {
    items.sort_by(|a, b| key_of(a).cmp(key_of(b)));
    match items.windows(2).find(|w| key_of(&w[0]) == key_of(&w[1])) {
        Some(pair) => Err(Message::Duplicate {
            kind,
            key: key_of(&pair[0]).to_owned(),
        }
        .into()),
        None => Ok(()),
    }
}

fn check_states(
    item: impl Fn() -> String,
    needs: &[StateRequirement],
    states: &StateMap,
) -> Result<(), CatalogError> {
    match needs.iter().find(|need| !states.contains((need.type_id)())) {
        Some(need) => Err(CatalogError::MissingState {
            item: item(),
            type_name: (need.type_name)(),
        }),
        None => Ok(()),
    }
}

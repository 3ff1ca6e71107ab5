//! Composition: another builder's catalog mounted under a prefix
//! ([`ServerBuilder::mount`](crate::ServerBuilder::mount)).
//!
//! A mounted tool or prompt is named `{prefix}_{name}`, a mounted resource or template
//! `scheme://{prefix}/{rest}` (unless the mount keeps URIs), by the one rule the macros check
//! named catalogs with at compile time (`beam_mcp_rules::namespaced_name`, `namespaced_uri`).
//! Everything else about an item stays: its schemas, annotations, tags, scopes, completions,
//! time limit and handler. A clash after namespacing is refused at `build()`, naming both
//! sources.

use std::collections::HashSet;
use std::sync::{LazyLock, Mutex};

use beam_mcp_rules::{namespaced_name, namespaced_uri, prefix_defect};

use std::collections::HashMap;

use crate::catalog::Definitions;
use crate::origin::Origin;
use crate::tool::StateMap;

/// Why a mount was refused by `build()`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum MountError {
    /// The prefix cannot stand before a name and in a URI.
    #[error("mount prefix {prefix:?}: {why}")]
    Prefix {
        /// The prefix given.
        prefix: String,
        /// What is wrong with it.
        why: &'static str,
    },
    /// A resource URI with no `//` after its scheme has no path to put the prefix in.
    #[error(
        "mount {prefix:?}: resource {uri:?} has no `//` after its scheme to put the prefix in; mount with mount_keeping_uris, or give it a URI such as `scheme://...`"
    )]
    Uri {
        /// The prefix.
        prefix: String,
        /// The URI (or template source).
        uri: String,
    },
    /// Two items of one kind have one name (or URI) once mounted.
    #[error("{kind} {key:?} is declared twice once mounted: by {first} and by {second}")]
    Clash {
        /// `tool`, `prompt` or `resource`.
        kind: &'static str,
        /// The name or URI they share.
        key: String,
        /// One source: the server's own item, or a mount's, with where it was declared.
        first: String,
        /// The other.
        second: String,
    },
    /// The server and a mount (or two mounts) were each given host state of one type: which
    /// value the mounted items would see would be a guess.
    #[error(
        "both {first} and {second} were given host state of type {type_name}: give it once, to the server that mounts (mounted items see its state)"
    )]
    State {
        /// The type.
        type_name: &'static str,
        /// One holder (`the server`, `mount "notes"`).
        first: String,
        /// The other.
        second: String,
    },
    /// A mounted builder carries a setting that belongs to a whole server and would be
    /// ignored: the server that mounts holds it.
    #[error(
        "mount {prefix:?} was given {setting}, which a mounted catalog does not keep: give it to the server that mounts"
    )]
    ServerSetting {
        /// The prefix.
        prefix: String,
        /// The setting (`middleware`, `a rate limit`, `skills`, ...).
        setting: &'static str,
    },
}

/// A builder's catalog as a mount takes it: its items and host state.
pub(crate) struct Mounted {
    pub(crate) prefix: String,
    pub(crate) keep_uris: bool,
    /// The items and state, or the setting that cannot be mounted.
    pub(crate) catalog: Result<(Definitions, StateMap), MountError>,
}

/// A string made `'static` once per process and reused after: mounted names and URIs live as
/// long as the definitions that hold them (`&'static str`), and a server built again (a live
/// change, a test) leaks nothing new.
pub(crate) fn intern(text: String) -> &'static str {
    static TEXTS: LazyLock<Mutex<HashSet<&'static str>>> = LazyLock::new(Default::default);
    let mut texts = TEXTS.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(known) = texts.get(text.as_str()) {
        return known;
    }
    let leaked: &'static str = Box::leak(text.into_boxed_str());
    texts.insert(leaked);
    leaked
}

/// Who declared an item, for a clash's message.
fn source(mount: Option<&str>, kind: &str, key: &str, location: (&str, u32)) -> String {
    let whose = match mount {
        None => format!("the server's own {kind} {key:?}"),
        Some(prefix) => format!("mount {prefix:?}'s {kind} {key:?}"),
    };
    match location {
        ("", _) => format!("{whose} (built by hand)"),
        (file, line) => format!("{whose} ({file}:{line})"),
    }
}

/// Adds every mount's items, namespaced, to `defs`, and its state to `states`; refuses a bad
/// prefix, a URI without a path, a clash or a state given twice. (A clash among the server's
/// own items is the catalog's to refuse, in its own words.)
pub(crate) fn apply(
    defs: &mut Definitions,
    states: &mut StateMap,
    mounts: Vec<Mounted>,
) -> Result<(), MountError> {
    if mounts.is_empty() {
        return Ok(());
    }
    // Who gave each state so far.
    let mut holders: HashMap<std::any::TypeId, String> = states
        .types()
        .map(|(id, _)| (id, "the server".to_owned()))
        .collect();
    // Each item's key with its source, to name both of a clash.
    let mut tools = Keys::new("tool");
    let mut prompts = Keys::new("prompt");
    let mut resources = Keys::new("resource");
    for t in &defs.tools {
        tools.known(t.name, source(None, "tool", t.name, t.location));
    }
    for p in &defs.prompts {
        prompts.known(p.name, source(None, "prompt", p.name, p.location));
    }
    for r in &defs.resources {
        resources.known(r.uri, source(None, "resource", r.uri, r.location));
    }
    for mount in mounts {
        let prefix = mount.prefix.as_str();
        if let Some(why) = prefix_defect(prefix) {
            return Err(MountError::Prefix {
                prefix: mount.prefix,
                why,
            });
        }
        let (child, child_states) = mount.catalog?;
        let interned = intern(mount.prefix.clone());
        let whose = format!("mount {prefix:?}");
        for (id, type_name) in child_states.types() {
            if let Some(first) = holders.get(&id) {
                return Err(MountError::State {
                    type_name,
                    first: first.clone(),
                    second: whose,
                });
            }
            holders.insert(id, whose.clone());
        }
        states.extend(child_states);
        let uri = |uri: &'static str| -> Result<&'static str, MountError> {
            if mount.keep_uris {
                return Ok(uri);
            }
            namespaced_uri(prefix, uri)
                .map(intern)
                .ok_or_else(|| MountError::Uri {
                    prefix: prefix.to_owned(),
                    uri: uri.to_owned(),
                })
        };
        for mut t in child.tools {
            let name = intern(namespaced_name(prefix, t.name));
            tools.add(name, || source(Some(prefix), "tool", t.name, t.location))?;
            t.origin = Some(Origin {
                prefix: interned,
                name: t.name,
            });
            t.name = name;
            // A view of the same catalog moves with it.
            if let Some(ui) = &mut t.ui
                && child.resources.iter().any(|r| r.uri == ui.resource_uri)
            {
                ui.resource_uri = uri(ui.resource_uri)?;
            }
            defs.tools.push(t);
        }
        for mut p in child.prompts {
            let name = intern(namespaced_name(prefix, p.name));
            prompts.add(name, || source(Some(prefix), "prompt", p.name, p.location))?;
            p.origin = Some(Origin {
                prefix: interned,
                name: p.name,
            });
            p.name = name;
            defs.prompts.push(p);
        }
        for mut r in child.resources {
            let at = uri(r.uri)?;
            resources.add(at, || source(Some(prefix), "resource", r.uri, r.location))?;
            r.origin = Some(Origin {
                prefix: interned,
                name: r.uri,
            });
            r.uri = at;
            defs.resources.push(r);
        }
    }
    Ok(())
}

/// The keys of one kind seen so far, with their sources.
struct Keys {
    kind: &'static str,
    seen: HashMap<&'static str, String>,
}

impl Keys {
    fn new(kind: &'static str) -> Keys {
        Keys {
            kind,
            seen: HashMap::new(),
        }
    }

    /// A key of the server's own.
    fn known(&mut self, key: &'static str, source: String) {
        self.seen.entry(key).or_insert(source);
    }

    /// A mounted key: refused if seen.
    fn add(
        &mut self,
        key: &'static str,
        source: impl FnOnce() -> String,
    ) -> Result<(), MountError> {
        if let Some(first) = self.seen.get(key) {
            return Err(MountError::Clash {
                kind: self.kind,
                key: key.to_owned(),
                first: first.clone(),
                second: source(),
            });
        }
        self.seen.insert(key, source());
        Ok(())
    }
}

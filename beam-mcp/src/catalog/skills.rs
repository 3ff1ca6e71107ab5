//! Skills: each definition checked against the extension's rules, its manifest (every file with
//! its SHA-256 and size) built once, and its files and folders indexed by URI.

use std::collections::BTreeMap;
use std::sync::Arc;

use serde_json::{Map, Value};
use sha2::{Digest, Sha256};

use super::CatalogError;
use crate::skill::SkillDef;

/// One skill as the server serves it.
pub(crate) struct Skill {
    /// The URI of its `SKILL.md`.
    pub(crate) uri: Arc<str>,
    /// Its entry in `skills/list` and `skills/get`: uri, frontmatter, resources.
    pub(crate) entry: Value,
}

/// A file of a skill, as `resources/read` serves it.
pub(crate) struct SkillFile {
    pub(crate) bytes: &'static [u8],
    pub(crate) mime_type: &'static str,
}

/// Every skill, and what their URIs name: files, and folders with their children.
#[derive(Default)]
pub(crate) struct Skills {
    pub(crate) skills: Vec<Skill>,
    files: BTreeMap<String, SkillFile>,
    /// Each folder of a skill (its root among them, no trailing `/`) and its direct children's
    /// `resources/directory/read` entries, sorted by URI.
    folders: BTreeMap<String, Vec<Value>>,
}

impl Skills {
    /// The file `uri` names, if a skill has it.
    pub(crate) fn file(&self, uri: &str) -> Option<&SkillFile> {
        self.files.get(uri)
    }

    /// Every file's URI.
    pub(crate) fn file_uris(&self) -> impl Iterator<Item = &str> {
        self.files.keys().map(String::as_str)
    }

    /// The direct children of the folder `uri` names, if a skill has it.
    pub(crate) fn folder(&self, uri: &str) -> Option<&[Value]> {
        self.folders.get(uri).map(Vec::as_slice)
    }

    /// The skill whose `SKILL.md` is `uri`.
    pub(crate) fn skill(&self, uri: &str) -> Option<&Skill> {
        self.skills
            .binary_search_by(|s| s.uri.as_ref().cmp(uri))
            .ok()
            .map(|i| &self.skills[i])
    }
}

pub(crate) fn build(defs: &[SkillDef]) -> Result<Skills, CatalogError> {
    let mut built = Skills::default();
    let mut refused = Vec::new();
    for def in defs {
        if let Err(reason) = add(&mut built, def) {
            refused.push(CatalogError::Skill {
                uri: def.uri(),
                reason,
            });
        }
    }
    CatalogError::gathered(refused)?;
    built.skills.sort_by(|a, b| a.uri.cmp(&b.uri));
    for children in built.folders.values_mut() {
        children.sort_by(|a, b| a["uri"].as_str().cmp(&b["uri"].as_str()));
        children.dedup_by(|a, b| a["uri"] == b["uri"]);
    }
    Ok(built)
}

/// Checks `def` and adds it: its entry, its files and its folders.
fn add(built: &mut Skills, def: &SkillDef) -> Result<(), String> {
    beam_mcp_rules::skill_path(def.path)?;
    let frontmatter = check_frontmatter(def)?;
    let uri = def.uri();
    if built.skills.iter().any(|s| *s.uri == *uri) {
        return Err("it is declared more than once".into());
    }
    let bytes: usize = def.files.iter().map(|f| f.bytes.len()).sum();
    beam_mcp_rules::skill_bounds(def.files.len(), bytes as u64)?;
    let root = format!("skill://{}", def.path);
    let mut resources = Vec::with_capacity(def.files.len());
    for (i, file) in def.files.iter().enumerate() {
        beam_mcp_rules::skill_file_path(file.path)?;
        if def.files[..i].iter().any(|f| f.path == file.path) {
            return Err(format!("it lists the file {:?} twice", file.path));
        }
        let file_uri = format!("{root}/{}", file.path);
        let mut resource = Map::new();
        resource.insert("uri".into(), Value::from(file_uri.as_str()));
        resource.insert("digest".into(), Value::from(digest(file.bytes)));
        resource.insert("size".into(), Value::from(file.bytes.len()));
        resources.push(Value::Object(resource));
    }
    if !def.files.iter().any(|f| f.path == "SKILL.md") {
        return Err("it has no SKILL.md".into());
    }
    for file in def.files {
        let file_uri = format!("{root}/{}", file.path);
        // A nested skill's files belong to the enclosing one too: the same URI, the same bytes.
        if let Some(known) = built.files.get(&file_uri)
            && known.bytes != file.bytes
        {
            return Err(format!(
                "{file_uri} is also a file of another skill, with other bytes"
            ));
        }
        built.files.insert(
            file_uri.clone(),
            SkillFile {
                bytes: file.bytes,
                mime_type: file.mime_type,
            },
        );
        // Each folder on the way lists its child: the next folder down, or the file.
        let mut parent = root.clone();
        let segments: Vec<&str> = file.path.split('/').collect();
        for (depth, segment) in segments.iter().enumerate() {
            let child = format!("{parent}/{segment}");
            let mut entry = Map::new();
            entry.insert("uri".into(), Value::from(child.as_str()));
            entry.insert("name".into(), Value::from(*segment));
            if depth + 1 == segments.len() {
                entry.insert("mimeType".into(), Value::from(file.mime_type));
                entry.insert("size".into(), Value::from(file.bytes.len()));
            } else {
                entry.insert("mimeType".into(), Value::from("inode/directory"));
            }
            built
                .folders
                .entry(parent.clone())
                .or_default()
                .push(Value::Object(entry));
            parent = child;
        }
    }
    let mut entry = Map::new();
    entry.insert("uri".into(), Value::from(uri.as_str()));
    entry.insert("frontmatter".into(), Value::Object(frontmatter));
    entry.insert("resources".into(), Value::Array(resources));
    built.skills.push(Skill {
        uri: Arc::from(uri),
        entry: Value::Object(entry),
    });
    Ok(())
}

/// `sha256:` and the 64 lowercase hex digits of the SHA-256 of `bytes`.
fn digest(bytes: &[u8]) -> String {
    let hash = Sha256::digest(bytes);
    let hex: String = hash.iter().map(|b| format!("{b:02x}")).collect();
    format!("sha256:{hex}")
}

/// The frontmatter as an object, checked: `name` the skill's name, `description` present and
/// within its bound, the optional fields the Agent Skills format bounds within theirs.
fn check_frontmatter(def: &SkillDef) -> Result<Map<String, Value>, String> {
    let Ok(Value::Object(frontmatter)) = serde_json::from_str::<Value>(def.frontmatter) else {
        return Err("its frontmatter is not a JSON object".into());
    };
    match frontmatter.get("name") {
        Some(Value::String(name)) if name == def.name() => {}
        _ => {
            return Err(format!(
                "its frontmatter's name must be {:?}, the last segment of its path",
                def.name()
            ));
        }
    }
    let Some(Value::String(description)) = frontmatter.get("description") else {
        return Err("its frontmatter has no description".into());
    };
    beam_mcp_rules::skill_description(description)?;
    if let Some(compatibility) = frontmatter.get("compatibility") {
        let Value::String(compatibility) = compatibility else {
            return Err("its frontmatter's compatibility is not a string".into());
        };
        beam_mcp_rules::skill_compatibility(compatibility)?;
    }
    Ok(frontmatter)
}

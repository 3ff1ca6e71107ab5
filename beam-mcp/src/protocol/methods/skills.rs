//! `skills/list`, `skills/get` and `resources/directory/read` (the Skills extension), and the
//! reading of a skill's file through `resources/read`.

use base64::Engine as _;
use serde_json::{Map, Value};

use super::{ListSpec, list};
use crate::catalog::Skills;
use crate::params::Params;
use crate::protocol::ProtocolError;
use crate::protocol::request::Era;
use crate::server::Server;

pub(crate) fn list_skills(
    server: &Server,
    params: &Params,
    era: Era,
) -> Result<Value, ProtocolError> {
    let catalog = server.catalog();
    let spec = ListSpec {
        items: &catalog.skills().skills,
        key: |s| &s.uri,
        listing: &|s| &s.entry,
        kind: "skills",
        field: "skills",
        cache: era.is_stateless().then_some(server.inner.resources_cache),
    };
    list(server, params, spec)
}

pub(crate) fn get_skill(
    server: &Server,
    params: &Params,
    era: Era,
) -> Result<Value, ProtocolError> {
    let Some(Value::String(uri)) = params.get("uri") else {
        return Err(ProtocolError::Malformed("skills/get requires a string uri"));
    };
    let catalog = server.catalog();
    let skill = catalog
        .skills()
        .skill(uri)
        .ok_or_else(|| ProtocolError::UnknownSkill(uri.clone()))?;
    let mut result = Map::new();
    result.insert("skill".into(), skill.entry.clone());
    if era.is_stateless() {
        server.inner.resources_cache.stamp(&mut result);
    }
    Ok(Value::Object(result))
}

/// The direct children of a skill's folder: files with their type and size, folders as
/// `inode/directory`, one page at a time.
pub(crate) fn read_directory(
    server: &Server,
    params: &Params,
    era: Era,
) -> Result<Value, ProtocolError> {
    let Some(Value::String(uri)) = params.get("uri") else {
        return Err(ProtocolError::Malformed(
            "resources/directory/read requires a string uri",
        ));
    };
    let catalog = server.catalog();
    let children = catalog
        .skills()
        .folder(uri)
        .ok_or_else(|| ProtocolError::NotADirectory(uri.clone()))?;
    let spec = ListSpec {
        items: children,
        key: |child| child["uri"].as_str().unwrap_or_default(),
        listing: &|child| child,
        kind: "directory",
        field: "resources",
        cache: era.is_stateless().then_some(server.inner.resources_cache),
    };
    list(server, params, spec)
}

/// `resources/read` of a skill's file: its bytes as they are, as `text` when its type is
/// textual and they are UTF-8, else as a base64 `blob`.
pub(crate) fn read_file(skills: &Skills, uri: &str) -> Option<Map<String, Value>> {
    let file = skills.file(uri)?;
    let mut contents = Map::new();
    contents.insert("uri".into(), Value::from(uri));
    contents.insert("mimeType".into(), Value::from(file.mime_type));
    match std::str::from_utf8(file.bytes) {
        Ok(text) if is_textual(file.mime_type) => {
            contents.insert("text".into(), Value::from(text));
        }
        _ => {
            let blob = base64::engine::general_purpose::STANDARD.encode(file.bytes);
            contents.insert("blob".into(), Value::from(blob));
        }
    }
    let mut result = Map::new();
    result.insert(
        "contents".into(),
        Value::Array(vec![Value::Object(contents)]),
    );
    Some(result)
}

fn is_textual(mime_type: &str) -> bool {
    mime_type.starts_with("text/")
        || [
            "application/json",
            "application/xml",
            "application/yaml",
            "application/toml",
            "image/svg+xml",
        ]
        .contains(&mime_type)
}

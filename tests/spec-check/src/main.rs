//! Validates JSON instances against the official MCP schemas, one request a line on stdin, one
//! answer a line on stdout, for the workspace's tests (`tests/support`, `Spec`).
//!
//! `spec-check SPEC_DIR` loads `SPEC_DIR/<revision>/schema.json` for each revision there. A
//! request is `{"revision": R, "def": D, "instance": V}` (V against the definition D of R's
//! schema) or `{"schema": S, "instance": V}` (V against S, e.g. an advertised `outputSchema`);
//! the answer is `{"ok": true}` or `{"error": "..."}`, naming every failure and where it is.
//!
//! With `"closed": true` as well (a revision and a definition), an instance that validates is
//! also held to the keys the definition declares: the official schemas leave objects open, so
//! a field of another revision (`ttlMs` on a 2025-11-25 result) would pass them. Every object
//! whose schema lists `properties` and says nothing of `additionalProperties` may hold those
//! and `_meta` only, following `$ref`, `allOf`, `properties` and `items`; inside `anyOf` and
//! `oneOf` the branch the instance takes is not known, so those are not held.

use std::collections::HashMap;
use std::io::{BufRead, Write};
use std::path::Path;
use std::sync::Arc;

use serde_json::{Value, json};

fn main() {
    let dir = std::env::args().nth(1).expect("usage: spec-check SPEC_DIR");
    let documents = load(Path::new(&dir));
    let mut validators: HashMap<(String, String), Arc<jsonschema::Validator>> = HashMap::new();
    let stdin = std::io::stdin().lock();
    let mut stdout = std::io::stdout().lock();
    for line in stdin.lines() {
        let line = line.expect("read a request");
        let answer = match serde_json::from_str::<Value>(&line) {
            Ok(request) => check(&documents, &mut validators, &request),
            Err(e) => Err(format!("the request is not JSON: {e}")),
        };
        let answer = match answer {
            Ok(()) => json!({ "ok": true }),
            Err(error) => json!({ "error": error }),
        };
        writeln!(stdout, "{answer}").expect("write an answer");
        stdout.flush().expect("flush an answer");
    }
}

/// Every revision's schema under `dir`.
fn load(dir: &Path) -> HashMap<String, Value> {
    let mut documents = HashMap::new();
    for entry in std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
        let path = entry.expect("a directory entry").path().join("schema.json");
        if let Ok(text) = std::fs::read_to_string(&path) {
            let revision = path.parent().and_then(Path::file_name).expect("a revision");
            let schema = serde_json::from_str(&text)
                .unwrap_or_else(|e| panic!("{}: not JSON: {e}", path.display()));
            documents.insert(revision.to_string_lossy().into_owned(), schema);
        }
    }
    documents
}

fn check(
    documents: &HashMap<String, Value>,
    validators: &mut HashMap<(String, String), Arc<jsonschema::Validator>>,
    request: &Value,
) -> Result<(), String> {
    let instance = request
        .get("instance")
        .ok_or("the request has no instance")?;
    if let Some(schema) = request.get("schema") {
        let validator =
            jsonschema::validator_for(schema).map_err(|e| format!("schema {schema}: {e}"))?;
        return failures(&validator, instance)
            .map_err(|errors| format!("{instance} does not match {schema}: {errors}"));
    }
    let (Some(revision), Some(def)) = (
        request.get("revision").and_then(Value::as_str),
        request.get("def").and_then(Value::as_str),
    ) else {
        return Err("the request names neither a schema nor a revision and a definition".into());
    };
    let key = (revision.to_owned(), def.to_owned());
    let validator = match validators.get(&key) {
        Some(v) => v.clone(),
        None => {
            let mut document = documents
                .get(revision)
                .ok_or_else(|| format!("no schema for {revision}"))?
                .clone();
            if document["$defs"].get(def).is_none() {
                return Err(format!("{revision} has no definition {def}"));
            }
            document["$ref"] = Value::from(format!("#/$defs/{def}"));
            let v = Arc::new(
                jsonschema::validator_for(&document)
                    .map_err(|e| format!("schema {revision}/{def}: {e}"))?,
            );
            validators.insert(key, v.clone());
            v
        }
    };
    failures(&validator, instance)
        .map_err(|errors| format!("{instance} is not a valid {revision} {def}: {errors}"))?;
    if request.get("closed") == Some(&Value::Bool(true)) {
        let document = &documents[revision];
        let mut undeclared = Vec::new();
        closed(
            document,
            &document["$defs"][def],
            instance,
            "",
            &mut undeclared,
        );
        if !undeclared.is_empty() {
            return Err(format!(
                "{instance} holds keys {revision} {def} does not declare: {}",
                undeclared.join(", ")
            ));
        }
    }
    Ok(())
}

/// Members whose value is the host's JSON or an open map, not the protocol's objects.
const HOSTS: &[&str] = &[
    "inputSchema",
    "outputSchema",
    "requestedSchema",
    "structuredContent",
    "arguments",
    "experimental",
    "_meta",
];

/// The keys of `instance` (at `path`) that `schema` does not declare, into `undeclared`.
fn closed(
    document: &Value,
    schema: &Value,
    instance: &Value,
    path: &str,
    undeclared: &mut Vec<String>,
) {
    let schema = resolve(document, schema);
    let mut properties = serde_json::Map::new();
    let mut open = false;
    for part in std::iter::once(schema).chain(
        schema
            .get("allOf")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .map(|s| resolve(document, s)),
    ) {
        if let Some(Value::Object(declared)) = part.get("properties") {
            properties.extend(declared.clone());
        }
        open |= part.get("additionalProperties").is_some();
    }
    match instance {
        Value::Object(map) if !properties.is_empty() => {
            for (key, value) in map {
                let at = format!("{path}/{key}");
                match properties.get(key) {
                    // A host's JSON (a schema, arguments, structured content) or an open map.
                    Some(_) if HOSTS.contains(&key.as_str()) => {}
                    Some(property) => closed(document, property, value, &at, undeclared),
                    None if key != "_meta" && !open => undeclared.push(at),
                    None => {}
                }
            }
        }
        Value::Array(items) => {
            if let Some(item) = schema.get("items") {
                for (index, value) in items.iter().enumerate() {
                    closed(
                        document,
                        item,
                        value,
                        &format!("{path}/{index}"),
                        undeclared,
                    );
                }
            }
        }
        _ => {}
    }
}

/// `schema`, or what its `$ref` (`#/$defs/..`) names.
fn resolve<'d>(document: &'d Value, schema: &'d Value) -> &'d Value {
    match schema.get("$ref").and_then(Value::as_str) {
        Some(reference) => match reference.strip_prefix("#/$defs/") {
            Some(name) => resolve(document, &document["$defs"][name]),
            None => schema,
        },
        None => schema,
    }
}

/// Every failure of `instance` against `validator`, with where it failed, joined by `; `.
fn failures(validator: &jsonschema::Validator, instance: &Value) -> Result<(), String> {
    let errors: Vec<String> = validator
        .iter_errors(instance)
        .map(|e| format!("{} at {}", e, e.instance_path()))
        .collect();
    if errors.is_empty() {
        Ok(())
    } else {
        Err(errors.join("; "))
    }
}

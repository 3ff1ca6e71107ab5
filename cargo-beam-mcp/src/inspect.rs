//! `inspect TARGET`: what a server advertises, for a person (the four lists with their
//! schemas and annotations, and the capabilities), or with `--json` as the canonical export
//! (the bytes a host's test pins).

use std::fmt::Write as _;
use std::io::Write as _;
use std::process::ExitCode;

use beam_mcp::client::Client;
use serde_json::Value;

use crate::target::Connect;

/// What `inspect` was asked.
pub(crate) struct Options {
    pub(crate) connect: Connect,
    pub(crate) json: bool,
}

pub(crate) async fn run(options: Options) -> Result<ExitCode, String> {
    let client = crate::target::connect(&options.connect, Client::builder()).await?;
    let advertised = client
        .advertised()
        .await
        .map_err(|e| format!("listing: {e}"))?;
    let mut out = std::io::stdout().lock();
    let written = if options.json {
        out.write_all(advertised.bytes())
            .and_then(|()| out.write_all(b"\n"))
    } else {
        let export: Value = serde_json::from_slice(advertised.bytes())
            .map_err(|e| format!("the export does not read back: {e}"))?;
        out.write_all(describe(&client, &export, advertised.digest_hex()).as_bytes())
    };
    written.map_err(|e| format!("stdout: {e}"))?;
    Ok(ExitCode::SUCCESS)
}

/// The readable text of a server and its export.
fn describe(client: &Client, export: &Value, digest: &str) -> String {
    let mut text = String::new();
    let info = client.server_info();
    let field = |key: &str| info.get(key).and_then(Value::as_str);
    let _ = write!(
        text,
        "{} {}",
        field("name").unwrap_or("(no name)"),
        field("version").unwrap_or("(no version)")
    );
    if let Some(title) = field("title") {
        let _ = write!(text, " \"{title}\"");
    }
    let _ = writeln!(text, "\nrevision: {}", client.revision());
    let _ = writeln!(
        text,
        "capabilities: {}",
        capabilities(client.capabilities())
    );
    if let Some(instructions) = client.instructions() {
        let _ = writeln!(text, "instructions: {}", one_line(instructions));
    }
    let _ = writeln!(text, "export sha256: {digest}");
    let list = |key: &str| {
        export
            .get(key)
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default()
    };
    let tools = list("tools");
    let _ = writeln!(text, "\ntools ({})", tools.len());
    for tool in &tools {
        describe_tool(&mut text, tool);
    }
    let resources = list("resources");
    let _ = writeln!(text, "\nresources ({})", resources.len());
    for resource in &resources {
        describe_resource(&mut text, resource, "uri");
    }
    let templates = list("resourceTemplates");
    let _ = writeln!(text, "\nresource templates ({})", templates.len());
    for template in &templates {
        describe_resource(&mut text, template, "uriTemplate");
    }
    let prompts = list("prompts");
    let _ = writeln!(text, "\nprompts ({})", prompts.len());
    for prompt in &prompts {
        describe_prompt(&mut text, prompt);
    }
    text
}

/// `completions, logging, resources (subscribe, listChanged), tools (listChanged)`.
fn capabilities(capabilities: &Value) -> String {
    let Some(map) = capabilities.as_object() else {
        return "none".into();
    };
    let mut names: Vec<String> = map
        .iter()
        .map(|(name, value)| {
            let flags: Vec<&str> = value
                .as_object()
                .map(|m| {
                    m.iter()
                        .filter(|(_, v)| v.as_bool() == Some(true))
                        .map(|(k, _)| k.as_str())
                        .collect()
                })
                .unwrap_or_default();
            if flags.is_empty() {
                name.clone()
            } else {
                format!("{name} ({})", flags.join(", "))
            }
        })
        .collect();
    names.sort();
    if names.is_empty() {
        "none".into()
    } else {
        names.join(", ")
    }
}

fn str_of<'a>(item: &'a Value, key: &str) -> Option<&'a str> {
    item.get(key).and_then(Value::as_str)
}

fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn describe_tool(text: &mut String, tool: &Value) {
    let _ = write!(text, "  {}", str_of(tool, "name").unwrap_or("(no name)"));
    if let Some(title) = str_of(tool, "title") {
        let _ = write!(text, " \"{title}\"");
    }
    let hints = hints(tool.get("annotations"));
    if !hints.is_empty() {
        let _ = write!(text, "  [{}]", hints.join(", "));
    }
    text.push('\n');
    if let Some(description) = str_of(tool, "description") {
        let _ = writeln!(text, "    {}", one_line(description));
    }
    for (label, key) in [("input", "inputSchema"), ("output", "outputSchema")] {
        if let Some(schema) = tool.get(key) {
            let _ = writeln!(text, "    {label}:");
            properties(text, schema, "      ");
        }
    }
}

/// The annotations as words: `read-only`, `destructive`, `idempotent`, `closed-world`, and
/// the title an annotation gives.
fn hints(annotations: Option<&Value>) -> Vec<String> {
    let Some(annotations) = annotations else {
        return Vec::new();
    };
    let flag = |key: &str| annotations.get(key).and_then(Value::as_bool);
    let mut words = Vec::new();
    if flag("readOnlyHint") == Some(true) {
        words.push("read-only".to_owned());
    }
    match flag("destructiveHint") {
        Some(true) => words.push("destructive".to_owned()),
        Some(false) => words.push("not destructive".to_owned()),
        None => {}
    }
    if flag("idempotentHint") == Some(true) {
        words.push("idempotent".to_owned());
    }
    match flag("openWorldHint") {
        Some(false) => words.push("closed-world".to_owned()),
        Some(true) => words.push("open-world".to_owned()),
        None => {}
    }
    words
}

/// Each property of an object schema on a line: its type, whether it is required, its
/// description.
fn properties(text: &mut String, schema: &Value, indent: &str) {
    let required: Vec<&str> = schema
        .get("required")
        .and_then(Value::as_array)
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let Some(properties) = schema.get("properties").and_then(Value::as_object) else {
        let _ = writeln!(text, "{indent}{}", type_of(schema));
        return;
    };
    if properties.is_empty() {
        let _ = writeln!(text, "{indent}(no arguments)");
    }
    for (name, property) in properties {
        let _ = write!(text, "{indent}{name}: {}", type_of(property));
        if required.contains(&name.as_str()) {
            text.push_str(", required");
        }
        if let Some(default) = property.get("default") {
            let _ = write!(text, ", default {default}");
        }
        if let Some(description) = str_of(property, "description") {
            let _ = write!(text, " — {}", one_line(description));
        }
        text.push('\n');
    }
}

/// A schema's type in a few words: `string`, `integer | null`, `"metric" | "imperial"`,
/// `array of number`, `object {lat, lon}`, a `$ref`'s definition name.
pub(crate) fn type_of(schema: &Value) -> String {
    if let Some(reference) = str_of(schema, "$ref") {
        return reference.rsplit('/').next().unwrap_or(reference).to_owned();
    }
    if let Some(values) = schema.get("enum").and_then(Value::as_array) {
        return values
            .iter()
            .map(Value::to_string)
            .collect::<Vec<_>>()
            .join(" | ");
    }
    if let Some(value) = schema.get("const") {
        return value.to_string();
    }
    for key in ["anyOf", "oneOf"] {
        if let Some(options) = schema.get(key).and_then(Value::as_array) {
            return options.iter().map(type_of).collect::<Vec<_>>().join(" | ");
        }
    }
    let types: Vec<&str> = match schema.get("type") {
        Some(Value::String(t)) => vec![t.as_str()],
        Some(Value::Array(ts)) => ts.iter().filter_map(Value::as_str).collect(),
        _ => Vec::new(),
    };
    if types.is_empty() {
        return "any".into();
    }
    types
        .iter()
        .map(|t| match *t {
            "array" => match schema.get("items") {
                Some(items) => format!("array of {}", type_of(items)),
                None => "array".into(),
            },
            "object" => match schema.get("properties").and_then(Value::as_object) {
                Some(p) if !p.is_empty() => {
                    format!(
                        "object {{{}}}",
                        p.keys().cloned().collect::<Vec<_>>().join(", ")
                    )
                }
                _ => "object".into(),
            },
            "string" => match str_of(schema, "format") {
                Some(format) => format!("string ({format})"),
                None => "string".into(),
            },
            other => other.to_owned(),
        })
        .collect::<Vec<_>>()
        .join(" | ")
}

fn describe_resource(text: &mut String, resource: &Value, uri_key: &str) {
    let _ = write!(
        text,
        "  {}",
        str_of(resource, uri_key).unwrap_or("(no uri)")
    );
    if let Some(name) = str_of(resource, "name") {
        let _ = write!(text, "  {name}");
    }
    if let Some(title) = str_of(resource, "title") {
        let _ = write!(text, " \"{title}\"");
    }
    if let Some(mime) = str_of(resource, "mimeType") {
        let _ = write!(text, "  ({mime})");
    }
    text.push('\n');
    if let Some(description) = str_of(resource, "description") {
        let _ = writeln!(text, "    {}", one_line(description));
    }
}

fn describe_prompt(text: &mut String, prompt: &Value) {
    let arguments: Vec<String> = prompt
        .get("arguments")
        .and_then(Value::as_array)
        .map(|args| {
            args.iter()
                .map(|a| {
                    let name = str_of(a, "name").unwrap_or("?");
                    if a.get("required").and_then(Value::as_bool) == Some(true) {
                        format!("{name}*")
                    } else {
                        name.to_owned()
                    }
                })
                .collect()
        })
        .unwrap_or_default();
    let _ = write!(
        text,
        "  {}({})",
        str_of(prompt, "name").unwrap_or("(no name)"),
        arguments.join(", ")
    );
    if let Some(title) = str_of(prompt, "title") {
        let _ = write!(text, " \"{title}\"");
    }
    text.push('\n');
    if let Some(description) = str_of(prompt, "description") {
        let _ = writeln!(text, "    {}", one_line(description));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_schema_is_told_in_a_few_words() {
        assert_eq!(
            type_of(&json!({ "type": ["integer", "null"] })),
            "integer | null"
        );
        assert_eq!(
            type_of(&json!({ "enum": ["metric", "imperial"] })),
            r#""metric" | "imperial""#
        );
        assert_eq!(
            type_of(&json!({ "type": "array", "items": { "type": "number" } })),
            "array of number"
        );
        assert_eq!(
            type_of(&json!({ "type": "object", "properties": { "lat": {}, "lon": {} } })),
            "object {lat, lon}"
        );
        assert_eq!(type_of(&json!({ "$ref": "#/$defs/Tree" })), "Tree");
        assert_eq!(
            type_of(&json!({ "anyOf": [{ "type": "string", "format": "date" }, { "const": 3 }] })),
            "string (date) | 3"
        );
        assert_eq!(type_of(&json!({})), "any");
    }

    #[test]
    fn annotations_are_told_as_words() {
        let annotations =
            json!({ "readOnlyHint": true, "destructiveHint": false, "openWorldHint": false });
        assert_eq!(
            hints(Some(&annotations)),
            ["read-only", "not destructive", "closed-world"]
        );
    }
}

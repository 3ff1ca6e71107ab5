//! Editing one member of a JSON (or JSONC: comments, trailing commas) configuration file in
//! place: the bytes outside the edited member stay as they are, comments included.

use serde_json::Value;

/// Where a value is in the text, and, for an object, where its members are.
#[derive(Debug)]
struct Spanned {
    start: usize,
    end: usize,
    /// An object's members: the key, the key's start, and the member's value.
    members: Option<Vec<(String, usize, Spanned)>>,
}

/// Why a file cannot be edited.
pub(crate) fn refused(at: usize, text: &str, what: &str) -> String {
    let line = text[..at.min(text.len())].matches('\n').count() + 1;
    format!("line {line}: {what}")
}

struct Reader<'a> {
    text: &'a str,
    at: usize,
}

impl<'a> Reader<'a> {
    fn peek(&self) -> Option<u8> {
        self.text.as_bytes().get(self.at).copied()
    }

    /// Skips whitespace and comments.
    fn skip(&mut self) -> Result<(), String> {
        loop {
            let rest = &self.text[self.at..];
            let trimmed = rest.trim_start();
            self.at += rest.len() - trimmed.len();
            if trimmed.starts_with("//") {
                self.at += trimmed.find('\n').unwrap_or(trimmed.len());
            } else if let Some(comment) = trimmed.strip_prefix("/*") {
                let end = comment
                    .find("*/")
                    .ok_or_else(|| refused(self.at, self.text, "an unclosed /* comment"))?;
                self.at += end + 4;
            } else {
                return Ok(());
            }
        }
    }

    fn expect(&mut self, byte: u8) -> Result<(), String> {
        self.skip()?;
        if self.peek() == Some(byte) {
            self.at += 1;
            Ok(())
        } else {
            Err(refused(
                self.at,
                self.text,
                &format!("expected {:?}", byte as char),
            ))
        }
    }

    fn value(&mut self, depth: usize) -> Result<Spanned, String> {
        if depth > 64 {
            return Err(refused(self.at, self.text, "nested deeper than 64"));
        }
        self.skip()?;
        let start = self.at;
        match self.peek() {
            Some(b'{') => {
                self.at += 1;
                let mut members = Vec::new();
                loop {
                    self.skip()?;
                    match self.peek() {
                        Some(b'}') => {
                            self.at += 1;
                            break;
                        }
                        Some(b'"') => {
                            let key_start = self.at;
                            let key = self.string()?;
                            self.expect(b':')?;
                            let value = self.value(depth + 1)?;
                            members.push((key, key_start, value));
                            self.skip()?;
                            match self.peek() {
                                Some(b',') => self.at += 1,
                                Some(b'}') => {}
                                _ => return Err(refused(self.at, self.text, "expected , or }")),
                            }
                        }
                        _ => return Err(refused(self.at, self.text, "expected a key or }")),
                    }
                }
                Ok(Spanned {
                    start,
                    end: self.at,
                    members: Some(members),
                })
            }
            Some(b'[') => {
                self.at += 1;
                loop {
                    self.skip()?;
                    if self.peek() == Some(b']') {
                        self.at += 1;
                        break;
                    }
                    self.value(depth + 1)?;
                    self.skip()?;
                    match self.peek() {
                        Some(b',') => self.at += 1,
                        Some(b']') => {}
                        _ => return Err(refused(self.at, self.text, "expected , or ]")),
                    }
                }
                Ok(Spanned {
                    start,
                    end: self.at,
                    members: None,
                })
            }
            Some(b'"') => {
                self.string()?;
                Ok(Spanned {
                    start,
                    end: self.at,
                    members: None,
                })
            }
            Some(_) => {
                let rest = &self.text[self.at..];
                let len = rest
                    .find(|c: char| !(c.is_ascii_alphanumeric() || "+-.".contains(c)))
                    .unwrap_or(rest.len());
                let word = &rest[..len];
                if len == 0 || serde_json::from_str::<Value>(word).is_err() {
                    return Err(refused(self.at, self.text, "not a JSON value"));
                }
                self.at += len;
                Ok(Spanned {
                    start,
                    end: self.at,
                    members: None,
                })
            }
            None => Err(refused(self.at, self.text, "the text ends before a value")),
        }
    }

    /// A string, decoded.
    fn string(&mut self) -> Result<String, String> {
        let start = self.at;
        self.at += 1;
        let bytes = self.text.as_bytes();
        loop {
            match bytes.get(self.at) {
                Some(b'"') => {
                    self.at += 1;
                    break;
                }
                Some(b'\\') => self.at += 2,
                Some(_) => self.at += 1,
                None => return Err(refused(start, self.text, "an unclosed string")),
            }
        }
        serde_json::from_str(&self.text[start..self.at])
            .map_err(|_| refused(start, self.text, "a string JSON does not allow"))
    }
}

/// The whole text as one value (comments and trailing commas allowed), nothing after it.
fn document(text: &str) -> Result<Spanned, String> {
    let mut reader = Reader { text, at: 0 };
    let root = reader.value(0)?;
    reader.skip()?;
    if reader.at != text.len() {
        return Err(refused(reader.at, text, "text after the document"));
    }
    if root.members.is_none() {
        return Err(refused(root.start, text, "the document is not an object"));
    }
    Ok(root)
}

/// The value at `span` as JSON, its comments and trailing commas dropped.
fn plain(text: &str, span: &Spanned) -> Result<Value, String> {
    let mut out = String::new();
    let mut reader = Reader {
        text: &text[..span.end],
        at: span.start,
    };
    strip(&mut reader, &mut out)?;
    serde_json::from_str(&out).map_err(|e| e.to_string())
}

/// Copies the tokens of the value `reader` is at into `out`, without comments or trailing
/// commas.
fn strip(reader: &mut Reader<'_>, out: &mut String) -> Result<(), String> {
    while reader.at < reader.text.len() {
        reader.skip()?;
        let Some(byte) = reader.peek() else { break };
        if byte == b'"' {
            let start = reader.at;
            reader.string()?;
            out.push_str(&reader.text[start..reader.at]);
            continue;
        }
        if byte == b',' {
            // A trailing comma: the next token closes.
            let mut ahead = Reader {
                text: reader.text,
                at: reader.at + 1,
            };
            ahead.skip()?;
            if matches!(ahead.peek(), Some(b'}' | b']')) {
                reader.at += 1;
                continue;
            }
        }
        out.push(byte as char);
        reader.at += 1;
    }
    Ok(())
}

/// What [`upsert`] did.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Edit {
    /// The entry is there already, as it would be written: nothing to write.
    Unchanged,
    /// The new text.
    Changed(String),
}

/// A value to write, its objects' members in the order given (serde_json's maps sort theirs).
#[derive(Debug, Clone)]
pub(crate) enum Node {
    /// Written as JSON (an array of scalars on one line).
    Plain(Value),
    /// An object, its members in this order.
    Object(Vec<(String, Node)>),
}

impl Node {
    /// The JSON value (for comparing with what a file holds).
    pub(crate) fn value(&self) -> Value {
        match self {
            Node::Plain(value) => value.clone(),
            Node::Object(members) => Value::Object(
                members
                    .iter()
                    .map(|(k, v)| (k.clone(), v.value()))
                    .collect(),
            ),
        }
    }
}

/// How the file writes its objects: on one line, or a member a line, indented by `unit` a
/// level.
struct Style {
    compact: bool,
    unit: String,
}

impl Style {
    /// `node` written at a line indented by `indent`.
    fn write(&self, node: &Node, indent: &str) -> String {
        let key = |k: &str| Value::from(k).to_string();
        match node {
            Node::Plain(Value::Array(items))
                if items.iter().all(|i| !i.is_array() && !i.is_object()) =>
            {
                let items: Vec<String> = items.iter().map(Value::to_string).collect();
                if self.compact {
                    format!("[{}]", items.join(","))
                } else {
                    format!("[{}]", items.join(", "))
                }
            }
            Node::Plain(Value::Object(map)) => self.write(
                &Node::Object(
                    map.iter()
                        .map(|(k, v)| (k.clone(), Node::Plain(v.clone())))
                        .collect(),
                ),
                indent,
            ),
            Node::Plain(value) if self.compact => value.to_string(),
            Node::Plain(value) => serde_json::to_string_pretty(value)
                .unwrap_or_default()
                .replace("\n", &format!("\n{indent}")),
            Node::Object(members) if members.is_empty() => "{}".into(),
            Node::Object(members) if self.compact => {
                let members: Vec<String> = members
                    .iter()
                    .map(|(k, v)| format!("{}:{}", key(k), self.write(v, indent)))
                    .collect();
                format!("{{{}}}", members.join(","))
            }
            Node::Object(members) => {
                let inner = format!("{indent}{}", self.unit);
                let members: Vec<String> = members
                    .iter()
                    .map(|(k, v)| format!("{inner}{}: {}", key(k), self.write(v, &inner)))
                    .collect();
                format!("{{\n{}\n{indent}}}", members.join(",\n"))
            }
        }
    }
}

/// Puts `entry` at `container.name` in `text` (a JSON object document, or empty), keeping
/// every other byte: the member replaced when it differs, added at the end of the container
/// otherwise, the container added when missing. Indentation (tabs or spaces, how many a
/// level) follows the file's; a file written on one line gets the entry on one line.
pub(crate) fn upsert(
    text: &str,
    container: &str,
    name: &str,
    entry: &Node,
) -> Result<Edit, String> {
    let held = |entry: &Node| Node::Object(vec![(name.to_owned(), entry.clone())]);
    if text.trim().is_empty() {
        let style = Style {
            compact: false,
            unit: "  ".into(),
        };
        let document = Node::Object(vec![(container.to_owned(), held(entry))]);
        return Ok(Edit::Changed(format!("{}\n", style.write(&document, ""))));
    }
    let root = document(text)?;
    let members = root.members.as_ref().expect("an object");
    let (indent, unit) = indent_of(text, members.first().map(|m| m.1), &root, "  ");
    let style = Style {
        compact: !text[root.start..root.end].contains('\n'),
        unit,
    };
    let Some((_, _, holder)) = members.iter().find(|(key, _, _)| key == container) else {
        return Ok(Edit::Changed(insert(
            text,
            &root,
            container,
            &held(entry),
            &indent,
            &style,
        )));
    };
    let Some(held_members) = holder.members.as_ref() else {
        return Err(refused(
            holder.start,
            text,
            &format!("{container:?} is not an object"),
        ));
    };
    let (inner, _) = indent_of(text, held_members.first().map(|m| m.1), holder, &style.unit);
    match held_members.iter().find(|(key, _, _)| key == name) {
        Some((_, _, old)) => {
            if plain(text, old)? == entry.value() {
                return Ok(Edit::Unchanged);
            }
            let written = style.write(entry, &inner);
            Ok(Edit::Changed(format!(
                "{}{written}{}",
                &text[..old.start],
                &text[old.end..]
            )))
        }
        None => Ok(Edit::Changed(insert(
            text, holder, name, entry, &inner, &style,
        ))),
    }
}

/// The indentation of an object's members (the first member's line's, else its own line's
/// and a `unit` more), and the unit a level adds (their difference; `unit` when they tell
/// none).
fn indent_of(
    text: &str,
    first_key: Option<usize>,
    object: &Spanned,
    unit: &str,
) -> (String, String) {
    let line_start = |at: usize| text[..at].rfind('\n').map_or(0, |n| n + 1);
    let lead = |at: usize| -> String {
        text[line_start(at)..]
            .chars()
            .take_while(|c| *c == ' ' || *c == '\t')
            .collect()
    };
    let own = lead(object.start);
    if let Some(key) = first_key {
        let start = line_start(key);
        let before = &text[start..key];
        if start > line_start(object.start) && before.chars().all(|c| c == ' ' || c == '\t') {
            let found = before.strip_prefix(own.as_str()).filter(|u| !u.is_empty());
            return (before.to_owned(), found.unwrap_or(unit).to_owned());
        }
    }
    (format!("{own}{unit}"), unit.to_owned())
}

/// `text` with `"key": value` added as `object`'s last member.
fn insert(
    text: &str,
    object: &Spanned,
    key: &str,
    value: &Node,
    indent: &str,
    style: &Style,
) -> String {
    let close = object.end - 1;
    let members = object.members.as_deref().unwrap_or_default();
    let key = Value::from(key).to_string();
    if style.compact {
        let member = format!("{key}:{}", style.write(value, indent));
        let comma = if members.is_empty() { "" } else { "," };
        let at = members
            .last()
            .map_or(object.start + 1, |(_, _, last)| last.end);
        return format!("{}{comma}{member}{}", &text[..at], &text[at..]);
    }
    let member = format!("{key}: {}", style.write(value, indent));
    let Some((_, _, last)) = members.last() else {
        let line = text[..object.start].rfind('\n').map_or(0, |n| n + 1);
        let closing: String = text[line..]
            .chars()
            .take_while(|c| *c == ' ' || *c == '\t')
            .collect();
        return format!(
            "{}\n{indent}{member}\n{closing}{}",
            &text[..object.start + 1],
            &text[close..]
        );
    };
    // A trailing comma after the last member stays one, after the new member.
    let mut after_last = Reader {
        text: &text[..close],
        at: last.end,
    };
    if after_last.skip().is_ok() && after_last.peek() == Some(b',') {
        let after = after_last.at + 1;
        return format!("{}\n{indent}{member},{}", &text[..after], &text[after..]);
    }
    format!(
        "{},\n{indent}{member}{}",
        &text[..last.end],
        &text[last.end..]
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn node(value: Value) -> Node {
        Node::Plain(value)
    }

    fn changed(text: &str, name: &str, entry: Value) -> String {
        match upsert(text, "servers", name, &node(entry)).unwrap() {
            Edit::Changed(text) => text,
            Edit::Unchanged => panic!("unchanged"),
        }
    }

    #[test]
    fn an_entry_is_added_replaced_or_left_and_every_other_byte_kept() {
        let text = "{\n  // mine\n  \"servers\": {\n    \"a\": { \"command\": \"x\" } /* keep */\n  },\n  \"other\": [1, 2,],\n}\n";
        let added = changed(text, "b", json!({ "command": "y", "args": ["-v"] }));
        assert_eq!(
            added,
            "{\n  // mine\n  \"servers\": {\n    \"a\": { \"command\": \"x\" },\n    \"b\": {\n      \"args\": [\"-v\"],\n      \"command\": \"y\"\n    } /* keep */\n  },\n  \"other\": [1, 2,],\n}\n"
        );
        assert_eq!(
            upsert(
                &added,
                "servers",
                "b",
                &node(json!({ "args": ["-v"], "command": "y" }))
            )
            .unwrap(),
            Edit::Unchanged,
            "a second run writes nothing"
        );
        let replaced = changed(&added, "a", json!({ "command": "z" }));
        assert!(replaced.starts_with("{\n  // mine\n  \"servers\": {\n    \"a\": {\n      \"command\": \"z\"\n    },\n    \"b\""), "{replaced}");
        assert!(replaced.ends_with("/* keep */\n  },\n  \"other\": [1, 2,],\n}\n"));
    }

    #[test]
    fn members_keep_the_order_given() {
        let entry = Node::Object(vec![
            ("type".into(), node(json!("stdio"))),
            ("command".into(), node(json!("w"))),
        ]);
        assert_eq!(
            upsert("", "servers", "w", &entry).unwrap(),
            Edit::Changed("{\n  \"servers\": {\n    \"w\": {\n      \"type\": \"stdio\",\n      \"command\": \"w\"\n    }\n  }\n}\n".into())
        );
    }

    #[test]
    fn a_missing_container_or_file_is_made_in_the_files_style() {
        assert_eq!(
            changed("", "a", json!({ "command": "x" })),
            "{\n  \"servers\": {\n    \"a\": {\n      \"command\": \"x\"\n    }\n  }\n}\n"
        );
        assert_eq!(
            changed("{\"theme\":1}", "a", json!({ "args": ["x"] })),
            "{\"theme\":1,\"servers\":{\"a\":{\"args\":[\"x\"]}}}",
            "a file on one line stays on one line"
        );
        assert_eq!(changed("{}", "a", json!(1)), "{\"servers\":{\"a\":1}}");
        assert_eq!(
            changed("{\n}", "a", json!(1)),
            "{\n  \"servers\": {\n    \"a\": 1\n  }\n}"
        );
        assert_eq!(
            changed("{\n\t\"servers\": {},\n}", "a", json!({ "b": 1 })),
            "{\n\t\"servers\": {\n\t\t\"a\": {\n\t\t\t\"b\": 1\n\t\t}\n\t},\n}",
            "tabs a level, as the file has them"
        );
        assert_eq!(
            changed(
                "{\n    \"servers\": {\n        \"x\": 1\n    }\n}",
                "a",
                json!({ "b": 1 })
            ),
            "{\n    \"servers\": {\n        \"x\": 1,\n        \"a\": {\n            \"b\": 1\n        }\n    }\n}",
            "four spaces a level"
        );
    }

    #[test]
    fn a_file_that_is_not_an_object_of_objects_is_refused_by_line() {
        let entry = node(json!(1));
        assert_eq!(
            upsert("[1]", "servers", "a", &entry).unwrap_err(),
            "line 1: the document is not an object"
        );
        assert!(
            upsert("{\n\"servers\": 3}", "servers", "a", &entry)
                .unwrap_err()
                .starts_with("line 2:")
        );
        assert!(upsert("{\"a\": 1", "servers", "a", &entry).is_err());
        assert!(upsert("{} x", "servers", "a", &entry).is_err());
        assert!(upsert("{/* x", "servers", "a", &entry).is_err());
    }
}

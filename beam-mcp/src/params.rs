//! A request's params as read: the two members nearly every call carries (`name` and
//! `arguments`, a `tools/call`'s or `prompts/get`'s) kept in fields, every other member in a
//! map. Read from bytes, those two take no key of their own, no place in a map and no removal;
//! to every reader the params look like the one map a client sent.

use std::sync::OnceLock;

use serde_json::{Map, Value};

use crate::arguments::Arguments;
use crate::json::Sparse;

/// The params of a request, `_meta` apart (read into its own parts).
///
/// A member is in exactly one place: `name` and `arguments` are in their fields when the reader
/// put them there (`protocol/top.rs`, the one writer of the fields), in `rest` when the params
/// came from a map (a middleware's, a host's value).
#[derive(Debug, Default, Clone, PartialEq)]
pub(crate) struct Params {
    pub(crate) name: Option<Name>,
    pub(crate) arguments: Option<Arguments>,
    pub(crate) rest: Sparse,
}

/// Where a key of the params is kept.
enum Place {
    Name,
    Arguments,
    Rest,
}

fn place(key: &str) -> Place {
    match key {
        "name" => Place::Name,
        "arguments" => Place::Arguments,
        _ => Place::Rest,
    }
}

impl Params {
    fn field(&self, place: &Place) -> Option<&Value> {
        match place {
            Place::Name => self.name.as_ref().map(Name::value),
            Place::Arguments => self.arguments.as_ref().map(Arguments::as_value),
            Place::Rest => None,
        }
    }

    /// The member `key`, wherever it is kept.
    pub(crate) fn get(&self, key: &str) -> Option<&Value> {
        self.field(&place(key)).or_else(|| self.rest.get(key))
    }

    /// Takes the member `key` out.
    pub(crate) fn remove(&mut self, key: &str) -> Option<Value> {
        let taken = match place(key) {
            Place::Name => self.name.take().map(Name::into_value),
            Place::Arguments => self.arguments.take().map(Arguments::into_value),
            Place::Rest => None,
        };
        taken.or_else(|| self.rest.remove(key))
    }

    /// Takes `arguments` out as read (kept as members where they were read so), or from the map.
    pub(crate) fn take_arguments(&mut self) -> Option<Arguments> {
        self.arguments
            .take()
            .or_else(|| self.rest.remove("arguments").map(Arguments::from))
    }

    /// `name`, when it is a string: read where it is kept, no value made for it.
    pub(crate) fn name(&self) -> Option<&str> {
        match &self.name {
            Some(name) => name.as_str(),
            None => self.rest.get("name").and_then(Value::as_str),
        }
    }

    /// [`name`](Self::name)'s bytes, not checked as text again (for a look-up by name).
    pub(crate) fn name_bytes(&self) -> Option<&[u8]> {
        match &self.name {
            Some(name) => name.as_bytes(),
            None => self
                .rest
                .get("name")
                .and_then(Value::as_str)
                .map(str::as_bytes),
        }
    }

    /// The members' keys, in no particular order.
    pub(crate) fn keys(&self) -> impl Iterator<Item = &str> {
        let name = self.name.as_ref().map(|_| "name");
        let arguments = self.arguments.as_ref().map(|_| "arguments");
        name.into_iter()
            .chain(arguments)
            .chain(self.rest.keys().map(String::as_str))
    }

    /// The params as one map (for a middleware, or a message relayed as it was sent).
    pub(crate) fn into_map(self) -> Map<String, Value> {
        let mut map = self.rest.into_inner();
        if let Some(name) = self.name {
            map.insert("name".to_owned(), name.into_value());
        }
        if let Some(arguments) = self.arguments {
            map.insert("arguments".to_owned(), arguments.into_value());
        }
        map
    }
}

/// The longest `name` kept inline.
const SHORT: usize = 22;

/// `params.name` as read: a string of up to [`SHORT`] bytes kept inline (a tool's or prompt's
/// name, mostly: no allocation), anything else as its value; the value of a short one is made
/// the first time it is asked as a value.
#[derive(Clone)]
pub(crate) struct Name {
    short: Option<(u8, [u8; SHORT])>,
    value: OnceLock<Value>,
}

impl Name {
    /// A string `name`.
    pub(crate) fn of_str(text: &str) -> Name {
        let mut bytes = [0u8; SHORT];
        match (u8::try_from(text.len()), bytes.get_mut(..text.len())) {
            (Ok(len), Some(place)) => {
                place.copy_from_slice(text.as_bytes());
                Name {
                    short: Some((len, bytes)),
                    value: OnceLock::new(),
                }
            }
            _ => Name::of_value(Value::String(text.to_owned())),
        }
    }

    /// A `name` of any other kind, or a long one.
    pub(crate) fn of_value(value: Value) -> Name {
        Name {
            short: None,
            value: OnceLock::from(value),
        }
    }

    /// The name, if it is a string.
    pub(crate) fn as_str(&self) -> Option<&str> {
        match &self.short {
            // Copied whole from a `&str`: always UTF-8.
            Some((len, bytes)) => std::str::from_utf8(&bytes[..usize::from(*len)]).ok(),
            None => self.value.get().and_then(Value::as_str),
        }
    }

    /// The name's bytes, if it is a string.
    pub(crate) fn as_bytes(&self) -> Option<&[u8]> {
        match &self.short {
            Some((len, bytes)) => Some(&bytes[..usize::from(*len)]),
            None => self.value.get().and_then(Value::as_str).map(str::as_bytes),
        }
    }

    /// The name as a value.
    pub(crate) fn value(&self) -> &Value {
        self.value
            .get_or_init(|| Value::from(self.as_str().unwrap_or_default()))
    }

    pub(crate) fn into_value(mut self) -> Value {
        match self.value.take() {
            Some(value) => value,
            None => Value::from(self.as_str().unwrap_or_default()),
        }
    }
}

impl std::fmt::Debug for Name {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.as_str() {
            Some(text) => text.fmt(f),
            None => self.value().fmt(f),
        }
    }
}

impl PartialEq for Name {
    fn eq(&self, other: &Self) -> bool {
        self.value() == other.value()
    }
}

impl From<Map<String, Value>> for Params {
    /// Every member in the map: a lookup of `name` or `arguments` finds it there.
    fn from(rest: Map<String, Value>) -> Self {
        Params {
            name: None,
            arguments: None,
            rest: rest.into(),
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn read() -> Params {
        Params {
            name: Some(Name::of_str("t")),
            arguments: Some(Arguments::from(json!({"a": 1}))),
            rest: json!({"cursor": "c"})
                .as_object()
                .cloned()
                .unwrap_or_default()
                .into(),
        }
    }

    fn from_map() -> Params {
        let map = json!({"name": "t", "arguments": {"a": 1}, "cursor": "c"});
        Params::from(map.as_object().cloned().unwrap_or_default())
    }

    #[test]
    fn members_are_found_wherever_they_are_kept() {
        for params in [read(), from_map()] {
            assert_eq!(params.get("name"), Some(&json!("t")));
            assert_eq!(params.get("arguments"), Some(&json!({"a": 1})));
            assert_eq!(params.get("cursor"), Some(&json!("c")));
            assert_eq!(params.get("uri"), None);
            assert!(params.get("arguments").is_some() && params.get("uri").is_none());
            let mut keys: Vec<&str> = params.keys().collect();
            keys.sort_unstable();
            assert_eq!(keys, ["arguments", "cursor", "name"]);
            assert_eq!(
                Value::Object(params.into_map()),
                json!({"name": "t", "arguments": {"a": 1}, "cursor": "c"})
            );
        }
    }

    #[test]
    fn a_round_binds_the_same_params_alike_wherever_they_are_kept() {
        use crate::ask::state::Binding;
        let digest = |params: &Params| Binding::new("tools/call", params, None).params;
        assert_eq!(digest(&read()), digest(&from_map()));
        let changed = Params {
            arguments: Some(Arguments::from(json!({"a": 2}))),
            ..read()
        };
        assert_ne!(digest(&read()), digest(&changed));
    }

    #[test]
    fn a_name_reads_the_same_however_it_is_kept() {
        let short = "é".repeat(11); // 22 bytes: the longest kept inline
        let long = "é".repeat(12);
        for sent in [
            json!("t"),
            json!(""),
            json!(short),
            json!(long),
            json!(42),
            json!({"a": [1]}),
        ] {
            let name = match &sent {
                Value::String(text) => Name::of_str(text),
                other => Name::of_value(other.clone()),
            };
            let params = Params {
                name: Some(name),
                ..Params::default()
            };
            assert_eq!(params.name(), sent.as_str());
            assert_eq!(params.name_bytes(), sent.as_str().map(str::as_bytes));
            assert_eq!(params.get("name"), Some(&sent));
            let from_map = Params::from(json!({ "name": sent }).as_object().cloned().unwrap());
            assert_eq!(from_map.name(), sent.as_str());
            assert_eq!(params.clone().into_map(), from_map.into_map());
            let mut params = params;
            assert_eq!(params.remove("name"), Some(sent.clone()));
            assert_eq!(params.name(), None);
        }
    }

    #[test]
    fn members_leave_wherever_they_are_kept() {
        for mut params in [read(), from_map()] {
            assert_eq!(params.remove("name"), Some(json!("t")));
            assert_eq!(params.remove("name"), None);
            assert_eq!(params.get("name"), None);
            assert_eq!(params.remove("cursor"), Some(json!("c")));
            assert_eq!(
                Value::Object(params.into_map()),
                json!({"arguments": {"a": 1}})
            );
        }
    }
}

//! A request's params as read: the two members nearly every call carries (`name` and
//! `arguments`, a `tools/call`'s or `prompts/get`'s) kept in fields, every other member in a
//! map. Read from bytes, those two take no key of their own, no place in a map and no removal;
//! to every reader the params look like the one map a client sent.

use serde_json::{Map, Value};

/// The params of a request, `_meta` apart (read into its own parts).
///
/// A member is in exactly one place: `name` and `arguments` are in their fields when the reader
/// put them there (`protocol/top.rs`, the one writer of the fields), in `rest` when the params
/// came from a map (a middleware's, a host's value).
#[derive(Debug, Default, Clone, PartialEq)]
pub(crate) struct Params {
    pub(crate) name: Option<Value>,
    pub(crate) arguments: Option<Value>,
    pub(crate) rest: Map<String, Value>,
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
            Place::Name => self.name.as_ref(),
            Place::Arguments => self.arguments.as_ref(),
            Place::Rest => None,
        }
    }

    fn field_mut(&mut self, place: &Place) -> Option<&mut Option<Value>> {
        match place {
            Place::Name => Some(&mut self.name),
            Place::Arguments => Some(&mut self.arguments),
            Place::Rest => None,
        }
    }

    /// The member `key`, wherever it is kept.
    pub(crate) fn get(&self, key: &str) -> Option<&Value> {
        self.field(&place(key)).or_else(|| self.rest.get(key))
    }

    /// Takes the member `key` out.
    pub(crate) fn remove(&mut self, key: &str) -> Option<Value> {
        let taken = self.field_mut(&place(key)).and_then(Option::take);
        taken.or_else(|| self.rest.remove(key))
    }

    /// Whether the params have a member `key`.
    pub(crate) fn contains_key(&self, key: &str) -> bool {
        self.get(key).is_some()
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
        let mut map = self.rest;
        if let Some(name) = self.name {
            map.insert("name".to_owned(), name);
        }
        if let Some(arguments) = self.arguments {
            map.insert("arguments".to_owned(), arguments);
        }
        map
    }
}

impl From<Map<String, Value>> for Params {
    /// Every member in the map: a lookup of `name` or `arguments` finds it there.
    fn from(rest: Map<String, Value>) -> Self {
        Params {
            name: None,
            arguments: None,
            rest,
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn read() -> Params {
        Params {
            name: Some(json!("t")),
            arguments: Some(json!({"a": 1})),
            rest: json!({"cursor": "c"})
                .as_object()
                .cloned()
                .unwrap_or_default(),
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
            assert!(params.contains_key("arguments") && !params.contains_key("uri"));
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
            arguments: Some(json!({"a": 2})),
            ..read()
        };
        assert_ne!(digest(&read()), digest(&changed));
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

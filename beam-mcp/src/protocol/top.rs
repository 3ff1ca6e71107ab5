//! A message's top level, read in the bounded reader's one pass and under its rules, its
//! members kept apart instead of in a map: no key is copied, no tree is built for the top
//! object, and `"jsonrpc": "2.0"` is compared where it is read. Every value below the top is
//! read by [`ValueSeed`], and a top level that is no object is read whole, so the faults
//! reported (syntax, nesting, a repeated key, the first met reading left to right) are
//! exactly those of [`json::read`](crate::json::read).

use std::collections::BTreeSet;
use std::fmt;

use serde::de::{self, DeserializeSeed, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Value};

use crate::json::{self, Fault, JsonError, ValueSeed};

/// A message's top level.
#[derive(Debug)]
pub(crate) enum Top {
    /// An object, its members apart.
    Object(Members),
    /// Anything else (an array: a batch; a scalar), read whole.
    Other(Value),
}

/// The members of a top-level object the core reads; the others are read (under the rules)
/// and dropped.
#[derive(Debug, Default)]
pub(crate) struct Members {
    /// `jsonrpc` is there and is the string `"2.0"`.
    pub(crate) jsonrpc: bool,
    pub(crate) id: Option<Value>,
    pub(crate) method: Option<Value>,
    pub(crate) params: Option<Value>,
    pub(crate) result: Option<Value>,
    pub(crate) error: Option<Value>,
    /// A top-level `_meta` was there (refused: it belongs in `params`).
    pub(crate) meta: bool,
}

impl Members {
    /// The members of a decoded object (hosts that call the core with a `Value`).
    pub(crate) fn of(mut map: Map<String, Value>) -> Members {
        Members {
            jsonrpc: map.get("jsonrpc").and_then(Value::as_str) == Some("2.0"),
            id: map.remove("id"),
            method: map.remove("method"),
            params: map.remove("params"),
            result: map.remove("result"),
            error: map.remove("error"),
            meta: map.contains_key("_meta"),
        }
    }

    /// The method, if it is a string.
    pub(crate) fn method(&self) -> Option<&str> {
        self.method.as_ref().and_then(Value::as_str)
    }

    /// A response (to a request the server sent): no method, and a result or an error.
    pub(crate) fn is_response(&self) -> bool {
        self.method.is_none() && (self.result.is_some() || self.error.is_some())
    }

    /// The response as an object of `jsonrpc`, `id`, `result` or `error` (what another replica
    /// serving the session is given).
    pub(crate) fn response_object(&self) -> Map<String, Value> {
        let mut object = Map::new();
        if self.jsonrpc {
            object.insert("jsonrpc".into(), Value::from("2.0"));
        }
        let parts = [
            ("id", &self.id),
            ("result", &self.result),
            ("error", &self.error),
        ];
        for (key, value) in parts {
            if let Some(value) = value {
                object.insert(key.into(), value.clone());
            }
        }
        object
    }
}

/// Reads one message's top level (a transport has bounded its size).
pub(crate) fn read(bytes: &[u8]) -> Result<Top, JsonError> {
    let fault = Fault::new(None);
    json::read_seeded(bytes, &fault, TopSeed(ValueSeed::at(0, &fault)))
}

/// The top level: an object's members apart, anything else whole.
struct TopSeed<'f>(ValueSeed<'f>);

impl<'de> DeserializeSeed<'de> for TopSeed<'_> {
    type Value = Top;

    fn deserialize<D: de::Deserializer<'de>>(self, deserializer: D) -> Result<Top, D::Error> {
        deserializer.deserialize_any(self)
    }
}

/// The keys the core reads at the top level; any other is kept only to find a repeat.
enum Key {
    Jsonrpc,
    Id,
    Method,
    Params,
    Result,
    Error,
    Meta,
    Other(String),
}

struct KeySeed;

impl<'de> DeserializeSeed<'de> for KeySeed {
    type Value = Key;

    fn deserialize<D: de::Deserializer<'de>>(self, deserializer: D) -> Result<Key, D::Error> {
        deserializer.deserialize_str(self)
    }
}

impl Visitor<'_> for KeySeed {
    type Value = Key;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a key")
    }

    // Keys arrive unescaped (`"\u0069d"` is `id`), as the map reader compares them.
    fn visit_str<E>(self, key: &str) -> Result<Key, E> {
        Ok(match key {
            "jsonrpc" => Key::Jsonrpc,
            "id" => Key::Id,
            "method" => Key::Method,
            "params" => Key::Params,
            "result" => Key::Result,
            "error" => Key::Error,
            "_meta" => Key::Meta,
            other => Key::Other(other.to_owned()),
        })
    }
}

/// `jsonrpc`'s value: whether it is the string `"2.0"`, any other value read under the rules.
struct VersionSeed<'f>(ValueSeed<'f>);

impl<'de> DeserializeSeed<'de> for VersionSeed<'_> {
    type Value = bool;

    fn deserialize<D: de::Deserializer<'de>>(self, deserializer: D) -> Result<bool, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for VersionSeed<'_> {
    type Value = bool;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_str<E>(self, v: &str) -> Result<bool, E> {
        Ok(v == "2.0")
    }

    fn visit_bool<E>(self, _: bool) -> Result<bool, E> {
        Ok(false)
    }

    fn visit_i64<E>(self, _: i64) -> Result<bool, E> {
        Ok(false)
    }

    fn visit_u64<E>(self, _: u64) -> Result<bool, E> {
        Ok(false)
    }

    fn visit_f64<E>(self, _: f64) -> Result<bool, E> {
        Ok(false)
    }

    fn visit_unit<E>(self) -> Result<bool, E> {
        Ok(false)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<bool, A::Error> {
        self.0.visit_seq(seq).map(|_| false)
    }

    fn visit_map<A: MapAccess<'de>>(self, access: A) -> Result<bool, A::Error> {
        self.0.visit_map(access).map(|_| false)
    }
}

impl<'de> Visitor<'de> for TopSeed<'_> {
    type Value = Top;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_bool<E>(self, v: bool) -> Result<Top, E> {
        Ok(Top::Other(Value::Bool(v)))
    }

    fn visit_i64<E>(self, v: i64) -> Result<Top, E> {
        Ok(Top::Other(Value::from(v)))
    }

    fn visit_u64<E>(self, v: u64) -> Result<Top, E> {
        Ok(Top::Other(Value::from(v)))
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Top, E> {
        self.0.visit_f64(v).map(Top::Other)
    }

    fn visit_str<E>(self, v: &str) -> Result<Top, E> {
        Ok(Top::Other(Value::String(v.to_owned())))
    }

    fn visit_unit<E>(self) -> Result<Top, E> {
        Ok(Top::Other(Value::Null))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Top, A::Error> {
        self.0.visit_seq(seq).map(Top::Other)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut access: A) -> Result<Top, A::Error> {
        let inside = self.0.inside()?;
        let mut members = Members::default();
        let (mut jsonrpc_seen, mut others) = (false, BTreeSet::new());
        while let Some(key) = access.next_key_seed(KeySeed)? {
            // A repeat is refused when its key is read, before its value, as the map reader
            // does: the first fault reading left to right.
            let place = match key {
                Key::Jsonrpc => {
                    if std::mem::replace(&mut jsonrpc_seen, true) {
                        return Err(inside.repeated("jsonrpc".into()));
                    }
                    members.jsonrpc = access.next_value_seed(VersionSeed(inside))?;
                    continue;
                }
                Key::Meta => {
                    if std::mem::replace(&mut members.meta, true) {
                        return Err(inside.repeated("_meta".into()));
                    }
                    access.next_value_seed(inside)?;
                    continue;
                }
                Key::Other(key) => {
                    if others.contains(&key) {
                        return Err(inside.repeated(key));
                    }
                    others.insert(key);
                    access.next_value_seed(inside)?;
                    continue;
                }
                Key::Id => (&mut members.id, "id"),
                Key::Method => (&mut members.method, "method"),
                Key::Params => (&mut members.params, "params"),
                Key::Result => (&mut members.result, "result"),
                Key::Error => (&mut members.error, "error"),
            };
            let (slot, name) = place;
            if slot.is_some() {
                return Err(inside.repeated(name.into()));
            }
            *slot = Some(access.next_value_seed(inside)?);
        }
        Ok(Top::Object(members))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What the core reads of a top level: `jsonrpc`, the five members, `_meta`.
    type Seen = (bool, Vec<Option<Value>>, bool);

    /// What `json::read` makes of the same bytes, as the top level the core reads.
    fn through_value(bytes: &[u8]) -> Result<Option<Seen>, JsonError> {
        json::read(bytes).map(|value| match value {
            Value::Object(map) => Some(seen(Members::of(map))),
            _ => None,
        })
    }

    fn seen(m: Members) -> Seen {
        (
            m.jsonrpc,
            vec![m.id, m.method, m.params, m.result, m.error],
            m.meta,
        )
    }

    fn direct(bytes: &[u8]) -> Result<Option<Seen>, JsonError> {
        read(bytes).map(|top| match top {
            Top::Object(members) => Some(seen(members)),
            Top::Other(_) => None,
        })
    }

    #[test]
    fn the_top_level_reads_as_the_value_reader_reads_it() {
        let cases: &[&[u8]] = &[
            br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"a","arguments":{"x":[1,{"y":null}]}}}"#,
            br#"{"jsonrpc":"2.0","id":"x","result":{"a":1}}"#,
            br#"{"jsonrpc":"2.0","id":7,"error":{"code":-1,"message":"m"}}"#,
            br#"{"jsonrpc":"1.0","method":"m"}"#,
            br#"{"jsonrpc":{"v":"2.0"},"method":"m"}"#,
            br#"{"jsonrpc":["2.0"],"method":3}"#,
            br#"{"jsonrpc":2.0,"method":"m","_meta":{}}"#,
            br#"{"\u006aSONRPC":"2.0","\u0069d":1,"method":"m","extra":1,"more":[1,2]}"#,
            br#"{"jsonrpc":"2\u002e0","method":"m","params":[]}"#,
            br#"{}"#,
            br#"{"id":1,"id":2}"#,
            br#"{"id":1,"\u0069d":2}"#,
            br#"{"jsonrpc":"2.0","jsonrpc":"2.0"}"#,
            br#"{"_meta":1,"_meta":2}"#,
            br#"{"x":1,"y":2,"x":3}"#,
            br#"{"params":{"a":1,"a":2}}"#,
            br#"{"x":{"k":1,"k":2},"x":1}"#,
            br#"{"id":1,"id":[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]"#,
            br#"{"jsonrpc":"2.0""#,
            br#"{"jsonrpc":"2.0"} x"#,
            b"{\"jsonrpc\":\"\xff\"}",
            br#"[{"jsonrpc":"2.0"}]"#,
            br#""2.0""#,
            br#"null"#,
        ];
        for case in cases {
            assert_eq!(
                direct(case),
                through_value(case),
                "{}",
                String::from_utf8_lossy(case)
            );
        }
    }

    #[test]
    fn depth_is_counted_from_the_top_object_as_the_value_reader_counts_it() {
        // The top object is level 1; 63 arrays inside it reach 64.
        let within = format!(r#"{{"params":{}1{}}}"#, "[".repeat(63), "]".repeat(63));
        assert_eq!(direct(within.as_bytes()), through_value(within.as_bytes()));
        assert!(direct(within.as_bytes()).is_ok());
        let deeper = format!(r#"{{"params":{}1{}}}"#, "[".repeat(64), "]".repeat(64));
        assert_eq!(direct(deeper.as_bytes()), Err(JsonError::TooDeep));
        assert_eq!(through_value(deeper.as_bytes()), Err(JsonError::TooDeep));
        let version = format!(r#"{{"jsonrpc":{}1{}}}"#, "[".repeat(64), "]".repeat(64));
        assert_eq!(direct(version.as_bytes()), Err(JsonError::TooDeep));
        let batch = format!("[{}]", "[".repeat(64).to_string() + &"]".repeat(64));
        assert_eq!(direct(batch.as_bytes()), Err(JsonError::TooDeep));
    }

    #[test]
    fn many_unknown_keys_are_read_and_a_late_repeat_found() {
        let mut message = String::from("{");
        for i in 0..20_000 {
            message.push_str(&format!(r#""k{i}":{i},"#));
        }
        message.push_str(r#""k19999":0}"#);
        assert_eq!(
            direct(message.as_bytes()),
            Err(JsonError::DuplicateKey("k19999".into()))
        );
    }

    #[test]
    fn a_response_is_given_on_as_an_object_of_its_parts() {
        let Ok(Top::Object(members)) = read(br#"{"jsonrpc":"2.0","id":3,"result":{"a":1},"x":1}"#)
        else {
            panic!("an object")
        };
        assert!(members.is_response());
        assert_eq!(
            Value::Object(members.response_object()),
            serde_json::json!({ "jsonrpc": "2.0", "id": 3, "result": { "a": 1 } })
        );
    }
}

//! A call's `arguments` as the server read them: a small object kept as its members (each key
//! inline, no map built, no key allocated), anything else as a [`Value`]. A tool's typed
//! parameters are decoded from the members directly; a `Value` is made only for a reader that
//! asks for one (a middleware, the full schema evaluation, a hand-written handler).

use std::fmt;
use std::sync::OnceLock;

use serde::de::{self, DeserializeOwned, DeserializeSeed, MapAccess, Visitor};
use serde_json::{Map, Value};

/// The longest key kept inline.
const SHORT: usize = 22;

/// The most members kept without a map.
const MOST: usize = 16;

/// A `tools/call`'s `arguments`, as read (see the module's documentation): what a
/// [`ToolArgumentsHandler`](crate::tool::ToolArgumentsHandler) is handed.
///
/// ```
/// use beam_mcp::tool::Arguments;
/// use serde_json::json;
///
/// let arguments = Arguments::from(json!({"place": "Paris"}));
/// assert_eq!(arguments.as_value(), &json!({"place": "Paris"}));
/// assert_eq!(arguments.into_value(), json!({"place": "Paris"}));
/// ```
#[derive(Clone)]
pub struct Arguments(Kept);

/// How the arguments are kept. Small (a `Value`'s size): a request's params are moved whole
/// several times on their way to the method.
#[derive(Clone)]
enum Kept {
    Value(Value),
    /// The members, and their value once a reader asked for one.
    Members(SmallObject, OnceLock<Box<Value>>),
}

/// An object's members in the order sent, no key repeated, each key at most [`SHORT`] bytes.
#[derive(Clone, Default)]
pub(crate) struct SmallObject(Vec<(Key, Value)>);

/// A key of at most [`SHORT`] bytes, copied from a `&str`.
#[derive(Clone, Copy)]
struct Key {
    len: u8,
    bytes: [u8; SHORT],
}

impl Key {
    fn new(text: &str) -> Option<Key> {
        let mut bytes = [0u8; SHORT];
        let len = u8::try_from(text.len()).ok()?;
        bytes
            .get_mut(..text.len())?
            .copy_from_slice(text.as_bytes());
        Some(Key { len, bytes })
    }

    fn as_bytes(&self) -> &[u8] {
        &self.bytes[..usize::from(self.len)]
    }

    fn as_str(&self) -> &str {
        // Copied whole from a `&str`: always UTF-8.
        std::str::from_utf8(self.as_bytes()).unwrap_or_default()
    }
}

impl SmallObject {
    /// Whether the object has the key `key`.
    pub(crate) fn contains(&self, key: &str) -> bool {
        self.get(key).is_some()
    }

    /// The member `key`.
    pub(crate) fn get(&self, key: &str) -> Option<&Value> {
        self.0
            .iter()
            .find(|(k, _)| k.as_bytes() == key.as_bytes())
            .map(|(_, value)| value)
    }

    /// How many members there are.
    pub(crate) fn len(&self) -> usize {
        self.0.len()
    }

    /// Adds a member whose key is not among the members yet; gives it back when it cannot be
    /// kept here (too many members, or a long key).
    pub(crate) fn push(&mut self, key: &str, value: Value) -> Result<(), Value> {
        match Key::new(key) {
            Some(key) if self.0.len() < MOST => {
                if self.0.capacity() == 0 {
                    // One allocation for the few members most calls have.
                    self.0 = Vec::with_capacity(4);
                }
                self.0.push((key, value));
                Ok(())
            }
            _ => Err(value),
        }
    }

    /// The members as a map.
    pub(crate) fn into_map(self) -> Map<String, Value> {
        self.0
            .into_iter()
            .map(|(key, value)| (key.as_str().to_owned(), value))
            .collect()
    }

    fn to_value(&self) -> Value {
        Value::Object(
            self.0
                .iter()
                .map(|(key, value)| (key.as_str().to_owned(), value.clone()))
                .collect(),
        )
    }
}

impl Arguments {
    /// Arguments kept as members.
    pub(crate) fn of_members(members: SmallObject) -> Arguments {
        Arguments(Kept::Members(members, OnceLock::new()))
    }

    /// The members, when the arguments are kept as such.
    pub(crate) fn members(&self) -> Option<&SmallObject> {
        match &self.0 {
            Kept::Members(members, _) => Some(members),
            Kept::Value(_) => None,
        }
    }

    /// Rewrites every whole number as an integer
    /// ([`whole_numbers_as_integers`](crate::schema::whole_numbers_as_integers)).
    pub(crate) fn whole_numbers_as_integers(&mut self) {
        match &mut self.0 {
            Kept::Members(members, value) => {
                for (_, value) in &mut members.0 {
                    crate::schema::whole_numbers_as_integers(value);
                }
                // A copy made before would be stale.
                if value.get().is_some() {
                    *value = OnceLock::new();
                }
            }
            Kept::Value(value) => crate::schema::whole_numbers_as_integers(value),
        }
    }

    /// Whether the arguments are an object.
    pub fn is_object(&self) -> bool {
        match &self.0 {
            Kept::Members(..) => true,
            Kept::Value(value) => value.is_object(),
        }
    }

    /// The arguments as a value (made from the members the first time it is asked).
    pub fn as_value(&self) -> &Value {
        match &self.0 {
            Kept::Members(members, value) => value.get_or_init(|| Box::new(members.to_value())),
            Kept::Value(value) => value,
        }
    }

    /// The arguments as a value.
    pub fn into_value(self) -> Value {
        match self.0 {
            Kept::Members(members, _) => Value::Object(members.into_map()),
            Kept::Value(value) => value,
        }
    }

    /// Deserializes the arguments as `T` (as `serde_json::from_value` would the value).
    ///
    /// ```
    /// #[derive(serde::Deserialize)]
    /// struct Weather {
    ///     place: String,
    /// }
    /// let arguments = beam_mcp::tool::Arguments::from(serde_json::json!({"place": "Oslo"}));
    /// let weather: Weather = arguments.decode().unwrap();
    /// assert_eq!(weather.place, "Oslo");
    /// ```
    pub fn decode<T: DeserializeOwned>(self) -> Result<T, serde_json::Error> {
        match self.0 {
            Kept::Members(members, _) => T::deserialize(MembersDeserializer(members.0.into_iter())),
            Kept::Value(value) => serde_json::from_value(value),
        }
    }
}

impl Default for Arguments {
    /// No arguments: an empty object.
    fn default() -> Arguments {
        Arguments::of_members(SmallObject::default())
    }
}

impl From<Value> for Arguments {
    fn from(value: Value) -> Arguments {
        Arguments(Kept::Value(value))
    }
}

impl fmt::Debug for Arguments {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.as_value().fmt(f)
    }
}

impl PartialEq for Arguments {
    fn eq(&self, other: &Self) -> bool {
        self.as_value() == other.as_value()
    }
}

/// The members as a map to serde: each value handed on as the `Value` it is, so a typed
/// decode reads (and fails) exactly as `serde_json::from_value` on the object would.
struct MembersDeserializer(std::vec::IntoIter<(Key, Value)>);

impl<'de> de::Deserializer<'de> for MembersDeserializer {
    type Error = serde_json::Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
        let mut access = MembersAccess {
            members: self.0,
            value: None,
        };
        let decoded = visitor.visit_map(&mut access)?;
        match access.members.len() {
            0 => Ok(decoded),
            left => Err(de::Error::invalid_length(left, &"fewer elements in map")),
        }
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
        visitor.visit_some(self)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value, Self::Error> {
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
        visitor.visit_unit()
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf unit unit_struct seq tuple tuple_struct map struct enum identifier
    }
}

/// A member's key to serde: a field name is matched on its bytes (a derived struct's field
/// visitor takes them as it takes text), anything else is handed the key as text.
struct KeyDeserializer<'k>(&'k Key);

impl<'de> de::Deserializer<'de> for KeyDeserializer<'_> {
    type Error = serde_json::Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
        visitor.visit_str(self.0.as_str())
    }

    fn deserialize_identifier<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
        // No UTF-8 check again: the key was copied from text.
        visitor.visit_bytes(self.0.as_bytes())
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf option unit unit_struct newtype_struct seq tuple tuple_struct map
        struct enum ignored_any
    }
}

struct MembersAccess {
    members: std::vec::IntoIter<(Key, Value)>,
    value: Option<Value>,
}

impl<'de> MapAccess<'de> for &mut MembersAccess {
    type Error = serde_json::Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, Self::Error> {
        let Some((key, value)) = self.members.next() else {
            return Ok(None);
        };
        self.value = Some(value);
        seed.deserialize(KeyDeserializer(&key)).map(Some)
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(
        &mut self,
        seed: V,
    ) -> Result<V::Value, Self::Error> {
        match self.value.take() {
            Some(value) => seed.deserialize(value),
            None => Err(de::Error::custom("value is missing")),
        }
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.members.len())
    }
}

#[cfg(test)]
mod tests {
    use serde::Deserialize;
    use serde_json::json;

    use super::*;

    fn kept(value: &Value) -> Arguments {
        let mut members = SmallObject::default();
        for (key, value) in value.as_object().into_iter().flatten() {
            assert!(members.push(key, value.clone()).is_ok());
        }
        Arguments::of_members(members)
    }

    #[derive(Debug, Deserialize, PartialEq)]
    #[serde(deny_unknown_fields)]
    struct Typed {
        place: String,
        days: Option<u8>,
        #[serde(default)]
        units: Units,
        tags: Vec<String>,
    }

    #[derive(Debug, Default, Deserialize, PartialEq)]
    #[serde(rename_all = "lowercase")]
    enum Units {
        #[default]
        Metric,
        Imperial,
    }

    #[test]
    fn members_decode_as_the_value_would() {
        let sent = [
            json!({"place": "Oslo", "days": 3, "units": "imperial", "tags": ["a"]}),
            json!({"place": "Oslo", "days": null, "tags": []}),
            json!({"tags": [], "place": "é"}),
            json!({"place": 5, "tags": []}),
            json!({"place": "Oslo", "days": 300, "tags": []}),
            json!({"place": "Oslo", "tags": [], "extra": 1}),
            json!({"place": "Oslo", "units": "kelvin", "tags": []}),
            json!({"days": 1, "tags": []}),
            json!({}),
        ];
        for value in sent {
            let from_value =
                serde_json::from_value::<Typed>(value.clone()).map_err(|e| e.to_string());
            let from_members = kept(&value).decode::<Typed>().map_err(|e| e.to_string());
            assert_eq!(from_members, from_value, "{value}");
            let from_value =
                serde_json::from_value::<Open>(value.clone()).map_err(|e| e.to_string());
            let from_members = kept(&value).decode::<Open>().map_err(|e| e.to_string());
            assert_eq!(from_members, from_value, "{value}");
            let from_value =
                serde_json::from_value::<Value>(value.clone()).map_err(|e| e.to_string());
            let from_members = kept(&value).decode::<Value>().map_err(|e| e.to_string());
            assert_eq!(from_members, from_value, "{value}");
        }
    }

    /// Keys read as text (a map's, a flattened struct's), not only as a field's name.
    #[derive(Debug, Deserialize, PartialEq)]
    struct Open {
        #[serde(alias = "place")]
        city: Option<String>,
        #[serde(flatten)]
        rest: std::collections::BTreeMap<String, Value>,
    }

    #[test]
    fn members_read_as_the_object_they_are() {
        let value = json!({"b": [1, {"c": null}], "a": "x", "é": 1.5});
        let arguments = kept(&value);
        assert!(arguments.is_object());
        assert_eq!(arguments.as_value(), &value);
        assert_eq!(arguments.clone().into_value(), value);
        assert_eq!(arguments, Arguments::from(value.clone()));
        let members = arguments
            .members()
            .map(|m| (m.len(), m.contains("a"), m.get("é").cloned()));
        assert_eq!(members, Some((3, true, Some(json!(1.5)))));
        assert!(!Arguments::from(json!([1])).is_object());
        assert_eq!(Arguments::default().into_value(), json!({}));
    }

    #[test]
    fn a_long_key_or_one_member_too_many_is_given_back() {
        let mut members = SmallObject::default();
        assert_eq!(
            members.push(&"k".repeat(SHORT + 1), json!(1)),
            Err(json!(1))
        );
        assert!(members.push(&"é".repeat(SHORT / 2), json!(1)).is_ok());
        for i in 1..MOST {
            assert!(members.push(&format!("k{i}"), json!(i)).is_ok());
        }
        assert_eq!(members.push("last", json!(0)), Err(json!(0)));
        assert_eq!(members.len(), MOST);
    }
}

//! A message's top level, read in the bounded reader's one pass and under its rules, its
//! members kept apart instead of in a map: no key is copied, no tree is built for the top
//! object, and `"jsonrpc": "2.0"` is compared where it is read. Every value below the top is
//! read by [`ValueSeed`], and a top level that is no object is read whole, so the faults
//! reported (syntax, nesting, a repeated key, the first met reading left to right) are
//! exactly those of [`json::read`](crate::json::read).

use std::borrow::Cow;
use std::collections::BTreeSet;
use std::fmt;

use serde::de::{self, DeserializeSeed, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Value};

use super::{META_CLIENT_CAPABILITIES, META_CLIENT_INFO, META_LOG_LEVEL, META_PROTOCOL_VERSION};
use crate::arguments::{Arguments, SmallObject};
use crate::json::{self, Fault, JsonError, Sparse, ValueSeed};
use crate::params::{Name, Params};
use crate::revision::Revision;

/// A member that is usually one of a few known strings (a method's name, a protocol version):
/// such a string is read as the static text it is, without an allocation; anything else as
/// the value reader reads it.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Text {
    Known(&'static str),
    Other(Value),
}

impl Text {
    /// `value`, a known string named by `known` as its static text.
    fn of(value: Value, known: fn(&str) -> Option<&'static str>) -> Text {
        match value {
            Value::String(text) => match known(&text) {
                Some(known) => Text::Known(known),
                None => Text::Other(Value::String(text)),
            },
            other => Text::Other(other),
        }
    }

    /// The string, if it is one.
    pub(crate) fn as_str(&self) -> Option<&str> {
        match self {
            Text::Known(text) => Some(text),
            Text::Other(value) => value.as_str(),
        }
    }

    /// The string, borrowed when known; anything else as it was read.
    pub(crate) fn into_string(self) -> Result<Cow<'static, str>, Value> {
        match self {
            Text::Known(text) => Ok(Cow::Borrowed(text)),
            Text::Other(Value::String(text)) => Ok(Cow::Owned(text)),
            Text::Other(other) => Err(other),
        }
    }

    /// The member as the value reader reads it.
    #[cfg(test)]
    pub(crate) fn into_value(self) -> Value {
        match self {
            Text::Known(text) => Value::String(text.to_owned()),
            Text::Other(value) => value,
        }
    }
}

/// The methods the core routes, as static text.
fn known_method(name: &str) -> Option<&'static str> {
    Some(match name {
        "tools/call" => "tools/call",
        "tools/list" => "tools/list",
        "resources/read" => "resources/read",
        "resources/list" => "resources/list",
        "resources/templates/list" => "resources/templates/list",
        "prompts/get" => "prompts/get",
        "prompts/list" => "prompts/list",
        "completion/complete" => "completion/complete",
        "server/discover" => "server/discover",
        "subscriptions/listen" => "subscriptions/listen",
        "initialize" => "initialize",
        "notifications/initialized" => "notifications/initialized",
        "notifications/cancelled" => "notifications/cancelled",
        "ping" => "ping",
        _ => return None,
    })
}

/// The protocol versions this build serves, as static text.
fn known_version(name: &str) -> Option<&'static str> {
    Revision::parse(name).map(Revision::as_str)
}

/// The members of a top-level object the core reads; the others are read (under the rules)
/// and dropped.
#[derive(Debug, Default)]
pub(crate) struct Members {
    /// `jsonrpc` is there and is the string `"2.0"`.
    pub(crate) jsonrpc: bool,
    pub(crate) id: Option<Value>,
    pub(crate) method: Option<Text>,
    /// The params, without their `_meta` when they are an object.
    pub(crate) params: Option<ParamsMember>,
    /// `params._meta`, when the params are an object that has one.
    pub(crate) params_meta: Option<MetaMember>,
    pub(crate) result: Option<Value>,
    pub(crate) error: Option<Value>,
    /// A top-level `_meta` was there (refused: it belongs in `params`).
    pub(crate) meta: bool,
    /// Set before reading: `params.arguments` read as a value, not kept as members (a
    /// server with middleware hands the arguments to it as a map).
    pub(crate) arguments_as_value: bool,
}

impl Members {
    /// The members of a decoded object (hosts that call the core with a `Value`).
    pub(crate) fn of(mut map: Map<String, Value>) -> Members {
        let mut params = map.remove("params");
        let params_meta = match &mut params {
            Some(Value::Object(params)) => params.remove("_meta").map(MetaMember::of),
            _ => None,
        };
        let params = params.map(|params| match params {
            Value::Object(map) => ParamsMember::Object(Params::from(map)),
            other => ParamsMember::Other(other),
        });
        Members {
            jsonrpc: map.get("jsonrpc").and_then(Value::as_str) == Some("2.0"),
            id: map.remove("id"),
            method: map
                .remove("method")
                .map(|method| Text::of(method, known_method)),
            params,
            params_meta,
            result: map.remove("result"),
            error: map.remove("error"),
            meta: map.contains_key("_meta"),
            arguments_as_value: true,
        }
    }

    /// The method, if it is a string.
    pub(crate) fn method(&self) -> Option<&str> {
        self.method.as_ref().and_then(Text::as_str)
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

/// `params._meta` as the core reads it: the members it acts on apart (their keys never copied),
/// every other one kept as sent (`protocolVersion` and a trace context among them: a host and
/// the telemetry read them there).
#[derive(Debug, Default, Clone, PartialEq)]
pub(crate) struct MetaParts {
    /// `io.modelcontextprotocol/protocolVersion`: the era and revision (see
    /// [`Context::revision`](crate::Context::revision)).
    pub(crate) protocol_version: Option<Text>,
    pub(crate) capabilities: Option<Capabilities>,
    pub(crate) client_info: Option<Value>,
    pub(crate) progress_token: Option<Value>,
    pub(crate) log_level: Option<Value>,
    pub(crate) rest: Sparse,
}

/// `_meta`'s client capabilities: an object's members (no map for `{}`, what most clients send:
/// an empty map's drop still walks it), or any other value (which the core refuses).
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Capabilities {
    Object(Sparse),
    Other(Value),
}

impl Capabilities {
    fn of(value: Value) -> Capabilities {
        match value {
            Value::Object(map) => Capabilities::Object(map.into()),
            other => Capabilities::Other(other),
        }
    }

    pub(crate) fn is_object(&self) -> bool {
        matches!(self, Capabilities::Object(_))
    }
}

/// `params`: an object, read apart ([`Params`]), or anything else (which the core refuses).
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum ParamsMember {
    Object(Params),
    Other(Value),
}

#[cfg(test)]
impl ParamsMember {
    /// The params as the value reader reads them (less `_meta`).
    pub(crate) fn into_value(self) -> Value {
        match self {
            ParamsMember::Object(params) => Value::Object(params.into_map()),
            ParamsMember::Other(value) => value,
        }
    }
}

/// `params._meta`: an object, read apart, or anything else (which the core refuses).
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum MetaMember {
    Object(MetaParts),
    Other(Value),
}

impl MetaMember {
    /// The member taken apart from its decoded value.
    fn of(value: Value) -> MetaMember {
        let Value::Object(mut rest) = value else {
            return MetaMember::Other(value);
        };
        MetaMember::Object(MetaParts {
            protocol_version: rest
                .remove(META_PROTOCOL_VERSION)
                .map(|version| Text::of(version, known_version)),
            capabilities: rest.remove(META_CLIENT_CAPABILITIES).map(Capabilities::of),
            client_info: rest.remove(META_CLIENT_INFO),
            progress_token: rest.remove(PROGRESS_TOKEN),
            log_level: rest.remove(META_LOG_LEVEL),
            rest: rest.into(),
        })
    }

    /// Its parts, when `_meta` is an object.
    pub(crate) fn parts(&self) -> Option<&MetaParts> {
        match self {
            MetaMember::Object(parts) => Some(parts),
            MetaMember::Other(_) => None,
        }
    }
}

impl MetaParts {
    /// The protocol version it names, if it names one as a string.
    pub(crate) fn version(&self) -> Option<&str> {
        self.protocol_version.as_ref().and_then(Text::as_str)
    }
}

const PROGRESS_TOKEN: &str = "progressToken";

/// Reads one message's top level: an object's members, or `None` for anything else.
#[cfg(test)]
pub(crate) fn read(bytes: &[u8]) -> Result<Option<Members>, JsonError> {
    let mut members = Members::default();
    Ok(read_into(bytes, &mut members)?.is_none().then_some(members))
}

/// Reads one message's top level: an object's members into `members` (a default one, filled
/// where it lies: a message is never moved out through serde's layers, each of which would
/// copy it), anything else returned whole.
pub(crate) fn read_into(bytes: &[u8], members: &mut Members) -> Result<Option<Value>, JsonError> {
    let fault = Fault::new(None);
    json::read_seeded(bytes, &fault, TopSeed(ValueSeed::at(0, &fault), members))
}

/// The visitor methods of a seed that reads a scalar or an array as the value reader (its
/// `.0`) does, the value wrapped by `$wrap`; strings and objects are the seed's own.
macro_rules! scalars_as_values {
    ($de:lifetime, $ty:ty, $wrap:expr) => {
        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("a JSON value")
        }

        fn visit_bool<E>(self, v: bool) -> Result<$ty, E> {
            Ok($wrap(Value::Bool(v)))
        }

        fn visit_i64<E>(self, v: i64) -> Result<$ty, E> {
            Ok($wrap(Value::from(v)))
        }

        fn visit_u64<E>(self, v: u64) -> Result<$ty, E> {
            Ok($wrap(Value::from(v)))
        }

        fn visit_f64<E: de::Error>(self, v: f64) -> Result<$ty, E> {
            self.0.visit_f64(v).map($wrap)
        }

        fn visit_unit<E>(self) -> Result<$ty, E> {
            Ok($wrap(Value::Null))
        }

        fn visit_seq<A: SeqAccess<$de>>(self, seq: A) -> Result<$ty, A::Error> {
            self.0.visit_seq(seq).map($wrap)
        }
    };
}

/// The visitor methods of a seed that writes what it reads where it is kept: any value but an
/// object is handed to `self.other`; `$seed` names the seed's [`ValueSeed`].
macro_rules! scalars_in_place {
    ($de:lifetime, $seed:tt) => {
        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("a JSON value")
        }

        fn visit_bool<E>(self, v: bool) -> Result<(), E> {
            self.other(Value::Bool(v))
        }

        fn visit_i64<E>(self, v: i64) -> Result<(), E> {
            self.other(Value::from(v))
        }

        fn visit_u64<E>(self, v: u64) -> Result<(), E> {
            self.other(Value::from(v))
        }

        fn visit_f64<E: de::Error>(self, v: f64) -> Result<(), E> {
            let value = self.$seed.visit_f64(v)?;
            self.other(value)
        }

        fn visit_str<E>(self, v: &str) -> Result<(), E> {
            self.other(Value::String(v.to_owned()))
        }

        fn visit_unit<E>(self) -> Result<(), E> {
            self.other(Value::Null)
        }

        fn visit_seq<A: SeqAccess<$de>>(self, seq: A) -> Result<(), A::Error> {
            let value = self.$seed.visit_seq(seq)?;
            self.other(value)
        }
    };
}

/// What a member read as a string where it is one becomes.
trait StrMember {
    type Member;

    /// The member a string makes.
    fn of_str(&self, text: &str) -> Self::Member;

    /// The member any other value makes.
    fn of_value(value: Value) -> Self::Member;
}

/// A [`Text`]: a string the function knows, as its static text.
struct Known(fn(&str) -> Option<&'static str>);

impl StrMember for Known {
    type Member = Text;

    fn of_str(&self, text: &str) -> Text {
        match (self.0)(text) {
            Some(known) => Text::Known(known),
            None => Text::Other(Value::String(text.to_owned())),
        }
    }

    fn of_value(value: Value) -> Text {
        Text::Other(value)
    }
}

/// `params.name`: a [`Name`], inline when short.
struct Named;

impl StrMember for Named {
    type Member = Name;

    fn of_str(&self, text: &str) -> Name {
        Name::of_str(text)
    }

    fn of_value(value: Value) -> Name {
        Name::of_value(value)
    }
}

/// A member read as `.1` makes it of a string, anything else as `.0` reads it.
struct StrSeed<'f, M>(ValueSeed<'f>, M);

impl<'de, M: StrMember> DeserializeSeed<'de> for StrSeed<'_, M> {
    type Value = M::Member;

    fn deserialize<D: de::Deserializer<'de>>(self, deserializer: D) -> Result<M::Member, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de, M: StrMember> Visitor<'de> for StrSeed<'_, M> {
    type Value = M::Member;

    scalars_as_values!('de, M::Member, M::of_value);

    fn visit_str<E>(self, v: &str) -> Result<M::Member, E> {
        Ok(self.1.of_str(v))
    }

    fn visit_map<A: MapAccess<'de>>(self, access: A) -> Result<M::Member, A::Error> {
        self.0.visit_map(access).map(M::of_value)
    }
}

/// The top level: an object's members apart, into `.1`; anything else whole, as its value.
struct TopSeed<'f, 'o>(ValueSeed<'f>, &'o mut Members);

impl<'de> DeserializeSeed<'de> for TopSeed<'_, '_> {
    type Value = Option<Value>;

    fn deserialize<D: de::Deserializer<'de>>(
        self,
        deserializer: D,
    ) -> Result<Option<Value>, D::Error> {
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

impl<'de> Visitor<'de> for TopSeed<'_, '_> {
    type Value = Option<Value>;

    scalars_as_values!('de, Option<Value>, Some);

    fn visit_str<E>(self, v: &str) -> Result<Option<Value>, E> {
        Ok(Some(Value::String(v.to_owned())))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut access: A) -> Result<Option<Value>, A::Error> {
        let inside = self.0.inside()?;
        let members = self.1;
        // Made at the first unknown key: most messages have none (an empty set's drop walks it).
        let (mut jsonrpc_seen, mut others) = (false, None::<BTreeSet<String>>);
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
                    let others = others.get_or_insert_with(BTreeSet::new);
                    if others.contains(&key) {
                        return Err(inside.repeated(key));
                    }
                    others.insert(key);
                    access.next_value_seed(inside)?;
                    continue;
                }
                Key::Params => {
                    if members.params.is_some() {
                        return Err(inside.repeated("params".into()));
                    }
                    let (params, meta) = (&mut members.params, &mut members.params_meta);
                    access.next_value_seed(ParamsSeed {
                        value: inside,
                        params,
                        meta,
                        arguments_as_value: members.arguments_as_value,
                    })?;
                    continue;
                }
                Key::Method => {
                    if members.method.is_some() {
                        return Err(inside.repeated("method".into()));
                    }
                    let method = StrSeed(inside, Known(known_method));
                    members.method = Some(access.next_value_seed(method)?);
                    continue;
                }
                Key::Id => (&mut members.id, "id"),
                Key::Result => (&mut members.result, "result"),
                Key::Error => (&mut members.error, "error"),
            };
            let (slot, name) = place;
            if slot.is_some() {
                return Err(inside.repeated(name.into()));
            }
            *slot = Some(access.next_value_seed(inside)?);
        }
        Ok(None)
    }
}

/// `params`, into `params`: an object's `_meta` read apart ([`MetaSeed`], into `meta`), its
/// `name` and `arguments` into their fields and its other members into a map as the value
/// reader builds one (a key repeated is refused where it is read, as there); anything else
/// read whole. Built where it is kept rather than moved out through serde's layers.
struct ParamsSeed<'f, 'o> {
    value: ValueSeed<'f>,
    params: &'o mut Option<ParamsMember>,
    meta: &'o mut Option<MetaMember>,
    /// `arguments` read as a value ([`Members::arguments_as_value`]).
    arguments_as_value: bool,
}

impl<'de> DeserializeSeed<'de> for ParamsSeed<'_, '_> {
    type Value = ();

    fn deserialize<D: de::Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl ParamsSeed<'_, '_> {
    fn other<E>(self, value: Value) -> Result<(), E> {
        *self.params = Some(ParamsMember::Other(value));
        Ok(())
    }
}

impl<'de> Visitor<'de> for ParamsSeed<'_, '_> {
    type Value = ();

    scalars_in_place!('de, value);

    fn visit_map<A: MapAccess<'de>>(self, mut access: A) -> Result<(), A::Error> {
        let inside = self.value.inside()?;
        let meta = self.meta;
        let ParamsMember::Object(params) =
            self.params.insert(ParamsMember::Object(Params::default()))
        else {
            return Ok(()); // never: just set to an object
        };
        while let Some(key) = access.next_key_seed(ParamsKeySeed)? {
            match key {
                ParamsKey::Meta => {
                    if meta.is_some() {
                        return Err(inside.repeated("_meta".into()));
                    }
                    access.next_value_seed(MetaSeed(inside, meta))?;
                }
                ParamsKey::Name => {
                    if params.name.is_some() {
                        return Err(inside.repeated("name".into()));
                    }
                    params.name = Some(access.next_value_seed(StrSeed(inside, Named))?);
                }
                ParamsKey::Arguments => {
                    if params.arguments.is_some() {
                        return Err(inside.repeated("arguments".into()));
                    }
                    let arguments = if self.arguments_as_value {
                        Arguments::from(access.next_value_seed(inside)?)
                    } else {
                        access.next_value_seed(ArgumentsSeed(inside))?
                    };
                    params.arguments = Some(arguments);
                }
                ParamsKey::Other(key) => match params.rest.entry(key) {
                    serde_json::map::Entry::Occupied(taken) => {
                        return Err(inside.repeated(taken.key().clone()));
                    }
                    serde_json::map::Entry::Vacant(place) => {
                        place.insert(access.next_value_seed(inside)?);
                    }
                },
            }
        }
        Ok(())
    }
}

/// `_meta`'s client capabilities ([`Capabilities`]).
struct CapabilitiesSeed<'f>(ValueSeed<'f>);

impl<'de> DeserializeSeed<'de> for CapabilitiesSeed<'_> {
    type Value = Capabilities;

    fn deserialize<D: de::Deserializer<'de>>(
        self,
        deserializer: D,
    ) -> Result<Capabilities, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for CapabilitiesSeed<'_> {
    type Value = Capabilities;

    scalars_as_values!('de, Capabilities, Capabilities::Other);

    fn visit_str<E>(self, v: &str) -> Result<Capabilities, E> {
        Ok(Capabilities::Other(Value::String(v.to_owned())))
    }

    fn visit_map<A: MapAccess<'de>>(self, access: A) -> Result<Capabilities, A::Error> {
        self.0.read_members(access).map(Capabilities::Object)
    }
}

/// `params.arguments`: an object of a few members with short keys kept as its members
/// ([`SmallObject`]: no map, no key allocated), any other read as the value reader reads it. A
/// repeated key is refused where it is read, as there; an object that outgrows the members
/// goes on into a map.
struct ArgumentsSeed<'f>(ValueSeed<'f>);

impl<'de> DeserializeSeed<'de> for ArgumentsSeed<'_> {
    type Value = Arguments;

    fn deserialize<D: de::Deserializer<'de>>(self, deserializer: D) -> Result<Arguments, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for ArgumentsSeed<'_> {
    type Value = Arguments;

    scalars_as_values!('de, Arguments, Arguments::from);

    fn visit_str<E>(self, v: &str) -> Result<Arguments, E> {
        Ok(Arguments::from(Value::String(v.to_owned())))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut access: A) -> Result<Arguments, A::Error> {
        let inside = self.0.inside()?;
        let mut members = SmallObject::default();
        while let Some(key) = access.next_key_seed(MemberKeySeed)? {
            if members.contains(&key) {
                return Err(self.0.repeated(key.into_owned()));
            }
            let value = access.next_value_seed(inside)?;
            if let Err(value) = members.push(&key, value) {
                // Too many, or a long key: this one and the rest into a map.
                let mut map = members.into_map();
                map.insert(key.into_owned(), value);
                while let Some(key) = access.next_key::<String>()? {
                    match map.entry(key) {
                        serde_json::map::Entry::Occupied(taken) => {
                            return Err(self.0.repeated(taken.key().clone()));
                        }
                        serde_json::map::Entry::Vacant(place) => {
                            place.insert(access.next_value_seed(inside)?);
                        }
                    }
                }
                return Ok(Arguments::from(Value::Object(map)));
            }
        }
        Ok(Arguments::of_members(members))
    }
}

/// A key of `arguments`, borrowed from the message unless it had escapes.
struct MemberKeySeed;

impl<'de> DeserializeSeed<'de> for MemberKeySeed {
    type Value = Cow<'de, str>;

    fn deserialize<D: de::Deserializer<'de>>(
        self,
        deserializer: D,
    ) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_str(self)
    }
}

impl<'de> Visitor<'de> for MemberKeySeed {
    type Value = Cow<'de, str>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a key")
    }

    fn visit_borrowed_str<E>(self, key: &'de str) -> Result<Self::Value, E> {
        Ok(Cow::Borrowed(key))
    }

    fn visit_str<E>(self, key: &str) -> Result<Self::Value, E> {
        Ok(Cow::Owned(key.to_owned()))
    }
}

/// A key of `params`: the two kept in fields and `_meta` by name (never copied), any other as a
/// string.
enum ParamsKey {
    Meta,
    Name,
    Arguments,
    Other(String),
}

struct ParamsKeySeed;

impl<'de> DeserializeSeed<'de> for ParamsKeySeed {
    type Value = ParamsKey;

    fn deserialize<D: de::Deserializer<'de>>(
        self,
        deserializer: D,
    ) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_str(self)
    }
}

impl Visitor<'_> for ParamsKeySeed {
    type Value = ParamsKey;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a key")
    }

    fn visit_str<E>(self, key: &str) -> Result<ParamsKey, E> {
        Ok(match key {
            "_meta" => ParamsKey::Meta,
            "name" => ParamsKey::Name,
            "arguments" => ParamsKey::Arguments,
            other => ParamsKey::Other(other.to_owned()),
        })
    }
}

/// `params._meta`, into `.1`: an object's members the core acts on kept apart, keys compared
/// where they are read and never copied; anything else read whole.
struct MetaSeed<'f, 'o>(ValueSeed<'f>, &'o mut Option<MetaMember>);

/// The keys of `_meta` the core takes apart.
enum MetaKey {
    ProtocolVersion,
    Capabilities,
    ClientInfo,
    ProgressToken,
    LogLevel,
    Other(String),
}

struct MetaKeySeed;

impl<'de> DeserializeSeed<'de> for MetaKeySeed {
    type Value = MetaKey;

    fn deserialize<D: de::Deserializer<'de>>(self, deserializer: D) -> Result<MetaKey, D::Error> {
        deserializer.deserialize_str(self)
    }
}

impl Visitor<'_> for MetaKeySeed {
    type Value = MetaKey;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a key")
    }

    fn visit_str<E>(self, key: &str) -> Result<MetaKey, E> {
        Ok(match key {
            META_PROTOCOL_VERSION => MetaKey::ProtocolVersion,
            META_CLIENT_CAPABILITIES => MetaKey::Capabilities,
            META_CLIENT_INFO => MetaKey::ClientInfo,
            PROGRESS_TOKEN => MetaKey::ProgressToken,
            META_LOG_LEVEL => MetaKey::LogLevel,
            other => MetaKey::Other(other.to_owned()),
        })
    }
}

impl<'de> DeserializeSeed<'de> for MetaSeed<'_, '_> {
    type Value = ();

    fn deserialize<D: de::Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl MetaSeed<'_, '_> {
    fn other<E>(self, value: Value) -> Result<(), E> {
        *self.1 = Some(MetaMember::Other(value));
        Ok(())
    }
}

impl<'de> Visitor<'de> for MetaSeed<'_, '_> {
    type Value = ();

    scalars_in_place!('de, 0);

    fn visit_map<A: MapAccess<'de>>(self, mut access: A) -> Result<(), A::Error> {
        let inside = self.0.inside()?;
        // Built where it is kept, not moved there once read.
        let MetaMember::Object(parts) = self.1.insert(MetaMember::Object(MetaParts::default()))
        else {
            return Ok(()); // never: just set to an object
        };
        while let Some(key) = access.next_key_seed(MetaKeySeed)? {
            // A repeat is refused when its key is read, as the map reader does.
            let (slot, name) = match key {
                MetaKey::ProtocolVersion => {
                    if parts.protocol_version.is_some() {
                        return Err(inside.repeated(META_PROTOCOL_VERSION.into()));
                    }
                    let version = StrSeed(inside, Known(known_version));
                    parts.protocol_version = Some(access.next_value_seed(version)?);
                    continue;
                }
                MetaKey::Capabilities => {
                    if parts.capabilities.is_some() {
                        return Err(inside.repeated(META_CLIENT_CAPABILITIES.into()));
                    }
                    let capabilities = access.next_value_seed(CapabilitiesSeed(inside))?;
                    parts.capabilities = Some(capabilities);
                    continue;
                }
                MetaKey::ClientInfo => (&mut parts.client_info, META_CLIENT_INFO),
                MetaKey::ProgressToken => (&mut parts.progress_token, PROGRESS_TOKEN),
                MetaKey::LogLevel => (&mut parts.log_level, META_LOG_LEVEL),
                MetaKey::Other(key) => {
                    match parts.rest.entry(key) {
                        serde_json::map::Entry::Occupied(taken) => {
                            return Err(inside.repeated(taken.key().clone()));
                        }
                        serde_json::map::Entry::Vacant(place) => {
                            place.insert(access.next_value_seed(inside)?);
                        }
                    }
                    continue;
                }
            };
            if slot.is_some() {
                return Err(inside.repeated(name.into()));
            }
            *slot = Some(access.next_value_seed(inside)?);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    /// What the core reads of a top level: `jsonrpc`, the five members, `_meta`, and
    /// `params._meta` apart.
    type Seen = (bool, Vec<Option<Value>>, bool, Option<MetaMember>);

    /// What `json::read` makes of the same bytes, as the top level the core reads.
    fn through_value(bytes: &[u8]) -> Result<Option<Seen>, JsonError> {
        json::read(bytes).map(|value| match value {
            Value::Object(map) => Some(seen(Members::of(map))),
            _ => None,
        })
    }

    #[test]
    fn known_methods_and_versions_are_read_as_their_static_text() {
        let names = [
            "tools/call",
            "tools/list",
            "resources/read",
            "resources/list",
            "resources/templates/list",
            "prompts/get",
            "prompts/list",
            "completion/complete",
            "server/discover",
            "subscriptions/listen",
            "initialize",
            "notifications/initialized",
            "notifications/cancelled",
            "ping",
        ];
        for name in names {
            assert_eq!(known_method(name), Some(name));
        }
        for version in ["2026-07-28", "2025-11-25"] {
            assert_eq!(known_version(version), Some(version));
        }
        let message = |method: &str, version: &str| {
            format!(
                r#"{{"jsonrpc":"2.0","id":1,"method":{method},"params":{{"_meta":{{"{META_PROTOCOL_VERSION}":{version}}}}}}}"#
            )
        };
        let read_both = |bytes: &str| {
            let Ok(Some(members)) = read(bytes.as_bytes()) else {
                panic!("{bytes} is an object");
            };
            let Some(MetaMember::Object(parts)) = members.params_meta else {
                panic!("{bytes} has _meta");
            };
            (members.method, parts.protocol_version)
        };
        let (method, version) = read_both(&message(r#""tools/call""#, r#""2026-07-28""#));
        assert_eq!(method, Some(Text::Known("tools/call")));
        assert_eq!(version, Some(Text::Known("2026-07-28")));
        // Others are read as the value reader reads them, strings or not.
        let (method, version) = read_both(&message(r#""tools/cal""#, r#""2099-01-01""#));
        assert_eq!(method, Some(Text::Other(json!("tools/cal"))));
        assert_eq!(version, Some(Text::Other(json!("2099-01-01"))));
        let (method, version) = read_both(&message("[1,{}]", "7"));
        assert_eq!(method, Some(Text::Other(json!([1, {}]))));
        assert_eq!(version, Some(Text::Other(json!(7))));
        assert_eq!(
            Text::Known("ping").into_string(),
            Ok(std::borrow::Cow::Borrowed("ping"))
        );
        assert_eq!(Text::Other(json!(1)).into_string(), Err(json!(1)));
        // A repeated method or version is refused where its key is read.
        assert!(read(br#"{"method":"ping","method":"ping"}"#).is_err());
        let twice = format!(
            r#"{{"params":{{"_meta":{{"{META_PROTOCOL_VERSION}":"2026-07-28","{META_PROTOCOL_VERSION}":"2026-07-28"}}}}}}"#
        );
        assert!(read(twice.as_bytes()).is_err());
    }

    fn seen(m: Members) -> Seen {
        (
            m.jsonrpc,
            vec![
                m.id,
                m.method.map(Text::into_value),
                m.params.map(ParamsMember::into_value),
                m.result,
                m.error,
            ],
            m.meta,
            m.params_meta,
        )
    }

    fn direct(bytes: &[u8]) -> Result<Option<Seen>, JsonError> {
        read(bytes).map(|members| members.map(seen))
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
            br#"{"params":{"name":"t","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"c"},"progressToken":7,"io.modelcontextprotocol/logLevel":"info","traceparent":"00-x","k":[1]}}}"#,
            br#"{"params":{"_meta":{"progressToken":1,"progressToken":2}}}"#,
            br#"{"params":{"_meta":{"progress\u0054oken":1,"progressToken":2}}}"#,
            br#"{"params":{"_meta":{"k":1,"k":2}}}"#,
            br#"{"params":{"_meta":{},"_meta":{}}}"#,
            br#"{"params":{"\u005fmeta":{},"_meta":{}}}"#,
            br#"{"params":{"_meta":[1,2]}}"#,
            br#"{"params":{"_meta":"x","a":{"b":1}}}"#,
            br#"{"params":{"_meta":null}}"#,
            br#"{"params":{"_meta":{"io.modelcontextprotocol/clientCapabilities":{"x":{"x":1,"x":2}}}}}"#,
            br#"{"params":{"a":1,"_meta":{"p":[1,{"q":1,"q":1}]},"a":2}}"#,
            br#"{"params":[{"_meta":{}}]}"#,
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
        // `_meta` is level 3: 61 arrays inside one of its members reach 64.
        for (open, refused) in [(61, false), (62, true)] {
            let meta = format!(
                r#"{{"params":{{"_meta":{{"progressToken":{}1{}}}}}}}"#,
                "[".repeat(open),
                "]".repeat(open)
            );
            assert_eq!(direct(meta.as_bytes()), through_value(meta.as_bytes()));
            assert_eq!(direct(meta.as_bytes()) == Err(JsonError::TooDeep), refused);
        }
        let version = format!(r#"{{"jsonrpc":{}1{}}}"#, "[".repeat(64), "]".repeat(64));
        assert_eq!(direct(version.as_bytes()), Err(JsonError::TooDeep));
        let batch = format!("[{}]", "[".repeat(64).to_string() + &"]".repeat(64));
        assert_eq!(direct(batch.as_bytes()), Err(JsonError::TooDeep));
    }

    /// A random member of `_meta` as text: a key the core takes apart or another (spelled
    /// plainly or escaped), and any value, nested up to 70 levels.
    fn meta_member(cases: &mut crate::json::tests::Cases) -> String {
        const KEYS: &[&str] = &[
            "io.modelcontextprotocol/clientCapabilities",
            "io.modelcontextprotocol/clientInfo",
            "progressToken",
            "progress\\u0054oken",
            "io.modelcontextprotocol/logLevel",
            "io.modelcontextprotocol/protocolVersion",
            "traceparent",
            "k",
        ];
        let key = KEYS[cases.below(KEYS.len() as u64) as usize];
        let (value, _) = cases.wrapped();
        format!(r#""{key}":{value}"#)
    }

    /// A random member of `params` as text: `_meta` (an object of random members, or any
    /// value), or another key with any value.
    fn params_member(cases: &mut crate::json::tests::Cases) -> String {
        const KEYS: &[&str] = &["name", "arguments", "\\u005fmeta", "x"];
        if cases.below(2) == 0 {
            let value = if cases.below(5) == 0 {
                cases.wrapped().0.to_string()
            } else {
                let members: Vec<String> =
                    (0..cases.below(6)).map(|_| meta_member(cases)).collect();
                format!("{{{}}}", members.join(","))
            };
            return format!(r#""_meta":{value}"#);
        }
        let key = KEYS[cases.below(KEYS.len() as u64) as usize];
        format!(r#""{key}":{}"#, cases.wrapped().0)
    }

    #[test]
    fn random_params_and_meta_read_as_the_value_reader_reads_them() {
        let mut cases = crate::json::tests::Cases(0x2545_F491_4F6C_DD1D);
        let (mut read_whole, mut repeated, mut too_deep, mut syntax) = (0, 0, 0, 0);
        for case in 0..3_000 {
            let params = if cases.below(10) == 0 {
                cases.wrapped().0.to_string()
            } else {
                let members: Vec<String> = (0..cases.below(5))
                    .map(|_| params_member(&mut cases))
                    .collect();
                format!("{{{}}}", members.join(","))
            };
            let mut message =
                format!(r#"{{"jsonrpc":"2.0","id":{case},"method":"m","params":{params}}}"#);
            // Now and then a message cut short.
            if cases.below(20) == 0 {
                message.truncate(cases.below(message.len() as u64) as usize);
            }
            let direct = direct(message.as_bytes());
            assert_eq!(
                direct,
                through_value(message.as_bytes()),
                "case {case}: {message}"
            );
            match direct {
                Ok(_) => read_whole += 1,
                Err(JsonError::DuplicateKey(_)) => repeated += 1,
                Err(JsonError::TooDeep) => too_deep += 1,
                Err(_) => syntax += 1,
            }
        }
        // Every outcome was reached.
        assert!(
            read_whole > 100 && repeated > 100 && too_deep > 100 && syntax > 50,
            "{read_whole} read, {repeated} repeats, {too_deep} too deep, {syntax} syntax"
        );
    }

    /// A random `arguments` object as text: up to 24 members (past the 16 kept without a map),
    /// keys short, escaped, one byte past the inline bound or repeated, values of any kind.
    fn arguments_object(cases: &mut crate::json::tests::Cases) -> String {
        const KEYS: &[&str] = &[
            "a",
            "\\u0061",
            "place",
            "pl\\u0061ce",
            "é",
            "\\u00e9",
            "twenty_two_bytes_long_",
            "twenty_three_bytes_long",
            "",
        ];
        let members: Vec<String> = (0..cases.below(25))
            .map(|i| {
                let key = match cases.below(3) {
                    0 => KEYS[cases.below(KEYS.len() as u64) as usize].to_owned(),
                    _ => format!("k{i}"),
                };
                let value = match cases.below(3) {
                    0 => cases.wrapped().0.to_string(),
                    _ => i.to_string(),
                };
                format!(r#""{key}":{value}"#)
            })
            .collect();
        format!("{{{}}}", members.join(","))
    }

    #[test]
    fn random_arguments_read_as_the_value_reader_reads_them() {
        let mut cases = crate::json::tests::Cases(0x9E37_79B9_7F4A_7C15);
        let (mut kept, mut mapped, mut repeated, mut too_deep) = (0, 0, 0, 0);
        for case in 0..3_000 {
            let arguments = arguments_object(&mut cases);
            let message = format!(
                r#"{{"jsonrpc":"2.0","id":{case},"method":"tools/call","params":{{"name":"t","arguments":{arguments}}}}}"#
            );
            let direct = direct(message.as_bytes());
            assert_eq!(
                direct,
                through_value(message.as_bytes()),
                "case {case}: {message}"
            );
            // Read for a server with middleware: the same message, the arguments a value.
            let mut as_value = Members {
                arguments_as_value: true,
                ..Members::default()
            };
            let read_as_value = read_into(message.as_bytes(), &mut as_value).map(|_| {
                let kept = match &as_value.params {
                    Some(ParamsMember::Object(params)) => params.arguments.as_ref(),
                    _ => None,
                };
                assert!(kept.and_then(Arguments::members).is_none(), "case {case}");
                seen(as_value)
            });
            assert_eq!(
                read_as_value.ok(),
                direct.clone().ok().flatten(),
                "case {case}"
            );
            match read(message.as_bytes()) {
                Ok(Some(Members {
                    params: Some(ParamsMember::Object(params)),
                    ..
                })) => match params.arguments.as_ref().and_then(Arguments::members) {
                    Some(_) => kept += 1,
                    None => mapped += 1,
                },
                Err(JsonError::DuplicateKey(_)) => repeated += 1,
                Err(JsonError::TooDeep) => too_deep += 1,
                other => panic!("case {case}: {other:?}"),
            }
        }
        // Every outcome was reached: kept as members, gone on into a map, refused.
        assert!(
            kept > 100 && mapped > 100 && repeated > 100 && too_deep > 20,
            "{kept} kept, {mapped} mapped, {repeated} repeats, {too_deep} too deep"
        );
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
        let Ok(Some(members)) = read(br#"{"jsonrpc":"2.0","id":3,"result":{"a":1},"x":1}"#) else {
            panic!("an object")
        };
        assert!(members.is_response());
        assert_eq!(
            Value::Object(members.response_object()),
            serde_json::json!({ "jsonrpc": "2.0", "id": 3, "result": { "a": 1 } })
        );
    }
}

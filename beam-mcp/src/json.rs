//! The bounded JSON reader shared by every transport.
//!
//! One pass reads a message and refuses, at the first fault met reading left to right, nesting
//! deeper than [`MAX_DEPTH`] (before the container too deep is built: what was built before it
//! is bounded by the message's size) and the first repeated key in any object, compared after
//! unescaping (`"a"` and `"\u0061"` collide).

use std::cell::RefCell;
use std::fmt;

use serde::de::{self, DeserializeSeed, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Value};

/// The deepest nesting of arrays and objects a message may have.
pub const MAX_DEPTH: usize = 64;

/// The largest message, in bytes, that a transport accepts.
pub const MAX_MESSAGE_BYTES: usize = 1_048_576;

/// Why bytes were refused as a message.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum JsonError {
    /// The bytes are not JSON (or not UTF-8).
    #[error("Parse error: body is not valid JSON")]
    Syntax,
    /// Arrays and objects nest deeper than [`MAX_DEPTH`].
    #[error("Request body nests deeper than 64 levels")]
    TooDeep,
    /// An object names the same key twice. The key is caller text: the error object carries
    /// it in `data.key` (cut to 256 bytes), never in the message.
    #[error("Request body repeats a key")]
    DuplicateKey(String),
}

/// Reads one JSON value from `bytes` under the nesting and duplicate-key rules.
///
/// ```
/// use beam_mcp::json::{read, JsonError};
/// assert!(read(br#"{"a":1}"#).is_ok());
/// assert_eq!(read(br#"{"a":1,"\u0061":2}"#), Err(JsonError::DuplicateKey("a".into())));
/// assert_eq!(read(&[b'['; 65]), Err(JsonError::TooDeep));
/// ```
pub fn read(bytes: &[u8]) -> Result<Value, JsonError> {
    let fault = RefCell::new(None);
    read_seeded(bytes, &fault, ValueSeed::at(0, &fault))
}

/// Appends `value`'s compact JSON to `out`: a `Value`, a string, or anything whose
/// serialization cannot fail into a `Vec` (every key a string, every number finite); `null`
/// should it fail all the same.
pub(crate) fn write<T: serde::Serialize + ?Sized>(out: &mut Vec<u8>, value: &T) {
    if serde_json::to_writer(&mut *out, value).is_err() {
        out.extend_from_slice(b"null");
    }
}

/// Where a rule's refusal is kept while serde unwinds (it reaches serde as a custom error).
pub(crate) type Fault = RefCell<Option<JsonError>>;

/// Reads one JSON text from `bytes` with `seed`, whose rules leave their refusal in `fault`.
pub(crate) fn read_seeded<'a, S: DeserializeSeed<'a>>(
    bytes: &'a [u8],
    fault: &Fault,
    seed: S,
) -> Result<S::Value, JsonError> {
    // UTF-8 checked once for the whole message, not string by string as the parser would.
    let text = std::str::from_utf8(bytes).map_err(|_| JsonError::Syntax)?;
    let mut de = serde_json::Deserializer::from_str(text);
    match seed.deserialize(&mut de) {
        Ok(value) => {
            de.end().map_err(|_| JsonError::Syntax)?;
            Ok(value)
        }
        // A rule's refusal reaches serde as a custom error; the rule itself is kept here.
        Err(_) => Err(fault.take().unwrap_or(JsonError::Syntax)),
    }
}

/// Builds a [`Value`] at nesting `depth` while refusing containers past [`MAX_DEPTH`] and
/// repeated keys; the fault found is left in `fault`.
#[derive(Clone, Copy)]
pub(crate) struct ValueSeed<'a> {
    depth: usize,
    fault: &'a Fault,
}

impl<'a> ValueSeed<'a> {
    /// The seed for a value at nesting `depth` (0: the message itself).
    pub(crate) fn at(depth: usize, fault: &'a Fault) -> ValueSeed<'a> {
        ValueSeed { depth, fault }
    }

    /// Refuses the key `key`, seen twice in one object.
    pub(crate) fn repeated<E: de::Error>(&self, key: String) -> E {
        *self.fault.borrow_mut() = Some(JsonError::DuplicateKey(key));
        de::Error::custom("duplicate key")
    }

    /// The seed for the items of a container opened at this seed's depth, or the refusal when
    /// that container is one level too deep.
    pub(crate) fn inside<E: de::Error>(&self) -> Result<ValueSeed<'a>, E> {
        if self.depth >= MAX_DEPTH {
            *self.fault.borrow_mut() = Some(JsonError::TooDeep);
            return Err(E::custom("nested too deep"));
        }
        Ok(ValueSeed {
            depth: self.depth + 1,
            fault: self.fault,
        })
    }
}

impl<'de> DeserializeSeed<'de> for ValueSeed<'_> {
    type Value = Value;

    fn deserialize<D: de::Deserializer<'de>>(self, deserializer: D) -> Result<Value, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for ValueSeed<'_> {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }

    fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
        Ok(Value::from(v))
    }

    fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
        Ok(Value::from(v))
    }

    fn visit_f64<E>(self, v: f64) -> Result<Value, E> {
        Ok(serde_json::Number::from_f64(v).map_or(Value::Null, Value::Number))
    }

    fn visit_str<E>(self, v: &str) -> Result<Value, E> {
        Ok(Value::String(v.to_owned()))
    }

    fn visit_string<E>(self, v: String) -> Result<Value, E> {
        Ok(Value::String(v))
    }

    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let inside = self.inside()?;
        let mut items = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(64));
        while let Some(item) = seq.next_element_seed(inside)? {
            items.push(item);
        }
        Ok(Value::Array(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut access: A) -> Result<Value, A::Error> {
        let inside = self.inside()?;
        let mut map = Map::new();
        while let Some(key) = access.next_key::<String>()? {
            // One lookup: the vacant entry is where the value goes.
            match map.entry(key) {
                serde_json::map::Entry::Occupied(taken) => {
                    return Err(self.repeated(taken.key().clone()));
                }
                serde_json::map::Entry::Vacant(place) => {
                    place.insert(access.next_value_seed(inside)?);
                }
            }
        }
        Ok(Value::Object(map))
    }
}

impl<'a> ValueSeed<'a> {
    /// An object's members, read as [`visit_map`](Visitor::visit_map) reads them, into a
    /// [`Sparse`]: no map at all for `{}`.
    pub(crate) fn read_members<'de, A: MapAccess<'de>>(
        self,
        mut access: A,
    ) -> Result<Sparse, A::Error> {
        let inside = self.inside()?;
        let mut map: Option<Box<Map<String, Value>>> = None;
        while let Some(key) = access.next_key::<String>()? {
            match map.get_or_insert_default().entry(key) {
                serde_json::map::Entry::Occupied(taken) => {
                    return Err(self.repeated(taken.key().clone()));
                }
                serde_json::map::Entry::Vacant(place) => {
                    place.insert(access.next_value_seed(inside)?);
                }
            }
        }
        Ok(Sparse(map))
    }
}

/// A JSON object that is usually empty (what a request's `_meta` holds beyond the members the
/// core reads, its params beyond `name` and `arguments`): no map at all until a member is put
/// in, so an empty one costs no drop (a `BTreeMap`'s drop builds and walks its consuming
/// iterator even when it holds nothing: some 60 instructions a map, a few maps a request) and
/// takes a pointer's room where a map takes three (a request's parts are moved whole). Read and
/// changed as the map it is. An empty map handed in is dropped there (emptied by removals, it
/// may still own a node).
#[derive(Default, Clone)]
pub(crate) struct Sparse(Option<Box<Map<String, Value>>>);

/// What an empty [`Sparse`] reads as.
static EMPTY: std::sync::LazyLock<Map<String, Value>> = std::sync::LazyLock::new(Map::new);

impl Sparse {
    /// The map.
    pub(crate) fn into_inner(self) -> Map<String, Value> {
        self.0.map(|map| *map).unwrap_or_default()
    }

    /// The member `key` (read without the empty map where there is none).
    pub(crate) fn get(&self, key: &str) -> Option<&Value> {
        self.0.as_ref()?.get(key)
    }

    /// Whether there is a member `key`.
    pub(crate) fn contains_key(&self, key: &str) -> bool {
        self.get(key).is_some()
    }

    /// The map, when there is one.
    pub(crate) fn as_map(&self) -> Option<&Map<String, Value>> {
        self.0.as_deref()
    }

    /// Takes the member `key` out, without making a map where there is none.
    pub(crate) fn remove(&mut self, key: &str) -> Option<Value> {
        self.0.as_mut()?.remove(key)
    }
}

impl std::ops::Deref for Sparse {
    type Target = Map<String, Value>;

    fn deref(&self) -> &Map<String, Value> {
        self.0.as_deref().unwrap_or(&EMPTY)
    }
}

impl std::ops::DerefMut for Sparse {
    /// The map to change, made (empty) where there is none.
    fn deref_mut(&mut self) -> &mut Map<String, Value> {
        self.0.get_or_insert_with(Box::default)
    }
}

impl From<Map<String, Value>> for Sparse {
    fn from(map: Map<String, Value>) -> Sparse {
        if map.is_empty() {
            return Sparse(None);
        }
        Sparse(Some(Box::new(map)))
    }
}

impl fmt::Debug for Sparse {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        Map::fmt(self, f)
    }
}

impl PartialEq for Sparse {
    fn eq(&self, other: &Sparse) -> bool {
        **self == **other
    }
}

/// How the reader names a non-object message in its refusal.
pub(crate) fn kind_name(value: &Value) -> &'static str {
    match value {
        Value::Array(_) => "an array",
        Value::String(_) => "a string",
        Value::Number(_) => "a number",
        Value::Null => "null",
        Value::Bool(_) | Value::Object(_) => "a scalar",
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    fn nested(depth: usize) -> String {
        format!("{}{}", "[".repeat(depth), "]".repeat(depth))
    }

    #[test]
    fn a_sparse_map_reads_changes_and_gives_back_its_members() {
        let mut sparse = Sparse::default();
        assert!(sparse.is_empty());
        sparse.insert("a".into(), Value::from(1));
        let copy = sparse.clone();
        assert_eq!(copy, sparse);
        assert_eq!(sparse.get("a"), Some(&Value::from(1)));
        let map = sparse.into_inner();
        assert_eq!(map.len(), 1);
        assert_eq!(Sparse::from(map.clone()).into_inner(), map);
        // Removing from an empty one makes no map; an empty one equals an emptied one.
        let mut empty = Sparse::default();
        assert_eq!(empty.remove("a"), None);
        assert!(empty.0.is_none());
        assert!(Sparse::from(Map::new()).0.is_none());
        let mut emptied = Sparse::from(map);
        assert_eq!(emptied.remove("a"), Some(Value::from(1)));
        assert_eq!(emptied, empty);
        assert_eq!(format!("{empty:?}"), "{}");
        drop(copy);
    }

    #[test]
    fn sixty_four_levels_are_admitted_and_sixty_five_refused() {
        assert!(read(nested(64).as_bytes()).is_ok());
        assert_eq!(read(nested(65).as_bytes()), Err(JsonError::TooDeep));
    }

    #[test]
    fn depth_counts_arrays_and_objects_alike_and_the_first_fault_is_the_one_reported() {
        let mixed = format!("{}1{}", r#"{"a":["#.repeat(32), "]}".repeat(32));
        assert!(
            read(mixed.as_bytes()).is_ok(),
            "64 levels, half of them objects"
        );
        let deeper = format!("[{mixed}]");
        assert_eq!(read(deeper.as_bytes()), Err(JsonError::TooDeep));
        // Too deep before the syntax fault, and a syntax fault before the depth.
        assert_eq!(
            read(format!("{}x", "[".repeat(65)).as_bytes()),
            Err(JsonError::TooDeep)
        );
        assert_eq!(
            read(format!("[x{}", "[".repeat(65)).as_bytes()),
            Err(JsonError::Syntax)
        );
        assert_eq!(
            read(format!(r#"{{"k":1,"k":{}}}"#, "[".repeat(65)).as_bytes()),
            Err(JsonError::DuplicateKey("k".into()))
        );
    }

    /// A seeded xorshift: the property cases below are random but the same on every run. (A
    /// generator of our own rather than proptest, whose regex strategies turn on regex-syntax's
    /// Perl classes and case tables in the tested build, which beam-mcp's `pattern` leaves out.)
    pub(crate) struct Cases(pub(crate) u64);

    impl Cases {
        pub(crate) fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }

        pub(crate) fn below(&mut self, n: u64) -> u64 {
            self.next() % n
        }

        /// A scalar; strings are full of brackets, quotes and backslashes.
        pub(crate) fn leaf(&mut self) -> Value {
            match self.below(5) {
                0 => Value::Null,
                1 => Value::Bool(self.below(2) == 1),
                2 => Value::from(self.next() as i64),
                3 => Value::from(self.next()),
                _ => {
                    const CHARS: &[u8] = b"[]{}\"\\abcxyz";
                    let len = self.below(9) as usize;
                    let text = (0..len)
                        .map(|_| CHARS[self.below(CHARS.len() as u64) as usize] as char)
                        .collect();
                    Value::String(text)
                }
            }
        }

        /// A leaf wrapped in 0 to 70 levels, each one array or object with an optional sibling
        /// beside the inner value; and its depth.
        pub(crate) fn wrapped(&mut self) -> (Value, usize) {
            let depth = self.below(71) as usize;
            let mut value = self.leaf();
            for _ in 0..depth {
                let sibling = (self.below(2) == 1).then(|| self.leaf());
                value = if self.below(2) == 1 {
                    Value::Array(std::iter::once(value).chain(sibling).collect())
                } else {
                    let mut map = Map::new();
                    map.insert("in".to_owned(), value);
                    if let Some(sibling) = sibling {
                        map.insert("[{\"".to_owned(), sibling);
                    }
                    Value::Object(map)
                };
            }
            (value, depth)
        }
    }

    const CASES: u64 = 2_000;

    #[test]
    fn any_json_within_the_depth_reads_back_as_itself_and_deeper_is_refused() {
        let mut cases = Cases(0x9E37_79B9_7F4A_7C15);
        let (mut within, mut deeper) = (0, 0);
        for case in 0..CASES {
            let (value, depth) = cases.wrapped();
            let bytes = serde_json::to_vec(&value).unwrap();
            if depth <= MAX_DEPTH {
                within += 1;
                assert_eq!(read(&bytes), Ok(value), "case {case}, depth {depth}");
            } else {
                deeper += 1;
                assert_eq!(
                    read(&bytes),
                    Err(JsonError::TooDeep),
                    "case {case}, depth {depth}"
                );
            }
        }
        // Both sides of the bound were reached.
        assert!(
            within > 100 && deeper > 100,
            "{within} within, {deeper} deeper"
        );
    }

    #[test]
    fn a_cut_message_is_refused_never_read() {
        let mut cases = Cases(0x2545_F491_4F6C_DD1D);
        let mut cut_ones = 0;
        for case in 0..CASES {
            let (value, _) = cases.wrapped();
            // A scalar's prefix can itself be JSON (`12` of `123`); a container's never is.
            if !(value.is_array() || value.is_object()) {
                continue;
            }
            let bytes = serde_json::to_vec(&value).unwrap();
            let cut = cases.below(bytes.len() as u64) as usize;
            assert!(
                read(&bytes[..cut]).is_err(),
                "case {case}: {:?}",
                &bytes[..cut]
            );
            cut_ones += 1;
        }
        assert!(cut_ones > CASES / 2, "only {cut_ones} containers cut");
    }

    #[test]
    fn brackets_inside_strings_do_not_count() {
        let s = format!(r#"{{"a":"{}\"{}"}}"#, "[".repeat(100), "{".repeat(100));
        assert!(read(s.as_bytes()).is_ok());
    }

    #[test]
    fn duplicate_keys_are_refused_after_unescaping_at_any_depth() {
        assert_eq!(
            read(br#"{"x":{"a":1,"\u0061":2}}"#),
            Err(JsonError::DuplicateKey("a".into()))
        );
        assert_eq!(
            JsonError::DuplicateKey("a".into()).to_string(),
            "Request body repeats a key"
        );
    }

    #[test]
    fn invalid_json_and_invalid_utf8_are_syntax_errors() {
        assert_eq!(read(b"{"), Err(JsonError::Syntax));
        assert_eq!(read(b"{} {}"), Err(JsonError::Syntax));
        assert_eq!(read(b"\"\xff\""), Err(JsonError::Syntax));
        assert_eq!(read(b""), Err(JsonError::Syntax));
    }

    #[test]
    fn values_keep_their_types() {
        let v = read(br#"{"t":true,"n":null,"i":-3,"u":18446744073709551615,"f":1.5}"#).unwrap();
        assert_eq!(v["t"], Value::Bool(true));
        assert_eq!(v["n"], Value::Null);
        assert!(v["i"].is_i64());
        assert!(v["u"].is_u64());
        assert!(v["f"].is_f64());
    }

    #[test]
    fn kind_names_follow_the_reference() {
        assert_eq!(kind_name(&Value::Array(vec![])), "an array");
        assert_eq!(kind_name(&Value::Bool(true)), "a scalar");
        assert_eq!(kind_name(&Value::Null), "null");
    }
}

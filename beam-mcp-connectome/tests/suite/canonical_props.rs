//! Properties of canonical bytes over generated graphs and values, and of the reader over
//! mutated envelopes.

use std::collections::BTreeMap;

use beam_mcp_connectome::canonical::{encode, hash_hex, parse, verify};
use beam_mcp_connectome::{
    Algorithm, CanonicalError, Edge, EdgeKind, Graph, Identity, Labels, Node, Provenance, Sign,
    encode_value,
};
use proptest::prelude::*;
use proptest::test_runner::{TestCaseError, TestRunner};
use serde_json::Value;
use unicode_normalization::UnicodeNormalization;

/// Strings drawn from a small alphabet rich in troublemakers: controls, quotes, combining
/// marks, precomposed letters, astral and fullwidth characters, `/` and `%`.
fn text() -> impl Strategy<Value = String> {
    let alphabet = prop::sample::select(vec![
        'a',
        'e',
        'A',
        '\u{301}',
        '\u{30a}',
        '\u{e9}',
        '\u{c5}',
        '"',
        '\\',
        '/',
        '%',
        '\u{0}',
        '\u{1f}',
        '\n',
        '\u{7f}',
        '\u{2028}',
        '\u{ff01}',
        '\u{1f600}',
        '\u{fb01}',
    ]);
    prop::collection::vec(alphabet, 0..6).prop_map(|chars| chars.into_iter().collect())
}

fn value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        text().prop_map(Value::String),
    ];
    leaf.prop_recursive(4, 24, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::btree_map(text(), inner, 0..4)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

/// Two strings written differently that are one after NFC: the only thing that may keep a
/// generated value or graph from being written.
fn genuine_collision(first: &str, second: &str) -> Result<(), TestCaseError> {
    prop_assert_ne!(first, second);
    prop_assert_eq!(
        first.nfc().collect::<String>(),
        second.nfc().collect::<String>()
    );
    Ok(())
}

/// A graph of generated parts: a server, tools under it with the same labels, an edge from
/// the server to each tool with a generated sign.
fn graph_of(
    names: &[String],
    labels: &Labels,
    observed: bool,
    signs: &[Sign],
) -> Result<Graph, TestCaseError> {
    let server = Node::new(Identity::Server { server: "s".into() }, Labels::new());
    let mut nodes = vec![server.map_err(|e| TestCaseError::fail(e.to_string()))?];
    let mut edges = Vec::new();
    for (i, name) in names.iter().enumerate() {
        let identity = Identity::Tool {
            server: "s".into(),
            name: name.clone(),
        };
        let tool =
            Node::new(identity, labels.clone()).map_err(|e| TestCaseError::fail(e.to_string()))?;
        let provenance = if observed {
            Provenance::Observed
        } else {
            Provenance::Declared
        };
        let mut edge = Edge::new("s/server", tool.id(), EdgeKind::Invoke, provenance);
        edge.sign = signs.get(i).copied().unwrap_or(Sign::Unset);
        edges.push(edge);
        nodes.push(tool);
    }
    Graph::new(nodes, edges).map_err(|e| TestCaseError::fail(e.to_string()))
}

/// A graph's generated parts: tool names, their labels, the algorithm, whether the edges are
/// observed, their signs.
type Parts = (Vec<String>, Labels, Algorithm, bool, Vec<Sign>);

fn graph_parts() -> impl Strategy<Value = Parts> {
    (
        prop::collection::btree_set(text(), 0..5).prop_map(|s| s.into_iter().collect()),
        prop::collection::btree_map(text(), value(), 0..3),
        prop::sample::select(Algorithm::ALL.to_vec()),
        any::<bool>(),
        prop::collection::vec(prop::sample::select(Sign::ALL.to_vec()), 0..5),
    )
}

// ---- Mutations of valid envelopes -------------------------------------------------------

/// One change to the bytes of an envelope. Selectors (`usize`) pick a place modulo what
/// there is, so every mutation applies to any text.
#[derive(Debug, Clone)]
enum Mutation {
    /// XOR one byte with a non-zero mask.
    Flip { at: usize, mask: u8 },
    /// Overwrite one byte with a byte JSON gives meaning to.
    Put { at: usize, byte: u8 },
    /// Insert a fragment.
    Insert { at: usize, fragment: &'static str },
    /// Remove a run of bytes.
    Cut { at: usize, len: usize },
    /// Swap two neighbouring members of an object.
    SwapMembers { object: usize, at: usize },
    /// Swap two neighbouring elements of an array (nodes, edges, label arrays).
    SwapElements { array: usize, at: usize },
    /// Repeat a member, with its own value or another member's.
    Duplicate {
        object: usize,
        at: usize,
        other_value: bool,
    },
    /// Decompose a string (a key, an id, a word, a label) to NFD, raw or as `\u` escapes.
    Nfd { string: usize, escaped: bool },
    /// Put a number at the edge of what the model holds (or beyond) in place of a value.
    Number { value: usize, number: &'static str },
    /// Put a nest of arrays (or objects) in place of a value, so that the whole text nests
    /// `total` levels: around the 127 the reader takes.
    Nest {
        value: usize,
        total: usize,
        objects: bool,
    },
    /// Rewrite the envelope's header as `schema_version` 0 to 4 without the algorithm member
    /// (right for 1 and 2, unknown for 0 and 4, lacking the member at 3).
    Version { version: u8 },
}

const FRAGMENTS: &[&str] = &[
    "\"x\":1,",
    ",",
    " ",
    "\"",
    "\\u0000",
    "\\ud800",
    "\\u00e9",
    "e\u{301}",
    "{}",
    "[]",
    "\u{feff}",
    "\"algorithm\":\"sha256\",",
    "\"weight\":7,",
];

const NUMBERS: &[&str] = &[
    "0",
    "-0",
    "3",
    "00",
    "1.0",
    "1e2",
    "1E400",
    "-",
    "18446744073709551615",
    "18446744073709551616",
    "-9223372036854775808",
    "-9223372036854775809",
    "123456789012345678901234567890",
];

fn mutation() -> impl Strategy<Value = Mutation> {
    let at = any::<usize>();
    prop_oneof![
        (at, 1..=255u8).prop_map(|(at, mask)| Mutation::Flip { at, mask }),
        (
            at,
            prop::sample::select(b"{}[]\",:\\0-e.tfn \x00\xff".to_vec())
        )
            .prop_map(|(at, byte)| Mutation::Put { at, byte }),
        (at, prop::sample::select(FRAGMENTS))
            .prop_map(|(at, fragment)| Mutation::Insert { at, fragment }),
        (at, 1..8usize).prop_map(|(at, len)| Mutation::Cut { at, len }),
        (at, at).prop_map(|(object, at)| Mutation::SwapMembers { object, at }),
        (at, at).prop_map(|(array, at)| Mutation::SwapElements { array, at }),
        (at, at, any::<bool>()).prop_map(|(object, at, other_value)| Mutation::Duplicate {
            object,
            at,
            other_value
        }),
        (at, any::<bool>()).prop_map(|(string, escaped)| Mutation::Nfd { string, escaped }),
        (at, prop::sample::select(NUMBERS))
            .prop_map(|(value, number)| Mutation::Number { value, number }),
        (at, 122..=131usize, any::<bool>()).prop_map(|(value, total, objects)| {
            Mutation::Nest {
                value,
                total,
                objects,
            }
        }),
        (0..=4u8).prop_map(|version| Mutation::Version { version }),
    ]
}

/// Where the values, strings, objects and arrays of a JSON text are (byte ranges).
#[derive(Default)]
struct Shape {
    /// Every value, with how many arrays and objects enclose it.
    values: Vec<(usize, usize, usize)>,
    /// Every string, keys included, quotes included.
    strings: Vec<(usize, usize)>,
    /// Every object's members (`"key":value`).
    objects: Vec<Vec<(usize, usize)>>,
    /// Every array's elements.
    arrays: Vec<Vec<(usize, usize)>>,
}

impl Shape {
    /// The shape of `text`, if serde_json reads it (so the scan below never meets anything
    /// else; it still answers `None` rather than panic).
    fn of(text: &[u8]) -> Option<Shape> {
        serde_json::from_slice::<Value>(text).ok()?;
        let mut shape = Shape::default();
        let start = skip_space(text, 0);
        shape.value(text, start, 0)?;
        Some(shape)
    }

    fn value(&mut self, text: &[u8], start: usize, enclosing: usize) -> Option<usize> {
        let end = match text.get(start)? {
            b'"' => {
                let end = string_end(text, start)?;
                self.strings.push((start, end));
                end
            }
            b'{' => {
                let mut members = Vec::new();
                let mut at = skip_space(text, start + 1);
                let end = if *text.get(at)? == b'}' {
                    at + 1
                } else {
                    loop {
                        let key_end = string_end(text, at)?;
                        self.strings.push((at, key_end));
                        let colon = skip_space(text, key_end);
                        let value_start = skip_space(text, colon + 1);
                        let value_end = self.value(text, value_start, enclosing + 1)?;
                        members.push((at, value_end));
                        at = skip_space(text, value_end);
                        match text.get(at)? {
                            b',' => at = skip_space(text, at + 1),
                            b'}' => break at + 1,
                            _ => return None,
                        }
                    }
                };
                self.objects.push(members);
                end
            }
            b'[' => {
                let mut elements = Vec::new();
                let mut at = skip_space(text, start + 1);
                let end = if *text.get(at)? == b']' {
                    at + 1
                } else {
                    loop {
                        let element_end = self.value(text, at, enclosing + 1)?;
                        elements.push((at, element_end));
                        at = skip_space(text, element_end);
                        match text.get(at)? {
                            b',' => at = skip_space(text, at + 1),
                            b']' => break at + 1,
                            _ => return None,
                        }
                    }
                };
                self.arrays.push(elements);
                end
            }
            _ => {
                let rest = text.get(start..)?;
                start
                    + rest
                        .iter()
                        .position(|b| b",}] \t\n\r".contains(b))
                        .unwrap_or(rest.len())
            }
        };
        self.values.push((start, end, enclosing));
        Some(end)
    }
}

fn skip_space(text: &[u8], mut at: usize) -> usize {
    while text.get(at).is_some_and(|b| b" \t\n\r".contains(b)) {
        at += 1;
    }
    at
}

fn string_end(text: &[u8], start: usize) -> Option<usize> {
    let mut at = start + 1;
    loop {
        match text.get(at)? {
            b'\\' => at += 2,
            b'"' => return Some(at + 1),
            _ => at += 1,
        }
    }
}

/// `text` with `range` replaced by `with`.
fn splice(text: &[u8], (start, end): (usize, usize), with: &[u8]) -> Vec<u8> {
    let mut out = text.get(..start).unwrap_or_default().to_vec();
    out.extend_from_slice(with);
    out.extend_from_slice(text.get(end..).unwrap_or_default());
    out
}

/// `text` with two ranges (the first before the second) swapped.
fn swap(text: &[u8], a: (usize, usize), b: (usize, usize)) -> Vec<u8> {
    let part = |(s, e): (usize, usize)| text.get(s..e).unwrap_or_default();
    [
        part((0, a.0)),
        part(b),
        part((a.1, b.0)),
        part(a),
        part((b.1, text.len())),
    ]
    .concat()
}

fn pick<T>(items: &[T], selector: usize) -> Option<&T> {
    items.get(selector.checked_rem(items.len())?)
}

/// A pair of neighbours among the lists with two or more.
fn neighbours(
    lists: &[Vec<(usize, usize)>],
    list: usize,
    at: usize,
) -> Option<[(usize, usize); 2]> {
    let long: Vec<_> = lists.iter().filter(|l| l.len() >= 2).collect();
    let list = pick(&long, list)?;
    let i = at % (list.len() - 1);
    Some([list[i], list[i + 1]])
}

fn apply(text: Vec<u8>, mutation: &Mutation) -> Vec<u8> {
    let len = text.len().max(1);
    let shape = || Shape::of(&text);
    let changed = match *mutation {
        Mutation::Flip { at, mask } => {
            let mut text = text.clone();
            if let Some(byte) = text.get_mut(at % len) {
                *byte ^= mask;
            }
            Some(text)
        }
        Mutation::Put { at, byte } => {
            let mut text = text.clone();
            if let Some(slot) = text.get_mut(at % len) {
                *slot = byte;
            }
            Some(text)
        }
        Mutation::Insert { at, fragment } => {
            let at = at % (text.len() + 1);
            Some(splice(&text, (at, at), fragment.as_bytes()))
        }
        Mutation::Cut { at, len: cut } => {
            let at = at % len;
            Some(splice(
                &text,
                (at.min(text.len()), (at + cut).min(text.len())),
                b"",
            ))
        }
        Mutation::SwapMembers { object, at } => shape()
            .and_then(|s| neighbours(&s.objects, object, at))
            .map(|[a, b]| swap(&text, a, b)),
        Mutation::SwapElements { array, at } => shape()
            .and_then(|s| neighbours(&s.arrays, array, at))
            .map(|[a, b]| swap(&text, a, b)),
        Mutation::Duplicate {
            object,
            at,
            other_value,
        } => shape().and_then(|s| {
            let members: Vec<_> = s.objects.iter().filter(|o| !o.is_empty()).collect();
            let members = pick(&members, object)?;
            let member = *pick(members, at)?;
            let mut copy = text.get(member.0..member.1)?.to_vec();
            if other_value {
                // The key of this member with the value of its neighbour.
                let other = *pick(members, at + 1)?;
                let colon =
                    |m: (usize, usize)| string_end(&text, m.0).map(|k| skip_space(&text, k) + 1);
                let (own, theirs) = (colon(member)?, colon(other)?);
                copy = [text.get(member.0..own)?, text.get(theirs..other.1)?].concat();
            }
            copy.insert(0, b',');
            Some(splice(&text, (member.1, member.1), &copy))
        }),
        Mutation::Nfd { string, escaped } => shape().and_then(|s| {
            let (start, end) = *pick(&s.strings, string)?;
            let inner = std::str::from_utf8(text.get(start + 1..end - 1)?).ok()?;
            let mut nfd: String = inner.nfd().collect();
            if nfd == inner {
                nfd.insert_str(0, "e\u{301}");
            }
            if escaped {
                nfd = nfd
                    .chars()
                    .map(|c| {
                        if c.is_ascii() {
                            c.to_string()
                        } else {
                            let mut units = [0; 2];
                            c.encode_utf16(&mut units)
                                .iter()
                                .map(|u| format!("\\u{u:04x}"))
                                .collect()
                        }
                    })
                    .collect();
            }
            Some(splice(&text, (start + 1, end - 1), nfd.as_bytes()))
        }),
        Mutation::Number { value, number } => shape().and_then(|s| {
            let (start, end, _) = *pick(&s.values, value)?;
            Some(splice(&text, (start, end), number.as_bytes()))
        }),
        Mutation::Nest {
            value,
            total,
            objects,
        } => shape().and_then(|s| {
            let (start, end, enclosing) = *pick(&s.values, value)?;
            let levels = total.saturating_sub(enclosing);
            let (open, close) = if objects {
                ("{\"k\":", "}")
            } else {
                ("[", "]")
            };
            let nest = format!("{}0{}", open.repeat(levels), close.repeat(levels));
            Some(splice(&text, (start, end), nest.as_bytes()))
        }),
        Mutation::Version { version } => {
            let header = b"{\"schema_version\":3,\"algorithm\":\"";
            text.strip_prefix(&header[..]).and_then(|rest| {
                let quote = rest.iter().position(|b| *b == b'"')?;
                let body = rest.get(quote + 2..)?;
                Some([format!("{{\"schema_version\":{version},").as_bytes(), body].concat())
            })
        }
    };
    changed.unwrap_or(text)
}

/// What the reader must do with any bytes: answer without panicking, accept only bytes it
/// writes again exactly, and agree between `parse` and `verify`.
fn reader_is_consistent(bytes: &[u8]) -> Result<(), TestCaseError> {
    let parsed = parse(bytes);
    let verified = verify(bytes);
    if let Ok((graph, algorithm)) = &parsed {
        let again = encode(graph, *algorithm);
        prop_assert_eq!(again.as_deref(), Ok(bytes));
        let verified = verified
            .as_ref()
            .map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(
            (verified.schema_version, verified.algorithm),
            (3, *algorithm)
        );
    }
    if let Ok(verified) = &verified {
        prop_assert_eq!(&verified.digest_hex, &hash_hex(bytes, verified.algorithm));
        if verified.schema_version == 3 {
            prop_assert!(
                parsed.is_ok(),
                "verify accepts, parse refuses: {:?}",
                parsed
            );
        }
    }
    Ok(())
}

/// A valid envelope of generated parts, mutated.
fn mutated_envelope() -> impl Strategy<Value = (Parts, Vec<Mutation>)> {
    (graph_parts(), prop::collection::vec(mutation(), 1..4))
}

/// The envelope of generated parts, if they make one (see [`genuine_collision`]).
fn envelope_of(
    (names, labels, algorithm, observed, signs): &Parts,
) -> Result<Option<Vec<u8>>, TestCaseError> {
    let graph = graph_of(names, labels, *observed, signs)?;
    match encode(&graph, *algorithm) {
        Ok(bytes) => Ok(Some(bytes)),
        Err(CanonicalError::NodeIdCollision { first, second, .. })
        | Err(CanonicalError::LabelKeyCollision { first, second, .. }) => {
            genuine_collision(&first, &second)?;
            Ok(None)
        }
        Err(other) => Err(TestCaseError::fail(format!("refused: {other}"))),
    }
}

proptest! {
    #[test]
    fn encoded_values_are_fixed_points(value in value()) {
        match encode_value(&value) {
            Ok(bytes) => {
                let read: Value = serde_json::from_slice(&bytes)
                    .map_err(|e| TestCaseError::fail(e.to_string()))?;
                prop_assert_eq!(encode_value(&read), Ok(bytes));
            }
            // Keys that are one after NFC are refused; nothing else may be.
            Err(CanonicalError::KeyCollision { first, second, normalised, .. }) => {
                genuine_collision(&first, &second)?;
                prop_assert_eq!(first.nfc().collect::<String>(), normalised);
            }
            Err(other) => prop_assert!(false, "refused: {}", other),
        }
    }

    #[test]
    fn encoded_graphs_verify_and_parse_back(parts in graph_parts()) {
        // Ids or label keys colliding after NFC are the only refusal (checked genuine).
        let Some(bytes) = envelope_of(&parts)? else {
            return Ok(());
        };
        let algorithm = parts.2;
        let verified = verify(&bytes).map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(verified.algorithm, algorithm);
        let (read, named) = parse(&bytes).map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(named, algorithm);
        prop_assert_eq!(encode(&read, algorithm), Ok(bytes));
    }

    #[test]
    fn mutated_envelopes_are_read_or_refused_never_misread((parts, mutations) in mutated_envelope()) {
        let envelope = envelope_of(&parts)?;
        prop_assume!(envelope.is_some(), "ids or label keys collide after NFC");
        let mut bytes = envelope.unwrap_or_default();
        reader_is_consistent(&bytes)?;
        for mutation in &mutations {
            bytes = apply(bytes, mutation);
            reader_is_consistent(&bytes)?;
        }
    }

    #[test]
    fn arbitrary_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..256)) {
        reader_is_consistent(&bytes)?;
    }
}

/// The mutations reach every stage of the reader, not only its first byte: over a fixed run
/// of generated cases, each kind of refusal turns up, and so do mutations that are accepted.
#[test]
fn mutations_reach_every_stage_of_the_reader() {
    let mut runner = TestRunner::deterministic();
    let strategy = mutated_envelope();
    let mut seen = BTreeMap::<String, usize>::new();
    for _ in 0..3000 {
        let (parts, mutations) = strategy
            .new_tree(&mut runner)
            .map(|tree| proptest::strategy::ValueTree::current(&tree))
            .expect("a case");
        let Ok(Some(mut bytes)) = envelope_of(&parts) else {
            continue;
        };
        for mutation in &mutations {
            bytes = apply(bytes, mutation);
        }
        let outcome = match verify(&bytes) {
            Ok(_) => "accepted".to_owned(),
            Err(CanonicalError::Graph(e)) => {
                let debug = format!("{e:?}");
                let name = debug.split([' ', '{', '(']).next().unwrap_or_default();
                format!("Graph::{name}")
            }
            Err(e) => {
                let debug = format!("{e:?}");
                debug
                    .split([' ', '{', '('])
                    .next()
                    .unwrap_or_default()
                    .to_owned()
            }
        };
        *seen.entry(outcome).or_default() += 1;
    }
    for stage in [
        "accepted",
        "NotJson",
        "NotCanonical",
        "UnknownSchemaVersion",
        "Graph::UnknownKey",
        "Graph::MissingKey",
        "Graph::WrongType",
        "Graph::BadWord",
        "Graph::FloatLabel",
        "Graph::DanglingEdge",
    ] {
        assert!(seen.contains_key(stage), "{stage} never reached: {seen:?}");
    }
}

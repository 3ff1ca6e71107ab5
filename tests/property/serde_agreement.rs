//! The schema a tool advertises and enforces agrees with serde, over generated values of every
//! serde shape a Rust argument has: a value the schema accepts deserializes (so no value serde
//! refuses gets past the schema), and a value serde reads and writes back unchanged (a
//! canonical value of the type) is accepted by the schema.
//!
//! Values are generated near each type: valid seeds, then random edits (a subtree replaced by
//! generated JSON from the type's own vocabulary of keys, tags and edge numbers, a key dropped
//! or added, an array grown or cut), and wholly generated JSON. Each is read as a tool call
//! reads arguments: whole numbers as integers first, then the schema, then serde.

use std::collections::BTreeMap;
use std::fmt::Debug;

use beam_mcp::schema::{CompiledSchema, whole_numbers_as_integers};
use proptest::prelude::*;
use proptest::test_runner::{Config, RngAlgorithm, TestCaseError, TestRng, TestRunner};
use schemars::JsonSchema;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
enum Internal {
    Circle { r: f64 },
    Square { side: u32 },
    Empty,
}

#[derive(Debug, Serialize, Deserialize, JsonSchema)]
enum External {
    Add(i64, i64),
    Neg(i8),
    Reset,
    Set { value: u16 },
}

#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "t", content = "c")]
enum Adjacent {
    Text(String),
    Pair(u8, u8),
    Nothing,
}

#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
enum Untagged {
    Number(u64),
    Name(String),
    Point { x: i32, y: i32 },
}

#[derive(Debug, Serialize, Deserialize, JsonSchema)]
struct Tree {
    name: String,
    children: Vec<Tree>,
}

#[derive(Debug, Serialize, Deserialize, JsonSchema)]
struct List {
    value: i32,
    next: Option<Box<List>>,
}

#[derive(Debug, Serialize, Deserialize, JsonSchema)]
struct Point(i32, u8);

#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct Settings {
    max_items: u32,
    #[serde(default)]
    verbose: bool,
    nick_name: Option<String>,
}

#[derive(Debug, Serialize, Deserialize, JsonSchema)]
struct Job {
    name: String,
    #[serde(flatten)]
    schedule: Schedule,
}

#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "type", rename_all = "snake_case")]
enum Schedule {
    Once { at: String },
    Every { minutes: u32 },
}

/// A unit of temperature.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
enum Unit {
    /// Degrees Celsius.
    Celsius,
    /// Degrees Fahrenheit.
    Fahrenheit,
}

#[derive(Debug, Serialize, Deserialize, JsonSchema)]
struct Bounded {
    #[schemars(range(min = 1, max = 10))]
    n: u8,
    #[schemars(length(min = 2, max = 5))]
    s: String,
    #[schemars(regex(pattern = r"^[a-z]+$"))]
    code: String,
}

#[derive(Debug, Serialize, Deserialize, JsonSchema)]
struct Collections {
    scores: BTreeMap<String, u32>,
    pair: (u8, String),
    boxed: Box<i16>,
    tags: Vec<Unit>,
    maybe: Option<Vec<Option<u64>>>,
}

/// Every key, tag and string the types above use, and numbers at every integer type's edges.
fn vocabulary() -> (Vec<&'static str>, Vec<Value>) {
    let keys = vec![
        "kind",
        "circle",
        "square",
        "empty",
        "r",
        "side",
        "Add",
        "Neg",
        "Reset",
        "Set",
        "value",
        "t",
        "c",
        "Text",
        "Pair",
        "Nothing",
        "x",
        "y",
        "name",
        "children",
        "next",
        "maxItems",
        "verbose",
        "nickName",
        "max_items",
        "type",
        "once",
        "every",
        "at",
        "minutes",
        "n",
        "s",
        "code",
        "scores",
        "pair",
        "boxed",
        "tags",
        "maybe",
        "celsius",
        "fahrenheit",
        "Celsius",
        "",
        "abc",
        "ABC",
    ];
    let numbers = [
        json!(0),
        json!(1),
        json!(-1),
        json!(10),
        json!(11),
        json!(127),
        json!(128),
        json!(-128),
        json!(-129),
        json!(255),
        json!(256),
        json!(32767),
        json!(32768),
        json!(-32769),
        json!(65535),
        json!(65536),
        json!(2147483647),
        json!(2147483648_i64),
        json!(-2147483649_i64),
        json!(4294967295_u64),
        json!(4294967296_u64),
        json!(i64::MAX),
        json!(i64::MIN),
        json!(u64::MAX),
        json!(1.5),
        json!(3.0),
        json!(-0.0),
        json!(1e300),
        json!(18446744073709551616.0),
    ];
    (keys, numbers.to_vec())
}

/// Generated JSON from the vocabulary, at most `depth` deep.
fn json_value(depth: u32) -> BoxedStrategy<Value> {
    let (keys, numbers) = vocabulary();
    let string_keys = keys.clone();
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        proptest::sample::select(numbers),
        proptest::sample::select(string_keys).prop_map(|s| Value::String(s.to_owned())),
        any::<i64>().prop_map(Value::from),
    ];
    leaf.prop_recursive(depth, 24, 4, move |inner| {
        let keys = keys.clone();
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            proptest::collection::vec((proptest::sample::select(keys), inner), 0..4).prop_map(
                |entries| Value::Object(
                    entries
                        .into_iter()
                        .map(|(k, v)| (k.to_owned(), v))
                        .collect()
                )
            ),
        ]
    })
    .boxed()
}

/// One edit of a value, at a path chosen by `steer`.
#[derive(Debug, Clone)]
enum Edit {
    Replace(Value),
    DropKey,
    AddKey(&'static str, Value),
    Push(Value),
    Pop,
}

fn edit() -> impl Strategy<Value = Edit> {
    let (keys, _) = vocabulary();
    prop_oneof![
        3 => json_value(2).prop_map(Edit::Replace),
        1 => Just(Edit::DropKey),
        1 => (proptest::sample::select(keys), json_value(1)).prop_map(|(k, v)| Edit::AddKey(k, v)),
        1 => json_value(1).prop_map(Edit::Push),
        1 => Just(Edit::Pop),
    ]
}

/// Applies `edit` to the node `steer` picks, walking down from the root.
fn apply(value: &mut Value, edit: Edit, steer: &[usize]) {
    let mut node = value;
    for &pick in steer {
        let children = match node {
            Value::Array(items) if !items.is_empty() => items.len(),
            Value::Object(map) if !map.is_empty() => map.len(),
            _ => break,
        };
        // One pick in four stops here, so edits land at every depth.
        if pick % 4 == 0 {
            break;
        }
        let index = pick % children;
        node = match node {
            Value::Array(items) => &mut items[index],
            Value::Object(map) => map.values_mut().nth(index).expect("index within the map"),
            _ => unreachable!("only containers are walked into"),
        };
    }
    match (edit, node) {
        (Edit::Replace(new), node) => *node = new,
        (Edit::DropKey, Value::Object(map)) => {
            let first = map.keys().next().cloned();
            if let Some(key) = first {
                map.remove(&key);
            }
        }
        (Edit::AddKey(key, new), Value::Object(map)) => {
            map.insert(key.to_owned(), new);
        }
        (Edit::Push(new), Value::Array(items)) => items.push(new),
        (Edit::Pop, Value::Array(items)) => {
            items.pop();
        }
        _ => {}
    }
}

/// Whether a canonical value of the type must pass the schema: not for a type whose schemars
/// attributes (`range`, `length`, `regex`) bound what serde alone would take.
#[derive(Clone, Copy)]
enum Bounds {
    SerdeOnly,
    AlsoSchemars,
}

/// A runner of `cases` cases, the same ones every run (a gate does not pass by luck); set
/// `SERDE_AGREEMENT_RANDOM=1` to explore other values.
fn runner(cases: u32) -> TestRunner {
    let config = Config {
        cases,
        failure_persistence: None,
        ..Config::default()
    };
    if std::env::var_os("SERDE_AGREEMENT_RANDOM").is_some() {
        TestRunner::new(config)
    } else {
        TestRunner::new_with_rng(config, TestRng::deterministic_rng(RngAlgorithm::ChaCha))
    }
}

/// The property for one value: the schema's verdict and serde's agree as the module says.
fn agree<T: DeserializeOwned + Serialize + Debug>(
    schema: &CompiledSchema,
    mut value: Value,
    bounds: Bounds,
) -> Result<(), TestCaseError> {
    whole_numbers_as_integers(&mut value);
    let verdict = schema.validate(&value);
    let read = serde_json::from_value::<T>(value.clone());
    if verdict.is_ok()
        && let Err(refusal) = &read
    {
        return Err(TestCaseError::fail(format!(
            "the schema accepts {value}, which serde refuses: {refusal}\nschema: {}",
            schema.as_value()
        )));
    }
    if let (Ok(read), Err(refusal), Bounds::SerdeOnly) = (&read, &verdict, bounds) {
        let written = serde_json::to_value(read).expect("a read value writes back");
        if written == value {
            return Err(TestCaseError::fail(format!(
                "serde reads {value} as {read:?} and writes it back unchanged, but the schema refuses it: {refusal}\nschema: {}",
                schema.as_value()
            )));
        }
    }
    Ok(())
}

/// Runs the property for `T` over its seeds, edits of them, and generated JSON.
fn check<T: DeserializeOwned + Serialize + Debug + JsonSchema>(seeds: Vec<Value>) {
    check_bounded::<T>(seeds, Bounds::SerdeOnly);
}

/// [`check`] for a type whose schemars attributes bound it further than serde does.
fn check_bounded<T: DeserializeOwned + Serialize + Debug + JsonSchema>(
    seeds: Vec<Value>,
    bounds: Bounds,
) {
    let schema = CompiledSchema::compile(&beam_mcp::schema_for::<T>())
        .unwrap_or_else(|e| panic!("{}: schema refused: {e}", std::any::type_name::<T>()));
    for seed in &seeds {
        assert!(
            schema.validate(seed).is_ok() && serde_json::from_value::<T>(seed.clone()).is_ok(),
            "{}: the seed {seed} is not valid to both",
            std::any::type_name::<T>()
        );
    }
    let edited = (
        proptest::sample::select(seeds),
        proptest::collection::vec(
            (edit(), proptest::collection::vec(any::<usize>(), 0..5)),
            1..4,
        ),
    )
        .prop_map(|(mut value, edits)| {
            for (edit, steer) in edits {
                apply(&mut value, edit, &steer);
            }
            value
        });
    let values = prop_oneof![4 => edited, 1 => json_value(3)];
    let mut runner = runner(1024);
    if let Err(failure) = runner.run(&values, |value| agree::<T>(&schema, value, bounds)) {
        panic!("{}: {failure}", std::any::type_name::<T>());
    }
}

#[test]
fn internally_tagged_enums_agree() {
    check::<Internal>(vec![
        json!({"kind": "circle", "r": 1.5}),
        json!({"kind": "square", "side": 3}),
        json!({"kind": "empty"}),
    ]);
}

#[test]
fn externally_tagged_enums_agree() {
    check::<External>(vec![
        json!({"Add": [1, 2]}),
        json!({"Neg": -5}),
        json!("Reset"),
        json!({"Set": {"value": 7}}),
    ]);
}

#[test]
fn adjacently_tagged_enums_agree() {
    check::<Adjacent>(vec![
        json!({"t": "Text", "c": "hi"}),
        json!({"t": "Pair", "c": [1, 2]}),
        json!({"t": "Nothing"}),
    ]);
}

#[test]
fn untagged_enums_agree() {
    check::<Untagged>(vec![json!(7), json!("seven"), json!({"x": -1, "y": 2})]);
}

#[test]
fn recursive_types_agree() {
    check::<Tree>(vec![
        json!({"name": "root", "children": [{"name": "a", "children": []}]}),
        json!({"name": "leaf", "children": []}),
    ]);
    check::<List>(vec![
        json!({"value": 1, "next": {"value": 2, "next": null}}),
        json!({"value": 1}),
    ]);
}

#[test]
fn tuple_structs_agree() {
    check::<Point>(vec![json!([1, 2]), json!([-7, 255])]);
}

#[test]
fn struct_attributes_agree() {
    check::<Settings>(vec![
        json!({"maxItems": 3, "verbose": true, "nickName": "x"}),
        json!({"maxItems": 3, "nickName": null}),
        json!({"maxItems": 0}),
    ]);
    check::<Job>(vec![
        json!({"name": "a", "type": "once", "at": "noon"}),
        json!({"name": "b", "type": "every", "minutes": 5}),
    ]);
}

#[test]
fn unit_enums_and_bounds_agree() {
    check::<Unit>(vec![json!("celsius"), json!("fahrenheit")]);
    check_bounded::<Bounded>(
        vec![
            json!({"n": 1, "s": "ab", "code": "abc"}),
            json!({"n": 10, "s": "abcde", "code": "z"}),
        ],
        Bounds::AlsoSchemars,
    );
}

#[test]
fn collections_agree() {
    check::<Collections>(vec![
        json!({"scores": {"a": 1}, "pair": [1, "x"], "boxed": -3, "tags": ["celsius"], "maybe": [1, null]}),
        json!({"scores": {}, "pair": [255, ""], "boxed": 0, "tags": [], "maybe": null}),
    ]);
}

/// The property is not vacuous: a schema that disagrees with serde (one that takes any number
/// for a `u8`) is caught.
#[test]
fn a_schema_looser_than_serde_is_caught() {
    let loose = CompiledSchema::compile(&json!({"type": "integer"})).expect("a plain schema");
    let mut runner = runner(256);
    let caught = runner.run(&json_value(1), |value| {
        agree::<u8>(&loose, value, Bounds::SerdeOnly)
    });
    assert!(
        caught.is_err(),
        "256 and -1 are integers serde refuses as u8"
    );
}

//! The diff record: the JSON value whose canonical bytes (labels-object rules) are the
//! record's bytes.

use serde_json::{Map, Value, json};

use crate::vocab::{Algorithm, EdgeKind, SCHEMA_VERSION, Sign};

use super::{Coverage, Diff, EdgeLabel, SignChange};

/// `{algorithm, classes, coverage, schema_version, window}`; the encoder sorts the keys, the
/// class arrays are already in label order. Built member by member: `json!` would copy every
/// interpolated value once more through `Serialize`.
pub(super) fn record(diff: &Diff, algorithm: Algorithm) -> Value {
    let classes = &diff.classes;
    let mut by_class = Map::new();
    by_class.insert(
        "changed_sign".into(),
        Value::Array(classes.changed_sign.iter().map(change).collect()),
    );
    by_class.insert(
        "declared_and_observed".into(),
        labels(&classes.declared_and_observed),
    );
    by_class.insert(
        "declared_never_observed".into(),
        labels(&classes.declared_never_observed),
    );
    by_class.insert(
        "observed_but_undeclared".into(),
        labels(&classes.observed_but_undeclared),
    );
    let mut record = Map::new();
    record.insert("algorithm".into(), algorithm.as_str().into());
    record.insert("classes".into(), by_class.into());
    record.insert("coverage".into(), coverage(&diff.coverage));
    record.insert("schema_version".into(), SCHEMA_VERSION.into());
    record.insert("window".into(), diff.window.clone());
    record.into()
}

fn labels(labels: &[EdgeLabel]) -> Value {
    labels
        .iter()
        .map(|label| Value::from(entry(&label.from, &label.to, label.kind)))
        .collect()
}

fn change(change: &SignChange) -> Value {
    let mut object = entry(&change.from, &change.to, change.kind);
    object.insert("declared_sign".into(), sign(change.declared_sign));
    object.insert("observed_sign".into(), sign(change.observed_sign));
    object.into()
}

fn entry(from: &str, to: &str, kind: EdgeKind) -> Map<String, Value> {
    let mut object = Map::new();
    object.insert("from".into(), from.into());
    object.insert("kind".into(), kind.as_str().into());
    object.insert("to".into(), to.into());
    object
}

fn sign(sign: Sign) -> Value {
    sign.as_str().into()
}

fn coverage(coverage: &Coverage) -> Value {
    json!({
        "declared_edges": coverage.declared_edges,
        "observed_edges": coverage.observed_edges,
        "declared_and_observed": coverage.declared_and_observed,
        "declared_endpoint_covered": coverage.declared_endpoint_covered,
        "observed_endpoint_declared": coverage.observed_endpoint_declared,
        "declared_nodes": coverage.declared_nodes,
        "observed_nodes": coverage.observed_nodes,
        "nodes_in_both": coverage.nodes_in_both,
        "declared_sign_only": coverage.declared_sign_only,
        "observed_sign_only": coverage.observed_sign_only,
    })
}

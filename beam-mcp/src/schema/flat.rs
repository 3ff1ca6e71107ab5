//! A quick verdict for the shape most tools' arguments have: an object of declared properties,
//! some required, unknown ones allowed or refused, and nothing else on the object itself. Its
//! properties are evaluated as the full evaluation evaluates them (each one's own schema may be
//! anything); what is skipped is the root's general walk (the path, the keyword-by-keyword
//! object rules, the look-up of every key among the declared ones). Only a pass is taken from
//! it: a failure is evaluated again in full, for the message that names it.

use serde_json::Value;

use super::node::{Additional, JsonType, Node, NodeId, ROOT};
use super::validate::Verdicts;

/// The root's properties, in the schema's order, and what else it asks of the object.
#[derive(Debug)]
pub(crate) struct Flat {
    /// Each declared property: its name, its node, whether it is required, and the types its
    /// node admits when `type` is all it asserts (checked here, without an evaluation).
    properties: Vec<(String, NodeId, bool, Option<Vec<JsonType>>)>,
    /// `additionalProperties: false`.
    deny_unknown: bool,
}

impl Flat {
    /// The quick form of a compiled schema, when its root asks of an object only what it
    /// knows: `type` admitting objects (or absent), `properties`, `required` among them, and
    /// `additionalProperties` absent, `true` or `false`.
    pub(crate) fn of(nodes: &[Node]) -> Option<Flat> {
        let root = nodes.get(ROOT)?;
        let rules = &root.object;
        let plain = root.always.is_none()
            && root
                .types
                .as_ref()
                .is_none_or(|kinds| kinds.contains(&JsonType::Object))
            && root.enumeration.is_none()
            && root.constant.is_none()
            && !root.has_in_place()
            && !root.gathers
            && rules.patterns.is_empty()
            && rules.unevaluated == Additional::Allow
            && rules.property_names.is_none()
            && rules.dependent_required.is_empty()
            && rules.min_properties.is_none()
            && rules.max_properties.is_none()
            && rules.required.iter().all(|name| {
                rules
                    .properties
                    .iter()
                    .any(|(declared, _)| declared == name)
            });
        let deny_unknown = match rules.additional {
            Additional::Allow => false,
            Additional::Deny => true,
            // `true` and `false` written as schemas: every unknown key passes, or none does.
            Additional::Schema(id) => !nodes.get(id)?.always?,
        };
        plain.then(|| Flat {
            properties: rules
                .properties
                .iter()
                .map(|(name, id)| {
                    let types = nodes.get(*id).and_then(Node::only_types).map(<[_]>::to_vec);
                    (name.clone(), *id, rules.required.contains(name), types)
                })
                .collect(),
            deny_unknown,
        })
    }

    /// Whether `value` passes the schema `nodes` were compiled from (whose quick form this is).
    /// `false` is no verdict: the full evaluation decides, and explains.
    pub(crate) fn passes(&self, nodes: &[Node], value: &Value) -> bool {
        let Value::Object(map) = value else {
            return false;
        };
        self.passes_object(nodes, map.len(), |name| map.get(name))
    }

    /// [`passes`](Self::passes) for an object of `len` members kept otherwise than in a map,
    /// each found by `get`.
    pub(crate) fn passes_object<'v>(
        &self,
        nodes: &[Node],
        len: usize,
        get: impl Fn(&str) -> Option<&'v Value>,
    ) -> bool {
        let mut verdicts = None;
        let mut found = 0;
        for (name, id, required, types) in &self.properties {
            match get(name) {
                Some(value) => {
                    found += 1;
                    let passes = match types {
                        Some(types) => types.iter().any(|t| t.admits(value)),
                        None => verdicts
                            .get_or_insert_with(|| Verdicts::new(nodes))
                            .passes(*id, value),
                    };
                    if !passes {
                        return false;
                    }
                }
                None if *required => return false,
                None => {}
            }
        }
        // Every key found is a declared one, each counted once: a key beyond them is unknown.
        !(self.deny_unknown && found != len)
    }
}

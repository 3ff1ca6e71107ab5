//! Validating a value against a compiled schema.
//!
//! Per value the order is type → enum → const → the value's own rules (required names and
//! counts before its children) → its children in the schema's order → the keywords that
//! apply subschemas to the value itself (`$ref`, `allOf`, `anyOf`, `oneOf`, `not`, `if`,
//! `dependentSchemas`) → `unevaluatedProperties` and `unevaluatedItems`; the first failure
//! wins. Alternatives are tried quietly: a message is built only for the one failure
//! reported, and for `anyOf` and `oneOf` it names the alternative that came closest.
//!
//! The walk recurses, bounded: a value nested deeper than [`MAX_DEPTH`] evaluations is
//! refused with a message, never a stack overflow (a request's JSON is parsed at most 128
//! levels deep, and a recursive type takes about two evaluations per level). The value is only
//! borrowed: keys appear in the path by reference and nothing about the caller's value outlives
//! the call.

use std::cmp::Ordering;
use std::collections::{BTreeSet, HashMap};

use serde_json::{Map, Number, Value};

use super::equal::json_equal;
use super::error::ValidationError;
use super::failure::{Counted, Failure, Step};
use super::node::{Additional, Node, NodeId, ROOT};
use super::{number, unique};

/// The most evaluations nested inside one another.
pub(crate) const MAX_DEPTH: usize = 320;

/// How many `anyOf`/`oneOf` failures, nested in one another, name their closest alternative:
/// each explanation evaluates the alternatives again, so the depth of explaining is bounded.
const EXPLAINED: u8 = 3;

/// Validates `value` against the schema whose root is `nodes[ROOT]`.
pub(crate) fn validate(nodes: &[Node], value: &Value) -> Result<(), ValidationError> {
    let mut eval = Eval::new(nodes);
    if eval.eval(ROOT, value, None) {
        Ok(())
    } else {
        Err(ValidationError::new(eval.error.map_or_else(
            || "arguments do not match the schema".to_owned(),
            |(message, _, _)| message,
        )))
    }
}

/// Verdicts on values under the root object's properties, as the root's evaluation reaches
/// them (one depth in, as loud, so that shared nodes are remembered exactly when they would
/// be), without the path a message would name: what [`Flat`](super::flat::Flat) asks of each
/// property. Only a pass is taken from it.
pub(super) struct Verdicts<'a> {
    eval: Eval<'a>,
}

impl<'a> Verdicts<'a> {
    pub(super) fn new(nodes: &'a [Node]) -> Self {
        let mut eval = Eval::new(nodes);
        eval.depth = 1;
        Verdicts { eval }
    }

    /// Whether `value` satisfies node `id`, exactly as the full evaluation finds it.
    pub(super) fn passes(&mut self, id: NodeId, value: &'a Value) -> bool {
        self.eval.eval(id, value, None)
    }
}

/// Hashes a memo key (a node index and an address) in a few instructions: neither is chosen by
/// a caller, so a keyed hash buys nothing here.
#[derive(Default, Clone, Copy)]
struct BuildPairHasher;

impl std::hash::BuildHasher for BuildPairHasher {
    type Hasher = PairHasher;
    fn build_hasher(&self) -> PairHasher {
        PairHasher(0)
    }
}

/// The hasher of [`BuildPairHasher`]: each word folded in with a multiply.
struct PairHasher(u64);

impl std::hash::Hasher for PairHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            self.write_u64(u64::from(byte));
        }
    }
    fn write_usize(&mut self, word: usize) {
        self.write_u64(word as u64);
    }
    fn write_u64(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(0x517c_c1b7_2722_0a95);
    }
}

/// What the keywords applied to one value evaluated of it: what `unevaluatedProperties` and
/// `unevaluatedItems` then leave alone.
#[derive(Debug, Default)]
struct Seen<'a> {
    properties: BTreeSet<&'a str>,
    every_property: bool,
    /// Items evaluated from the start (`prefixItems`).
    prefix: usize,
    every_item: bool,
    /// Items `contains` matched.
    contained: BTreeSet<usize>,
}

impl<'a> Seen<'a> {
    fn merge(&mut self, other: Seen<'a>) {
        self.properties.extend(other.properties);
        self.every_property |= other.every_property;
        self.prefix = self.prefix.max(other.prefix);
        self.every_item |= other.every_item;
        self.contained.extend(other.contained);
    }
}

/// The steps from the arguments down to the value evaluated: the first [`INLINE_STEPS`] kept in
/// place, so that validating arguments of ordinary depth allocates nothing for them.
#[derive(Clone)]
struct Path<'a> {
    inline: [Step<'a>; INLINE_STEPS],
    deeper: Vec<Step<'a>>,
    len: usize,
}

/// Steps a [`Path`] keeps without allocating.
const INLINE_STEPS: usize = 8;

impl Default for Path<'_> {
    fn default() -> Self {
        Path {
            inline: [Step::Index(0); INLINE_STEPS],
            deeper: Vec::new(),
            len: 0,
        }
    }
}

impl<'a> Path<'a> {
    fn push(&mut self, step: Step<'a>) {
        match self.inline.get_mut(self.len) {
            Some(place) => *place = step,
            None => self.deeper.push(step),
        }
        self.len += 1;
    }

    fn pop(&mut self) {
        self.len -= 1;
        if self.len >= INLINE_STEPS {
            self.deeper.pop();
        }
    }

    fn len(&self) -> usize {
        self.len
    }

    /// The steps in order, for a failure's message.
    fn steps(&self) -> Vec<Step<'a>> {
        let kept = self.len.min(INLINE_STEPS);
        let mut steps = self.inline[..kept].to_vec();
        steps.extend_from_slice(&self.deeper);
        steps
    }
}

/// One validation: where it is, how deep, and the first failure found.
struct Eval<'a> {
    nodes: &'a [Node],
    path: Path<'a>,
    depth: usize,
    /// Above zero while alternatives are tried: failures there are not reported.
    quiet: usize,
    /// The failure reported, how deep in the value it was, and whether the value missed a
    /// `const` or an `enum` there (in a tagged union, the mark of another variant's branch).
    error: Option<(String, usize, bool)>,
    /// Subschemas passed so far: how far an alternative got, to name the closest.
    passed: usize,
    /// Results of quiet evaluations of shared nodes without annotations, by node and value (its
    /// address in the caller's document): alternatives that share a subschema (the variants of
    /// a recursive enum) evaluate each part of the value once, not once per path to it, so the
    /// cost stays linear in the value instead of exponential in its depth.
    /// Made on first use: a schema with no shared node never pays for it.
    memo: Option<HashMap<(NodeId, usize), bool, BuildPairHasher>>,
    /// Set once the depth bound was met: results past it are not remembered.
    too_deep: bool,
    /// How many nested explanations of a failed `anyOf`/`oneOf` are still allowed.
    explain: u8,
}

impl<'a> Eval<'a> {
    fn new(nodes: &'a [Node]) -> Self {
        Eval {
            nodes,
            path: Path::default(),
            depth: 0,
            quiet: 0,
            error: None,
            passed: 0,
            memo: None,
            too_deep: false,
            explain: EXPLAINED,
        }
    }

    /// Records `failure` at the current path (the first one only, and not while quiet).
    fn fail(&mut self, failure: Failure<'_>) -> bool {
        if self.quiet == 0 && self.error.is_none() {
            let missed_constant = matches!(failure, Failure::Const(_) | Failure::Enum(_));
            self.error = Some((
                failure.message(&self.path.steps()),
                self.path.len(),
                missed_constant,
            ));
        }
        false
    }

    /// True when `value` satisfies node `id`; what it evaluated goes into `seen`, if asked.
    fn eval(&mut self, id: NodeId, value: &'a Value, seen: Option<&mut Seen<'a>>) -> bool {
        let Some(node) = self.nodes.get(id) else {
            return true;
        };
        if let Some(always) = node.always {
            if always {
                self.passed += 1;
                return true;
            }
            return self.fail(Failure::False);
        }
        if self.depth >= MAX_DEPTH {
            self.too_deep = true;
            return self.fail(Failure::TooDeep(MAX_DEPTH));
        }
        // Only quiet results without annotations are remembered: a reported failure needs its
        // message, and annotations depend on more than the node and the value.
        let key = (id, std::ptr::from_ref(value) as usize);
        let remembers = node.shared && self.quiet > 0 && seen.is_none();
        if remembers && let Some(&known) = self.memo.as_ref().and_then(|m| m.get(&key)) {
            if known {
                self.passed += 1;
            }
            return known;
        }
        self.depth += 1;
        // What was evaluated is gathered only where a keyword reads it: most nodes never make
        // (nor drop) a `Seen`.
        let ok = if node.gathers || seen.is_some() {
            let mut own = Seen::default();
            let ok = self.eval_node(node, value, Some(&mut own));
            if ok && let Some(seen) = seen {
                seen.merge(own);
            }
            ok
        } else {
            self.eval_node(node, value, None)
        };
        self.depth -= 1;
        if remembers && !self.too_deep {
            self.memo.get_or_insert_default().insert(key, ok);
        }
        if ok {
            self.passed += 1;
        }
        ok
    }

    fn eval_node(
        &mut self,
        node: &'a Node,
        value: &'a Value,
        mut seen: Option<&mut Seen<'a>>,
    ) -> bool {
        if let Some(kinds) = &node.types
            && !kinds.iter().any(|kind| kind.admits(value))
        {
            return self.fail(Failure::Type(kinds));
        }
        if let Some(options) = &node.enumeration
            && !options.iter().any(|option| json_equal(option, value))
        {
            return self.fail(Failure::Enum(options));
        }
        if let Some(constant) = &node.constant
            && !json_equal(constant, value)
        {
            return self.fail(Failure::Const(constant));
        }
        let ok = match value {
            Value::Object(map) => self.object(node, map, seen.as_deref_mut()),
            Value::Array(items) => self.array(node, items, seen.as_deref_mut()),
            Value::String(text) => self.string(node, text),
            Value::Number(number) => self.number(node, number),
            Value::Null | Value::Bool(_) => true,
        };
        if !ok || (node.has_in_place() && !self.in_place(node, value, seen.as_deref_mut())) {
            return false;
        }
        if node.gathers
            && let Some(seen) = seen
        {
            return match value {
                Value::Object(map) => self.unevaluated_properties(node, map, seen),
                Value::Array(items) => self.unevaluated_items(node, items, seen),
                _ => true,
            };
        }
        true
    }

    /// Evaluates a child value (a property or an item), reached by `step`.
    fn child(&mut self, id: NodeId, value: &'a Value, step: Step<'a>) -> bool {
        self.path.push(step);
        let ok = self.eval(id, value, None);
        self.path.pop();
        ok
    }

    fn object(
        &mut self,
        node: &'a Node,
        map: &'a Map<String, Value>,
        mut seen: Option<&mut Seen<'a>>,
    ) -> bool {
        let rules = &node.object;
        // The lists of what is missing or unknown are made only for a failure's message.
        if !rules.required.iter().all(|name| map.contains_key(name)) {
            let missing: Vec<&str> = rules
                .required
                .iter()
                .map(String::as_str)
                .filter(|name| !map.contains_key(*name))
                .collect();
            return self.fail(Failure::Missing(missing));
        }
        for (name, needed) in &rules.dependent_required {
            if map.contains_key(name) {
                let missing: Vec<&str> = needed
                    .iter()
                    .map(String::as_str)
                    .filter(|n| !map.contains_key(*n))
                    .collect();
                if !missing.is_empty() {
                    return self.fail(Failure::Dependent(name, missing));
                }
            }
        }
        let is_additional = |key: &str| {
            !rules.declared.contains(key) && !rules.patterns.iter().any(|(p, _)| p.is_match(key))
        };
        if rules.additional == Additional::Deny && map.keys().any(|key| is_additional(key)) {
            let mut unknown: Vec<&str> = map
                .keys()
                .map(String::as_str)
                .filter(|key| is_additional(key))
                .collect();
            // Already sorted unless serde_json keeps insertion order.
            unknown.sort_unstable();
            return self.fail(Failure::Unknown(unknown));
        }
        if let Err(failure) = check_count(
            count(map.len()),
            rules.min_properties,
            rules.max_properties,
            Counted::Properties,
        ) {
            return self.fail(failure);
        }
        for (name, id) in &rules.properties {
            if let Some((key, value)) = map.get_key_value(name) {
                if !self.child(*id, value, Step::Key(key)) {
                    return false;
                }
                if let Some(seen) = seen.as_deref_mut() {
                    seen.properties.insert(key);
                }
            }
        }
        if !rules.patterns.is_empty() {
            for (key, value) in map {
                for (pattern, id) in &rules.patterns {
                    if pattern.is_match(key) {
                        if !self.child(*id, value, Step::Key(key)) {
                            return false;
                        }
                        if let Some(seen) = seen.as_deref_mut() {
                            seen.properties.insert(key);
                        }
                    }
                }
            }
        }
        if let Additional::Schema(id) = rules.additional {
            for (key, value) in map {
                if is_additional(key) {
                    if !self.child(id, value, Step::Key(key)) {
                        return false;
                    }
                    if let Some(seen) = seen.as_deref_mut() {
                        seen.properties.insert(key);
                    }
                }
            }
        }
        if let Some(id) = rules.property_names {
            for key in map.keys() {
                // A name is a string value of its own, checked apart from the path.
                let name = Value::String(key.clone());
                let mut names = Eval::new(self.nodes);
                names.quiet = 1;
                names.depth = self.depth;
                if !names.eval(id, &name, None) {
                    return self.fail(Failure::PropertyName(key));
                }
            }
        }
        true
    }

    fn array(
        &mut self,
        node: &'a Node,
        items: &'a [Value],
        mut seen: Option<&mut Seen<'a>>,
    ) -> bool {
        let rules = &node.array;
        if let Err(failure) = check_count(
            count(items.len()),
            rules.min_items,
            rules.max_items,
            Counted::Items,
        ) {
            return self.fail(failure);
        }
        if rules.unique_items && unique::has_duplicates(items) {
            return self.fail(Failure::RepeatedItems);
        }
        for (index, (id, value)) in rules.prefix.iter().zip(items).enumerate() {
            if !self.child(*id, value, Step::Index(index)) {
                return false;
            }
        }
        let past_prefix = rules.prefix.len().min(items.len());
        if let Some(seen) = seen.as_deref_mut() {
            seen.prefix = seen.prefix.max(past_prefix);
        }
        match rules.items {
            Additional::Allow => {}
            Additional::Deny => {
                if items.len() > rules.prefix.len() {
                    return self.fail(Failure::AtMost(count(rules.prefix.len()), Counted::Items));
                }
            }
            Additional::Schema(id) => {
                for (index, value) in items.iter().enumerate().skip(past_prefix) {
                    if !self.child(id, value, Step::Index(index)) {
                        return false;
                    }
                }
                if let Some(seen) = seen.as_deref_mut() {
                    seen.every_item = true;
                }
            }
        }
        if let Some(id) = rules.contains {
            let mut matched = 0u64;
            self.quiet += 1;
            for (index, value) in items.iter().enumerate() {
                self.path.push(Step::Index(index));
                let ok = self.eval(id, value, None);
                self.path.pop();
                if ok {
                    matched += 1;
                    if let Some(seen) = seen.as_deref_mut() {
                        seen.contained.insert(index);
                    }
                }
            }
            self.quiet -= 1;
            let least = rules.min_contains.unwrap_or(1);
            if matched < least {
                return self.fail(Failure::ContainsFewer(least));
            }
            if let Some(most) = rules.max_contains
                && matched > most
            {
                return self.fail(Failure::ContainsMore(most));
            }
        }
        true
    }

    fn string(&mut self, node: &'a Node, text: &str) -> bool {
        let rules = &node.string;
        if rules.min_length.is_some() || rules.max_length.is_some() {
            // Code points, not bytes or UTF-16 units: "é" and "😀" are one each.
            let length = count(text.chars().count());
            if let Err(failure) = check_count(
                length,
                rules.min_length,
                rules.max_length,
                Counted::Characters,
            ) {
                return self.fail(failure);
            }
        }
        if let Some(pattern) = &rules.pattern
            && !pattern.is_match(text)
        {
            return self.fail(Failure::Pattern);
        }
        true
    }

    fn number(&mut self, node: &'a Node, value: &Number) -> bool {
        let rules = &node.number;
        let bounds = [
            (
                &rules.minimum,
                ">=",
                &[Ordering::Greater, Ordering::Equal][..],
            ),
            (&rules.maximum, "<=", &[Ordering::Less, Ordering::Equal][..]),
            (&rules.exclusive_minimum, ">", &[Ordering::Greater][..]),
            (&rules.exclusive_maximum, "<", &[Ordering::Less][..]),
        ];
        for (limit, comparison, allowed) in bounds {
            if let Some(limit) = limit {
                let holds =
                    number::compare(value, limit).is_some_and(|order| allowed.contains(&order));
                if !holds {
                    return self.fail(Failure::Bound(comparison, limit));
                }
            }
        }
        if let Some(divisor) = &rules.multiple_of
            && !number::is_multiple(value, divisor)
        {
            return self.fail(Failure::MultipleOf(divisor));
        }
        true
    }

    /// The keywords that apply subschemas to the value itself.
    fn in_place(
        &mut self,
        node: &'a Node,
        value: &'a Value,
        mut seen: Option<&mut Seen<'a>>,
    ) -> bool {
        let rules = &node.in_place;
        if let Some(id) = rules.reference
            && !self.eval(id, value, seen.as_deref_mut())
        {
            return false;
        }
        for &id in &rules.all_of {
            if !self.eval(id, value, seen.as_deref_mut()) {
                return false;
            }
        }
        if !rules.any_of.is_empty() {
            let gathers = seen.is_some();
            let mut any = false;
            for &id in &rules.any_of {
                let mut found = Seen::default();
                if self.try_quietly(id, value, gathers.then_some(&mut found)) {
                    any = true;
                    if let Some(seen) = seen.as_deref_mut() {
                        seen.merge(found);
                    } else {
                        break;
                    }
                }
            }
            if !any {
                return self.none_matched("anyOf", &rules.any_of, value);
            }
        }
        if !rules.one_of.is_empty() {
            let gathers = seen.is_some();
            let mut matched: Vec<usize> = Vec::new();
            let mut kept = Seen::default();
            for (index, &id) in rules.one_of.iter().enumerate() {
                let mut found = Seen::default();
                if self.try_quietly(id, value, gathers.then_some(&mut found)) {
                    matched.push(index);
                    kept = found;
                    if matched.len() > 1 {
                        return self.fail(Failure::ManyMatched(matched[0], matched[1]));
                    }
                }
            }
            if matched.is_empty() {
                return self.none_matched("oneOf", &rules.one_of, value);
            }
            if let Some(seen) = seen.as_deref_mut() {
                seen.merge(kept);
            }
        }
        if let Some(id) = rules.not
            && self.try_quietly(id, value, None)
        {
            return self.fail(Failure::Not);
        }
        if let Some((condition, then, otherwise)) = rules.condition {
            let mut found = Seen::default();
            let gathers = seen.is_some();
            let branch = if self.try_quietly(condition, value, gathers.then_some(&mut found)) {
                if let Some(seen) = seen.as_deref_mut() {
                    seen.merge(found);
                }
                then
            } else {
                otherwise
            };
            if let Some(id) = branch
                && !self.eval(id, value, seen.as_deref_mut())
            {
                return false;
            }
        }
        if let Value::Object(map) = value {
            for (name, id) in &node.object.dependent_schemas {
                if map.contains_key(name) && !self.eval(*id, value, seen.as_deref_mut()) {
                    return false;
                }
            }
        }
        true
    }

    /// Evaluates an alternative without reporting its failure.
    fn try_quietly(&mut self, id: NodeId, value: &'a Value, seen: Option<&mut Seen<'a>>) -> bool {
        self.quiet += 1;
        let ok = self.eval(id, value, seen);
        self.quiet -= 1;
        ok
    }

    /// `anyOf` or `oneOf` with no alternative matched: the failure names the one that came
    /// closest (failed elsewhere than at a `const` or `enum`, which marks another variant of a
    /// tagged union; then deepest in the value; then after passing the most), with its reason.
    fn none_matched(
        &mut self,
        keyword: &'static str,
        alternatives: &[NodeId],
        value: &'a Value,
    ) -> bool {
        if self.quiet > 0 || self.error.is_some() {
            return false;
        }
        if self.explain == 0 {
            return self.fail(Failure::NoneMatched(keyword, None));
        }
        let mut closest: Option<((bool, usize, usize), String)> = None;
        for &id in alternatives {
            let mut trial = Eval::new(self.nodes);
            trial.path.clone_from(&self.path);
            trial.depth = self.depth;
            trial.explain = self.explain - 1;
            if !trial.eval(id, value, None)
                && let Some((message, depth, missed_constant)) = trial.error
            {
                let rank = (!missed_constant, depth, trial.passed);
                if closest.as_ref().is_none_or(|(best, _)| rank > *best) {
                    closest = Some((rank, message));
                }
            }
        }
        self.fail(Failure::NoneMatched(keyword, closest.map(|(_, m)| m)))
    }

    fn unevaluated_properties(
        &mut self,
        node: &'a Node,
        map: &'a Map<String, Value>,
        seen: &mut Seen<'a>,
    ) -> bool {
        if seen.every_property {
            return true;
        }
        match node.object.unevaluated {
            Additional::Allow => true,
            Additional::Deny => {
                let mut unknown: Vec<&str> = map
                    .keys()
                    .map(String::as_str)
                    .filter(|key| !seen.properties.contains(key))
                    .collect();
                if unknown.is_empty() {
                    return true;
                }
                unknown.sort_unstable();
                self.fail(Failure::Unknown(unknown))
            }
            Additional::Schema(id) => {
                for (key, value) in map {
                    if !seen.properties.contains(key.as_str())
                        && !self.child(id, value, Step::Key(key))
                    {
                        return false;
                    }
                }
                seen.every_property = true;
                true
            }
        }
    }

    fn unevaluated_items(
        &mut self,
        node: &'a Node,
        items: &'a [Value],
        seen: &mut Seen<'a>,
    ) -> bool {
        if seen.every_item {
            return true;
        }
        let left = |index: &usize| *index >= seen.prefix && !seen.contained.contains(index);
        match node.array.unevaluated {
            Additional::Allow => true,
            Additional::Deny => match (0..items.len()).find(left) {
                Some(index) => self.fail(Failure::Unevaluated(index)),
                None => true,
            },
            Additional::Schema(id) => {
                let indexes: Vec<usize> = (0..items.len()).filter(left).collect();
                for index in indexes {
                    if !self.child(id, &items[index], Step::Index(index)) {
                        return false;
                    }
                }
                seen.every_item = true;
                true
            }
        }
    }
}

fn check_count<'a>(
    actual: u64,
    min: Option<u64>,
    max: Option<u64>,
    counted: Counted,
) -> Result<(), Failure<'a>> {
    if let Some(min) = min
        && actual < min
    {
        return Err(Failure::AtLeast(min, counted));
    }
    if let Some(max) = max
        && actual > max
    {
        return Err(Failure::AtMost(max, counted));
    }
    Ok(())
}

/// Lengths as the `u64` the schema's counts use.
fn count(length: usize) -> u64 {
    u64::try_from(length).unwrap_or(u64::MAX)
}

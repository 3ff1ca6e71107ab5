//! Both sides' labels over one table of names: every NFC id of either graph, in record order,
//! so that labels compare as integers and sort straight into record order.

use std::cmp::Ordering;
use std::collections::HashMap;

use crate::vocab::{EdgeKind, Sign};

use super::order::{kind_rank, utf16_cmp};
use super::side::Checked;

/// A label as positions in the name table, with what the edge carries.
#[derive(Debug, Clone, Copy)]
pub(super) struct Row {
    pub(super) from: usize,
    pub(super) to: usize,
    rank: usize,
    pub(super) kind: EdgeKind,
    pub(super) sign: Sign,
}

impl Row {
    /// The record-order key: `from`, `to`, then the kind's word.
    pub(super) fn key(&self) -> (usize, usize, usize) {
        (self.from, self.to, self.rank)
    }
}

/// One side's rows, sorted, and which names are its nodes.
pub(super) struct Labels {
    pub(super) rows: Vec<Row>,
    pub(super) holds: Vec<bool>,
}

impl Labels {
    /// Whether both ends of a row are nodes of this side.
    pub(super) fn holds_ends(&self, row: &Row) -> bool {
        let holds = |at: usize| self.holds.get(at).copied().unwrap_or(false);
        holds(row.from) && holds(row.to)
    }
}

/// The name table and both sides' labels over it.
pub(super) struct Table<'a> {
    pub(super) names: Vec<&'a str>,
    pub(super) declared: Labels,
    pub(super) observed: Labels,
}

impl<'a> Table<'a> {
    pub(super) fn new(declared: &'a Checked<'_>, observed: &'a Checked<'_>) -> Table<'a> {
        let mut names: Vec<&str> = declared
            .ids
            .iter()
            .chain(&observed.ids)
            .map(AsRef::as_ref)
            .collect();
        // Byte order is code point order, which is UTF-16 order unless some name holds a
        // character from U+E000 up (lead byte 0xEE or more); only then pay for UTF-16 compares.
        let order: fn(&str, &str) -> Ordering =
            if names.iter().all(|name| name.bytes().all(|b| b < 0xEE)) {
                |a, b| a.cmp(b)
            } else {
                utf16_cmp
            };
        names.sort_unstable_by(|a, b| order(a, b));
        names.dedup();
        let declared = labels(declared, &names, order);
        let observed = labels(observed, &names, order);
        Table {
            names,
            declared,
            observed,
        }
    }

    /// The name at a position (always present: positions come from the table).
    pub(super) fn name(&self, at: usize) -> &'a str {
        self.names.get(at).copied().unwrap_or_default()
    }
}

fn labels(side: &Checked<'_>, names: &[&str], order: fn(&str, &str) -> Ordering) -> Labels {
    let mut holds = vec![false; names.len()];
    let mut position: HashMap<&str, usize> = HashMap::with_capacity(side.ids.len());
    for (node, id) in side.graph.nodes().iter().zip(&side.ids) {
        if let Ok(at) = names.binary_search_by(|probe| order(probe, id)) {
            position.insert(node.id(), at);
            if let Some(slot) = holds.get_mut(at) {
                *slot = true;
            }
        }
    }
    // Every edge's ends are nodes of its graph, so every lookup succeeds.
    let mut rows: Vec<Row> = side
        .graph
        .edges()
        .iter()
        .filter_map(|edge| {
            Some(Row {
                from: *position.get(edge.from.as_str())?,
                to: *position.get(edge.to.as_str())?,
                rank: kind_rank(edge.kind),
                kind: edge.kind,
                sign: edge.sign,
            })
        })
        .collect();
    rows.sort_unstable_by_key(Row::key);
    Labels { rows, holds }
}

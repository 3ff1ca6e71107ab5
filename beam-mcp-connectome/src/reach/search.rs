//! Breadth-first search over a [`Net`](super::net::Net): the one walk behind reachability, the
//! witness and the removal test of dominance.

use petgraph::visit::{EdgeRef, VisitMap, Visitable};

use super::net::{Arc, Inner, Vertex};

/// The arcs of the first shortest path from `from` to `to` that enters no blocked vertex and
/// takes at most `max_hops` arcs; `None` if there is none. Layers are walked in discovery
/// order and each vertex's arcs in graph order, so among shortest paths this is the one a
/// breadth-first search meets first.
pub(crate) fn shortest(
    inner: &Inner,
    from: Vertex,
    to: Vertex,
    blocked: &[Vertex],
    max_hops: Option<usize>,
) -> Option<Vec<Arc>> {
    if from == to {
        return Some(Vec::new());
    }
    let mut seen = inner.visit_map();
    for &vertex in blocked {
        seen.visit(vertex);
    }
    seen.visit(from);
    let mut via: Vec<Option<Arc>> = vec![None; inner.node_count()];
    let mut layer = vec![from];
    let mut hops = 0;
    while !layer.is_empty() && max_hops.is_none_or(|max| hops < max) {
        hops += 1;
        let mut next = Vec::new();
        for &vertex in &layer {
            for arc in inner.edges(vertex) {
                let target = arc.target();
                if !seen.visit(target) {
                    continue;
                }
                if let Some(slot) = via.get_mut(target.index()) {
                    *slot = Some(arc.id());
                }
                if target == to {
                    return Some(walk_back(inner, &via, from, to));
                }
                next.push(target);
            }
        }
        layer = next;
    }
    None
}

/// The arcs from `from` to `to` along the search tree, in path order.
fn walk_back(inner: &Inner, via: &[Option<Arc>], from: Vertex, to: Vertex) -> Vec<Arc> {
    let mut arcs = Vec::new();
    let mut at = to;
    // A tree path has fewer arcs than there are vertices; the bound only guards the loop.
    while at != from && arcs.len() < via.len() {
        let Some(arc) = via.get(at.index()).copied().flatten() else {
            break;
        };
        let Some((source, _)) = inner.edge_endpoints(arc) else {
            break;
        };
        arcs.push(arc);
        at = source;
    }
    arcs.reverse();
    arcs
}

//! Groups: how passes partition into groups, and the break each group ends with (mirrors
//! `src/compile/groups.rs`).

use super::*;

/// Groups partition the passes that run: every pass in at most one group, of its group's type,
/// in declaration order when `declared_order` (else in `order()`'s order, checked by
/// `check_order`); culled and folded passes in none.
pub fn check_structure(s: Subject<'_, '_>, declared_order: bool) -> Result<(), String> {
    let (graph, plan, options) = (s.graph, s.plan, s.options);
    let passes = graph.passes();
    let mut seen: Vec<Option<usize>> = vec![None; passes.len()];
    let mut previous: Option<PassId> = None;
    for (g, group) in plan.groups().iter().enumerate() {
        ensure!(!group.passes.is_empty(), "group {g} is empty");
        for &p in &group.passes {
            ensure!(p.index() < passes.len(), "group {g} names pass {p}");
            ensure!(seen[p.index()].is_none(), "pass {p} is in two groups");
            ensure!(
                !declared_order || previous < Some(p),
                "group {g} breaks declaration order at pass {p}"
            );
            previous = Some(p);
            seen[p.index()] = Some(g);
            ensure!(
                passes.at(p.index()).kind() == group.kind,
                "pass {p} is not of its group's type"
            );
        }
        if group.kind != PassKind::Render {
            ensure!(
                group.passes.len() == 1,
                "{:?} group {g} holds several passes",
                group.kind
            );
            ensure!(
                group.color.is_empty() && group.depth.is_none(),
                "{:?} group {g} has attachments",
                group.kind
            );
        }
        for d in group.depth.iter().chain(&group.depth_views) {
            let reads_only = group.passes.iter().all(|&p| {
                passes
                    .at(p.index())
                    .depth()
                    .is_some_and(|d| d.access == Access::Read)
            });
            // Planned groups only: the naive plan keeps a read-only depth's store.
            ensure!(
                d.read_only == (d.store == StoreOp::None),
                "group {g}: read_only and store none disagree"
            );
            if d.read_only {
                ensure!(
                    reads_only && d.load == LoadOp::Load,
                    "group {g}: read-only depth that is written or not loaded"
                );
            }
        }
        for a in &group.color {
            ensure!(
                a.store != StoreOp::None && !a.read_only,
                "group {g}: colour attachment with store none or read-only"
            );
        }
    }
    for (p, pp) in plan.passes().iter().enumerate() {
        ensure!(
            pp.group.map(|g| g.index()) == seen[p],
            "pass {p}: plan says group {:?}, groups say {:?}",
            pp.group,
            seen[p]
        );
        ensure!(
            pp.culled || pp.folded_into.is_some() == seen[p].is_none(),
            "pass {p}: culled, folded and grouped disagree"
        );
        ensure!(
            !(pp.culled && pp.folded_into.is_some()),
            "pass {p}: culled and folded"
        );
        if passes.at(p).side_effects() || !options.cull {
            ensure!(
                !pp.culled,
                "pass {p} must stay: side effects or culling off"
            );
        }
    }
    Ok(())
}

/// Why `next` may not join a group of `members` (the guide's merge rule and break order, per
/// subresource as the guide's Subresources says, then the compiler's documented additions), or
/// `None` when it must join.
pub(super) fn expected_break(
    graph: &RenderGraph<'_>,
    passes: &Passes,
    reference: &Reference,
    members: &[PassId],
    next: PassId,
    options: &CompileOptions,
) -> Option<&'static str> {
    let next = passes.at(next.index());
    let first = passes.at(members[0].index());
    if first.kind() != PassKind::Render || next.kind() != PassKind::Render {
        return Some("not_render");
    }
    let mut written: BTreeSet<Key> = BTreeSet::new();
    let mut bound: BTreeSet<Key> = BTreeSet::new();
    for &m in members {
        let p = passes.at(m.index());
        for a in attachments(p) {
            // A `read` of a depth with no contents clears it: the clear is written contents.
            if a.access != Access::Read || reference.fallback_clears.contains(&(m, a.slot)) {
                written.insert((a.resource, a.sub));
            }
            if let Some(t) = a.resolve {
                written.insert((t, a.resolve_sub));
            }
        }
        for &e in p.storage_write().iter().chain(p.storage_read_write()) {
            written.extend(keys(graph, e));
        }
        bound.extend(bound_keys(graph, p));
    }
    let any_in = |set: &BTreeSet<Key>, list: &[Entry]| {
        list.iter()
            .any(|&e| keys(graph, e).any(|k| set.contains(&k)))
    };
    if any_in(&written, next.sample())
        || any_in(&written, next.storage_read())
        || any_in(&written, next.storage_read_write())
    {
        return Some("samples_group_output");
    }
    if any_in(&written, next.input()) {
        return Some("inputs_group_output");
    }
    let slots = |p: PassRef<'_>| {
        let mut s: Vec<Option<Key>> = p
            .color()
            .iter()
            .map(|c| Some((c.resource, c.sub)))
            .collect();
        s.push(p.depth().map(|d| (d.resource, d.sub)));
        s
    };
    if slots(first) != slots(next) || first.multiview() != next.multiview() {
        return Some("attachments_differ");
    }
    if attachments(next).iter().any(|a| a.access == Access::Clear) {
        return Some("clears_group_attachment");
    }
    let resolved = members.iter().any(|&m| {
        passes
            .at(m.index())
            .color()
            .iter()
            .any(|c| c.resolve.is_some())
    });
    if resolved {
        return Some("resolve");
    }
    let touched: BTreeSet<Key> = bound.union(&written).copied().collect();
    if any_in(&touched, next.storage_write()) || any_in(&touched, next.storage_read_write()) {
        return Some("storage_hazard");
    }
    let writes_bound = attachments(next)
        .into_iter()
        .filter_map(|a| match a.resolve {
            Some(t) => Some((t, a.resolve_sub)),
            None => (a.is_depth && a.access != Access::Read).then_some((a.resource, a.sub)),
        })
        .chain(None::<Key>)
        .any(|k| bound.contains(&k));
    if writes_bound {
        return Some("writes_bound_texture");
    }
    if !options.merge {
        return Some("merging_disabled");
    }
    None
}

/// Every group ends for the first reason that applies, and never when none does: the compiler
/// merges as much as the guide allows, and explains each break truthfully.
pub fn check_breaks(
    s: Subject<'_, '_>,
    passes: &Passes,
    reference: &Reference,
) -> Result<(), String> {
    let (graph, plan, options) = (s.graph, s.plan, s.options);
    let groups = plan.groups();
    for (g, group) in groups.iter().enumerate() {
        for (k, &p) in group.passes.iter().enumerate().skip(1) {
            let why = expected_break(graph, passes, reference, &group.passes[..k], p, options);
            ensure!(
                why.is_none(),
                "group {g}: pass {p} joined although {why:?} applies"
            );
        }
        let want = match groups.get(g + 1) {
            None => Some("end_of_graph"),
            Some(next) => expected_break(
                graph,
                passes,
                reference,
                &group.passes,
                next.passes[0],
                options,
            ),
        };
        ensure!(
            want == Some(group.break_reason.as_str()),
            "group {g} ends with {:?}, the guide gives {want:?}",
            group.break_reason.as_str()
        );
    }
    Ok(())
}

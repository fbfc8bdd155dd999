//! Restructuring: the restructured plan computes the declared frame in another order, every
//! change it lists is true, and its moves are worth it (mirrors `src/compile/restructure.rs`).

use super::*;

/// The properties of a restructured plan (the guide's Restructuring), checked against the
/// declarations and the declared-order plan `declared`, never against the compiler's reasoning:
/// the same passes live; `order()`, groups and restructuring entries consistent and justified;
/// every hazard, side effect and pinned pass in declared order; every read and every kept import
/// seeing the declared contents (the interpreter, copies as data); traffic at most the declared
/// plan's; and the declared compiler's per-plan properties (ops, lifetimes, transients, physical
/// textures, usage scopes, breaks, warnings) on the declarations as the plan runs them.
pub fn check_restructured(
    s: Subject<'_, '_>,
    declared: &CompiledGraph,
    tally: &mut Tally,
) -> Result<(), String> {
    let (graph, plan, options) = (s.graph, s.plan, s.options);
    let changes = plan.restructuring();
    if changes.is_empty() {
        // check_declared_order showed it is the declared plan.
        return Ok(());
    }
    ensure!(options.restructure, "restructuring off, yet {changes:?}");
    tally.restructured_graphs += 1;
    let count = |kind: &str| changes.iter().filter(|c| c.kind_str() == kind).count() as u64;
    let (moves, dropped, folded) = (
        count("moved"),
        count("resolve_dropped"),
        count("copy_folded"),
    );
    tally.moves += moves;
    tally.moved_graphs += u64::from(moves > 0);
    tally.dropped_resolves += dropped;
    tally.dropped_graphs += u64::from(dropped > 0);
    tally.folded_copies += folded;
    tally.folded_graphs += u64::from(folded > 0);
    let saved = declared.traffic().bytes_per_frame
        - plan
            .traffic()
            .bytes_per_frame
            .min(declared.traffic().bytes_per_frame);
    tally.cheaper_graphs += u64::from(saved > 0);
    tally.keep_order_passes += graph
        .passes()
        .iter()
        .zip(plan.passes())
        .filter(|(d, p)| d.keep_order() && !p.culled)
        .count() as u64;

    for (p, (pp, dp)) in plan.passes().iter().zip(declared.passes()).enumerate() {
        ensure!(
            pp.culled == dp.culled,
            "pass {p}: culled {} restructured, {} in declared order",
            pp.culled,
            dp.culled
        );
    }
    check_determinism(s)?;
    check_structure(s, false)?;
    let runs = runs(plan);
    let eff = effective_passes(graph, plan);
    let declared_live: Vec<bool> = declared.passes().iter().map(|p| !p.culled).collect();
    let declared_ref = reference(graph, &declared_live)?;
    check_changes(s, declared, &eff, &declared_ref, &runs)?;
    check_order(s, &eff, &runs)?;
    check_needed_by(s, &declared_ref)?;

    // What every read sees, with copies as data: a folded copy's destination then holds what
    // the copy would have put there. Folded copies do not run, so their reads are not expected.
    let data = reference_with(graph, &runs, Copies::Propagate)?;
    let planned = execute_and_compare(graph, plan, plan.groups(), Memory::Planned, &data);
    ensure!(
        planned.is_empty(),
        "restructured execution differs from the declared semantics:\n  {}",
        planned.join("\n  ")
    );

    let (t, d) = (plan.traffic(), declared.traffic());
    ensure!(
        t.bytes_per_frame <= d.bytes_per_frame,
        "restructured traffic {} exceeds the declared plan's {}",
        t.bytes_per_frame,
        d.bytes_per_frame
    );
    ensure!(
        t.declared_bytes_per_frame == d.bytes_per_frame,
        "declared_bytes_per_frame {}, the declared plan moves {}",
        t.declared_bytes_per_frame,
        d.bytes_per_frame
    );
    ensure!(
        (t.naive_bytes_per_frame, t.sampled_bytes_per_frame, t.fps)
            == (d.naive_bytes_per_frame, d.sampled_bytes_per_frame, d.fps),
        "naive or sampled traffic differs from the declared plan's"
    );
    ensure!(
        plan.naive_groups() == declared.naive_groups(),
        "the naive plan differs from the declared plan's"
    );
    let live: Vec<bool> = plan.passes().iter().map(|p| !p.culled).collect();
    check_traffic(s, &live)?;

    // The declared compiler's per-plan rules, on the declarations as the plan runs them.
    let running = fold_writers(reference(graph, &runs)?, plan);
    check_planned_ops(s, &running, &eff)?;
    check_lifetimes(s, &eff, &runs)?;
    check_physical(s)?;
    check_transients(s, &eff)?;
    check_usage_scopes(s, &eff)?;
    check_breaks(s, &eff, &running)?;
    check_warnings(s)?;
    check_dependencies(s, &declared_ref)?;
    Ok(())
}

/// In a reference of the passes a plan runs: what a folded copy wrote is what the resolve it was
/// folded into wrote (the version's writer is that resolving pass).
pub fn fold_writers(mut reference: Reference, plan: &CompiledGraph) -> Reference {
    for content in reference.expected.values_mut() {
        if let Content::Written {
            pass,
            resource,
            sub,
        } = *content
            && let Some(into) = plan.passes()[pass.index()].folded_into
        {
            *content = Content::Written {
                pass: into,
                resource,
                sub,
            };
        }
    }
    reference
}

/// The declarations as the plan runs them: a pass resolves what its group resolves at its end
/// (nothing when it does not end its group); everything else as declared.
pub fn effective_passes(graph: &RenderGraph<'_>, plan: &CompiledGraph) -> Passes {
    let mut eff = graph.passes().to_vec();
    for group in plan.groups() {
        for (k, &p) in group.passes.iter().enumerate() {
            let last = k + 1 == group.passes.len();
            let n = eff[p.index()].multiview.unwrap_or(1).max(1) as usize;
            for (slot, c) in eff[p.index()].color.iter_mut().enumerate() {
                c.resolve = if last {
                    group.color.get(slot * n).and_then(|a| a.resolve)
                } else {
                    None
                };
            }
        }
    }
    eff.into_iter().collect()
}

/// Whether a pass writes a subresource (attachment other than `read`, resolve target, storage or
/// copy destination).
fn writes_key(graph: &RenderGraph<'_>, pass: PassRef<'_>, key: Key) -> bool {
    attachments(pass).iter().any(|a| {
        (a.access != Access::Read && (a.resource, a.sub) == key)
            || (a.resolve.map(|t| (t, a.resolve_sub)) == Some(key))
    }) || memory_writes(pass).any(|e| keys(graph, e).any(|k| k == key))
}

/// The subresources a pass reads and writes as the plan runs it: (key, writes).
fn access_keys(graph: &RenderGraph<'_>, pass: PassRef<'_>) -> Vec<(Key, bool)> {
    let mut out = Vec::new();
    for a in attachments(pass) {
        let key = (a.resource, a.sub);
        if matches!(a.access, Access::Read | Access::ReadWrite) {
            out.push((key, false));
        }
        if a.access != Access::Read {
            out.push((key, true));
        }
        if let Some(t) = a.resolve {
            out.push(((t, a.resolve_sub), true));
        }
    }
    for (_, e) in memory_reads(pass) {
        out.extend(keys(graph, e).map(|k| (k, false)));
    }
    for e in memory_writes(pass) {
        out.extend(keys(graph, e).map(|k| (k, true)));
    }
    out
}

/// The slots of a render pass: colour (resource, subresource) in order, then depth.
fn attachment_slots(pass: PassRef<'_>) -> (Vec<Key>, Option<Key>) {
    (
        pass.color().iter().map(|c| (c.resource, c.sub)).collect(),
        pass.depth().map(|d| (d.resource, d.sub)),
    )
}

/// Every restructuring entry is true of the declarations, and the plan's resolves differ from the
/// declared ones exactly where an entry says so.
pub fn check_changes(
    s: Subject<'_, '_>,
    declared: &CompiledGraph,
    eff: &Passes,
    declared_ref: &Reference,
    runs: &[bool],
) -> Result<(), String> {
    let (graph, plan) = (s.graph, s.plan);
    let passes = graph.passes();
    let res = graph.resources();
    let group_of = |p: PassId| plan.passes()[p.index()].group;
    let declared_live = |p: usize| !declared.passes()[p].culled;
    let resolve_token = |p: PassId, target: ResourceId| {
        passes
            .at(p.index())
            .color()
            .iter()
            .find(|c| c.resolve == Some(target))
            .map(|c| Content::Resolved {
                pass: p,
                source: c.resource,
                source_sub: c.sub,
            })
    };
    // Live reads of a content at (r, BASE), and whether the frame ends with it.
    let readers_of = |r: ResourceId, token: Content| -> Vec<PassId> {
        declared_ref
            .expected
            .iter()
            .filter_map(|(obs, &c)| match *obs {
                Observation::Read {
                    pass,
                    resource,
                    sub,
                    ..
                } if resource == r && sub == BASE && c == token => Some(pass),
                _ => None,
            })
            .collect()
    };
    let kept_at_end = |r: ResourceId, token: Content| {
        declared_ref.expected.get(&Observation::FrameEnd(r, BASE)) == Some(&token)
    };
    let mut dropped: BTreeSet<(PassId, ResourceId)> = BTreeSet::new();
    let mut folded: BTreeMap<(PassId, ResourceId), ResourceId> = BTreeMap::new();
    let mut moved: BTreeSet<PassId> = BTreeSet::new();
    for change in plan.restructuring() {
        match change {
            Restructuring::Moved {
                pass,
                joins,
                ahead,
                after,
                saved_bytes,
            } => {
                let (x, j) = (*pass, *joins);
                ensure!(moved.insert(x), "pass {x} moved twice");
                ensure!(
                    runs[x.index()] && runs[j.index()],
                    "{change:?}: a pass that does not run"
                );
                ensure!(
                    passes.at(x.index()).kind() == PassKind::Render
                        && passes.at(j.index()).kind() == PassKind::Render,
                    "{change:?}: not render passes"
                );
                ensure!(j < x, "{change:?}: joins a pass declared after it");
                ensure!(
                    !passes.at(x.index()).keep_order(),
                    "{change:?}: a keep_order pass moved"
                );
                ensure!(*saved_bytes > 0, "{change:?}: saves nothing");
                ensure!(
                    attachment_slots(passes.at(x.index()))
                        == attachment_slots(passes.at(j.index())),
                    "{change:?}: the attachments differ"
                );
                ensure!(
                    group_of(x).is_some() && group_of(x) == group_of(j),
                    "{change:?}: {x} is in group {:?}, {j} in {:?}",
                    group_of(x),
                    group_of(j)
                );
                let mut listed = BTreeSet::new();
                for &q in ahead.iter().chain(after) {
                    ensure!(
                        runs[q.index()] && q < x && q != j && listed.insert(q),
                        "{change:?}: lists {q}, which does not run, is not declared before it or is listed twice"
                    );
                }
            }
            Restructuring::ResolveDropped {
                pass,
                resource,
                overwritten_by,
            } => {
                let (p, t) = (*pass, *resource);
                ensure!(runs[p.index()], "{change:?}: the pass does not run");
                let token = resolve_token(p, t)
                    .ok_or_else(|| format!("{change:?}: the pass declares no such resolve"))?;
                let read = readers_of(t, token);
                ensure!(
                    read.is_empty(),
                    "{change:?}: live passes {read:?} read the resolve"
                );
                ensure!(
                    !kept_at_end(t, token),
                    "{change:?}: the frame ends with the resolve in a kept import"
                );
                let next = (p.index() + 1..passes.len())
                    .find(|&q| declared_live(q) && writes_key(graph, passes.at(q), (t, BASE)))
                    .map(PassId::new);
                ensure!(
                    *overwritten_by == next,
                    "{change:?}: the next live write of the target is {next:?}"
                );
                ensure!(dropped.insert((p, t)), "{change:?} twice");
            }
            Restructuring::CopyFolded {
                pass,
                into,
                source,
                target,
            } => {
                let (c, p, r, s) = (*pass, *into, *source, *target);
                let cp = &plan.passes()[c.index()];
                ensure!(
                    cp.folded_into == Some(p) && !cp.culled && cp.group.is_none(),
                    "{change:?}: the copy's plan is {cp:?}"
                );
                ensure!(
                    declared_live(c.index()),
                    "{change:?}: the copy is culled in declared order"
                );
                let cd = passes.at(c.index());
                let whole_or_base = |r: SubresourceRange| {
                    r.is_all() || (r.contains(BASE) && r.resolve(1, 1) == (0, 1, 0, 1))
                };
                ensure!(
                    cd.kind() == PassKind::Copy
                        && cd.entries().count() == 2
                        && cd.copy_src().len() == 1
                        && cd.copy_dst().len() == 1
                        && cd.copy_src()[0].resource == r
                        && cd.copy_dst()[0].resource == s
                        && whole_or_base(cd.copy_src()[0].range)
                        && whole_or_base(cd.copy_dst()[0].range)
                        && !cd.side_effects()
                        && !cd.keep_order(),
                    "{change:?}: not a plain copy from the source to the target"
                );
                ensure!(
                    runs[p.index()],
                    "{change:?}: the resolving pass does not run"
                );
                let token = resolve_token(p, r)
                    .ok_or_else(|| format!("{change:?}: the pass declares no such resolve"))?;
                let (rd, sd) = (&res[r.index()], &res[s.index()]);
                ensure!(
                    r != s
                        && matches!(sd.kind, ResourceKind::Texture(_))
                        && sd.kind == rd.kind
                        && interp::sub_count(sd) == 1
                        && sd.import.is_none()
                        && rd
                            .import
                            .is_none_or(|i| i.after != tilegraph::ImportAfter::Keep),
                    "{change:?}: the target is not a graph-owned texture of the source's shape, or the source is kept"
                );
                let read = readers_of(r, token);
                ensure!(
                    read == [c],
                    "{change:?}: the resolve is read by {read:?}, not by the copy alone"
                );
                ensure!(
                    !kept_at_end(r, token),
                    "{change:?}: the frame ends with the resolve in a kept import"
                );
                let between = p.index() + 1..c.index();
                if let Some(q) = between
                    .clone()
                    .find(|&q| declared_live(q) && passes.at(q).uses(s))
                {
                    return Err(format!(
                        "{change:?}: live pass {q} between the resolve and the copy uses the target"
                    ));
                }
                ensure!(
                    folded.insert((p, r), s).is_none(),
                    "{change:?}: a second fold of one resolve"
                );
            }
            other => return Err(format!("unknown restructuring {other:?}")),
        }
    }
    let folded_count = plan
        .passes()
        .iter()
        .filter(|p| p.folded_into.is_some())
        .count();
    ensure!(
        folded_count == folded.len(),
        "{folded_count} folded passes, {} copy_folded entries",
        folded.len()
    );
    // Resolves differ from the declared ones exactly where an entry says so.
    for p in (0..passes.len()).filter(|&p| runs[p]) {
        let pid = PassId::new(p);
        for (slot, c) in passes.at(p).color().iter().enumerate() {
            let planned = eff.at(p).color()[slot].resolve;
            match (c.resolve, planned) {
                (d, e) if d == e => {
                    if let Some(t) = d {
                        ensure!(
                            !dropped.contains(&(pid, t)) && !folded.contains_key(&(pid, t)),
                            "pass {p} still resolves into {t}, though an entry changed it"
                        );
                    }
                }
                (Some(t), None) => ensure!(
                    dropped.remove(&(pid, t)),
                    "pass {p} slot {slot}: the resolve into {t} is gone, no resolve_dropped says so"
                ),
                (Some(t), Some(s)) => ensure!(
                    folded.remove(&(pid, t)) == Some(s),
                    "pass {p} slot {slot}: resolves into {s}, declared {t}, no copy_folded says so"
                ),
                (None, Some(s)) => {
                    return Err(format!(
                        "pass {p} slot {slot}: resolves into {s}, declared none"
                    ));
                }
                (None, None) => {}
            }
        }
    }
    ensure!(
        dropped.is_empty() && folded.is_empty(),
        "entries with no effect on the plan: dropped {dropped:?}, folded {folded:?}"
    );
    Ok(())
}

/// Hazard pairs among the passes that run, from the declarations as the plan runs them: (earlier,
/// later) in declared order, touching one subresource, at least one writing it; side-effect passes
/// pairwise.
pub fn hazard_pairs(
    graph: &RenderGraph<'_>,
    eff: &Passes,
    runs: &[bool],
) -> BTreeSet<(PassId, PassId)> {
    let running: Vec<usize> = (0..eff.len()).filter(|&p| runs[p]).collect();
    let access: Vec<Vec<(Key, bool)>> = eff.iter().map(|p| access_keys(graph, p)).collect();
    let mut pairs = BTreeSet::new();
    for (i, &p) in running.iter().enumerate() {
        for &q in &running[i + 1..] {
            let conflict = access[p]
                .iter()
                .any(|&(k, wp)| access[q].iter().any(|&(l, wq)| k == l && (wp || wq)));
            if conflict || (eff.at(p).side_effects() && eff.at(q).side_effects()) {
                pairs.insert((PassId::new(p), PassId::new(q)));
            }
        }
    }
    pairs
}

/// `order()` holds the passes that run, once each, and the groups list them in that order; every
/// hazard pair and every pair of side-effect passes keeps its declared order; no pass crosses a
/// `keep_order` pass (the passes before it are those declared before it).
pub fn check_order(s: Subject<'_, '_>, eff: &Passes, runs: &[bool]) -> Result<(), String> {
    let (graph, plan) = (s.graph, s.plan);
    let order = plan.order();
    let mut sorted = order.to_vec();
    sorted.sort_unstable();
    let running: Vec<PassId> = (0..runs.len())
        .filter(|&p| runs[p])
        .map(PassId::new)
        .collect();
    ensure!(
        sorted == running,
        "order {order:?} is not a permutation of the passes that run {running:?}"
    );
    let grouped: Vec<PassId> = plan
        .groups()
        .iter()
        .flat_map(|g| g.passes.iter().copied())
        .collect();
    ensure!(
        grouped == order,
        "groups list {grouped:?}, order is {order:?}"
    );
    let mut pos = vec![usize::MAX; runs.len()];
    for (i, &p) in order.iter().enumerate() {
        pos[p.index()] = i;
    }
    for (p, q) in hazard_pairs(graph, eff, runs) {
        ensure!(
            pos[p.index()] < pos[q.index()],
            "passes {p} and {q} conflict (or both have side effects) but run in the other order: {order:?}"
        );
    }
    for &k in running.iter().filter(|k| eff.at(k.index()).keep_order()) {
        let before: Vec<PassId> = order[..pos[k.index()]]
            .iter()
            .copied()
            .filter(|_| true)
            .collect();
        let mut before = before;
        before.sort_unstable();
        let declared: Vec<PassId> = running.iter().copied().filter(|&p| p < k).collect();
        ensure!(
            before == declared,
            "keep_order pass {k}: {before:?} run before it, {declared:?} are declared before it"
        );
    }
    Ok(())
}

/// Moves are worth it, re-derived with [`model_traffic`] (itself checked against the plan's own
/// groups and traffic): the restructured order is strictly cheaper than the declared order with
/// the same resolve changes when it moved anything (and is the declared order when it moved
/// nothing); and no single further legal move of one render pass to right after an earlier group
/// that ends with a pass of its attachments (crossing no pass it conflicts with, no `keep_order`
/// pass) would be cheaper. The last is a search of the compiler's greedy neighbourhood, counted
/// in the tally as `moves_tried` and `cheaper_single_moves`.
pub fn check_moves(s: Subject<'_, '_>, tally: &mut Tally) -> Result<(), String> {
    let (graph, plan, options) = (s.graph, s.plan, s.options);
    let eff = effective_passes(graph, plan);
    let runs = runs(plan);
    let reference = fold_writers(reference(graph, &runs)?, plan);
    let order = plan.order();
    let (groups, bytes) = model_traffic(graph, &eff, &reference, order, options);
    let planned: Vec<Vec<PassId>> = plan.groups().iter().map(|g| g.passes.clone()).collect();
    ensure!(
        groups == planned,
        "the merge rule groups the order as {groups:?}, the plan as {planned:?}"
    );
    ensure!(
        bytes == plan.traffic().bytes_per_frame,
        "the traffic model gives {bytes} bytes for the plan's order, the plan says {}",
        plan.traffic().bytes_per_frame
    );
    let declared_order: Vec<PassId> = (0..runs.len())
        .filter(|&p| runs[p])
        .map(PassId::new)
        .collect();
    let moved = plan
        .restructuring()
        .iter()
        .any(|c| matches!(c, Restructuring::Moved { .. }));
    if order != declared_order {
        let (_, unmoved) = model_traffic(graph, &eff, &reference, &declared_order, options);
        ensure!(
            bytes < unmoved,
            "the moves do not pay: {bytes} bytes, {unmoved} in declared order with the same resolves"
        );
    }
    ensure!(
        moved == (order != declared_order),
        "moved entries {moved}, but the order is {order:?}"
    );
    let hazards = hazard_pairs(graph, &eff, &runs);
    let conflict = |a: PassId, b: PassId| hazards.contains(&(a.min(b), a.max(b)));
    let group_end: BTreeSet<PassId> = planned.iter().map(|g| *g.last().unwrap()).collect();
    for i in 0..order.len() {
        let x = order[i];
        let xd = eff.at(x.index());
        if xd.kind() != PassKind::Render || xd.keep_order() || xd.attachment_count() == 0 {
            continue;
        }
        for j in (0..i.saturating_sub(1)).rev() {
            let y = order[j];
            let crossed = &order[j + 1..i];
            if crossed
                .iter()
                .any(|&c| eff.at(c.index()).keep_order() || conflict(c, x))
            {
                break;
            }
            if !group_end.contains(&y)
                || eff.at(y.index()).kind() != PassKind::Render
                || attachment_slots(eff.at(y.index())) != attachment_slots(xd)
            {
                continue;
            }
            let mut trial: Vec<PassId> = order[..=j].to_vec();
            trial.push(x);
            trial.extend_from_slice(crossed);
            trial.extend_from_slice(&order[i + 1..]);
            tally.moves_tried += 1;
            let (_, b) = model_traffic(graph, &eff, &reference, &trial, options);
            if b < bytes {
                tally.cheaper_single_moves += 1;
                if std::env::var_os("TILEGRAPH_SHOW_MOVES").is_some() {
                    eprintln!(
                        "cheaper single move: {trial:?} moves {b}, the plan's order {order:?} moves {bytes}"
                    );
                }
            }
        }
    }
    Ok(())
}

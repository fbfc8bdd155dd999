//! Ops: every attachment's load and store op, resolve and read-only depth with their reasons, and
//! their minimality (mirrors `src/compile/ops.rs`).

use super::*;

/// The clear value a `clear` access (or, with `own` absent, any other) clears to.
pub(super) fn clear_of(
    graph: &RenderGraph<'_>,
    r: ResourceId,
    own: Option<ClearValue>,
) -> interp::ClearKey {
    access_clear(&graph.resources()[r.index()], own)
}

pub(super) fn load_clear(load: LoadOp) -> Option<interp::ClearKey> {
    match load {
        LoadOp::Clear(v) => Some(clear_key(v)),
        _ => None,
    }
}

/// What the reference says pass `p`'s attachment in `slot` found on the tile.
pub(super) fn attachment_read(
    reference: &Reference,
    p: PassId,
    slot: u32,
    r: ResourceId,
    sub: Subresource,
) -> Option<Content> {
    reference
        .expected
        .get(&Observation::Read {
            pass: p,
            kind: ReadKind::Attachment(slot),
            resource: r,
            sub,
        })
        .copied()
}

/// the guide's op inference, slot by slot, for the compiler's own groups: the load op from the
/// group's first access, the store op from whether the group's last write of the subresource is
/// read by a later group or kept after the frame, read-only depth, the resolve, and the reasons.
///
/// `passes` are the declarations as the plan runs them (declared, or with the restructured
/// resolves of `effective_passes`); "later" means a later group, and the reader a store names is
/// the last reading pass of the last group that reads.
pub fn check_planned_ops(
    s: Subject<'_, '_>,
    reference: &Reference,
    passes: &Passes,
) -> Result<(), String> {
    let (graph, plan, options) = (s.graph, s.plan, s.options);
    let group_of = |p: PassId| plan.passes()[p.index()].group.map(|g| g.index());
    for (g, group) in plan.groups().iter().enumerate() {
        if group.kind != PassKind::Render {
            continue;
        }
        let first = group.passes[0];
        let last = *group.passes.last().unwrap();
        let plans: Vec<_> = group.attachments().collect();
        let firsts = attachments(passes.at(first.index()));
        let first_pass = passes.at(first.index());
        ensure!(
            plans.len() == firsts.len()
                && group.color.len()
                    == first_pass.color().len() * interp::views(first_pass) as usize,
            "group {g}: attachments are not its first pass's"
        );
        for (a, d) in plans.iter().zip(&firsts) {
            let at = format!("group {g} slot {} ({} {:?})", d.slot, d.resource, d.sub);
            ensure!(
                (a.resource, a.sub) == (d.resource, d.sub),
                "{at}: plans {} {:?}",
                a.resource,
                a.sub
            );
            // Load: from the group's first access.
            let fallback = reference.fallback_clears.contains(&(first, d.slot));
            let loaded = attachment_read(reference, first, d.slot, d.resource, d.sub);
            let (load_ok, reason) = match d.access {
                Access::Clear => (
                    load_clear(a.load) == Some(clear_of(graph, d.resource, d.clear)),
                    LoadReason::Cleared,
                ),
                Access::Write if options.dont_care.is_some() => {
                    (a.load == LoadOp::DontCare, LoadReason::Overwritten)
                }
                Access::Write => (
                    load_clear(a.load) == Some(clear_of(graph, d.resource, None)),
                    LoadReason::Overwritten,
                ),
                _ if fallback => (
                    load_clear(a.load) == Some(clear_of(graph, d.resource, d.clear)),
                    LoadReason::NoContents,
                ),
                _ => (
                    a.load == LoadOp::Load,
                    LoadReason::ContentsNeeded {
                        writer: loaded.and_then(Content::writer),
                    },
                ),
            };
            ensure!(
                load_ok && a.load_reason == reason,
                "{at}: first access {:?} loads {:?} because {:?}; the guide gives {reason:?}",
                d.access,
                a.load,
                a.load_reason
            );
            // Store: what the group leaves in the slot, and who needs it afterwards.
            let writer = group.passes.iter().rev().find(|&&q| {
                attachments(passes.at(q.index()))
                    .get(d.slot as usize)
                    .is_some_and(|x| x.access != Access::Read)
            });
            let (store, store_reason, read_only) = match writer {
                Some(&q) => {
                    let content = Content::Written {
                        pass: q,
                        resource: d.resource,
                        sub: d.sub,
                    };
                    let reader = reference
                        .expected
                        .iter()
                        .filter_map(|(obs, &c)| match *obs {
                            Observation::Read { pass, .. }
                                if c == content && group_of(pass).is_some_and(|h| h > g) =>
                            {
                                Some((group_of(pass), pass))
                            }
                            _ => None,
                        })
                        .max()
                        .map(|(_, pass)| pass);
                    let kept = reference
                        .expected
                        .get(&Observation::FrameEnd(d.resource, d.sub))
                        == Some(&content);
                    match reader {
                        Some(reader) => (StoreOp::Store, StoreReason::ReadLater { reader }, false),
                        None if kept => (StoreOp::Store, StoreReason::KeptImport, false),
                        None => (StoreOp::Discard, StoreReason::NotNeeded, false),
                    }
                }
                // Nothing written: a cleared never-written depth is dropped, a loaded one is
                // attached read-only where a later group reads what it holds, the frame keeps it
                // or the group samples it, and is loaded and discarded otherwise.
                None if fallback => (StoreOp::Discard, StoreReason::NotNeeded, false),
                None => {
                    let needed = loaded.is_some_and(|c| {
                        reference.expected.iter().any(|(obs, &e)| {
                            e == c
                                && match *obs {
                                    Observation::Read { pass, .. } => {
                                        group_of(pass).is_some_and(|h| h > g)
                                    }
                                    Observation::FrameEnd(r, sub) => {
                                        (r, sub) == (d.resource, d.sub)
                                    }
                                }
                        })
                    });
                    let sampled = group.passes.iter().any(|&q| {
                        let pass = passes.at(q.index());
                        (pass.sample().iter())
                            .chain(pass.input())
                            .any(|e| e.resource == d.resource)
                    });
                    if d.is_depth && !needed && !sampled {
                        (StoreOp::Discard, StoreReason::NotNeeded, false)
                    } else {
                        (StoreOp::None, StoreReason::NothingWritten, d.is_depth)
                    }
                }
            };
            ensure!(
                (a.store, a.store_reason, a.read_only) == (store, store_reason, read_only),
                "{at}: stores {:?} because {:?} (read-only {}); the guide gives {store:?} because {store_reason:?} (read-only {read_only})",
                a.store,
                a.store_reason,
                a.read_only
            );
            // The resolve happens at the end of the group, as its last pass declares it.
            let resolve = attachments(passes.at(last.index()))
                .get(d.slot as usize)
                .and_then(|x| x.resolve);
            ensure!(
                a.resolve == resolve,
                "{at}: resolves into {:?}, the last pass declares {resolve:?}",
                a.resolve
            );
        }
    }
    Ok(())
}

pub(super) fn check_minimal_ops(
    s: Subject<'_, '_>,
    reference: &Reference,
    tally: &mut Tally,
) -> Result<(), String> {
    let (graph, plan, options) = (s.graph, s.plan, s.options);
    let attached: BTreeSet<Key> = plan
        .groups()
        .iter()
        .flat_map(|g| g.attachments().map(|a| (a.resource, a.sub)))
        .collect();
    for (r, sub) in attached {
        let found = search_cheaper(
            graph,
            plan,
            reference,
            r,
            sub,
            sub_bytes(graph, r, sub),
            options.dont_care.is_some(),
        );
        tally.minimality_searches += 1;
        tally.minimality_leaves += found.leaves;
        if let Some((bytes, choices)) = found.cheaper {
            return Err(format!(
                "resource {r} {sub:?}: the compiler's ops move {} bytes, but {choices:?} moves {bytes} and every read still sees the right version",
                found.compiled
            ));
        }
    }
    Ok(())
}

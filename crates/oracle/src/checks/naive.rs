//! The naive plan's groups (mirrors `src/compile/naive.rs`).

use super::*;

/// The naive plan (the guide and the naive rules of the guide's Subresources): every live pass its own group; `clear`
/// for a `clear` access and for a read of prior contents nothing wrote; `load` otherwise; `store`
/// always; resolves as declared; a loaded `read` depth attached read-only but still stored.
pub fn check_naive_groups(
    s: Subject<'_, '_>,
    reference: &Reference,
    live: &[bool],
) -> Result<(), String> {
    let (graph, plan) = (s.graph, s.plan);
    let live_passes: Vec<PassId> = (0..live.len())
        .filter(|&p| live[p])
        .map(PassId::new)
        .collect();
    let naive = plan.naive_groups();
    ensure!(
        naive.len() == live_passes.len(),
        "naive plan: {} groups for {} live passes",
        naive.len(),
        live_passes.len()
    );
    for (group, &p) in naive.iter().zip(&live_passes) {
        ensure!(
            group.passes == [p],
            "naive plan: group of {:?}, want [{p}]",
            group.passes
        );
        let pass = graph.passes().at(p.index());
        ensure!(group.kind == pass.kind(), "naive plan: pass {p} group type");
        let atts = attachments(pass);
        let plans: Vec<_> = group.attachments().collect();
        ensure!(
            plans.len() == atts.len()
                && group.color.len() == pass.color().len() * interp::views(pass) as usize,
            "naive plan: pass {p} attachments"
        );
        for (a, d) in plans.iter().zip(&atts) {
            ensure!(
                (a.resource, a.sub, a.resolve) == (d.resource, d.sub, d.resolve),
                "naive plan: pass {p} slot {} attaches {:?} {:?} resolve {:?}, declared {:?} {:?} resolve {:?}",
                d.slot,
                a.resource,
                a.sub,
                a.resolve,
                d.resource,
                d.sub,
                d.resolve
            );
            let fallback = reference.fallback_clears.contains(&(p, d.slot));
            let (load, reason) = match d.access {
                Access::Clear => (
                    Some(clear_of(graph, d.resource, d.clear)),
                    LoadReason::Cleared,
                ),
                Access::Write => (None, LoadReason::Overwritten),
                _ if fallback => (
                    Some(clear_of(graph, d.resource, d.clear)),
                    LoadReason::NoContents,
                ),
                _ => {
                    let seen = attachment_read(reference, p, d.slot, d.resource, d.sub)
                        .ok_or_else(|| format!("no reference read of pass {p} slot {}", d.slot))?;
                    (
                        None,
                        LoadReason::ContentsNeeded {
                            writer: seen.writer(),
                        },
                    )
                }
            };
            let load_ok = match load {
                Some(key) => load_clear(a.load) == Some(key),
                None => a.load == LoadOp::Load,
            };
            ensure!(
                load_ok && a.load_reason == reason,
                "naive plan: pass {p} slot {} ({:?}) loads {:?} because {:?}; want {} because {reason:?}",
                d.slot,
                d.access,
                a.load,
                a.load_reason,
                if load.is_some() { "clear" } else { "load" }
            );
            ensure!(
                a.store == StoreOp::Store && a.store_reason == StoreReason::Naive,
                "naive plan: pass {p} slot {} stores {:?} because {:?}",
                d.slot,
                a.store,
                a.store_reason
            );
            let read_only = d.is_depth && d.access == Access::Read && !fallback;
            ensure!(
                a.read_only == read_only,
                "naive plan: pass {p} slot {} read_only {}, want {read_only}",
                d.slot,
                a.read_only
            );
        }
    }
    Ok(())
}

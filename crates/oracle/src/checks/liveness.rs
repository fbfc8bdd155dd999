//! Liveness: which passes are culled, and why each live pass is alive (mirrors
//! `src/compile/liveness.rs`).

use super::*;

/// Every live pass says truly why it is alive (the guide): its side effects first, else a kept
/// import whose frame-end contents it writes, else the first pass (in declared order) that runs
/// and reads what it wrote (for a resolve a copy was folded into: what the copy wrote). Culled and
/// folded passes, and live passes nothing needs (culling off), say nothing.
pub fn check_needed_by(s: Subject<'_, '_>, declared_ref: &Reference) -> Result<(), String> {
    let (graph, plan, options) = (s.graph, s.plan, s.options);
    let passes = graph.passes();
    let runs = runs(plan);
    for (p, pp) in plan.passes().iter().enumerate() {
        let pid = PassId::new(p);
        if !runs[p] {
            ensure!(
                pp.needed_by.is_none(),
                "pass {p} does not run, yet it is needed by {:?}",
                pp.needed_by
            );
            continue;
        }
        let folded_here: Vec<PassId> = (0..passes.len())
            .filter(|&c| plan.passes()[c].folded_into == Some(pid))
            .map(PassId::new)
            .collect();
        let wrote = |c: Content| {
            c.writer()
                .is_some_and(|w| w == pid || folded_here.contains(&w))
        };
        let reader = declared_ref
            .expected
            .iter()
            .filter_map(|(obs, &c)| match *obs {
                Observation::Read { pass, .. } if pass != pid && runs[pass.index()] && wrote(c) => {
                    Some(pass)
                }
                _ => None,
            })
            .min();
        let kept: BTreeSet<ResourceId> = declared_ref
            .expected
            .iter()
            .filter_map(|(obs, &c)| match *obs {
                Observation::FrameEnd(r, _) if wrote(c) => Some(r),
                _ => None,
            })
            .collect();
        let side = passes.at(p).side_effects();
        let ok = match pp.needed_by {
            Some(NeededBy::SideEffects) => side,
            Some(NeededBy::KeptImport(r)) => !side && kept.contains(&r),
            Some(NeededBy::Reader(q)) => !side && kept.is_empty() && reader == Some(q),
            None => !options.cull && !side && kept.is_empty() && reader.is_none(),
            Some(other) => return Err(format!("pass {p}: unknown reason {other:?}")),
        };
        ensure!(
            ok,
            "pass {p} is needed by {:?}; side effects {side}, kept imports {kept:?}, first reader {reader:?}",
            pp.needed_by
        );
    }
    Ok(())
}

/// the guide, per subresource (Subresources): a pass is live if it has side effects (or culling is off),
/// wrote a version that a live pass reads, or wrote the frame-end version of a kept import; every
/// other pass is culled, transitively.
pub fn check_liveness(s: Subject<'_, '_>) -> Result<(), String> {
    let (graph, plan, options) = (s.graph, s.plan, s.options);
    let passes = graph.passes();
    let every = reference(graph, &vec![true; passes.len()])?;
    let mut live: Vec<bool> = passes
        .iter()
        .map(|p| p.side_effects() || !options.cull)
        .collect();
    // Per pass, the writers of what it reads; readers come after writers.
    let mut read_from: Vec<Vec<PassId>> = vec![Vec::new(); passes.len()];
    for (obs, content) in &every.expected {
        match (*obs, content.writer()) {
            (Observation::FrameEnd(..), Some(w)) => live[w.index()] = true,
            (Observation::Read { pass, .. }, Some(w)) => read_from[pass.index()].push(w),
            _ => {}
        }
    }
    for p in (0..passes.len()).rev() {
        if live[p] {
            for &w in &read_from[p] {
                live[w.index()] = true;
            }
        }
    }
    for (p, pp) in plan.passes().iter().enumerate() {
        ensure!(
            pp.culled != live[p],
            "pass {p}: culled {}, but the guide makes it {}",
            pp.culled,
            if live[p] { "live" } else { "dead" }
        );
    }
    Ok(())
}

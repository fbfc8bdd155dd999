//! The plan put together from the steps' results: each pass's plan (culled, its group, why it
//! is live, the resolve its copy was folded into), the restructurings made, and the lists the
//! steps filled for it.

use std::sync::{Arc, OnceLock};

use super::Planned;
use super::compiler::Spares;
use super::restructure::{self, Restructured};
use crate::error::GraphError;
use crate::options::CompileOptions;
use crate::plan::{
    CompiledGraph, NaiveSources, NeededBy, PassPlan, PhysicalResource, Reads, Restructuring,
    Traffic,
};
use crate::resource::{PassDecl, ResourceDecl};

/// What the steps after planning the order found.
pub(super) struct Found {
    pub naive: NaiveSources,
    pub physical: Vec<PhysicalResource>,
    pub traffic: Result<Traffic, GraphError>,
    pub needed_by: Vec<Option<NeededBy>>,
}

/// The plan of the frame as it runs (`frame`), with `live` the liveness of the declarations.
pub(super) fn assemble(
    (passes, resources): (&Arc<Vec<PassDecl>>, &Arc<Vec<ResourceDecl>>),
    fingerprint: u128,
    options: &CompileOptions,
    frame: Restructured,
    live: Vec<bool>,
    found: Found,
    spares: &mut Spares,
) -> Result<CompiledGraph, GraphError> {
    let scratch = &mut spares.scratch;
    let Restructured {
        edits,
        retraced,
        moves,
        planned,
    } = frame;
    let Planned {
        order,
        groups,
        group_of,
        bytes: _,
        resources: resource_plans,
        warnings,
    } = planned;
    let eff_live = retraced.as_ref().map_or(&live[..], |(_, l)| &l[..]);
    let mut restructure: Vec<Restructuring> = Vec::new();
    let folded_into = match edits {
        Some((e, acc)) => {
            acc.recycle(scratch);
            restructure = e.changes;
            e.folded_into
        }
        None => scratch.maybe_passes.filled(passes.len(), None),
    };
    restructure.extend(moves);
    let needed_by = found.needed_by;
    let mut pass_plans = scratch.pass_plans.take(passes.len());
    pass_plans.extend((0..passes.len()).map(|p| PassPlan {
        culled: !eff_live[p] && folded_into[p].is_none(),
        group: group_of[p],
        needed_by: needed_by[p],
        folded_into: folded_into[p],
    }));
    scratch.maybe_passes.give(folded_into);
    scratch.needed_by.give(needed_by);
    scratch.maybe_groups.give(group_of);
    restructure::give_back_retraced(retraced, scratch);
    let traffic = found.traffic?;
    log::debug!(
        "compiled {} passes ({} culled) into {} groups: {} attachment bytes a frame, naive {}, {} restructured",
        passes.len(),
        live.iter().filter(|&&l| !l).count(),
        groups.len(),
        traffic.bytes_per_frame,
        traffic.naive_bytes_per_frame,
        restructure.len()
    );
    scratch.flags.give(live);
    Ok(CompiledGraph {
        fingerprint,
        options: *options,
        pass_decls: Arc::clone(passes),
        resource_decls: Arc::clone(resources),
        passes: pass_plans,
        groups,
        order,
        restructure,
        declared: OnceLock::new(),
        naive_groups: OnceLock::new(),
        naive_sources: found.naive,
        resources: resource_plans,
        physical: found.physical,
        traffic,
        warnings,
        dependencies: OnceLock::new(),
        reads: Reads::default(),
    })
}

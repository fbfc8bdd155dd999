//! Step 11: the plan put together from the steps' results: each pass's plan (culled, its group, why it
//! is live, the resolve its copy was folded into), the restructurings made, and the lists the
//! steps filled for it, each moved out of the workspace that holds it with the list of the plan
//! dropped last left in its place.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};

use super::compiler::{PlanLists, emptied, hand_over};
use super::restructure::Restructured;
use super::{Frame, Planned, Source};
use crate::plan::{
    CompiledGraph, NaiveSources, NeededBy, PassPlan, PhysicalResource, Reads, Traffic,
};

/// What the steps after planning the order found: the compiler's lists, refilled each compile.
#[derive(Default)]
pub(super) struct Found {
    pub naive: NaiveSources,
    pub physical: Vec<PhysicalResource>,
    pub needed_by: Vec<Option<NeededBy>>,
}

/// The workspaces the plan takes its lists from, and the lists of the plan dropped last.
pub(super) struct Lists<'a> {
    /// The plan of the order the frame runs.
    pub planned: &'a mut Planned,
    pub found: &'a mut Found,
    pub returned: &'a mut PlanLists,
}

/// What the steps after planning decided, for the plan.
pub(super) struct Results<'a> {
    pub restructured: Restructured,
    /// The liveness of the frame as it runs.
    pub run_live: &'a [bool],
    pub traffic: Traffic,
}

/// The plan of the frame as it runs (`results.restructured`) of `source`'s declarations;
/// `declared` holds their liveness and the options.
pub(super) fn assemble(
    source: &Source<'_>,
    declared: Frame<'_>,
    results: Results<'_>,
    lists: Lists<'_>,
) -> CompiledGraph {
    let Source {
        passes,
        resources,
        fingerprint,
        ..
    } = *source;
    let Results {
        restructured: frame,
        run_live,
        traffic,
    } = results;
    let Lists {
        planned,
        found,
        returned,
    } = lists;
    let (mut restructure, folded_into) = match frame.edits {
        Some(e) => (e.changes, Some(e.folded_into)),
        None => (Vec::new(), None),
    };
    restructure.extend(frame.moves);
    let folded = |p: usize| folded_into.as_ref().and_then(|f| f[p]);
    let mut pass_plans = std::mem::take(&mut returned.passes);
    emptied(&mut pass_plans, passes.len());
    pass_plans.extend((0..passes.len()).map(|p| PassPlan {
        culled: !run_live[p] && folded(p).is_none(),
        group: planned.group_of[p],
        needed_by: found.needed_by[p],
        folded_into: folded(p),
    }));
    let groups = hand_over(&mut planned.groups, &mut returned.groups);
    log::debug!(
        "compiled {} passes ({} culled) into {} groups: {} attachment bytes a frame, naive {}, {} restructured",
        passes.len(),
        declared.live.iter().filter(|&&l| !l).count(),
        groups.len(),
        traffic.bytes_per_frame,
        traffic.naive_bytes_per_frame,
        restructure.len()
    );
    CompiledGraph {
        id: next_plan_id(),
        fingerprint,
        options: *declared.options,
        pass_decls: Arc::clone(passes),
        resource_decls: Arc::clone(resources),
        passes: pass_plans,
        groups,
        order: hand_over(&mut planned.order, &mut returned.order),
        restructure,
        declared: OnceLock::new(),
        naive_groups: OnceLock::new(),
        naive_sources: NaiveSources {
            start: hand_over(&mut found.naive.start, &mut returned.naive.start),
            loaded: hand_over(&mut found.naive.loaded, &mut returned.naive.loaded),
        },
        resources: hand_over(&mut planned.resources, &mut returned.resources),
        physical: hand_over(&mut found.physical, &mut returned.physical),
        traffic,
        warnings: hand_over(&mut planned.warnings, &mut returned.warnings),
        dependencies: OnceLock::new(),
        reads: Reads::default(),
        remedy_names: crate::plan::Remedy::rust_api,
    }
}

/// A number no plan compiled before in this process has; never 0, which stands for no plan.
fn next_plan_id() -> u64 {
    static NEXT: AtomicU64 = AtomicU64::new(1);
    NEXT.fetch_add(1, Ordering::Relaxed)
}

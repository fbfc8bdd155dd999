//! Step 7: restructuring ([guide](crate::guide#restructuring)). The frame may run in another
//! way than declared, never compute anything else: `edits.rs` drops dead resolves and folds
//! copies into resolves, `reorder.rs` moves passes to join earlier groups. Each order tried is
//! planned as the declared one was (steps 4–6), and kept only if the frame gets cheaper.

mod edits;
mod reorder;

pub(super) use reorder::pass_key;

use super::accesses::Accesses;
use super::compiler::Steps;
use super::planned::{Kept, Planned, Plans, declared_order, plan_order};
use super::versions::{self, VersionId, Versions};
use super::{Decls, liveness, validate};
use crate::options::CompileOptions;
use crate::plan::Restructuring;
use crate::resource::PassId;

/// "No pass / no position".
const NONE: u32 = u32::MAX;

/// Per version: every pass that reads it (live or not), in declaration order.
#[derive(Default)]
pub(in crate::compile) struct ReadersOf {
    start: Vec<u32>,
    passes: Vec<PassId>,
    /// Per version: the next place to fill, while filling.
    fill: Vec<u32>,
}

impl ReadersOf {
    /// Fills the lists (cleared here) with the readers of `v`'s versions.
    pub(in crate::compile) fn fill(&mut self, pass_count: usize, v: &Versions) {
        let ReadersOf {
            start,
            passes,
            fill,
        } = self;
        start.clear();
        start.resize(v.writer.len() + 1, 0);
        for p in 0..pass_count {
            for &version in v.reads_of(p) {
                start[version as usize + 1] += 1;
            }
        }
        for i in 1..start.len() {
            start[i] += start[i - 1];
        }
        fill.clear();
        fill.extend_from_slice(start);
        passes.clear();
        passes.resize(start[v.writer.len()] as usize, PassId::new(0));
        for p in 0..pass_count {
            for &version in v.reads_of(p) {
                let slot = &mut fill[version as usize];
                passes[*slot as usize] = PassId::new(p);
                *slot += 1;
            }
        }
    }

    fn of(&self, version: VersionId) -> &[PassId] {
        let v = version as usize;
        &self.passes[self.start[v] as usize..self.start[v + 1] as usize]
    }
}

/// Restructuring's lists, cleared where each is filled: who reads each version, and the edited
/// declarations' tables, versions and liveness (which the steps after it read when the frame
/// runs edited).
#[derive(Default)]
pub(in crate::compile) struct Workspace {
    readers: ReadersOf,
    /// The edited declarations' dense tables.
    edited_acc: Accesses,
    /// The edited declarations' versions and liveness, when a fold changed them.
    retraced: Versions,
    retraced_live: Vec<bool>,
    reorder: reorder::Workspace,
}

/// What restructuring decided: the edited declarations (whose versions and liveness were traced
/// again when a fold changed them), the moves and which plan the frame runs.
pub(super) struct Restructured {
    pub edits: Option<edits::Edits>,
    pub retraced: bool,
    pub moves: Vec<Restructuring>,
    pub kept: Kept,
}

/// Restructures the frame, or `None` when that would not make it cheaper than
/// `plans.declared`. Moves are kept only if they beat the same edits in declared order, and only
/// while each moved pass still shares the group it joined.
fn restructure_frame(
    declared: Decls<'_>,
    checked: &validate::Checked,
    versions: &versions::Versions,
    live: &[bool],
    plans: &mut Plans,
    options: &CompileOptions,
    steps: &mut Steps,
) -> Option<Restructured> {
    let (passes, resources) = (declared.passes, declared.resources);
    let subs = &checked.subs;
    let Plans {
        declared: as_declared,
        edited,
        reordered,
    } = plans;
    let Workspace {
        readers,
        edited_acc,
        retraced,
        retraced_live,
        reorder: reorder_work,
    } = &mut steps.restructure;
    // Who reads each version: needed only where something resolves (or passes may move).
    let resolving = |p: usize| declared.acc.slots(p).iter().any(|a| a.resolve.is_some());
    let resolves = (0..passes.len()).any(|p| live[p] && resolving(p));
    if resolves {
        readers.fill(passes.len(), versions);
    }
    let edit = |folds| {
        resolves
            .then(|| edits::edit_resolves(passes, resources, subs, versions, live, readers, folds))
            .flatten()
    };
    let mut edits = edit(true);
    if let Some(e) = &edits {
        edited_acc.fill(resources, &e.passes);
    }
    let mut is_retraced = false;
    let mut untraceable = false;
    if let Some(e) = edits.as_ref().filter(|e| e.folded()) {
        // Folding moves a write from the copy to the resolve: versions change. A culled pass
        // that read a dropped resolve can make them untraceable; then nothing is folded.
        let graph = Decls {
            passes: &e.passes,
            resources,
            acc: edited_acc,
        };
        let current = &mut steps.current_versions;
        match versions::trace_versions(graph, checked, current, retraced) {
            Ok(v) => {
                liveness::find_live_passes(edited_acc, v, options, retraced_live);
                // A folded copy does not run, also where culling is off.
                for (live, folded) in retraced_live.iter_mut().zip(&e.folded_into) {
                    *live &= folded.is_none();
                }
                is_retraced = true;
            }
            Err(_) => untraceable = true,
        }
    }
    if untraceable {
        edits = edit(false);
        if let Some(e) = &edits {
            edited_acc.fill(resources, &e.passes);
        }
    }
    let (v, l) = if is_retraced {
        (&*retraced, &retraced_live[..])
    } else {
        (versions, live)
    };
    let eff = Decls {
        passes: edits.as_ref().map_or(passes, |e| &e.passes),
        resources,
        acc: if edits.is_some() {
            &*edited_acc
        } else {
            declared.acc
        },
    };
    let baseline: &Planned = if edits.is_some() {
        declared_order(l, &mut edited.order);
        plan_order(eff, checked, v, l, options, edited, &mut steps.planning);
        edited
    } else {
        as_declared
    };
    // The readers of `v` are those built above unless the versions were traced again.
    let readers_of_v = resolves && !is_retraced;
    let mut moves = reorder::reorder(
        eff,
        subs,
        v,
        l,
        (readers, readers_of_v),
        baseline,
        &mut reordered.order,
        options,
        reorder_work,
    );
    let mut kept = edits.is_some().then_some(Kept::Edited);
    if !moves.is_empty() {
        plan_order(eff, checked, v, l, options, reordered, &mut steps.planning);
        let pays = reordered
            .bytes
            .zip(baseline.bytes)
            .is_some_and(|(a, b)| a < b);
        // A later move can leave an earlier one's pass outside the group it joined.
        moves.retain(|m| match m {
            Restructuring::Moved { pass, joins, .. } => {
                reordered.group_of[pass.index()] == reordered.group_of[joins.index()]
            }
            _ => true,
        });
        if pays && !moves.is_empty() {
            kept = Some(Kept::Reordered);
        } else {
            moves.clear();
        }
    }
    let kept = kept?;
    // The guarantee: never more traffic than the declared order.
    let planned = if kept == Kept::Reordered {
        &*reordered
    } else {
        baseline
    };
    let cheaper = planned
        .bytes
        .zip(as_declared.bytes)
        .is_some_and(|(a, b)| a <= b);
    cheaper.then_some(Restructured {
        edits,
        retraced: is_retraced,
        moves,
        kept,
    })
}

/// Restructures the frame where that makes it cheaper; else it runs as declared, with
/// `plans.declared` its plan.
pub(in crate::compile) fn restructure(
    declared: Decls<'_>,
    checked: &validate::Checked,
    versions: &Versions,
    live: &[bool],
    plans: &mut Plans,
    options: &CompileOptions,
    steps: &mut Steps,
) -> Restructured {
    let restructured = options
        .restructure
        .then(|| restructure_frame(declared, checked, versions, live, plans, options, steps));
    restructured.flatten().unwrap_or(Restructured {
        edits: None,
        retraced: false,
        moves: Vec::new(),
        kept: Kept::Declared,
    })
}

impl Restructured {
    /// The declarations, versions and liveness the frame runs with: those edits and a retrace
    /// made (in `work`), else the declared ones.
    pub(in crate::compile) fn as_run<'d, 'v, 'w: 'd + 'v>(
        &'d self,
        declared: Decls<'d>,
        versions: &'v Versions,
        live: &'v [bool],
        work: &'w Workspace,
    ) -> (Decls<'d>, &'v Versions, &'v [bool]) {
        let Some(e) = &self.edits else {
            return (declared, versions, live);
        };
        let eff = Decls {
            passes: &e.passes,
            resources: declared.resources,
            acc: &work.edited_acc,
        };
        if self.retraced {
            (eff, &work.retraced, &work.retraced_live[..])
        } else {
            (eff, versions, live)
        }
    }
}

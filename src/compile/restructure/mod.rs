//! Step 7: restructuring ([guide](crate::guide#restructuring)). The frame may run in another
//! way than declared, never compute anything else: `edits.rs` drops dead resolves and folds
//! copies into resolves, `reorder.rs` moves passes to join earlier groups. Each order tried is
//! planned as the declared one was (steps 4–6), and kept only if the frame gets cheaper.

mod edits;
mod reorder;

pub(super) use reorder::pass_key;

use super::accesses::Accesses;
use super::compiler::Steps;
use super::planned::{self, Kept, Planned, Plans, declared_order, plan_order};
use super::versions::{self, VersionId, Versions};
use super::{Decls, Frame, liveness};
use crate::ids::PassId;
use crate::plan::Restructuring;

/// "No pass / no position".
const NONE: u32 = u32::MAX;

/// Per version: every pass that reads it (live or not), in declaration order.
#[derive(Default)]
pub(in crate::compile) struct ReadersOf {
    start: Vec<u32>,
    passes: Vec<PassId>,
    /// Per version: the next place to fill, while filling.
    fill: Vec<u32>,
    /// The lists hold the readers of the versions the frame is restructured with: those they
    /// were last filled for, while no retrace changed them.
    filled: bool,
}

impl ReadersOf {
    /// Fills the lists (cleared here) with the readers of `v`'s versions.
    pub(in crate::compile) fn fill(&mut self, pass_count: usize, v: &Versions) {
        let ReadersOf {
            start,
            passes,
            fill,
            filled,
        } = self;
        *filled = true;
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

/// Restructuring's lists, cleared where each is filled: who reads each version, the edited
/// declarations' tables (which the steps after it read when the frame runs edited), and
/// reordering's.
#[derive(Default)]
pub(in crate::compile) struct Workspace {
    readers: ReadersOf,
    edited: EditedTables,
    reorder: reorder::Workspace,
}

/// The edited declarations' dense tables, and their versions and liveness when a fold changed
/// them.
#[derive(Default)]
struct EditedTables {
    acc: Accesses,
    retraced: Versions,
    retraced_live: Vec<bool>,
}

/// What restructuring decided: the edited declarations (whose versions and liveness were traced
/// again when a fold changed them), the moves and which plan the frame runs.
pub(super) struct Restructured {
    pub edits: Option<edits::Edits>,
    pub retraced: bool,
    pub moves: Vec<Restructuring>,
    pub kept: Kept,
}

/// The edits made to the declarations, and whether their versions were traced again.
struct Edited {
    edits: Option<edits::Edits>,
    retraced: bool,
}

/// The lists trying a reordered frame fills: who reads each version, reordering's own lists
/// and planning's.
struct Trial<'w> {
    readers: &'w mut ReadersOf,
    reorder: &'w mut reorder::Workspace,
    planning: &'w mut planned::Workspace,
}

/// Restructures the frame, or `None` when that would not make it cheaper than
/// `plans.declared`. Moves are kept only if they beat the same edits in declared order, and only
/// while each moved pass still shares the group it joined.
fn restructure_frame(
    declared: Frame<'_>,
    plans: &mut Plans,
    steps: &mut Steps,
) -> Option<Restructured> {
    let Plans {
        declared: as_declared,
        edited,
        reordered,
    } = plans;
    let work = &mut steps.restructure;
    let Edited { edits, retraced } = edit_frame(declared, work, &mut steps.current_versions);
    let Workspace {
        readers,
        edited: tables,
        reorder,
    } = work;
    let eff = run_frame(declared, edits.as_ref(), retraced, tables);
    let planning = &mut steps.planning;
    let baseline: &Planned = if edits.is_some() {
        declared_order(eff.live, &mut edited.order);
        plan_order(eff, edited, planning);
        edited
    } else {
        as_declared
    };
    let trial = Trial {
        readers,
        reorder,
        planning,
    };
    let moves = reorder_frame(eff, baseline, reordered, trial);
    let kept = if !moves.is_empty() {
        Kept::Reordered
    } else if edits.is_some() {
        Kept::Edited
    } else {
        return None;
    };
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
        retraced,
        moves,
        kept,
    })
}

/// Drops dead resolves and folds copies of the `declared` frame (into `work`'s edited tables),
/// tracing versions and liveness again (with `current`) where a fold changed them. Fills
/// `work`'s readers where something resolves.
fn edit_frame(
    declared: Frame<'_>,
    work: &mut Workspace,
    current: &mut Vec<Option<VersionId>>,
) -> Edited {
    let Decls {
        passes, resources, ..
    } = declared.decls;
    let Workspace {
        readers,
        edited: tables,
        ..
    } = work;
    // Who reads each version: needed only where something resolves (or passes may move).
    readers.filled = false;
    let resolving = |p: usize| {
        declared
            .decls
            .acc
            .slots(p)
            .iter()
            .any(|a| a.resolve.is_some())
    };
    if !(0..passes.len()).any(|p| declared.live[p] && resolving(p)) {
        return Edited {
            edits: None,
            retraced: false,
        };
    }
    readers.fill(passes.len(), declared.v);
    let edits = edit(declared, readers, &mut tables.acc, true);
    let Some(e) = edits.as_ref().filter(|e| e.folded()) else {
        return Edited {
            edits,
            retraced: false,
        };
    };
    // Folding moves a write from the copy to the resolve: versions change. A culled pass that
    // read a dropped resolve can make them untraceable; then nothing is folded.
    let graph = Decls {
        passes: &e.passes,
        resources,
        acc: &tables.acc,
    };
    let checked = declared.checked;
    let Ok(v) = versions::trace_versions(graph, checked, current, &mut tables.retraced) else {
        return Edited {
            edits: edit(declared, readers, &mut tables.acc, false),
            retraced: false,
        };
    };
    let live = &mut tables.retraced_live;
    liveness::find_live_passes(&tables.acc, v, declared.options.cull, live);
    // A folded copy does not run, also where culling is off.
    for (live, folded) in live.iter_mut().zip(&e.folded_into) {
        *live &= folded.is_none();
    }
    // The readers were those of the versions traced before.
    readers.filled = false;
    Edited {
        edits,
        retraced: true,
    }
}

/// The edits of the `declared` frame (copies folded where `folds`), with their dense tables
/// filled into `acc`.
fn edit(
    declared: Frame<'_>,
    readers: &ReadersOf,
    acc: &mut Accesses,
    folds: bool,
) -> Option<edits::Edits> {
    let edits = edits::edit_resolves(declared, readers, folds);
    if let Some(e) = &edits {
        acc.fill(declared.decls.resources, &e.passes);
    }
    edits
}

/// The frame as it runs with `edits` (traced again when `retraced`, into `tables`).
fn run_frame<'a>(
    declared: Frame<'a>,
    edits: Option<&'a edits::Edits>,
    retraced: bool,
    tables: &'a EditedTables,
) -> Frame<'a> {
    let Some(e) = edits else {
        return declared;
    };
    let decls = Decls {
        passes: &e.passes,
        resources: declared.decls.resources,
        acc: &tables.acc,
    };
    if retraced {
        declared.with(decls, &tables.retraced, &tables.retraced_live)
    } else {
        declared.with(decls, declared.v, declared.live)
    }
}

/// Moves passes of `eff` (planned as `baseline`) to join earlier groups, planning the order into
/// `reordered`: the moves, where they make the frame cheaper than `baseline`, else none.
fn reorder_frame(
    eff: Frame<'_>,
    baseline: &Planned,
    reordered: &mut Planned,
    trial: Trial<'_>,
) -> Vec<Restructuring> {
    let Trial {
        readers,
        reorder: work,
        planning,
    } = trial;
    let mut moves = reorder::reorder(eff, readers, baseline, &mut reordered.order, work);
    if moves.is_empty() {
        return moves;
    }
    plan_order(eff, reordered, planning);
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
    if !pays {
        moves.clear();
    }
    moves
}

/// Restructures the frame where that makes it cheaper; else it runs as declared, with
/// `plans.declared` its plan.
pub(in crate::compile) fn restructure(
    declared: Frame<'_>,
    plans: &mut Plans,
    steps: &mut Steps,
) -> Restructured {
    let restructured =
        (declared.options.restructure).then(|| restructure_frame(declared, plans, steps));
    restructured.flatten().unwrap_or(Restructured {
        edits: None,
        retraced: false,
        moves: Vec::new(),
        kept: Kept::Declared,
    })
}

impl Restructured {
    /// The frame as it runs: the declarations, versions and liveness edits and a retrace made
    /// (in `work`), else the declared ones.
    pub(in crate::compile) fn as_run<'d>(
        &'d self,
        declared: Frame<'d>,
        work: &'d Workspace,
    ) -> Frame<'d> {
        run_frame(declared, self.edits.as_ref(), self.retraced, &work.edited)
    }

    /// The liveness the frame runs with (`live` that of the declarations).
    pub(in crate::compile) fn run_live<'v>(
        &self,
        live: &'v [bool],
        work: &'v Workspace,
    ) -> &'v [bool] {
        if self.retraced {
            &work.edited.retraced_live
        } else {
            live
        }
    }
}

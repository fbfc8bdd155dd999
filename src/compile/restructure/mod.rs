//! Step 3b: restructuring ([guide](crate::guide#restructuring)). The frame may run in another
//! way than declared, never compute anything else: `edits.rs` drops dead resolves and folds
//! copies into resolves, `reorder.rs` moves passes to join earlier groups. Each is kept only if
//! the frame gets cheaper.

mod edits;
mod reorder;

pub(super) use reorder::{Workspace as ReorderWorkspace, pass_key};

use super::accesses::Accesses;
use super::compiler::Spares;
use super::planned::{Planned, declared_order, plan_order};
use super::scratch::Scratch;
use super::versions::{self, VersionId, Versions};
use super::{Decls, liveness, validate};
use crate::options::CompileOptions;
use crate::plan::Restructuring;
use crate::resource::PassId;

/// "No pass / no position".
const NONE: u32 = u32::MAX;

/// Per version: every pass that reads it (live or not), in declaration order.
pub(in crate::compile) struct ReadersOf {
    start: Vec<u32>,
    passes: Vec<PassId>,
}

impl ReadersOf {
    pub(in crate::compile) fn new(pass_count: usize, v: &Versions, scratch: &mut Scratch) -> Self {
        let mut start = scratch.u32s.filled(v.writer.len() + 1, 0);
        for p in 0..pass_count {
            for &version in v.reads_of(p) {
                start[version as usize + 1] += 1;
            }
        }
        for i in 1..start.len() {
            start[i] += start[i - 1];
        }
        let mut fill = scratch.u32s.take(start.len());
        fill.extend_from_slice(&start);
        let mut passes = scratch
            .pass_ids
            .filled(start[v.writer.len()] as usize, PassId::new(0));
        for p in 0..pass_count {
            for &version in v.reads_of(p) {
                let slot = &mut fill[version as usize];
                passes[*slot as usize] = PassId::new(p);
                *slot += 1;
            }
        }
        scratch.u32s.give(fill);
        ReadersOf { start, passes }
    }

    /// Hands the lists back.
    pub(in crate::compile) fn recycle(self, scratch: &mut Scratch) {
        scratch.u32s.give(self.start);
        scratch.pass_ids.give(self.passes);
    }

    fn of(&self, version: VersionId) -> &[PassId] {
        let v = version as usize;
        &self.passes[self.start[v] as usize..self.start[v + 1] as usize]
    }
}

/// What restructuring decided: the edited declarations (with their versions and liveness when
/// a fold changed them), the moves and the plan of the resulting order.
pub(super) struct Restructured {
    pub edits: Option<(edits::Edits, Accesses)>,
    pub retraced: Option<(versions::Versions, Vec<bool>)>,
    pub moves: Vec<Restructuring>,
    pub planned: Planned,
}

/// Restructures the frame, or `None` when that would not make it cheaper than `as_declared`.
/// Moves are kept only if they beat the same edits in declared order, and only while each moved
/// pass still shares the group it joined.
fn restructure_frame(
    declared: Decls<'_>,
    checked: &validate::Checked,
    versions: &versions::Versions,
    live: &[bool],
    as_declared: &Planned,
    options: &CompileOptions,
    spares: &mut Spares,
) -> Option<Restructured> {
    let (passes, resources) = (declared.passes, declared.resources);
    let subs = &checked.subs;
    // Who reads each version: needed only where something resolves (or passes may move).
    let resolving = |p: usize| declared.acc.slots(p).iter().any(|a| a.resolve.is_some());
    let resolves = (0..passes.len()).any(|p| live[p] && resolving(p));
    let readers = resolves.then(|| ReadersOf::new(passes.len(), versions, &mut spares.scratch));
    let edit = |folds| {
        readers.as_ref().and_then(|readers| {
            edits::edit_resolves(passes, resources, subs, versions, live, readers, folds)
        })
    };
    let mut edits = edit(true);
    let mut retraced = None;
    let mut edited_acc = edits
        .as_ref()
        .map(|e| Accesses::new(resources, &e.passes, &mut spares.scratch));
    let mut untraceable = false;
    if let (Some(e), Some(acc)) = (edits.as_ref().filter(|e| e.folded()), &edited_acc) {
        // Folding moves a write from the copy to the resolve: versions change. A culled pass
        // that read a dropped resolve can make them untraceable; then nothing is folded.
        let scratch = &mut spares.scratch;
        let graph = Decls {
            passes: &e.passes,
            resources,
            acc,
        };
        let current = &mut spares.work.current_versions;
        match versions::trace_versions(graph, checked, scratch, current) {
            Ok(v) => {
                let mut l = liveness::find_live_passes(acc, &v, options, scratch);
                // A folded copy does not run, also where culling is off.
                for (live, folded) in l.iter_mut().zip(&e.folded_into) {
                    *live &= folded.is_none();
                }
                retraced = Some((v, l));
            }
            Err(_) => untraceable = true,
        }
    }
    if untraceable {
        edits = edit(false);
        if let Some(acc) = edited_acc.take() {
            acc.recycle(&mut spares.scratch);
        }
        edited_acc = edits
            .as_ref()
            .map(|e| Accesses::new(resources, &e.passes, &mut spares.scratch));
    }
    let (v, l) = retraced
        .as_ref()
        .map_or((versions, live), |(v, l)| (v, &l[..]));
    let eff = Decls {
        passes: edits.as_ref().map_or(passes, |e| &e.passes),
        resources,
        acc: edited_acc.as_ref().unwrap_or(declared.acc),
    };
    let given_readers = match &retraced {
        Some(_) => None,
        None => readers.as_ref(),
    };
    let edited = edits.is_some().then(|| {
        let order = declared_order(l, &mut spares.scratch);
        plan_order(eff, checked, v, l, order, options, spares)
    });
    let declared_groups = &edited.as_ref().unwrap_or(as_declared).group_of;
    let reordered = reorder::reorder(
        eff,
        subs,
        v,
        l,
        given_readers,
        declared_groups,
        options,
        &mut spares.scratch,
        &mut spares.work.reorder,
    );
    if let Some(readers) = readers {
        readers.recycle(&mut spares.scratch);
    }
    let mut moves = reordered.moves;
    let mut planned = None;
    if moves.is_empty() {
        spares.scratch.pass_ids.give(reordered.order);
    } else {
        let p = plan_order(eff, checked, v, l, reordered.order, options, spares);
        let baseline = edited.as_ref().unwrap_or(as_declared).bytes;
        let pays = p.bytes.zip(baseline).is_some_and(|(a, b)| a < b);
        // A later move can leave an earlier one's pass outside the group it joined.
        moves.retain(|m| match m {
            Restructuring::Moved { pass, joins, .. } => {
                p.group_of[pass.index()] == p.group_of[joins.index()]
            }
            _ => true,
        });
        if pays && !moves.is_empty() {
            planned = Some(p);
        } else {
            p.recycle(spares);
            moves.clear();
        }
    }
    let planned = match (planned, edited) {
        (Some(p), Some(unused)) => {
            unused.recycle(spares);
            p
        }
        (Some(p), None) | (None, Some(p)) => p,
        (None, None) => {
            give_back_retraced(retraced, &mut spares.scratch);
            return None;
        }
    };
    // The guarantee: never more traffic than the declared order.
    let cheaper = planned
        .bytes
        .zip(as_declared.bytes)
        .is_some_and(|(a, b)| a <= b);
    if !cheaper {
        planned.recycle(spares);
        give_back_retraced(retraced, &mut spares.scratch);
        if let Some(acc) = edited_acc {
            acc.recycle(&mut spares.scratch);
        }
        return None;
    }
    Some(Restructured {
        edits: edits.zip(edited_acc),
        retraced,
        moves,
        planned,
    })
}

/// Hands back the versions and liveness traced again after a fold.
pub(super) fn give_back_retraced(
    retraced: Option<(versions::Versions, Vec<bool>)>,
    scratch: &mut Scratch,
) {
    if let Some((v, live)) = retraced {
        v.recycle(scratch);
        scratch.flags.give(live);
    }
}

/// Restructures the frame where that makes it cheaper; else it runs as declared, with
/// `as_declared` its plan.
pub(in crate::compile) fn restructure(
    declared: Decls<'_>,
    checked: &validate::Checked,
    versions: &Versions,
    live: &[bool],
    as_declared: Planned,
    options: &CompileOptions,
    spares: &mut Spares,
) -> Restructured {
    let restructured = options
        .restructure
        .then(|| {
            restructure_frame(
                declared,
                checked,
                versions,
                live,
                &as_declared,
                options,
                spares,
            )
        })
        .flatten();
    match restructured {
        Some(r) => {
            as_declared.recycle(spares);
            r
        }
        None => Restructured {
            edits: None,
            retraced: None,
            moves: Vec::new(),
            planned: as_declared,
        },
    }
}

/// The declarations, versions and liveness the frame runs with: those edits and a retrace
/// made, else the declared ones.
pub(in crate::compile) fn as_run<'a>(
    edits: &'a Option<(edits::Edits, Accesses)>,
    retraced: &'a Option<(Versions, Vec<bool>)>,
    declared: Decls<'a>,
    versions: &'a Versions,
    live: &'a [bool],
) -> (Decls<'a>, &'a Versions, &'a [bool]) {
    let Some((e, acc)) = edits else {
        return (declared, versions, live);
    };
    let eff = Decls {
        passes: &e.passes[..],
        resources: declared.resources,
        acc,
    };
    match retraced {
        Some((v, l)) => (eff, v, &l[..]),
        None => (eff, versions, live),
    }
}

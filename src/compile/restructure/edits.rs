//! Resolve edits: a resolve nobody reads is not made (`drop_dead_resolve`); a copy that only
//! moves a resolve's result elsewhere becomes that resolve's target (`fold_copy`).

use super::{NONE, ReadersOf};
use crate::compile::subresources::SubTable;
use crate::compile::versions::{VersionId, Versions};
use crate::compile::{Decls, Frame};
use crate::decl::Passes;
use crate::decl::pass::PassKind;
use crate::decl::resource::ResourceKind;
use crate::ids::{PassId, ResourceId};
use crate::plan::Restructuring;
use crate::resource::{ImportAfter, SubresourceRange};

/// Declarations as the restructured frame runs them, and what changed.
pub(in crate::compile) struct Edits {
    /// The declarations with dropped resolves removed, folded resolves retargeted and folded
    /// copies emptied.
    pub passes: Passes,
    pub changes: Vec<Restructuring>,
    /// Per pass: the pass its copy was folded into.
    pub folded_into: Vec<Option<PassId>>,
}

impl Edits {
    /// A copy was folded: versions must be traced again.
    pub(in crate::compile) fn folded(&self) -> bool {
        self.folded_into.iter().any(Option::is_some)
    }
}

/// Per version: the next version of the same subresource (`NONE` for the last).
fn next_versions(v: &Versions, subs: &SubTable) -> Vec<u32> {
    let mut next = vec![NONE; v.writer.len()];
    let mut last = vec![NONE; subs.len()];
    for (version, &sub) in v.sub_of.iter().enumerate() {
        if last[sub as usize] != NONE {
            next[last[sub as usize] as usize] = version as u32;
        }
        last[sub as usize] = version as u32;
    }
    next
}

/// Drops dead resolves and folds copies into resolves; `None` when neither applies.
pub(in crate::compile) fn edit_resolves(
    frame: Frame<'_>,
    readers: &ReadersOf,
    allow_folds: bool,
) -> Option<Edits> {
    let (passes, v, live) = (frame.decls.passes, frame.v, frame.live);
    let mut edits: Option<Edits> = None;
    // Who overwrites a dead resolve, worked out at the first one.
    let mut next_version: Option<Vec<u32>> = None;
    for p in (0..passes.len()).filter(|&p| live[p]) {
        let pid = PassId::new(p);
        let views = passes.at(p).views() as usize;
        for (slot, c) in passes.at(p).color().iter().enumerate() {
            let Some(target) = c.resolve else {
                continue;
            };
            // A multiview pass resolves every view or none: each view's resolve writes its own
            // layer, and the resolve is dead only when every one of them is.
            let versions = (0..views).map(|view| v.slot_resolved[v.slot(pid, slot * views + view)]);
            let Some(versions) = versions.collect::<Option<Vec<VersionId>>>() else {
                continue;
            };
            let dead = |version: VersionId| {
                !v.kept_at_end[version as usize]
                    && !readers.of(version).iter().any(|r| live[r.index()])
            };
            let change = if versions.iter().all(|&version| dead(version)) {
                let subs = &frame.checked.subs;
                let next = next_version.get_or_insert_with(|| next_versions(v, subs));
                Some(drop_dead_resolve(frame, pid, target, &versions, next))
            } else if allow_folds && views == 1 {
                fold_copy(frame, pid, target, readers.of(versions[0]))
            } else {
                None
            };
            let Some((change, new_resolve)) = change else {
                continue;
            };
            let e = edits.get_or_insert_with(|| Edits {
                passes: passes.clone(),
                changes: Vec::new(),
                folded_into: vec![None; passes.len()],
            });
            e.passes.set_resolve(p, slot, new_resolve);
            if let Restructuring::CopyFolded { pass: copy, .. } = change {
                e.passes.empty(copy.index());
                e.folded_into[copy.index()] = Some(pid);
            }
            e.changes.push(change);
        }
    }
    edits
}

/// A resolve is dead when no live pass reads the version it writes and the frame does not keep
/// it: the next access overwrites it, or nothing touches the target again.
fn drop_dead_resolve(
    frame: Frame<'_>,
    pass: PassId,
    target: ResourceId,
    versions: &[VersionId],
    next_version: &[u32],
) -> (Restructuring, Option<ResourceId>) {
    let (v, live) = (frame.v, frame.live);
    // The first live pass that overwrites what a view resolved (every view's, in a multiview
    // pass, is overwritten by the same pass or by none in practice; the first view's is named).
    let mut overwritten_by = None;
    for &version in versions {
        let mut next = next_version[version as usize];
        while next != NONE {
            if let Some(w) = v.writer[next as usize]
                && live[w.index()]
            {
                overwritten_by = Some(w);
                break;
            }
            next = next_version[next as usize];
        }
        if overwritten_by.is_some() {
            break;
        }
    }
    (
        Restructuring::ResolveDropped {
            pass,
            resource: target,
            overwritten_by,
        },
        None,
    )
}

/// A copy whose only source is what the resolve just wrote, into a graph-owned single-sampled
/// texture of the same shape that nothing touches between the two, can be the resolve itself.
fn fold_copy(
    frame: Frame<'_>,
    pass: PassId,
    source: ResourceId,
    readers: &[PassId],
) -> Option<(Restructuring, Option<ResourceId>)> {
    let Decls {
        passes,
        resources: res,
        ..
    } = frame.decls;
    let live = frame.live;
    let &[copy] = readers else {
        return None;
    };
    let c = passes.pass(copy);
    let whole_or_base =
        |range: SubresourceRange| range.is_all() || range.resolve(1, 1) == (0, 1, 0, 1);
    let (copy_src, copy_dst) = (c.copy_src(), c.copy_dst());
    let only_a_copy = c.kind() == PassKind::Copy
        && live[copy.index()]
        && !c.side_effects()
        && !c.keep_order()
        && copy_src.len() == 1
        && copy_dst.len() == 1
        && c.all_entries().len() == 2
        && copy_src[0].resource == source
        && whole_or_base(copy_src[0].range)
        && whole_or_base(copy_dst[0].range);
    if !only_a_copy {
        return None;
    }
    let target = copy_dst[0].resource;
    let (src, dst) = (&res[source.index()], &res[target.index()]);
    // The same texture shape (single-sampled, one subresource), owned by the graph: an
    // imported texture's usages are the caller's, and a kept source must still be written.
    let same_shape = matches!(dst.kind, ResourceKind::Texture(_))
        && dst.kind == src.kind
        && dst.subresource_count() == 1
        && dst.import.is_none()
        && src.import.is_none_or(|i| i.after != ImportAfter::Keep);
    // Nothing between the resolve and the copy (culled passes too) may see the destination.
    let untouched_between = (pass.index()..copy.index()).all(|q| !passes.at(q).uses(target));
    (same_shape && untouched_between && target != source).then_some((
        Restructuring::CopyFolded {
            pass: copy,
            into: pass,
            source,
            target,
        },
        Some(target),
    ))
}

//! Step 5: load op, store op, resolve and read-only depth of every attachment of every render
//! group ([guide](crate::guide#load-ops)).

use super::Decls;
use super::liveness::Readers;
use super::prefetch::{prefetch, prefetch_all, prefetch_bytes};
use super::versions::{VersionId, Versions};
use crate::options::CompileOptions;
use crate::plan::{
    AttachmentPlan, Group, LoadOp, LoadReason, StoreOp, StoreReason, attachment_bytes,
    color_bytes_per_sample,
};
use crate::resource::{
    Access, AttachmentDecl, PassKind, ResourceDecl, ResourceId, ResourceKind, Subresource,
};

/// The ops of every render group, and the attachment bytes the groups move (`None` beyond
/// `u64`), counted as each group is planned, while it is in the caches; `each_group` sees each
/// render group once its ops are set.
pub(super) fn infer_attachment_ops(
    graph: Decls<'_>,
    mut groups: Vec<Group>,
    v: &Versions,
    readers: &Readers,
    options: &CompileOptions,
    bytes: impl Fn(ResourceId, Subresource) -> u64,
    mut each_group: impl FnMut(&Group),
) -> (Vec<Group>, Option<u64>) {
    let mut total = Some(0u64);
    for g in 0..groups.len() {
        prefetch_group(graph, &groups, g);
        let group = &mut groups[g];
        if group.kind != PassKind::Render {
            continue;
        }
        plan_group(graph, g, group, v, readers, options);
        each_group(group);
        total = total
            .zip(attachment_bytes(std::slice::from_ref(group), &bytes))
            .and_then(|(t, b)| t.checked_add(b));
    }
    (groups, total)
}

/// Starts loading what planning the groups after `g` reads and writes outside the dense tables:
/// eight groups ahead the group itself, its pass list and up to four lines of its attachment
/// list, four groups ahead its attachments' declarations (planning a group takes less time than
/// a load from memory).
fn prefetch_group(graph: Decls<'_>, groups: &[Group], g: usize) {
    if let Some(ahead) = groups.get(g + 8) {
        prefetch_all(ahead);
        prefetch(ahead.passes.as_ptr());
        // The attachments are written where the last plan's were: the list's first lines.
        let bytes = ahead.color.capacity() * size_of::<AttachmentPlan>();
        prefetch_bytes(ahead.color.as_ptr().cast(), bytes.min(256));
    }
    if let Some(&first) = groups.get(g + 4).and_then(|next| next.passes.first()) {
        for a in graph.acc.slots(first.index()) {
            prefetch_all(&graph.resources[a.resource.index()]);
        }
    }
}

/// The attachments of render group `g`.
fn plan_group(
    graph: Decls<'_>,
    g: usize,
    group: &mut Group,
    v: &Versions,
    readers: &Readers,
    options: &CompileOptions,
) {
    let first_id = group.passes[0];
    let (first_slots, last_slots) = (
        graph.acc.slots(first_id.index()),
        graph
            .acc
            .slots(group.passes[group.passes.len() - 1].index()),
    );
    let color_slots = first_slots.iter().take_while(|a| !a.is_depth).count();
    let mut attachments = first_slots.iter().zip(last_slots).enumerate();
    let mut plan = |(slot, (&a, at_end)): (usize, (&AttachmentDecl, &AttachmentDecl))| {
        let decl = &graph.resources[a.resource.index()];
        let loaded = v.slot_read[v.slot(first_id, slot)];
        let (load, load_reason) = load_op(a, decl, loaded, v, options);
        // The group's last write of the slot is what a later reader would need.
        let written = group
            .passes
            .iter()
            .rev()
            .find_map(|&p| v.slot_written[v.slot(p, slot)]);
        let (store, store_reason) = store_op(written, g, v, readers);
        let (store, read_only) = read_only_depth(a.is_depth, load, store);
        AttachmentPlan {
            resource: a.resource,
            sub: a.sub,
            load,
            store,
            resolve: at_end.resolve,
            read_only,
            load_reason,
            store_reason: match (store, store_reason) {
                (StoreOp::Discard, StoreReason::NothingWritten) => StoreReason::NotNeeded,
                (_, reason) => reason,
            },
        }
    };
    // Into the group's own lists: a reused group keeps its capacity.
    let mut color = std::mem::take(&mut group.color);
    color.extend(attachments.by_ref().take(color_slots).map(&mut plan));
    group.color = color;
    // The first view of each slot: the views of a slot share its format.
    group.color_bytes_per_sample = color_bytes_per_sample(
        group
            .color
            .iter()
            .step_by(group.multiview.unwrap_or(1).max(1) as usize)
            .filter_map(|a| match graph.resources[a.resource.index()].kind {
                ResourceKind::Texture(t) => Some(t.format),
                ResourceKind::Buffer(_) => None,
            }),
    );
    group.depth = attachments.next().map(&mut plan);
    let mut depth_views = std::mem::take(&mut group.depth_views);
    depth_views.extend(attachments.map(plan));
    group.depth_views = depth_views;
}

/// `clear` clears; `write` needs nothing (DontCare with the caller's token, else a clear);
/// `read_write`/`read` load the contents, or start from the clear value when nothing wrote them.
fn load_op(
    a: AttachmentDecl,
    decl: &ResourceDecl,
    loaded: Option<VersionId>,
    v: &Versions,
    options: &CompileOptions,
) -> (LoadOp, LoadReason) {
    // The declaration is read for a clear value only where the load op clears.
    let value = || a.clear_value(decl);
    match (a.access, loaded) {
        (Access::Clear, _) => (LoadOp::Clear(value()), LoadReason::Cleared),
        (Access::Write, _) if options.dont_care.is_some() => {
            (LoadOp::DontCare, LoadReason::Overwritten)
        }
        (Access::Write, _) => (LoadOp::Clear(value()), LoadReason::Overwritten),
        (Access::ReadWrite | Access::Read, Some(version)) => (
            LoadOp::Load,
            LoadReason::ContentsNeeded {
                writer: v.writer[version as usize],
            },
        ),
        (Access::ReadWrite | Access::Read, None) => {
            (LoadOp::Clear(value()), LoadReason::NoContents)
        }
    }
}

/// `Store` when a later group reads the contents or a kept import needs them; `Discard`
/// otherwise; `None` (for now) when the group wrote nothing.
fn store_op(
    written: Option<VersionId>,
    g: usize,
    v: &Versions,
    readers: &Readers,
) -> (StoreOp, StoreReason) {
    let Some(version) = written else {
        return (StoreOp::None, StoreReason::NothingWritten);
    };
    let version = version as usize;
    if readers.last_group[version] > g as u32 + 1 {
        let reader = readers.last_pass[version].expect("a read version has a reader");
        return (StoreOp::Store, StoreReason::ReadLater { reader });
    }
    if v.kept_at_end[version] {
        return (StoreOp::Store, StoreReason::KeptImport);
    }
    (StoreOp::Discard, StoreReason::NotNeeded)
}

/// A depth that no pass of the group writes is read-only when loaded; a clear nobody writes over
/// is discarded.
fn read_only_depth(is_depth: bool, load: LoadOp, store: StoreOp) -> (StoreOp, bool) {
    match (store, load) {
        (StoreOp::None, LoadOp::Clear(_)) => (StoreOp::Discard, false),
        (StoreOp::None, _) => (StoreOp::None, is_depth),
        (store, _) => (store, false),
    }
}

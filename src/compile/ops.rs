//! Step 5: load op, store op, resolve and read-only depth of every attachment of every render
//! group ([guide](crate::guide#load-ops)).

use super::liveness::Readers;
use super::versions::{VersionId, Versions};
use super::{Decls, Frame};
use crate::decl::pass::{AttachmentDecl, PassKind};
use crate::decl::resource::{ResourceDecl, ResourceKind};
use crate::ids::{PassId, ResourceId};
use crate::options::CompileOptions;
use crate::plan::{
    AttachmentPlan, Group, LoadOp, LoadReason, StoreOp, StoreReason, color_bytes_per_sample,
    moved_bytes,
};
use crate::resource::{Access, Subresource};

/// The ops of every render group, set in place, and the attachment bytes the groups move
/// (`None` beyond `u64`), counted as each group is planned, while it is in the caches;
/// `each_group` sees each render group once its ops are set.
pub(super) fn infer_attachment_ops(
    frame: Frame<'_>,
    groups: &mut [Group],
    readers: &Readers,
    bytes: impl Fn(ResourceId, Subresource) -> u64,
    mut each_group: impl FnMut(&Group),
) -> Option<u64> {
    let ops = Ops { frame, readers };
    // No frame's attachments move more than `u128` counts: whether the total fits a `u64` is
    // asked once, at the end.
    let mut total = 0u128;
    for (g, group) in groups.iter_mut().enumerate() {
        if group.kind != PassKind::Render {
            continue;
        }
        total += ops.plan_group(g, group, &bytes);
        each_group(group);
    }
    u64::try_from(total).ok()
}

/// What planning a group's ops reads: the frame, and who reads each version last.
#[derive(Clone, Copy)]
struct Ops<'a> {
    frame: Frame<'a>,
    readers: &'a Readers,
}

/// An attachment slot of a group: its index, as the group's first pass declares it and as its
/// last does.
#[derive(Clone, Copy)]
struct Slot<'a> {
    index: usize,
    first: AttachmentDecl,
    last: &'a AttachmentDecl,
}

impl Ops<'_> {
    /// The attachments of render group `g`; returns the bytes they move.
    fn plan_group(
        self,
        g: usize,
        group: &mut Group,
        bytes: impl Fn(ResourceId, Subresource) -> u64,
    ) -> u128 {
        let graph = self.frame.decls;
        let first_id = group.passes[0];
        let (first_slots, last_slots) = (
            graph.acc.slots(first_id.index()),
            graph
                .acc
                .slots(group.passes[group.passes.len() - 1].index()),
        );
        let color_slots = first_slots.iter().take_while(|a| !a.is_depth).count();
        // Into the group's own lists: a reused group keeps its capacity. Room for the colour
        // slots first, as extending by them would make.
        let (mut color, mut depth_views) = (
            std::mem::take(&mut group.color),
            std::mem::take(&mut group.depth_views),
        );
        color.reserve(color_slots);
        group.depth = None;
        let mut moved = 0u128;
        let attachments = first_slots.iter().zip(last_slots).enumerate();
        for (index, (&first, last)) in attachments {
            let slot = Slot { index, first, last };
            let plan = self.plan_attachment(g, &group.passes, slot);
            moved += moved_bytes(&plan, &bytes);
            if index < color_slots {
                color.push(plan);
            } else if group.depth.is_none() {
                group.depth = Some(plan);
            } else {
                depth_views.push(plan);
            }
        }
        group.color = color;
        group.depth_views = depth_views;
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
        moved
    }

    /// The plan of attachment slot `slot` of a group of `passes` (group `g`).
    #[inline(always)]
    fn plan_attachment(self, g: usize, passes: &[PassId], slot: Slot<'_>) -> AttachmentPlan {
        let Ops { frame, readers } = self;
        let (graph, v) = (frame.decls, frame.v);
        let a = slot.first;
        let decl = &graph.resources[a.resource.index()];
        let loaded = v.slot_read[v.slot(passes[0], slot.index)];
        let (load, load_reason) = load_op(a, decl, loaded, v, frame.options);
        // The group's last write of the slot is what a later reader would need.
        let written = last_write(passes, slot.index, v);
        let (store, store_reason) = store_op(written, g, v, readers);
        let (mut store, mut read_only) = read_only_depth(a.is_depth, load, store);
        let mut store_reason = store_reason;
        if read_only
            && !needed_later(loaded, g, v, readers)
            && !sampled_in(graph, passes, a.resource)
        {
            // wgpu hands a read-only depth to Vulkan as Load + Store, and a tiler writes it back
            // in every bin; nothing needs it after the group, so it is discarded instead (no
            // pipeline that reads it writes depth).
            (store, read_only, store_reason) = (StoreOp::Discard, false, StoreReason::NotNeeded);
        }
        AttachmentPlan {
            resource: a.resource,
            sub: a.sub,
            load,
            store,
            resolve: slot.last.resolve,
            read_only,
            load_reason,
            store_reason: match (store, store_reason) {
                (StoreOp::Discard, StoreReason::NothingWritten) => StoreReason::NotNeeded,
                (_, reason) => reason,
            },
        }
    }
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
    if let Some(version) = loads(a.access, loaded) {
        let writer = v.writer[version as usize];
        return (LoadOp::Load, LoadReason::ContentsNeeded { writer });
    }
    match a.access {
        Access::Clear => (LoadOp::Clear(value()), LoadReason::Cleared),
        Access::Write if options.dont_care.is_some() => (LoadOp::DontCare, LoadReason::Overwritten),
        Access::Write => (LoadOp::Clear(value()), LoadReason::Overwritten),
        Access::ReadWrite | Access::Read => (LoadOp::Clear(value()), LoadReason::NoContents),
    }
}

/// The version a group's first pass loads into an attachment slot: the version it reads
/// (`read`), where its access reads the contents. Restructuring counts a group's loads with it.
#[inline]
pub(super) fn loads(access: Access, read: Option<VersionId>) -> Option<VersionId> {
    read.filter(|_| matches!(access, Access::Read | Access::ReadWrite))
}

/// The group's last write of an attachment slot (its passes in execution order): the version
/// a later reader would need.
#[inline]
pub(super) fn last_write(passes: &[PassId], slot: usize, v: &Versions) -> Option<VersionId> {
    passes
        .iter()
        .rev()
        .find_map(|&p| v.slot_written[v.slot(p, slot)])
}

/// Whether a group stores `version`, its last write of an attachment: the frame keeps it, or
/// `read_later` (a later group reads it). Restructuring counts a group's stores with it.
#[inline]
pub(super) fn stores(version: VersionId, v: &Versions, read_later: impl FnOnce() -> bool) -> bool {
    v.kept_at_end[version as usize] || read_later()
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
    let read_later = || readers.last_group[version as usize] > g as u32 + 1;
    if !stores(version, v, read_later) {
        return (StoreOp::Discard, StoreReason::NotNeeded);
    }
    if read_later() {
        let reader = readers.last_pass[version as usize].expect("a read version has a reader");
        return (StoreOp::Store, StoreReason::ReadLater { reader });
    }
    (StoreOp::Store, StoreReason::KeptImport)
}

/// Whether a later group reads `loaded`, the version the group loaded, or the frame keeps it.
fn needed_later(loaded: Option<VersionId>, g: usize, v: &Versions, readers: &Readers) -> bool {
    loaded.is_some_and(|version| {
        v.kept_at_end[version as usize] || readers.last_group[version as usize] > g as u32 + 1
    })
}

/// Whether a pass of the group samples `resource` (or reads it as an input attachment): an
/// attached depth a shader reads must stay read-only.
fn sampled_in(graph: Decls<'_>, passes: &[PassId], resource: ResourceId) -> bool {
    passes.iter().any(|&p| {
        let pass = graph.passes.pass(p);
        (pass.sample().iter())
            .chain(pass.input())
            .any(|e| e.resource == resource)
    })
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

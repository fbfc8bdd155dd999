//! Step 4: groups. The next live render pass joins the current group when nothing forces a
//! break; the first reason that applies is recorded. Passes arrive in execution order (the
//! declared order, or the restructured one), one at a time, so restructuring can try an order
//! on a stretch of the frame with the same rule.

use super::Frame;
use super::accesses::Accesses;
use super::compiler::Refill;
use super::planned::Planned;
use super::subresources::SubTable;
use super::versions::Versions;
use crate::decl::pass::{ListAccess, PassKind};
use crate::ids::GroupId;
use crate::ids::PassId;
use crate::options::CompileOptions;
use crate::plan::{Group, GroupBreak};
use crate::resource::Access;

/// Per subresource: the stamp of the last group that wrote it / touched it outside its
/// attachments. The compiler's lists, cleared when a [`Grouper`] starts on them.
#[derive(Debug, Default)]
pub(super) struct GroupMarks {
    written_in: Vec<u32>,
    touched_in: Vec<u32>,
}

/// The merge rule applied to passes one at a time. What the current group has done to each
/// subresource is kept as stamps (the current group's stamp: it wrote it / read or wrote it
/// outside its attachments), so starting a group costs nothing.
pub(super) struct Grouper<'a> {
    acc: &'a Accesses,
    subs: &'a SubTable,
    v: &'a Versions,
    options: &'a CompileOptions,
    marks: &'a mut GroupMarks,
    /// Stamp of the current group; 0 before the first.
    stamp: u32,
    /// The current group's kind and first pass.
    current: Option<(PassKind, PassId)>,
    /// The current group resolved its MSAA attachments.
    resolved: bool,
}

impl<'a> Grouper<'a> {
    /// The merge rule on `frame`, with the compiler's `marks`.
    pub(super) fn new(frame: Frame<'a>, marks: &'a mut GroupMarks) -> Self {
        let subs = &frame.checked.subs;
        for list in [&mut marks.written_in, &mut marks.touched_in] {
            list.clear();
            list.resize(subs.len(), 0);
        }
        Grouper {
            acc: frame.decls.acc,
            subs,
            v: frame.v,
            options: frame.options,
            marks,
            stamp: 0,
            current: None,
            resolved: false,
        }
    }

    /// Forgets the current group: the next pass starts one.
    pub(super) fn reset(&mut self) {
        self.current = None;
    }

    /// Adds pass `p`: `None` when it joined the current group, else why the current group
    /// ended (`EndOfGraph` when there was none) — `p` then starts a new group.
    pub(super) fn push(&mut self, p: PassId) -> Option<GroupBreak> {
        let kind = self.acc.info(p.index()).kind;
        let ended = match self.current {
            Some((kind, first)) => self.group_break(kind, first, p),
            None => Some(GroupBreak::EndOfGraph),
        };
        if ended.is_some() {
            self.stamp += 1;
            self.current = Some((kind, p));
            self.resolved = false;
        }
        self.record(p);
        ended
    }

    /// Whether an entry of pass `p` that `accept` takes names a subresource `marks` stamps
    /// with the current group's stamp.
    fn any(&self, marks: &[u32], p: PassId, accept: impl Fn(ListAccess) -> bool) -> bool {
        self.acc.entries(p.index()).iter().any(|&(access, e)| {
            accept(access)
                && self
                    .subs
                    .of(e.resource, e.range)
                    .any(|s| marks[s] == self.stamp)
        })
    }

    fn written(&self, p: PassId, accept: impl Fn(ListAccess) -> bool) -> bool {
        self.any(&self.marks.written_in, p, accept)
    }

    fn touched(&self, p: PassId, accept: impl Fn(ListAccess) -> bool + Copy) -> bool {
        self.any(&self.marks.touched_in, p, accept) || self.written(p, accept)
    }

    /// Records what live pass `p` does in the current group.
    fn record(&mut self, p: PassId) {
        let (stamp, acc) = (self.stamp, self.acc);
        let slots = acc.slots(p.index());
        // An attachment writes when it makes a version: every access but a `read`.
        for (slot, a) in slots.iter().enumerate() {
            if self.v.slot_written[self.v.slot(p, slot)].is_some() {
                self.marks.written_in[self.subs.index(a.resource, a.sub)] = stamp;
            }
            if let Some(t) = a.resolve {
                self.marks.written_in[self.subs.index(t, a.resolve_subresource())] = stamp;
            }
        }
        for &(access, e) in acc.entries(p.index()) {
            for s in self.subs.of(e.resource, e.range) {
                if access.writes() {
                    self.marks.written_in[s] = stamp;
                }
                if access != ListAccess::CopySrc && access != ListAccess::CopyDst {
                    self.marks.touched_in[s] = stamp;
                }
            }
        }
        self.resolved |= slots.iter().any(|a| a.resolve.is_some());
    }

    /// Why `next` cannot join the current group (of `kind`, whose first pass is `first`), or
    /// `None`.
    fn group_break(&self, kind: PassKind, first: PassId, p: PassId) -> Option<GroupBreak> {
        let next = self.acc.info(p.index());
        // Only render passes share a wgpu render pass.
        if kind != PassKind::Render || next.kind != PassKind::Render {
            return Some(GroupBreak::NotRender);
        }
        // A shader read of this group's output needs it in memory: the group must end and store.
        if self.written(p, ListAccess::is_shader_read) {
            return Some(GroupBreak::SamplesGroupOutput);
        }
        // Same-pixel reads could stay on tile with framebuffer fetch; wgpu has none.
        if self.written(p, |a| a == ListAccess::Input) {
            return Some(GroupBreak::InputsGroupOutput);
        }
        // Keeping attachments on tile needs the very same framebuffer: same subresources per slot.
        let slots = self.acc.slots(p.index());
        if !same_attachments(self.acc, first, p) {
            return Some(GroupBreak::AttachmentsDiffer);
        }
        // A clear is a load op: it can only happen where a wgpu render pass begins.
        if slots.iter().any(|a| a.access == Access::Clear) {
            return Some(GroupBreak::ClearsGroupAttachment);
        }
        // A resolve happens where the render pass ends; drawing after it would change what it resolved.
        if self.resolved {
            return Some(GroupBreak::Resolve);
        }
        // Draws in one render pass are unordered for storage memory: no write after a read or write.
        let storage_write = |a| a == ListAccess::StorageWrite || a == ListAccess::StorageReadWrite;
        if self.touched(p, storage_write) {
            return Some(GroupBreak::StorageHazard);
        }
        // wgpu validates a render pass as one usage scope: a texture the group binds for a shader
        // read (a read-only depth sampled alongside) cannot become its written depth or a resolve
        // target.
        let mut attachment_writes = slots.iter().filter_map(|a| match a.resolve {
            Some(t) => Some((t, a.resolve_subresource())),
            None => (a.is_depth && a.access != Access::Read).then_some((a.resource, a.sub)),
        });
        if attachment_writes
            .any(|(r, s)| self.marks.touched_in[self.subs.index(r, s)] == self.stamp)
        {
            return Some(GroupBreak::WritesBoundTexture);
        }
        // Merging is the point; only the caller's kill switch stops it here.
        if !self.options.merge {
            return Some(GroupBreak::MergingDisabled);
        }
        None
    }
}

/// Whether two passes attach the very same subresources in the same slots (a multiview pass:
/// the same views of the same layers).
pub(super) fn same_attachments(acc: &Accesses, a: PassId, b: PassId) -> bool {
    let (x, y) = (acc.slots(a.index()), acc.slots(b.index()));
    x.len() == y.len()
        && x.iter()
            .zip(y)
            .all(|(x, y)| (x.resource, x.sub, x.is_depth) == (y.resource, y.sub, y.is_depth))
        && acc.info(a.index()).multiview == acc.info(b.index()).multiview
}

/// The grouping step's working lists, kept between compiles.
#[derive(Debug, Default)]
pub(super) struct Grouping {
    /// What the current group wrote and touched.
    marks: GroupMarks,
    /// Groups no order's list has room for, their lists keeping their capacity.
    spare: Vec<Group>,
}

/// Groups the live passes of `planned.order` (execution order) into `planned.groups` and
/// `planned.group_of` (cleared here). Groups `planned.groups` has no room for come from the
/// workspace's spares, and those it has left over go there.
pub(super) fn form_groups(frame: Frame<'_>, work: &mut Grouping, planned: &mut Planned) {
    let graph = frame.decls;
    let Grouping { marks, spare } = work;
    let Planned {
        order,
        groups,
        group_of,
        ..
    } = planned;
    let mut groups = GroupFill::new(groups, spare, order.len());
    group_of.clear();
    group_of.resize(graph.passes.len(), None);
    let mut grouper = Grouper::new(frame, marks);
    for &p in order.iter() {
        match (grouper.push(p), groups.last_mut()) {
            (None, Some(group)) => group.passes.push(p),
            (reason, previous) => {
                if let (Some(group), Some(reason)) = (previous, reason) {
                    group.break_reason = reason;
                }
                let info = graph.acc.info(p.index());
                groups.start(info.kind, info.multiview, p);
            }
        }
        group_of[p.index()] = Some(GroupId::new(groups.0.len() - 1));
    }
    groups.finish();
}

/// A list of groups being filled in place ([`Refill`]), its old groups and spares reused.
struct GroupFill<'a>(Refill<'a, Group>);

impl<'a> GroupFill<'a> {
    /// Fills `list`, with room for `capacity` groups, taking more groups from `spare`.
    fn new(list: &'a mut Vec<Group>, spare: &'a mut Vec<Group>, capacity: usize) -> Self {
        list.reserve(capacity.saturating_sub(list.len()));
        GroupFill(Refill::new(list, spare))
    }

    /// Starts a group of one pass after the last one, of `kind` and `multiview` views.
    fn start(&mut self, kind: PassKind, multiview: Option<u32>, first: PassId) {
        let group = self.0.next(|| Group {
            kind,
            passes: Vec::new(),
            color: Vec::new(),
            depth: None,
            depth_views: Vec::new(),
            multiview,
            color_bytes_per_sample: 0,
            break_reason: GroupBreak::EndOfGraph,
        });
        group.kind = kind;
        group.passes.clear();
        group.passes.push(first);
        group.color.clear();
        group.depth = None;
        group.depth_views.clear();
        group.multiview = multiview;
        group.color_bytes_per_sample = 0;
        group.break_reason = GroupBreak::EndOfGraph;
    }

    /// The last group started.
    fn last_mut(&mut self) -> Option<&mut Group> {
        let last = self.0.len().checked_sub(1)?;
        Some(self.0.get_mut(last))
    }

    /// Ends the list after the groups filled; the old groups after them become spares.
    fn finish(self) {
        self.0.finish();
    }
}

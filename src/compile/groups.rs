//! Step 4: groups. The next live render pass joins the current group when nothing forces a
//! boundary; the first reason that applies is recorded.

use super::subresources::SubTable;
use super::versions::Versions;
use crate::ids::GroupId;
use crate::options::CompileOptions;
use crate::plan::{Group, GroupBoundary};
use crate::resource::{Access, Entry, ListAccess, PassDecl, PassId, PassKind, Subresource};

/// The groups and which group each pass joined.
pub(super) struct Grouping {
    pub groups: Vec<Group>,
    /// Per declared pass: its group; `None` when culled.
    pub group_of: Vec<Option<GroupId>>,
}

/// What the current group has done to each subresource, as stamps: 1 + the index of the last
/// group that wrote it / read or wrote it outside its attachments.
struct Marks<'s> {
    subs: &'s SubTable,
    written_in: Vec<u32>,
    touched_in: Vec<u32>,
    /// 1 + index of the current group.
    stamp: u32,
    /// The current group resolved its MSAA attachments.
    resolved: bool,
}

impl Marks<'_> {
    fn any(&self, marks: &[u32], entries: &[Entry]) -> bool {
        entries.iter().any(|e| {
            self.subs
                .of(e.resource, e.sub)
                .any(|s| marks[s] == self.stamp)
        })
    }

    fn written(&self, entries: &[Entry]) -> bool {
        self.any(&self.written_in, entries)
    }

    fn touched(&self, entries: &[Entry]) -> bool {
        self.any(&self.touched_in, entries) || self.written(entries)
    }

    /// Records what live pass `p` does in the current group.
    fn record(&mut self, p: PassId, pass: &PassDecl, v: &Versions) {
        let stamp = self.stamp;
        // An attachment writes when it makes a version: every access but a `read`.
        for (slot, a) in pass.attachments().enumerate() {
            if v.slot_written[v.slot(p, slot)].is_some() {
                self.written_in[self.subs.index(a.resource, a.sub)] = stamp;
            }
            if let Some(t) = a.resolve {
                self.written_in[self.subs.index(t, Subresource::BASE)] = stamp;
            }
        }
        for (access, e) in pass.entries() {
            for s in self.subs.of(e.resource, e.sub) {
                if access.writes() {
                    self.written_in[s] = stamp;
                }
                if access != ListAccess::CopySrc && access != ListAccess::CopyDst {
                    self.touched_in[s] = stamp;
                }
            }
        }
        self.resolved |= pass.color.iter().any(|c| c.resolve.is_some());
    }

    /// Why `next` cannot join the current group (whose first pass is `first`), or `None`.
    fn merge_boundary(
        &self,
        group: &Group,
        first: &PassDecl,
        next: &PassDecl,
        options: &CompileOptions,
    ) -> Option<GroupBoundary> {
        // Only render passes share a wgpu render pass.
        if group.kind != PassKind::Render || next.kind != PassKind::Render {
            return Some(GroupBoundary::NotRender);
        }
        // A shader read of this group's output needs it in memory: the group must end and store.
        if [
            ListAccess::Sample,
            ListAccess::StorageRead,
            ListAccess::StorageReadWrite,
        ]
        .iter()
        .any(|&a| self.written(next.list(a)))
        {
            return Some(GroupBoundary::SamplesGroupOutput);
        }
        // Same-pixel reads could stay on tile with framebuffer fetch; wgpu has none.
        if self.written(&next.input) {
            return Some(GroupBoundary::InputsGroupOutput);
        }
        // Keeping attachments on tile needs the very same framebuffer: same subresources per slot.
        let same = |a: &PassDecl, b: &PassDecl| {
            a.attachment_count() == b.attachment_count()
                && a.color.len() == b.color.len()
                && a.attachments()
                    .zip(b.attachments())
                    .all(|(x, y)| (x.resource, x.sub) == (y.resource, y.sub))
        };
        if !same(first, next) {
            return Some(GroupBoundary::AttachmentsDiffer);
        }
        // A clear is a load op: it can only happen where a wgpu render pass begins.
        if next.attachments().any(|a| a.access == Access::Clear) {
            return Some(GroupBoundary::ClearsGroupAttachment);
        }
        // A resolve happens where the render pass ends; drawing after it would change what it resolved.
        if self.resolved {
            return Some(GroupBoundary::Resolve);
        }
        // Draws in one render pass are unordered for storage memory: no write after a read or write.
        if self.touched(&next.storage_write) || self.touched(&next.storage_read_write) {
            return Some(GroupBoundary::StorageHazard);
        }
        // wgpu validates a render pass as one usage scope: a texture the group binds for a shader
        // read (a read-only depth sampled alongside) cannot become its written depth or a resolve
        // target.
        let mut attachment_writes = next
            .color
            .iter()
            .filter_map(|c| c.resolve.map(|t| (t, Subresource::BASE)))
            .chain(
                next.depth
                    .filter(|d| d.access != Access::Read)
                    .map(|d| (d.resource, d.sub)),
            );
        if attachment_writes.any(|(r, s)| self.touched_in[self.subs.index(r, s)] == self.stamp) {
            return Some(GroupBoundary::WritesBoundTexture);
        }
        // Merging is the point; only the caller's kill switch stops it here.
        if !options.merge {
            return Some(GroupBoundary::MergingDisabled);
        }
        None
    }
}

pub(super) fn form_groups(
    passes: &[PassDecl],
    subs: &SubTable,
    v: &Versions,
    live: &[bool],
    options: &CompileOptions,
) -> Grouping {
    let mut groups: Vec<Group> = Vec::with_capacity(live.iter().filter(|&&l| l).count());
    let mut group_of = vec![None; passes.len()];
    let mut marks = Marks {
        subs,
        written_in: vec![0; subs.len()],
        touched_in: vec![0; subs.len()],
        stamp: 0,
        resolved: false,
    };
    for (p, pass) in passes.iter().enumerate().filter(|&(p, _)| live[p]) {
        let boundary = groups.last().map(|group| {
            let first = &passes[group.passes[0].index()];
            marks.merge_boundary(group, first, pass, options)
        });
        match (groups.last_mut(), boundary) {
            (Some(group), Some(None)) => group.passes.push(PassId::new(p)),
            (previous, reason) => {
                if let (Some(group), Some(Some(reason))) = (previous, reason) {
                    group.boundary = reason;
                }
                groups.push(Group {
                    kind: pass.kind,
                    passes: vec![PassId::new(p)],
                    color: Vec::new(),
                    depth: None,
                    boundary: GroupBoundary::EndOfGraph,
                });
                marks.stamp = groups.len() as u32;
                marks.resolved = false;
            }
        }
        group_of[p] = Some(GroupId::new(groups.len() - 1));
        marks.record(PassId::new(p), pass, v);
    }
    Grouping { groups, group_of }
}

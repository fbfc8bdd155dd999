//! The naive plan ([guide](crate::guide#traffic-model)): every live pass its own group, `clear`
//! where declared, `load` otherwise, `store` always.

use super::{
    AttachmentPlan, CompiledGraph, Group, GroupBreak, LoadOp, LoadReason, StoreOp, StoreReason,
    color_bytes_per_sample,
};
use crate::decl::PassRef;
use crate::decl::pass::AttachmentDecl;
use crate::decl::resource::{ResourceDecl, ResourceKind};
use crate::ids::PassId;
use crate::resource::Access;

/// What the naive plan needs of the compiled versions: per attachment slot of every pass (slots of
/// pass `p` at `loaded[start[p]..start[p + 1]]`), `None` when the slot finds no contents, else the
/// pass that wrote them (`None` inside: an import's preserved contents).
#[derive(Debug, Clone, Default)]
pub(crate) struct NaiveSources {
    pub start: Vec<u32>,
    pub loaded: Vec<Option<Option<PassId>>>,
}

impl NaiveSources {
    pub(crate) fn of(&self, p: PassId, slot: usize) -> Option<Option<PassId>> {
        self.loaded[self.start[p.index()] as usize + slot]
    }
}

/// One attachment of the naive plan ([guide](crate::guide#traffic-model)): `clear` where the pass
/// clears (or reads contents nothing wrote: a load would read whatever the texture last held),
/// `load` otherwise, `store` always; a depth the pass only reads, with contents, is attached
/// read-only (wgpu cannot sample a depth the pass may write) and its store still counts.
fn naive_attachment(
    a: AttachmentDecl,
    decl: &ResourceDecl,
    loaded: Option<Option<PassId>>,
) -> AttachmentPlan {
    let load = if naive_loads(a.access, loaded) {
        LoadOp::Load
    } else {
        LoadOp::Clear(a.clear_value(decl))
    };
    let load_reason = match (a.access, loaded) {
        (Access::Clear, _) => LoadReason::Cleared,
        (Access::Write, _) => LoadReason::Overwritten,
        (_, Some(writer)) => LoadReason::ContentsNeeded { writer },
        (_, None) => LoadReason::NoContents,
    };
    AttachmentPlan {
        resource: a.resource,
        sub: a.sub,
        load,
        store: StoreOp::Store,
        resolve: a.resolve,
        read_only: a.is_depth && a.access == Access::Read && loaded.is_some(),
        load_reason,
        store_reason: StoreReason::Naive,
    }
}

/// Whether the naive plan loads an attachment of this access that finds `loaded` (see
/// [`naive_attachment`]); otherwise it clears.
pub(crate) fn naive_loads(access: Access, loaded: Option<Option<PassId>>) -> bool {
    match access {
        Access::Clear => false,
        Access::Write => true,
        Access::Read | Access::ReadWrite => loaded.is_some(),
    }
}

/// The naive plan's attachments of pass `p`, in slot order.
fn naive_attachments<'p>(
    pass: PassRef<'p>,
    p: PassId,
    resources: &'p [ResourceDecl],
    sources: &'p NaiveSources,
) -> impl Iterator<Item = AttachmentPlan> + 'p {
    pass.attachments().enumerate().map(move |(slot, a)| {
        naive_attachment(a, &resources[a.resource.index()], sources.of(p, slot))
    })
}

impl CompiledGraph {
    /// The naive plan's groups, built for [`CompiledGraph::naive_groups`].
    pub(super) fn build_naive_groups(&self) -> Vec<Group> {
        let live = self.passes.iter().filter(|p| !p.culled).count();
        let mut groups: Vec<Group> = Vec::with_capacity(live);
        for (p, pass) in self.pass_decls.iter().enumerate() {
            if self.passes[p].culled {
                continue;
            }
            let pid = PassId::new(p);
            let mut attachments =
                naive_attachments(pass, pid, &self.resource_decls, &self.naive_sources);
            groups.push(Group {
                kind: pass.kind(),
                passes: vec![pid],
                color: attachments.by_ref().take(pass.color_slot_count()).collect(),
                depth: attachments.next(),
                depth_views: attachments.collect(),
                multiview: pass.multiview(),
                color_bytes_per_sample: color_bytes_per_sample(pass.color().iter().filter_map(
                    |c| match self.resource_decls[c.resource.index()].kind {
                        ResourceKind::Texture(t) => Some(t.format),
                        ResourceKind::Buffer(_) => None,
                    },
                )),
                break_reason: GroupBreak::MergingDisabled,
            });
        }
        if let Some(last) = groups.last_mut() {
            last.break_reason = GroupBreak::EndOfGraph;
        }
        groups
    }
}

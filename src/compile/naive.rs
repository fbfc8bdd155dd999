//! The naive plan ([guide](crate::guide#traffic-model)): what a renderer that never thinks about
//! lifetimes records, and exactly what the executor's `Naive` mode records. Every live pass its
//! own group, `clear` where the pass declares it, `load` for every other access, `store` always,
//! resolves as declared — with two changes that keep it recordable and its image equal to the
//! plan's:
//! - an access that reads contents nothing wrote this frame starts from the clear value (a load
//!   would read whatever the pooled texture last held);
//! - a depth that the pass only `read`s is attached read-only (wgpu cannot sample a depth the pass
//!   may write); its store still counts, as a naive renderer's would.

use super::ops::clear_value;
use super::versions::Versions;
use crate::declare::RenderGraph;
use crate::plan::{AttachmentPlan, Group, GroupBoundary, LoadOp, LoadReason, StoreOp, StoreReason};
use crate::resource::{Access, PassId};

pub(super) fn naive_groups(graph: &RenderGraph<'_>, v: &Versions, live: &[bool]) -> Vec<Group> {
    let mut groups: Vec<Group> = Vec::with_capacity(live.iter().filter(|&&l| l).count());
    for (p, pass) in graph.passes.iter().enumerate().filter(|&(p, _)| live[p]) {
        let pid = PassId::new(p);
        let mut attachments = pass.attachments().enumerate().map(|(slot, a)| {
            let decl = &graph.resources[a.resource.index()];
            let loaded = v.slot_read[v.slot(pid, slot)];
            let (load, load_reason) = match (a.access, loaded) {
                (Access::Clear, _) => (LoadOp::Clear(clear_value(a, decl)), LoadReason::Cleared),
                (Access::Write, _) => (LoadOp::Load, LoadReason::Overwritten),
                (_, Some(version)) => (
                    LoadOp::Load,
                    LoadReason::ContentsNeeded {
                        writer: v.writer[version as usize],
                    },
                ),
                (_, None) => (LoadOp::Clear(clear_value(a, decl)), LoadReason::NoContents),
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
        });
        groups.push(Group {
            kind: pass.kind,
            passes: vec![pid],
            color: attachments.by_ref().take(pass.color.len()).collect(),
            depth: attachments.next(),
            boundary: GroupBoundary::MergingDisabled,
        });
    }
    if let Some(last) = groups.last_mut() {
        last.boundary = GroupBoundary::EndOfGraph;
    }
    groups
}

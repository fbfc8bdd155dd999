//! Byte arithmetic of a plan: bytes of a resource and of a subresource, attachment bytes moved by
//! groups, memory, and the bytes a group's ops save.

use super::{
    AttachmentPlan, CompiledGraph, Group, LoadOp, Memory, ResourceUsage, StoreOp, TransientBlock,
};
use crate::decl::resource::{ResourceDecl, ResourceKind};
use crate::ids::GroupId;
use crate::ids::ResourceId;
use crate::resource::Subresource;

/// Bytes of a whole resource: every mip and layer of a texture × samples, a buffer's size.
/// Saturates instead of overflowing.
fn resource_bytes(kind: ResourceKind) -> u64 {
    match kind {
        ResourceKind::Texture(t) => (0..t.mips)
            .map(|mip| {
                t.subresource_bytes(mip)
                    .unwrap_or(u64::MAX)
                    .saturating_mul(u64::from(t.layers))
            })
            .fold(0, u64::saturating_add),
        ResourceKind::Buffer(b) => b.size,
    }
}

/// Bytes of one subresource of a declared resource (a buffer: its size).
pub(crate) fn subresource_bytes(decl: &ResourceDecl, sub: Subresource) -> u64 {
    match decl.kind {
        ResourceKind::Texture(t) => t
            .subresource_bytes(sub.mip)
            .expect("validated textures count their bytes"),
        ResourceKind::Buffer(b) => b.size,
    }
}

/// Attachment bytes the groups move: a load, a store, a resolve each move one subresource, of
/// `bytes(resource, subresource)`. `None` beyond `u64`.
pub(crate) fn attachment_bytes(
    groups: &[Group],
    bytes: impl Fn(ResourceId, Subresource) -> u64,
) -> Option<u64> {
    let total: u128 = groups
        .iter()
        .flat_map(Group::attachments)
        .map(|a| moved_bytes(a, &bytes))
        .sum();
    u64::try_from(total).ok()
}

/// Attachment bytes one attachment moves: its load, its store (a read-only depth's by the
/// backend) and its resolve each move one subresource, of `bytes(resource, subresource)`. In `u128`, where no frame's sum overflows:
/// whether it fits a `u64` is asked once, of the total.
#[inline]
pub(crate) fn moved_bytes(
    a: &AttachmentPlan,
    bytes: impl Fn(ResourceId, Subresource) -> u64,
) -> u128 {
    // `matches!`, not `==`: comparing load ops compares their clear values. A read-only depth
    // is stored by the backend (wgpu-core hands Vulkan Load + Store).
    let moved = u128::from(matches!(a.load, LoadOp::Load))
        + u128::from(a.store == StoreOp::Store || a.read_only);
    let mut total = 0;
    if moved > 0 {
        total = u128::from(bytes(a.resource, a.sub)) * moved;
    }
    if let Some(t) = a.resolve {
        total += u128::from(bytes(t, Subresource::BASE));
    }
    total
}

impl CompiledGraph {
    /// Memory of the plan's resources: allocated each on its own, pooled, and memoryless
    /// ([guide](crate::guide#will-it-fit-the-tile)). A model, at the traffic model's texel sizes.
    pub fn memory(&self) -> Memory {
        let declared = self
            .resources
            .iter()
            .zip(self.resource_decls.iter())
            .filter(|(plan, decl)| !plan.culled && decl.import.is_none())
            .map(|(_, decl)| resource_bytes(decl.kind))
            .fold(0, u64::saturating_add);
        let (mut allocated, mut transient, mut blocked) = (0u64, 0u64, 0u64);
        for p in &self.physical {
            let bytes = resource_bytes(p.kind);
            allocated = allocated.saturating_add(bytes);
            if p.resources
                .iter()
                .all(|&r| self.transient_blocked(r).is_some())
            {
                blocked = blocked.saturating_add(bytes);
            }
            if let ResourceUsage::Texture(u) = p.usage
                && u.contains(wgpu::TextureUsages::TRANSIENT_ATTACHMENT)
            {
                transient = transient.saturating_add(bytes);
            }
        }
        Memory {
            declared_bytes: declared,
            allocated_bytes: allocated,
            transient_bytes: transient,
            transient_blocked_bytes: blocked,
        }
    }

    /// Why a texture the plan keeps only on tile is allocated all the same: wgpu 30 refuses
    /// `TRANSIENT_ATTACHMENT` on a texture of more than one layer, so a multiview target (one
    /// layer a view) that would otherwise be memoryless is not
    /// ([guide](crate::guide#will-it-fit-the-tile)). `None` for every other resource.
    pub fn transient_blocked(&self, resource: ResourceId) -> Option<TransientBlock> {
        let plan = self.resources.get(resource.index())?;
        let decl = &self.resource_decls[resource.index()];
        let ResourceKind::Texture(t) = decl.kind else {
            return None;
        };
        let group = plan.first_group?;
        let would_qualify = self.options.transient
            && !plan.culled
            && !plan.transient
            && decl.import.is_none()
            && !decl.keep_memory
            && t.mips == 1
            && t.layers > 1
            && plan.usage == ResourceUsage::Texture(wgpu::TextureUsages::RENDER_ATTACHMENT)
            && plan.last_group == Some(group);
        if !would_qualify {
            return None;
        }
        let g = &self.groups[group.index()];
        let on_tile_only = g.attachments().filter(|a| a.resource == resource).all(|a| {
            matches!(a.load, LoadOp::Clear(_) | LoadOp::DontCare) && a.store == StoreOp::Discard
        });
        let resolved_into = g.color.iter().any(|c| c.resolve == Some(resource));
        (on_tile_only && !resolved_into).then_some(TransientBlock::Layers)
    }

    /// Bytes of a whole resource: every mip and layer × samples (a buffer: its size).
    pub(crate) fn resource_bytes(&self, resource: ResourceId) -> u64 {
        resource_bytes(self.resource_decls[resource.index()].kind)
    }

    /// Attachment bytes the group's ops save a frame against loading and storing every
    /// attachment of the group ([guide](crate::guide#will-it-fit-the-tile)): each attachment not
    /// loaded (cleared, `dont_care`) and each store discarded, at its subresource's bytes
    /// (a read-only depth, which the backend stores, saves nothing). What a tiler saves by the plan's ops; a
    /// group the driver renders straight to memory realises none of it. 0 for compute and copy
    /// groups; saturates.
    pub fn ops_saved_bytes(&self, group: GroupId) -> u64 {
        self.groups[group.index()]
            .attachments()
            .map(|a| {
                let skipped =
                    u64::from(a.load != LoadOp::Load) + u64::from(a.store == StoreOp::Discard);
                subresource_bytes(&self.resource_decls[a.resource.index()], a.sub)
                    .saturating_mul(skipped)
            })
            .fold(0, u64::saturating_add)
    }
}

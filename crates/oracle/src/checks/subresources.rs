//! Subresources and their bytes as the guide counts them, re-derived apart from the compiler's
//! tables (mirrors `src/compile/subresources.rs`).

use super::*;

/// the guide's texel bytes for the formats the generator uses (kept apart from the crate's table).
pub fn texel_bytes(format: TextureFormat) -> u64 {
    match format {
        TextureFormat::Rgba8Unorm
        | TextureFormat::Bgra8Unorm
        | TextureFormat::Rgb10a2Unorm
        | TextureFormat::R32Float => 4,
        TextureFormat::Rgba16Float => 8,
        TextureFormat::Rgba32Float => 16,
        TextureFormat::Depth32Float | TextureFormat::Depth24Plus => 4,
        TextureFormat::Depth24PlusStencil8 => 4,
        TextureFormat::Depth16Unorm => 2,
        TextureFormat::Depth32FloatStencil8 => 8,
        other => panic!("the generator does not use {other:?}"),
    }
}

/// the guide: a mip renders at `max(1, w >> mip) × max(1, h >> mip)`.
pub fn mip_size(width: u32, height: u32, mip: u32) -> (u64, u64) {
    let shrink = |v: u32| u64::from(v.checked_shr(mip).unwrap_or(0).max(1));
    (shrink(width), shrink(height))
}

/// the guide: bytes of one subresource (an attachment, a one-subresource entry); a buffer's size.
pub fn sub_bytes(graph: &RenderGraph<'_>, r: ResourceId, sub: Subresource) -> u64 {
    match graph.resources()[r.index()].kind {
        ResourceKind::Texture(t) => {
            let (w, h) = mip_size(t.width, t.height, sub.mip);
            w * h * u64::from(t.samples) * texel_bytes(t.format)
        }
        ResourceKind::Buffer(b) => b.size,
    }
}

/// the guide: `bytes(R)` of a whole resource, every mip at its size times the layers.
pub fn whole_bytes(graph: &RenderGraph<'_>, r: ResourceId) -> u64 {
    match graph.resources()[r.index()].kind {
        ResourceKind::Texture(t) => (0..t.mips)
            .map(|mip| {
                let (w, h) = mip_size(t.width, t.height, mip);
                w * h * u64::from(t.layers) * u64::from(t.samples) * texel_bytes(t.format)
            })
            .sum(),
        ResourceKind::Buffer(b) => b.size,
    }
}

/// Bytes a list entry names.
pub fn entry_bytes(graph: &RenderGraph<'_>, e: Entry) -> u64 {
    if e.range.is_all() {
        return whole_bytes(graph, e.resource);
    }
    interp::entry_subs(graph.resources(), e)
        .into_iter()
        .map(|sub| sub_bytes(graph, e.resource, sub))
        .sum()
}

/// One subresource of one resource.
pub type Key = (ResourceId, Subresource);

/// The subresources an entry names.
pub fn keys(graph: &RenderGraph<'_>, e: Entry) -> impl Iterator<Item = Key> {
    entry_subs(graph.resources(), e)
        .into_iter()
        .map(move |s| (e.resource, s))
}

pub(super) fn multi_sub(graph: &RenderGraph<'_>, r: ResourceId) -> bool {
    interp::sub_count(&graph.resources()[r.index()]) > 1
}

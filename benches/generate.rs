//! Realistic deferred frames of any length, for the compile benchmark.
//!
//! A frame is a chain of blocks; each block is a deferred renderer's frame slice: shadow map,
//! G-buffer, decals, lighting (sampling the G-buffer, the shadow map and the previous block's
//! output), transparents merged onto the lighting target, a post chain, a composite into the
//! block's output, and two debug views nobody reads (culled). Ten passes a block.

use tilegraph::wgpu::TextureFormat;
use tilegraph::{
    Access, ClearValue, Import, ImportAfter, ImportContents, RenderGraph, TextureDesc,
    TextureHandle,
};

/// Passes per block.
pub const PASSES_PER_BLOCK: usize = 10;

/// A frame of about `passes` passes (rounded up to whole blocks).
pub fn deferred_frame(passes: usize) -> RenderGraph<'static> {
    let (w, h) = (1920, 1080);
    let mut g = RenderGraph::new();
    let tex = |g: &mut RenderGraph<'static>, name: String, format: TextureFormat| {
        g.create_texture(&name, TextureDesc::new(format, w, h))
    };
    let output = g.import_texture(
        "backbuffer",
        TextureDesc::new(TextureFormat::Bgra8Unorm, w, h),
        Import {
            contents: ImportContents::Undefined,
            after: ImportAfter::Keep,
        },
    );
    let mut previous: Option<TextureHandle> = None;
    let blocks = passes.div_ceil(PASSES_PER_BLOCK).max(1);
    for b in 0..blocks {
        let shadow = g.create_texture_cleared(
            &format!("shadow{b}"),
            TextureDesc::new(TextureFormat::Depth32Float, 2048, 2048),
            ClearValue::Depth(1.0),
        );
        let albedo = tex(&mut g, format!("albedo{b}"), TextureFormat::Rgba8Unorm);
        let normal = tex(&mut g, format!("normal{b}"), TextureFormat::Rgb10a2Unorm);
        let material = tex(&mut g, format!("material{b}"), TextureFormat::Rgba8Unorm);
        let depth = tex(&mut g, format!("depth{b}"), TextureFormat::Depth32Float);
        let hdr = tex(&mut g, format!("hdr{b}"), TextureFormat::Rgba16Float);
        let bloom = tex(&mut g, format!("bloom{b}"), TextureFormat::Rgba16Float);
        let debug = tex(&mut g, format!("debug{b}"), TextureFormat::Rgba8Unorm);
        let last = b + 1 == blocks;
        let ldr = if last {
            output
        } else {
            tex(&mut g, format!("ldr{b}"), TextureFormat::Rgba8Unorm)
        };

        g.add_render_pass(&format!("shadow{b}"))
            .depth(shadow, Access::Clear)
            .finish();
        g.add_render_pass(&format!("gbuffer{b}"))
            .color(albedo, Access::Clear)
            .color(normal, Access::Clear)
            .color(material, Access::Clear)
            .depth(depth, Access::Clear)
            .finish();
        g.add_render_pass(&format!("decals{b}"))
            .color(albedo, Access::ReadWrite)
            .color(normal, Access::ReadWrite)
            .color(material, Access::ReadWrite)
            .depth(depth, Access::Read)
            .finish();
        let mut lighting = g
            .add_render_pass(&format!("lighting{b}"))
            .sample(albedo)
            .sample(normal)
            .sample(material)
            .sample(shadow)
            .color(hdr, Access::Write)
            .depth(depth, Access::Read);
        if let Some(prev) = previous {
            lighting = lighting.sample(prev);
        }
        lighting.finish();
        g.add_render_pass(&format!("transparent{b}"))
            .color(hdr, Access::ReadWrite)
            .depth(depth, Access::Read)
            .finish();
        g.add_render_pass(&format!("debug_gbuffer{b}"))
            .sample(normal)
            .color(debug, Access::Write)
            .finish();
        g.add_render_pass(&format!("bloom{b}"))
            .sample(hdr)
            .color(bloom, Access::Write)
            .finish();
        g.add_render_pass(&format!("debug_bloom{b}"))
            .sample(bloom)
            .color(debug, Access::ReadWrite)
            .finish();
        g.add_render_pass(&format!("composite{b}"))
            .sample(hdr)
            .sample(bloom)
            .color(ldr, Access::Write)
            .finish();
        g.add_render_pass(&format!("ui{b}"))
            .color(ldr, Access::ReadWrite)
            .finish();
        previous = Some(ldr);
    }
    g
}

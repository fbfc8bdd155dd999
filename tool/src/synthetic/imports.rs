//! The imported resources of a synthetic run: created with the usages the plan needs and
//! filled with contents that tell the execute modes apart.

use tilegraph::decl::ResourceKind;
use tilegraph::plan::ResourceUsage;
use tilegraph::{CompiledGraph, ExecuteMode, ImportContents, RenderGraph, TextureDesc};

use super::shaders::hash32;
use crate::headless::Gpu;

pub(crate) enum OwnedImport {
    Texture(wgpu::Texture, wgpu::TextureView),
    Buffer(wgpu::Buffer),
}

/// Creates the imported resources with the usages the plan needs plus copies (readback,
/// initialization) and attachment where the format allows (clears).
pub(crate) fn create_imports(
    gpu: &Gpu,
    graph: &RenderGraph<'_>,
    plan: &CompiledGraph,
) -> Vec<Option<OwnedImport>> {
    let features = gpu.device.features();
    graph
        .resources()
        .iter()
        .zip(plan.resources())
        .map(|(decl, rp)| {
            decl.import?;
            Some(match (decl.kind, rp.usage) {
                (ResourceKind::Texture(t), ResourceUsage::Texture(u)) => {
                    let allowed = t.format.guaranteed_format_features(features).allowed_usages;
                    let mut usage = (u - wgpu::TextureUsages::TRANSIENT_ATTACHMENT)
                        | (allowed & wgpu::TextureUsages::RENDER_ATTACHMENT);
                    if t.samples == 1 {
                        usage |= wgpu::TextureUsages::COPY_SRC | wgpu::TextureUsages::COPY_DST;
                    }
                    let cube = t.width == t.height && t.layers >= 6 && t.layers.is_multiple_of(6);
                    if t.format.is_depth_stencil_format() || (cube && t.samples == 1) {
                        // Read back with a draw where depth cannot be copied to a buffer, and
                        // where a cube map cannot (wgpu's GL backend).
                        usage |= allowed & wgpu::TextureUsages::TEXTURE_BINDING;
                    }
                    let texture = gpu
                        .device
                        .create_texture(&texture_descriptor(&decl.name, t, usage));
                    let view = texture.create_view(&Default::default());
                    OwnedImport::Texture(texture, view)
                }
                (ResourceKind::Buffer(b), ResourceUsage::Buffer(u)) => {
                    OwnedImport::Buffer(gpu.device.create_buffer(&wgpu::BufferDescriptor {
                        label: Some(&decl.name),
                        size: b.size,
                        usage: u | wgpu::BufferUsages::COPY_SRC | wgpu::BufferUsages::COPY_DST,
                        mapped_at_creation: false,
                    }))
                }
                _ => return None,
            })
        })
        .collect()
}

fn texture_descriptor<'l>(
    label: &'l str,
    t: TextureDesc,
    usage: wgpu::TextureUsages,
) -> wgpu::TextureDescriptor<'l> {
    wgpu::TextureDescriptor {
        label: Some(label),
        size: wgpu::Extent3d {
            width: t.width,
            height: t.height,
            depth_or_array_layers: t.layers,
        },
        mip_level_count: t.mips,
        sample_count: t.samples,
        dimension: wgpu::TextureDimension::D2,
        format: t.format,
        usage,
        view_formats: &[],
    }
}

/// Gives imports with `contents` their frame-start contents: preserved ones a fixed pattern per
/// resource; undefined ones a value that differs per mode, so a graph that wrongly depends on
/// them gives different results in different modes.
pub(crate) fn initialize_imports(
    gpu: &Gpu,
    graph: &RenderGraph<'_>,
    imports: &[Option<OwnedImport>],
    contents: ImportContents,
    mode: ExecuteMode,
) {
    let mut encoder = gpu.device.create_command_encoder(&Default::default());
    for (r, (decl, import)) in graph.resources().iter().zip(imports).enumerate() {
        if decl.import.map(|i| i.contents) != Some(contents) {
            continue;
        }
        let salt = match (contents, mode) {
            (ImportContents::Preserved, _) => 0.0,
            (_, ExecuteMode::Naive) => 0.5,
            (_, ExecuteMode::Poison) => 0.75,
            _ => 0.25,
        };
        let shade = |k: f64| ((r as f64 * 0.37 + k + salt) * 0.999).fract();
        match import {
            Some(OwnedImport::Texture(texture, _)) => {
                if !texture
                    .usage()
                    .contains(wgpu::TextureUsages::RENDER_ATTACHMENT)
                {
                    continue;
                }
                let format = texture.format();
                let view = texture.create_view(&wgpu::TextureViewDescriptor {
                    dimension: Some(wgpu::TextureViewDimension::D2),
                    mip_level_count: Some(1),
                    array_layer_count: Some(1),
                    ..Default::default()
                });
                let color = [Some(wgpu::RenderPassColorAttachment {
                    view: &view,
                    depth_slice: None,
                    resolve_target: None,
                    ops: wgpu::Operations {
                        load: wgpu::LoadOp::Clear(wgpu::Color {
                            r: shade(0.1),
                            g: shade(0.4),
                            b: shade(0.7),
                            a: 1.0,
                        }),
                        store: wgpu::StoreOp::Store,
                    },
                })];
                let is_depth = format.is_depth_stencil_format();
                let depth = is_depth.then(|| wgpu::RenderPassDepthStencilAttachment {
                    view: &view,
                    depth_ops: format.has_depth_aspect().then_some(wgpu::Operations {
                        load: wgpu::LoadOp::Clear(0.3 + 0.6 * shade(0.2) as f32),
                        store: wgpu::StoreOp::Store,
                    }),
                    stencil_ops: format.has_stencil_aspect().then_some(wgpu::Operations {
                        load: wgpu::LoadOp::Clear(7),
                        store: wgpu::StoreOp::Store,
                    }),
                });
                let _ = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
                    label: Some("tilegraph import contents"),
                    color_attachments: if is_depth { &[] } else { &color },
                    depth_stencil_attachment: depth,
                    ..Default::default()
                });
            }
            Some(OwnedImport::Buffer(buffer)) => {
                let words = (buffer.size() / 4) as u32;
                let seed = (salt * 1000.0) as u32 + r as u32 * 7919;
                let data: Vec<u8> = (0..words)
                    .flat_map(|i| hash32(i ^ hash32(seed)).to_le_bytes())
                    .collect();
                gpu.queue.write_buffer(buffer, 0, &data);
            }
            None => {}
        }
    }
    gpu.queue.submit([encoder.finish()]);
}

//! The descriptors every app writes the same way: textures of one mip and sample, pipeline
//! stages with the default compilation options, bind groups numbered in order, and render-pass
//! attachments that clear or load and store. Only wgpu's own types: the apps stay ordinary wgpu
//! code.

use wgpu::util::DeviceExt;

/// The clear colour of wgpu's examples and learn-wgpu's tutorials.
pub const CLEAR_COLOR: wgpu::Color = wgpu::Color {
    r: 0.1,
    g: 0.2,
    b: 0.3,
    a: 1.0,
};

/// A 2D texture of `size` with one mip level and one sample; set other fields with
/// `wgpu::TextureDescriptor { .., ..texture_desc(..) }`.
pub fn texture_desc<'a>(
    label: Option<&'a str>,
    size: wgpu::Extent3d,
    format: wgpu::TextureFormat,
    usage: wgpu::TextureUsages,
) -> wgpu::TextureDescriptor<'a> {
    wgpu::TextureDescriptor {
        label,
        size,
        mip_level_count: 1,
        sample_count: 1,
        dimension: wgpu::TextureDimension::D2,
        format,
        usage,
        view_formats: &[],
    }
}

/// A buffer holding `contents`, unlabelled.
pub fn buffer_init(
    device: &wgpu::Device,
    contents: &[u8],
    usage: wgpu::BufferUsages,
) -> wgpu::Buffer {
    device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
        label: None,
        contents,
        usage,
    })
}

/// An unlabelled bind group of `layout` whose binding `i` is `resources[i]`.
pub fn bind_group(
    device: &wgpu::Device,
    layout: &wgpu::BindGroupLayout,
    resources: &[wgpu::BindingResource<'_>],
) -> wgpu::BindGroup {
    let entries: Vec<_> = (0u32..)
        .zip(resources)
        .map(|(binding, resource)| wgpu::BindGroupEntry {
            binding,
            resource: resource.clone(),
        })
        .collect();
    device.create_bind_group(&wgpu::BindGroupDescriptor {
        label: None,
        layout,
        entries: &entries,
    })
}

/// The vertex stage running `entry` of `module` over `buffers`.
pub fn vertex_stage<'a>(
    module: &'a wgpu::ShaderModule,
    entry: &'a str,
    buffers: &'a [Option<wgpu::VertexBufferLayout<'a>>],
) -> wgpu::VertexState<'a> {
    wgpu::VertexState {
        module,
        entry_point: Some(entry),
        compilation_options: Default::default(),
        buffers,
    }
}

/// The fragment stage running `entry` of `module` into `targets`.
pub fn fragment_stage<'a>(
    module: &'a wgpu::ShaderModule,
    entry: &'a str,
    targets: &'a [Option<wgpu::ColorTargetState>],
) -> Option<wgpu::FragmentState<'a>> {
    Some(wgpu::FragmentState {
        module,
        entry_point: Some(entry),
        compilation_options: Default::default(),
        targets,
    })
}

/// A pipeline of `vertex` and `fragment` with the default primitive state, no depth, one
/// sample; set other fields with `wgpu::RenderPipelineDescriptor { .., ..pipeline_desc(..) }`.
pub fn pipeline_desc<'a>(
    label: Option<&'a str>,
    layout: Option<&'a wgpu::PipelineLayout>,
    vertex: wgpu::VertexState<'a>,
    fragment: Option<wgpu::FragmentState<'a>>,
) -> wgpu::RenderPipelineDescriptor<'a> {
    wgpu::RenderPipelineDescriptor {
        label,
        layout,
        vertex,
        fragment,
        primitive: Default::default(),
        depth_stencil: None,
        multisample: Default::default(),
        multiview_mask: None,
        cache: None,
    }
}

/// A colour attachment of `view` (no resolve) loaded with `load` and stored.
pub fn color_target(
    view: &wgpu::TextureView,
    load: wgpu::LoadOp<wgpu::Color>,
) -> Option<wgpu::RenderPassColorAttachment<'_>> {
    Some(wgpu::RenderPassColorAttachment {
        view,
        depth_slice: None,
        resolve_target: None,
        ops: wgpu::Operations {
            load,
            store: wgpu::StoreOp::Store,
        },
    })
}

/// A depth attachment of `view` cleared to 1.0, its depth then kept or dropped by `store`; no
/// stencil.
pub fn depth_target(
    view: &wgpu::TextureView,
    store: wgpu::StoreOp,
) -> Option<wgpu::RenderPassDepthStencilAttachment<'_>> {
    Some(wgpu::RenderPassDepthStencilAttachment {
        view,
        depth_ops: Some(wgpu::Operations {
            load: wgpu::LoadOp::Clear(1.0),
            store,
        }),
        stencil_ops: None,
    })
}

/// A render pass labelled `label` over `colors` and `depth`.
pub fn render_pass<'e>(
    encoder: &'e mut wgpu::CommandEncoder,
    label: &str,
    colors: &[Option<wgpu::RenderPassColorAttachment<'_>>],
    depth: Option<wgpu::RenderPassDepthStencilAttachment<'_>>,
) -> wgpu::RenderPass<'e> {
    encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
        label: Some(label),
        color_attachments: colors,
        depth_stencil_attachment: depth,
        ..Default::default()
    })
}

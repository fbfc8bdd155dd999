//! Start-up probes: adapter behaviour the executor works around, found by trying it once.

use crate::context::Views;

/// Whether the device resolves a multiview render pass over layers of a multisampled array that
/// start past layer 0 into the right layers. lavapipe does not: it resolves nothing into them.
/// Probed with a pass that clears layers 1..3 of a 4× array of three layers and resolves them
/// into a two-layer target, read back. Returns `true` where the probe cannot run (nothing to
/// work around then: such passes are recorded per view anyway).
pub(super) fn multiview_msaa_resolves_past_layer_0(
    device: &wgpu::Device,
    queue: &wgpu::Queue,
) -> bool {
    const SIZE: u32 = 4;
    const RED: [u8; 4] = [255, 0, 0, 255];
    let scope = device.push_error_scope(wgpu::ErrorFilter::Validation);
    let texture = |label, layers, samples, usage| {
        device.create_texture(&wgpu::TextureDescriptor {
            label: Some(label),
            size: wgpu::Extent3d {
                width: SIZE,
                height: SIZE,
                depth_or_array_layers: layers,
            },
            mip_level_count: 1,
            sample_count: samples,
            dimension: wgpu::TextureDimension::D2,
            format: wgpu::TextureFormat::Rgba8Unorm,
            usage,
            view_formats: &[],
        })
    };
    let attach = wgpu::TextureUsages::RENDER_ATTACHMENT;
    let msaa = texture("tilegraph probe: msaa", 3, 4, attach);
    let target = texture(
        "tilegraph probe: resolve",
        2,
        1,
        attach | wgpu::TextureUsages::COPY_SRC,
    );
    let array = |t: &wgpu::Texture, base| {
        t.create_view(&wgpu::TextureViewDescriptor {
            dimension: Some(wgpu::TextureViewDimension::D2Array),
            base_array_layer: base,
            array_layer_count: Some(2),
            ..Default::default()
        })
    };
    let (msaa_view, target_view) = (array(&msaa, 1), array(&target, 0));
    let row = wgpu::COPY_BYTES_PER_ROW_ALIGNMENT;
    let buffer = read_back_buffer(device, u64::from(row * SIZE * 2));
    let mut encoder = device.create_command_encoder(&Default::default());
    drop(encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
        label: Some("tilegraph probe: multiview resolve past layer 0"),
        color_attachments: &[Some(wgpu::RenderPassColorAttachment {
            view: &msaa_view,
            depth_slice: None,
            resolve_target: Some(&target_view),
            ops: wgpu::Operations {
                load: wgpu::LoadOp::Clear(wgpu::Color::RED),
                store: wgpu::StoreOp::Discard,
            },
        })],
        multiview_mask: Views::Multiview { count: 2 }.multiview_mask(),
        ..Default::default()
    }));
    let extent = wgpu::Extent3d {
        width: SIZE,
        height: SIZE,
        depth_or_array_layers: 2,
    };
    copy_rows(&mut encoder, &target, &buffer, extent);
    let Some(data) = submit_and_read(device, queue, scope, encoder, &buffer) else {
        return true;
    };
    data.chunks(row as usize)
        .all(|line| line[..(SIZE * 4) as usize].chunks(4).all(|t| t == RED))
}

/// Submits a probe's commands and reads `buffer` back; `None` where wgpu reported a validation
/// error in `scope` or the read-back failed (the probe then cannot tell).
pub(super) fn submit_and_read(
    device: &wgpu::Device,
    queue: &wgpu::Queue,
    scope: wgpu::ErrorScopeGuard,
    encoder: wgpu::CommandEncoder,
    buffer: &wgpu::Buffer,
) -> Option<Vec<u8>> {
    queue.submit([encoder.finish()]);
    if pollster::block_on(scope.pop()).is_some() {
        return None;
    }
    let (tx, rx) = std::sync::mpsc::channel();
    buffer.map_async(wgpu::MapMode::Read, .., move |r| {
        let _ = tx.send(r);
    });
    if device.poll(wgpu::PollType::wait_indefinitely()).is_err() || !matches!(rx.recv(), Ok(Ok(())))
    {
        return None;
    }
    let data = buffer.get_mapped_range(..).ok()?.to_vec();
    buffer.unmap();
    Some(data)
}

/// A full-screen pipeline (a probe's, a read-back's draw): `source`'s vertex stage `vs` (no
/// vertex buffers) and fragment stage `fs` into one `format` target, with the shader's own layout.
pub(crate) fn pipeline(
    device: &wgpu::Device,
    label: &str,
    source: &str,
    format: wgpu::TextureFormat,
) -> wgpu::RenderPipeline {
    let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
        label: Some(label),
        source: wgpu::ShaderSource::Wgsl(source.into()),
    });
    device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
        label: Some(label),
        layout: None,
        vertex: wgpu::VertexState {
            module: &module,
            entry_point: Some("vs"),
            compilation_options: Default::default(),
            buffers: &[],
        },
        fragment: Some(wgpu::FragmentState {
            module: &module,
            entry_point: Some("fs"),
            compilation_options: Default::default(),
            targets: &[Some(format.into())],
        }),
        primitive: Default::default(),
        depth_stencil: None,
        multisample: Default::default(),
        multiview_mask: None,
        cache: None,
    })
}

/// One full-screen triangle of a [`pipeline`] with bind group 0, cleared to transparent first.
pub(crate) struct FullScreenDraw<'d> {
    pub label: &'d str,
    pub pipeline: &'d wgpu::RenderPipeline,
    pub group: &'d wgpu::BindGroup,
}

impl FullScreenDraw<'_> {
    /// Records the draw into `target` in a render pass of its own.
    pub(crate) fn record(&self, encoder: &mut wgpu::CommandEncoder, target: &wgpu::TextureView) {
        let mut pass = cleared_pass(encoder, self.label, target);
        pass.set_pipeline(self.pipeline);
        pass.set_bind_group(0, self.group, &[]);
        pass.draw(0..3, 0..1);
    }
}

/// A render pass into `target` alone, cleared to transparent and stored.
pub(super) fn cleared_pass<'e>(
    encoder: &'e mut wgpu::CommandEncoder,
    label: &str,
    target: &wgpu::TextureView,
) -> wgpu::RenderPass<'e> {
    encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
        label: Some(label),
        color_attachments: &[Some(wgpu::RenderPassColorAttachment {
            view: target,
            depth_slice: None,
            resolve_target: None,
            ops: wgpu::Operations {
                load: wgpu::LoadOp::Clear(wgpu::Color::TRANSPARENT),
                store: wgpu::StoreOp::Store,
            },
        })],
        ..Default::default()
    })
}

/// What a draw reads through the bindings of one bind group, where the adapter gets it wrong.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(in crate::execute) struct BindingDefects {
    /// Every texture a draw reads is the one at the first texture binding.
    pub textures: bool,
    /// Every uniform buffer a draw reads is the one at the first uniform binding.
    pub uniforms: bool,
}

/// What the probe draw wrote into its one texel: textures 0 and 1 hold red and green, uniform
/// buffers 0 and 1 hold 0.25 and 0.75, and the draw writes `(t0.r, t1.g, u1, u0)`.
fn binding_defects_of(texel: [u8; 4]) -> BindingDefects {
    let near = |v: u8, want: u8| v.abs_diff(want) <= 2;
    BindingDefects {
        // The second texture read as the first: red's green channel, 0.
        textures: !near(texel[1], 255),
        // The second uniform buffer read as the first: 0.25 where 0.75 belongs.
        uniforms: !near(texel[2], 191),
    }
}

const BINDINGS_PROBE: &str = r"
@group(0) @binding(0) var t0: texture_2d<f32>;
@group(0) @binding(1) var t1: texture_2d<f32>;
@group(0) @binding(2) var<uniform> u0: vec4f;
@group(0) @binding(3) var<uniform> u1: vec4f;
@vertex fn vs(@builtin(vertex_index) i: u32) -> @builtin(position) vec4f {
    let uv = vec2f(f32((i << 1u) & 2u), f32(i & 2u));
    return vec4f(uv * 2.0 - 1.0, 0.0, 1.0);
}
@fragment fn fs() -> @location(0) vec4f {
    let a = textureLoad(t0, vec2i(0, 0), 0);
    let b = textureLoad(t1, vec2i(0, 0), 0);
    return vec4f(a.r, b.g, u1.x, u0.x);
}
";

/// Whether a draw that reads two textures (or two uniform buffers) of one bind group reads each
/// from its own binding. wgpu's GL backend on a desktop GL 3.3 context whose driver lists
/// compute shaders (NVIDIA's through EGL) leaves every sampler and uniform block of a shader on
/// binding point 0, so the draw reads the first one twice. Probed with one 1×1 draw, read back;
/// no defect where the probe cannot run.
pub(super) fn binding_defects(device: &wgpu::Device, queue: &wgpu::Queue) -> BindingDefects {
    let scope = device.push_error_scope(wgpu::ErrorFilter::Validation);
    let format = wgpu::TextureFormat::Rgba8Unorm;
    let out = texel(
        device,
        queue,
        "tilegraph probe: bindings",
        [0; 4],
        wgpu::TextureUsages::RENDER_ATTACHMENT
            | wgpu::TextureUsages::COPY_SRC
            | wgpu::TextureUsages::COPY_DST,
    );
    let pipeline = pipeline(device, "tilegraph probe: bindings", BINDINGS_PROBE, format);
    let out_view = out.create_view(&Default::default());
    let group = bindings_probe_group(device, queue, &pipeline.get_bind_group_layout(0));
    let row = wgpu::COPY_BYTES_PER_ROW_ALIGNMENT;
    let buffer = read_back_buffer(device, u64::from(row));
    let mut encoder = device.create_command_encoder(&Default::default());
    let draw = FullScreenDraw {
        label: "tilegraph probe: bindings",
        pipeline: &pipeline,
        group: &group,
    };
    draw.record(&mut encoder, &out_view);
    copy_rows(&mut encoder, &out, &buffer, wgpu::Extent3d::default());
    match submit_and_read(device, queue, scope, encoder, &buffer) {
        Some(data) => binding_defects_of([data[0], data[1], data[2], data[3]]),
        None => BindingDefects::default(),
    }
}

/// A 1×1 `Rgba8Unorm` texture holding `rgba`.
fn texel(
    device: &wgpu::Device,
    queue: &wgpu::Queue,
    label: &str,
    rgba: [u8; 4],
    usage: wgpu::TextureUsages,
) -> wgpu::Texture {
    let t = device.create_texture(&wgpu::TextureDescriptor {
        label: Some(label),
        size: wgpu::Extent3d::default(),
        mip_level_count: 1,
        sample_count: 1,
        dimension: wgpu::TextureDimension::D2,
        format: wgpu::TextureFormat::Rgba8Unorm,
        usage,
        view_formats: &[],
    });
    queue.write_texture(
        t.as_image_copy(),
        &rgba,
        wgpu::TexelCopyBufferLayout::default(),
        wgpu::Extent3d::default(),
    );
    t
}

/// The bindings probe's bind group: textures red and green, uniform buffers of 0.25 and 0.75.
fn bindings_probe_group(
    device: &wgpu::Device,
    queue: &wgpu::Queue,
    layout: &wgpu::BindGroupLayout,
) -> wgpu::BindGroup {
    let uniform = |label, x: f32| {
        let b = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some(label),
            size: 16,
            usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let bytes: Vec<u8> = [x, 0.0, 0.0, 0.0]
            .iter()
            .flat_map(|f| f.to_le_bytes())
            .collect();
        queue.write_buffer(&b, 0, &bytes);
        b
    };
    let (u0, u1) = (
        uniform("tilegraph probe: u0", 0.25),
        uniform("tilegraph probe: u1", 0.75),
    );
    let sampled = wgpu::TextureUsages::TEXTURE_BINDING | wgpu::TextureUsages::COPY_DST;
    let red = texel(
        device,
        queue,
        "tilegraph probe: red",
        [255, 0, 0, 255],
        sampled,
    );
    let green = texel(
        device,
        queue,
        "tilegraph probe: green",
        [0, 255, 0, 255],
        sampled,
    );
    let view = |t: &wgpu::Texture| t.create_view(&Default::default());
    let (red_view, green_view) = (view(&red), view(&green));
    device.create_bind_group(&wgpu::BindGroupDescriptor {
        label: Some("tilegraph probe: bindings"),
        layout,
        entries: &[
            wgpu::BindGroupEntry {
                binding: 0,
                resource: wgpu::BindingResource::TextureView(&red_view),
            },
            wgpu::BindGroupEntry {
                binding: 1,
                resource: wgpu::BindingResource::TextureView(&green_view),
            },
            wgpu::BindGroupEntry {
                binding: 2,
                resource: u0.as_entire_binding(),
            },
            wgpu::BindGroupEntry {
                binding: 3,
                resource: u1.as_entire_binding(),
            },
        ],
    })
}

/// A buffer of `size` bytes a probe copies into and maps.
fn read_back_buffer(device: &wgpu::Device, size: u64) -> wgpu::Buffer {
    device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("tilegraph probe: read back"),
        size,
        usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    })
}

/// Copies `extent` of mip 0 of `texture` into `buffer`, rows
/// [`wgpu::COPY_BYTES_PER_ROW_ALIGNMENT`] apart, layers `extent.height` rows apart.
fn copy_rows(
    encoder: &mut wgpu::CommandEncoder,
    texture: &wgpu::Texture,
    buffer: &wgpu::Buffer,
    extent: wgpu::Extent3d,
) {
    encoder.copy_texture_to_buffer(
        texture.as_image_copy(),
        wgpu::TexelCopyBufferInfo {
            buffer,
            layout: wgpu::TexelCopyBufferLayout {
                offset: 0,
                bytes_per_row: Some(wgpu::COPY_BYTES_PER_ROW_ALIGNMENT),
                rows_per_image: Some(extent.height),
            },
        },
        extent,
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bindings_probe_reads_which_binding_each_read_reached() {
        let right = binding_defects_of([255, 255, 191, 64]);
        assert_eq!(right, BindingDefects::default());
        // Both textures read from binding 0 (red twice), the uniforms right.
        let textures = binding_defects_of([255, 0, 191, 64]);
        assert!(textures.textures && !textures.uniforms);
        // Both uniform blocks read from binding 0 (0.25 twice).
        let uniforms = binding_defects_of([255, 255, 64, 64]);
        assert!(!uniforms.textures && uniforms.uniforms);
        // Rounding of 0.75 to 8 bits either way is no defect.
        assert_eq!(
            binding_defects_of([255, 254, 192, 64]),
            BindingDefects::default()
        );
    }
}

//! The post-processing frame: a ray-traced HDR scene rendered with a jittered camera, temporal
//! anti-aliasing into a graph-owned history texture, bloom down and up the mips of one texture,
//! and a tonemap to the output.
//!
//! Shared by the `post` example and its GPU test.

use bytemuck::{Pod, Zeroable};
use glam::{Mat4, Vec3};
use tilegraph::helpers::{BindGroupCache, FullscreenPipeline, RelativeSize, Scale, mip_count};
use tilegraph::wgpu;
use tilegraph::{Access, History, Import, RenderGraph, TextureDesc, TextureHandle};

use crate::setup::uniform_buffer;

pub const HDR_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba16Float;
pub const MOTION_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rg16Float;
/// At most this many bloom mips, the smallest no less than 8 texels on its shorter edge.
pub const MAX_BLOOM_MIPS: u32 = 6;

/// `Camera` in scene.wgsl.
#[repr(C)]
#[derive(Clone, Copy, Pod, Zeroable)]
struct CameraUniform {
    inv_view_proj: [[f32; 4]; 4],
    prev_view_proj: [[f32; 4]; 4],
    eye: [f32; 4],
    jitter: [f32; 4],
}

/// The `i`-th point of the Halton sequence in base `base`, in [0, 1).
fn halton(mut i: u32, base: u32) -> f32 {
    let (mut f, mut r) = (1.0, 0.0);
    while i > 0 {
        f /= base as f32;
        r += f * (i % base) as f32;
        i /= base;
    }
    r
}

/// The frame's pipelines, sampler and uniforms, and the bind groups made from them.
pub struct PostFrame {
    output_format: wgpu::TextureFormat,
    scene: FullscreenPipeline,
    taa: FullscreenPipeline,
    prefilter: FullscreenPipeline,
    down: FullscreenPipeline,
    up: FullscreenPipeline,
    tonemap: FullscreenPipeline,
    sampler: wgpu::Sampler,
    camera: wgpu::Buffer,
    /// TAA's flag: whether the history is valid this frame, written by the pass.
    taa_params: wgpu::Buffer,
    binds: BindGroupCache,
    /// Last frame's view-projection (unjittered), for reprojection.
    prev_view_proj: Option<Mat4>,
}

/// The graph handles of a declared frame.
#[derive(Debug, Clone, Copy)]
pub struct PostHandles {
    pub output: TextureHandle,
    pub history: History,
    pub bloom: TextureHandle,
    pub bloom_mips: u32,
}

impl PostFrame {
    pub fn new(device: &wgpu::Device, output_format: wgpu::TextureFormat) -> Self {
        let scene_src = include_str!("../../shaders/post/scene.wgsl");
        let taa_src = include_str!("../../shaders/post/taa.wgsl");
        let bloom_src = include_str!("../../shaders/post/bloom.wgsl");
        let tonemap_src = &[
            include_str!("../../shaders/srgb.wgsl"),
            include_str!("../../shaders/post/tonemap.wgsl"),
        ]
        .concat();
        let additive = wgpu::BlendComponent {
            src_factor: wgpu::BlendFactor::One,
            dst_factor: wgpu::BlendFactor::One,
            operation: wgpu::BlendOperation::Add,
        };
        let up_target = wgpu::ColorTargetState {
            format: HDR_FORMAT,
            blend: Some(wgpu::BlendState {
                color: additive,
                alpha: additive,
            }),
            write_mask: wgpu::ColorWrites::ALL,
        };
        let scene_targets = [Some(HDR_FORMAT.into()), Some(MOTION_FORMAT.into())];
        let tonemap_entry = if output_format.is_srgb() {
            "fs_linear"
        } else {
            "fs_encode"
        };
        PostFrame {
            output_format,
            scene: FullscreenPipeline::new(device, "scene", scene_src, "fs_main", &scene_targets),
            taa: FullscreenPipeline::single(device, "taa", taa_src, "fs_main", HDR_FORMAT),
            prefilter: FullscreenPipeline::single(
                device,
                "bloom prefilter",
                bloom_src,
                "fs_prefilter",
                HDR_FORMAT,
            ),
            down: FullscreenPipeline::single(
                device,
                "bloom down",
                bloom_src,
                "fs_down",
                HDR_FORMAT,
            ),
            up: FullscreenPipeline::new(device, "bloom up", bloom_src, "fs_up", &[Some(up_target)]),
            tonemap: FullscreenPipeline::single(
                device,
                "tonemap",
                tonemap_src,
                tonemap_entry,
                output_format,
            ),
            sampler: device.create_sampler(&wgpu::SamplerDescriptor {
                label: Some("post linear clamp"),
                mag_filter: wgpu::FilterMode::Linear,
                min_filter: wgpu::FilterMode::Linear,
                ..Default::default()
            }),
            camera: uniform_buffer(device, "post camera", size_of::<CameraUniform>() as u64),
            taa_params: uniform_buffer(device, "post taa", 16),
            binds: BindGroupCache::new(),
            prev_view_proj: None,
        }
    }

    /// The bind-group cache (its counters show warm frames making none).
    pub fn binds(&self) -> &BindGroupCache {
        &self.binds
    }

    /// Uploads frame `frame`'s camera: orbiting with `time`, jittered by the Halton (2, 3)
    /// sequence, with last frame's view-projection for reprojection.
    pub fn update(&mut self, queue: &wgpu::Queue, size: (u32, u32), frame: u32, time: f32) {
        let angle = 0.5 + 0.25 * time;
        let eye = Vec3::new(angle.cos() * 8.5, 3.2, angle.sin() * 8.5);
        let view = Mat4::look_at_rh(eye, Vec3::new(0.0, 0.9, 0.0), Vec3::Y);
        let aspect = size.0 as f32 / size.1.max(1) as f32;
        let view_proj = Mat4::perspective_rh(0.9, aspect, 0.1, 100.0) * view;
        let n = frame % 8 + 1;
        let jitter = [
            (halton(n, 2) - 0.5) * 2.0 / size.0 as f32,
            (halton(n, 3) - 0.5) * 2.0 / size.1 as f32,
        ];
        let prev = self.prev_view_proj.replace(view_proj).unwrap_or(view_proj);
        let camera = CameraUniform {
            inv_view_proj: view_proj.inverse().to_cols_array_2d(),
            prev_view_proj: prev.to_cols_array_2d(),
            eye: eye.extend(1.0).to_array(),
            jitter: [jitter[0], jitter[1], time, 0.0],
        };
        queue.write_buffer(&self.camera, 0, bytemuck::bytes_of(&camera));
    }

    /// After a frame: bind groups unused for a few frames (a resize) are dropped.
    pub fn end_frame(&mut self) {
        self.binds.next_frame();
    }

    /// Declares the frame at `size`.
    pub fn declare(&mut self, size: (u32, u32)) -> (RenderGraph<'_>, PostHandles) {
        let this = &*self;
        let (binds, sampler) = (&this.binds, &this.sampler);
        let mut graph = RenderGraph::with_capacity(8, 16);
        let output = graph.import_texture(
            "output",
            TextureDesc::new(this.output_format, size.0, size.1),
            Import::OUTPUT,
        );
        let hdr = graph.create_texture_relative("hdr", HDR_FORMAT, output, Scale::FULL);
        let motion = graph.create_texture_relative("motion", MOTION_FORMAT, output, Scale::FULL);
        let history = graph.history_texture("taa", TextureDesc::new(HDR_FORMAT, size.0, size.1));
        let half = graph
            .scaled_size(output, 1, 2)
            .expect("the output is this graph's");
        let mips = mip_count(half.0, half.1, 8).min(MAX_BLOOM_MIPS);
        let bloom = graph.create_texture(
            "bloom",
            TextureDesc::new(HDR_FORMAT, half.0, half.1).mips(mips),
        );

        // Ray traced: a full-screen triangle writes every pixel of both targets. Each pass
        // declares its bind group with its reads (`bound()`): one name per resource.
        graph
            .add_render_pass("scene")
            .color(hdr, Access::Write)
            .color(motion, Access::Write)
            .bound()
            .bind(&this.camera)
            .execute(move |pass, ctx, bindings| this.scene.draw(pass, ctx, binds, bindings));
        let previous = history.previous;
        graph
            .add_render_pass("taa")
            .color(history.current, Access::Write)
            .bound()
            .bind(&this.taa_params)
            .sample(hdr)
            .sample(motion)
            .sample(previous)
            .bind(sampler)
            .execute(move |pass, ctx, bindings| {
                // The graph knows whether the history survived (first frame, resize).
                let valid = if ctx.history_valid(previous) {
                    1.0f32
                } else {
                    0.0
                };
                let flag = [valid, 0.0, 0.0, 0.0];
                ctx.queue()
                    .write_buffer(&this.taa_params, 0, bytemuck::bytes_of(&flag));
                this.taa.draw(pass, ctx, binds, bindings)
            });
        let resolved = history.current;
        graph
            .add_render_pass("bloom_prefilter")
            .color(bloom.mip(0), Access::Write)
            .bound()
            .sample(resolved)
            .bind(sampler)
            .execute(move |pass, ctx, bindings| this.prefilter.draw(pass, ctx, binds, bindings));
        for mip in 1..mips {
            graph
                .add_render_pass(&format!("bloom_down_{mip}"))
                .color(bloom.mip(mip), Access::Write)
                .bound()
                .sample(bloom.mip(mip - 1))
                .bind(sampler)
                .execute(move |pass, ctx, bindings| this.down.draw(pass, ctx, binds, bindings));
        }
        // Up the chain: each mip adds the (already summed) smaller one onto its own downsample.
        for mip in (0..mips.saturating_sub(1)).rev() {
            graph
                .add_render_pass(&format!("bloom_up_{mip}"))
                .color(bloom.mip(mip), Access::ReadWrite)
                .bound()
                .sample(bloom.mip(mip + 1))
                .bind(sampler)
                .execute(move |pass, ctx, bindings| this.up.draw(pass, ctx, binds, bindings));
        }
        graph
            .add_render_pass("tonemap")
            .color(output, Access::Write)
            .bound()
            .sample(resolved)
            .sample(bloom.mip(0))
            .bind(sampler)
            .execute(move |pass, ctx, bindings| this.tonemap.draw(pass, ctx, binds, bindings));
        (
            graph,
            PostHandles {
                output,
                history,
                bloom,
                bloom_mips: mips,
            },
        )
    }
}

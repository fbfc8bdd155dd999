//! The cubemap frame: an environment captured into the six layers of a cube texture
//! (`cube.layer(face)`), its mips filtered face by face (`cube.subresource(mip, face)`), then
//! reflective spheres that sample it through a cube view.
//!
//! Shared by the `cubemap` example and its GPU test.

use bytemuck::{Pod, Zeroable};
use glam::{Mat4, Vec3};
use tilegraph::helpers::{BindGroupCache, Binding, FullscreenPipeline, mip_count};
use tilegraph::wgpu;
use tilegraph::{Access, Import, RenderGraph, TextureDesc, TextureHandle};

use crate::setup::{index_uniform, uniform_buffer};

pub const CUBE_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba16Float;
pub const CUBE_SIZE: u32 = 256;
pub const FACES: u32 = 6;

/// `View` in shade.wgsl.
#[repr(C)]
#[derive(Clone, Copy, Pod, Zeroable)]
struct ViewUniform {
    inv_view_proj: [[f32; 4]; 4],
    eye: [f32; 4],
    mips: [f32; 4],
}

/// The frame's pipelines, uniforms and bind groups.
pub struct CubemapFrame {
    output_format: wgpu::TextureFormat,
    mips: u32,
    capture: FullscreenPipeline,
    downsample: FullscreenPipeline,
    shade: FullscreenPipeline,
    /// One uniform per face: its index.
    faces: Vec<wgpu::Buffer>,
    view: wgpu::Buffer,
    sampler: wgpu::Sampler,
    binds: BindGroupCache,
}

/// The graph handles of a declared frame.
#[derive(Debug, Clone, Copy)]
pub struct CubemapHandles {
    pub output: TextureHandle,
    pub cube: TextureHandle,
}

impl CubemapFrame {
    pub fn new(device: &wgpu::Device, output_format: wgpu::TextureFormat) -> Self {
        let common = include_str!("../../shaders/cubemap/common.wgsl");
        let source = |body: &str| [common, body].concat();
        let entry = if output_format.is_srgb() {
            "fs_linear"
        } else {
            "fs_encode"
        };
        CubemapFrame {
            output_format,
            mips: mip_count(CUBE_SIZE, CUBE_SIZE, 8),
            capture: FullscreenPipeline::single(
                device,
                "capture",
                &source(include_str!("../../shaders/cubemap/capture.wgsl")),
                "fs_main",
                CUBE_FORMAT,
            ),
            downsample: FullscreenPipeline::single(
                device,
                "downsample",
                &source(include_str!("../../shaders/cubemap/downsample.wgsl")),
                "fs_main",
                CUBE_FORMAT,
            ),
            shade: FullscreenPipeline::single(
                device,
                "shade",
                &[
                    include_str!("../../shaders/srgb.wgsl"),
                    include_str!("../../shaders/cubemap/shade.wgsl"),
                ]
                .concat(),
                entry,
                output_format,
            ),
            faces: (0..FACES)
                .map(|face| index_uniform(device, "cube face", face))
                .collect(),
            view: uniform_buffer(device, "cubemap view", size_of::<ViewUniform>() as u64),
            sampler: device.create_sampler(&wgpu::SamplerDescriptor {
                label: Some("cubemap linear"),
                mag_filter: wgpu::FilterMode::Linear,
                min_filter: wgpu::FilterMode::Linear,
                mipmap_filter: wgpu::MipmapFilterMode::Linear,
                ..Default::default()
            }),
            binds: BindGroupCache::new(),
        }
    }

    pub fn binds(&self) -> &BindGroupCache {
        &self.binds
    }

    /// Uploads the camera, orbiting the spheres with `time`.
    pub fn update(&mut self, queue: &wgpu::Queue, size: (u32, u32), time: f32) {
        let angle = 1.2 + 0.2 * time;
        let eye = Vec3::new(angle.cos() * 8.0, 2.6, angle.sin() * 8.0);
        let view = Mat4::look_at_rh(eye, Vec3::ZERO, Vec3::Y);
        let aspect = size.0 as f32 / size.1.max(1) as f32;
        let view_proj = Mat4::perspective_rh(0.9, aspect, 0.1, 100.0) * view;
        let uniform = ViewUniform {
            inv_view_proj: view_proj.inverse().to_cols_array_2d(),
            eye: eye.extend(1.0).to_array(),
            mips: [self.mips as f32, 0.0, 0.0, 0.0],
        };
        queue.write_buffer(&self.view, 0, bytemuck::bytes_of(&uniform));
    }

    pub fn end_frame(&mut self) {
        self.binds.next_frame();
    }

    /// Declares the frame at `size`.
    pub fn declare(&mut self, size: (u32, u32)) -> (RenderGraph<'_>, CubemapHandles) {
        let this = &*self;
        let (binds, sampler) = (&this.binds, &this.sampler);
        let mut graph = RenderGraph::with_capacity(2, (FACES * this.mips + 1) as usize);
        let output = graph.import_texture(
            "output",
            TextureDesc::new(this.output_format, size.0, size.1),
            Import::OUTPUT,
        );
        let cube = graph.create_texture(
            "cube",
            TextureDesc::new(CUBE_FORMAT, CUBE_SIZE, CUBE_SIZE)
                .layers(FACES)
                .mips(this.mips),
        );
        // Each pass declares its bind group with its reads (`bound()`): one name per resource.
        for face in 0..FACES {
            graph
                .add_render_pass(&format!("capture_{face}"))
                .color(cube.layer(face), Access::Write)
                .bound()
                .bind(&this.faces[face as usize])
                .execute(move |pass, ctx, bindings| this.capture.draw(pass, ctx, binds, bindings));
        }
        for mip in 1..this.mips {
            for face in 0..FACES {
                let uniform = &this.faces[face as usize];
                // Filtering reads the larger mip of every face (across the cube's edges). Each
                // face is declared on its own: GL binds a range of layers only as a whole texture,
                // so the pass binds that mip as a cube itself (the plain builder's way).
                let mut pass = graph.add_render_pass(&format!("mip_{mip}_{face}"));
                for source in 0..FACES {
                    pass = pass.sample(cube.subresource(mip - 1, source));
                }
                pass.color(cube.subresource(mip, face), Access::Write)
                    .execute(move |pass, ctx| {
                        let bindings = [
                            uniform.into(),
                            Binding::MipAs(cube, mip - 1, wgpu::TextureViewDimension::Cube),
                            sampler.into(),
                        ];
                        this.downsample.draw(pass, ctx, binds, &bindings)
                    });
            }
        }
        // The context's whole view of a layered texture is an array; sample a cube.
        graph
            .add_render_pass("shade")
            .color(output, Access::Write)
            .bound()
            .bind(&this.view)
            .sample_as(cube, wgpu::TextureViewDimension::Cube)
            .bind(sampler)
            .execute(move |pass, ctx, bindings| this.shade.draw(pass, ctx, binds, bindings));
        (graph, CubemapHandles { output, cube })
    }
}

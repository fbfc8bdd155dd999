//! The forward frame: three shadow cascades rendered into the layers of one depth array, then
//! 4× MSAA forward shading that samples the array, its colour and depth transient and resolved
//! into the output.
//!
//! Shared by the `forward` example and its GPU test.

use bytemuck::{Pod, Zeroable};
use glam::{Mat4, Vec3, Vec4};
use tilegraph::helpers::{BindGroupCache, Binding};
use tilegraph::wgpu;
use tilegraph::{Access, ClearValue, Import, RenderGraph, TextureDesc, TextureHandle};

use super::scene::{Geometry, Vertex};
use crate::setup::{index_uniform, uniform_buffer};

pub const SHADOW_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Depth32Float;
pub const DEPTH_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Depth32Float;
pub const SHADOW_SIZE: u32 = 1024;
pub const CASCADES: u32 = 3;
pub const SAMPLES: u32 = 4;
/// Where each cascade ends, in view-space distance.
const SPLITS: [f32; 3] = [7.0, 16.0, 45.0];
const NEAR: f32 = 0.1;
const FOV: f32 = 0.8;

/// `Globals` in the shaders.
#[repr(C)]
#[derive(Clone, Copy, Pod, Zeroable)]
struct Globals {
    view_proj: [[f32; 4]; 4],
    view: [[f32; 4]; 4],
    cascades: [[[f32; 4]; 4]; 3],
    splits: [f32; 4],
    sun: [f32; 4],
    eye: [f32; 4],
}

/// A light-space projection that holds the view frustum's slice from `near` to `far`.
fn cascade(view: Mat4, aspect: f32, near: f32, far: f32, sun: Vec3) -> Mat4 {
    let inverse = (Mat4::perspective_rh(FOV, aspect, near, far) * view).inverse();
    let corners: Vec<Vec3> = (0..8)
        .map(|i| {
            let ndc = Vec4::new(
                if i & 1 == 0 { -1.0 } else { 1.0 },
                if i & 2 == 0 { -1.0 } else { 1.0 },
                if i & 4 == 0 { 0.0 } else { 1.0 },
                1.0,
            );
            let p = inverse * ndc;
            p.truncate() / p.w
        })
        .collect();
    let centre = corners.iter().copied().sum::<Vec3>() / 8.0;
    let radius = corners
        .iter()
        .map(|c| c.distance(centre))
        .fold(0.0, f32::max)
        .ceil();
    // Back far enough along the sun that every caster in the scene lies in front.
    let back = 60.0;
    let light = Mat4::look_at_rh(centre + sun * back, centre, Vec3::Y);
    Mat4::orthographic_rh(-radius, radius, -radius, radius, 0.1, back + radius) * light
}

/// The frame's scene, pipelines and uniforms, and the bind groups made from them.
pub struct ForwardFrame {
    output_format: wgpu::TextureFormat,
    vertices: wgpu::Buffer,
    indices: wgpu::Buffer,
    index_count: u32,
    globals: wgpu::Buffer,
    /// One uniform per cascade: its index.
    cascade_index: Vec<wgpu::Buffer>,
    shadow: wgpu::RenderPipeline,
    shadow_layout: wgpu::BindGroupLayout,
    lit: wgpu::RenderPipeline,
    lit_layout: wgpu::BindGroupLayout,
    compare: wgpu::Sampler,
    binds: BindGroupCache,
}

/// The graph handles of a declared frame.
#[derive(Debug, Clone, Copy)]
pub struct ForwardHandles {
    pub output: TextureHandle,
    pub shadow: TextureHandle,
    pub color: TextureHandle,
    pub depth: TextureHandle,
}

const ATTRIBUTES: [wgpu::VertexAttribute; 3] =
    wgpu::vertex_attr_array![0 => Float32x3, 1 => Float32x3, 2 => Float32x3];

impl ForwardFrame {
    pub fn new(
        device: &wgpu::Device,
        output_format: wgpu::TextureFormat,
        geometry: &Geometry,
    ) -> Self {
        use wgpu::util::DeviceExt;
        let init = |label, contents: &[u8], usage| {
            device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
                label: Some(label),
                contents,
                usage,
            })
        };
        let globals = include_str!("../../shaders/forward/globals.wgsl");
        let module = |label, body: &str| {
            device.create_shader_module(wgpu::ShaderModuleDescriptor {
                label: Some(label),
                source: wgpu::ShaderSource::Wgsl([globals, body].concat().into()),
            })
        };
        let shadow_module = module("shadow", include_str!("../../shaders/forward/shadow.wgsl"));
        let lit_source = [
            include_str!("../../shaders/srgb.wgsl"),
            include_str!("../../shaders/forward/lit.wgsl"),
        ];
        let lit_module = module("lit", &lit_source.concat());
        let buffers = [Some(wgpu::VertexBufferLayout {
            array_stride: size_of::<Vertex>() as u64,
            step_mode: wgpu::VertexStepMode::Vertex,
            attributes: &ATTRIBUTES,
        })];
        let depth = |format, bias| {
            Some(wgpu::DepthStencilState {
                format,
                depth_write_enabled: Some(true),
                depth_compare: Some(wgpu::CompareFunction::Less),
                stencil: Default::default(),
                bias,
            })
        };
        let shadow = device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
            label: Some("shadow"),
            layout: None,
            vertex: wgpu::VertexState {
                module: &shadow_module,
                entry_point: Some("vs_shadow"),
                compilation_options: Default::default(),
                buffers: &buffers,
            },
            primitive: Default::default(),
            depth_stencil: depth(
                SHADOW_FORMAT,
                wgpu::DepthBiasState {
                    constant: 2,
                    slope_scale: 2.0,
                    clamp: 0.0,
                },
            ),
            multisample: Default::default(),
            fragment: None,
            multiview_mask: None,
            cache: None,
        });
        let lit = device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
            label: Some("lit"),
            layout: None,
            vertex: wgpu::VertexState {
                module: &lit_module,
                entry_point: Some("vs_main"),
                compilation_options: Default::default(),
                buffers: &buffers,
            },
            primitive: Default::default(),
            depth_stencil: depth(DEPTH_FORMAT, Default::default()),
            multisample: wgpu::MultisampleState {
                count: SAMPLES,
                ..Default::default()
            },
            fragment: Some(wgpu::FragmentState {
                module: &lit_module,
                entry_point: Some(if output_format.is_srgb() {
                    "fs_linear"
                } else {
                    "fs_encode"
                }),
                compilation_options: Default::default(),
                targets: &[Some(output_format.into())],
            }),
            multiview_mask: None,
            cache: None,
        });
        ForwardFrame {
            output_format,
            vertices: init(
                "forward vertices",
                bytemuck::cast_slice(&geometry.vertices),
                wgpu::BufferUsages::VERTEX,
            ),
            indices: init(
                "forward indices",
                bytemuck::cast_slice(&geometry.indices),
                wgpu::BufferUsages::INDEX,
            ),
            index_count: geometry.indices.len() as u32,
            globals: uniform_buffer(device, "forward globals", size_of::<Globals>() as u64),
            cascade_index: (0..CASCADES)
                .map(|i| index_uniform(device, "cascade index", i))
                .collect(),
            shadow_layout: shadow.get_bind_group_layout(0),
            shadow,
            lit_layout: lit.get_bind_group_layout(0),
            lit,
            compare: device.create_sampler(&wgpu::SamplerDescriptor {
                label: Some("shadow compare"),
                mag_filter: wgpu::FilterMode::Linear,
                min_filter: wgpu::FilterMode::Linear,
                compare: Some(wgpu::CompareFunction::LessEqual),
                ..Default::default()
            }),
            binds: BindGroupCache::new(),
        }
    }

    pub fn binds(&self) -> &BindGroupCache {
        &self.binds
    }

    /// Uploads the camera (orbiting with `time`) and the cascades that cover its frustum.
    pub fn update(&mut self, queue: &wgpu::Queue, size: (u32, u32), time: f32) {
        let angle = 0.6 + 0.1 * time;
        let eye = Vec3::new(angle.cos() * 16.0, 7.5, angle.sin() * 16.0);
        let view = Mat4::look_at_rh(eye, Vec3::new(0.0, 1.6, 0.0), Vec3::Y);
        let aspect = size.0 as f32 / size.1.max(1) as f32;
        let proj = Mat4::perspective_rh(FOV, aspect, NEAR, SPLITS[2]);
        let sun = Vec3::new(-0.45, 0.8, 0.35).normalize();
        let mut near = NEAR;
        let cascades = SPLITS.map(|far| {
            let m = cascade(view, aspect, near, far, sun);
            near = far;
            m.to_cols_array_2d()
        });
        let globals = Globals {
            view_proj: (proj * view).to_cols_array_2d(),
            view: view.to_cols_array_2d(),
            cascades,
            splits: [SPLITS[0], SPLITS[1], SPLITS[2], 0.0],
            sun: sun.extend(0.0).to_array(),
            eye: eye.extend(1.0).to_array(),
        };
        queue.write_buffer(&self.globals, 0, bytemuck::bytes_of(&globals));
    }

    pub fn end_frame(&mut self) {
        self.binds.next_frame();
    }

    fn draw_scene(&self, pass: &mut wgpu::RenderPass<'_>) {
        pass.set_vertex_buffer(0, self.vertices.slice(..));
        pass.set_index_buffer(self.indices.slice(..), wgpu::IndexFormat::Uint32);
        pass.draw_indexed(0..self.index_count, 0, 0..1);
    }

    /// Declares the frame at `size`.
    pub fn declare(&mut self, size: (u32, u32)) -> (RenderGraph<'_>, ForwardHandles) {
        let this = &*self;
        let binds = &this.binds;
        let (w, h) = size;
        let mut graph = RenderGraph::with_capacity(4, 4);
        let output = graph.import_texture(
            "output",
            TextureDesc::new(this.output_format, w, h),
            Import::OUTPUT,
        );
        let shadow = graph.create_texture(
            "shadow",
            TextureDesc::new(SHADOW_FORMAT, SHADOW_SIZE, SHADOW_SIZE).layers(CASCADES),
        );
        // Cleared to white, a fast-clear value: the fog colour at the horizon.
        let color = graph.create_texture_cleared(
            "msaa_color",
            TextureDesc::new(this.output_format, w, h).samples(SAMPLES),
            ClearValue::Color([1.0; 4]),
        );
        let depth = graph.create_texture(
            "msaa_depth",
            TextureDesc::new(DEPTH_FORMAT, w, h).samples(SAMPLES),
        );
        for i in 0..CASCADES {
            graph
                .add_render_pass(&format!("shadow_{i}"))
                .depth(shadow.layer(i), Access::Clear)
                .execute(move |pass, ctx| {
                    let bindings: [Binding<'_>; 2] = [
                        (&this.globals).into(),
                        (&this.cascade_index[i as usize]).into(),
                    ];
                    let group = binds.bind_group(ctx, &this.shadow_layout, &bindings)?;
                    pass.set_pipeline(&this.shadow);
                    pass.set_bind_group(0, &group, &[]);
                    this.draw_scene(pass);
                    Ok(())
                });
        }
        graph
            .add_render_pass("forward")
            .sample(shadow)
            .color_resolved(color, Access::Clear, output)
            .depth(depth, Access::Clear)
            .execute(move |pass, ctx| {
                // The whole shadow texture: one D2Array view of the three cascades.
                let bindings = [
                    (&this.globals).into(),
                    shadow.into(),
                    (&this.compare).into(),
                ];
                let group = binds.bind_group(ctx, &this.lit_layout, &bindings)?;
                pass.set_pipeline(&this.lit);
                pass.set_bind_group(0, &group, &[]);
                this.draw_scene(pass);
                Ok(())
            });
        (
            graph,
            ForwardHandles {
                output,
                shadow,
                color,
                depth,
            },
        )
    }
}

//! The stereo frame: what a headset renders. Both eyes are drawn in multiview passes into
//! two-layer arrays — forward shading with 4× MSAA resolved per layer, then a per-eye post pass
//! — and a companion window shows both eyes side by side.
//!
//! The graph declares `multiview(2)`; the executor records each such pass as one multiview render
//! pass where the device has multiview, else once per eye. Each closure asks its
//! [`PassContext::views`](tilegraph::PassContext::views) which, and picks the pipeline built for it.
//!
//! Shared by the `stereo` example and its GPU test.

use bytemuck::{Pod, Zeroable};
use glam::{Mat4, Vec3};
use tilegraph::helpers::{
    BindGroupCache, Binding, FullscreenShader, FullscreenViews, ViewPipelines,
};
use tilegraph::wgpu;
use tilegraph::{Access, ClearValue, Import, RenderGraph, TextureDesc, TextureHandle};

use crate::setup::{one_entry_layout, uniform_buffer};

pub const EYES: u32 = 2;
pub const HDR_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba16Float;
pub const EYE_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba8Unorm;
pub const DEPTH_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Depth32Float;
pub const SAMPLES: u32 = 4;
/// The floor and twelve cubes.
const INSTANCES: u32 = 13;

/// `Scene` in scene.wgsl.
#[repr(C)]
#[derive(Clone, Copy, Pod, Zeroable)]
struct SceneUniform {
    view_proj: [[[f32; 4]; 4]; 2],
    light: [f32; 4],
    time: [f32; 4],
}

/// The frame's pipelines, uniforms and bind groups.
pub struct StereoFrame {
    output_format: wgpu::TextureFormat,
    scene: ViewPipelines,
    post: FullscreenViews,
    companion: wgpu::RenderPipeline,
    scene_layout: wgpu::BindGroupLayout,
    texture_layout: wgpu::BindGroupLayout,
    uniform: wgpu::Buffer,
    binds: BindGroupCache,
}

/// The graph handles of a declared frame.
#[derive(Debug, Clone, Copy)]
pub struct StereoHandles {
    pub output: TextureHandle,
    pub msaa: TextureHandle,
    pub depth: TextureHandle,
    pub hdr: TextureHandle,
    pub eyes: TextureHandle,
}

/// Each eye's size for an output of `size`: half its width (rounded up), its height.
pub fn eye_size(size: (u32, u32)) -> (u32, u32) {
    (size.0.div_ceil(2).max(1), size.1.max(1))
}

impl StereoFrame {
    pub fn new(device: &wgpu::Device, output_format: wgpu::TextureFormat) -> Self {
        // Both groups bind one resource at binding 0.
        let single = |label, visibility, ty| one_entry_layout(device, label, visibility, ty);
        let scene_layout = single(
            "stereo scene",
            wgpu::ShaderStages::VERTEX_FRAGMENT,
            wgpu::BindingType::Buffer {
                ty: wgpu::BufferBindingType::Uniform,
                has_dynamic_offset: false,
                min_binding_size: None,
            },
        );
        let texture_layout = single(
            "stereo eyes",
            wgpu::ShaderStages::FRAGMENT,
            wgpu::BindingType::Texture {
                sample_type: wgpu::TextureSampleType::Float { filterable: false },
                view_dimension: wgpu::TextureViewDimension::D2Array,
                multisampled: false,
            },
        );
        let layout = |bind: &wgpu::BindGroupLayout| {
            device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
                label: Some("stereo"),
                bind_group_layouts: &[Some(bind)],
                immediate_size: 0,
            })
        };
        let scene_pipeline_layout = layout(&scene_layout);
        let texture_pipeline_layout = layout(&texture_layout);
        let pipeline = |label: &str,
                        pipeline_layout: &wgpu::PipelineLayout,
                        module: &wgpu::ShaderModule,
                        format: wgpu::TextureFormat,
                        samples: u32,
                        depth: bool,
                        mask: Option<std::num::NonZeroU32>,
                        constants: &[(&str, f64)]| {
            let options = wgpu::PipelineCompilationOptions {
                constants,
                ..Default::default()
            };
            device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
                label: Some(label),
                layout: Some(pipeline_layout),
                vertex: wgpu::VertexState {
                    module,
                    entry_point: Some("vs"),
                    compilation_options: options.clone(),
                    buffers: &[],
                },
                primitive: wgpu::PrimitiveState {
                    cull_mode: depth.then_some(wgpu::Face::Back),
                    ..Default::default()
                },
                depth_stencil: depth.then(|| wgpu::DepthStencilState {
                    format: DEPTH_FORMAT,
                    depth_write_enabled: Some(true),
                    depth_compare: Some(wgpu::CompareFunction::LessEqual),
                    stencil: Default::default(),
                    bias: Default::default(),
                }),
                multisample: wgpu::MultisampleState {
                    count: samples,
                    ..Default::default()
                },
                fragment: Some(wgpu::FragmentState {
                    module,
                    entry_point: Some("fs"),
                    compilation_options: options,
                    targets: &[Some(format.into())],
                }),
                multiview_mask: mask,
                cache: None,
            })
        };
        // One shader for both recordings: its vertex stage takes the eye as
        // `@builtin(view_index)`, which the pipelines of one eye get as a constant.
        let scene = ViewPipelines::new(
            device,
            "stereo scene",
            include_str!("../../shaders/stereo/scene.wgsl"),
            EYES,
            |v| {
                pipeline(
                    "stereo scene",
                    &scene_pipeline_layout,
                    v.module,
                    HDR_FORMAT,
                    SAMPLES,
                    true,
                    v.multiview_mask,
                    v.constants,
                )
            },
        )
        .expect("scene.wgsl's vertex stage takes the view");
        let post = FullscreenViews::from_shader(
            device,
            &FullscreenShader {
                label: "stereo post",
                source: include_str!("../../shaders/stereo/post.wgsl"),
                entry: "fs",
                targets: &[Some(EYE_FORMAT.into())],
            },
            EYES,
        );
        let companion_module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("stereo companion"),
            source: wgpu::ShaderSource::Wgsl(
                include_str!("../../shaders/stereo/companion.wgsl").into(),
            ),
        });
        let encode = if output_format.is_srgb() { 0.0 } else { 1.0 };
        let companion = pipeline(
            "stereo companion",
            &texture_pipeline_layout,
            &companion_module,
            output_format,
            1,
            false,
            None,
            &[("ENCODE_SRGB", encode)],
        );
        StereoFrame {
            output_format,
            scene,
            post,
            companion,
            scene_layout,
            texture_layout,
            uniform: uniform_buffer(device, "stereo scene", size_of::<SceneUniform>() as u64),
            binds: BindGroupCache::new(),
        }
    }

    /// Uploads both eyes' cameras (64 mm apart, the head turning slowly with `time`).
    pub fn update(&mut self, queue: &wgpu::Queue, size: (u32, u32), time: f32) {
        let (w, h) = eye_size(size);
        let aspect = w as f32 / h as f32;
        let yaw = 0.6 + 0.15 * (time * 0.5).sin();
        let head = Vec3::new(yaw.sin() * 5.5, 2.2, yaw.cos() * 5.5);
        let forward = (Vec3::new(0.0, 0.3, 0.0) - head).normalize();
        let right = forward.cross(Vec3::Y).normalize();
        // A little wider than a real head, so the two eyes differ at these sizes.
        let ipd = 0.18;
        let projection = Mat4::perspective_rh(1.1, aspect, 0.1, 50.0);
        let eye = |side: f32| {
            let position = head + right * side * ipd * 0.5;
            (projection * Mat4::look_to_rh(position, forward, Vec3::Y)).to_cols_array_2d()
        };
        let uniform = SceneUniform {
            view_proj: [eye(-1.0), eye(1.0)],
            light: [0.4, 1.0, 0.3, 0.0],
            time: [time, 0.0, 0.0, 0.0],
        };
        queue.write_buffer(&self.uniform, 0, bytemuck::bytes_of(&uniform));
    }

    pub fn end_frame(&mut self) {
        self.binds.next_frame();
    }

    /// Declares the frame at `size` (the companion window's).
    pub fn declare(&mut self, size: (u32, u32)) -> (RenderGraph<'_>, StereoHandles) {
        let this = &*self;
        let binds = &this.binds;
        let (w, h) = eye_size(size);
        let mut graph = RenderGraph::with_capacity(5, 3);
        let output = graph.import_texture(
            "output",
            TextureDesc::new(this.output_format, size.0, size.1),
            Import::OUTPUT,
        );
        let eye_array = |format| TextureDesc::new(format, w, h).layers(EYES);
        let msaa = graph.create_texture_cleared(
            "eyes_msaa",
            eye_array(HDR_FORMAT).samples(SAMPLES),
            ClearValue::Color([0.0, 0.0, 0.0, 1.0]),
        );
        let depth = graph.create_texture_cleared(
            "eyes_depth",
            eye_array(DEPTH_FORMAT).samples(SAMPLES),
            ClearValue::Depth(1.0),
        );
        let hdr = graph.create_texture("eyes_hdr", eye_array(HDR_FORMAT));
        let eyes = graph.create_texture("eyes", eye_array(EYE_FORMAT));
        graph
            .add_render_pass("forward")
            .multiview(EYES)
            .color_resolved(msaa, Access::Clear, hdr)
            .depth(depth, Access::Clear)
            .execute(move |pass, ctx| {
                let group = binds.bind_group(ctx, &this.scene_layout, &[(&this.uniform).into()])?;
                pass.set_pipeline(this.scene.get(ctx.views())?);
                pass.set_bind_group(0, &group, &[]);
                pass.draw(0..36, 0..INSTANCES);
                Ok(())
            });
        graph
            .add_render_pass("post")
            .multiview(EYES)
            .sample(hdr)
            .color(eyes, Access::Write)
            .execute(move |pass, ctx| {
                this.post
                    .draw(pass, ctx, binds, &[Binding::Texture(hdr.into())])
            });
        graph
            .add_render_pass("companion")
            .sample(eyes)
            .color(output, Access::Write)
            .execute(move |pass, ctx| {
                let bindings = [Binding::Texture(eyes.into())];
                let group = binds.bind_group(ctx, &this.texture_layout, &bindings)?;
                pass.set_pipeline(&this.companion);
                pass.set_bind_group(0, &group, &[]);
                pass.draw(0..3, 0..1);
                Ok(())
            });
        let handles = StereoHandles {
            output,
            msaa,
            depth,
            hdr,
            eyes,
        };
        (graph, handles)
    }
}

//! The deferred frame: a procedural scene, its pipelines, and the frame declared as a tilegraph
//! graph — G-buffer, light animation and tiled light culling in compute passes, lighting and
//! transparent glass merged into one render pass, tonemap to the output.
//!
//! Shared by the `deferred` example, its GPU test and the recording benchmark, which also records
//! the same frame by hand ([`DeferredFrame::record_by_hand`]) to measure what the graph costs.
#![allow(dead_code)]

use std::ops::Range;

use bytemuck::{Pod, Zeroable};
use glam::{Mat4, Quat, Vec3};
use tilegraph::BufferHandle;
use tilegraph::prelude::*;
use tilegraph::wgpu;

/// Point lights, animated on the GPU every frame.
pub const LIGHT_COUNT: u32 = 256;
/// Light-mask words per tile (one bit per light).
const MASK_WORDS: u32 = LIGHT_COUNT / 32;
/// Tile edge of the light culling, in pixels.
const TILE_SIZE: u32 = 16;

pub const ALBEDO_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba8Unorm;
pub const NORMAL_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba16Float;
pub const MATERIAL_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rg8Unorm;
pub const DEPTH_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Depth32Float;
pub const HDR_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba16Float;

const LIGHT_BYTES: u64 = 32;

/// How lights reach the lighting and glass shaders.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LightPath {
    /// Lights animated and culled per tile in compute passes, read from storage buffers.
    Storage,
    /// Lights animated on the CPU into a uniform buffer, every light tested at every pixel: for
    /// adapters without compute shaders or fragment-stage storage buffers (desktop GL 3.3).
    Uniform,
}

impl LightPath {
    /// `storage` or `uniform`.
    pub fn as_str(self) -> &'static str {
        match self {
            LightPath::Storage => "storage",
            LightPath::Uniform => "uniform",
        }
    }

    /// Whether the adapter's limits allow the storage path (the shaders must still compile).
    fn fits(self, adapter: &wgpu::Adapter) -> bool {
        let flags = adapter.get_downlevel_capabilities().flags;
        let limits = adapter.limits();
        match self {
            LightPath::Storage => {
                flags.contains(wgpu::DownlevelFlags::COMPUTE_SHADERS)
                    && flags.contains(wgpu::DownlevelFlags::FRAGMENT_STORAGE)
                    && limits.max_storage_buffers_per_shader_stage >= 2
            }
            LightPath::Uniform => {
                limits.max_uniform_buffer_binding_size >= u64::from(LIGHT_COUNT) * LIGHT_BYTES
            }
        }
    }
}

fn shader_source(pass: &str) -> String {
    let common = include_str!("../../shaders/deferred/common.wgsl");
    if pass == "transparent_uniform" {
        let body = include_str!("../../shaders/deferred/transparent.wgsl").replace(
            "var<storage, read> lights: array<Light>;",
            "var<uniform> lights: array<Light, LIGHT_COUNT>;",
        );
        return [common, &body].concat();
    }
    let body = match pass {
        "lighting_uniform" => include_str!("../../shaders/deferred/lighting_uniform.wgsl"),
        "gbuffer" => include_str!("../../shaders/deferred/gbuffer.wgsl"),
        "animate_lights" => include_str!("../../shaders/deferred/animate_lights.wgsl"),
        "light_cull" => include_str!("../../shaders/deferred/light_cull.wgsl"),
        "lighting" => include_str!("../../shaders/deferred/lighting.wgsl"),
        "transparent" => include_str!("../../shaders/deferred/transparent.wgsl"),
        "tonemap" => include_str!("../../shaders/deferred/tonemap.wgsl"),
        _ => unreachable!("every pass has a shader"),
    };
    [common, body].concat()
}

/// `Camera` in common.wgsl.
#[repr(C)]
#[derive(Clone, Copy, Pod, Zeroable)]
struct CameraUniform {
    view_proj: [[f32; 4]; 4],
    inv_view_proj: [[f32; 4]; 4],
    view: [[f32; 4]; 4],
    inv_proj: [[f32; 4]; 4],
    eye: [f32; 4],
    frame: [f32; 4],
    tiles: [u32; 4],
}

#[repr(C)]
#[derive(Clone, Copy, Pod, Zeroable)]
struct Vertex {
    position: [f32; 3],
    normal: [f32; 3],
}

/// Per-instance data of the G-buffer and glass pipelines.
#[repr(C)]
#[derive(Clone, Copy, Pod, Zeroable)]
struct Instance {
    model: [[f32; 4]; 4],
    /// Albedo (opaque) or tint and opacity (glass).
    color: [f32; 4],
    /// Roughness, metalness, checker pattern.
    material: [f32; 4],
}

#[derive(Clone, Debug)]
struct Mesh {
    indices: Range<u32>,
    base_vertex: i32,
}

/// Tiles of the light culling across and down for a frame of `size`.
fn tile_counts(size: (u32, u32)) -> (u32, u32) {
    (size.0.div_ceil(TILE_SIZE), size.1.div_ceil(TILE_SIZE))
}

fn hash(mut x: u32) -> u32 {
    x = x.wrapping_mul(747_796_405).wrapping_add(2_891_336_453);
    x = ((x >> ((x >> 28) + 4)) ^ x).wrapping_mul(277_803_737);
    (x >> 22) ^ x
}

fn unit(x: u32) -> f32 {
    (hash(x) & 0xffff) as f32 / 65535.0
}

/// Geometry built in code: meshes in one vertex and index buffer, opaque instances, glass panes.
struct Scene {
    vertices: wgpu::Buffer,
    indices: wgpu::Buffer,
    /// Opaque instances and the draws that use them.
    opaque: wgpu::Buffer,
    opaque_draws: Vec<(Mesh, Range<u32>)>,
    /// Glass panes (unsorted); re-sorted back to front into `glass` every frame.
    panes: Vec<Instance>,
    glass: wgpu::Buffer,
    quad: Mesh,
    camera: wgpu::Buffer,
    /// The lights of the uniform path, written every frame.
    uniform_lights: wgpu::Buffer,
}

impl Scene {
    fn new(device: &wgpu::Device) -> Self {
        let mut vertices = Vec::new();
        let mut indices: Vec<u16> = Vec::new();
        let mut mesh = |verts: Vec<Vertex>, idx: Vec<u16>| {
            let start = indices.len() as u32;
            let base_vertex = vertices.len() as i32;
            vertices.extend(verts);
            indices.extend(idx);
            Mesh {
                indices: start..indices.len() as u32,
                base_vertex,
            }
        };
        let cube = mesh_cube();
        let cube = mesh(cube.0, cube.1);
        let sphere = mesh_sphere(20, 12);
        let sphere = mesh(sphere.0, sphere.1);
        let quad = mesh_quad();
        let quad = mesh(quad.0, quad.1);

        let mut opaque = Vec::new();
        let mut opaque_draws = Vec::new();
        // Ground: a large checkered quad.
        opaque.push(Instance {
            model: Mat4::from_scale(Vec3::new(24.0, 1.0, 24.0)).to_cols_array_2d(),
            color: [0.55, 0.55, 0.58, 1.0],
            material: [0.8, 0.0, 1.0, 0.0],
        });
        opaque_draws.push((quad.clone(), 0..1));
        let palette = [
            [0.80, 0.22, 0.18],
            [0.95, 0.75, 0.30],
            [0.25, 0.55, 0.85],
            [0.35, 0.75, 0.40],
            [0.85, 0.85, 0.85],
            [0.60, 0.35, 0.75],
        ];
        let mut boxes = Vec::new();
        let mut spheres = Vec::new();
        for j in -3i32..=3 {
            for i in -3i32..=3 {
                let k = ((j + 3) * 7 + (i + 3)) as u32;
                let c = palette[(hash(k) % palette.len() as u32) as usize];
                let material = [
                    0.15 + 0.75 * unit(k * 3 + 1),
                    (hash(k * 3 + 2) & 1) as f32,
                    0.0,
                    0.0,
                ];
                let at = Vec3::new(i as f32 * 4.5, 0.0, j as f32 * 4.5);
                if (i + j) % 2 == 0 {
                    let half = Vec3::new(1.1, 0.6 + 1.4 * unit(k * 5), 1.1);
                    let turn = Quat::from_rotation_y(unit(k * 5 + 1) * std::f32::consts::PI);
                    let model =
                        Mat4::from_scale_rotation_translation(half, turn, at + Vec3::Y * half.y);
                    boxes.push(Instance {
                        model: model.to_cols_array_2d(),
                        color: [c[0], c[1], c[2], 1.0],
                        material,
                    });
                } else {
                    let r = 0.8 + 0.5 * unit(k * 5 + 2);
                    let model = Mat4::from_scale_rotation_translation(
                        Vec3::splat(r),
                        Quat::IDENTITY,
                        at + Vec3::Y * r,
                    );
                    spheres.push(Instance {
                        model: model.to_cols_array_2d(),
                        color: [c[0], c[1], c[2], 1.0],
                        material,
                    });
                }
            }
        }
        let first = opaque.len() as u32;
        opaque.extend(&boxes);
        opaque_draws.push((cube, first..opaque.len() as u32));
        let first = opaque.len() as u32;
        opaque.extend(&spheres);
        opaque_draws.push((sphere, first..opaque.len() as u32));

        // Standing glass panes between the rows of objects.
        let tints = [
            [0.9, 0.3, 0.3, 0.55],
            [0.3, 0.9, 0.5, 0.50],
            [0.3, 0.5, 1.0, 0.55],
            [1.0, 0.9, 0.4, 0.50],
            [0.8, 0.4, 1.0, 0.55],
        ];
        let panes = tints
            .iter()
            .enumerate()
            .map(|(n, tint)| {
                let x = -9.0 + 4.5 * n as f32;
                let z = 2.25 * if n % 2 == 0 { 1.0 } else { -1.0 };
                let model = Mat4::from_translation(Vec3::new(x, 2.0, z))
                    * Mat4::from_rotation_y(0.4 * n as f32 - 0.8)
                    * Mat4::from_rotation_x(std::f32::consts::FRAC_PI_2)
                    * Mat4::from_scale(Vec3::new(2.0, 1.0, 1.9));
                Instance {
                    model: model.to_cols_array_2d(),
                    color: *tint,
                    material: [0.1, 0.0, 0.0, 0.0],
                }
            })
            .collect::<Vec<_>>();

        use wgpu::util::DeviceExt;
        let init = |label, contents: &[u8], usage| {
            device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
                label: Some(label),
                contents,
                usage,
            })
        };
        Scene {
            vertices: init(
                "deferred vertices",
                bytemuck::cast_slice(&vertices),
                wgpu::BufferUsages::VERTEX,
            ),
            indices: init(
                "deferred indices",
                bytemuck::cast_slice(&indices),
                wgpu::BufferUsages::INDEX,
            ),
            opaque: init(
                "deferred opaque instances",
                bytemuck::cast_slice(&opaque),
                wgpu::BufferUsages::VERTEX,
            ),
            opaque_draws,
            glass: init(
                "deferred glass instances",
                bytemuck::cast_slice(&panes),
                wgpu::BufferUsages::VERTEX | wgpu::BufferUsages::COPY_DST,
            ),
            panes,
            quad,
            camera: device.create_buffer(&wgpu::BufferDescriptor {
                label: Some("deferred camera"),
                size: size_of::<CameraUniform>() as u64,
                usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
                mapped_at_creation: false,
            }),
            uniform_lights: device.create_buffer(&wgpu::BufferDescriptor {
                label: Some("deferred lights (uniform)"),
                size: u64::from(LIGHT_COUNT) * LIGHT_BYTES,
                usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
                mapped_at_creation: false,
            }),
        }
    }
}

fn mesh_cube() -> (Vec<Vertex>, Vec<u16>) {
    let mut vertices = Vec::new();
    let mut indices = Vec::new();
    for axis in 0..3 {
        for sign in [1.0f32, -1.0] {
            let mut n = [0.0; 3];
            n[axis] = sign;
            let n = Vec3::from(n);
            let u = Vec3::from({
                let mut u = [0.0; 3];
                u[(axis + 1) % 3] = 1.0;
                u
            });
            let v = n.cross(u);
            let base = vertices.len() as u16;
            for (a, b) in [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)] {
                vertices.push(Vertex {
                    position: (n + u * a + v * b).to_array(),
                    normal: n.to_array(),
                });
            }
            indices.extend([base, base + 1, base + 2, base, base + 2, base + 3]);
        }
    }
    (vertices, indices)
}

fn mesh_sphere(slices: u16, stacks: u16) -> (Vec<Vertex>, Vec<u16>) {
    let mut vertices = Vec::new();
    for s in 0..=stacks {
        let theta = std::f32::consts::PI * f32::from(s) / f32::from(stacks);
        for l in 0..=slices {
            let phi = std::f32::consts::TAU * f32::from(l) / f32::from(slices);
            let p = Vec3::new(
                theta.sin() * phi.cos(),
                theta.cos(),
                theta.sin() * phi.sin(),
            );
            vertices.push(Vertex {
                position: p.to_array(),
                normal: p.to_array(),
            });
        }
    }
    let mut indices = Vec::new();
    let row = slices + 1;
    for s in 0..stacks {
        for l in 0..slices {
            let a = s * row + l;
            let b = a + row;
            indices.extend([a, b, a + 1, a + 1, b, b + 1]);
        }
    }
    (vertices, indices)
}

/// A unit quad in the XZ plane facing +Y.
fn mesh_quad() -> (Vec<Vertex>, Vec<u16>) {
    let vertices = [(-1.0, -1.0), (-1.0, 1.0), (1.0, 1.0), (1.0, -1.0)]
        .map(|(x, z)| Vertex {
            position: [x, 0.0, z],
            normal: [0.0, 1.0, 0.0],
        })
        .to_vec();
    (vertices, vec![0, 1, 2, 0, 2, 3])
}

/// Every pipeline of the frame (their bind group layouts are derived from the shaders).
struct Pipelines {
    gbuffer: wgpu::RenderPipeline,
    gbuffer_group: wgpu::BindGroup,
    /// Light animation and culling: the storage path only.
    animate: Option<wgpu::ComputePipeline>,
    cull: Option<wgpu::ComputePipeline>,
    lighting: wgpu::RenderPipeline,
    transparent: wgpu::RenderPipeline,
    tonemap: wgpu::RenderPipeline,
}

const VERTEX_ATTRIBUTES: [wgpu::VertexAttribute; 2] =
    wgpu::vertex_attr_array![0 => Float32x3, 1 => Float32x3];
const INSTANCE_ATTRIBUTES: [wgpu::VertexAttribute; 6] = wgpu::vertex_attr_array![
    2 => Float32x4, 3 => Float32x4, 4 => Float32x4, 5 => Float32x4, 6 => Float32x4, 7 => Float32x4
];

impl Pipelines {
    fn new(
        device: &wgpu::Device,
        scene: &Scene,
        output_format: wgpu::TextureFormat,
        depth_in_lighting: bool,
        path: LightPath,
    ) -> Self {
        let uniform = path == LightPath::Uniform;
        let module = |pass: &str| {
            device.create_shader_module(wgpu::ShaderModuleDescriptor {
                label: Some(pass),
                source: wgpu::ShaderSource::Wgsl(shader_source(pass).into()),
            })
        };
        let mesh_buffers = [
            Some(wgpu::VertexBufferLayout {
                array_stride: size_of::<Vertex>() as u64,
                step_mode: wgpu::VertexStepMode::Vertex,
                attributes: &VERTEX_ATTRIBUTES,
            }),
            Some(wgpu::VertexBufferLayout {
                array_stride: size_of::<Instance>() as u64,
                step_mode: wgpu::VertexStepMode::Instance,
                attributes: &INSTANCE_ATTRIBUTES,
            }),
        ];
        let depth = |write: bool, compare| {
            Some(wgpu::DepthStencilState {
                format: DEPTH_FORMAT,
                depth_write_enabled: Some(write),
                depth_compare: Some(compare),
                stencil: Default::default(),
                bias: Default::default(),
            })
        };
        let target = |format, blend| {
            Some(wgpu::ColorTargetState {
                format,
                blend,
                write_mask: wgpu::ColorWrites::ALL,
            })
        };
        let render = |pass: &str,
                      buffers: &[Option<wgpu::VertexBufferLayout<'_>>],
                      fragment: &str,
                      targets: &[Option<wgpu::ColorTargetState>],
                      depth_stencil| {
            let module = module(pass);
            device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
                label: Some(pass),
                layout: None,
                vertex: wgpu::VertexState {
                    module: &module,
                    entry_point: Some("vs_main"),
                    compilation_options: Default::default(),
                    buffers,
                },
                primitive: wgpu::PrimitiveState {
                    cull_mode: None,
                    ..Default::default()
                },
                depth_stencil,
                multisample: Default::default(),
                fragment: Some(wgpu::FragmentState {
                    module: &module,
                    entry_point: Some(fragment),
                    compilation_options: Default::default(),
                    targets,
                }),
                multiview_mask: None,
                cache: None,
            })
        };
        let compute = |pass: &str| {
            device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
                label: Some(pass),
                layout: None,
                module: &module(pass),
                entry_point: Some("main"),
                compilation_options: Default::default(),
                cache: None,
            })
        };

        let gbuffer = render(
            "gbuffer",
            &mesh_buffers,
            "fs_main",
            &[
                target(ALBEDO_FORMAT, None),
                target(NORMAL_FORMAT, None),
                target(MATERIAL_FORMAT, None),
            ],
            depth(true, wgpu::CompareFunction::Less),
        );
        // Lighting covers every pixel (a full-screen triangle, no blending, depth test `Always`
        // against the read-only depth): the graph may treat it as a full overwrite of `hdr`.
        let lighting = render(
            if uniform {
                "lighting_uniform"
            } else {
                "lighting"
            },
            &[],
            "fs_main",
            &[target(HDR_FORMAT, None)],
            depth_in_lighting
                .then(|| depth(false, wgpu::CompareFunction::Always))
                .flatten(),
        );
        let transparent = render(
            if uniform {
                "transparent_uniform"
            } else {
                "transparent"
            },
            &mesh_buffers,
            "fs_main",
            &[target(HDR_FORMAT, Some(wgpu::BlendState::ALPHA_BLENDING))],
            depth(false, wgpu::CompareFunction::Less),
        );
        let tonemap = render(
            "tonemap",
            &[],
            if output_format.is_srgb() {
                "fs_linear"
            } else {
                "fs_encode"
            },
            &[target(output_format, None)],
            None,
        );
        let gbuffer_group = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("gbuffer"),
            layout: &gbuffer.get_bind_group_layout(0),
            entries: &[wgpu::BindGroupEntry {
                binding: 0,
                resource: scene.camera.as_entire_binding(),
            }],
        });
        Pipelines {
            gbuffer,
            gbuffer_group,
            animate: (!uniform).then(|| compute("animate_lights")),
            cull: (!uniform).then(|| compute("light_cull")),
            lighting,
            transparent,
            tonemap,
        }
    }

    fn group(
        device: &wgpu::Device,
        label: &str,
        layout: wgpu::BindGroupLayout,
        resources: &[wgpu::BindingResource<'_>],
    ) -> wgpu::BindGroup {
        let entries: Vec<_> = resources
            .iter()
            .enumerate()
            .map(|(i, r)| wgpu::BindGroupEntry {
                binding: i as u32,
                resource: r.clone(),
            })
            .collect();
        device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some(label),
            layout: &layout,
            entries: &entries,
        })
    }

    fn animate_group(&self, d: &wgpu::Device, s: &Scene, lights: &wgpu::Buffer) -> wgpu::BindGroup {
        let layout = self
            .animate
            .as_ref()
            .expect("storage path")
            .get_bind_group_layout(0);
        let resources = [s.camera.as_entire_binding(), lights.as_entire_binding()];
        Self::group(d, "animate_lights", layout, &resources)
    }

    fn cull_group(
        &self,
        d: &wgpu::Device,
        s: &Scene,
        depth: &wgpu::TextureView,
        lights: &wgpu::Buffer,
        tiles: &wgpu::Buffer,
    ) -> wgpu::BindGroup {
        let layout = self
            .cull
            .as_ref()
            .expect("storage path")
            .get_bind_group_layout(0);
        let resources = [
            s.camera.as_entire_binding(),
            wgpu::BindingResource::TextureView(depth),
            lights.as_entire_binding(),
            tiles.as_entire_binding(),
        ];
        Self::group(d, "light_cull", layout, &resources)
    }

    fn lighting_group(
        &self,
        d: &wgpu::Device,
        s: &Scene,
        gbuffer: [&wgpu::TextureView; 4],
        lights: &wgpu::Buffer,
        tiles: &wgpu::Buffer,
    ) -> wgpu::BindGroup {
        let layout = self.lighting.get_bind_group_layout(0);
        let [albedo, normal, material, depth] = gbuffer;
        let resources = [
            s.camera.as_entire_binding(),
            wgpu::BindingResource::TextureView(albedo),
            wgpu::BindingResource::TextureView(normal),
            wgpu::BindingResource::TextureView(material),
            wgpu::BindingResource::TextureView(depth),
            lights.as_entire_binding(),
            tiles.as_entire_binding(),
        ];
        // The uniform path has no tile masks.
        let count = if self.cull.is_some() { 7 } else { 6 };
        Self::group(d, "lighting", layout, &resources[..count])
    }

    fn transparent_group(
        &self,
        d: &wgpu::Device,
        s: &Scene,
        lights: &wgpu::Buffer,
    ) -> wgpu::BindGroup {
        let layout = self.transparent.get_bind_group_layout(0);
        let resources = [s.camera.as_entire_binding(), lights.as_entire_binding()];
        Self::group(d, "transparent", layout, &resources)
    }

    fn tonemap_group(
        &self,
        d: &wgpu::Device,
        s: &Scene,
        hdr: &wgpu::TextureView,
    ) -> wgpu::BindGroup {
        let layout = self.tonemap.get_bind_group_layout(0);
        let resources = [
            s.camera.as_entire_binding(),
            wgpu::BindingResource::TextureView(hdr),
        ];
        Self::group(d, "tonemap", layout, &resources)
    }

    // The recording of each pass, shared by the graph's closures and the hand-written frame.

    fn draw_gbuffer(&self, scene: &Scene, pass: &mut wgpu::RenderPass<'_>) {
        pass.set_pipeline(&self.gbuffer);
        pass.set_bind_group(0, &self.gbuffer_group, &[]);
        pass.set_vertex_buffer(0, scene.vertices.slice(..));
        pass.set_vertex_buffer(1, scene.opaque.slice(..));
        pass.set_index_buffer(scene.indices.slice(..), wgpu::IndexFormat::Uint16);
        for (mesh, instances) in &scene.opaque_draws {
            pass.draw_indexed(mesh.indices.clone(), mesh.base_vertex, instances.clone());
        }
    }

    fn dispatch_animate(&self, group: &wgpu::BindGroup, pass: &mut wgpu::ComputePass<'_>) {
        let Some(animate) = &self.animate else { return };
        pass.set_pipeline(animate);
        pass.set_bind_group(0, group, &[]);
        pass.dispatch_workgroups(LIGHT_COUNT.div_ceil(64), 1, 1);
    }

    fn dispatch_cull(
        &self,
        group: &wgpu::BindGroup,
        size: (u32, u32),
        pass: &mut wgpu::ComputePass<'_>,
    ) {
        let (x, y) = tile_counts(size);
        let Some(cull) = &self.cull else { return };
        pass.set_pipeline(cull);
        pass.set_bind_group(0, group, &[]);
        pass.dispatch_workgroups(x, y, 1);
    }

    fn draw_lighting(&self, group: &wgpu::BindGroup, pass: &mut wgpu::RenderPass<'_>) {
        pass.set_pipeline(&self.lighting);
        pass.set_bind_group(0, group, &[]);
        pass.draw(0..3, 0..1);
    }

    fn draw_transparent(
        &self,
        scene: &Scene,
        group: &wgpu::BindGroup,
        pass: &mut wgpu::RenderPass<'_>,
    ) {
        pass.set_pipeline(&self.transparent);
        pass.set_bind_group(0, group, &[]);
        pass.set_vertex_buffer(0, scene.vertices.slice(..));
        pass.set_vertex_buffer(1, scene.glass.slice(..));
        pass.set_index_buffer(scene.indices.slice(..), wgpu::IndexFormat::Uint16);
        let panes = scene.panes.len() as u32;
        pass.draw_indexed(scene.quad.indices.clone(), scene.quad.base_vertex, 0..panes);
    }

    fn draw_tonemap(&self, group: &wgpu::BindGroup, pass: &mut wgpu::RenderPass<'_>) {
        pass.set_pipeline(&self.tonemap);
        pass.set_bind_group(0, group, &[]);
        pass.draw(0..3, 0..1);
    }
}

type Cached<K> = Option<(K, wgpu::BindGroup)>;

/// The bind group cached in `slot` if it was made for `key`, else a new one made by `make`.
/// Views and buffers of the executor's pool stay the same from frame to frame, so after the
/// first frame this is a comparison.
fn cached<K: PartialEq>(
    slot: &mut Cached<K>,
    key: K,
    make: impl FnOnce(&K) -> wgpu::BindGroup,
) -> &wgpu::BindGroup {
    if slot.as_ref().is_some_and(|(k, _)| *k != key) {
        *slot = None;
    }
    &slot
        .get_or_insert_with(|| {
            let group = make(&key);
            (key, group)
        })
        .1
}

/// Bind groups over graph resources, cached across frames.
#[derive(Default)]
struct Binds {
    animate: Cached<wgpu::Buffer>,
    cull: Cached<(wgpu::TextureView, wgpu::Buffer, wgpu::Buffer)>,
    lighting: Cached<([wgpu::TextureView; 4], wgpu::Buffer, wgpu::Buffer)>,
    transparent: Cached<wgpu::Buffer>,
    tonemap: Cached<wgpu::TextureView>,
}

/// The lights at `time`, as animate_lights.wgsl moves them (the uniform path's CPU copy).
// The shader's constant, not TAU: the uniform path must move the lights bit for bit as
// animate_lights.wgsl does.
#[allow(clippy::approx_constant)]
fn animated_lights(time: f32) -> Vec<[f32; 8]> {
    (0..LIGHT_COUNT)
        .map(|i| {
            let ring = 1.5 + 15.0 * unit(i * 4).sqrt();
            let sign = if i & 1 == 0 { 1.0 } else { -1.0 };
            let speed = (0.2 + 0.6 * unit(i * 4 + 1)) * sign;
            let angle = unit(i * 4 + 2) * 6.28318 + time * speed;
            let height = 0.35 + 2.2 * unit(i * 4 + 3) + 0.25 * (time * 1.7 + i as f32).sin();
            let hue = unit(i * 7 + 5) * 6.0;
            let rgb = [
                (hue - 3.0).abs() - 1.0,
                2.0 - (hue - 2.0).abs(),
                2.0 - (hue - 4.0).abs(),
            ]
            .map(|c| (c.clamp(0.0, 1.0) * 0.8 + 0.2) * 4.0);
            let radius = 2.5 + 2.0 * unit(i * 7 + 6);
            [
                angle.cos() * ring,
                height,
                angle.sin() * ring,
                radius,
                rgb[0],
                rgb[1],
                rgb[2],
                1.0,
            ]
        })
        .collect()
}

/// The deferred renderer: scene, pipelines and cached bind groups; declares one frame at a time.
pub struct DeferredFrame {
    device: wgpu::Device,
    /// Lighting attaches depth read-only (while sampling it), so it merges with the glass.
    /// Adapters without `DownlevelFlags::READ_ONLY_DEPTH_STENCIL` (GL) cannot sample an
    /// attached depth texture: there lighting attaches no depth and the two stay apart.
    depth_in_lighting: bool,
    path: LightPath,
    output_format: wgpu::TextureFormat,
    scene: Scene,
    pipelines: Pipelines,
    binds: Binds,
}

/// The graph handles of a declared frame that the caller binds or reads.
#[derive(Debug, Clone, Copy)]
pub struct FrameHandles {
    /// The imported output (undefined at frame start, kept after it).
    pub output: TextureHandle,
    pub hdr: TextureHandle,
    pub lights: BufferHandle,
}

impl DeferredFrame {
    /// Builds the scene and pipelines for a tonemapped output of `output_format`, on the storage
    /// light path where the adapter compiles it, else the uniform one. Shader or pipeline errors
    /// (an adapter too limited for either) come back as text.
    pub fn new(
        adapter: &wgpu::Adapter,
        device: &wgpu::Device,
        output_format: wgpu::TextureFormat,
    ) -> Result<Self, String> {
        Self::with_light_path(adapter, device, output_format, None)
    }

    /// [`new`](Self::new) on the given light path (`None`: the first that compiles).
    pub fn with_light_path(
        adapter: &wgpu::Adapter,
        device: &wgpu::Device,
        output_format: wgpu::TextureFormat,
        path: Option<LightPath>,
    ) -> Result<Self, String> {
        let depth_in_lighting = adapter
            .get_downlevel_capabilities()
            .flags
            .contains(wgpu::DownlevelFlags::READ_ONLY_DEPTH_STENCIL);
        let scene = Scene::new(device);
        let candidates = match path {
            Some(p) => vec![p],
            None => [LightPath::Storage, LightPath::Uniform]
                .into_iter()
                .filter(|p| p.fits(adapter))
                .collect(),
        };
        let mut failures = Vec::new();
        for path in candidates {
            // Limits do not say everything (desktop GL 3.3 reports storage buffers that its
            // GLSL 330 cannot declare): create the pipelines under error scopes and see.
            // Backends report shader translation failures as internal errors.
            let internal = device.push_error_scope(wgpu::ErrorFilter::Internal);
            let validation = device.push_error_scope(wgpu::ErrorFilter::Validation);
            let pipelines = Pipelines::new(device, &scene, output_format, depth_in_lighting, path);
            let validation = pollster::block_on(validation.pop());
            let internal = pollster::block_on(internal.pop());
            if let Some(error) = validation.or(internal) {
                log::warn!(
                    "the {} light path does not compile here: {error}",
                    path.as_str()
                );
                failures.push(format!("{} light path: {error}", path.as_str()));
                continue;
            }
            return Ok(DeferredFrame {
                device: device.clone(),
                depth_in_lighting,
                path,
                output_format,
                scene,
                pipelines,
                binds: Binds::default(),
            });
        }
        if failures.is_empty() {
            failures.push("no light path fits the adapter's limits".into());
        }
        Err(format!(
            "the deferred pipelines cannot be created on this adapter: {}",
            failures.join("; ")
        ))
    }

    /// The light path in use.
    pub fn light_path(&self) -> LightPath {
        self.path
    }

    /// Whether lighting attaches depth (read-only) and so merges with the glass.
    pub fn merges_lighting_with_glass(&self) -> bool {
        self.depth_in_lighting
    }

    /// The output format the tonemap writes.
    pub fn output_format(&self) -> wgpu::TextureFormat {
        self.output_format
    }

    /// Uploads the frame's camera (orbiting with `time`, in seconds) and the glass panes sorted
    /// back to front for it.
    pub fn update(&mut self, queue: &wgpu::Queue, size: (u32, u32), time: f32) {
        let angle = 0.7 + 0.08 * time;
        let eye = Vec3::new(angle.cos() * 27.0, 12.5, angle.sin() * 27.0);
        let view = Mat4::look_at_rh(eye, Vec3::new(0.0, 0.8, 0.0), Vec3::Y);
        let aspect = size.0 as f32 / size.1.max(1) as f32;
        let proj = Mat4::perspective_rh(0.85, aspect, 0.1, 200.0);
        let view_proj = proj * view;
        let tiles = tile_counts(size);
        let camera = CameraUniform {
            view_proj: view_proj.to_cols_array_2d(),
            inv_view_proj: view_proj.inverse().to_cols_array_2d(),
            view: view.to_cols_array_2d(),
            inv_proj: proj.inverse().to_cols_array_2d(),
            eye: eye.extend(1.0).to_array(),
            frame: [size.0 as f32, size.1 as f32, time, 1.0],
            tiles: [tiles.0, tiles.1, 0, 0],
        };
        queue.write_buffer(&self.scene.camera, 0, bytemuck::bytes_of(&camera));
        let distance = |p: &Instance| eye.distance_squared(Vec3::from_slice(&p.model[3][..3]));
        let mut panes = self.scene.panes.clone();
        panes.sort_by(|a, b| distance(b).total_cmp(&distance(a)));
        queue.write_buffer(&self.scene.glass, 0, bytemuck::cast_slice(&panes));
        if self.path == LightPath::Uniform {
            let lights = animated_lights(time);
            queue.write_buffer(&self.scene.uniform_lights, 0, bytemuck::cast_slice(&lights));
        }
    }

    /// Declares the frame at `size`: the closures record into the graph's passes with the
    /// renderer's pipelines and cached bind groups.
    pub fn declare(&mut self, size: (u32, u32)) -> (RenderGraph<'_>, FrameHandles) {
        let (w, h) = size;
        let (tiles_x, tiles_y) = tile_counts(size);
        let DeferredFrame {
            device,
            depth_in_lighting,
            path,
            output_format,
            scene,
            pipelines: p,
            binds,
        } = self;
        let (device, scene, p) = (&*device, &*scene, &*p);
        let Binds {
            animate,
            cull,
            lighting,
            transparent,
            tonemap,
        } = binds;

        let mut graph = RenderGraph::with_capacity(8, 6);
        let albedo = graph.create_texture("albedo", TextureDesc::new(ALBEDO_FORMAT, w, h));
        let normal = graph.create_texture("normal", TextureDesc::new(NORMAL_FORMAT, w, h));
        let material = graph.create_texture("material", TextureDesc::new(MATERIAL_FORMAT, w, h));
        let depth = graph.create_texture("depth", TextureDesc::new(DEPTH_FORMAT, w, h));
        let hdr = graph.create_texture("hdr", TextureDesc::new(HDR_FORMAT, w, h));
        let lights = graph.create_buffer("lights", u64::from(LIGHT_COUNT) * LIGHT_BYTES);
        let tiles =
            graph.create_buffer("light_tiles", u64::from(tiles_x * tiles_y * MASK_WORDS) * 4);
        let output = graph.import_texture(
            "output",
            TextureDesc::new(*output_format, w, h),
            Import {
                contents: ImportContents::Undefined,
                after: ImportAfter::Keep,
            },
        );

        graph
            .add_render_pass("gbuffer")
            .color(albedo, Access::Clear)
            .color(normal, Access::Clear)
            .color(material, Access::Clear)
            .depth(depth, Access::Clear)
            .execute(move |pass, _| {
                p.draw_gbuffer(scene, pass);
                Ok(())
            });
        let storage = *path == LightPath::Storage;
        let uniform_lights = &scene.uniform_lights;
        if storage {
            graph
                .add_compute_pass("animate_lights")
                .storage_write_buffer(lights)
                .execute(move |pass, ctx| {
                    let buffer = ctx.buffer(lights)?;
                    let group = cached(animate, buffer.clone(), |b| {
                        p.animate_group(device, scene, b)
                    });
                    p.dispatch_animate(group, pass);
                    Ok(())
                });
            graph
                .add_compute_pass("light_cull")
                .sample(depth)
                .storage_read_buffer(lights)
                .storage_write_buffer(tiles)
                .execute(move |pass, ctx| {
                    let key = (
                        ctx.view(depth)?.clone(),
                        ctx.buffer(lights)?.clone(),
                        ctx.buffer(tiles)?.clone(),
                    );
                    let group = cached(cull, key, |(d, l, t)| p.cull_group(device, scene, d, l, t));
                    p.dispatch_cull(group, size, pass);
                    Ok(())
                });
        }
        // Lighting and the glass share the attachments (hdr, depth read-only), so the graph
        // merges them into one render pass.
        let mut pass = graph
            .add_render_pass("lighting")
            .sample(albedo)
            .sample(normal)
            .sample(material)
            .sample(depth)
            .color(hdr, Access::Write);
        if storage {
            pass = pass.storage_read_buffer(lights).storage_read_buffer(tiles);
        }
        if *depth_in_lighting {
            pass = pass.depth(depth, Access::Read);
        }
        pass.execute(move |pass, ctx| {
            let view = |t: TextureHandle| ctx.view(t).cloned();
            let key = (
                [view(albedo)?, view(normal)?, view(material)?, view(depth)?],
                if storage {
                    ctx.buffer(lights)?.clone()
                } else {
                    uniform_lights.clone()
                },
                if storage {
                    ctx.buffer(tiles)?.clone()
                } else {
                    uniform_lights.clone()
                },
            );
            let group = cached(lighting, key, |(g, l, t)| {
                p.lighting_group(device, scene, [&g[0], &g[1], &g[2], &g[3]], l, t)
            });
            p.draw_lighting(group, pass);
            Ok(())
        });
        let mut pass = graph.add_render_pass("transparent");
        if storage {
            pass = pass.storage_read_buffer(lights);
        }
        pass.color(hdr, Access::ReadWrite)
            .depth(depth, Access::Read)
            .execute(move |pass, ctx| {
                let buffer = if storage {
                    ctx.buffer(lights)?
                } else {
                    uniform_lights
                };
                let group = cached(transparent, buffer.clone(), |b| {
                    p.transparent_group(device, scene, b)
                });
                p.draw_transparent(scene, group, pass);
                Ok(())
            });
        graph
            .add_render_pass("tonemap")
            .sample(hdr)
            .color(output, Access::Write)
            .execute(move |pass, ctx| {
                let view = ctx.view(hdr)?;
                let group = cached(tonemap, view.clone(), |v| p.tonemap_group(device, scene, v));
                p.draw_tonemap(group, pass);
                Ok(())
            });
        (
            graph,
            FrameHandles {
                output,
                hdr,
                lights,
            },
        )
    }

    /// Creates what [`record_by_hand`](Self::record_by_hand) renders into at `size`.
    pub fn hand_targets(&self, size: (u32, u32)) -> HandTargets {
        let d = &self.device;
        let texture = |label, format| {
            let texture = d.create_texture(&wgpu::TextureDescriptor {
                label: Some(label),
                size: wgpu::Extent3d {
                    width: size.0,
                    height: size.1,
                    depth_or_array_layers: 1,
                },
                mip_level_count: 1,
                sample_count: 1,
                dimension: wgpu::TextureDimension::D2,
                format,
                usage: wgpu::TextureUsages::RENDER_ATTACHMENT
                    | wgpu::TextureUsages::TEXTURE_BINDING,
                view_formats: &[],
            });
            texture.create_view(&Default::default())
        };
        let buffer = |label, size| {
            d.create_buffer(&wgpu::BufferDescriptor {
                label: Some(label),
                size,
                usage: wgpu::BufferUsages::STORAGE,
                mapped_at_creation: false,
            })
        };
        let (tx, ty) = tile_counts(size);
        let albedo = texture("albedo", ALBEDO_FORMAT);
        let normal = texture("normal", NORMAL_FORMAT);
        let material = texture("material", MATERIAL_FORMAT);
        let depth = texture("depth", DEPTH_FORMAT);
        let hdr = texture("hdr", HDR_FORMAT);
        let lights = buffer("lights", u64::from(LIGHT_COUNT) * LIGHT_BYTES);
        let tiles = buffer("light_tiles", u64::from(tx * ty * MASK_WORDS) * 4);
        let (p, s) = (&self.pipelines, &self.scene);
        let storage = self.path == LightPath::Storage;
        let (lights, tiles) = if storage {
            (lights, tiles)
        } else {
            (s.uniform_lights.clone(), s.uniform_lights.clone())
        };
        HandTargets {
            size,
            compute: storage.then(|| {
                [
                    p.animate_group(d, s, &lights),
                    p.cull_group(d, s, &depth, &lights, &tiles),
                ]
            }),
            groups: [
                p.lighting_group(d, s, [&albedo, &normal, &material, &depth], &lights, &tiles),
                p.transparent_group(d, s, &lights),
                p.tonemap_group(d, s, &hdr),
            ],
            albedo,
            normal,
            material,
            depth,
            hdr,
        }
    }

    /// Records the frame by hand with exactly the passes, load/store ops, pipelines and draws
    /// that the graph's plan records (Planned mode, no DontCare opt-in): the baseline of the
    /// recording benchmark.
    pub fn record_by_hand(
        &self,
        encoder: &mut wgpu::CommandEncoder,
        t: &HandTargets,
        output: &wgpu::TextureView,
    ) {
        let (p, s) = (&self.pipelines, &self.scene);
        let clear = |view| {
            Some(wgpu::RenderPassColorAttachment {
                view,
                depth_slice: None,
                resolve_target: None,
                ops: wgpu::Operations {
                    load: wgpu::LoadOp::Clear(wgpu::Color::TRANSPARENT),
                    store: wgpu::StoreOp::Store,
                },
            })
        };
        {
            let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
                label: Some("gbuffer"),
                color_attachments: &[clear(&t.albedo), clear(&t.normal), clear(&t.material)],
                depth_stencil_attachment: Some(wgpu::RenderPassDepthStencilAttachment {
                    view: &t.depth,
                    depth_ops: Some(wgpu::Operations {
                        load: wgpu::LoadOp::Clear(1.0),
                        store: wgpu::StoreOp::Store,
                    }),
                    stencil_ops: None,
                }),
                ..Default::default()
            });
            p.draw_gbuffer(s, &mut pass);
        }
        for (label, work) in [("animate_lights", 0), ("light_cull", 1)] {
            let Some(groups) = &t.compute else { break };
            let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
                label: Some(label),
                timestamp_writes: None,
            });
            match work {
                0 => p.dispatch_animate(&groups[0], &mut pass),
                _ => p.dispatch_cull(&groups[1], t.size, &mut pass),
            }
        }
        let read_only_depth = Some(wgpu::RenderPassDepthStencilAttachment {
            view: &t.depth,
            depth_ops: None,
            stencil_ops: None,
        });
        if self.depth_in_lighting {
            let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
                label: Some("lighting+transparent"),
                color_attachments: &[clear(&t.hdr)],
                depth_stencil_attachment: read_only_depth,
                ..Default::default()
            });
            p.draw_lighting(&t.groups[0], &mut pass);
            p.draw_transparent(s, &t.groups[1], &mut pass);
        } else {
            let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
                label: Some("lighting"),
                color_attachments: &[clear(&t.hdr)],
                ..Default::default()
            });
            p.draw_lighting(&t.groups[0], &mut pass);
            drop(pass);
            let load = Some(wgpu::RenderPassColorAttachment {
                view: &t.hdr,
                depth_slice: None,
                resolve_target: None,
                ops: wgpu::Operations {
                    load: wgpu::LoadOp::Load,
                    store: wgpu::StoreOp::Store,
                },
            });
            let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
                label: Some("transparent"),
                color_attachments: &[load],
                depth_stencil_attachment: read_only_depth,
                ..Default::default()
            });
            p.draw_transparent(s, &t.groups[1], &mut pass);
        }
        let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
            label: Some("tonemap"),
            color_attachments: &[clear(output)],
            ..Default::default()
        });
        p.draw_tonemap(&t.groups[2], &mut pass);
    }
}

/// Textures, buffers and bind groups of the hand-written frame.
pub struct HandTargets {
    size: (u32, u32),
    /// Light animation and culling (the storage path).
    compute: Option<[wgpu::BindGroup; 2]>,
    /// Lighting, glass, tonemap.
    groups: [wgpu::BindGroup; 3],
    albedo: wgpu::TextureView,
    normal: wgpu::TextureView,
    material: wgpu::TextureView,
    depth: wgpu::TextureView,
    hdr: wgpu::TextureView,
}

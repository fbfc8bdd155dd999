//! The deferred frame's scene and what it records with: the formats and sizes of the graph's
//! resources, the light paths, the WGSL, the procedural geometry and every pipeline, with the
//! draws and dispatches that the graph's passes and the hand-written frame share.

use std::ops::Range;

use bytemuck::{Pod, Zeroable};
use glam::{Mat4, Quat, Vec3};
use tilegraph::wgpu;

use crate::setup::uniform_buffer;

/// Point lights, animated on the GPU every frame.
pub const LIGHT_COUNT: u32 = 256;
/// Light-mask words per tile (one bit per light).
pub(super) const MASK_WORDS: u32 = LIGHT_COUNT / 32;
/// Tile edge of the light culling, in pixels.
const TILE_SIZE: u32 = 16;

pub const ALBEDO_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba8Unorm;
pub const NORMAL_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba16Float;
pub const MATERIAL_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rg8Unorm;
pub const DEPTH_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Depth32Float;
pub const HDR_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba16Float;

pub(super) const LIGHT_BYTES: u64 = 32;

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

    /// Raises `limits` to what this path's shaders bind.
    pub fn raise_limits(self, limits: &mut wgpu::Limits) {
        match self {
            // Compute passes and fragment-stage storage: what every adapter that computes has
            // (`fits` checked this one does).
            LightPath::Storage => {
                *limits = limits
                    .clone()
                    .or_better_values_from(&wgpu::Limits::downlevel_defaults());
            }
            LightPath::Uniform => {
                limits.max_uniform_buffer_binding_size = limits
                    .max_uniform_buffer_binding_size
                    .max(u64::from(LIGHT_COUNT) * LIGHT_BYTES);
            }
        }
    }

    /// Whether the adapter's limits allow the storage path (the shaders must still compile).
    pub fn fits(self, adapter: &wgpu::Adapter) -> bool {
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
    let instance = include_str!("../../shaders/deferred/instance.wgsl");
    let shade_gbuffer = include_str!("../../shaders/deferred/shade_gbuffer.wgsl");
    let transparent = include_str!("../../shaders/deferred/transparent.wgsl");
    if pass == "transparent_uniform" {
        let body = transparent.replace(
            "var<storage, read> lights: array<Light>;",
            "var<uniform> lights: array<Light, LIGHT_COUNT>;",
        );
        return [common, instance, &body].concat();
    }
    let parts: [&str; 2] = match pass {
        "lighting_uniform" => [
            shade_gbuffer,
            include_str!("../../shaders/deferred/lighting_uniform.wgsl"),
        ],
        "gbuffer" => [
            instance,
            include_str!("../../shaders/deferred/gbuffer.wgsl"),
        ],
        "animate_lights" => [
            "",
            include_str!("../../shaders/deferred/animate_lights.wgsl"),
        ],
        "light_cull" => ["", include_str!("../../shaders/deferred/light_cull.wgsl")],
        "lighting" => [
            shade_gbuffer,
            include_str!("../../shaders/deferred/lighting.wgsl"),
        ],
        "transparent" => [instance, transparent],
        "tonemap" => [
            include_str!("../../shaders/srgb.wgsl"),
            include_str!("../../shaders/deferred/tonemap.wgsl"),
        ],
        _ => unreachable!("every pass has a shader"),
    };
    [common, parts[0], parts[1]].concat()
}

/// `Camera` in common.wgsl.
#[repr(C)]
#[derive(Clone, Copy, Pod, Zeroable)]
pub(super) struct CameraUniform {
    pub(super) view_proj: [[f32; 4]; 4],
    pub(super) inv_view_proj: [[f32; 4]; 4],
    pub(super) view: [[f32; 4]; 4],
    pub(super) inv_proj: [[f32; 4]; 4],
    pub(super) eye: [f32; 4],
    pub(super) frame: [f32; 4],
    pub(super) tiles: [u32; 4],
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
pub(super) struct Instance {
    pub(super) model: [[f32; 4]; 4],
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
pub(super) fn tile_counts(size: (u32, u32)) -> (u32, u32) {
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
pub(super) struct Scene {
    vertices: wgpu::Buffer,
    indices: wgpu::Buffer,
    /// Opaque instances and the draws that use them.
    opaque: wgpu::Buffer,
    opaque_draws: Vec<(Mesh, Range<u32>)>,
    /// Glass panes (unsorted); re-sorted back to front into `glass` every frame.
    pub(super) panes: Vec<Instance>,
    pub(super) glass: wgpu::Buffer,
    quad: Mesh,
    pub(super) camera: wgpu::Buffer,
    /// The lights of the uniform path, written every frame.
    pub(super) uniform_lights: wgpu::Buffer,
}

impl Scene {
    pub(super) fn new(device: &wgpu::Device) -> Self {
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
            camera: uniform_buffer(device, "deferred camera", size_of::<CameraUniform>() as u64),
            uniform_lights: uniform_buffer(
                device,
                "deferred lights (uniform)",
                u64::from(LIGHT_COUNT) * LIGHT_BYTES,
            ),
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
pub(super) struct Pipelines {
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
    pub(super) fn new(
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

    pub(super) fn animate_group(
        &self,
        d: &wgpu::Device,
        s: &Scene,
        lights: &wgpu::Buffer,
    ) -> wgpu::BindGroup {
        let layout = self
            .animate
            .as_ref()
            .expect("storage path")
            .get_bind_group_layout(0);
        let resources = [s.camera.as_entire_binding(), lights.as_entire_binding()];
        Self::group(d, "animate_lights", layout, &resources)
    }

    pub(super) fn cull_group(
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

    pub(super) fn lighting_group(
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

    pub(super) fn transparent_group(
        &self,
        d: &wgpu::Device,
        s: &Scene,
        lights: &wgpu::Buffer,
    ) -> wgpu::BindGroup {
        let layout = self.transparent.get_bind_group_layout(0);
        let resources = [s.camera.as_entire_binding(), lights.as_entire_binding()];
        Self::group(d, "transparent", layout, &resources)
    }

    pub(super) fn tonemap_group(
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

    pub(super) fn draw_gbuffer(&self, scene: &Scene, pass: &mut wgpu::RenderPass<'_>) {
        pass.set_pipeline(&self.gbuffer);
        pass.set_bind_group(0, &self.gbuffer_group, &[]);
        pass.set_vertex_buffer(0, scene.vertices.slice(..));
        pass.set_vertex_buffer(1, scene.opaque.slice(..));
        pass.set_index_buffer(scene.indices.slice(..), wgpu::IndexFormat::Uint16);
        for (mesh, instances) in &scene.opaque_draws {
            pass.draw_indexed(mesh.indices.clone(), mesh.base_vertex, instances.clone());
        }
    }

    pub(super) fn dispatch_animate(
        &self,
        group: &wgpu::BindGroup,
        pass: &mut wgpu::ComputePass<'_>,
    ) {
        let Some(animate) = &self.animate else { return };
        pass.set_pipeline(animate);
        pass.set_bind_group(0, group, &[]);
        pass.dispatch_workgroups(LIGHT_COUNT.div_ceil(64), 1, 1);
    }

    pub(super) fn dispatch_cull(
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

    pub(super) fn draw_lighting(&self, group: &wgpu::BindGroup, pass: &mut wgpu::RenderPass<'_>) {
        pass.set_pipeline(&self.lighting);
        pass.set_bind_group(0, group, &[]);
        pass.draw(0..3, 0..1);
    }

    pub(super) fn draw_transparent(
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

    pub(super) fn draw_tonemap(&self, group: &wgpu::BindGroup, pass: &mut wgpu::RenderPass<'_>) {
        pass.set_pipeline(&self.tonemap);
        pass.set_bind_group(0, group, &[]);
        pass.draw(0..3, 0..1);
    }
}

/// The lights at `time`, as animate_lights.wgsl moves them (the uniform path's CPU copy).
// The shader's constant, not TAU: the uniform path must move the lights bit for bit as
// animate_lights.wgsl does.
#[allow(clippy::approx_constant)]
pub(super) fn animated_lights(time: f32) -> Vec<[f32; 8]> {
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

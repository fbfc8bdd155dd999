//! wgpu's `shadow` example on wgpu 30, headless: two lights bake depth into layers of a
//! `depth32float` array (Clear, Store: the forward pass samples them), then a forward pass
//! draws the lit scene with its own depth (Clear, Discard) into the screen image (Clear, Store).

use std::f32::consts::PI;

use bytemuck::{Pod, Zeroable};
use clap::Parser;
use tilegraph_traced_apps::{
    Args, CLEAR_COLOR, Gpu, Screen, bind_group, buffer_init, color_target, depth_target, extent,
    fragment_stage, pipeline_desc, render_pass, run, texture_desc, vertex_stage,
};
use wgpu::util::DeviceExt;

const MAX_LIGHTS: u32 = 10;
const SHADOW_SIZE: u32 = 512;
const DEPTH: wgpu::TextureFormat = wgpu::TextureFormat::Depth32Float;

#[repr(C)]
#[derive(Clone, Copy, Pod, Zeroable)]
struct Vertex {
    position: [i8; 4],
    normal: [i8; 4],
}

#[repr(C)]
#[derive(Clone, Copy, Pod, Zeroable)]
struct Globals {
    view_proj: [[f32; 4]; 4],
    light_count: [u32; 4],
}

#[repr(C)]
#[derive(Clone, Copy, Pod, Zeroable)]
struct EntityRaw {
    world: [[f32; 4]; 4],
    color: [f32; 4],
}

#[repr(C)]
#[derive(Clone, Copy, Pod, Zeroable)]
struct LightRaw {
    view_proj: [[f32; 4]; 4],
    position: [f32; 4],
    color: [f32; 4],
}

struct Mesh {
    vertices: wgpu::Buffer,
    indices: wgpu::Buffer,
    count: u32,
}

struct Entity {
    world: glam::Mat4,
    spin: f32,
    color: [f32; 4],
    cube: bool,
    offset: u32,
}

struct Light {
    position: glam::Vec3,
    color: [f32; 4],
    fov_degrees: f32,
    target: wgpu::TextureView,
}

impl Light {
    fn raw(&self) -> LightRaw {
        let view = glam::Mat4::look_at_rh(self.position, glam::Vec3::ZERO, glam::Vec3::Z);
        let proj = glam::Mat4::perspective_rh(self.fov_degrees * PI / 180.0, 1.0, 1.0, 20.0);
        LightRaw {
            view_proj: (proj * view).to_cols_array_2d(),
            position: self.position.extend(1.0).to_array(),
            color: self.color,
        }
    }
}

struct Shadow {
    cube: Mesh,
    plane: Mesh,
    entities: Vec<Entity>,
    lights: Vec<Light>,
    entity_buf: wgpu::Buffer,
    entity_group: wgpu::BindGroup,
    bake_globals: wgpu::Buffer,
    bake_group: wgpu::BindGroup,
    bake: wgpu::RenderPipeline,
    light_buf: wgpu::Buffer,
    forward_group: wgpu::BindGroup,
    forward: wgpu::RenderPipeline,
    depth: wgpu::TextureView,
}

fn vertex(p: [i8; 3], n: [i8; 3]) -> Vertex {
    Vertex {
        position: [p[0], p[1], p[2], 1],
        normal: [n[0], n[1], n[2], 0],
    }
}

/// A unit cube: four vertices a face, each face with its outward normal.
fn cube() -> (Vec<Vertex>, Vec<u16>) {
    let mut vertices = Vec::new();
    let mut indices = Vec::new();
    for axis in 0..3 {
        for sign in [1i8, -1] {
            let mut n = [0i8; 3];
            n[axis] = sign;
            let (u, v) = ((axis + 1) % 3, (axis + 2) % 3);
            let base = vertices.len() as u16;
            for (a, b) in [(-1i8, -1i8), (1, -1), (1, 1), (-1, 1)] {
                let mut p = [0i8; 3];
                p[axis] = sign;
                // Counter-clockwise seen from outside on either side.
                p[u] = a * sign;
                p[v] = b;
                vertices.push(vertex(p, n));
            }
            indices.extend([0, 1, 2, 2, 3, 0].map(|i| base + i));
        }
    }
    (vertices, indices)
}

fn plane(size: i8) -> (Vec<Vertex>, Vec<u16>) {
    let n = [0, 0, 1];
    let vertices = [
        [size, -size, 0],
        [size, size, 0],
        [-size, -size, 0],
        [-size, size, 0],
    ];
    (
        vertices.map(|p| vertex(p, n)).to_vec(),
        vec![0, 1, 2, 2, 1, 3],
    )
}

fn mesh(device: &wgpu::Device, (vertices, indices): (Vec<Vertex>, Vec<u16>)) -> Mesh {
    let init = |contents, usage| buffer_init(device, contents, usage);
    Mesh {
        vertices: init(bytemuck::cast_slice(&vertices), wgpu::BufferUsages::VERTEX),
        indices: init(bytemuck::cast_slice(&indices), wgpu::BufferUsages::INDEX),
        count: indices.len() as u32,
    }
}

fn entities(stride: u32) -> Vec<Entity> {
    let cubes = [
        ([-2.0, -2.0, 2.0], 10.0, 0.7, 0.1),
        ([2.0, -2.0, 2.0], 50.0, 1.3, 0.2),
        ([-2.0, 2.0, 2.0], 140.0, 1.1, 0.3),
        ([2.0, 2.0, 2.0], 210.0, 0.9, 0.4),
    ];
    let mut all = vec![Entity {
        world: glam::Mat4::IDENTITY,
        spin: 0.0,
        color: [1.0; 4],
        cube: false,
        offset: 0,
    }];
    for (i, (offset, angle, scale, spin)) in cubes.into_iter().enumerate() {
        let offset = glam::Vec3::from_array(offset);
        let rotation = glam::Quat::from_axis_angle(offset.normalize(), angle * PI / 180.0);
        all.push(Entity {
            world: glam::Mat4::from_scale_rotation_translation(
                glam::Vec3::splat(scale),
                rotation,
                offset,
            ),
            spin,
            color: [0.0, 1.0, 0.0, 1.0],
            cube: true,
            offset: (i as u32 + 1) * stride,
        });
    }
    all
}

fn camera(aspect: f32) -> glam::Mat4 {
    let proj = glam::Mat4::perspective_rh(PI / 4.0, aspect, 1.0, 20.0);
    let view = glam::Mat4::look_at_rh(
        glam::Vec3::new(3.0, -10.0, 6.0),
        glam::Vec3::ZERO,
        glam::Vec3::Z,
    );
    proj * view
}

fn uniform_entry(binding: u32, dynamic: bool, size: usize) -> wgpu::BindGroupLayoutEntry {
    wgpu::BindGroupLayoutEntry {
        binding,
        visibility: wgpu::ShaderStages::VERTEX | wgpu::ShaderStages::FRAGMENT,
        ty: wgpu::BindingType::Buffer {
            ty: wgpu::BufferBindingType::Uniform,
            has_dynamic_offset: dynamic,
            min_binding_size: wgpu::BufferSize::new(size as u64),
        },
        count: None,
    }
}

fn layout(device: &wgpu::Device, entries: &[wgpu::BindGroupLayoutEntry]) -> wgpu::BindGroupLayout {
    device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
        label: None,
        entries,
    })
}

/// The forward pass's group 0 layout: globals, lights, the shadow array and its sampler.
fn forward_layout(device: &wgpu::Device, lights_size: u64) -> wgpu::BindGroupLayout {
    let fragment = wgpu::ShaderStages::FRAGMENT;
    layout(
        device,
        &[
            uniform_entry(0, false, size_of::<Globals>()),
            wgpu::BindGroupLayoutEntry {
                binding: 1,
                visibility: fragment,
                ty: wgpu::BindingType::Buffer {
                    ty: wgpu::BufferBindingType::Storage { read_only: true },
                    has_dynamic_offset: false,
                    min_binding_size: wgpu::BufferSize::new(lights_size),
                },
                count: None,
            },
            wgpu::BindGroupLayoutEntry {
                binding: 2,
                visibility: fragment,
                ty: wgpu::BindingType::Texture {
                    multisampled: false,
                    sample_type: wgpu::TextureSampleType::Depth,
                    view_dimension: wgpu::TextureViewDimension::D2Array,
                },
                count: None,
            },
            wgpu::BindGroupLayoutEntry {
                binding: 3,
                visibility: fragment,
                ty: wgpu::BindingType::Sampler(wgpu::SamplerBindingType::Comparison),
                count: None,
            },
        ],
    )
}

struct PipelineParts<'a> {
    layouts: &'a [&'a wgpu::BindGroupLayout],
    shader: &'a wgpu::ShaderModule,
    vertex_entry: &'a str,
    color: Option<wgpu::TextureFormat>,
    depth: wgpu::DepthStencilState,
}

fn pipeline(device: &wgpu::Device, parts: PipelineParts<'_>) -> wgpu::RenderPipeline {
    let layouts: Vec<_> = parts.layouts.iter().map(|l| Some(*l)).collect();
    let layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
        label: None,
        bind_group_layouts: &layouts,
        immediate_size: 0,
    });
    let targets = [parts.color.map(Into::into)];
    let buffers = [Some(wgpu::VertexBufferLayout {
        array_stride: size_of::<Vertex>() as u64,
        step_mode: wgpu::VertexStepMode::Vertex,
        attributes: &wgpu::vertex_attr_array![0 => Sint8x4, 1 => Sint8x4],
    })];
    let fs = parts
        .color
        .and_then(|_| fragment_stage(parts.shader, "fs_main", &targets));
    device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
        primitive: wgpu::PrimitiveState {
            cull_mode: Some(wgpu::Face::Back),
            ..Default::default()
        },
        depth_stencil: Some(parts.depth),
        ..pipeline_desc(
            Some(parts.vertex_entry),
            Some(&layout),
            vertex_stage(parts.shader, parts.vertex_entry, &buffers),
            fs,
        )
    })
}

fn depth_state(
    compare: wgpu::CompareFunction,
    bias: wgpu::DepthBiasState,
) -> wgpu::DepthStencilState {
    wgpu::DepthStencilState {
        format: DEPTH,
        depth_write_enabled: Some(true),
        depth_compare: Some(compare),
        stencil: Default::default(),
        bias,
    }
}

fn texture(
    device: &wgpu::Device,
    size: wgpu::Extent3d,
    usage: wgpu::TextureUsages,
) -> wgpu::Texture {
    device.create_texture(&texture_desc(None, size, DEPTH, usage))
}

fn lights(shadow: &wgpu::Texture) -> Vec<Light> {
    let layer = |i: u32| {
        shadow.create_view(&wgpu::TextureViewDescriptor {
            label: Some("shadow layer"),
            dimension: Some(wgpu::TextureViewDimension::D2),
            base_array_layer: i,
            array_layer_count: Some(1),
            ..Default::default()
        })
    };
    vec![
        Light {
            position: glam::Vec3::new(7.0, -5.0, 10.0),
            color: [0.5, 1.0, 0.5, 1.0],
            fov_degrees: 60.0,
            target: layer(0),
        },
        Light {
            position: glam::Vec3::new(-5.0, 7.0, 10.0),
            color: [1.0, 0.5, 0.5, 1.0],
            fov_degrees: 45.0,
            target: layer(1),
        },
    ]
}

impl Shadow {
    fn new(gpu: &Gpu, screen: &Screen, shadow_layers: u32) -> Self {
        let device = &gpu.device;
        let (entities, entity_buf, entity_layout, entity_group) = entity_uniforms(device);
        let shadow = texture(
            device,
            wgpu::Extent3d {
                width: SHADOW_SIZE,
                height: SHADOW_SIZE,
                depth_or_array_layers: shadow_layers,
            },
            wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::TEXTURE_BINDING,
        );
        let shader = device.create_shader_module(wgpu::include_wgsl!("../../shaders/shadow.wgsl"));
        let (bake_globals, bake_group, bake) = bake_pass(device, &shader, &entity_layout);
        let lights_size = u64::from(MAX_LIGHTS) * size_of::<LightRaw>() as u64;
        let light_buf = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("lights"),
            size: lights_size,
            usage: wgpu::BufferUsages::STORAGE
                | wgpu::BufferUsages::COPY_SRC
                | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let forward_layout = forward_layout(device, lights_size);
        let lights = lights(&shadow);
        let aspect = screen.size.0 as f32 / screen.size.1 as f32;
        let forward_group = forward_group(
            device,
            &forward_layout,
            [&camera_globals(device, aspect, lights.len()), &light_buf],
            &shadow,
        );
        let forward = pipeline(
            device,
            PipelineParts {
                layouts: &[&forward_layout, &entity_layout],
                shader: &shader,
                vertex_entry: "vs_main",
                color: Some(screen.format),
                depth: depth_state(wgpu::CompareFunction::Less, Default::default()),
            },
        );
        let depth = texture(
            device,
            extent(screen.size),
            wgpu::TextureUsages::RENDER_ATTACHMENT,
        )
        .create_view(&Default::default());
        Shadow {
            cube: mesh(device, cube()),
            plane: mesh(device, plane(7)),
            entities,
            lights,
            entity_buf,
            entity_group,
            bake_globals,
            bake_group,
            bake,
            light_buf,
            forward_group,
            forward,
            depth,
        }
    }
}

/// The entities, their uniform buffer (one aligned slot each, bound with a dynamic offset),
/// its layout and bind group.
fn entity_uniforms(
    device: &wgpu::Device,
) -> (
    Vec<Entity>,
    wgpu::Buffer,
    wgpu::BindGroupLayout,
    wgpu::BindGroup,
) {
    let entity_size = size_of::<EntityRaw>();
    let stride =
        (entity_size as u32).next_multiple_of(device.limits().min_uniform_buffer_offset_alignment);
    let entities = entities(stride);
    let buffer = device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("entities"),
        size: u64::from(stride) * entities.len() as u64,
        usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    });
    let layout = layout(device, &[uniform_entry(0, true, entity_size)]);
    let group = bind_group(
        device,
        &layout,
        &[wgpu::BindingResource::Buffer(wgpu::BufferBinding {
            buffer: &buffer,
            offset: 0,
            size: wgpu::BufferSize::new(entity_size as u64),
        })],
    );
    (entities, buffer, layout, group)
}

/// The forward pass's globals: the camera and how many lights there are.
fn camera_globals(device: &wgpu::Device, aspect: f32, lights: usize) -> wgpu::Buffer {
    let globals = Globals {
        view_proj: camera(aspect).to_cols_array_2d(),
        light_count: [lights as u32, 0, 0, 0],
    };
    device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
        label: Some("globals"),
        contents: bytemuck::bytes_of(&globals),
        usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
    })
}

/// The forward pass's group 0: `[globals, lights]`, the whole shadow array and a comparison
/// sampler.
fn forward_group(
    device: &wgpu::Device,
    layout: &wgpu::BindGroupLayout,
    [globals, lights]: [&wgpu::Buffer; 2],
    shadow: &wgpu::Texture,
) -> wgpu::BindGroup {
    let sampler = device.create_sampler(&wgpu::SamplerDescriptor {
        label: Some("shadow"),
        mag_filter: wgpu::FilterMode::Linear,
        min_filter: wgpu::FilterMode::Linear,
        compare: Some(wgpu::CompareFunction::LessEqual),
        ..Default::default()
    });
    let view = shadow.create_view(&wgpu::TextureViewDescriptor {
        dimension: Some(wgpu::TextureViewDimension::D2Array),
        ..Default::default()
    });
    bind_group(
        device,
        layout,
        &[
            globals.as_entire_binding(),
            lights.as_entire_binding(),
            wgpu::BindingResource::TextureView(&view),
            wgpu::BindingResource::Sampler(&sampler),
        ],
    )
}

/// The bake pass: a depth-only pipeline with a slope-scaled bias, and its globals (one light's
/// matrix, copied in before each light's pass).
fn bake_pass(
    device: &wgpu::Device,
    shader: &wgpu::ShaderModule,
    entity_layout: &wgpu::BindGroupLayout,
) -> (wgpu::Buffer, wgpu::BindGroup, wgpu::RenderPipeline) {
    let globals_layout = layout(device, &[uniform_entry(0, false, size_of::<Globals>())]);
    let globals = device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("bake globals"),
        size: size_of::<Globals>() as u64,
        usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    });
    let group = bind_group(device, &globals_layout, &[globals.as_entire_binding()]);
    let bias = wgpu::DepthBiasState {
        constant: 2,
        slope_scale: 2.0,
        clamp: 0.0,
    };
    let pipeline = pipeline(
        device,
        PipelineParts {
            layouts: &[&globals_layout, entity_layout],
            shader,
            vertex_entry: "vs_bake",
            color: None,
            depth: depth_state(wgpu::CompareFunction::LessEqual, bias),
        },
    );
    (globals, group, pipeline)
}

impl Shadow {
    fn draw_entities(&self, pass: &mut wgpu::RenderPass<'_>) {
        for e in &self.entities {
            let mesh = if e.cube { &self.cube } else { &self.plane };
            pass.set_bind_group(1, &self.entity_group, &[e.offset]);
            pass.set_index_buffer(mesh.indices.slice(..), wgpu::IndexFormat::Uint16);
            pass.set_vertex_buffer(0, mesh.vertices.slice(..));
            pass.draw_indexed(0..mesh.count, 0, 0..1);
        }
    }

    fn frame(&mut self, gpu: &Gpu, screen: &mut Screen, index: u32) {
        for e in &mut self.entities {
            e.world *= glam::Mat4::from_rotation_x(e.spin * PI / 180.0);
            let raw = EntityRaw {
                world: e.world.to_cols_array_2d(),
                color: e.color,
            };
            gpu.queue.write_buffer(
                &self.entity_buf,
                u64::from(e.offset),
                bytemuck::bytes_of(&raw),
            );
        }
        if index == 0 {
            for (i, light) in self.lights.iter().enumerate() {
                let at = (i * size_of::<LightRaw>()) as u64;
                gpu.queue
                    .write_buffer(&self.light_buf, at, bytemuck::bytes_of(&light.raw()));
            }
        }
        let mut encoder = gpu.device.create_command_encoder(&Default::default());
        for (i, light) in self.lights.iter().enumerate() {
            let at = (i * size_of::<LightRaw>()) as u64;
            encoder.copy_buffer_to_buffer(&self.light_buf, at, &self.bake_globals, 0, 64);
            let depth = depth_target(&light.target, wgpu::StoreOp::Store);
            let mut pass = render_pass(&mut encoder, "shadow bake", &[], depth);
            pass.set_pipeline(&self.bake);
            pass.set_bind_group(0, &self.bake_group, &[]);
            self.draw_entities(&mut pass);
        }
        let view = screen.acquire();
        {
            let colors = [color_target(&view, wgpu::LoadOp::Clear(CLEAR_COLOR))];
            let depth = depth_target(&self.depth, wgpu::StoreOp::Discard);
            let mut pass = render_pass(&mut encoder, "forward", &colors, depth);
            pass.set_pipeline(&self.forward);
            pass.set_bind_group(0, &self.forward_group, &[]);
            self.draw_entities(&mut pass);
        }
        screen.present(&gpu.queue, encoder);
    }
}

/// The shared command line, and the shadow array's layer count.
#[derive(Parser)]
struct ShadowArgs {
    #[command(flatten)]
    common: Args,
    /// Layers of the shadow map array: wgpu's example makes one for each of up to 10 lights
    /// and renders two; 2 makes the array just the layers the lights render.
    #[arg(long, default_value_t = MAX_LIGHTS, value_parser = clap::value_parser!(u32).range(2..=10))]
    shadow_layers: u32,
}

fn main() {
    let ShadowArgs {
        common: args,
        shadow_layers,
    } = ShadowArgs::parse();
    run(
        "shadow",
        &args,
        wgpu::Features::empty(),
        |gpu, screen| Shadow::new(gpu, screen, shadow_layers),
        |app, gpu, screen, i| app.frame(gpu, screen, i),
    );
}

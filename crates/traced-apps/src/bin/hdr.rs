//! learn-wgpu's HDR tutorial (intermediate, tutorial 13) on wgpu 30, headless: a scene pass
//! into an `rgba16float` image (Clear, Store) with its depth (Clear, Store), then a tone-mapping
//! pass that samples it into the screen image (Load, Store).

use tilegraph_traced_apps::{
    CLEAR_COLOR, Gpu, Screen, bind_group, buffer_init, color_target, depth_target, extent,
    fragment_stage, pipeline_desc, render_pass, run_plain, texture_desc, vertex_stage,
};

const HDR: wgpu::TextureFormat = wgpu::TextureFormat::Rgba16Float;
const DEPTH: wgpu::TextureFormat = wgpu::TextureFormat::Depth32Float;
const GRID: i32 = 10;

#[repr(C)]
#[derive(Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
struct CameraRaw {
    position: [f32; 4],
    view_proj: [[f32; 4]; 4],
    inv_proj: [[f32; 4]; 4],
    inv_view: [[f32; 4]; 4],
}

#[repr(C)]
#[derive(Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
struct LightRaw {
    position: [f32; 4],
    color: [f32; 4],
}

/// A cube of side 2: six faces of two triangles, position and normal a vertex.
fn cube() -> Vec<[f32; 6]> {
    let mut out = Vec::new();
    for axis in 0..3 {
        for sign in [1.0f32, -1.0] {
            let (u, v) = ((axis + 1) % 3, (axis + 2) % 3);
            let corner = |a: f32, b: f32| {
                let mut p = [0.0; 6];
                p[axis] = sign;
                p[u] = a * sign;
                p[v] = b;
                p[3 + axis] = sign;
                p
            };
            let quad = [
                corner(-1.0, -1.0),
                corner(1.0, -1.0),
                corner(1.0, 1.0),
                corner(-1.0, 1.0),
            ];
            out.extend([0, 1, 2, 2, 3, 0].map(|i| quad[i]));
        }
    }
    out
}

fn instances() -> Vec<[f32; 3]> {
    (0..GRID * GRID)
        .map(|i| {
            [
                (i % GRID - GRID / 2) as f32,
                0.0,
                (i / GRID - GRID / 2) as f32,
            ]
        })
        .collect()
}

fn camera(aspect: f32) -> CameraRaw {
    let eye = glam::Vec3::new(0.0, 5.0, 10.0);
    let view = glam::Mat4::look_at_rh(eye, glam::Vec3::ZERO, glam::Vec3::Y);
    let proj = glam::Mat4::perspective_rh(45f32.to_radians(), aspect, 0.1, 100.0);
    CameraRaw {
        position: eye.extend(1.0).to_array(),
        view_proj: (proj * view).to_cols_array_2d(),
        inv_proj: proj.inverse().to_cols_array_2d(),
        inv_view: view.inverse().to_cols_array_2d(),
    }
}

fn target(
    device: &wgpu::Device,
    size: (u32, u32),
    format: wgpu::TextureFormat,
) -> wgpu::TextureView {
    device
        .create_texture(&texture_desc(
            Some(if format == HDR { "hdr" } else { "depth" }),
            extent(size),
            format,
            wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::TEXTURE_BINDING,
        ))
        .create_view(&Default::default())
}

/// What differs between the scene's three pipelines.
struct Kind<'a> {
    entry: &'a str,
    buffers: &'a [Option<wgpu::VertexBufferLayout<'a>>],
    depth_write: bool,
}

fn scene_pipeline(
    device: &wgpu::Device,
    shader: &wgpu::ShaderModule,
    kind: Kind<'_>,
) -> wgpu::RenderPipeline {
    let (vs, fs) = (format!("vs_{}", kind.entry), format!("fs_{}", kind.entry));
    let targets = [Some(HDR.into())];
    device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
        depth_stencil: Some(wgpu::DepthStencilState {
            format: DEPTH,
            depth_write_enabled: Some(kind.depth_write),
            depth_compare: Some(wgpu::CompareFunction::LessEqual),
            stencil: Default::default(),
            bias: Default::default(),
        }),
        ..pipeline_desc(
            Some(kind.entry),
            None,
            vertex_stage(shader, &vs, kind.buffers),
            fragment_stage(shader, &fs, &targets),
        )
    })
}

/// The tone-mapping pass's pipeline: a triangle over the screen sampling the HDR image.
fn tonemap_pipeline(device: &wgpu::Device, format: wgpu::TextureFormat) -> wgpu::RenderPipeline {
    let tonemap_shader =
        device.create_shader_module(wgpu::include_wgsl!("../../shaders/hdr_tonemap.wgsl"));
    let targets = [Some(format.into())];
    device.create_render_pipeline(&pipeline_desc(
        Some("tonemap"),
        None,
        vertex_stage(&tonemap_shader, "vs_main", &[]),
        fragment_stage(&tonemap_shader, "fs_main", &targets),
    ))
}

/// The scene's pipelines: the instanced cubes, the light marker and the sky.
fn scene_pipelines(device: &wgpu::Device) -> [wgpu::RenderPipeline; 3] {
    let shader = device.create_shader_module(wgpu::include_wgsl!("../../shaders/hdr_scene.wgsl"));
    let cube_layout = wgpu::VertexBufferLayout {
        array_stride: 24,
        step_mode: wgpu::VertexStepMode::Vertex,
        attributes: &wgpu::vertex_attr_array![0 => Float32x3, 1 => Float32x3],
    };
    let instance_layout = wgpu::VertexBufferLayout {
        array_stride: 12,
        step_mode: wgpu::VertexStepMode::Instance,
        attributes: &wgpu::vertex_attr_array![2 => Float32x3],
    };
    let cube_buffers = [Some(cube_layout.clone()), Some(instance_layout)];
    let light_buffers = [Some(cube_layout)];
    let kind = |entry, buffers, depth_write| Kind {
        entry,
        buffers,
        depth_write,
    };
    let cubes = scene_pipeline(device, &shader, kind("cube", &cube_buffers, true));
    let light = scene_pipeline(device, &shader, kind("light", &light_buffers, true));
    let sky = scene_pipeline(device, &shader, kind("sky", &[], false));
    [cubes, light, sky]
}

struct Hdr {
    cubes: wgpu::RenderPipeline,
    light: wgpu::RenderPipeline,
    sky: wgpu::RenderPipeline,
    tonemap: wgpu::RenderPipeline,
    vertices: wgpu::Buffer,
    instances: wgpu::Buffer,
    light_buf: wgpu::Buffer,
    /// The scene's group 0 for each pipeline (layouts are derived, one per pipeline).
    groups: [wgpu::BindGroup; 3],
    tonemap_group: wgpu::BindGroup,
    hdr: wgpu::TextureView,
    depth: wgpu::TextureView,
}

fn group(
    device: &wgpu::Device,
    pipeline: &wgpu::RenderPipeline,
    resources: &[wgpu::BindingResource<'_>],
) -> wgpu::BindGroup {
    bind_group(device, &pipeline.get_bind_group_layout(0), resources)
}

impl Hdr {
    fn new(gpu: &Gpu, screen: &Screen) -> Self {
        let device = &gpu.device;
        let [cubes, light, sky] = scene_pipelines(device);
        let uniform = wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST;
        let camera_buf = buffer_init(
            device,
            bytemuck::bytes_of(&camera(screen.size.0 as f32 / screen.size.1 as f32)),
            uniform,
        );
        let light_buf = buffer_init(device, &[0; size_of::<LightRaw>()], uniform);
        let both = [
            camera_buf.as_entire_binding(),
            light_buf.as_entire_binding(),
        ];
        let groups = [
            group(device, &cubes, &both),
            group(device, &light, &both),
            group(device, &sky, &both[..1]),
        ];
        let hdr = target(device, screen.size, HDR);
        let tonemap = tonemap_pipeline(device, screen.format);
        let sampler = device.create_sampler(&Default::default());
        let tonemap_group = group(
            device,
            &tonemap,
            &[
                wgpu::BindingResource::TextureView(&hdr),
                wgpu::BindingResource::Sampler(&sampler),
            ],
        );
        Hdr {
            cubes,
            light,
            sky,
            tonemap,
            vertices: buffer_init(
                device,
                bytemuck::cast_slice(&cube()),
                wgpu::BufferUsages::VERTEX,
            ),
            instances: buffer_init(
                device,
                bytemuck::cast_slice(&instances()),
                wgpu::BufferUsages::VERTEX,
            ),
            light_buf,
            groups,
            tonemap_group,
            hdr,
            depth: target(device, screen.size, DEPTH),
        }
    }

    fn scene(&self, encoder: &mut wgpu::CommandEncoder) {
        let colors = [color_target(&self.hdr, wgpu::LoadOp::Clear(CLEAR_COLOR))];
        let depth = depth_target(&self.depth, wgpu::StoreOp::Store);
        let mut pass = render_pass(encoder, "scene", &colors, depth);
        pass.set_vertex_buffer(0, self.vertices.slice(..));
        pass.set_pipeline(&self.light);
        pass.set_bind_group(0, &self.groups[1], &[]);
        pass.draw(0..36, 0..1);
        pass.set_pipeline(&self.cubes);
        pass.set_bind_group(0, &self.groups[0], &[]);
        pass.set_vertex_buffer(1, self.instances.slice(..));
        pass.draw(0..36, 0..(GRID * GRID) as u32);
        pass.set_pipeline(&self.sky);
        pass.set_bind_group(0, &self.groups[2], &[]);
        pass.draw(0..3, 0..1);
    }

    fn frame(&self, gpu: &Gpu, screen: &mut Screen, index: u32) {
        // The light orbits one degree a frame, as the tutorial's does at 60 frames a second.
        let angle = (index as f32).to_radians();
        let light = LightRaw {
            position: [4.0 * angle.cos(), 2.0, 4.0 * angle.sin(), 1.0],
            color: [1.0, 1.0, 1.0, 3.0],
        };
        gpu.queue
            .write_buffer(&self.light_buf, 0, bytemuck::bytes_of(&light));
        let mut encoder = gpu.device.create_command_encoder(&Default::default());
        self.scene(&mut encoder);
        let view = screen.acquire();
        {
            let colors = [color_target(&view, wgpu::LoadOp::Load)];
            let mut pass = render_pass(&mut encoder, "tonemap", &colors, None);
            pass.set_pipeline(&self.tonemap);
            pass.set_bind_group(0, &self.tonemap_group, &[]);
            pass.draw(0..3, 0..1);
        }
        screen.present(&gpu.queue, encoder);
    }
}

fn main() {
    run_plain("hdr", Hdr::new, |app, gpu, screen, i| {
        app.frame(gpu, screen, i)
    });
}

//! wgpu's `boids` example on wgpu 30, headless: a compute pass moves 1500 boids from one
//! storage buffer into the other (the two swap every frame), then a render pass draws them as
//! instanced triangles onto the screen image with `LoadOp::Load`, as the original does.

use tilegraph_traced_apps::{
    Gpu, Screen, bind_group, color_target, fragment_stage, pipeline_desc, render_pass, run_plain,
    vertex_stage,
};
use wgpu::util::DeviceExt;

const BOIDS: u32 = 1500;
const PER_GROUP: u32 = 64;

/// Starting positions in (-1, 1)² and velocities in (-0.1, 0.1)², from a fixed seed.
fn start() -> Vec<f32> {
    let mut state = 42u64;
    let mut unit = move || {
        // A 64-bit linear congruential step; the top 24 bits as a float in [0, 1).
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (state >> 40) as f32 / (1u64 << 24) as f32 * 2.0 - 1.0
    };
    (0..BOIDS)
        .flat_map(|_| [unit(), unit(), unit() * 0.1, unit() * 0.1])
        .collect()
}

fn storage(binding: u32, read_only: bool) -> wgpu::BindGroupLayoutEntry {
    wgpu::BindGroupLayoutEntry {
        binding,
        visibility: wgpu::ShaderStages::COMPUTE,
        ty: wgpu::BindingType::Buffer {
            ty: wgpu::BufferBindingType::Storage { read_only },
            has_dynamic_offset: false,
            min_binding_size: wgpu::BufferSize::new(u64::from(BOIDS) * 16),
        },
        count: None,
    }
}

/// The simulation's bind group layout (parameters, boids read, boids written) and pipeline.
fn compute_pipeline(device: &wgpu::Device) -> (wgpu::BindGroupLayout, wgpu::ComputePipeline) {
    let layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
        label: None,
        entries: &[
            wgpu::BindGroupLayoutEntry {
                binding: 0,
                visibility: wgpu::ShaderStages::COMPUTE,
                ty: wgpu::BindingType::Buffer {
                    ty: wgpu::BufferBindingType::Uniform,
                    has_dynamic_offset: false,
                    min_binding_size: wgpu::BufferSize::new(28),
                },
                count: None,
            },
            storage(1, true),
            storage(2, false),
        ],
    });
    let compute_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
        label: Some("compute"),
        bind_group_layouts: &[Some(&layout)],
        immediate_size: 0,
    });
    let module =
        device.create_shader_module(wgpu::include_wgsl!("../../shaders/boids_compute.wgsl"));
    let compute = device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
        label: Some("boids"),
        layout: Some(&compute_layout),
        module: &module,
        entry_point: Some("main"),
        compilation_options: Default::default(),
        cache: None,
    });
    (layout, compute)
}

struct Boids {
    groups: Vec<wgpu::BindGroup>,
    buffers: Vec<wgpu::Buffer>,
    triangle: wgpu::Buffer,
    compute: wgpu::ComputePipeline,
    draw: wgpu::RenderPipeline,
}

impl Boids {
    fn new(gpu: &Gpu, screen: &Screen) -> Self {
        let device = &gpu.device;
        let params: [f32; 7] = [0.04, 0.1, 0.025, 0.025, 0.02, 0.05, 0.005];
        let params = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some("parameters"),
            contents: bytemuck::cast_slice(&params),
            usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
        });
        let (layout, compute) = compute_pipeline(device);
        let start = start();
        let buffers: Vec<_> = (0..2)
            .map(|i| {
                device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
                    label: Some(&format!("boids {i}")),
                    contents: bytemuck::cast_slice(&start),
                    usage: wgpu::BufferUsages::VERTEX | wgpu::BufferUsages::STORAGE,
                })
            })
            .collect();
        let groups = (0..2)
            .map(|i| {
                bind_group(
                    device,
                    &layout,
                    &[
                        params.as_entire_binding(),
                        buffers[i].as_entire_binding(),
                        buffers[1 - i].as_entire_binding(),
                    ],
                )
            })
            .collect();
        let triangle = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some("triangle"),
            contents: bytemuck::cast_slice(&[-0.01f32, -0.02, 0.01, -0.02, 0.0, 0.02]),
            usage: wgpu::BufferUsages::VERTEX,
        });
        Boids {
            groups,
            buffers,
            triangle,
            compute,
            draw: draw_pipeline(device, screen.format),
        }
    }

    fn frame(&self, gpu: &Gpu, screen: &mut Screen, index: u32) {
        let view = screen.acquire();
        let i = index as usize % 2;
        let mut encoder = gpu.device.create_command_encoder(&Default::default());
        {
            let mut pass = encoder.begin_compute_pass(&Default::default());
            pass.set_pipeline(&self.compute);
            pass.set_bind_group(0, &self.groups[i], &[]);
            pass.dispatch_workgroups(BOIDS.div_ceil(PER_GROUP), 1, 1);
        }
        {
            let colors = [color_target(&view, wgpu::LoadOp::Load)];
            let mut pass = render_pass(&mut encoder, "boids", &colors, None);
            pass.set_pipeline(&self.draw);
            pass.set_vertex_buffer(0, self.buffers[1 - i].slice(..));
            pass.set_vertex_buffer(1, self.triangle.slice(..));
            pass.draw(0..3, 0..BOIDS);
        }
        screen.present(&gpu.queue, encoder);
    }
}

fn draw_pipeline(device: &wgpu::Device, format: wgpu::TextureFormat) -> wgpu::RenderPipeline {
    let module = device.create_shader_module(wgpu::include_wgsl!("../../shaders/boids_draw.wgsl"));
    let layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
        label: Some("render"),
        bind_group_layouts: &[],
        immediate_size: 0,
    });
    let buffers = [
        Some(wgpu::VertexBufferLayout {
            array_stride: 16,
            step_mode: wgpu::VertexStepMode::Instance,
            attributes: &wgpu::vertex_attr_array![0 => Float32x2, 1 => Float32x2],
        }),
        Some(wgpu::VertexBufferLayout {
            array_stride: 8,
            step_mode: wgpu::VertexStepMode::Vertex,
            attributes: &wgpu::vertex_attr_array![2 => Float32x2],
        }),
    ];
    let targets = [Some(format.into())];
    device.create_render_pipeline(&pipeline_desc(
        Some("boids"),
        Some(&layout),
        vertex_stage(&module, "vs_main", &buffers),
        fragment_stage(&module, "fs_main", &targets),
    ))
}

fn main() {
    run_plain("boids", Boids::new, |app, gpu, screen, i| {
        app.frame(gpu, screen, i)
    });
}

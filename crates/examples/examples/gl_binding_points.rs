//! A stand-alone reproduction, in wgpu alone, of a draw that reads two textures and two
//! uniform buffers of one bind group: each binding holds another value, and the draw writes
//! what it read from each into one texel. Where the backend leaves every sampler and uniform
//! block on binding point 0 (wgpu 30's GL backend on a desktop GL 3.3 context whose driver lists
//! compute shaders, as NVIDIA's through EGL), the second texture and the second uniform buffer
//! read as the first.
//!
//! ```text
//! cargo run --example gl_binding_points -- [--backend gl|vulkan]
//! ```
//!
//! Prints the adapter, its `GL_VERSION` (`driver_info`) and the texel; exits with 1 where a
//! binding was read from another, 2 where no adapter opens.

use std::process::ExitCode;

use tilegraph::wgpu;

const SHADER: &str = r"
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

fn main() -> ExitCode {
    let backend = match std::env::args()
        .skip_while(|a| a != "--backend")
        .nth(1)
        .as_deref()
    {
        None | Some("gl") => wgpu::Backends::GL,
        Some("vulkan") => wgpu::Backends::VULKAN,
        Some(other) => {
            eprintln!("unknown backend `{other}`: gl or vulkan");
            return ExitCode::from(2);
        }
    };
    let instance = wgpu::Instance::new(wgpu::InstanceDescriptor {
        backends: backend,
        ..wgpu::InstanceDescriptor::new_without_display_handle()
    });
    let Ok(adapter) = pollster::block_on(instance.request_adapter(&Default::default())) else {
        eprintln!("no {backend:?} adapter");
        return ExitCode::from(2);
    };
    let info = adapter.get_info();
    println!(
        "adapter: {} ({:?}), driver_info: {}",
        info.name, info.backend, info.driver_info
    );
    let Ok((device, queue)) = pollster::block_on(adapter.request_device(&Default::default()))
    else {
        eprintln!("the adapter opens no device");
        return ExitCode::from(2);
    };
    let texel = draw(&device, &queue);
    println!("texel: {texel:?} (expected [255, 255, 191, 64])");
    let near = |v: u8, want: u8| v.abs_diff(want) <= 2;
    let textures = near(texel[1], 255);
    let uniforms = near(texel[2], 191);
    println!(
        "second texture read from its own binding: {}; second uniform buffer: {}",
        if textures {
            "yes"
        } else {
            "no, from binding 0"
        },
        if uniforms {
            "yes"
        } else {
            "no, from binding 2"
        }
    );
    if textures && uniforms {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

/// Textures 0 and 1 hold red and green, uniform buffers 0 and 1 hold 0.25 and 0.75; the draw
/// writes `(t0.r, t1.g, u1, u0)` into a 1×1 target, read back.
fn draw(device: &wgpu::Device, queue: &wgpu::Queue) -> [u8; 4] {
    let format = wgpu::TextureFormat::Rgba8Unorm;
    let texel = |rgba: [u8; 4], usage| {
        let t = device.create_texture(&wgpu::TextureDescriptor {
            label: None,
            size: wgpu::Extent3d::default(),
            mip_level_count: 1,
            sample_count: 1,
            dimension: wgpu::TextureDimension::D2,
            format,
            usage: usage | wgpu::TextureUsages::COPY_DST,
            view_formats: &[],
        });
        queue.write_texture(
            t.as_image_copy(),
            &rgba,
            wgpu::TexelCopyBufferLayout::default(),
            wgpu::Extent3d::default(),
        );
        t
    };
    let sampled = wgpu::TextureUsages::TEXTURE_BINDING;
    let (red, green) = (
        texel([255, 0, 0, 255], sampled),
        texel([0, 255, 0, 255], sampled),
    );
    let out = texel(
        [0; 4],
        wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::COPY_SRC,
    );
    let uniform = |x: f32| {
        let b = device.create_buffer(&wgpu::BufferDescriptor {
            label: None,
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
    let (u0, u1) = (uniform(0.25), uniform(0.75));
    let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
        label: None,
        source: wgpu::ShaderSource::Wgsl(SHADER.into()),
    });
    let pipeline = device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
        label: None,
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
    });
    let view = |t: &wgpu::Texture| t.create_view(&Default::default());
    let (red_view, green_view, out_view) = (view(&red), view(&green), view(&out));
    let group = device.create_bind_group(&wgpu::BindGroupDescriptor {
        label: None,
        layout: &pipeline.get_bind_group_layout(0),
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
    });
    let row = wgpu::COPY_BYTES_PER_ROW_ALIGNMENT;
    let buffer = device.create_buffer(&wgpu::BufferDescriptor {
        label: None,
        size: u64::from(row),
        usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    });
    let mut encoder = device.create_command_encoder(&Default::default());
    {
        let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
            label: None,
            color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                view: &out_view,
                depth_slice: None,
                resolve_target: None,
                ops: wgpu::Operations {
                    load: wgpu::LoadOp::Clear(wgpu::Color::TRANSPARENT),
                    store: wgpu::StoreOp::Store,
                },
            })],
            ..Default::default()
        });
        pass.set_pipeline(&pipeline);
        pass.set_bind_group(0, &group, &[]);
        pass.draw(0..3, 0..1);
    }
    encoder.copy_texture_to_buffer(
        out.as_image_copy(),
        wgpu::TexelCopyBufferInfo {
            buffer: &buffer,
            layout: wgpu::TexelCopyBufferLayout {
                offset: 0,
                bytes_per_row: Some(row),
                rows_per_image: None,
            },
        },
        wgpu::Extent3d::default(),
    );
    queue.submit([encoder.finish()]);
    buffer.map_async(wgpu::MapMode::Read, .., |_| {});
    device
        .poll(wgpu::PollType::wait_indefinitely())
        .expect("the read-back completes");
    let data = buffer.get_mapped_range(..).expect("mapped");
    [data[0], data[1], data[2], data[3]]
}

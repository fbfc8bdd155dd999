//! wgpu's `mipmap` example on wgpu 30, headless: a 512×512 Julia set uploaded to mip 0, the
//! nine smaller levels rendered each from the one above (Clear, Store), all in one submission
//! before the first frame; then every frame draws a strip to the horizon sampling every level
//! into the screen image (Clear, Store).

use std::f32::consts::PI;

use tilegraph_traced_apps::{
    CLEAR_COLOR, Gpu, Screen, bind_group, color_target, extent, fragment_stage, pipeline_desc,
    render_pass, run_plain, texture_desc, vertex_stage,
};
use wgpu::util::DeviceExt;

const FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba8UnormSrgb;
const MIPS: u32 = 10;
const SIZE: u32 = 1 << (MIPS - 1);

/// The Julia set of c = cx + i·cy over [-2, 2] × [-1, 1], four bytes a texel: the fewer
/// iterations to escape, the brighter.
fn julia(size: u32, cx: f32, cy: f32) -> Vec<u8> {
    let n = size as usize;
    let mut texels = Vec::with_capacity(n * n * 4);
    for id in 0..n * n {
        let mut x = 4.0 * (id % n) as f32 / (n - 1) as f32 - 2.0;
        let mut y = 2.0 * (id / n) as f32 / (n - 1) as f32 - 1.0;
        let mut count = 0u32;
        while count < 0xff && x * x + y * y < 4.0 {
            (x, y) = (x * x - y * y + cx, 2.0 * x * y + cy);
            count += 1;
        }
        let fade = |k: u32| 0xffu8.wrapping_sub((count * k) as u8);
        texels.extend([fade(2), fade(5), fade(13), 0xff]);
    }
    texels
}

fn camera(aspect: f32) -> glam::Mat4 {
    let proj = glam::Mat4::perspective_rh(PI / 4.0, aspect, 1.0, 1000.0);
    let view = glam::Mat4::look_at_rh(
        glam::Vec3::new(0.0, 0.0, 10.0),
        glam::Vec3::new(0.0, 50.0, 0.0),
        glam::Vec3::Z,
    );
    proj * view
}

fn pipeline(
    device: &wgpu::Device,
    shader: &wgpu::ShaderModule,
    format: wgpu::TextureFormat,
    topology: wgpu::PrimitiveTopology,
) -> wgpu::RenderPipeline {
    let targets = [Some(format.into())];
    device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
        primitive: wgpu::PrimitiveState {
            topology,
            ..Default::default()
        },
        ..pipeline_desc(
            None,
            None,
            vertex_stage(shader, "vs_main", &[]),
            fragment_stage(shader, "fs_main", &targets),
        )
    })
}

/// Renders mips 1.. of `texture`, each from the level above, into `encoder`.
fn generate_mips(
    device: &wgpu::Device,
    encoder: &mut wgpu::CommandEncoder,
    texture: &wgpu::Texture,
) {
    let shader = device.create_shader_module(wgpu::include_wgsl!("../../shaders/mip_blit.wgsl"));
    let blit = pipeline(
        device,
        &shader,
        FORMAT,
        wgpu::PrimitiveTopology::TriangleList,
    );
    let sampler = device.create_sampler(&wgpu::SamplerDescriptor {
        label: Some("mip"),
        mag_filter: wgpu::FilterMode::Linear,
        min_filter: wgpu::FilterMode::Linear,
        ..Default::default()
    });
    let views: Vec<_> = (0..MIPS)
        .map(|mip| {
            texture.create_view(&wgpu::TextureViewDescriptor {
                label: Some("mip"),
                base_mip_level: mip,
                mip_level_count: Some(1),
                ..Default::default()
            })
        })
        .collect();
    for target in 1..MIPS as usize {
        let group = bind_group(
            device,
            &blit.get_bind_group_layout(0),
            &[
                wgpu::BindingResource::TextureView(&views[target - 1]),
                wgpu::BindingResource::Sampler(&sampler),
            ],
        );
        let colors = [color_target(
            &views[target],
            wgpu::LoadOp::Clear(wgpu::Color::WHITE),
        )];
        let mut pass = render_pass(encoder, "mip", &colors, None);
        pass.set_pipeline(&blit);
        pass.set_bind_group(0, &group, &[]);
        pass.draw(0..3, 0..1);
    }
}

struct Mipmap {
    group: wgpu::BindGroup,
    draw: wgpu::RenderPipeline,
}

impl Mipmap {
    fn new(gpu: &Gpu, screen: &Screen) -> Self {
        let device = &gpu.device;
        let texture = device.create_texture(&wgpu::TextureDescriptor {
            mip_level_count: MIPS,
            ..texture_desc(
                Some("julia"),
                extent((SIZE, SIZE)),
                FORMAT,
                wgpu::TextureUsages::TEXTURE_BINDING
                    | wgpu::TextureUsages::RENDER_ATTACHMENT
                    | wgpu::TextureUsages::COPY_DST,
            )
        });
        let staging = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some("texels"),
            contents: &julia(SIZE, -0.8, 0.156),
            usage: wgpu::BufferUsages::COPY_SRC,
        });
        let mut encoder = device.create_command_encoder(&Default::default());
        encoder.copy_buffer_to_texture(
            wgpu::TexelCopyBufferInfo {
                buffer: &staging,
                layout: wgpu::TexelCopyBufferLayout {
                    offset: 0,
                    bytes_per_row: Some(4 * SIZE),
                    rows_per_image: None,
                },
            },
            texture.as_image_copy(),
            extent((SIZE, SIZE)),
        );
        generate_mips(device, &mut encoder, &texture);
        gpu.queue.submit([encoder.finish()]);

        let transform = camera(screen.size.0 as f32 / screen.size.1 as f32);
        let uniforms = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some("transform"),
            contents: bytemuck::cast_slice(transform.as_ref()),
            usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
        });
        let sampler = device.create_sampler(&wgpu::SamplerDescriptor {
            address_mode_u: wgpu::AddressMode::Repeat,
            address_mode_v: wgpu::AddressMode::Repeat,
            mag_filter: wgpu::FilterMode::Linear,
            min_filter: wgpu::FilterMode::Linear,
            mipmap_filter: wgpu::MipmapFilterMode::Linear,
            ..Default::default()
        });
        let shader =
            device.create_shader_module(wgpu::include_wgsl!("../../shaders/mip_draw.wgsl"));
        let draw = pipeline(
            device,
            &shader,
            screen.format,
            wgpu::PrimitiveTopology::TriangleStrip,
        );
        let view = texture.create_view(&Default::default());
        let group = bind_group(
            device,
            &draw.get_bind_group_layout(0),
            &[
                uniforms.as_entire_binding(),
                wgpu::BindingResource::TextureView(&view),
                wgpu::BindingResource::Sampler(&sampler),
            ],
        );
        Mipmap { group, draw }
    }

    fn frame(&self, gpu: &Gpu, screen: &mut Screen) {
        let view = screen.acquire();
        let mut encoder = gpu.device.create_command_encoder(&Default::default());
        {
            let colors = [color_target(&view, wgpu::LoadOp::Clear(CLEAR_COLOR))];
            let mut pass = render_pass(&mut encoder, "draw", &colors, None);
            pass.set_pipeline(&self.draw);
            pass.set_bind_group(0, &self.group, &[]);
            pass.draw(0..4, 0..1);
        }
        screen.present(&gpu.queue, encoder);
    }
}

fn main() {
    run_plain("mipmap", Mipmap::new, |app, gpu, screen, _| {
        app.frame(gpu, screen)
    });
}

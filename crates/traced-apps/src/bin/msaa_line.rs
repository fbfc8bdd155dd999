//! wgpu's `msaa_line` example on wgpu 30, headless: fifty coloured lines drawn from a render
//! bundle into a multisampled image (Clear, Discard) resolved into the screen image, at the
//! highest sample count the adapter offers for the format.

use bytemuck::{Pod, Zeroable};
use clap::Parser;
use tilegraph_traced_apps::{
    Args, Gpu, Screen, color_target, extent, fragment_stage, pipeline_desc, render_pass, run,
    texture_desc, vertex_stage,
};
use wgpu::util::DeviceExt;

#[repr(C)]
#[derive(Clone, Copy, Pod, Zeroable)]
struct Vertex {
    position: [f32; 2],
    color: [f32; 4],
}

/// The shared command line, and how the lines are drawn.
#[derive(Parser)]
struct MsaaArgs {
    #[command(flatten)]
    common: Args,
    /// Draws the lines straight into the pass instead of from a render bundle (wgpu's example
    /// records a bundle once and executes it every frame).
    #[arg(long)]
    no_bundle: bool,
}

/// The highest sample count the adapter offers for `format` (1 where it offers none).
fn max_samples(adapter: &wgpu::Adapter, format: wgpu::TextureFormat) -> u32 {
    let flags = adapter.get_texture_format_features(format).flags;
    [16, 8, 4, 2]
        .into_iter()
        .find(|&n| flags.sample_count_supported(n))
        .unwrap_or(1)
}

fn lines() -> Vec<Vertex> {
    let count = 50;
    (0..count)
        .flat_map(|i| {
            let turn = i as f32 / count as f32 * std::f32::consts::TAU;
            let (sin, cos) = turn.sin_cos();
            [
                Vertex {
                    position: [0.0, 0.0],
                    color: [1.0, -sin, cos, 1.0],
                },
                Vertex {
                    position: [cos, sin],
                    color: [sin, -cos, 1.0, 1.0],
                },
            ]
        })
        .collect()
}

struct MsaaLine {
    pipeline: wgpu::RenderPipeline,
    vertices: wgpu::Buffer,
    count: u32,
    bundle: Option<wgpu::RenderBundle>,
    samples: u32,
    multisampled: wgpu::TextureView,
}

impl MsaaLine {
    fn new(gpu: &Gpu, screen: &Screen, bundle: bool) -> Self {
        let device = &gpu.device;
        let samples = max_samples(&gpu.adapter, screen.format);
        eprintln!("sample count: {samples}");
        let shader =
            device.create_shader_module(wgpu::include_wgsl!("../../shaders/msaa_line.wgsl"));
        let layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: None,
            bind_group_layouts: &[],
            immediate_size: 0,
        });
        let buffers = [Some(wgpu::VertexBufferLayout {
            array_stride: size_of::<Vertex>() as u64,
            step_mode: wgpu::VertexStepMode::Vertex,
            attributes: &wgpu::vertex_attr_array![0 => Float32x2, 1 => Float32x4],
        })];
        let targets = [Some(screen.format.into())];
        let pipeline = device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
            primitive: wgpu::PrimitiveState {
                topology: wgpu::PrimitiveTopology::LineList,
                ..Default::default()
            },
            multisample: wgpu::MultisampleState {
                count: samples,
                ..Default::default()
            },
            ..pipeline_desc(
                Some("lines"),
                Some(&layout),
                vertex_stage(&shader, "vs_main", &buffers),
                fragment_stage(&shader, "fs_main", &targets),
            )
        });
        let lines = lines();
        let vertices = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some("lines"),
            contents: bytemuck::cast_slice(&lines),
            usage: wgpu::BufferUsages::VERTEX,
        });
        let multisampled = device
            .create_texture(&wgpu::TextureDescriptor {
                sample_count: samples,
                ..texture_desc(
                    Some("multisampled"),
                    extent(screen.size),
                    screen.format,
                    wgpu::TextureUsages::RENDER_ATTACHMENT,
                )
            })
            .create_view(&Default::default());
        let mut app = MsaaLine {
            pipeline,
            vertices,
            count: lines.len() as u32,
            bundle: None,
            samples,
            multisampled,
        };
        if bundle {
            app.bundle = Some(app.record_bundle(device, screen.format));
        }
        app
    }

    fn record_bundle(
        &self,
        device: &wgpu::Device,
        format: wgpu::TextureFormat,
    ) -> wgpu::RenderBundle {
        let mut encoder =
            device.create_render_bundle_encoder(&wgpu::RenderBundleEncoderDescriptor {
                label: None,
                color_formats: &[Some(format)],
                depth_stencil: None,
                sample_count: self.samples,
                multiview: None,
            });
        encoder.set_pipeline(&self.pipeline);
        encoder.set_vertex_buffer(0, self.vertices.slice(..));
        encoder.draw(0..self.count, 0..1);
        encoder.finish(&wgpu::RenderBundleDescriptor {
            label: Some("lines"),
        })
    }

    fn frame(&self, gpu: &Gpu, screen: &mut Screen) {
        let view = screen.acquire();
        let mut encoder = gpu.device.create_command_encoder(&Default::default());
        let clear = wgpu::LoadOp::Clear(wgpu::Color::BLACK);
        let attachment = if self.samples == 1 {
            color_target(&view, clear)
        } else {
            Some(wgpu::RenderPassColorAttachment {
                view: &self.multisampled,
                depth_slice: None,
                resolve_target: Some(&view),
                ops: wgpu::Operations {
                    load: clear,
                    store: wgpu::StoreOp::Discard,
                },
            })
        };
        {
            let mut pass = render_pass(&mut encoder, "lines", &[attachment], None);
            match &self.bundle {
                Some(bundle) => pass.execute_bundles([bundle]),
                None => {
                    pass.set_pipeline(&self.pipeline);
                    pass.set_vertex_buffer(0, self.vertices.slice(..));
                    pass.draw(0..self.count, 0..1);
                }
            }
        }
        screen.present(&gpu.queue, encoder);
    }
}

fn main() {
    let MsaaArgs {
        common: args,
        no_bundle,
    } = MsaaArgs::parse();
    run(
        "msaa_line",
        &args,
        wgpu::Features::TEXTURE_ADAPTER_SPECIFIC_FORMAT_FEATURES,
        |gpu, screen| MsaaLine::new(gpu, screen, !no_bundle),
        |app, gpu, screen, _| app.frame(gpu, screen),
    );
}

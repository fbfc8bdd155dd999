//! Environment mapping through tilegraph: a procedural environment captured into the six layers
//! of a cube texture (`cube.layer(face)`), its mip chain filtered one face at a time
//! (`cube.subresource(mip, face)`), then spheres of increasing roughness reflecting it through a
//! cube view made from the graph's texture.
//!
//! ```text
//! cargo run --release --example cubemap -- [--headless | --window] [--output PATH] [--size WxH]
//!     [--frames N] [--mode planned|naive|poison] [--backend vulkan|gl|auto] [--print-plan]
//!     [--timings] [--no-dont-care] [--resize-at FRAME WxH]
//! ```

#[path = "../common/app.rs"]
mod app;
mod frame;

use std::process::ExitCode;

use frame::CubemapFrame;
use tilegraph::wgpu;
use tilegraph::{RenderGraph, TextureHandle};
use tilegraph_tool::headless::Gpu;

impl app::Example for CubemapFrame {
    const NAME: &'static str = "cubemap";
    type Config = app::NoFlags;

    fn new(gpu: &Gpu, format: wgpu::TextureFormat, _: &app::NoFlags) -> Result<Self, String> {
        Ok(CubemapFrame::new(&gpu.device, format))
    }

    fn update(&mut self, queue: &wgpu::Queue, size: (u32, u32), _: u32, time: f32) {
        CubemapFrame::update(self, queue, size, time);
    }

    fn declare(&mut self, size: (u32, u32)) -> (RenderGraph<'_>, TextureHandle) {
        let (graph, handles) = CubemapFrame::declare(self, size);
        (graph, handles.output)
    }

    fn end_frame(&mut self) {
        CubemapFrame::end_frame(self);
    }
}

fn main() -> ExitCode {
    app::main::<CubemapFrame>()
}

//! The `cubemap` example's frame, [`CubemapFrame`], and how the shell drives it.

mod frame;

pub use frame::{CubemapFrame, CubemapHandles};

use tilegraph::wgpu;
use tilegraph::{RenderGraph, TextureHandle};
use tilegraph_tool::headless::Gpu;

use crate::app;

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

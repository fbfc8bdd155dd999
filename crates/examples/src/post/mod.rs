//! The `post` example's frame, [`PostFrame`], and how the shell drives it.

mod frame;

pub use frame::{PostFrame, PostHandles};

use tilegraph::wgpu;
use tilegraph::{RenderGraph, TextureHandle};
use tilegraph_tool::headless::Gpu;

use crate::app;

impl app::Example for PostFrame {
    const NAME: &'static str = "post";
    type Config = app::NoFlags;

    fn new(gpu: &Gpu, format: wgpu::TextureFormat, _: &app::NoFlags) -> Result<Self, String> {
        Ok(PostFrame::new(&gpu.device, format))
    }

    fn update(&mut self, queue: &wgpu::Queue, size: (u32, u32), frame: u32, time: f32) {
        PostFrame::update(self, queue, size, frame, time);
    }

    fn declare(&mut self, size: (u32, u32)) -> (RenderGraph<'_>, TextureHandle) {
        let (graph, handles) = PostFrame::declare(self, size);
        (graph, handles.output)
    }

    fn end_frame(&mut self) {
        PostFrame::end_frame(self);
    }
}

//! The `stereo` example's frame, [`StereoFrame`], its flags and how the shell drives it.

mod frame;

pub use frame::{StereoFrame, StereoHandles, eye_size};

use tilegraph::wgpu;
use tilegraph::{RenderGraph, TextureHandle};
use tilegraph_tool::headless::Gpu;

use crate::app;

/// The example's own flags.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct Config {
    /// One render pass per eye even where the device has multiview.
    #[arg(long)]
    pub no_multiview: bool,
}

impl app::Example for StereoFrame {
    const NAME: &'static str = "stereo";
    type Config = Config;

    fn multiview(config: &Config) -> bool {
        !config.no_multiview
    }

    fn new(gpu: &Gpu, format: wgpu::TextureFormat, config: &Config) -> Result<Self, String> {
        let multiview = tilegraph::Views::multiview_supported(&gpu.device);
        eprintln!(
            "multiview: {}",
            match (multiview, config.no_multiview) {
                (true, false) => "one multiview render pass for both eyes",
                (true, true) => "off (--no-multiview): one render pass per eye",
                (false, _) => "not on this device: one render pass per eye",
            }
        );
        Ok(StereoFrame::new(&gpu.device, format))
    }

    fn update(&mut self, queue: &wgpu::Queue, size: (u32, u32), _: u32, time: f32) {
        StereoFrame::update(self, queue, size, time);
    }

    fn declare(&mut self, size: (u32, u32)) -> (RenderGraph<'_>, TextureHandle) {
        let (graph, handles) = StereoFrame::declare(self, size);
        (graph, handles.output)
    }

    fn end_frame(&mut self) {
        StereoFrame::end_frame(self);
    }
}

//! A headset-style frame through tilegraph: both eyes forward-shaded with 4× MSAA into two-layer
//! arrays in one multiview pass (resolved per layer), a per-eye post pass, and a companion window
//! showing both eyes side by side. `--no-multiview` records every multiview pass once per eye
//! even where the device has multiview (compare with `--timings`).
//!
//! ```text
//! cargo run --release --example stereo -- [--headless | --window] [--output PATH] [--size WxH]
//!     [--frames N] [--mode planned|naive|poison] [--backend vulkan|gl|auto] [--print-plan]
//!     [--plan-html PATH] [--timings] [--no-dont-care] [--resize-at FRAME WxH] [--no-multiview]
//! ```

#[path = "../common/app.rs"]
mod app;
mod frame;

use std::process::ExitCode;

use frame::StereoFrame;
use tilegraph::wgpu;
use tilegraph::{RenderGraph, TextureHandle};
use tilegraph_tool::headless::Gpu;

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

fn main() -> ExitCode {
    app::main::<StereoFrame>()
}

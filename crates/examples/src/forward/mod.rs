//! The `forward` example's frame, [`ForwardFrame`], its scenes (built in code or loaded from
//! glTF), its flags and how the shell drives it.

mod frame;
mod scene;

pub use frame::{ForwardFrame, ForwardHandles};
pub use scene::{Geometry, load_gltf, procedural};

use std::path::PathBuf;

use tilegraph::wgpu;
use tilegraph::{RenderGraph, TextureHandle};
use tilegraph_tool::headless::Gpu;

use crate::app;

/// The example's own flags.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct Config {
    /// A glTF file to draw instead of the built-in scene.
    #[arg(long, value_name = "FILE")]
    pub scene: Option<PathBuf>,
}

impl app::Example for ForwardFrame {
    const NAME: &'static str = "forward";
    type Config = Config;

    fn new(gpu: &Gpu, format: wgpu::TextureFormat, config: &Config) -> Result<Self, String> {
        let geometry = match &config.scene {
            Some(path) => scene::load_gltf(path)?,
            None => scene::procedural(),
        };
        Ok(ForwardFrame::new(&gpu.device, format, &geometry))
    }

    fn update(&mut self, queue: &wgpu::Queue, size: (u32, u32), _: u32, time: f32) {
        ForwardFrame::update(self, queue, size, time);
    }

    fn declare(&mut self, size: (u32, u32)) -> (RenderGraph<'_>, TextureHandle) {
        let (graph, handles) = ForwardFrame::declare(self, size);
        (graph, handles.output)
    }

    fn end_frame(&mut self) {
        ForwardFrame::end_frame(self);
    }
}

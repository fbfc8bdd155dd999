//! The `deferred` example's frame, [`DeferredFrame`], its flags and how the shell drives it.

mod frame;
mod scene;

pub use frame::{DeferredFrame, FrameHandles, HandTargets};
pub use scene::{LIGHT_COUNT, LightPath};

use tilegraph::wgpu;
use tilegraph::{RenderGraph, TextureHandle};
use tilegraph_tool::headless::Gpu;

use crate::app;

/// The example's own flags.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct Config {
    /// The lights' bindings: `storage` buffers, one `uniform` buffer, or `auto` (`None`): the
    /// first the adapter compiles.
    // The full path keeps clap from reading `None` as "flag absent": `auto` parses to `None`.
    #[arg(
        long,
        value_name = "storage|uniform|auto",
        default_value = "auto",
        value_parser = light_path_arg
    )]
    pub light_path: ::std::option::Option<LightPath>,
}

fn light_path_arg(v: &str) -> Result<Option<LightPath>, String> {
    match v {
        "storage" => Ok(Some(LightPath::Storage)),
        "uniform" => Ok(Some(LightPath::Uniform)),
        "auto" => Ok(None),
        _ => Err(format!("takes storage, uniform or auto, not `{v}`")),
    }
}

impl app::Example for DeferredFrame {
    const NAME: &'static str = "deferred";
    type Config = Config;

    /// The light path's bindings: two storage buffers in the fragment stage, or every light in
    /// one uniform buffer (the first path of the candidates the adapter allows).
    fn limits(adapter: &wgpu::Adapter, config: &Config) -> wgpu::Limits {
        let candidates = match config.light_path {
            Some(path) => vec![path],
            None => vec![LightPath::Storage, LightPath::Uniform],
        };
        let mut limits = wgpu::Limits::downlevel_webgl2_defaults();
        if let Some(path) = candidates.into_iter().find(|p| p.fits(adapter)) {
            path.raise_limits(&mut limits);
        }
        limits
    }

    fn new(gpu: &Gpu, format: wgpu::TextureFormat, config: &Config) -> Result<Self, String> {
        let frame =
            DeferredFrame::with_light_path(&gpu.adapter, &gpu.device, format, config.light_path)?;
        eprintln!("light path: {}", frame.light_path().as_str());
        Ok(frame)
    }

    fn update(&mut self, queue: &wgpu::Queue, size: (u32, u32), _: u32, time: f32) {
        DeferredFrame::update(self, queue, size, time);
    }

    fn declare(&mut self, size: (u32, u32)) -> (RenderGraph<'_>, TextureHandle) {
        let (graph, handles) = DeferredFrame::declare(self, size);
        (graph, handles.output)
    }
}

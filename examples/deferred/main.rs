//! Deferred shading through tilegraph: G-buffer, 256 moving point lights culled per tile in a
//! compute pass, lighting and transparent glass merged into one render pass, tonemap.
//!
//! ```text
//! cargo run --release --example deferred -- [--headless | --window] [--output PATH] [--size WxH]
//!     [--frames N] [--mode planned|naive|poison] [--backend vulkan|gl|auto] [--print-plan]
//!     [--plan-html PATH] [--timings] [--no-dont-care] [--resize-at FRAME WxH] [--resize-every N]
//!     [--light-path storage|uniform|auto]
//! ```
//!
//! The flags, the headless loop and the window loop are the gallery's (`examples/common/app.rs`);
//! the frame is in `frame.rs`, its graph first. The frame hands over `wgpu::LoadOpDontCare`:
//! lighting and tonemap write every pixel of their targets (full-screen triangles, no blending,
//! lighting's depth test `Always` and read-only). `--light-path` picks how lights reach the
//! shaders (`auto`, the default: the first path the adapter compiles).

#[path = "../common/app.rs"]
mod app;
mod frame;

use std::process::ExitCode;

use frame::{DeferredFrame, LightPath};
use tilegraph::wgpu;
use tilegraph::{RenderGraph, TextureHandle};
use tilegraph_tool::headless::Gpu;

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

fn main() -> ExitCode {
    app::main::<DeferredFrame>()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;
    use tilegraph::ExecuteMode;
    use tilegraph_tool::headless::Backend;

    #[test]
    fn flags_parse_and_bad_ones_are_errors() {
        let o = app::parse::<DeferredFrame>(app::args(
            "--size 257x131 --frames 3 --mode poison --backend gl --output a.png \
             --light-path uniform --no-dont-care --timings --print-plan --plan-html p.html",
        ))
        .unwrap();
        assert_eq!(o.size, (257, 131));
        assert_eq!(o.frames, Some(3));
        assert_eq!(o.mode, ExecuteMode::Poison);
        assert_eq!(o.backend, Backend::Gl);
        assert_eq!(o.output, PathBuf::from("a.png"));
        assert_eq!(o.extra.light_path, Some(LightPath::Uniform));
        assert!(!o.dont_care && o.timings && o.print_plan && !o.window);
        assert_eq!(o.plan_html, Some(PathBuf::from("p.html")));
        let o = app::parse::<DeferredFrame>(app::args("--window --light-path auto")).unwrap();
        assert!(o.window);
        assert_eq!(o.extra.light_path, None);
        assert_eq!(o.output, PathBuf::from("deferred.png"));
        let o = app::parse::<DeferredFrame>(app::args("--light-path storage")).unwrap();
        assert_eq!(o.extra.light_path, Some(LightPath::Storage));
        for bad in [
            "--size 0x10",
            "--size 12",
            "--frames 0",
            "--mode fast",
            "--backend metal",
            "--output",
            "--light-path",
            "--light-path compute",
            "--headless --window",
            "--resize-every 5",
            "--bogus",
        ] {
            assert!(
                app::parse::<DeferredFrame>(app::args(bad)).is_err_and(|e| !e.is_empty()),
                "{bad} accepted"
            );
        }
    }
}

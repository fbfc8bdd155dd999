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
//! The flags, the headless loop and the window loop are the gallery's
//! (`crates/examples/src/app.rs`); the frame is in `crates/examples/src/deferred/frame.rs`, its
//! graph first. The frame hands over `wgpu::LoadOpDontCare`:
//! lighting and tonemap write every pixel of their targets (full-screen triangles, no blending,
//! lighting's depth test `Always` and read-only). `--light-path` picks how lights reach the
//! shaders (`auto`, the default: the first path the adapter compiles).

use std::process::ExitCode;

use tilegraph_examples::app;
use tilegraph_examples::deferred::DeferredFrame;

fn main() -> ExitCode {
    app::main::<DeferredFrame>()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;
    use tilegraph::ExecuteMode;
    use tilegraph_examples::deferred::LightPath;
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
        let o = app::parse::<DeferredFrame>(app::args("--trace-dir t")).unwrap();
        assert_eq!(o.trace_dir, Some(PathBuf::from("t")));
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
            "--window --trace-dir t",
            "--trace-dir",
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

//! The deferred frame with an egui overlay drawn inside a graph pass: the overlay shows the
//! running plan (groups with their passes and ops, traffic planned against naive, GPU time per
//! group from wgpu-profiler) and, in a window, switches the recording mode, DontCare and
//! restructuring at run time.
//!
//! ```text
//! cargo run --release --example hud -- [--headless | --window] [--output PATH] [--size WxH]
//!     [--frames N] [--mode planned|naive|poison] [--backend vulkan|gl|auto] [--print-plan]
//!     [--plan-html PATH] [--timings] [--no-dont-care] [--resize-at FRAME WxH] [--resize-every N]
//!     [--trace FILE] [--live-overlay]
//! ```
//!
//! The overlay is a render pass declared like any other, after tonemapping, over the output
//! (`read_write`: it blends over the image); egui-wgpu draws into the graph's
//! `RenderPass<'static>`. Every frame runs under a `wgpu_profiler::GpuProfiler`
//! (`Recording::timer`): one scope per group, the passes inside; `--trace FILE` writes
//! the last frames as a Chrome trace. Headless, the overlay shows what the plan decides and
//! nothing that changes from run to run or mode to mode, so `--mode planned|naive|poison` give
//! one image; `--live-overlay` adds the GPU times and the mode switch, as in a window.
//! `--timings` prints the median GPU time per group and the overlay's own cost per frame (CPU:
//! running and tessellating the UI, uploading, recording its draws; GPU: its group and its pass).

use std::process::ExitCode;

use tilegraph_examples::app;
use tilegraph_examples::hud::Hud;

fn main() -> ExitCode {
    app::main::<Hud>()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;
    use tilegraph::ExecuteMode;

    #[test]
    fn flags_are_the_gallery_s_with_trace_and_live_overlay() {
        let o = app::parse::<Hud>(app::args(
            "--frames 5 --size 640x360 --output hud.png --trace trace.json --mode poison --timings",
        ))
        .unwrap();
        assert_eq!(
            (o.frames, o.size, o.mode),
            (Some(5), (640, 360), ExecuteMode::Poison)
        );
        assert_eq!(o.output, PathBuf::from("hud.png"));
        assert_eq!(o.extra.trace, Some(PathBuf::from("trace.json")));
        assert!(o.timings && !o.extra.live_overlay);
        let o = app::parse::<Hud>(app::args("--window --live-overlay")).unwrap();
        assert!(o.window && o.extra.live_overlay && o.extra.trace.is_none());
        assert_eq!(o.output, PathBuf::from("hud.png"));
        for bad in ["--trace", "--live-overlay 3", "--bogus"] {
            assert!(app::parse::<Hud>(app::args(bad)).is_err(), "{bad} accepted");
        }
    }
}

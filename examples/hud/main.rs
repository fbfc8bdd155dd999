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

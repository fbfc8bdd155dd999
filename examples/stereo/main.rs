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

use std::process::ExitCode;

use tilegraph_examples::app;
use tilegraph_examples::stereo::StereoFrame;

fn main() -> ExitCode {
    app::main::<StereoFrame>()
}

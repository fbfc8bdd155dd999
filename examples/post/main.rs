//! Post-processing through tilegraph: a ray-traced HDR scene with a jittered camera, temporal
//! anti-aliasing into a graph-owned history texture, bloom down and up the mips of one texture,
//! tonemap.
//!
//! ```text
//! cargo run --release --example post -- [--headless | --window] [--output PATH] [--size WxH]
//!     [--frames N] [--mode planned|naive|poison] [--backend vulkan|gl|auto] [--print-plan]
//!     [--timings] [--no-dont-care] [--resize-at FRAME WxH] [--resize-every N]
//! ```
//!
//! Every pass but the bloom upsamples writes every pixel of its target (full-screen triangles,
//! no blending), so the frame hands over `wgpu::LoadOpDontCare`; the upsamples blend into the
//! downsampled mips and load them. `--resize-at` renders from frame FRAME on at another size:
//! the history is reallocated and TAA starts over (`PassContext::history_valid`). In a window,
//! `--resize-every N` asks for another window size every N presented frames (the surface follows).

use std::process::ExitCode;

use tilegraph_examples::app;
use tilegraph_examples::post::PostFrame;

fn main() -> ExitCode {
    app::main::<PostFrame>()
}

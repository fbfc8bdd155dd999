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

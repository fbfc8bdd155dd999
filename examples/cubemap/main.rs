//! Environment mapping through tilegraph: a procedural environment captured into the six layers
//! of a cube texture (`cube.layer(face)`), its mip chain filtered one face at a time
//! (`cube.subresource(mip, face)`), then spheres of increasing roughness reflecting it through a
//! cube view made from the graph's texture.
//!
//! ```text
//! cargo run --release --example cubemap -- [--headless | --window] [--output PATH] [--size WxH]
//!     [--frames N] [--mode planned|naive|poison] [--backend vulkan|gl|auto] [--print-plan]
//!     [--timings] [--no-dont-care] [--resize-at FRAME WxH]
//! ```

use std::process::ExitCode;

use tilegraph_examples::app;
use tilegraph_examples::cubemap::CubemapFrame;

fn main() -> ExitCode {
    app::main::<CubemapFrame>()
}

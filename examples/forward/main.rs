//! Forward shading through tilegraph: three shadow cascades rendered into the layers of one depth
//! array (`shadow.layer(i)`) and sampled as one `texture_depth_2d_array`, then 4× MSAA forward
//! shading whose colour and depth stay transient and resolve into the output.
//!
//! ```text
//! cargo run --release --example forward -- [--headless | --window] [--output PATH] [--size WxH]
//!     [--frames N] [--mode planned|naive|poison] [--backend vulkan|gl|auto] [--print-plan]
//!     [--timings] [--no-dont-care] [--resize-at FRAME WxH] [--scene FILE]
//! ```
//!
//! The scene is built in code unless `--scene` names a glTF 2.0 file (`.glb`, or `.gltf` with
//! its buffers beside it): its triangle meshes, in their base colours, fitted onto the ground.
//! A file it cannot read or draw is an error naming the file; nothing is written then.

use std::process::ExitCode;

use tilegraph_examples::app;
use tilegraph_examples::forward::ForwardFrame;

fn main() -> ExitCode {
    app::main::<ForwardFrame>()
}

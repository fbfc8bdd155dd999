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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flags_parse_and_bad_ones_are_errors() {
        let o = app::parse::<PostFrame>(app::args(
            "--size 257x131 --frames 5 --resize-at 3 64x32 --mode naive --no-dont-care",
        ))
        .unwrap();
        assert_eq!(o.size, (257, 131));
        assert_eq!(o.resize_at, Some((3, (64, 32))));
        assert_eq!(
            (app::size_at(&o, 2), app::size_at(&o, 3)),
            ((257, 131), (64, 32))
        );
        assert!(!o.dont_care);
        assert_eq!(o.output, std::path::PathBuf::from("post.png"));
        let o = app::parse::<PostFrame>(app::args("--window --resize-every 5")).unwrap();
        assert_eq!(o.resize_every, Some(5));
        for bad in [
            "--resize-every 5",
            "--window --resize-every 0",
            "--size 0x10",
            "--resize-at 3",
            "--resize-at x 10x10",
            "--frames 0",
            "--mode fast",
            "--backend metal",
            "--headless --window",
            "--scene a.glb",
        ] {
            assert!(
                app::parse::<PostFrame>(app::args(bad)).is_err_and(|e| !e.is_empty()),
                "{bad} accepted"
            );
        }
    }
}

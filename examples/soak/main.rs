//! The soak run: many frames on one executor with graphs that change every few frames, a frame
//! size that changes every few hundred, a history texture through every graph and more graph
//! shapes than the plan cache and the executor keep. Prints resident memory, pooled textures,
//! lowered plans, cached plans and bind groups, and the wgpu objects alive every `--report-every`
//! frames, then checks they stayed bounded after warm-up (exit status 1 if not).
//!
//! ```text
//! nice -n 19 cargo run --release --example soak -- [--frames 100000] [--report-every 10000]
//!     [--resize-every 400] [--switch-every 3] [--graphs 10] [--seed 1] [--backend vulkan|gl|auto]
//! ```
//!
//! The graphs are random descriptions from the property tests' generator
//! (`tilegraph_oracle::random_graph`), run with the synthetic shaders of `tilegraph run`, at
//! 64×48, 48×32, 80×40 and 40×56 in turn.

use std::process::ExitCode;

fn main() -> ExitCode {
    tilegraph_examples::soak::main()
}

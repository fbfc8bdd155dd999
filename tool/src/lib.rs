//! The `tilegraph` tool's library: what running a graph needs beyond the `tilegraph` crate.
//!
//! - [`headless`]: picks an adapter (any GPU, else a software one), reads textures and buffers
//!   back, writes PNGs. The examples, benches and GPU tests use it too.
//! - [`adapt`]: fits a description to what the adapter can do (wgpu's GL backend) before it
//!   runs.
//! - [`synthetic`]: synthetic shaders whose results depend on exactly what each pass declares, so
//!   `tilegraph run` can execute any description in every execute mode and compare them.
//! - [`timings`]: median GPU time per group and per frame from the executor's timestamps.
//! - [`soak`]: a long run of changing graphs, sizes and histories on one executor, checking that
//!   memory and every cache stay bounded.
//!
//! Kept out of the `tilegraph` crate so that its users compile neither `png` nor the synthetic
//! shaders.
#![warn(missing_docs)]

pub mod adapt;
pub mod headless;
pub mod soak;
pub mod synthetic;
pub mod timings;

//! The `tilegraph` tool's library: what running a graph needs beyond the `tilegraph` crate.
//!
//! - [`headless`]: a device that runs any description (through the library's
//!   [`tilegraph::helpers::open_device`]), depth read back with a draw where the backend cannot
//!   copy it, PNGs. The examples, benches and GPU tests use it too.
//! - [`adapt`]: fits a graph's declarations to what the adapter can do (wgpu's GL backend)
//!   before it runs.
//! - [`synthetic`]: synthetic shaders whose results depend on exactly what each pass declares, so
//!   `tilegraph run` can execute any description in every execute mode and compare them.
//! - [`executed`]: the render passes an execute mode records, as JSON, for checks of what a
//!   driver made of them.
//! - [`timings`]: median GPU time per group and per frame from the executor's timestamps.
//! - [`trace`]: a wgpu API trace of any app rebuilt as graph descriptions, each frame's plan
//!   set beside the app's own load and store ops (`tilegraph trace`).
//! - [`replay`]: a wgpu API trace played back through wgpu as recorded and with the proven ops,
//!   each frame's image compared byte for byte (`tilegraph replay`).
//! - [`soak`]: a long run of changing graphs, sizes and histories on one executor, checking that
//!   memory and every cache stay bounded.
//!
//! Kept out of the `tilegraph` crate so that its users compile neither `png` nor the synthetic
//! shaders.
#![warn(missing_docs)]

pub mod adapt;
pub mod executed;
pub mod headless;
pub mod replay;
pub mod soak;
pub mod synthetic;
pub mod timings;
pub mod trace;

/// A size written `WxH` (`257x131`), both positive: what `--size` takes in the tool, the
/// examples and the benches. `None` when it is anything else.
pub fn parse_size(v: &str) -> Option<(u32, u32)> {
    let (w, h) = v.split_once('x')?;
    Some((w.parse().ok()?, h.parse().ok()?)).filter(|&(w, h)| w > 0 && h > 0)
}

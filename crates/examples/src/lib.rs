//! The gallery behind tilegraph's examples: each example's frame (its graph first, then its
//! scene and pipelines), the shell that runs any of them headless or in a window ([`app`]), the
//! hud's overlay and the soak run. The examples' `main.rs` files call into it, and the GPU tests
//! and benchmarks drive the same frames.
//!
//! | module | the example |
//! |---|---|
//! | [`deferred`] | G-buffer, tiled light culling, lighting merged with glass, tonemap |
//! | [`post`] | TAA into a history texture, bloom down and up one texture's mips |
//! | [`forward`] | shadow cascades in one depth array, 4× MSAA forward shading, glTF scenes |
//! | [`cubemap`] | an environment captured into a cube texture's layers, filtered per mip |
//! | [`stereo`] | both eyes in multiview passes, a per-eye post pass |
//! | [`hud`] | the deferred frame with an egui overlay showing the running plan |
//! | [`soak`] | many frames of changing random graphs, checking what stays bounded |

pub mod app;
pub mod cubemap;
pub mod deferred;
pub mod forward;
pub mod hud;
pub mod post;
pub mod setup;
pub mod soak;
pub mod stereo;

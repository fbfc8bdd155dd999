//! The GPU tests, one binary: the executor, the deferred example's frame, and described graphs run
//! with synthetic shaders, on the adapter `TILEGRAPH_BACKEND` picks (a software one on CI). A test
//! that finds no adapter fails.

mod support;

mod bad_input;
mod bound;
mod buffers;
mod bundles;
mod context;
mod deferred;
mod examples;
mod executor;
mod graphs;
mod helpers;
mod history_buffers;
mod hud;
mod labels;
mod limits;
mod multiview;
mod parallel;
mod per_object;
mod poison;
mod recording;
mod soak;
mod stereo;
mod views;

//! tilegraph's compile benchmark (`benches/compile.rs`) and what it compares against: with the
//! `zenfg` feature, `zenfg_frame::compile` compiles the bench's graphs with zenfg 0.2.

#[cfg(feature = "zenfg")]
pub mod zenfg_frame;

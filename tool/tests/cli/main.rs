//! The tool's CPU tests, one binary: `tilegraph plan` and `dot` on good and bad input, and the
//! library's answers to the same bad input.

mod bad_input;
mod common;
mod replay;
mod tool;
mod trace;

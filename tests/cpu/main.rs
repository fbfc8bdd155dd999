//! The CPU tests, one binary: the compiler's scenarios and errors, the plan properties on random
//! graphs against a reference interpreter, the fuzz corpus, the crate's layering and the
//! repository's layout as CONTRIBUTING.md describes it. No device.

mod common;

mod binding_sizes;
mod bound_pass;
mod buffers;
mod compile_errors;
mod compile_scenarios;
mod declarations;
mod deprecated;
mod fuzz_corpus;
mod golden;
mod history_buffers;
mod layering;
mod layout_doc;
mod multiview;
mod prop_interpreter;
mod prop_plan;
mod prop_regressions;
mod report;
mod report_views;
mod requirements;
mod reset;
mod restructure;
mod subresources;
mod tile;
mod tile_custom;

//! The plan-property modules of tests/support, without the GPU helpers that share its mod.rs.
#![allow(dead_code)]

#[path = "../../../tests/support/checks/mod.rs"]
pub mod checks;
#[path = "../../../tests/support/interp.rs"]
pub mod interp;
#[path = "../../../tests/support/minimal.rs"]
pub mod minimal;
#[path = "../../../tests/support/random_graph.rs"]
pub mod random_graph;

//! Test support: the reference interpreter, the minimality search and the random graph decoder.
#![allow(dead_code)]

pub mod checks;
pub mod interp;
pub mod minimal;
pub mod random_graph;

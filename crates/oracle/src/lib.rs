//! What tilegraph's plans are checked against, shared by the CPU tests, the fuzz targets, the soak
//! run and the benchmarks:
//!
//! - [`interp`]: the reference interpreter, which runs a plan symbolically and records what every
//!   read sees, and what every read must see from the declarations alone;
//! - [`checks`]: the properties every compiled plan must have, one file per step of the compiler;
//! - [`minimal`]: the cheapest load/store assignment the interpreter accepts, for the minimality
//!   property;
//! - [`random_graph`]: random graph descriptions decoded from a sequence of numbers (the property
//!   tests' and fuzz targets' generator, and the soak run's graphs);
//! - [`generate`]: realistic deferred frames of any length (the compile benchmark's graphs);
//! - [`pipeline`]: description → graph → plan → every report, with the checks the fuzz targets make.

pub mod checks;
pub mod generate;
pub mod interp;
pub mod minimal;
pub mod pipeline;
pub mod random_graph;

//! Plan-property support shared by the CPU tests and the fuzz targets: the reference interpreter
//! (`interp`), the minimality search (`minimal`), the random graph decoder (`random_graph`) and the
//! plan properties (`checks`).
#![allow(dead_code)]

pub mod checks;
pub mod interp;
pub mod minimal;
pub mod random_graph;

//! The tool's GPU tests, one binary: `tilegraph run` on the adapter `TILEGRAPH_BACKEND` picks (a
//! software one on CI); no adapter fails the test with the tool's message.

mod apitrace;
mod inputs;
mod replay;
mod run;
mod vendor;

use std::path::{Path, PathBuf};

/// The example graphs (`examples/graphs/*.json`), sorted.
fn example_graphs() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/graphs");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("directory entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    files.sort();
    files
}

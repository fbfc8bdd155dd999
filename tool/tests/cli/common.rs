//! What the tool's CPU tests share: running the tool, and copies of recorded traces to edit.

use std::path::PathBuf;
use std::process::{Command, Output};

/// Runs the `tilegraph` binary with `args`.
pub fn tool(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tilegraph"))
        .args(args)
        .output()
        .expect("the tool runs")
}

/// A copy of the trace in `from`, in a directory of its own (`test` and `name` name it), with
/// `trace.ron` changed by `edit`.
pub fn edited_trace(from: &str, test: &str, name: &str, edit: impl Fn(&str) -> String) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tilegraph-{test}-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let path = entry.unwrap().path();
        std::fs::copy(&path, dir.join(path.file_name().unwrap())).unwrap();
    }
    let ron = std::fs::read_to_string(dir.join("trace.ron")).unwrap();
    std::fs::write(dir.join("trace.ron"), edit(&ron)).unwrap();
    dir
}

//! `tilegraph replay` on bad traces: each a typed error naming the file or the action, found
//! before any device is opened (so these tests need no GPU).

use std::path::{Path, PathBuf};
use std::process::Command;

const NAIVE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/traces/deferred-naive");

/// A copy of the naive trace in a directory of its own, with `trace.ron` changed by `edit`.
fn edited(name: &str, edit: impl Fn(&str) -> String) -> PathBuf {
    crate::common::edited_trace(NAIVE, "replay", name, edit)
}

/// The error of a failed replay: its kind and message.
fn error(dir: &Path, extra: &[&str]) -> (String, String) {
    let o = Command::new(env!("CARGO_BIN_EXE_tilegraph"))
        .arg("replay")
        .arg(dir)
        .args(["--backend", "vulkan"])
        .args(extra)
        .output()
        .expect("the tool runs");
    assert!(!o.status.success());
    let err = String::from_utf8(o.stderr).unwrap();
    assert!(!err.contains("panicked"), "{err}");
    let line = err
        .lines()
        .find(|l| l.starts_with("error: "))
        .expect("an error line");
    let (kind, message) = line["error: ".len()..].split_once(": ").unwrap();
    (kind.to_owned(), message.to_owned())
}

/// The index of the top-level action of `trace.ron` whose text first contains `needle` (each
/// action starts at the start of a line).
fn action_with(dir: &Path, needle: &str) -> usize {
    let ron = std::fs::read_to_string(dir.join("trace.ron")).unwrap();
    let mut started = 0;
    for line in ron.lines() {
        if line.starts_with(char::is_alphabetic) {
            started += 1;
        }
        if line.contains(needle) {
            return started - 1;
        }
    }
    panic!("`{needle}` is not in the trace")
}

#[test]
fn a_truncated_trace_is_named() {
    let dir = edited("truncated", |ron| ron[..ron.len() / 2].to_owned());
    let (kind, message) = error(&dir, &["--replan"]);
    assert_eq!(kind, "truncated_trace", "{message}");
    assert!(message.contains("trace.ron") && message.contains("action "));
}

#[test]
fn another_versions_trace_is_unsupported() {
    let dir = edited("version", |ron| {
        ron.replacen("mip_level_count", "level_count", 1)
    });
    let (kind, message) = error(&dir, &[]);
    assert_eq!(kind, "unsupported_trace", "{message}");
    assert!(message.contains("wgpu 30"), "{message}");
}

#[test]
fn a_missing_data_file_is_named() {
    let dir = edited("data", str::to_owned);
    std::fs::remove_file(dir.join("data3.bin")).unwrap();
    let (kind, message) = error(&dir, &[]);
    assert_eq!(kind, "missing_data_file", "{message}");
    assert!(message.contains("data3.bin") && message.contains("action "));
}

#[test]
fn an_unhandled_action_names_its_index() {
    // A shader module whose source is SPIR-V: the replay plays WGSL only.
    let dir = edited("spirv", |ron| ron.replacen("data5.wgsl", "data5.spv", 1));
    std::fs::copy(dir.join("data5.wgsl"), dir.join("data5.spv")).unwrap();
    let index = action_with(&dir, "data5.spv");
    let (kind, message) = error(&dir, &[]);
    assert_eq!(kind, "unhandled_action", "{message}");
    assert_eq!(
        message,
        format!(
            "action {index}: a shader module whose source is not WGSL is not handled by `tilegraph replay`"
        )
    );
}

#[test]
fn a_missing_directory_is_an_io_error() {
    let (kind, message) = error(Path::new("/nonexistent/trace"), &[]);
    assert_eq!(kind, "io", "{message}");
    assert!(
        message.contains("/nonexistent/trace/trace.ron"),
        "{message}"
    );
}

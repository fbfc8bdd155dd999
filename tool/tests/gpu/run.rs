//! `tilegraph run --hash` on every example graph gives the same hashes in all three modes. Runs
//! the built binary on the backend named by `TILEGRAPH_BACKEND` (default `auto`), so a failure
//! to find an adapter fails the test with the tool's message.

use std::path::Path;
use std::process::Command;

fn run_hash(graph: &Path, mode: &str, backend: &str) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_tilegraph"))
        .arg("run")
        .arg(graph)
        .args(["--mode", mode, "--backend", backend, "--hash"])
        .args(["--size", "160x96", "--frames", "2"])
        .output()
        .expect("start tilegraph");
    assert!(
        out.status.success(),
        "tilegraph run {} --mode {mode} --backend {backend} failed ({}): {}",
        graph.display(),
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    hash_lines(&String::from_utf8_lossy(&out.stdout))
}

/// The `<resource> <hash>` lines of the tool's output. Under `TILEGRAPH_VALIDATION` the Khronos
/// layer also writes its own log to the process's stdout; those lines are passed on to the
/// test's log and left out of the comparison. Otherwise every line must be a hash line.
fn hash_lines(stdout: &str) -> String {
    let is_hash = |line: &str| {
        let mut fields = line.split_whitespace();
        let (name, hash) = (fields.next(), fields.next());
        name.is_some()
            && fields.next().is_none()
            && hash.is_some_and(|h| {
                (h.len() == 16 && h.chars().all(|c| c.is_ascii_hexdigit()))
                    || h.starts_with("unreadable(")
            })
    };
    let layer = std::env::var_os("TILEGRAPH_VALIDATION").is_some();
    let mut kept = String::new();
    for line in stdout.lines() {
        if is_hash(line) {
            kept.push_str(line);
            kept.push('\n');
        } else {
            assert!(layer, "unexpected --hash line `{line}`");
            eprintln!("validation layer: {line}");
        }
    }
    kept
}

#[test]
fn tilegraph_run_agrees_across_modes_on_example_graphs() {
    let backend = std::env::var("TILEGRAPH_BACKEND").unwrap_or_else(|_| "auto".to_owned());
    let graphs = crate::example_graphs();
    assert!(!graphs.is_empty(), "no examples/graphs/*.json found");
    for graph in graphs {
        let planned = run_hash(&graph, "planned", &backend);
        let lines: Vec<&str> = planned.lines().collect();
        assert!(
            !lines.is_empty(),
            "{}: --hash printed nothing (no kept imports?)",
            graph.display()
        );
        for mode in ["naive", "poison"] {
            let other = run_hash(&graph, mode, &backend);
            assert_eq!(
                other,
                planned,
                "{}: `--mode {mode}` hashes differ from `--mode planned`",
                graph.display()
            );
        }
    }
}

#[test]
fn a_file_system_error_is_reported_as_io() {
    let backend = std::env::var("TILEGRAPH_BACKEND").unwrap_or_else(|_| "auto".to_owned());
    let graph = crate::example_graphs()
        .into_iter()
        .next()
        .expect("an example graph");
    // A regular file where the output directory should be: creating the directory fails.
    let blocker = std::env::temp_dir().join(format!("tilegraph-io-{}", std::process::id()));
    std::fs::write(&blocker, b"not a directory").expect("write scratch file");
    let out = Command::new(env!("CARGO_BIN_EXE_tilegraph"))
        .arg("run")
        .arg(&graph)
        .args(["--backend", &backend, "--size", "64x64", "--out"])
        .arg(blocker.join("pngs"))
        .output()
        .expect("start tilegraph");
    let _ = std::fs::remove_file(&blocker);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "the run should fail: {stderr}");
    assert!(
        stderr.contains("error: io: `") && stderr.contains("pngs"),
        "a file-system failure names itself and the path: {stderr}"
    );
}

/// A multisampled depth prepass copied into another multisampled depth (wgpu copies those whole,
/// at equal sample counts) runs and agrees across modes on Vulkan.
#[test]
fn msaa_depth_copy_agrees_across_modes_on_vulkan() {
    let graph = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/graphs/msaa_depth_copy.json");
    let planned = run_hash(&graph, "planned", "vulkan");
    assert!(planned.starts_with("backbuffer "), "{planned}");
    for mode in ["naive", "poison"] {
        assert_eq!(run_hash(&graph, mode, "vulkan"), planned, "{mode}");
    }
}

/// The same graph on GL is refused precisely: wgpu's GL backend cannot copy a multisampled depth,
/// and a draw does not reproduce one faithfully there.
#[test]
fn msaa_depth_copy_is_refused_precisely_on_gl() {
    let graph = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/graphs/msaa_depth_copy.json");
    let out = Command::new(env!("CARGO_BIN_EXE_tilegraph"))
        .arg("run")
        .arg(&graph)
        .args(["--backend", "gl", "--hash", "--size", "64x64"])
        .output()
        .expect("start tilegraph");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "the run should be refused: {stderr}");
    assert!(
        stderr.contains("error: unsupported: pass `copy_prepass_depth`")
            && stderr.contains("`depth_msaa` (depth32float, 4 samples)"),
        "the refusal names the pass, the resource and the format: {stderr}"
    );
    assert!(
        out.stdout.is_empty(),
        "nothing is printed for a refused run"
    );
}

/// A graph sampling single layers past layer 0 of an array: on Vulkan every mode gives one
/// image; on GL, whose wgpu backend binds the whole texture for a shader read (the executor's
/// view probe finds such views read wrongly on llvmpipe), the run is refused naming the pass,
/// the resource and the view, instead of an image that silently differs.
#[test]
fn sampled_later_layers_agree_on_vulkan_and_are_refused_on_gl() {
    let graph =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/graphs/sampled_later_layers.json");
    let run = |backend: &str, mode: &str| {
        Command::new(env!("CARGO_BIN_EXE_tilegraph"))
            .arg("run")
            .arg(&graph)
            .args([
                "--backend",
                backend,
                "--mode",
                mode,
                "--hash",
                "--size",
                "64x64",
            ])
            .output()
            .expect("start tilegraph")
    };
    let hashes: Vec<String> = ["planned", "naive", "poison"]
        .iter()
        .map(|mode| {
            let out = run("vulkan", mode);
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert!(out.status.success(), "{mode} on Vulkan: {stderr}");
            String::from_utf8_lossy(&out.stdout).into_owned()
        })
        .collect();
    assert!(
        hashes.iter().all(|h| *h == hashes[0] && h.contains("out ")),
        "{hashes:?}"
    );
    let out = run("gl", "planned");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        !out.status.success(),
        "the GL run should be refused: {stderr}"
    );
    assert!(
        stderr.contains("error: unsupported: pass `show`")
            && stderr.contains("`layers`")
            && stderr.contains("a 2D view of one layer past layer 0"),
        "{stderr}"
    );
    assert!(
        out.stdout.is_empty(),
        "nothing is printed for a refused run"
    );
}

/// A headless run touches no window system: without `XDG_RUNTIME_DIR`, `WAYLAND_DISPLAY` and
/// `DISPLAY`, a window-system probe (Mesa's Vulkan device-selection layer connecting to Wayland)
/// would print `error: XDG_RUNTIME_DIR is invalid ...`. stderr carries only the adapter line.
#[test]
fn headless_run_prints_no_window_system_errors() {
    let backend = std::env::var("TILEGRAPH_BACKEND").unwrap_or_else(|_| "auto".into());
    let graph = Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/graphs/ssao.json");
    let out = Command::new(env!("CARGO_BIN_EXE_tilegraph"))
        .arg("run")
        .arg(&graph)
        .args(["--backend", &backend, "--hash", "--size", "64x48"])
        .env_remove("XDG_RUNTIME_DIR")
        .env_remove("WAYLAND_DISPLAY")
        .env_remove("DISPLAY")
        .env_remove("NODEVICE_SELECT")
        .env_remove("TILEGRAPH_VALIDATION")
        .env_remove("RUST_LOG")
        .output()
        .expect("start tilegraph");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "tilegraph run failed: {stderr}");
    for line in stderr.lines() {
        assert!(
            line.starts_with("adapter: ") || line.starts_with("note: "),
            "a headless run printed `{line}` to stderr:\n{stderr}"
        );
    }
}

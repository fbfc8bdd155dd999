//! What reaches the GL driver: `tilegraph run --backend gl` traced with apitrace, checked against
//! the plan. Every planned `clear` and `dont_care` load must arrive as `glClear*`/`glClearBuffer*`
//! of that attachment inside its render pass (the guide: the executor records a `dont_care` as
//! a clear on GL, whose wgpu backend ignores DontCare), and every planned `discard` store as an
//! attachment of `glInvalidateFramebuffer`. Render passes are found by their debug group, which
//! wgpu's GL backend opens with the pass label (the group's passes joined by `+`).
//!
//! Needs `apitrace` (CI installs it); without it the test fails under CI and is skipped, loudly,
//! elsewhere.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

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

fn apitrace_available() -> bool {
    let found = Command::new("apitrace").arg("version").output().is_ok();
    if !found {
        assert!(
            std::env::var_os("CI").is_none(),
            "apitrace is not installed; CI must install it (apt-get install apitrace)"
        );
        eprintln!("SKIPPED: apitrace is not installed (`apt-get install apitrace`)");
    }
    found
}

fn plan(graph: &Path, dont_care: bool) -> Value {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_tilegraph"));
    cmd.arg("plan").arg(graph).args(["--format", "json"]);
    if dont_care {
        cmd.arg("--dont-care");
    }
    let out = cmd.output().expect("start tilegraph");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("plan JSON")
}

/// The GL calls of one traced run, one line each.
fn traced_calls(graph: &Path, dont_care: bool, name: &str) -> Vec<String> {
    let dir = std::env::temp_dir().join(format!("tilegraph-apitrace-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let trace = dir.join(format!("{name}-{dont_care}.trace"));
    let _ = std::fs::remove_file(&trace);
    let mut cmd = Command::new("apitrace");
    cmd.args(["trace", "--api", "egl", "-o"])
        .arg(&trace)
        .arg(env!("CARGO_BIN_EXE_tilegraph"))
        .arg("run")
        .arg(graph)
        .args(["--backend", "gl", "--size", "160x96", "--hash"]);
    if dont_care {
        cmd.arg("--dont-care");
    }
    let out = cmd.output().expect("start apitrace");
    assert!(
        out.status.success(),
        "apitrace trace … tilegraph run {} failed: {}",
        graph.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    let dump = Command::new("apitrace")
        .arg("dump")
        .arg(&trace)
        .output()
        .expect("start apitrace dump");
    assert!(dump.status.success(), "apitrace dump failed");
    String::from_utf8_lossy(&dump.stdout)
        .lines()
        .map(str::to_owned)
        .collect()
}

/// The calls between the debug group opened with `label` and its close (first occurrence
/// after `from`), and the index after it.
fn pass_calls<'c>(calls: &'c [String], label: &str, from: usize) -> Option<(&'c [String], usize)> {
    let open = format!("message = \"{label}\")");
    let start = (from..calls.len())
        .find(|&i| calls[i].contains("glPushDebugGroup(") && calls[i].ends_with(&open))?;
    let mut depth = 0usize;
    for (i, call) in calls.iter().enumerate().skip(start) {
        if call.contains("glPushDebugGroup(") {
            depth += 1;
        } else if call.contains("glPopDebugGroup(") {
            depth -= 1;
            if depth == 0 {
                return Some((&calls[start..=i], i + 1));
            }
        }
    }
    None
}

fn clears_color(calls: &[String], slot: usize, slots: usize) -> bool {
    calls.iter().any(|c| {
        (c.contains("glClearBuffer")
            && c.contains("buffer = GL_COLOR")
            && c.contains(&format!("drawbuffer = {slot},")))
            || (slots == 1 && c.contains("glClear(") && c.contains("GL_COLOR_BUFFER_BIT"))
    })
}

fn clears_depth(calls: &[String]) -> bool {
    calls.iter().any(|c| {
        (c.contains("glClearBuffer")
            && (c.contains("buffer = GL_DEPTH,") || c.contains("buffer = GL_DEPTH_STENCIL,")))
            || (c.contains("glClear(") && c.contains("GL_DEPTH_BUFFER_BIT"))
    })
}

fn invalidates(calls: &[String], attachment: &str) -> bool {
    calls.iter().any(|c| {
        c.contains("glInvalidateFramebuffer(")
            && c.split(['{', '}', ',', ' ', '&', ')'])
                .any(|w| w == attachment)
    })
}

/// Every mismatch between the plan and the trace of one run.
fn mismatches(graph: &Path, dont_care: bool) -> Vec<String> {
    let name = graph.file_stem().unwrap().to_string_lossy().into_owned();
    let plan = plan(graph, dont_care);
    let calls = traced_calls(graph, dont_care, &name);
    let mut wrong = Vec::new();
    let mut from = 0;
    for group in plan["groups"].as_array().unwrap() {
        if group["type"] != "render" {
            continue;
        }
        let label: Vec<&str> = group["passes"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p.as_str().unwrap())
            .collect();
        let label = label.join("+");
        let Some((pass, next)) = pass_calls(&calls, &label, from) else {
            wrong.push(format!("{name}: no render pass `{label}` in the trace"));
            continue;
        };
        from = next;
        let color = group["color"].as_array().unwrap();
        for (slot, a) in color.iter().enumerate() {
            let what = format!(
                "{name} (dont_care {dont_care}): `{label}` colour {slot} `{}`",
                a["resource"]
            );
            if (a["load"] == "clear" || a["load"] == "dont_care")
                && !clears_color(pass, slot, color.len())
            {
                wrong.push(format!("{what}: planned load {} but no glClear", a["load"]));
            }
            if a["store"] == "discard" && !invalidates(pass, &format!("GL_COLOR_ATTACHMENT{slot}"))
            {
                wrong.push(format!("{what}: planned discard but not invalidated"));
            }
        }
        if let Some(d) = group["depth"].as_object() {
            let what = format!(
                "{name} (dont_care {dont_care}): `{label}` depth `{}`",
                d["resource"]
            );
            if (d["load"] == "clear" || d["load"] == "dont_care") && !clears_depth(pass) {
                wrong.push(format!("{what}: planned load {} but no glClear", d["load"]));
            }
            if d["store"] == "discard"
                && !invalidates(pass, "GL_DEPTH_ATTACHMENT")
                && !invalidates(pass, "GL_DEPTH_STENCIL_ATTACHMENT")
            {
                wrong.push(format!("{what}: planned discard but not invalidated"));
            }
        }
    }
    wrong
}

#[test]
fn planned_clears_and_discards_reach_the_gl_driver() {
    if !apitrace_available() {
        return;
    }
    let wrong: Vec<String> = example_graphs()
        .iter()
        .flat_map(|g| mismatches(g, false))
        .collect();
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn planned_dont_care_loads_reach_the_gl_driver_as_clears() {
    if !apitrace_available() {
        return;
    }
    let graphs = example_graphs();
    let dont_cares: usize = graphs
        .iter()
        .map(|g| {
            plan(g, true)["groups"]
                .as_array()
                .unwrap()
                .iter()
                .flat_map(|g| {
                    let color = g["color"].as_array().cloned().unwrap_or_default();
                    color.into_iter().chain(g.get("depth").cloned())
                })
                .filter(|a| a["load"] == "dont_care")
                .count()
        })
        .sum();
    assert!(dont_cares > 0, "no example graph plans a dont_care load");
    let wrong: Vec<String> = graphs.iter().flat_map(|g| mismatches(g, true)).collect();
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

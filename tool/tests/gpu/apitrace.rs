//! What reaches the GL driver: `tilegraph run --backend gl` traced with apitrace, checked against
//! the plan. Every planned `clear` load must arrive as `glClear*`/`glClearBuffer*` of that
//! attachment inside its render pass, and every planned `discard` store as an attachment of
//! `glInvalidateFramebuffer`. A planned `dont_care` load is never a clear: it arrives as an
//! attachment of the `glInvalidateFramebuffer` of the empty pass the executor records before the
//! group (the guide: wgpu's GL backend does nothing for DontCare, so the attachment is discarded
//! first). Render passes are found by their debug group, which wgpu's GL backend opens with the
//! pass label (the group's passes joined by `+`; the empty pass: `invalidate ` and the group's).
//!
//! Needs `apitrace` (CI installs it); without it the test fails under CI and is skipped, loudly,
//! elsewhere.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};

use serde_json::Value;

/// The example graphs, and one whose depth (with stencil) loads `dont_care`.
fn traced_graphs() -> Vec<PathBuf> {
    let mut files = crate::example_graphs();
    files.push(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/graphs/depth_write.json"));
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

/// Frames each traced run records.
const FRAMES: usize = 2;

/// The GL calls of one traced run, one line each.
fn traced_calls(graph: &Path, dont_care: bool, name: &str) -> Vec<String> {
    let dir = std::env::temp_dir().join(format!("tilegraph-apitrace-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // Tests run in parallel and may trace the same graph.
    static RUN: AtomicUsize = AtomicUsize::new(0);
    let run = RUN.fetch_add(1, Ordering::Relaxed);
    let trace = dir.join(format!("{name}-{dont_care}-{run}.trace"));
    let _ = std::fs::remove_file(&trace);
    let mut cmd = Command::new("apitrace");
    cmd.args(["trace", "--api", "egl", "-o"])
        .arg(&trace)
        .arg(env!("CARGO_BIN_EXE_tilegraph"))
        .arg("run")
        .arg(graph)
        .args(["--backend", "gl", "--size", "160x96", "--hash"])
        .args(["--frames", &FRAMES.to_string()]);
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
    let calls = String::from_utf8_lossy(&dump.stdout)
        .lines()
        .map(str::to_owned)
        .collect();
    let _ = std::fs::remove_file(&trace);
    calls
}

/// The indices of the first debug group opened with `label` at or after `from`: its opening
/// call and its close.
fn pass_span(calls: &[String], label: &str, from: usize) -> Option<(usize, usize)> {
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
                return Some((start, i));
            }
        }
    }
    None
}

fn is_clear(call: &str) -> bool {
    call.contains("glClear(") || call.contains("glClearBuffer")
}

/// The planned loads of one plan that are `dont_care`, colour and depth.
fn dont_care_loads(plan: &Value) -> usize {
    plan["groups"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|g| {
            let color = g["color"].as_array().cloned().unwrap_or_default();
            color
                .into_iter()
                .chain(g.get("depth").cloned().filter(|d| !d.is_null()))
                .flat_map(with_views)
        })
        .filter(|a| a["load"] == "dont_care")
        .count()
}

/// An attachment of the plan and, in a multiview group, its views 1 .. N nested in it.
fn with_views(a: Value) -> Vec<Value> {
    let views = a["views"].as_array().cloned().unwrap_or_default();
    std::iter::once(a).chain(views).collect()
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

/// Every mismatch between the plan and `calls`, the trace of one run (its first frame).
fn mismatches(graph: &Path, dont_care: bool, calls: &[String]) -> Vec<String> {
    let name = graph.file_stem().unwrap().to_string_lossy().into_owned();
    let plan = plan(graph, dont_care);
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
        // A multiview group runs on GL as one render pass per view (and one invalidation per
        // view), each with that view's layer of every attachment.
        let views = group["multiview"].as_u64().unwrap_or(1) as usize;
        // Per slot, its views in turn.
        let all_color: Vec<Value> = group["color"]
            .as_array()
            .unwrap()
            .iter()
            .cloned()
            .flat_map(with_views)
            .collect();
        let depth_views: Vec<Value> = group["depth"]
            .get("views")
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default();
        for view in 0..views {
            let Some((start, end)) = pass_span(calls, &label, from) else {
                wrong.push(format!(
                    "{name}: no render pass `{label}` (view {view}) in the trace"
                ));
                continue;
            };
            let pass = &calls[start..=end];
            // The empty pass that invalidates the group's `dont_care` attachments: after the group
            // before, before this one.
            let invalidation = pass_span(calls, &format!("invalidate {label}"), from)
                .filter(|&(_, e)| e < start)
                .map(|(s, e)| &calls[s..=e]);
            from = end + 1;
            if let Some(empty) = invalidation
                && let Some(clear) = empty.iter().find(|c| is_clear(c))
            {
                wrong.push(format!("{name}: `invalidate {label}` clears: {clear}"));
            }
            let invalidated_before =
                |attachment: &str| invalidation.is_some_and(|c| invalidates(c, attachment));
            let color: Vec<&Value> = all_color.iter().skip(view).step_by(views).collect();
            let mut dont_care_slot = 0;
            for (slot, a) in color.iter().enumerate() {
                let what = format!(
                    "{name} (dont_care {dont_care}): `{label}` view {view} colour {slot} `{}`",
                    a["resource"]
                );
                let cleared = clears_color(pass, slot, color.len());
                if a["load"] == "clear" && !cleared {
                    wrong.push(format!("{what}: planned load clear but no glClear"));
                }
                if a["load"] == "dont_care" {
                    if cleared {
                        wrong.push(format!("{what}: planned load dont_care but cleared"));
                    }
                    // The empty pass attaches only the `dont_care` attachments, in slot order.
                    if !invalidated_before(&format!("GL_COLOR_ATTACHMENT{dont_care_slot}")) {
                        wrong.push(format!(
                            "{what}: planned load dont_care but not invalidated before the pass"
                        ));
                    }
                    dont_care_slot += 1;
                }
                if a["store"] == "discard"
                    && !invalidates(pass, &format!("GL_COLOR_ATTACHMENT{slot}"))
                {
                    wrong.push(format!("{what}: planned discard but not invalidated"));
                }
            }
            let depth = match view {
                0 => group["depth"].as_object(),
                v => depth_views.get(v - 1).and_then(Value::as_object),
            };
            if let Some(d) = depth {
                let what = format!(
                    "{name} (dont_care {dont_care}): `{label}` view {view} depth `{}`",
                    d["resource"]
                );
                let invalidated = |calls: &[String]| {
                    invalidates(calls, "GL_DEPTH_ATTACHMENT")
                        || invalidates(calls, "GL_DEPTH_STENCIL_ATTACHMENT")
                };
                if d["load"] == "clear" && !clears_depth(pass) {
                    wrong.push(format!("{what}: planned load clear but no glClear"));
                }
                if d["load"] == "dont_care" {
                    if clears_depth(pass) {
                        wrong.push(format!("{what}: planned load dont_care but cleared"));
                    }
                    if !invalidation.is_some_and(invalidated) {
                        wrong.push(format!(
                            "{what}: planned load dont_care but not invalidated before the pass"
                        ));
                    }
                }
                if d["store"] == "discard" && !invalidated(pass) {
                    wrong.push(format!("{what}: planned discard but not invalidated"));
                }
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
    let wrong: Vec<String> = traced_graphs()
        .iter()
        .flat_map(|g| {
            let name = g.file_stem().unwrap().to_string_lossy().into_owned();
            mismatches(g, false, &traced_calls(g, false, &name))
        })
        .collect();
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn planned_dont_care_loads_reach_the_gl_driver_as_invalidations_not_clears() {
    if !apitrace_available() {
        return;
    }
    let graphs = traced_graphs();
    let mut wrong = Vec::new();
    let mut dont_cares = 0;
    for graph in &graphs {
        let name = graph.file_stem().unwrap().to_string_lossy().into_owned();
        let planned = dont_care_loads(&plan(graph, true));
        dont_cares += planned;
        let traced = traced_calls(graph, true, &name);
        wrong.extend(mismatches(graph, true, &traced));
        // Without the token every `write` clears; with it none does.
        let clears = |calls: &[String]| calls.iter().filter(|c| is_clear(c)).count();
        let with = clears(&traced);
        let without = clears(&traced_calls(graph, false, &name));
        if with + planned * FRAMES > without {
            wrong.push(format!(
                "{name}: {with} clears with the DontCare token, {without} without; {planned} dont_care loads a frame over {FRAMES} frames should save {}",
                planned * FRAMES
            ));
        }
    }
    assert!(dont_cares > 0, "no example graph plans a dont_care load");
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

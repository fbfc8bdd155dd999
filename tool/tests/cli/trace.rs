//! `tilegraph trace`: the deferred example's naive frames (a trace it recorded with
//! `--trace-dir`, two frames at 64x32 on lavapipe) reported, and bad traces as typed errors
//! naming the file and the action.

use crate::common::tool;
use std::path::{Path, PathBuf};
use std::process::Output;

use serde_json::Value;

const NAIVE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/traces/deferred-naive");

fn json(o: &Output) -> Value {
    serde_json::from_slice(&o.stdout).expect("JSON on stdout")
}

/// A copy of the naive trace in a directory of its own, with `trace.ron` changed by `edit`.
fn edited(name: &str, edit: impl Fn(&str) -> String) -> PathBuf {
    edited_from(NAIVE, name, edit)
}

/// A copy of the trace in `from`, in a directory of its own, with `trace.ron` changed by `edit`.
fn edited_from(from: &str, name: &str, edit: impl Fn(&str) -> String) -> PathBuf {
    crate::common::edited_trace(from, "trace", name, edit)
}

/// The error line of a failed run: its kind, and the message.
fn error(dir: &Path) -> (String, String) {
    let o = tool(&["trace", dir.to_str().unwrap()]);
    assert!(
        !o.status.success(),
        "{}",
        String::from_utf8_lossy(&o.stdout)
    );
    let err = String::from_utf8(o.stderr).unwrap();
    let line = err
        .lines()
        .find(|l| l.starts_with("error: "))
        .expect("an error line");
    let rest = &line["error: ".len()..];
    let (kind, message) = rest.split_once(": ").unwrap();
    (kind.to_owned(), message.to_owned())
}

/// The trace's top-level actions (each starts at the start of a line).
fn actions(ron: &str) -> Vec<String> {
    let body = ron.trim().trim_start_matches('[').trim_end_matches(']');
    let mut out: Vec<String> = Vec::new();
    for line in body.lines().filter(|l| !l.is_empty()) {
        if line.starts_with(char::is_alphabetic) {
            out.push(String::new());
        }
        let last = out.last_mut().expect("an action starts the list");
        last.push_str(line);
        last.push('\n');
    }
    out
}

fn assemble(actions: &[String]) -> String {
    format!("[\n{}]", actions.concat())
}

#[test]
fn naive_frames_report_what_the_plan_saves() {
    let o = tool(&["trace", NAIVE, "--format", "json"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let report = json(&o);
    let frames = report["frames"].as_array().unwrap();
    let render: Vec<&Value> = frames
        .iter()
        .filter(|f| !f["attachments"].as_array().unwrap().is_empty())
        .collect();
    assert_eq!(render.len(), 2, "two frames drawn");
    for f in &render {
        let rows = f["attachments"].as_array().unwrap();
        let bytes = &f["bytes_per_frame"];
        let app: u64 = rows.iter().map(|r| r["app_bytes"].as_u64().unwrap()).sum();
        let plan: u64 = rows.iter().map(|r| r["plan_bytes"].as_u64().unwrap()).sum();
        assert_eq!(bytes["app"].as_u64(), Some(app));
        assert_eq!(
            bytes["plan"].as_u64(),
            Some(plan),
            "rows add up to the plan's traffic"
        );
        assert!(plan < app, "naive frames store what nobody reads: {f}");
        // The G-buffer is sampled by lighting: its stores stay.
        let albedo = rows.iter().find(|r| r["resource"] == "albedo").unwrap();
        assert_eq!(albedo["plan"]["store"], "store");
        // Lighting and the transparent pass share their attachments: they merge.
        assert_eq!(
            f["proven"]["merged"][0],
            serde_json::json!(["lighting", "transparent"])
        );
    }
    // Frame 0 loads an `hdr` nothing wrote: wgpu zero-fills it, so the plan clears instead.
    let first = render[0]["attachments"].as_array().unwrap();
    let hdr = first
        .iter()
        .find(|r| r["resource"] == "hdr" && r["pass"] == "lighting")
        .unwrap();
    assert_eq!(
        (&hdr["app"]["load"], &hdr["plan"]["load"]),
        (&"load".into(), &"clear".into())
    );
    // Frame 1's lighting loads what frame 0 left: only a full-screen write could drop it.
    let second = render[1]["attachments"].as_array().unwrap();
    let hdr = second
        .iter()
        .find(|r| r["resource"] == "hdr" && r["pass"] == "lighting")
        .unwrap();
    assert_eq!(hdr["plan"]["load"], "load");
    assert_eq!(hdr["if_covered"]["load"], "dont_care");
    assert!(hdr["if_covered"]["saved_bytes"].as_u64().unwrap() > 0);
}

#[test]
fn the_emitted_graph_plans_as_the_report_says() {
    let out = std::env::temp_dir().join(format!("tilegraph-trace-{}.json", std::process::id()));
    let o = tool(&[
        "trace",
        NAIVE,
        "--format",
        "json",
        "--emit-graph",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success());
    let last = json(&o)["frames"]
        .as_array()
        .unwrap()
        .iter()
        .rev()
        .find(|f| !f["attachments"].as_array().unwrap().is_empty())
        .unwrap()["bytes_per_frame"]["plan"]
        .clone();
    let p = tool(&["plan", out.to_str().unwrap(), "--format", "json"]);
    assert!(p.status.success(), "{}", String::from_utf8_lossy(&p.stderr));
    assert_eq!(json(&p)["traffic"]["bytes_per_frame"], last);
}

#[test]
fn table_and_html_formats() {
    let t = tool(&["trace", NAIVE]);
    let text = String::from_utf8(t.stdout).unwrap();
    assert!(text.contains("proven saved") && text.contains("if every pixel is written"));
    let h = tool(&["trace", NAIVE, "--format", "html"]);
    let html = String::from_utf8(h.stdout).unwrap();
    assert!(html.starts_with("<!DOCTYPE html>") && html.contains("<iframe srcdoc="));
    assert!(
        !html.contains("http://") && !html.contains("https://"),
        "no network"
    );
}

#[test]
fn a_truncated_trace_names_the_action_it_ends_in() {
    let dir = edited("truncated", |ron| ron[..ron.len() / 2].to_owned());
    let (kind, message) = error(&dir);
    assert_eq!(kind, "truncated_trace", "{message}");
    assert!(
        message.contains("trace.ron") && message.contains("action "),
        "{message}"
    );
}

#[test]
fn another_versions_trace_is_unsupported() {
    // Older wgpu versions named a texture's mip count differently.
    let dir = edited("version", |ron| {
        ron.replacen("mip_level_count", "level_count", 1)
    });
    let (kind, message) = error(&dir);
    assert_eq!(kind, "unsupported_trace", "{message}");
    let index = actions(&std::fs::read_to_string(dir.join("trace.ron")).unwrap())
        .iter()
        .position(|a| a.contains("level_count"))
        .unwrap();
    assert!(message.contains(&format!("action {index} ")), "{message}");
}

#[test]
fn a_missing_data_file_is_named() {
    let dir = edited("data", str::to_owned);
    std::fs::remove_file(dir.join("data1.bin")).unwrap();
    let (kind, message) = error(&dir);
    assert_eq!(kind, "missing_data_file");
    assert!(
        message.contains("data1.bin") && message.contains("action "),
        "{message}"
    );
}

#[test]
fn an_unhandled_action_is_named() {
    // The first render pass made a multiview one.
    let dir = edited("multiview", |ron| {
        let pass = ron.find("RunRenderPass").unwrap();
        let (head, tail) = ron.split_at(pass);
        head.to_owned() + &tail.replacen("multiview_mask: None", "multiview_mask: Some(3)", 1)
    });
    let (kind, message) = error(&dir);
    assert_eq!(kind, "unhandled_action");
    assert!(message.contains("multiview"), "{message}");
}

#[test]
fn a_resolve_into_a_later_layer_is_refused_not_read_as_layer_0() {
    // The forward example's MSAA colour resolves into a view; that view made one of layer 1.
    let forward = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/traces/forward-naive");
    let dir = edited_from(forward, "resolve-layer", |ron| {
        let at =
            ron.find("resolve_target: Some(PointerId(").unwrap() + "resolve_target: Some(".len();
        let id = &ron[at..at + ron[at..].find(')').unwrap() + 1];
        let view = ron
            .find(&format!("CreateTextureView(\n    id: {id}"))
            .unwrap();
        let (head, tail) = ron.split_at(view);
        head.to_owned() + &tail.replacen("baseArrayLayer: 0", "baseArrayLayer: 1", 1)
    });
    let (kind, message) = error(&dir);
    assert_eq!(kind, "unhandled_action");
    assert!(
        message.contains("a resolve into mip 0, layer 1") && message.contains("action "),
        "{message}"
    );
}

#[test]
fn a_submission_wgpu_left_out_is_listed() {
    let dir = edited("gap", |ron| {
        let all = actions(ron);
        let first = all.iter().position(|a| a.starts_with("Submit(")).unwrap();
        let kept: Vec<String> = (0..all.len())
            .filter(|&i| i != first)
            .map(|i| all[i].clone())
            .collect();
        assemble(&kept)
    });
    let o = tool(&["trace", dir.to_str().unwrap()]);
    assert!(o.status.success());
    let text = String::from_utf8(o.stdout).unwrap();
    let warning = text
        .lines()
        .find(|l| l.starts_with("warning: "))
        .expect("a warning");
    assert!(
        warning.contains("submission 1 (before action ") && warning.contains("DontCare"),
        "{warning}"
    );
    let j = json(&tool(&["trace", dir.to_str().unwrap(), "--format", "json"]));
    assert_eq!(j["unrecorded_submissions"][0]["submission"], 1);
}

#[test]
fn reading_a_texture_nothing_wrote_is_an_error() {
    // Only the read-back submission left, numbered first: it copies the output nobody drew.
    let dir = edited("never", |ron| {
        let all = actions(ron);
        let submits: Vec<usize> = (0..all.len())
            .filter(|&i| all[i].starts_with("Submit("))
            .collect();
        let last = *submits.last().unwrap();
        let kept: Vec<String> = (0..all.len())
            .filter(|i| !submits.contains(i) || *i == last)
            .map(|i| {
                if i == last {
                    let rest = all[i].split_once(',').unwrap().1;
                    format!("Submit(1,{rest}")
                } else {
                    all[i].clone()
                }
            })
            .collect();
        assemble(&kept)
    });
    let (kind, message) = error(&dir);
    assert_eq!(kind, "read_never_written", "{message}");
    assert!(
        message.contains("`deferred`") && message.contains("action "),
        "{message}"
    );
}

//! A trace's report as a table, JSON or one self-contained HTML page (each frame's proven plan
//! in the plan viewer `tilegraph plan --format html` prints).

use std::fmt::Write as _;

use serde_json::{Value, json};

use super::report::{FrameReport, Ops, Report, Row};

fn ops(o: &Ops) -> String {
    let resolve = if o.resolve { " +resolve" } else { "" };
    format!("{}/{}{resolve}", o.load, o.store)
}

impl Report {
    /// The report as a table for people.
    pub fn to_table(&self) -> String {
        let mut s = String::new();
        let _ = writeln!(
            s,
            "trace {}: {} actions, {} frames with passes{}",
            self.dir.display(),
            self.actions,
            self.frames.len(),
            if self.unfinished {
                " (trace.ron unfinished: read to its last whole action)"
            } else {
                ""
            }
        );
        if let Some(note) = self.unrecorded_note() {
            let _ = writeln!(s, "warning: {note}");
        }
        for f in &self.frames {
            frame_table(&mut s, f);
        }
        let (app, plan, naive, covered) = self.totals();
        let _ = writeln!(
            s,
            "\nall frames: app {app} B, proven plan {plan} B (proven saved {} B), naive {naive} B; if every pixel is written: up to {covered} B more",
            app.saturating_sub(plan)
        );
        s
    }

    /// The report as JSON.
    pub fn to_json(&self) -> String {
        let (app, plan, naive, covered) = self.totals();
        let frames: Vec<Value> = self.frames.iter().map(frame_json).collect();
        let v = json!({
            "trace": self.dir.display().to_string(),
            "actions": self.actions,
            "unfinished": self.unfinished,
            "unrecorded_submissions": self.unrecorded.iter()
                .map(|(action, submission)| json!({"before_action": action, "submission": submission}))
                .collect::<Vec<_>>(),
            "frames": frames,
            "totals": {"app_bytes": app, "plan_bytes": plan, "naive_bytes": naive,
                "proven_saved_bytes": app.saturating_sub(plan), "if_covered_saved_bytes": covered},
        });
        serde_json::to_string_pretty(&v).unwrap_or_default() + "\n"
    }

    /// The report as one HTML page: the tables, and each frame's proven plan in the plan
    /// viewer (no network, no external files).
    pub fn to_html(&self) -> String {
        let mut s = String::from(
            "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>tilegraph trace</title>\n<style>body{font-family:sans-serif;margin:1em}table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:2px 6px;text-align:left}td.n{text-align:right}.saved{color:#070}iframe{width:100%;height:40em;border:1px solid #ccc}</style></head><body>\n",
        );
        let _ = writeln!(
            s,
            "<h1>Trace {}</h1>",
            escape(&self.dir.display().to_string())
        );
        let (app, plan, naive, covered) = self.totals();
        let _ = writeln!(
            s,
            "<p>{} actions, {} frames. All frames: app {app} B, proven plan {plan} B (<span class=\"saved\">proven saved {} B</span>), naive {naive} B; if every pixel is written: up to {covered} B more.</p>",
            self.actions,
            self.frames.len(),
            app.saturating_sub(plan)
        );
        if let Some(note) = self.unrecorded_note() {
            let _ = writeln!(s, "<p><b>Warning:</b> {}</p>", escape(&note));
        }
        for f in &self.frames {
            frame_html(&mut s, f);
        }
        s.push_str("</body></html>\n");
        s
    }
}

impl Report {
    /// The submissions missing from the trace, in a sentence.
    fn unrecorded_note(&self) -> Option<String> {
        let list: Vec<String> = self
            .unrecorded
            .iter()
            .map(|(action, submission)| format!("{submission} (before action {action})"))
            .collect();
        (!list.is_empty()).then(|| {
            format!(
                "submission {} not in the trace: empty, or not recordable by wgpu 30 (its render passes use LoadOp::DontCare); the frames around it may lack passes",
                list.join(", ")
            )
        })
    }
}

fn frame_table(s: &mut String, f: &FrameReport) {
    let _ = writeln!(
        s,
        "\nframe {} (submit action{} {}): app {} B, proven plan {} B (proven saved {} B), naive {} B; if every pixel is written: up to {} B more",
        f.index,
        if f.actions.len() > 1 { "s" } else { "" },
        f.actions
            .iter()
            .map(|a| a.to_string())
            .collect::<Vec<_>>()
            .join(","),
        f.app_bytes,
        f.plan_bytes,
        f.app_bytes.saturating_sub(f.plan_bytes),
        f.naive_bytes,
        f.if_covered_bytes
    );
    if f.rows.is_empty() {
        let _ = writeln!(s, "  no render pass");
    } else {
        let _ = writeln!(
            s,
            "  {:<20} {:<22} {:<24} {:<24} {:>12} {:>12}  if every pixel is written",
            "pass", "attachment", "app load/store", "plan load/store", "app B", "plan B"
        );
    }
    for r in &f.rows {
        let covered = match r.if_covered {
            Some((load, saved)) => format!("{load}, saves {saved} B"),
            None => "-".into(),
        };
        let _ = writeln!(
            s,
            "  {:<20} {:<22} {:<24} {:<24} {:>12} {:>12}  {covered}",
            r.pass,
            r.resource,
            ops(&r.app),
            ops(&r.plan),
            r.app_bytes,
            r.plan_bytes
        );
    }
    let list = |v: &[String]| {
        if v.is_empty() {
            "none".to_owned()
        } else {
            v.join(", ")
        }
    };
    let merged: Vec<String> = f
        .merged
        .iter()
        .map(|g| format!("[{}]", g.join(" + ")))
        .collect();
    let _ = writeln!(
        s,
        "  proven: memoryless {}; merged {}; culled {}",
        list(&f.transient),
        list(&merged),
        list(&f.culled)
    );
}

fn row_json(r: &Row) -> Value {
    let o = |o: &Ops| json!({"load": o.load, "store": o.store, "resolve": o.resolve});
    json!({
        "pass": r.pass, "resource": r.resource, "app": o(&r.app), "plan": o(&r.plan),
        "app_bytes": r.app_bytes, "plan_bytes": r.plan_bytes,
        "proven_saved_bytes": r.app_bytes as i128 - r.plan_bytes as i128,
        "if_covered": r.if_covered.map(|(load, saved)| json!({"load": load, "saved_bytes": saved})),
    })
}

fn frame_json(f: &FrameReport) -> Value {
    json!({
        "frame": f.index,
        "actions": f.actions,
        "bytes_per_frame": {"app": f.app_bytes, "plan": f.plan_bytes, "naive": f.naive_bytes,
            "proven_saved": f.app_bytes.saturating_sub(f.plan_bytes),
            "if_covered_saved": f.if_covered_bytes},
        "attachments": f.rows.iter().map(row_json).collect::<Vec<_>>(),
        "proven": {"transient": f.transient, "merged": f.merged, "culled": f.culled},
    })
}

fn frame_html(s: &mut String, f: &FrameReport) {
    let _ = writeln!(
        s,
        "<h2>Frame {}</h2><p>app {} B, proven plan {} B (<span class=\"saved\">proven saved {} B</span>), naive {} B; if every pixel is written: up to {} B more</p>",
        f.index,
        f.app_bytes,
        f.plan_bytes,
        f.app_bytes.saturating_sub(f.plan_bytes),
        f.naive_bytes,
        f.if_covered_bytes
    );
    s.push_str("<table><tr><th>pass</th><th>attachment</th><th>app</th><th>plan (proven)</th><th>app B</th><th>plan B</th><th>if every pixel is written</th></tr>\n");
    for r in &f.rows {
        let covered = r
            .if_covered
            .map_or("-".to_owned(), |(l, b)| format!("{l}, saves {b} B"));
        let _ = writeln!(
            s,
            "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td>{}</td></tr>",
            escape(&r.pass),
            escape(&r.resource),
            ops(&r.app),
            ops(&r.plan),
            r.app_bytes,
            r.plan_bytes,
            covered
        );
    }
    s.push_str("</table>\n");
    let _ = writeln!(
        s,
        "<p>Proven: memoryless {}; merged {}; culled {}.</p>",
        escape(&f.transient.join(", ")),
        escape(
            &f.merged
                .iter()
                .map(|g| g.join(" + "))
                .collect::<Vec<_>>()
                .join("; ")
        ),
        escape(&f.culled.join(", "))
    );
    let _ = writeln!(
        s,
        "<details><summary>The proven plan</summary><iframe srcdoc=\"{}\"></iframe></details>",
        escape(&f.plan.to_html())
    );
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

//! Helpers shared by the compiler tests: compile a description and read the plan back as JSON, and
//! write a plan's whole decision as compact lines that a test compares with the expected plan.

use std::fmt::Write as _;

use serde_json::Value;
use tilegraph::{CompileOptions, CompiledGraph, GraphError, RenderGraph};

/// Compiles a JSON description with `options`; panics with the error if it does not compile.
pub fn plan_with(json: &str, options: &CompileOptions) -> Value {
    let graph = RenderGraph::from_json(json).unwrap_or_else(|e| panic!("description: {e}"));
    let plan = graph
        .compile(options)
        .unwrap_or_else(|e| panic!("compile: {}: {e}", e.kind()));
    serde_json::from_str(&plan.to_json()).expect("the plan is JSON")
}

/// Compiles a JSON description with the default options; panics with the error and the
/// description if it does not load or compile.
pub fn compile(json: &str) -> CompiledGraph {
    RenderGraph::from_json(json)
        .unwrap_or_else(|e| panic!("description: {e}\n{json}"))
        .compile(&CompileOptions::default())
        .unwrap_or_else(|e| panic!("compile: {}: {e}\n{json}", e.kind()))
}

/// Compiles with the default options.
pub fn plan(json: &str) -> Value {
    plan_with(json, &CompileOptions::default())
}

/// Options that let `write` accesses load `DontCare`.
pub fn dont_care() -> CompileOptions {
    // SAFETY: the test graphs' `write` accesses are full overwrites by declaration; nothing is
    // executed, only planned.
    CompileOptions::default().with_dont_care(unsafe { tilegraph::wgpu::LoadOpDontCare::enabled() })
}

/// The error a description gives, from loading or compiling it; panics if it compiles.
pub fn error(json: &str) -> GraphError {
    match RenderGraph::from_json(json) {
        Err(e) => e,
        Ok(graph) => match graph.compile(&CompileOptions::default()) {
            Err(e) => e,
            Ok(plan) => panic!("expected an error, got the plan\n{}", plan.to_json()),
        },
    }
}

/// Asserts the error's kind and the pass and resource it names.
#[track_caller]
pub fn assert_error(json: &str, kind: &str, pass: Option<&str>, resource: Option<&str>) {
    let e = error(json);
    assert_eq!(
        (e.kind().as_str(), e.pass(), e.resource()),
        (kind, pass, resource),
        "error was: {e}"
    );
}

fn s(v: &Value) -> &str {
    v.as_str()
        .unwrap_or_else(|| panic!("expected a string, got {v}"))
}

/// Every decision of a plan, one line each:
///
/// ```text
/// g0 render [gbuffer decals] samples_group_output
///   color albedo clear store
///   color hdr_msaa clear discard resolve hdr
///   depth depth load none read_only
/// culled [debug]
/// albedo 0..1 p0
/// depth 0..0 p1 transient
/// backbuffer 2..2 -
/// debug_overlay culled
/// ```
///
/// It also checks that the per-pass entries agree with the groups' pass lists.
pub fn summary(plan: &Value) -> String {
    let mut out = String::new();
    let groups = plan["groups"].as_array().expect("groups");
    let passes = plan["passes"].as_array().expect("passes");
    for (i, g) in groups.iter().enumerate() {
        assert_eq!(g["index"], i, "group index");
        let names: Vec<&str> = g["passes"].as_array().unwrap().iter().map(s).collect();
        for name in &names {
            let entry = passes
                .iter()
                .find(|p| p["name"] == *name)
                .expect("a grouped pass is listed");
            assert_eq!(entry["culled"], false, "grouped pass {name} is live");
            assert_eq!(entry["group"], i, "pass {name} names its group");
        }
        let _ = writeln!(
            out,
            "g{i} {} [{}] {}",
            s(&g["type"]),
            names.join(" "),
            s(&g["break"])
        );
        if g["type"] == "render" {
            // An attachment's line starts with its slot, resource, load and store.
            let ops = |out: &mut String, slot: &str, a: &Value| {
                let (resource, load, store) = (s(&a["resource"]), s(&a["load"]), s(&a["store"]));
                let _ = write!(out, "  {slot} {resource} {load} {store}");
            };
            for c in g["color"].as_array().expect("render groups list colour") {
                ops(&mut out, "color", c);
                if !c["resolve"].is_null() {
                    let _ = write!(out, " resolve {}", s(&c["resolve"]));
                }
                out.push('\n');
            }
            let d = &g["depth"];
            if !d.is_null() {
                ops(&mut out, "depth", d);
                if d["read_only"] == true {
                    out.push_str(" read_only");
                }
                out.push('\n');
            }
        }
    }
    let culled: Vec<&str> = passes
        .iter()
        .filter(|p| p["culled"] == true)
        .map(|p| {
            assert!(p["group"].is_null(), "a culled pass has no group");
            s(&p["name"])
        })
        .collect();
    if !culled.is_empty() {
        let _ = writeln!(out, "culled [{}]", culled.join(" "));
    }
    for r in plan["resources"].as_array().expect("resources") {
        let name = s(&r["name"]);
        if r["culled"] == true {
            assert!(r["first_group"].is_null() && r["last_group"].is_null());
            assert!(r["physical"].is_null() && r["transient"] == false);
            let _ = writeln!(out, "{name} culled");
            continue;
        }
        let physical = match &r["physical"] {
            Value::Null => "-".to_string(),
            p => format!("p{p}"),
        };
        let _ = write!(
            out,
            "{name} {}..{} {physical}",
            r["first_group"], r["last_group"]
        );
        if r["transient"] == true {
            out.push_str(" transient");
        }
        out.push('\n');
    }
    out
}

/// The expected summary, written indented in a test: lines trimmed, blank lines dropped, group
/// attachment lines re-indented by two spaces.
pub fn expect(text: &str) -> String {
    let mut out = String::new();
    for line in text.lines().map(str::trim).filter(|l| !l.is_empty()) {
        let words: Vec<&str> = line.split_whitespace().collect();
        let attachment = matches!(words.first(), Some(&("color" | "depth")))
            && matches!(words.get(2), Some(&("clear" | "load" | "dont_care")));
        if attachment {
            out.push_str("  ");
        }
        out.push_str(line);
        out.push('\n');
    }
    out
}

/// Asserts the whole plan decision.
#[track_caller]
pub fn assert_plan(plan: &Value, expected: &str) {
    let got = summary(plan);
    let want = expect(expected);
    assert!(
        got == want,
        "plan differs\n--- expected\n{want}--- got\n{got}--- plan JSON\n{plan:#}"
    );
}

/// Traffic figures: (planned bytes per frame, naive bytes per frame, sampled bytes per frame).
/// Also checks the per-second figures are the per-frame ones times the frame rate.
#[track_caller]
pub fn traffic(plan: &Value) -> (u64, u64, u64) {
    let t = &plan["traffic"];
    let get = |k: &str| t[k].as_u64().unwrap_or_else(|| panic!("traffic.{k}"));
    let fps = get("fps");
    assert_eq!(get("bytes_per_second"), get("bytes_per_frame") * fps);
    assert_eq!(
        get("naive_bytes_per_second"),
        get("naive_bytes_per_frame") * fps
    );
    (
        get("bytes_per_frame"),
        get("naive_bytes_per_frame"),
        get("sampled_bytes_per_frame"),
    )
}

/// Kinds of the plan's warnings with their pass and resource, `slow_clear_value` only.
pub fn slow_clears(plan: &Value) -> Vec<(String, String)> {
    plan["warnings"]
        .as_array()
        .expect("warnings")
        .iter()
        .filter(|w| w["kind"] == "slow_clear_value")
        .map(|w| (s(&w["pass"]).to_owned(), s(&w["resource"]).to_owned()))
        .collect()
}

/// The plan's restructuring entries of `kind` (`"resolve_dropped"`, `"moved"`, ...).
pub fn restructured<'p>(plan: &'p Value, kind: &str) -> Vec<&'p Value> {
    plan["restructure"]
        .as_array()
        .expect("the plan lists its restructuring")
        .iter()
        .filter(|r| r["kind"] == kind)
        .collect()
}

/// Asserts that `message` says every one of `parts`.
#[track_caller]
pub fn assert_says(message: &str, parts: &[&str]) {
    for part in parts {
        assert!(message.contains(part), "no `{part}` in: {message}");
    }
}

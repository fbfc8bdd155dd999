//! Restructuring (the guide's "Restructuring"): dead resolves dropped, copies folded into
//! resolves, passes reordered to merge — each decision asserted whole, with its reason, and the
//! switch that turns it off.

use serde_json::{Value, json};
use tilegraph::wgpu::TextureFormat;
use tilegraph::{Access, CompileOptions, Import, RenderGraph, TextureDesc};

use crate::common::{assert_error, plan, plan_with, summary};

fn declared(json: &str) -> Value {
    plan_with(json, &CompileOptions::default().with_restructure(false))
}

fn kinds(plan: &Value) -> Vec<(String, String)> {
    plan["restructure"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["kind"].as_str().unwrap().to_owned(),
                r["pass"].as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

fn order(plan: &Value) -> Vec<String> {
    plan["order"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p.as_str().unwrap().to_owned())
        .collect()
}

fn bytes(plan: &Value) -> u64 {
    plan["traffic"]["bytes_per_frame"].as_u64().unwrap()
}

/// Without the new fields, a plan as JSON text.
fn without_new_fields(mut plan: Value) -> String {
    let obj = plan.as_object_mut().unwrap();
    obj.remove("order");
    obj.remove("restructure");
    obj["traffic"]
        .as_object_mut()
        .unwrap()
        .remove("declared_bytes_per_frame");
    obj["traffic"]
        .as_object_mut()
        .unwrap()
        .remove("declared_bytes_per_second");
    for p in obj["passes"].as_array_mut().unwrap() {
        p.as_object_mut().unwrap().remove("needed_by");
    }
    serde_json::to_string_pretty(&plan).unwrap()
}

/// Bevy's core 3D frame: opaque resolves the MSAA colour, transparent resolves it again.
const BEVY: &str = include_str!("../../examples/graphs/bevy_core3d.json");

#[test]
fn a_resolve_that_the_next_resolve_overwrites_is_dropped_and_the_passes_merge() {
    let p = plan(BEVY);
    assert_eq!(
        kinds(&p),
        [("resolve_dropped".into(), "main_opaque_pass_3d".into())]
    );
    let change = &p["restructure"][0];
    assert_eq!(change["resource"], "main_texture_a");
    assert_eq!(
        change["reason"],
        "nothing reads what it resolves into `main_texture_a` before `main_transparent_pass_3d` overwrites it"
    );
    let group = p["groups"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["passes"][0] == "main_opaque_pass_3d")
        .unwrap();
    assert_eq!(
        group["passes"],
        json!(["main_opaque_pass_3d", "main_transparent_pass_3d"])
    );
    // MSAA colour stays on tile: cleared, discarded, resolved once, transient.
    assert_eq!(
        group["color"][0],
        json!({"resource": "main_texture_msaa", "mip": 0, "layer": 0, "load": "clear",
               "store": "discard", "resolve": "main_texture_a"})
    );
    let msaa = p["resources"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["name"] == "main_texture_msaa")
        .unwrap();
    assert_eq!(msaa["transient"], true);
    // The contract's figure: at most half of naive (the declared order: two thirds).
    let t = &p["traffic"];
    let ratio = |b: &Value| b.as_f64().unwrap() / t["naive_bytes_per_frame"].as_f64().unwrap();
    assert!(ratio(&t["bytes_per_frame"]) <= 0.50, "{t}");
    assert!(ratio(&t["declared_bytes_per_frame"]) > 0.6, "{t}");
    assert_eq!(
        t["declared_bytes_per_frame"],
        declared(BEVY)["traffic"]["bytes_per_frame"]
    );
}

#[test]
fn the_switch_gives_the_declared_plan_exactly() {
    for json in [BEVY, MOVES, FOLD] {
        let off = declared(json);
        assert_eq!(off["restructure"], json!([]));
        // Byte-identical to the plan restructuring never touched, apart from the new fields.
        let untouched = plan_with(
            json,
            &CompileOptions::default()
                .with_restructure(false)
                .with_fps(60),
        );
        assert_eq!(
            without_new_fields(off.clone()),
            without_new_fields(untouched)
        );
        // The restructured plan's declared figure is the declared plan's.
        assert_eq!(
            plan(json)["traffic"]["declared_bytes_per_frame"],
            off["traffic"]["bytes_per_frame"]
        );
        assert!(bytes(&plan(json)) <= bytes(&off));
    }
    assert!(bytes(&plan(BEVY)) < bytes(&declared(BEVY)));
    assert!(bytes(&plan(MOVES)) < bytes(&declared(MOVES)));
}

/// A shadow pass and an unrelated simulation sit between passes with the same attachments.
const MOVES: &str = include_str!("graphs/moves.json");

#[test]
fn passes_move_to_merge_and_what_they_depend_on_goes_ahead() {
    let p = plan(MOVES);
    assert_eq!(
        order(&p),
        [
            "shadow",
            "sim",
            "prepass",
            "opaque",
            "transparent",
            "ssao",
            "tonemap"
        ]
    );
    assert_eq!(
        p["restructure"],
        json!([
            {"kind": "moved", "pass": "opaque", "joins": "prepass", "ahead": ["shadow"],
             // prepass no longer stores hdr (32 KiB) and depth (16 KiB), opaque no longer loads them.
             "saved_bytes": 98304,
             "reason": "runs in the group of `prepass` (same attachments), saving 98304 attachment bytes a frame; `shadow` it depends on moved ahead of that group"},
            {"kind": "moved", "pass": "transparent", "joins": "prepass", "ahead": ["sim"], "after": ["ssao"],
             // The group's hdr store and transparent's hdr and depth loads and hdr store go.
             "saved_bytes": 81920,
             "reason": "runs in the group of `prepass` (same attachments), saving 81920 attachment bytes a frame; `sim` it depends on moved ahead of that group; `ssao` now run after it"}
        ])
    );
    assert_eq!(
        summary(&p).lines().next().unwrap(),
        "g0 render [shadow] not_render"
    );
    let merged = &p["groups"][2];
    assert_eq!(
        merged["passes"],
        json!(["prepass", "opaque", "transparent"])
    );
    // Every live pass says why it runs; the chain ends at the kept import.
    let needed: Vec<(String, Value)> = p["passes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|q| {
            (
                q["name"].as_str().unwrap().to_owned(),
                q["needed_by"].clone(),
            )
        })
        .collect();
    assert_eq!(
        needed,
        [
            ("prepass".into(), json!("opaque")),
            ("shadow".into(), json!("opaque")),
            ("opaque".into(), json!("ssao")),
            ("ssao".into(), json!("tonemap")),
            ("sim".into(), json!("transparent")),
            ("transparent".into(), json!("tonemap")),
            ("tonemap".into(), json!("import:out")),
        ]
    );
}

#[test]
fn no_pass_moves_across_a_keep_order_pass() {
    // Pin the simulation: nothing may cross it, so transparent cannot reach opaque's group.
    let pinned = MOVES.replace(
        r#"{"name": "sim", "type": "compute", "storage_write": ["particles"]}"#,
        r#"{"name": "sim", "type": "compute", "storage_write": ["particles"], "keep_order": true}"#,
    );
    let p = plan(&pinned);
    assert_eq!(kinds(&p), [("moved".into(), "opaque".into())]);
    let pos = |name: &str| order(&p).iter().position(|n| n == name).unwrap();
    assert!(pos("ssao") < pos("sim") && pos("sim") < pos("transparent"));
    // Pinning the shadow pass stops the first move too.
    let pinned = pinned.replace(
        r#"{"name": "shadow", "type": "render", "depth": {"resource": "shadow", "access": "clear"}}"#,
        r#"{"name": "shadow", "type": "render", "depth": {"resource": "shadow", "access": "clear"}, "keep_order": true}"#,
    );
    let p = plan(&pinned);
    assert_eq!(kinds(&p), []);
    assert_eq!(
        order(&p),
        [
            "prepass",
            "shadow",
            "opaque",
            "ssao",
            "sim",
            "transparent",
            "tonemap"
        ]
    );
}

#[test]
fn a_pass_that_reads_what_an_in_between_pass_wrote_after_the_group_does_not_move() {
    // `blur` reads what opaque wrote and transparent reads blur: transparent cannot move ahead
    // of blur, and blur cannot go ahead of opaque's group.
    let p = plan(include_str!(
        "graphs/a_pass_that_reads_what_an_in_between_pass_wrote_after_the_group_does_not_move.json"
    ));
    assert_eq!(kinds(&p), []);
    assert_eq!(order(&p), ["opaque", "blur", "transparent", "copy"]);
}

#[test]
fn side_effect_passes_keep_their_order() {
    // Both queries have side effects: the second may not move ahead of the first.
    let p = plan(include_str!(
        "graphs/side_effect_passes_keep_their_order.json"
    ));
    // b depends on neither query: it moves next to a, the queries stay in order after it.
    assert_eq!(order(&p), ["a", "b", "query1", "query2", "post"]);
    assert_eq!(p["passes"][1]["needed_by"], "side_effects");
}

const FOLD: &str = include_str!("graphs/fold.json");

#[test]
fn a_copy_of_a_resolve_is_folded_into_the_resolve() {
    let p = plan(FOLD);
    assert_eq!(
        p["restructure"],
        json!([{"kind": "copy_folded", "pass": "keep_copy", "into": "draw", "resource": "history", "source": "resolved",
                "reason": "only this copy reads `resolved`, so `draw` resolves straight into `history`"}])
    );
    assert_eq!(p["groups"][0]["color"][0]["resolve"], "history");
    assert_eq!(
        p["passes"][1],
        json!({"name": "keep_copy", "culled": false, "group": null, "needed_by": null,
               "folded_into": "draw"})
    );
    assert_eq!(order(&p), ["draw", "post"]);
    // The copy's source is no longer used at all.
    assert_eq!(p["resources"][1]["culled"], true);
    assert_eq!(p["passes"][0]["needed_by"], "post");
    // The declared order keeps the copy.
    assert_eq!(order(&declared(FOLD)), ["draw", "keep_copy", "post"]);
}

#[test]
fn copies_are_not_folded_when_the_result_is_needed_elsewhere_or_the_target_is_touched() {
    // The resolve target is also sampled: the copy is needed.
    let sampled = FOLD.replace(
        r#""sample": ["history"]"#,
        r#""sample": ["history", "resolved"]"#,
    );
    assert_eq!(kinds(&plan(&sampled)), []);
    // An imported destination keeps its usages: no fold.
    let imported = FOLD.replace(
        r#"{"name": "history", "texture": {"format": "rgba8unorm", "size": [64, 64]}}"#,
        r#"{"name": "history", "texture": {"format": "rgba8unorm", "size": [64, 64]}, "import": {"contents": "undefined", "after": "discard"}}"#,
    );
    assert_eq!(kinds(&plan(&imported)), []);
    // Another shape: no fold.
    let other = FOLD.replace(
        r#"{"name": "history", "texture": {"format": "rgba8unorm", "size": [64, 64]}}"#,
        r#"{"name": "history", "texture": {"format": "bgra8unorm", "size": [64, 64]}}"#,
    );
    assert_eq!(kinds(&plan(&other)), []);
    // A pass between the resolve and the copy reads the destination's old contents.
    let touched = FOLD
        .replace(
            r#"{"name": "history", "texture": {"format": "rgba8unorm", "size": [64, 64]}}"#,
            r#"{"name": "history", "texture": {"format": "rgba8unorm", "size": [64, 64]}, "clear": [0, 0, 0, 0]},
               {"name": "old", "texture": {"format": "rgba8unorm", "size": [64, 64]}}"#,
        )
        .replace(
            r#"{"name": "keep_copy""#,
            r#"{"name": "peek", "type": "render", "color": [{"resource": "history", "access": "read_write"}]},
               {"name": "save", "type": "copy", "copy_src": ["history"], "copy_dst": ["old"]},
               {"name": "keep_copy""#,
        )
        .replace(r#""sample": ["history"]"#, r#""sample": ["history", "old"]"#);
    let p = plan(&touched);
    assert!(
        !kinds(&p).iter().any(|(k, _)| k == "copy_folded"),
        "{:?}",
        kinds(&p)
    );
}

#[test]
fn a_resolve_into_a_kept_import_or_read_later_stays() {
    // Kept import: the frame-end contents are the resolve's.
    let kept = include_str!("graphs/a_resolve_into_a_kept_import_or_read_later_stays.json");
    assert_eq!(kinds(&plan(kept)), []);
    // Nothing reads the resolve and the import is discarded after the frame: dropped, with the
    // reason saying nobody overwrites it.
    let discarded = kept.replace(r#""after": "keep""#, r#""after": "discard""#);
    let err = tilegraph::RenderGraph::from_json(&discarded)
        .unwrap()
        .compile(&CompileOptions::default().with_cull(false))
        .unwrap();
    let p: Value = serde_json::from_str(&err.to_json()).unwrap();
    assert_eq!(kinds(&p), [("resolve_dropped".into(), "draw".into())]);
    assert_eq!(
        p["restructure"][0]["reason"],
        "nothing reads what it resolves into `out`, and the frame does not keep it"
    );
}

#[test]
fn keep_order_must_be_a_boolean_and_round_trips() {
    let bad = MOVES.replace(
        r#""storage_write": ["particles"]}"#,
        r#""storage_write": ["particles"], "keep_order": "yes"}"#,
    );
    assert_error(&bad, "invalid_description", Some("sim"), None);
    let message = RenderGraph::from_json(&bad).unwrap_err().to_string();
    assert!(
        message.contains("pass `sim`") && message.contains("keep_order"),
        "{message}"
    );
    let pinned = MOVES.replace(
        r#""storage_write": ["particles"]}"#,
        r#""storage_write": ["particles"], "keep_order": true}"#,
    );
    let graph = RenderGraph::from_json(&pinned).unwrap();
    let again = RenderGraph::from_json(&graph.to_json()).unwrap();
    assert_eq!(graph.fingerprint(), again.fingerprint());
    assert!(graph.to_json().contains(r#""keep_order": true"#));
    // `keep_order: false` is the default and is not written back.
    let unpinned = MOVES.replace(
        r#""storage_write": ["particles"]}"#,
        r#""storage_write": ["particles"], "keep_order": false}"#,
    );
    let graph = RenderGraph::from_json(&unpinned).unwrap();
    assert!(!graph.to_json().contains("keep_order"));
    assert_eq!(
        graph.fingerprint(),
        RenderGraph::from_json(MOVES).unwrap().fingerprint()
    );
}

#[test]
fn the_builder_pins_a_pass_and_the_plan_api_reports_the_moves() {
    let build = |pin: bool| {
        let mut graph = RenderGraph::new();
        let hdr = graph.create_texture("hdr", TextureDesc::new(TextureFormat::Rgba16Float, 64, 64));
        let depth = graph.create_texture(
            "depth",
            TextureDesc::new(TextureFormat::Depth32Float, 64, 64),
        );
        let shadow = graph.create_texture(
            "shadow",
            TextureDesc::new(TextureFormat::Depth32Float, 256, 256),
        );
        let out = graph.import_texture(
            "out",
            TextureDesc::new(TextureFormat::Bgra8Unorm, 64, 64),
            Import::OUTPUT,
        );
        graph
            .add_render_pass("prepass")
            .color(hdr, Access::Clear)
            .depth(depth, Access::Clear)
            .finish();
        let shadows = graph.add_render_pass("shadow").depth(shadow, Access::Clear);
        if pin {
            shadows.keep_order().finish();
        } else {
            shadows.finish();
        }
        graph
            .add_render_pass("opaque")
            .sample(shadow)
            .color(hdr, Access::ReadWrite)
            .depth(depth, Access::ReadWrite)
            .finish();
        graph
            .add_render_pass("tonemap")
            .sample(hdr)
            .color(out, Access::Write)
            .finish();
        graph.compile(&CompileOptions::default()).unwrap()
    };
    let plan = build(false);
    let names: Vec<&str> = plan.order().iter().map(|&p| plan.pass_name(p)).collect();
    assert_eq!(names, ["shadow", "prepass", "opaque", "tonemap"]);
    match &plan.restructuring()[0] {
        tilegraph::plan::Restructuring::Moved { pass, joins, .. } => {
            assert_eq!(
                (plan.pass_name(*pass), plan.pass_name(*joins)),
                ("opaque", "prepass")
            );
        }
        other => panic!("expected a move, got {other:?}"),
    }
    // Naive and Poison record the declared order.
    let declared = plan.as_declared();
    assert!(declared.restructuring().is_empty());
    let names: Vec<&str> = declared
        .order()
        .iter()
        .map(|&p| declared.pass_name(p))
        .collect();
    assert_eq!(names, ["prepass", "shadow", "opaque", "tonemap"]);
    assert!(
        !tilegraph::ExecuteMode::Poison
            .plan_to_record(&plan)
            .options()
            .restructure
    );
    let pinned = build(true);
    assert!(pinned.restructuring().is_empty());
    assert!(std::ptr::eq(pinned.as_declared(), &pinned));
}

#[test]
fn the_table_and_dot_show_what_moved_and_why_each_pass_runs() {
    let graph = RenderGraph::from_json(MOVES).unwrap();
    let plan = graph.compile(&CompileOptions::default()).unwrap();
    let table = plan.to_table();
    assert!(
        table.contains("RESTRUCTURED (the declared order would move"),
        "{table}"
    );
    assert!(table.contains("  moved            transparent: runs in the group of `prepass`"));
    assert!(table.contains("NEEDED BY"));
    assert!(table.contains("  tonemap                  import:out"));
    let dot = plan.to_dot();
    assert!(dot.contains(r"opaque\nmoved to join prepass"), "{dot}");
    let fold = crate::common::compile(FOLD);
    assert!(
        fold.to_dot()
            .contains(r"keep_copy\nfolded into the resolve of draw")
    );
    let bevy = crate::common::compile(BEVY);
    assert!(
        bevy.to_dot()
            .contains(r"main_opaque_pass_3d\nresolve into main_texture_a dropped")
    );
}

#[test]
fn the_table_says_where_gles_keeps_msaa_colour_on_tile() {
    // Bevy's merged opaque + transparent group resolves and discards its 4× colour into a
    // sampled texture: a GLES device with EXT_multisampled_render_to_texture keeps it on tile.
    let bevy = crate::common::compile(BEVY);
    let table = bevy.to_table();
    let gles: Vec<&str> = table.lines().filter(|l| l.contains("gles ")).collect();
    assert_eq!(gles.len(), 1, "{table}");
    let before = table.split("gles ").next().unwrap();
    assert!(
        before
            .lines()
            .rev()
            .find(|l| l.trim_start().starts_with('#'))
            .unwrap()
            .contains("main_opaque_pass_3d + main_transparent_pass_3d"),
        "{table}"
    );
    // In declared order the opaque group stores its colour for transparent: it does not qualify
    // (the transparent group does).
    let declared = bevy.as_declared().to_table();
    assert_eq!(
        declared.lines().filter(|l| l.contains("gles ")).count(),
        1,
        "{declared}"
    );
}

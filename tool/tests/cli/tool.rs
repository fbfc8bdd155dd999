//! The `tilegraph` tool: plans, flags, DOT, and every bad input as `error: <kind>: ...`.

use crate::common::tool;
use std::path::PathBuf;
use std::process::Output;

use serde_json::Value;
use tilegraph::plan::Remedy;
use tilegraph::{CompileOptions, RenderGraph};

const DEFERRED: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../examples/graphs/deferred.json"
);

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).expect("UTF-8 stdout")
}

fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).expect("UTF-8 stderr")
}

/// Writes `contents` to a file of its own for this test and returns its path.
fn file(name: &str, contents: &[u8]) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tilegraph-tool-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, contents).unwrap();
    path
}

#[test]
fn plan_prints_a_table_of_the_plan() {
    let o = tool(&["plan", DEFERRED]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stderr(&o), "");
    let text = stdout(&o);
    for expected in [
        "gbuffer",
        "decals",
        "samples_group_output",
        "attachments_differ",
        "end_of_graph",
        "debug_view",
        "74838016",
        "199254016",
        "4490280960",  // planned bytes per second at 60 fps
        "11955240960", // naive bytes per second
    ] {
        assert!(text.contains(expected), "`{expected}` missing from\n{text}");
    }
}

/// The library's plan JSON, its switches named as the tool names them (its flags, where the
/// library names its API): otherwise the tool prints the same plan.
fn library_json(graph: &RenderGraph<'_>, options: &CompileOptions) -> Value {
    let mut plan = graph.compile(options).unwrap();
    plan.name_remedies(|r| match r {
        Remedy::DontCare => "--dont-care",
        other => other.rust_api(),
    });
    serde_json::from_str(&plan.to_json()).unwrap()
}

#[test]
fn plan_as_json_is_the_library_plan() {
    let o = tool(&["plan", DEFERRED, "--format", "json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let printed: Value = serde_json::from_str(&stdout(&o)).unwrap();
    let graph = RenderGraph::from_json(&std::fs::read_to_string(DEFERRED).unwrap()).unwrap();
    let library = library_json(&graph, &CompileOptions::default());
    assert_eq!(printed, library);
    assert_eq!(printed["traffic"]["bytes_per_frame"], 74_838_016);
    assert_eq!(printed["passes"][5]["culled"], true);
}

#[test]
fn fps_flag_sets_the_rate() {
    let o = tool(&["plan", "--fps", "30", DEFERRED, "--format", "json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let p: Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(p["traffic"]["fps"], 30);
    assert_eq!(p["traffic"]["bytes_per_second"], 74_838_016u64 * 30);
    assert_eq!(p["traffic"]["naive_bytes_per_second"], 199_254_016u64 * 30);
}

#[test]
fn fps_takes_a_decimal_and_the_table_shows_gb_a_second() {
    let o = tool(&["plan", "--fps", "72.5", DEFERRED, "--format", "json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let p: Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(p["traffic"]["fps"], 72.5);
    // 74 838 016 × 72.5 = 5 425 756 160 exactly.
    assert_eq!(p["traffic"]["bytes_per_second"], 5_425_756_160u64);
    let text = stdout(&tool(&["plan", "--fps", "72.5", DEFERRED]));
    assert!(
        text.contains("(attachments, uncompressed, 72.5 fps)"),
        "{text}"
    );
    let planned = text.lines().find(|l| l.trim_start().starts_with("planned"));
    assert_eq!(
        planned.map(|l| l.split_whitespace().collect::<Vec<_>>()),
        Some(vec!["planned", "74838016", "5425756160", "5.43"]),
        "{text}"
    );
    assert!(text.contains("GB/s"), "{text}");
}

#[test]
fn warnings_name_the_tools_flags() {
    let text = stdout(&tool(&["plan", DEFERRED]));
    let warning = text
        .lines()
        .find(|l| l.contains("clear_for_write"))
        .expect("deferred's lighting pass writes a cleared target");
    assert!(
        warning.ends_with("--dont-care skips the clear"),
        "{warning}"
    );
    assert!(!text.contains("CompileOptions"), "{text}");
    let json = stdout(&tool(&["plan", DEFERRED, "--format", "json"]));
    assert!(json.contains("--dont-care") && !json.contains("with_dont_care"));
}

#[test]
fn dont_care_flag_lets_writes_skip_the_clear() {
    let plain: Value =
        serde_json::from_str(&stdout(&tool(&["plan", DEFERRED, "--format", "json"]))).unwrap();
    let o = tool(&["plan", DEFERRED, "--format", "json", "--dont-care"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let p: Value = serde_json::from_str(&stdout(&o)).unwrap();
    // lighting writes hdr, tonemap writes the backbuffer; gbuffer's clears stay clears.
    assert_eq!(plain["groups"][2]["color"][0]["load"], "clear");
    assert_eq!(p["groups"][2]["color"][0]["load"], "dont_care");
    assert_eq!(p["groups"][3]["color"][0]["load"], "dont_care");
    assert_eq!(p["groups"][1]["color"][0]["load"], "clear");
}

#[test]
fn tile_flags_report_each_profile_asked_for() {
    let o = tool(&[
        "plan",
        DEFERRED,
        "--format",
        "json",
        "--tile",
        "powervr",
        "--tile",
        "mali-g52",
        "--tile",
        "adreno-630",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let p: Value = serde_json::from_str(&stdout(&o)).unwrap();
    // The library's plan with the same profiles, listed in the library's order.
    let graph = RenderGraph::from_json(&std::fs::read_to_string(DEFERRED).unwrap()).unwrap();
    use tilegraph::plan::TileProfile::*;
    let options = CompileOptions::default().with_tile_profiles(&[MaliG52, Adreno630, PowerVr]);
    assert_eq!(p, library_json(&graph, &options));
    for g in p["groups"].as_array().unwrap() {
        let profiles: Vec<&str> = match g["type"].as_str().unwrap() {
            "render" => g["tile"]
                .as_array()
                .unwrap()
                .iter()
                .map(|t| t["profile"].as_str().unwrap())
                .collect(),
            _ => {
                assert!(g.get("tile").is_none(), "{g}");
                continue;
            }
        };
        assert_eq!(profiles, ["mali-g52", "adreno-630", "powervr"]);
    }
    // The gbuffer group: three colour targets (12 B a pixel) and a 4 B depth at 1920x1080.
    let gbuffer = &p["groups"][1]["tile"];
    assert_eq!(gbuffer[0]["bytes_per_pixel"], 12);
    assert_eq!(gbuffer[0]["tile"], serde_json::json!([16, 16]));
    assert_eq!(gbuffer[1]["bytes_per_pixel"], 16);
    // turnip 25.0's grid: 34 bins of 960x64 (the lower bound ⌈W×H×16 B ÷ 1 MiB⌉ would say 32).
    assert_eq!(gbuffer[1]["driver"], "turnip 25.0");
    assert_eq!(gbuffer[1]["bins"], 34);
    assert_eq!(gbuffer[1]["bin"], serde_json::json!([960, 64]));
    assert_eq!(gbuffer[2]["spilled"], serde_json::json!([]));
    assert!(p["memory"]["declared_bytes"].as_u64().unwrap() > 0);

    // Without --tile: no tile lists, the memory figures all the same.
    let plain: Value =
        serde_json::from_str(&stdout(&tool(&["plan", DEFERRED, "--format", "json"]))).unwrap();
    assert!(plain["groups"][1].get("tile").is_none());
    assert_eq!(plain["memory"], p["memory"]);

    // The table and DOT say it is a model.
    let text = stdout(&tool(&[
        "plan", DEFERRED, "--tile", "apple-a8", "--tile", "mali-g71",
    ]));
    assert!(text.contains("TILE (a model"), "{text}");
    assert!(text.contains("MEMORY (a model"), "{text}");
    assert!(
        text.contains("apple-a8") && text.contains("mali-g71"),
        "{text}"
    );
    let dot = stdout(&tool(&["dot", DEFERRED, "--tile", "adreno-740"]));
    assert!(dot.contains("\\ntile model: adreno-740"), "{dot}");

    // An unknown profile is a usage mistake that names the profiles there are.
    let o = tool(&["plan", DEFERRED, "--tile", "mali"]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(err.contains("mali-g52") && err.contains("powervr"), "{err}");
}

#[test]
fn dot_draws_groups_as_clusters_and_culled_passes() {
    let o = tool(&["dot", DEFERRED]);
    assert!(o.status.success(), "{}", stderr(&o));
    let dot = stdout(&o);
    assert!(dot.starts_with("digraph"), "{dot}");
    for expected in ["cluster_0", "cluster_3", "debug_view", "culled"] {
        assert!(dot.contains(expected), "`{expected}` missing from\n{dot}");
    }
    assert!(!dot.contains("cluster_4"), "four groups only");
    assert!(dot.trim_end().ends_with('}'));
}

/// Runs the tool on a bad input in text and JSON mode; checks the exit status, the stderr line
/// and the JSON error object. Returns the JSON error object.
#[track_caller]
fn assert_fails(path: &str, kind: &str) -> Value {
    let o = tool(&["plan", path]);
    assert!(!o.status.success(), "{path} should fail");
    let err = stderr(&o);
    assert!(
        err.starts_with(&format!("error: {kind}: ")),
        "stderr for {path}: {err}"
    );
    assert_eq!(err.lines().count(), 1, "one line: {err}");
    assert_eq!(stdout(&o), "", "text mode prints nothing on stdout");

    let o = tool(&["plan", path, "--format", "json"]);
    assert!(!o.status.success());
    assert!(stderr(&o).starts_with(&format!("error: {kind}: ")));
    let v: Value = serde_json::from_str(&stdout(&o))
        .unwrap_or_else(|e| panic!("JSON error object for {path}: {e}: {}", stdout(&o)));
    assert_eq!(v["error"]["kind"], kind);
    assert!(!v["error"]["message"].as_str().unwrap().is_empty());
    v["error"].clone()
}

#[test]
fn bad_inputs_are_invalid_descriptions() {
    let pass =
        r#"{"name": "p", "type": "render", "color": [{"resource": "t", "access": "clear"}]}"#;
    let cases: [(&str, String); 6] = [
        ("malformed.json", r#"{"resources": [}"#.to_owned()),
        (
            "unknown_field.json",
            format!(
                r#"{{"resources": [{{"name": "t", "texture": {{"format": "rgba8unorm", "size": [4, 4]}}, "colour": [0, 0, 0, 1]}}], "passes": [{pass}]}}"#
            ),
        ),
        (
            "wrong_type.json",
            format!(
                r#"{{"resources": [{{"name": "t", "texture": {{"format": "rgba8unorm", "size": [4, 4], "samples": "four"}}}}], "passes": [{pass}]}}"#
            ),
        ),
        (
            "empty.json",
            r#"{"resources": [], "passes": []}"#.to_owned(),
        ),
        (
            "overflow.json",
            format!(
                r#"{{"resources": [{{"name": "t", "texture": {{"format": "rgba32float", "size": [4294967295, 4294967295, 4294967295]}}}}], "passes": [{pass}]}}"#
            ),
        ),
        ("empty_file.json", String::new()),
    ];
    for (name, contents) in cases {
        let path = file(name, contents.as_bytes());
        let e = assert_fails(path.to_str().unwrap(), "invalid_description");
        assert!(e["pass"].is_null(), "{name}: {e}");
        // The overflowing texture's declaration is the one error about a single resource.
        let resource = (name == "overflow.json").then_some("t");
        assert_eq!(e["resource"].as_str(), resource, "{name}: {e}");
    }
    let not_utf8 = file("latin1.json", b"{\"resources\": [\"caf\xe9\"]}");
    assert_fails(not_utf8.to_str().unwrap(), "invalid_description");
}

#[test]
fn missing_file_is_an_io_error() {
    let e = assert_fails("/nonexistent/tilegraph/graph.json", "io");
    assert!(e["message"].as_str().unwrap().contains("graph.json"));
}

#[test]
fn graph_errors_name_their_pass_and_resource() {
    let path = file(
        "read_before_write.json",
        br#"{"resources": [{"name": "hdr", "texture": {"format": "rgba16float", "size": [8, 8]}}],
             "passes": [{"name": "sky", "type": "render", "side_effects": true,
                         "color": [{"resource": "hdr", "access": "read_write"}]}]}"#,
    );
    let e = assert_fails(path.to_str().unwrap(), "read_before_write");
    assert_eq!(e["pass"], "sky");
    assert_eq!(e["resource"], "hdr");
}

#[test]
fn usage_mistakes_fail_without_panicking() {
    for args in [
        vec![],
        vec!["plan"],
        vec!["explain", DEFERRED],
        vec!["plan", DEFERRED, "--fps", "0"],
        vec!["plan", DEFERRED, "--fps", "sixty"],
        vec!["plan", DEFERRED, "--fps", "-72.5"],
        vec!["plan", DEFERRED, "--fps", "NaN"],
        vec!["plan", DEFERRED, "--fps", "inf"],
        vec!["plan", DEFERRED, "--format", "yaml"],
        vec!["plan", DEFERRED, "--verbose"],
    ] {
        let o = tool(&args);
        assert!(!o.status.success(), "{args:?}");
        let err = stderr(&o);
        assert!(err.starts_with("error: "), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
}

#[test]
fn uncaptured_device_errors_have_their_own_kind() {
    let e = tilegraph_tool::synthetic::RunError::Device {
        count: 2,
        first: "Validation Error".into(),
    };
    assert_eq!(e.kind(), "device");
    assert_eq!(
        e.to_string(),
        "wgpu reported 2 uncaptured error(s); first: Validation Error"
    );
}

#[test]
fn a_failed_pass_is_described_without_repeating_its_message() {
    let e = tilegraph::ExecuteError::Pass {
        pass: "lighting".into(),
        source: "the light buffer is empty".into(),
    };
    let text = tilegraph_tool::headless::describe_failure(&e);
    assert_eq!(text, "pass `lighting` failed: the light buffer is empty");
}

const BEVY: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../examples/graphs/bevy_core3d.json"
);

#[test]
fn as_declared_gives_the_declared_order_plan_and_the_default_restructures() {
    let json = |args: &[&str]| -> Value {
        let o = tool(args);
        assert!(o.status.success(), "{}", stderr(&o));
        serde_json::from_str(&stdout(&o)).expect("plan JSON")
    };
    let restructured = json(&["plan", BEVY, "--format", "json"]);
    let declared = json(&["plan", BEVY, "--format", "json", "--as-declared"]);
    assert_eq!(
        restructured["restructure"][0]["kind"], "resolve_dropped",
        "{restructured}"
    );
    assert_eq!(declared["restructure"], serde_json::json!([]));
    // The flag is the library's switch.
    let graph = RenderGraph::from_json(&std::fs::read_to_string(BEVY).unwrap()).unwrap();
    let options = CompileOptions::default().with_restructure(false);
    assert_eq!(declared, library_json(&graph, &options));
    // At most half of naive restructured (the contract's figure for this frame).
    let t = &restructured["traffic"];
    assert!(
        t["bytes_per_frame"].as_u64().unwrap() * 2 <= t["naive_bytes_per_frame"].as_u64().unwrap(),
        "{t}"
    );
    let table = stdout(&tool(&["plan", BEVY]));
    assert!(table.contains("RESTRUCTURED"), "{table}");
    assert!(!stdout(&tool(&["plan", BEVY, "--as-declared"])).contains("RESTRUCTURED"));
    let dot = stdout(&tool(&["dot", BEVY]));
    assert!(dot.contains("dropped"), "{dot}");
    assert!(!stdout(&tool(&["dot", BEVY, "--as-declared"])).contains("dropped"));
}

#[test]
fn help_and_version_describe_every_command_and_flag() {
    let help = tool(&["--help"]);
    assert!(help.status.success());
    let text = stdout(&help);
    for command in ["plan", "dot", "run"] {
        assert!(
            text.lines()
                .any(|l| l.trim_start().starts_with(&format!("{command} "))),
            "`{command}` missing from --help:\n{text}"
        );
    }
    let version = tool(&["--version"]);
    assert!(version.status.success());
    assert_eq!(
        stdout(&version).trim(),
        format!("tilegraph {}", env!("CARGO_PKG_VERSION"))
    );
    // Each command's own help lists its flags, spelled as the examples spell theirs.
    let flags: [(&str, &[&str]); 3] = [
        (
            "plan",
            &[
                "--format",
                "--fps",
                "--dont-care",
                "--as-declared",
                "--tile",
            ],
        ),
        ("dot", &["--dont-care", "--as-declared", "--tile"]),
        (
            "run",
            &[
                "--mode",
                "--backend",
                "--hash",
                "--out",
                "--size",
                "--frames",
                "--dont-care",
                "--timings",
                "--plan-html",
                "--as-declared",
            ],
        ),
    ];
    for (command, flags) in flags {
        for asked in [vec![command, "--help"], vec!["help", command]] {
            let o = tool(&asked);
            assert!(o.status.success(), "{asked:?}");
            let text = stdout(&o);
            for flag in flags {
                assert!(
                    text.contains(flag),
                    "{asked:?} does not list {flag}:\n{text}"
                );
            }
        }
    }
}

/// A G-buffer of `n` rgba16float targets: 8 colour bytes a sample each.
fn gbuffer(n: usize) -> PathBuf {
    let resources: Vec<String> = (0..n)
        .map(|i| format!(r#"{{"name": "t{i}", "texture": {{"format": "rgba16float", "size": [64, 64]}}, "import": {{"contents": "undefined", "after": "keep"}}}}"#))
        .collect();
    let color: Vec<String> = (0..n)
        .map(|i| format!(r#"{{"resource": "t{i}", "access": "clear"}}"#))
        .collect();
    let json = format!(
        r#"{{"resources": [{}], "passes": [{{"name": "gbuffer", "type": "render", "color": [{}]}}]}}"#,
        resources.join(", "),
        color.join(", ")
    );
    file(&format!("gbuffer{n}.json"), json.as_bytes())
}

#[test]
fn limits_checks_the_plan_against_wgpus_presets() {
    let four = gbuffer(4);
    let five = gbuffer(5);
    let (four, five) = (four.to_str().unwrap(), five.to_str().unwrap());
    // Four rgba16float targets are 32 B, WebGPU's limit: they fit; WebGL2 allows 4 targets.
    for preset in ["webgpu", "downlevel", "webgl2"] {
        let o = tool(&["plan", four, "--limits", preset]);
        assert!(o.status.success(), "{preset}: {}", stderr(&o));
    }
    // Five are 40 B: exceeds_limit, as the tool prints errors, in text and JSON.
    let o = tool(&["plan", five, "--limits", "webgpu", "--format", "json"]);
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert!(
        err.starts_with(
            "error: exceeds_limit: pass `gbuffer` needs `max_color_attachment_bytes_per_sample` 40, more than the 32 given"
        ),
        "{err}"
    );
    let json: Value = serde_json::from_str(&stdout(&o)).expect("a JSON error");
    assert_eq!(json["error"]["kind"], "exceeds_limit");
    assert_eq!(json["error"]["pass"], "gbuffer");
    // WebGL2's 4 colour attachments come first in wgpu's order of limits.
    let o = tool(&["dot", five, "--limits", "webgl2"]);
    assert!(
        stderr(&o).contains("`max_color_attachments` 5, more than the 4 given"),
        "{}",
        stderr(&o)
    );
    // Without --limits the plan compiles and says what it needs.
    let o = tool(&["plan", five, "--format", "json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let plan: Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(
        plan["required_limits"]["max_color_attachment_bytes_per_sample"],
        40
    );
    assert_eq!(plan["groups"][0]["color_bytes_per_sample"], 40);
    // An unknown preset is a usage error.
    assert_eq!(
        tool(&["plan", four, "--limits", "metal"]).status.code(),
        Some(2)
    );
}

const HEADSET: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/graphs/headset/");

#[test]
fn the_headset_frames_say_what_multiview_costs_and_what_would_save_it() {
    let forward = format!("{HEADSET}quest3_forward.json");
    let o = tool(&["plan", &forward, "--fps", "90", "--format", "json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let p: Value = serde_json::from_str(&stdout(&o)).unwrap();
    // 4× rgba16float and depth24plus-stencil8, two 1832 × 1920 layers: on tile only, allocated.
    let (msaa, depth) = (1832 * 1920 * 2 * 4 * 8u64, 1832 * 1920 * 2 * 4 * 4u64);
    assert_eq!(p["memory"]["transient_bytes"], 0);
    assert_eq!(p["memory"]["transient_blocked_bytes"], msaa + depth);
    let advice = &p["groups"][0]["advice"][0];
    assert_eq!(advice["kind"], "per_view");
    assert_eq!(advice["bytes"], msaa + depth);
    assert!(
        advice["message"]
            .as_str()
            .unwrap()
            .ends_with("-337.7 MB of memory"),
        "{advice}"
    );
    // The deferred frame's G-buffer group: what framebuffer fetch would keep on tile.
    let deferred = format!("{HEADSET}quest3_deferred.json");
    let text = stdout(&tool(&["plan", &deferred, "--fps", "90"]));
    let line = text
        .lines()
        .find(|l| l.contains("advice") && l.contains("framebuffer fetch"))
        .expect("advice on the G-buffer group");
    // albedo, normal, material 4 B, emissive 8 B, depth 4 B: 24 B × 1832 × 1920 × 2.
    assert_eq!(24 * 1832 * 1920 * 2, 168_837_120);
    assert!(line.contains("-168.8 MB a frame; wgpu has none"), "{line}");
    let quest2 = format!("{HEADSET}quest2_forward.json");
    assert!(tool(&["plan", &quest2, "--fps", "72"]).status.success());
}

#[test]
fn a_tile_profile_file_is_reported_beside_the_built_in_ones() {
    let xr2 = file(
        "xr2.json",
        br#"{"name": "xr2", "rule": "adreno", "gmem_bytes": 1179648, "bin_align": [96, 16], "ccus": 3}"#,
    );
    let quest2 = format!("{HEADSET}quest2_forward.json");
    let args = ["plan", &quest2, "--tile", "adreno-630", "--tile-profile"];
    let o = tool(&[&args[..], &[xr2.to_str().unwrap(), "--format", "json"]].concat());
    assert!(o.status.success(), "{}", stderr(&o));
    let p: Value = serde_json::from_str(&stdout(&o)).unwrap();
    let tile = &p["groups"][0]["tile"];
    assert_eq!(tile[0]["profile"], "adreno-630");
    assert_eq!(tile[1]["profile"], "xr2");
    // Turnip 25.0's grid with the XR2's figures: the fewest bins (Meta's published 96x176 for
    // 4× MSAA 32-bit colour + D24S8, multiview, also fits: 135 of them; the guide compares).
    assert_eq!(tile[1]["bin"], serde_json::json!([288, 64]));
    assert_eq!(tile[1]["bins"], 125);
    assert_eq!(tile[1]["driver"], "turnip 25.0");
    assert!(
        tile[1]["bin_reason"]
            .as_str()
            .unwrap()
            .contains("36864 pixels a bin over every view"),
        "{tile}"
    );
    // A bad file is a usage error naming the file and what is wrong.
    let bad = file("bad.json", br#"{"name": "x", "rule": "adreno", "gmem": 1}"#);
    let o = tool(&["plan", &quest2, "--tile-profile", bad.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("has no field `gmem`"), "{}", stderr(&o));
    let five: Vec<&str> = ["--tile-profile", xr2.to_str().unwrap()].repeat(5);
    let o = tool(&[&["plan", quest2.as_str()][..], &five].concat());
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("at most 4 --tile-profile"),
        "{}",
        stderr(&o)
    );
}

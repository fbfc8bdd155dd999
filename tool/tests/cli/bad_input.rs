//! Bad input to the library and to the `tilegraph` tool: every case is a typed error (the tool
//! prints one line `error: <kind>: <message>` and exits non-zero), in bounded time, never a panic.
//!
//! Cases tried (each through `RenderGraph::from_json` + `compile`, and through the tool's `plan`,
//! `plan --format json` and `dot` commands):
//! - malformed JSON: empty file, whitespace, a lone `{`, a trailing comma, a byte-order mark,
//!   a NUL byte, single quotes, comments, NaN, a number out of range, duplicate keys;
//! - every strict prefix of `examples/graphs/deferred.json` (truncation anywhere);
//! - wrong types: resources as an object, passes null, a numeric name, a string size, a string
//!   sample count, a string side_effects, an unknown access, pass type and import contents, clear
//!   values of the wrong shape (`"red"`, three channels, an object with an extra key);
//! - unknown fields at every level (top level, resource, texture, buffer, pass, colour entry,
//!   depth entry, import);
//! - missing required fields, an empty graph (`{}` and no passes), duplicate names, unknown
//!   resources, an empty name;
//! - zero sizes (width, height, layers, buffer), zero mips, three samples, sizes that overflow
//!   a JSON u32, negative and fractional sizes;
//! - huge sizes: w×h×layers×bytes past u32 (must compile with exact 64-bit traffic), past u64 (an
//!   error), traffic past u64 (an error);
//! - 100 000 passes (valid chain, compiled in bounded time) and 100 000 resources;
//! - JSON nested 100 000 deep (at the top level and inside a clear value);
//! - a non-UTF-8 file (`invalid_description`), a missing file, a directory instead of a file
//!   (`io`; tool only);
//! - tool usage errors: no command, an unknown command, an unknown flag, a bad `--fps`.

use crate::common::tool;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use tilegraph::{CompileOptions, RenderGraph};

const VALID: &str = r#"{
  "resources": [{"name": "a", "texture": {"format": "rgba8unorm", "size": [16, 16]}}],
  "passes": [{"name": "p", "type": "render", "color": [{"resource": "a", "access": "clear"}],
              "side_effects": true}]
}"#;

/// Result of loading and compiling `json`: the error kind, or `None` when it compiles.
fn library_kind(json: &str) -> Option<&'static str> {
    let graph = match RenderGraph::from_json(json) {
        Ok(graph) => graph,
        Err(e) => return Some(e.kind().as_str()),
    };
    match graph.compile(&CompileOptions::default()) {
        Ok(plan) => {
            let _ = (plan.to_json(), plan.to_table(), plan.to_dot());
            None
        }
        Err(e) => Some(e.kind().as_str()),
    }
}

fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("bad_input");
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

/// The tool rejects `path` with `kind` in all three output modes.
fn assert_tool_rejects(path: &str, kind: &str) {
    for args in [
        vec!["plan", path],
        vec!["plan", path, "--format", "json"],
        vec!["dot", path, "--dont-care"],
    ] {
        let out = tool(&args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
        let lines: Vec<&str> = stderr.lines().collect();
        assert_eq!(lines.len(), 1, "{args:?}: one line expected: {stderr}");
        let prefix = format!("error: {kind}: ");
        assert!(
            lines[0].starts_with(&prefix) && lines[0].len() > prefix.len(),
            "{args:?}: {stderr}"
        );
        if args.contains(&"json") {
            let stdout = String::from_utf8_lossy(&out.stdout);
            let value: serde_json::Value = serde_json::from_str(&stdout).expect("a JSON error");
            assert_eq!(value["error"]["kind"], kind, "{stdout}");
        }
    }
}

/// `json` is rejected with `kind` by the library and by the tool.
fn assert_rejected(case: &str, json: &[u8], kind: &str) {
    if let Ok(text) = std::str::from_utf8(json) {
        assert_eq!(library_kind(text), Some(kind), "library, case {case}");
    }
    let path = scratch(&format!("{case}.json"));
    std::fs::write(&path, json).unwrap();
    assert_tool_rejects(path.to_str().unwrap(), kind);
}

#[test]
fn malformed_json() {
    let cases: [(&str, &str); 12] = [
        ("empty", ""),
        ("whitespace", " \n\t "),
        ("lone_brace", "{"),
        ("trailing_comma", r#"{"resources": [], "passes": [],}"#),
        (
            "byte_order_mark",
            "\u{feff}{\"resources\": [], \"passes\": []}",
        ),
        ("nul_byte", "{\"resources\": [], \0 \"passes\": []}"),
        ("single_quotes", "{'resources': [], 'passes': []}"),
        ("comment", "// graph\n{\"resources\": [], \"passes\": []}"),
        (
            "nan",
            r#"{"resources": [{"name": "a", "texture": {"format": "rgba8unorm", "size": [1, 1]}, "clear": [NaN, 0, 0, 1]}], "passes": []}"#,
        ),
        (
            "number_out_of_range",
            r#"{"resources": [{"name": "d", "texture": {"format": "depth32float", "size": [1, 1]}, "clear": 1e400}], "passes": []}"#,
        ),
        (
            "duplicate_key",
            r#"{"resources": [], "resources": [], "passes": []}"#,
        ),
        ("not_an_object", "[1, 2, 3]"),
    ];
    for (case, json) in cases {
        assert_rejected(case, json.as_bytes(), "invalid_description");
    }
}

#[test]
fn every_truncation_of_an_example_is_an_error() {
    let full = include_str!("../../../examples/graphs/deferred.json");
    assert_eq!(library_kind(full), None, "the example itself compiles");
    let trimmed = full.trim_end();
    for end in 0..trimmed.len() {
        if trimmed.is_char_boundary(end) {
            assert_eq!(
                library_kind(&trimmed[..end]),
                Some("invalid_description"),
                "prefix of {end} bytes"
            );
        }
    }
    // The tool on a few of them.
    for end in [1, trimmed.len() / 3, trimmed.len() - 1] {
        assert_rejected(
            &format!("truncated_{end}"),
            &trimmed.as_bytes()[..end],
            "invalid_description",
        );
    }
}

/// `VALID` with `from` replaced by `to` (which must occur).
fn edit(from: &str, to: &str) -> String {
    assert!(VALID.contains(from), "{from}");
    VALID.replacen(from, to, 1)
}

#[test]
fn wrong_types_and_unknown_fields() {
    let cases = [
        ("resources_object", edit(r#""resources": ["#, r#""resources": {"x": ["#).replacen("}],\n  \"passes\"", "}]},\n  \"passes\"", 1)),
        ("passes_null", r#"{"resources": [], "passes": null}"#.to_owned()),
        ("numeric_name", edit(r#""name": "a""#, r#""name": 5"#)),
        ("string_size", edit("[16, 16]", r#""16x16""#)),
        ("string_samples", edit("[16, 16]}", r#"[16, 16], "samples": "4"}"#)),
        ("string_side_effects", edit(r#""side_effects": true"#, r#""side_effects": "yes""#)),
        ("unknown_access", edit(r#""access": "clear""#, r#""access": "blend""#)),
        ("unknown_pass_type", edit(r#""type": "render""#, r#""type": "raytrace""#)),
        ("unknown_format", edit("rgba8unorm", "rgba9unorm")),
        ("unknown_import", edit("[16, 16]}", r#"[16, 16]}, "import": {"contents": "maybe", "after": "keep"}"#)),
        ("clear_string", edit("[16, 16]}", r#"[16, 16]}, "clear": "red""#)),
        ("clear_three_channels", edit("[16, 16]}", r#"[16, 16]}, "clear": [0, 0, 0]"#)),
        ("clear_extra_key", edit("[16, 16]}", r#"[16, 16]}, "clear": {"depth": 1, "shade": 2}"#)),
        ("texture_and_buffer", edit("[16, 16]}", r#"[16, 16]}, "buffer": {"size": 4}"#)),
        ("neither_texture_nor_buffer", r#"{"resources": [{"name": "a"}], "passes": [{"name": "p", "type": "compute", "side_effects": true}]}"#.to_owned()),
        ("unknown_top_level", edit(r#""resources""#, r#""version": 2, "resources""#)),
        ("unknown_resource_field", edit(r#""name": "a""#, r#""name": "a", "sizes": 1"#)),
        ("unknown_texture_field", edit("[16, 16]", "[16, 16], \"layers\": 2")),
        ("unknown_buffer_field", r#"{"resources": [{"name": "b", "buffer": {"size": 4, "usage": "x"}}], "passes": [{"name": "p", "type": "compute", "storage_write": ["b"], "side_effects": true}]}"#.to_owned()),
        ("unknown_pass_field", edit(r#""type": "render""#, r#""type": "render", "colour": []"#)),
        ("unknown_color_field", edit(r#""access": "clear""#, r#""access": "clear", "blend": true"#)),
        ("unknown_depth_field", r#"{"resources": [{"name": "d", "texture": {"format": "depth32float", "size": [4, 4]}}], "passes": [{"name": "p", "type": "render", "depth": {"resource": "d", "access": "clear", "stencil": 0}, "side_effects": true}]}"#.to_owned()),
        ("unknown_import_field", edit("[16, 16]}", r#"[16, 16]}, "import": {"contents": "preserved", "after": "keep", "when": 1}"#)),
        ("missing_passes", r#"{"resources": []}"#.to_owned()),
        ("missing_access", edit(r#", "access": "clear""#, "")),
        ("empty_object", "{}".to_owned()),
        ("no_passes", r#"{"resources": [], "passes": []}"#.to_owned()),
        ("empty_name", edit(r#""name": "p""#, r#""name": """#)),
    ];
    for (case, json) in &cases {
        assert_rejected(case, json.as_bytes(), "invalid_description");
    }
    assert_rejected(
        "duplicate_resource",
        edit(
            r#"{"name": "a","#,
            r#"{"name": "a", "buffer": {"size": 4}}, {"name": "a","#,
        )
        .as_bytes(),
        "duplicate_name",
    );
    assert_rejected(
        "unknown_resource",
        edit(r#""resource": "a""#, r#""resource": "b""#).as_bytes(),
        "unknown_resource",
    );
}

#[test]
fn zero_and_impossible_sizes() {
    let cases = [
        ("zero_width", edit("[16, 16]", "[0, 16]")),
        ("zero_height", edit("[16, 16]", "[16, 0]")),
        ("zero_layers", edit("[16, 16]", "[16, 16, 0]")),
        ("zero_mips", edit("[16, 16]", "[16, 16], \"mips\": 0")),
        ("three_samples", edit("[16, 16]", "[16, 16], \"samples\": 3")),
        ("size_past_json_u32", edit("[16, 16]", "[4294967296, 16]")),
        ("negative_size", edit("[16, 16]", "[-16, 16]")),
        ("fractional_size", edit("[16, 16]", "[16.5, 16]")),
        ("one_dimension", edit("[16, 16]", "[16]")),
        ("four_dimensions", edit("[16, 16]", "[16, 16, 1, 1]")),
        ("zero_buffer", r#"{"resources": [{"name": "b", "buffer": {"size": 0}}], "passes": [{"name": "p", "type": "compute", "storage_write": ["b"], "side_effects": true}]}"#.to_owned()),
        // 4294967295² × 4 layers × 16 bytes overflows u64.
        ("bytes_past_u64", edit(r#""rgba8unorm", "size": [16, 16]"#, r#""rgba32float", "size": [4294967295, 4294967295, 4]"#)),
        // One byte per texel fits u64 (just), but loading and storing it twice does not.
        ("traffic_past_u64", r#"{"resources": [{"name": "a", "texture": {"format": "r8unorm", "size": [4294967295, 4294967295]},
            "import": {"contents": "preserved", "after": "keep"}}],
          "passes": [{"name": "p", "type": "render", "color": [{"resource": "a", "access": "read_write"}]}]}"#.to_owned()),
    ];
    for (case, json) in &cases {
        assert_rejected(case, json.as_bytes(), "invalid_description");
    }
}

#[test]
fn sizes_past_u32_are_counted_in_64_bits() {
    // 65536 × 65536 × 4 bytes = 2^34 bytes: past u32, loaded and stored once.
    let json = r#"{"resources": [{"name": "a", "texture": {"format": "rgba8unorm", "size": [65536, 65536]},
        "import": {"contents": "preserved", "after": "keep"}}],
      "passes": [{"name": "p", "type": "render", "color": [{"resource": "a", "access": "read_write"}]}]}"#;
    let plan = RenderGraph::from_json(json)
        .unwrap()
        .compile(&CompileOptions::default())
        .unwrap();
    assert_eq!(plan.traffic().bytes_per_frame, 1 << 35);
    assert_eq!(plan.traffic().bytes_per_second, 60 << 35);
    let path = scratch("past_u32.json");
    std::fs::write(&path, json).unwrap();
    let out = tool(&["plan", path.to_str().unwrap(), "--format", "json"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let value: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(value["traffic"]["bytes_per_frame"], 1u64 << 35);
}

fn many_passes(n: usize) -> String {
    let mut passes = Vec::with_capacity(n);
    passes.push(
        r#"{"name": "p0", "type": "render", "color": [{"resource": "a", "access": "clear"}]}"#
            .to_owned(),
    );
    for i in 1..n {
        passes.push(format!(
            r#"{{"name": "p{i}", "type": "render", "color": [{{"resource": "a", "access": "read_write"}}]}}"#
        ));
    }
    format!(
        r#"{{"resources": [{{"name": "a", "texture": {{"format": "rgba8unorm", "size": [64, 64]}},
            "import": {{"contents": "undefined", "after": "keep"}}}}],
          "passes": [{}]}}"#,
        passes.join(",\n")
    )
}

#[test]
fn a_hundred_thousand_passes_compile_in_bounded_time() {
    let json = many_passes(100_000);
    let start = Instant::now();
    let plan = RenderGraph::from_json(&json)
        .unwrap()
        .compile(&CompileOptions::default())
        .unwrap();
    // One chain on one attachment: a single group, loaded never, stored once.
    assert_eq!(plan.groups().len(), 1);
    assert_eq!(plan.groups()[0].passes.len(), 100_000);
    assert_eq!(plan.traffic().bytes_per_frame, 64 * 64 * 4);
    let _ = (plan.to_json(), plan.to_table(), plan.to_dot());
    let library = start.elapsed();
    let path = scratch("many_passes.json");
    std::fs::write(&path, &json).unwrap();
    let out = tool(&["plan", path.to_str().unwrap(), "--format", "json"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // Generous bounds (debug builds on a busy machine); a quadratic step would blow them.
    assert!(
        library < Duration::from_secs(60),
        "library took {library:?}"
    );
    assert!(
        start.elapsed() < Duration::from_secs(120),
        "took {:?}",
        start.elapsed()
    );

    // The same count of passes, one of them reading what nobody wrote: an error, as fast.
    let broken = json.replacen(r#""access": "clear""#, r#""access": "read_write""#, 1);
    assert_rejected("many_passes_broken", broken.as_bytes(), "read_before_write");
}

#[test]
fn a_hundred_thousand_resources() {
    let resources: Vec<String> = (0..100_000)
        .map(|i| {
            format!(r#"{{"name": "r{i}", "texture": {{"format": "rgba8unorm", "size": [8, 8]}}}}"#)
        })
        .collect();
    let json = format!(
        r#"{{"resources": [{}], "passes": [{{"name": "p", "type": "render",
            "color": [{{"resource": "r99999", "access": "clear"}}], "side_effects": true}}]}}"#,
        resources.join(",")
    );
    let start = Instant::now();
    assert_eq!(library_kind(&json), None);
    assert!(
        start.elapsed() < Duration::from_secs(60),
        "took {:?}",
        start.elapsed()
    );
}

#[test]
fn deeply_nested_json() {
    let depth = 100_000;
    let top = format!("{}{}", "[".repeat(depth), "]".repeat(depth));
    assert_rejected("nested_top", top.as_bytes(), "invalid_description");
    let in_clear = edit(
        "[16, 16]}",
        &format!(
            r#"[16, 16]}}, "clear": {}{}"#,
            "[".repeat(depth),
            "]".repeat(depth)
        ),
    );
    assert_rejected("nested_clear", in_clear.as_bytes(), "invalid_description");
    let objects = format!("{}{}", r#"{"a":"#.repeat(depth), "}".repeat(depth));
    assert_rejected("nested_objects", objects.as_bytes(), "invalid_description");
}

#[test]
fn unreadable_files() {
    assert_rejected(
        "not_utf8",
        b"{\"resources\": [], \"passes\": [\xff\xfe]}",
        "invalid_description",
    );
    // A file that cannot be read is `io`, as the README names it, for `plan`, `dot` and `run`.
    let missing = scratch("does_not_exist.json");
    let _ = std::fs::remove_file(&missing);
    assert_tool_rejects(missing.to_str().unwrap(), "io");
    let out = tool(&["run", missing.to_str().unwrap()]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.starts_with("error: io: "), "{stderr}");
    let dir = scratch("a_directory");
    std::fs::create_dir_all(&dir).unwrap();
    assert_tool_rejects(dir.to_str().unwrap(), "io");
}

#[test]
fn tool_usage_errors_exit_with_2() {
    let path = scratch("valid.json");
    std::fs::write(&path, VALID).unwrap();
    let file = path.to_str().unwrap();
    assert!(tool(&["plan", file]).status.success());
    for args in [
        vec![],
        vec!["draw", file],
        vec!["plan"],
        vec!["plan", file, "--colour"],
        vec!["plan", file, "--fps", "0"],
        vec!["plan", file, "--fps", "many"],
        vec!["plan", file, "--format", "yaml"],
        vec!["plan", file, file],
    ] {
        let out = tool(&args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(
            stderr.starts_with("error: ") && !stderr.contains("panicked"),
            "{args:?}: {stderr}"
        );
    }
}

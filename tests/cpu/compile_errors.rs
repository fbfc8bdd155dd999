//! Every error kind of the guide, with the pass and resource it names; errors in culled passes.

use crate::common::{assert_error, error, plan};
use tilegraph::wgpu::TextureFormat;
use tilegraph::{Access, CompileOptions, RenderGraph, TextureDesc};

/// A description with `resources` and `passes` spliced in.
fn graph(resources: &str, passes: &str) -> String {
    format!(r#"{{"resources": [{resources}], "passes": [{passes}]}}"#)
}

const OUT: &str = r#"{"name": "out", "texture": {"format": "rgba8unorm", "size": [64, 64]},
    "import": {"contents": "undefined", "after": "keep"}}"#;
const PRESENT: &str =
    r#"{"name": "present", "type": "render", "color": [{"resource": "out", "access": "clear"}]}"#;

// ---------------------------------------------------------------------------------------------
// invalid_description

#[test]
fn invalid_description_for_malformed_files_and_bad_values() {
    let cases = [
        (
            "malformed JSON",
            r#"{"resources": [], "passes": [ "#.to_owned(),
        ),
        ("not an object", "[1, 2, 3]".to_owned()),
        (
            "unknown top-level field",
            format!(r#"{{"resources": [{OUT}], "passes": [{PRESENT}], "pases": []}}"#),
        ),
        (
            "unknown texture field",
            graph(
                r#"{"name": "out", "texture": {"format": "rgba8unorm", "size": [64, 64], "sample": 4}}"#,
                PRESENT,
            ),
        ),
        (
            "unknown pass field",
            graph(
                OUT,
                r#"{"name": "present", "type": "render", "colour": [{"resource": "out", "access": "clear"}]}"#,
            ),
        ),
        (
            "wrong type for size",
            graph(
                r#"{"name": "out", "texture": {"format": "rgba8unorm", "size": "64x64"}}"#,
                PRESENT,
            ),
        ),
        (
            "negative size",
            graph(
                r#"{"name": "out", "texture": {"format": "rgba8unorm", "size": [-1, 64]}}"#,
                PRESENT,
            ),
        ),
        (
            "size with one number",
            graph(
                r#"{"name": "out", "texture": {"format": "rgba8unorm", "size": [64]}}"#,
                PRESENT,
            ),
        ),
        (
            "zero size",
            graph(
                r#"{"name": "out", "texture": {"format": "rgba8unorm", "size": [0, 64]}}"#,
                PRESENT,
            ),
        ),
        (
            "unknown format",
            graph(
                r#"{"name": "out", "texture": {"format": "rgba8", "size": [64, 64]}}"#,
                PRESENT,
            ),
        ),
        (
            "sample count 3",
            graph(
                r#"{"name": "out", "texture": {"format": "rgba8unorm", "size": [64, 64], "samples": 3}}"#,
                PRESENT,
            ),
        ),
        (
            "texture and buffer",
            graph(
                r#"{"name": "out", "texture": {"format": "rgba8unorm", "size": [64, 64]}, "buffer": {"size": 4}}"#,
                PRESENT,
            ),
        ),
        (
            "unknown access",
            graph(
                OUT,
                r#"{"name": "present", "type": "render", "color": [{"resource": "out", "access": "blend"}]}"#,
            ),
        ),
        (
            "unknown pass type",
            graph(
                OUT,
                r#"{"name": "present", "type": "raytrace", "color": [{"resource": "out", "access": "clear"}]}"#,
            ),
        ),
        (
            "unknown import contents",
            graph(
                r#"{"name": "out", "texture": {"format": "rgba8unorm", "size": [64, 64]},
                    "import": {"contents": "garbage", "after": "keep"}}"#,
                PRESENT,
            ),
        ),
        (
            "clear with three channels",
            graph(
                r#"{"name": "out", "texture": {"format": "rgba8unorm", "size": [64, 64]}, "clear": [0, 0, 0]}"#,
                PRESENT,
            ),
        ),
        ("no passes", graph(OUT, "")),
        (
            "empty graph",
            r#"{"resources": [], "passes": []}"#.to_owned(),
        ),
        (
            "byte size overflowing u64",
            graph(
                r#"{"name": "out", "texture": {"format": "rgba32float",
                    "size": [4294967295, 4294967295, 4294967295]}}"#,
                PRESENT,
            ),
        ),
    ];
    for (what, json) in cases {
        let e = error(&json);
        // An error about one resource's declaration names it in its field as in its message.
        let message = e.to_string();
        let named = message
            .strip_prefix("resource `")
            .and_then(|rest| rest.split_once('`'))
            .map(|(name, _)| name);
        assert_eq!(
            (e.kind().as_str(), e.pass(), e.resource()),
            ("invalid_description", None, named),
            "{what}: {e}"
        );
        assert!(!e.to_string().is_empty(), "{what}");
    }
}

#[test]
fn traffic_that_overflows_u64_is_an_error_not_a_panic() {
    // Each texture is about 2^61 bytes (fits); storing it in three groups, or per second, does not.
    let big = r#"{"format": "rgba8unorm", "size": [4294967295, 536870912]}"#;
    let json = format!(
        r#"{{"resources": [{{"name": "huge", "texture": {big},
            "import": {{"contents": "preserved", "after": "keep"}}}}],
          "passes": [
            {{"name": "a", "type": "render", "color": [{{"resource": "huge", "access": "read_write"}}]}},
            {{"name": "b", "type": "render", "color": [{{"resource": "huge", "access": "clear"}}]}},
            {{"name": "c", "type": "render", "color": [{{"resource": "huge", "access": "read_write"}}]}}
          ]}}"#
    );
    assert_eq!(error(&json).kind().as_str(), "invalid_description");
}

// ---------------------------------------------------------------------------------------------
// unknown_resource, duplicate_name

#[test]
fn unknown_resource_names_the_pass_and_the_name() {
    assert_error(
        &graph(
            OUT,
            r#"{"name": "present", "type": "render", "sample": ["lightmap"],
                "color": [{"resource": "out", "access": "clear"}]}"#,
        ),
        "unknown_resource",
        Some("present"),
        Some("lightmap"),
    );
    assert_error(
        &graph(
            r#"{"name": "msaa", "texture": {"format": "rgba8unorm", "size": [64, 64], "samples": 4}}"#,
            r#"{"name": "draw", "type": "render",
                "color": [{"resource": "msaa", "access": "clear", "resolve": "backbufer"}]}"#,
        ),
        "unknown_resource",
        Some("draw"),
        Some("backbufer"),
    );
}

#[test]
fn unknown_resource_for_a_handle_of_another_graph() {
    use tilegraph::wgpu::TextureFormat;
    use tilegraph::{Access, TextureDesc};
    let mut other = RenderGraph::new();
    let foreign = other.create_texture("t", TextureDesc::new(TextureFormat::Rgba8Unorm, 4, 4));
    let mut g = RenderGraph::new();
    let _mine = g.create_texture("t", TextureDesc::new(TextureFormat::Rgba8Unorm, 4, 4));
    g.add_render_pass("draw")
        .color(foreign, Access::Clear)
        .side_effects()
        .finish();
    let e = g.compile(&CompileOptions::default()).unwrap_err();
    assert_eq!(e.kind().as_str(), "unknown_resource");
    assert_eq!(e.pass(), Some("draw"));
}

#[test]
fn duplicate_resource_name() {
    assert_error(
        &graph(&format!("{OUT}, {OUT}"), PRESENT),
        "duplicate_name",
        None,
        Some("out"),
    );
}

#[test]
fn duplicate_pass_name_names_the_pass() {
    assert_error(
        &graph(OUT, &format!("{PRESENT}, {PRESENT}")),
        "duplicate_name",
        Some("present"),
        None,
    );
}

/// A graph declared with the builder: textures of these names, a history texture, and render
/// passes of these names, each clearing the first texture.
fn declared(textures: &[&str], history: Option<&str>, passes: &[String]) -> RenderGraph<'static> {
    let desc = TextureDesc::new(TextureFormat::Rgba8Unorm, 4, 4);
    let mut g = RenderGraph::new();
    let handles: Vec<_> = textures.iter().map(|n| g.create_texture(n, desc)).collect();
    if let Some(name) = history {
        g.history_texture(name, desc);
    }
    for name in passes {
        g.add_render_pass(name)
            .color(handles[0], Access::Clear)
            .side_effects()
            .finish();
    }
    g
}

#[test]
fn names_declared_with_the_builder_are_checked() {
    let error = |g: &RenderGraph<'_>| g.compile(&CompileOptions::default()).unwrap_err();
    let draw = ["draw".to_owned()];
    // Two textures of one name; a history texture's half named like a texture before it.
    let e = error(&declared(&["shared", "shared"], None, &draw));
    assert_eq!(
        (e.kind().as_str(), e.resource()),
        ("duplicate_name", Some("shared"))
    );
    let e = error(&declared(&["taa.previous"], Some("taa"), &draw));
    assert_eq!(
        (e.kind().as_str(), e.resource()),
        ("duplicate_name", Some("taa.previous"))
    );

    // Passes: the second of a name is reported, after many distinct ones.
    let passes: Vec<String> = (0..300)
        .map(|i| format!("pass {}", if i == 250 { 40 } else { i }))
        .collect();
    let e = error(&declared(&["target"], None, &passes));
    assert_eq!(
        (e.kind().as_str(), e.pass()),
        ("duplicate_name", Some("pass 40"))
    );

    // An empty pass name; the same declarations rebuilt from the graph's own.
    let g = declared(&["target"], None, &[String::new()]);
    let e = error(&g);
    assert_eq!(e.kind().as_str(), "invalid_description", "error was: {e}");
    let rebuilt =
        RenderGraph::from_declarations(g.resources().to_vec(), g.passes().to_vec()).unwrap();
    assert_eq!(error(&rebuilt).to_string(), e.to_string());
}

// ---------------------------------------------------------------------------------------------
// read_before_write

#[test]
fn read_before_write_for_attachments_without_content_or_clear_value() {
    // An undefined import has no content; read_write needs it and there is no clear value.
    assert_error(
        &graph(
            OUT,
            r#"{"name": "blend", "type": "render", "color": [{"resource": "out", "access": "read_write"}]}"#,
        ),
        "read_before_write",
        Some("blend"),
        Some("out"),
    );
    // A read-only depth test against depth nobody wrote.
    assert_error(
        &graph(
            &format!(
                r#"{OUT}, {{"name": "depth", "texture": {{"format": "depth32float", "size": [64, 64]}}}}"#
            ),
            r#"{"name": "draw", "type": "render", "color": [{"resource": "out", "access": "clear"}],
                "depth": {"resource": "depth", "access": "read"}}"#,
        ),
        "read_before_write",
        Some("draw"),
        Some("depth"),
    );
}

#[test]
fn read_before_write_for_shader_and_copy_reads_even_with_a_clear_value() {
    let resources = format!(
        r#"{OUT}, {{"name": "lut", "texture": {{"format": "rgba8unorm", "size": [64, 64]}}, "clear": [0, 0, 0, 1]}},
           {{"name": "params", "buffer": {{"size": 64}}}}"#
    );
    // Clear values apply to attachments only.
    for (pass, read, json) in [
        (
            "grade",
            "lut",
            r#"{"name": "grade", "type": "render", "sample": ["lut"],
                "color": [{"resource": "out", "access": "write"}]}"#,
        ),
        (
            "fetch",
            "lut",
            r#"{"name": "fetch", "type": "render", "input": ["lut"],
                "color": [{"resource": "out", "access": "write"}]}"#,
        ),
        (
            "cull",
            "params",
            r#"{"name": "cull", "type": "compute", "storage_read": ["params"], "side_effects": true}"#,
        ),
        (
            "accumulate",
            "params",
            r#"{"name": "accumulate", "type": "compute", "storage_read_write": ["params"], "side_effects": true}"#,
        ),
        (
            "blit",
            "lut",
            r#"{"name": "blit", "type": "copy", "copy_src": ["lut"], "copy_dst": ["out"]}"#,
        ),
    ] {
        assert_error(
            &graph(&resources, json),
            "read_before_write",
            Some(pass),
            Some(read),
        );
    }
}

// ---------------------------------------------------------------------------------------------
// feedback

#[test]
fn feedback_when_a_pass_reads_what_it_writes_as_an_attachment() {
    let resources = format!(
        r#"{OUT}, {{"name": "depth", "texture": {{"format": "depth32float", "size": [64, 64]}}, "clear": 1.0}}"#
    );
    assert_error(
        &graph(
            &resources,
            r#"{"name": "blur", "type": "render", "sample": ["out"],
                "color": [{"resource": "out", "access": "clear"}]}"#,
        ),
        "feedback",
        Some("blur"),
        Some("out"),
    );
    assert_error(
        &graph(
            &resources,
            r#"{"name": "soft", "type": "render", "sample": ["depth"],
                "color": [{"resource": "out", "access": "clear"}],
                "depth": {"resource": "depth", "access": "read_write"}}"#,
        ),
        "feedback",
        Some("soft"),
        Some("depth"),
    );
}

#[test]
fn a_read_depth_attachment_may_also_be_sampled() {
    let p = plan(&graph(
        &format!(
            r#"{OUT}, {{"name": "depth", "texture": {{"format": "depth32float", "size": [64, 64]}}}}"#
        ),
        r#"{"name": "prepass", "type": "render", "depth": {"resource": "depth", "access": "clear"}},
           {"name": "particles", "type": "render", "sample": ["depth"],
            "color": [{"resource": "out", "access": "clear"}],
            "depth": {"resource": "depth", "access": "read"}}"#,
    ));
    crate::common::assert_plan(
        &p,
        "g0 render [prepass] samples_group_output
            depth depth clear store
         g1 render [particles] end_of_graph
            color out clear store
            depth depth load none read_only
         out 1..1 -
         depth 0..1 p0",
    );
}

// ---------------------------------------------------------------------------------------------
// size_mismatch, sample_count_mismatch

#[test]
fn size_mismatch_names_the_attachment_that_differs() {
    let resources = format!(
        r#"{OUT}, {{"name": "half", "texture": {{"format": "rgba8unorm", "size": [32, 32]}}}},
           {{"name": "layered", "texture": {{"format": "rgba8unorm", "size": [64, 64, 2]}}}},
           {{"name": "mipped", "texture": {{"format": "rgba8unorm", "size": [128, 128], "mips": 3}}}},
           {{"name": "depth", "texture": {{"format": "depth32float", "size": [64, 32]}}}}"#
    );
    assert_error(
        &graph(
            &resources,
            r#"{"name": "mrt", "type": "render",
                "color": [{"resource": "out", "access": "clear"}, {"resource": "half", "access": "clear"}]}"#,
        ),
        "size_mismatch",
        Some("mrt"),
        Some("half"),
    );
    // Attached subresources are compared (the guide): mip 2 of 128×128 renders 32×32.
    let e = error(&graph(
        &resources,
        r#"{"name": "mrt", "type": "render",
            "color": [{"resource": "out", "access": "clear"}, {"resource": "mipped", "mip": 2, "access": "clear"}]}"#,
    ));
    assert_eq!(
        (e.kind().as_str(), e.pass(), e.resource()),
        ("size_mismatch", Some("mrt"), Some("mipped"))
    );
    assert!(
        e.to_string().contains("32x32") && e.to_string().contains("64x64"),
        "{e}"
    );
    assert_error(
        &graph(
            &resources,
            r#"{"name": "draw", "type": "render", "color": [{"resource": "out", "access": "clear"}],
                "depth": {"resource": "depth", "access": "clear"}}"#,
        ),
        "size_mismatch",
        Some("draw"),
        Some("depth"),
    );
    // Layers no longer count: one layer of a 64×64×2 array and mip 1 of 128×128 render 64×64.
    plan(&graph(
        &resources,
        r#"{"name": "mrt", "type": "render", "side_effects": true,
            "color": [{"resource": "out", "access": "clear"}, {"resource": "layered", "layer": 1, "access": "clear"},
                      {"resource": "mipped", "mip": 1, "access": "clear"}]}"#,
    ));
}

#[test]
fn sample_count_mismatch_names_the_attachment_that_differs() {
    assert_error(
        &graph(
            r#"{"name": "msaa", "texture": {"format": "rgba8unorm", "size": [64, 64], "samples": 4}},
               {"name": "depth", "texture": {"format": "depth32float", "size": [64, 64]}}"#,
            r#"{"name": "draw", "type": "render", "side_effects": true,
                "color": [{"resource": "msaa", "access": "clear"}],
                "depth": {"resource": "depth", "access": "clear"}}"#,
        ),
        "sample_count_mismatch",
        Some("draw"),
        Some("depth"),
    );
}

// ---------------------------------------------------------------------------------------------
// format_mismatch

#[test]
fn format_mismatch_for_wrong_attachment_formats_and_buffers_as_textures() {
    let resources = format!(
        r#"{OUT}, {{"name": "depth", "texture": {{"format": "depth32float", "size": [64, 64]}}}},
           {{"name": "shared_exp", "texture": {{"format": "rgb9e5ufloat", "size": [64, 64]}}}},
           {{"name": "buf", "buffer": {{"size": 64}}}}"#
    );
    let cases = [
        (
            r#"{"name": "p", "type": "render", "color": [{"resource": "depth", "access": "clear"}]}"#,
            "depth",
        ),
        (
            r#"{"name": "p", "type": "render", "color": [{"resource": "out", "access": "clear"}],
                "depth": {"resource": "out", "access": "clear"}}"#,
            "out",
        ),
        (
            r#"{"name": "p", "type": "render", "color": [{"resource": "shared_exp", "access": "clear"}]}"#,
            "shared_exp",
        ),
        (
            r#"{"name": "p", "type": "render", "color": [{"resource": "buf", "access": "clear"}]}"#,
            "buf",
        ),
        (
            r#"{"name": "p", "type": "render", "sample": ["buf"], "color": [{"resource": "out", "access": "clear"}]}"#,
            "buf",
        ),
    ];
    for (pass, resource) in cases {
        assert_error(
            &graph(&resources, pass),
            "format_mismatch",
            Some("p"),
            Some(resource),
        );
    }
    // A colour clear value on a depth texture is a format mismatch of the resource itself.
    let e = error(&graph(
        &format!(
            r#"{OUT}, {{"name": "d", "texture": {{"format": "depth32float", "size": [64, 64]}}, "clear": [0, 0, 0, 1]}}"#
        ),
        PRESENT,
    ));
    assert_eq!(
        (e.kind().as_str(), e.resource()),
        ("format_mismatch", Some("d"))
    );
}

// ---------------------------------------------------------------------------------------------
// resolve_mismatch

#[test]
fn resolve_mismatch_for_targets_that_cannot_receive_the_resolve() {
    let resources = r#"
        {"name": "msaa", "texture": {"format": "rgba8unorm", "size": [64, 64], "samples": 4}},
        {"name": "single", "texture": {"format": "rgba8unorm", "size": [64, 64]}},
        {"name": "msaa_target", "texture": {"format": "rgba8unorm", "size": [64, 64], "samples": 4}},
        {"name": "wrong_format", "texture": {"format": "bgra8unorm", "size": [64, 64]}},
        {"name": "wrong_size", "texture": {"format": "rgba8unorm", "size": [128, 64]}},
        {"name": "other_single", "texture": {"format": "rgba8unorm", "size": [64, 64]}}"#;
    let pass = |source: &str, target: &str| {
        format!(
            r#"{{"name": "draw", "type": "render", "side_effects": true,
                "color": [{{"resource": "{source}", "access": "clear", "resolve": "{target}"}}]}}"#
        )
    };
    for (source, target) in [
        ("msaa", "msaa_target"),
        ("msaa", "wrong_format"),
        ("msaa", "wrong_size"),
        ("single", "other_single"),
    ] {
        let e = error(&graph(resources, &pass(source, target)));
        assert_eq!(
            (e.kind().as_str(), e.pass(), e.resource()),
            ("resolve_mismatch", Some("draw"), Some(source)),
            "{source} -> {target}: {e}"
        );
        assert!(e.to_string().contains(target), "{e}");
    }
}

// ---------------------------------------------------------------------------------------------
// invalid_access

#[test]
fn invalid_access_for_accesses_that_do_not_fit_the_slot_or_pass() {
    let resources = format!(
        r#"{OUT}, {{"name": "src", "texture": {{"format": "rgba8unorm", "size": [64, 64]}},
             "import": {{"contents": "preserved", "after": "discard"}}}}"#
    );
    assert_error(
        &graph(
            &resources,
            r#"{"name": "look", "type": "render", "color": [{"resource": "out", "access": "read"}]}"#,
        ),
        "invalid_access",
        Some("look"),
        Some("out"),
    );
    for pass in [
        r#"{"name": "k", "type": "compute", "color": [{"resource": "out", "access": "clear"}]}"#,
        r#"{"name": "k", "type": "render"}"#,
        r#"{"name": "k", "type": "render", "copy_src": ["src"], "color": [{"resource": "out", "access": "clear"}]}"#,
        r#"{"name": "k", "type": "copy", "sample": ["src"], "copy_dst": ["out"]}"#,
    ] {
        let e = error(&graph(&resources, pass));
        assert_eq!(
            (e.kind().as_str(), e.pass()),
            ("invalid_access", Some("k")),
            "{pass}: {e}"
        );
    }
}

// ---------------------------------------------------------------------------------------------
// Validation covers culled passes too.

#[test]
fn errors_in_culled_passes_are_still_reported() {
    let resources = format!(
        r#"{OUT}, {{"name": "debug", "texture": {{"format": "rgba8unorm", "size": [64, 64]}}}},
           {{"name": "small", "texture": {{"format": "rgba8unorm", "size": [16, 16]}}}},
           {{"name": "never_written", "texture": {{"format": "rgba8unorm", "size": [64, 64]}}}}"#
    );
    // Without the bad pass the graph compiles and `unused_debug` is culled.
    let fine = plan(&graph(
        &resources,
        &format!(
            r#"{PRESENT}, {{"name": "unused_debug", "type": "render",
                "color": [{{"resource": "debug", "access": "clear"}}]}}"#
        ),
    ));
    assert_eq!(fine["passes"][1]["culled"], true);
    let culled = |pass: &str| graph(&resources, &format!("{PRESENT}, {pass}"));
    assert_error(
        &culled(
            r#"{"name": "unused_debug", "type": "render",
                "color": [{"resource": "debug", "access": "clear"}, {"resource": "small", "access": "clear"}]}"#,
        ),
        "size_mismatch",
        Some("unused_debug"),
        Some("small"),
    );
    assert_error(
        &culled(
            r#"{"name": "unused_debug", "type": "render", "sample": ["never_written"],
                "color": [{"resource": "debug", "access": "clear"}]}"#,
        ),
        "read_before_write",
        Some("unused_debug"),
        Some("never_written"),
    );
    assert_error(
        &culled(
            r#"{"name": "unused_debug", "type": "render", "sample": ["debug"],
                "color": [{"resource": "debug", "access": "clear"}]}"#,
        ),
        "feedback",
        Some("unused_debug"),
        Some("debug"),
    );
}

#[test]
fn error_json_object_has_kind_pass_resource_and_message() {
    let e = error(&graph(
        OUT,
        r#"{"name": "blend", "type": "render", "color": [{"resource": "out", "access": "read_write"}]}"#,
    ));
    let v: serde_json::Value = serde_json::from_str(&e.to_json()).unwrap();
    let obj = v["error"].as_object().unwrap();
    let mut keys: Vec<&str> = obj.keys().map(String::as_str).collect();
    keys.sort();
    assert_eq!(keys, ["kind", "message", "pass", "resource"]);
    assert_eq!(v["error"]["kind"], "read_before_write");
    assert_eq!(v["error"]["pass"], "blend");
    assert_eq!(v["error"]["resource"], "out");
    assert_eq!(v["error"]["message"], e.to_string());
}

/// An `invalid_description` error about one declaration names it in the JSON's `pass` or
/// `resource` field, not only in its message: a malformed resource (in the description and in
/// the declared values) and a malformed pass.
#[test]
fn invalid_description_names_the_resource_or_pass_it_is_about() {
    let cases = [
        (
            r#"{"name": "hdr", "texture": {"format": "rgba99", "size": [4, 4]}}"#,
            r#"{"name": "draw", "type": "render", "color": [{"resource": "hdr", "access": "clear"}], "side_effects": true}"#,
            None,
            Some("hdr"),
        ),
        (
            r#"{"name": "hdr", "texture": {"format": "rgba8unorm", "size": [0, 4]}}"#,
            r#"{"name": "draw", "type": "render", "color": [{"resource": "hdr", "access": "clear"}], "side_effects": true}"#,
            None,
            Some("hdr"),
        ),
        (
            r#"{"name": "hdr", "texture": {"format": "rgba8unorm", "size": [4, 4]}, "clear": "red"}"#,
            r#"{"name": "draw", "type": "render", "color": [{"resource": "hdr", "access": "clear"}], "side_effects": true}"#,
            None,
            Some("hdr"),
        ),
        (
            r#"{"name": "hdr", "texture": {"format": "rgba8unorm", "size": [4, 4]}}"#,
            r#"{"name": "draw", "type": "render", "color": [{"resource": "hdr", "access": "clear"}], "keep_order": 1, "side_effects": true}"#,
            Some("draw"),
            None,
        ),
    ];
    for (resources, passes, pass, resource) in cases {
        let json = graph(resources, passes);
        let e = match RenderGraph::from_json(&json) {
            Err(e) => e,
            Ok(g) => g
                .compile(&CompileOptions::default())
                .expect_err("the description is invalid"),
        };
        assert_eq!(e.kind().as_str(), "invalid_description", "{e}");
        let v: serde_json::Value = serde_json::from_str(&e.to_json()).unwrap();
        assert_eq!(v["error"]["pass"].as_str(), pass, "{e}");
        assert_eq!(v["error"]["resource"].as_str(), resource, "{e}");
        let named = pass.or(resource).unwrap();
        assert!(e.to_string().contains(&format!("`{named}`")), "{e}");
    }
}

// ---------------------------------------------------------------------------------------------
// history textures

/// `taa.previous` and `taa.current`, the JSON form of a history texture, with `passes` after them.
fn history_graph(passes: &str) -> String {
    graph(
        &format!(
            r#"{OUT},
            {{"name": "taa.previous", "texture": {{"format": "rgba16float", "size": [64, 64]}},
             "import": {{"contents": "preserved", "after": "discard"}}}},
            {{"name": "taa.current", "texture": {{"format": "rgba16float", "size": [64, 64]}},
             "import": {{"contents": "undefined", "after": "keep"}}}}"#
        ),
        passes,
    )
}

#[test]
fn writing_last_frames_history_names_the_pass_and_the_half() {
    for write in [
        r#""color": [{"resource": "taa.previous", "access": "write"}]"#,
        r#""color": [{"resource": "taa.previous", "access": "read_write"}]"#,
        r#""color": [{"resource": "out", "access": "clear"}], "storage_write": ["taa.previous"]"#,
    ] {
        let json = history_graph(&format!(
            r#"{{"name": "resolve_taa", "type": "render", {write}}}, {PRESENT}"#
        ));
        assert_error(
            &json,
            "invalid_access",
            Some("resolve_taa"),
            Some("taa.previous"),
        );
        let message = error(&json).to_string();
        assert!(
            message.contains("last frame's") && message.contains("`taa.current`"),
            "{message}"
        );
    }
    // The same through the builder's handles.
    let mut g = RenderGraph::new();
    let desc = TextureDesc::new(TextureFormat::Rgba8Unorm, 16, 16);
    let history = g.history_texture("taa", desc);
    g.add_render_pass("accumulate")
        .color(history.previous, Access::Write)
        .finish();
    let e = g.compile(&CompileOptions::default()).unwrap_err();
    assert_eq!(
        (e.kind().as_str(), e.pass(), e.resource()),
        ("invalid_access", Some("accumulate"), Some("taa.previous")),
        "{e}"
    );
}

#[test]
fn reading_this_frames_history_before_it_is_written_points_at_the_previous_half() {
    let json = history_graph(
        r#"{"name": "reproject", "type": "render", "sample": ["taa.current"],
             "color": [{"resource": "out", "access": "write"}]},
           {"name": "accumulate", "type": "render", "sample": ["taa.previous"],
             "color": [{"resource": "taa.current", "access": "write"}]}"#,
    );
    assert_error(
        &json,
        "read_before_write",
        Some("reproject"),
        Some("taa.current"),
    );
    let message = error(&json).to_string();
    assert!(
        message.contains("`taa.previous`") && !message.contains("preserved"),
        "{message}"
    );
    // In the right order the frame compiles: read last frame's, write this frame's, read it.
    let fine = history_graph(
        r#"{"name": "accumulate", "type": "render", "sample": ["taa.previous"],
             "color": [{"resource": "taa.current", "access": "write"}]},
           {"name": "present", "type": "render", "sample": ["taa.current"],
             "color": [{"resource": "out", "access": "write"}]}"#,
    );
    plan(&fine);
}

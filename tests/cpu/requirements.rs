//! What a plan needs of the device: `CompiledGraph::required_features` and `required_limits`
//! from the live textures, buffers and groups, and nothing from culled ones.

use tilegraph::wgpu::{Features, Limits};
use tilegraph::{CompileOptions, CompiledGraph, RenderGraph};

fn compile(json: &str) -> CompiledGraph {
    RenderGraph::from_json(json)
        .unwrap_or_else(|e| panic!("{e}\n{json}"))
        .compile(&CompileOptions::default())
        .unwrap_or_else(|e| panic!("{e}\n{json}"))
}

/// A single render pass clearing `texture` (a resource's JSON) for the frame to keep.
fn clearing(texture: &str) -> String {
    format!(
        r#"{{"resources": [{{"name": "t", "texture": {texture}, "import": {{"contents": "undefined", "after": "keep"}}}}],
            "passes": [{{"name": "p", "type": "render", "color": [{{"resource": "t", "access": "clear"}}]}}]}}"#
    )
}

#[test]
fn the_example_graphs_need_no_feature_and_fit_webgpus_default_limits() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/graphs");
    for name in ["deferred", "post_chain", "shadow_cascades", "bloom_chain"] {
        let json = std::fs::read_to_string(dir.join(format!("{name}.json"))).unwrap();
        let plan = compile(&json);
        assert_eq!(plan.required_features(), Features::empty(), "{name}");
        assert!(
            plan.required_limits().check_limits(&Limits::default()),
            "{name}: {:?}",
            plan.required_limits()
        );
    }
}

#[test]
fn big_and_layered_textures_and_many_targets_raise_the_limits() {
    let plan = compile(&clearing(
        r#"{"format": "rgba8unorm", "size": [8192, 16, 300]}"#,
    ));
    let limits = plan.required_limits();
    assert_eq!(limits.max_texture_dimension_2d, 8192);
    assert_eq!(limits.max_texture_array_layers, 300);
    assert!(!limits.check_limits(&Limits::downlevel_webgl2_defaults()));

    let targets: Vec<String> = (0..6)
        .map(|i| format!(r#"{{"name": "c{i}", "texture": {{"format": "r8unorm", "size": [8, 8]}}, "import": {{"contents": "undefined", "after": "keep"}}}}"#))
        .collect();
    let color: Vec<String> = (0..6)
        .map(|i| format!(r#"{{"resource": "c{i}", "access": "clear"}}"#))
        .collect();
    let json = format!(
        r#"{{"resources": [{}], "passes": [{{"name": "mrt", "type": "render", "color": [{}]}}]}}"#,
        targets.join(", "),
        color.join(", ")
    );
    assert_eq!(compile(&json).required_limits().max_color_attachments, 6);
}

#[test]
fn formats_and_uses_beyond_the_guaranteed_ones_need_features() {
    let specific = Features::TEXTURE_ADAPTER_SPECIFIC_FORMAT_FEATURES;
    // Four samples of rgba8unorm are guaranteed everywhere; eight are not.
    let four = compile(&clearing(
        r#"{"format": "rgba8unorm", "size": [8, 8], "samples": 4}"#,
    ));
    assert_eq!(four.required_features(), Features::empty());
    let eight = compile(&clearing(
        r#"{"format": "rgba8unorm", "size": [8, 8], "samples": 8}"#,
    ));
    assert_eq!(eight.required_features(), specific);
    // A depth format that is a feature of its own.
    let depth = r#"{"resources": [{"name": "d", "texture": {"format": "depth32float-stencil8", "size": [8, 8]}}],
        "passes": [{"name": "p", "type": "render", "depth": {"resource": "d", "access": "clear"}, "side_effects": true}]}"#;
    assert!(
        compile(depth)
            .required_features()
            .contains(Features::DEPTH32FLOAT_STENCIL8)
    );
    // Read-write storage: r32float guarantees it, rgba8unorm does not.
    let storage = |format: &str| {
        format!(
            r#"{{"resources": [{{"name": "s", "texture": {{"format": "{format}", "size": [8, 8]}}, "import": {{"contents": "preserved", "after": "keep"}}}}],
                "passes": [{{"name": "p", "type": "compute", "storage_read_write": ["s"]}}]}}"#
        )
    };
    assert_eq!(
        compile(&storage("r32float")).required_features(),
        Features::empty()
    );
    assert_eq!(
        compile(&storage("rgba8unorm")).required_features(),
        specific
    );
}

#[test]
fn culled_resources_need_nothing() {
    let json = r#"{"resources": [
            {"name": "out", "texture": {"format": "rgba8unorm", "size": [8, 8]}, "import": {"contents": "undefined", "after": "keep"}},
            {"name": "huge", "texture": {"format": "rgba8unorm", "size": [16384, 8], "samples": 8}}],
        "passes": [
            {"name": "unused", "type": "render", "color": [{"resource": "huge", "access": "clear"}]},
            {"name": "present", "type": "render", "color": [{"resource": "out", "access": "clear"}]}]}"#;
    let plan = compile(json);
    assert_eq!(plan.required_features(), Features::empty());
    assert_eq!(
        plan.required_limits().max_texture_dimension_2d,
        Limits::downlevel_webgl2_defaults().max_texture_dimension_2d
    );
}

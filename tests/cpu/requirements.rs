//! What a plan needs of the device: `CompiledGraph::required_features` and `required_limits`
//! from the live textures, buffers and groups, and nothing from culled ones.

use crate::common::compile;
use tilegraph::wgpu::{Features, Limits};
use tilegraph::{CompileOptions, CompiledGraph, RenderGraph};

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
    let json = include_str!("graphs/culled_resources_need_nothing.json");
    let plan = compile(json);
    assert_eq!(plan.required_features(), Features::empty());
    assert_eq!(
        plan.required_limits().max_texture_dimension_2d,
        Limits::downlevel_webgl2_defaults().max_texture_dimension_2d
    );
}

/// A render pass `p` clearing one imported target per format in `formats`, in slot order.
fn targets(formats: &[&str]) -> String {
    let resources: Vec<String> = formats
        .iter()
        .enumerate()
        .map(|(i, f)| format!(r#"{{"name": "c{i}", "texture": {{"format": "{f}", "size": [8, 8]}}, "import": {{"contents": "undefined", "after": "keep"}}}}"#))
        .collect();
    let color: Vec<String> = (0..formats.len())
        .map(|i| format!(r#"{{"resource": "c{i}", "access": "clear"}}"#))
        .collect();
    format!(
        r#"{{"resources": [{}], "passes": [{{"name": "gbuffer", "type": "render", "color": [{}]}}]}}"#,
        resources.join(", "),
        color.join(", ")
    )
}

fn compile_with(json: &str, limits: &Limits) -> Result<CompiledGraph, tilegraph::GraphError> {
    RenderGraph::from_json(json)
        .unwrap_or_else(|e| panic!("{e}\n{json}"))
        .compile(&CompileOptions::default().with_limits(limits))
}

#[test]
fn colour_bytes_per_sample_are_counted_as_wgpu_does_at_the_edge_of_webgpus_default() {
    // Four rgba16float targets are 32 B: WebGPU's default limit, exactly.
    let four = compile(&targets(&["rgba16float"; 4]));
    assert_eq!(four.groups()[0].color_bytes_per_sample, 32);
    assert_eq!(
        four.required_limits().max_color_attachment_bytes_per_sample,
        32
    );
    assert_eq!(four.required_limits().max_color_attachments, 4);
    assert!(four.required_limits().check_limits(&Limits::default()));
    compile_with(&targets(&["rgba16float"; 4]), &Limits::default()).expect("32 B fit");
    // A fifth is 40 B: more than the default, and more than the WebGL2 defaults' 4 targets.
    let five = compile(&targets(&["rgba16float"; 5]));
    assert_eq!(five.groups()[0].color_bytes_per_sample, 40);
    let limits = five.required_limits();
    assert_eq!(limits.max_color_attachment_bytes_per_sample, 40);
    assert_eq!(limits.max_color_attachments, 5);
    assert!(!limits.check_limits(&Limits::default()));
}

#[test]
fn colour_bytes_align_each_slot_to_its_format_so_the_order_matters() {
    // r8unorm (1 B), then rgba32float aligned to 4: 4 + 16 = 20 B; the other way round 17 B.
    assert_eq!(
        compile(&targets(&["r8unorm", "rgba32float"])).groups()[0].color_bytes_per_sample,
        20
    );
    assert_eq!(
        compile(&targets(&["rgba32float", "r8unorm"])).groups()[0].color_bytes_per_sample,
        17
    );
    // r8unorm, rgba16float (aligned to 2), r8unorm, rgba32float (aligned to 4): 2+8=10, 11, 12+16.
    let mixed = compile(&targets(&[
        "r8unorm",
        "rgba16float",
        "r8unorm",
        "rgba32float",
    ]));
    assert_eq!(mixed.groups()[0].color_bytes_per_sample, 28);
}

#[test]
fn a_plan_over_the_given_limits_is_exceeds_limit_naming_the_pass_the_limit_and_the_slots() {
    let e = compile_with(&targets(&["rgba16float"; 5]), &Limits::default()).unwrap_err();
    assert_eq!(e.kind(), tilegraph::ErrorKind::ExceedsLimit);
    assert_eq!(e.kind().as_str(), "exceeds_limit");
    assert_eq!(e.pass(), Some("gbuffer"));
    let tilegraph::GraphError::ExceedsLimit {
        limit,
        needed,
        given,
        ..
    } = &e
    else {
        panic!("{e:?}")
    };
    assert_eq!(
        (*limit, *needed, *given),
        ("max_color_attachment_bytes_per_sample", 40, 32)
    );
    let message = e.to_string();
    assert!(message.contains("`c0` rgba16float 8 B"), "{message}");
    assert!(message.contains("no order of the slots fits"), "{message}");
    assert!(
        e.to_json().contains(r#""kind":"exceeds_limit""#),
        "{}",
        e.to_json()
    );

    // 5 B of r8unorm padding: r8unorm, rgba32float, r8unorm, rgba32float is 4+16, +1 → 24+16 = 40
    // in slot order, 34 with the wide slots first, so a fitting order is named.
    let padded = targets(&["r8unorm", "rgba32float", "r8unorm", "rgba32float"]);
    let limits = Limits {
        max_color_attachment_bytes_per_sample: 36,
        ..Limits::default()
    };
    let e = compile_with(&padded, &limits).unwrap_err();
    crate::common::assert_says(
        &e.to_string(),
        &[
            "needs `max_color_attachment_bytes_per_sample` 40",
            "in the order c1, c3, c0, c2 the slots take 34 B, which fits",
        ],
    );
}

#[test]
fn the_first_declared_pass_over_a_limit_is_named_with_its_resource() {
    let json =
        include_str!("graphs/the_first_declared_pass_over_a_limit_is_named_with_its_resource.json");
    let e = compile_with(json, &Limits::downlevel_webgl2_defaults()).unwrap_err();
    assert_eq!(
        (e.pass(), e.resource()),
        (Some("second"), Some("wide")),
        "{e}"
    );
    assert!(
        e.to_string()
            .contains("`max_texture_dimension_2d` 4096, more than the 2048 given"),
        "{e}"
    );
    // Within the limits: the same plan as without them.
    let fits = compile_with(json, &Limits::default()).expect("fits WebGPU's defaults");
    assert_eq!(fits.to_json(), compile(json).to_json());
}

#[test]
fn multiview_views_are_a_limit_the_plan_reports_but_the_check_does_not_require() {
    let json = r#"{"resources": [{"name": "eyes", "texture": {"format": "rgba8unorm", "size": [8, 8, 2]}, "import": {"contents": "undefined", "after": "keep"}}],
        "passes": [{"name": "stereo", "type": "render", "multiview": 2, "color": [{"resource": "eyes", "access": "clear"}]}]}"#;
    let plan = compile(json);
    let limits = plan.required_limits();
    assert_eq!(limits.max_multiview_view_count, 2);
    // One colour attachment of 8 B for the render pass, not one per view.
    assert_eq!(plan.groups()[0].color_bytes_per_sample, 8);
    let one_target = Limits {
        max_color_attachments: 1,
        max_color_attachment_bytes_per_sample: 8,
        ..Limits::default()
    };
    compile_with(json, &one_target).expect("one target of 8 B a view");
    assert!(plan.to_json().contains(r#""max_multiview_view_count": 2"#));
    // WebGPU's defaults have no multiview; the plan records per view there.
    compile_with(json, &Limits::default()).expect("multiview is not required");
    // A plan without multiview passes says nothing about it.
    assert!(
        !compile(&targets(&["rgba8unorm"]))
            .to_json()
            .contains("max_multiview_view_count")
    );
}

#[test]
fn the_plan_json_has_each_groups_colour_bytes_and_the_required_limits() {
    let plan = compile(&targets(&["rgba16float"; 5]));
    let json: serde_json::Value = serde_json::from_str(&plan.to_json()).unwrap();
    assert_eq!(json["groups"][0]["color_bytes_per_sample"], 40);
    let limits = &json["required_limits"];
    assert_eq!(limits["max_color_attachments"], 5);
    assert_eq!(limits["max_color_attachment_bytes_per_sample"], 40);
    assert_eq!(limits["max_texture_dimension_2d"], 2048);
    assert_eq!(limits["max_texture_array_layers"], 256);
    assert_eq!(limits["max_buffer_size"], 256u64 << 20);
    // Compute and copy groups have no colour.
    let compute = r#"{"resources": [{"name": "s", "texture": {"format": "r32float", "size": [8, 8]}, "import": {"contents": "preserved", "after": "keep"}}],
        "passes": [{"name": "p", "type": "compute", "storage_read_write": ["s"]}]}"#;
    let json: serde_json::Value = serde_json::from_str(&compile(compute).to_json()).unwrap();
    assert!(json["groups"][0].get("color_bytes_per_sample").is_none());
}

#[test]
fn compute_storage_and_sampled_depth_need_downlevel_flags_and_limits() {
    use tilegraph::wgpu::DownlevelFlags;
    let compute = r#"{"resources": [
            {"name": "s", "texture": {"format": "r32float", "size": [8, 8]}, "import": {"contents": "preserved", "after": "keep"}},
            {"name": "b", "buffer": {"size": 1024}, "import": {"contents": "preserved", "after": "keep"}}],
        "passes": [{"name": "p", "type": "compute", "storage_read_write": ["s", "b"]}]}"#;
    let plan = compile(compute);
    assert_eq!(
        plan.required_downlevel_flags(),
        DownlevelFlags::COMPUTE_SHADERS
    );
    let limits = plan.required_limits();
    assert_eq!(limits.max_storage_textures_per_shader_stage, 1);
    assert_eq!(limits.max_storage_buffers_per_shader_stage, 1);
    assert_eq!(limits.max_storage_buffer_binding_size, 1024);
    assert_eq!(
        limits.max_compute_workgroups_per_dimension,
        Limits::downlevel_defaults().max_compute_workgroups_per_dimension
    );
    // WebGL2 has no compute: the check names the pass and a compute limit.
    let e = compile_with(compute, &Limits::downlevel_webgl2_defaults()).unwrap_err();
    assert_eq!(e.pass(), Some("p"));
    assert!(
        e.to_string()
            .contains("`max_storage_buffers_per_shader_stage` 1, more than the 0 given"),
        "{e}"
    );

    // Sampling the depth a pass attaches read-only: wgpu's GL backend cannot.
    let sampled_depth = include_str!(
        "graphs/compute_storage_and_sampled_depth_need_downlevel_flags_and_limits.json"
    );
    assert_eq!(
        compile(sampled_depth).required_downlevel_flags(),
        DownlevelFlags::READ_ONLY_DEPTH_STENCIL
    );
    // Attached read-only without sampling it: nothing needed.
    let attached_only = sampled_depth.replace(r#", "sample": ["depth"]"#, "");
    assert_eq!(
        compile(&attached_only).required_downlevel_flags(),
        DownlevelFlags::empty()
    );
}

//! Buffers of every kind (uniform, vertex, index, indirect, upload) and ranges of subresources
//! in the lists: what they keep alive, the usages they give, the views they name, every error
//! they add, and their round trip through the description.

use crate::common::{compile, error};
use tilegraph::plan::ResourceUsage;
use tilegraph::wgpu::{BufferUsages, TextureFormat};
use tilegraph::{
    Access, CompileOptions, CompiledGraph, ErrorKind, RenderGraph, SubresourceRange, TextureDesc,
};

fn buffer_usage(plan: &CompiledGraph, name: &str) -> BufferUsages {
    let r = plan.resource_id(name).expect("declared");
    match plan.resources()[r.index()].usage {
        ResourceUsage::Buffer(u) => u,
        other => panic!("{name} is not a buffer: {other:?}"),
    }
}

fn culled(plan: &CompiledGraph, name: &str) -> bool {
    plan.passes()[plan.pass_id(name).expect("declared").index()].culled
}

/// A frame fed from buffers it fills: per-frame uniforms uploaded, instance data and indirect
/// arguments written by a culling pass, a mesh's vertices and indices copied in.
const FED: &str = include_str!("graphs/fed.json");

#[test]
fn buffers_get_exactly_the_usages_their_live_accesses_need() {
    let plan = compile(FED);
    for (buffer, usage) in [
        ("camera", BufferUsages::COPY_DST | BufferUsages::UNIFORM),
        ("instances", BufferUsages::STORAGE | BufferUsages::VERTEX),
        ("args", BufferUsages::STORAGE | BufferUsages::INDIRECT),
        ("vertices", BufferUsages::COPY_DST | BufferUsages::VERTEX),
        ("indices", BufferUsages::COPY_DST | BufferUsages::INDEX),
    ] {
        assert_eq!(buffer_usage(&plan, buffer), usage, "{buffer}");
    }
    // Nothing reads `unused`: its upload is culled and the buffer gets no usage at all.
    assert!(culled(&plan, "upload_unused"));
    assert_eq!(buffer_usage(&plan, "unused"), BufferUsages::empty());
    for live in [
        "upload_camera",
        "copy_mesh",
        "upload_indices",
        "cull",
        "draw",
    ] {
        assert!(!culled(&plan, live), "{live} is culled");
    }
}

#[test]
fn bound_buffers_keep_their_writers_alive_and_ordered() {
    let plan = compile(FED);
    let order: Vec<&str> = plan.order().iter().map(|&p| plan.pass_name(p)).collect();
    let at = |name: &str| order.iter().position(|&n| n == name).expect("live");
    assert!(at("upload_camera") < at("cull"));
    assert!(at("cull") < at("draw"));
    assert!(at("copy_mesh") < at("draw"));
    assert!(at("upload_indices") < at("draw"));
}

#[test]
fn an_upload_overwrites_the_whole_buffer() {
    // The second upload kills the first: nothing reads what the first wrote.
    let plan = compile(include_str!(
        "graphs/an_upload_overwrites_the_whole_buffer.json"
    ));
    assert!(culled(&plan, "first"));
    assert!(!culled(&plan, "second"));
}

#[test]
fn reading_a_buffer_nothing_wrote_is_read_before_write() {
    for access in ["uniform", "vertex", "index", "indirect"] {
        let e = error(&format!(
            r#"{{
          "resources": [
            {{"name": "b", "buffer": {{"size": 64}}}},
            {{"name": "out", "texture": {{"format": "rgba8unorm", "size": [8, 8]}},
             "import": {{"contents": "undefined", "after": "keep"}}}}
          ],
          "passes": [
            {{"name": "draw", "type": "render", "{access}": ["b"],
             "color": [{{"resource": "out", "access": "clear"}}]}}
          ]
        }}"#
        ));
        assert_eq!(e.kind(), ErrorKind::ReadBeforeWrite, "{access}: {e}");
        let text = e.to_string();
        assert!(text.contains("`draw`") && text.contains("`b`"), "{text}");
    }
}

#[test]
fn an_imported_buffer_with_contents_is_read_without_a_writer() {
    let plan = compile(include_str!(
        "graphs/an_imported_buffer_with_contents_is_read_without_a_writer.json"
    ));
    assert_eq!(
        buffer_usage(&plan, "b"),
        BufferUsages::UNIFORM | BufferUsages::VERTEX
    );
}

#[test]
fn buffer_accesses_fit_their_pass_kind_and_name_buffers() {
    let case = |pass: &str| {
        error(&format!(
            r#"{{
          "resources": [
            {{"name": "b", "buffer": {{"size": 64}}, "import": {{"contents": "preserved", "after": "keep"}}}},
            {{"name": "t", "texture": {{"format": "rgba8unorm", "size": [8, 8]}},
             "import": {{"contents": "preserved", "after": "keep"}}}}
          ],
          "passes": [{pass}]
        }}"#
        ))
    };
    let e = case(
        r#"{"name": "p", "type": "render", "upload": ["b"], "color": [{"resource": "t", "access": "read_write"}]}"#,
    );
    assert_eq!(e.kind(), ErrorKind::InvalidAccess, "{e}");
    assert!(e.to_string().contains("copy pass"), "{e}");
    let e = case(r#"{"name": "p", "type": "compute", "vertex": ["b"]}"#);
    assert_eq!(e.kind(), ErrorKind::InvalidAccess, "{e}");
    let e = case(r#"{"name": "p", "type": "copy", "uniform": ["b"]}"#);
    assert_eq!(e.kind(), ErrorKind::InvalidAccess, "{e}");
    for access in ["uniform", "vertex", "index", "indirect"] {
        let e = case(&format!(
            r#"{{"name": "p", "type": "render", "{access}": ["t"], "side_effects": true,
               "color": [{{"resource": "t", "access": "read_write"}}]}}"#
        ));
        assert_eq!(e.kind(), ErrorKind::FormatMismatch, "{access}: {e}");
        assert!(e.to_string().contains("a texture used as"), "{e}");
    }
    let e = case(r#"{"name": "p", "type": "copy", "upload": ["t"]}"#);
    assert_eq!(e.kind(), ErrorKind::FormatMismatch, "{e}");
    let e = case(
        r#"{"name": "p", "type": "compute", "uniform": [{"resource": "b", "layers": [0, 1]}]}"#,
    );
    assert_eq!(e.kind(), ErrorKind::InvalidSubresource, "{e}");
}

#[test]
fn a_buffer_written_in_a_group_and_bound_by_the_next_pass_ends_the_group() {
    // Fragment-shader storage writes are visible to a later vertex fetch only after the render
    // pass ends.
    let plan = compile(include_str!(
        "graphs/a_buffer_written_in_a_group_and_bound_by_the_next_pass_ends_the_group.json"
    ));
    assert_eq!(plan.groups().len(), 2);
    assert_eq!(
        plan.groups()[0].break_reason.as_str(),
        "samples_group_output"
    );
}

/// A shadow atlas sized for ten lights with two rendered this frame.
const ATLAS: &str = include_str!(
    "graphs/a_buffer_written_in_a_group_and_bound_by_the_next_pass_ends_the_group_2.json"
);

#[test]
fn a_layer_range_reads_exactly_its_layers() {
    let plan = compile(ATLAS);
    assert!(!culled(&plan, "light0") && !culled(&plan, "light1"));
    // Layer 2 lies outside the range: nothing reads it.
    assert!(culled(&plan, "light2"));
    // The whole array would read eight never-written layers.
    let whole = ATLAS.replace(r#"{"resource": "atlas", "layers": [0, 2]}"#, r#""atlas""#);
    assert_eq!(error(&whole).kind(), ErrorKind::ReadBeforeWrite);
    // Sampled bytes: two layers of 256×256×4.
    assert_eq!(plan.traffic().sampled_bytes_per_frame, 2 * 256 * 256 * 4);
}

#[test]
fn ranges_outside_the_texture_or_empty_are_invalid_subresources() {
    for (range, says) in [
        (r#""layers": [8, 3]"#, "layers 8..11 is outside the texture"),
        (r#""layers": [0, 0]"#, "names no subresource"),
        (r#""mips": [0, 2]"#, "mips 0..2 is outside the texture"),
    ] {
        let json = ATLAS.replace(r#""layers": [0, 2]"#, range);
        let e = error(&json);
        assert_eq!(e.kind(), ErrorKind::InvalidSubresource, "{range}: {e}");
        assert!(e.to_string().contains(says), "{range}: {e}");
        assert!(e.to_string().contains("`forward`"), "{e}");
    }
    let both = ATLAS.replace(r#""layers": [0, 2]"#, r#""layer": 1, "layers": [0, 2]"#);
    let e = error(&both);
    assert_eq!(e.kind(), ErrorKind::InvalidDescription, "{e}");
}

#[test]
fn a_range_overlapping_an_attachment_is_feedback_and_a_disjoint_one_is_not() {
    // `RANGE` stands for the sampled layers.
    let base = r#"{
      "resources": [
        {"name": "arr", "texture": {"format": "rgba8unorm", "size": [16, 16, 4]},
         "import": {"contents": "preserved", "after": "keep"}}
      ],
      "passes": [
        {"name": "p", "type": "render", "sample": [{"resource": "arr", "layers": RANGE}],
         "color": [{"resource": "arr", "layer": 2, "access": "write"}]}
      ]
    }"#;
    let e = error(&base.replace("RANGE", "[1, 2]"));
    assert_eq!(e.kind(), ErrorKind::Feedback, "{e}");
    compile(&base.replace("RANGE", "[0, 2]"));
}

#[test]
fn ranges_and_buffer_lists_round_trip_through_the_description() {
    for json in [FED, ATLAS] {
        let graph = RenderGraph::from_json(json).expect("loads");
        let again = RenderGraph::from_json(&graph.to_json()).expect("reloads");
        assert_eq!(graph.fingerprint(), again.fingerprint());
        assert_eq!(graph.passes(), again.passes());
    }
    let graph = RenderGraph::from_json(ATLAS).expect("loads");
    assert!(
        graph.to_json().contains("\"layers\": [\n"),
        "{}",
        graph.to_json()
    );
}

#[test]
fn the_builder_declares_ranges_and_buffer_accesses() {
    let mut graph = RenderGraph::new();
    let atlas = graph.create_texture(
        "atlas",
        TextureDesc::new(TextureFormat::Depth32Float, 256, 256).layers(10),
    );
    let out = graph.create_texture("out", TextureDesc::new(TextureFormat::Rgba8Unorm, 64, 64));
    let camera = graph.create_buffer("camera", 256);
    graph.add_copy_pass("camera").upload(camera).finish();
    for light in 0..2 {
        graph
            .add_render_pass(&format!("light{light}"))
            .uniform(camera)
            .depth(atlas.layer(light), Access::Clear)
            .finish();
    }
    graph
        .add_render_pass("forward")
        .sample(atlas.layers(0..2))
        .uniform(camera)
        .color(out, Access::Clear)
        .side_effects()
        .finish();
    let plan = graph.compile(&CompileOptions::default()).expect("compiles");
    let forward = plan.pass_decl(plan.pass_id("forward").expect("declared"));
    assert_eq!(
        forward.sample()[0].range,
        SubresourceRange {
            mips: None,
            layers: Some((0, 2)),
        }
    );
    assert_eq!(
        buffer_usage(&plan, "camera"),
        BufferUsages::COPY_DST | BufferUsages::UNIFORM
    );
    assert!(graph.to_json().contains("\"upload\""));
}

#[test]
fn a_mip_range_keeps_alive_only_the_writers_of_its_mips() {
    let plan = compile(include_str!(
        "graphs/a_mip_range_keeps_alive_only_the_writers_of_its_mips.json"
    ));
    let live: Vec<bool> = ["mip0", "mip1", "mip2", "mip3"]
        .iter()
        .map(|p| !culled(&plan, p))
        .collect();
    assert_eq!(live, [false, true, true, false]);
    // Sampled bytes: mips 1 and 2 (32×32 and 16×16) of rgba16float.
    assert_eq!(
        plan.traffic().sampled_bytes_per_frame,
        (32 * 32 + 16 * 16) * 8
    );
}

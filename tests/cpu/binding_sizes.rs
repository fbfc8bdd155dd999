//! Binding sizes on buffer accesses (`binding_size`, `.uniform_slices`): the plan's binding-size
//! limits come from what one binding sees, never from the buffer's size; bad sizes are typed
//! errors naming the pass and the buffer; descriptions round-trip them.

use crate::common::{compile, error};
use tilegraph::wgpu::{BufferUsages, Limits};
use tilegraph::{CompileOptions, ErrorKind, GraphError, RenderGraph};

const MIB_256: u64 = 256 << 20;

/// The per-object pattern: a compute pass fills a 256 MiB buffer of per-sprite uniforms and a
/// render pass binds it `list_entry` (a JSON list entry) at a time.
fn per_object(list: &str, list_entry: &str) -> String {
    format!(
        r#"{{"resources": [
            {{"name": "objects", "buffer": {{"size": {MIB_256}}}}},
            {{"name": "out", "texture": {{"format": "rgba8unorm", "size": [64, 64]}},
              "import": {{"contents": "undefined", "after": "keep"}}}}],
          "passes": [
            {{"name": "fill", "type": "compute", "storage_write": ["objects"]}},
            {{"name": "bunnies", "type": "render", "{list}": [{list_entry}],
              "color": [{{"resource": "out", "access": "clear"}}]}}]}}"#
    )
}

#[test]
fn a_large_uniform_buffer_bound_256_bytes_at_a_time_needs_a_256_byte_binding() {
    let plan = compile(&per_object(
        "uniform",
        r#"{"resource": "objects", "binding_size": 256}"#,
    ));
    let limits = plan.required_limits();
    assert_eq!(
        limits.max_uniform_buffer_binding_size, 16384,
        "the WebGL2 floor"
    );
    assert_eq!(limits.max_buffer_size, MIB_256);
    // The storage write binds the whole buffer.
    assert_eq!(limits.max_storage_buffer_binding_size, MIB_256);
}

#[test]
fn without_a_binding_size_the_whole_buffer_is_one_binding() {
    let plan = compile(&per_object("uniform", r#""objects""#));
    assert_eq!(
        plan.required_limits().max_uniform_buffer_binding_size,
        MIB_256
    );
}

#[test]
fn a_storage_binding_size_raises_the_storage_limit_to_itself_only() {
    let json = r#"{"resources": [{"name": "particles", "buffer": {"size": 536870912}}],
        "passes": [{"name": "sim", "type": "compute", "side_effects": true,
            "storage_write": [{"resource": "particles", "binding_size": 262144}]}]}"#;
    let plan = compile(json);
    let limits = plan.required_limits();
    assert_eq!(limits.max_storage_buffer_binding_size, 262144);
    assert_eq!(limits.max_buffer_size, 536870912);
    let u = plan.resource_id("particles").unwrap();
    match plan.resources()[u.index()].usage {
        tilegraph::plan::ResourceUsage::Buffer(u) => assert!(u.contains(BufferUsages::STORAGE)),
        other => panic!("{other:?}"),
    }
}

#[test]
fn the_limit_check_names_the_binding_over_the_limit_with_its_binding_size() {
    let json = per_object(
        "uniform",
        r#"{"resource": "objects", "binding_size": 131072}"#,
    );
    let graph = RenderGraph::from_json(&json).unwrap();
    let limits = Limits {
        max_storage_buffer_binding_size: u32::MAX as u64,
        max_buffer_size: u64::MAX,
        ..Limits::default()
    };
    let e = graph
        .compile(&CompileOptions::default().with_limits(&limits))
        .expect_err("a 128 KiB binding is over the default 64 KiB uniform binding limit");
    match &e {
        GraphError::ExceedsLimit {
            pass,
            limit,
            needed,
            ..
        } => {
            assert_eq!(pass, "bunnies");
            assert_eq!(*limit, "max_uniform_buffer_binding_size");
            assert_eq!(*needed, 131072);
        }
        other => panic!("{other}"),
    }
}

#[test]
fn bad_binding_sizes_are_typed_errors_naming_pass_and_buffer() {
    let cases = [
        (
            "uniform",
            r#"{"resource": "objects", "binding_size": 0}"#,
            "is 0",
        ),
        (
            "uniform",
            &format!(
                r#"{{"resource": "objects", "binding_size": {}}}"#,
                MIB_256 + 256
            ),
            "larger than the buffer",
        ),
        (
            "storage_read",
            r#"{"resource": "objects", "binding_size": 258}"#,
            "multiple of 4",
        ),
        (
            "vertex",
            r#"{"resource": "objects", "binding_size": 256}"#,
            "only uniform and storage buffers",
        ),
        (
            "sample",
            r#"{"resource": "out", "binding_size": 256}"#,
            "texture",
        ),
    ];
    for (list, entry, says) in cases {
        let e = error(&per_object(list, entry));
        let text = e.to_string();
        assert!(text.contains(says), "{list} {entry}: {text}");
        assert_eq!(e.kind(), ErrorKind::InvalidAccess, "{text}");
        assert!(text.contains("`bunnies`"), "{text}");
    }
}

#[test]
fn a_uniform_binding_size_need_not_be_aligned_but_a_storage_one_must() {
    compile(&per_object(
        "uniform",
        r#"{"resource": "objects", "binding_size": 258}"#,
    ));
    compile(&per_object(
        "storage_read",
        r#"{"resource": "objects", "binding_size": 260}"#,
    ));
}

#[test]
fn builder_slices_match_the_description_and_round_trip() {
    let mut graph = RenderGraph::new();
    let objects = graph.create_buffer("objects", MIB_256);
    graph
        .add_compute_pass("fill")
        .storage_write_buffer(objects)
        .finish();
    graph
        .add_compute_pass("draw")
        .uniform_slices(objects, 256)
        .storage_read_slices(objects, 1024)
        .side_effects()
        .finish();
    let plan = graph.compile(&CompileOptions::default()).expect("compiles");
    let limits = plan.required_limits();
    assert_eq!(limits.max_uniform_buffer_binding_size, 16384);
    assert_eq!(limits.max_storage_buffer_binding_size, MIB_256);
    let json = graph.to_json();
    assert!(json.contains(r#""binding_size": 256"#), "{json}");
    let back = RenderGraph::from_json(&json).expect("reads back");
    assert_eq!(back.fingerprint(), graph.fingerprint());
    assert_eq!(back.to_json(), json);
    // A different binding size is a different graph.
    let other = json.replace(r#""binding_size": 256"#, r#""binding_size": 512"#);
    let other = RenderGraph::from_json(&other).expect("reads");
    assert_ne!(other.fingerprint(), graph.fingerprint());
}

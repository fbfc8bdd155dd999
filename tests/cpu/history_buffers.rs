//! History buffers in the compiler and the description: `previous` is read without a writer,
//! writing it is refused, the writer of `current` is kept, and JSON pairs the halves.

use tilegraph::{CompileOptions, ErrorKind, RenderGraph};

/// One compute pass moving `particles` from last frame's half into this frame's, reading the
/// previous half (or, when `write_previous`, reading and writing it).
fn simulation(write_previous: bool) -> RenderGraph<'static> {
    let mut graph = RenderGraph::new();
    let particles = graph.history_buffer("particles", 4096);
    let pass = graph.add_compute_pass("simulate");
    let pass = match write_previous {
        true => pass.storage_read_write_buffer(particles.previous),
        false => pass.storage_read_buffer(particles.previous),
    };
    pass.storage_write_buffer(particles.current).finish();
    graph
}

#[test]
fn a_history_buffer_round_trips_and_keeps_the_writer_of_current() {
    let graph = simulation(false);
    let plan = graph.compile(&CompileOptions::default()).expect("compiles");
    let simulate = plan.pass_id("simulate").unwrap();
    assert!(!plan.passes()[simulate.index()].culled);
    let json = graph.to_json();
    assert!(
        json.contains("particles.previous") && json.contains("particles.current"),
        "{json}"
    );
    let back = RenderGraph::from_json(&json).expect("reads back");
    assert_eq!(back.histories().len(), 1, "the halves are paired again");
    assert_eq!(back.fingerprint(), graph.fingerprint());
}

#[test]
fn writing_last_frames_half_of_a_history_buffer_is_refused() {
    let graph = simulation(true);
    let e = graph
        .compile(&CompileOptions::default())
        .expect_err("previous is read only");
    assert_eq!(e.kind(), ErrorKind::InvalidAccess, "{e}");
    assert!(e.to_string().contains("particles.current"), "{e}");
}

#[test]
fn json_halves_of_one_size_pair_as_a_history_buffer_and_of_two_sizes_stay_imports() {
    let json = r#"{"resources": [
        {"name": "p.previous", "buffer": {"size": 64}, "import": {"contents": "preserved", "after": "discard"}},
        {"name": "p.current", "buffer": {"size": 128}, "import": {"contents": "undefined", "after": "keep"}}],
      "passes": [{"name": "s", "type": "compute", "storage_read": ["p.previous"], "storage_write": ["p.current"]}]}"#;
    // Halves of different sizes are not a pair: two ordinary imports.
    let graph = RenderGraph::from_json(json).expect("two imports");
    assert!(graph.histories().is_empty());
    let paired = json.replace(r#""size": 128"#, r#""size": 64"#);
    let graph = RenderGraph::from_json(&paired).expect("a history buffer");
    assert_eq!(graph.histories().len(), 1);
}

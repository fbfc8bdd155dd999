//! Replays the checked-in fuzz seed corpus (fuzz/corpus/description) and every example graph
//! (examples/graphs) through the fuzz target's own
//! pipeline: description → graph → compile with and without `DontCare` → plan JSON, table and DOT,
//! plus a description round trip. CI covers the fuzz target this way without a nightly toolchain.

#[test]
fn seed_corpus_replays_cleanly() {
    let root = env!("CARGO_MANIFEST_DIR");
    let mut files: Vec<_> = ["fuzz/corpus/description", "examples/graphs"]
        .iter()
        .flat_map(|dir| {
            std::fs::read_dir(format!("{root}/{dir}"))
                .expect("the seed corpus and the examples are checked in")
                .map(|e| e.unwrap().path())
        })
        .collect();
    files.sort();
    assert!(files.len() >= 5, "seed corpus has {} files", files.len());
    let mut compiled = 0;
    for path in &files {
        let bytes = std::fs::read(path).unwrap();
        let Ok(text) = std::str::from_utf8(&bytes) else {
            continue;
        };
        tilegraph_oracle::pipeline::check_description(text);
        compiled += usize::from(
            tilegraph::RenderGraph::from_json(text)
                .is_ok_and(|g| g.compile(&Default::default()).is_ok()),
        );
    }
    // The corpus holds both graphs that compile and inputs that must be rejected.
    assert!(
        compiled >= 3 && compiled < files.len(),
        "{compiled} of {} compile",
        files.len()
    );
}

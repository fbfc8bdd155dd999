//! Graphs on which a property of tests/prop_plan.rs once failed, minimised by hand. Each runs every
//! plan property (`tilegraph_oracle::checks`) with and without the `DontCare` opt-in.

use tilegraph_oracle::checks::{Tally, check_graph, check_minimal, options_from};

/// Every property, minimality included.
fn assert_properties(json: &str) {
    for bits in [0u8, 1] {
        let options = options_from(bits);
        let mut tally = Tally::default();
        let (graph, plan) = check_graph(json, &options, &mut tally)
            .unwrap_or_else(|e| panic!("{e}\noptions: {options:?}"))
            .expect("the graph compiles");
        check_minimal(&graph, &plan, &options, &mut tally)
            .unwrap_or_else(|e| panic!("{e}\noptions: {options:?}"));
    }
}

/// A pass that samples the depth it tests read-only must not share a wgpu render pass with a later
/// pass that writes that depth: wgpu validates the whole render pass as one usage scope, and a
/// sampled depth attachment must be read-only in all of it (the guide, `feedback`).
#[test]
fn sampled_read_only_depth_is_not_merged_with_a_depth_write() {
    let json = include_str!("graphs/sampled_read_only_depth_is_not_merged_with_a_depth_write.json");
    assert_properties(json);
    let plan = crate::common::compile(json);
    let names: Vec<Vec<usize>> = plan
        .groups()
        .iter()
        .map(|g| g.passes.iter().map(|p| p.index()).collect())
        .collect();
    assert_eq!(names, [vec![0], vec![1], vec![2]]);
    assert_eq!(
        plan.groups()[1].break_reason.as_str(),
        "writes_bound_texture"
    );
}

/// The same usage scope rule for a resolve target: a pass that samples last frame's resolved image
/// must not share a render pass with the pass that resolves into it.
#[test]
fn sampled_texture_is_not_merged_with_a_resolve_into_it() {
    let json = include_str!("graphs/sampled_texture_is_not_merged_with_a_resolve_into_it.json");
    assert_properties(json);
    let plan = crate::common::compile(json);
    assert_eq!(plan.groups().len(), 2);
    assert_eq!(
        plan.groups()[0].break_reason.as_str(),
        "writes_bound_texture"
    );
}

/// Found by the minimality property: `shadow_test` reads a depth that nothing wrote, so its group
/// clears it (the guide). A `read` never writes, so that clear is not content: `shadow_draw` clears
/// again rather than `shadow_test` storing and `shadow_draw` loading it (2 × 256 bytes).
#[test]
fn reader_of_a_read_fallback_clear_reclears() {
    assert_properties(include_str!(
        "graphs/reader_of_a_read_fallback_clear_reclears.json"
    ));
}

/// A depth `read` with no prior contents makes its group clear it (the guide), but a `read` never
/// writes: the clear is not content. A later pass sampling that depth reads a resource nobody wrote,
/// which is `read_before_write` (clear values apply to attachments only), not a merge question.
#[test]
fn sampling_a_depth_only_ever_read_is_a_read_before_write() {
    let json = include_str!("graphs/sampling_a_depth_only_ever_read_is_a_read_before_write.json");
    let error = tilegraph::RenderGraph::from_json(json)
        .unwrap()
        .compile(&Default::default())
        .unwrap_err();
    assert_eq!(error.kind().as_str(), "read_before_write");
    assert_eq!(error.pass(), Some("fog"));
    assert_eq!(error.resource(), Some("depth"));
}

/// The subresource seeds of the fuzz corpus that compile: a bloom chain (one mip per pass, the
/// texture sampled whole at the end, a clear of one mip that the next write of that mip kills), shadow cascades (one layer per pass, a
/// whole array and one layer sampled) and a HiZ pyramid built by compute passes per mip and layer.
#[test]
fn subresource_seeds_have_every_property() {
    for json in [
        include_str!("../../fuzz/corpus/description/seed-bloom-mip-chain.json"),
        include_str!("../../fuzz/corpus/description/seed-shadow-cascades-layers.json"),
        include_str!("../../fuzz/corpus/description/seed-hiz-mips-layers-compute.json"),
    ] {
        assert_properties(json);
    }
}

/// Writing one mip kills only that mip's version (the guide): `stale` clears mip 2, which `down2`
/// overwrites before anyone reads it, so `stale` is culled; every other mip's writer stays.
#[test]
fn a_dead_write_of_one_mip_culls_only_its_pass() {
    let json = include_str!("../../fuzz/corpus/description/seed-bloom-mip-chain.json");
    let plan = crate::common::compile(json);
    let culled: Vec<&str> = plan
        .passes()
        .iter()
        .enumerate()
        .filter(|(_, p)| p.culled)
        .map(|(i, _)| plan.pass_name(tilegraph::PassId::new(i)))
        .collect();
    assert_eq!(culled, ["stale"]);
}

/// Hand-made subresource corners: a resolve into mip 0 of a texture whose mip 1 the resolving pass
/// samples; one texture in two colour slots (two layers) over a merged group; a `read` of a depth
/// layer nothing wrote (it clears) beside a written layer; a copy between two mips of one texture.
#[test]
fn subresource_corners_have_every_property() {
    let corners = [
        include_str!("graphs/subresource_corners_have_every_property.json"),
        include_str!("graphs/subresource_corners_have_every_property_2.json"),
        include_str!("graphs/subresource_corners_have_every_property_3.json"),
        include_str!("graphs/subresource_corners_have_every_property_4.json"),
    ];
    for json in corners {
        assert_properties(json);
    }
}

/// Compiler bug found by the restructured-plan properties: with culling off, a copy folded into a
/// resolve keeps its place in the order and a group of its own (`folded_into` set and `group`
/// set), although the guide says a folded copy does not run (`group: None`). The group runs the
/// declared copy, which reads the resolve target that the folded resolve no longer writes, and
/// overwrites the destination the resolve wrote with garbage: the sampling pass sees garbage.
#[test]
fn folded_copy_does_not_run_with_culling_off() {
    let json = include_str!("graphs/folded_copy_does_not_run_with_culling_off.json");
    let mut options = tilegraph::CompileOptions::default();
    options.cull = false;
    let plan = tilegraph::RenderGraph::from_json(json)
        .unwrap()
        .compile(&options)
        .unwrap();
    let capture = plan.passes()[1];
    assert_eq!(capture.folded_into, Some(tilegraph::PassId::new(0)));
    assert_eq!(
        capture.group, None,
        "the folded copy still runs: {capture:?}"
    );
    let mut tally = Tally::default();
    check_graph(json, &options_from(0b1000), &mut tally).unwrap();
}

/// Compiler bug found by the move-minimality property: a move that pays when it is made can stop
/// paying once later passes are placed, and the plan keeps it. `late` joins `early`'s group,
/// which saves a load of `depth` at that point; but `again` would have merged with `late` in
/// declared order and saved that very load, and it cannot follow `late` (it overwrites what the
/// copy reads, and the copy reads what `early` wrote). The restructured plan moves as many bytes
/// as the declared one, yet reports a move that saved 8192 bytes (the guide: a move is made only
/// when the plan's traffic goes down).
#[test]
fn a_move_that_no_longer_pays_is_undone() {
    let json = include_str!("graphs/a_move_that_no_longer_pays_is_undone.json");
    let plan = crate::common::compile(json);
    let (bytes, declared) = (
        plan.traffic().bytes_per_frame,
        plan.traffic().declared_bytes_per_frame,
    );
    assert!(
        plan.restructuring().is_empty() || bytes < declared,
        "{:?} saves nothing: {bytes} bytes, {declared} in declared order",
        plan.restructuring()
    );
    assert_properties(json);
}

/// Compiler bug found by the restructured-plan properties: restructuring must not change whether
/// a graph compiles. `first`'s resolve is dead (only the culled `unused_copy` reads it) and is
/// dropped; a copy elsewhere is folded, so versions are traced again on the edited passes, where
/// the culled copy now reads `resolved` before anything writes it: `read_before_write`, while the
/// declared-order compile (and the guide) accept the graph.
#[test]
fn a_dropped_resolve_read_by_a_culled_copy_does_not_fail_a_fold() {
    let json =
        include_str!("graphs/a_dropped_resolve_read_by_a_culled_copy_does_not_fail_a_fold.json");
    let graph = tilegraph::RenderGraph::from_json(json).unwrap();
    let declared = graph.compile(&tilegraph::CompileOptions::default().with_restructure(false));
    assert!(declared.is_ok(), "{declared:?}");
    let restructured = graph.compile(&Default::default());
    assert!(restructured.is_ok(), "{:?}", restructured.err());
    assert_properties(json);
}

/// Compiler bug found by the restructured-plan properties: a later move undoes an earlier one and
/// the earlier `moved` entry stays. `y2` joins `y1`'s group (`cull` goes after it); then `x2`
/// joins `x1`, taking `y1` and `cull` ahead of `x1` (it depends on both) and leaving `y2` after
/// itself; then `x3` takes `y2` ahead. The plan runs `y1`, `cull`, `y2`, `x1 x2 x3`: `y2` is not
/// in `y1`'s group, as its entry says (and `cull`, `y1 y2`, `x1 x2 x3` would save 512 more bytes).
#[test]
fn moved_entries_hold_in_the_final_plan() {
    let json = include_str!("graphs/moved_entries_hold_in_the_final_plan.json");
    let plan = crate::common::compile(json);
    for change in plan.restructuring() {
        if let tilegraph::plan::Restructuring::Moved { pass, joins, .. } = change {
            let group = |p: tilegraph::PassId| plan.passes()[p.index()].group;
            assert_eq!(
                group(*pass),
                group(*joins),
                "{change:?}, but the plan runs {:?}",
                plan.order()
            );
        }
    }
    assert_properties(json);
}

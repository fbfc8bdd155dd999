//! Compiler scenarios: each test declares a graph and asserts the whole plan the contract
//! (the guide) implies — groups, every load/store op, resolves, read-only depth, culls,
//! break reasons, lifetimes, transient flags, physical indices and traffic.
//!
//! Sizes are 64×64 unless a scenario needs more: an rgba8unorm or depth32float texture of that size
//! is 16 384 bytes, an rgba16float one 32 768, a 4× multisampled rgba8unorm one 65 536.

use crate::common::{assert_plan, dont_care, plan, plan_with, slow_clears, traffic};
use tilegraph::{CompileOptions, RenderGraph};

const KB16: u64 = 64 * 64 * 4;

// ---------------------------------------------------------------------------------------------
// The traffic model's worked example and the example pipelines.

#[test]
fn seed_worked_example_one_attachment_loaded_and_stored() {
    let p = plan(include_str!(
        "scenarios/seed_worked_example_one_attachment_loaded_and_stored.json"
    ));
    assert_plan(
        &p,
        "g0 render [blend] end_of_graph
            color target load store
         target 0..0 -",
    );
    let t = &p["traffic"];
    assert_eq!(t["bytes_per_frame"], 16_588_800);
    assert_eq!(t["naive_bytes_per_frame"], 16_588_800);
    assert_eq!(t["fps"], 60);
    assert_eq!(t["bytes_per_second"], 995_328_000u64);
    assert_eq!(t["naive_bytes_per_second"], 995_328_000u64);
    assert_eq!(t["sampled_bytes_per_frame"], 0);
    assert_eq!(p["warnings"], serde_json::json!([]));
}

const DEFERRED: &str = include_str!("../../examples/graphs/deferred.json");

#[test]
fn deferred_pipeline_culls_unused_debug_pass() {
    let p = plan(DEFERRED);
    // decals keep the G-buffer on tile (no clear, same attachments); sky blends onto lighting's
    // output; debug_view's overlay is never read, so it and its texture are culled.
    assert_plan(
        &p,
        "g0 render [shadows] attachments_differ
            depth shadow_map clear store
         g1 render [gbuffer decals] samples_group_output
            color albedo clear store
            color normal clear store
            color material clear store
            depth depth clear store
         g2 render [lighting sky] samples_group_output
            color hdr clear store
         g3 render [tonemap] end_of_graph
            color backbuffer clear store
         culled [debug_view]
         shadow_map 0..2 p0
         albedo 1..2 p1
         normal 1..2 p2
         material 1..2 p3
         depth 1..2 p4
         hdr 2..3 p5
         debug_overlay culled
         backbuffer 3..3 -",
    );
    // planned: shadow 2048²×4 + four 1080p×4 G-buffer stores + hdr 1080p×8 + backbuffer 1080p×4.
    // naive: decals load and store all four, lighting/sky/tonemap load what they write.
    // sampled: lighting's five inputs, tonemap's hdr.
    assert_eq!(traffic(&p), (74_838_016, 199_254_016, 66_543_616));
    assert_eq!(slow_clears(&p), vec![]);
}

#[test]
fn deferred_pipeline_with_dont_care() {
    let p = plan_with(DEFERRED, &dont_care());
    let groups = p["groups"].as_array().unwrap();
    assert_eq!(groups[2]["color"][0]["load"], "dont_care"); // lighting writes hdr
    assert_eq!(groups[3]["color"][0]["load"], "dont_care"); // tonemap writes backbuffer
    assert_eq!(groups[1]["color"][0]["load"], "clear"); // gbuffer clears: not a write
    assert_eq!(groups[0]["depth"]["load"], "clear");
    // DontCare moves no bytes, like the clear it replaces.
    assert_eq!(traffic(&p), (74_838_016, 199_254_016, 66_543_616));
}

#[test]
fn forward_msaa_example_resolves_and_keeps_msaa_on_tile() {
    let p = plan(include_str!("../../examples/graphs/forward_msaa.json"));
    assert_plan(
        &p,
        "g0 render [shadows] samples_group_output
            depth shadow_map clear store
         g1 render [opaque transparent] samples_group_output
            color color_msaa clear discard resolve hdr
            depth depth_msaa clear discard
         g2 render [tonemap] end_of_graph
            color backbuffer clear store
         shadow_map 0..1 p0
         color_msaa 1..1 p1 transient
         depth_msaa 1..1 p2 transient
         hdr 1..2 p3
         backbuffer 2..2 -",
    );
    // planned: shadow 1024²×4 store, hdr resolve 1080p×8, backbuffer 1080p×4 store.
    // naive: every access but the clears loads, everything stores at 4 samples.
    // sampled: shadow map twice, hdr once.
    assert_eq!(traffic(&p), (29_077_504, 335_970_304, 24_977_408));
}

#[test]
fn post_chain_example_ping_pongs_and_merges_ui_across_culled_compute() {
    let p = plan(include_str!("../../examples/graphs/post_chain.json"));
    assert_plan(
        &p,
        "g0 render [scene] samples_group_output
            color scene clear store
            depth depth clear discard
         g1 render [bright_pass] samples_group_output
            color bright clear store
         g2 render [blur_horizontal] samples_group_output
            color blur_h clear store
         g3 render [blur_vertical] samples_group_output
            color blur_v clear store
         g4 render [composite ui] end_of_graph
            color backbuffer clear store
         culled [auto_exposure]
         scene 0..4 p0
         depth 0..0 p1 transient
         bright 1..2 p2
         blur_h 2..3 p3
         blur_v 3..4 p2
         luminance culled
         backbuffer 4..4 -",
    );
    // 1280×720: rgba16float 7 372 800 bytes, depth24plus and bgra8 3 686 400.
    assert_eq!(traffic(&p), (33_177_600, 70_041_600, 36_864_000));
}

// ---------------------------------------------------------------------------------------------
// Depth: read-only depth, and what is not read-only.

const PREPASS: &str = include_str!("scenarios/prepass.json");

#[test]
fn depth_prepass_then_read_only_depth() {
    let p = plan(PREPASS);
    // The prepass stores depth for the main group, which only tests against it and is its last
    // reader: loaded and discarded, not read-only (wgpu would hand a read-only depth to Vulkan
    // as Load + Store, and a tiler would write it back).
    assert_plan(
        &p,
        "g0 render [prepass] attachments_differ
            depth depth clear store
         g1 render [opaque transparent] end_of_graph
            color out clear store
            depth depth load discard
         depth 0..1 p0
         out 1..1 -",
    );
    // planned: depth store + depth load + out store; naive: prepass clear+store, opaque out
    // clear+store and depth load+store, transparent out and depth load+store.
    assert_eq!(traffic(&p), (3 * KB16, 8 * KB16, 0));
}

#[test]
fn depth_prepass_from_the_builder_api_matches_the_description() {
    use tilegraph::plan::{LoadOp, StoreOp};
    use tilegraph::wgpu::TextureFormat;
    use tilegraph::{Access, Import, TextureDesc};
    let mut g = RenderGraph::new();
    let depth = g.create_texture(
        "depth",
        TextureDesc::new(TextureFormat::Depth32Float, 64, 64),
    );
    let out = g.import_texture(
        "out",
        TextureDesc::new(TextureFormat::Rgba8Unorm, 64, 64),
        Import::OUTPUT,
    );
    g.add_render_pass("prepass")
        .depth(depth, Access::Clear)
        .finish();
    g.add_render_pass("opaque")
        .color(out, Access::Clear)
        .depth(depth, Access::Read)
        .finish();
    g.add_render_pass("transparent")
        .color(out, Access::ReadWrite)
        .depth(depth, Access::Read)
        .finish();
    let compiled = g.compile(&CompileOptions::default()).unwrap();
    let main = &compiled.groups()[1];
    let d = main.depth.as_ref().unwrap();
    assert_eq!(
        (d.load, d.store, d.read_only),
        (LoadOp::Load, StoreOp::Discard, false)
    );
    assert_eq!(main.passes, [1, 2].map(tilegraph::PassId::new));
    let from_json = RenderGraph::from_json(PREPASS).unwrap();
    assert_eq!(g.fingerprint(), from_json.fingerprint());
    let json_plan = from_json.compile(&CompileOptions::default()).unwrap();
    assert_eq!(compiled.to_json(), json_plan.to_json());
}

#[test]
fn depth_read_then_written_in_one_group_is_not_read_only() {
    let p = plan(include_str!(
        "scenarios/depth_read_then_written_in_one_group_is_not_read_only.json"
    ));
    // The group writes depth (test_and_write) and nobody reads it after: discard, not none.
    assert_plan(
        &p,
        "g0 render [prepass] attachments_differ
            depth depth clear store
         g1 render [test_only test_and_write] end_of_graph
            color out clear store
            depth depth load discard
         depth 0..1 p0
         out 1..1 -",
    );
}

#[test]
fn read_only_depth_of_a_preserved_import() {
    let p = plan(include_str!(
        "scenarios/read_only_depth_of_a_preserved_import.json"
    ));
    // Kept after the frame, but untouched: loaded, attached read-only (not discarded), and the
    // backend writes it back (wgpu-core hands Vulkan Load + Store): the store counts.
    assert_plan(
        &p,
        "g0 render [overlay] end_of_graph
            color out clear store
            depth scene_depth load none read_only
         scene_depth 0..0 -
         out 0..0 -",
    );
    assert_eq!(traffic(&p), (3 * KB16, 4 * KB16, 0));
}

#[test]
fn read_of_unwritten_depth_with_a_clear_value_clears_and_is_not_read_only() {
    let p = plan(include_str!(
        "scenarios/read_of_unwritten_depth_with_a_clear_value_clears_and_is_not_read_only.json"
    ));
    assert_plan(
        &p,
        "g0 render [draw] end_of_graph
            color out clear store
            depth depth clear discard
         depth 0..0 p0 transient
         out 0..0 -",
    );
}

// ---------------------------------------------------------------------------------------------
// MSAA.

#[test]
fn msaa_resolve_discards_the_multisampled_attachments() {
    let p = plan(include_str!(
        "scenarios/msaa_resolve_discards_the_multisampled_attachments.json"
    ));
    assert_plan(
        &p,
        "g0 render [draw] end_of_graph
            color msaa clear discard resolve backbuffer
            depth msaa_depth clear discard
         msaa 0..0 p0 transient
         msaa_depth 0..0 p1 transient
         backbuffer 0..0 -",
    );
    // planned: the resolve writes one sample per pixel; naive also stores both 4× attachments.
    assert_eq!(traffic(&p), (KB16, KB16 + 4 * KB16 + 4 * KB16, 0));
}

#[test]
fn msaa_attachment_sampled_later_is_stored_and_not_transient() {
    let p = plan(include_str!(
        "scenarios/msaa_attachment_sampled_later_is_stored_and_not_transient.json"
    ));
    assert_plan(
        &p,
        "g0 render [draw] samples_group_output
            color msaa clear store resolve resolved
         g1 render [custom_resolve] end_of_graph
            color out clear store
         msaa 0..1 p0
         resolved 0..1 p1
         out 1..1 -",
    );
    assert_eq!(
        traffic(&p),
        // Sampled: the 4× texture and its resolve.
        (4 * KB16 + KB16 + KB16, 4 * KB16 + KB16 + 2 * KB16, 5 * KB16)
    );
}

// ---------------------------------------------------------------------------------------------
// Merging: across culled passes, and broken by each reason.

#[test]
fn merge_across_culled_render_and_compute_passes() {
    let p = plan(include_str!(
        "scenarios/merge_across_culled_render_and_compute_passes.json"
    ));
    // Neither the culled render pass nor the culled compute pass stands between opaque and hud.
    assert_plan(
        &p,
        "g0 render [opaque hud] end_of_graph
            color out clear store
         culled [debug_draw histogram]
         out 0..0 -
         debug culled
         stats culled",
    );
    assert_eq!(traffic(&p), (KB16, KB16 + 2 * KB16, 0));
}

#[test]
fn break_not_render_around_a_compute_pass() {
    let p = plan(include_str!(
        "scenarios/break_not_render_around_a_compute_pass.json"
    ));
    let groups = p["groups"].as_array().unwrap();
    assert_eq!(groups.len(), 3);
    assert_eq!(groups[0]["break"], "not_render"); // the next pass is compute
    assert_eq!(groups[1]["type"], "compute");
    assert_eq!(groups[1]["passes"], serde_json::json!(["classify"]));
    assert_eq!(groups[1]["break"], "not_render"); // this pass is compute
    assert_eq!(groups[2]["break"], "end_of_graph");
    assert_eq!(groups[0]["color"][0]["load"], "clear");
    assert_eq!(groups[0]["color"][0]["store"], "store");
    assert_eq!(groups[2]["color"][0]["load"], "load");
    assert_eq!(groups[2]["color"][0]["store"], "store");
    let tiles = &p["resources"][1];
    assert_eq!(
        (&tiles["first_group"], &tiles["last_group"]),
        (&1.into(), &2.into())
    );
    assert_eq!(traffic(&p), (3 * KB16, 3 * KB16, KB16));
}

#[test]
fn break_samples_group_output_comes_before_attachments_differ() {
    let p = plan(include_str!(
        "scenarios/break_samples_group_output_comes_before_attachments_differ.json"
    ));
    // use_a samples a written by the group (and also has other attachments: the first reason wins);
    // use_counts has the same attachment as use_a but reads its storage output.
    assert_plan(
        &p,
        "g0 render [draw_a] samples_group_output
            color a clear store
         g1 render [use_a] samples_group_output
            color out clear store
         g2 render [use_counts] end_of_graph
            color out load store
         a 0..1 p0
         out 1..2 -
         counts 1..2 p1",
    );
}

#[test]
fn break_inputs_group_output() {
    let p = plan(include_str!("scenarios/break_inputs_group_output.json"));
    assert_plan(
        &p,
        "g0 render [fill] inputs_group_output
            color gbuf clear store
         g1 render [resolve_lighting] end_of_graph
            color out clear store
         gbuf 0..1 p0
         out 1..1 -",
    );
    // input reads are reported with the sampled bytes.
    assert_eq!(traffic(&p), (2 * KB16, 3 * KB16, KB16));
}

#[test]
fn break_attachments_differ_on_slot_order() {
    let p = plan(include_str!(
        "scenarios/break_attachments_differ_on_slot_order.json"
    ));
    assert_plan(
        &p,
        "g0 render [first] attachments_differ
            color a clear store
            color b clear store
         g1 render [swapped] samples_group_output
            color b load store
            color a load store
         g2 render [combine] end_of_graph
            color out clear store
         a 0..2 p0
         b 0..2 p1
         out 2..2 -",
    );
}

#[test]
fn break_clears_group_attachment() {
    let p = plan(include_str!("scenarios/break_clears_group_attachment.json"));
    // The depth clear can only be a load op; world's depth is dead (cleared again) and discarded.
    assert_plan(
        &p,
        "g0 render [world] clears_group_attachment
            color out clear store
            depth depth clear discard
         g1 render [first_person] end_of_graph
            color out load store
            depth depth clear discard
         out 0..1 -
         depth 0..1 p0",
    );
    assert_eq!(traffic(&p), (3 * KB16, 5 * KB16, 0));
}

#[test]
fn break_resolve() {
    let p = plan(include_str!("scenarios/break_resolve.json"));
    assert_plan(
        &p,
        "g0 render [opaque] resolve
            color msaa clear store resolve early
         g1 render [transparent] samples_group_output
            color msaa load discard resolve late
         g2 render [compare] end_of_graph
            color out clear store
         msaa 0..1 p0
         early 0..2 p1
         late 1..2 p2
         out 2..2 -",
    );
    // planned: msaa store + resolve, msaa load + resolve, out store.
    assert_eq!(
        traffic(&p),
        (
            4 * KB16 + KB16 + 4 * KB16 + KB16 + KB16,
            4 * KB16 + KB16 + 8 * KB16 + KB16 + 2 * KB16,
            2 * KB16
        )
    );
}

#[test]
fn break_storage_hazard() {
    let p = plan(include_str!("scenarios/break_storage_hazard.json"));
    // Same attachments, no clear, no resolve, but draws of one render pass have no barrier.
    assert_plan(
        &p,
        "g0 render [read_mask] storage_hazard
            color out clear store
         g1 render [write_mask] end_of_graph
            color out load store
         out 0..1 -
         mask 0..1 -",
    );
}

// ---------------------------------------------------------------------------------------------
// Load ops: DontCare opt-in, clear values, read_write without content.

const WRITE_ONLY: &str = include_str!("scenarios/write_only.json");

#[test]
fn write_loads_dont_care_only_with_the_opt_in_token() {
    let cleared = plan(WRITE_ONLY);
    assert_plan(
        &cleared,
        "g0 render [fill_tint] samples_group_output
            color tint clear store
         g1 render [fullscreen] end_of_graph
            color out clear store
         out 1..1 -
         tint 0..1 p0",
    );
    // The clear of the write uses tint's own (slow) clear value.
    assert_eq!(
        slow_clears(&cleared),
        vec![("fill_tint".to_owned(), "tint".to_owned())]
    );
    let opted = plan_with(WRITE_ONLY, &dont_care());
    assert_plan(
        &opted,
        "g0 render [fill_tint] samples_group_output
            color tint dont_care store
         g1 render [fullscreen] end_of_graph
            color out dont_care store
         out 1..1 -
         tint 0..1 p0",
    );
    assert_eq!(slow_clears(&opted), vec![]);
    assert_eq!(traffic(&cleared), traffic(&opted));
    assert_eq!(traffic(&opted), (2 * KB16, 4 * KB16, KB16));
}

#[test]
fn write_without_opt_in_clears_with_the_resource_or_fast_value() {
    use tilegraph::ClearValue;
    use tilegraph::plan::LoadOp;
    let graph = RenderGraph::from_json(WRITE_ONLY).unwrap();
    let compiled = graph.compile(&CompileOptions::default()).unwrap();
    let g = compiled.groups();
    assert_eq!(
        g[0].color[0].load,
        LoadOp::Clear(ClearValue::Color([0.25, 0.5, 0.75, 1.0]))
    );
    assert_eq!(
        g[1].color[0].load,
        LoadOp::Clear(ClearValue::Color([0.0, 0.0, 0.0, 0.0]))
    );
}

#[test]
fn access_clear_value_overrides_the_resource_clear_value() {
    use tilegraph::ClearValue;
    use tilegraph::plan::LoadOp;
    let json = include_str!("scenarios/access_clear_value_overrides_the_resource_clear_value.json");
    let compiled = crate::common::compile(json);
    let g = &compiled.groups()[0];
    assert_eq!(g.color[0].load, LoadOp::Clear(ClearValue::Color([1.0; 4])));
    assert_eq!(
        g.depth.as_ref().unwrap().load,
        LoadOp::Clear(ClearValue::DepthStencil {
            depth: 0.0,
            stencil: 0
        })
    );
    // Both values used are fast; the slow resource values are never used.
    assert_eq!(slow_clears(&plan(json)), vec![]);
}

#[test]
fn read_write_without_content_but_with_a_clear_value_clears() {
    let p = plan(include_str!(
        "scenarios/read_write_without_content_but_with_a_clear_value_clears.json"
    ));
    assert_plan(
        &p,
        "g0 render [accumulate accumulate_more] samples_group_output
            color accum clear store
         g1 render [present] end_of_graph
            color out clear store
         accum 0..1 p0
         out 1..1 -",
    );
    // naive: the first read_write finds nothing written, so it clears (the guide's naive plan:
    // a load would read garbage) and stores; the second loads and stores (32 768 bytes each way);
    // present loads and stores out.
    assert_eq!(
        traffic(&p),
        (2 * KB16 + KB16, 6 * KB16 + 2 * KB16, 2 * KB16)
    );
}

// ---------------------------------------------------------------------------------------------
// Imports, overwrites, liveness.

#[test]
fn import_undefined_keep_is_cleared_by_write_and_stored() {
    let p = plan(include_str!(
        "scenarios/import_undefined_keep_is_cleared_by_write_and_stored.json"
    ));
    // An import is never pooled (no physical index) and never transient.
    assert_plan(
        &p,
        "g0 render [blit] end_of_graph
            color swapchain clear store
         swapchain 0..0 -",
    );
}

#[test]
fn writers_of_an_import_discarded_after_the_frame_are_culled() {
    let p = plan(include_str!(
        "scenarios/writers_of_an_import_discarded_after_the_frame_are_culled.json"
    ));
    // present samples the preserved contents; update_history's version comes after, nobody reads
    // it and the world does not keep it.
    assert_plan(
        &p,
        "g0 render [present] end_of_graph
            color out clear store
         culled [update_history scribble]
         history 0..0 -
         scratch culled
         out 0..0 -",
    );
    assert_eq!(traffic(&p), (KB16, 2 * KB16, 2 * KB16));
}

#[test]
fn an_import_overwritten_later_does_not_keep_its_writer_alive() {
    let p = plan(include_str!(
        "scenarios/an_import_overwritten_later_does_not_keep_its_writer_alive.json"
    ));
    // final clears out and upload replaces all of history: draft and touch_history wrote dead versions.
    assert_plan(
        &p,
        "g0 render [final] not_render
            color out clear store
         g1 copy [upload] end_of_graph
         culled [draft touch_history]
         out 0..0 -
         history 1..1 -
         staging 1..1 -",
    );
    assert!(p["groups"][1].get("color").is_none() && p["groups"][1].get("depth").is_none());
}

#[test]
fn side_effects_keep_a_pass_and_what_it_reads_alive() {
    let p = plan(include_str!(
        "scenarios/side_effects_keep_a_pass_and_what_it_reads_alive.json"
    ));
    assert_plan(
        &p,
        "g0 render [draw_ids] not_render
            color ids clear store
            depth depth clear discard
         g1 compute [pick] not_render
         g2 render [gpu_marker] end_of_graph
            color marker clear discard
         culled [unused]
         ids 0..1 p0
         depth 0..0 p1 transient
         marker 2..2 p2 transient
         readback 1..1 -",
    );
}

#[test]
fn storage_write_kills_the_prior_version_and_read_write_keeps_it() {
    let chain = |third: &str| {
        format!(
            r#"{{
            "resources": [{{"name": "buf", "buffer": {{"size": 1024}}}}],
            "passes": [
                {{"name": "k1", "type": "compute", "storage_write": ["buf"]}},
                {{"name": "k2", "type": "compute", "storage_read_write": ["buf"]}},
                {{"name": "k3", "type": "compute", "{third}": ["buf"]}},
                {{"name": "consume", "type": "compute", "storage_read": ["buf"], "side_effects": true}}
            ]}}"#
        )
    };
    let overwritten = plan(&chain("storage_write"));
    let passes: Vec<_> = overwritten["passes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| (p["name"].as_str().unwrap(), p["culled"].as_bool().unwrap()))
        .collect();
    assert_eq!(
        passes,
        vec![
            ("k1", true),
            ("k2", true),
            ("k3", false),
            ("consume", false)
        ]
    );
    let kept = plan(&chain("storage_read_write"));
    assert!(
        kept["passes"]
            .as_array()
            .unwrap()
            .iter()
            .all(|p| p["culled"] == false)
    );
    assert_eq!(kept["groups"].as_array().unwrap().len(), 4);
    assert_eq!(kept["groups"][3]["break"], "end_of_graph");
    assert_eq!(kept["resources"][0]["first_group"], 0);
    assert_eq!(kept["resources"][0]["last_group"], 3);
}

// ---------------------------------------------------------------------------------------------
// Transients and physical textures.

#[test]
fn transient_only_when_used_inside_one_group_as_an_attachment() {
    let p = plan(include_str!(
        "scenarios/transient_only_when_used_inside_one_group_as_an_attachment.json"
    ));
    // owned_elsewhere would qualify but is imported; two_groups is cleared again by e.
    assert_plan(
        &p,
        "g0 render [a b] attachments_differ
            color out clear store
            color scratch clear discard
            color owned_elsewhere clear discard
         g1 render [c d] clears_group_attachment
            color out load store
            color two_groups clear discard
         g2 render [e] end_of_graph
            color out load store
            color two_groups clear discard
         scratch 0..0 p0 transient
         two_groups 1..2 p1
         owned_elsewhere 0..0 -
         out 0..2 -",
    );
}

const CHAIN: &str = include_str!("scenarios/chain.json");

#[test]
fn physical_textures_reuse_the_lowest_free_index() {
    let p = plan(CHAIN);
    // a and b die after group 1 and c overlaps them; d starts in group 2 and takes the lowest free
    // index (a's); wide has another descriptor and never shares.
    assert_plan(
        &p,
        "g0 render [p0] samples_group_output
            color a clear store
            color b clear store
         g1 render [p1] samples_group_output
            color c clear store
         g2 render [p2] samples_group_output
            color d clear store
         g3 render [p3] samples_group_output
            color wide clear store
         g4 render [p4] end_of_graph
            color out clear store
         a 0..1 p0
         b 0..1 p1
         c 1..2 p2
         d 2..3 p0
         wide 3..4 p3
         out 4..4 -",
    );
    let compiled = crate::common::compile(CHAIN);
    let physical = compiled.physical();
    assert_eq!(physical.len(), 4);
    assert_eq!(
        physical[0].resources,
        [0, 3].map(tilegraph::ResourceId::new)
    );
    assert_eq!(physical[1].resources, [1].map(tilegraph::ResourceId::new));
}

// ---------------------------------------------------------------------------------------------
// Kill switches.

#[test]
fn kill_switch_alias_gives_every_texture_its_own_index() {
    let p = plan_with(CHAIN, &CompileOptions::default().with_alias(false));
    let physical: Vec<_> = p["resources"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["physical"].clone())
        .collect();
    assert_eq!(
        physical,
        serde_json::json!([0, 1, 2, 3, 4, null])
            .as_array()
            .unwrap()
            .clone()
    );
}

#[test]
fn kill_switch_cull_keeps_the_debug_pass() {
    let p = plan_with(DEFERRED, &CompileOptions::default().with_cull(false));
    assert_plan(
        &p,
        "g0 render [shadows] attachments_differ
            depth shadow_map clear store
         g1 render [gbuffer decals] samples_group_output
            color albedo clear store
            color normal clear store
            color material clear store
            depth depth clear store
         g2 render [lighting sky] attachments_differ
            color hdr clear store
         g3 render [debug_view] attachments_differ
            color debug_overlay clear discard
         g4 render [tonemap] end_of_graph
            color backbuffer clear store
         shadow_map 0..2 p0
         albedo 1..2 p1
         normal 1..3 p2
         material 1..2 p3
         depth 1..2 p4
         hdr 2..4 p5
         debug_overlay 3..3 p6 transient
         backbuffer 4..4 -",
    );
}

#[test]
fn kill_switch_merge_gives_every_pass_its_own_group() {
    let p = plan_with(DEFERRED, &CompileOptions::default().with_merge(false));
    // Reasons that apply anyway are still named; merging_disabled where the passes would merge.
    assert_plan(
        &p,
        "g0 render [shadows] attachments_differ
            depth shadow_map clear store
         g1 render [gbuffer] merging_disabled
            color albedo clear store
            color normal clear store
            color material clear store
            depth depth clear store
         g2 render [decals] samples_group_output
            color albedo load store
            color normal load store
            color material load store
            depth depth load none read_only
         g3 render [lighting] merging_disabled
            color hdr clear store
         g4 render [sky] samples_group_output
            color hdr load store
         g5 render [tonemap] end_of_graph
            color backbuffer clear store
         culled [debug_view]
         shadow_map 0..3 p0
         albedo 1..3 p1
         normal 1..3 p2
         material 1..3 p3
         depth 1..3 p4
         hdr 3..5 p5
         debug_overlay culled
         backbuffer 5..5 -",
    );
    // Merging is what saves decals' and sky's round trips. Decals' read-only depth, which
    // lighting samples later, is written back by the backend (1920 × 1080 × 4 B).
    assert_eq!(traffic(&p), (174_370_816, 199_254_016, 66_543_616));
}

#[test]
fn kill_switch_transient_marks_nothing_transient() {
    let json = include_str!("../../examples/graphs/forward_msaa.json");
    let p = plan_with(json, &CompileOptions::default().with_transient(false));
    assert!(
        p["resources"]
            .as_array()
            .unwrap()
            .iter()
            .all(|r| r["transient"] == false)
    );
    // The ops do not change: only the usage flag.
    assert_eq!(p["groups"], plan(json)["groups"]);
}

// ---------------------------------------------------------------------------------------------
// Traffic options and warnings.

#[test]
fn fps_scales_the_per_second_figures() {
    let p = plan_with(DEFERRED, &CompileOptions::default().with_fps(144));
    let t = &p["traffic"];
    assert_eq!(t["fps"], 144);
    assert_eq!(t["bytes_per_second"], 74_838_016u64 * 144);
    assert_eq!(t["naive_bytes_per_second"], 199_254_016u64 * 144);
}

#[test]
fn slow_clear_values_are_warnings_fast_ones_are_not() {
    // Kept after the frame, so every clear reaches memory: a transient attachment's clear, or
    // one its group discards, never leaves the tile, so no value is slow there.
    let json = include_str!("scenarios/slow_clear_values_are_warnings_fast_ones_are_not.json");
    let kept = json
        .replace(
            r#"]}, "clear""#,
            r#"]}, "import": {"contents": "undefined", "after": "keep"}, "clear""#,
        )
        .replace(
            "]},\n         \"clear\"",
            "]}, \"import\": {\"contents\": \"undefined\", \"after\": \"keep\"},\n         \"clear\"",
        );
    let p = plan_with(&kept, &CompileOptions::default().with_transient(false));
    let mut warned = slow_clears(&p);
    warned.sort();
    assert_eq!(
        warned,
        vec![
            ("colors".to_owned(), "depth_half".to_owned()),
            ("colors".to_owned(), "grey".to_owned()),
            ("stencil".to_owned(), "stencil_one".to_owned()),
        ]
    );
    for w in p["warnings"].as_array().unwrap() {
        assert!(!w["message"].as_str().unwrap().is_empty());
    }
    // Graph-owned, they are discarded after their group: no clear reaches memory, whatever its
    // value; with transients on, every attachment here lives on tile only.
    let discarded = plan_with(json, &CompileOptions::default().with_transient(false));
    assert_eq!(slow_clears(&discarded), vec![]);
    let on_tile = plan(json);
    let resources = on_tile["resources"].as_array().unwrap();
    assert!(resources.iter().all(|r| r["transient"] == true));
    assert_eq!(slow_clears(&on_tile), vec![]);
}

// ---------------------------------------------------------------------------------------------
// The plan as JSON: shape, determinism, round trip; the plan cache.

#[test]
fn plan_json_has_the_fields_of_the_contract() {
    let p = plan(include_str!(
        "scenarios/plan_json_has_the_fields_of_the_contract.json"
    ));
    let keys = |v: &serde_json::Value| {
        let mut k: Vec<String> = v.as_object().unwrap().keys().cloned().collect();
        k.sort();
        k.join(",")
    };
    assert_eq!(
        keys(&p),
        "groups,memory,order,passes,required_limits,resources,restructure,traffic,warnings"
    );
    assert_eq!(
        keys(&p["memory"]),
        "allocated_bytes,declared_bytes,transient_bytes"
    );
    assert_eq!(keys(&p["passes"][0]), "culled,group,name,needed_by");
    assert_eq!(
        p["passes"][1],
        serde_json::json!({"name": "dbg", "culled": true, "group": null, "needed_by": null})
    );
    let render = &p["groups"][0];
    assert_eq!(
        keys(render),
        "break,color,color_bytes_per_sample,depth,index,passes,type"
    );
    assert_eq!(
        keys(&render["color"][0]),
        "layer,load,mip,resolve,resource,store"
    );
    assert_eq!(
        (&render["color"][0]["mip"], &render["color"][0]["layer"]),
        (&0.into(), &0.into())
    );
    assert!(render["color"][0]["resolve"].is_null());
    assert_eq!(
        keys(&render["depth"]),
        "layer,load,mip,read_only,resource,store"
    );
    assert_eq!(render["depth"]["read_only"], false);
    let compute = &p["groups"][1];
    assert_eq!(compute["type"], "compute");
    assert_eq!(keys(compute), "break,index,passes,type");
    // A render group without depth has `"depth": null`.
    assert_eq!(
        keys(&p["groups"][2]),
        "break,color,color_bytes_per_sample,depth,index,passes,type"
    );
    assert!(p["groups"][2]["depth"].is_null());
    assert_eq!(
        keys(&p["resources"][0]),
        "culled,first_group,last_group,name,physical,transient"
    );
    assert_eq!(
        p["resources"][3],
        serde_json::json!({"name": "unused", "culled": true, "transient": false,
                           "first_group": null, "last_group": null, "physical": null})
    );
    assert_eq!(
        keys(&p["traffic"]),
        "bytes_per_frame,bytes_per_second,declared_bytes_per_frame,declared_bytes_per_second,fps,naive_bytes_per_frame,naive_bytes_per_second,sampled_bytes_per_frame"
    );
    let w = p["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|w| w["kind"] == "slow_clear_value")
        .expect("c clears to a slow value");
    assert_eq!(keys(w), "kind,message,pass,resource");
    assert_eq!(
        (&w["kind"], &w["pass"], &w["resource"]),
        (&"slow_clear_value".into(), &"draw".into(), &"c".into())
    );
}

#[test]
fn the_same_input_gives_a_byte_identical_plan() {
    for json in [DEFERRED, CHAIN, PREPASS, WRITE_ONLY] {
        let first = crate::common::compile(json).to_json();
        for _ in 0..5 {
            let again = crate::common::compile(json).to_json();
            assert_eq!(first, again);
        }
    }
}

#[test]
fn json_round_trip_keeps_fingerprint_and_plan() {
    for json in [
        DEFERRED,
        CHAIN,
        PREPASS,
        WRITE_ONLY,
        include_str!("../../examples/graphs/forward_msaa.json"),
        include_str!("../../examples/graphs/post_chain.json"),
    ] {
        let g = RenderGraph::from_json(json).unwrap();
        let back = RenderGraph::from_json(&g.to_json()).unwrap();
        assert_eq!(g.fingerprint(), back.fingerprint());
        assert_eq!(back.to_json(), g.to_json());
        let options = CompileOptions::default();
        assert_eq!(
            g.compile(&options).unwrap().to_json(),
            back.compile(&options).unwrap().to_json()
        );
    }
}

#[test]
fn builder_graph_round_trips_through_json() {
    use tilegraph::wgpu::TextureFormat;
    use tilegraph::{Access, ClearValue, Import, TextureDesc};
    let mut g = RenderGraph::new();
    let layered = g.create_texture_cleared(
        "cascades",
        TextureDesc::new(TextureFormat::Depth24PlusStencil8, 256, 256).layers(2),
        ClearValue::DepthStencil {
            depth: 0.25,
            stencil: 3,
        },
    );
    let mipped = g.create_texture(
        "bloom",
        TextureDesc::new(TextureFormat::Rgba16Float, 256, 256).mips(3),
    );
    let msaa = g.create_texture(
        "msaa",
        TextureDesc::new(TextureFormat::Rgba16Float, 256, 256).samples(4),
    );
    let out = g.import_texture(
        "out",
        TextureDesc::new(TextureFormat::Rgba16Float, 256, 256),
        Import::PERSISTENT,
    );
    let buf = g.create_buffer("params", 256);
    g.add_compute_pass("setup")
        .storage_write_buffer(buf)
        .finish();
    // Every layer and mip is written before a pass samples the whole texture (the guide).
    for layer in 0..2 {
        g.add_render_pass(&format!("shadow{layer}"))
            .depth(layered.layer(layer), Access::Clear)
            .finish();
    }
    g.add_render_pass("bloom_down")
        .sample(layered)
        .color_cleared(mipped, [0.1, 0.2, 0.3, 0.4])
        .finish();
    for mip in 1..3 {
        g.add_render_pass(&format!("bloom_mip{mip}"))
            .sample(mipped.mip(mip - 1))
            .color(mipped.mip(mip), Access::Write)
            .finish();
    }
    g.add_render_pass("main")
        .sample(mipped)
        .storage_read_buffer(buf)
        .color_resolved(msaa, Access::Clear, out)
        .side_effects()
        .finish();
    let text = g.to_json();
    let back = RenderGraph::from_json(&text).unwrap();
    assert_eq!(g.fingerprint(), back.fingerprint());
    let options = CompileOptions::default();
    let plan = g.compile(&options).unwrap();
    assert_eq!(plan.to_json(), back.compile(&options).unwrap().to_json());
    assert_eq!(plan.fingerprint(), g.fingerprint());
    // A changed graph has another fingerprint.
    let mut changed = RenderGraph::from_json(&text).unwrap();
    changed.create_texture("extra", TextureDesc::new(TextureFormat::Rgba8Unorm, 1, 1));
    assert_ne!(changed.fingerprint(), g.fingerprint());
}

#[test]
fn plan_cache_hits_for_the_same_structure_and_options_only() {
    use std::sync::Arc;
    use tilegraph::PlanCache;
    let mut cache = PlanCache::new(2);
    let options = CompileOptions::default();
    let deferred = RenderGraph::from_json(DEFERRED).unwrap();
    let first = cache.get_or_compile(&deferred, &options).unwrap();
    assert_eq!((cache.hits(), cache.misses()), (0, 1));
    // Next frame declares the same graph again.
    let again = RenderGraph::from_json(DEFERRED).unwrap();
    let second = cache.get_or_compile(&again, &options).unwrap();
    assert!(Arc::ptr_eq(&first, &second));
    assert_eq!((cache.hits(), cache.misses()), (1, 1));
    // Other options, another plan.
    let fps30 = CompileOptions::default().with_fps(30);
    let other = cache.get_or_compile(&again, &fps30).unwrap();
    assert_eq!(other.traffic().fps, tilegraph::Fps::from(30));
    assert_eq!((cache.hits(), cache.misses()), (1, 2));
    // Another graph: a miss, which evicts the least recently used (deferred at 60 fps).
    let chain = RenderGraph::from_json(CHAIN).unwrap();
    cache.get_or_compile(&chain, &options).unwrap();
    assert_eq!((cache.hits(), cache.misses()), (1, 3));
    let third = cache.get_or_compile(&deferred, &options).unwrap();
    assert!(!Arc::ptr_eq(&first, &third));
    assert_eq!(first.to_json(), third.to_json());
    assert_eq!((cache.hits(), cache.misses()), (1, 4));
    // Errors are not cached.
    let bad = RenderGraph::from_json(
        r#"{"resources": [{"name": "t", "texture": {"format": "rgba8unorm", "size": [4, 4]}}],
            "passes": [{"name": "p", "type": "render", "color": [{"resource": "t", "access": "read_write"}]}]}"#,
    )
    .unwrap();
    assert!(cache.get_or_compile(&bad, &options).is_err());
    assert!(cache.get_or_compile(&bad, &options).is_err());
    assert_eq!((cache.hits(), cache.misses()), (1, 6));
    cache.clear();
    cache.get_or_compile(&again, &options).unwrap();
    assert_eq!((cache.hits(), cache.misses()), (1, 7));
}

// ---------------------------------------------------------------------------------------------
// Every example description plans.

#[test]
fn every_example_graph_plans() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/graphs");
    let mut names = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "json") {
            let text = std::fs::read_to_string(&path).unwrap();
            let p = plan(&text);
            let groups = p["groups"].as_array().unwrap();
            assert!(!groups.is_empty(), "{}", path.display());
            assert_eq!(groups.last().unwrap()["break"], "end_of_graph");
            let (planned, naive, _) = traffic(&p);
            assert!(
                planned <= naive,
                "{}: plan worse than naive",
                path.display()
            );
            names.push(path.file_name().unwrap().to_string_lossy().into_owned());
        }
    }
    // The directory grows; the examples the README and the tool tests name must stay.
    for name in [
        "bloom_chain.json",
        "deferred.json",
        "forward_msaa.json",
        "post_chain.json",
        "shadow_cascades.json",
        "soft_particles.json",
        "ssao.json",
    ] {
        assert!(
            names.iter().any(|n| n == name),
            "{name} missing from {names:?}"
        );
    }
}

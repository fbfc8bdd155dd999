//! `RenderGraph::reset`: a graph emptied for the next frame declares exactly what a new graph
//! declares (same declarations, fingerprint and plan), whatever the last frame held.

use tilegraph::wgpu::TextureFormat;
use tilegraph::{
    Access, ClearValue, CompileOptions, ErrorKind, Import, PlanCache, RenderGraph, TextureDesc,
};

/// A small frame with every kind of declaration: textures (cleared, imported, a history pair),
/// a buffer, render, compute and copy passes with lists, ranges and attachments. `blocks`
/// repeats its middle; `tag` renames one pass.
fn declare(g: &mut RenderGraph<'_>, blocks: usize, tag: &str) {
    let desc = |format| TextureDesc::new(format, 64, 64);
    let out = g.import_texture("out", desc(TextureFormat::Rgba8Unorm), Import::OUTPUT);
    let history = g.history_texture("taa", desc(TextureFormat::Rgba16Float));
    let lights = g.create_buffer("lights", 256);
    g.add_compute_pass("cull")
        .storage_write_buffer(lights)
        .finish();
    let mut previous = history.previous;
    for b in 0..blocks {
        let color = g.create_texture_cleared(
            &format!("color{b}"),
            desc(TextureFormat::Rgba16Float),
            ClearValue::Color([0.1, 0.2, 0.3, 1.0]),
        );
        let depth = g.create_texture(&format!("depth{b}"), desc(TextureFormat::Depth32Float));
        g.add_render_pass(&format!("draw{b}"))
            .color(color, Access::Clear)
            .depth_cleared(depth, 1.0)
            .sample(previous)
            .uniform(lights)
            .finish();
        g.add_render_pass(&format!("{tag}{b}"))
            .color(color, Access::ReadWrite)
            .depth(depth, Access::Read)
            .finish();
        previous = color;
    }
    g.add_render_pass("resolve")
        .sample(previous)
        .color(history.current, Access::Write)
        .finish();
    g.add_copy_pass("present")
        .copy_src(history.current)
        .copy_dst(out)
        .finish();
}

fn fresh(blocks: usize, tag: &str) -> RenderGraph<'static> {
    let mut g = RenderGraph::new();
    declare(&mut g, blocks, tag);
    g
}

fn plan_json(g: &RenderGraph<'_>) -> String {
    g.compile(&CompileOptions::default())
        .expect("the frame compiles")
        .to_json()
}

#[test]
fn a_reset_graph_declares_what_a_new_graph_declares_frame_after_frame() {
    let mut graph = RenderGraph::new();
    // Longer, shorter, renamed and equal frames in turn: each reuses the last one's storage.
    for (blocks, tag) in [
        (4, "glass"),
        (4, "glass"),
        (2, "glass"),
        (6, "decals"),
        (6, "decals"),
        (1, "x"),
    ] {
        graph = graph.reset();
        declare(&mut graph, blocks, tag);
        let new = fresh(blocks, tag);
        assert_eq!(graph.resources(), new.resources(), "{blocks} blocks, {tag}");
        assert_eq!(graph.passes(), new.passes(), "{blocks} blocks, {tag}");
        assert_eq!(graph.histories(), new.histories(), "{blocks} blocks, {tag}");
        assert_eq!(
            graph.fingerprint(),
            new.fingerprint(),
            "{blocks} blocks, {tag}"
        );
        assert_eq!(plan_json(&graph), plan_json(&new), "{blocks} blocks, {tag}");
    }
}

#[test]
fn fingerprints_tell_apart_frames_that_differ_in_one_declaration() {
    let base = fresh(3, "glass");
    let renamed = fresh(3, "glaze");
    let longer = fresh(4, "glass");
    // The same frame and a pass clearing one mip of a chain: mip 1, or mip 2.
    let with_mip = |mip: u32| {
        let mut graph = RenderGraph::new();
        declare(&mut graph, 3, "glass");
        let t = graph.create_texture(
            "mips",
            TextureDesc::new(TextureFormat::Rgba8Unorm, 64, 64).mips(4),
        );
        graph
            .add_render_pass("mip1")
            .color(t.mip(mip), Access::Clear)
            .side_effects()
            .finish();
        graph
    };
    let (range, other_mip) = (with_mip(1), with_mip(2));
    let prints = [&base, &renamed, &longer, &range, &other_mip].map(|g| g.fingerprint());
    for (i, a) in prints.iter().enumerate() {
        for b in &prints[i + 1..] {
            assert_ne!(a, b, "two different frames share a fingerprint");
        }
    }
}

#[test]
fn handles_from_before_a_reset_belong_to_another_graph() {
    let mut graph = RenderGraph::new();
    let stale = graph.create_texture("old", TextureDesc::new(TextureFormat::Rgba8Unorm, 8, 8));
    graph = graph.reset();
    graph
        .add_render_pass("draw")
        .color(stale, Access::Clear)
        .side_effects()
        .finish();
    let error = graph
        .compile(&CompileOptions::default())
        .expect_err("a handle from before the reset");
    assert_eq!(error.kind(), ErrorKind::UnknownResource, "{error}");
}

#[test]
fn a_plan_keeps_the_declarations_it_was_compiled_from_across_a_reset() {
    let mut cache = PlanCache::default();
    let options = CompileOptions::default();
    let mut graph = fresh(3, "glass");
    let plan = cache.get_or_compile(&graph, &options).expect("compiles");
    let declared = graph.passes().clone();
    graph = graph.reset();
    declare(&mut graph, 1, "other");
    assert_eq!(plan.pass_decls(), &declared);
    // The same frame again after two resets: the cached plan is found.
    graph = graph.reset();
    declare(&mut graph, 3, "glass");
    let again = cache.get_or_compile(&graph, &options).expect("compiles");
    assert!(std::sync::Arc::ptr_eq(&plan, &again));
    assert_eq!((cache.hits(), cache.misses()), (1, 1));
}

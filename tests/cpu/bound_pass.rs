//! A render pass declared with its bind group (`RenderPassBuilder::bound`): each access takes the
//! next binding slot, and the pass declares exactly what the plain builder's calls declare.

use tilegraph::helpers::Binding;
use tilegraph::wgpu::{TextureFormat, TextureViewDimension};
use tilegraph::{Access, RenderGraph, SubresourceRange, TextureDesc, TextureHandle};

/// The graph's resources: an output, a texture with mips, a six-layer cube with mips, a uniform
/// buffer and a storage buffer.
fn resources(graph: &mut RenderGraph<'_>) -> [TextureHandle; 3] {
    let desc = |w, h| TextureDesc::new(TextureFormat::Rgba8Unorm, w, h);
    let output = graph.create_texture("output", desc(64, 64));
    let bloom = graph.create_texture("bloom", desc(64, 64).mips(3));
    let cube = graph.create_texture("cube", desc(16, 16).layers(6).mips(3));
    [output, bloom, cube]
}

#[test]
fn bound_accesses_take_slots_in_order_and_declare_what_the_plain_builder_declares() {
    let mut bound = RenderGraph::new();
    let [output, bloom, cube] = resources(&mut bound);
    let uniforms = bound.create_buffer("uniforms", 256);
    let lights = bound.create_buffer("lights", 1024);
    let pass = bound
        .add_render_pass("shade")
        .color(output, Access::Write)
        .bound()
        .uniform_slices(uniforms, 64)
        .sample(bloom.mip(1))
        .sample_as(cube, TextureViewDimension::Cube)
        .sample_as(cube.mips(2..3), TextureViewDimension::Cube)
        .sample_as(cube.layers(1..3), TextureViewDimension::Cube)
        .storage_read_buffer(lights);
    let slots = pass.bindings();
    assert_eq!(slots.len(), 6);
    assert!(matches!(slots[0], Binding::BufferSlice(b, 0, 64) if b == uniforms));
    assert!(
        matches!(slots[1], Binding::Texture(t) if t == bloom.mip(1).into()),
        "{:?}",
        slots[1]
    );
    assert!(matches!(slots[2], Binding::TextureAs(t, TextureViewDimension::Cube) if t == cube));
    assert!(matches!(slots[3], Binding::MipAs(t, 2, TextureViewDimension::Cube) if t == cube));
    // A range that is neither the whole texture nor one mip's layers binds as a plain sample.
    assert!(
        matches!(slots[4], Binding::Texture(t) if t.range() == SubresourceRange { mips: None, layers: Some((1, 2)) })
    );
    assert!(matches!(slots[5], Binding::Buffer(b) if b == lights));
    pass.finish();

    let mut plain = RenderGraph::new();
    let [output, bloom, cube] = resources(&mut plain);
    let uniforms = plain.create_buffer("uniforms", 256);
    let lights = plain.create_buffer("lights", 1024);
    plain
        .add_render_pass("shade")
        .uniform_slices(uniforms, 64)
        .sample(bloom.mip(1))
        .sample(cube)
        .sample(cube.mips(2..3))
        .sample(cube.layers(1..3))
        .storage_read_buffer(lights)
        .color(output, Access::Write)
        .finish();
    assert_eq!(bound.passes(), plain.passes());
    assert_eq!(bound.fingerprint(), plain.fingerprint());
}

#[test]
fn a_bound_pass_without_reads_has_an_empty_bind_group_and_keeps_its_closure() {
    let mut graph = RenderGraph::new();
    let [output, ..] = resources(&mut graph);
    let pass = graph
        .add_render_pass("clear")
        .color(output, Access::Clear)
        .bound();
    assert!(pass.bindings().is_empty());
    let id = pass.execute(|_, _, bindings| {
        assert!(bindings.is_empty());
        Ok(())
    });
    assert_eq!(graph.passes().len(), 1);
    assert_eq!(graph.pass_id("clear"), Some(id));
}

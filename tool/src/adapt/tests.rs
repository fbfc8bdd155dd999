use super::capabilities::*;
use super::*;
use tilegraph::RenderGraph;
use tilegraph::decl::PassRef;
use tilegraph::{Access, ClearValue};

fn caps_of_gl() -> Capabilities {
    Capabilities {
        read_only_depth_sampling: false,
        depth_and_multisample_copies: false,
        sampled_multisample: true,
        renderable: Vec::new(),
        // GLES 3.1's storage formats: no 16-bit floats.
        storage: STORAGE_FORMATS
            .iter()
            .map(|&f| {
                let gles = !matches!(
                    f,
                    wgpu::TextureFormat::R16Float
                        | wgpu::TextureFormat::Rg16Float
                        | wgpu::TextureFormat::R16Uint
                        | wgpu::TextureFormat::R8Unorm
                        | wgpu::TextureFormat::Rg8Unorm
                        | wgpu::TextureFormat::Rg32Float
                        | wgpu::TextureFormat::Rg32Uint
                );
                let flags = if gles {
                    STORAGE_FLAGS
                } else {
                    wgpu::TextureFormatFeatureFlags::empty()
                };
                (f, flags)
            })
            .collect(),
        backend: "Gl".into(),
    }
}

/// The graph of `description` adapted to `caps`, and the original.
fn adapted(
    description: &str,
    caps: &Capabilities,
) -> Result<(RenderGraph<'static>, RenderGraph<'static>, Adaptation), Unsupported> {
    let original = RenderGraph::from_json(description).expect("a valid description");
    let mut resources = original.resources().to_vec();
    let mut passes = original.passes().to_vec();
    let adaptation = adapt(&mut resources, &mut passes, caps)?;
    let graph = RenderGraph::from_declarations(resources, passes).expect("still valid");
    Ok((graph, original, adaptation))
}

fn format(graph: &RenderGraph<'_>, name: &str) -> wgpu::TextureFormat {
    match graph
        .resources()
        .iter()
        .find(|r| &*r.name == name)
        .unwrap()
        .kind
    {
        ResourceKind::Texture(t) => t.format,
        ResourceKind::Buffer(_) => panic!("`{name}` is a buffer"),
    }
}

fn pass<'g>(graph: &'g RenderGraph<'_>, name: &str) -> PassRef<'g> {
    graph.passes().iter().find(|p| p.name() == name).unwrap()
}

/// Nothing changed: the same declarations, so the same fingerprint.
fn assert_unchanged(graph: &RenderGraph<'_>, original: &RenderGraph<'_>, a: &Adaptation) {
    assert_eq!(graph.resources(), original.resources());
    assert_eq!(graph.passes(), original.passes());
    assert_eq!(graph.fingerprint(), original.fingerprint());
    assert!(a.notes.is_empty(), "{:?}", a.notes);
}

#[test]
fn storage_formats_the_adapter_lacks_are_realised_in_one_it_has() {
    let d = include_str!("../../../examples/graphs/bevy_ssao.json");
    let (g, _, a) = adapted(d, &caps_of_gl()).unwrap();
    for r in ["ssao_preprocessed_depth", "ssao_noisy", "ssao"] {
        assert_eq!(format(&g, r), wgpu::TextureFormat::R32Float, "{r}");
        assert!(
            a.notes
                .iter()
                .any(|n| n.starts_with(&format!("`{r}` is r16float"))
                    && n.ends_with("realised as r32float")),
            "{:?}",
            a.notes
        );
    }
    // Formats the adapter stores stay as they are.
    assert_eq!(
        format(&g, "ssao_depth_differences"),
        wgpu::TextureFormat::R32Uint
    );
    // With every storage format there is nothing to do.
    let (same, original, a) = adapted(d, &Capabilities::full()).unwrap();
    assert_unchanged(&same, &original, &a);
    // `--portable`: only the formats every adapter stores to, whatever this one has.
    let (g, _, _) = adapted(d, &Capabilities::full().portable(true)).unwrap();
    for r in ["ssao_preprocessed_depth", "ssao_noisy", "ssao"] {
        assert_eq!(format(&g, r), wgpu::TextureFormat::R32Float, "{r}");
    }
    assert_eq!(
        format(&g, "ssao_depth_differences"),
        wgpu::TextureFormat::R32Uint
    );
    // No stand-in at all: an unsupported error naming the pass, the resource and the format.
    let mut none = caps_of_gl();
    none.storage
        .iter_mut()
        .for_each(|(_, f)| *f = wgpu::TextureFormatFeatureFlags::empty());
    let e = adapted(d, &none).unwrap_err().to_string();
    assert!(
        e.contains("ssao_preprocess_depth")
            && e.contains("ssao_preprocessed_depth")
            && e.contains("r16float"),
        "{e}"
    );
}

#[test]
fn a_depth_copy_into_a_buffer_is_not_turned_into_a_draw() {
    let d = r#"{"resources": [
        {"name": "depth", "texture": {"format": "depth32float", "size": [8, 8]}},
        {"name": "b", "buffer": {"size": 256}}],
      "passes": [
        {"name": "clear", "type": "render", "depth": {"resource": "depth", "access": "clear"}},
        {"name": "copy", "type": "copy", "copy_src": ["depth"], "copy_dst": ["b"],
         "side_effects": true}]}"#;
    let (g, _, a) = adapted(d, &caps_of_gl()).unwrap();
    assert!(a.copy_draws.is_empty());
    assert_eq!(pass(&g, "copy").kind(), PassKind::Copy);
}

#[test]
fn nothing_changes_on_a_full_adapter() {
    let d = include_str!("../../../examples/graphs/ssao.json");
    let (g, original, a) = adapted(d, &Capabilities::full()).unwrap();
    assert_unchanged(&g, &original, &a);
}

#[test]
fn gl_tests_depth_in_the_shader_copies_by_draw_and_stands_in_for_r32float() {
    let (g, original, a) = adapted(
        include_str!("../../../examples/graphs/ssao.json"),
        &caps_of_gl(),
    )
    .unwrap();
    assert!(pass(&g, "ssao").depth().is_none());
    assert!(pass(&original, "ssao").depth().is_some());
    assert_eq!(a.shader_depth_tests["ssao"], "depth");
    assert_eq!(format(&g, "linear_depth"), wgpu::TextureFormat::R32Uint);
    assert!(a.float_bits.contains("linear_depth"));

    // A depth copy becomes a draw; a multisampled depth copy is refused (a draw does not
    // reproduce one faithfully on GL).
    let depth_copy = r#"{"resources": [
        {"name": "depth", "texture": {"format": "depth32float", "size": [8, 8]}},
        {"name": "depth_copy", "texture": {"format": "depth32float", "size": [8, 8]}},
        {"name": "out", "texture": {"format": "rgba8unorm", "size": [8, 8]},
         "import": {"contents": "undefined", "after": "keep"}}],
      "passes": [
        {"name": "prepass", "type": "render", "depth": {"resource": "depth", "access": "clear"}},
        {"name": "copy_prepass_depth", "type": "copy", "copy_src": ["depth"], "copy_dst": ["depth_copy"]},
        {"name": "fog", "type": "render", "sample": ["depth_copy"],
         "color": [{"resource": "out", "access": "write"}]}]}"#;
    let (g, _, a) = adapted(depth_copy, &caps_of_gl()).unwrap();
    let copy = g.passes().at(1);
    assert_eq!(copy.kind(), PassKind::Render);
    let depth = copy.depth().expect("the copy writes the depth attachment");
    assert_eq!(&*g.resources()[depth.resource.index()].name, "depth_copy");
    assert_eq!(depth.access, Access::Write);
    assert!(copy.copy_src().is_empty() && copy.copy_dst().is_empty());
    assert!(a.copy_draws.contains("copy_prepass_depth"));
    assert!(!copy.keep_order());
    // A pinned copy stays pinned as a draw.
    let pinned = depth_copy.replace(
        r#""type": "copy", "copy_src""#,
        r#""type": "copy", "keep_order": true, "copy_src""#,
    );
    let (g, _, _) = adapted(&pinned, &caps_of_gl()).unwrap();
    assert!(g.passes().at(1).keep_order() && g.passes().at(1).kind() == PassKind::Render);
    match adapted(
        include_str!("../../tests/graphs/msaa_depth_copy.json"),
        &caps_of_gl(),
    ) {
        Err(Unsupported { pass, message }) => {
            assert_eq!(pass, "copy_prepass_depth");
            assert!(
                message.contains("`depth_msaa` (depth32float, 4 samples)"),
                "{message}"
            );
        }
        Ok((_, _, a)) => panic!("expected the multisampled depth copy to be refused: {a:?}"),
    }
}

#[test]
fn float_clears_become_their_bits() {
    let d = r#"{"resources": [
        {"name": "a", "texture": {"format": "r32float", "size": [8, 8]}, "clear": [0.5, 0.25, 0, 1]},
        {"name": "o", "texture": {"format": "r32float", "size": [8, 8]}, "import": {"contents": "undefined", "after": "keep"}}],
      "passes": [
        {"name": "p", "type": "render", "color": [{"resource": "a", "access": "clear"}]},
        {"name": "q", "type": "render", "sample": ["a"],
         "color": [{"resource": "o", "access": "clear", "clear": [2.0, 0, 0, 1]}]}]}"#;
    let (g, _, a) = adapted(d, &caps_of_gl()).unwrap();
    let bits = |f: f32| f64::from(f.to_bits());
    assert_eq!(
        g.resources()[0].clear,
        Some(ClearValue::Color([bits(0.5), bits(0.25), 0.0, bits(1.0)]))
    );
    assert_eq!(
        pass(&g, "q").color()[0].clear,
        Some(ClearValue::Color([bits(2.0), 0.0, 0.0, bits(1.0)]))
    );
    assert_eq!(a.float_bits.len(), 2);
}

#[test]
fn a_sampled_multisampled_texture_is_refused_where_it_stays_empty() {
    let d = include_str!("../../tests/graphs/sampled_msaa.json");
    let caps = Capabilities {
        sampled_multisample: false,
        ..caps_of_gl()
    };
    match adapted(d, &caps) {
        Err(Unsupported { pass, message }) => {
            assert_eq!(pass, "post");
            assert!(
                message.contains("`m` (rgba16float, 4 samples)")
                    && message.contains("TEXTURE_BINDING"),
                "{message}"
            );
        }
        Ok((_, _, a)) => panic!("expected a refusal: {a:?}"),
    }
    // Where such textures work, the graph runs as it is.
    let (g, original, a) = adapted(d, &caps_of_gl()).unwrap();
    assert_unchanged(&g, &original, &a);
}

#[test]
fn what_cannot_be_adapted_names_the_pass_resource_and_capability() {
    let d = r#"{"resources": [
        {"name": "a", "texture": {"format": "r32float", "size": [8, 8], "samples": 4}},
        {"name": "o", "texture": {"format": "r32float", "size": [8, 8]}, "import": {"contents": "undefined", "after": "keep"}}],
      "passes": [{"name": "p", "type": "render", "color": [{"resource": "a", "access": "clear", "resolve": "o"}]}]}"#;
    let e = adapted(d, &caps_of_gl()).unwrap_err().to_string();
    assert!(
        e.contains("pass `p`")
            && e.contains("`a`")
            && e.contains("r32float")
            && e.contains("RENDER_ATTACHMENT"),
        "{e}"
    );

    let d = r#"{"resources": [
        {"name": "d", "texture": {"format": "depth32float", "size": [8, 8]}, "clear": 1.0}],
      "passes": [{"name": "p", "type": "render", "sample": ["d"], "depth": {"resource": "d", "access": "read"}}]}"#;
    let e = adapted(d, &caps_of_gl()).unwrap_err().to_string();
    assert!(
        e.contains("pass `p`") && e.contains("`d`") && e.contains("READ_ONLY_DEPTH_STENCIL"),
        "{e}"
    );
}

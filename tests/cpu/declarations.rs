//! `RenderGraph::from_declarations`: a graph's declarations, changed or not, build a graph again,
//! checked as a description is.

use std::path::Path;

use tilegraph::decl::{PassDecl, ResourceKind};
use tilegraph::wgpu;
use tilegraph::{
    Access, CompileOptions, ErrorKind, GraphError, RenderGraph, ResourceId, TextureDesc,
};

fn example(name: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("examples/graphs")
        .join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn rebuilt(graph: &RenderGraph<'_>) -> Result<RenderGraph<'static>, GraphError> {
    RenderGraph::from_declarations(graph.resources().to_vec(), graph.passes().to_vec())
}

#[test]
fn every_example_survives_the_round_trip_with_its_fingerprint_and_plan() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/graphs");
    let mut checked = 0;
    for entry in std::fs::read_dir(&dir).expect("examples/graphs") {
        let path = entry.expect("entry").path();
        if path.extension().is_none_or(|e| e != "json") {
            continue;
        }
        let text = std::fs::read_to_string(&path).expect("read");
        let graph = RenderGraph::from_json(&text).expect("valid example");
        let again = rebuilt(&graph).expect("its own declarations are valid");
        let name = path.display();
        assert_eq!(again.fingerprint(), graph.fingerprint(), "{name}");
        assert_eq!(again.histories(), graph.histories(), "{name}");
        assert_eq!(again.to_json(), graph.to_json(), "{name}");
        let options = CompileOptions::default();
        assert_eq!(
            again.compile(&options).expect("compiles").to_json(),
            graph.compile(&options).expect("compiles").to_json(),
            "{name}"
        );
        checked += 1;
    }
    assert!(checked >= 10, "checked {checked} examples");
}

#[test]
fn history_pairs_of_a_built_graph_survive() {
    let mut graph = RenderGraph::new();
    let desc = TextureDesc::new(wgpu::TextureFormat::Rgba16Float, 32, 32);
    let history = graph.history_texture("taa", desc);
    let out = graph.create_texture("out", desc);
    graph
        .add_render_pass("resolve")
        .sample(history.previous)
        .color(history.current, Access::Write)
        .color(out, Access::Write)
        .side_effects()
        .finish();
    let again = rebuilt(&graph).expect("valid");
    assert_eq!(again.histories(), graph.histories());
    assert_eq!(again.histories().len(), 1);
    assert_eq!(again.fingerprint(), graph.fingerprint());

    // A changed descriptor on one half leaves the other half unpaired: an error naming it.
    let mut resources = graph.resources().to_vec();
    if let ResourceKind::Texture(t) = &mut resources[1].kind {
        t.format = wgpu::TextureFormat::Rgba8Unorm;
    }
    let e = RenderGraph::from_declarations(resources, graph.passes().to_vec()).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::InvalidDescription);
    assert!(e.to_string().contains("taa.previous"), "{e}");
}

#[test]
fn changed_declarations_build_the_changed_graph() {
    let graph = RenderGraph::from_json(&example("post_chain.json")).expect("valid");
    let mut resources = graph.resources().to_vec();
    let mut passes = graph.passes().to_vec();
    let ResourceKind::Texture(t) = &mut resources[0].kind else {
        panic!("post_chain starts with a texture");
    };
    t.format = wgpu::TextureFormat::Rgba32Float;
    passes[0].side_effects = !passes[0].side_effects;
    let changed = RenderGraph::from_declarations(resources.clone(), passes.clone()).expect("valid");
    assert_ne!(changed.fingerprint(), graph.fingerprint());
    assert_eq!(changed.resources(), &resources[..]);
    assert_eq!(changed.passes().to_vec(), passes);
}

#[test]
fn bad_declarations_are_typed_errors() {
    let graph = RenderGraph::from_json(&example("post_chain.json")).expect("valid");
    let resources = graph.resources().to_vec();
    let n = resources.len();

    // An id past the resources, in an attachment and in a list.
    let mut passes = graph.passes().to_vec();
    passes[0]
        .sample
        .push(tilegraph::decl::Entry::whole(ResourceId::new(n)));
    match RenderGraph::from_declarations(resources.clone(), passes) {
        Err(GraphError::UnknownResource { pass, resource }) => {
            assert_eq!(pass, graph.passes().at(0).name());
            assert!(resource.contains(&format!("#{n}")), "{resource}");
        }
        other => panic!("expected an unknown resource, got {other:?}"),
    }
    let mut passes = graph.passes().to_vec();
    let last = passes.len() - 1;
    if let Some(c) = passes[last].color.first_mut() {
        c.resolve = Some(ResourceId::new(n + 40));
    } else {
        panic!("the last pass of post_chain renders");
    }
    let e = RenderGraph::from_declarations(resources.clone(), passes).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::UnknownResource);

    // A repeated resource name.
    let mut twice = resources.clone();
    twice.push(resources[0].clone());
    match RenderGraph::from_declarations(twice, graph.passes().to_vec()) {
        Err(GraphError::DuplicateName { what, name }) => {
            assert_eq!((what, name.as_str()), ("resource", &*resources[0].name));
        }
        other => panic!("expected a duplicate name, got {other:?}"),
    }

    // No passes.
    let e = RenderGraph::from_declarations(resources, Vec::<PassDecl>::new()).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::InvalidDescription);
}

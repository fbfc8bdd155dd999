//! The reference interpreter itself: it accepts the compiled and the naive plan of the deferred
//! example, and it catches plans broken on purpose (a needed store dropped, a load turned into
//! don't-care, a merge across a sampled output, a resolve lost).

mod support;

use support::interp::{Content, Memory, Observation, ReadKind, execute_and_compare, reference};
use tilegraph::{CompileOptions, CompiledGraph, Group, LoadOp, RenderGraph, StoreOp};

fn deferred() -> (RenderGraph<'static>, CompiledGraph) {
    let graph = RenderGraph::from_json(include_str!("../examples/graphs/deferred.json")).unwrap();
    let plan = graph.compile(&CompileOptions::default()).unwrap();
    (graph, plan)
}

fn mismatches(graph: &RenderGraph<'_>, plan: &CompiledGraph, groups: &[Group]) -> Vec<String> {
    let live: Vec<bool> = plan.passes().iter().map(|p| !p.culled).collect();
    let reference = reference(graph, &live).unwrap();
    execute_and_compare(graph, plan, groups, Memory::Planned, &reference, false)
}

fn group_of(plan: &CompiledGraph, pass: &str) -> usize {
    plan.passes()[plan.pass_by_name(pass).unwrap() as usize]
        .group
        .unwrap() as usize
}

#[test]
fn accepts_the_compiled_and_the_naive_plan() {
    let (graph, plan) = deferred();
    assert_eq!(
        mismatches(&graph, &plan, plan.groups()),
        Vec::<String>::new()
    );
    let live: Vec<bool> = plan.passes().iter().map(|p| !p.culled).collect();
    let reference = reference(&graph, &live).unwrap();
    let naive = execute_and_compare(
        &graph,
        &plan,
        plan.naive_groups(),
        Memory::Separate,
        &reference,
        true,
    );
    assert_eq!(naive, Vec::<String>::new());
    // Lighting samples what the gbuffer group's last pass (decals) wrote into albedo.
    let lighting = plan.pass_by_name("lighting").unwrap();
    let decals = plan.pass_by_name("decals").unwrap();
    let albedo = plan.resource_by_name("albedo").unwrap();
    let read = Observation::Read {
        pass: lighting,
        kind: ReadKind::Sample(0),
        resource: albedo,
    };
    assert_eq!(
        reference.expected[&read],
        Content::Written {
            pass: decals,
            resource: albedo
        }
    );
}

#[test]
fn catches_a_dropped_store() {
    let (graph, plan) = deferred();
    let mut groups = plan.groups().to_vec();
    let g = group_of(&plan, "gbuffer");
    let albedo = plan.resource_by_name("albedo").unwrap();
    let a = groups[g]
        .color
        .iter_mut()
        .find(|a| a.resource == albedo)
        .unwrap();
    assert_eq!(a.store, StoreOp::Store);
    a.store = StoreOp::Discard;
    let found = mismatches(&graph, &plan, &groups);
    assert!(
        found
            .iter()
            .any(|m| m.contains("Sample") && m.contains("sees Undefined")),
        "{found:?}"
    );
}

#[test]
fn catches_a_load_turned_into_dont_care() {
    let json = r#"{
      "resources": [
        {"name": "history", "texture": {"format": "rgba16float", "size": [16, 16]},
         "import": {"contents": "preserved", "after": "keep"}}
      ],
      "passes": [
        {"name": "accumulate", "type": "render",
         "color": [{"resource": "history", "access": "read_write"}]}
      ]
    }"#;
    let graph = RenderGraph::from_json(json).unwrap();
    let plan = graph.compile(&CompileOptions::default()).unwrap();
    assert_eq!(plan.groups()[0].color[0].load, LoadOp::Load);
    assert_eq!(
        mismatches(&graph, &plan, plan.groups()),
        Vec::<String>::new()
    );
    let mut groups = plan.groups().to_vec();
    groups[0].color[0].load = LoadOp::DontCare;
    let found = mismatches(&graph, &plan, &groups);
    assert_eq!(
        found,
        ["Read { pass: 0, kind: Attachment(0), resource: 0 } sees Undefined, want Preserved(0)"]
    );
}

#[test]
fn catches_a_merge_across_a_sampled_output() {
    let (graph, plan) = deferred();
    let mut groups = plan.groups().to_vec();
    let (first, second) = (group_of(&plan, "lighting"), group_of(&plan, "tonemap"));
    assert_eq!(second, first + 1);
    // Pretend tonemap joined lighting's group on lighting's attachments (it samples hdr, which
    // the group is still drawing on the tile).
    let tonemap = groups[second].passes[0];
    groups[first].passes.push(tonemap);
    groups.remove(second);
    let found = mismatches(&graph, &plan, &groups);
    assert!(!found.is_empty());
}

#[test]
fn catches_a_lost_resolve() {
    let json = r#"{
      "resources": [
        {"name": "msaa", "texture": {"format": "rgba8unorm", "size": [16, 16], "samples": 4}},
        {"name": "out", "texture": {"format": "rgba8unorm", "size": [16, 16]},
         "import": {"contents": "undefined", "after": "keep"}}
      ],
      "passes": [
        {"name": "draw", "type": "render",
         "color": [{"resource": "msaa", "access": "clear", "resolve": "out"}]}
      ]
    }"#;
    let graph = RenderGraph::from_json(json).unwrap();
    let plan = graph.compile(&CompileOptions::default()).unwrap();
    assert_eq!(
        mismatches(&graph, &plan, plan.groups()),
        Vec::<String>::new()
    );
    let mut groups = plan.groups().to_vec();
    groups[0].color[0].resolve = None;
    let found = mismatches(&graph, &plan, &groups);
    assert!(found.iter().any(|m| m.starts_with("FrameEnd")), "{found:?}");
}

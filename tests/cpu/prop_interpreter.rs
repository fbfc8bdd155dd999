//! The reference interpreter itself: it accepts the compiled and the naive plan of the deferred
//! example, and it catches plans broken on purpose (a needed store dropped, a load turned into
//! don't-care, a merge across a sampled output, a resolve lost) — per subresource too (the store
//! of one mip dropped, a group attaching another mip, passes of different layers merged).

use tilegraph::plan::{Group, LoadOp, StoreOp};
use tilegraph::{CompileOptions, CompiledGraph, PassId, RenderGraph, ResourceId, Subresource};
use tilegraph_oracle::interp::{
    BASE, Content, Memory, Observation, ReadKind, Reference, execute_and_compare, reference,
};

fn deferred() -> (RenderGraph<'static>, CompiledGraph) {
    let graph =
        RenderGraph::from_json(include_str!("../../examples/graphs/deferred.json")).unwrap();
    let plan = graph.compile(&CompileOptions::default()).unwrap();
    (graph, plan)
}

/// What every read of the plan's live passes must see.
fn reference_of(graph: &RenderGraph<'_>, plan: &CompiledGraph) -> Reference {
    let live: Vec<bool> = plan.passes().iter().map(|p| !p.culled).collect();
    reference(graph, &live).unwrap()
}

fn mismatches(graph: &RenderGraph<'_>, plan: &CompiledGraph, groups: &[Group]) -> Vec<String> {
    let reference = reference_of(graph, plan);
    execute_and_compare(graph, plan, groups, Memory::Planned, &reference)
}

fn group_of(plan: &CompiledGraph, pass: &str) -> usize {
    plan.passes()[plan.pass_id(pass).unwrap().index()]
        .group
        .unwrap()
        .index()
}

#[test]
fn accepts_the_compiled_and_the_naive_plan() {
    let (graph, plan) = deferred();
    let reference = assert_accepted(&graph, &plan);
    // Lighting samples what the gbuffer group's last pass (decals) wrote into albedo.
    let lighting = plan.pass_id("lighting").unwrap();
    let decals = plan.pass_id("decals").unwrap();
    let albedo = plan.resource_id("albedo").unwrap();
    let read = Observation::Read {
        pass: lighting,
        kind: ReadKind::Sample(0),
        resource: albedo,
        sub: BASE,
    };
    assert_eq!(
        reference.expected[&read],
        Content::Written {
            pass: decals,
            resource: albedo,
            sub: BASE,
        }
    );
}

#[test]
fn catches_a_dropped_store() {
    let (graph, plan) = deferred();
    let mut groups = plan.groups().to_vec();
    let g = group_of(&plan, "gbuffer");
    let albedo = plan.resource_id("albedo").unwrap();
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
    let json = include_str!("graphs/catches_a_load_turned_into_dont_care.json");
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
        [
            "Read { pass: PassId(0), kind: Attachment(0), resource: ResourceId(0), sub: Subresource { mip: 0, layer: 0 } } sees Undefined, want Preserved(ResourceId(0), Subresource { mip: 0, layer: 0 })"
        ]
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
    let json = include_str!("graphs/catches_a_lost_resolve.json");
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

// ---------------------------------------------------------------------------------------------
// Subresources (the guide): contents, stores and merges per mip and layer.

fn mip(mip: u32) -> Subresource {
    Subresource { mip, layer: 0 }
}

fn layer(layer: u32) -> Subresource {
    Subresource { mip: 0, layer }
}

fn compile(json: &str) -> (RenderGraph<'static>, CompiledGraph) {
    let graph = RenderGraph::from_json(json).unwrap();
    let plan = graph.compile(&CompileOptions::default()).unwrap();
    (graph, plan)
}

/// The compiled and the naive plan both make every read see what the declarations say; the
/// reference they were checked against.
fn assert_accepted(graph: &RenderGraph<'_>, plan: &CompiledGraph) -> Reference {
    assert_eq!(mismatches(graph, plan, plan.groups()), Vec::<String>::new());
    let reference = reference_of(graph, plan);
    let naive = execute_and_compare(
        graph,
        plan,
        plan.naive_groups(),
        Memory::Separate,
        &reference,
    );
    assert_eq!(naive, Vec::<String>::new());
    reference
}

/// A bloom chain: each pass renders one mip of `bloom` and samples the mip above it.
const BLOOM: &str = include_str!("graphs/bloom_interpreted.json");

#[test]
fn reference_tracks_each_mip_apart() {
    let (graph, plan) = compile(BLOOM);
    let reference = assert_accepted(&graph, &plan);
    let bloom = plan.resource_id("bloom").unwrap();
    let present = plan.pass_id("present").unwrap();
    let sample = |i: u32, sub: Subresource| Observation::Read {
        pass: present,
        kind: ReadKind::Sample(i),
        resource: bloom,
        sub,
    };
    let written = |pass: &str, sub: Subresource| Content::Written {
        pass: plan.pass_id(pass).unwrap(),
        resource: bloom,
        sub,
    };
    // down2 writing mip 2 left mip 1 as down1 wrote it.
    assert_eq!(
        reference.expected[&sample(0, mip(2))],
        written("down2", mip(2))
    );
    assert_eq!(
        reference.expected[&sample(1, mip(1))],
        written("down1", mip(1))
    );
    // One observation per named subresource: present reads two, never mip 0.
    let present_reads = reference
        .expected
        .keys()
        .filter(|o| matches!(o, Observation::Read { pass, .. } if *pass == present))
        .count();
    assert_eq!(present_reads, 2);
}

#[test]
fn catches_a_dropped_store_of_one_mip() {
    let (graph, plan) = compile(BLOOM);
    let mut groups = plan.groups().to_vec();
    let g = group_of(&plan, "down1");
    let a = &mut groups[g].color[0];
    assert_eq!((a.sub, a.store), (mip(1), StoreOp::Store));
    a.store = StoreOp::Discard;
    let found = mismatches(&graph, &plan, &groups);
    // down2 and present sample mip 1 and see garbage; mips 0 and 2 are untouched.
    assert_eq!(found.len(), 2, "{found:?}");
    assert!(
        found.iter().all(|m| m.contains("Sample")
            && m.contains("sub: Subresource { mip: 1, layer: 0 }")
            && m.contains("sees Undefined")),
        "{found:?}"
    );
}

#[test]
fn catches_a_group_that_attaches_another_mip() {
    let (graph, plan) = compile(BLOOM);
    let mut groups = plan.groups().to_vec();
    let g = group_of(&plan, "down2");
    groups[g].color[0].sub = mip(1);
    let found = mismatches(&graph, &plan, &groups);
    assert!(
        found
            .iter()
            .any(|m| m.contains("attaches other subresources than its group's")),
        "{found:?}"
    );
}

/// Two shadow cascades, one layer each, sampled whole by the lighting pass.
const CASCADES: &str = include_str!("graphs/cascades.json");

#[test]
fn a_whole_texture_read_sees_each_layers_writer() {
    let (graph, plan) = compile(CASCADES);
    let reference = assert_accepted(&graph, &plan);
    let cascades: ResourceId = plan.resource_id("cascades").unwrap();
    let lighting = plan.pass_id("lighting").unwrap();
    for (l, writer) in [(0, "cascade0"), (1, "cascade1")] {
        let read = Observation::Read {
            pass: lighting,
            kind: ReadKind::Sample(0),
            resource: cascades,
            sub: layer(l),
        };
        let writer: PassId = plan.pass_id(writer).unwrap();
        assert_eq!(
            reference.expected[&read],
            Content::Written {
                pass: writer,
                resource: cascades,
                sub: layer(l),
            }
        );
    }
}

#[test]
fn catches_a_merge_of_passes_attaching_different_layers() {
    let (graph, plan) = compile(CASCADES);
    let (first, second) = (group_of(&plan, "cascade0"), group_of(&plan, "cascade1"));
    assert_eq!(second, first + 1);
    assert_eq!(
        plan.groups()[first].break_reason.as_str(),
        "attachments_differ"
    );
    // Pretend cascade1 joined cascade0's render pass, which attaches layer 0 only.
    let mut groups = plan.groups().to_vec();
    let cascade1 = groups[second].passes[0];
    groups[first].passes.push(cascade1);
    groups.remove(second);
    let found = mismatches(&graph, &plan, &groups);
    assert!(
        found
            .iter()
            .any(|m| m.contains("attaches other subresources than its group's")),
        "{found:?}"
    );
    // Layer 1 is then never written: lighting sees garbage there, and only there.
    assert!(
        found
            .iter()
            .any(|m| m.contains("layer: 1 } } sees Undefined")),
        "{found:?}"
    );
    assert!(
        !found.iter().any(|m| m.contains("layer: 0 } } sees")),
        "{found:?}"
    );
}

#[test]
fn catches_a_dropped_store_of_one_layer() {
    let (graph, plan) = compile(CASCADES);
    let mut groups = plan.groups().to_vec();
    let g = group_of(&plan, "cascade1");
    let d = groups[g].depth.as_mut().unwrap();
    assert_eq!((d.sub, d.store), (layer(1), StoreOp::Store));
    d.store = StoreOp::Discard;
    let found = mismatches(&graph, &plan, &groups);
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(
        found[0].contains("layer: 1 } } sees Undefined"),
        "{found:?}"
    );
}

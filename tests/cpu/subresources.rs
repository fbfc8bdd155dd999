//! Subresources: mips and layers named at the attachment and in the lists, tracked per
//! subresource through versions, culling, merging, ops and traffic; every error they add.

use crate::common::{compile, error};
use std::fmt::Write as _;

use tilegraph::{CompileOptions, CompiledGraph, RenderGraph};

/// The whole decision as lines: groups with their attachments (`name@mip#layer`), culled passes,
/// resources with lifetime, physical index and transient flag.
fn summary(plan: &CompiledGraph) -> String {
    let mut out = String::new();
    for (g, group) in plan.groups().iter().enumerate() {
        let names: Vec<&str> = group.passes.iter().map(|&p| plan.pass_name(p)).collect();
        let _ = writeln!(
            out,
            "g{g} {} [{}] {}",
            group.kind.as_str(),
            names.join(" "),
            group.break_reason.as_str()
        );
        for (slot, a) in group
            .color
            .iter()
            .map(|a| ("color", a))
            .chain(group.depth.iter().map(|a| ("depth", a)))
        {
            let _ = write!(
                out,
                "  {slot} {} {} {}",
                plan.subresource_name(a.resource, Some(a.sub)),
                a.load.as_str(),
                a.store.as_str()
            );
            if a.read_only {
                out.push_str(" read_only");
            }
            out.push('\n');
        }
    }
    let culled: Vec<&str> = (0..plan.passes().len())
        .filter(|&p| plan.passes()[p].culled)
        .map(|p| plan.pass_name(tilegraph::PassId::new(p)))
        .collect();
    if !culled.is_empty() {
        let _ = writeln!(out, "culled [{}]", culled.join(" "));
    }
    for (r, rp) in plan.resources().iter().enumerate() {
        let name = plan.resource_name(tilegraph::ResourceId::new(r));
        match (rp.first_group, rp.last_group) {
            (Some(f), Some(l)) => {
                let physical = rp.physical.map_or("-".into(), |p| format!("p{p}"));
                let transient = if rp.transient { " transient" } else { "" };
                let _ = writeln!(out, "{name} {f}..{l} {physical}{transient}");
            }
            _ => {
                let _ = writeln!(out, "{name} culled");
            }
        }
    }
    out
}

fn assert_plan(plan: &CompiledGraph, expected: &str) {
    let want: Vec<&str> = expected
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    let got = summary(plan);
    let got: Vec<&str> = got.lines().map(str::trim).collect();
    assert_eq!(got, want, "\nplan:\n{}", got.join("\n"));
}

fn traffic(plan: &CompiledGraph) -> (u64, u64, u64) {
    let t = plan.traffic();
    (
        t.bytes_per_frame,
        t.naive_bytes_per_frame,
        t.sampled_bytes_per_frame,
    )
}

const BLOOM: &str = include_str!("graphs/bloom_mips.json");

#[test]
fn bloom_down_and_up_through_the_mips_of_one_texture() {
    let plan = compile(BLOOM);
    // Each pass samples the mip the previous one wrote (legal: another subresource of the attached
    // texture), so every group ends there; the up passes blend onto what the down passes left.
    assert_plan(
        &plan,
        "g0 render [down0] samples_group_output
           color bloom@0 clear store
         g1 render [down1] samples_group_output
           color bloom@1 clear store
         g2 render [down2] samples_group_output
           color bloom@2 clear store
         g3 render [down3] samples_group_output
           color bloom@3 clear store
         g4 render [up2] samples_group_output
           color bloom@2 load store
         g5 render [up1] samples_group_output
           color bloom@1 load store
         g6 render [up0] samples_group_output
           color bloom@0 load store
         g7 render [composite] end_of_graph
           color out clear store
         hdr 0..7 -
         bloom 0..7 p0
         out 7..7 -",
    );
    // One subresource per attachment: mips of 256x128, 128x64, 64x32, 32x16 at 8 bytes a texel.
    let (m0, m1, m2, m3) = (262_144, 65_536, 16_384, 4_096);
    let out = 131_072;
    let planned = m0 + m1 + m2 + m3 + 2 * (m2 + m1 + m0) + out;
    let naive = 2 * (m0 + m1 + m2 + m3 + m2 + m1 + m0 + out);
    // hdr whole twice; then each pass's sampled mip.
    let sampled = 2 * m0 + m0 + m1 + m2 + m3 + m2 + m1 + m0;
    assert_eq!(traffic(&plan), (planned, naive, sampled));
}

#[test]
fn plan_json_table_and_dot_name_the_subresource() {
    let plan = compile(BLOOM);
    let json: serde_json::Value = serde_json::from_str(&plan.to_json()).unwrap();
    let up1 = &json["groups"][5]["color"][0];
    assert_eq!(up1["resource"], "bloom");
    assert_eq!(up1["mip"], 1);
    assert_eq!(up1["layer"], 0);
    let table = plan.to_table();
    assert!(table.contains("bloom@1"), "{table}");
    let dot = plan.to_dot();
    assert!(dot.contains("bloom@2 (sample)"), "{dot}");
}

#[test]
fn three_cascades_in_one_array_sampled_whole_all_stay() {
    let plan = compile(include_str!(
        "graphs/three_cascades_in_one_array_sampled_whole_all_stay.json"
    ));
    // A clear of layer 1 kills only layer 1: the whole-texture read keeps every cascade alive.
    assert_plan(
        &plan,
        "g0 render [cascade0] attachments_differ
           depth shadow#0 clear store
         g1 render [cascade1] attachments_differ
           depth shadow#1 clear store
         g2 render [cascade2] samples_group_output
           depth shadow#2 clear store
         g3 render [lighting] end_of_graph
           color out clear store
         shadow 0..3 p0
         out 3..3 -",
    );
    let layer = 512 * 512 * 4;
    // Naive: the clears load nothing either; it loads `out` before writing it.
    assert_eq!(
        traffic(&plan),
        (3 * layer + 16_384, 3 * layer + 2 * 16_384, 3 * layer)
    );
}

#[test]
fn six_cube_faces_then_a_pass_that_samples_the_cube() {
    let faces: Vec<String> = (0..6)
        .map(|i| {
            format!(
                r#"{{"name": "face{i}", "type": "render", "color": [{{"resource": "cube", "layer": {i}, "access": "clear"}}]}}"#
            )
        })
        .collect();
    let json = format!(
        r#"{{
      "resources": [
        {{"name": "cube", "texture": {{"format": "rgba8unorm", "size": [64, 64, 6]}}}},
        {{"name": "out", "texture": {{"format": "rgba8unorm", "size": [64, 64]}},
         "import": {{"contents": "undefined", "after": "keep"}}}}
      ],
      "passes": [{}, {{"name": "sky", "type": "render", "sample": ["cube"], "color": [{{"resource": "out", "access": "write"}}]}}]
    }}"#,
        faces.join(", ")
    );
    let plan = compile(&json);
    let groups = plan.groups();
    assert_eq!(groups.len(), 7);
    for (i, g) in groups.iter().take(6).enumerate() {
        assert_eq!(g.color[0].sub.layer, i as u32);
        assert_eq!(
            g.color[0].store.as_str(),
            "store",
            "face {i} is sampled later"
        );
    }
    assert!(plan.passes().iter().all(|p| !p.culled));
    // Not transient: six layers.
    assert!(!plan.resources()[0].transient);
}

#[test]
fn a_mip_written_but_never_read_is_culled() {
    let plan = compile(include_str!(
        "graphs/a_mip_written_but_never_read_is_culled.json"
    ));
    assert_plan(
        &plan,
        "g0 render [level0] samples_group_output
           color pyramid@0 clear store
         g1 render [use] end_of_graph
           color out clear store
         culled [level1]
         pyramid 0..1 p0
         out 1..1 -",
    );
}

#[test]
fn the_same_mip_in_consecutive_passes_merges_and_another_mip_does_not() {
    let plan = compile(include_str!(
        "graphs/the_same_mip_in_consecutive_passes_merges_and_another_mip_does_not.json"
    ));
    assert_plan(
        &plan,
        "g0 render [a b] attachments_differ
           color blur@1 clear store
         g1 render [c] samples_group_output
           color blur@2 clear store
         g2 render [d] end_of_graph
           color out clear store
         blur 0..2 p0
         out 2..2 -",
    );
}

#[test]
fn sampling_a_mip_the_group_did_not_write_keeps_the_group() {
    // b samples mip 0 (written before the group) while drawing on mip 1 with a: one render pass.
    let plan = compile(include_str!(
        "graphs/sampling_a_mip_the_group_did_not_write_keeps_the_group.json"
    ));
    assert_eq!(plan.groups()[1].passes.len(), 2, "{}", summary(&plan));
}

#[test]
fn a_whole_texture_copy_kills_every_mip() {
    let plan = compile(include_str!(
        "graphs/a_whole_texture_copy_kills_every_mip.json"
    ));
    assert_plan(
        &plan,
        "g0 copy [copy] not_render
         g1 render [use] end_of_graph
           color out clear store
         culled [m0 m1 m2]
         src 0..0 -
         t 0..1 p0
         out 1..1 -",
    );
}

#[test]
fn a_description_with_subresources_round_trips() {
    let graph = RenderGraph::from_json(BLOOM).unwrap();
    let again = RenderGraph::from_json(&graph.to_json()).unwrap();
    assert_eq!(graph.fingerprint(), again.fingerprint());
    assert_eq!(graph.passes(), again.passes());
    let options = CompileOptions::default();
    assert_eq!(
        graph.compile(&options).unwrap().to_json(),
        again.compile(&options).unwrap().to_json()
    );
}

#[test]
fn a_multi_mip_or_layered_texture_is_never_transient() {
    let plan = compile(include_str!(
        "graphs/a_multi_mip_or_layered_texture_is_never_transient.json"
    ));
    let depth = plan.groups()[0].depth.as_ref().unwrap();
    assert_eq!(depth.store.as_str(), "discard");
    assert!(!plan.resources()[0].transient);
}

fn assert_error(json: &str, kind: &str, pass: &str, resource: &str, needle: &str) {
    let e = error(json);
    assert_eq!(e.kind().as_str(), kind, "{e}");
    assert_eq!(e.pass(), Some(pass), "{e}");
    assert_eq!(e.resource(), Some(resource), "{e}");
    assert!(e.to_string().contains(needle), "`{e}` lacks `{needle}`");
}

fn one_pass(resources: &str, pass: &str) -> String {
    format!(r#"{{"resources": [{resources}], "passes": [{pass}]}}"#)
}

const TEX: &str = r#"{"name": "t", "texture": {"format": "rgba8unorm", "size": [64, 32, 2], "mips": 3}},
    {"name": "d", "texture": {"format": "depth32float", "size": [64, 32]}},
    {"name": "buf", "buffer": {"size": 256}},
    {"name": "out", "texture": {"format": "rgba8unorm", "size": [32, 16]}, "import": {"contents": "undefined", "after": "keep"}}"#;

#[test]
fn a_mip_outside_the_texture_is_invalid_subresource() {
    assert_error(
        &one_pass(
            TEX,
            r#"{"name": "p", "type": "render", "color": [{"resource": "t", "mip": 3, "access": "clear"}]}"#,
        ),
        "invalid_subresource",
        "p",
        "t",
        "mip 3 of layer 0 is outside the texture (3 mips, 2 layers)",
    );
}

#[test]
fn a_layer_outside_the_texture_in_a_list_is_invalid_subresource() {
    assert_error(
        &one_pass(
            TEX,
            r#"{"name": "p", "type": "render", "sample": [{"resource": "t", "layer": 2}], "color": [{"resource": "out", "access": "clear"}]}"#,
        ),
        "invalid_subresource",
        "p",
        "t",
        "layer 2",
    );
}

#[test]
fn a_subresource_of_a_buffer_is_invalid_subresource() {
    assert_error(
        &one_pass(
            TEX,
            r#"{"name": "p", "type": "compute", "storage_read": [{"resource": "buf", "mip": 1}], "side_effects": true}"#,
        ),
        "invalid_subresource",
        "p",
        "buf",
        "buffers have no subresources",
    );
}

#[test]
fn attachments_of_different_mip_sizes_are_size_mismatch() {
    // Mip 1 of a 64x32 texture is 32x16; the depth is 64x32.
    assert_error(
        &one_pass(
            TEX,
            r#"{"name": "p", "type": "render", "color": [{"resource": "t", "mip": 1, "access": "clear"}], "depth": {"resource": "d", "access": "clear"}}"#,
        ),
        "size_mismatch",
        "p",
        "d",
        "is 64x32 but `t` is 32x16",
    );
    // Mip 1 matches a 32x16 attachment.
    compile(&one_pass(
        TEX,
        r#"{"name": "p", "type": "render", "color": [{"resource": "t", "mip": 1, "access": "clear"}, {"resource": "out", "access": "clear"}]}"#,
    ));
}

#[test]
fn reading_the_attached_subresource_or_the_whole_texture_is_feedback() {
    let pre = r#"{"name": "fill", "type": "render", "color": [{"resource": "t", "mip": 1, "access": "clear"}]}, "#;
    assert_error(
        &one_pass(
            TEX,
            &format!(
                r#"{pre}{{"name": "p", "type": "render", "sample": [{{"resource": "t", "mip": 1}}], "color": [{{"resource": "t", "mip": 1, "access": "read_write"}}]}}"#
            ),
        ),
        "feedback",
        "p",
        "t",
        "a sampled texture",
    );
    assert_error(
        &one_pass(
            TEX,
            &format!(
                r#"{pre}{{"name": "p", "type": "render", "sample": ["t"], "color": [{{"resource": "t", "mip": 2, "access": "write"}}]}}"#
            ),
        ),
        "feedback",
        "p",
        "t",
        "a sampled texture",
    );
}

#[test]
fn a_whole_read_of_a_partly_written_texture_names_the_missing_subresource() {
    assert_error(
        &one_pass(
            TEX,
            r#"{"name": "fill", "type": "render", "color": [{"resource": "t", "access": "clear"}]}, {"name": "p", "type": "render", "sample": ["t"], "color": [{"resource": "out", "access": "write"}]}"#,
        ),
        "read_before_write",
        "p",
        "t",
        "(mip 1 of layer 0)",
    );
}

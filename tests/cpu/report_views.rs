//! What the reports say about multiview passes, dropped resolves and warnings that would mislead:
//! the saving of a dropped resolve, the declared order's traffic in the table, no slow-clear
//! warning for a clear that never reaches memory, advice a depth attachment can follow, and a
//! multiview pass on too few layers said in its own terms.

use tilegraph::{CompileOptions, RenderGraph};

use crate::common::{error, plan};

/// An MSAA pass that resolves what the next pass resolves again: the first resolve is dropped.
const TWO_RESOLVES: &str = include_str!("graphs/two_resolves.json");

fn compiled(json: &str) -> tilegraph::CompiledGraph {
    RenderGraph::from_json(json)
        .expect("loads")
        .compile(&CompileOptions::default())
        .expect("compiles")
}

#[test]
fn a_dropped_resolve_says_what_it_saves_in_json_and_table() {
    let p = plan(TWO_RESOLVES);
    let dropped = crate::common::restructured(&p, "resolve_dropped");
    assert_eq!(dropped.len(), 1);
    // Both views' resolves: 64 × 32 × 4 bytes each.
    assert_eq!(dropped[0]["saved_bytes"], 2 * 64 * 32 * 4);
    let table = compiled(TWO_RESOLVES).to_table();
    assert!(table.contains("saving 16384 bytes a frame"), "{table}");
}

/// The TRAFFIC section's row that starts with `label`.
fn traffic_row(table: &str, label: &str) -> Option<String> {
    table
        .lines()
        .skip_while(|l| !l.starts_with("TRAFFIC"))
        .take_while(|l| !l.is_empty())
        .find(|l| l.trim_start().starts_with(label))
        .map(str::to_owned)
}

#[test]
fn the_table_shows_the_declared_orders_traffic_when_restructuring_changed_it() {
    let plan = compiled(TWO_RESOLVES);
    let table = plan.to_table();
    let declared =
        traffic_row(&table, "declared").unwrap_or_else(|| panic!("no declared row:\n{table}"));
    assert!(
        declared.contains(&plan.traffic().declared_bytes_per_frame.to_string()),
        "{declared}"
    );
    // A plan restructuring did not change has no such row.
    let single = compiled(
        r#"{"resources": [{"name": "out", "texture": {"format": "rgba8unorm", "size": [8, 8]},
             "import": {"contents": "undefined", "after": "keep"}}],
            "passes": [{"name": "draw", "type": "render", "color": [{"resource": "out", "access": "clear"}]}]}"#,
    );
    assert_eq!(traffic_row(&single.to_table(), "declared"), None);
    assert!(traffic_row(&single.to_table(), "planned").is_some());
}

#[test]
fn a_slow_clear_that_the_group_discards_is_not_a_warning() {
    // `msaa` is cleared to a slow value and discarded after its resolve: no clear reaches memory.
    let json = include_str!("graphs/a_slow_clear_that_the_group_discards_is_not_a_warning.json");
    let p = plan(json);
    let slow: Vec<&str> = p["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|w| w["kind"] == "slow_clear_value")
        .map(|w| w["resource"].as_str().unwrap())
        .collect();
    assert_eq!(slow, ["kept"]);
}

#[test]
fn msaa_stored_advice_for_depth_does_not_mention_a_resolve_target() {
    let json =
        include_str!("graphs/msaa_stored_advice_for_depth_does_not_mention_a_resolve_target.json");
    let plan = compiled(json);
    let w = plan
        .warnings()
        .iter()
        .find(|w| w.kind.as_str() == "msaa_stored")
        .expect("the multisampled depth is stored");
    let message = plan.warning_message(w);
    assert!(message.contains("wgpu resolves no depth"), "{message}");
    assert!(!message.contains("resolve target"), "{message}");
}

#[test]
fn a_multiview_pass_on_too_few_layers_says_how_many_it_needs() {
    let e = error(include_str!(
        "graphs/a_multiview_pass_on_too_few_layers_says_how_many_it_needs.json"
    ));
    assert_eq!(e.kind().as_str(), "invalid_subresource");
    let text = e.to_string();
    assert!(
        text.contains("multiview(2) needs layers 0..2") && text.contains("1 layer"),
        "{text}"
    );
}

#[test]
fn dot_says_how_many_views_a_multiview_group_renders() {
    let dot = compiled(TWO_RESOLVES).to_dot();
    assert!(dot.contains("| 2 views (multiview) |"), "{dot}");
    let single = compiled(
        r#"{"resources": [{"name": "out", "texture": {"format": "rgba8unorm", "size": [8, 8]},
             "import": {"contents": "undefined", "after": "keep"}}],
            "passes": [{"name": "draw", "type": "render", "color": [{"resource": "out", "access": "clear"}]}]}"#,
    );
    assert!(!single.to_dot().contains("views"));
}

//! Deprecated aliases keep old code compiling for one minor release and behave as their
//! replacements do.

#![allow(deprecated)]

use tilegraph::helpers::Backend;
use tilegraph::plan::{GroupBoundary, GroupBreak};
use tilegraph::{CompileOptions, ExecuteMode, RenderGraph};

#[test]
fn from_name_aliases_parse_as_from_str_does() {
    for name in ["vulkan", "gl", "auto", "metal", ""] {
        assert_eq!(
            Backend::from_name(name),
            name.parse::<Backend>().ok(),
            "{name}"
        );
    }
    for name in ["planned", "naive", "poison", "fast"] {
        assert_eq!(
            ExecuteMode::from_name(name),
            name.parse::<ExecuteMode>().ok(),
            "{name}"
        );
    }
    assert_eq!(Backend::from_name("gl"), Some(Backend::Gl));
    assert_eq!(ExecuteMode::from_name("fast"), None);
}

#[test]
fn renamed_plan_names_are_aliases_of_the_new_ones() {
    let graph = RenderGraph::from_json(
        r#"{"resources": [{"name": "out", "texture": {"format": "rgba8unorm", "size": [8, 8]},
              "import": {"contents": "undefined", "after": "keep"}}],
            "passes": [{"name": "draw", "type": "render", "color": [{"resource": "out", "access": "clear"}]}]}"#,
    )
    .expect("loads");
    let plan = graph.compile(&CompileOptions::default()).expect("compiles");
    assert_eq!(plan.pass_by_name("draw"), plan.pass_id("draw"));
    assert_eq!(plan.resource_by_name("out"), plan.resource_id("out"));
    assert_eq!(plan.pass_by_name("missing"), None);
    let reason: GroupBoundary = plan.groups()[0].break_reason;
    assert_eq!(reason, GroupBreak::EndOfGraph);
}

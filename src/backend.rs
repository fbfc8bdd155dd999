//! What wgpu's backends make of a plan where it goes beyond the plan's ops
//! ([guide](crate::guide#what-each-backend-does-with-the-ops)). Read by the reports; the
//! executor records the plan as it is.

use crate::decl::pass::PassKind;
use crate::decl::resource::ResourceKind;
use crate::ids::ResourceId;
use crate::plan::{CompiledGraph, Group, ResourceUsage, StoreOp};

/// Whether wgpu's GLES backend renders `group`'s multisampled colour through
/// `EXT_multisampled_render_to_texture` on a device that has the extension: its colour
/// attachment 0 is resolved and discarded, and the resolve target is a GL texture. The samples
/// then live on tile only and are resolved as the tile is written out; the multisampled texture
/// is never touched, and no resolve blit runs.
///
/// The resolve target is a GL texture, not a renderbuffer, when it has a usage besides
/// `RENDER_ATTACHMENT` or more than one layer; for an import that is judged from the usages the
/// graph needs of it (a window surface is a renderbuffer and never qualifies).
pub(crate) fn gles_msaa_on_tile(plan: &CompiledGraph, group: &Group) -> bool {
    // A multiview group's views are recorded apart on GL: no claim about its MSAA.
    if group.kind != PassKind::Render || group.multiview.is_some() {
        return false;
    }
    let Some(first) = group.color.first() else {
        return false;
    };
    match first.resolve {
        Some(target) if first.store == StoreOp::Discard => is_gl_texture(plan, target),
        _ => false,
    }
}

/// wgpu's GL backend makes a 2D texture of one layer that is only ever attached a renderbuffer.
fn is_gl_texture(plan: &CompiledGraph, r: ResourceId) -> bool {
    let ResourceKind::Texture(desc) = plan.resource_decl(r).kind else {
        return false;
    };
    let resource = &plan.resources()[r.index()];
    // A pooled texture has the usages of every resource it holds.
    let usage = match resource.physical {
        Some(p) => plan.physical()[p.index()].usage,
        None => resource.usage,
    };
    let ResourceUsage::Texture(usage) = usage else {
        return false;
    };
    let attachment_only =
        wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::TRANSIENT_ATTACHMENT;
    desc.layers > 1 || !attachment_only.contains(usage)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::declare::RenderGraph;
    use crate::options::CompileOptions;

    /// `opaque` clears a 4× MSAA colour and resolves it into `resolved`, which `post` reads in
    /// the way `read` names (`sample`, or as an attachment).
    fn plan(read: &str) -> CompiledGraph {
        let post = match read {
            "sample" => {
                r#"{"name": "post", "type": "render", "sample": ["resolved"],
                "color": [{"resource": "out", "access": "write"}]}"#
            }
            _ => {
                r#"{"name": "post", "type": "render",
                "color": [{"resource": "resolved", "access": "read_write"}, {"resource": "out", "access": "write"}]}"#
            }
        };
        let json = format!(
            r#"{{"resources": [
              {{"name": "msaa", "texture": {{"format": "rgba8unorm", "size": [64, 64], "samples": 4}}}},
              {{"name": "resolved", "texture": {{"format": "rgba8unorm", "size": [64, 64]}}}},
              {{"name": "out", "texture": {{"format": "rgba8unorm", "size": [64, 64]}},
               "import": {{"contents": "undefined", "after": "keep"}}}}],
             "passes": [
              {{"name": "opaque", "type": "render",
                "color": [{{"resource": "msaa", "access": "clear", "resolve": "resolved"}}]}},
              {post}]}}"#
        );
        RenderGraph::from_json(&json)
            .unwrap()
            .compile(&CompileOptions::default())
            .unwrap()
    }

    #[test]
    fn a_discarded_resolved_colour_0_qualifies_when_its_target_is_a_texture() {
        let sampled = plan("sample");
        let groups = sampled.groups();
        assert_eq!(groups[0].color[0].store, StoreOp::Discard);
        assert!(gles_msaa_on_tile(&sampled, &groups[0]));
        // `post` resolves nothing.
        assert!(!gles_msaa_on_tile(&sampled, &groups[1]));
    }

    #[test]
    fn a_resolve_target_only_ever_attached_is_a_renderbuffer_and_does_not_qualify() {
        let attached = plan("attach");
        assert!(!gles_msaa_on_tile(&attached, &attached.groups()[0]));
    }
}

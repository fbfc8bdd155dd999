//! Passes the adapter cannot run as declared: depth sampled while attached, copies of depth
//! and multisampled textures, multisampled textures that shaders read.

use tilegraph::decl::{ColorAttachment, DepthAttachment};
use tilegraph::decl::{Entry, PassDecl, PassKind};
use tilegraph::{Access, ResourceId, Subresource};

use super::{Adaptation, Capabilities, Graph, Unsupported, unsupported};

/// A render pass that attaches a depth texture `read` and samples it: test in the shader.
pub(super) fn shader_depth_test(
    graph: &mut Graph<'_>,
    p: usize,
    adaptation: &mut Adaptation,
) -> Result<(), Unsupported> {
    let pass = &graph.passes[p];
    let Some(depth) = pass.depth else {
        return Ok(());
    };
    if depth.access != Access::Read {
        return Ok(());
    }
    let sampled = pass
        .sample
        .iter()
        .any(|e| e.resource == depth.resource && e.range.is_all());
    if !sampled {
        return Ok(());
    }
    let name = pass.name.to_string();
    let resource = graph.name(depth.resource).to_owned();
    let single = graph
        .texture(depth.resource)
        .is_some_and(|t| t.samples == 1);
    if pass.color.is_empty() || !single {
        return Err(unsupported(
            &name,
            format!(
                "samples `{resource}` while testing against it read-only, which needs DownlevelFlags::READ_ONLY_DEPTH_STENCIL (this adapter lacks it); testing in the shader instead needs a colour attachment and a single-sampled depth"
            ),
        ));
    }
    graph.passes[p].depth = None;
    adaptation.notes.push(format!(
        "pass `{name}` samples `{resource}` while testing against it read-only; the adapter lacks DownlevelFlags::READ_ONLY_DEPTH_STENCIL, so the pass tests depth in its shader and does not attach `{resource}`"
    ));
    adaptation.shader_depth_tests.insert(name, resource);
    Ok(())
}

/// A pass that reads a multisampled texture in a shader (a copy by draw included), on an
/// adapter where such a texture stays empty: refused, since no stand-in reads the samples.
pub(super) fn refuse_sampled_multisample(
    graph: &Graph<'_>,
    p: usize,
    caps: &Capabilities,
) -> Result<(), Unsupported> {
    let pass = &graph.passes[p];
    let read = pass.sample.iter().chain(&pass.input).find_map(|e| {
        graph
            .texture(e.resource)
            .filter(|t| t.samples > 1)
            .map(|t| (e.resource, t))
    });
    let Some((r, t)) = read else {
        return Ok(());
    };
    Err(unsupported(
        &pass.name,
        format!(
            "reads `{}` ({}, {} samples) in a shader, which needs a multisampled texture with TEXTURE_BINDING that holds what is rendered into it; on this adapter ({}) it stays empty (wgpu's GL backend allocates it with the GL_TEXTURE_2D target instead of GL_TEXTURE_2D_MULTISAMPLE: wgpu issue #6084)",
            graph.name(r),
            tilegraph::decl::format_name(t.format),
            t.samples,
            caps.backend
        ),
    ))
}

/// A copy pass between depth or multisampled textures: copy with a draw instead.
pub(super) fn copy_draw(
    graph: &mut Graph<'_>,
    p: usize,
    caps: &Capabilities,
    adaptation: &mut Adaptation,
) -> Result<(), Unsupported> {
    let pass = &graph.passes[p];
    let name = pass.name.to_string();
    let src: Vec<ResourceId> = pass.copy_src.iter().map(|e| e.resource).collect();
    let dst: Vec<ResourceId> = pass.copy_dst.iter().map(|e| e.resource).collect();
    let needs_draw = |&r: &ResourceId| {
        graph
            .texture(r)
            .is_some_and(|t| t.format.is_depth_stencil_format() || t.samples > 1)
    };
    if !src.iter().chain(&dst).any(needs_draw) {
        return Ok(());
    }
    let (s, d, src, dst) = match (src.as_slice(), dst.as_slice()) {
        ([s], [d]) => match (graph.texture(*s), graph.texture(*d)) {
            (Some(st), Some(dt)) => (*st, *dt, *s, *d),
            // A buffer: the compiler reports it.
            _ => return Ok(()),
        },
        _ => {
            return Err(unsupported(
                &name,
                format!(
                    "copies depth or multisampled textures, which the {} backend cannot copy; copying them with a draw takes one copy_src and one copy_dst",
                    caps.backend
                ),
            ));
        }
    };
    let (src_name, dst_name) = (graph.name(src).to_owned(), graph.name(dst).to_owned());
    if s.format != d.format || s.samples != d.samples || (s.width, s.height) != (d.width, d.height)
    {
        return Err(unsupported(
            &name,
            format!(
                "copying `{src_name}` into `{dst_name}`: depth and multisampled copies need the same format, sample count and size"
            ),
        ));
    }
    if s.format.is_depth_stencil_format() && s.samples > 1 {
        // Reading a multisampled depth in a shader and writing it back per sample does not give
        // the same depth on wgpu's GL backend in every execute mode: refused, not approximated.
        return Err(unsupported(
            &name,
            format!(
                "copies `{src_name}` ({}, {} samples): the {} backend cannot copy depth or multisampled textures, and a full-screen draw does not reproduce a multisampled depth faithfully there",
                tilegraph::decl::format_name(s.format),
                s.samples,
                caps.backend
            ),
        ));
    }
    if s.format.has_stencil_aspect() {
        return Err(unsupported(
            &name,
            format!(
                "copies `{src_name}` ({}), which has stencil: the {} backend cannot copy depth/stencil textures and a draw cannot write stencil",
                tilegraph::decl::format_name(s.format),
                caps.backend
            ),
        ));
    }
    // The render pass that replaces the copy: samples the whole source, writes all of the
    // destination's first subresource.
    let (side_effects, keep_order) = (graph.passes[p].side_effects, graph.passes[p].keep_order);
    let mut render = PassDecl::new(graph.passes[p].name.clone(), PassKind::Render);
    render.sample = vec![Entry::whole(src)];
    let sub = Subresource::BASE;
    if d.format.is_depth_stencil_format() {
        render.depth = Some(DepthAttachment {
            resource: dst,
            sub,
            access: Access::Write,
            clear: None,
        });
    } else {
        render.color = vec![ColorAttachment {
            resource: dst,
            sub,
            access: Access::Write,
            clear: None,
            resolve: None,
        }];
    }
    // A pinned copy stays pinned: restructuring moves no pass across it.
    render.side_effects = side_effects;
    render.keep_order = keep_order;
    graph.passes[p] = render;
    adaptation.notes.push(format!(
        "pass `{name}` copies `{src_name}` into `{dst_name}` ({}, {} samples), which the {} backend cannot copy; it copies with a full-screen draw instead",
        tilegraph::decl::format_name(s.format),
        s.samples,
        caps.backend
    ));
    adaptation.copy_draws.insert(name);
    Ok(())
}

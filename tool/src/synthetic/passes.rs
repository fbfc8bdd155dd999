//! Attaching the synthetic closures: one per live pass, by kind, and the bind groups they
//! build each frame from what the pass context resolves.

use tilegraph::decl::format_name;
use tilegraph::decl::{PassKind, PassRef, Passes, ResourceDecl, ResourceKind};
use tilegraph::{
    BufferHandle, CompiledGraph, PassCallback, PassContext, PassError, PassId, RenderGraph,
    Subresource, SubresourceRange, TextureDesc, TextureHandle, TextureRef,
};

use super::RunError;
use super::compute::compute_pass;
use super::render::{copy_draw_pass, render_pass};
use super::shaders::Input;
use crate::adapt::Adaptation;

/// What every synthetic pass is made from: the device, the graph and its declarations, and how
/// they were adapted to the device.
#[derive(Clone, Copy)]
pub(super) struct Source<'s, 'g> {
    pub device: &'s wgpu::Device,
    pub graph: &'s RenderGraph<'g>,
    pub resources: &'s [ResourceDecl],
    pub adaptation: &'s Adaptation,
}

/// Attaches a synthetic closure to every live pass of `plan`'s `graph`, as
/// [`adapt`](crate::adapt::adapt) adapted its declarations.
pub fn attach(
    graph: &mut RenderGraph<'_>,
    plan: &CompiledGraph,
    device: &wgpu::Device,
    adaptation: &Adaptation,
) -> Result<(), RunError> {
    let resources: Vec<ResourceDecl> = graph.resources().to_vec();
    let passes: Passes = graph.passes().clone();
    // Culled passes never run: no pipeline for them, so what they would need cannot fail a run.
    let live = passes
        .iter()
        .enumerate()
        .filter(|&(p, _)| !plan.passes()[p].culled);
    for (p, pass) in live {
        let unsupported = |message: String| RunError::Unsupported {
            pass: pass.name().to_string(),
            message,
        };
        // Shader translation failures (a GL without compute shaders or storage buffers in
        // fragment shaders) are internal errors, not validation errors: catch both.
        let scope = device.push_error_scope(wgpu::ErrorFilter::Validation);
        let internal = device.push_error_scope(wgpu::ErrorFilter::Internal);
        let source = Source {
            device,
            graph,
            resources: &resources,
            adaptation,
        };
        let callback = match pass.kind() {
            PassKind::Render if adaptation.copy_draws.contains(pass.name()) => {
                copy_draw_pass(source, pass).map_err(unsupported)?
            }
            PassKind::Render => render_pass(source, pass, p as u32).map_err(unsupported)?,
            PassKind::Compute => compute_pass(source, pass, p as u32).map_err(unsupported)?,
            PassKind::Copy => copy_pass(graph, &resources, pass).map_err(unsupported)?,
        };
        let internal = pollster::block_on(internal.pop());
        if let Some(error) = pollster::block_on(scope.pop()).or(internal) {
            // The description carries the cause (a missing shader feature, say); the error's
            // own text is only its kind.
            let cause = match &error {
                wgpu::Error::Validation { description, .. }
                | wgpu::Error::Internal { description, .. } => description
                    .lines()
                    .map(str::trim)
                    .filter(|l| !l.is_empty() && *l != "Caused by:")
                    .collect::<Vec<_>>()
                    .join(": "),
                other => other.to_string(),
            };
            return Err(unsupported(format!(
                "the adapter rejects its shaders: {cause}"
            )));
        }
        graph.set_callback(PassId::new(p), callback);
    }
    Ok(())
}

/// The view a storage binding of `texture` takes: its first subresource, from the executor's
/// views.
pub(super) fn storage_view<'v>(
    ctx: &PassContext<'v>,
    texture: TextureHandle,
) -> Result<&'v wgpu::TextureView, PassError> {
    Ok(ctx.view(texture.subresource(0, 0))?)
}

/// Binds the inputs for this frame.
pub(super) fn bind_inputs(
    ctx: &PassContext<'_>,
    layout: &wgpu::BindGroupLayout,
    inputs: &[Input],
) -> Result<wgpu::BindGroup, PassError> {
    let views = input_views(ctx, inputs)?;
    let entries = input_entries(ctx, inputs, &views)?;
    Ok(ctx.device().create_bind_group(&wgpu::BindGroupDescriptor {
        label: Some(ctx.pass_name()),
        layout,
        entries: &entries,
    }))
}

/// `range` of `texture`, as a pass names it.
fn texture_ref(texture: TextureHandle, range: SubresourceRange) -> TextureRef {
    let mut t = TextureRef::from(texture);
    if let Some((first, count)) = range.mips {
        t = t.mips(first..first + count);
    }
    if let Some((first, count)) = range.layers {
        t = t.layers(first..first + count);
    }
    t
}

/// This frame's views of the inputs, in binding order (`None` for buffers): the executor's
/// own, so that every check of the adapter's views applies to them.
pub(super) fn input_views<'v>(
    ctx: &PassContext<'v>,
    inputs: &[Input],
) -> Result<Vec<Option<&'v wgpu::TextureView>>, PassError> {
    let mut views = Vec::with_capacity(inputs.len());
    for input in inputs {
        views.push(match *input {
            Input::Texture(h, _, _, range) => Some(ctx.view(texture_ref(h, range))?),
            Input::StorageTexture(h, _, _) => Some(storage_view(ctx, h)?),
            Input::Buffer(_) => None,
        });
    }
    Ok(views)
}

/// The inputs' bind-group entries at bindings `0 .. inputs.len()`, over `views` from
/// [`input_views`].
pub(super) fn input_entries<'v>(
    ctx: &PassContext<'v>,
    inputs: &[Input],
    views: &[Option<&'v wgpu::TextureView>],
) -> Result<Vec<wgpu::BindGroupEntry<'v>>, PassError> {
    let mut entries = Vec::with_capacity(inputs.len() + 1);
    for (i, (input, view)) in inputs.iter().zip(views).enumerate() {
        entries.push(wgpu::BindGroupEntry {
            binding: i as u32,
            resource: match (input, view) {
                (Input::Buffer(h), _) => ctx.buffer(*h)?.as_entire_binding(),
                (_, Some(v)) => wgpu::BindingResource::TextureView(v),
                _ => unreachable!("textures have views"),
            },
        });
    }
    Ok(entries)
}

fn copy_pass<'a>(
    graph: &RenderGraph<'_>,
    resources: &[ResourceDecl],
    pass: PassRef<'_>,
) -> Result<PassCallback<'a>, String> {
    if pass.copy_src().is_empty() && !pass.copy_dst().is_empty() {
        return Err("copy_dst without any copy_src".into());
    }
    let mut copies = Vec::new();
    for (i, dst_entry) in pass.copy_dst().iter().enumerate() {
        let src_entry = pass.copy_src()[i % pass.copy_src().len()];
        let (src, dst) = (src_entry.resource, dst_entry.resource);
        let (s, d) = (&resources[src.index()], &resources[dst.index()]);
        match (s.kind, d.kind) {
            (ResourceKind::Texture(st), ResourceKind::Texture(dt)) => {
                // wgpu copies depth and multisampled textures whole only: equal sizes (and,
                // for multisampled ones, equal sample counts), so no tiling.
                let whole_only = st.format.is_depth_stencil_format() || st.samples > 1;
                if st.format.remove_srgb_suffix() != dt.format.remove_srgb_suffix()
                    || st.samples != dt.samples
                    || (whole_only
                        && (st.width, st.height, st.layers) != (dt.width, dt.height, dt.layers))
                {
                    return Err(format!(
                        "copying `{}` ({}, {} samples) into `{}` ({}, {} samples)",
                        s.name,
                        format_name(st.format),
                        st.samples,
                        d.name,
                        format_name(dt.format),
                        dt.samples
                    ));
                }
                copies.push(Copy::Texture(
                    (
                        graph.texture_handle(&s.name).expect("named"),
                        st,
                        src_entry.range,
                    ),
                    (
                        graph.texture_handle(&d.name).expect("named"),
                        dt,
                        dst_entry.range,
                    ),
                ));
            }
            (ResourceKind::Buffer(sb), ResourceKind::Buffer(db)) => {
                if sb.size % 4 != 0 || db.size % 4 != 0 {
                    return Err("buffer copies need sizes that are multiples of 4".into());
                }
                copies.push(Copy::Buffer(
                    graph.buffer_handle(&s.name).expect("named"),
                    sb.size,
                    graph.buffer_handle(&d.name).expect("named"),
                    db.size,
                ));
            }
            _ => {
                return Err(format!(
                    "copy between a texture and a buffer (`{}` → `{}`)",
                    s.name, d.name
                ));
            }
        }
    }
    Ok(PassCallback::Copy(Box::new(move |encoder, ctx| {
        for copy in &copies {
            match *copy {
                Copy::Texture((s, st, s_sub), (d, dt, d_sub)) => {
                    let (src, dst) = (ctx.texture(s)?, ctx.texture(d)?);
                    // Every destination subresource the entry names, each from the source's
                    // named subresource, or the same mip and layer (clamped) of a whole source,
                    // tiled over the destination's mip.
                    let (m0, mc, l0, lc) = d_sub.resolve(dt.mips, dt.layers);
                    let targets = (l0..l0 + lc)
                        .flat_map(|layer| (m0..m0 + mc).map(move |mip| Subresource { mip, layer }));
                    for to in targets {
                        let from = s_sub.single().unwrap_or(Subresource {
                            mip: to.mip.min(st.mips - 1),
                            layer: to.layer % st.layers,
                        });
                        let (sw, sh) = st.mip_size(from.mip);
                        let (dw, dh) = dt.mip_size(to.mip);
                        let mut y = 0;
                        while y < dh {
                            let h = sh.min(dh - y);
                            let mut x = 0;
                            while x < dw {
                                let w = sw.min(dw - x);
                                encoder.copy_texture_to_texture(
                                    wgpu::TexelCopyTextureInfo {
                                        texture: src,
                                        mip_level: from.mip,
                                        origin: wgpu::Origin3d {
                                            x: 0,
                                            y: 0,
                                            z: from.layer,
                                        },
                                        aspect: wgpu::TextureAspect::All,
                                    },
                                    wgpu::TexelCopyTextureInfo {
                                        texture: dst,
                                        mip_level: to.mip,
                                        origin: wgpu::Origin3d { x, y, z: to.layer },
                                        aspect: wgpu::TextureAspect::All,
                                    },
                                    wgpu::Extent3d {
                                        width: w,
                                        height: h,
                                        depth_or_array_layers: 1,
                                    },
                                );
                                x += w;
                            }
                            y += h;
                        }
                    }
                }
                Copy::Buffer(s, ss, d, ds) => {
                    let (src, dst) = (ctx.buffer(s)?, ctx.buffer(d)?);
                    let mut offset = 0;
                    while offset < ds {
                        let n = ss.min(ds - offset);
                        encoder.copy_buffer_to_buffer(src, 0, dst, offset, n);
                        offset += n;
                    }
                }
            }
        }
        Ok(())
    })))
}

enum Copy {
    /// Source and destination, each whole or one subresource.
    Texture(
        (TextureHandle, TextureDesc, SubresourceRange),
        (TextureHandle, TextureDesc, SubresourceRange),
    ),
    Buffer(BufferHandle, u64, BufferHandle, u64),
}

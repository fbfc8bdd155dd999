//! Lowering: a plan's groups (or its naive groups) → what to record for one mode and backend.
//! Runs once per plan, mode and backend; frames reuse the result. It maps the plan's ops to
//! wgpu's and decides nothing the plan has not: the only translations are the backend's
//! ([guide](crate::guide#what-each-backend-does-with-the-ops)) and Poison mode's overwrites.

use std::num::NonZeroU32;

use super::ExecuteMode;
use crate::compiled::{AttachmentPlan, CompiledGraph, Group, LoadOp, LoadReason, StoreOp};
use crate::context::RenderTarget;
use crate::resource::{
    ClearValue, ImportContents, PassId, PassKind, ResourceId, ResourceKind, Subresource,
};

/// The colour every poisoned colour texel gets in [`ExecuteMode::Poison`]: opaque magenta.
pub(super) const POISON_COLOR: wgpu::Color = wgpu::Color {
    r: 1.0,
    g: 0.0,
    b: 1.0,
    a: 1.0,
};
/// The depth poisoned depth texels get: nearest, so `LessEqual` tests against it fail.
pub(super) const POISON_DEPTH: f32 = 0.0;
/// The stencil value poisoned stencil texels get.
pub(super) const POISON_STENCIL: u32 = 0xa5;

const POISON_DEPTH_STENCIL: ClearValue = ClearValue::DepthStencil {
    depth: POISON_DEPTH,
    stencil: POISON_STENCIL,
};

/// A colour attachment as recorded.
#[derive(Debug, Clone, Copy)]
pub(super) struct ColorOps {
    pub resource: ResourceId,
    pub sub: Subresource,
    pub resolve: Option<ResourceId>,
    pub ops: wgpu::Operations<wgpu::Color>,
}

/// A depth/stencil attachment as recorded; `None` ops for read-only aspects.
#[derive(Debug, Clone, Copy)]
pub(super) struct DepthOps {
    pub resource: ResourceId,
    pub sub: Subresource,
    pub depth: Option<wgpu::Operations<f32>>,
    pub stencil: Option<wgpu::Operations<u32>>,
}

/// A group as recorded: everything the recording loop needs.
#[derive(Debug)]
pub(super) struct ExecGroup {
    pub kind: PassKind,
    pub passes: Vec<PassId>,
    pub label: String,
    /// Colour attachments in the plan's order: in a multiview group, the views of slot 0,
    /// then of slot 1, ...
    pub color: Vec<ColorOps>,
    pub depth: Option<DepthOps>,
    /// The depth attachment's views 1 .. N of a multiview group.
    pub depth_views: Vec<DepthOps>,
    /// Views of the group (1 unless it is multiview).
    pub views: u32,
    /// The ops of one multiview render pass over all views, when the group is recorded so:
    /// the device has multiview and the views' ops agree (else one render pass per view).
    pub multiview: Option<MultiviewOps>,
    /// Textures whose every subresource is poisoned before the group (Poison mode).
    pub poison_before: Vec<ResourceId>,
    /// Attachments poisoned after the group (Poison mode).
    pub poison_after: Vec<(ResourceId, Subresource)>,
    /// The group's `DontCare` attachments, invalidated before it on GL (one invalidation per
    /// view of a multiview group).
    pub invalidate_before: Vec<Invalidation>,
    /// What a render bundle executed in the group's render pass (each of them, recorded per
    /// view) must match; `None` for compute and copy groups.
    pub target: Option<RenderTarget>,
}

/// One multiview render pass: per colour slot its first view's attachment (resource, first
/// layer) with the ops that serve every view, and the same for depth.
#[derive(Debug)]
pub(super) struct MultiviewOps {
    pub color: Vec<ColorOps>,
    pub depth: Option<DepthOps>,
}

/// An empty render pass over a group's `DontCare` attachments, recorded before the group on GL:
/// `LoadOp::DontCare` and `StoreOp::Discard`, which wgpu's GL backend issues as
/// `glInvalidateFramebuffer` and nothing else; the group then loads them with `DontCare` too.
/// Nothing is bound and nothing drawn ([guide](crate::guide#what-each-backend-does-with-the-ops)).
#[derive(Debug)]
pub(super) struct Invalidation {
    pub label: String,
    /// The view of a multiview group whose attachments it invalidates (0 otherwise).
    pub view: u32,
    pub token: wgpu::LoadOpDontCare,
    pub color: Vec<(ResourceId, Subresource)>,
    /// The depth/stencil attachment, with whether the format has a depth and a stencil aspect.
    pub depth: Option<(ResourceId, Subresource, bool, bool)>,
}

/// How the backend treats `LoadOp::DontCare`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(super) enum DontCareSupport {
    /// Issued as such (Vulkan, Metal).
    Native,
    /// Ignored: it would behave as `Load` (GL/GLES), so the attachment is invalidated first.
    InvalidateBefore,
    /// Ignored, and the GL context cannot invalidate either (desktop GL below 4.3): recorded
    /// as it is, it behaves as `Load`, which costs nothing on the immediate-mode GPUs that
    /// offer such contexts; an empty pass would only cost a framebuffer change.
    AsLoad,
}

impl DontCareSupport {
    pub(super) fn of(info: &wgpu::AdapterInfo) -> Self {
        match info.backend {
            wgpu::Backend::Gl if gl_invalidates(&info.driver_info) => {
                DontCareSupport::InvalidateBefore
            }
            wgpu::Backend::Gl => DontCareSupport::AsLoad,
            _ => DontCareSupport::Native,
        }
    }
}

/// Whether wgpu's GL backend issues `glInvalidateFramebuffer` on a context whose `GL_VERSION`
/// is `version` (wgpu reports it as the adapter's `driver_info`): GLES 3.0 and later, desktop
/// GL 4.3 and later, as wgpu-hal decides. An unreadable version counts as able.
fn gl_invalidates(version: &str) -> bool {
    let number = |s: &str| -> Option<(u32, u32)> {
        let mut it = s.split(|c: char| !c.is_ascii_digit());
        Some((it.next()?.parse().ok()?, it.next()?.parse().ok()?))
    };
    match version.find(" ES ") {
        Some(i) => number(&version[i + 4..]).is_none_or(|v| v >= (3, 0)),
        None => number(version).is_none_or(|v| v >= (4, 3)),
    }
}

pub(super) fn lower(
    plan: &CompiledGraph,
    mode: ExecuteMode,
    dont_care: DontCareSupport,
    multiview: bool,
    multisample_arrays: bool,
) -> Vec<ExecGroup> {
    let groups = match mode {
        ExecuteMode::Naive => plan.naive_groups(),
        ExecuteMode::Planned | ExecuteMode::Poison => plan.groups(),
    };
    let mut poisoned = vec![false; plan.resources().len()];
    groups
        .iter()
        .map(|group| {
            let label = group
                .passes
                .iter()
                .map(|&p| plan.pass_name(p))
                .collect::<Vec<_>>()
                .join("+");
            let poison = mode == ExecuteMode::Poison;
            let color: Vec<ColorOps> = group
                .color
                .iter()
                .map(|a| ColorOps {
                    resource: a.resource,
                    sub: a.sub,
                    resolve: a.resolve,
                    ops: wgpu::Operations {
                        load: map_load(load_op(plan, a, mode), ClearValue::color),
                        store: store_op(a.store),
                    },
                })
                .collect();
            let depth = group.depth.as_ref().map(|a| depth_ops(plan, a, mode));
            let depth_views: Vec<DepthOps> = group
                .depth_views
                .iter()
                .map(|a| depth_ops(plan, a, mode))
                .collect();
            let views = group.views();
            let multisampled = group
                .attachments()
                .any(|a| texture_of(plan, a.resource).samples > 1);
            let one_pass = (multiview && views > 1 && (multisample_arrays || !multisampled))
                .then(|| multiview_ops(&color, depth.iter().chain(&depth_views), views))
                .flatten();
            if multiview && views > 1 && one_pass.is_none() {
                log::debug!(
                    "group {label}: its views' load ops differ, or its multisampled arrays are one texture per layer; recorded one render pass per view"
                );
            }
            let target = (group.kind == PassKind::Render).then(|| match &one_pass {
                Some(mv) => render_target(plan, &mv.color, mv.depth.as_ref(), NonZeroU32::new(views)),
                // Every view's render pass has view 0's formats.
                None => render_target(
                    plan,
                    color.iter().step_by(views as usize),
                    depth.as_ref(),
                    None,
                ),
            });
            ExecGroup {
                kind: group.kind,
                passes: group.passes.clone(),
                target,
                color,
                depth,
                depth_views,
                views,
                multiview: one_pass,
                poison_before: if poison {
                    textures_to_poison_before(plan, group, &mut poisoned)
                } else {
                    Vec::new()
                },
                poison_after: if poison {
                    group
                        .attachments()
                        .filter(|a| a.store == StoreOp::Discard && !a.read_only)
                        .map(|a| (a.resource, a.sub))
                        .collect()
                } else {
                    Vec::new()
                },
                invalidate_before: match dont_care {
                    DontCareSupport::InvalidateBefore => (0..views)
                        .filter_map(|view| invalidation(plan, group, view, mode, &label))
                        .collect(),
                    DontCareSupport::Native | DontCareSupport::AsLoad => Vec::new(),
                },
                label,
            }
        })
        .collect()
}

/// Merges the ops of a multiview group's views into those of one render pass, or `None` where
/// the views need different starts (one loads what another clears).
fn multiview_ops<'a>(
    color: &[ColorOps],
    depth: impl Iterator<Item = &'a DepthOps> + Clone,
    views: u32,
) -> Option<MultiviewOps> {
    let views = views as usize;
    let color = color
        .chunks(views)
        .map(|slot| {
            Some(ColorOps {
                ops: merge_ops(slot.iter().map(|c| Some(c.ops)))?,
                ..slot[0]
            })
        })
        .collect::<Option<Vec<_>>>()?;
    let depth = match depth.clone().next() {
        None => None,
        Some(&first) => Some(DepthOps {
            // A read-only view writes nothing: storing what it loaded is the same contents.
            depth: match depth.clone().all(|d| d.depth.is_none()) {
                true => None,
                false => Some(merge_ops(depth.clone().map(|d| d.depth))?),
            },
            stencil: match depth.clone().all(|d| d.stencil.is_none()) {
                true => None,
                false => Some(merge_ops(depth.clone().map(|d| d.stencil))?),
            },
            ..first
        }),
    };
    Some(MultiviewOps { color, depth })
}

/// The ops that serve every view: one clear value, or loads where some view needs contents and
/// the others do not care; a store if any view stores. `None` (read-only) stands for load and
/// store of the same contents.
fn merge_ops<T: Copy + PartialEq>(
    ops: impl Iterator<Item = Option<wgpu::Operations<T>>>,
) -> Option<wgpu::Operations<T>> {
    let mut load: Option<wgpu::LoadOp<T>> = None;
    let mut store = wgpu::StoreOp::Discard;
    for op in ops {
        let op = op.unwrap_or(wgpu::Operations {
            load: wgpu::LoadOp::Load,
            store: wgpu::StoreOp::Store,
        });
        if op.store == wgpu::StoreOp::Store {
            store = wgpu::StoreOp::Store;
        }
        load = Some(match (load, op.load) {
            (None, l) => l,
            (Some(a), b) if a == b => a,
            (Some(wgpu::LoadOp::DontCare(_)), b) => b,
            (Some(a), wgpu::LoadOp::DontCare(_)) => a,
            _ => return None,
        });
    }
    Some(wgpu::Operations { load: load?, store })
}

/// The attachments of one view of the group (all of them in a group of one view) recorded
/// with `LoadOp::DontCare`, if any.
fn invalidation(
    plan: &CompiledGraph,
    group: &Group,
    view: u32,
    mode: ExecuteMode,
    label: &str,
) -> Option<Invalidation> {
    let token = plan.options().dont_care?;
    let views = group.views() as usize;
    let of_view = |i: usize| i % views == view as usize;
    let dont_care =
        |a: &&AttachmentPlan| matches!(load_op(plan, a, mode), wgpu::LoadOp::DontCare(_));
    let color: Vec<_> = group
        .color
        .iter()
        .enumerate()
        .filter(|&(i, _)| of_view(i))
        .map(|(_, a)| a)
        .filter(dont_care)
        .map(|a| (a.resource, a.sub))
        .collect();
    let depth = group
        .depth
        .iter()
        .chain(&group.depth_views)
        .nth(view as usize)
        .filter(|a| !a.read_only && dont_care(a))
        .map(|a| {
            let format = format_of(plan, a.resource);
            (
                a.resource,
                a.sub,
                format.has_depth_aspect(),
                format.has_stencil_aspect(),
            )
        });
    (!color.is_empty() || depth.is_some()).then(|| Invalidation {
        label: format!("invalidate {label}"),
        view,
        token,
        color,
        depth,
    })
}

/// The render target of `colors` (one view's, in slot order) and `depth`, over `views` views
/// of a multiview render pass.
fn render_target<'c>(
    plan: &CompiledGraph,
    colors: impl IntoIterator<Item = &'c ColorOps>,
    depth: Option<&DepthOps>,
    views: Option<NonZeroU32>,
) -> RenderTarget {
    let mut target = RenderTarget {
        color: [None; 8],
        color_count: 0,
        depth: None,
        samples: 1,
        multiview: views,
    };
    for c in colors {
        let t = texture_of(plan, c.resource);
        target.color[usize::from(target.color_count)] = Some(t.format);
        target.color_count += 1;
        target.samples = t.samples;
    }
    if let Some(d) = depth {
        let t = texture_of(plan, d.resource);
        target.depth = Some(wgpu::RenderBundleDepthStencil {
            format: t.format,
            depth_read_only: d.depth.is_none(),
            stencil_read_only: d.stencil.is_none(),
        });
        target.samples = t.samples;
    }
    target
}

fn format_of(plan: &CompiledGraph, r: ResourceId) -> wgpu::TextureFormat {
    texture_of(plan, r).format
}

fn texture_of(plan: &CompiledGraph, r: ResourceId) -> crate::resource::TextureDesc {
    match plan.resource_decl(r).kind {
        ResourceKind::Texture(t) => t,
        ResourceKind::Buffer(_) => unreachable!("attachments are textures"),
    }
}

/// The load op to record, with a clear value of either kind.
fn load_op(
    plan: &CompiledGraph,
    a: &AttachmentPlan,
    mode: ExecuteMode,
) -> wgpu::LoadOp<ClearValue> {
    let format = format_of(plan, a.resource);
    if mode == ExecuteMode::Poison && a.load_reason == LoadReason::Overwritten {
        // The plan says every pixel is overwritten: prove it by starting from poison.
        return wgpu::LoadOp::Clear(if format.is_depth_stencil_format() {
            POISON_DEPTH_STENCIL
        } else {
            ClearValue::Color([
                POISON_COLOR.r,
                POISON_COLOR.g,
                POISON_COLOR.b,
                POISON_COLOR.a,
            ])
        });
    }
    match (a.load, plan.options().dont_care) {
        (LoadOp::Clear(v), _) => wgpu::LoadOp::Clear(v),
        (LoadOp::Load, _) => wgpu::LoadOp::Load,
        (LoadOp::DontCare, Some(token)) => wgpu::LoadOp::DontCare(token),
        // The compiler plans `DontCare` only with the caller's token; without one, a clear.
        (LoadOp::DontCare, None) => wgpu::LoadOp::Clear(
            plan.resource_decl(a.resource)
                .clear
                .unwrap_or_else(|| ClearValue::fast_default(format)),
        ),
    }
}

fn map_load<T>(load: wgpu::LoadOp<ClearValue>, f: impl Fn(&ClearValue) -> T) -> wgpu::LoadOp<T> {
    match load {
        wgpu::LoadOp::Clear(v) => wgpu::LoadOp::Clear(f(&v)),
        wgpu::LoadOp::Load => wgpu::LoadOp::Load,
        wgpu::LoadOp::DontCare(t) => wgpu::LoadOp::DontCare(t),
    }
}

fn store_op(store: StoreOp) -> wgpu::StoreOp {
    match store {
        StoreOp::Discard => wgpu::StoreOp::Discard,
        StoreOp::Store | StoreOp::None => wgpu::StoreOp::Store,
    }
}

/// Depth and stencil aspects of one attachment get the same ops; a read-only depth gets none.
fn depth_ops(plan: &CompiledGraph, a: &AttachmentPlan, mode: ExecuteMode) -> DepthOps {
    let format = format_of(plan, a.resource);
    if a.read_only {
        return DepthOps {
            resource: a.resource,
            sub: a.sub,
            depth: None,
            stencil: None,
        };
    }
    let load = load_op(plan, a, mode);
    let store = store_op(a.store);
    DepthOps {
        resource: a.resource,
        sub: a.sub,
        depth: format.has_depth_aspect().then(|| wgpu::Operations {
            load: map_load(load, ClearValue::depth),
            store,
        }),
        stencil: format.has_stencil_aspect().then(|| wgpu::Operations {
            load: map_load(load, ClearValue::stencil),
            store,
        }),
    }
}

/// Poison mode: textures whose contents are undefined when `group` first touches them — every
/// graph-owned texture at the start of its lifetime (a pooled or aliased texture holds whatever
/// its last user left), and imports with undefined contents — all of their subresources.
fn textures_to_poison_before(
    plan: &CompiledGraph,
    group: &Group,
    poisoned: &mut [bool],
) -> Vec<ResourceId> {
    let mut out = Vec::new();
    let attachments = group
        .attachments()
        .flat_map(|c| std::iter::once(c.resource).chain(c.resolve));
    for r in attachments {
        if std::mem::replace(&mut poisoned[r.index()], true) {
            continue;
        }
        let undefined = plan
            .resource_decl(r)
            .import
            .is_none_or(|i| i.contents == ImportContents::Undefined);
        if undefined {
            out.push(r);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::gl_invalidates;

    #[test]
    fn gl_contexts_that_invalidate_are_read_from_the_version_string() {
        assert!(gl_invalidates("4.5 (Core Profile) Mesa 22.3.6"));
        assert!(gl_invalidates("4.3.0 NVIDIA 580.159.04"));
        assert!(!gl_invalidates("3.3.0 NVIDIA 580.159.04"));
        assert!(!gl_invalidates("4.1 ATI-4.14.1"));
        assert!(gl_invalidates("OpenGL ES 3.2 v1.r38p1"));
        assert!(gl_invalidates("OpenGL ES 3.0 Mesa 22.3.6"));
        assert!(!gl_invalidates("OpenGL ES 2.0 Mesa 22.3.6"));
        assert!(gl_invalidates("WebGL 2.0"));
    }
}

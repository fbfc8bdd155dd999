//! Lowering: a plan's groups (or its naive groups) → what to record for one mode and backend.
//! Runs once per plan, mode and backend; frames reuse the result. It maps the plan's ops to
//! wgpu's and decides nothing the plan has not: the only translations are the backend's
//! ([guide](crate::guide#what-each-backend-does-with-the-ops)) and Poison mode's overwrites.

use std::num::NonZeroU32;

use super::ExecuteMode;
use super::quirks::DontCareSupport;
use crate::context::RenderTarget;
use crate::decl::pass::PassKind;
use crate::decl::resource::ResourceKind;
use crate::ids::{PassId, ResourceId};
use crate::plan::{AttachmentPlan, CompiledGraph, Group, LoadOp, LoadReason, StoreOp};
use crate::resource::{Access, ClearValue, ImportContents, Subresource};

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

/// The attachments of a render group (or of one pass of it) with the ops to record them with.
#[derive(Debug, Default)]
pub(super) struct RenderOps {
    /// Colour attachments in the plan's order: in a multiview group, the views of slot 0,
    /// then of slot 1, ...
    pub color: Vec<ColorOps>,
    pub depth: Option<DepthOps>,
    /// The depth attachment's views 1 .. N of a multiview group.
    pub depth_views: Vec<DepthOps>,
    /// The ops of one multiview render pass over all views, when the group is recorded so:
    /// the device has multiview and the views' ops agree (else one render pass per view).
    pub multiview: Option<MultiviewOps>,
}

/// Poison mode: one pass of a render group of several, recorded as a render pass of its own
/// over the group's attachments, so that a `write` that leaves pixels uncovered shows.
#[derive(Debug)]
pub(super) struct SplitPass {
    pub pass: PassId,
    pub ops: RenderOps,
}

/// A texture Poison mode overwrites, with the label of its poisoning passes.
#[derive(Debug)]
pub(super) struct PoisonTarget {
    pub resource: ResourceId,
    /// One attachment's subresource, or `None` for every subresource.
    pub sub: Option<Subresource>,
    pub label: String,
}

/// A group as recorded: everything the recording loop needs.
#[derive(Debug)]
pub(super) struct ExecGroup {
    pub kind: PassKind,
    pub passes: Vec<PassId>,
    pub label: String,
    /// The group's attachments and ops (none for compute and copy groups).
    pub ops: RenderOps,
    /// Views of the group (1 unless it is multiview).
    pub views: u32,
    /// Poison mode, a render group of several passes: each pass as its own render pass, in
    /// order, recorded instead of `ops` (empty otherwise).
    pub split: Vec<SplitPass>,
    /// Textures whose every subresource is poisoned before the group: those it is the first
    /// live group to use (Poison mode).
    pub poison_before: Vec<PoisonTarget>,
    /// Attachments poisoned after the group (Poison mode).
    pub poison_after: Vec<PoisonTarget>,
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

pub(super) fn lower(
    plan: &CompiledGraph,
    mode: ExecuteMode,
    dont_care: DontCareSupport,
    multiview: bool,
    split: &[bool],
) -> Vec<ExecGroup> {
    let groups = match mode {
        ExecuteMode::Naive => plan.naive_groups(),
        ExecuteMode::Planned | ExecuteMode::Poison => plan.groups(),
    };
    let poison = mode == ExecuteMode::Poison;
    groups
        .iter()
        .enumerate()
        .map(|(index, group)| {
            let label = group
                .passes
                .iter()
                .map(|&p| plan.pass_name(p))
                .collect::<Vec<_>>()
                .join("+");
            let views = group.views();
            // A multisampled array kept one texture per layer has no array view to attach.
            let one_pass = multiview
                && views > 1
                && !group.attachments().any(|a| split[a.resource.index()]);
            let mut ops = attachment_ops(plan, group, mode);
            ops.multiview = one_pass.then(|| ops.merged_views(views)).flatten();
            if multiview && views > 1 && ops.multiview.is_none() {
                log::debug!(
                    "group {label}: its views' load ops differ, or its multisampled arrays are one texture per layer; recorded one render pass per view"
                );
            }
            let target = (group.kind == PassKind::Render).then(|| group_target(plan, &ops, views));
            let split = if poison && group.kind == PassKind::Render && group.passes.len() > 1 {
                split_passes(plan, group, &ops, views)
            } else {
                Vec::new()
            };
            ExecGroup {
                kind: group.kind,
                passes: group.passes.clone(),
                target,
                views,
                split,
                poison_before: if poison {
                    textures_to_poison_before(plan, index)
                } else {
                    Vec::new()
                },
                poison_after: if poison {
                    attachments_to_poison_after(plan, group, &label)
                } else {
                    Vec::new()
                },
                invalidate_before: match dont_care {
                    DontCareSupport::InvalidateBefore => (0..views)
                        .filter_map(|view| invalidation(plan, group, view, mode, &label))
                        .collect(),
                    DontCareSupport::Native | DontCareSupport::AsLoad => Vec::new(),
                },
                ops,
                label,
            }
        })
        .collect()
}

/// The ops of a group's attachments, its multiview ops not yet merged.
fn attachment_ops(plan: &CompiledGraph, group: &Group, mode: ExecuteMode) -> RenderOps {
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
    RenderOps {
        color,
        depth,
        depth_views,
        multiview: None,
    }
}

/// The render target a render group's closures see, from `ops`: the multiview pass's, or
/// else (every view's render pass has view 0's formats) view 0's.
fn group_target(plan: &CompiledGraph, ops: &RenderOps, views: u32) -> RenderTarget {
    match &ops.multiview {
        Some(mv) => {
            let views = NonZeroU32::new(views);
            render_target(plan, &mv.color, mv.depth.as_ref(), views)
        }
        None => render_target(
            plan,
            ops.color.iter().step_by(views as usize),
            ops.depth.as_ref(),
            None,
        ),
    }
}

impl RenderOps {
    /// The ops of one multiview render pass over the `views` views, where they agree.
    fn merged_views(&self, views: u32) -> Option<MultiviewOps> {
        multiview_ops(
            &self.color,
            self.depth.iter().chain(&self.depth_views),
            views,
        )
    }
}

/// Poison mode: the passes of render group `group` (lowered as `ops`), each as a render pass of
/// its own over the same attachments. The first loads as the group does and the last stores and
/// resolves as it does; in between every attachment is stored, and a pass after the first
/// loads what the one before stored, except where it declares `write`: there it starts from
/// poison, so that pixels the pass leaves uncovered show. A read-only depth stays read-only.
fn split_passes(
    plan: &CompiledGraph,
    group: &Group,
    ops: &RenderOps,
    views: u32,
) -> Vec<SplitPass> {
    let last = group.passes.len() - 1;
    group
        .passes
        .iter()
        .enumerate()
        .map(|(k, &p)| {
            let decl = plan.pass_decl(p);
            let mut slots = decl.attachments();
            // The pass's own start, where it is not the group's first pass.
            let mut load = |format: wgpu::TextureFormat| -> Option<wgpu::LoadOp<ClearValue>> {
                let a = slots.next()?;
                (k > 0).then(|| match a.access {
                    Access::Write => wgpu::LoadOp::Clear(poison_value(format)),
                    Access::Clear => {
                        wgpu::LoadOp::Clear(a.clear_value(plan.resource_decl(a.resource)))
                    }
                    Access::ReadWrite | Access::Read => wgpu::LoadOp::Load,
                })
            };
            let store = |store: wgpu::StoreOp| {
                if k == last {
                    store
                } else {
                    wgpu::StoreOp::Store
                }
            };
            let color = ops
                .color
                .iter()
                .map(|c| {
                    let start = load(format_of(plan, c.resource));
                    ColorOps {
                        resolve: c.resolve.filter(|_| k == last),
                        ops: wgpu::Operations {
                            load: start.map_or(c.ops.load, |l| map_load(l, ClearValue::color)),
                            store: store(c.ops.store),
                        },
                        ..*c
                    }
                })
                .collect();
            let mut depth_of = |d: &DepthOps| {
                let start = load(format_of(plan, d.resource));
                DepthOps {
                    depth: d.depth.map(|o| wgpu::Operations {
                        load: start.map_or(o.load, |l| map_load(l, ClearValue::depth)),
                        store: store(o.store),
                    }),
                    stencil: d.stencil.map(|o| wgpu::Operations {
                        load: start.map_or(o.load, |l| map_load(l, ClearValue::stencil)),
                        store: store(o.store),
                    }),
                    ..*d
                }
            };
            let depth = ops.depth.as_ref().map(&mut depth_of);
            let depth_views = ops.depth_views.iter().map(&mut depth_of).collect();
            let mut pass_ops = RenderOps {
                color,
                depth,
                depth_views,
                multiview: None,
            };
            // Recorded as the group is: in one multiview render pass where the group is.
            if ops.multiview.is_some() {
                pass_ops.multiview = pass_ops.merged_views(views);
            }
            SplitPass {
                pass: p,
                ops: pass_ops,
            }
        })
        .collect()
}

/// The value poison fills a texture of `format` with.
fn poison_value(format: wgpu::TextureFormat) -> ClearValue {
    if format.is_depth_stencil_format() {
        POISON_DEPTH_STENCIL
    } else {
        ClearValue::Color([
            POISON_COLOR.r,
            POISON_COLOR.g,
            POISON_COLOR.b,
            POISON_COLOR.a,
        ])
    }
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
        return wgpu::LoadOp::Clear(poison_value(format));
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

/// Poison mode: the textures group `group` is the first live group to use (as an attachment, a
/// resolve target, a copy, storage or a sampled texture) whose contents are undefined there —
/// graph-owned textures (a pooled or aliased texture holds whatever its last user left) and
/// imports with undefined contents — all of their subresources. Nothing a live pass wrote is
/// overwritten: before its first use, nothing has.
fn textures_to_poison_before(plan: &CompiledGraph, group: usize) -> Vec<PoisonTarget> {
    plan.resources()
        .iter()
        .enumerate()
        .filter(|(_, r)| !r.culled && r.first_group.is_some_and(|g| g.index() == group))
        .map(|(r, _)| ResourceId::new(r))
        .filter(|&r| {
            let decl = plan.resource_decl(r);
            matches!(decl.kind, ResourceKind::Texture(_))
                && decl
                    .import
                    .is_none_or(|i| i.contents == ImportContents::Undefined)
        })
        .map(|r| PoisonTarget {
            resource: r,
            sub: None,
            label: format!("poison {}", plan.resource_name(r)),
        })
        .collect()
}

/// Poison mode: the attachments `group` discards, overwritten after it.
fn attachments_to_poison_after(
    plan: &CompiledGraph,
    group: &Group,
    label: &str,
) -> Vec<PoisonTarget> {
    group
        .attachments()
        .filter(|a| a.store == StoreOp::Discard && !a.read_only)
        .map(|a| PoisonTarget {
            resource: a.resource,
            sub: Some(a.sub),
            label: format!("poison {} after {label}", plan.resource_name(a.resource)),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::{DontCareSupport, ExecGroup, ExecuteMode, POISON_COLOR, lower};
    use crate::declare::RenderGraph;
    use crate::options::CompileOptions;
    use crate::resource::{Access, TextureDesc};

    const HDR: wgpu::TextureFormat = wgpu::TextureFormat::Rgba16Float;
    const DEPTH: wgpu::TextureFormat = wgpu::TextureFormat::Depth32Float;

    /// The groups of `graph`'s plan of the declared order, lowered for Poison mode.
    fn poison_groups(graph: &RenderGraph<'_>) -> Vec<ExecGroup> {
        let plan = graph.compile(&CompileOptions::default()).expect("compiles");
        let plan = ExecuteMode::Poison.plan_to_record(&plan);
        lower(
            plan,
            ExecuteMode::Poison,
            DontCareSupport::Native,
            true,
            &vec![false; plan.resource_decls().len()],
        )
    }

    fn loads_and_stores<T: Copy>(ops: &wgpu::Operations<T>) -> (wgpu::LoadOp<T>, wgpu::StoreOp) {
        (ops.load, ops.store)
    }

    #[test]
    fn poison_records_each_pass_of_a_group_with_its_own_start() {
        let mut graph = RenderGraph::new();
        let desc = |format| TextureDesc::new(format, 64, 64).samples(4);
        let hdr = graph.create_texture("hdr", desc(HDR));
        let depth = graph.create_texture("depth", desc(DEPTH));
        let resolved = graph.create_texture("resolved", TextureDesc::new(HDR, 64, 64));
        graph
            .add_render_pass("opaque")
            .color(hdr, Access::Clear)
            .depth(depth, Access::Clear)
            .finish();
        graph
            .add_render_pass("decals")
            .color(hdr, Access::Write)
            .depth(depth, Access::Read)
            .finish();
        graph
            .add_render_pass("sky")
            .color_resolved(hdr, Access::ReadWrite, resolved)
            .depth(depth, Access::ReadWrite)
            .finish();
        graph
            .add_compute_pass("present")
            .sample(resolved)
            .side_effects()
            .finish();
        let groups = poison_groups(&graph);
        let group = &groups[0];
        assert_eq!(group.label, "opaque+decals+sky");
        let names: Vec<_> = group.split.iter().map(|s| s.pass.index()).collect();
        assert_eq!(names, [0, 1, 2], "one render pass per pass, in order");
        let poison = wgpu::LoadOp::Clear(POISON_COLOR);
        let (store, discard) = (wgpu::StoreOp::Store, wgpu::StoreOp::Discard);
        let color: Vec<_> = group
            .split
            .iter()
            .map(|s| {
                (
                    loads_and_stores(&s.ops.color[0].ops),
                    s.ops.color[0].resolve,
                )
            })
            .collect();
        let cleared = group.ops.color[0].ops.load;
        assert!(matches!(cleared, wgpu::LoadOp::Clear(c) if c != POISON_COLOR));
        assert_eq!(
            color,
            [
                // The group's clear, stored for the next pass.
                ((cleared, store), None),
                // A `write` starts from poison.
                ((poison, store), None),
                // `read_write` loads; the group's discard and resolve end the last pass.
                ((wgpu::LoadOp::Load, discard), Some(resolved.index)),
            ]
        );
        let depth: Vec<_> = group
            .split
            .iter()
            .map(|s| loads_and_stores(&s.ops.depth.expect("depth").depth.expect("written")))
            .collect();
        assert_eq!(
            depth,
            [
                (wgpu::LoadOp::Clear(1.0), store),
                // `read` in a group that writes depth loads it.
                (wgpu::LoadOp::Load, store),
                (wgpu::LoadOp::Load, discard),
            ]
        );
        // What bundles must match is the group's.
        assert!(group.target.is_some_and(|t| t.samples == 4));
    }

    /// A prepass clears the depth; `a` (cleared colour) and `b` (written colour) test against
    /// it read, and merge; `present` samples the colour and, with `sample_depth`, the depth.
    fn prepass_then_two_depth_reads(sample_depth: bool) -> RenderGraph<'static> {
        let mut graph = RenderGraph::new();
        let color = graph.create_texture("color", TextureDesc::new(HDR, 32, 32));
        let depth = graph.create_texture("depth", TextureDesc::new(DEPTH, 32, 32));
        graph
            .add_render_pass("prepass")
            .depth(depth, Access::Clear)
            .finish();
        graph
            .add_render_pass("a")
            .color(color, Access::Clear)
            .depth(depth, Access::Read)
            .side_effects()
            .finish();
        graph
            .add_render_pass("b")
            .color(color, Access::Write)
            .depth(depth, Access::Read)
            .finish();
        let present = graph.add_compute_pass("present").sample(color);
        let present = if sample_depth {
            present.sample(depth)
        } else {
            present
        };
        present.side_effects().finish();
        graph
    }

    #[test]
    fn poison_keeps_a_read_only_depth_read_only_in_every_pass() {
        // `present` samples the depth afterwards: the group keeps it read-only.
        let graph = prepass_then_two_depth_reads(true);
        let groups = poison_groups(&graph);
        let group = groups
            .iter()
            .find(|g| g.label == "a+b")
            .expect("a and b merge");
        assert_eq!(group.split.len(), 2);
        for split in &group.split {
            let d = split.ops.depth.expect("depth attached");
            assert_eq!((d.depth, d.stencil), (None, None), "read-only");
        }
        let b = &group.split[1].ops.color[0].ops;
        assert_eq!(b.load, wgpu::LoadOp::Clear(POISON_COLOR));
        // The prepass is the depth's first use: poisoned there, never before `a`.
        let first_use: Vec<_> = groups
            .iter()
            .map(|g| {
                let poisoned = g.poison_before.iter().map(|p| p.label.as_str());
                poisoned.collect::<Vec<_>>()
            })
            .collect();
        assert_eq!(
            first_use,
            [vec!["poison depth"], vec!["poison color"], vec![]]
        );
    }

    #[test]
    fn poison_carries_a_discarded_read_depth_through_the_group_s_passes() {
        // Nothing reads the depth after `a` and `b`: the group loads and discards it, and split
        // for poisoning, `a` stores it for `b`, which discards it.
        let graph = prepass_then_two_depth_reads(false);
        let groups = poison_groups(&graph);
        let group = groups
            .iter()
            .find(|g| g.label == "a+b")
            .expect("a and b merge");
        let ops: Vec<_> = group
            .split
            .iter()
            .map(|s| {
                let d = s
                    .ops
                    .depth
                    .expect("depth attached")
                    .depth
                    .expect("not read-only");
                (d.load, d.store)
            })
            .collect();
        assert_eq!(
            ops,
            [
                (wgpu::LoadOp::Load, wgpu::StoreOp::Store),
                (wgpu::LoadOp::Load, wgpu::StoreOp::Discard)
            ]
        );
    }
}

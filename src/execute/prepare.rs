//! Prepared plans: a plan lowered for one mode, kept across frames with the pool entries its
//! physical resources are bound to, so that a steady frame neither lowers nor binds again.

use super::history::HistoryUse;
use super::limits::{
    check_histories, check_limits, check_multiview, check_requirements, note_multiview,
};
use super::lower::{ExecGroup, lower};
use super::parallel::Chunks;
use super::tables::Slot;
use super::{ExecuteError, ExecuteMode, Executor};
use crate::context::ViewKind;
use crate::decl::PassRef;
use crate::decl::resource::ResourceKind;
use crate::ids::ResourceId;
use crate::options::CompileOptions;
use crate::plan::CompiledGraph;
use crate::resource::{Subresource, SubresourceRange};

/// A plan lowered for one mode, with the pool entries its physical resources are bound to.
pub(super) struct Prepared {
    /// The [`CompiledGraph::id`] of the plan last found lowered here.
    pub plan_id: u64,
    pub fingerprint: u128,
    pub options: CompileOptions,
    pub mode: ExecuteMode,
    pub groups: Vec<ExecGroup>,
    /// Per physical resource: its pool entry (texture or buffer index), valid for `generation`.
    pub bound: Vec<u32>,
    /// Per resource: its slot where it is pooled, culled or a live history half, valid for
    /// `generation` and `histories_bound`; imports are bound over it every frame.
    pub slots: Vec<Slot>,
    /// The live imports, which every frame binds from its `Imports`.
    pub imports: Vec<ResourceId>,
    pub generation: Option<u64>,
    /// Per history the graph declares, its pair and its live halves; valid for the executor's
    /// `history_generation` in `histories_bound`.
    pub histories: Vec<HistoryUse>,
    pub histories_bound: Option<u64>,
    pub last_used: u64,
    /// With recording threads: the runs of consecutive groups recorded apart.
    pub chunks: Chunks,
    /// The views of ranges the plan's passes use: the 2D-array views multiview render passes
    /// attach and the ranges list entries name.
    pub layer_views: Vec<(ResourceId, SubresourceRange)>,
    /// The label of the encoder a frame is recorded into on one thread.
    pub encoder_label: String,
    /// Per resource: a multisampled array kept as one texture per layer, whose passes are
    /// recorded per view.
    pub split: Vec<bool>,
}

/// Plans kept lowered at once (a renderer alternating between a few graph shapes keeps hitting).
pub(super) const PREPARED_CAPACITY: usize = 4;

impl Executor {
    /// Where `plan` is already lowered for `mode`: where the same plan was found last, or
    /// else where one of the same fingerprint and options was.
    pub(super) fn prepared_index(&self, plan: &CompiledGraph, mode: ExecuteMode) -> Option<usize> {
        let found = |p: &Prepared| p.plan_id == plan.id && p.mode == mode;
        self.prepared.iter().position(found).or_else(|| {
            self.prepared.iter().position(|p| {
                p.fingerprint == plan.fingerprint()
                    && p.options == *plan.options()
                    && p.mode == mode
            })
        })
    }

    /// Lowers the plan for the mode, or finds it lowered; returns its index in `self.prepared`.
    /// A plan is checked against the device's limits when it is first lowered.
    pub(super) fn prepare(
        &mut self,
        plan: &CompiledGraph,
        mode: ExecuteMode,
    ) -> Result<usize, ExecuteError> {
        match self.prepared_index(plan, mode) {
            Some(i) => {
                self.prepared[i].plan_id = plan.id;
                Ok(i)
            }
            None => self.prepare_new(plan, mode),
        }
    }

    /// Checks and lowers a plan not prepared yet.
    fn prepare_new(
        &mut self,
        plan: &CompiledGraph,
        mode: ExecuteMode,
    ) -> Result<usize, ExecuteError> {
        let limits = self.device.limits();
        check_limits(plan, &limits)?;
        check_histories(plan, &limits)?;
        let downlevel = self
            .options
            .downlevel_flags
            .unwrap_or(self.quirks.assumed_downlevel_flags);
        check_requirements(plan, &self.device, downlevel)?;
        if !self.multiview_enabled() {
            note_multiview(plan, &self.device, self.options.multiview);
        }
        if self.quirks.probe_views {
            self.check_gl_views(plan)?;
        }
        if self.quirks.probe_bindings {
            self.check_gl_bindings(plan)?;
        }
        let split = self.split_arrays(plan, mode);
        let groups = lower(
            plan,
            mode,
            self.quirks.dont_care,
            self.multiview_enabled(),
            &split,
        );
        check_multiview(&groups, &limits)?;
        let chunks = Chunks::new(&groups, self.recording_threads(), plan.passes().len());
        let prepared = Prepared {
            plan_id: plan.id,
            fingerprint: plan.fingerprint(),
            options: *plan.options(),
            mode,
            layer_views: layer_views(plan, &groups),
            encoder_label: encoder_label(&groups),
            split,
            groups,
            bound: Vec::new(),
            slots: Vec::new(),
            imports: live_imports(plan),
            generation: None,
            histories: Vec::new(),
            histories_bound: None,
            last_used: self.frame,
            chunks,
        };
        if self.prepared.len() < PREPARED_CAPACITY {
            self.prepared.push(prepared);
            Ok(self.prepared.len() - 1)
        } else {
            let oldest = (0..self.prepared.len())
                .min_by_key(|&i| self.prepared[i].last_used)
                .unwrap_or(0);
            self.prepared[oldest] = prepared;
            Ok(oldest)
        }
    }

    /// Per resource: whether a multisampled array is kept as one texture per layer, as render
    /// passes of one view attach them (resolving from a layer of a multisampled array loses the
    /// resolve on lavapipe). Every one where multiview does not record them (no multiview, no
    /// `Features::MULTISAMPLE_ARRAY`); where the device resolves nothing from a multiview pass
    /// past layer 0 (the start-up probe), those a multiview group attaches past layer 0.
    fn split_arrays(&mut self, plan: &CompiledGraph, mode: ExecuteMode) -> Vec<bool> {
        let groups = match mode {
            ExecuteMode::Naive => plan.naive_groups(),
            ExecuteMode::Planned | ExecuteMode::Poison => plan.groups(),
        };
        let msaa_array = |r: ResourceId| {
            matches!(plan.resource_decl(r).kind,
                ResourceKind::Texture(t) if t.samples > 1 && t.layers > 1)
        };
        if self.quirks.split_multisampled_arrays {
            return (0..plan.resource_decls().len())
                .map(|r| msaa_array(ResourceId::new(r)))
                .collect();
        }
        let mut split = vec![false; plan.resource_decls().len()];
        for g in groups.iter().filter(|g| g.views() > 1) {
            for a in g.attachments() {
                if msaa_array(a.resource) && a.sub.layer >= g.views() {
                    split[a.resource.index()] = true;
                }
            }
        }
        if split.iter().any(|&s| s)
            && !self
                .quirks
                .later_layers_resolve_nothing(&self.device, &self.queue)
        {
            split.fill(false);
        }
        split
    }
}

impl Executor {
    /// On GL: a live pass that reads two textures (or two uniform buffers) where the device
    /// reads every one of a draw from the first binding (the probe) is refused, naming the
    /// pass and the second resource, instead of rendering an image that silently differs.
    fn check_gl_bindings(&mut self, plan: &CompiledGraph) -> Result<(), ExecuteError> {
        for decl in live_passes(plan) {
            let textures = second_resource(decl.sample().iter().chain(decl.input()));
            let uniforms = second_resource(decl.uniform().iter());
            if textures.is_none() && uniforms.is_none() {
                continue;
            }
            let defects = self.quirks.binding_defects(&self.device, &self.queue);
            let refused = match (textures, uniforms) {
                (Some(r), _) if defects.textures => Some((r, "texture", "textures")),
                (_, Some(r)) if defects.uniforms => Some((r, "uniform buffer", "uniform buffers")),
                _ => None,
            };
            if let Some((r, one, several)) = refused {
                return Err(ExecuteError::Unsupported {
                    pass: decl.name().to_string(),
                    resource: plan.resource_name(r).to_owned(),
                    message: format!(
                        "on this adapter ({}) wgpu's GL backend reads every {one} a shader binds from the first binding (a desktop GL 3.3 context whose driver lists compute shaders: no binding numbers in the shaders and none assigned), so a pass reading two {several} reads one twice; use the Vulkan backend there",
                        self.device.adapter_info().name
                    ),
                });
            }
        }
        Ok(())
    }
}

impl Executor {
    /// On GL: decides which kinds of view the device's shaders read wrongly (the view probe),
    /// the first time a plan has a shader read of anything but a whole texture, and refuses a
    /// live pass sampling a range of several subresources of a kind read wrongly, naming the
    /// pass, the resource and the view: such a range is bound only through
    /// [`PassContext::view`](crate::PassContext::view). A single subresource, or a whole
    /// texture of six square layers, may be bound through a view of another dimension
    /// (`Binding::MipAs`, `Binding::TextureAs`): the context refuses those when they are bound.
    fn check_gl_views(&mut self, plan: &CompiledGraph) -> Result<(), ExecuteError> {
        for decl in live_passes(plan) {
            for e in decl.sample().iter().chain(decl.input()) {
                let ResourceKind::Texture(t) = plan.resource_decl(e.resource).kind else {
                    continue;
                };
                let Some(kind) = ViewKind::of(t, e.range, None) else {
                    continue;
                };
                let defects = self.quirks.view_defects(&self.device, &self.queue);
                let range_only = !e.range.is_all() && e.range.single().is_none();
                if range_only && defects.reads_wrongly(kind) {
                    return Err(ExecuteError::Unsupported {
                        pass: decl.name().to_string(),
                        resource: plan.resource_name(e.resource).to_owned(),
                        message: kind.refusal(&self.device.adapter_info().name),
                    });
                }
            }
        }
        Ok(())
    }
}

/// The second distinct resource of a pass's list, if it names two.
fn second_resource<'e>(
    entries: impl Iterator<Item = &'e crate::decl::pass::Entry>,
) -> Option<ResourceId> {
    let mut first = None;
    for e in entries {
        match first {
            None => first = Some(e.resource),
            Some(f) if f != e.resource => return Some(e.resource),
            Some(_) => {}
        }
    }
    None
}

/// Every 2D-array view the groups recorded as one multiview render pass attach (in Poison mode,
/// their passes recorded apart), and every range of several subresources a live pass's list
/// names, once each.
fn layer_views(plan: &CompiledGraph, groups: &[ExecGroup]) -> Vec<(ResourceId, SubresourceRange)> {
    let mut out = Vec::new();
    let live = plan
        .pass_decls()
        .iter()
        .zip(plan.passes())
        .filter(|(_, p)| !p.culled);
    for (decl, _) in live {
        for (_, e) in decl.entries() {
            let view = (e.resource, e.range);
            if !e.range.is_all() && e.range.single().is_none() && !out.contains(&view) {
                out.push(view);
            }
        }
    }
    for group in groups {
        let ops = std::iter::once(&group.ops).chain(group.split.iter().map(|s| &s.ops));
        for mv in ops.filter_map(|o| o.multiview.as_ref()) {
            let colors = mv.color.iter().flat_map(|c| {
                let resolve = c.resolve.map(|t| (t, Subresource::BASE));
                [Some((c.resource, c.sub)), resolve]
            });
            let depth = mv.depth.map(|d| (d.resource, d.sub));
            for (resource, sub) in colors.chain([depth]).flatten() {
                let range = SubresourceRange {
                    mips: Some((sub.mip, 1)),
                    layers: Some((sub.layer, group.views)),
                };
                let view = (resource, range);
                if !out.contains(&view) {
                    out.push(view);
                }
            }
        }
    }
    out
}

/// The label of an encoder that records `groups`: the frame's span of groups, `first .. last`.
pub(super) fn encoder_label(groups: &[ExecGroup]) -> String {
    match groups {
        [] => "tilegraph frame".to_owned(),
        [one] => format!("frame {}", one.label),
        [first, .., last] => format!("frame {} .. {}", first.label, last.label),
    }
}

/// The declarations of the passes `plan` does not cull.
fn live_passes(plan: &CompiledGraph) -> impl Iterator<Item = PassRef<'_>> {
    plan.pass_decls()
        .iter()
        .zip(plan.passes())
        .filter(|(_, p)| !p.culled)
        .map(|(decl, _)| decl)
}

/// The imports a frame of `plan` binds from its `Imports`: the live ones but history halves
/// (declared as imports, and the executor's own).
fn live_imports(plan: &CompiledGraph) -> Vec<ResourceId> {
    let bound = |r: usize| {
        let decl = &plan.resource_decls()[r];
        !plan.resources()[r].culled && decl.import.is_some() && decl.history.is_none()
    };
    (0..plan.resources().len())
        .filter(|&r| bound(r))
        .map(ResourceId::new)
        .collect()
}

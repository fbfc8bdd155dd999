//! One frame's recording: where each resource's wgpu objects are, and the recording of one
//! group: one wgpu pass (or one per view) with the closures of its passes called in it.

use super::ExecuteError;
use super::history::HistoryPair;
use super::imports::Imports;
use super::lower::{
    ExecGroup, Invalidation, POISON_COLOR, POISON_DEPTH, POISON_STENCIL, PoisonTarget, RenderOps,
};
use super::pool::{Pool, TextureViews};
use super::timer::{DynTimer, GroupScope, PassRecorder, TimedGroup};
use super::timing::FrameQueries;
use crate::context::{FrameResources, PassContext, PassError, RenderTarget, Views};
use crate::declare::{ComputeCallback, CopyCallback, PassCallback, RenderCallback};
use crate::resource::{
    PassDecl, PassId, PassKind, ResourceDecl, ResourceId, Subresource, SubresourceRange,
};

/// Where this frame finds a resource.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Slot {
    /// Culled: nothing behind it.
    Unbound,
    PoolTexture(u32),
    PoolBuffer(u32),
    ImportTexture,
    ImportBuffer,
    /// A history's `previous` (false) or `current` (true) texture.
    History(u32, bool),
}

/// The view of a range of `resource`'s mips and layers that a pass of this frame uses: a
/// multiview attachment (a 2D-array view of layers of one mip) or a sampled range.
pub(super) struct LayerView {
    pub resource: ResourceId,
    pub range: SubresourceRange,
    pub view: wgpu::TextureView,
}

/// The frame's lookup tables: where each resource's wgpu object is.
#[derive(Clone, Copy)]
pub(super) struct Tables<'f> {
    pub device: &'f wgpu::Device,
    pub queue: &'f wgpu::Queue,
    pub slots: &'f [Slot],
    pub pool: &'f Pool,
    pub imports: &'f Imports,
    pub histories: &'f [HistoryPair],
    pub layer_views: &'f [LayerView],
    pub graph: u32,
    pub resources: &'f [ResourceDecl],
}

impl<'f> Tables<'f> {
    fn texture_and_views(&self, r: ResourceId) -> Option<(&'f wgpu::Texture, &'f TextureViews)> {
        match *self.slots.get(r.index())? {
            Slot::PoolTexture(i) => {
                let t = &self.pool.textures[i as usize];
                Some((&t.texture, &t.views))
            }
            Slot::ImportTexture => self.imports.texture_at(r).map(|(t, v)| (t, v)),
            Slot::History(h, current) => {
                let pair = &self.histories[h as usize];
                let (t, v) = if current {
                    pair.current()
                } else {
                    pair.previous()
                };
                Some((t, v))
            }
            _ => None,
        }
    }

    pub(super) fn attachment_view(&self, r: ResourceId, sub: Subresource) -> &'f wgpu::TextureView {
        self.texture_and_views(r)
            .and_then(|(_, v)| v.get(Some(sub)))
            .expect("attachments of live groups are bound")
    }

    /// The 2D-array view of `count` layers from `sub` (at its mip): a multiview attachment,
    /// made when the frame was bound.
    fn layers_view(&self, r: ResourceId, sub: Subresource, count: u32) -> &'f wgpu::TextureView {
        let range = SubresourceRange {
            mips: Some((sub.mip, 1)),
            layers: Some((sub.layer, count)),
        };
        self.range_view(r, range)
            .expect("multiview attachments are bound")
    }

    /// The view of a range that a pass of the frame uses, made when the frame was bound.
    fn range_view(&self, r: ResourceId, range: SubresourceRange) -> Option<&'f wgpu::TextureView> {
        let found = self
            .layer_views
            .iter()
            .find(|l| l.resource == r && l.range == range);
        found.map(|l| &l.view)
    }

    /// What the closure of `pass` sees, recording `views`.
    fn context<'c>(
        &'c self,
        pass: &'c PassDecl,
        views: Views,
        target: Option<RenderTarget>,
    ) -> PassContext<'c> {
        PassContext {
            device: self.device,
            queue: self.queue,
            graph: self.graph,
            pass,
            resources: self.resources,
            frame: self,
            views,
            target,
        }
    }
}

impl FrameResources for Tables<'_> {
    fn texture(&self, r: ResourceId) -> Option<&wgpu::Texture> {
        self.texture_and_views(r).map(|(t, _)| t)
    }

    fn view(&self, r: ResourceId, range: SubresourceRange) -> Option<&wgpu::TextureView> {
        if range.is_all() {
            return self.texture_and_views(r).map(|(_, v)| &v.whole);
        }
        match range.single() {
            Some(sub) => self
                .texture_and_views(r)
                .and_then(|(_, v)| v.get(Some(sub))),
            None => self.range_view(r, range),
        }
    }

    fn buffer(&self, r: ResourceId) -> Option<&wgpu::Buffer> {
        match *self.slots.get(r.index())? {
            Slot::PoolBuffer(i) => Some(&self.pool.buffers[i as usize].buffer),
            Slot::ImportBuffer => self.imports.buffer_at(r),
            _ => None,
        }
    }

    fn history_valid(&self, r: ResourceId) -> bool {
        match self.slots.get(r.index()) {
            Some(&Slot::History(h, false)) => self.histories[h as usize].valid(),
            _ => false,
        }
    }
}

/// Where the recording loop finds a pass's closure: the graph's whole table when the frame is
/// recorded on one thread, or the closures of one chunk of groups on a recording thread.
pub(super) trait Callbacks<'a> {
    fn get(&mut self, pass: PassId) -> Option<&mut PassCallback<'a>>;
}

impl<'a> Callbacks<'a> for [Option<PassCallback<'a>>] {
    fn get(&mut self, pass: PassId) -> Option<&mut PassCallback<'a>> {
        self.get_mut(pass.index())?.as_mut()
    }
}

/// What the closures of a group's passes record into: the open render pass, the open compute
/// pass, or the encoder itself for copy passes. [`Frame::call_passes`] calls every kind of
/// closure through it.
trait Target {
    /// The kind of pass, as [`ExecuteError::CallbackMismatch`] names it.
    const KIND: &'static str;
    /// The closures that record into this target.
    type Callback<'a>;
    /// The pass's closure, if it is of this target's kind.
    fn callback<'c, 'a>(callback: &'c mut PassCallback<'a>) -> Option<&'c mut Self::Callback<'a>>;
    fn call(&mut self, f: &mut Self::Callback<'_>, ctx: &PassContext<'_>) -> Result<(), PassError>;
    /// What a [`GroupTimer`](super::GroupTimer)'s pass scope records into.
    fn recorder(&mut self) -> PassRecorder<'_>;
    fn push_debug_group(&mut self, label: &str);
    fn pop_debug_group(&mut self);
}

impl Target for wgpu::RenderPass<'static> {
    const KIND: &'static str = "render";
    type Callback<'a> = RenderCallback<'a>;

    fn callback<'c, 'a>(callback: &'c mut PassCallback<'a>) -> Option<&'c mut RenderCallback<'a>> {
        match callback {
            PassCallback::Render(f) => Some(f),
            _ => None,
        }
    }

    fn call(&mut self, f: &mut RenderCallback<'_>, ctx: &PassContext<'_>) -> Result<(), PassError> {
        f(self, ctx)
    }

    fn recorder(&mut self) -> PassRecorder<'_> {
        PassRecorder::Render(self)
    }

    fn push_debug_group(&mut self, label: &str) {
        wgpu::RenderPass::push_debug_group(self, label);
    }

    fn pop_debug_group(&mut self) {
        wgpu::RenderPass::pop_debug_group(self);
    }
}

impl Target for wgpu::ComputePass<'static> {
    const KIND: &'static str = "compute";
    type Callback<'a> = ComputeCallback<'a>;

    fn callback<'c, 'a>(callback: &'c mut PassCallback<'a>) -> Option<&'c mut ComputeCallback<'a>> {
        match callback {
            PassCallback::Compute(f) => Some(f),
            _ => None,
        }
    }

    fn call(
        &mut self,
        f: &mut ComputeCallback<'_>,
        ctx: &PassContext<'_>,
    ) -> Result<(), PassError> {
        f(self, ctx)
    }

    fn recorder(&mut self) -> PassRecorder<'_> {
        PassRecorder::Compute(self)
    }

    fn push_debug_group(&mut self, label: &str) {
        wgpu::ComputePass::push_debug_group(self, label);
    }

    fn pop_debug_group(&mut self) {
        wgpu::ComputePass::pop_debug_group(self);
    }
}

impl Target for wgpu::CommandEncoder {
    const KIND: &'static str = "copy";
    type Callback<'a> = CopyCallback<'a>;

    fn callback<'c, 'a>(callback: &'c mut PassCallback<'a>) -> Option<&'c mut CopyCallback<'a>> {
        match callback {
            PassCallback::Copy(f) => Some(f),
            _ => None,
        }
    }

    fn call(&mut self, f: &mut CopyCallback<'_>, ctx: &PassContext<'_>) -> Result<(), PassError> {
        f(self, ctx)
    }

    fn recorder(&mut self) -> PassRecorder<'_> {
        PassRecorder::Encoder(self)
    }

    fn push_debug_group(&mut self, label: &str) {
        wgpu::CommandEncoder::push_debug_group(self, label);
    }

    fn pop_debug_group(&mut self) {
        wgpu::CommandEncoder::pop_debug_group(self);
    }
}

/// Calls one closure; a panic in it becomes [`ExecuteError::PassPanicked`], so that a frame
/// recorded on worker threads fails like one recorded on the caller's.
fn call_guarded(
    name: &str,
    closure: impl FnOnce() -> Result<(), PassError>,
) -> Result<(), ExecuteError> {
    // The frame is abandoned after a panic, so nothing the closure left half-done is used.
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(closure)) {
        Ok(result) => result.map_err(|source| ExecuteError::Pass {
            pass: name.to_owned(),
            source,
        }),
        Err(payload) => Err(ExecuteError::PassPanicked {
            pass: name.to_owned(),
            message: panic_message(&*payload),
        }),
    }
}

fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_owned()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "a panic with a payload that is not a string".to_owned()
    }
}

/// What recording a group reads: the same for every group of the frame, and shared by every
/// recording thread of it.
#[derive(Clone, Copy)]
pub(super) struct Frame<'f> {
    pub tables: Tables<'f>,
    /// The graph's passes.
    pub passes: &'f [PassDecl],
    pub timestamps: Option<FrameQueries<'f>>,
    /// The caller's timer ([`Executor::execute_timed`](super::Executor::execute_timed)); the
    /// executor's own timestamps are off when there is one.
    pub timer: Option<&'f dyn DynTimer>,
    pub debug_groups: bool,
    /// Resolve into a layer past the first of an array through a single-layer texture and a
    /// copy: lavapipe resolves into layer 0 whatever layer the view names.
    pub resolve_layers_via_copy: bool,
}

impl Frame<'_> {
    /// Calls the closures of `passes` on the open `target`, each inside a debug group named
    /// after the pass (and the group timer's pass scope), each seeing `views`.
    #[allow(clippy::too_many_arguments)]
    fn call_passes<'a, T: Target>(
        &self,
        passes: &[PassId],
        callbacks: &mut (impl Callbacks<'a> + ?Sized),
        target: &mut T,
        views: Views,
        render_target: Option<RenderTarget>,
        scope: Option<&dyn GroupScope>,
    ) -> Result<(), ExecuteError> {
        for &p in passes {
            let decl = &self.passes[p.index()];
            let name = &*decl.name;
            let callback = callbacks
                .get(p)
                .ok_or_else(|| ExecuteError::MissingCallback {
                    pass: name.to_owned(),
                })?;
            let found = kind_of(callback);
            let f = T::callback(callback).ok_or_else(|| ExecuteError::CallbackMismatch {
                pass: name.to_owned(),
                expected: T::KIND,
                found,
            })?;
            let ctx = self.tables.context(decl, views, render_target);
            if self.debug_groups {
                target.push_debug_group(name);
            }
            let pass_scope = scope.and_then(|s| s.begin_pass(name, target.recorder()));
            let called = call_guarded(name, || target.call(f, &ctx));
            // Closed whatever the closure returned: a profiler counts the scopes it opened.
            if let Some(end) = pass_scope {
                end(target.recorder());
            }
            called?;
            if self.debug_groups {
                target.pop_debug_group();
            }
        }
        Ok(())
    }
}

/// Which of a render group's wgpu render passes write its start and end timestamps: the first
/// writes the start, the last the end, the ones between none.
struct GroupTimestamps<'q> {
    writes: Option<wgpu::RenderPassTimestampWrites<'q>>,
    /// Render passes of the group: its invalidations and its one pass or one per view.
    total: usize,
    recorded: usize,
}

impl<'q> GroupTimestamps<'q> {
    /// The timestamp writes of the group's next render pass.
    fn next(&mut self) -> Option<wgpu::RenderPassTimestampWrites<'q>> {
        let i = self.recorded;
        self.recorded += 1;
        let t = self.writes.as_mut()?;
        let begin = (i == 0)
            .then(|| t.beginning_of_pass_write_index.take())
            .flatten();
        let end = (i + 1 == self.total)
            .then(|| t.end_of_pass_write_index.take())
            .flatten();
        (begin.is_some() || end.is_some()).then_some(wgpu::RenderPassTimestampWrites {
            query_set: t.query_set,
            beginning_of_pass_write_index: begin,
            end_of_pass_write_index: end,
        })
    }
}

/// What one recording of a render group's attachments holds: the whole group, or in Poison
/// mode one of its passes.
struct Recording<'g> {
    ops: &'g RenderOps,
    /// The passes whose closures it calls.
    passes: &'g [PassId],
    label: &'g str,
    /// Whether the group's invalidations come first (its first recording).
    invalidate: bool,
}

/// Records groups into one encoder.
pub(super) struct Recorder<'r, 'e> {
    pub frame: Frame<'r>,
    pub encoder: &'e mut wgpu::CommandEncoder,
}

impl<'r> Recorder<'r, '_> {
    /// Overwrites these textures (every subresource, or one attachment's) with poison: one
    /// clearing pass each.
    fn poison_textures(&mut self, targets: &[PoisonTarget]) {
        for target in targets {
            let Some((texture, views)) = self.frame.tables.texture_and_views(target.resource)
            else {
                continue;
            };
            match target.sub {
                None => {
                    for view in views.subresources() {
                        self.poison(texture, view, &target.label);
                    }
                }
                Some(sub) => {
                    if let Some(view) = views.get(Some(sub)) {
                        self.poison(texture, view, &target.label);
                    }
                }
            }
        }
    }

    fn poison(&mut self, texture: &wgpu::Texture, view: &wgpu::TextureView, label: &str) {
        let format = texture.format();
        if !texture
            .usage()
            .contains(wgpu::TextureUsages::RENDER_ATTACHMENT)
        {
            return;
        }
        let color = [Some(wgpu::RenderPassColorAttachment {
            view,
            depth_slice: None,
            resolve_target: None,
            ops: wgpu::Operations {
                load: wgpu::LoadOp::Clear(POISON_COLOR),
                store: wgpu::StoreOp::Store,
            },
        })];
        let is_depth = format.is_depth_stencil_format();
        let depth = is_depth.then(|| wgpu::RenderPassDepthStencilAttachment {
            view,
            depth_ops: format.has_depth_aspect().then_some(wgpu::Operations {
                load: wgpu::LoadOp::Clear(POISON_DEPTH),
                store: wgpu::StoreOp::Store,
            }),
            stencil_ops: format.has_stencil_aspect().then_some(wgpu::Operations {
                load: wgpu::LoadOp::Clear(POISON_STENCIL),
                store: wgpu::StoreOp::Store,
            }),
        });
        let _ = self.encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
            label: Some(label),
            color_attachments: if is_depth { &[] } else { &color },
            depth_stencil_attachment: depth,
            ..Default::default()
        });
    }

    /// Records group `index` of the frame: its poison (Poison mode), the group inside the
    /// caller's timer scope if there is one, the poison after.
    pub(super) fn group<'a>(
        &mut self,
        index: usize,
        group: &ExecGroup,
        callbacks: &mut (impl Callbacks<'a> + ?Sized),
    ) -> Result<(), ExecuteError> {
        self.poison_textures(&group.poison_before);
        match self.frame.timer {
            Some(timer) => {
                let timed = TimedGroup {
                    index,
                    label: &group.label,
                    kind: group.kind,
                };
                let scope = timer.begin_group(&timed, self.encoder);
                let recorded = self.group_passes(index, group, callbacks, Some(&*scope));
                // Closed also after a failure: a profiler counts the scopes it opened.
                scope.end(self.encoder);
                recorded?;
            }
            None => self.group_passes(index, group, callbacks, None)?,
        }
        self.poison_textures(&group.poison_after);
        Ok(())
    }

    /// Records the wgpu passes of a group.
    fn group_passes<'a>(
        &mut self,
        index: usize,
        group: &ExecGroup,
        callbacks: &mut (impl Callbacks<'a> + ?Sized),
        scope: Option<&dyn GroupScope>,
    ) -> Result<(), ExecuteError> {
        match group.kind {
            PassKind::Render => self.render_group(index, group, callbacks, scope),
            PassKind::Compute => self.compute_group(index, group, callbacks, scope),
            PassKind::Copy => {
                let frame = self.frame;
                frame.call_passes(
                    &group.passes,
                    callbacks,
                    &mut *self.encoder,
                    Views::One,
                    None,
                    scope,
                )
            }
        }
    }

    /// Records the invalidations before view `view` of a render group (all of them when
    /// `None`: before one multiview render pass).
    fn invalidate_before(
        &mut self,
        group: &ExecGroup,
        view: Option<u32>,
        timestamps: &mut GroupTimestamps<'_>,
    ) {
        for invalidation in &group.invalidate_before {
            if view.is_some_and(|v| v != invalidation.view) {
                continue;
            }
            let label = self.frame.debug_groups.then_some(&*invalidation.label);
            let writes = timestamps.next();
            invalidate(self.encoder, self.frame.tables, label, invalidation, writes);
        }
    }

    /// Records a render group: its invalidations, then one render pass (or one per view) for
    /// the whole group, or in Poison mode one for each of its passes in turn.
    fn render_group<'a>(
        &mut self,
        index: usize,
        group: &ExecGroup,
        callbacks: &mut (impl Callbacks<'a> + ?Sized),
        scope: Option<&dyn GroupScope>,
    ) -> Result<(), ExecuteError> {
        let views = group.views;
        // Render passes per set of ops: one, or one per view.
        let passes = |ops: &RenderOps| {
            if ops.multiview.is_some() {
                1
            } else {
                views as usize
            }
        };
        let recorded = match group.split.is_empty() {
            true => passes(&group.ops),
            false => group.split.iter().map(|s| passes(&s.ops)).sum(),
        };
        // The group's time spans its invalidations and every render pass of it.
        let writes = match scope {
            Some(scope) => scope.render_writes(),
            None => self.frame.timestamps.and_then(|t| t.render(index)),
        };
        let mut timestamps = GroupTimestamps {
            writes,
            total: group.invalidate_before.len() + recorded,
            recorded: 0,
        };
        if group.split.is_empty() {
            let whole = Recording {
                ops: &group.ops,
                passes: &group.passes,
                label: &group.label,
                invalidate: true,
            };
            return self.render_passes(group, whole, &mut timestamps, callbacks, scope);
        }
        let frame = self.frame;
        for (k, split) in group.split.iter().enumerate() {
            let one = Recording {
                ops: &split.ops,
                passes: std::slice::from_ref(&split.pass),
                label: &frame.passes[split.pass.index()].name,
                invalidate: k == 0,
            };
            self.render_passes(group, one, &mut timestamps, callbacks, scope)?;
        }
        Ok(())
    }

    /// Records one render pass over all views of `group` (`ops.multiview`), or one per view,
    /// as `recording` says.
    fn render_passes<'a>(
        &mut self,
        group: &ExecGroup,
        recording: Recording<'_>,
        timestamps: &mut GroupTimestamps<'_>,
        callbacks: &mut (impl Callbacks<'a> + ?Sized),
        scope: Option<&dyn GroupScope>,
    ) -> Result<(), ExecuteError> {
        let Recording {
            ops,
            passes,
            label,
            invalidate,
        } = recording;
        let frame = self.frame;
        let views = group.views;
        if let Some(mv) = &ops.multiview {
            // Every view's invalidation before the one multiview render pass.
            if invalidate {
                self.invalidate_before(group, None, timestamps);
            }
            let tables = frame.tables;
            let mut color: [Option<wgpu::RenderPassColorAttachment<'_>>; 8] = Default::default();
            for (slot, c) in mv.color.iter().enumerate() {
                color[slot] = Some(wgpu::RenderPassColorAttachment {
                    view: tables.layers_view(c.resource, c.sub, views),
                    depth_slice: None,
                    resolve_target: c
                        .resolve
                        .map(|t| tables.layers_view(t, Subresource::BASE, views)),
                    ops: c.ops,
                });
            }
            let depth = mv.depth.map(|d| wgpu::RenderPassDepthStencilAttachment {
                view: tables.layers_view(d.resource, d.sub, views),
                depth_ops: d.depth,
                stencil_ops: d.stencil,
            });
            let views = Views::Multiview { count: views };
            let mut rpass = self
                .encoder
                .begin_render_pass(&wgpu::RenderPassDescriptor {
                    label: Some(label),
                    color_attachments: &color[..mv.color.len()],
                    depth_stencil_attachment: depth,
                    timestamp_writes: timestamps.next(),
                    multiview_mask: views.multiview_mask(),
                    ..Default::default()
                })
                .forget_lifetime();
            return frame.call_passes(passes, callbacks, &mut rpass, views, group.target, scope);
        }
        let slots = ops.color.len() / views as usize;
        for view in 0..views {
            // Each view's invalidation right before its render pass.
            if invalidate {
                self.invalidate_before(group, Some(view), timestamps);
            }
            let target = Subresource {
                mip: 0,
                layer: view,
            };
            // Per colour slot of this view: where its resolve goes through a texture of one
            // layer, (scratch, target) (an import without COPY_DST is resolved into as it is).
            let of_view = || ops.color.iter().skip(view as usize).step_by(views as usize);
            // Empty (no allocation) where resolves land in their layer directly.
            let detours: Vec<Option<Detour<'_>>> = if frame.resolve_layers_via_copy && view > 0 {
                of_view()
                    .map(|c| Detour::of(frame.tables, c.resolve?))
                    .collect()
            } else {
                Vec::new()
            };
            // wgpu allows at most eight colour attachments; the compiler enforces it.
            let mut color: [Option<wgpu::RenderPassColorAttachment<'_>>; 8] = Default::default();
            for (slot, c) in of_view().enumerate() {
                color[slot] = Some(wgpu::RenderPassColorAttachment {
                    view: frame.tables.attachment_view(c.resource, c.sub),
                    depth_slice: None,
                    resolve_target: c.resolve.map(|t| {
                        match detours.get(slot).and_then(Option::as_ref) {
                            Some(detour) => &detour.view,
                            None => frame.tables.attachment_view(t, target),
                        }
                    }),
                    ops: c.ops,
                });
            }
            let depth = ops
                .depth
                .iter()
                .chain(&ops.depth_views)
                .nth(view as usize)
                .map(|d| wgpu::RenderPassDepthStencilAttachment {
                    view: frame.tables.attachment_view(d.resource, d.sub),
                    depth_ops: d.depth,
                    stencil_ops: d.stencil,
                });
            let writes = timestamps.next();
            let mut rpass = self
                .encoder
                .begin_render_pass(&wgpu::RenderPassDescriptor {
                    label: Some(label),
                    color_attachments: &color[..slots],
                    depth_stencil_attachment: depth,
                    timestamp_writes: writes,
                    ..Default::default()
                })
                .forget_lifetime();
            let views = match views {
                1 => Views::One,
                count => Views::PerView { view, count },
            };
            frame.call_passes(passes, callbacks, &mut rpass, views, group.target, scope)?;
            drop(rpass);
            for Detour {
                scratch,
                target: texture,
                ..
            } in detours.iter().flatten()
            {
                self.encoder.copy_texture_to_texture(
                    scratch.as_image_copy(),
                    wgpu::TexelCopyTextureInfo {
                        texture,
                        mip_level: 0,
                        origin: wgpu::Origin3d {
                            x: 0,
                            y: 0,
                            z: target.layer,
                        },
                        aspect: wgpu::TextureAspect::All,
                    },
                    scratch.size(),
                );
            }
        }
        Ok(())
    }

    fn compute_group<'a>(
        &mut self,
        index: usize,
        group: &ExecGroup,
        callbacks: &mut (impl Callbacks<'a> + ?Sized),
        scope: Option<&dyn GroupScope>,
    ) -> Result<(), ExecuteError> {
        let frame = self.frame;
        let timestamp_writes = match scope {
            Some(scope) => scope.compute_writes(),
            None => frame.timestamps.and_then(|t| t.compute(index)),
        };
        let mut cpass = self
            .encoder
            .begin_compute_pass(&wgpu::ComputePassDescriptor {
                label: Some(&group.label),
                timestamp_writes,
            })
            .forget_lifetime();
        frame.call_passes(
            &group.passes,
            callbacks,
            &mut cpass,
            Views::One,
            None,
            scope,
        )
    }
}

/// A resolve into a layer past the first of an array, through a texture of one layer shaped
/// like the array's mip 0 and a copy into the layer.
struct Detour<'t> {
    scratch: wgpu::Texture,
    view: wgpu::TextureView,
    target: &'t wgpu::Texture,
}

impl<'t> Detour<'t> {
    /// The detour of a resolve into `resource`, unless it has no `COPY_DST` (an import): that
    /// one is resolved into as it is.
    fn of(tables: Tables<'t>, resource: ResourceId) -> Option<Self> {
        let (target, _) = tables.texture_and_views(resource)?;
        if !target.usage().contains(wgpu::TextureUsages::COPY_DST) {
            return None;
        }
        let label = format!("{} resolve detour", tables.resources[resource.index()].name);
        let scratch = tables.device.create_texture(&wgpu::TextureDescriptor {
            label: Some(&label),
            size: wgpu::Extent3d {
                depth_or_array_layers: 1,
                ..target.size()
            },
            mip_level_count: 1,
            sample_count: 1,
            dimension: wgpu::TextureDimension::D2,
            format: target.format(),
            usage: wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::COPY_SRC,
            view_formats: &[],
        });
        let view = scratch.create_view(&wgpu::TextureViewDescriptor {
            label: Some(&label),
            ..Default::default()
        });
        Some(Detour {
            scratch,
            view,
            target,
        })
    }
}

/// Records the empty render pass that invalidates a group's `DontCare` attachments (GL).
fn invalidate(
    encoder: &mut wgpu::CommandEncoder,
    tables: Tables<'_>,
    label: Option<&str>,
    invalidation: &Invalidation,
    timestamp_writes: Option<wgpu::RenderPassTimestampWrites<'_>>,
) {
    let token = invalidation.token;
    let mut color: [Option<wgpu::RenderPassColorAttachment<'_>>; 8] = Default::default();
    for (slot, &(r, sub)) in invalidation.color.iter().enumerate() {
        color[slot] = Some(wgpu::RenderPassColorAttachment {
            view: tables.attachment_view(r, sub),
            depth_slice: None,
            resolve_target: None,
            ops: wgpu::Operations {
                load: wgpu::LoadOp::DontCare(token),
                store: wgpu::StoreOp::Discard,
            },
        });
    }
    // Depth and stencil share the store op, or wgpu zero-fills the discarded aspect.
    let depth =
        invalidation.depth.map(
            |(r, sub, depth, stencil)| wgpu::RenderPassDepthStencilAttachment {
                view: tables.attachment_view(r, sub),
                depth_ops: depth.then_some(wgpu::Operations {
                    load: wgpu::LoadOp::DontCare(token),
                    store: wgpu::StoreOp::Discard,
                }),
                stencil_ops: stencil.then_some(wgpu::Operations {
                    load: wgpu::LoadOp::DontCare(token),
                    store: wgpu::StoreOp::Discard,
                }),
            },
        );
    let _ = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
        label,
        color_attachments: &color[..invalidation.color.len()],
        depth_stencil_attachment: depth,
        timestamp_writes,
        ..Default::default()
    });
}

/// The kind of pass a closure records, as errors name it.
fn kind_of(callback: &PassCallback<'_>) -> &'static str {
    match callback {
        PassCallback::Render(_) => "render",
        PassCallback::Compute(_) => "compute",
        PassCallback::Copy(_) => "copy",
    }
}

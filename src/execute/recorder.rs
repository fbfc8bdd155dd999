//! The recording of one group: one wgpu pass (or one per view) with the closures of its
//! passes called in it, inside the group's timestamps or the caller's timer scope.

use super::ExecuteError;
use super::callbacks::{CallOn, Callbacks};
use super::detour::Detour;
use super::lower::{ExecGroup, Invalidation, MultiviewOps, RenderOps};
use super::tables::Tables;
use super::timer::{DynTimer, GroupScope, TimedGroup};
use super::timing::FrameQueries;
use crate::context::Views;
use crate::decl::Passes;
use crate::decl::pass::PassKind;
use crate::ids::PassId;
use crate::resource::Subresource;

/// What recording a group reads: the same for every group of the frame, and shared by every
/// recording thread of it.
#[derive(Clone, Copy)]
pub(super) struct Frame<'f> {
    pub tables: Tables<'f>,
    /// The graph's passes.
    pub passes: &'f Passes,
    pub timestamps: Option<FrameQueries<'f>>,
    /// The caller's timer ([`Executor::execute_timed`](super::Executor::execute_timed)); the
    /// executor's own timestamps are off when there is one.
    pub timer: Option<&'f dyn DynTimer>,
    pub debug_groups: bool,
    /// Whether recording threads record under error scopes of their own
    /// ([`ExecutorOptions::error_scopes`](super::ExecutorOptions::error_scopes)).
    pub error_scopes: bool,
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
#[derive(Clone, Copy)]
struct RenderRecording<'g> {
    group: &'g ExecGroup,
    ops: &'g RenderOps,
    /// The passes whose closures it calls.
    passes: &'g [PassId],
    label: &'g str,
    /// Whether the group's invalidations come first (its first recording).
    invalidate: bool,
    /// The caller's timer scope of the group.
    scope: Option<&'g dyn GroupScope>,
}

/// Records groups into one encoder.
pub(super) struct Recorder<'r, 'e> {
    pub frame: Frame<'r>,
    pub encoder: &'e mut wgpu::CommandEncoder,
}

impl<'r> Recorder<'r, '_> {
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
                let on = CallOn::one(scope);
                frame.call_passes(&group.passes, callbacks, &mut *self.encoder, on)
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
            let whole = RenderRecording {
                group,
                ops: &group.ops,
                passes: &group.passes,
                label: &group.label,
                invalidate: true,
                scope,
            };
            return self.render_passes(whole, &mut timestamps, callbacks);
        }
        let frame = self.frame;
        for (k, split) in group.split.iter().enumerate() {
            let one = RenderRecording {
                group,
                ops: &split.ops,
                passes: std::slice::from_ref(&split.pass),
                label: frame.passes.at(split.pass.index()).name(),
                invalidate: k == 0,
                scope,
            };
            self.render_passes(one, &mut timestamps, callbacks)?;
        }
        Ok(())
    }

    /// Records one render pass over all views of the group (`ops.multiview`), or one per view,
    /// as `recording` says.
    fn render_passes<'a>(
        &mut self,
        recording: RenderRecording<'_>,
        timestamps: &mut GroupTimestamps<'_>,
        callbacks: &mut (impl Callbacks<'a> + ?Sized),
    ) -> Result<(), ExecuteError> {
        let RenderRecording {
            group,
            ops,
            invalidate,
            ..
        } = recording;
        if let Some(mv) = &ops.multiview {
            // Every view's invalidation before the one multiview render pass.
            if invalidate {
                self.invalidate_before(group, None, timestamps);
            }
            return self.multiview_pass(&recording, mv, timestamps, callbacks);
        }
        for view in 0..group.views {
            // Each view's invalidation right before its render pass.
            if invalidate {
                self.invalidate_before(group, Some(view), timestamps);
            }
            self.view_pass(&recording, view, timestamps, callbacks)?;
        }
        Ok(())
    }

    /// Records the one multiview render pass of a group over all its views (its invalidations
    /// recorded before).
    fn multiview_pass<'a>(
        &mut self,
        recording: &RenderRecording<'_>,
        mv: &MultiviewOps,
        timestamps: &mut GroupTimestamps<'_>,
        callbacks: &mut (impl Callbacks<'a> + ?Sized),
    ) -> Result<(), ExecuteError> {
        let RenderRecording {
            group,
            passes,
            label,
            scope,
            ..
        } = *recording;
        let frame = self.frame;
        let views = group.views;
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
        let on = CallOn {
            views,
            render_target: group.target,
            scope,
        };
        frame.call_passes(passes, callbacks, &mut rpass, on)
    }

    /// Records the render pass of view `view` of a group recorded one render pass per view.
    fn view_pass<'a>(
        &mut self,
        recording: &RenderRecording<'_>,
        view: u32,
        timestamps: &mut GroupTimestamps<'_>,
        callbacks: &mut (impl Callbacks<'a> + ?Sized),
    ) -> Result<(), ExecuteError> {
        let RenderRecording {
            group, ops, label, ..
        } = *recording;
        let frame = self.frame;
        let views = group.views;
        let slots = ops.color.len() / views as usize;
        let target = Subresource {
            mip: 0,
            layer: view,
        };
        // Per colour slot of this view: where its resolve goes through a texture of one
        // layer, (scratch, target) (an import without COPY_DST is resolved into as it is).
        let of_view = || ops.color.iter().skip(view as usize).step_by(views as usize);
        // Empty (no allocation) where resolves land in their layer directly.
        let detours: Vec<Option<Detour<'_>>> =
            if frame.tables.quirks.resolve_layers_via_copy && view > 0 {
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
        let on = CallOn {
            views: match views {
                1 => Views::One,
                count => Views::PerView { view, count },
            },
            render_target: group.target,
            scope: recording.scope,
        };
        frame.call_passes(recording.passes, callbacks, &mut rpass, on)?;
        drop(rpass);
        for detour in detours.iter().flatten() {
            detour.copy_into_layer(self.encoder, target.layer);
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
        frame.call_passes(&group.passes, callbacks, &mut cpass, CallOn::one(scope))
    }
}

/// Records the empty render pass that invalidates a group's `DontCare` attachments (GL). Kept
/// out of `invalidate_before`, which every render group calls and most find nothing to do in.
#[inline(never)]
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

//! One frame's recording: where each resource's wgpu objects are, and the loop that opens one
//! wgpu pass per group and calls the pass closures in it.

use super::history::HistoryPair;
use super::imports::Imports;
use super::lower::{ExecGroup, Invalidation, POISON_COLOR, POISON_DEPTH, POISON_STENCIL};
use super::pool::{Pool, TextureViews};
use super::timing::FrameQueries;
use super::{ExecuteError, ready_or_block};
use crate::context::{FrameResources, PassContext, Views};
use crate::declare::PassCallback;
use crate::resource::{PassDecl, PassId, PassKind, ResourceDecl, ResourceId, Subresource};

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

/// The frame's lookup tables: where each resource's wgpu object is.
#[derive(Clone, Copy)]
pub(super) struct Tables<'f> {
    pub device: &'f wgpu::Device,
    pub queue: &'f wgpu::Queue,
    pub slots: &'f [Slot],
    pub pool: &'f Pool,
    pub imports: &'f Imports,
    pub histories: &'f [HistoryPair],
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

    /// A 2D-array view of `count` layers from `sub` (at its mip): a multiview attachment.
    fn layers_view(&self, r: ResourceId, sub: Subresource, count: u32) -> wgpu::TextureView {
        let (texture, _) = self
            .texture_and_views(r)
            .expect("attachments of live groups are bound");
        texture.create_view(&wgpu::TextureViewDescriptor {
            label: Some("tilegraph multiview attachment"),
            dimension: Some(wgpu::TextureViewDimension::D2Array),
            base_mip_level: sub.mip,
            mip_level_count: Some(1),
            base_array_layer: sub.layer,
            array_layer_count: Some(count),
            ..Default::default()
        })
    }
}

impl FrameResources for Tables<'_> {
    fn texture(&self, r: ResourceId) -> Option<&wgpu::Texture> {
        self.texture_and_views(r).map(|(t, _)| t)
    }

    fn view(&self, r: ResourceId, sub: Option<Subresource>) -> Option<&wgpu::TextureView> {
        self.texture_and_views(r).and_then(|(_, v)| v.get(sub))
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

/// The closures of one chunk's passes, sorted by pass.
pub(super) struct ChunkCallbacks<'c, 'a>(pub Vec<(PassId, &'c mut Option<PassCallback<'a>>)>);

impl<'a> Callbacks<'a> for ChunkCallbacks<'_, 'a> {
    fn get(&mut self, pass: PassId) -> Option<&mut PassCallback<'a>> {
        let i = self.0.binary_search_by_key(&pass, |(p, _)| *p).ok()?;
        self.0[i].1.as_mut()
    }
}

/// Calls one closure; a panic in it becomes [`ExecuteError::PassPanicked`], so that a frame
/// recorded on worker threads fails like one recorded on the caller's.
fn call(
    name: &str,
    closure: impl FnOnce() -> Result<(), crate::context::PassError>,
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

/// Calls the closures of a group's passes on the open `$target`, each inside a debug group named
/// after the pass. Render, compute and copy groups differ only in the target and the variant.
macro_rules! call_passes {
    ($self:ident, $group:ident, $callbacks:ident, $target:expr, $variant:ident, $kind:literal, $views:expr) => {
        for &p in &$group.passes {
            let decl = &$self.graph_passes[p.index()];
            let name = &*decl.name;
            let tables = $self.tables;
            let ctx = PassContext {
                device: tables.device,
                queue: tables.queue,
                graph: tables.graph,
                pass: decl,
                resources: tables.resources,
                frame: &tables,
                views: $views,
            };
            match $callbacks.get(p) {
                Some(PassCallback::$variant(f)) => {
                    let target = $target;
                    if $self.debug_groups {
                        target.push_debug_group(name);
                    }
                    call(name, || f(&mut *target, &ctx))?;
                    if $self.debug_groups {
                        target.pop_debug_group();
                    }
                }
                Some(other) => return Err(mismatch(name, $kind, other)),
                None => {
                    return Err(ExecuteError::MissingCallback {
                        pass: name.to_owned(),
                    });
                }
            }
        }
    };
}

pub(super) struct Recorder<'r, 'e> {
    pub tables: Tables<'r>,
    pub encoder: &'e mut wgpu::CommandEncoder,
    pub graph_passes: &'r [PassDecl],
    pub timestamps: Option<FrameQueries<'r>>,
    pub debug_groups: bool,
    /// Resolve into a layer past the first of an array through a single-layer texture and a
    /// copy: lavapipe resolves into layer 0 whatever layer the view names.
    pub resolve_layers_via_copy: bool,
}

impl<'r> Recorder<'r, '_> {
    /// Overwrites every subresource of each texture with poison (one clearing pass each).
    fn poison_textures(&mut self, textures: &[ResourceId]) {
        for &r in textures {
            if let Some((texture, views)) = self.tables.texture_and_views(r) {
                for view in views.subresources() {
                    self.poison(texture, view);
                }
            }
        }
    }

    /// Overwrites these attachments with poison.
    fn poison_subresources(&mut self, subs: &[(ResourceId, Subresource)]) {
        for &(r, sub) in subs {
            if let Some((texture, views)) = self.tables.texture_and_views(r)
                && let Some(view) = views.get(Some(sub))
            {
                self.poison(texture, view);
            }
        }
    }

    fn poison(&mut self, texture: &wgpu::Texture, view: &wgpu::TextureView) {
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
            label: Some("tilegraph poison"),
            color_attachments: if is_depth { &[] } else { &color },
            depth_stencil_attachment: depth,
            ..Default::default()
        });
    }

    /// Records group `index` of the frame: its poison (Poison mode), the group, the poison after.
    pub(super) fn group<'a>(
        &mut self,
        index: usize,
        group: &ExecGroup,
        callbacks: &mut (impl Callbacks<'a> + ?Sized),
    ) -> Result<(), ExecuteError> {
        self.poison_textures(&group.poison_before);
        match group.kind {
            PassKind::Render => self.render_group(index, group, callbacks)?,
            PassKind::Compute => self.compute_group(index, group, callbacks)?,
            PassKind::Copy => self.copy_group(group, callbacks)?,
        }
        self.poison_subresources(&group.poison_after);
        Ok(())
    }

    fn render_group<'a>(
        &mut self,
        index: usize,
        group: &ExecGroup,
        callbacks: &mut (impl Callbacks<'a> + ?Sized),
    ) -> Result<(), ExecuteError> {
        let views = group.views;
        // One render pass, or one per view; the group's time spans its invalidations and them.
        let passes = if group.multiview.is_some() { 1 } else { views };
        let total = group.invalidate_before.len() + passes as usize;
        let mut timestamps = self.timestamps.and_then(|t| t.render(index));
        // Pass `i` of the group's `total` writes the start (the first) and the end (the last);
        // the ones between write none.
        let mut timestamp_writes = |i: usize| {
            let t = timestamps.as_mut()?;
            let begin = (i == 0)
                .then(|| t.beginning_of_pass_write_index.take())
                .flatten();
            let end = (i + 1 == total)
                .then(|| t.end_of_pass_write_index.take())
                .flatten();
            (begin.is_some() || end.is_some()).then_some(wgpu::RenderPassTimestampWrites {
                query_set: t.query_set,
                beginning_of_pass_write_index: begin,
                end_of_pass_write_index: end,
            })
        };
        // Passes recorded so far (the timestamps go to the first and the last).
        let mut recorded = 0;
        // Each view's invalidation right before its render pass (all of them before one
        // multiview render pass).
        macro_rules! invalidate_view {
            ($view:expr) => {
                for invalidation in &group.invalidate_before {
                    if $view.is_some_and(|v: u32| v != invalidation.view) {
                        continue;
                    }
                    let label = self.debug_groups.then_some(&*invalidation.label);
                    let writes = timestamp_writes(recorded);
                    recorded += 1;
                    invalidate(self.encoder, self.tables, label, invalidation, writes);
                }
            };
        }
        if let Some(mv) = &group.multiview {
            invalidate_view!(None::<u32>);
            let layers: Vec<(wgpu::TextureView, Option<wgpu::TextureView>)> = mv
                .color
                .iter()
                .map(|c| {
                    let view = self.tables.layers_view(c.resource, c.sub, views);
                    let resolve = c
                        .resolve
                        .map(|t| self.tables.layers_view(t, Subresource::BASE, views));
                    (view, resolve)
                })
                .collect();
            let depth_view = mv
                .depth
                .map(|d| self.tables.layers_view(d.resource, d.sub, views));
            let mut color: [Option<wgpu::RenderPassColorAttachment<'_>>; 8] = Default::default();
            for (slot, (c, (view, resolve))) in mv.color.iter().zip(&layers).enumerate() {
                color[slot] = Some(wgpu::RenderPassColorAttachment {
                    view,
                    depth_slice: None,
                    resolve_target: resolve.as_ref(),
                    ops: c.ops,
                });
            }
            let depth = mv.depth.zip(depth_view.as_ref()).map(|(d, view)| {
                wgpu::RenderPassDepthStencilAttachment {
                    view,
                    depth_ops: d.depth,
                    stencil_ops: d.stencil,
                }
            });
            let mut rpass = self.encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
                label: Some(&group.label),
                color_attachments: &color[..mv.color.len()],
                depth_stencil_attachment: depth,
                timestamp_writes: timestamp_writes(recorded),
                multiview_mask: Views::Multiview { count: views }.multiview_mask(),
                ..Default::default()
            });
            let views = Views::Multiview { count: views };
            call_passes!(self, group, callbacks, &mut rpass, Render, "render", views);
            return Ok(());
        }
        let slots = group.color.len() / views as usize;
        for view in 0..views {
            invalidate_view!(Some(view));
            let target = Subresource {
                mip: 0,
                layer: view,
            };
            // Per colour slot of this view: where its resolve goes through a texture of one
            // layer, (scratch, target) (an import without COPY_DST is resolved into as it is).
            let of_view = || {
                group
                    .color
                    .iter()
                    .skip(view as usize)
                    .step_by(views as usize)
            };
            // Empty (no allocation) where resolves land in their layer directly.
            let detours: Vec<Option<(wgpu::Texture, &wgpu::Texture)>> =
                if self.resolve_layers_via_copy && view > 0 {
                    of_view()
                        .map(|c| {
                            let texture = c.resolve.and_then(|t| self.tables.texture(t))?;
                            texture
                                .usage()
                                .contains(wgpu::TextureUsages::COPY_DST)
                                .then(|| (single_layer_like(self.tables.device, texture), texture))
                        })
                        .collect()
                } else {
                    Vec::new()
                };
            let detour_views: Vec<Option<wgpu::TextureView>> = detours
                .iter()
                .map(|d| d.as_ref().map(|(s, _)| s.create_view(&Default::default())))
                .collect();
            // wgpu allows at most eight colour attachments; the compiler enforces it.
            let mut color: [Option<wgpu::RenderPassColorAttachment<'_>>; 8] = Default::default();
            for (slot, c) in of_view().enumerate() {
                color[slot] = Some(wgpu::RenderPassColorAttachment {
                    view: self.tables.attachment_view(c.resource, c.sub),
                    depth_slice: None,
                    resolve_target: c.resolve.map(|t| {
                        match detour_views.get(slot).and_then(Option::as_ref) {
                            Some(scratch) => scratch,
                            None => self.tables.attachment_view(t, target),
                        }
                    }),
                    ops: c.ops,
                });
            }
            let depth = group
                .depth
                .iter()
                .chain(&group.depth_views)
                .nth(view as usize)
                .map(|d| wgpu::RenderPassDepthStencilAttachment {
                    view: self.tables.attachment_view(d.resource, d.sub),
                    depth_ops: d.depth,
                    stencil_ops: d.stencil,
                });
            let writes = timestamp_writes(recorded);
            recorded += 1;
            let mut rpass = self.encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
                label: Some(&group.label),
                color_attachments: &color[..slots],
                depth_stencil_attachment: depth,
                timestamp_writes: writes,
                ..Default::default()
            });
            let views = match views {
                1 => Views::One,
                count => Views::PerView { view, count },
            };
            call_passes!(self, group, callbacks, &mut rpass, Render, "render", views);
            drop(rpass);
            for (scratch, texture) in detours.iter().flatten() {
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
    ) -> Result<(), ExecuteError> {
        let timestamp_writes = self.timestamps.and_then(|t| t.compute(index));
        let mut cpass = self
            .encoder
            .begin_compute_pass(&wgpu::ComputePassDescriptor {
                label: Some(&group.label),
                timestamp_writes,
            });
        call_passes!(
            self,
            group,
            callbacks,
            &mut cpass,
            Compute,
            "compute",
            Views::One
        );
        Ok(())
    }

    fn copy_group<'a>(
        &mut self,
        group: &ExecGroup,
        callbacks: &mut (impl Callbacks<'a> + ?Sized),
    ) -> Result<(), ExecuteError> {
        call_passes!(
            self,
            group,
            callbacks,
            &mut *self.encoder,
            Copy,
            "copy",
            Views::One
        );
        Ok(())
    }
}

/// A texture of one layer shaped like `texture`'s mip 0, to resolve into and copy from.
fn single_layer_like(device: &wgpu::Device, texture: &wgpu::Texture) -> wgpu::Texture {
    device.create_texture(&wgpu::TextureDescriptor {
        label: Some("tilegraph resolve detour"),
        size: wgpu::Extent3d {
            depth_or_array_layers: 1,
            ..texture.size()
        },
        mip_level_count: 1,
        sample_count: 1,
        dimension: wgpu::TextureDimension::D2,
        format: texture.format(),
        usage: wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::COPY_SRC,
        view_formats: &[],
    })
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

fn mismatch(pass: &str, expected: &'static str, found: &PassCallback<'_>) -> ExecuteError {
    ExecuteError::CallbackMismatch {
        pass: pass.to_owned(),
        expected,
        found: match found {
            PassCallback::Render(_) => "render",
            PassCallback::Compute(_) => "compute",
            PassCallback::Copy(_) => "copy",
        },
    }
}

/// What every recording thread of a frame shares, read-only.
#[derive(Clone, Copy)]
pub(super) struct Chunk<'f> {
    pub tables: Tables<'f>,
    pub groups: &'f [ExecGroup],
    pub graph_passes: &'f [PassDecl],
    pub timestamps: Option<FrameQueries<'f>>,
    pub debug_groups: bool,
    pub resolve_layers_via_copy: bool,
}

/// Errors raised on a recording thread outside of any encoder (device calls of closures),
/// caught by that thread's error scopes.
#[derive(Default)]
pub(super) struct WorkerErrors {
    pub validation: Option<wgpu::Error>,
    pub oom: Option<wgpu::Error>,
}

/// What one chunk of groups left: its command buffer, or the error that stopped it.
pub(super) struct ChunkResult {
    pub commands: Result<wgpu::CommandBuffer, ExecuteError>,
    pub errors: WorkerErrors,
}

/// A frame's command buffers in submission order.
pub(super) struct Recorded {
    pub commands: Vec<wgpu::CommandBuffer>,
    pub errors: WorkerErrors,
}

impl Chunk<'_> {
    /// Records groups `range` into a new encoder and finishes it, on the calling (recording)
    /// thread. After a closure error the encoder is dropped unfinished.
    pub(super) fn record(
        self,
        mut range: std::ops::Range<usize>,
        mut callbacks: ChunkCallbacks<'_, '_>,
    ) -> ChunkResult {
        let device = self.tables.device;
        let oom = device.push_error_scope(wgpu::ErrorFilter::OutOfMemory);
        let validation = device.push_error_scope(wgpu::ErrorFilter::Validation);
        let mut encoder = device.create_command_encoder(&wgpu::CommandEncoderDescriptor {
            label: Some("tilegraph frame"),
        });
        let mut recorder = Recorder {
            tables: self.tables,
            encoder: &mut encoder,
            graph_passes: self.graph_passes,
            timestamps: self.timestamps,
            debug_groups: self.debug_groups,
            resolve_layers_via_copy: self.resolve_layers_via_copy,
        };
        let recorded = range.try_for_each(|i| recorder.group(i, &self.groups[i], &mut callbacks));
        let commands = recorded.map(|()| encoder.finish());
        let errors = WorkerErrors {
            validation: ready_or_block(validation.pop()),
            oom: ready_or_block(oom.pop()),
        };
        ChunkResult { commands, errors }
    }
}

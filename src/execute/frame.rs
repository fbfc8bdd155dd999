//! One frame's recording: where each resource's wgpu objects are, and the loop that opens one
//! wgpu pass per group and calls the pass closures in it.

use super::history::HistoryPair;
use super::imports::Imports;
use super::lower::{ExecGroup, Invalidation, POISON_COLOR, POISON_DEPTH, POISON_STENCIL};
use super::pool::{Pool, TextureViews};
use super::timing::FrameQueries;
use super::{ExecuteError, ready_or_block};
use crate::context::{FrameResources, PassContext};
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
    ($self:ident, $group:ident, $callbacks:ident, $target:expr, $variant:ident, $kind:literal) => {
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
        // wgpu allows at most eight colour attachments; the compiler enforces it.
        let mut color: [Option<wgpu::RenderPassColorAttachment<'_>>; 8] = Default::default();
        for (slot, c) in group.color.iter().enumerate() {
            color[slot] = Some(wgpu::RenderPassColorAttachment {
                view: self.tables.attachment_view(c.resource, c.sub),
                depth_slice: None,
                resolve_target: c
                    .resolve
                    .map(|t| self.tables.attachment_view(t, Subresource::BASE)),
                ops: c.ops,
            });
        }
        let depth = group.depth.map(|d| wgpu::RenderPassDepthStencilAttachment {
            view: self.tables.attachment_view(d.resource, d.sub),
            depth_ops: d.depth,
            stencil_ops: d.stencil,
        });
        let mut timestamp_writes = self.timestamps.and_then(|t| t.render(index));
        if let Some(invalidation) = &group.invalidate_before {
            // The group's time starts with its invalidation.
            let begin = timestamp_writes
                .as_mut()
                .map(|t| wgpu::RenderPassTimestampWrites {
                    query_set: t.query_set,
                    beginning_of_pass_write_index: t.beginning_of_pass_write_index.take(),
                    end_of_pass_write_index: None,
                });
            let label = self.debug_groups.then_some(&*invalidation.label);
            invalidate(self.encoder, self.tables, label, invalidation, begin);
        }
        let mut rpass = self.encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
            label: Some(&group.label),
            color_attachments: &color[..group.color.len()],
            depth_stencil_attachment: depth,
            timestamp_writes,
            ..Default::default()
        });
        call_passes!(self, group, callbacks, &mut rpass, Render, "render");
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
        call_passes!(self, group, callbacks, &mut cpass, Compute, "compute");
        Ok(())
    }

    fn copy_group<'a>(
        &mut self,
        group: &ExecGroup,
        callbacks: &mut (impl Callbacks<'a> + ?Sized),
    ) -> Result<(), ExecuteError> {
        call_passes!(self, group, callbacks, &mut *self.encoder, Copy, "copy");
        Ok(())
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

//! One frame's recording: where each resource's wgpu objects are, and the loop that opens one
//! wgpu pass per group and calls the pass closures in it.

use super::ExecuteError;
use super::history::HistoryPair;
use super::imports::Imports;
use super::lower::{ExecGroup, Invalidation, POISON_COLOR, POISON_DEPTH, POISON_STENCIL};
use super::pool::{Pool, TextureViews};
use super::timing::Timestamps;
use crate::context::{FrameResources, PassContext, Views};
use crate::declare::PassCallback;
use crate::resource::{PassDecl, PassKind, ResourceDecl, ResourceId, Subresource};

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
            match &mut $callbacks[p.index()] {
                Some(PassCallback::$variant(f)) => {
                    let target = $target;
                    if $self.debug_groups {
                        target.push_debug_group(name);
                    }
                    f(target, &ctx).map_err(|source| ExecuteError::Pass {
                        pass: name.to_owned(),
                        source,
                    })?;
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
    pub timestamps: Option<&'r mut Timestamps>,
    pub debug_groups: bool,
    /// Resolve into a layer past the first of an array through a single-layer texture and a
    /// copy: lavapipe resolves into layer 0 whatever layer the view names.
    pub resolve_layers_via_copy: bool,
}

impl<'r> Recorder<'r, '_> {
    /// Overwrites every subresource of each texture with poison (one clearing pass each).
    pub(super) fn poison_textures(&mut self, textures: &[ResourceId]) {
        for &r in textures {
            if let Some((texture, views)) = self.tables.texture_and_views(r) {
                for view in views.subresources() {
                    self.poison(texture, view);
                }
            }
        }
    }

    /// Overwrites these attachments with poison.
    pub(super) fn poison_subresources(&mut self, subs: &[(ResourceId, Subresource)]) {
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

    pub(super) fn group(
        &mut self,
        group: &ExecGroup,
        callbacks: &mut [Option<PassCallback<'_>>],
    ) -> Result<(), ExecuteError> {
        match group.kind {
            PassKind::Render => self.render_group(group, callbacks),
            PassKind::Compute => self.compute_group(group, callbacks),
            PassKind::Copy => self.copy_group(group, callbacks),
        }
    }

    fn render_group(
        &mut self,
        group: &ExecGroup,
        callbacks: &mut [Option<PassCallback<'_>>],
    ) -> Result<(), ExecuteError> {
        let views = group.views;
        if group.multiview.is_some() {
            let limit = self.tables.device.limits().max_multiview_view_count;
            if views > limit {
                return Err(ExecuteError::MultiviewLimit {
                    pass: group.label.clone(),
                    views,
                    limit,
                });
            }
        }
        // One render pass, or one per view; the group's time spans its invalidations and them.
        let passes = if group.multiview.is_some() { 1 } else { views };
        let total = group.invalidate_before.len() + passes as usize;
        let mut timestamps = self
            .timestamps
            .as_deref_mut()
            .and_then(|t| t.next_render(&group.label));
        let mut timestamp_writes = |i: usize| {
            timestamps
                .as_mut()
                .map(|t| wgpu::RenderPassTimestampWrites {
                    query_set: t.query_set,
                    beginning_of_pass_write_index: if i == 0 {
                        t.beginning_of_pass_write_index.take()
                    } else {
                        None
                    },
                    end_of_pass_write_index: if i + 1 == total {
                        t.end_of_pass_write_index.take()
                    } else {
                        None
                    },
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
            let detours: Vec<Option<(wgpu::Texture, &wgpu::Texture)>> = of_view()
                .map(|c| {
                    let texture = c.resolve.and_then(|t| self.tables.texture(t))?;
                    (self.resolve_layers_via_copy
                        && view > 0
                        && texture.usage().contains(wgpu::TextureUsages::COPY_DST))
                    .then(|| (single_layer_like(self.tables.device, texture), texture))
                })
                .collect();
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
                    resolve_target: c.resolve.map(|t| match &detour_views[slot] {
                        Some(scratch) => scratch,
                        None => self.tables.attachment_view(t, target),
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
            let mut rpass = self.encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
                label: Some(&group.label),
                color_attachments: &color[..slots],
                depth_stencil_attachment: depth,
                timestamp_writes: timestamp_writes(recorded),
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

    fn compute_group(
        &mut self,
        group: &ExecGroup,
        callbacks: &mut [Option<PassCallback<'_>>],
    ) -> Result<(), ExecuteError> {
        let timestamp_writes = self
            .timestamps
            .as_deref_mut()
            .and_then(|t| t.next_compute(&group.label));
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

    fn copy_group(
        &mut self,
        group: &ExecGroup,
        callbacks: &mut [Option<PassCallback<'_>>],
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

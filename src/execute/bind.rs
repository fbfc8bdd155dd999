//! Binding a frame: every resource of the plan to its wgpu object — physical resources to pool
//! entries, histories to the executor's pairs, imports to what the caller bound — and the
//! 2D-array views multiview render passes attach.

use super::ExecuteError;
use super::history::{BufferHistory, HistoryPair};
use super::imports::{Imports, check_imported_texture};
use super::pool::Wanted;
use super::record::FrameArgs;
use super::tables::{LayerView, Slot};
use super::{ExecuteMode, Executor};
use crate::decl::resource::{ResourceDecl, ResourceKind};
use crate::declare::RenderGraph;
use crate::ids::ResourceId;
use crate::plan::{CompiledGraph, ResourceUsage};

impl Executor {
    /// Binds every resource of the frame: physical resources to pool entries (kept from the last
    /// frame with this plan unless the pool changed), imports to what `imports` holds.
    pub(super) fn bind(
        &mut self,
        args: &FrameArgs<'_, '_>,
        index: usize,
    ) -> Result<(), ExecuteError> {
        let (graph, plan, imports) = (&*args.graph, args.plan, args.imports);
        self.bind_physical(plan, index, args.mode);
        self.history_slots.clear();
        self.bind_histories(graph, plan);
        self.bind_buffer_histories(graph, plan);
        // The pooled and culled resources' slots, then this frame's imports and histories.
        let prepared = &self.prepared[index];
        self.slots.clone_from(&prepared.slots);
        for &id in &prepared.imports {
            let usage = plan.resources()[id.index()].usage;
            self.slots[id.index()] = bind_import(imports, id, plan.resource_decl(id), usage)?;
        }
        for &(id, slot) in &self.history_slots {
            if !plan.resources()[id.index()].culled {
                self.slots[id.index()] = slot;
            }
        }
        self.bind_layer_views(plan, index, imports);
        Ok(())
    }

    /// Binds the plan's physical resources to pool entries (kept from the last frame with this
    /// plan unless the pool changed), and marks them used this frame.
    fn bind_physical(&mut self, plan: &CompiledGraph, index: usize, mode: ExecuteMode) {
        if self.prepared[index].generation != Some(self.pool.generation) {
            self.acquire_physical(plan, index, mode);
        }
        let prepared = &self.prepared[index];
        for (physical, &entry) in plan.physical().iter().zip(&prepared.bound) {
            match physical.kind {
                ResourceKind::Texture(_) => self.pool.touch_texture(entry, self.frame),
                ResourceKind::Buffer(_) => self.pool.touch_buffer(entry, self.frame),
            }
        }
    }

    /// Binds the plan's physical resources to pool entries anew, after the pool changed or on
    /// the plan's first frame.
    fn acquire_physical(&mut self, plan: &CompiledGraph, index: usize, mode: ExecuteMode) {
        let prepared = &mut self.prepared[index];
        prepared.bound.clear();
        self.taken.clear();
        let mut taken_buffers = Vec::new();
        let mut label = String::new();
        for physical in plan.physical() {
            // Labelled after the resources it holds, so that wgpu's errors name them.
            label.clear();
            for (i, &r) in physical.resources.iter().enumerate() {
                if i > 0 {
                    label.push('+');
                }
                label.push_str(plan.resource_name(r));
            }
            let entry = match (physical.kind, physical.usage) {
                (ResourceKind::Texture(desc), ResourceUsage::Texture(usage)) => {
                    let mut usage = if mode == ExecuteMode::Planned {
                        usage
                    } else {
                        usage - wgpu::TextureUsages::TRANSIENT_ATTACHMENT
                    };
                    // An array that may be resolved into takes the detour's copy.
                    if self.quirks.resolve_layers_via_copy
                        && desc.layers > 1
                        && desc.samples == 1
                        && usage.contains(wgpu::TextureUsages::RENDER_ATTACHMENT)
                    {
                        usage |= wgpu::TextureUsages::COPY_DST;
                    }
                    let split = physical.resources.iter().any(|r| prepared.split[r.index()]);
                    let wanted = Wanted {
                        desc,
                        usage,
                        label: &label,
                    };
                    let taken = &mut self.taken;
                    self.pool
                        .acquire_texture(&self.device, wanted, split, taken)
                }
                (ResourceKind::Buffer(desc), ResourceUsage::Buffer(usage)) => {
                    let wanted = Wanted {
                        desc: desc.size,
                        usage,
                        label: &label,
                    };
                    let taken = &mut taken_buffers;
                    self.pool.acquire_buffer(&self.device, wanted, taken)
                }
                _ => unreachable!("the compiler pairs textures with texture usages"),
            };
            prepared.bound.push(entry);
        }
        prepared.slots.clear();
        for (resource, decl) in plan.resources().iter().zip(plan.resource_decls()) {
            prepared.slots.push(match (resource.physical, decl.kind) {
                _ if resource.culled => Slot::Unbound,
                (Some(p), ResourceKind::Texture(_)) => Slot::PoolTexture(prepared.bound[p.index()]),
                (Some(p), ResourceKind::Buffer(_)) => Slot::PoolBuffer(prepared.bound[p.index()]),
                // An import or a history half: bound every frame.
                (None, _) => Slot::Unbound,
            });
        }
        // Acquiring may have created entries; nothing moved, so the generation holds.
        prepared.generation = Some(self.pool.generation);
    }

    /// The views of ranges this frame's passes use (multiview attachments, sampled ranges):
    /// made once and kept with the texture's other views (an import's in `Imports`, while the
    /// caller binds the same texture).
    fn bind_layer_views(&mut self, plan: &CompiledGraph, index: usize, imports: &Imports) {
        self.layer_views.clear();
        for &(resource, range) in &self.prepared[index].layer_views {
            let view = match self.slots[resource.index()] {
                Slot::PoolTexture(i) => {
                    let pooled = &mut self.pool.textures[i as usize];
                    pooled.views.range(&pooled.texture, range)
                }
                Slot::History(h, current) => {
                    let (texture, views) = self.histories[h as usize].half_mut(current);
                    views.range(texture, range)
                }
                Slot::ImportTexture => {
                    match imports.range_view(resource, range, plan.resource_name(resource)) {
                        Some(view) => view,
                        None => continue,
                    }
                }
                Slot::Unbound
                | Slot::PoolBuffer(_)
                | Slot::ImportBuffer
                | Slot::HistoryBuffer(..) => continue,
            };
            self.layer_views.push(LayerView {
                resource,
                range,
                view,
            });
        }
    }

    /// Finds or makes the two textures of every history the graph declares; adds the slots of
    /// both halves of each to `history_slots`. Textures no frame declared for a while are
    /// released.
    fn bind_histories(&mut self, graph: &RenderGraph<'_>, plan: &CompiledGraph) {
        let (frame, keep) = (self.frame, self.options.keep_frames);
        self.histories.retain(|h| {
            frame.saturating_sub(h.last_frame) <= keep || declares_history(graph, plan, &h.key)
        });
        for &(previous, current) in &graph.histories {
            let decl = plan.resource_decl(previous);
            let ResourceKind::Texture(desc) = decl.kind else {
                continue;
            };
            let usage = [previous, current]
                .iter()
                .filter_map(|r| match plan.resources()[r.index()].usage {
                    ResourceUsage::Texture(u) => Some(u),
                    ResourceUsage::Buffer(_) => None,
                })
                .fold(wgpu::TextureUsages::empty(), |a, b| a | b);
            let found = self.histories.iter().position(|h| h.key == decl.name);
            // Each texture of the pair is `current` one frame and `previous` the next.
            let make = || {
                let label = format!("{}+{}", decl.name, plan.resource_name(current));
                HistoryPair::new(&self.device, decl.name.clone(), &label, desc, usage)
            };
            let index = match found {
                Some(i) if self.histories[i].fits(desc, usage) => i,
                // A resize or a new use: new textures, and no valid history yet.
                Some(i) => {
                    self.histories[i] = make();
                    i
                }
                None => {
                    let pair = make();
                    self.histories.push(pair);
                    self.histories.len() - 1
                }
            };
            self.histories[index].last_frame = self.frame;
            let out = &mut self.history_slots;
            out.push((previous, Slot::History(index as u32, false)));
            out.push((current, Slot::History(index as u32, true)));
        }
    }
}

impl Executor {
    /// Finds or makes the two buffers of every history buffer the graph declares; adds the
    /// slots of both halves of each to `history_slots`. Buffers no frame declared for a while
    /// are released.
    fn bind_buffer_histories(&mut self, graph: &RenderGraph<'_>, plan: &CompiledGraph) {
        let (frame, keep) = (self.frame, self.options.keep_frames);
        self.buffer_histories.retain(|h| {
            frame.saturating_sub(h.last_frame) <= keep || declares_history(graph, plan, &h.key)
        });
        for &(previous, current) in &graph.histories {
            let decl = plan.resource_decl(previous);
            let ResourceKind::Buffer(desc) = decl.kind else {
                continue;
            };
            let usage = [previous, current]
                .iter()
                .filter_map(|r| match plan.resources()[r.index()].usage {
                    ResourceUsage::Buffer(u) => Some(u),
                    ResourceUsage::Texture(_) => None,
                })
                .fold(wgpu::BufferUsages::empty(), |a, b| a | b);
            let found = self
                .buffer_histories
                .iter()
                .position(|h| h.key == decl.name);
            let make = || {
                let label = format!("{}+{}", decl.name, plan.resource_name(current));
                BufferHistory::new(&self.device, decl.name.clone(), &label, desc.size, usage)
            };
            let index = match found {
                Some(i) if self.buffer_histories[i].fits(desc.size, usage) => i,
                // A new size or a new use: new buffers, and no valid history yet.
                Some(i) => {
                    self.buffer_histories[i] = make();
                    i
                }
                None => {
                    let pair = make();
                    self.buffer_histories.push(pair);
                    self.buffer_histories.len() - 1
                }
            };
            self.buffer_histories[index].last_frame = frame;
            let out = &mut self.history_slots;
            out.push((previous, Slot::HistoryBuffer(index as u32, false)));
            out.push((current, Slot::HistoryBuffer(index as u32, true)));
        }
    }
}

/// Whether `graph` declares the history (texture or buffer) named `key` this frame.
fn declares_history(graph: &RenderGraph<'_>, plan: &CompiledGraph, key: &str) -> bool {
    graph
        .histories
        .iter()
        .any(|&(p, _)| *plan.resource_decl(p).name == *key)
}

/// The slot of an import: what `imports` binds for `decl`, checked against the declaration.
fn bind_import(
    imports: &Imports,
    id: ResourceId,
    decl: &ResourceDecl,
    usage: ResourceUsage,
) -> Result<Slot, ExecuteError> {
    let missing = || ExecuteError::MissingImport {
        resource: decl.name.to_string(),
    };
    match decl.kind {
        ResourceKind::Texture(desc) => {
            let (texture, _) = imports.texture_at(id).ok_or_else(missing)?;
            check_imported_texture(&decl.name, desc, usage, texture)?;
            Ok(Slot::ImportTexture)
        }
        ResourceKind::Buffer(desc) => {
            let bound = imports.buffer_at(id).ok_or_else(missing)?;
            if bound.size() < desc.size {
                return Err(ExecuteError::ImportMismatch {
                    resource: decl.name.to_string(),
                    message: format!(
                        "the buffer has {} bytes, the declaration {}",
                        bound.size(),
                        desc.size
                    ),
                });
            }
            Ok(Slot::ImportBuffer)
        }
    }
}

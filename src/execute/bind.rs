//! Binding a frame: every resource of the plan to its wgpu object — physical resources to pool
//! entries, histories to the executor's pairs, imports to what the caller bound — and the
//! 2D-array views multiview render passes attach.

use super::ExecuteError;
use super::history::{BufferHistory, HistoryPair, HistoryUse, PairOf};
use super::imports::{Imports, check_imported_texture};
use super::pool::Wanted;
use super::prepare::Prepared;
use super::record::FrameArgs;
use super::tables::{LayerView, Slot};
use super::{ExecuteMode, Executor, Staleness};
use crate::decl::resource::ResourceKind;
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
        self.bind_histories(graph, plan, index);
        // The plan's slots (pooled, culled, history halves), then this frame's imports.
        let prepared = &self.prepared[index];
        self.slots.clone_from(&prepared.slots);
        for &id in &prepared.imports {
            let usage = plan.resources()[id.index()].usage;
            self.slots[id.index()] = bind_import(imports, id, plan, usage)?;
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
                // An import (bound every frame) or a history half (below).
                (None, _) => Slot::Unbound,
            });
        }
        prepared.slot_histories();
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

    /// Binds every history the graph declares to its pair of textures or buffers, found again
    /// only after the pairs changed; first drops the pairs no frame declared for `keep_frames`
    /// frames, when one may be that old.
    fn bind_histories(&mut self, graph: &RenderGraph<'_>, plan: &CompiledGraph, index: usize) {
        if self.history_staleness.due(self.frame) {
            self.drop_stale_histories(graph, plan);
        }
        if self.prepared[index].histories_bound != Some(self.history_generation) {
            self.find_histories(graph, plan, index);
        }
        let frame = self.frame;
        for history in &self.prepared[index].histories {
            match history.pair {
                PairOf::Textures(h) => self.histories[h as usize].last_frame = frame,
                PairOf::Buffers(h) => self.buffer_histories[h as usize].last_frame = frame,
            }
        }
    }

    /// Drops the pairs no frame declared for `keep_frames` frames, unless `graph` declares them.
    fn drop_stale_histories(&mut self, graph: &RenderGraph<'_>, plan: &CompiledGraph) {
        let (frame, keep) = (self.frame, self.options.keep_frames);
        let stale = |last: u64| Staleness::stale(frame, last, keep);
        // Looked for first: on most frames the check is due none is stale, and the lists are
        // left as they are (`retain` is an out-of-line call per list).
        if self.histories.iter().any(|h| stale(h.last_frame))
            || self.buffer_histories.iter().any(|h| stale(h.last_frame))
        {
            let before = self.histories.len() + self.buffer_histories.len();
            let live = |last: u64, key: &str| !stale(last) || declares_history(graph, plan, key);
            self.histories.retain(|h| live(h.last_frame, &h.key));
            self.buffer_histories.retain(|h| live(h.last_frame, &h.key));
            if self.histories.len() + self.buffer_histories.len() != before {
                self.history_generation += 1;
            }
        }
        let oldest = (self.histories.iter().map(|h| h.last_frame))
            .chain(self.buffer_histories.iter().map(|h| h.last_frame))
            .min();
        self.history_staleness.looked(frame, oldest, keep);
    }

    /// Finds or makes the pair of every history the graph declares, and keeps their slots with
    /// the prepared plan.
    fn find_histories(&mut self, graph: &RenderGraph<'_>, plan: &CompiledGraph, index: usize) {
        let mut histories = std::mem::take(&mut self.prepared[index].histories);
        histories.clear();
        let live = |r: ResourceId| Some(r).filter(|r| !plan.resources()[r.index()].culled);
        for &(previous, current) in &graph.histories {
            histories.push(HistoryUse {
                pair: self.history_pair(plan, previous, current),
                previous: live(previous),
                current: live(current),
            });
        }
        let prepared = &mut self.prepared[index];
        prepared.histories = histories;
        prepared.slot_histories();
        prepared.histories_bound = Some(self.history_generation);
    }

    /// The pair of textures or buffers of the history `previous`/`current`: found, or made (made
    /// again after a resize or for a new use: no valid history yet). Each half of the pair is
    /// `current` one frame and `previous` the next.
    fn history_pair(
        &mut self,
        plan: &CompiledGraph,
        previous: ResourceId,
        current: ResourceId,
    ) -> PairOf {
        let decl = plan.resource_decl(previous);
        let (key, device) = (&decl.name, &self.device);
        let label = || format!("{key}+{}", plan.resource_name(current));
        let usage = |r: ResourceId| plan.resources()[r.index()].usage;
        let (pair, made) = match (decl.kind, usage(previous), usage(current)) {
            (ResourceKind::Texture(desc), ResourceUsage::Texture(a), ResourceUsage::Texture(b)) => {
                let (i, made) = find_or_make(
                    &mut self.histories,
                    |h| h.key == *key,
                    |h| h.fits(desc, a | b),
                    || HistoryPair::new(device, key.clone(), &label(), desc, a | b),
                );
                (PairOf::Textures(i), made)
            }
            (ResourceKind::Buffer(desc), ResourceUsage::Buffer(a), ResourceUsage::Buffer(b)) => {
                let (i, made) = find_or_make(
                    &mut self.buffer_histories,
                    |h| h.key == *key,
                    |h| h.fits(desc.size, a | b),
                    || BufferHistory::new(device, key.clone(), &label(), desc.size, a | b),
                );
                (PairOf::Buffers(i), made)
            }
            _ => unreachable!("the compiler pairs textures with texture usages"),
        };
        if made {
            // The prepared plans find their pairs again; the pairs are looked at next frame.
            self.history_generation += 1;
            self.history_staleness.added();
        }
        pair
    }
}

/// The index in `pairs` of the one `is` picks when it `fits`; otherwise of the pair `make`
/// makes, put in its place or added; and whether it was made.
fn find_or_make<P>(
    pairs: &mut Vec<P>,
    is: impl Fn(&P) -> bool,
    fits: impl Fn(&P) -> bool,
    make: impl FnOnce() -> P,
) -> (u32, bool) {
    let index = match pairs.iter().position(is) {
        Some(i) if fits(&pairs[i]) => return (i as u32, false),
        Some(i) => {
            pairs[i] = make();
            i
        }
        None => {
            pairs.push(make());
            pairs.len() - 1
        }
    };
    (index as u32, true)
}

/// Whether `graph` declares the history (texture or buffer) named `key` this frame.
fn declares_history(graph: &RenderGraph<'_>, plan: &CompiledGraph, key: &str) -> bool {
    graph
        .histories
        .iter()
        .any(|&(p, _)| *plan.resource_decl(p).name == *key)
}

/// The slot of an import: what `imports` binds for its declaration in `plan`, checked against it
/// (a texture once for each plan it serves).
fn bind_import(
    imports: &Imports,
    id: ResourceId,
    plan: &CompiledGraph,
    usage: ResourceUsage,
) -> Result<Slot, ExecuteError> {
    let decl = plan.resource_decl(id);
    let missing = || ExecuteError::MissingImport {
        resource: decl.name.to_string(),
    };
    match decl.kind {
        ResourceKind::Texture(desc) => {
            let check =
                |texture: &wgpu::Texture| check_imported_texture(&decl.name, desc, usage, texture);
            imports
                .check_texture(id, plan.id, check)
                .ok_or_else(missing)??;
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

impl Prepared {
    /// Puts the live halves of the plan's histories in its slots: their pairs stay until the
    /// executor's pairs change (`histories_bound`), and each pair swaps its halves itself.
    fn slot_histories(&mut self) {
        for history in &self.histories {
            if let Some(r) = history.previous {
                self.slots[r.index()] = history.pair.half(false);
            }
            if let Some(r) = history.current {
                self.slots[r.index()] = history.pair.half(true);
            }
        }
    }
}

//! Execute: records a compiled graph into wgpu command encoders on a real adapter.
//!
//! [`Executor::execute`] walks the plan's groups and opens one wgpu pass per group with the
//! inferred load/store ops, calling each pass's closure with the open pass and a [`PassContext`]
//! that resolves the graph's handles to this frame's wgpu objects. Graph-owned textures come from
//! a pool that lives across frames; imported ones are bound per frame through [`Imports`].
//!
//! Three [`ExecuteMode`]s record the same frame three ways, so the plan's decisions can be checked
//! on real hardware: for a correctly declared graph they produce bit-identical results.

mod pool;

use crate::compile::CompileOptions;
use crate::declare::{
    Access, BufferHandle, ClearValue, PassCallback, PassDecl, PassKind, RenderGraph, ResourceId,
    ResourceKind, TextureHandle,
};
use crate::plan::{CompiledGraph, Group, LoadOp, ResourceUsage, StoreOp};

use pool::Pool;
pub use pool::PoolStats;

/// Error a pass closure returns; aborts the frame.
pub type PassError = Box<dyn std::error::Error + Send + Sync + 'static>;

/// The colour every poisoned colour texel gets in [`ExecuteMode::Poison`]: opaque magenta.
pub const POISON_COLOR: wgpu::Color = wgpu::Color {
    r: 1.0,
    g: 0.0,
    b: 1.0,
    a: 1.0,
};
/// The depth poisoned depth texels get: nearest, so `LessEqual` tests against it fail.
pub const POISON_DEPTH: f32 = 0.0;
/// The stencil value poisoned stencil texels get.
pub const POISON_STENCIL: u32 = 0xa5;

/// How the executor records a plan.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub enum ExecuteMode {
    /// The compiled plan: merged groups, inferred ops, transient textures.
    #[default]
    Planned,
    /// DESIGN §5's naive plan, the baseline: every live pass its own render pass, `Clear` only
    /// where a pass declares `clear`, `Load` otherwise, `Store` always, nothing transient.
    ///
    /// Two departures, both invisible in the results: where the naive plan would `Load` an
    /// attachment that nothing has written this frame and the pass reads it (`read_write` or
    /// `read` of a resource with a clear value), it clears to the resource's clear value, which
    /// is what the declaration means (loading would read whatever the pooled texture last held);
    /// and a depth attachment a pass only `read`s is attached read-only, since wgpu cannot sample
    /// a depth texture that the pass may write.
    Naive,
    /// The plan, made to fail loudly where it depends on contents it declared dead: every
    /// attachment whose first access in a group is `write` (so its plan load is `DontCare`, or a
    /// clear standing in for it) is cleared to poison, every `Discard`ed attachment is
    /// overwritten with poison after its group, and every graph-owned texture (and every imported
    /// one with undefined contents that can be attached) is poisoned before its first use.
    /// Nothing is transient, since poisoned textures are stored to.
    Poison,
}

impl ExecuteMode {
    /// The mode's name: `planned`, `naive` or `poison`.
    pub fn as_str(self) -> &'static str {
        match self {
            ExecuteMode::Planned => "planned",
            ExecuteMode::Naive => "naive",
            ExecuteMode::Poison => "poison",
        }
    }

    /// The mode named `name` (`planned`, `naive`, `poison`).
    pub fn from_name(name: &str) -> Option<Self> {
        match name {
            "planned" => Some(ExecuteMode::Planned),
            "naive" => Some(ExecuteMode::Naive),
            "poison" => Some(ExecuteMode::Poison),
            _ => None,
        }
    }
}

impl std::fmt::Display for ExecuteMode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Why a frame could not be recorded. The pool stays usable after any of them.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ExecuteError {
    /// The plan was compiled from a graph of another structure.
    #[error(
        "the plan was compiled from another graph (plan fingerprint {plan:032x}, graph {graph:032x}); compile this graph or take its plan from a PlanCache"
    )]
    PlanMismatch {
        /// Fingerprint the plan was compiled from.
        plan: u128,
        /// Fingerprint of the graph handed to the executor.
        graph: u128,
    },
    /// A pass closure returned an error; the frame was abandoned.
    #[error("pass `{pass}` failed: {source}")]
    Pass {
        /// The pass.
        pass: String,
        /// What the closure returned.
        #[source]
        source: PassError,
    },
    /// A pass has a closure of another pass type.
    #[error("pass `{pass}` is a {expected} pass but its closure records a {found} pass")]
    CallbackMismatch {
        /// The pass.
        pass: String,
        /// The pass's type.
        expected: &'static str,
        /// The closure's type.
        found: &'static str,
    },
    /// A live imported resource has nothing bound in [`Imports`].
    #[error("imported resource `{resource}` is used but not bound in the frame's imports")]
    MissingImport {
        /// The resource.
        resource: String,
    },
    /// The bound import does not match its declaration.
    #[error("imported resource `{resource}` does not match its declaration: {message}")]
    ImportMismatch {
        /// The resource.
        resource: String,
        /// What differs.
        message: String,
    },
    /// wgpu rejected the recorded commands. `pass` names the passes of the wgpu pass the error
    /// points at, when the message says which.
    #[error("wgpu validation error{}: {message}", pass.as_ref().map(|p| format!(" in pass `{p}`")).unwrap_or_default())]
    Validation {
        /// The pass (or the merged passes, joined by `+`).
        pass: Option<String>,
        /// wgpu's message.
        message: String,
    },
    /// The device ran out of memory while recording.
    #[error("out of GPU memory while recording the frame: {message}")]
    OutOfMemory {
        /// wgpu's message.
        message: String,
    },
}

/// An imported texture bound for a frame.
#[derive(Debug, Clone)]
struct ImportedTexture {
    texture: wgpu::Texture,
    view: wgpu::TextureView,
}

/// The wgpu objects behind a graph's imported resources for one frame (the surface texture, a
/// history buffer). Keep one and rebind it every frame: it reuses its storage.
#[derive(Debug, Default)]
pub struct Imports {
    textures: Vec<Option<ImportedTexture>>,
    buffers: Vec<Option<wgpu::Buffer>>,
}

impl Imports {
    /// Nothing bound.
    pub fn new() -> Self {
        Self::default()
    }

    /// Binds `texture` (seen through `view`, which render passes attach) to an imported texture.
    pub fn texture(
        &mut self,
        handle: TextureHandle,
        texture: &wgpu::Texture,
        view: &wgpu::TextureView,
    ) -> &mut Self {
        let i = handle.index as usize;
        if self.textures.len() <= i {
            self.textures.resize(i + 1, None);
        }
        self.textures[i] = Some(ImportedTexture {
            texture: texture.clone(),
            view: view.clone(),
        });
        self
    }

    /// Binds `buffer` to an imported buffer.
    pub fn buffer(&mut self, handle: BufferHandle, buffer: &wgpu::Buffer) -> &mut Self {
        let i = handle.index as usize;
        if self.buffers.len() <= i {
            self.buffers.resize(i + 1, None);
        }
        self.buffers[i] = Some(buffer.clone());
        self
    }

    /// Unbinds everything, keeping the storage.
    pub fn clear(&mut self) {
        self.textures.iter_mut().for_each(|t| *t = None);
        self.buffers.iter_mut().for_each(|b| *b = None);
    }

    fn texture_at(&self, r: ResourceId) -> Option<&ImportedTexture> {
        self.textures.get(r as usize)?.as_ref()
    }

    fn buffer_at(&self, r: ResourceId) -> Option<&wgpu::Buffer> {
        self.buffers.get(r as usize)?.as_ref()
    }
}

/// Where this frame finds a resource.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Slot {
    /// Culled: nothing behind it.
    Unbound,
    PoolTexture(u32),
    PoolBuffer(u32),
    ImportTexture,
    ImportBuffer,
}

/// The frame's lookup tables: where each resource's wgpu object is.
#[derive(Clone, Copy)]
struct Tables<'f> {
    device: &'f wgpu::Device,
    queue: &'f wgpu::Queue,
    slots: &'f [Slot],
    pool: &'f Pool,
    imports: &'f Imports,
}

impl<'f> Tables<'f> {
    fn imported(&self, r: ResourceId) -> Option<&'f ImportedTexture> {
        self.imports.texture_at(r)
    }

    fn view(&self, r: ResourceId) -> Option<&'f wgpu::TextureView> {
        match *self.slots.get(r as usize)? {
            Slot::PoolTexture(i) => Some(&self.pool.textures[i as usize].view),
            Slot::ImportTexture => Some(&self.imported(r)?.view),
            _ => None,
        }
    }

    fn attachment_view(&self, r: ResourceId) -> Option<&'f wgpu::TextureView> {
        match *self.slots.get(r as usize)? {
            Slot::PoolTexture(i) => Some(&self.pool.textures[i as usize].attachment_view),
            Slot::ImportTexture => Some(&self.imported(r)?.view),
            _ => None,
        }
    }

    fn texture(&self, r: ResourceId) -> Option<&'f wgpu::Texture> {
        match *self.slots.get(r as usize)? {
            Slot::PoolTexture(i) => Some(&self.pool.textures[i as usize].texture),
            Slot::ImportTexture => Some(&self.imported(r)?.texture),
            _ => None,
        }
    }

    fn buffer(&self, r: ResourceId) -> Option<&'f wgpu::Buffer> {
        match *self.slots.get(r as usize)? {
            Slot::PoolBuffer(i) => Some(&self.pool.buffers[i as usize].buffer),
            Slot::ImportBuffer => self.imports.buffer_at(r),
            _ => None,
        }
    }
}

/// What a pass closure sees besides its open pass: the device, the queue, and the wgpu objects
/// behind the graph's handles for this frame.
pub struct PassContext<'f> {
    tables: Tables<'f>,
    pass: &'f str,
}

impl<'f> PassContext<'f> {
    /// The device.
    pub fn device(&self) -> &'f wgpu::Device {
        self.tables.device
    }

    /// The queue.
    pub fn queue(&self) -> &'f wgpu::Queue {
        self.tables.queue
    }

    /// The name of the pass being recorded.
    pub fn pass_name(&self) -> &'f str {
        self.pass
    }

    /// The default view (all layers and mips) of a texture of the graph for this frame. Views of
    /// graph-owned textures stay the same from frame to frame while the plan does, so bind groups
    /// built from them can be cached.
    pub fn view(&self, texture: TextureHandle) -> Option<&'f wgpu::TextureView> {
        self.tables.view(texture.index)
    }

    /// The view render passes attach: mip 0 of layer 0.
    pub fn attachment_view(&self, texture: TextureHandle) -> Option<&'f wgpu::TextureView> {
        self.tables.attachment_view(texture.index)
    }

    /// The texture behind a handle for this frame (for copies).
    pub fn texture(&self, texture: TextureHandle) -> Option<&'f wgpu::Texture> {
        self.tables.texture(texture.index)
    }

    /// The buffer behind a handle for this frame.
    pub fn buffer(&self, buffer: BufferHandle) -> Option<&'f wgpu::Buffer> {
        self.tables.buffer(buffer.index)
    }
}

/// Settings of an [`Executor`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct ExecutorOptions {
    /// Pooled textures and buffers no frame used for this many frames are released.
    pub keep_frames: u64,
    /// Write a GPU timestamp at the start and end of every render and compute group, when the
    /// device has `Features::TIMESTAMP_QUERY`; read them with [`Executor::read_timings`].
    pub timestamps: bool,
    /// Wrap every pass in a debug group named after it (for captures and GPU debuggers).
    pub debug_groups: bool,
}

impl Default for ExecutorOptions {
    fn default() -> Self {
        ExecutorOptions {
            keep_frames: 3,
            timestamps: false,
            debug_groups: true,
        }
    }
}

impl ExecutorOptions {
    /// Releases pooled resources no frame used for `frames` frames.
    pub fn with_keep_frames(mut self, frames: u64) -> Self {
        self.keep_frames = frames;
        self
    }

    /// Writes GPU timestamps around every render and compute group (when the device can).
    pub fn with_timestamps(mut self, on: bool) -> Self {
        self.timestamps = on;
        self
    }

    /// Switches the per-pass debug groups on or off.
    pub fn with_debug_groups(mut self, on: bool) -> Self {
        self.debug_groups = on;
        self
    }
}

/// A colour attachment as recorded in a given mode.
#[derive(Debug, Clone, Copy)]
struct ColorOps {
    resource: ResourceId,
    resolve: Option<ResourceId>,
    ops: wgpu::Operations<wgpu::Color>,
}

/// A depth/stencil attachment as recorded in a given mode.
#[derive(Debug, Clone, Copy)]
struct DepthOps {
    resource: ResourceId,
    depth: Option<wgpu::Operations<f32>>,
    stencil: Option<wgpu::Operations<u32>>,
}

/// A group lowered for one mode: everything the recording loop needs, computed once per plan.
#[derive(Debug)]
struct ExecGroup {
    kind: PassKind,
    passes: Vec<u32>,
    label: String,
    color: Vec<ColorOps>,
    depth: Option<DepthOps>,
    /// Textures to poison before the group (Poison mode).
    poison_before: Vec<ResourceId>,
    /// Attachments to poison after the group (Poison mode).
    poison_after: Vec<ResourceId>,
}

/// A plan lowered for one mode, with the pool entries its physical resources are bound to.
struct Prepared {
    fingerprint: u128,
    options: CompileOptions,
    mode: ExecuteMode,
    groups: Vec<ExecGroup>,
    /// Per physical resource: its pool entry (texture or buffer index), valid for `generation`.
    bound: Vec<u32>,
    generation: Option<u64>,
    last_used: u64,
}

/// Plans kept lowered at once (a renderer alternating between a few graph shapes keeps hitting).
const PREPARED_CAPACITY: usize = 4;

/// Records compiled graphs on one device, pooling physical textures and buffers across frames.
pub struct Executor {
    device: wgpu::Device,
    queue: wgpu::Queue,
    options: ExecutorOptions,
    pool: Pool,
    prepared: Vec<Prepared>,
    slots: Vec<Slot>,
    taken: Vec<bool>,
    frame: u64,
    timestamps: Option<timing::Timestamps>,
}

mod timing;
pub use timing::GroupTiming;

impl Executor {
    /// An executor for `device` with default options.
    pub fn new(device: &wgpu::Device, queue: &wgpu::Queue) -> Self {
        Self::with_options(device, queue, ExecutorOptions::default())
    }

    /// An executor with the given options.
    pub fn with_options(
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        options: ExecutorOptions,
    ) -> Self {
        let timestamps = (options.timestamps
            && device.features().contains(wgpu::Features::TIMESTAMP_QUERY))
        .then(|| timing::Timestamps::new(device, queue));
        Executor {
            device: device.clone(),
            queue: queue.clone(),
            options,
            pool: Pool::default(),
            prepared: Vec::new(),
            slots: Vec::new(),
            taken: Vec::new(),
            frame: 0,
            timestamps,
        }
    }

    /// The device the executor records for.
    pub fn device(&self) -> &wgpu::Device {
        &self.device
    }

    /// The queue.
    pub fn queue(&self) -> &wgpu::Queue {
        &self.queue
    }

    /// Pool counters: how many textures are held and how many were ever created.
    pub fn pool_stats(&self) -> PoolStats {
        self.pool.stats()
    }

    /// Whether GPU timestamps are being written.
    pub fn timestamps_enabled(&self) -> bool {
        self.timestamps.is_some()
    }

    /// GPU time of every render and compute group of the last submitted frame, in recording
    /// order. Waits for the GPU; empty when timestamps are off.
    pub fn read_timings(&mut self) -> Vec<GroupTiming> {
        match &mut self.timestamps {
            Some(t) => t.read(&self.device),
            None => Vec::new(),
        }
    }

    /// Records `plan` of `graph` into a fresh command encoder and returns the command buffer to
    /// submit. wgpu validation errors raised while recording come back as
    /// [`ExecuteError::Validation`] naming the pass, instead of reaching the device's error handler.
    pub fn execute(
        &mut self,
        graph: &mut RenderGraph<'_>,
        plan: &CompiledGraph,
        imports: &Imports,
        mode: ExecuteMode,
    ) -> Result<wgpu::CommandBuffer, ExecuteError> {
        let oom = self.device.push_error_scope(wgpu::ErrorFilter::OutOfMemory);
        let validation = self.device.push_error_scope(wgpu::ErrorFilter::Validation);
        let mut encoder = self
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor {
                label: Some("tilegraph frame"),
            });
        let recorded = self.record(graph, plan, imports, mode, &mut encoder);
        let commands = encoder.finish();
        let validation = pollster::block_on(validation.pop());
        let oom = pollster::block_on(oom.pop());
        recorded?;
        if let Some(error) = validation {
            let message = error.to_string();
            let pass = self
                .pass_named_in(&message, plan)
                .or_else(|| self.locate_validation_error(graph, plan, imports, mode));
            return Err(ExecuteError::Validation { pass, message });
        }
        if let Some(error) = oom {
            return Err(ExecuteError::OutOfMemory {
                message: error.to_string(),
            });
        }
        Ok(commands)
    }

    /// [`execute`](Self::execute), then submits the commands.
    pub fn execute_and_submit(
        &mut self,
        graph: &mut RenderGraph<'_>,
        plan: &CompiledGraph,
        imports: &Imports,
        mode: ExecuteMode,
    ) -> Result<wgpu::SubmissionIndex, ExecuteError> {
        let commands = self.execute(graph, plan, imports, mode)?;
        Ok(self.queue.submit([commands]))
    }

    /// The passes of the group whose label wgpu's message quotes.
    fn pass_named_in(&self, message: &str, plan: &CompiledGraph) -> Option<String> {
        let prepared = self.prepared.iter().max_by_key(|p| p.last_used)?;
        if prepared.fingerprint != plan.fingerprint() {
            return None;
        }
        prepared
            .groups
            .iter()
            .find(|g| {
                message.contains(&format!("'{}'", g.label))
                    || message.contains(&format!("\"{}\"", g.label))
                    || message.contains(&format!("`{}`", g.label))
            })
            .map(|g| g.label.clone())
    }

    /// Finds the group whose commands wgpu rejected. wgpu reports a frame's validation errors when
    /// its encoder finishes, naming the encoder, not the pass; so after a failed frame — never on
    /// the success path — the frame is recorded again one group per encoder, each under its own
    /// error scope, and the first group that fails is named. The closures of the groups up to that
    /// one run a second time; the commands are dropped.
    fn locate_validation_error(
        &mut self,
        graph: &mut RenderGraph<'_>,
        plan: &CompiledGraph,
        imports: &Imports,
        mode: ExecuteMode,
    ) -> Option<String> {
        let index = self.prepared.iter().position(|p| {
            p.fingerprint == plan.fingerprint() && p.options == *plan.options() && p.mode == mode
        })?;
        let Executor {
            device,
            queue,
            pool,
            prepared,
            slots,
            options,
            ..
        } = self;
        for group in &prepared[index].groups {
            let scope = device.push_error_scope(wgpu::ErrorFilter::Validation);
            let mut encoder = device.create_command_encoder(&wgpu::CommandEncoderDescriptor {
                label: Some(&group.label),
            });
            let mut recorder = Recorder {
                tables: Tables {
                    device,
                    queue,
                    slots,
                    pool,
                    imports,
                },
                encoder: &mut encoder,
                graph_passes: &graph.passes,
                timestamps: None,
                debug_groups: options.debug_groups,
            };
            let recorded = recorder.group(group, &mut graph.callbacks);
            drop(encoder.finish());
            let failed = pollster::block_on(scope.pop()).is_some();
            if recorded.is_err() || failed {
                return Some(group.label.clone());
            }
        }
        None
    }

    /// Records `plan` of `graph` into `encoder` (the caller owns error scopes and submission).
    /// A closure error abandons the frame: the encoder should then be dropped, not submitted.
    pub fn record(
        &mut self,
        graph: &mut RenderGraph<'_>,
        plan: &CompiledGraph,
        imports: &Imports,
        mode: ExecuteMode,
        encoder: &mut wgpu::CommandEncoder,
    ) -> Result<(), ExecuteError> {
        if plan.fingerprint() != graph.fingerprint() {
            return Err(ExecuteError::PlanMismatch {
                plan: plan.fingerprint(),
                graph: graph.fingerprint(),
            });
        }
        self.frame += 1;
        self.pool.evict(self.frame, self.options.keep_frames);
        let prepared = self.prepare(graph, plan, mode);
        self.bind(plan, prepared, imports, mode)?;

        let Executor {
            device,
            queue,
            pool,
            prepared: all_prepared,
            slots,
            timestamps,
            options,
            ..
        } = self;
        let prepared = &all_prepared[prepared];
        if let Some(t) = timestamps.as_mut() {
            t.begin_frame(device, prepared.groups.len());
        }
        let mut recorder = Recorder {
            tables: Tables {
                device,
                queue,
                slots,
                pool,
                imports,
            },
            encoder,
            graph_passes: &graph.passes,
            timestamps: timestamps.as_mut(),
            debug_groups: options.debug_groups,
        };
        for group in &prepared.groups {
            recorder.poison(&group.poison_before);
            recorder.group(group, &mut graph.callbacks)?;
            recorder.poison(&group.poison_after);
        }
        if let Some(t) = recorder.timestamps.take() {
            t.end_frame(recorder.encoder);
        }
        Ok(())
    }

    /// Lowers the plan for the mode, or finds it lowered; returns its index in `self.prepared`.
    fn prepare(
        &mut self,
        graph: &RenderGraph<'_>,
        plan: &CompiledGraph,
        mode: ExecuteMode,
    ) -> usize {
        let frame = self.frame;
        if let Some(i) = self.prepared.iter().position(|p| {
            p.fingerprint == plan.fingerprint() && p.options == *plan.options() && p.mode == mode
        }) {
            self.prepared[i].last_used = frame;
            return i;
        }
        // wgpu's GL backend ignores DontCare (it loads): record a clear there (DESIGN §2.1).
        let gl = self.device.adapter_info().backend == wgpu::Backend::Gl;
        let groups = lower(graph, plan, mode, gl);
        let prepared = Prepared {
            fingerprint: plan.fingerprint(),
            options: *plan.options(),
            mode,
            groups,
            bound: Vec::new(),
            generation: None,
            last_used: frame,
        };
        if self.prepared.len() < PREPARED_CAPACITY {
            self.prepared.push(prepared);
            self.prepared.len() - 1
        } else {
            let oldest = (0..self.prepared.len())
                .min_by_key(|&i| self.prepared[i].last_used)
                .unwrap_or(0);
            self.prepared[oldest] = prepared;
            oldest
        }
    }

    /// Binds every resource of the frame: physical resources to pool entries (kept from the last
    /// frame with this plan unless the pool changed), imports to what `imports` holds.
    fn bind(
        &mut self,
        plan: &CompiledGraph,
        index: usize,
        imports: &Imports,
        mode: ExecuteMode,
    ) -> Result<(), ExecuteError> {
        let prepared = &mut self.prepared[index];
        if prepared.generation != Some(self.pool.generation) {
            prepared.bound.clear();
            self.taken.clear();
            let mut taken_buffers = Vec::new();
            for physical in plan.physical() {
                let entry = match (physical.kind, physical.usage) {
                    (ResourceKind::Texture(desc), ResourceUsage::Texture(usage)) => {
                        let usage = if mode == ExecuteMode::Planned {
                            usage
                        } else {
                            usage - wgpu::TextureUsages::TRANSIENT_ATTACHMENT
                        };
                        self.pool
                            .acquire_texture(&self.device, desc, usage, &mut self.taken)
                    }
                    (ResourceKind::Buffer(desc), ResourceUsage::Buffer(usage)) => self
                        .pool
                        .acquire_buffer(&self.device, desc.size, usage, &mut taken_buffers),
                    _ => unreachable!("the compiler pairs textures with texture usages"),
                };
                prepared.bound.push(entry);
            }
            // Acquiring may have created entries; nothing moved, so the generation holds.
            prepared.generation = Some(self.pool.generation);
        }
        for (physical, &entry) in plan.physical().iter().zip(&prepared.bound) {
            match physical.kind {
                ResourceKind::Texture(_) => self.pool.touch_texture(entry, self.frame),
                ResourceKind::Buffer(_) => self.pool.touch_buffer(entry, self.frame),
            }
        }

        self.slots.clear();
        for (r, resource) in plan.resources().iter().enumerate() {
            let decl = plan.resource_decl(r as ResourceId);
            let slot = match (resource.physical, decl.kind) {
                _ if resource.culled => Slot::Unbound,
                (Some(p), ResourceKind::Texture(_)) => {
                    Slot::PoolTexture(prepared.bound[p as usize])
                }
                (Some(p), ResourceKind::Buffer(_)) => Slot::PoolBuffer(prepared.bound[p as usize]),
                (None, ResourceKind::Texture(desc)) => {
                    let bound = imports.texture_at(r as ResourceId).ok_or_else(|| {
                        ExecuteError::MissingImport {
                            resource: decl.name.to_string(),
                        }
                    })?;
                    check_imported_texture(&decl.name, desc, resource.usage, &bound.texture)?;
                    Slot::ImportTexture
                }
                (None, ResourceKind::Buffer(desc)) => {
                    let bound = imports.buffer_at(r as ResourceId).ok_or_else(|| {
                        ExecuteError::MissingImport {
                            resource: decl.name.to_string(),
                        }
                    })?;
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
                    Slot::ImportBuffer
                }
            };
            self.slots.push(slot);
        }
        Ok(())
    }
}

fn check_imported_texture(
    name: &str,
    desc: crate::declare::TextureDesc,
    usage: ResourceUsage,
    texture: &wgpu::Texture,
) -> Result<(), ExecuteError> {
    let mismatch = |message: String| ExecuteError::ImportMismatch {
        resource: name.to_owned(),
        message,
    };
    if texture.format() != desc.format {
        return Err(mismatch(format!(
            "format {:?}, declared {:?}",
            texture.format(),
            desc.format
        )));
    }
    if (texture.width(), texture.height()) != (desc.width, desc.height)
        || texture.depth_or_array_layers() < desc.layers
        || texture.sample_count() != desc.samples
    {
        return Err(mismatch(format!(
            "{}x{}x{} with {} samples, declared {}x{}x{} with {}",
            texture.width(),
            texture.height(),
            texture.depth_or_array_layers(),
            texture.sample_count(),
            desc.width,
            desc.height,
            desc.layers,
            desc.samples
        )));
    }
    if let ResourceUsage::Texture(needed) = usage {
        let missing = needed - texture.usage() - wgpu::TextureUsages::TRANSIENT_ATTACHMENT;
        if !missing.is_empty() {
            return Err(mismatch(format!("usage lacks {missing:?}")));
        }
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// Lowering: plan + mode → what to record. Runs once per plan and mode; frames reuse the result.

fn lower(
    graph: &RenderGraph<'_>,
    plan: &CompiledGraph,
    mode: ExecuteMode,
    gl: bool,
) -> Vec<ExecGroup> {
    let groups = match mode {
        ExecuteMode::Naive => plan.naive_groups(),
        ExecuteMode::Planned | ExecuteMode::Poison => plan.groups(),
    };
    let passes = graph.passes();
    let dont_care = plan.options().dont_care;
    // Which resources hold content before each group (Naive mode's clears of unwritten reads).
    let mut has_content: Vec<bool> = plan
        .resources()
        .iter()
        .enumerate()
        .map(|(r, _)| {
            plan.resource_decl(r as ResourceId)
                .import
                .is_some_and(|i| i.contents == crate::declare::ImportContents::Preserved)
        })
        .collect();
    let mut poisoned = vec![false; plan.resources().len()];

    let mut lowered = Vec::with_capacity(groups.len());
    for group in groups {
        let first = &passes[group.passes[0] as usize];
        let label = group
            .passes
            .iter()
            .map(|&p| plan.pass_name(p))
            .collect::<Vec<_>>()
            .join("+");
        let mut exec = ExecGroup {
            kind: group.kind,
            passes: group.passes.clone(),
            label,
            color: Vec::new(),
            depth: None,
            poison_before: Vec::new(),
            poison_after: Vec::new(),
        };
        if mode == ExecuteMode::Poison {
            exec.poison_before = textures_to_poison_before(plan, group, &mut poisoned);
        }
        for (slot, a) in group.color.iter().enumerate() {
            let access = first.color.get(slot).map(|c| c.access);
            let load = match (mode, a.load) {
                (ExecuteMode::Poison, _) if access == Some(Access::Write) => {
                    wgpu::LoadOp::Clear(POISON_COLOR)
                }
                (ExecuteMode::Poison, LoadOp::DontCare) => wgpu::LoadOp::Clear(POISON_COLOR),
                (ExecuteMode::Naive, LoadOp::Load)
                    if !has_content[a.resource as usize]
                        && access.is_some_and(Access::reads_prior) =>
                {
                    wgpu::LoadOp::Clear(resource_clear(plan, a.resource).color())
                }
                (_, LoadOp::Clear(v)) => wgpu::LoadOp::Clear(v.color()),
                (_, LoadOp::Load) => wgpu::LoadOp::Load,
                (_, LoadOp::DontCare) if gl => {
                    wgpu::LoadOp::Clear(resource_clear(plan, a.resource).color())
                }
                (_, LoadOp::DontCare) => match dont_care {
                    Some(token) => wgpu::LoadOp::DontCare(token),
                    None => wgpu::LoadOp::Clear(wgpu::Color::TRANSPARENT),
                },
            };
            let store = match a.store {
                StoreOp::Discard => wgpu::StoreOp::Discard,
                StoreOp::Store | StoreOp::None => wgpu::StoreOp::Store,
            };
            if mode == ExecuteMode::Poison && a.store == StoreOp::Discard {
                exec.poison_after.push(a.resource);
            }
            exec.color.push(ColorOps {
                resource: a.resource,
                resolve: a.resolve,
                ops: wgpu::Operations { load, store },
            });
        }
        if let Some(a) = &group.depth {
            let access = first.depth.map(|d| d.access);
            let format = match plan.resource_decl(a.resource).kind {
                ResourceKind::Texture(t) => t.format,
                ResourceKind::Buffer(_) => unreachable!("attachments are textures"),
            };
            let content = has_content[a.resource as usize];
            let read_only = a.read_only
                || (mode == ExecuteMode::Naive && access == Some(Access::Read) && content);
            let load = match (mode, a.load) {
                (ExecuteMode::Poison, _) if access == Some(Access::Write) => {
                    wgpu::LoadOp::Clear(ClearValue::DepthStencil {
                        depth: POISON_DEPTH,
                        stencil: POISON_STENCIL,
                    })
                }
                (ExecuteMode::Poison, LoadOp::DontCare) => {
                    wgpu::LoadOp::Clear(ClearValue::DepthStencil {
                        depth: POISON_DEPTH,
                        stencil: POISON_STENCIL,
                    })
                }
                (ExecuteMode::Naive, LoadOp::Load)
                    if !content && access.is_some_and(Access::reads_prior) =>
                {
                    wgpu::LoadOp::Clear(resource_clear(plan, a.resource))
                }
                (_, LoadOp::Clear(v)) => wgpu::LoadOp::Clear(v),
                (_, LoadOp::Load) => wgpu::LoadOp::Load,
                (_, LoadOp::DontCare) if gl => {
                    wgpu::LoadOp::Clear(resource_clear(plan, a.resource))
                }
                (_, LoadOp::DontCare) => match dont_care {
                    Some(token) => wgpu::LoadOp::DontCare(token),
                    None => wgpu::LoadOp::Clear(ClearValue::fast_default(format)),
                },
            };
            let store = match a.store {
                StoreOp::Discard => wgpu::StoreOp::Discard,
                StoreOp::Store | StoreOp::None => wgpu::StoreOp::Store,
            };
            if mode == ExecuteMode::Poison && a.store == StoreOp::Discard && !read_only {
                exec.poison_after.push(a.resource);
            }
            let split = |f: fn(&ClearValue) -> f32| match load {
                wgpu::LoadOp::Clear(v) => wgpu::LoadOp::Clear(f(&v)),
                wgpu::LoadOp::Load => wgpu::LoadOp::Load,
                wgpu::LoadOp::DontCare(t) => wgpu::LoadOp::DontCare(t),
            };
            let depth_load = split(ClearValue::depth);
            let stencil_load = match load {
                wgpu::LoadOp::Clear(v) => wgpu::LoadOp::Clear(v.stencil()),
                wgpu::LoadOp::Load => wgpu::LoadOp::Load,
                wgpu::LoadOp::DontCare(t) => wgpu::LoadOp::DontCare(t),
            };
            exec.depth = Some(if read_only {
                DepthOps {
                    resource: a.resource,
                    depth: None,
                    stencil: None,
                }
            } else {
                DepthOps {
                    resource: a.resource,
                    depth: format.has_depth_aspect().then_some(wgpu::Operations {
                        load: depth_load,
                        store,
                    }),
                    stencil: format.has_stencil_aspect().then_some(wgpu::Operations {
                        load: stencil_load,
                        store,
                    }),
                }
            });
        }
        for &p in &group.passes {
            mark_written(&passes[p as usize], &mut has_content);
        }
        lowered.push(exec);
    }
    lowered
}

/// The clear value an attachment access without its own falls back to.
fn resource_clear(plan: &CompiledGraph, r: ResourceId) -> ClearValue {
    let decl = plan.resource_decl(r);
    decl.clear.unwrap_or_else(|| match decl.kind {
        ResourceKind::Texture(t) => ClearValue::fast_default(t.format),
        ResourceKind::Buffer(_) => ClearValue::Color([0.0; 4]),
    })
}

/// Marks everything `pass` writes as holding content.
fn mark_written(pass: &PassDecl, has_content: &mut [bool]) {
    for c in &pass.color {
        has_content[c.resource as usize] = true;
        if let Some(t) = c.resolve {
            has_content[t as usize] = true;
        }
    }
    if let Some(d) = pass.depth
        && d.access != Access::Read
    {
        has_content[d.resource as usize] = true;
    }
    for &r in pass
        .storage_write
        .iter()
        .chain(&pass.storage_read_write)
        .chain(&pass.copy_dst)
    {
        has_content[r as usize] = true;
    }
}

/// Poison mode: textures whose contents are undefined when `group` first touches them — every
/// graph-owned texture at the start of its lifetime (a pooled or aliased texture holds whatever
/// its last user left), and imports with undefined contents.
fn textures_to_poison_before(
    plan: &CompiledGraph,
    group: &Group,
    poisoned: &mut [bool],
) -> Vec<ResourceId> {
    let mut out = Vec::new();
    let attachments = group
        .color
        .iter()
        .flat_map(|c| std::iter::once(c.resource).chain(c.resolve))
        .chain(group.depth.as_ref().map(|d| d.resource));
    for r in attachments {
        if poisoned[r as usize] {
            continue;
        }
        poisoned[r as usize] = true;
        let decl = plan.resource_decl(r);
        let undefined = decl
            .import
            .is_none_or(|i| i.contents == crate::declare::ImportContents::Undefined);
        if undefined {
            out.push(r);
        }
    }
    out
}

// ---------------------------------------------------------------------------------------------
// Recording.

/// Calls the closures of a group's passes on the open `$target`, each inside a debug group named
/// after the pass. Render, compute and copy groups differ only in the target and the variant.
macro_rules! call_passes {
    ($self:ident, $group:ident, $callbacks:ident, $target:expr, $variant:ident, $kind:literal) => {
        for &p in &$group.passes {
            let name = &*$self.graph_passes[p as usize].name;
            let ctx = PassContext {
                tables: $self.tables,
                pass: name,
            };
            match &mut $callbacks[p as usize] {
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
                None => {}
            }
        }
    };
}

struct Recorder<'r, 'e> {
    tables: Tables<'r>,
    encoder: &'e mut wgpu::CommandEncoder,
    graph_passes: &'r [PassDecl],
    timestamps: Option<&'r mut timing::Timestamps>,
    debug_groups: bool,
}

impl<'r> Recorder<'r, '_> {
    fn attachment_view(&self, r: ResourceId) -> &'r wgpu::TextureView {
        self.tables
            .attachment_view(r)
            .expect("attachments of live groups are bound")
    }

    /// Format and usage of a bound texture.
    fn texture_info(&self, r: ResourceId) -> Option<(wgpu::TextureFormat, wgpu::TextureUsages)> {
        let texture = self.tables.texture(r)?;
        Some((texture.format(), texture.usage()))
    }

    /// Overwrites the attachment view of each texture with poison (one clearing pass each).
    fn poison(&mut self, textures: &[ResourceId]) {
        for &r in textures {
            let Some((format, usage)) = self.texture_info(r) else {
                continue;
            };
            if !usage.contains(wgpu::TextureUsages::RENDER_ATTACHMENT) {
                continue;
            }
            let view = self.attachment_view(r);
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
    }

    fn group(
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
        // wgpu allows at most eight colour attachments; the compiler enforces it.
        let mut color: [Option<wgpu::RenderPassColorAttachment<'_>>; 8] = Default::default();
        for (slot, c) in group.color.iter().enumerate() {
            color[slot] = Some(wgpu::RenderPassColorAttachment {
                view: self.attachment_view(c.resource),
                depth_slice: None,
                resolve_target: c.resolve.map(|t| self.attachment_view(t)),
                ops: c.ops,
            });
        }
        let depth = group.depth.map(|d| wgpu::RenderPassDepthStencilAttachment {
            view: self.attachment_view(d.resource),
            depth_ops: d.depth,
            stencil_ops: d.stencil,
        });
        let timestamp_writes = self
            .timestamps
            .as_deref_mut()
            .and_then(|t| t.next_render(&group.label));
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
        call_passes!(self, group, callbacks, &mut cpass, Compute, "compute");
        Ok(())
    }

    fn copy_group(
        &mut self,
        group: &ExecGroup,
        callbacks: &mut [Option<PassCallback<'_>>],
    ) -> Result<(), ExecuteError> {
        call_passes!(self, group, callbacks, &mut *self.encoder, Copy, "copy");
        Ok(())
    }
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

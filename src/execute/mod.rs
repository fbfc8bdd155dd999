//! Execute: records a compiled graph into wgpu command encoders on a real adapter.
//!
//! [`Executor::execute`] walks the plan's groups and opens one wgpu pass per group with the
//! inferred load/store ops, calling each pass's closure with the open pass and a
//! [`PassContext`](crate::PassContext) that resolves the handles the pass declared to this
//! frame's wgpu objects. Graph-owned textures come from a pool that lives across frames; imported
//! ones are bound per frame through [`Imports`]; history textures are the executor's own.
//!
//! Three [`ExecuteMode`]s record the same frame three ways, so the plan's decisions can be checked
//! on real hardware: for a correctly declared graph they produce bit-identical results. With
//! recording threads, runs of consecutive groups are recorded into their own encoders at once,
//! after everything that needs `&mut Executor` (pool, views, histories) is done.
//!
//! | file | role |
//! |---|---|
//! | `lower.rs` | plan + mode + backend → the ops to record (once per plan) |
//! | `frame.rs` | the frame's resource tables, the recording loop, one run of groups on a recording thread |
//! | `pool.rs` | pooled textures, buffers and their views |
//! | `imports.rs` | what the caller binds each frame |
//! | `history.rs` | history textures, swapped every frame |
//! | `timing.rs` | optional GPU timestamps |

mod frame;
mod history;
mod imports;
mod lower;
mod pool;
mod stats;
mod timing;

use std::sync::{Arc, Mutex, Weak};

use crate::context::Views;
use crate::declare::RenderGraph;
use crate::options::CompileOptions;
use crate::plan::{CompiledGraph, ResourceUsage};
use crate::resource::{PassId, ResourceDecl, ResourceId, ResourceKind};

use frame::{Chunk, ChunkCallbacks, ChunkResult, Recorded, Recorder, Slot, Tables, WorkerErrors};
use history::HistoryPair;
pub use imports::Imports;
use imports::check_imported_texture;
use lower::{DontCareSupport, ExecGroup, lower};
pub use lower::{POISON_COLOR, POISON_DEPTH, POISON_STENCIL};
use pool::Pool;
pub use pool::PoolStats;
pub use stats::ExecutorStats;
pub use timing::GroupTiming;

/// Error a pass closure returns; aborts the frame.
pub use crate::context::PassError;

/// How the executor records a plan.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub enum ExecuteMode {
    /// The compiled plan: merged groups, inferred ops, transient textures.
    #[default]
    Planned,
    /// The naive groups ([`CompiledGraph::naive_groups`]) of the declared order, the baseline:
    /// every live pass its own render pass, `Clear` only where a pass declares `clear` (or reads
    /// contents nothing wrote), `Load` otherwise, `Store` always, nothing transient.
    Naive,
    /// The plan of the declared order ([`CompiledGraph::as_declared`]), made to fail loudly where
    /// it depends on contents it declared dead: every attachment whose first access in a group
    /// is `write` (so its plan load is `DontCare` with the token, `Clear` without) is cleared to
    /// poison, every `Discard`ed attachment is overwritten with poison after its group, and
    /// every subresource of every graph-owned texture (and of every imported one with undefined
    /// contents) that is attached somewhere is poisoned before the first group that attaches it. Textures used only as storage or copies
    /// are not poisoned. Nothing is transient, since poisoned textures are stored to.
    Poison,
}

impl ExecuteMode {
    /// The plan this mode records: the plan itself for `Planned`, the plan of the declared
    /// order for `Naive` and `Poison` ([`CompiledGraph::as_declared`]), so that their images
    /// check what restructuring did.
    pub fn plan_to_record(self, plan: &CompiledGraph) -> &CompiledGraph {
        match self {
            ExecuteMode::Planned => plan,
            ExecuteMode::Naive | ExecuteMode::Poison => plan.as_declared(),
        }
    }

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

/// Why a frame could not be recorded. The pool stays usable after any of them (but a lost
/// device stays lost).
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
    /// A live pass has no closure (its builder was dropped, or ended with `finish()`, and no
    /// closure was set with [`RenderGraph::set_callback`]).
    #[error(
        "pass `{pass}` is live but has no closure; give it one with `.execute(...)` or `RenderGraph::set_callback`"
    )]
    MissingCallback {
        /// The pass.
        pass: String,
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
    /// A multiview pass has more views than the device renders in one multiview render pass
    /// (`Limits::max_multiview_view_count`).
    #[error(
        "pass `{pass}` renders {views} views; the device renders at most {limit} in one multiview render pass (turn multiview off with ExecutorOptions::with_multiview(false) to record one render pass per view)"
    )]
    MultiviewLimit {
        /// The pass (or the merged passes, joined by `+`).
        pass: String,
        /// Its views.
        views: u32,
        /// The device's `max_multiview_view_count`.
        limit: u32,
    },
    /// The device ran out of memory while recording.
    #[error("out of GPU memory while recording the frame: {message}")]
    OutOfMemory {
        /// wgpu's message.
        message: String,
    },
    /// A pass closure panicked; the frame was abandoned. The executor stays usable.
    #[error("pass `{pass}` panicked while recording: {message}")]
    PassPanicked {
        /// The pass.
        pass: String,
        /// The panic's message.
        message: String,
    },
    /// A texture or buffer the executor would create is larger than the device allows.
    /// Checked before anything is allocated.
    #[error(
        "resource `{resource}` needs {what} {value}, more than the device's `{limit}` ({max}); make it smaller or request a device with higher limits"
    )]
    ExceedsDeviceLimit {
        /// The resource.
        resource: String,
        /// What is too large: `width`, `height`, `array layers` or `size in bytes`.
        what: &'static str,
        /// The resource's value.
        value: u64,
        /// The name of the `wgpu::Limits` field, e.g. `max_texture_dimension_2d`.
        limit: &'static str,
        /// The device's limit.
        max: u64,
    },
    /// The device was lost (destroyed, or lost by the driver): nothing can be recorded on it
    /// any more. Create a new device and a new executor.
    #[error("the device is lost ({reason:?}): {message}")]
    DeviceLost {
        /// Why, as wgpu reported it.
        reason: wgpu::DeviceLostReason,
        /// wgpu's message (often empty).
        message: String,
    },
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
    /// Record multiview passes as one multiview render pass where the device has
    /// `Features::MULTIVIEW` and renders at least two views in one (`max_multiview_view_count`);
    /// off, or without either, one render pass per view
    /// ([guide](crate::guide#multiview)).
    pub multiview: bool,
    /// Threads that record a frame's groups in parallel: 1 (the default) records on the calling
    /// thread; more records chunks of consecutive groups into their own command encoders on a
    /// pool of this many threads that the executor keeps; 0 takes one per available core.
    pub recording_threads: usize,
}

impl Default for ExecutorOptions {
    fn default() -> Self {
        ExecutorOptions {
            keep_frames: 3,
            timestamps: false,
            debug_groups: true,
            multiview: true,
            recording_threads: 1,
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

    /// Records multiview passes in one multiview render pass where the device can (`true`, the
    /// default), or always one render pass per view (`false`, to compare).
    pub fn with_multiview(mut self, on: bool) -> Self {
        self.multiview = on;
        self
    }
    /// Records frames on `threads` threads ([`recording_threads`](Self::recording_threads);
    /// 0: one per available core). [`Executor::execute`] then returns one command buffer per
    /// chunk of groups, to submit in order.
    pub fn with_recording_threads(mut self, threads: usize) -> Self {
        self.recording_threads = threads;
        self
    }
}

/// The command buffers of one recorded frame, in the order they are to be submitted:
/// `queue.submit(commands)`. One when the frame was recorded on the calling thread, one per
/// chunk of groups when it was recorded on several threads.
#[derive(Debug)]
#[must_use = "submit the commands with `queue.submit(commands)`"]
pub struct FrameCommands(Vec<wgpu::CommandBuffer>);

impl FrameCommands {
    /// How many command buffers the frame was recorded into.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether there is none (never the case for a recorded frame).
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl IntoIterator for FrameCommands {
    type Item = wgpu::CommandBuffer;
    type IntoIter = std::vec::IntoIter<wgpu::CommandBuffer>;

    fn into_iter(self) -> Self::IntoIter {
        self.0.into_iter()
    }
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
    /// With recording threads: the chunks of consecutive groups recorded apart, and per pass
    /// the chunk that records it (`NOT_RECORDED` for culled passes).
    chunks: Vec<std::ops::Range<usize>>,
    pass_chunk: Vec<u32>,
}

const NOT_RECORDED: u32 = u32::MAX;

/// Plans kept lowered at once (a renderer alternating between a few graph shapes keeps hitting).
const PREPARED_CAPACITY: usize = 4;

/// Records compiled graphs on one device, pooling physical textures and buffers across frames.
pub struct Executor {
    device: wgpu::Device,
    queue: wgpu::Queue,
    options: ExecutorOptions,
    dont_care: DontCareSupport,
    pool: Pool,
    prepared: Vec<Prepared>,
    slots: Vec<Slot>,
    taken: Vec<bool>,
    histories: Vec<HistoryPair>,
    frame: u64,
    timestamps: Option<timing::Timestamps>,
    /// lavapipe resolves into layer 0 of an array whatever layer the view names.
    resolve_layers_via_copy: bool,
    /// The recording threads (none when frames are recorded on the calling thread).
    workers: Option<rayon_core::ThreadPool>,
    lost: Arc<LostState>,
}

/// What wgpu said when it reported the device lost; shared by every executor of the device.
type LostState = Mutex<Option<(wgpu::DeviceLostReason, String)>>;

/// Per device, the loss state its executors share: wgpu keeps one lost callback per device, so
/// the first executor of a device sets it and later ones join. The callback holds the state
/// weakly and the entry goes when the device's last executor drops, so nothing here keeps a
/// device alive once its executors are gone.
static LOST_STATES: Mutex<Vec<(wgpu::Device, Weak<LostState>)>> = Mutex::new(Vec::new());

fn lost_state_of(device: &wgpu::Device) -> Arc<LostState> {
    let mut states = LOST_STATES.lock().unwrap_or_else(|e| e.into_inner());
    states.retain(|(_, state)| state.strong_count() > 0);
    if let Some(state) = states
        .iter()
        .find(|(d, _)| d == device)
        .and_then(|(_, state)| state.upgrade())
    {
        return state;
    }
    let state = Arc::new(Mutex::new(None));
    let weak = Arc::downgrade(&state);
    device.set_device_lost_callback(move |reason, message| {
        if let Some(state) = weak.upgrade() {
            *state.lock().unwrap_or_else(|e| e.into_inner()) = Some((reason, message));
        }
    });
    states.push((device.clone(), Arc::downgrade(&state)));
    state
}

impl Drop for Executor {
    fn drop(&mut self) {
        // The last executor of the device forgets it (counted under the lock, which every
        // executor takes to join).
        let mut states = LOST_STATES.lock().unwrap_or_else(|e| e.into_inner());
        if Arc::strong_count(&self.lost) == 1 {
            states.retain(|(d, state)| d != &self.device && state.strong_count() > 0);
        }
    }
}

impl Executor {
    /// An executor for `device` with default options.
    pub fn new(device: &wgpu::Device, queue: &wgpu::Queue) -> Self {
        Self::with_options(device, queue, ExecutorOptions::default())
    }

    /// An executor with the given options. The first executor of a device sets the device's
    /// lost callback, so that a lost device becomes [`ExecuteError::DeviceLost`] for every
    /// executor of it (wgpu keeps one callback per device: one set later replaces it). With [`ExecutorOptions::recording_threads`] above 1 it starts its
    /// pool of recording threads.
    pub fn with_options(
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        options: ExecutorOptions,
    ) -> Self {
        let timestamps = (options.timestamps
            && device.features().contains(wgpu::Features::TIMESTAMP_QUERY))
        .then(|| timing::Timestamps::new(device, queue));
        let threads = match options.recording_threads {
            0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
            n => n,
        };
        let workers = (threads > 1)
            .then(|| {
                rayon_core::ThreadPoolBuilder::new()
                    .num_threads(threads)
                    .thread_name(|i| format!("tilegraph-record-{i}"))
                    .build()
                    .map_err(|e| {
                        log::warn!(
                            "no recording threads ({e}); frames are recorded on the calling thread"
                        )
                    })
                    .ok()
            })
            .flatten();
        let lost = lost_state_of(device);
        Executor {
            device: device.clone(),
            queue: queue.clone(),
            options,
            dont_care: DontCareSupport::of(&device.adapter_info()),
            pool: Pool {
                split_multisampled_arrays: !(options.multiview
                    && Views::multiview_supported(device)
                    && device
                        .features()
                        .contains(wgpu::Features::MULTISAMPLE_ARRAY)),
                ..Pool::default()
            },
            prepared: Vec::new(),
            slots: Vec::new(),
            taken: Vec::new(),
            histories: Vec::new(),
            frame: 0,
            timestamps,
            resolve_layers_via_copy: {
                let info = device.adapter_info();
                info.backend == wgpu::Backend::Vulkan && info.name.starts_with("llvmpipe")
            },
            workers,
            lost,
        }
    }

    /// How many threads record a frame (1: the calling thread).
    pub fn recording_threads(&self) -> usize {
        self.workers
            .as_ref()
            .map_or(1, rayon_core::ThreadPool::current_num_threads)
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

    /// Whether multiview passes are recorded as one multiview render pass: the option is on and
    /// the device has `Features::MULTIVIEW`.
    pub fn multiview_enabled(&self) -> bool {
        self.options.multiview && Views::multiview_supported(&self.device)
    }

    /// Whether multisampled arrays are one texture: where multiview records them. Elsewhere
    /// (no multiview, no `Features::MULTISAMPLE_ARRAY`) they are one texture per layer, as
    /// render passes of one view attach them; resolving from a layer of a multisampled array
    /// loses the resolve on lavapipe.
    fn multisample_arrays(&self) -> bool {
        !self.pool.split_multisampled_arrays
    }

    /// Everything the executor holds now: pool, lowered plans, histories, views and bytes. Stays
    /// flat once a renderer's frame shapes are warm (see [`ExecutorStats`]).
    pub fn stats(&self) -> ExecutorStats {
        let (pool_texture_bytes, buffer_bytes) = self.pool.bytes();
        let history_bytes = self
            .histories
            .iter()
            .map(|h| 2 * stats::texture_bytes(&h.desc()))
            .fold(0, u64::saturating_add);
        let views = self
            .pool
            .textures
            .iter()
            .map(|t| &t.views)
            .chain(self.histories.iter().flat_map(HistoryPair::views))
            .map(stats::view_count)
            .sum();
        ExecutorStats {
            pool: self.pool.stats(),
            prepared_plans: self.prepared.len(),
            history_textures: 2 * self.histories.len(),
            texture_views: views,
            texture_bytes: pool_texture_bytes.saturating_add(history_bytes),
            buffer_bytes,
            timestamp_queries: self
                .timestamps
                .as_ref()
                .map_or(0, timing::Timestamps::queries),
        }
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

    /// Records `plan` of `graph` and returns the command buffers to submit, in order. wgpu
    /// validation errors raised while recording come back as [`ExecuteError::Validation`]
    /// naming the pass, instead of reaching the device's error handler; a closure that returns
    /// an error or panics fails the frame with [`ExecuteError::Pass`] or
    /// [`ExecuteError::PassPanicked`], and the executor stays usable.
    ///
    /// With [recording threads](ExecutorOptions::with_recording_threads), chunks of
    /// consecutive groups are recorded at once into their own encoders; everything that
    /// allocates (pooled textures, views, histories) happens before, on the calling thread.
    /// When a closure fails, closures of other chunks may already have run.
    pub fn execute(
        &mut self,
        graph: &mut RenderGraph<'_>,
        plan: &CompiledGraph,
        imports: &Imports,
        mode: ExecuteMode,
    ) -> Result<FrameCommands, ExecuteError> {
        let plan = mode.plan_to_record(plan);
        self.check_device()?;
        let oom = self.device.push_error_scope(wgpu::ErrorFilter::OutOfMemory);
        let validation = self.device.push_error_scope(wgpu::ErrorFilter::Validation);
        let recorded = self.record_frame(graph, plan, imports, mode);
        let (commands, mut worker_errors) = match recorded {
            Ok(Recorded { commands, errors }) => (Ok(FrameCommands(commands)), errors),
            Err(e) => (Err(e), WorkerErrors::default()),
        };
        let validation = ready_or_block(validation.pop()).or(worker_errors.validation.take());
        let oom = ready_or_block(oom.pop()).or(worker_errors.oom.take());
        self.check_device()?;
        let commands = commands?;
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
        Ok(self.queue.submit(commands))
    }

    /// [`ExecuteError::DeviceLost`] once wgpu has reported the device lost.
    fn check_device(&self) -> Result<(), ExecuteError> {
        match &*self.lost.lock().unwrap_or_else(|e| e.into_inner()) {
            Some((reason, message)) => Err(ExecuteError::DeviceLost {
                reason: *reason,
                message: message.clone(),
            }),
            None => Ok(()),
        }
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
    /// the success path — the frame is recorded again one group per encoder on the calling
    /// thread, each under its own error scope, and the first group that fails is named. The
    /// closures of the groups up to that one run a second time; the commands are dropped.
    fn locate_validation_error(
        &mut self,
        graph: &mut RenderGraph<'_>,
        plan: &CompiledGraph,
        imports: &Imports,
        mode: ExecuteMode,
    ) -> Option<String> {
        let index = self.prepared_index(plan, mode)?;
        let Executor {
            device,
            queue,
            pool,
            prepared,
            slots,
            options,
            histories,
            resolve_layers_via_copy,
            ..
        } = self;
        for (i, group) in prepared[index].groups.iter().enumerate() {
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
                    histories,
                    graph: graph.id,
                    resources: &graph.resources,
                },
                encoder: &mut encoder,
                graph_passes: &graph.passes,
                timestamps: None,
                debug_groups: options.debug_groups,
                resolve_layers_via_copy: *resolve_layers_via_copy,
            };
            let recorded = recorder.group(i, group, &mut graph.callbacks[..]);
            drop(encoder.finish());
            let failed = ready_or_block(scope.pop()).is_some();
            if recorded.is_err() || failed {
                return Some(group.label.clone());
            }
        }
        None
    }

    /// Records `plan` of `graph` into `encoder` (the caller owns error scopes and submission),
    /// always on the calling thread. A closure error abandons the frame: the encoder should then
    /// be dropped, not submitted.
    pub fn record(
        &mut self,
        graph: &mut RenderGraph<'_>,
        plan: &CompiledGraph,
        imports: &Imports,
        mode: ExecuteMode,
        encoder: &mut wgpu::CommandEncoder,
    ) -> Result<(), ExecuteError> {
        let plan = mode.plan_to_record(plan);
        self.check_device()?;
        let index = self.begin_frame(graph, plan, imports, mode)?;
        self.record_serial(graph, index, imports, encoder)?;
        self.end_frame(graph, plan);
        Ok(())
    }

    /// Records the frame into one encoder on the calling thread, or into one per chunk on the
    /// recording threads.
    fn record_frame(
        &mut self,
        graph: &mut RenderGraph<'_>,
        plan: &CompiledGraph,
        imports: &Imports,
        mode: ExecuteMode,
    ) -> Result<Recorded, ExecuteError> {
        let index = self.begin_frame(graph, plan, imports, mode)?;
        let recorded = if self.workers.is_some() && self.prepared[index].chunks.len() > 1 {
            self.record_parallel(graph, index, imports)?
        } else {
            let mut encoder = self
                .device
                .create_command_encoder(&wgpu::CommandEncoderDescriptor {
                    label: Some("tilegraph frame"),
                });
            self.record_serial(graph, index, imports, &mut encoder)?;
            Recorded {
                commands: vec![encoder.finish()],
                errors: WorkerErrors::default(),
            }
        };
        self.end_frame(graph, plan);
        Ok(recorded)
    }

    /// Everything a frame needs `&mut self` for, before recording: checks, lowering, limits,
    /// pool allocation, bindings, timestamp slots. Returns the prepared plan's index.
    fn begin_frame(
        &mut self,
        graph: &RenderGraph<'_>,
        plan: &CompiledGraph,
        imports: &Imports,
        mode: ExecuteMode,
    ) -> Result<usize, ExecuteError> {
        if plan.fingerprint() != graph.fingerprint() {
            return Err(ExecuteError::PlanMismatch {
                plan: plan.fingerprint(),
                graph: graph.fingerprint(),
            });
        }
        let prepared = self.prepare(plan, mode)?;
        if !graph.histories.is_empty() {
            check_histories(graph, &self.device.limits())?;
        }
        self.frame += 1;
        self.prepared[prepared].last_used = self.frame;
        self.pool.evict(self.frame, self.options.keep_frames);
        self.bind(graph, plan, prepared, imports, mode)?;
        if let Some(t) = self.timestamps.as_mut() {
            t.begin_frame(&self.device, &self.prepared[prepared].groups);
        }
        Ok(prepared)
    }

    /// This frame's history textures become the next frame's previous ones.
    fn end_frame(&mut self, graph: &RenderGraph<'_>, plan: &CompiledGraph) {
        for &(_, current) in &graph.histories {
            if let Slot::History(h, _) = self.slots[current.index()] {
                let wrote = !plan.resources()[current.index()].culled;
                self.histories[h as usize].swap(wrote);
            }
        }
    }

    fn record_serial(
        &mut self,
        graph: &mut RenderGraph<'_>,
        index: usize,
        imports: &Imports,
        encoder: &mut wgpu::CommandEncoder,
    ) -> Result<(), ExecuteError> {
        let Executor {
            device,
            queue,
            pool,
            prepared,
            slots,
            timestamps,
            options,
            histories,
            resolve_layers_via_copy,
            ..
        } = self;
        let mut recorder = Recorder {
            tables: Tables {
                device,
                queue,
                slots,
                pool,
                imports,
                histories,
                graph: graph.id,
                resources: &graph.resources,
            },
            encoder: &mut *encoder,
            graph_passes: &graph.passes,
            timestamps: timestamps.as_ref().and_then(|t| t.frame_queries()),
            debug_groups: options.debug_groups,
            resolve_layers_via_copy: *resolve_layers_via_copy,
        };
        for (i, group) in prepared[index].groups.iter().enumerate() {
            recorder.group(i, group, &mut graph.callbacks[..])?;
        }
        if let Some(t) = timestamps.as_mut() {
            t.end_frame(encoder);
        }
        Ok(())
    }

    /// Records the prepared plan's chunks on the recording threads, each into its own encoder
    /// under that thread's own error scopes (wgpu's error scopes are per thread). Each thread
    /// also finishes its encoder: wgpu 30 encodes and validates a pass's commands there, so that
    /// is most of the work.
    fn record_parallel(
        &mut self,
        graph: &mut RenderGraph<'_>,
        index: usize,
        imports: &Imports,
    ) -> Result<Recorded, ExecuteError> {
        let Executor {
            device,
            queue,
            pool,
            prepared,
            slots,
            timestamps,
            options,
            histories,
            workers,
            resolve_layers_via_copy,
            ..
        } = self;
        let prepared = &prepared[index];
        let workers = workers.as_ref().expect("checked by the caller");
        let mut shares: Vec<ChunkCallbacks<'_, '_>> = prepared
            .chunks
            .iter()
            .map(|_| ChunkCallbacks(Vec::new()))
            .collect();
        for (p, callback) in graph.callbacks.iter_mut().enumerate() {
            match prepared.pass_chunk.get(p) {
                Some(&c) if c != NOT_RECORDED => {
                    shares[c as usize].0.push((PassId::new(p), callback))
                }
                _ => {}
            }
        }
        let tables = Tables {
            device,
            queue,
            slots,
            pool,
            imports,
            histories,
            graph: graph.id,
            resources: &graph.resources,
        };
        let chunk = Chunk {
            tables,
            groups: &prepared.groups,
            graph_passes: &graph.passes,
            timestamps: timestamps.as_ref().and_then(|t| t.frame_queries()),
            debug_groups: options.debug_groups,
            resolve_layers_via_copy: *resolve_layers_via_copy,
        };
        let mut results: Vec<Option<ChunkResult>> = prepared.chunks.iter().map(|_| None).collect();
        workers.scope(|scope| {
            for ((range, share), result) in prepared.chunks.iter().zip(shares).zip(&mut results) {
                let range = range.clone();
                scope.spawn(move |_| *result = Some(chunk.record(range, share)));
            }
        });
        let mut recorded = Recorded {
            commands: Vec::with_capacity(results.len() + 1),
            errors: WorkerErrors::default(),
        };
        let mut failed = None;
        for result in results {
            let result = result.expect("every chunk ran");
            recorded.errors.validation = recorded.errors.validation.or(result.errors.validation);
            recorded.errors.oom = recorded.errors.oom.or(result.errors.oom);
            match result.commands {
                Ok(commands) => recorded.commands.push(commands),
                // The first failing chunk in plan order names the frame's error.
                Err(e) => failed = failed.or(Some(e)),
            }
        }
        if let Some(e) = failed {
            return Err(e);
        }
        if let Some(t) = timestamps.as_mut() {
            // The timestamps are resolved after every chunk, in a command buffer of their own.
            let mut encoder = device.create_command_encoder(&wgpu::CommandEncoderDescriptor {
                label: Some("tilegraph timestamps"),
            });
            t.end_frame(&mut encoder);
            recorded.commands.push(encoder.finish());
        }
        Ok(recorded)
    }

    /// Where `plan` is already lowered for `mode`.
    fn prepared_index(&self, plan: &CompiledGraph, mode: ExecuteMode) -> Option<usize> {
        self.prepared.iter().position(|p| {
            p.fingerprint == plan.fingerprint() && p.options == *plan.options() && p.mode == mode
        })
    }

    /// Lowers the plan for the mode, or finds it lowered; returns its index in `self.prepared`.
    /// A plan is checked against the device's limits when it is first lowered.
    fn prepare(&mut self, plan: &CompiledGraph, mode: ExecuteMode) -> Result<usize, ExecuteError> {
        if let Some(i) = self.prepared_index(plan, mode) {
            return Ok(i);
        }
        let limits = self.device.limits();
        check_limits(plan, &limits)?;
        let groups = lower(
            plan,
            mode,
            self.dont_care,
            self.multiview_enabled(),
            self.multisample_arrays(),
        );
        // Groups recorded as one multiview render pass fit the device's view count.
        if let Some(g) = groups
            .iter()
            .find(|g| g.multiview.is_some() && g.views > limits.max_multiview_view_count)
        {
            return Err(ExecuteError::MultiviewLimit {
                pass: g.label.clone(),
                views: g.views,
                limit: limits.max_multiview_view_count,
            });
        }
        let threads = self.recording_threads();
        let chunks = if threads > 1 {
            chunk_groups(&groups, CHUNKS_PER_THREAD * threads)
        } else {
            Vec::new()
        };
        let mut pass_chunk = vec![NOT_RECORDED; plan.passes().len()];
        for (c, range) in chunks.iter().enumerate() {
            for group in &groups[range.clone()] {
                for &p in &group.passes {
                    pass_chunk[p.index()] = c as u32;
                }
            }
        }
        let prepared = Prepared {
            fingerprint: plan.fingerprint(),
            options: *plan.options(),
            mode,
            groups,
            bound: Vec::new(),
            generation: None,
            last_used: self.frame,
            chunks,
            pass_chunk,
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

    /// Binds every resource of the frame: physical resources to pool entries (kept from the last
    /// frame with this plan unless the pool changed), imports to what `imports` holds.
    fn bind(
        &mut self,
        graph: &RenderGraph<'_>,
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
                        let mut usage = if mode == ExecuteMode::Planned {
                            usage
                        } else {
                            usage - wgpu::TextureUsages::TRANSIENT_ATTACHMENT
                        };
                        // An array that may be resolved into takes the detour's copy.
                        if self.resolve_layers_via_copy
                            && desc.layers > 1
                            && desc.samples == 1
                            && usage.contains(wgpu::TextureUsages::RENDER_ATTACHMENT)
                        {
                            usage |= wgpu::TextureUsages::COPY_DST;
                        }
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

        let histories = self.bind_histories(graph, plan);
        self.slots.clear();
        let bound = &self.prepared[index].bound;
        for (r, resource) in plan.resources().iter().enumerate() {
            let id = ResourceId::new(r);
            let decl = plan.resource_decl(id);
            let history = histories.iter().find(|h| h.0 == id);
            let slot = match (resource.physical, decl.kind) {
                _ if resource.culled => Slot::Unbound,
                _ if history.is_some() => {
                    let &(_, pair, current) = history.expect("matched");
                    Slot::History(pair, current)
                }
                (Some(p), ResourceKind::Texture(_)) => Slot::PoolTexture(bound[p.index()]),
                (Some(p), ResourceKind::Buffer(_)) => Slot::PoolBuffer(bound[p.index()]),
                (None, ResourceKind::Texture(desc)) => {
                    let (texture, _) =
                        imports
                            .texture_at(id)
                            .ok_or_else(|| ExecuteError::MissingImport {
                                resource: decl.name.to_string(),
                            })?;
                    check_imported_texture(&decl.name, desc, resource.usage, texture)?;
                    Slot::ImportTexture
                }
                (None, ResourceKind::Buffer(desc)) => {
                    let bound =
                        imports
                            .buffer_at(id)
                            .ok_or_else(|| ExecuteError::MissingImport {
                                resource: decl.name.to_string(),
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

    /// Finds or makes the two textures of every history the graph declares; returns
    /// (resource, history index, is `current`) for both halves of each.
    fn bind_histories(
        &mut self,
        graph: &RenderGraph<'_>,
        plan: &CompiledGraph,
    ) -> Vec<(ResourceId, u32, bool)> {
        let mut out = Vec::with_capacity(graph.histories.len() * 2);
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
            let index = match found {
                Some(i) if self.histories[i].fits(desc, usage) => i,
                // A resize or a new use: new textures, and no valid history yet.
                Some(i) => {
                    self.histories[i] =
                        HistoryPair::new(&self.device, decl.name.clone(), desc, usage);
                    i
                }
                None => {
                    self.histories.push(HistoryPair::new(
                        &self.device,
                        decl.name.clone(),
                        desc,
                        usage,
                    ));
                    self.histories.len() - 1
                }
            };
            self.histories[index].last_frame = self.frame;
            out.push((previous, index as u32, false));
            out.push((current, index as u32, true));
        }
        // Histories no frame declared for a while are released.
        let (frame, keep) = (self.frame, self.options.keep_frames);
        if self
            .histories
            .iter()
            .any(|h| frame.saturating_sub(h.last_frame) > keep)
        {
            let keys: Vec<_> = out
                .iter()
                .map(|&(_, i, _)| self.histories[i as usize].key.clone())
                .collect();
            self.histories
                .retain(|h| frame.saturating_sub(h.last_frame) <= keep);
            // Indices moved: look them up again by key.
            for (entry, key) in out.iter_mut().zip(keys) {
                entry.1 = self
                    .histories
                    .iter()
                    .position(|h| h.key == key)
                    .expect("this frame's histories are kept") as u32;
            }
        }
        out
    }
}

/// Chunks per recording thread: a few, so that a thread whose chunk records fast takes another
/// (groups differ in cost), yet not one per group (each chunk is a command buffer).
const CHUNKS_PER_THREAD: usize = 2;

/// Splits the groups into at most `count` runs of consecutive groups with about as many passes
/// each (the executor cannot know what a closure costs; a pass is the unit it sees).
fn chunk_groups(groups: &[ExecGroup], count: usize) -> Vec<std::ops::Range<usize>> {
    let total: usize = groups.iter().map(|g| g.passes.len().max(1)).sum();
    let count = count.clamp(1, groups.len().max(1));
    let mut chunks = Vec::with_capacity(count);
    let (mut start, mut weight) = (0, 0);
    for (i, group) in groups.iter().enumerate() {
        weight += group.passes.len().max(1);
        // End the chunk once it holds its share of the passes seen so far.
        if weight * count >= total * (chunks.len() + 1) && chunks.len() + 1 < count {
            chunks.push(start..i + 1);
            start = i + 1;
        }
    }
    if start < groups.len() {
        chunks.push(start..groups.len());
    }
    chunks
}

/// Checks what the executor creates for `plan` — graph-owned textures and buffers — against
/// the device's limits, before anything is allocated. (History textures, imports to the plan,
/// are checked each frame by [`check_histories`].)
fn check_limits(plan: &CompiledGraph, limits: &wgpu::Limits) -> Result<(), ExecuteError> {
    for (r, resource) in plan.resources().iter().enumerate() {
        let decl = plan.resource_decl(ResourceId::new(r));
        if !resource.culled && decl.import.is_none() {
            check_resource(decl, limits)?;
        }
    }
    Ok(())
}

/// Checks the history textures the executor would create for `graph`.
fn check_histories(graph: &RenderGraph<'_>, limits: &wgpu::Limits) -> Result<(), ExecuteError> {
    for &(previous, _) in &graph.histories {
        check_resource(&graph.resources[previous.index()], limits)?;
    }
    Ok(())
}

fn check_resource(decl: &ResourceDecl, limits: &wgpu::Limits) -> Result<(), ExecuteError> {
    let exceeds = |what, value: u64, limit, max: u64| {
        if value > max {
            Err(ExecuteError::ExceedsDeviceLimit {
                resource: decl.name.to_string(),
                what,
                value,
                limit,
                max,
            })
        } else {
            Ok(())
        }
    };
    match decl.kind {
        ResourceKind::Texture(t) => {
            let max_2d = u64::from(limits.max_texture_dimension_2d);
            exceeds("width", t.width.into(), "max_texture_dimension_2d", max_2d)?;
            exceeds(
                "height",
                t.height.into(),
                "max_texture_dimension_2d",
                max_2d,
            )?;
            exceeds(
                "array layers",
                t.layers.into(),
                "max_texture_array_layers",
                limits.max_texture_array_layers.into(),
            )
        }
        ResourceKind::Buffer(b) => exceeds(
            "size in bytes",
            b.size,
            "max_buffer_size",
            limits.max_buffer_size,
        ),
    }
}

/// The output of a future wgpu resolves at once on native backends (error scopes), without
/// pollster's thread parking on that path; pollster blocks when it is not ready.
fn ready_or_block<F: std::future::Future>(future: F) -> F::Output {
    let mut future = std::pin::pin!(future);
    let mut cx = std::task::Context::from_waker(std::task::Waker::noop());
    match future.as_mut().poll(&mut cx) {
        std::task::Poll::Ready(out) => out,
        std::task::Poll::Pending => pollster::block_on(future),
    }
}

#[cfg(test)]
mod tests {
    use super::chunk_groups;
    use super::lower::ExecGroup;
    use crate::resource::{PassId, PassKind};

    fn groups(passes: &[usize]) -> Vec<ExecGroup> {
        let mut next = 0;
        passes
            .iter()
            .map(|&n| {
                let ids = (next..next + n).map(PassId::new).collect();
                next += n;
                ExecGroup {
                    kind: PassKind::Render,
                    passes: ids,
                    label: String::new(),
                    color: Vec::new(),
                    depth: None,
                    depth_views: Vec::new(),
                    views: 1,
                    multiview: None,
                    poison_before: Vec::new(),
                    poison_after: Vec::new(),
                    invalidate_before: Vec::new(),
                }
            })
            .collect()
    }

    #[test]
    fn chunks_are_consecutive_runs_with_about_as_many_passes_each() {
        assert_eq!(
            chunk_groups(&groups(&[1; 64]), 16),
            (0..16).map(|c| c * 4..c * 4 + 4).collect::<Vec<_>>()
        );
        assert_eq!(chunk_groups(&groups(&[1; 7]), 2), [0..4, 4..7]);
        // A group of many passes weighs as much as that many groups of one.
        assert_eq!(
            chunk_groups(&groups(&[6, 1, 1, 1, 1, 1, 1]), 2),
            [0..1, 1..7]
        );
        // Never more chunks than groups, never an empty one.
        assert_eq!(chunk_groups(&groups(&[1, 1, 1]), 8), [0..1, 1..2, 2..3]);
        assert_eq!(
            chunk_groups(&groups(&[1]), 4),
            vec![std::ops::Range { start: 0, end: 1 }]
        );
        assert!(chunk_groups(&[], 4).is_empty());
    }
}

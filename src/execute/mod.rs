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
//! | `prepare.rs` | plans lowered for a mode, kept across frames |
//! | `lower.rs` | plan + mode + backend → the ops to record (once per plan) |
//! | `limits.rs` | what the executor would create, against the device's limits |
//! | `record.rs` | one frame: bind, record on one thread or several, swap histories |
//! | `bind.rs` | each resource of the frame to its wgpu object |
//! | `tables.rs` | the frame's resource tables: each resource's wgpu objects |
//! | `recorder.rs` | the recording of one group: its wgpu pass or one per view |
//! | `callbacks.rs` | the closures of a group's passes called in the open pass |
//! | `poison.rs` | Poison mode's clears before and after a group |
//! | `detour.rs` | resolves into later layers through a single-layer texture |
//! | `quirks.rs` | what adapters do differently, and the probes that find it (`quirks/probe.rs`) |
//! | `parallel.rs` | chunks of groups recorded on the recording threads |
//! | `errors.rs` | error scopes around a frame, and the pass an error points at |
//! | `lost.rs` | a lost device, shared by every executor of it |
//! | `pool.rs` | pooled textures, buffers and their views; when entries may be stale (also the bind-group cache's) |
//! | `imports.rs` | what the caller binds each frame |
//! | `history.rs` | history textures, swapped every frame |
//! | `timing.rs` | optional GPU timestamps |
//! | `timer.rs` | the caller's GPU timer (a profiler's scopes) around each group |
//! | `stats.rs` | what an executor holds |

mod bind;
mod callbacks;
mod detour;
mod errors;
mod history;
mod imports;
mod limits;
mod lost;
mod lower;
mod parallel;
mod poison;
mod pool;
mod prepare;
mod quirks;

#[cfg(feature = "helpers")]
pub(crate) use quirks::{FullScreenDraw, full_screen_pipeline};
mod record;
mod recorder;
mod stats;
mod tables;
mod timer;
mod timing;

use std::sync::Arc;

use crate::context::Views;
use crate::declare::RenderGraph;
use crate::plan::CompiledGraph;

use history::{BufferHistory, HistoryPair};
pub use imports::Imports;
use lost::LostState;
use pool::Pool;
pub use pool::PoolStats;
pub(crate) use pool::Staleness;
use prepare::Prepared;
pub(crate) use quirks::Quirks;
use record::FrameArgs;
pub use record::Recording;
pub use stats::ExecutorStats;
use tables::{LayerView, Slot};
pub use timer::{GroupTimer, PassRecorder, TimedGroup};
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
    /// it depends on contents it declared dead, while keeping every texel a live pass wrote:
    /// - every attachment whose first access in a group is `write` (so its plan load is
    ///   `DontCare` with the token, `Clear` without) is cleared to poison;
    /// - each pass of a render group of several is recorded as a render pass of its own over the
    ///   group's attachments, so a `write` on a pass that is not the group's first also starts
    ///   from poison (`read_write` loads what the pass before stored, a read-only depth stays
    ///   read-only; the group's loads are its first pass's, its stores and resolves its last's);
    /// - every `Discard`ed attachment is overwritten with poison after its group;
    /// - every subresource of every graph-owned texture (and of every imported one with undefined
    ///   contents) is poisoned before the first group that uses it in any way (attachment, resolve,
    ///   copy, storage or sampling), where it has the render-attachment usage to be cleared.
    ///
    /// Nothing is transient, since poisoned textures are stored to.
    Poison,
}

impl ExecuteMode {
    /// The mode named `name` (`planned`, `naive`, `poison`).
    #[deprecated(
        since = "0.1.0",
        note = "use `name.parse::<ExecuteMode>()` (`FromStr`), whose error names the accepted values; removed in 0.2"
    )]
    pub fn from_name(name: &str) -> Option<Self> {
        name.parse().ok()
    }

    /// The colour `Poison` fills dead colour attachments with: opaque magenta.
    pub const POISON_COLOR: wgpu::Color = lower::POISON_COLOR;
    /// The depth `Poison` fills dead depth attachments with: 0.0, the nearest, so that
    /// `LessEqual` tests against it fail.
    pub const POISON_DEPTH: f32 = lower::POISON_DEPTH;
    /// The stencil value `Poison` fills dead stencil attachments with.
    pub const POISON_STENCIL: u32 = lower::POISON_STENCIL;

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
}

impl std::fmt::Display for ExecuteMode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The mode named `planned`, `naive` or `poison` ([`ExecuteMode::as_str`]).
///
/// ```
/// use tilegraph::ExecuteMode;
/// assert_eq!("poison".parse::<ExecuteMode>(), Ok(ExecuteMode::Poison));
/// assert!("fast".parse::<ExecuteMode>().is_err());
/// ```
impl std::str::FromStr for ExecuteMode {
    type Err = ParseExecuteModeError;

    fn from_str(name: &str) -> Result<Self, Self::Err> {
        match name {
            "planned" => Ok(ExecuteMode::Planned),
            "naive" => Ok(ExecuteMode::Naive),
            "poison" => Ok(ExecuteMode::Poison),
            _ => Err(ParseExecuteModeError {
                value: name.to_owned(),
            }),
        }
    }
}

/// A name that is not an [`ExecuteMode`]'s: its message names the accepted ones.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown execute mode `{value}`: expected planned, naive or poison")]
pub struct ParseExecuteModeError {
    value: String,
}

impl ParseExecuteModeError {
    /// The name that was parsed.
    pub fn value(&self) -> &str {
        &self.value
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
    /// The backend cannot record something the plan asks for, named with its pass and
    /// resource. Checked before anything is recorded.
    #[error("pass `{pass}` uses `{resource}` in a way this backend cannot record: {message}")]
    Unsupported {
        /// The pass.
        pass: String,
        /// The resource.
        resource: String,
        /// What the backend lacks, and what would work instead.
        message: String,
    },
    /// The device lacks features recording the plan needs
    /// ([`CompiledGraph::required_features`]). Checked before anything is recorded.
    #[error(
        "pass `{pass}` needs the device features {missing:?}, which the device lacks; open it with helpers::DeviceOptions::for_plan(&plan)"
    )]
    MissingFeatures {
        /// The first declared pass that needs them.
        pass: String,
        /// The features it needs that the device lacks.
        missing: wgpu::Features,
    },
    /// The adapter lacks downlevel capabilities recording the plan needs
    /// ([`CompiledGraph::required_downlevel_flags`]), e.g. `READ_ONLY_DEPTH_STENCIL` to sample
    /// a depth attached read-only on wgpu's GL backend. Checked before anything is recorded.
    #[error(
        "pass `{pass}` needs the downlevel capabilities {missing:?}, which the adapter lacks; declare the pass so that it needs less, or run it on another adapter"
    )]
    MissingDownlevelFlags {
        /// The first declared pass that needs them.
        pass: String,
        /// The flags it needs that the adapter lacks.
        missing: wgpu::DownlevelFlags,
    },
    /// A pass needs more of a device limit than the device was opened with
    /// ([`CompiledGraph::required_limits`]), e.g. colour bytes per sample. Checked before
    /// anything is recorded.
    #[error(
        "pass `{pass}` needs `{limit}` {needed}, more than the device's {max}{detail}; open the device with helpers::DeviceOptions::for_plan(&plan)"
    )]
    PassExceedsDeviceLimit {
        /// The first declared pass over the limit.
        pass: String,
        /// The name of the `wgpu::Limits` field.
        limit: &'static str,
        /// What the pass needs.
        needed: u64,
        /// The device's limit.
        max: u64,
        /// For colour bytes: each slot's format and cost, and a slot order that fits where
        /// one exists; possibly empty.
        detail: String,
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
    /// Wrap every pass in a debug group named after it (for captures and GPU debuggers); a
    /// pass that records alone into a render or compute pass is named by that pass's label,
    /// which is its name, and gets no debug group of its own.
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
    /// The adapter's downlevel flags (`adapter.get_downlevel_capabilities().flags`), which a
    /// `wgpu::Device` does not tell: a plan that needs one the adapter lacks
    /// ([`CompiledGraph::required_downlevel_flags`]) is then
    /// [`ExecuteError::MissingDownlevelFlags`] before anything is recorded. `None` assumes
    /// every flag but those wgpu's backend of the device never has (on GL:
    /// `READ_ONLY_DEPTH_STENCIL`, `DEPTH_TEXTURE_AND_BUFFER_COPIES`).
    /// [`OpenedDevice::executor`](crate::helpers::OpenedDevice::executor) fills it in.
    pub downlevel_flags: Option<wgpu::DownlevelFlags>,
    /// Record each frame of [`Executor::execute`] inside wgpu error scopes (out of memory and
    /// validation, on every recording thread) and return what they catch as
    /// [`ExecuteError::Validation`], naming the pass, or [`ExecuteError::OutOfMemory`] (the
    /// default). Off, a frame's wgpu errors go to the device's uncaptured-error handler
    /// (`Device::on_uncaptured_error`; wgpu's own panics), as those of hand-written wgpu code
    /// do, and the frame saves the four scope operations (about 1 000 instructions on
    /// Vulkan). Closure errors, panics, plan checks and a lost device are reported either way.
    pub error_scopes: bool,
}

impl Default for ExecutorOptions {
    fn default() -> Self {
        ExecutorOptions {
            keep_frames: 3,
            timestamps: false,
            debug_groups: true,
            multiview: true,
            recording_threads: 1,
            downlevel_flags: None,
            error_scopes: true,
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
    /// The adapter's downlevel flags ([`downlevel_flags`](Self::downlevel_flags)), checked
    /// against every plan before it is recorded.
    pub fn with_downlevel_flags(mut self, flags: wgpu::DownlevelFlags) -> Self {
        self.downlevel_flags = Some(flags);
        self
    }

    /// Records frames inside wgpu error scopes, or not ([`error_scopes`](Self::error_scopes)).
    pub fn with_error_scopes(mut self, on: bool) -> Self {
        self.error_scopes = on;
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

/// Records compiled graphs on one device, pooling physical textures and buffers across frames.
pub struct Executor {
    device: wgpu::Device,
    queue: wgpu::Queue,
    options: ExecutorOptions,
    /// What the adapter does differently, and what is probed of it.
    quirks: Quirks,
    pool: Pool,
    prepared: Vec<Prepared>,
    slots: Vec<Slot>,
    taken: Vec<bool>,
    histories: Vec<HistoryPair>,
    /// History buffers, as `histories` for textures.
    buffer_histories: Vec<BufferHistory>,
    /// Counts the changes to `histories` and `buffer_histories` (a pair made, remade or
    /// dropped): a prepared plan's history slots hold while it is unchanged.
    history_generation: u64,
    /// When `histories` and `buffer_histories` are next worth looking at for pairs no frame
    /// declared for `keep_frames` frames.
    history_staleness: Staleness,
    /// The 2D-array views this frame's multiview render passes attach.
    layer_views: Vec<LayerView>,
    frame: u64,
    timestamps: Option<timing::Timestamps>,
    /// The recording threads (none when frames are recorded on the calling thread).
    workers: Option<rayon_core::ThreadPool>,
    lost: Arc<LostState>,
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
        Executor {
            device: device.clone(),
            queue: queue.clone(),
            options,
            quirks: Quirks::of(device, &options),
            pool: Pool::default(),
            prepared: Vec::new(),
            slots: Vec::new(),
            taken: Vec::new(),
            histories: Vec::new(),
            buffer_histories: Vec::new(),
            history_generation: 0,
            history_staleness: Staleness::default(),
            layer_views: Vec::new(),
            frame: 0,
            timestamps: (options.timestamps
                && device.features().contains(wgpu::Features::TIMESTAMP_QUERY))
            .then(|| timing::Timestamps::new(device, queue)),
            workers: parallel::recording_pool(options.recording_threads),
            lost: lost::lost_state_of(device),
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

    /// Whether multiview passes are recorded as one multiview render pass: the option is on, the
    /// device has `Features::MULTIVIEW` and renders at least two views in one render pass
    /// (`Limits::max_multiview_view_count`; a device opened with
    /// [`DeviceOptions::for_plan`](crate::helpers::DeviceOptions::for_plan) gets what its plans'
    /// multiview passes need where the adapter has it). Otherwise each multiview pass is
    /// recorded one render pass per view, and the executor says so in one log line when it
    /// first prepares a plan with one. A pass with more views than the device renders at once
    /// is [`ExecuteError::MultiviewLimit`].
    pub fn multiview_enabled(&self) -> bool {
        self.options.multiview && Views::multiview_supported(&self.device)
    }

    /// Everything the executor holds now: pool, lowered plans, histories, views and bytes. Stays
    /// flat once a renderer's frame shapes are warm (see [`ExecutorStats`]).
    pub fn stats(&self) -> ExecutorStats {
        ExecutorStats::of(self)
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
        self.frame(graph, plan, imports, mode).execute()
    }

    /// A frame of `plan` of `graph` to record with more than [`execute`](Self::execute)
    /// takes: the caller's GPU timer ([`Recording::timer`]), or the caller's encoder
    /// ([`Recording::record`]). `executor.frame(graph, plan, imports, mode).execute()` is
    /// `executor.execute(graph, plan, imports, mode)`.
    pub fn frame<'a, 'g>(
        &'a mut self,
        graph: &'a mut RenderGraph<'g>,
        plan: &'a CompiledGraph,
        imports: &'a Imports,
        mode: ExecuteMode,
    ) -> Recording<'a, 'g> {
        Recording::new(self, FrameArgs::new(graph, plan, imports, mode))
    }

    /// [`execute`](Self::execute) with the caller's GPU timer around every group.
    #[deprecated(
        since = "0.1.0",
        note = "use `executor.frame(graph, plan, imports, mode).timer(timer).execute()`"
    )]
    pub fn execute_timed<T: GroupTimer>(
        &mut self,
        graph: &mut RenderGraph<'_>,
        plan: &CompiledGraph,
        imports: &Imports,
        mode: ExecuteMode,
        timer: &T,
    ) -> Result<FrameCommands, ExecuteError> {
        self.frame(graph, plan, imports, mode)
            .timer(timer)
            .execute()
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

    /// Records `plan` of `graph` into `encoder`.
    #[deprecated(
        since = "0.1.0",
        note = "use `executor.frame(graph, plan, imports, mode).record(encoder)`"
    )]
    pub fn record(
        &mut self,
        graph: &mut RenderGraph<'_>,
        plan: &CompiledGraph,
        imports: &Imports,
        mode: ExecuteMode,
        encoder: &mut wgpu::CommandEncoder,
    ) -> Result<(), ExecuteError> {
        self.frame(graph, plan, imports, mode).record(encoder)
    }

    /// Records `plan` of `graph` into `encoder` with the caller's GPU timer around every group.
    #[deprecated(
        since = "0.1.0",
        note = "use `executor.frame(graph, plan, imports, mode).timer(timer).record(encoder)`"
    )]
    pub fn record_timed<T: GroupTimer>(
        &mut self,
        graph: &mut RenderGraph<'_>,
        plan: &CompiledGraph,
        imports: &Imports,
        mode: ExecuteMode,
        encoder: &mut wgpu::CommandEncoder,
        timer: &T,
    ) -> Result<(), ExecuteError> {
        self.frame(graph, plan, imports, mode)
            .timer(timer)
            .record(encoder)
    }
}

//! A long run on one executor that checks nothing grows: graphs change every few frames, the
//! frame size every few hundred, a history texture runs through every graph, and more graph
//! shapes take turns than the plan cache and the executor keep.
//!
//! [`Soak::frame`] renders one frame of the schedule with the synthetic shaders of
//! [`crate::synthetic`]; every [`SoakOptions::report_every`] frames it returns a [`Checkpoint`]:
//! resident memory, what the executor holds ([`ExecutorStats`]), the plan cache, the bind-group
//! cache and the wgpu objects alive. [`check`] holds the checkpoints to their bounds.
//!
//! The `soak` example runs it from the command line; the GPU tests run a short form.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Instant;

use crate::adapt::Capabilities;
use crate::headless::Gpu;
use crate::synthetic::{
    OwnedImport, RunError, attach, create_imports, initialize_imports, prepare,
};
use tilegraph::decl::ResourceKind;
use tilegraph::helpers::{BindGroupCache, FullscreenPipeline};
use tilegraph::{
    CompileOptions, ExecuteMode, Executor, ExecutorOptions, ExecutorStats, ImportContents, Imports,
    PassCallback, PassId, PlanCache, RenderGraph,
};

/// The schedule of a soak run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SoakOptions {
    /// Frames to render.
    pub frames: u64,
    /// A [`Checkpoint`] every this many frames.
    pub report_every: u64,
    /// The frame size changes every this many frames, going round [`sizes`](Self::sizes).
    pub resize_every: u64,
    /// The graph changes every this many frames (in a shuffled order; every graph once per round).
    pub switch_every: u64,
    /// Frame sizes, in turn; every texture of every graph takes the size.
    pub sizes: Vec<(u32, u32)>,
    /// Plans the [`PlanCache`] holds (fewer than the graphs, so plans are dropped and compiled
    /// again).
    pub plan_cache_capacity: usize,
    /// Frames unused pooled textures, histories and bind groups are kept.
    pub keep_frames: u64,
    /// Seed of the schedule (graph order and execute modes).
    pub seed: u64,
    /// Graphs that take turns: the first this many candidates that run here are kept.
    pub graphs: usize,
    /// Candidates with fewer live passes (the history pass included) are left out.
    pub min_live_passes: usize,
}

impl Default for SoakOptions {
    fn default() -> Self {
        SoakOptions {
            frames: 100_000,
            report_every: 10_000,
            resize_every: 400,
            switch_every: 3,
            sizes: vec![(64, 48), (48, 32), (80, 40), (40, 56)],
            plan_cache_capacity: 4,
            keep_frames: 3,
            seed: 1,
            graphs: 10,
            min_live_passes: 4,
        }
    }
}

impl SoakOptions {
    /// Frames until every graph has run at every size (the pool, the allocator and the driver
    /// reach their working sets during the first round): one round of the sizes.
    pub fn warm_up_frames(&self) -> u64 {
        self.resize_every * self.sizes.len() as u64
    }
}

/// wgpu objects alive in the instance (wgpu-core's registries), when the backend reports them.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct WgpuObjects {
    /// Textures.
    pub textures: usize,
    /// Texture views.
    pub views: usize,
    /// Bind groups.
    pub bind_groups: usize,
    /// Buffers.
    pub buffers: usize,
    /// Query sets.
    pub query_sets: usize,
}

/// Largest values over the frames since the last checkpoint (each frame is looked at, so a
/// peak between two checkpoints is not missed).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Peaks {
    /// Pooled textures.
    pub pool_textures: usize,
    /// Pooled buffers.
    pub pool_buffers: usize,
    /// Lowered plans kept by the executor.
    pub prepared_plans: usize,
    /// History textures.
    pub history_textures: usize,
    /// Views of pooled and history textures.
    pub texture_views: usize,
    /// Bytes of pooled and history textures.
    pub texture_bytes: u64,
    /// Plans in the plan cache.
    pub cached_plans: usize,
    /// Bind groups in the bind-group cache.
    pub cached_bind_groups: usize,
    /// wgpu objects alive.
    pub wgpu: WgpuObjects,
}

impl Peaks {
    fn max(&mut self, o: &Peaks) {
        let w = &mut self.wgpu;
        *self = Peaks {
            pool_textures: self.pool_textures.max(o.pool_textures),
            pool_buffers: self.pool_buffers.max(o.pool_buffers),
            prepared_plans: self.prepared_plans.max(o.prepared_plans),
            history_textures: self.history_textures.max(o.history_textures),
            texture_views: self.texture_views.max(o.texture_views),
            texture_bytes: self.texture_bytes.max(o.texture_bytes),
            cached_plans: self.cached_plans.max(o.cached_plans),
            cached_bind_groups: self.cached_bind_groups.max(o.cached_bind_groups),
            wgpu: WgpuObjects {
                textures: w.textures.max(o.wgpu.textures),
                views: w.views.max(o.wgpu.views),
                bind_groups: w.bind_groups.max(o.wgpu.bind_groups),
                buffers: w.buffers.max(o.wgpu.buffers),
                query_sets: w.query_sets.max(o.wgpu.query_sets),
            },
        };
    }
}

/// What a soak run holds after a number of frames.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Checkpoint {
    /// Frames rendered.
    pub frame: u64,
    /// Seconds since the run started.
    pub seconds: f64,
    /// Resident memory of the process, in KiB (`VmRSS` of `/proc/self/status`; 0 where there
    /// is none). With a software adapter this includes the "GPU" memory.
    pub resident_kib: u64,
    /// The executor's statistics now.
    pub executor: ExecutorStats,
    /// Peaks since the previous checkpoint.
    pub peaks: Peaks,
    /// Plans compiled (plan cache misses) so far.
    pub plans_compiled: u64,
    /// Bind groups made (bind-group cache misses) so far.
    pub bind_groups_made: u64,
    /// Resizes so far.
    pub resizes: u64,
}

impl std::fmt::Display for Checkpoint {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let p = &self.peaks;
        write!(
            f,
            "frame {:>7} {:>7.1}s rss {:>7} KiB | pool tex {:>3} buf {:>2} ({:>6} KiB, {:>5} made, \
             {:>5} evicted) prepared {} \
             history {} views {:>3} | plans cached {} compiled {:>5} | bind groups {:>2} made {:>5} \
             | wgpu tex {:>3} views {:>3} bind groups {:>3} buffers {:>3} query sets {} \
             | timestamp queries {:>2} | resizes {}",
            self.frame,
            self.seconds,
            self.resident_kib,
            p.pool_textures,
            p.pool_buffers,
            p.texture_bytes / 1024,
            self.executor.pool.textures_created + self.executor.pool.buffers_created,
            self.executor.pool.evicted,
            p.prepared_plans,
            p.history_textures,
            p.texture_views,
            p.cached_plans,
            self.plans_compiled,
            p.cached_bind_groups,
            self.bind_groups_made,
            p.wgpu.textures,
            p.wgpu.views,
            p.wgpu.bind_groups,
            p.wgpu.buffers,
            p.wgpu.query_sets,
            self.executor.timestamp_queries,
            self.resizes,
        )
    }
}

/// Resident memory of this process in KiB, from `/proc/self/status` (0 where there is none).
pub fn resident_kib() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find_map(|l| l.strip_prefix("VmRSS:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        })
        .unwrap_or(0)
}

/// Name of the pass every soak graph gets: it samples last frame's history and writes this
/// frame's through a [`BindGroupCache`].
pub const HISTORY_PASS: &str = "soak_history_accumulate";

/// GPU timings are read every this many frames (when the device has timestamps).
const TIMINGS_EVERY: u64 = 64;

/// Histories in turn: graph `g` uses history `g % HISTORY_NAMES`, so histories are released and
/// made again as graphs change.
const HISTORY_NAMES: usize = 3;

const HISTORY_WGSL: &str = r#"
@group(0) @binding(0) var previous: texture_2d<f32>;

@fragment
fn accumulate(v: FullscreenVertex) -> @location(0) vec4<f32> {
    let last = textureLoad(previous, vec2<i32>(v.position.xy), 0);
    return vec4<f32>(fract(last.rgb * 0.5 + vec3<f32>(v.uv, 0.25)), 1.0);
}
"#;

/// Adds a history texture and the pass that carries it from frame to frame to a description.
fn with_history(description: &str, history: usize) -> Result<String, String> {
    let mut value: serde_json::Value =
        serde_json::from_str(description).map_err(|e| e.to_string())?;
    let name = format!("soak_history{history}");
    let texture = serde_json::json!({"format": "rgba8unorm", "size": [64, 64]});
    let resources = value["resources"]
        .as_array_mut()
        .ok_or("a description without resources")?;
    resources.push(
        serde_json::json!({"name": format!("{name}.previous"), "texture": texture,
        "import": {"contents": "preserved", "after": "discard"}}),
    );
    resources.push(
        serde_json::json!({"name": format!("{name}.current"), "texture": texture,
        "import": {"contents": "undefined", "after": "keep"}}),
    );
    value["passes"]
        .as_array_mut()
        .ok_or("a description without passes")?
        .push(serde_json::json!({"name": HISTORY_PASS, "type": "render",
            "sample": [format!("{name}.previous")],
            "color": [{"resource": format!("{name}.current"), "access": "write"}]}));
    Ok(value.to_string())
}

/// One graph at one size, its closures attached and its imports made.
struct Variant {
    graph: RenderGraph<'static>,
    imports: Vec<Option<OwnedImport>>,
}

/// A soak run in progress.
pub struct Soak {
    options: SoakOptions,
    descriptions: Vec<String>,
    caps: Capabilities,
    compile: CompileOptions,
    executor: Executor,
    plans: PlanCache,
    binds: Arc<BindGroupCache>,
    history: Arc<FullscreenPipeline>,
    variants: HashMap<(usize, (u32, u32)), Variant>,
    imports: Imports,
    rng: u64,
    order: Vec<usize>,
    current: (usize, ExecuteMode),
    frame: u64,
    last_submission: Option<wgpu::SubmissionIndex>,
    peaks: Peaks,
    resizes: u64,
    start: Instant,
}

/// splitmix64.
fn next(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

impl Soak {
    /// Adds a history and its pass to each candidate description and keeps the first
    /// [`SoakOptions::graphs`] that compile at every size with at least
    /// [`SoakOptions::min_live_passes`] live passes and that the synthetic shaders run on this
    /// adapter at every size (each is built now, closures and imports included). Fails with
    /// fewer than two more than the plan cache or the executor keeps (they would not churn).
    pub fn new(gpu: &Gpu, candidates: &[String], options: SoakOptions) -> Result<Self, String> {
        if options.sizes.is_empty() || options.frames == 0 || options.report_every == 0 {
            return Err("a soak needs sizes, frames and a report interval".into());
        }
        let device = &gpu.device;
        let history = Arc::new(FullscreenPipeline::single(
            device,
            "soak history",
            HISTORY_WGSL,
            "accumulate",
            wgpu::TextureFormat::Rgba8Unorm,
        ));
        let mut soak = Soak {
            caps: Capabilities::of(gpu),
            compile: CompileOptions::default(),
            executor: gpu.executor(
                ExecutorOptions::default()
                    .with_keep_frames(options.keep_frames)
                    .with_timestamps(true)
                    .with_debug_groups(false),
            ),
            plans: PlanCache::new(options.plan_cache_capacity),
            binds: Arc::new(BindGroupCache::with_keep_frames(options.keep_frames)),
            history,
            variants: HashMap::new(),
            imports: Imports::new(),
            rng: options.seed,
            order: Vec::new(),
            current: (0, ExecuteMode::Planned),
            frame: 0,
            last_submission: None,
            peaks: Peaks::default(),
            resizes: 0,
            start: Instant::now(),
            descriptions: Vec::new(),
            options,
        };
        for candidate in candidates {
            if soak.descriptions.len() == soak.options.graphs {
                break;
            }
            let index = soak.descriptions.len();
            let Ok(description) = with_history(candidate, index % HISTORY_NAMES) else {
                continue;
            };
            let live_passes = soak.options.sizes.iter().map(|&(w, h)| {
                let (graph, _) = prepare(&description, Some((w, h)), &soak.caps).ok()?;
                let plan = graph.compile(&soak.compile).ok()?;
                Some(plan.passes().iter().filter(|p| !p.culled).count())
            });
            let big_enough =
                |live: Option<usize>| live.is_some_and(|n| n >= soak.options.min_live_passes);
            if !live_passes.collect::<Vec<_>>().into_iter().all(big_enough) {
                continue;
            }
            soak.descriptions.push(description);
            // Every variant is built now, so that one the adapter rejects is left out.
            let sizes = soak.options.sizes.clone();
            let scope = device.push_error_scope(wgpu::ErrorFilter::Validation);
            let built = sizes
                .iter()
                .try_for_each(|&size| soak.variant(gpu, index, size).map(drop));
            let rejected = pollster::block_on(scope.pop());
            let uncaptured = gpu.take_uncaptured_errors();
            let problem = match (built, rejected, uncaptured.first()) {
                (Err(e), _, _) => Some(e.to_string()),
                (_, Some(e), _) => Some(e.to_string()),
                (_, _, Some(e)) => Some(e.clone()),
                _ => None,
            };
            if let Some(problem) = problem {
                log::info!("soak: a candidate graph does not run here: {problem}");
                soak.descriptions.pop();
                soak.variants.retain(|&(g, _), _| g != index);
            }
        }
        let needed = soak
            .options
            .plan_cache_capacity
            .max(ExecutorStats::PREPARED_CAPACITY)
            + 2;
        if soak.descriptions.len() < needed {
            return Err(format!(
                "only {} of {} candidate graphs run here; a soak needs {needed}",
                soak.descriptions.len(),
                candidates.len()
            ));
        }
        soak.start = Instant::now();
        Ok(soak)
    }

    /// The graphs that take turns.
    pub fn graphs(&self) -> usize {
        self.descriptions.len()
    }

    /// One line per graph: its passes (live of declared), groups and physical textures at the
    /// first size.
    pub fn summary(&self) -> Vec<String> {
        let size = self.options.sizes[0];
        (0..self.descriptions.len())
            .filter_map(|g| {
                let variant = self.variants.get(&(g, size))?;
                let plan = variant.graph.compile(&self.compile).ok()?;
                let live = plan.passes().iter().filter(|p| !p.culled).count();
                Some(format!(
                    "graph {g}: {live} of {} passes live, {} groups, {} physical resources",
                    plan.passes().len(),
                    plan.groups().len(),
                    plan.physical().len()
                ))
            })
            .collect()
    }

    /// Frames rendered so far.
    pub fn frames(&self) -> u64 {
        self.frame
    }

    /// The variant of graph `g` at `size`, built on first use.
    fn variant(&mut self, gpu: &Gpu, g: usize, size: (u32, u32)) -> Result<&mut Variant, RunError> {
        if !self.variants.contains_key(&(g, size)) {
            let (mut graph, adaptation) = prepare(&self.descriptions[g], Some(size), &self.caps)?;
            let plan = graph.compile(&self.compile)?;
            attach(&mut graph, &plan, &gpu.device, &adaptation)?;
            let pass = graph
                .passes()
                .iter()
                .position(|p| p.name() == HISTORY_PASS)
                .expect("every soak graph has the history pass");
            let &(previous, _) = graph.histories().first().expect("and its history");
            let previous = graph
                .texture_handle(&graph.resources()[previous.index()].name)
                .expect("a history is a texture");
            let (pipeline, binds) = (self.history.clone(), self.binds.clone());
            graph.set_callback(
                PassId::new(pass),
                PassCallback::Render(Box::new(move |rpass, ctx| {
                    pipeline.draw(rpass, ctx, &binds, &[previous.into()])
                })),
            );
            let mut imports = create_imports(gpu, &graph, &plan);
            // The executor owns history textures; nothing is bound for them.
            for &(previous, current) in graph.histories() {
                imports[previous.index()] = None;
                imports[current.index()] = None;
            }
            initialize_imports(
                gpu,
                &graph,
                &imports,
                ImportContents::Preserved,
                ExecuteMode::Planned,
            );
            self.variants.insert((g, size), Variant { graph, imports });
        }
        Ok(self.variants.get_mut(&(g, size)).expect("inserted above"))
    }

    /// The size of frame `frame`.
    fn size_at(&self, frame: u64) -> (u32, u32) {
        let sizes = &self.options.sizes;
        sizes[(frame / self.options.resize_every.max(1)) as usize % sizes.len()]
    }

    /// Picks the next graph (shuffled rounds) and its execute mode (mostly planned).
    fn switch_graph(&mut self) {
        if self.order.is_empty() {
            self.order = (0..self.descriptions.len()).collect();
            for i in (1..self.order.len()).rev() {
                let j = (next(&mut self.rng) % (i as u64 + 1)) as usize;
                self.order.swap(i, j);
            }
        }
        let g = self.order.pop().expect("refilled above");
        let mode = match next(&mut self.rng) % 8 {
            0 => ExecuteMode::Naive,
            1 => ExecuteMode::Poison,
            _ => ExecuteMode::Planned,
        };
        self.current = (g, mode);
    }

    /// Renders the next frame; returns a checkpoint every `report_every` frames.
    pub fn frame(&mut self, gpu: &Gpu) -> Result<Option<Checkpoint>, String> {
        let frame = self.frame;
        if frame.is_multiple_of(self.options.switch_every.max(1)) {
            self.switch_graph();
        }
        let size = self.size_at(frame);
        if frame > 0 && size != self.size_at(frame - 1) {
            self.resizes += 1;
        }
        let (g, mode) = self.current;
        self.variant(gpu, g, size)
            .map_err(|e| format!("graph {g} at {}x{}: {e}", size.0, size.1))?;
        let Soak {
            variants,
            plans,
            executor,
            imports,
            compile,
            ..
        } = self;
        let variant = variants.get_mut(&(g, size)).expect("built above");
        initialize_imports(
            gpu,
            &variant.graph,
            &variant.imports,
            ImportContents::Undefined,
            mode,
        );
        let plan = plans
            .get_or_compile(&variant.graph, compile)
            .map_err(|e| format!("graph {g}: {e}"))?;
        imports.clear();
        for (r, import) in variant.imports.iter().enumerate() {
            let name = &variant.graph.resources()[r].name;
            match (import, variant.graph.resources()[r].kind) {
                (Some(OwnedImport::Texture(t, v)), ResourceKind::Texture(_)) => {
                    let handle = variant.graph.texture_handle(name).expect("named");
                    imports.texture(handle, t, v);
                }
                (Some(OwnedImport::Buffer(b)), ResourceKind::Buffer(_)) => {
                    let handle = variant.graph.buffer_handle(name).expect("named");
                    imports.buffer(handle, b);
                }
                _ => {}
            }
        }
        let commands = executor
            .execute(&mut variant.graph, &plan, imports, mode)
            .map_err(|e| format!("frame {frame}, graph {g} ({mode}): {e}"))?;
        let submitted = gpu.queue.submit(commands);
        self.binds.next_frame();
        // Two frames in flight at most, as with a swap chain.
        if let Some(previous) = self.last_submission.replace(submitted) {
            gpu.device
                .poll(wgpu::PollType::Wait {
                    submission_index: Some(previous),
                    timeout: None,
                })
                .map_err(|e| format!("frame {frame}: waiting for the GPU failed: {e}"))?;
        }
        // Timestamps are written every frame and read now and then, as a profiler overlay would.
        if frame.is_multiple_of(TIMINGS_EVERY)
            && self.executor.timestamps_enabled()
            && self.executor.read_timings().is_empty()
        {
            return Err(format!("frame {frame}: no GPU timings came back"));
        }
        if let Some(error) = gpu.take_uncaptured_errors().first() {
            return Err(format!(
                "frame {frame}, graph {g} ({mode}): wgpu error: {error}"
            ));
        }
        self.frame += 1;
        self.sample(gpu);
        if self.frame.is_multiple_of(self.options.report_every) || self.frame == self.options.frames
        {
            let stats = self.executor.stats();
            let binds = self.binds.stats();
            let checkpoint = Checkpoint {
                frame: self.frame,
                seconds: self.start.elapsed().as_secs_f64(),
                resident_kib: resident_kib(),
                executor: stats,
                peaks: std::mem::take(&mut self.peaks),
                plans_compiled: self.plans.misses(),
                bind_groups_made: binds.misses,
                resizes: self.resizes,
            };
            return Ok(Some(checkpoint));
        }
        Ok(None)
    }

    /// Folds this frame's values into the peaks.
    fn sample(&mut self, gpu: &Gpu) {
        let s = self.executor.stats();
        let wgpu = gpu
            .instance
            .generate_report()
            .map(|r| {
                let hub = r.hub_report();
                WgpuObjects {
                    textures: hub.textures.num_kept_from_user,
                    views: hub.texture_views.num_kept_from_user,
                    bind_groups: hub.bind_groups.num_kept_from_user,
                    buffers: hub.buffers.num_kept_from_user,
                    query_sets: hub.query_sets.num_kept_from_user,
                }
            })
            .unwrap_or_default();
        self.peaks.max(&Peaks {
            pool_textures: s.pool.textures,
            pool_buffers: s.pool.buffers,
            prepared_plans: s.prepared_plans,
            history_textures: s.history_textures,
            texture_views: s.texture_views,
            texture_bytes: s.texture_bytes,
            cached_plans: self.plans.len(),
            cached_bind_groups: self.binds.stats().len,
            wgpu,
        });
    }

    /// Renders every frame of the schedule, calling `report` with each checkpoint; then holds
    /// the checkpoints to their bounds ([`check`]).
    pub fn run(
        &mut self,
        gpu: &Gpu,
        mut report: impl FnMut(&Checkpoint),
    ) -> Result<Vec<Checkpoint>, String> {
        let mut checkpoints = Vec::new();
        while self.frame < self.options.frames {
            if let Some(c) = self.frame(gpu)? {
                report(&c);
                checkpoints.push(c);
            }
        }
        check(&self.options, &checkpoints)?;
        Ok(checkpoints)
    }
}

/// Holds checkpoints to their bounds:
/// - always: at most [`ExecutorStats::PREPARED_CAPACITY`] lowered plans, at most the plan
///   cache's capacity of plans, at most two textures per history name, at most
///   `keep_frames + 2` bind groups (one is used a frame);
/// - after warm-up ([`SoakOptions::warm_up_frames`]), against the first checkpoint after it:
///   resident memory within 16 MiB or 10 % (whichever is more), and pooled textures and
///   buffers, texture views and bytes, and live wgpu textures, views, bind groups and buffers
///   no higher than the highest seen up to that checkpoint, plus a quarter.
pub fn check(options: &SoakOptions, checkpoints: &[Checkpoint]) -> Result<(), String> {
    let o = options;
    for c in checkpoints {
        let p = &c.peaks;
        let hard = [
            (
                "lowered plans",
                p.prepared_plans,
                ExecutorStats::PREPARED_CAPACITY,
            ),
            ("cached plans", p.cached_plans, o.plan_cache_capacity),
            ("history textures", p.history_textures, 2 * HISTORY_NAMES),
            (
                "cached bind groups",
                p.cached_bind_groups,
                o.keep_frames as usize + 2,
            ),
        ];
        for (what, value, bound) in hard {
            if value > bound {
                return Err(format!(
                    "at frame {}: {value} {what}, more than the bound {bound}",
                    c.frame
                ));
            }
        }
    }
    let warm = o.warm_up_frames();
    let Some(base) = checkpoints.iter().position(|c| c.frame >= warm) else {
        return Ok(());
    };
    let mut ceiling = Peaks::default();
    for c in &checkpoints[..=base] {
        ceiling.max(&c.peaks);
    }
    let baseline_rss = checkpoints[base].resident_kib;
    let rss_bound = baseline_rss + (baseline_rss / 10).max(16 * 1024);
    let grown = |value: u64, ceiling: u64| value > ceiling + ceiling / 4;
    for c in &checkpoints[base + 1..] {
        if c.resident_kib > rss_bound {
            return Err(format!(
                "at frame {}: resident memory {} KiB, above {rss_bound} KiB ({} KiB after warm-up at frame {})",
                c.frame, c.resident_kib, baseline_rss, checkpoints[base].frame
            ));
        }
        let (p, k) = (&c.peaks, &ceiling);
        let counted = [
            ("pooled textures", p.pool_textures, k.pool_textures),
            ("pooled buffers", p.pool_buffers, k.pool_buffers),
            ("texture views", p.texture_views, k.texture_views),
            ("wgpu textures", p.wgpu.textures, k.wgpu.textures),
            ("wgpu views", p.wgpu.views, k.wgpu.views),
            ("wgpu bind groups", p.wgpu.bind_groups, k.wgpu.bind_groups),
            ("wgpu buffers", p.wgpu.buffers, k.wgpu.buffers),
            ("wgpu query sets", p.wgpu.query_sets, k.wgpu.query_sets),
        ];
        for (what, value, ceiling) in counted {
            if grown(value as u64, ceiling as u64) {
                return Err(format!(
                    "at frame {}: {value} {what}, up from at most {ceiling} during warm-up",
                    c.frame
                ));
            }
        }
        if grown(p.texture_bytes, k.texture_bytes) {
            return Err(format!(
                "at frame {}: {} bytes of textures, up from at most {} during warm-up",
                c.frame, p.texture_bytes, k.texture_bytes
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn options() -> SoakOptions {
        SoakOptions {
            frames: 1000,
            report_every: 100,
            resize_every: 50,
            sizes: vec![(64, 48), (48, 32)],
            ..SoakOptions::default()
        }
    }

    /// Flat checkpoints every 100 frames; `change` edits the one at `frame`.
    fn checkpoints(frame: u64, change: impl Fn(&mut Checkpoint)) -> Vec<Checkpoint> {
        (1..=10)
            .map(|i| {
                let mut c = Checkpoint {
                    frame: i * 100,
                    seconds: i as f64,
                    resident_kib: 200_000,
                    executor: ExecutorStats::default(),
                    peaks: Peaks {
                        pool_textures: 8,
                        prepared_plans: 4,
                        history_textures: 4,
                        texture_views: 20,
                        texture_bytes: 1 << 20,
                        cached_plans: 4,
                        cached_bind_groups: 3,
                        wgpu: WgpuObjects {
                            textures: 60,
                            views: 70,
                            bind_groups: 3,
                            buffers: 8,
                            query_sets: 0,
                        },
                        ..Peaks::default()
                    },
                    plans_compiled: i * 30,
                    bind_groups_made: i * 50,
                    resizes: i * 2,
                };
                if c.frame == frame {
                    change(&mut c);
                }
                c
            })
            .collect()
    }

    #[test]
    fn flat_figures_pass() {
        check(&options(), &checkpoints(0, |_| {})).unwrap();
    }

    #[test]
    fn growth_after_warm_up_fails_naming_what_grew() {
        let o = options();
        let e = check(&o, &checkpoints(800, |c| c.resident_kib = 300_000)).unwrap_err();
        assert!(
            e.contains("frame 800") && e.contains("resident memory"),
            "{e}"
        );
        let e = check(&o, &checkpoints(900, |c| c.peaks.pool_textures = 11)).unwrap_err();
        assert!(e.contains("11 pooled textures"), "{e}");
        let e = check(&o, &checkpoints(1000, |c| c.peaks.wgpu.views = 100)).unwrap_err();
        assert!(e.contains("100 wgpu views"), "{e}");
        // The same values during warm-up (up to frame 100, the first checkpoint after it) raise
        // the ceiling instead.
        check(&o, &checkpoints(100, |c| c.peaks.pool_textures = 11)).unwrap();
    }

    #[test]
    fn a_hard_bound_fails_at_any_frame() {
        let e = check(
            &options(),
            &checkpoints(100, |c| c.peaks.prepared_plans = 5),
        )
        .unwrap_err();
        assert!(e.contains("5 lowered plans, more than the bound 4"), "{e}");
        let e = check(
            &options(),
            &checkpoints(100, |c| c.peaks.cached_bind_groups = 9),
        )
        .unwrap_err();
        assert!(e.contains("cached bind groups"), "{e}");
    }

    #[test]
    fn history_pass_is_added_to_a_description() {
        let d = r#"{"resources": [], "passes": []}"#;
        let graph = RenderGraph::from_json(&with_history(d, 2).unwrap()).unwrap();
        assert_eq!(graph.histories().len(), 1);
        assert_eq!(graph.passes().at(0).name(), HISTORY_PASS);
    }
}

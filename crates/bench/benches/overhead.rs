//! The CPU cost of recording a frame through the graph against recording the same frame by hand
//! in wgpu: boids-shaped (a compute pass ping-ponging particles, then their draws),
//! MRT-shaped (draws into two targets, then a pass sampling both) and bunnymark-shaped (one
//! large uniform buffer bound 256 B a draw at dynamic offsets), at several draw counts.
//!
//! ```text
//! TILEGRAPH_BACKEND=vulkan cargo bench -p tilegraph-bench --bench overhead \
//!     [-- --rounds 7 --frames 30 --draws 2,16,128,1000,16384 --shapes boids,mrt,bunnymark]
//!     [--variants wgpu,graph+cache,graph,retained,unscoped,wgpu-label]
//!     [--warm] [--evict 16]
//! ```
//!
//! Six ways to make each frame's command buffers, timed on the CPU from nothing to the
//! finished command buffers (submission and the GPU's work are not timed): `wgpu`, the
//! hand-written encoder; `graph+cache`, the graph declared every frame (into the last frame's
//! `reset` graph, its imports bound again into the last frame's `Imports`, as `Imports` advises)
//! with its plan from a `PlanCache`, then `Executor::execute`; `graph`, the same
//! with a full compile every frame; `retained`, the graph, its plan and its imports made once
//! and only `Executor::execute` every frame (a renderer whose frame keeps its shape);
//! `unscoped`, the same with `ExecutorOptions::error_scopes` off (wgpu's errors go to the
//! device's handler, as the hand-written frame's do); and a control, `wgpu-label`, the
//! hand-written frame with its encoder labelled as the executor labels its own (`frame gbuffer
//! .. composite` where `wgpu` says `frame`): the same work, a string of another length, so what
//! it adds is what the memory layout alone moves (the allocator places wgpu's growing command
//! lists elsewhere), the floor under which no difference between the variants means anything.
//! The variants alternate within every round (each runs `--frames` frames, the first two not
//! counted). A row gives each variant's
//! median over rounds of its round medians, its ratio to `wgpu`, and what it adds to a frame:
//! the median over rounds of its round median less `wgpu`'s of the same round.
//!
//! Each frame is submitted and waited for before the next is recorded, so a frame's recording
//! starts where the previous frame's GPU work left the caches; on a software adapter that work
//! runs on the CPU and evicts them, and what a variant adds is then mostly the cache misses of
//! the code and data it touches. `--warm` records every frame twice and times the second, which
//! leaves what the variants' instructions cost. `--evict MIB` sweeps a buffer of that size before
//! every frame, so that callgrind's cache simulation counts the lines a frame fetches.

use std::time::{Duration, Instant};

use clap::Parser;
use tilegraph::helpers::{Binding, DeviceOptions, open_device};
use tilegraph::wgpu;
use tilegraph::{
    Access, CompileOptions, CompiledGraph, ExecuteMode, Executor, ExecutorOptions, Import, Imports,
    PlanCache, RenderGraph, TextureDesc, TextureHandle,
};

use tilegraph_bench::overhead::{FORMAT, SIZE, SLICE, Scene, Shape};

#[derive(Parser)]
struct Args {
    /// Rounds; each runs every variant once.
    #[arg(long, default_value_t = 7, value_parser = tilegraph_bench::positive)]
    rounds: usize,
    /// Frames a variant records in a round (the first two warm up).
    #[arg(long, default_value_t = 30, value_parser = tilegraph_bench::positive)]
    frames: usize,
    /// Draw counts, comma-separated.
    #[arg(long, value_delimiter = ',', default_value = "2,16,128,1000,16384")]
    draws: Vec<u32>,
    /// Shapes, comma-separated: boids, mrt, bunnymark.
    #[arg(long, value_delimiter = ',', default_value = "boids,mrt,bunnymark")]
    shapes: Vec<Shape>,
    /// Runs only the variants listed (comma-separated: wgpu, graph+cache, graph, retained,
    /// unscoped, wgpu-label), e.g. to profile one; the others' columns are then `-`.
    #[arg(
        long,
        value_delimiter = ',',
        default_value = "wgpu,graph+cache,graph,retained,unscoped,wgpu-label"
    )]
    variants: Vec<String>,
    /// Records every frame twice and times the second (the first's command buffers are
    /// dropped unsubmitted): the timed recording finds what the frame touches in the caches.
    /// Without it a frame follows the previous frame's GPU work, which on a software adapter
    /// runs on the CPU and leaves the caches cold.
    #[arg(long)]
    warm: bool,
    /// Before every frame, writes one byte in every 64 of a buffer of this many MiB: the caches
    /// then hold none of what recording touches, whatever the GPU's work left (for counting the
    /// lines a frame fetches, under callgrind's cache simulation).
    #[arg(long, value_name = "MIB")]
    evict: Option<usize>,
    /// cargo bench passes `--bench`.
    #[arg(long, hide = true)]
    bench: bool,
}

#[derive(Clone, Copy, PartialEq)]
enum Variant {
    Wgpu,
    GraphCached,
    Graph,
    Retained,
    Unscoped,
    WgpuLabelled,
}

impl Variant {
    fn name(self) -> &'static str {
        match self {
            Variant::Wgpu => "wgpu",
            Variant::GraphCached => "graph+cache",
            Variant::Graph => "graph",
            Variant::Retained => "retained",
            Variant::Unscoped => "unscoped",
            Variant::WgpuLabelled => "wgpu-label",
        }
    }
}

const VARIANTS: [Variant; 6] = [
    Variant::Wgpu,
    Variant::GraphCached,
    Variant::Graph,
    Variant::Retained,
    Variant::Unscoped,
    Variant::WgpuLabelled,
];
const WARM_UP: usize = 2;

/// What the graph variants keep from frame to frame, as a renderer would.
struct GraphState<'s> {
    graph: RenderGraph<'s>,
    /// The graph variants' imports, bound again every frame.
    imports: Imports,
    cache: PlanCache,
    executor: Executor,
    /// The `retained` variant's frame: declared and compiled on its first frame, then executed
    /// as it is every frame.
    retained: Option<Retained<'s>>,
    /// The `unscoped` variant's executor (error scopes off) and frame.
    unscoped: (Executor, Option<Retained<'s>>),
}

/// A frame declared once: its graph, plan and imports.
struct Retained<'s> {
    graph: RenderGraph<'s>,
    plan: CompiledGraph,
    imports: Imports,
}

fn main() {
    // Headless: Mesa's Vulkan device-selection layer stays off (`helpers::open_device`'s docs).
    if std::env::var_os("NODEVICE_SELECT").is_none() {
        // SAFETY: first thing in `main`: no other thread exists yet.
        unsafe { std::env::set_var("NODEVICE_SELECT", "1") };
    }
    let args = Args::parse();
    let backend = tilegraph::helpers::Backend::from_env().unwrap_or_else(|e| panic!("{e}"));
    let max_draws = args.draws.iter().copied().max().unwrap_or(1);
    let opened = open_device(&DeviceOptions::new(backend).with_adapter_limits())
        .unwrap_or_else(|e| panic!("the bench needs an adapter: {e}"));
    let scene = Scene::new(&opened.device, &opened.queue, max_draws);
    println!("adapter: {}", opened.adapter.get_info().name);
    println!(
        "rounds {}, frames {} a variant a round{}; CPU time to the finished command buffers, µs a frame (median of round medians; +µs: median of the rounds' differences to wgpu)",
        args.rounds,
        args.frames,
        if args.warm {
            ", each recorded twice and the second timed (--warm)"
        } else {
            ""
        }
    );
    let mut header = format!("{:<10} {:>6} {:>8}", "shape", "draws", "wgpu");
    for v in &VARIANTS[1..] {
        header += &format!(" {:>11} {:>6} {:>6}", v.name(), "ratio", "+µs");
    }
    println!("{header}");
    for &shape in &args.shapes {
        for &draws in &args.draws {
            let row = measure(&scene, shape, draws, &args);
            print_row(shape, draws, row);
        }
    }
}

/// Each variant's round medians, in `VARIANTS` order, in seconds (NaN for a variant that did not
/// run).
fn measure(scene: &Scene, shape: Shape, draws: u32, args: &Args) -> [Vec<f64>; 6] {
    let mut state = GraphState {
        graph: RenderGraph::new(),
        imports: Imports::new(),
        cache: PlanCache::default(),
        executor: Executor::new(&scene.device, &scene.queue),
        retained: None,
        unscoped: (
            Executor::with_options(
                &scene.device,
                &scene.queue,
                ExecutorOptions::default().with_error_scopes(false),
            ),
            None,
        ),
    };
    let mut evicting = vec![0u8; args.evict.unwrap_or(0) << 20];
    let mut medians: [Vec<f64>; 6] = Default::default();
    let mut frame_index = 0u64;
    for round in 0..args.rounds {
        for k in 0..VARIANTS.len() {
            // A different variant first each round.
            let v = (k + round) % VARIANTS.len();
            if !args.variants.iter().any(|name| name == VARIANTS[v].name()) {
                medians[v].push(f64::NAN);
                continue;
            }
            let mut times = Vec::with_capacity(args.frames);
            for _ in 0..args.frames {
                frame_index += 1;
                let mut record = || match VARIANTS[v] {
                    Variant::Wgpu => by_hand(scene, shape, draws, frame_index, "frame"),
                    Variant::WgpuLabelled => {
                        let label = executor_label(shape);
                        by_hand(scene, shape, draws, frame_index, label)
                    }
                    Variant::GraphCached => through_graph(scene, shape, draws, &mut state, true),
                    Variant::Graph => through_graph(scene, shape, draws, &mut state, false),
                    Variant::Retained => {
                        let frame = &mut state.retained;
                        retained(scene, shape, draws, &mut state.executor, frame)
                    }
                    Variant::Unscoped => {
                        let (executor, frame) = &mut state.unscoped;
                        retained(scene, shape, draws, executor, frame)
                    }
                };
                evict(&mut evicting);
                if args.warm {
                    // Recorded and dropped unsubmitted: the timed recording below finds the
                    // frame's code and data in the caches.
                    drop(record());
                }
                let (time, commands) = record();
                scene.queue.submit(commands);
                scene
                    .device
                    .poll(wgpu::PollType::wait_indefinitely())
                    .expect("the frame finishes");
                times.push(time.as_secs_f64());
            }
            let warm = WARM_UP.min(times.len() - 1);
            medians[v].push(median(&mut times[warm..]));
        }
    }
    medians
}

/// Writes one byte in every 64 of `buffer` (a cache line's worth), evicting what the caches held.
#[inline(never)]
fn evict(buffer: &mut [u8]) {
    for line in buffer.chunks_mut(64) {
        line[0] = line[0].wrapping_add(1);
    }
    std::hint::black_box(buffer);
}

/// The middle value; NaN for a variant that did not run.
fn median(values: &mut [f64]) -> f64 {
    values.sort_by(f64::total_cmp);
    values.get(values.len() / 2).copied().unwrap_or(f64::NAN)
}

fn print_row(shape: Shape, draws: u32, rounds: [Vec<f64>; 6]) {
    let shown = |x: f64, precision: usize| match x.is_nan() {
        true => "-".to_owned(),
        false => format!("{x:.precision$}"),
    };
    let wgpu = median(&mut rounds[0].clone());
    let mut row = format!(
        "{:<10} {:>6} {:>8}",
        shape.name(),
        draws,
        shown(wgpu * 1e6, 1)
    );
    for variant in &rounds[1..] {
        let time = median(&mut variant.clone());
        let mut added: Vec<f64> = variant.iter().zip(&rounds[0]).map(|(v, w)| v - w).collect();
        let added = median(&mut added);
        row += &format!(
            " {:>11} {:>6} {:>6}",
            shown(time * 1e6, 1),
            shown(time / wgpu, 3),
            shown(added * 1e6, 1)
        );
    }
    println!("{row}");
}

/// The frame recorded by hand into an encoder labelled `label`; `frame` picks the ping-pong
/// buffers by parity. Never inlined, so that a profiler sees each variant's frame as one
/// function.
#[inline(never)]
fn by_hand(
    scene: &Scene,
    shape: Shape,
    draws: u32,
    frame: u64,
    label: &str,
) -> (Duration, Vec<wgpu::CommandBuffer>) {
    let start = Instant::now();
    let mut encoder = scene
        .device
        .create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some(label) });
    match shape {
        Shape::Boids => {
            let (group, to) = scene.particles_by_parity(frame);
            scene.simulate(&mut encoder_compute(&mut encoder), group);
            let mut pass = scene.begin(&mut encoder, &[&scene.output_view], "draw");
            scene.draw_particles(&mut pass, to, draws);
        }
        Shape::Mrt => {
            let views = [&scene.mrt_views[0], &scene.mrt_views[1]];
            scene.draw_mrt(&mut scene.begin(&mut encoder, &views, "gbuffer"), draws);
            let mut pass = scene.begin(&mut encoder, &[&scene.output_view], "composite");
            scene.composite(&mut pass, &scene.hand_composite_group);
        }
        Shape::Bunnymark => {
            let mut pass = scene.begin(&mut encoder, &[&scene.output_view], "bunnies");
            scene.draw_bunnies(&mut pass, &scene.hand_bunny_group, draws);
        }
    }
    let commands = vec![encoder.finish()];
    (start.elapsed(), commands)
}

/// The label the executor gives the encoder of `shape`'s frame: `frame`, then its first and
/// last groups' names (a group is named by its passes, `+`-joined).
fn executor_label(shape: Shape) -> &'static str {
    match shape {
        Shape::Boids => "frame simulate .. draw",
        Shape::Mrt => "frame gbuffer .. composite",
        Shape::Bunnymark => "frame bunnies",
    }
}

fn encoder_compute(encoder: &mut wgpu::CommandEncoder) -> wgpu::ComputePass<'_> {
    encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
        label: Some("simulate"),
        timestamp_writes: None,
    })
}

/// The frame declared, planned (from the cache or compiled) and recorded through the graph.
#[inline(never)]
fn through_graph<'s>(
    scene: &'s Scene,
    shape: Shape,
    draws: u32,
    state: &mut GraphState<'s>,
    cached: bool,
) -> (Duration, Vec<wgpu::CommandBuffer>) {
    let start = Instant::now();
    let mut graph = std::mem::take(&mut state.graph).reset();
    let imports = &mut state.imports;
    declare_frame(&mut graph, scene, shape, draws, imports);
    let options = CompileOptions::default();
    let commands = if cached {
        let plan = state
            .cache
            .get_or_compile(&graph, &options)
            .expect("compiles");
        state
            .executor
            .execute(&mut graph, &plan, imports, ExecuteMode::Planned)
    } else {
        let plan = graph.compile(&options).expect("compiles");
        state
            .executor
            .execute(&mut graph, &plan, imports, ExecuteMode::Planned)
    };
    let commands: Vec<_> = commands.expect("records").into_iter().collect();
    let time = start.elapsed();
    state.graph = graph;
    scene.bind_groups.next_frame();
    (time, commands)
}

/// The frame declared and compiled once, on the variant's first frame, as a renderer whose
/// frame keeps its shape would; every frame then only records it.
#[inline(never)]
fn retained<'s>(
    scene: &'s Scene,
    shape: Shape,
    draws: u32,
    executor: &mut Executor,
    frame: &mut Option<Retained<'s>>,
) -> (Duration, Vec<wgpu::CommandBuffer>) {
    let frame = frame.get_or_insert_with(|| {
        let mut graph = RenderGraph::new();
        let mut imports = Imports::new();
        declare_frame(&mut graph, scene, shape, draws, &mut imports);
        let plan = graph.compile(&CompileOptions::default()).expect("compiles");
        Retained {
            graph,
            plan,
            imports,
        }
    });
    let start = Instant::now();
    let commands = executor
        .execute(
            &mut frame.graph,
            &frame.plan,
            &frame.imports,
            ExecuteMode::Planned,
        )
        .expect("records");
    let commands: Vec<_> = commands.into_iter().collect();
    let time = start.elapsed();
    scene.bind_groups.next_frame();
    (time, commands)
}

/// The output and the shape's passes, and both's imports bound in `imports`.
fn declare_frame<'s>(
    graph: &mut RenderGraph<'s>,
    scene: &'s Scene,
    shape: Shape,
    draws: u32,
    imports: &mut Imports,
) {
    let output = graph.import_texture(
        "output",
        TextureDesc::new(FORMAT, SIZE, SIZE),
        Import::OUTPUT,
    );
    declare(graph, scene, shape, draws, output);
    imports.texture(output, &scene.output, &scene.output_view);
    if shape == Shape::Bunnymark {
        let objects = graph.buffer_handle("objects").expect("declared");
        imports.buffer(objects, &scene.objects);
    }
}

/// The shape's passes, their closures recording what `by_hand` records.
fn declare<'s>(
    graph: &mut RenderGraph<'s>,
    scene: &'s Scene,
    shape: Shape,
    draws: u32,
    output: TextureHandle,
) {
    let bind_groups = &scene.bind_groups;
    match shape {
        Shape::Boids => scene.declare_boids(graph, draws, output),
        Shape::Mrt => scene.declare_mrt(graph, draws, output),
        Shape::Bunnymark => {
            let objects = graph.import_buffer("objects", scene.objects.size(), Import::INPUT);
            graph
                .add_render_pass("bunnies")
                .uniform_slices(objects, SLICE)
                .color(output, Access::Clear)
                .execute(move |pass, ctx| {
                    let binding = Binding::BufferSlice(objects, 0, SLICE);
                    let group = bind_groups.bind_group(ctx, &scene.bunny_layout, &[binding])?;
                    scene.draw_bunnies(pass, &group, draws);
                    Ok(())
                });
        }
    }
}

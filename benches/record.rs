//! CPU cost of recording the deferred example's frame through the graph against the same frame
//! written by hand against wgpu (same passes, load/store ops, pipelines, bind groups and draws).
//!
//! ```text
//! cargo bench --bench record [-- --size WxH --iterations N --rounds R]
//! ```
//!
//! Graph: declare the frame (closures included), look the plan up in a `PlanCache`, record it
//! with the executor (error scopes included) and finish the encoder. Hand: create the encoder,
//! record, finish. Nothing is submitted while measuring, so the GPU (a software rasterizer on
//! CPU-only machines) does not compete for the CPU; both paths are warmed up and submitted
//! first, so the executor's pool and bind-group caches are warm. The two paths alternate
//! iteration by iteration so drifts in machine load hit both alike.

mod common;

use std::time::{Duration, Instant};

use tilegraph::wgpu;
use tilegraph::{CompileOptions, ExecuteMode, ExecutorOptions, FrameCommands, Imports, PlanCache};
use tilegraph_examples::deferred::{DeferredFrame, LIGHT_COUNT};
use tilegraph_tool::headless::{self, Backend};
use tilegraph_tool::timings::median_duration;

use common::{CargoBench, positive};

const FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba8UnormSrgb;

struct Args {
    size: (u32, u32),
    iterations: usize,
    rounds: usize,
}

/// The recording benchmark's flags.
#[derive(clap::Parser)]
#[command(
    name = "record",
    about = "CPU time recording the deferred frame: graph against hand-written"
)]
struct Cli {
    /// The frame's size.
    #[arg(long, value_name = "WxH", default_value = "1280x720", value_parser = size_arg)]
    size: (u32, u32),
    /// Frames recorded per round.
    #[arg(long, value_name = "N", default_value_t = 2000, value_parser = positive)]
    iterations: usize,
    /// Rounds.
    #[arg(long, value_name = "N", default_value_t = 5, value_parser = positive)]
    rounds: usize,
    #[command(flatten)]
    cargo: CargoBench,
}

fn size_arg(v: &str) -> Result<(u32, u32), String> {
    tilegraph_tool::parse_size(v).ok_or(format!("takes WxH, not `{v}`"))
}

fn args() -> Args {
    let cli: Cli = clap::Parser::parse();
    Args {
        size: cli.size,
        iterations: cli.iterations,
        rounds: cli.rounds,
    }
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    sorted[((sorted.len() - 1) as f64 * p).round() as usize]
}

fn micros(d: Duration) -> f64 {
    d.as_secs_f64() * 1e6
}

fn main() {
    // SAFETY: first thing in main, before any other thread exists.
    unsafe { headless::stay_off_window_systems() };
    let args = args();
    let backend = Backend::from_env().unwrap_or_else(|e| {
        eprintln!("error: {e}");
        std::process::exit(2)
    });
    let gpu = headless::open(&headless::device_options(backend, false, true)).unwrap_or_else(|e| {
        eprintln!("error: {e}");
        std::process::exit(1)
    });
    let size = args.size;
    let mut deferred = DeferredFrame::new(&gpu.adapter, &gpu.device, FORMAT).unwrap_or_else(|e| {
        eprintln!("error: {e}");
        std::process::exit(1)
    });
    let (output, view) = gpu.target(
        "output",
        size,
        FORMAT,
        wgpu::TextureUsages::RENDER_ATTACHMENT,
    );
    let targets = deferred.hand_targets(size);
    let debug_groups = std::env::var_os("TILEGRAPH_NO_DEBUG_GROUPS").is_none();
    let mut executor = gpu.executor(ExecutorOptions::default().with_debug_groups(debug_groups));
    let mut cache = PlanCache::default();
    let mut imports = Imports::new();
    deferred.update(&gpu.queue, size, 0.0);

    let mut graph_frame = |deferred: &mut DeferredFrame| -> (FrameCommands, [Instant; 4]) {
        let t0 = Instant::now();
        let (mut graph, handles) = deferred.declare(size);
        let t1 = Instant::now();
        let plan = cache
            .get_or_compile(&graph, &CompileOptions::default())
            .expect("the deferred frame compiles");
        let t2 = Instant::now();
        imports.clear();
        imports.texture(handles.output, &output, &view);
        let commands = executor
            .execute(&mut graph, &plan, &imports, ExecuteMode::Planned)
            .unwrap_or_else(|e| panic!("{}", headless::describe_failure(&e)));
        let t3 = Instant::now();
        (commands, [t0, t1, t2, t3])
    };
    let hand_frame = |deferred: &DeferredFrame| -> (wgpu::CommandBuffer, Duration) {
        let t0 = Instant::now();
        let mut encoder = gpu.device.create_command_encoder(&Default::default());
        deferred.record_by_hand(&mut encoder, &targets, &view);
        let commands = encoder.finish();
        (commands, t0.elapsed())
    };

    // Warm up: pool textures, bind groups and pipelines in use, submitted for real once.
    for _ in 0..3 {
        let (a, _) = graph_frame(&mut deferred);
        let (b, _) = hand_frame(&deferred);
        gpu.queue.submit(a.into_iter().chain([b]));
    }
    gpu.device
        .poll(wgpu::PollType::wait_indefinitely())
        .expect("device poll");
    for _ in 0..200 {
        drop(graph_frame(&mut deferred));
        drop(hand_frame(&deferred));
    }
    if let Some(e) = gpu.take_uncaptured_errors().first() {
        eprintln!("error: wgpu reported: {e}");
        std::process::exit(1);
    }

    println!(
        "deferred frame {}x{}, {} lights; adapter {}",
        size.0,
        size.1,
        LIGHT_COUNT,
        gpu.describe()
    );
    println!(
        "{} rounds of {} iterations, graph and hand alternating; CPU time per frame in µs",
        args.rounds, args.iterations
    );
    println!(
        "{:>5} {:>12} {:>12} {:>9} {:>10} {:>10} {:>10} {:>10}",
        "round", "graph med", "hand med", "overhead", "declare", "plan", "execute", "recording"
    );
    let mut measure_graph = |deferred: &mut DeferredFrame,
                             graph: &mut Vec<Duration>,
                             parts: &mut [Vec<Duration>; 3]| {
        let (commands, t) = graph_frame(deferred);
        graph.push(t[3] - t[0]);
        for (k, part) in parts.iter_mut().enumerate() {
            part.push(t[k + 1] - t[k]);
        }
        drop(commands);
    };
    let mut overheads = Vec::new();
    let mut recording_overheads = Vec::new();
    let (mut all_graph, mut all_hand) = (Vec::new(), Vec::new());
    for round in 0..args.rounds {
        let mut graph = Vec::with_capacity(args.iterations);
        let mut hand = Vec::with_capacity(args.iterations);
        let mut parts = [Vec::new(), Vec::new(), Vec::new()];
        for i in 0..args.iterations {
            // Alternate which goes first, so neither always runs on a warmer cache.
            if i % 2 == 0 {
                measure_graph(&mut deferred, &mut graph, &mut parts);
                hand.push(hand_frame(&deferred).1);
            } else {
                hand.push(hand_frame(&deferred).1);
                measure_graph(&mut deferred, &mut graph, &mut parts);
            }
        }
        all_graph.extend_from_slice(&graph);
        all_hand.extend_from_slice(&hand);
        let (g, h) = (median_duration(&graph), median_duration(&hand));
        let overhead = g.as_secs_f64() / h.as_secs_f64() - 1.0;
        overheads.push(overhead);
        let [d, p, e] = parts.map(|v| median_duration(&v));
        // Recording alone: what a caller that keeps its declared graph across frames pays.
        let recording = (p + e).as_secs_f64() / h.as_secs_f64() - 1.0;
        recording_overheads.push(recording);
        println!(
            "{:>5} {:>12.1} {:>12.1} {:>8.1}% {:>10.1} {:>10.1} {:>10.1} {:>9.1}%",
            round,
            micros(g),
            micros(h),
            overhead * 100.0,
            micros(d),
            micros(p),
            micros(e),
            recording * 100.0
        );
    }
    all_graph.sort_unstable();
    all_hand.sort_unstable();
    println!(
        "all: graph median {:.1} µs (p10 {:.1}, p90 {:.1}), hand median {:.1} µs (p10 {:.1}, p90 {:.1})",
        micros(percentile(&all_graph, 0.5)),
        micros(percentile(&all_graph, 0.1)),
        micros(percentile(&all_graph, 0.9)),
        micros(percentile(&all_hand, 0.5)),
        micros(percentile(&all_hand, 0.1)),
        micros(percentile(&all_hand, 0.9)),
    );
    print_overhead(
        "declaring + recording through the graph over hand-written recording",
        &mut overheads,
        "",
    );
    print_overhead(
        "recording a declared graph (plan lookup + executor) over hand-written recording",
        &mut recording_overheads,
        "; budget 5%",
    );
}

/// A summary line: an overhead's median over the rounds and its range.
fn print_overhead(what: &str, rounds: &mut [f64], budget: &str) {
    rounds.sort_by(f64::total_cmp);
    println!(
        "overhead of {what}: median of rounds {:.1}% (range {:.1}% .. {:.1}%){budget}",
        rounds[rounds.len() / 2] * 100.0,
        rounds[0] * 100.0,
        rounds[rounds.len() - 1] * 100.0
    );
}

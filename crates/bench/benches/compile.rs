//! Compile time of generated frames loaded with `RenderGraph::from_json`, compiled with the
//! default options (restructuring on), and of a plan-cache hit.
//!
//! `cargo bench --bench compile [-- --runs N] [--only PASSES] [--ratio]`; with zenfg 0.2
//! compiling the same graphs side by side:
//! `cargo bench -p tilegraph-bench --bench compile --features zenfg --ignore-rust-version`
//!
//! The frames: chained deferred views (100, 1 000 and 10 000 passes: the frame the compile figures
//! in BENCHMARKS.md are given for), frames with mips and layers, and deferred frames declared with
//! the builder (and the time declaring them takes, into a new graph and into the last frame's
//! graph reset, with the plan-cache hit that follows). Every row is the median (and range) of
//! `--runs` compiles (25 by default) in this one process, after three that are not measured:
//! with one `Compiler`, each plan dropped once timed (a renderer compiling every frame), and
//! with `RenderGraph::compile` (the thread's workspaces; each plan dropped once timed).
//! Wall-clock time, and the compiling thread's CPU time, which leaves out the time other
//! processes held the core. The per-pass cost at 10 000
//! passes against that at 1 000 is taken in `--runs` rounds that each time both sizes, one right
//! after the other: rows measured seconds apart can fall on different speeds of a shared machine.
//! The cache hit is the median of 25 batches of 100 000 lookups. `--only PASSES` measures the
//! deferred-views frame of that many passes with a reused compiler and nothing else (for a
//! profiler); `--ratio` only the rounds that compare 1 000 and 10 000 passes (to compare
//! builds) and those against zenfg.

use std::hint::black_box;
use std::time::{Duration, Instant};

use tilegraph::{CompileOptions, Compiler, PlanCache, RenderGraph};

use tilegraph_bench::{
    compile_once, compiled_with, load, paired_per_pass, positive, ratio_summary,
};
use tilegraph_oracle::generate;

/// The compile benchmark's flags.
#[derive(clap::Parser)]
#[command(name = "compile", about = "Compile times on generated graphs")]
struct Cli {
    /// Rounds per row (the median and range are printed).
    #[arg(long, value_name = "N", default_value_t = 25, value_parser = positive)]
    runs: usize,
    /// Measure only graphs of this many passes.
    #[arg(long, value_name = "PASSES")]
    only: Option<usize>,
    /// Only the rounds that compare 1 000 and 10 000 passes.
    #[arg(long)]
    ratio: bool,
    /// `cargo bench` passes `--bench`.
    #[arg(long, hide = true)]
    bench: bool,
    /// libtest-style filters, ignored.
    #[arg(hide = true)]
    filters: Vec<String>,
}

fn main() {
    let Cli {
        runs,
        only,
        ratio: ratio_only,
        ..
    } = clap::Parser::parse();
    let options = CompileOptions::default();
    if !ratio_only {
        println!("compile, median of {runs} (range), restructuring on:");
        println!(
            "{:<26} {:<21} {:>6} {:>5} {:>5} {:>9} {:>8} {:>19} {:>9}",
            "frame",
            "compiled with",
            "passes",
            "res/p",
            "acc/p",
            "wall",
            "per pass",
            "wall range",
            "CPU"
        );
    }
    if let Some(passes) = only {
        let graph = load(&generate::deferred_views_json(passes));
        measure("deferred views, JSON", &graph, &options, true, runs);
        return;
    }
    let graphs: Vec<_> = [100, 1_000, 10_000]
        .into_iter()
        .map(|passes| load(&generate::deferred_views_json(passes)))
        .collect();
    if !ratio_only {
        for graph in &graphs {
            for reuse in [true, false] {
                measure("deferred views, JSON", graph, &options, reuse, runs);
            }
        }
    }
    println!(
        "per-pass cost at 10 000 against 1 000 passes, {runs} rounds each timing both sizes \
         (median, quartiles):"
    );
    for reuse in [true, false] {
        let rounds = paired_per_pass((&graphs[1], &graphs[2]), &options, reuse, runs);
        println!("  {:<21} {}", compiled_with(reuse), ratio_summary(&rounds));
    }
    against_zenfg(&graphs[1..], &options, runs);
    if ratio_only {
        return;
    }
    for passes in [1_000, 10_000] {
        let graph = load(&generate::subresource_frame_json(passes));
        measure("mips and layers, JSON", &graph, &options, true, runs);
        let declared = options.with_restructure(false);
        measure("  same, declared order", &graph, &declared, true, runs);
    }
    for passes in [1_000, 10_000] {
        declare(passes, runs);
        let graph = generate::deferred_frame(passes);
        measure("deferred, builder", &graph, &options, true, runs);
        // The same declarations, laid out in memory by the JSON loader.
        let loaded = load(&graph.to_json());
        measure("  same, loaded from JSON", &loaded, &options, true, runs);
    }

    println!("plan-cache hit, median of 25 batches of 100 000 lookups:");
    for passes in [1_000, 10_000] {
        let graph = load(&generate::deferred_views_json(passes));
        let mut cache = PlanCache::default();
        cache
            .get_or_compile(&graph, &options)
            .expect("generated frames compile");
        const LOOKUPS: u32 = 100_000;
        let mut batches: Vec<Duration> = (0..25)
            .map(|_| {
                let start = Instant::now();
                for _ in 0..LOOKUPS {
                    black_box(cache.get_or_compile(black_box(&graph), &options)).expect("cached");
                }
                start.elapsed() / LOOKUPS
            })
            .collect();
        batches.sort();
        println!(
            "{:<26} {:<21} {:>6} {:>5} {:>5} {:>6} ns {:>8} {:>13} ns",
            "deferred views, JSON",
            "PlanCache",
            passes,
            "",
            "",
            batches[12].as_nanos(),
            "",
            format!("{}–{}", batches[0].as_nanos(), batches[24].as_nanos()),
        );
    }
}

/// `RenderGraph::compile` against zenfg 0.2's `Frame::compile` on the same graphs: in each of
/// `runs` rounds, three compiles by each of the graph (after one not timed), the ratio of their
/// medians.
#[cfg(feature = "zenfg")]
fn against_zenfg(graphs: &[RenderGraph<'static>], options: &CompileOptions, runs: usize) {
    use tilegraph_bench::zenfg_frame;
    println!(
        "RenderGraph::compile against zenfg 0.2's Frame::compile of the same graph (recorded \
         access for access, not timed), {runs} rounds each timing both (median, lowest–highest):"
    );
    let mut compiler = Compiler::new();
    for graph in graphs {
        let live = graph
            .compile(options)
            .expect("generated frames compile")
            .order()
            .len();
        let (_, kept) = zenfg_frame::compile(graph);
        assert_eq!(kept, live, "zenfg keeps the passes tilegraph keeps");
        let median = |mut times: Vec<Duration>| {
            times.sort();
            times[times.len() / 2]
        };
        let mut rounds: Vec<(f64, Duration, Duration)> = (0..runs)
            .map(|_| {
                let ours = median(
                    (0..4)
                        .map(|_| compile_once(&mut compiler, graph, options, false).0)
                        .skip(1)
                        .collect(),
                );
                let theirs = median(
                    (0..4)
                        .map(|_| zenfg_frame::compile(graph).0)
                        .skip(1)
                        .collect(),
                );
                (theirs.as_secs_f64() / ours.as_secs_f64(), ours, theirs)
            })
            .collect();
        rounds.sort_by(|a, b| a.0.total_cmp(&b.0));
        let (ratio, ours, theirs) = rounds[runs / 2];
        println!(
            "  {:>6} passes: {ratio:.1}x ({:.1}x–{:.1}x) faster; tilegraph {}, zenfg {} in the \
             median round",
            graph.passes().len(),
            rounds[0].0,
            rounds[runs - 1].0,
            show(ours),
            show(theirs),
        );
    }
}

#[cfg(not(feature = "zenfg"))]
fn against_zenfg(_: &[RenderGraph<'static>], _: &CompileOptions, _: usize) {
    println!(
        "against zenfg 0.2: cargo bench -p tilegraph-bench --features zenfg --ignore-rust-version \
         (zenfg 0.2 declares Rust 1.98)"
    );
}

/// Prints a row and returns the median wall-clock time of `runs` compiles, with one reused
/// compiler or a fresh one each time.
fn measure(
    name: &str,
    graph: &RenderGraph<'_>,
    options: &CompileOptions,
    reuse: bool,
    runs: usize,
) -> Duration {
    let mut compiler = Compiler::new();
    let mut wall = Vec::with_capacity(runs);
    let mut cpu = Vec::with_capacity(runs);
    for run in 0..runs + 3 {
        let (elapsed, elapsed_cpu) = compile_once(&mut compiler, graph, options, reuse);
        if run >= 3 {
            wall.push(elapsed);
            cpu.push(elapsed_cpu);
        }
    }
    wall.sort();
    cpu.sort();
    let median = wall[runs / 2];
    let passes = graph.passes();
    let accesses: usize = passes
        .iter()
        .map(|p| p.attachment_count() + p.entries().count())
        .sum();
    let n = passes.len() as f64;
    println!(
        "{name:<26} {:<21} {:>6} {:>5.2} {:>5.2} {:>9} {:>5.0} ns {:>19} {:>9}",
        compiled_with(reuse),
        passes.len(),
        graph.resources().len() as f64 / n,
        accesses as f64 / n,
        show(median),
        median.as_nanos() as f64 / n,
        format!("{}–{}", show(wall[0]), show(wall[runs - 1])),
        show(cpu[runs / 2]),
    );
    median
}

/// Prints rows for declaring the deferred frame of `passes` passes with the builder: into a new
/// graph (names formatted, dropping the graph not timed), and into the graph the last frame's
/// [`RenderGraph::reset`] returned (names written into one buffer) as a renderer declaring every
/// frame does, alone and followed by the plan-cache hit that frame then gets. The medians of
/// `runs`, after three that are not measured. The last row compares that frame's CPU cost with
/// one compile of the frame by a reused `Compiler`, each round timing both.
fn declare(passes: usize, runs: usize) {
    let median = |mut times: Vec<Duration>| {
        times.sort();
        (times[runs / 2], times[0], times[runs - 1])
    };
    let row = |how: &str, (median, low, high): (Duration, Duration, Duration)| {
        println!(
            "{:<26} {:<21} {passes:>6} {:>5} {:>5} {:>9} {:>5.0} ns {:>19}",
            "deferred, builder",
            how,
            "",
            "",
            show(median),
            median.as_nanos() as f64 / passes as f64,
            format!("{}–{}", show(low), show(high)),
        );
    };
    let fresh: Vec<Duration> = (0..runs + 3)
        .map(|_| {
            let start = Instant::now();
            let graph = black_box(generate::deferred_frame(passes));
            let elapsed = start.elapsed();
            drop(graph);
            elapsed
        })
        .skip(3)
        .collect();
    row("declared, new graph", median(fresh));

    let options = CompileOptions::default();
    let mut cache = PlanCache::default();
    let mut compiler = Compiler::new();
    let mut graph = RenderGraph::new();
    let mut name = String::new();
    let (mut declared, mut with_hit, mut ratios) = (Vec::new(), Vec::new(), Vec::new());
    for run in 0..runs + 3 {
        let start = Instant::now();
        graph = black_box(graph).reset();
        generate::declare_deferred_frame(&mut graph, passes, &mut name);
        let declaring = start.elapsed();
        let plan = cache.get_or_compile(&graph, &options);
        let frame = start.elapsed();
        black_box(plan).expect("generated frames compile");
        let (compiling, _) = compile_once(&mut compiler, &graph, &options, true);
        if run >= 3 {
            declared.push(declaring);
            with_hit.push(frame);
            ratios.push(frame.as_secs_f64() / compiling.as_secs_f64());
        }
    }
    assert_eq!(cache.misses(), 1, "one compile, then plan-cache hits");
    row("declared, reset graph", median(declared));
    row("  + plan-cache hit", median(with_hit));
    ratios.sort_by(f64::total_cmp);
    println!(
        "  declaring a frame into the reset graph with its plan-cache hit: {:.2}x ({:.2}x–{:.2}x) \
         the time a reused Compiler takes to compile it, {runs} rounds timing both",
        ratios[runs / 2],
        ratios[0],
        ratios[runs - 1],
    );
}

fn show(d: Duration) -> String {
    let us = d.as_secs_f64() * 1e6;
    if us < 1_000.0 {
        format!("{us:.0} µs")
    } else {
        format!("{:.2} ms", us / 1_000.0)
    }
}

//! CPU time to record a heavy frame on 1, 2, 4, 8 and 16 recording threads
//! (`ExecutorOptions::with_recording_threads`).
//!
//! ```text
//! cargo bench --bench record_parallel [-- --passes 64 --draws 2000 --rounds 7 --iterations 5 --threads 1,2,4,8,16]
//! ```
//!
//! Built once, the binary runs on its own (no toolchain needed):
//! `cargo bench --bench record_parallel --no-run` prints its path,
//! `target/release/deps/record_parallel-<hash>`; run it with the same flags, and with
//! `TILEGRAPH_BACKEND` (`vulkan`, `gl`, …) to pick the adapter as the other benches do.
//!
//! The frame: `--passes` render passes, each into its own texture (so each is its own group),
//! each with `--draws` draws, every draw with its own dynamic offset into one uniform buffer.
//! Measured: `Executor::execute` (encoders created, closures called, encoders finished — wgpu 30
//! encodes and validates passes when an encoder finishes), after warm-up, nothing submitted
//! while measuring. The graph is declared and compiled once; each iteration records it again.
//! Reported per thread count: the median over rounds of each round's median iteration, its
//! speed-up over the first thread count, and (on Linux) the CPU time all threads spent per
//! frame: when it grows with the thread count, threads wait on each other or on the CPU.
//! `--bind-groups per-pass` gives every pass its own bind group and buffer (the default,
//! `shared`, has all draws of all passes use one); `--bind-groups per-layout` also gives every
//! pass its own bind group layout and pipeline (wgpu 30 takes a reference to the bind group's
//! layout for every bind group set, an atomic count that threads recording passes of one
//! layout share; it also keeps one layout for identical descriptors, so pass `p`'s layout binds
//! its buffer at binding `p`). `--encoding bundles` has every pass record its
//! draws into a `wgpu::RenderBundle` on its recording thread and execute it (the default,
//! `direct`, draws into the render pass), with `PassContext::render_bundle_encoder`: wgpu 30 looks
//! up every bind group set on a render pass
//! in the device's registry under a lock all threads share, where a bundle looks its bind groups
//! up under one lock acquisition when it finishes.

mod common;

use std::time::{Duration, Instant};

use tilegraph::wgpu;
use tilegraph::{
    Access, CompileOptions, ExecuteMode, ExecutorOptions, Imports, RenderGraph, TextureDesc,
};
use tilegraph_tool::headless::{self, Backend};
use tilegraph_tool::timings::median_duration;

use common::{CargoBench, positive};

const FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba8Unorm;
/// Dynamic-offset stride (the largest `min_uniform_buffer_offset_alignment` wgpu allows).
const STRIDE: u64 = 256;

struct Args {
    passes: usize,
    draws: usize,
    rounds: usize,
    iterations: usize,
    size: u32,
    threads: Vec<usize>,
    /// One bind group (and uniform buffer) per pass instead of one shared by all.
    per_pass: bool,
    /// One bind group layout and pipeline per pass too.
    per_layout: bool,
    /// Every pass records its draws into a render bundle and executes it.
    bundles: bool,
}

/// The parallel recording benchmark's flags (`TILEGRAPH_BACKEND` picks the adapter).
#[derive(clap::Parser)]
#[command(
    name = "record_parallel",
    about = "Recording one frame on 1 .. N threads"
)]
struct Cli {
    /// Render passes, each its own group.
    #[arg(long, value_name = "N", default_value_t = 64, value_parser = positive)]
    passes: usize,
    /// Draws per pass.
    #[arg(long, value_name = "N", default_value_t = 2000, value_parser = positive)]
    draws: usize,
    /// Rounds.
    #[arg(long, value_name = "N", default_value_t = 7, value_parser = positive)]
    rounds: usize,
    /// Frames per round and thread count.
    #[arg(long, value_name = "N", default_value_t = 5, value_parser = positive)]
    iterations: usize,
    /// The textures' width and height.
    #[arg(long, value_name = "PX", default_value_t = 64, value_parser = positive)]
    size: usize,
    /// Recording thread counts measured.
    #[arg(long, value_name = "1,2,4,8,16", default_value = "1,2,4,8,16", value_parser = threads_arg)]
    threads: Threads,
    /// One bind group for all draws, one per pass, or one layout and pipeline per pass too.
    #[arg(long, value_name = "shared|per-pass|per-layout", default_value = "shared",
          value_parser = ["shared", "per-pass", "per-layout"])]
    bind_groups: String,
    /// Draws recorded directly or into a render bundle per pass.
    #[arg(long, value_name = "direct|bundles", default_value = "direct",
          value_parser = ["direct", "bundles"])]
    encoding: String,
    #[command(flatten)]
    cargo: CargoBench,
}

/// `--threads`' value (a type of its own, so that clap takes the list as one value).
#[derive(Clone)]
struct Threads(Vec<usize>);

fn threads_arg(v: &str) -> Result<Threads, String> {
    v.split(',')
        .map(positive)
        .collect::<Result<_, _>>()
        .map(Threads)
}

fn args() -> Args {
    let cli: Cli = clap::Parser::parse();
    let (per_pass, per_layout) = match cli.bind_groups.as_str() {
        "per-pass" => (true, false),
        "per-layout" => (true, true),
        _ => (false, false),
    };
    Args {
        passes: cli.passes,
        draws: cli.draws,
        rounds: cli.rounds,
        iterations: cli.iterations,
        size: cli.size as u32,
        threads: cli.threads.0,
        per_pass,
        per_layout,
        bundles: cli.encoding == "bundles",
    }
}

fn fail(e: impl std::fmt::Display) -> ! {
    eprintln!("error: {e}");
    std::process::exit(1)
}

fn millis(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

/// CPU time all threads of the process have run (Linux: the sum of every thread's
/// `/proc/self/task/*/schedstat`, nanoseconds on the CPU); `None` elsewhere.
fn process_cpu_time() -> Option<Duration> {
    let mut total = 0u64;
    for task in std::fs::read_dir("/proc/self/task").ok()? {
        let stat = std::fs::read_to_string(task.ok()?.path().join("schedstat")).ok()?;
        total += stat.split_whitespace().next()?.parse::<u64>().ok()?;
    }
    Some(Duration::from_nanos(total))
}

/// Pipelines, and bind groups with a dynamic offset over the uniform buffers they read: pass
/// `p` draws with pipeline `p % pipelines.len()` and bind group `p % bind_groups.len()`.
struct Scene {
    pipelines: Vec<wgpu::RenderPipeline>,
    bind_groups: Vec<wgpu::BindGroup>,
}

impl Scene {
    /// `bind_groups` bind groups of `layouts` layouts (each with its pipeline), over buffers of
    /// `draws` draws.
    fn new(device: &wgpu::Device, draws: usize, bind_groups: usize, layouts: usize) -> Self {
        // wgpu 30 keeps one layout for identical layout descriptors, so layout `l` binds its
        // buffer at binding `l`: distinct entries, distinct layouts, each with its own module.
        let module = |binding: u32| {
            device.create_shader_module(wgpu::ShaderModuleDescriptor {
                label: Some("record_parallel"),
                source: wgpu::ShaderSource::Wgsl(
                    format!(
                        "struct Draw {{ offset: vec4f }}
                         @group(0) @binding({binding}) var<uniform> draw: Draw;
                         @vertex fn vs(@builtin(vertex_index) i: u32) -> @builtin(position) vec4f {{
                             var p = array(vec2f(0.0, 0.0), vec2f(0.05, 0.0), vec2f(0.0, 0.05));
                             return vec4f(p[i] + draw.offset.xy, 0.0, 1.0);
                         }}
                         @fragment fn fs() -> @location(0) vec4f {{ return draw.offset; }}"
                    )
                    .into(),
                ),
            })
        };
        let layout = |binding: u32| {
            device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
                label: None,
                entries: &[wgpu::BindGroupLayoutEntry {
                    binding,
                    visibility: wgpu::ShaderStages::VERTEX_FRAGMENT,
                    ty: wgpu::BindingType::Buffer {
                        ty: wgpu::BufferBindingType::Uniform,
                        has_dynamic_offset: true,
                        min_binding_size: wgpu::BufferSize::new(16),
                    },
                    count: None,
                }],
            })
        };
        let layouts: Vec<wgpu::BindGroupLayout> = (0..layouts as u32).map(layout).collect();
        let pipeline = |(binding, layout): (usize, &wgpu::BindGroupLayout)| {
            let module = module(binding as u32);
            let pipeline_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
                label: None,
                bind_group_layouts: &[Some(layout)],
                immediate_size: 0,
            });
            headless::color_pipeline(
                device,
                "record_parallel",
                &module,
                Some(&pipeline_layout),
                ("vs", "fs"),
                FORMAT,
            )
        };
        let bind_group = |i: usize| {
            let buffer = device.create_buffer(&wgpu::BufferDescriptor {
                label: Some("draws"),
                size: STRIDE * draws as u64,
                usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
                mapped_at_creation: false,
            });
            let binding = i % layouts.len();
            device.create_bind_group(&wgpu::BindGroupDescriptor {
                label: None,
                layout: &layouts[binding],
                entries: &[wgpu::BindGroupEntry {
                    binding: binding as u32,
                    resource: wgpu::BindingResource::Buffer(wgpu::BufferBinding {
                        buffer: &buffer,
                        offset: 0,
                        size: wgpu::BufferSize::new(16),
                    }),
                }],
            })
        };
        Scene {
            pipelines: layouts.iter().enumerate().map(pipeline).collect(),
            bind_groups: (0..bind_groups).map(bind_group).collect(),
        }
    }
}

/// The heavy frame: `passes` render passes into their own textures, `draws` draws each.
fn declare<'a>(scene: &'a Scene, args: &Args) -> RenderGraph<'a> {
    let mut graph = RenderGraph::with_capacity(args.passes, args.passes);
    let draws = args.draws as u32;
    let bundles = args.bundles;
    for p in 0..args.passes {
        let target = graph.create_texture(
            &format!("target{p}"),
            TextureDesc::new(FORMAT, args.size, args.size),
        );
        graph
            .add_render_pass(&format!("pass{p}"))
            .color(target, Access::Clear)
            .side_effects()
            .execute(move |pass, ctx| {
                let bind_group = &scene.bind_groups[p % scene.bind_groups.len()];
                let pipeline = &scene.pipelines[p % scene.pipelines.len()];
                if !bundles {
                    pass.set_pipeline(pipeline);
                    for d in 0..draws {
                        pass.set_bind_group(0, bind_group, &[d * STRIDE as u32]);
                        pass.draw(0..3, 0..1);
                    }
                    return Ok(());
                }
                let mut bundle = ctx.render_bundle_encoder(None)?;
                bundle.set_pipeline(pipeline);
                for d in 0..draws {
                    bundle.set_bind_group(0, bind_group, &[d * STRIDE as u32]);
                    bundle.draw(0..3, 0..1);
                }
                let bundle = bundle.finish(&wgpu::RenderBundleDescriptor { label: None });
                pass.execute_bundles([&bundle]);
                Ok(())
            });
    }
    graph
}

fn main() {
    // SAFETY: first thing in main, before any other thread exists.
    unsafe { headless::stay_off_window_systems() };
    let args = args();
    let backend = Backend::from_env().unwrap_or_else(|e| {
        eprintln!("error: {e}");
        std::process::exit(2)
    });
    let gpu =
        headless::open(&headless::device_options(backend, false, true)).unwrap_or_else(|e| fail(e));
    let scene = Scene::new(
        &gpu.device,
        args.draws,
        if args.per_pass { args.passes } else { 1 },
        if args.per_layout { args.passes } else { 1 },
    );
    let mut graph = declare(&scene, &args);
    let plan = graph
        .compile(&CompileOptions::default())
        .unwrap_or_else(|e| fail(e));
    assert_eq!(plan.groups().len(), args.passes, "one group per pass");
    let imports = Imports::new();
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    println!(
        "{} render passes x {} draws (own dynamic offset each, {}), {} bind group{} of {} layout{}, {}x{} targets; adapter {}; {} cores",
        args.passes,
        args.draws,
        if args.bundles {
            "recorded into a bundle per pass"
        } else {
            "drawn into the pass"
        },
        scene.bind_groups.len(),
        if scene.bind_groups.len() == 1 {
            ""
        } else {
            "s"
        },
        scene.pipelines.len(),
        if scene.pipelines.len() == 1 { "" } else { "s" },
        args.size,
        args.size,
        gpu.describe(),
        cores
    );
    println!(
        "Executor::execute, median of {} rounds of {} iterations; nothing submitted while measuring",
        args.rounds, args.iterations
    );
    println!(
        "{:>7} {:>12} {:>12} {:>12} {:>9} {:>12}",
        "threads", "median ms", "fastest ms", "slowest ms", "speed-up", "CPU ms"
    );
    let mut single = None;
    for &threads in &args.threads {
        let mut executor = gpu.executor(ExecutorOptions::default().with_recording_threads(threads));
        // Warm-up: pool textures created, the plan lowered, one frame submitted for real.
        let commands = executor
            .execute(&mut graph, &plan, &imports, ExecuteMode::Planned)
            .unwrap_or_else(|e| fail(headless::describe_failure(&e)));
        gpu.queue.submit(commands);
        gpu.device
            .poll(wgpu::PollType::wait_indefinitely())
            .unwrap_or_else(|e| fail(e));
        let mut rounds = Vec::with_capacity(args.rounds);
        let cpu_before = process_cpu_time();
        for _ in 0..args.rounds {
            let mut times = Vec::with_capacity(args.iterations);
            for _ in 0..args.iterations {
                let t0 = Instant::now();
                let commands = executor
                    .execute(&mut graph, &plan, &imports, ExecuteMode::Planned)
                    .unwrap_or_else(|e| fail(headless::describe_failure(&e)));
                times.push(t0.elapsed());
                drop(commands);
            }
            rounds.push(median_duration(&times));
        }
        let (fastest, slowest) = (
            *rounds.iter().min().expect("rounds"),
            *rounds.iter().max().expect("rounds"),
        );
        let cpu = match (cpu_before, process_cpu_time()) {
            (Some(a), Some(b)) => {
                let frames = (args.rounds * args.iterations) as u32;
                format!("{:.2}", millis(b.saturating_sub(a) / frames))
            }
            _ => "n/a".to_owned(),
        };
        let m = median_duration(&rounds);
        let base = *single.get_or_insert(m);
        println!(
            "{:>7} {:>12.2} {:>12.2} {:>12.2} {:>8.2}x {:>12}",
            threads,
            millis(m),
            millis(fastest),
            millis(slowest),
            base.as_secs_f64() / m.as_secs_f64(),
            cpu
        );
    }
    if let Some(e) = gpu.take_uncaptured_errors().first() {
        fail(format!("wgpu reported: {e}"));
    }
}

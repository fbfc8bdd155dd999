//! GPU time of the deferred example's frame: the plan with DontCare, the naive plan, and the plan
//! without DontCare, alternating frame by frame on one adapter, at 1920×1080 and 3840×2160.
//!
//! ```text
//! cargo bench --bench gpu [-- --frames N --sizes 1920x1080,3840x2160 --backend vulkan|gl|auto]
//! ```
//!
//! Every frame is timed with the executor's timestamps (start and end of every render and
//! compute group, summed), so the figures are GPU time only: no CPU recording, no submission
//! latency, no idle time between groups. The first frames of each variant warm the pools and
//! pipelines and are not counted. Prints the median frame time of each variant and the ratios
//! against naive; `TILEGRAPH_BACKEND` picks the backend too.

mod common;

use tilegraph::wgpu;
use tilegraph::{CompileOptions, ExecuteMode, ExecutorOptions, Imports, PlanCache};
use tilegraph_examples::deferred::DeferredFrame;
use tilegraph_tool::headless::{self, Backend};
use tilegraph_tool::timings::{self, Timings};

use common::{CargoBench, positive};

const FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba8UnormSrgb;
const WARM_UP: usize = 3;

struct Args {
    frames: usize,
    sizes: Vec<(u32, u32)>,
    backend: Backend,
}

/// The GPU benchmark's flags.
#[derive(clap::Parser)]
#[command(
    name = "gpu",
    about = "GPU time of the deferred frame: the plan, the naive plan, the plan without DontCare"
)]
struct Cli {
    /// Frames measured per size and variant.
    #[arg(long, value_name = "N", default_value_t = 30, value_parser = positive)]
    frames: usize,
    /// Frame sizes.
    #[arg(long, value_name = "WxH,WxH…", default_value = "1920x1080,3840x2160", value_parser = sizes_arg)]
    sizes: Sizes,
    /// The wgpu backend [default: TILEGRAPH_BACKEND, else auto].
    #[arg(long, value_name = "vulkan|gl|auto", value_parser = backend_arg)]
    backend: Option<Backend>,
    #[command(flatten)]
    cargo: CargoBench,
}

/// `--sizes`' value (a type of its own, so that clap takes the list as one value).
#[derive(Clone)]
struct Sizes(Vec<(u32, u32)>);

fn sizes_arg(v: &str) -> Result<Sizes, String> {
    v.split(',')
        .map(tilegraph_tool::parse_size)
        .collect::<Option<_>>()
        .map(Sizes)
        .ok_or(format!("takes WxH,WxH…, not `{v}`"))
}

fn backend_arg(v: &str) -> Result<Backend, String> {
    v.parse::<Backend>().map_err(|e| e.to_string())
}

fn args() -> Result<Args, String> {
    let cli: Cli = clap::Parser::parse();
    let backend = match cli.backend {
        Some(backend) => backend,
        None => Backend::from_env().map_err(|e| e.to_string())?,
    };
    Ok(Args {
        frames: cli.frames,
        sizes: cli.sizes.0,
        backend,
    })
}

/// One way of recording the frame.
struct Variant {
    name: &'static str,
    mode: ExecuteMode,
    options: CompileOptions,
}

fn main() -> Result<(), String> {
    // SAFETY: first thing in main, before any other thread exists.
    unsafe { headless::stay_off_window_systems() };
    headless::init_logging();
    let args = args()?;
    let gpu = headless::open(&headless::device_options(args.backend, false, true))
        .map_err(|e| e.to_string())?;
    println!("adapter: {}", gpu.describe());
    if let Some(why) = timings::unavailable(&gpu.device) {
        return Err(why);
    }
    // SAFETY: the frame's `write` accesses (lighting, tonemap) overwrite every pixel; the
    // example's `--mode poison` and its GPU test check it.
    let dont_care =
        CompileOptions::default().with_dont_care(unsafe { wgpu::LoadOpDontCare::enabled() });
    let variants = [
        Variant {
            name: "planned",
            mode: ExecuteMode::Planned,
            options: dont_care,
        },
        Variant {
            name: "naive",
            mode: ExecuteMode::Naive,
            options: CompileOptions::default(),
        },
        Variant {
            name: "planned, no DontCare",
            mode: ExecuteMode::Planned,
            options: CompileOptions::default(),
        },
    ];
    let mut frame = DeferredFrame::new(&gpu.adapter, &gpu.device, FORMAT)?;
    println!("light path: {}", frame.light_path().as_str());
    for &size in &args.sizes {
        let usage = wgpu::TextureUsages::RENDER_ATTACHMENT;
        let (output, view) = gpu.target("bench output", size, FORMAT, usage);
        let mut executor = gpu.executor(ExecutorOptions::default().with_timestamps(true));
        let mut caches: Vec<PlanCache> = variants.iter().map(|_| PlanCache::default()).collect();
        let mut times: Vec<Timings> = variants.iter().map(|_| Timings::default()).collect();
        let mut imports = Imports::new();
        for i in 0..WARM_UP + args.frames {
            for (v, variant) in variants.iter().enumerate() {
                frame.update(&gpu.queue, size, i as f32 / 60.0);
                let (mut graph, handles) = frame.declare(size);
                let plan = caches[v]
                    .get_or_compile(&graph, &variant.options)
                    .map_err(|e| e.to_string())?;
                imports.clear();
                imports.texture(handles.output, &output, &view);
                executor
                    .execute_and_submit(&mut graph, &plan, &imports, variant.mode)
                    .map_err(|e| headless::describe_failure(&e))?;
                let t = executor.read_timings();
                if i >= WARM_UP {
                    times[v].add_frame(&t);
                }
            }
        }
        if let Some(e) = gpu.take_uncaptured_errors().first() {
            return Err(format!("wgpu reported an error: {e}"));
        }
        let naive = times[1].frame_median();
        println!(
            "\n{}x{}, {} frames each (median GPU time of a frame, ratio to naive):",
            size.0, size.1, args.frames
        );
        for (variant, t) in variants.iter().zip(&times) {
            let ms = t.frame_median() / 1e6;
            println!(
                "  {:<22} {ms:>9.3} ms   {:>6.3}",
                variant.name,
                t.frame_median() / naive
            );
        }
        // The spread, so a reader can tell noise from a difference.
        for (variant, t) in variants.iter().zip(&times) {
            let groups: Vec<String> = t
                .group_medians()
                .iter()
                .map(|(l, ns)| format!("{l} {:.3}", ns / 1e6))
                .collect();
            println!("  {:<22} groups (ms): {}", variant.name, groups.join(", "));
            if t.invalid > 0 {
                println!(
                    "  {:<22} {} group timing(s) left out (end before start)",
                    "", t.invalid
                );
            }
        }
    }
    Ok(())
}

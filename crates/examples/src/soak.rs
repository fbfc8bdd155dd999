//! The `soak` example's run: its flags, the device, the random graphs
//! (`tilegraph_oracle::random_graph`) and the checkpoints of `tilegraph_tool::soak::Soak`.

use std::process::ExitCode;

use tilegraph_oracle::random_graph;
use tilegraph_tool::headless::{self, Backend};
use tilegraph_tool::soak::{Soak, SoakOptions};

/// The soak run's flags; each left out keeps `SoakOptions`' default.
#[derive(Debug, clap::Parser)]
#[command(
    name = "soak",
    about = "Many frames on one executor with changing graphs and sizes; checks what stays bounded"
)]
struct Cli {
    /// Frames to render [default: 100000].
    #[arg(long, value_name = "N", value_parser = positive)]
    frames: Option<u64>,
    /// Print a checkpoint every N frames [default: 10000].
    #[arg(long, value_name = "N", value_parser = positive)]
    report_every: Option<u64>,
    /// Change the frame size every N frames [default: 400].
    #[arg(long, value_name = "N", value_parser = positive)]
    resize_every: Option<u64>,
    /// Change the graph every N frames [default: 3].
    #[arg(long, value_name = "N", value_parser = positive)]
    switch_every: Option<u64>,
    /// Graphs that take turns [default: 10].
    #[arg(long, value_name = "N", value_parser = positive)]
    graphs: Option<u64>,
    /// Seed of the graphs and the schedule [default: 1].
    #[arg(long, value_name = "N", value_parser = positive)]
    seed: Option<u64>,
    /// The wgpu backend [default: TILEGRAPH_BACKEND, else auto].
    #[arg(long, value_name = "vulkan|gl|auto", value_parser = backend_arg)]
    backend: Option<Backend>,
}

fn positive(v: &str) -> Result<u64, String> {
    v.parse::<u64>()
        .ok()
        .filter(|&n| n > 0)
        .ok_or_else(|| format!("takes a positive number, not `{v}`"))
}

fn backend_arg(v: &str) -> Result<Backend, String> {
    v.parse::<Backend>().map_err(|e| e.to_string())
}

fn parse(cli: Cli) -> Result<(SoakOptions, Backend), String> {
    let mut o = SoakOptions::default();
    o.frames = cli.frames.unwrap_or(o.frames);
    o.report_every = cli.report_every.unwrap_or(o.report_every);
    o.resize_every = cli.resize_every.unwrap_or(o.resize_every);
    o.switch_every = cli.switch_every.unwrap_or(o.switch_every);
    o.graphs = cli.graphs.map_or(o.graphs, |n| n as usize);
    o.seed = cli.seed.unwrap_or(o.seed);
    let backend = match cli.backend {
        Some(backend) => backend,
        None => Backend::from_env().map_err(|e| e.to_string())?,
    };
    Ok((o, backend))
}

/// Parses the command line, runs the soak and prints its checkpoints; failure if a figure grew
/// past its bound after warm-up, or on a bad flag or device.
pub fn main() -> ExitCode {
    // SAFETY: first thing in `main`: no other thread exists yet.
    unsafe { headless::stay_off_window_systems() };
    headless::init_logging();
    let (options, backend) = match parse(<Cli as clap::Parser>::parse()) {
        Ok(parsed) => parsed,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::FAILURE;
        }
    };
    let result = (|| {
        let gpu = headless::open(&headless::device_options(
            backend,
            headless::validation_from_env(),
            true,
        ))
        .map_err(|e| e.to_string())?;
        println!("adapter: {}", gpu.describe());
        let candidates = random_graph::seeded_descriptions(options.seed, 200);
        let mut soak = Soak::new(&gpu, &candidates, options.clone())?;
        println!(
            "{} frames, {} graphs (plan cache {}), sizes {:?} every {} frames, warm after {} frames",
            options.frames,
            soak.graphs(),
            options.plan_cache_capacity,
            options.sizes,
            options.resize_every,
            options.warm_up_frames()
        );
        for line in soak.summary() {
            println!("  {line}");
        }
        let checkpoints = soak.run(&gpu, |c| println!("{c}"))?;
        let last = checkpoints.last().ok_or("no frames")?;
        println!(
            "bounded: {} frames in {:.0} s ({:.0} frames/s)",
            last.frame,
            last.seconds,
            last.frame as f64 / last.seconds
        );
        Ok::<(), String>(())
    })();
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

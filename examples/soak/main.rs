//! The soak run: many frames on one executor with graphs that change every few frames, a frame
//! size that changes every few hundred, a history texture through every graph and more graph
//! shapes than the plan cache and the executor keep. Prints resident memory, pooled textures,
//! lowered plans, cached plans and bind groups, and the wgpu objects alive every `--report-every`
//! frames, then checks they stayed bounded after warm-up (exit status 1 if not).
//!
//! ```text
//! nice -n 19 cargo run --release --example soak -- [--frames 100000] [--report-every 10000]
//!     [--resize-every 400] [--switch-every 3] [--graphs 10] [--seed 1] [--backend vulkan|gl|auto]
//! ```
//!
//! The graphs are random descriptions from the property tests' generator
//! (tests/support/random_graph.rs), run with the synthetic shaders of `tilegraph run`, at
//! 64×48, 48×32, 80×40 and 40×56 in turn.

#[allow(dead_code)]
#[path = "../../tests/support/random_graph.rs"]
mod random_graph;

use std::process::ExitCode;

use tilegraph_tool::headless::{self, Backend};
use tilegraph_tool::soak::{Soak, SoakOptions};

const USAGE: &str = "usage: soak [--frames N] [--report-every N] [--resize-every N] \
[--switch-every N] [--graphs N] [--seed N] [--backend vulkan|gl|auto]";

fn parse(args: &[String]) -> Result<(SoakOptions, Backend), String> {
    let mut o = SoakOptions::default();
    let mut backend = Backend::from_env().map_err(|e| e.to_string())?;
    let mut args = args.iter();
    while let Some(flag) = args.next() {
        let mut value = || args.next().ok_or_else(|| format!("{flag} takes a value"));
        let number = |v: &String| {
            v.parse::<u64>()
                .ok()
                .filter(|&n| n > 0)
                .ok_or_else(|| format!("{flag} takes a positive number, not `{v}`"))
        };
        match flag.as_str() {
            "--frames" => o.frames = number(value()?)?,
            "--report-every" => o.report_every = number(value()?)?,
            "--resize-every" => o.resize_every = number(value()?)?,
            "--switch-every" => o.switch_every = number(value()?)?,
            "--graphs" => o.graphs = number(value()?)? as usize,
            "--seed" => o.seed = number(value()?)?,
            "--backend" => {
                let v = value()?;
                backend = v.parse::<Backend>().map_err(|e| e.to_string())?;
            }
            "--help" | "-h" => return Err(USAGE.into()),
            other => return Err(format!("unknown flag `{other}`\n{USAGE}")),
        }
    }
    Ok((o, backend))
}

fn main() -> ExitCode {
    headless::init_logging();
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (options, backend) = match parse(&args) {
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

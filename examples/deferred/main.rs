//! Deferred shading through tilegraph: G-buffer, 256 moving point lights culled per tile in a
//! compute pass, lighting and transparent glass merged into one render pass, tonemap.
//!
//! ```text
//! cargo run --release --example deferred -- [--headless | --window] [--output PATH] [--size WxH]
//!     [--frames N] [--mode planned|naive|poison] [--backend vulkan|gl|auto] [--print-plan]
//!     [--plan-html PATH]
//!     [--no-dont-care] [--timings] [--light-path storage|uniform|auto]
//! ```
//!
//! The frame hands over `wgpu::LoadOpDontCare`: lighting and tonemap write every pixel of their
//! targets (full-screen triangles, no blending, no depth rejection). `--no-dont-care` compiles
//! without it, to compare; `--mode poison` checks the claim. `--timings` prints the median GPU
//! time of every group and of the frame over the frames run.
//!
//! Headless (the default, and the fallback when there is no display) renders `--frames` frames
//! and writes the last to `--output` (default deferred.png), printing the plan. `--window` opens
//! a window and presents through the graph, the surface texture imported every frame.

mod frame;
mod window;

use std::path::PathBuf;
use std::process::ExitCode;

use frame::{DeferredFrame, LightPath};
use tilegraph::prelude::*;
use tilegraph::wgpu;
use tilegraph::{ExecuteMode, ExecutorOptions, Imports};
use tilegraph_tool::headless::{self, Backend};
use tilegraph_tool::timings;

const USAGE: &str =
    "usage: deferred [--headless | --window] [--output PATH] [--size WxH] [--frames N]
                [--mode planned|naive|poison] [--backend vulkan|gl|auto] [--print-plan] [--plan-html PATH]
                [--no-dont-care] [--timings] [--light-path storage|uniform|auto]";

/// The headless output format: the tonemap writes linear values that the format encodes.
const OUTPUT_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba8UnormSrgb;

#[derive(Debug, Clone, PartialEq)]
pub struct Options {
    window: bool,
    output: PathBuf,
    size: (u32, u32),
    /// `None`: the default (1 headless, until closed in a window).
    frames: Option<u32>,
    mode: ExecuteMode,
    backend: Backend,
    print_plan: bool,
    /// Write the plan as an HTML page here.
    plan_html: Option<PathBuf>,
    /// Hand over `wgpu::LoadOpDontCare` (default; `--no-dont-care` turns it off).
    dont_care: bool,
    timings: bool,
    /// `None`: the first light path the adapter compiles.
    light_path: Option<LightPath>,
}

/// The frame's compile options: with the DontCare token unless `--no-dont-care`.
pub fn compile_options(dont_care: bool) -> CompileOptions {
    let options = CompileOptions::default();
    if dont_care {
        // SAFETY: every `write` access of the frame overwrites every pixel: lighting and tonemap
        // draw full-screen triangles with no blending, full write masks and no depth rejection
        // (lighting's depth test is `Always`, read-only). `--mode poison` proves it on a device.
        options.with_dont_care(unsafe { wgpu::LoadOpDontCare::enabled() })
    } else {
        options
    }
}

fn parse_size(v: &str) -> Option<(u32, u32)> {
    let (w, h) = v.split_once('x')?;
    let (w, h) = (w.parse().ok()?, h.parse().ok()?);
    let limit = 8192;
    (w > 0 && h > 0 && w <= limit && h <= limit).then_some((w, h))
}

fn parse(args: impl Iterator<Item = String>) -> Result<Options, String> {
    let mut o = Options {
        window: false,
        output: PathBuf::from("deferred.png"),
        size: (1280, 720),
        frames: None,
        mode: ExecuteMode::Planned,
        backend: Backend::Auto,
        print_plan: false,
        plan_html: None,
        dont_care: true,
        timings: false,
        light_path: None,
    };
    let (mut headless_flag, mut window_flag) = (false, false);
    let mut args = args.peekable();
    while let Some(arg) = args.next() {
        let mut value = |flag: &str| args.next().ok_or_else(|| format!("{flag} needs a value"));
        match arg.as_str() {
            "--headless" => headless_flag = true,
            "--window" => window_flag = true,
            "--output" => o.output = PathBuf::from(value("--output")?),
            "--size" => {
                let v = value("--size")?;
                o.size = parse_size(&v).ok_or_else(|| {
                    format!("--size takes WxH between 1x1 and 8192x8192, not `{v}`")
                })?;
            }
            "--frames" => {
                let v = value("--frames")?;
                o.frames = Some(
                    v.parse()
                        .ok()
                        .filter(|&n| n > 0)
                        .ok_or_else(|| format!("--frames takes a positive count, not `{v}`"))?,
                );
            }
            "--mode" => {
                let v = value("--mode")?;
                o.mode = ExecuteMode::from_name(&v)
                    .ok_or_else(|| format!("--mode takes planned, naive or poison, not `{v}`"))?;
            }
            "--backend" => {
                let v = value("--backend")?;
                o.backend = Backend::from_name(&v)
                    .ok_or_else(|| format!("--backend takes vulkan, gl or auto, not `{v}`"))?;
            }
            "--print-plan" => o.print_plan = true,
            "--plan-html" => o.plan_html = Some(PathBuf::from(value("--plan-html")?)),
            "--no-dont-care" => o.dont_care = false,
            "--timings" => o.timings = true,
            "--light-path" => {
                let v = value("--light-path")?;
                o.light_path = match v.as_str() {
                    "storage" => Some(LightPath::Storage),
                    "uniform" => Some(LightPath::Uniform),
                    "auto" => None,
                    _ => {
                        return Err(format!(
                            "--light-path takes storage, uniform or auto, not `{v}`"
                        ));
                    }
                };
            }
            "-h" | "--help" => return Err(String::new()),
            other => return Err(format!("unknown argument `{other}`")),
        }
    }
    if headless_flag && window_flag {
        return Err("--headless and --window exclude each other".into());
    }
    o.window = window_flag;
    Ok(o)
}

fn main() -> ExitCode {
    headless::init_logging();
    let options = match parse(std::env::args().skip(1)) {
        Ok(o) => o,
        Err(message) if message.is_empty() => {
            println!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        Err(message) => {
            eprintln!("error: {message}\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    let windowed = options.window && window::display_available();
    if !windowed {
        // SAFETY: no other thread exists yet (the event loop and the device start later).
        unsafe { headless::stay_off_window_systems() };
    }
    let result = if windowed {
        window::run(&options)
    } else {
        if options.window {
            eprintln!(
                "no display (neither DISPLAY nor WAYLAND_DISPLAY is set): rendering headless"
            );
        }
        run_headless(&options)
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::FAILURE
        }
    }
}

fn run_headless(o: &Options) -> Result<(), String> {
    let gpu =
        headless::open(o.backend, headless::validation_from_env()).map_err(|e| e.to_string())?;
    eprintln!("adapter: {}", gpu.describe());
    let mut frame =
        DeferredFrame::with_light_path(&gpu.adapter, &gpu.device, OUTPUT_FORMAT, o.light_path)?;
    eprintln!("light path: {}", frame.light_path().as_str());
    if let (true, Some(why)) = (o.timings, timings::unavailable(&gpu.device)) {
        eprintln!("{why}");
    }
    let (w, h) = o.size;
    let usage = wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::COPY_SRC;
    let (output, output_view) = gpu.target("deferred output", (w, h), OUTPUT_FORMAT, usage);
    let mut executor = gpu.executor(ExecutorOptions::default().with_timestamps(o.timings));
    let mut cache = PlanCache::default();
    let mut imports = Imports::new();
    let frames = o.frames.unwrap_or(1);
    let options = compile_options(o.dont_care);
    let mut gpu_times = timings::Timings::default();
    let mut last_plan = None;
    for i in 0..frames {
        frame.update(&gpu.queue, o.size, i as f32 / 60.0);
        let (mut graph, handles) = frame.declare(o.size);
        let plan = cache
            .get_or_compile(&graph, &options)
            .map_err(|e| format!("{}: {e}", e.kind()))?;
        imports.clear();
        imports.texture(handles.output, &output, &output_view);
        executor
            .execute_and_submit(&mut graph, &plan, &imports, o.mode)
            .map_err(|e| headless::describe_failure(&e))?;
        if executor.timestamps_enabled() {
            gpu_times.add_frame(&executor.read_timings());
        }
        last_plan = Some(plan);
    }
    let readback =
        headless::read_texture(&gpu.device, &gpu.queue, &output).map_err(|e| e.to_string())?;
    if let Some(first) = gpu.take_uncaptured_errors().first() {
        return Err(format!("wgpu reported an error: {first}"));
    }
    let rgba = readback
        .to_rgba8()
        .ok_or("the output format has no PNG conversion")?;
    headless::write_png(&o.output, w, h, &rgba)
        .map_err(|e| format!("cannot write {}: {e}", o.output.display()))?;
    if let (Some(path), Some(plan)) = (&o.plan_html, &last_plan) {
        std::fs::write(path, plan.to_html())
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        eprintln!("wrote the plan to {}", path.display());
    }
    if let Some(plan) = last_plan {
        println!("{}", plan.to_table());
    }
    if gpu_times.frames() > 0 {
        println!("{}", gpu_times.to_table());
    }
    eprintln!(
        "rendered {frames} frame(s) at {w}x{h} ({} mode), wrote {}",
        o.mode,
        o.output.display()
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(s: &str) -> impl Iterator<Item = String> {
        s.split_whitespace()
            .map(str::to_owned)
            .collect::<Vec<_>>()
            .into_iter()
    }

    #[test]
    fn flags_parse_and_bad_ones_are_errors() {
        let o = parse(args(
            "--size 257x131 --frames 3 --mode poison --backend gl --output a.png",
        ))
        .unwrap();
        assert_eq!(o.size, (257, 131));
        assert_eq!(o.frames, Some(3));
        assert_eq!(o.mode, ExecuteMode::Poison);
        assert_eq!(o.backend, Backend::Gl);
        assert_eq!(o.output, PathBuf::from("a.png"));
        for bad in [
            "--size 0x10",
            "--size 12",
            "--frames 0",
            "--mode fast",
            "--backend metal",
            "--output",
            "--headless --window",
            "--bogus",
        ] {
            assert!(
                parse(args(bad)).is_err_and(|e| !e.is_empty()),
                "{bad} accepted"
            );
        }
    }
}

//! `tilegraph`: plan, explain and draw render graphs described in JSON (the guide).

use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};
use tilegraph::plan::{Remedy, TileProfile};
use tilegraph::{CompileOptions, CompiledGraph, Fps, GraphError, RenderGraph};

/// Plan, explain and draw render graphs described in JSON: what tilegraph decides for a frame
/// (groups, every load and store op and why, lifetimes, traffic), and the frame run on a GPU with
/// synthetic shaders. The description format is in the guide (docs/guide.md).
#[derive(Parser)]
#[command(
    name = "tilegraph",
    version,
    subcommand_required = true,
    arg_required_else_help = false
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Compiles a description and prints the plan: groups, load/store ops with their reasons,
    /// restructuring, lifetimes, warnings and attachment traffic.
    Plan {
        #[command(flatten)]
        compile: CompileArgs,
        /// What to print: a table, the plan JSON, or a self-contained HTML viewer.
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
        /// Frame rate of the per-second traffic figures: a whole or decimal number (72, 72.5).
        #[arg(long, default_value = "60", value_parser = parse_fps)]
        fps: Fps,
    },
    /// Compiles a description and prints the plan as a Graphviz DOT graph.
    Dot {
        #[command(flatten)]
        compile: CompileArgs,
    },
    /// Executes a description on a GPU with synthetic shaders and prints what the frame kept.
    Run(run_command::RunArgs),
    /// Reads a wgpu 30 API trace (an app run with wgpu's `trace` feature) and reports, frame by
    /// frame, the app's load, store and resolve ops beside the plan's and the bytes between
    /// them: proven from the trace, and if every pixel is written.
    Trace(trace_command::TraceArgs),
    /// Replays a wgpu 30 API trace through wgpu, as recorded and (`--replan`) with the ops
    /// `trace` proves in place of the app's; prints each frame's image hash and compares the
    /// two replays byte for byte (a difference exits non-zero, naming frame and texture).
    Replay(replay_command::ReplayArgs),
}

/// How a description is compiled: shared by every command.
#[derive(clap::Args)]
struct CompileArgs {
    /// The graph description (JSON).
    file: String,
    /// Hand over `LoadOp::DontCare`: states that every `write` access in the file overwrites
    /// every pixel of its attachment.
    #[arg(long)]
    dont_care: bool,
    /// Keep the declared order: compile without restructuring.
    #[arg(long)]
    as_declared: bool,
    /// Check the plan against wgpu's limits of a kind of device: `webgpu`
    /// (`Limits::default()`), `downlevel` (`Limits::downlevel_defaults()`, GLES 3.1) or `webgl2`
    /// (`Limits::downlevel_webgl2_defaults()`); a plan that needs more is an `exceeds_limit`
    /// error naming the first pass over a limit.
    #[arg(long, value_enum)]
    limits: Option<LimitsPreset>,
    /// Report how every render group fits this tiler's on-chip budget (a model; repeat for
    /// several): mali-g71, mali-g52, mali-g610, mali-g720, adreno-630, adreno-650, adreno-660,
    /// adreno-740, apple-a8, apple-a11, powervr.
    #[arg(long = "tile", value_name = "PROFILE", value_parser = parse_tile_profile)]
    tile: Vec<TileProfile>,
    /// Report on a GPU the crate does not ship: a JSON profile of one of the four rules with
    /// its own budget (the guide's "Will it fit the tile?"); repeat for several, at most 4.
    #[arg(long = "tile-profile", value_name = "FILE", value_parser = read_tile_profile)]
    tile_profile: Vec<TileProfile>,
}

/// A `--tile-profile` file, read and checked.
fn read_tile_profile(path: &str) -> Result<TileProfile, String> {
    let json = std::fs::read_to_string(path).map_err(|e| format!("cannot read `{path}`: {e}"))?;
    TileProfile::from_json(&json).map_err(|e| format!("`{path}`: {e}"))
}

#[derive(Clone, Copy, PartialEq, ValueEnum)]
enum LimitsPreset {
    Webgpu,
    Downlevel,
    Webgl2,
}

impl LimitsPreset {
    fn limits(self) -> tilegraph::wgpu::Limits {
        match self {
            LimitsPreset::Webgpu => tilegraph::wgpu::Limits::default(),
            LimitsPreset::Downlevel => tilegraph::wgpu::Limits::downlevel_defaults(),
            LimitsPreset::Webgl2 => tilegraph::wgpu::Limits::downlevel_webgl2_defaults(),
        }
    }
}

/// A `--tile` profile by its name.
fn parse_tile_profile(name: &str) -> Result<TileProfile, String> {
    TileProfile::from_name(name).ok_or_else(|| {
        let names: Vec<&str> = TileProfile::all().iter().map(|p| p.name()).collect();
        format!("unknown tile profile (one of {})", names.join(", "))
    })
}

/// A `--fps` rate: a positive number, whole or decimal.
fn parse_fps(v: &str) -> Result<Fps, String> {
    v.parse::<f64>()
        .ok()
        .filter(|f| *f > 0.0)
        .and_then(Fps::new)
        .ok_or_else(|| {
            format!("takes a positive number of frames a second, e.g. 72 or 72.5, not `{v}`")
        })
}

#[derive(Clone, Copy, PartialEq, ValueEnum)]
enum Format {
    Text,
    Json,
    Html,
}

/// Why `plan` or `dot` printed no plan.
enum Failure {
    /// The file could not be read: `io`, as for `run`.
    Io { path: String, message: String },
    /// The description or graph is wrong.
    Graph(GraphError),
}

impl Failure {
    fn kind(&self) -> &'static str {
        match self {
            Failure::Io { .. } => "io",
            Failure::Graph(e) => e.kind().as_str(),
        }
    }

    fn message(&self) -> String {
        match self {
            Failure::Io { path, message } => format!("cannot read `{path}`: {message}"),
            Failure::Graph(e) => e.to_string(),
        }
    }

    /// The `{"error": ...}` object of `--format json`.
    fn to_json(&self) -> String {
        match self {
            Failure::Graph(e) => e.to_json(),
            Failure::Io { .. } => serde_json::json!({"error": {
                "kind": "io", "pass": null, "resource": null, "message": self.message()}})
            .to_string(),
        }
    }
}

impl From<GraphError> for Failure {
    fn from(e: GraphError) -> Self {
        Failure::Graph(e)
    }
}

/// Reads the description: a file that cannot be read is `io`; one that is not UTF-8 is an
/// `invalid_description`.
fn read_description(path: &str) -> Result<String, Failure> {
    let bytes = std::fs::read(path).map_err(|e| Failure::Io {
        path: path.to_owned(),
        message: e.to_string(),
    })?;
    String::from_utf8(bytes).map_err(|e| {
        Failure::Graph(GraphError::InvalidDescription {
            pass: None,
            resource: None,
            message: format!(
                "`{path}` is not UTF-8 (invalid byte at offset {})",
                e.utf8_error().valid_up_to()
            ),
        })
    })
}

/// Loads and compiles the description `plan` and `dot` print.
fn compile(args: &CompileArgs, fps: Fps) -> Result<CompiledGraph, Failure> {
    let graph = RenderGraph::from_json(&read_description(&args.file)?)?;
    let profiles: Vec<TileProfile> = args
        .tile
        .iter()
        .chain(&args.tile_profile)
        .copied()
        .collect();
    let mut options = CompileOptions::default()
        .with_fps(fps)
        .with_restructure(!args.as_declared)
        .with_tile_profiles(&profiles);
    if args.dont_care {
        // SAFETY: `--dont-care` is the user's statement that every `write` access in the file
        // overwrites every pixel of its attachment (the guide), which is what the token asks for.
        options = options.with_dont_care(unsafe { tilegraph::wgpu::LoadOpDontCare::enabled() });
    }
    if let Some(preset) = args.limits {
        options = options.with_limits(&preset.limits());
    }
    let mut plan = graph.compile(&options)?;
    plan.name_remedies(flag_of);
    Ok(plan)
}

/// The tool's flag for a switch the reports point to.
fn flag_of(remedy: Remedy) -> &'static str {
    match remedy {
        Remedy::DontCare => "--dont-care",
        other => other.rust_api(),
    }
}

fn main() -> ExitCode {
    // SAFETY: first thing in `main`, before any other thread exists. No command opens a window.
    unsafe { tilegraph_tool::headless::stay_off_window_systems() };
    tilegraph_tool::headless::init_logging();
    // Usage mistakes print `error: ...` and exit with 2; `--help` and `--version` exit with 0.
    let cli = Cli::try_parse().unwrap_or_else(|e| e.exit());
    let (args, fps, json) = match &cli.command {
        Command::Run(args) => return run_command::main(args),
        Command::Trace(args) => return trace_command::main(args),
        Command::Replay(args) => return replay_command::main(args),
        Command::Plan {
            compile,
            format,
            fps,
        } => (compile, *fps, *format == Format::Json),
        Command::Dot { compile } => (compile, Fps::from(60), false),
    };
    if args.tile_profile.len() > 4 {
        use clap::CommandFactory;
        let n = args.tile_profile.len();
        Cli::command()
            .error(
                clap::error::ErrorKind::TooManyValues,
                format!("at most 4 --tile-profile files, not {n}"),
            )
            .exit();
    }
    let text = compile(args, fps).map(|plan| match &cli.command {
        Command::Plan {
            format: Format::Json,
            ..
        } => plan.to_json() + "\n",
        Command::Plan {
            format: Format::Html,
            ..
        } => plan.to_html(),
        Command::Plan {
            format: Format::Text,
            ..
        } => plan.to_table(),
        _ => plan.to_dot(),
    });
    match text {
        Ok(text) => {
            print!("{text}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {}: {}", e.kind(), e.message());
            if json {
                println!("{}", e.to_json());
            }
            ExitCode::FAILURE
        }
    }
}

/// `tilegraph run`: executes a description on a GPU with synthetic shaders.
mod run_command {
    use std::path::PathBuf;
    use std::process::ExitCode;

    use tilegraph::ExecuteMode;
    use tilegraph_tool::headless::{self, Backend, fnv1a64};
    use tilegraph_tool::synthetic::{self, OutputContents, RunError, RunOptions};

    /// `tilegraph run`'s arguments.
    #[derive(clap::Args)]
    pub(super) struct RunArgs {
        /// The graph description (JSON).
        file: String,
        /// How to record: the plan, a naive renderer (load and store everything), or the plan with
        /// every discarded or don't-care attachment filled with garbage first.
        #[arg(long, value_enum, default_value_t = Mode::Planned)]
        mode: Mode,
        /// The wgpu backend to find an adapter on (`auto`: Vulkan, then GL).
        #[arg(long, value_enum, default_value_t = BackendArg::Auto)]
        backend: BackendArg,
        /// Print a hash of every kept import's contents instead of its size.
        #[arg(long)]
        hash: bool,
        /// Write every kept texture as `NAME.png` into this folder.
        #[arg(long, value_name = "DIR")]
        out: Option<PathBuf>,
        /// Run at this size instead of the description's (textures scale with it).
        #[arg(long, value_name = "WxH", value_parser = parse_size)]
        size: Option<(u32, u32)>,
        /// Number of frames to run (history textures carry over between them).
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..))]
        frames: u32,
        /// Hand over `LoadOp::DontCare`: states that every `write` access in the file overwrites
        /// every pixel of its attachment.
        #[arg(long)]
        dont_care: bool,
        /// Measure the GPU time of every group (timestamp queries) and print a table.
        #[arg(long)]
        timings: bool,
        /// Write the executed plan as a self-contained HTML page.
        #[arg(long, value_name = "PATH")]
        plan_html: Option<PathBuf>,
        /// Keep the declared order: compile without restructuring.
        #[arg(long)]
        as_declared: bool,
        /// Write the render passes this mode records as JSON: per group in recording order, each
        /// attachment's format, size, samples, load, store and resolve.
        #[arg(long, value_name = "PATH")]
        recorded_json: Option<PathBuf>,
        /// Record multiview passes one render pass per view, even where the device has
        /// multiview (to compare).
        #[arg(long)]
        no_multiview: bool,
        /// Open the device with every limit the adapter has, instead of exactly what the plan
        /// needs (`DeviceOptions::for_plan`, the documented path).
        #[arg(long)]
        adapter_limits: bool,
        /// Realise storage textures only in formats every adapter can store to (WebGPU's
        /// guaranteed ones), so that the images of one description compare across adapters.
        #[arg(long)]
        portable: bool,
    }

    #[derive(Clone, Copy, clap::ValueEnum)]
    enum Mode {
        Planned,
        Naive,
        Poison,
    }

    #[derive(Clone, Copy, clap::ValueEnum)]
    enum BackendArg {
        Vulkan,
        Gl,
        Auto,
    }

    /// `WxH` with both positive, e.g. `257x131`.
    fn parse_size(v: &str) -> Result<(u32, u32), String> {
        tilegraph_tool::parse_size(v).ok_or_else(|| format!("takes WxH, e.g. 257x131, not `{v}`"))
    }

    impl RunArgs {
        fn options(&self) -> RunOptions {
            RunOptions {
                mode: match self.mode {
                    Mode::Planned => ExecuteMode::Planned,
                    Mode::Naive => ExecuteMode::Naive,
                    Mode::Poison => ExecuteMode::Poison,
                },
                frames: self.frames,
                dont_care: self.dont_care,
                size: self.size,
                timings: self.timings,
                as_declared: self.as_declared,
                multiview: !self.no_multiview,
                portable: self.portable,
            }
        }

        fn backend(&self) -> Backend {
            match self.backend {
                BackendArg::Vulkan => Backend::Vulkan,
                BackendArg::Gl => Backend::Gl,
                BackendArg::Auto => Backend::Auto,
            }
        }
    }

    pub(super) fn main(args: &RunArgs) -> ExitCode {
        match run(args) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("error: {}: {e}", e.kind());
                ExitCode::FAILURE
            }
        }
    }

    fn run(args: &RunArgs) -> Result<(), RunError> {
        let description = super::read_description(&args.file).map_err(|e| match e {
            super::Failure::Io { path, message } => RunError::Io { path, message },
            super::Failure::Graph(e) => e.into(),
        })?;
        let options = args.options();
        let base = headless::device_options(
            args.backend(),
            headless::validation_from_env(),
            args.adapter_limits,
        );
        let device = if args.adapter_limits {
            base
        } else {
            synthetic::device_options(&description, &options, base)?
        };
        let gpu = headless::open(&device)?;
        eprintln!("adapter: {}", gpu.describe());
        // Hashes and images are claims about what ran: none where nothing runs (a drm shim).
        if (args.hash || args.out.is_some()) && !gpu.executes_submissions() {
            return Err(RunError::NotExecuted {
                adapter: gpu.describe(),
            });
        }
        if let (true, Some(why)) = (
            options.timings,
            tilegraph_tool::timings::unavailable(&gpu.device),
        ) {
            eprintln!("{why}");
        }
        let output = synthetic::run(&gpu, &description, &options);
        let uncaptured = gpu.take_uncaptured_errors();
        if output.is_err() {
            for e in &uncaptured {
                eprintln!("wgpu: {e}");
            }
        }
        let mut output = output?;
        output.plan.name_remedies(super::flag_of);
        if output
            .plan
            .pass_decls()
            .iter()
            .any(|p| p.multiview().is_some())
        {
            let multiview = tilegraph::Views::multiview_supported(&gpu.device);
            eprintln!(
                "multiview: {}",
                match (multiview, options.multiview) {
                    (true, true) => "one multiview render pass per multiview pass",
                    (true, false) => "off (--no-multiview): one render pass per view",
                    (false, _) => "not on this device: one render pass per view",
                }
            );
        }
        for note in &output.notes {
            eprintln!("note: {note}");
        }
        if let Some(first) = uncaptured.first() {
            return Err(RunError::Device {
                count: uncaptured.len(),
                first: first.to_string(),
            });
        }
        let io = |path: &std::path::Path, e: std::io::Error| RunError::Io {
            path: path.display().to_string(),
            message: e.to_string(),
        };
        if let Some(path) = &args.recorded_json {
            let json = tilegraph_tool::executed::to_json(&output.plan, options.mode);
            std::fs::write(path, json).map_err(|e| io(path, e))?;
        }
        if let Some(path) = &args.plan_html {
            std::fs::write(path, output.plan.to_html()).map_err(|e| io(path, e))?;
            eprintln!("wrote {}", path.display());
        }
        if let Some(dir) = &args.out {
            std::fs::create_dir_all(dir).map_err(|e| io(dir, e))?;
        }
        for o in &output.outputs {
            if args.hash {
                match &o.contents {
                    OutputContents::Unreadable(why) => println!("{} unreadable({why})", o.name),
                    c => {
                        let bytes: Vec<u8> = c.bytes().flatten().copied().collect();
                        println!("{} {:016x}", o.name, fnv1a64(&bytes));
                    }
                }
            }
            if let (Some(dir), OutputContents::Texture(subresources)) = (&args.out, &o.contents) {
                // The first subresource as NAME.png, the others numbered after it.
                for (i, r) in subresources.iter().enumerate() {
                    let name = match i {
                        0 => format!("{}.png", o.name),
                        i => format!("{}.{i}.png", o.name),
                    };
                    match r.to_rgba8() {
                        Some(rgba) => {
                            let path = dir.join(name);
                            headless::write_png(&path, r.width, r.height, &rgba)
                                .map_err(|e| io(&path, e))?;
                            eprintln!("wrote {}", path.display());
                        }
                        None => eprintln!("{}: no PNG for format {:?}", o.name, r.format),
                    }
                }
            }
        }
        if output.timings.frames() > 0 {
            // On stderr: `--hash` output stays comparable across runs.
            eprint!("{}", output.timings.to_table());
        }
        if !args.hash && args.out.is_none() {
            for o in &output.outputs {
                let bytes: usize = o.contents.bytes().map(<[u8]>::len).sum();
                println!("{} {bytes} bytes", o.name);
            }
        }
        Ok(())
    }
}

/// `tilegraph trace`: a wgpu trace's frames as plans beside the app's own ops.
mod trace_command {
    use std::path::PathBuf;
    use std::process::ExitCode;

    use tilegraph_tool::trace::{self, TraceError};

    use super::Format;

    /// `tilegraph trace`'s arguments.
    #[derive(clap::Args)]
    pub(super) struct TraceArgs {
        /// The trace's directory (`trace.ron` and its data files).
        dir: PathBuf,
        /// What to print: a table, JSON, or a self-contained HTML page.
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
        /// Frame rate of the per-second traffic figures of the plans.
        #[arg(long, default_value_t = 60, value_parser = clap::value_parser!(u32).range(1..))]
        fps: u32,
        /// Write one frame's rebuilt graph description (JSON) here, for `plan`, `dot` and `run`.
        #[arg(long, value_name = "FILE")]
        emit_graph: Option<PathBuf>,
        /// The frame `--emit-graph` writes (default: the last frame with a render pass).
        #[arg(long, value_name = "N")]
        frame: Option<usize>,
    }

    pub(super) fn main(args: &TraceArgs) -> ExitCode {
        match run(args) {
            Ok(text) => {
                print!("{text}");
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("error: {}: {e}", e.kind());
                if args.format == Format::Json {
                    let error = serde_json::json!({"error": {
                        "kind": e.kind(), "action": e.action(), "message": e.to_string()}});
                    println!("{error}");
                }
                ExitCode::FAILURE
            }
        }
    }

    fn run(args: &TraceArgs) -> Result<String, TraceError> {
        let report = trace::analyse(&args.dir, args.fps)?;
        if let Some(path) = &args.emit_graph {
            let frame = match args.frame {
                Some(n) => report.frames.iter().find(|f| f.index == n),
                None => report.frames.iter().rev().find(|f| !f.rows.is_empty()),
            };
            let Some(frame) = frame else {
                return Err(TraceError::Io {
                    path: path.clone(),
                    message: match args.frame {
                        Some(n) => format!("the trace has no frame {n} with passes"),
                        None => "the trace has no frame with a render pass".into(),
                    },
                });
            };
            let json = serde_json::to_string_pretty(&frame.description).unwrap_or_default();
            std::fs::write(path, json + "\n").map_err(|e| TraceError::Io {
                path: path.clone(),
                message: e.to_string(),
            })?;
        }
        Ok(match args.format {
            Format::Text => report.to_table(),
            Format::Json => report.to_json(),
            Format::Html => report.to_html(),
        })
    }
}

/// `tilegraph replay`: a wgpu trace played back as recorded and with the proven ops.
mod replay_command {
    use std::path::PathBuf;
    use std::process::ExitCode;

    use tilegraph::helpers::Backend;
    use tilegraph_tool::replay::{self, Outcome, ReplayError, ReplayOptions};

    /// `tilegraph replay`'s arguments.
    #[derive(clap::Args)]
    pub(super) struct ReplayArgs {
        /// The trace's directory (`trace.ron` and its data files).
        dir: PathBuf,
        /// Replay with the ops `tilegraph trace` proves (loads, stores, resolves) in place of
        /// the app's, and compare with the replay as recorded (unless `--no-compare`).
        #[arg(long)]
        replan: bool,
        /// Replay as recorded and replanned, and compare their images byte for byte.
        #[arg(long)]
        compare: bool,
        /// With `--replan`: only the replanned replay.
        #[arg(long, requires = "replan", conflicts_with = "compare")]
        no_compare: bool,
        /// The wgpu backend (default: `TILEGRAPH_BACKEND`, else Vulkan, then GL).
        #[arg(long, value_enum)]
        backend: Option<BackendArg>,
        /// What to print: one line per image, or JSON.
        #[arg(long, value_enum, default_value_t = ReplayFormat::Text)]
        format: ReplayFormat,
        /// A deliberately wrong replan, to show that a difference is caught: the store of
        /// PASS/RESOURCE (as `trace` names them) becomes a discard in the replanned replay.
        #[arg(long, value_name = "PASS/RESOURCE", hide = true)]
        discard_store: Option<String>,
    }

    #[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
    enum BackendArg {
        Vulkan,
        Gl,
    }

    #[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
    enum ReplayFormat {
        Text,
        Json,
    }

    pub(super) fn main(args: &ReplayArgs) -> ExitCode {
        match run(args) {
            Ok(outcome) => {
                match args.format {
                    ReplayFormat::Text => print!("{}", text(&outcome)),
                    ReplayFormat::Json => println!("{}", json(&outcome)),
                }
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("error: {}: {e}", e.kind());
                if args.format == ReplayFormat::Json {
                    println!("{}", json_error(&e));
                }
                ExitCode::FAILURE
            }
        }
    }

    fn run(args: &ReplayArgs) -> Result<Outcome, ReplayError> {
        let backend = match args.backend {
            Some(BackendArg::Vulkan) => Backend::Vulkan,
            Some(BackendArg::Gl) => Backend::Gl,
            None => Backend::from_env()?,
        };
        let both = args.compare || (args.replan && !args.no_compare);
        let mut options = ReplayOptions::new(backend, both || !args.replan, args.replan || both);
        options.discard_store = args.discard_store.clone();
        replay::replay(&args.dir, &options)
    }

    fn text(o: &Outcome) -> String {
        use std::fmt::Write as _;
        let mut out = format!("replay {} on {}\n", o.dir.display(), o.adapter);
        let runs = [("recorded", &o.recorded), ("replanned", &o.replanned)];
        let first = runs.iter().find_map(|(_, r)| r.as_ref());
        for (i, image) in first
            .map(|r| r.images.iter())
            .into_iter()
            .flatten()
            .enumerate()
        {
            let _ = write!(
                out,
                "frame {} (action {}): {} {}x{} {:?}",
                image.frame, image.action, image.texture, image.size.0, image.size.1, image.format
            );
            for (name, run) in &runs {
                if let Some(img) = run.as_ref().and_then(|r| r.images.get(i)) {
                    let _ = write!(out, "  {name} {:016x}", img.hash());
                }
            }
            out.push('\n');
        }
        let images = first.map_or(0, |r| r.images.len());
        let frames = first.map_or(0, |r| r.frames);
        let _ = write!(out, "{frames} frames, {images} images");
        if o.replanned.is_some() {
            let c = o.changes;
            let _ = write!(
                out,
                "; replanned: {} loads, {} stores, {} resolves changed",
                c.loads, c.stores, c.resolves
            );
        }
        if o.recorded.is_some() && o.replanned.is_some() {
            out.push_str("; recorded and replanned images byte-equal");
        }
        if o.unrecorded > 0 {
            let s = if o.unrecorded == 1 { "" } else { "s" };
            let _ = write!(
                out,
                " ({} submission{s} missing from the trace)",
                o.unrecorded
            );
        }
        out.push('\n');
        out
    }

    fn json(o: &Outcome) -> serde_json::Value {
        let run = |r: &Option<replay::Replayed>| {
            r.as_ref().map(|r| {
                serde_json::json!({
                    "frames": r.frames,
                    "images": r.images.iter().map(|i| serde_json::json!({
                        "frame": i.frame,
                        "action": i.action,
                        "texture": i.texture,
                        "format": format!("{:?}", i.format),
                        "size": [i.size.0, i.size.1],
                        "hash": format!("{:016x}", i.hash()),
                    })).collect::<Vec<_>>(),
                })
            })
        };
        serde_json::json!({
            "dir": o.dir.display().to_string(),
            "adapter": o.adapter,
            "recorded": run(&o.recorded),
            "replanned": run(&o.replanned),
            "changes": {"loads": o.changes.loads, "stores": o.changes.stores,
                "resolves": o.changes.resolves},
            "equal": (o.recorded.is_some() && o.replanned.is_some()).then_some(true),
            "unrecorded_submissions": o.unrecorded,
        })
    }

    fn json_error(e: &ReplayError) -> serde_json::Value {
        let mut error = serde_json::json!({
            "kind": e.kind(), "action": e.action(), "message": e.to_string()});
        if let ReplayError::Differs { frame, texture, .. } = e {
            error["frame"] = (*frame).into();
            error["texture"] = texture.clone().into();
        }
        serde_json::json!({ "error": error })
    }
}

//! `tilegraph`: plan, explain and draw render graphs described in JSON (the guide).

use std::process::ExitCode;

use tilegraph::{CompileOptions, GraphError, RenderGraph};

const USAGE: &str = "usage:
  tilegraph plan FILE [--format json|text|html] [--fps N] [--dont-care] [--as-declared]
  tilegraph dot FILE [--dont-care] [--as-declared]
  tilegraph run FILE [--mode planned|naive|poison] [--backend vulkan|gl|auto] [--hash]
                     [--out DIR] [--size WxH] [--frames N] [--dont-care] [--timings]
                     [--plan-html PATH] [--as-declared]";

/// A failure of the tool: a usage mistake, an unreadable file, or a graph error.
enum Failure {
    Usage(String),
    Graph(GraphError),
}

impl From<GraphError> for Failure {
    fn from(e: GraphError) -> Self {
        Failure::Graph(e)
    }
}

#[derive(PartialEq)]
enum Format {
    Text,
    Json,
    Html,
}

struct Args {
    command: String,
    file: String,
    format: Format,
    fps: u32,
    dont_care: bool,
    as_declared: bool,
}

fn parse_args(mut args: impl Iterator<Item = String>) -> Result<Args, Failure> {
    let command = args
        .next()
        .ok_or_else(|| Failure::Usage("missing command".into()))?;
    if command != "plan" && command != "dot" {
        return Err(Failure::Usage(format!("unknown command `{command}`")));
    }
    let mut parsed = Args {
        command,
        file: String::new(),
        format: Format::Text,
        fps: 60,
        dont_care: false,
        as_declared: false,
    };
    let mut file = None;
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--format" => {
                parsed.format = match args.next().as_deref() {
                    Some("json") => Format::Json,
                    Some("text") => Format::Text,
                    Some("html") => Format::Html,
                    other => {
                        return Err(Failure::Usage(format!(
                            "--format takes json, text or html, not {other:?}"
                        )));
                    }
                }
            }
            "--fps" => {
                let value = args.next().unwrap_or_default();
                parsed.fps = match value.parse::<u32>() {
                    Ok(fps) if fps > 0 => fps,
                    _ => {
                        return Err(Failure::Usage(format!(
                            "--fps takes a positive whole number, not `{value}`"
                        )));
                    }
                }
            }
            "--dont-care" => parsed.dont_care = true,
            "--as-declared" => parsed.as_declared = true,
            flag if flag.starts_with("--") => {
                return Err(Failure::Usage(format!("unknown flag `{flag}`")));
            }
            path if file.is_none() => file = Some(path.to_owned()),
            extra => return Err(Failure::Usage(format!("unexpected argument `{extra}`"))),
        }
    }
    parsed.file = file.ok_or_else(|| Failure::Usage("missing FILE".into()))?;
    Ok(parsed)
}

/// Reads the description; an unreadable or non-UTF-8 file is an `invalid_description`.
fn read_description(path: &str) -> Result<String, GraphError> {
    let bytes = std::fs::read(path).map_err(|e| GraphError::InvalidDescription {
        pass: None,
        resource: None,
        message: format!("cannot read `{path}`: {e}"),
    })?;
    String::from_utf8(bytes).map_err(|e| GraphError::InvalidDescription {
        pass: None,
        resource: None,
        message: format!(
            "`{path}` is not UTF-8 (invalid byte at offset {})",
            e.utf8_error().valid_up_to()
        ),
    })
}

fn run(args: &Args) -> Result<String, GraphError> {
    let graph = RenderGraph::from_json(&read_description(&args.file)?)?;
    let mut options = CompileOptions::default()
        .with_fps(args.fps)
        .with_restructure(!args.as_declared);
    if args.dont_care {
        // SAFETY: `--dont-care` is the user's statement that every `write` access in the file
        // overwrites every pixel of its attachment (the guide), which is what the token asks for.
        options = options.with_dont_care(unsafe { tilegraph::wgpu::LoadOpDontCare::enabled() });
    }
    let plan = graph.compile(&options)?;
    Ok(match (args.command.as_str(), &args.format) {
        ("dot", _) => plan.to_dot(),
        (_, Format::Json) => plan.to_json() + "\n",
        (_, Format::Html) => plan.to_html(),
        _ => plan.to_table(),
    })
}

fn main() -> ExitCode {
    // SAFETY: first thing in `main`, before any other thread exists. No command opens a window.
    unsafe { tilegraph_tool::headless::stay_off_window_systems() };
    tilegraph_tool::headless::init_logging();
    if std::env::args().nth(1).as_deref() == Some("run") {
        return run_command::main(std::env::args().skip(2));
    }
    let args = match parse_args(std::env::args().skip(1)) {
        Ok(args) => args,
        Err(Failure::Usage(message)) => {
            eprintln!("error: {message}\n{USAGE}");
            return ExitCode::from(2);
        }
        Err(Failure::Graph(e)) => {
            eprintln!("error: {}: {e}", e.kind());
            return ExitCode::FAILURE;
        }
    };
    match run(&args) {
        Ok(text) => {
            print!("{text}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {}: {e}", e.kind());
            if args.format == Format::Json {
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

    struct RunArgs {
        file: String,
        options: RunOptions,
        backend: Backend,
        hash: bool,
        out: Option<PathBuf>,
        plan_html: Option<PathBuf>,
    }

    fn parse(mut args: impl Iterator<Item = String>) -> Result<RunArgs, String> {
        let mut file = None;
        let mut parsed = RunArgs {
            file: String::new(),
            options: RunOptions::default(),
            backend: Backend::Auto,
            hash: false,
            out: None,
            plan_html: None,
        };
        while let Some(arg) = args.next() {
            let mut value = |flag: &str| args.next().ok_or_else(|| format!("{flag} needs a value"));
            match arg.as_str() {
                "--mode" => {
                    let v = value("--mode")?;
                    parsed.options.mode = ExecuteMode::from_name(&v).ok_or_else(|| {
                        format!("--mode takes planned, naive or poison, not `{v}`")
                    })?;
                }
                "--backend" => {
                    let v = value("--backend")?;
                    parsed.backend = Backend::from_name(&v)
                        .ok_or_else(|| format!("--backend takes vulkan, gl or auto, not `{v}`"))?;
                }
                "--size" => {
                    let v = value("--size")?;
                    let size = v
                        .split_once('x')
                        .and_then(|(w, h)| Some((w.parse::<u32>().ok()?, h.parse::<u32>().ok()?)))
                        .filter(|&(w, h)| w > 0 && h > 0)
                        .ok_or_else(|| format!("--size takes WxH, e.g. 257x131, not `{v}`"))?;
                    parsed.options.size = Some(size);
                }
                "--frames" => {
                    let v = value("--frames")?;
                    parsed.options.frames =
                        v.parse::<u32>().ok().filter(|&n| n > 0).ok_or_else(|| {
                            format!("--frames takes a positive whole number, not `{v}`")
                        })?;
                }
                "--out" => parsed.out = Some(PathBuf::from(value("--out")?)),
                "--plan-html" => parsed.plan_html = Some(PathBuf::from(value("--plan-html")?)),
                "--hash" => parsed.hash = true,
                "--dont-care" => parsed.options.dont_care = true,
                "--as-declared" => parsed.options.as_declared = true,
                "--timings" => parsed.options.timings = true,
                flag if flag.starts_with("--") => return Err(format!("unknown flag `{flag}`")),
                path if file.is_none() => file = Some(path.to_owned()),
                extra => return Err(format!("unexpected argument `{extra}`")),
            }
        }
        parsed.file = file.ok_or("missing FILE")?;
        Ok(parsed)
    }

    pub fn main(args: impl Iterator<Item = String>) -> ExitCode {
        let args = match parse(args) {
            Ok(a) => a,
            Err(message) => {
                eprintln!("error: {message}\n{}", super::USAGE);
                return ExitCode::from(2);
            }
        };
        match run(&args) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("error: {}: {e}", e.kind());
                ExitCode::FAILURE
            }
        }
    }

    fn run(args: &RunArgs) -> Result<(), RunError> {
        let description = super::read_description(&args.file)?;
        let gpu = headless::open(args.backend, headless::validation_from_env())?;
        eprintln!("adapter: {}", gpu.describe());
        if let (true, Some(why)) = (
            args.options.timings,
            tilegraph_tool::timings::unavailable(&gpu.device),
        ) {
            eprintln!("{why}");
        }
        let output = synthetic::run(&gpu, &description, &args.options);
        let uncaptured = gpu.take_uncaptured_errors();
        if output.is_err() {
            for e in &uncaptured {
                eprintln!("wgpu: {e}");
            }
        }
        let output = output?;
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
                    c => println!("{} {:016x}", o.name, fnv1a64(c.bytes())),
                }
            }
            if let (Some(dir), OutputContents::Texture(r)) = (&args.out, &o.contents) {
                match r.to_rgba8() {
                    Some(rgba) => {
                        let path = dir.join(format!("{}.png", o.name));
                        headless::write_png(&path, r.width, r.height, &rgba)
                            .map_err(|e| io(&path, e))?;
                        eprintln!("wrote {}", path.display());
                    }
                    None => eprintln!("{}: no PNG for format {:?}", o.name, r.format),
                }
            }
        }
        if output.timings.frames() > 0 {
            // On stderr: `--hash` output stays comparable across runs.
            eprint!("{}", output.timings.to_table());
        }
        if !args.hash && args.out.is_none() {
            for o in &output.outputs {
                println!("{} {} bytes", o.name, o.contents.bytes().len());
            }
        }
        Ok(())
    }
}

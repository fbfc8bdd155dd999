//! `tilegraph`: plan, explain and draw render graphs described in JSON (DESIGN §3, §4).

use std::process::ExitCode;

use tilegraph::{CompileOptions, GraphError, RenderGraph};

const USAGE: &str = "usage:
  tilegraph plan FILE [--format json|text] [--fps N] [--dont-care]
  tilegraph dot FILE [--dont-care]";

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
}

struct Args {
    command: String,
    file: String,
    format: Format,
    fps: u32,
    dont_care: bool,
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
    };
    let mut file = None;
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--format" => {
                parsed.format = match args.next().as_deref() {
                    Some("json") => Format::Json,
                    Some("text") => Format::Text,
                    other => {
                        return Err(Failure::Usage(format!(
                            "--format takes json or text, not {other:?}"
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
        message: format!("cannot read `{path}`: {e}"),
    })?;
    String::from_utf8(bytes).map_err(|e| GraphError::InvalidDescription {
        message: format!(
            "`{path}` is not UTF-8 (invalid byte at offset {})",
            e.utf8_error().valid_up_to()
        ),
    })
}

fn run(args: &Args) -> Result<String, GraphError> {
    let graph = RenderGraph::from_json(&read_description(&args.file)?)?;
    let mut options = CompileOptions::default().with_fps(args.fps);
    if args.dont_care {
        // SAFETY: `--dont-care` is the user's statement that every `write` access in the file
        // overwrites every pixel of its attachment (DESIGN §2), which is what the token asks for.
        options = options.with_dont_care(unsafe { tilegraph::wgpu::LoadOpDontCare::enabled() });
    }
    let plan = graph.compile(&options)?;
    Ok(match (args.command.as_str(), &args.format) {
        ("dot", _) => plan.to_dot(),
        (_, Format::Json) => plan.to_json() + "\n",
        _ => plan.to_table(),
    })
}

fn main() -> ExitCode {
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

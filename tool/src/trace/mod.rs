//! `tilegraph trace DIR`: a wgpu 30 API trace (an app run with wgpu's `trace` feature and
//! `DeviceDescriptor::trace = wgpu::Trace::Directory(DIR)`) rebuilt frame by frame as graph
//! descriptions, compiled, and the app's load, store and resolve ops set beside the plan's
//! (DESIGN 2.9, the guide's "Tracing an existing renderer").
//!
//! - `read`: `trace.ron` through wgpu-core's own action types; data files checked.
//! - `model`: objects and frames: what each render, compute and copy pass touches.
//! - `describe`: a frame as a description; imports where contents cross frames.
//! - `report`: each frame compiled; per attachment, the app's ops, the plan's and the bytes.
//!
//! wgpu 30 cannot record a submission whose render passes use `LoadOp::DontCare`
//! (wgpu-types' `LoadOpDontCare` token refuses serialisation, so wgpu leaves the whole
//! `Submit` out of `trace.ron` and logs a warning): such a trace has a gap in its submission
//! numbers, which the report lists ([`Report::unrecorded`]) rather than guess the frame. Empty
//! submissions leave the same gap (wgpu records no action for them).

mod describe;
pub(crate) mod model;
pub(crate) mod read;
mod report;
mod text;

use std::path::{Path, PathBuf};

use tilegraph::GraphError;

pub use report::{FrameReport, Ops, Report, Row};

/// Why a trace could not be read or rebuilt. Each names the file or the action (its index in
/// `trace.ron`, from 0).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
#[allow(missing_docs)] // The fields are named for what they hold: file, action index, frame.
pub enum TraceError {
    /// A file could not be read.
    #[error("cannot read `{}`: {message}", path.display())]
    Io { path: PathBuf, message: String },
    /// `trace.ron` ends inside an action: the file was cut short.
    #[error("`{}` ends inside action {action}: the trace is truncated", file.display())]
    Truncated { file: PathBuf, action: usize },
    /// An action is not a wgpu 30 trace action (another wgpu version's trace, or not a trace).
    #[error(
        "`{}`: action {action} (line {line}) is not a wgpu 30 trace action: {message} (a trace of another wgpu version?)",
        file.display()
    )]
    Unreadable {
        file: PathBuf,
        action: usize,
        line: usize,
        message: String,
    },
    /// A data file an action names is missing.
    #[error("action {action} names the data file `{}`, which is missing", file.display())]
    MissingDataFile { file: PathBuf, action: usize },
    /// An action or command the tool does not follow.
    #[error("action {action}: {what} is not handled by `tilegraph trace`")]
    Unhandled { action: usize, what: String },
    /// A frame samples or copies a texture that nothing in the trace wrote.
    #[error(
        "frame {frame} (action {action}) reads texture `{texture}`, which nothing in the trace wrote"
    )]
    ReadNeverWritten {
        action: usize,
        frame: usize,
        texture: String,
    },
    /// An action refers to an object the trace never created.
    #[error("action {action} uses a {what} the trace never created")]
    UnknownObject { action: usize, what: &'static str },
    /// A frame's rebuilt description does not compile.
    #[error("frame {frame} (action {action}): {error}")]
    Graph {
        frame: usize,
        action: usize,
        error: Box<GraphError>,
    },
}

impl TraceError {
    fn unknown(action: usize, what: &'static str) -> Self {
        TraceError::UnknownObject { action, what }
    }

    /// The snake_case kind the tool prints (`error: <kind>: <message>`).
    pub fn kind(&self) -> &'static str {
        match self {
            TraceError::Io { .. } => "io",
            TraceError::Truncated { .. } => "truncated_trace",
            TraceError::Unreadable { .. } => "unsupported_trace",
            TraceError::MissingDataFile { .. } => "missing_data_file",
            TraceError::Unhandled { .. } => "unhandled_action",
            TraceError::ReadNeverWritten { .. } => "read_never_written",
            TraceError::UnknownObject { .. } => "unknown_object",
            TraceError::Graph { error, .. } => error.kind().as_str(),
        }
    }

    /// The action the error names, where it names one.
    pub fn action(&self) -> Option<usize> {
        match self {
            TraceError::Io { .. } => None,
            TraceError::Truncated { action, .. }
            | TraceError::Unreadable { action, .. }
            | TraceError::MissingDataFile { action, .. }
            | TraceError::Unhandled { action, .. }
            | TraceError::ReadNeverWritten { action, .. }
            | TraceError::UnknownObject { action, .. }
            | TraceError::Graph { action, .. } => Some(*action),
        }
    }
}

/// Reads the trace in `dir` (for `tilegraph replay`).
pub(crate) fn read_trace(dir: &Path) -> Result<read::Trace, TraceError> {
    read::read(dir)
}

/// The trace's objects and frames (for `tilegraph replay`).
pub(crate) fn build_model(trace: &read::Trace) -> Result<model::Model, TraceError> {
    model::build(trace)
}

/// Reads the trace in `dir` and reports every frame.
pub fn analyse(dir: &Path, fps: u32) -> Result<Report, TraceError> {
    let trace = read::read(dir)?;
    let model = model::build(&trace)?;
    let described = describe::describe_all(&model)?;
    report::report(&trace, &model, described, fps)
}

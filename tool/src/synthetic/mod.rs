//! Synthetic shaders: run any graph description on a GPU without writing a shader for it.
//!
//! Every pass gets closures whose results depend on exactly what the pass declares, so running a
//! graph in the executor's three modes and comparing the outputs tests the plan:
//!
//! - colour `clear`/`write`: a full-screen draw covers every pixel with a value that depends on the
//!   pass, the slot and the pixel; `read_write`: a second, partial draw (scissored triangle) blends
//!   over the prior contents (replaces them, for formats that cannot blend);
//! - depth `clear`/`write`: the full-screen draw writes varying depth with no test; `read_write`:
//!   the partial draw tests `LessEqual` and writes; `read`: the partial draw tests without writing;
//! - `sample`/`input` textures and `storage_read` textures and buffers are read at the pixel (scaled
//!   to their size) and feed into every output of the pass, so a wrong discard changes the result;
//! - compute passes write every texel or element of each `storage_write` output and modify a part
//!   of each `storage_read_write` one, from the same inputs;
//! - copy passes copy `copy_src[i % n]` into `copy_dst[i]`, repeating the source to cover all of
//!   mip 0 of the destination.
//!
//! [`run`] executes a description this way and reads back every import kept after the frame.
//!
//! The module's parts: this file runs a description end to end; `imports` creates and fills the
//! imported resources; `shaders` writes the WGSL (scalar types, inputs); `passes` attaches a
//! closure to every pass, built by `render` and `compute` (copies in `passes`).

mod compute;
mod imports;
mod passes;
mod render;
mod shaders;

pub(crate) use imports::{OwnedImport, create_imports, initialize_imports};
pub use passes::attach;

use crate::adapt::{Adaptation, Capabilities, Unsupported, adapt};
use crate::headless::{DeviceError, Gpu, Readback, ReadbackError, read_buffer, read_subresource};
use tilegraph::decl::format_name;
use tilegraph::decl::{ResourceDecl, ResourceKind};
use tilegraph::helpers::DeviceOptions;
use tilegraph::{
    CompileOptions, CompiledGraph, ContextError, ExecuteError, ExecuteMode, ExecutorOptions,
    GraphError, ImportAfter, ImportContents, Imports, RenderGraph,
};

/// Why a description could not be run.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum RunError {
    /// The description or graph is invalid.
    #[error("{0}")]
    Graph(Box<GraphError>),
    /// The graph uses something the synthetic shaders cannot express.
    #[error("pass `{pass}`: {message}")]
    Unsupported {
        /// The pass.
        pass: String,
        /// What is not supported.
        message: String,
    },
    /// Recording failed.
    #[error("{0}")]
    Execute(#[from] ExecuteError),
    /// No device could be opened.
    #[error("{0}")]
    Open(#[from] DeviceError),
    /// An output could not be read back.
    #[error("{0}")]
    Readback(#[from] ReadbackError),
    /// wgpu reported errors outside any error scope while the graph ran.
    #[error("wgpu reported {count} uncaptured error(s); first: {first}")]
    Device {
        /// How many.
        count: usize,
        /// The first message.
        first: String,
    },
    /// Contents were asked for on a device whose submissions do not execute.
    #[error(
        "{adapter} does not execute what is submitted (a cleared texture does not read back as cleared): no contents to hash or write"
    )]
    NotExecuted {
        /// The adapter.
        adapter: String,
    },
    /// A file could not be read or written.
    #[error("`{path}`: {message}")]
    Io {
        /// The file or directory.
        path: String,
        /// What the file system said.
        message: String,
    },
}

impl RunError {
    /// The kind the tool prints: `error: <kind>: <message>`.
    pub fn kind(&self) -> &'static str {
        match self {
            RunError::Graph(g) => g.kind().as_str(),
            RunError::Unsupported { .. } => "unsupported",
            // What the backend cannot record, refused before recording.
            RunError::Execute(ExecuteError::Unsupported { .. }) => "unsupported",
            // A view the backend cannot bind, refused when the pass asked for it.
            RunError::Execute(ExecuteError::Pass { source, .. })
                if matches!(
                    source.downcast_ref::<ContextError>(),
                    Some(ContextError::Unsupported { .. })
                ) =>
            {
                "unsupported"
            }
            RunError::Execute(_) => "execute",
            RunError::Open(DeviceError::NoAdapter { .. }) => "no_adapter",
            RunError::Open(_) | RunError::Readback(_) => "gpu",
            RunError::Device { .. } | RunError::NotExecuted { .. } => "device",
            RunError::Io { .. } => "io",
        }
    }
}

impl From<Unsupported> for RunError {
    fn from(e: Unsupported) -> Self {
        RunError::Unsupported {
            pass: e.pass,
            message: e.message,
        }
    }
}

impl From<GraphError> for RunError {
    fn from(e: GraphError) -> Self {
        RunError::Graph(Box::new(e))
    }
}

/// How [`run`] runs a description.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RunOptions {
    /// Executor mode.
    pub mode: ExecuteMode,
    /// Frames to render; outputs are read after the last.
    pub frames: u32,
    /// Compile with the `LoadOpDontCare` opt-in (the `--dont-care` flag).
    pub dont_care: bool,
    /// Resize every texture of the description to this size (layers kept) before compiling.
    pub size: Option<(u32, u32)>,
    /// Write GPU timestamps around every group and collect them (when the device can).
    pub timings: bool,
    /// Compile the declared order, without restructuring (the `--as-declared` flag).
    pub as_declared: bool,
    /// Record multiview passes in one multiview render pass where the device can; `false` (the
    /// `--no-multiview` flag) records one render pass per view.
    pub multiview: bool,
    /// Realise storage textures in the formats every adapter can store to (the `--portable`
    /// flag), so that images compare across adapters.
    pub portable: bool,
}

impl Default for RunOptions {
    fn default() -> Self {
        RunOptions {
            mode: ExecuteMode::Planned,
            frames: 1,
            dont_care: false,
            size: None,
            timings: false,
            as_declared: false,
            multiview: true,
            portable: false,
        }
    }
}

/// The contents of a kept import after the run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OutputContents {
    /// A texture's subresources: every mip of every layer, layer after layer (a depth
    /// texture's mip 0 of layer 0 alone).
    Texture(Vec<Readback>),
    /// A buffer's bytes.
    Buffer(Vec<u8>),
    /// A texture that cannot be copied out (multisampled, depth24plus).
    Unreadable(String),
}

impl OutputContents {
    /// The bytes read back, subresource after subresource (none when unreadable).
    pub fn bytes(&self) -> impl Iterator<Item = &[u8]> {
        let (textures, buffer): (&[Readback], &[u8]) = match self {
            OutputContents::Texture(r) => (r, &[]),
            OutputContents::Buffer(b) => (&[], b),
            OutputContents::Unreadable(_) => (&[], &[]),
        };
        textures
            .iter()
            .map(|r| r.bytes.as_slice())
            .chain(std::iter::once(buffer).filter(|b| !b.is_empty()))
    }
}

/// Every mip of every layer of `texture`, layer after layer; of a depth texture, mip 0 of
/// layer 0 (which [`Gpu::read_texture`] draws out where the adapter cannot copy depth).
fn read_every_subresource(
    gpu: &Gpu,
    texture: &wgpu::Texture,
) -> Result<Vec<Readback>, ReadbackError> {
    let mut out = vec![gpu.read_texture(texture)?];
    if texture.format().is_depth_stencil_format() {
        return Ok(out);
    }
    for layer in 0..texture.depth_or_array_layers() {
        for mip in 0..texture.mip_level_count() {
            if (mip, layer) != (0, 0) {
                out.push(read_subresource(
                    &gpu.device,
                    &gpu.queue,
                    texture,
                    mip,
                    layer,
                )?);
            }
        }
    }
    Ok(out)
}

/// One kept import after the run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Output {
    /// The resource's name.
    pub name: String,
    /// What it holds.
    pub contents: OutputContents,
}

/// The result of [`run`]: the plan and every kept import, sorted by name.
#[derive(Debug)]
pub struct RunOutput {
    /// The compiled plan that ran.
    pub plan: CompiledGraph,
    /// What was changed in the description to fit the adapter (see [`crate::adapt`]).
    pub notes: Vec<String>,
    /// GPU times of the frames, with [`RunOptions::timings`] on a device that has timestamps.
    pub timings: crate::timings::Timings,
    /// Kept imports, sorted by name.
    pub outputs: Vec<Output>,
}

/// Resizes every texture of a graph's declarations (layers and mips kept).
pub fn resize(resources: &mut [ResourceDecl], width: u32, height: u32) {
    for r in resources {
        if let ResourceKind::Texture(t) = &mut r.kind {
            (t.width, t.height) = (width, height);
        }
    }
}

/// The graph of a description, resized to `size` when given and fitted to `caps`
/// ([`adapt`]), with what was changed; no pass has a closure yet ([`attach`]).
pub fn prepare(
    description: &str,
    size: Option<(u32, u32)>,
    caps: &Capabilities,
) -> Result<(RenderGraph<'static>, Adaptation), RunError> {
    let declared = RenderGraph::from_json(description)?;
    let mut resources = declared.resources().to_vec();
    let mut passes = declared.passes().to_vec();
    if let Some((width, height)) = size {
        resize(&mut resources, width, height);
    }
    let adaptation = adapt(&mut resources, &mut passes, caps)?;
    let graph = RenderGraph::from_declarations(resources, passes)?;
    Ok((graph, adaptation))
}

/// The device options for running `description` as [`run`] will (resized to `options.size`,
/// compiled with its options): `base` ([`crate::headless::device_options`]) with what the plan
/// needs ([`DeviceOptions::for_plan`]). Downlevel flags the synthetic passes adapt to are not
/// required (sampling a depth attached read-only, depth copies): [`run`] adapts them to the
/// adapter; the executor checks the adapted plan before recording it.
pub fn device_options(
    description: &str,
    options: &RunOptions,
    base: DeviceOptions,
) -> Result<DeviceOptions, RunError> {
    let (graph, _) = prepare(description, options.size, &Capabilities::full())?;
    let plan = graph.compile(&compile_options(options))?;
    let mut device = base.for_plan(&plan);
    device.required_downlevel_flags -= wgpu::DownlevelFlags::READ_ONLY_DEPTH_STENCIL
        | wgpu::DownlevelFlags::DEPTH_TEXTURE_AND_BUFFER_COPIES;
    Ok(device)
}

fn compile_options(options: &RunOptions) -> CompileOptions {
    let compile = CompileOptions::default().with_restructure(!options.as_declared);
    if options.dont_care {
        // SAFETY: the caller states that every `write` access of the description overwrites every
        // pixel; the synthetic shaders make it true (a full-screen draw with no test or blending).
        compile.with_dont_care(unsafe { wgpu::LoadOpDontCare::enabled() })
    } else {
        compile
    }
}

/// Runs a description with synthetic shaders and reads back the imports kept after the frame.
pub fn run(gpu: &Gpu, description: &str, options: &RunOptions) -> Result<RunOutput, RunError> {
    let (mut graph, adaptation) = prepare(
        description,
        options.size,
        &Capabilities::of(gpu).portable(options.portable),
    )?;
    let plan = graph.compile(&compile_options(options))?;
    let device = &gpu.device;
    let queue = &gpu.queue;
    attach(&mut graph, &plan, device, &adaptation)?;

    let imports_owned = create_imports(gpu, &graph, &plan);
    let mut imports = Imports::new();
    for (r, import) in imports_owned.iter().enumerate() {
        match import {
            Some(OwnedImport::Texture(t, v)) => {
                let handle = graph
                    .texture_handle(&graph.resources()[r].name)
                    .expect("imports are named resources");
                imports.texture(handle, t, v);
            }
            Some(OwnedImport::Buffer(b)) => {
                let handle = graph
                    .buffer_handle(&graph.resources()[r].name)
                    .expect("imports are named resources");
                imports.buffer(handle, b);
            }
            None => {}
        }
    }
    initialize_imports(
        gpu,
        &graph,
        &imports_owned,
        ImportContents::Preserved,
        options.mode,
    );

    let mut executor = gpu.executor(
        ExecutorOptions::default()
            .with_timestamps(options.timings)
            .with_multiview(options.multiview),
    );
    let mut timings = crate::timings::Timings::default();
    for _ in 0..options.frames.max(1) {
        initialize_imports(
            gpu,
            &graph,
            &imports_owned,
            ImportContents::Undefined,
            options.mode,
        );
        let commands = executor.execute(&mut graph, &plan, &imports, options.mode)?;
        queue.submit(commands);
        if executor.timestamps_enabled() {
            timings.add_frame(&executor.read_timings());
        }
    }

    let mut outputs = Vec::new();
    for (r, decl) in graph.resources().iter().enumerate() {
        let kept = decl.import.is_some_and(|i| i.after == ImportAfter::Keep);
        if !kept {
            continue;
        }
        let contents = match &imports_owned[r] {
            Some(OwnedImport::Texture(t, _)) => match read_every_subresource(gpu, t) {
                Ok(readbacks) => OutputContents::Texture(readbacks),
                Err(ReadbackError::Unreadable { format, samples }) => OutputContents::Unreadable(
                    format!("{} with {samples} samples", format_name(format)),
                ),
                Err(ReadbackError::UnreadableOnBackend { format, reason }) => {
                    OutputContents::Unreadable(format!("{}: {reason}", format_name(format)))
                }
                Err(e) => return Err(e.into()),
            },
            Some(OwnedImport::Buffer(b)) => OutputContents::Buffer(read_buffer(device, queue, b)?),
            None => continue,
        };
        outputs.push(Output {
            name: decl.name.to_string(),
            contents,
        });
    }
    outputs.sort_by(|a, b| a.name.cmp(&b.name));
    Ok(RunOutput {
        plan,
        notes: adaptation.notes,
        timings,
        outputs,
    })
}

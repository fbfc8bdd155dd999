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

use std::fmt::Write as _;

use crate::adapt::{Adaptation, Capabilities, Unsupported, adapt};
use crate::headless::{DeviceError, Gpu, Readback, ReadbackError, read_buffer};
use tilegraph::CompiledGraph;
use tilegraph::GraphError;
use tilegraph::format::format_name;
use tilegraph::plan::ResourceUsage;
use tilegraph::{
    Access, Entry, ImportAfter, ImportContents, PassCallback, PassDecl, PassId, PassKind,
    RenderGraph, ResourceDecl, ResourceId, ResourceKind, Subresource, TextureDesc,
};
use tilegraph::{BufferHandle, CompileOptions, PassContext, TextureHandle};
use tilegraph::{ExecuteError, ExecuteMode, Executor, ExecutorOptions, Imports, PassError};

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
            RunError::Execute(_) => "execute",
            RunError::Open(DeviceError::NoAdapter { .. }) => "no_adapter",
            RunError::Open(_) | RunError::Readback(_) => "gpu",
            RunError::Device { .. } => "device",
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
        }
    }
}

/// The contents of a kept import after the run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OutputContents {
    /// A texture's mip 0, layer 0.
    Texture(Readback),
    /// A buffer's bytes.
    Buffer(Vec<u8>),
    /// A texture that cannot be copied out (multisampled, depth24plus).
    Unreadable(String),
}

impl OutputContents {
    /// The bytes read back (empty when unreadable).
    pub fn bytes(&self) -> &[u8] {
        match self {
            OutputContents::Texture(r) => &r.bytes,
            OutputContents::Buffer(b) => b,
            OutputContents::Unreadable(_) => &[],
        }
    }
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

/// Runs a description with synthetic shaders and reads back the imports kept after the frame.
pub fn run(gpu: &Gpu, description: &str, options: &RunOptions) -> Result<RunOutput, RunError> {
    let (mut graph, adaptation) = prepare(description, options.size, &Capabilities::of(gpu))?;
    let mut compile = CompileOptions::default().with_restructure(!options.as_declared);
    if options.dont_care {
        // SAFETY: the caller states that every `write` access of the description overwrites every
        // pixel; the synthetic shaders make it true (a full-screen draw with no test or blending).
        compile = compile.with_dont_care(unsafe { wgpu::LoadOpDontCare::enabled() });
    }
    let plan = graph.compile(&compile)?;
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

    let mut executor = Executor::with_options(
        device,
        queue,
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
            Some(OwnedImport::Texture(t, _)) => match gpu.read_texture(t) {
                Ok(readback) => OutputContents::Texture(readback),
                Err(ReadbackError::Unreadable { format, samples }) => OutputContents::Unreadable(
                    format!("{} with {samples} samples", format_name(format)),
                ),
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

pub(crate) enum OwnedImport {
    Texture(wgpu::Texture, wgpu::TextureView),
    Buffer(wgpu::Buffer),
}

/// Creates the imported resources with the usages the plan needs plus copies (readback,
/// initialization) and attachment where the format allows (clears).
pub(crate) fn create_imports(
    gpu: &Gpu,
    graph: &RenderGraph<'_>,
    plan: &CompiledGraph,
) -> Vec<Option<OwnedImport>> {
    let features = gpu.device.features();
    graph
        .resources()
        .iter()
        .zip(plan.resources())
        .map(|(decl, rp)| {
            decl.import?;
            Some(match (decl.kind, rp.usage) {
                (ResourceKind::Texture(t), ResourceUsage::Texture(u)) => {
                    let allowed = t.format.guaranteed_format_features(features).allowed_usages;
                    let mut usage = (u - wgpu::TextureUsages::TRANSIENT_ATTACHMENT)
                        | (allowed & wgpu::TextureUsages::RENDER_ATTACHMENT);
                    if t.samples == 1 {
                        usage |= wgpu::TextureUsages::COPY_SRC | wgpu::TextureUsages::COPY_DST;
                    }
                    if t.format.is_depth_stencil_format() {
                        // Read back with a draw where depth cannot be copied to a buffer.
                        usage |= wgpu::TextureUsages::TEXTURE_BINDING;
                    }
                    let texture = gpu
                        .device
                        .create_texture(&texture_descriptor(&decl.name, t, usage));
                    let view = texture.create_view(&Default::default());
                    OwnedImport::Texture(texture, view)
                }
                (ResourceKind::Buffer(b), ResourceUsage::Buffer(u)) => {
                    OwnedImport::Buffer(gpu.device.create_buffer(&wgpu::BufferDescriptor {
                        label: Some(&decl.name),
                        size: b.size,
                        usage: u | wgpu::BufferUsages::COPY_SRC | wgpu::BufferUsages::COPY_DST,
                        mapped_at_creation: false,
                    }))
                }
                _ => return None,
            })
        })
        .collect()
}

fn texture_descriptor<'l>(
    label: &'l str,
    t: TextureDesc,
    usage: wgpu::TextureUsages,
) -> wgpu::TextureDescriptor<'l> {
    wgpu::TextureDescriptor {
        label: Some(label),
        size: wgpu::Extent3d {
            width: t.width,
            height: t.height,
            depth_or_array_layers: t.layers,
        },
        mip_level_count: t.mips,
        sample_count: t.samples,
        dimension: wgpu::TextureDimension::D2,
        format: t.format,
        usage,
        view_formats: &[],
    }
}

/// Gives imports with `contents` their frame-start contents: preserved ones a fixed pattern per
/// resource; undefined ones a value that differs per mode, so a graph that wrongly depends on
/// them gives different results in different modes.
pub(crate) fn initialize_imports(
    gpu: &Gpu,
    graph: &RenderGraph<'_>,
    imports: &[Option<OwnedImport>],
    contents: ImportContents,
    mode: ExecuteMode,
) {
    let mut encoder = gpu.device.create_command_encoder(&Default::default());
    for (r, (decl, import)) in graph.resources().iter().zip(imports).enumerate() {
        if decl.import.map(|i| i.contents) != Some(contents) {
            continue;
        }
        let salt = match (contents, mode) {
            (ImportContents::Preserved, _) => 0.0,
            (_, ExecuteMode::Naive) => 0.5,
            (_, ExecuteMode::Poison) => 0.75,
            _ => 0.25,
        };
        let shade = |k: f64| ((r as f64 * 0.37 + k + salt) * 0.999).fract();
        match import {
            Some(OwnedImport::Texture(texture, _)) => {
                if !texture
                    .usage()
                    .contains(wgpu::TextureUsages::RENDER_ATTACHMENT)
                {
                    continue;
                }
                let format = texture.format();
                let view = texture.create_view(&wgpu::TextureViewDescriptor {
                    dimension: Some(wgpu::TextureViewDimension::D2),
                    mip_level_count: Some(1),
                    array_layer_count: Some(1),
                    ..Default::default()
                });
                let color = [Some(wgpu::RenderPassColorAttachment {
                    view: &view,
                    depth_slice: None,
                    resolve_target: None,
                    ops: wgpu::Operations {
                        load: wgpu::LoadOp::Clear(wgpu::Color {
                            r: shade(0.1),
                            g: shade(0.4),
                            b: shade(0.7),
                            a: 1.0,
                        }),
                        store: wgpu::StoreOp::Store,
                    },
                })];
                let is_depth = format.is_depth_stencil_format();
                let depth = is_depth.then(|| wgpu::RenderPassDepthStencilAttachment {
                    view: &view,
                    depth_ops: format.has_depth_aspect().then_some(wgpu::Operations {
                        load: wgpu::LoadOp::Clear(0.3 + 0.6 * shade(0.2) as f32),
                        store: wgpu::StoreOp::Store,
                    }),
                    stencil_ops: format.has_stencil_aspect().then_some(wgpu::Operations {
                        load: wgpu::LoadOp::Clear(7),
                        store: wgpu::StoreOp::Store,
                    }),
                });
                let _ = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
                    label: Some("tilegraph import contents"),
                    color_attachments: if is_depth { &[] } else { &color },
                    depth_stencil_attachment: depth,
                    ..Default::default()
                });
            }
            Some(OwnedImport::Buffer(buffer)) => {
                let words = (buffer.size() / 4) as u32;
                let seed = (salt * 1000.0) as u32 + r as u32 * 7919;
                let data: Vec<u8> = (0..words)
                    .flat_map(|i| hash32(i ^ hash32(seed)).to_le_bytes())
                    .collect();
                gpu.queue.write_buffer(buffer, 0, &data);
            }
            None => {}
        }
    }
    gpu.queue.submit([encoder.finish()]);
}

fn hash32(mut x: u32) -> u32 {
    x ^= x >> 16;
    x = x.wrapping_mul(0x7feb_352d);
    x ^= x >> 15;
    x = x.wrapping_mul(0x846c_a68b);
    x ^ (x >> 16)
}

// ---------------------------------------------------------------------------------------------
// Closures for every pass.

/// Attaches a synthetic closure to every live pass of `plan`'s `graph`, as [`adapt`] adapted its
/// description.
pub fn attach(
    graph: &mut RenderGraph<'_>,
    plan: &CompiledGraph,
    device: &wgpu::Device,
    adaptation: &Adaptation,
) -> Result<(), RunError> {
    let resources: Vec<ResourceDecl> = graph.resources().to_vec();
    let passes: Vec<PassDecl> = graph.passes().to_vec();
    // Culled passes never run: no pipeline for them, so what they would need cannot fail a run.
    let live = passes
        .iter()
        .enumerate()
        .filter(|&(p, _)| !plan.passes()[p].culled);
    for (p, pass) in live {
        let unsupported = |message: String| RunError::Unsupported {
            pass: pass.name.to_string(),
            message,
        };
        // Shader translation failures (a GL without compute shaders or storage buffers in
        // fragment shaders) are internal errors, not validation errors: catch both.
        let scope = device.push_error_scope(wgpu::ErrorFilter::Validation);
        let internal = device.push_error_scope(wgpu::ErrorFilter::Internal);
        let callback = match pass.kind {
            PassKind::Render if adaptation.copy_draws.contains(&*pass.name) => {
                copy_draw_pass(device, graph, &resources, pass).map_err(unsupported)?
            }
            PassKind::Render => render_pass(device, graph, &resources, pass, p as u32, adaptation)
                .map_err(unsupported)?,
            PassKind::Compute => {
                compute_pass(device, graph, &resources, pass, p as u32, adaptation)
                    .map_err(unsupported)?
            }
            PassKind::Copy => copy_pass(graph, &resources, pass).map_err(unsupported)?,
        };
        let internal = pollster::block_on(internal.pop());
        if let Some(error) = pollster::block_on(scope.pop()).or(internal) {
            // The description carries the cause (a missing shader feature, say); the error's
            // own text is only its kind.
            let cause = match &error {
                wgpu::Error::Validation { description, .. }
                | wgpu::Error::Internal { description, .. } => description
                    .lines()
                    .map(str::trim)
                    .filter(|l| !l.is_empty() && *l != "Caused by:")
                    .collect::<Vec<_>>()
                    .join(": "),
                other => other.to_string(),
            };
            return Err(unsupported(format!(
                "the adapter rejects its shaders: {cause}"
            )));
        }
        graph.set_callback(PassId::new(p), callback);
    }
    Ok(())
}

fn texture_desc(resources: &[ResourceDecl], r: ResourceId) -> Option<TextureDesc> {
    match resources[r.index()].kind {
        ResourceKind::Texture(t) => Some(t),
        ResourceKind::Buffer(_) => None,
    }
}

/// How a shader reads one input.
#[derive(Clone, Copy)]
enum Input {
    /// A sampled texture: the whole texture, or one subresource (then the desc is the view's: one
    /// mip, one layer, the mip's size).
    Texture(TextureHandle, TextureDesc, Scalar, Option<Subresource>),
    StorageTexture(TextureHandle, TextureDesc, Scalar),
    Buffer(BufferHandle),
}

/// Scalar type a format's texels come back as.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Scalar {
    Float,
    Uint,
    Sint,
    Depth,
    /// Floats carried as their bits by an unsigned-integer texture with this many channels
    /// ([`crate::adapt`]).
    FloatBits(u8),
}

/// How the shaders see resource `r`'s texels.
fn scalar_of(resources: &[ResourceDecl], r: ResourceId, adaptation: &Adaptation) -> Scalar {
    let decl = &resources[r.index()];
    let ResourceKind::Texture(t) = decl.kind else {
        return Scalar::Uint;
    };
    if adaptation.float_bits.contains(&*decl.name) {
        return Scalar::FloatBits(t.format.components());
    }
    scalar(t.format)
}

/// The WGSL type and conversion that store a vec4f `v` in a texel of scalar type `s`.
fn texel_out(s: Scalar) -> (&'static str, &'static str) {
    match s {
        Scalar::Uint => ("vec4u", "vec4u(v * 255.0)"),
        Scalar::Sint => ("vec4i", "vec4i(v * 127.0)"),
        Scalar::FloatBits(_) => ("vec4u", "bitcast<vec4u>(v)"),
        Scalar::Float | Scalar::Depth => ("vec4f", "v"),
    }
}

fn scalar(format: wgpu::TextureFormat) -> Scalar {
    if format.is_depth_stencil_format() {
        return Scalar::Depth;
    }
    match format.sample_type(None, None) {
        Some(wgpu::TextureSampleType::Uint) => Scalar::Uint,
        Some(wgpu::TextureSampleType::Sint) => Scalar::Sint,
        _ => Scalar::Float,
    }
}

fn wgsl_scalar(s: Scalar) -> &'static str {
    match s {
        Scalar::Uint | Scalar::FloatBits(_) => "u32",
        Scalar::Sint => "i32",
        Scalar::Float | Scalar::Depth => "f32",
    }
}

/// Converts a texel of scalar type `s` held in `expr` to a vec4f in [0, 1].
fn normalized(s: Scalar, expr: &str) -> String {
    match s {
        Scalar::Float => format!("clamp({expr}, vec4f(0.0), vec4f(1.0))"),
        Scalar::Depth => format!("vec4f({expr}.x)"),
        Scalar::Uint => format!("vec4f({expr} & vec4u(255u)) / 255.0"),
        Scalar::Sint => format!("vec4f(bitcast<vec4u>({expr}) & vec4u(255u)) / 255.0"),
        // The texel as its float format reads: missing channels 0, alpha 1.
        Scalar::FloatBits(n) => {
            let floats = match n {
                1 => format!("vec4f(bitcast<f32>({expr}.x), 0.0, 0.0, 1.0)"),
                2 => format!("vec4f(bitcast<vec2f>({expr}.xy), 0.0, 1.0)"),
                _ => format!("bitcast<vec4f>({expr})"),
            };
            format!("clamp({floats}, vec4f(0.0), vec4f(1.0))")
        }
    }
}

/// Gathers the inputs of a pass: sampled, input and storage-read resources.
fn inputs(
    graph: &RenderGraph<'_>,
    resources: &[ResourceDecl],
    pass: &PassDecl,
    adaptation: &Adaptation,
) -> Result<Vec<Input>, String> {
    let mut out = Vec::new();
    for e in pass.sample.iter().chain(&pass.input) {
        let r = e.resource;
        let name = &resources[r.index()].name;
        let mut desc =
            texture_desc(resources, r).ok_or_else(|| format!("`{name}` is not a texture"))?;
        if let Some(sub) = e.sub {
            (desc.width, desc.height) = desc.mip_size(sub.mip);
            (desc.layers, desc.mips) = (1, 1);
        }
        out.push(Input::Texture(
            graph.texture_handle(name).expect("named"),
            desc,
            scalar_of(resources, r, adaptation),
            e.sub,
        ));
    }
    for r in pass.storage_read.iter().map(|e| e.resource) {
        let name = &resources[r.index()].name;
        out.push(match texture_desc(resources, r) {
            Some(desc) => Input::StorageTexture(
                graph.texture_handle(name).expect("named"),
                desc,
                scalar_of(resources, r, adaptation),
            ),
            None => Input::Buffer(graph.buffer_handle(name).expect("named")),
        });
    }
    Ok(out)
}

/// WGSL declarations of the inputs, bindings 0.., and `fn inputs(px, dims) -> vec4f`, their sum.
fn inputs_wgsl(
    inputs: &[Input],
    device: &wgpu::Device,
    adaptation: &Adaptation,
) -> Result<String, String> {
    let mut decls = String::new();
    let mut body = String::new();
    for (i, input) in inputs.iter().enumerate() {
        match *input {
            Input::Texture(_, t, s, _) => {
                // Depth is bound as unfilterable float: `textureLoad` of depth textures does not
                // translate to GLSL.
                let ty = match (s, t.samples > 1, t.layers > 1) {
                    (_, true, _) => format!("texture_multisampled_2d<{}>", wgsl_scalar(s)),
                    (_, false, true) => format!("texture_2d_array<{}>", wgsl_scalar(s)),
                    (_, false, false) => format!("texture_2d<{}>", wgsl_scalar(s)),
                };
                writeln!(decls, "@group(0) @binding({i}) var in{i}: {ty};").unwrap();
                // A whole texture is read at every mip of every layer: its result depends on
                // every subresource the pass declares it reads.
                let mips = if t.samples > 1 { 1 } else { t.mips };
                for layer in 0..t.layers {
                    for mip in 0..mips {
                        let args = match (t.samples > 1, t.layers > 1) {
                            (true, _) => "c, 0".to_owned(),
                            (false, true) => format!("c, {layer}, {mip}"),
                            (false, false) => format!("c, {mip}"),
                        };
                        let dims = if t.samples > 1 {
                            format!("textureDimensions(in{i})")
                        } else {
                            format!("textureDimensions(in{i}, {mip})")
                        };
                        // Layers beyond the first weigh more: a layer read in another's
                        // place changes the sum.
                        let weight = match layer {
                            0 => String::new(),
                            l => format!("{:?} * ", 1.0 + 0.5 * f64::from(l)),
                        };
                        writeln!(
                            body,
                            "    {{ let c = vec2i(px * {dims} / dims); acc += {weight}{}; }}",
                            normalized(s, &format!("textureLoad(in{i}, {args})"))
                        )
                        .unwrap();
                    }
                }
            }
            Input::StorageTexture(_, t, s) => {
                let flags = adaptation.storage_flags(t.format, device.features());
                if !flags.contains(wgpu::TextureFormatFeatureFlags::STORAGE_READ_ONLY)
                    || t.layers > 1
                {
                    return Err(format!(
                        "storage_read of a {} texture with {} layers",
                        format_name(t.format),
                        t.layers
                    ));
                }
                writeln!(
                    decls,
                    "@group(0) @binding({i}) var in{i}: texture_storage_2d<{}, read>;",
                    format_name(t.format)
                )
                .unwrap();
                writeln!(
                    body,
                    "    {{ let c = vec2i(px * textureDimensions(in{i}) / dims); acc += {}; }}",
                    normalized(s, &format!("textureLoad(in{i}, c)"))
                )
                .unwrap();
            }
            Input::Buffer(_) => {
                writeln!(
                    decls,
                    "@group(0) @binding({i}) var<storage, read> in{i}: array<u32>;"
                )
                .unwrap();
                writeln!(
                    body,
                    "    acc += unpack4x8unorm(in{i}[(px.y * dims.x + px.x) % arrayLength(&in{i})]);"
                )
                .unwrap();
            }
        }
    }
    Ok(format!(
        "{decls}
fn value(px: vec2u, seed: f32) -> vec4f {{
    let p = vec2f(px);
    return fract(vec4f(p.x * 0.0123 + p.y * 0.0071, p.x * 0.0049 - p.y * 0.0161 + 4.0,
                       (p.x + p.y) * 0.0087, p.y * 0.0203) + seed * vec4f(0.13, 0.29, 0.41, 0.53));
}}
fn ramp(px: vec2u, a: f32, b: f32, seed: f32) -> f32 {{
    let p = vec2f(px);
    return 0.1 + 0.8 * fract(p.x * a + p.y * b + seed * 0.173);
}}
fn inputs(px: vec2u, dims: vec2u) -> vec4f {{
    var acc = vec4f(0.0);
{body}    return acc;
}}
"
    ))
}

fn input_layout_entries(
    inputs: &[Input],
    visibility: wgpu::ShaderStages,
) -> Vec<wgpu::BindGroupLayoutEntry> {
    inputs
        .iter()
        .enumerate()
        .map(|(i, input)| wgpu::BindGroupLayoutEntry {
            binding: i as u32,
            visibility,
            ty: match *input {
                Input::Texture(_, t, s, _) => wgpu::BindingType::Texture {
                    sample_type: match s {
                        Scalar::Float | Scalar::Depth => {
                            wgpu::TextureSampleType::Float { filterable: false }
                        }
                        Scalar::Uint | Scalar::FloatBits(_) => wgpu::TextureSampleType::Uint,
                        Scalar::Sint => wgpu::TextureSampleType::Sint,
                    },
                    view_dimension: if t.layers > 1 && t.samples == 1 {
                        wgpu::TextureViewDimension::D2Array
                    } else {
                        wgpu::TextureViewDimension::D2
                    },
                    multisampled: t.samples > 1,
                },
                Input::StorageTexture(_, t, _) => wgpu::BindingType::StorageTexture {
                    access: wgpu::StorageTextureAccess::ReadOnly,
                    format: t.format,
                    view_dimension: wgpu::TextureViewDimension::D2,
                },
                Input::Buffer(_) => wgpu::BindingType::Buffer {
                    ty: wgpu::BufferBindingType::Storage { read_only: true },
                    has_dynamic_offset: false,
                    min_binding_size: None,
                },
            },
            count: None,
        })
        .collect()
}

/// A view of `texture` fit for binding: depth aspect only for depth formats, one mip for storage.
fn binding_view(
    texture: &wgpu::Texture,
    t: TextureDesc,
    storage: bool,
    sub: Option<Subresource>,
) -> wgpu::TextureView {
    let aspect = if t.format.is_depth_stencil_format() {
        wgpu::TextureAspect::DepthOnly
    } else {
        wgpu::TextureAspect::All
    };
    texture.create_view(&wgpu::TextureViewDescriptor {
        aspect,
        dimension: Some(if t.layers > 1 && t.samples == 1 && !storage {
            wgpu::TextureViewDimension::D2Array
        } else {
            wgpu::TextureViewDimension::D2
        }),
        base_mip_level: sub.map_or(0, |s| s.mip),
        mip_level_count: (storage || sub.is_some()).then_some(1),
        base_array_layer: sub.map_or(0, |s| s.layer),
        array_layer_count: (storage || sub.is_some()).then_some(1),
        ..Default::default()
    })
}

/// Binds the inputs (and then `extra`) for this frame.
fn bind_inputs(
    ctx: &PassContext<'_>,
    layout: &wgpu::BindGroupLayout,
    inputs: &[Input],
) -> Result<wgpu::BindGroup, PassError> {
    let mut views = Vec::new();
    for input in inputs {
        match *input {
            Input::Texture(h, t, _, sub) => {
                views.push(Some(binding_view(ctx.texture(h)?, t, false, sub)))
            }
            Input::StorageTexture(h, t, _) => {
                views.push(Some(binding_view(ctx.texture(h)?, t, true, None)))
            }
            Input::Buffer(_) => views.push(None),
        }
    }
    let mut entries = Vec::new();
    for (i, (input, view)) in inputs.iter().zip(&views).enumerate() {
        entries.push(wgpu::BindGroupEntry {
            binding: i as u32,
            resource: match (input, view) {
                (Input::Buffer(h), _) => ctx.buffer(*h)?.as_entire_binding(),
                (_, Some(v)) => wgpu::BindingResource::TextureView(v),
                _ => unreachable!("textures have views"),
            },
        });
    }
    Ok(ctx.device().create_bind_group(&wgpu::BindGroupDescriptor {
        label: Some(ctx.pass_name()),
        layout,
        entries: &entries,
    }))
}

/// Bind group of the inputs plus one output at binding `inputs.len()`.
fn bind_with_output(
    ctx: &PassContext<'_>,
    layout: &wgpu::BindGroupLayout,
    inputs: &[Input],
    output: &StorageOutput,
) -> Result<wgpu::BindGroup, PassError> {
    let mut views = Vec::new();
    for input in inputs {
        views.push(match *input {
            Input::Texture(h, t, _, sub) => Some(binding_view(ctx.texture(h)?, t, false, sub)),
            Input::StorageTexture(h, t, _) => Some(binding_view(ctx.texture(h)?, t, true, None)),
            Input::Buffer(_) => None,
        });
    }
    let out_view = match *output {
        StorageOutput::Texture(h, t, _) => Some(binding_view(ctx.texture(h)?, t, true, None)),
        StorageOutput::Buffer(..) => None,
    };
    let mut entries = Vec::new();
    for (i, (input, view)) in inputs.iter().zip(&views).enumerate() {
        entries.push(wgpu::BindGroupEntry {
            binding: i as u32,
            resource: match (input, view) {
                (Input::Buffer(h), _) => ctx.buffer(*h)?.as_entire_binding(),
                (_, Some(v)) => wgpu::BindingResource::TextureView(v),
                _ => unreachable!("textures have views"),
            },
        });
    }
    entries.push(wgpu::BindGroupEntry {
        binding: inputs.len() as u32,
        resource: match (output, &out_view) {
            (StorageOutput::Buffer(h, _, _), _) => ctx.buffer(*h)?.as_entire_binding(),
            (_, Some(v)) => wgpu::BindingResource::TextureView(v),
            _ => unreachable!("textures have views"),
        },
    });
    Ok(ctx.device().create_bind_group(&wgpu::BindGroupDescriptor {
        label: Some(ctx.pass_name()),
        layout,
        entries: &entries,
    }))
}

fn seed_of(pass: u32) -> f32 {
    (hash32(pass + 1) % 1000) as f32 / 1000.0 * 7.0 + 0.5
}

fn render_pass<'a>(
    device: &wgpu::Device,
    graph: &RenderGraph<'_>,
    resources: &[ResourceDecl],
    pass: &PassDecl,
    index: u32,
    adaptation: &Adaptation,
) -> Result<PassCallback<'a>, String> {
    if !pass.storage_write.is_empty() || !pass.storage_read_write.is_empty() {
        return Err("storage writes in render passes".into());
    }
    if !pass.copy_src.is_empty() || !pass.copy_dst.is_empty() {
        return Err("copies in a render pass".into());
    }
    let (first, first_sub) = pass
        .color
        .first()
        .map(|c| (c.resource, c.sub))
        .or(pass.depth.map(|d| (d.resource, d.sub)))
        .ok_or("a render pass without attachments")?;
    let size = texture_desc(resources, first).ok_or("attachment is not a texture")?;
    // The pass renders at the attached mip's size.
    let (width, height) = size.mip_size(first_sub.mip);
    let inputs = inputs(graph, resources, pass, adaptation)?;
    let seed = seed_of(index);
    let features = device.features();

    // A multiview pass writes each view differently, so a view rendered into the wrong layer
    // shows: its seed moves with the view (`view_index` in one multiview render pass, an
    // override constant in a render pass per view).
    let views = pass.multiview.map_or(1, |n| n.max(1));
    // The view's term: exact (a multiple of 1/4) and added where the value is computed per
    // pixel anyway, so that a constant view (a render pass per view) folds no differently.
    let vo = if pass.multiview.is_some() {
        " + vo"
    } else {
        ""
    };
    // Fragment outputs per slot.
    let mut out_struct = String::new();
    let mut full_body = String::new();
    let mut part_body = String::new();
    if let Some(tested) = adaptation.shader_depth_tests.get(&*pass.name) {
        // The `read` depth the adapter cannot attach while sampling it: the partial draw's
        // `LessEqual` test, done on the sampled texels.
        let k = pass
            .sample
            .iter()
            .position(|e| *resources[e.resource.index()].name == **tested)
            .ok_or("the depth tested in the shader is not sampled")?;
        writeln!(
            part_body,
            "    if !(ramp(px, -0.0043, 0.0029, {seed} + 0.5) <= textureLoad(in{k}, vec2i(px), 0).x) {{ discard; }}"
        )
        .unwrap();
    }
    for (slot, c) in pass.color.iter().enumerate() {
        let (ty, conv) = texel_out(scalar_of(resources, c.resource, adaptation));
        writeln!(out_struct, "    @location({slot}) c{slot}: {ty},").unwrap();
        writeln!(
            full_body,
            "    {{ let v = fract(value(px, {seed} + {slot}.0) + 0.5 * acc{vo}); o.c{slot} = {conv}; }}"
        )
        .unwrap();
        writeln!(
            part_body,
            "    {{ let v = vec4f(fract(value(px, {seed} + {slot}.0 + 0.5) + 0.5 * acc{vo}).rgb, 0.6); o.c{slot} = {conv}; }}"
        )
        .unwrap();
    }
    let has_depth = pass.depth.is_some();
    if has_depth {
        out_struct.push_str("    @builtin(frag_depth) depth: f32,\n");
        writeln!(full_body, "    o.depth = ramp(px, 0.0031, 0.0057, {seed});").unwrap();
        writeln!(
            part_body,
            "    o.depth = ramp(px, -0.0043, 0.0029, {seed} + 0.5);"
        )
        .unwrap();
    }
    // The partial draw: a triangle covering part of the target.
    let h = hash32(index + 17);
    let j = |k: u32| ((hash32(h ^ k) % 1000) as f32 / 1000.0) * 0.3;
    let tri = [
        (-0.95 + j(1), -0.9 + j(2)),
        (0.9 - j(3), -0.7 + j(4)),
        (-0.4 + j(5), 0.95 - j(6)),
    ];
    let inputs_src = inputs_wgsl(&inputs, device, adaptation)?;
    // The full-screen draw: one triangle past the edges, or for a multiview pass a quad inside
    // them (lavapipe's multiview draws guard-band triangles in view 0 only).
    let (full_screen, full_vertices) = match pass.multiview {
        None => (
            "    var p = array(vec2f(-1.0, -1.0), vec2f(3.0, -1.0), vec2f(-1.0, 3.0));",
            3,
        ),
        Some(_) => (
            "    var p = array(vec2f(-1.0, -1.0), vec2f(1.0, -1.0), vec2f(-1.0, 1.0),\n                  vec2f(1.0, -1.0), vec2f(1.0, 1.0), vec2f(-1.0, 1.0));",
            6,
        ),
    };
    // `multiview`: the shader for one multiview render pass; else for a pass of one view.
    let source = |multiview: bool| {
        let (view_decl, view_arg, view_let) = match (pass.multiview.is_some(), multiview) {
            (false, _) => ("", "", ""),
            (true, true) => (
                "",
                ", @builtin(view_index) vi: u32",
                "    let vo = f32(vi) * 0.25;\n",
            ),
            (true, false) => (
                "override VIEW: f32 = 0.0;\n",
                "",
                "    let vo = VIEW * 0.25;\n",
            ),
        };
        format!(
            "{inputs}{view_decl}
const DIMS = vec2u({w}u, {hgt}u);
struct FOut {{
{out_struct}}}
@vertex fn vs_full(@builtin(vertex_index) i: u32) -> @builtin(position) vec4f {{
{full_screen}
    return vec4f(p[i], 0.5, 1.0);
}}
@vertex fn vs_part(@builtin(vertex_index) i: u32) -> @builtin(position) vec4f {{
    var p = array(vec2f({:?}, {:?}), vec2f({:?}, {:?}), vec2f({:?}, {:?}));
    return vec4f(p[i], 0.5, 1.0);
}}
@fragment fn fs_full(@builtin(position) pos: vec4f{view_arg}) -> FOut {{
    let px = vec2u(pos.xy);
{view_let}    let acc = inputs(px, DIMS);
    var o: FOut;
{full_body}    return o;
}}
@fragment fn fs_part(@builtin(position) pos: vec4f{view_arg}) -> FOut {{
    let px = vec2u(pos.xy);
{view_let}    let acc = inputs(px, DIMS);
    var o: FOut;
{part_body}    return o;
}}
",
            tri[0].0,
            tri[0].1,
            tri[1].0,
            tri[1].1,
            tri[2].0,
            tri[2].1,
            inputs = inputs_src,
            full_screen = full_screen,
            w = width,
            hgt = height,
        )
    };
    let module_for = |multiview: bool| {
        device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some(&pass.name),
            source: wgpu::ShaderSource::Wgsl(source(multiview).into()),
        })
    };
    let module = module_for(false);
    let visibility = wgpu::ShaderStages::FRAGMENT;
    let layout_entries = input_layout_entries(&inputs, visibility);
    let bind_layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
        label: Some(&pass.name),
        entries: &layout_entries,
    });
    let pipeline_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
        label: Some(&pass.name),
        bind_group_layouts: &[Some(&bind_layout)],
        immediate_size: 0,
    });

    let overwrites = |a: Access| matches!(a, Access::Clear | Access::Write);
    let depth_access = pass.depth.map(|d| d.access);
    let full_targets: Vec<Option<wgpu::ColorTargetState>> = pass
        .color
        .iter()
        .map(|c| {
            let t = texture_desc(resources, c.resource).expect("checked");
            Some(wgpu::ColorTargetState {
                format: t.format,
                blend: None,
                write_mask: if overwrites(c.access) {
                    wgpu::ColorWrites::ALL
                } else {
                    wgpu::ColorWrites::empty()
                },
            })
        })
        .collect();
    let part_targets: Vec<Option<wgpu::ColorTargetState>> = pass
        .color
        .iter()
        .map(|c| {
            let t = texture_desc(resources, c.resource).expect("checked");
            let blendable = t
                .format
                .guaranteed_format_features(features)
                .flags
                .contains(wgpu::TextureFormatFeatureFlags::BLENDABLE);
            Some(wgpu::ColorTargetState {
                format: t.format,
                blend: blendable.then_some(wgpu::BlendState::ALPHA_BLENDING),
                write_mask: wgpu::ColorWrites::ALL,
            })
        })
        .collect();
    let depth_state = |write: bool, compare: wgpu::CompareFunction| {
        pass.depth.map(|d| wgpu::DepthStencilState {
            format: texture_desc(resources, d.resource).expect("checked").format,
            depth_write_enabled: Some(write),
            depth_compare: Some(compare),
            stencil: Default::default(),
            bias: Default::default(),
        })
    };
    let full_draw =
        pass.color.iter().any(|c| overwrites(c.access)) || depth_access.is_some_and(overwrites);
    // The pipelines of one view mode: `mask` for one multiview render pass, else `view`, the
    // view a render pass of its own records.
    let pipelines = |module: &wgpu::ShaderModule,
                     mask: Option<std::num::NonZeroU32>,
                     view: Option<u32>| {
        let constants = view.map(|v| [("VIEW", f64::from(v))]);
        let constants: &[(&str, f64)] = constants.as_ref().map_or(&[], |c| &c[..]);
        let pipeline =
            |label: &str, vs: &str, fs: &str, targets: &[Option<wgpu::ColorTargetState>], depth| {
                device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
                    label: Some(label),
                    layout: Some(&pipeline_layout),
                    vertex: wgpu::VertexState {
                        module,
                        entry_point: Some(vs),
                        compilation_options: Default::default(),
                        buffers: &[],
                    },
                    primitive: Default::default(),
                    depth_stencil: depth,
                    multisample: wgpu::MultisampleState {
                        count: size.samples,
                        ..Default::default()
                    },
                    fragment: Some(wgpu::FragmentState {
                        module,
                        entry_point: Some(fs),
                        compilation_options: wgpu::PipelineCompilationOptions {
                            constants,
                            ..Default::default()
                        },
                        targets,
                    }),
                    multiview_mask: mask,
                    cache: None,
                })
            };
        let full = full_draw.then(|| {
            pipeline(
                "full",
                "vs_full",
                "fs_full",
                &full_targets,
                depth_state(
                    depth_access.is_some_and(overwrites),
                    wgpu::CompareFunction::Always,
                ),
            )
        });
        let part = pipeline(
            "part",
            "vs_part",
            "fs_part",
            &part_targets,
            depth_state(
                depth_access != Some(Access::Read),
                wgpu::CompareFunction::LessEqual,
            ),
        );
        (full, part)
    };
    // Per view (one entry for a pass of one view), and for one multiview render pass where the
    // device has multiview.
    let per_view: Vec<_> = match pass.multiview {
        None => vec![pipelines(&module, None, None)],
        Some(_) => (0..views)
            .map(|v| pipelines(&module, None, Some(v)))
            .collect(),
    };
    let multiview = (pass.multiview.is_some() && tilegraph::Views::multiview_supported(device))
        .then(|| {
            let mask = tilegraph::Views::Multiview { count: views }.multiview_mask();
            pipelines(&module_for(true), mask, None)
        });
    let (w, hgt) = (width, height);
    let scissor = (
        w / 10,
        hgt / 10,
        (w - w / 10 * 2).max(1),
        (hgt - hgt / 10 * 2).max(1),
    );
    Ok(PassCallback::Render(Box::new(move |rpass, ctx| {
        let (full, part) = match ctx.views() {
            tilegraph::Views::Multiview { .. } => multiview
                .as_ref()
                .ok_or("a multiview render pass on a device without multiview")?,
            tilegraph::Views::PerView { view, .. } => per_view
                .get(view as usize)
                .ok_or("a view past the pass's views")?,
            _ => &per_view[0],
        };
        let group = bind_inputs(ctx, &bind_layout, &inputs)?;
        rpass.set_bind_group(0, &group, &[]);
        if let Some(full) = full {
            rpass.set_scissor_rect(0, 0, w, hgt);
            rpass.set_pipeline(full);
            rpass.draw(0..full_vertices, 0..1);
        }
        rpass.set_scissor_rect(scissor.0, scissor.1, scissor.2, scissor.3);
        rpass.set_pipeline(part);
        rpass.draw(0..3, 0..1);
        // Leave the scissor as a later pass of the group expects it: the whole target.
        rpass.set_scissor_rect(0, 0, w, hgt);
        Ok(())
    })))
}

/// A copy the backend cannot make ([`crate::adapt`]), made with a full-screen draw: the pass
/// samples the source and writes the destination (colour or depth), sample by sample.
fn copy_draw_pass<'a>(
    device: &wgpu::Device,
    graph: &RenderGraph<'_>,
    resources: &[ResourceDecl],
    pass: &PassDecl,
) -> Result<PassCallback<'a>, String> {
    let (&[Entry { resource: src, .. }], dst) = (
        pass.sample.as_slice(),
        pass.color
            .first()
            .map(|c| c.resource)
            .or(pass.depth.map(|d| d.resource)),
    ) else {
        return Err("a copy made with a draw samples one source".into());
    };
    let dst = dst.ok_or("a copy made with a draw has one destination")?;
    let (Some(st), Some(dt)) = (texture_desc(resources, src), texture_desc(resources, dst)) else {
        return Err("a copy made with a draw copies textures".into());
    };
    let s = scalar(st.format);
    let multisampled = st.samples > 1;
    let texture_type = format!(
        "{}<{}>",
        if multisampled {
            "texture_multisampled_2d"
        } else {
            "texture_2d"
        },
        wgsl_scalar(s)
    );
    // One draw per sample, each writing its sample only (the pipeline's sample mask), so the
    // copy needs no per-sample shading.
    let samples = if multisampled { st.samples } else { 1 };
    let depth = dt.format.is_depth_stencil_format();
    let (out_type, value) = if depth {
        ("@builtin(frag_depth) f32", ".x")
    } else {
        (
            match s {
                Scalar::Uint => "@location(0) vec4u",
                Scalar::Sint => "@location(0) vec4i",
                _ => "@location(0) vec4f",
            },
            "",
        )
    };
    let source = format!(
        "@group(0) @binding(0) var src: {texture_type};
@vertex fn vs(@builtin(vertex_index) i: u32) -> @builtin(position) vec4f {{
    var p = array(vec2f(-1.0, -1.0), vec2f(3.0, -1.0), vec2f(-1.0, 3.0));
    return vec4f(p[i], 0.5, 1.0);
}}
override SAMPLE: f32 = 0.0;
@fragment fn fs(@builtin(position) pos: vec4f) -> {out_type} {{
    return textureLoad(src, vec2i(pos.xy), i32(SAMPLE)){value};
}}
"
    );
    let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
        label: Some(&pass.name),
        source: wgpu::ShaderSource::Wgsl(source.into()),
    });
    let input = Input::Texture(
        graph
            .texture_handle(&resources[src.index()].name)
            .expect("named"),
        st,
        s,
        None,
    );
    let bind_layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
        label: Some(&pass.name),
        entries: &input_layout_entries(&[input], wgpu::ShaderStages::FRAGMENT),
    });
    let layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
        label: Some(&pass.name),
        bind_group_layouts: &[Some(&bind_layout)],
        immediate_size: 0,
    });
    let target = [Some(wgpu::ColorTargetState {
        format: dt.format,
        blend: None,
        write_mask: wgpu::ColorWrites::ALL,
    })];
    let pipelines: Vec<_> = (0..samples)
        .map(|sample| {
            let constants = [("SAMPLE", f64::from(sample))];
            device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
                label: Some(&pass.name),
                layout: Some(&layout),
                vertex: wgpu::VertexState {
                    module: &module,
                    entry_point: Some("vs"),
                    compilation_options: Default::default(),
                    buffers: &[],
                },
                primitive: Default::default(),
                depth_stencil: depth.then(|| wgpu::DepthStencilState {
                    format: dt.format,
                    depth_write_enabled: Some(true),
                    depth_compare: Some(wgpu::CompareFunction::Always),
                    stencil: Default::default(),
                    bias: Default::default(),
                }),
                multisample: wgpu::MultisampleState {
                    count: dt.samples,
                    mask: if multisampled { 1 << sample } else { !0 },
                    ..Default::default()
                },
                fragment: Some(wgpu::FragmentState {
                    module: &module,
                    entry_point: Some("fs"),
                    compilation_options: wgpu::PipelineCompilationOptions {
                        constants: &constants,
                        ..Default::default()
                    },
                    targets: if depth { &[] } else { &target },
                }),
                multiview_mask: None,
                cache: None,
            })
        })
        .collect();
    let inputs = [input];
    Ok(PassCallback::Render(Box::new(move |rpass, ctx| {
        let group = bind_inputs(ctx, &bind_layout, &inputs)?;
        rpass.set_bind_group(0, &group, &[]);
        for pipeline in &pipelines {
            rpass.set_pipeline(pipeline);
            rpass.draw(0..3, 0..1);
        }
        Ok(())
    })))
}

/// One output of a compute pass.
#[derive(Clone, Copy)]
enum StorageOutput {
    /// A storage texture; `true` when read_write.
    Texture(TextureHandle, TextureDesc, bool),
    /// A storage buffer with its size in words; `true` when read_write.
    Buffer(BufferHandle, u64, bool),
}

fn compute_pass<'a>(
    device: &wgpu::Device,
    graph: &RenderGraph<'_>,
    resources: &[ResourceDecl],
    pass: &PassDecl,
    index: u32,
    adaptation: &Adaptation,
) -> Result<PassCallback<'a>, String> {
    if !pass.copy_src.is_empty() || !pass.copy_dst.is_empty() {
        return Err("copies in a compute pass".into());
    }
    let inputs = inputs(graph, resources, pass, adaptation)?;
    let seed = seed_of(index);
    let features = device.features();
    let mut outputs = Vec::new();
    for (r, read_write) in pass
        .storage_write
        .iter()
        .map(|e| (e.resource, false))
        .chain(pass.storage_read_write.iter().map(|e| (e.resource, true)))
    {
        let name = &resources[r.index()].name;
        outputs.push(match resources[r.index()].kind {
            ResourceKind::Texture(t) => {
                let flags = adaptation.storage_flags(t.format, features);
                let needed = if read_write {
                    wgpu::TextureFormatFeatureFlags::STORAGE_READ_WRITE
                } else {
                    wgpu::TextureFormatFeatureFlags::STORAGE_WRITE_ONLY
                };
                if !flags.contains(needed) || t.layers > 1 || t.samples > 1 {
                    return Err(format!(
                        "`{name}`: a {} texture with {} layers and {} samples as a storage {}",
                        format_name(t.format),
                        t.layers,
                        t.samples,
                        if read_write { "read_write" } else { "write" }
                    ));
                }
                StorageOutput::Texture(graph.texture_handle(name).expect("named"), t, read_write)
            }
            ResourceKind::Buffer(b) => {
                if b.size % 4 != 0 {
                    return Err(format!(
                        "`{name}`: buffer size {} is not a multiple of 4",
                        b.size
                    ));
                }
                StorageOutput::Buffer(
                    graph.buffer_handle(name).expect("named"),
                    b.size / 4,
                    read_write,
                )
            }
        });
    }
    let outputs_scalar: Vec<Option<Scalar>> = pass
        .storage_write
        .iter()
        .chain(&pass.storage_read_write)
        .map(|e| Some(scalar_of(resources, e.resource, adaptation)))
        .collect();
    let common = inputs_wgsl(&inputs, device, adaptation)?;
    let n = inputs.len();
    let mut kernels = Vec::new();
    for (slot, output) in outputs.iter().enumerate() {
        let body = match *output {
            StorageOutput::Texture(_, t, read_write) => {
                let s = match outputs_scalar[slot] {
                    Some(s) => s,
                    None => scalar(t.format),
                };
                let (ty, conv) = texel_out(s);
                let access = if read_write { "read_write" } else { "write" };
                let update = if read_write {
                    format!(
                        "if ((id.x / 8u + id.y / 8u) % 3u != 0u) {{ return; }}\n    let prior = {};\n    let v = mix(prior, fract(value(id.xy, {seed} + {slot}.0) + 0.5 * acc), 0.5);",
                        normalized(s, "textureLoad(out, vec2i(id.xy))")
                    )
                } else {
                    format!("let v = fract(value(id.xy, {seed} + {slot}.0) + 0.5 * acc);")
                };
                format!(
                    "@group(0) @binding({n}) var out: texture_storage_2d<{fmt}, {access}>;
@compute @workgroup_size(8, 8) fn main(@builtin(global_invocation_id) id: vec3u) {{
    let dims = textureDimensions(out);
    if (id.x >= dims.x || id.y >= dims.y) {{ return; }}
    let acc = inputs(id.xy, dims);
    {update}
    textureStore(out, vec2i(id.xy), {ty}({conv}));
}}
",
                    fmt = format_name(t.format)
                )
            }
            StorageOutput::Buffer(_, words, read_write) => {
                let update = if read_write {
                    format!(
                        "if (i % 3u != 0u) {{ return; }}\n    let v = mix(unpack4x8unorm(out[i]), fract(value(px, {seed} + {slot}.0) + 0.5 * acc), 0.5);"
                    )
                } else {
                    format!("let v = fract(value(px, {seed} + {slot}.0) + 0.5 * acc);")
                };
                format!(
                    "@group(0) @binding({n}) var<storage, read_write> out: array<u32>;
@compute @workgroup_size(64) fn main(@builtin(global_invocation_id) id: vec3u) {{
    let i = id.x + id.y * 4194240u;
    if (i >= {words}u) {{ return; }}
    let dims = vec2u(256u, {rows}u);
    let px = vec2u(i % 256u, i / 256u);
    let acc = inputs(px, dims);
    {update}
    out[i] = pack4x8unorm(v);
}}
",
                    rows = words.div_ceil(256).max(1)
                )
            }
        };
        let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some(&pass.name),
            source: wgpu::ShaderSource::Wgsl(format!("{common}\n{body}").into()),
        });
        let mut entries = input_layout_entries(&inputs, wgpu::ShaderStages::COMPUTE);
        entries.push(wgpu::BindGroupLayoutEntry {
            binding: n as u32,
            visibility: wgpu::ShaderStages::COMPUTE,
            ty: match *output {
                StorageOutput::Texture(_, t, read_write) => wgpu::BindingType::StorageTexture {
                    access: if read_write {
                        wgpu::StorageTextureAccess::ReadWrite
                    } else {
                        wgpu::StorageTextureAccess::WriteOnly
                    },
                    format: t.format,
                    view_dimension: wgpu::TextureViewDimension::D2,
                },
                StorageOutput::Buffer(..) => wgpu::BindingType::Buffer {
                    ty: wgpu::BufferBindingType::Storage { read_only: false },
                    has_dynamic_offset: false,
                    min_binding_size: None,
                },
            },
            count: None,
        });
        let bind_layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some(&pass.name),
            entries: &entries,
        });
        let layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some(&pass.name),
            bind_group_layouts: &[Some(&bind_layout)],
            immediate_size: 0,
        });
        let pipeline = device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
            label: Some(&pass.name),
            layout: Some(&layout),
            module: &module,
            entry_point: Some("main"),
            compilation_options: Default::default(),
            cache: None,
        });
        let groups = match *output {
            StorageOutput::Texture(_, t, _) => (t.width.div_ceil(8), t.height.div_ceil(8)),
            StorageOutput::Buffer(_, words, _) => {
                let g = words.div_ceil(64) as u32;
                (g.min(65535), g.div_ceil(65535))
            }
        };
        kernels.push((*output, bind_layout, pipeline, groups));
    }
    Ok(PassCallback::Compute(Box::new(move |cpass, ctx| {
        for (output, bind_layout, pipeline, groups) in &kernels {
            let group = bind_with_output(ctx, bind_layout, &inputs, output)?;
            cpass.set_pipeline(pipeline);
            cpass.set_bind_group(0, &group, &[]);
            cpass.dispatch_workgroups(groups.0, groups.1, 1);
        }
        Ok(())
    })))
}

fn copy_pass<'a>(
    graph: &RenderGraph<'_>,
    resources: &[ResourceDecl],
    pass: &PassDecl,
) -> Result<PassCallback<'a>, String> {
    if pass.copy_src.is_empty() && !pass.copy_dst.is_empty() {
        return Err("copy_dst without any copy_src".into());
    }
    let mut copies = Vec::new();
    for (i, dst_entry) in pass.copy_dst.iter().enumerate() {
        let src_entry = pass.copy_src[i % pass.copy_src.len()];
        let (src, dst) = (src_entry.resource, dst_entry.resource);
        let (s, d) = (&resources[src.index()], &resources[dst.index()]);
        match (s.kind, d.kind) {
            (ResourceKind::Texture(st), ResourceKind::Texture(dt)) => {
                // wgpu copies depth and multisampled textures whole only: equal sizes (and,
                // for multisampled ones, equal sample counts), so no tiling.
                let whole_only = st.format.is_depth_stencil_format() || st.samples > 1;
                if st.format.remove_srgb_suffix() != dt.format.remove_srgb_suffix()
                    || st.samples != dt.samples
                    || (whole_only
                        && (st.width, st.height, st.layers) != (dt.width, dt.height, dt.layers))
                {
                    return Err(format!(
                        "copying `{}` ({}, {} samples) into `{}` ({}, {} samples)",
                        s.name,
                        format_name(st.format),
                        st.samples,
                        d.name,
                        format_name(dt.format),
                        dt.samples
                    ));
                }
                copies.push(Copy::Texture(
                    (
                        graph.texture_handle(&s.name).expect("named"),
                        st,
                        src_entry.sub,
                    ),
                    (
                        graph.texture_handle(&d.name).expect("named"),
                        dt,
                        dst_entry.sub,
                    ),
                ));
            }
            (ResourceKind::Buffer(sb), ResourceKind::Buffer(db)) => {
                if sb.size % 4 != 0 || db.size % 4 != 0 {
                    return Err("buffer copies need sizes that are multiples of 4".into());
                }
                copies.push(Copy::Buffer(
                    graph.buffer_handle(&s.name).expect("named"),
                    sb.size,
                    graph.buffer_handle(&d.name).expect("named"),
                    db.size,
                ));
            }
            _ => {
                return Err(format!(
                    "copy between a texture and a buffer (`{}` → `{}`)",
                    s.name, d.name
                ));
            }
        }
    }
    Ok(PassCallback::Copy(Box::new(move |encoder, ctx| {
        for copy in &copies {
            match *copy {
                Copy::Texture((s, st, s_sub), (d, dt, d_sub)) => {
                    let (src, dst) = (ctx.texture(s)?, ctx.texture(d)?);
                    // Every destination subresource the entry names, each from the source's
                    // named subresource, or the same mip and layer (clamped) of a whole source,
                    // tiled over the destination's mip.
                    let targets: Vec<Subresource> = match d_sub {
                        Some(sub) => vec![sub],
                        None => (0..dt.layers)
                            .flat_map(|layer| {
                                (0..dt.mips).map(move |mip| Subresource { mip, layer })
                            })
                            .collect(),
                    };
                    for to in targets {
                        let from = s_sub.unwrap_or(Subresource {
                            mip: to.mip.min(st.mips - 1),
                            layer: to.layer % st.layers,
                        });
                        let (sw, sh) = st.mip_size(from.mip);
                        let (dw, dh) = dt.mip_size(to.mip);
                        let mut y = 0;
                        while y < dh {
                            let h = sh.min(dh - y);
                            let mut x = 0;
                            while x < dw {
                                let w = sw.min(dw - x);
                                encoder.copy_texture_to_texture(
                                    wgpu::TexelCopyTextureInfo {
                                        texture: src,
                                        mip_level: from.mip,
                                        origin: wgpu::Origin3d {
                                            x: 0,
                                            y: 0,
                                            z: from.layer,
                                        },
                                        aspect: wgpu::TextureAspect::All,
                                    },
                                    wgpu::TexelCopyTextureInfo {
                                        texture: dst,
                                        mip_level: to.mip,
                                        origin: wgpu::Origin3d { x, y, z: to.layer },
                                        aspect: wgpu::TextureAspect::All,
                                    },
                                    wgpu::Extent3d {
                                        width: w,
                                        height: h,
                                        depth_or_array_layers: 1,
                                    },
                                );
                                x += w;
                            }
                            y += h;
                        }
                    }
                }
                Copy::Buffer(s, ss, d, ds) => {
                    let (src, dst) = (ctx.buffer(s)?, ctx.buffer(d)?);
                    let mut offset = 0;
                    while offset < ds {
                        let n = ss.min(ds - offset);
                        encoder.copy_buffer_to_buffer(src, 0, dst, offset, n);
                        offset += n;
                    }
                }
            }
        }
        Ok(())
    })))
}

enum Copy {
    /// Source and destination, each whole or one subresource.
    Texture(
        (TextureHandle, TextureDesc, Option<Subresource>),
        (TextureHandle, TextureDesc, Option<Subresource>),
    ),
    Buffer(BufferHandle, u64, BufferHandle, u64),
}

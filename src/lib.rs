//! # tilegraph
//!
//! A render graph for [wgpu]: declare a frame's resources and passes with what every pass reads
//! and writes; tilegraph culls dead work, merges compatible render passes so attachments stay on
//! tile, infers every attachment's load and store op, MSAA resolve, read-only depth and transient
//! (memoryless) textures, pools physical textures — and explains every decision it made.
//!
//! The crate flows one way: **declare** ([`RenderGraph`]) → **compile** ([`RenderGraph::compile`],
//! pure CPU, no device) → **execute** ([`Executor`], records into wgpu), with **report**
//! ([`CompiledGraph::to_json`], [`CompiledGraph::to_table`], [`CompiledGraph::to_dot`],
//! [`CompiledGraph::to_html`]) reading the plan. The [`guide`] is the reference for what the
//! compiler decides and why.
//!
//! ## Declaring a frame
//!
//! Resources are graph-owned ([`RenderGraph::create_texture`], [`RenderGraph::create_buffer`]:
//! undefined when the frame starts, discarded when it ends) or imported
//! ([`RenderGraph::import_texture`]: a surface texture, a history buffer; [`Import`] says whether
//! their contents are there at the start and wanted at the end). Each render pass names its
//! attachments with one [`Access`] each:
//!
//! | access | meaning | prior contents |
//! |---|---|---|
//! | `Clear` | the pass clears the attachment first | not needed |
//! | `Write` | the pass overwrites *every* pixel (full coverage, no blending, full write mask, no depth rejection) | not needed |
//! | `ReadWrite` | blending, partial coverage, depth test against existing depth | needed |
//! | `Read` | depth only: a read-only depth test | needed |
//!
//! A draw that looks full-screen does not prove every pixel was written: say `Write` only when it
//! is true. Passes also `sample` textures, `input` them (same-pixel reads), use storage textures
//! and buffers, and copy. Builder methods never fail; [`RenderGraph::compile`] validates the whole
//! declared graph and returns a typed [`GraphError`] naming the pass and resource.
//!
//! An attachment may name one subresource (`bloom.mip(2)`, `shadow.layer(1)`) and the lists a
//! whole texture or one subresource: content, culling and ops are tracked per subresource
//! ([guide](guide#subresources-mips-and-layers)). [`RenderGraph::history_texture`] keeps a
//! texture from one frame to the next.
//!
//! ```
//! use tilegraph::plan::{GroupBreak, StoreOp};
//! use tilegraph::wgpu::TextureFormat;
//! use tilegraph::{Access, CompileOptions, Import, RenderGraph, TextureDesc};
//!
//! let mut graph = RenderGraph::new();
//! let size = (1920, 1080);
//! let albedo = graph.create_texture("albedo", TextureDesc::new(TextureFormat::Rgba8Unorm, size.0, size.1));
//! let depth = graph.create_texture("depth", TextureDesc::new(TextureFormat::Depth32Float, size.0, size.1));
//! let output = graph.import_texture(
//!     "backbuffer",
//!     TextureDesc::new(TextureFormat::Bgra8Unorm, size.0, size.1),
//!     Import::OUTPUT,
//! );
//! graph.add_render_pass("gbuffer").color(albedo, Access::Clear).depth(depth, Access::Clear).finish();
//! graph.add_render_pass("debug").sample(depth).color(albedo, Access::ReadWrite).finish();
//! graph.add_render_pass("lighting").sample(albedo).color(output, Access::Write).finish();
//!
//! let plan = graph.compile(&CompileOptions::default())?;
//! assert!(!plan.passes()[1].culled); // lighting reads what debug wrote
//! let gbuffer = &plan.groups()[0];
//! assert_eq!(gbuffer.color[0].store, StoreOp::Store); // read later
//! assert_eq!(gbuffer.depth.as_ref().unwrap().store, StoreOp::Store); // debug samples it
//! assert_eq!(plan.groups()[0].break_reason, GroupBreak::SamplesGroupOutput);
//! println!("{}", plan.to_table());
//! # Ok::<(), tilegraph::GraphError>(())
//! ```
//!
//! ## What the compiler decides, and why
//!
//! - **Culling**: a pass is live if it has side effects, writes a version a live pass reads, or
//!   writes the frame-end contents of an import kept after the frame; everything else is culled.
//! - **Groups**: the next live render pass joins the current wgpu render pass when it has the
//!   same attachments and nothing forces a break; every group records the
//!   [`GroupBreak`](plan::GroupBreak) that ended it (it samples the group's output, it clears, it resolves, ...).
//! - **Load ops**: `Clear` for clears, `Load` where prior contents are needed and exist, `Clear`
//!   with the resource's clear value where they are needed but nothing wrote them, and for
//!   `Write`: `DontCare` only when the caller handed over wgpu's unsafe
//!   [`wgpu::LoadOpDontCare`] token ([`CompileOptions::with_dont_care`]), else a clear.
//! - **Store ops**: `Store` only when a later live pass reads the contents or a kept import needs
//!   them; `Discard` otherwise; `None` for a depth that the group only read (read-only depth).
//! - **Transient textures**, **lifetimes** and **physical textures** shared by resources whose
//!   lifetimes do not overlap; **traffic** of the plan against a naive renderer's
//!   ([`CompiledGraph::traffic`]) and **warnings** about avoidable costs.
//!
//! Each optimisation has a switch ([`CompileOptions::with_cull`], `with_merge`,
//! `with_transient`, `with_alias`, `with_restructure`) so a suspected miscompile can be
//! bisected. Plans are deterministic; [`PlanCache`] reuses them across frames, keyed by the
//! graph's structure. A renderer that compiles every frame keeps a [`Compiler`] and hands it back
//! each plan it is done with: compiles then allocate nothing per pass. One that declares every
//! frame declares into the graph [`RenderGraph::reset`] returns: declarations shaped like the
//! last frame's then allocate nothing.
//!
//! ## Executing
//!
//! The [`Executor`] records a plan into wgpu: one wgpu pass per group with the inferred ops,
//! the user's closure called with the open pass and a [`PassContext`] that resolves the handles
//! the pass declared — and only those — to views and buffers. Physical textures are pooled across frames (stable views, so bind groups
//! can be cached); imports are bound per frame through [`Imports`]. [`ExecuteMode::Naive`]
//! records the naive plan and [`ExecuteMode::Poison`] overwrites everything the plan declares
//! dead with a loud colour, so a wrong declaration shows on screen. With
//! [`ExecutorOptions::with_recording_threads`] a frame's groups are recorded on several threads
//! ([guide](guide#recording-on-several-threads)); pass closures are `Send` for that.
//!
//! ```no_run
//! use tilegraph::wgpu;
//! use tilegraph::{
//!     Access, CompileOptions, ExecuteMode, Executor, Import, Imports, PlanCache, RenderGraph,
//!     TextureDesc,
//! };
//!
//! fn frame(
//!     device: &wgpu::Device,
//!     queue: &wgpu::Queue,
//!     executor: &mut Executor,
//!     cache: &mut PlanCache,
//!     surface: &wgpu::SurfaceTexture,
//! ) -> Result<(), Box<dyn std::error::Error>> {
//!     let texture = &surface.texture;
//!     let (w, h) = (texture.width(), texture.height());
//!     let mut graph = RenderGraph::new();
//!     let output = graph.import_texture(
//!         "surface",
//!         TextureDesc::new(texture.format(), w, h),
//!         Import::OUTPUT,
//!     );
//!     graph.add_render_pass("sky").color(output, Access::Write).execute(|pass, _ctx| {
//!         // set the pipeline and bind groups, then draw
//!         pass.draw(0..3, 0..1);
//!         Ok(())
//!     });
//!     let plan = cache.get_or_compile(&graph, &CompileOptions::default())?;
//!     let view = texture.create_view(&Default::default());
//!     let mut imports = Imports::new();
//!     imports.texture(output, texture, &view);
//!     let commands = executor.execute(&mut graph, &plan, &imports, ExecuteMode::Planned)?;
//!     queue.submit(commands);
//!     Ok(())
//! }
//! ```
#![warn(missing_docs)]

// Layers, bottom to top; a module imports only from its own layer or below (checked by the
// `layering` test, which reads every `use crate::` line):
//   0  ids, hash, format, error,       plain values and helpers
//      tile, tile_custom
//   1  resource, decl, passes          declared data: handles, shapes, accesses; pass and resource
//                                      declarations, a graph's passes in tables (`decl`, with
//                                      `passes` the internal path of its tables)
//   2  context                         what a pass closure sees (filled in by the executor)
//   3  declare                         the builder: a graph of resources, passes and closures
//   4  description, options           JSON in and out; what the compiler may do
//   5  plan                            the compiled plan's types
//   6  compile                         the compiler: declared graph → plan
//   7  cache, report, html, backend    plan reuse; JSON, table, DOT and HTML of a plan; what
//                                      wgpu's backends make of it
//   8  execute                         recording a plan into wgpu
//   9  helpers, profiler               device, read-back, bind-group cache, full-screen passes;
//                                      wgpu-profiler scopes per group
//
// Every module is private; the public surface is this file: the root declares, compiles and
// executes a frame, `plan` reads a compiled plan, `decl` reads declarations back, `helpers`
// (the default `helpers` feature) saves renderers the usual wgpu chores.

mod backend;
mod cache;
mod compile;
mod context;
pub mod decl;
mod declare;
mod description;
mod error;
mod execute;
mod format;
#[doc = include_str!("../docs/guide.md")]
pub mod guide {}
mod hash;
#[cfg(feature = "helpers")]
pub mod helpers;
mod html;
mod ids;
mod options;
pub mod plan;
#[cfg(feature = "profiler")]
pub mod profiler;
mod report;
mod resource;
mod tile;
mod tile_custom;

pub use wgpu;

// Declaring a frame.
pub use context::{ContextError, PassContext, PassError, Views};
pub use declare::{
    ComputeCallback, ComputePassBuilder, CopyCallback, CopyPassBuilder, History, HistoryBuffer,
    PassCallback, RenderCallback, RenderGraph, RenderPassBuilder,
};
pub use ids::{PassId, ResourceId};
pub use resource::{
    Access, BufferDesc, BufferHandle, ClearValue, Import, ImportAfter, ImportContents, Subresource,
    SubresourceHandle, SubresourceRange, TextureDesc, TextureHandle, TextureRef,
};

// Compiling it.
pub use cache::PlanCache;
pub use compile::Compiler;
pub use error::{ErrorKind, GraphError};
pub use options::{CompileOptions, Fps};
pub use plan::graph::CompiledGraph;

// Executing it.
pub use execute::{
    ExecuteError, ExecuteMode, Executor, ExecutorOptions, ExecutorStats, FrameCommands, GroupTimer,
    GroupTiming, Imports, ParseExecuteModeError, PassRecorder, PoolStats, Recording, TimedGroup,
};

/// The README's code, compiled and run as doc tests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;

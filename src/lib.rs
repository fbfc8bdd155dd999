//! # tilegraph
//!
//! A render graph for [wgpu]: declare a frame's resources and passes with what every pass reads
//! and writes; tilegraph culls dead work, merges compatible render passes so attachments stay on
//! tile, infers every attachment's load and store op, MSAA resolve, read-only depth and transient
//! (memoryless) textures, pools physical textures — and explains every decision it made.
//!
//! The crate flows one way: **declare** ([`RenderGraph`]) → **compile** ([`RenderGraph::compile`],
//! pure CPU) → **execute** (records into wgpu), with **report** ([`CompiledGraph::to_json`],
//! [`CompiledGraph::to_table`], [`CompiledGraph::to_dot`]) reading the plan.
//!
//! ```
//! use tilegraph::prelude::*;
//! use tilegraph::wgpu::TextureFormat;
//!
//! let mut graph = RenderGraph::new();
//! let size = (1920, 1080);
//! let albedo = graph.create_texture("albedo", TextureDesc::new(TextureFormat::Rgba8Unorm, size.0, size.1));
//! let depth = graph.create_texture("depth", TextureDesc::new(TextureFormat::Depth32Float, size.0, size.1));
//! let output = graph.import_texture(
//!     "backbuffer",
//!     TextureDesc::new(TextureFormat::Bgra8Unorm, size.0, size.1),
//!     Import { contents: ImportContents::Undefined, after: ImportAfter::Keep },
//! );
//! graph.add_render_pass("gbuffer").color(albedo, Access::Clear).depth(depth, Access::Clear).finish();
//! graph.add_render_pass("lighting").sample(albedo).color(output, Access::Write).finish();
//!
//! let plan = graph.compile(&CompileOptions::default())?;
//! let gbuffer = &plan.groups()[0];
//! assert_eq!(gbuffer.color[0].store, StoreOp::Store); // sampled by lighting
//! assert_eq!(gbuffer.depth.as_ref().unwrap().store, StoreOp::Discard); // nobody reads depth later
//! assert!(plan.resources()[1].transient); // so depth never leaves the tile
//! println!("{}", plan.to_table());
//! # Ok::<(), tilegraph::GraphError>(())
//! ```
#![warn(missing_docs)]

pub mod cache;
pub mod compile;
pub mod declare;
pub mod description;
pub mod error;
pub mod execute;
pub mod format;
mod hash;
pub mod headless;
pub mod plan;
pub mod report;
pub mod synthetic;

pub use wgpu;

pub use cache::PlanCache;
pub use compile::CompileOptions;
pub use declare::{
    Access, BufferDesc, BufferHandle, ClearValue, Import, ImportAfter, ImportContents,
    PassCallback, PassId, PassKind, RenderGraph, ResourceId, ResourceKind, TextureDesc,
    TextureHandle,
};
pub use error::{ErrorKind, GraphError};
pub use execute::{
    ExecuteError, ExecuteMode, Executor, ExecutorOptions, GroupTiming, Imports, PassContext,
    PassError, PoolStats,
};
pub use plan::{
    AttachmentPlan, CompiledGraph, Group, GroupBoundary, LoadOp, StoreOp, Traffic, Warning,
    WarningKind,
};

/// The names most frame setups need.
pub mod prelude {
    pub use crate::{
        Access, ClearValue, CompileOptions, CompiledGraph, GraphError, Import, ImportAfter,
        ImportContents, LoadOp, PassContext, PlanCache, RenderGraph, StoreOp, TextureDesc,
        TextureHandle,
    };
}

//! Reading a compiled plan: its groups with every attachment's ops and the reasons for them,
//! the passes' fates, resource lifetimes and physical textures, restructuring, traffic, memory,
//! tile budgets and warnings. A [`CompiledGraph`] hands these out.

mod advice;
mod bytes;
mod dependencies;
pub(crate) mod graph;
mod naive;
mod prose;
mod requirements;
mod tile_fit;
mod types;

pub use advice::{Advice, AdviceKind};
pub(crate) use bytes::{attachment_bytes, moved_bytes, subresource_bytes};
pub use dependencies::DependencyAccess;
pub(crate) use dependencies::Reads;
pub(crate) use graph::CompiledGraph;
pub(crate) use naive::{NaiveSources, naive_loads};
pub(crate) use requirements::{Shortfall, color_bytes_per_sample};

pub use crate::ids::{GroupId, PhysicalId};
pub use crate::tile::{
    BinReason, CustomTileProfile, FirstFrame, TileDetail, TileFit, TileProfile, TileProfileError,
    TileRule,
};
pub use types::{
    AttachmentPlan, Dependency, Group, GroupBreak, LoadOp, LoadReason, Memory, NeededBy, PassPlan,
    PhysicalResource, Remedy, ResourcePlan, ResourceUsage, Restructuring, StoreOp, StoreReason,
    Traffic, TransientBlock, Warning, WarningKind,
};

/// The former name of [`GroupBreak`].
#[deprecated(since = "0.1.0", note = "renamed `GroupBreak`; removed in 0.2")]
pub type GroupBoundary = GroupBreak;

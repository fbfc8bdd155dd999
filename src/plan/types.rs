//! The plan's public types: groups, attachments with their ops and the reasons for them, passes,
//! resources, restructuring, traffic, memory, warnings and dependencies.

use crate::decl::pass::PassKind;
use crate::decl::resource::ResourceKind;
use crate::ids::{GroupId, PhysicalId};
use crate::ids::{PassId, ResourceId};
use crate::resource::{ClearValue, Subresource};

/// The load op of an attachment at the start of a group.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum LoadOp {
    /// Clear to the value.
    Clear(ClearValue),
    /// Bring the prior contents onto the tile.
    Load,
    /// Contents undefined: every pixel is overwritten (needs the `LoadOpDontCare` opt-in).
    DontCare,
}

impl LoadOp {
    /// The plan's name of the op.
    pub fn as_str(self) -> &'static str {
        match self {
            LoadOp::Clear(_) => "clear",
            LoadOp::Load => "load",
            LoadOp::DontCare => "dont_care",
        }
    }
}

/// The store op of an attachment at the end of a group.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum StoreOp {
    /// Write the contents back to memory: a later pass or the world after the frame needs them.
    Store,
    /// Nobody needs the contents after the group.
    Discard,
    /// Read-only depth: nothing was written, memory is untouched (wgpu `depth_ops: None`).
    None,
}

impl StoreOp {
    /// The plan's name of the op.
    pub fn as_str(self) -> &'static str {
        match self {
            StoreOp::Store => "store",
            StoreOp::Discard => "discard",
            StoreOp::None => "none",
        }
    }
}

/// Why an attachment got its load op ([guide](crate::guide#load-ops)).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum LoadReason {
    /// The group's first access is `clear`.
    Cleared,
    /// The group's first access is `write`: every pixel is overwritten, prior contents are not
    /// needed (`DontCare` with the caller's token, else a clear).
    Overwritten,
    /// The first access needs the prior contents, written by `writer` (`None`: an import's
    /// preserved contents).
    ContentsNeeded {
        /// The pass that wrote them.
        writer: Option<PassId>,
    },
    /// The first access reads prior contents that nothing wrote: it starts from the clear value.
    NoContents,
}

/// Why an attachment got its store op ([guide](crate::guide#store-ops)).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum StoreReason {
    /// A later live pass reads the contents (`reader` is the last one).
    ReadLater {
        /// The last pass that reads them.
        reader: PassId,
    },
    /// The contents are an import's frame-end contents, kept after the frame.
    KeptImport,
    /// Nobody reads the contents after the group.
    NotNeeded,
    /// No pass of the group writes it: read-only depth, memory untouched.
    NothingWritten,
    /// The naive plan stores everything.
    Naive,
}

/// One attachment of a group, with its inferred ops and why.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct AttachmentPlan {
    /// The attached resource.
    pub resource: ResourceId,
    /// The attached mip and layer.
    pub sub: Subresource,
    /// Op at the start of the group.
    pub load: LoadOp,
    /// Op at the end of the group.
    pub store: StoreOp,
    /// Resolve target (its mip 0 of layer 0), resolved at the end of the group.
    pub resolve: Option<ResourceId>,
    /// Depth attachment that no pass of the group writes: attached read-only.
    pub read_only: bool,
    /// Why `load`.
    pub load_reason: LoadReason,
    /// Why `store`.
    pub store_reason: StoreReason,
}

/// Why the next live pass did not join a group, in the order they are checked
/// ([guide](crate::guide#merge-rule-and-break-reasons)).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum GroupBreak {
    /// This or the next pass is a compute or copy pass.
    NotRender,
    /// The next pass reads in a shader (sample or storage read) something the group wrote.
    SamplesGroupOutput,
    /// The next pass reads the group's output at the same pixel; it would merge on an API with
    /// framebuffer fetch / input attachments, which wgpu lacks.
    InputsGroupOutput,
    /// The next pass's attachments are not the group's (resources per slot, size, samples).
    AttachmentsDiffer,
    /// The next pass clears an attachment the group already used.
    ClearsGroupAttachment,
    /// The group resolved its MSAA attachments and the next pass would keep drawing.
    Resolve,
    /// The next pass writes as storage something the group already accessed outside its
    /// attachments; one wgpu render pass has no barrier between its draws.
    StorageHazard,
    /// The next pass writes, as its depth attachment or a resolve target, a texture the group binds
    /// for a shader read; wgpu validates one render pass as one usage scope, where a sampled depth
    /// attachment must stay read-only.
    WritesBoundTexture,
    /// Merging is switched off in the compile options.
    MergingDisabled,
    /// The group holds the last live pass.
    EndOfGraph,
}

impl GroupBreak {
    /// The plan's name of the reason.
    pub fn as_str(self) -> &'static str {
        match self {
            GroupBreak::NotRender => "not_render",
            GroupBreak::SamplesGroupOutput => "samples_group_output",
            GroupBreak::InputsGroupOutput => "inputs_group_output",
            GroupBreak::AttachmentsDiffer => "attachments_differ",
            GroupBreak::ClearsGroupAttachment => "clears_group_attachment",
            GroupBreak::Resolve => "resolve",
            GroupBreak::StorageHazard => "storage_hazard",
            GroupBreak::WritesBoundTexture => "writes_bound_texture",
            GroupBreak::MergingDisabled => "merging_disabled",
            GroupBreak::EndOfGraph => "end_of_graph",
        }
    }
}

/// A group: consecutive live passes recorded as one wgpu pass.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct Group {
    /// Render, compute or copy. Compute and copy groups hold one pass and no attachments.
    pub kind: PassKind,
    /// Its passes, in order.
    pub passes: Vec<PassId>,
    /// Colour attachments in slot order; in a multiview group, one per view of each slot
    /// (layers `layer .. layer + N` of slot 0, then of slot 1, ...).
    pub color: Vec<AttachmentPlan>,
    /// Depth/stencil attachment (its first view in a multiview group).
    pub depth: Option<AttachmentPlan>,
    /// The depth/stencil attachment's views 1 .. N in a multiview group; empty otherwise.
    pub depth_views: Vec<AttachmentPlan>,
    /// The group's multiview count ([guide](crate::guide#multiview)): `None` for one view.
    pub multiview: Option<u32>,
    /// Colour bytes a sample of the render pass, as wgpu counts them against
    /// `Limits::max_color_attachment_bytes_per_sample`: over the slots in order, each aligned
    /// to its format's component alignment, then its cost added. 0 for compute and copy groups.
    pub color_bytes_per_sample: u32,
    /// Why the next live pass did not join.
    pub break_reason: GroupBreak,
}

impl Group {
    /// Views the group renders: its multiview count, or 1.
    pub fn views(&self) -> u32 {
        self.multiview.unwrap_or(1).max(1)
    }

    /// Every attachment: colour slots, then each view of the depth slot.
    pub fn attachments(&self) -> impl Iterator<Item = &AttachmentPlan> + '_ {
        self.color
            .iter()
            .chain(self.depth.iter())
            .chain(self.depth_views.iter())
    }
}

/// What the plan decided for one pass.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct PassPlan {
    /// Nobody uses its results.
    pub culled: bool,
    /// Its group; `None` when culled or folded.
    pub group: Option<GroupId>,
    /// Why it is alive; `None` when culled, folded, or kept only because culling is off.
    pub needed_by: Option<NeededBy>,
    /// A copy folded into the resolve of this pass: it does not run, the resolve writes its
    /// destination ([guide](crate::guide#restructuring)).
    pub folded_into: Option<PassId>,
}

/// Why a live pass is alive ([guide](crate::guide#restructuring)).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum NeededBy {
    /// A later live pass reads what it wrote (the first such reader).
    Reader(PassId),
    /// It writes the frame-end contents of an import kept after the frame.
    KeptImport(ResourceId),
    /// It is declared with side effects.
    SideEffects,
}

/// One change restructuring made to how the frame runs ([guide](crate::guide#restructuring)).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Restructuring {
    /// `pass` runs right after the group of `joins` and merges into it.
    Moved {
        /// The pass that moved.
        pass: PassId,
        /// The first pass of the group it joined.
        joins: PassId,
        /// Passes it depends on, moved ahead of that group.
        ahead: Vec<PassId>,
        /// Passes declared between the group and it, now after it.
        after: Vec<PassId>,
        /// Attachment bytes a frame the move saved.
        saved_bytes: u64,
    },
    /// `pass` no longer resolves into `resource`: nothing reads what it would resolve.
    ResolveDropped {
        /// The pass that resolved.
        pass: PassId,
        /// The resolve target.
        resource: ResourceId,
        /// The live pass that overwrites the target next, if any.
        overwritten_by: Option<PassId>,
    },
    /// The copy `pass` does not run: the resolve of `into` writes its destination.
    CopyFolded {
        /// The copy pass.
        pass: PassId,
        /// The pass whose resolve now writes the copy's destination.
        into: PassId,
        /// The resolve target the copy read.
        source: ResourceId,
        /// The copy's destination, now the resolve target.
        target: ResourceId,
    },
}

impl Restructuring {
    /// The plan's name of the change: `moved`, `resolve_dropped` or `copy_folded`.
    pub fn kind_str(&self) -> &'static str {
        match self {
            Restructuring::Moved { .. } => "moved",
            Restructuring::ResolveDropped { .. } => "resolve_dropped",
            Restructuring::CopyFolded { .. } => "copy_folded",
        }
    }

    /// The pass the change is about.
    pub fn pass(&self) -> PassId {
        match self {
            Restructuring::Moved { pass, .. }
            | Restructuring::ResolveDropped { pass, .. }
            | Restructuring::CopyFolded { pass, .. } => *pass,
        }
    }
}

/// The wgpu usages a resource needs, from how live passes use it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ResourceUsage {
    /// Texture usages.
    Texture(wgpu::TextureUsages),
    /// Buffer usages.
    Buffer(wgpu::BufferUsages),
}

/// What the plan decided for one resource.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct ResourcePlan {
    /// No live pass uses it.
    pub culled: bool,
    /// Lives only on tile: `TextureUsages::TRANSIENT_ATTACHMENT`.
    pub transient: bool,
    /// First group that uses it.
    pub first_group: Option<GroupId>,
    /// Last group that uses it.
    pub last_group: Option<GroupId>,
    /// Pooled physical resource; `None` for imports and culled resources.
    pub physical: Option<PhysicalId>,
    /// Usages the live passes need.
    pub usage: ResourceUsage,
}

/// A pooled texture or buffer shared by resources whose lifetimes do not overlap.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct PhysicalResource {
    /// Shape (identical for every resource mapped here).
    pub kind: ResourceKind,
    /// Usages (identical for every resource mapped here).
    pub usage: ResourceUsage,
    /// Resources mapped here, in order of their first use.
    pub resources: Vec<ResourceId>,
}

/// Attachment traffic of the plan and of the naive plan ([guide](crate::guide#traffic-model)).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize)]
#[non_exhaustive]
pub struct Traffic {
    /// Bytes loaded, stored and resolved by the plan per frame.
    pub bytes_per_frame: u64,
    /// The same for the naive plan.
    pub naive_bytes_per_frame: u64,
    /// The same for the plan of the declared order (equal to `bytes_per_frame` when nothing
    /// was restructured).
    pub declared_bytes_per_frame: u64,
    /// Frame rate the per-second figures use.
    pub fps: crate::options::Fps,
    /// `bytes_per_frame × fps`.
    pub bytes_per_second: u64,
    /// `naive_bytes_per_frame × fps`.
    pub naive_bytes_per_second: u64,
    /// `declared_bytes_per_frame × fps`.
    pub declared_bytes_per_second: u64,
    /// Bytes of sampled and input reads per frame (reported apart).
    pub sampled_bytes_per_frame: u64,
}

/// Memory of the plan's resources against a renderer that allocates each on its own
/// ([guide](crate::guide#will-it-fit-the-tile)). Textures count every mip and layer × samples at
/// the traffic model's texel sizes: a model, not what a driver allocates (no padding, alignment
/// or compression).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize)]
#[non_exhaustive]
pub struct Memory {
    /// Every live graph-owned texture and buffer allocated on its own: what a renderer without
    /// pooling allocates.
    pub declared_bytes: u64,
    /// The pooled physical textures and buffers.
    pub allocated_bytes: u64,
    /// Of those, transient textures: memoryless on tilers.
    pub transient_bytes: u64,
    /// Of the rest, the textures the plan keeps on tile only but wgpu will not make memoryless
    /// ([`CompiledGraph::transient_blocked`](crate::CompiledGraph::transient_blocked)): what
    /// declaring the frame per view (a texture a view) would make memoryless.
    #[serde(skip_serializing_if = "is_zero")]
    pub transient_blocked_bytes: u64,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

/// Why a texture that would live only on tile is allocated ([`CompiledGraph::transient_blocked`](crate::CompiledGraph::transient_blocked)).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum TransientBlock {
    /// More than one layer: wgpu 30 refuses `TRANSIENT_ATTACHMENT` on such a texture; one
    /// texture per view (per layer) would be memoryless.
    Layers,
}

impl TransientBlock {
    /// The plan's name: `layers`.
    pub fn as_str(self) -> &'static str {
        match self {
            TransientBlock::Layers => "layers",
        }
    }
}

/// What a warning is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum WarningKind {
    /// A clear value that tile hardware cannot fast-clear.
    SlowClearValue,
    /// A `write` access pays a clear because `LoadOp::DontCare` was not opted in.
    ClearForWrite,
    /// A multisampled attachment is stored: samples × the bytes of its resolve.
    MsaaStored,
}

impl WarningKind {
    /// The plan's name of the kind.
    pub fn as_str(self) -> &'static str {
        match self {
            WarningKind::SlowClearValue => "slow_clear_value",
            WarningKind::ClearForWrite => "clear_for_write",
            WarningKind::MsaaStored => "msaa_stored",
        }
    }
}

impl WarningKind {
    /// The switch that avoids what the warning is about, where one does.
    pub fn remedy(self) -> Option<Remedy> {
        match self {
            WarningKind::ClearForWrite => Some(Remedy::DontCare),
            WarningKind::SlowClearValue | WarningKind::MsaaStored => None,
        }
    }
}

/// A switch that warnings and advice point to. The reports name it as the Rust API does
/// ([`rust_api`](Self::rust_api)) unless the plan is given other names
/// ([`CompiledGraph::name_remedies`](crate::CompiledGraph::name_remedies)), e.g. a command
/// line's flags.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Remedy {
    /// Handing over `wgpu::LoadOpDontCare`: `write` accesses load `DontCare`.
    DontCare,
}

impl Remedy {
    /// How the Rust API does it, as a phrase of a sentence.
    pub fn rust_api(self) -> &'static str {
        match self {
            Remedy::DontCare => {
                "handing over wgpu::LoadOpDontCare with CompileOptions::with_dont_care"
            }
        }
    }
}

/// Something that costs bandwidth or time and could be avoided. Never an error.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct Warning {
    /// What it is about.
    pub kind: WarningKind,
    /// The pass involved.
    pub pass: Option<PassId>,
    /// The resource involved.
    pub resource: Option<ResourceId>,
    /// The clear value involved (for `SlowClearValue`).
    pub clear: Option<ClearValue>,
}

/// A read and the write it depends on: `to` reads the version of `resource`'s subresource `sub`
/// that `from` wrote.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct Dependency {
    /// The writing pass; `None` for an import's preserved contents.
    pub from: Option<PassId>,
    /// The reading pass (possibly culled).
    pub to: PassId,
    /// The resource read.
    pub resource: ResourceId,
    /// The subresource read (mip 0 of layer 0 for buffers).
    pub sub: Subresource,
    /// How `to` reads it: an attachment's `read` or `read_write`, or a list (`sample`,
    /// `input`, `storage_read`, `copy_src`, ...).
    pub access: super::DependencyAccess,
}

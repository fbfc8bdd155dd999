//! The compiled plan: what the compiler decided, in a form the executor and the reports read.

use std::sync::{Arc, OnceLock};

mod requirements;

pub(crate) use requirements::{Shortfall, color_bytes_per_sample};

use crate::ids::{GroupId, PhysicalId};
use crate::options::CompileOptions;
use crate::resource::{
    Access, AttachmentDecl, ClearValue, ListAccess, PassDecl, PassId, PassKind, ResourceDecl,
    ResourceId, ResourceKind, Subresource,
};
use crate::tile::{TileAttachment, TileFit, TileProfile, TileShape, resolves_through_2d};

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

impl LoadReason {
    /// The reason as a sentence about `resource`, naming passes through `pass_name`.
    pub fn describe(self, pass_name: impl Fn(PassId) -> String) -> String {
        match self {
            LoadReason::Cleared => "the pass clears it".into(),
            LoadReason::Overwritten => {
                "the pass overwrites every pixel (`write`): prior contents are not needed".into()
            }
            LoadReason::ContentsNeeded { writer: Some(p) } => format!(
                "the pass needs the prior contents, written by `{}`",
                pass_name(p)
            ),
            LoadReason::ContentsNeeded { writer: None } => {
                "the pass needs the prior contents, preserved from before the frame".into()
            }
            LoadReason::NoContents => {
                "the pass reads prior contents that nothing wrote: it starts from the clear value"
                    .into()
            }
        }
    }
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

impl StoreReason {
    /// The reason as a sentence, naming passes through `pass_name`.
    pub fn describe(self, pass_name: impl Fn(PassId) -> String) -> String {
        match self {
            StoreReason::ReadLater { reader } => {
                format!("`{}` reads the contents later", pass_name(reader))
            }
            StoreReason::KeptImport => "the import's contents are kept after the frame".into(),
            StoreReason::NotNeeded => "nothing reads the contents after the group".into(),
            StoreReason::NothingWritten => {
                "no pass of the group writes it (read-only depth)".into()
            }
            StoreReason::Naive => "the naive plan stores every attachment".into(),
        }
    }
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
pub enum GroupBoundary {
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

impl GroupBoundary {
    /// The reason as a sentence about the next pass.
    pub fn describe(self) -> &'static str {
        match self {
            GroupBoundary::NotRender => "this or the next pass is a compute or copy pass",
            GroupBoundary::SamplesGroupOutput => {
                "the next pass reads in a shader what this group wrote, so it must reach memory first"
            }
            GroupBoundary::InputsGroupOutput => {
                "the next pass reads this group's output at the same pixel; it would stay on tile with framebuffer fetch, which wgpu lacks"
            }
            GroupBoundary::AttachmentsDiffer => {
                "the next pass attaches other subresources (or another size or sample count)"
            }
            GroupBoundary::ClearsGroupAttachment => {
                "the next pass clears an attachment, and a clear can only start a render pass"
            }
            GroupBoundary::Resolve => {
                "this group resolves its multisampled attachments; drawing after the resolve would change it"
            }
            GroupBoundary::StorageHazard => {
                "the next pass writes storage this group already accessed; draws in one render pass have no barrier between them"
            }
            GroupBoundary::WritesBoundTexture => {
                "the next pass writes, as depth or resolve target, a texture this group binds for reading"
            }
            GroupBoundary::MergingDisabled => "merging is switched off",
            GroupBoundary::EndOfGraph => "this group holds the last live pass",
        }
    }

    /// The plan's name of the reason.
    pub fn as_str(self) -> &'static str {
        match self {
            GroupBoundary::NotRender => "not_render",
            GroupBoundary::SamplesGroupOutput => "samples_group_output",
            GroupBoundary::InputsGroupOutput => "inputs_group_output",
            GroupBoundary::AttachmentsDiffer => "attachments_differ",
            GroupBoundary::ClearsGroupAttachment => "clears_group_attachment",
            GroupBoundary::Resolve => "resolve",
            GroupBoundary::StorageHazard => "storage_hazard",
            GroupBoundary::WritesBoundTexture => "writes_bound_texture",
            GroupBoundary::MergingDisabled => "merging_disabled",
            GroupBoundary::EndOfGraph => "end_of_graph",
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
    pub boundary: GroupBoundary,
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

impl NeededBy {
    /// The plan's spelling: the reader's name, `import:NAME` or `side_effects`.
    pub fn describe(
        self,
        pass_name: impl Fn(PassId) -> String,
        resource_name: impl Fn(ResourceId) -> String,
    ) -> String {
        match self {
            NeededBy::Reader(p) => pass_name(p),
            NeededBy::KeptImport(r) => format!("import:{}", resource_name(r)),
            NeededBy::SideEffects => "side_effects".into(),
        }
    }
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

    /// Why, as a sentence naming passes and resources.
    pub fn describe(
        &self,
        pass_name: impl Fn(PassId) -> String,
        resource_name: impl Fn(ResourceId) -> String,
    ) -> String {
        let list = |passes: &[PassId]| {
            passes
                .iter()
                .map(|&p| format!("`{}`", pass_name(p)))
                .collect::<Vec<_>>()
                .join(", ")
        };
        match self {
            Restructuring::Moved {
                joins,
                ahead,
                after,
                saved_bytes,
                ..
            } => {
                let mut s = format!(
                    "runs in the group of `{}` (same attachments), saving {saved_bytes} attachment bytes a frame",
                    pass_name(*joins)
                );
                if !ahead.is_empty() {
                    s += &format!("; {} it depends on moved ahead of that group", list(ahead));
                }
                if !after.is_empty() {
                    s += &format!("; {} now run after it", list(after));
                }
                s
            }
            Restructuring::ResolveDropped {
                resource,
                overwritten_by: Some(next),
                ..
            } => format!(
                "nothing reads what it resolves into `{}` before `{}` overwrites it",
                resource_name(*resource),
                pass_name(*next)
            ),
            Restructuring::ResolveDropped { resource, .. } => format!(
                "nothing reads what it resolves into `{}`, and the frame does not keep it",
                resource_name(*resource)
            ),
            Restructuring::CopyFolded {
                into,
                source,
                target,
                ..
            } => format!(
                "only this copy reads `{}`, so `{}` resolves straight into `{}`",
                resource_name(*source),
                pass_name(*into),
                resource_name(*target)
            ),
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
    pub fps: u32,
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
}

/// Bytes of a whole resource: every mip and layer of a texture × samples, a buffer's size.
/// Saturates instead of overflowing.
fn resource_bytes(kind: ResourceKind) -> u64 {
    match kind {
        ResourceKind::Texture(t) => (0..t.mips)
            .map(|mip| {
                t.subresource_bytes(mip)
                    .unwrap_or(u64::MAX)
                    .saturating_mul(u64::from(t.layers))
            })
            .fold(0, u64::saturating_add),
        ResourceKind::Buffer(b) => b.size,
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
    /// How `to` reads it: `read_write`, `read`, `sample`, `input`, `storage_read`,
    /// `storage_read_write` or `copy_src`.
    pub access: &'static str,
}

/// What the dependency list is built from when first asked for: the compile's versions, kept
/// as they were traced (most plans are executed, never listed).
#[derive(Debug, Clone, Default)]
pub(crate) struct Reads {
    /// Per version: the pass that wrote it (`None`: an import's preserved contents).
    pub writer: Vec<Option<PassId>>,
    /// Per version: its subresource, an index into the graph's subresource space.
    pub sub_of: Vec<u32>,
    /// Versions each pass reads: `reads[read_start[p]..read_start[p + 1]]`.
    pub read_start: Vec<u32>,
    pub reads: Vec<u32>,
    /// Per read: the resource and how the pass reads it.
    pub read_how: Vec<(ResourceId, ReadHow)>,
    /// Per resource: its first subresource index; its mip count.
    pub sub_base: Vec<u32>,
    pub sub_mips: Vec<u32>,
}

impl Reads {
    /// Every read of every declared pass with the pass that wrote the version it sees.
    fn dependencies(&self) -> Vec<Dependency> {
        let mut deps = Vec::with_capacity(self.reads.len());
        for (p, range) in self.read_start.windows(2).enumerate() {
            let range = range[0] as usize..range[1] as usize;
            for (&version, &(resource, access)) in
                self.reads[range.clone()].iter().zip(&self.read_how[range])
            {
                let version = version as usize;
                let r = resource.index();
                let offset = self.sub_of[version] - self.sub_base[r];
                deps.push(Dependency {
                    from: self.writer[version],
                    to: PassId::new(p),
                    resource,
                    sub: Subresource {
                        mip: offset % self.sub_mips[r],
                        layer: offset / self.sub_mips[r],
                    },
                    access: access.as_str(),
                });
            }
        }
        deps
    }
}

/// How a pass reads a version: through an attachment or a list.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ReadHow {
    Attachment(Access),
    List(ListAccess),
}

impl ReadHow {
    /// The access's name in the description.
    fn as_str(self) -> &'static str {
        match self {
            ReadHow::Attachment(a) => a.as_str(),
            ReadHow::List(a) => a.as_str(),
        }
    }
}

/// Bytes of one subresource of a declared resource (a buffer: its size).
pub(crate) fn subresource_bytes(decl: &ResourceDecl, sub: Subresource) -> u64 {
    match decl.kind {
        ResourceKind::Texture(t) => t
            .subresource_bytes(sub.mip)
            .expect("validated textures count their bytes"),
        ResourceKind::Buffer(b) => b.size,
    }
}

/// Attachment bytes the groups move: a load, a store, a resolve each move one subresource, of
/// `bytes(resource, subresource)`. `None` beyond `u64`.
pub(crate) fn attachment_bytes(
    groups: &[Group],
    bytes: impl Fn(ResourceId, Subresource) -> u64,
) -> Option<u64> {
    let mut total = 0u64;
    for a in groups.iter().flat_map(Group::attachments) {
        let moved = u64::from(a.load == LoadOp::Load) + u64::from(a.store == StoreOp::Store);
        if moved > 0 {
            total = total.checked_add(bytes(a.resource, a.sub).checked_mul(moved)?)?;
        }
        if let Some(t) = a.resolve {
            total = total.checked_add(bytes(t, Subresource::BASE))?;
        }
    }
    Some(total)
}

/// What the naive plan needs of the compiled versions: per attachment slot of every pass (slots of
/// pass `p` at `loaded[start[p]..start[p + 1]]`), `None` when the slot finds no contents, else the
/// pass that wrote them (`None` inside: an import's preserved contents).
#[derive(Debug, Clone, Default)]
pub(crate) struct NaiveSources {
    pub start: Vec<u32>,
    pub loaded: Vec<Option<Option<PassId>>>,
}

impl NaiveSources {
    pub(crate) fn of(&self, p: PassId, slot: usize) -> Option<Option<PassId>> {
        self.loaded[self.start[p.index()] as usize + slot]
    }
}

/// One attachment of the naive plan ([guide](crate::guide#traffic-model)): `clear` where the pass
/// clears (or reads contents nothing wrote: a load would read whatever the texture last held),
/// `load` otherwise, `store` always; a depth the pass only reads, with contents, is attached
/// read-only (wgpu cannot sample a depth the pass may write) and its store still counts.
pub(crate) fn naive_attachment(
    a: AttachmentDecl,
    decl: &ResourceDecl,
    loaded: Option<Option<PassId>>,
) -> AttachmentPlan {
    let load = if naive_loads(a.access, loaded) {
        LoadOp::Load
    } else {
        LoadOp::Clear(a.clear_value(decl))
    };
    let load_reason = match (a.access, loaded) {
        (Access::Clear, _) => LoadReason::Cleared,
        (Access::Write, _) => LoadReason::Overwritten,
        (_, Some(writer)) => LoadReason::ContentsNeeded { writer },
        (_, None) => LoadReason::NoContents,
    };
    AttachmentPlan {
        resource: a.resource,
        sub: a.sub,
        load,
        store: StoreOp::Store,
        resolve: a.resolve,
        read_only: a.is_depth && a.access == Access::Read && loaded.is_some(),
        load_reason,
        store_reason: StoreReason::Naive,
    }
}

/// Whether the naive plan loads an attachment of this access that finds `loaded` (see
/// [`naive_attachment`]); otherwise it clears.
pub(crate) fn naive_loads(access: Access, loaded: Option<Option<PassId>>) -> bool {
    match access {
        Access::Clear => false,
        Access::Write => true,
        Access::Read | Access::ReadWrite => loaded.is_some(),
    }
}

/// The naive plan's attachments of pass `p`, in slot order.
pub(crate) fn naive_attachments<'p>(
    pass: &'p PassDecl,
    p: PassId,
    resources: &'p [ResourceDecl],
    sources: &'p NaiveSources,
) -> impl Iterator<Item = AttachmentPlan> + 'p {
    pass.attachments().enumerate().map(move |(slot, a)| {
        naive_attachment(a, &resources[a.resource.index()], sources.of(p, slot))
    })
}

/// The compiled frame: every decision, ready to execute, serialize or explain.
#[derive(Debug, Clone)]
pub struct CompiledGraph {
    pub(crate) fingerprint: u128,
    pub(crate) options: CompileOptions,
    pub(crate) pass_decls: Arc<Vec<PassDecl>>,
    pub(crate) resource_decls: Arc<Vec<ResourceDecl>>,
    pub(crate) passes: Vec<PassPlan>,
    pub(crate) groups: Vec<Group>,
    /// Live passes in execution order.
    pub(crate) order: Vec<PassId>,
    pub(crate) restructure: Vec<Restructuring>,
    /// The plan of the declared order, compiled when first asked for (only when restructuring
    /// changed something).
    pub(crate) declared: OnceLock<Box<CompiledGraph>>,
    /// Built from `naive_sources` when first asked for.
    pub(crate) naive_groups: OnceLock<Vec<Group>>,
    pub(crate) naive_sources: NaiveSources,
    pub(crate) resources: Vec<ResourcePlan>,
    pub(crate) physical: Vec<PhysicalResource>,
    pub(crate) traffic: Traffic,
    pub(crate) warnings: Vec<Warning>,
    /// Built from `reads` when first asked for.
    pub(crate) dependencies: OnceLock<Vec<Dependency>>,
    pub(crate) reads: Reads,
}

impl CompiledGraph {
    /// Fingerprint of the graph this plan was compiled from.
    pub fn fingerprint(&self) -> u128 {
        self.fingerprint
    }

    /// The options the plan was compiled with. The plan holds `LoadOp::DontCare` only when
    /// `options().dont_care` carries the caller's token, which the executor hands on to wgpu.
    pub fn options(&self) -> &CompileOptions {
        &self.options
    }

    /// Per declared pass: culled or its group.
    pub fn passes(&self) -> &[PassPlan] {
        &self.passes
    }

    /// Groups in execution order.
    pub fn groups(&self) -> &[Group] {
        &self.groups
    }

    /// Live passes in execution order (folded copies are not among them).
    pub fn order(&self) -> &[PassId] {
        &self.order
    }

    /// What restructuring changed, in the order it decided ([guide](crate::guide#restructuring)):
    /// empty for a plan of the declared order.
    pub fn restructuring(&self) -> &[Restructuring] {
        &self.restructure
    }

    /// The naive plan ([guide](crate::guide#traffic-model)): every live pass its own group,
    /// `clear` where declared, `load` otherwise, `store` always. The executor's `Naive` mode
    /// records exactly these groups.
    pub fn naive_groups(&self) -> &[Group] {
        self.naive_groups.get_or_init(|| {
            let live = self.passes.iter().filter(|p| !p.culled).count();
            let mut groups: Vec<Group> = Vec::with_capacity(live);
            for (p, pass) in self.pass_decls.iter().enumerate() {
                if self.passes[p].culled {
                    continue;
                }
                let pid = PassId::new(p);
                let mut attachments =
                    naive_attachments(pass, pid, &self.resource_decls, &self.naive_sources);
                groups.push(Group {
                    kind: pass.kind,
                    passes: vec![pid],
                    color: attachments.by_ref().take(pass.color_slot_count()).collect(),
                    depth: attachments.next(),
                    depth_views: attachments.collect(),
                    multiview: pass.multiview,
                    color_bytes_per_sample: color_bytes_per_sample(pass.color.iter().filter_map(
                        |c| match self.resource_decls[c.resource.index()].kind {
                            ResourceKind::Texture(t) => Some(t.format),
                            ResourceKind::Buffer(_) => None,
                        },
                    )),
                    boundary: GroupBoundary::MergingDisabled,
                });
            }
            if let Some(last) = groups.last_mut() {
                last.boundary = GroupBoundary::EndOfGraph;
            }
            groups
        })
    }

    /// Per declared resource: lifetime, transient, physical index, usage.
    pub fn resources(&self) -> &[ResourcePlan] {
        &self.resources
    }

    /// Pooled physical textures and buffers.
    pub fn physical(&self) -> &[PhysicalResource] {
        &self.physical
    }

    /// Attachment traffic, planned and naive.
    pub fn traffic(&self) -> &Traffic {
        &self.traffic
    }

    /// Memory of the plan's resources: allocated each on its own, pooled, and memoryless
    /// ([guide](crate::guide#will-it-fit-the-tile)). A model, at the traffic model's texel sizes.
    pub fn memory(&self) -> Memory {
        let declared = self
            .resources
            .iter()
            .zip(self.resource_decls.iter())
            .filter(|(plan, decl)| !plan.culled && decl.import.is_none())
            .map(|(_, decl)| resource_bytes(decl.kind))
            .fold(0, u64::saturating_add);
        let (mut allocated, mut transient) = (0u64, 0u64);
        for p in &self.physical {
            let bytes = resource_bytes(p.kind);
            allocated = allocated.saturating_add(bytes);
            if let ResourceUsage::Texture(u) = p.usage
                && u.contains(wgpu::TextureUsages::TRANSIENT_ATTACHMENT)
            {
                transient = transient.saturating_add(bytes);
            }
        }
        Memory {
            declared_bytes: declared,
            allocated_bytes: allocated,
            transient_bytes: transient,
        }
    }

    /// How a group fares on a tile profile ([guide](crate::guide#will-it-fit-the-tile)), whether
    /// or not the plan was compiled to report it: `None` for compute and copy groups. A model.
    pub fn tile_fit(&self, group: GroupId, profile: TileProfile) -> Option<TileFit> {
        self.tile_shape(&self.groups[group.index()])
            .map(|shape| shape.fit(profile))
    }

    /// How a group fares on each profile the plan was compiled to report
    /// ([`CompileOptions::with_tile_profiles`]), in the order of [`TileProfile::all`]: empty for
    /// compute and copy groups, and when no profile was asked for.
    pub fn tile_fits(&self, group: GroupId) -> Vec<TileFit> {
        let profiles = self.options.tile_set();
        if profiles.is_empty() {
            return Vec::new();
        }
        match self.tile_shape(&self.groups[group.index()]) {
            Some(shape) => profiles.iter().map(|p| shape.fit(p)).collect(),
            None => Vec::new(),
        }
    }

    /// Attachment bytes the group's ops save a frame against loading and storing every
    /// attachment of the group ([guide](crate::guide#will-it-fit-the-tile)): each attachment not
    /// loaded (cleared, `dont_care`) and each store discarded, at its subresource's bytes
    /// (read-only depth, never written, saves nothing). What a tiler saves by the plan's ops; a
    /// group the driver renders straight to memory realises none of it. 0 for compute and copy
    /// groups; saturates.
    pub fn ops_saved_bytes(&self, group: GroupId) -> u64 {
        self.groups[group.index()]
            .attachments()
            .map(|a| {
                let skipped =
                    u64::from(a.load != LoadOp::Load) + u64::from(a.store == StoreOp::Discard);
                subresource_bytes(&self.resource_decls[a.resource.index()], a.sub)
                    .saturating_mul(skipped)
            })
            .fold(0, u64::saturating_add)
    }

    /// A render group as the tile profiles count it: its render area, one view's colour slots,
    /// its depth, and whether a transient attachment is among them.
    fn tile_shape(&self, group: &Group) -> Option<TileShape> {
        if group.kind != PassKind::Render {
            return None;
        }
        let texture = |a: &AttachmentPlan| match self.resource_decls[a.resource.index()].kind {
            ResourceKind::Texture(t) => Some(t),
            ResourceKind::Buffer(_) => None,
        };
        let attachment = |a: &AttachmentPlan| {
            texture(a).map(|t| TileAttachment {
                format: t.format,
                samples: t.samples,
            })
        };
        let first = group.attachments().next()?;
        let (width, height) = texture(first)?.mip_size(first.sub.mip);
        let views = group.views();
        Some(TileShape {
            width,
            height,
            views,
            // Colour attachments hold each slot's views together.
            color: group
                .color
                .iter()
                .step_by(views as usize)
                .filter_map(attachment)
                .collect(),
            depth: group.depth.as_ref().and_then(attachment),
            memoryless: group
                .attachments()
                .any(|a| self.resources[a.resource.index()].transient),
            resolves_through_2d: group.color.iter().any(|a| {
                a.resolve.is_some() && texture(a).is_some_and(|t| resolves_through_2d(t.format))
            }),
        })
    }

    /// Avoidable costs found in the plan.
    pub fn warnings(&self) -> &[Warning] {
        &self.warnings
    }

    /// Every read of every declared pass (culled ones included) with the write it sees.
    pub fn dependencies(&self) -> &[Dependency] {
        self.dependencies.get_or_init(|| self.reads.dependencies())
    }

    /// Name of a declared pass.
    pub fn pass_name(&self, pass: PassId) -> &str {
        &self.pass_decls[pass.index()].name
    }

    /// Type of a declared pass.
    pub fn pass_kind(&self, pass: PassId) -> PassKind {
        self.pass_decls[pass.index()].kind
    }

    /// Declaration of a pass: every access it made.
    pub fn pass_decl(&self, pass: PassId) -> &PassDecl {
        &self.pass_decls[pass.index()]
    }

    /// Declarations of every pass, in declaration order.
    pub fn pass_decls(&self) -> &[PassDecl] {
        &self.pass_decls
    }

    /// Declaration of a resource.
    pub fn resource_decl(&self, resource: ResourceId) -> &ResourceDecl {
        &self.resource_decls[resource.index()]
    }

    /// Declarations of every resource, in declaration order.
    pub fn resource_decls(&self) -> &[ResourceDecl] {
        &self.resource_decls
    }

    /// Name of a declared resource.
    pub fn resource_name(&self, resource: ResourceId) -> &str {
        &self.resource_decls[resource.index()].name
    }

    /// The id of the pass named `name`.
    pub fn pass_by_name(&self, name: &str) -> Option<PassId> {
        self.pass_decls
            .iter()
            .position(|p| &*p.name == name)
            .map(PassId::new)
    }

    /// The id of the resource named `name`.
    pub fn resource_by_name(&self, name: &str) -> Option<ResourceId> {
        self.resource_decls
            .iter()
            .position(|r| &*r.name == name)
            .map(ResourceId::new)
    }

    /// A plan's group.
    pub fn group(&self, group: GroupId) -> &Group {
        &self.groups[group.index()]
    }
}

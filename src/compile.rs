//! Compile: from the declared graph to the plan. Pure CPU, no device.
//!
//! `compile` (private) is the whole compiler on one screen: each step is a function named after what it
//! decides, and data flows one way through them.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};
use std::hash::{BuildHasherDefault, Hasher};

use crate::hash::FastHasher;

use wgpu::{BufferUsages, TextureUsages};

use crate::declare::{
    Access, ClearValue, PassDecl, PassId, PassKind, RenderGraph, ResourceDecl, ResourceId,
    ResourceKind,
};
use crate::error::GraphError;
use crate::format::{is_depth_stencil, is_renderable, texel_bytes};
use crate::plan::{
    AttachmentPlan, CompiledGraph, Dependency, Group, GroupBoundary, LoadOp, PassPlan,
    PhysicalResource, ResourcePlan, ResourceUsage, StoreOp, Traffic, Warning, WarningKind,
};

/// What the compiler may do. Every optimisation has a switch, so a suspected miscompile can be
/// bisected and a plan compared against the one without it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct CompileOptions {
    /// The caller's promise that `write` accesses really overwrite every pixel: they then load
    /// `DontCare` instead of clearing. `None` (the default) clears.
    pub dont_care: Option<wgpu::LoadOpDontCare>,
    /// Frame rate of the per-second traffic figures.
    pub fps: u32,
    /// Cull passes whose results nobody uses.
    pub cull: bool,
    /// Merge compatible render passes into one group.
    pub merge: bool,
    /// Mark textures that live only on tile as `TRANSIENT_ATTACHMENT`.
    pub transient: bool,
    /// Share physical textures between resources whose lifetimes do not overlap.
    pub alias: bool,
}

impl Default for CompileOptions {
    fn default() -> Self {
        CompileOptions {
            dont_care: None,
            fps: 60,
            cull: true,
            merge: true,
            transient: true,
            alias: true,
        }
    }
}

impl CompileOptions {
    /// Lets `write` accesses load `DontCare`.
    pub fn with_dont_care(mut self, token: wgpu::LoadOpDontCare) -> Self {
        self.dont_care = Some(token);
        self
    }

    /// Switches culling of unused passes on or off.
    pub fn with_cull(mut self, on: bool) -> Self {
        self.cull = on;
        self
    }

    /// Switches merging of render passes on or off.
    pub fn with_merge(mut self, on: bool) -> Self {
        self.merge = on;
        self
    }

    /// Switches transient (memoryless) textures on or off.
    pub fn with_transient(mut self, on: bool) -> Self {
        self.transient = on;
        self
    }

    /// Switches sharing of physical textures on or off.
    pub fn with_alias(mut self, on: bool) -> Self {
        self.alias = on;
        self
    }

    /// Sets the frame rate of the per-second figures.
    pub fn with_fps(mut self, fps: u32) -> Self {
        self.fps = fps;
        self
    }
}

impl RenderGraph<'_> {
    /// Compiles the graph in full. See [`PlanCache`](crate::PlanCache) to reuse a plan across frames.
    pub fn compile(&self, options: &CompileOptions) -> Result<CompiledGraph, GraphError> {
        compile(self, options)
    }
}

/// The compiler pipeline.
pub(crate) fn compile(
    graph: &RenderGraph<'_>,
    options: &CompileOptions,
) -> Result<CompiledGraph, GraphError> {
    let res = &graph.resources;
    let passes = &graph.passes;
    let bytes = validate(graph)?;
    let versions = trace_versions(res, passes)?;
    let live = find_live_passes(passes, &versions, options);
    let groups = form_groups(res.len(), passes, &versions, &live, options);
    let group_of = group_of_pass(passes.len(), &groups);
    let needed_after = version_reader_groups(passes, &versions, &live, &group_of);
    let mut planned = infer_attachment_ops(res, passes, groups, &versions, &needed_after, options);
    let naive = naive_groups(res, passes, &live);
    let mut plans = resource_lifetimes_and_usage(res, passes, &live, &group_of);
    mark_transients(res, &mut plans, &mut planned, options);
    let physical = plan_physical_resources(res, &mut plans, options);
    let traffic = measure_traffic(passes, &planned, &naive, &live, &bytes, options.fps)?;
    let warnings = collect_warnings(res, passes, &planned, options);
    let dependencies = list_dependencies(passes.len(), &versions);
    log::debug!(
        "compiled {} passes ({} culled) into {} groups: {} attachment bytes a frame, naive {}",
        passes.len(),
        live.iter().filter(|&&l| !l).count(),
        planned.len(),
        traffic.bytes_per_frame,
        traffic.naive_bytes_per_frame
    );
    Ok(CompiledGraph {
        fingerprint: graph.fingerprint(),
        options: *options,
        pass_names: passes.iter().map(|p| p.name.clone()).collect(),
        pass_kinds: passes.iter().map(|p| p.kind).collect(),
        resource_decls: res.clone(),
        passes: live
            .iter()
            .zip(&group_of)
            .map(|(&l, &g)| PassPlan {
                culled: !l,
                group: g,
            })
            .collect(),
        groups: planned,
        naive_groups: naive,
        resources: plans,
        physical,
        traffic,
        warnings,
        dependencies,
    })
}

type FastMap<K, V> = HashMap<K, V, BuildHasherDefault<FastHasher>>;

// ---------------------------------------------------------------------------------------------
// Step 1: validate the whole declared graph (culled passes included).

/// Valid MSAA sample counts.
const SAMPLE_COUNTS: [u32; 5] = [1, 2, 4, 8, 16];
/// wgpu's cap on colour attachments.
const MAX_COLOR_ATTACHMENTS: usize = 8;

/// How a pass uses a resource, for the one-resource-one-use checks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Use {
    Attachment { writes: bool },
    Resolve,
    Sample,
    Input,
    StorageRead,
    StorageWrite,
    StorageReadWrite,
    CopySrc,
    CopyDst,
}

impl Use {
    fn writes(self) -> bool {
        matches!(
            self,
            Use::Attachment { writes: true }
                | Use::Resolve
                | Use::StorageWrite
                | Use::StorageReadWrite
                | Use::CopyDst
        )
    }

    fn name(self) -> &'static str {
        match self {
            Use::Attachment { .. } => "an attachment",
            Use::Resolve => "a resolve target",
            Use::Sample => "a sampled texture",
            Use::Input => "an input",
            Use::StorageRead => "storage_read",
            Use::StorageWrite => "storage_write",
            Use::StorageReadWrite => "storage_read_write",
            Use::CopySrc => "a copy source",
            Use::CopyDst => "a copy destination",
        }
    }
}

/// Checks everything but reads before writes; returns each resource's byte size (DESIGN §5's
/// `bytes(R)`, checked u64; buffers count their size).
fn validate(graph: &RenderGraph<'_>) -> Result<Vec<u64>, GraphError> {
    if let Some((pass, resource)) = &graph.foreign_handle {
        return Err(GraphError::UnknownResource {
            pass: pass.to_string(),
            resource: resource.clone(),
        });
    }
    if graph.passes.is_empty() {
        return Err(GraphError::invalid("the graph declares no passes"));
    }
    check_unique_names(
        graph.resources.iter().map(|r| &*r.name),
        graph.resources.len(),
        "resource",
    )?;
    check_unique_names(
        graph.passes.iter().map(|p| &*p.name),
        graph.passes.len(),
        "pass",
    )?;
    let bytes = graph
        .resources
        .iter()
        .map(validate_resource)
        .collect::<Result<Vec<_>, _>>()?;
    // What each texture can be attached as, worked out once per resource, not once per use.
    let attachable: Vec<Attachable> = graph
        .resources
        .iter()
        .map(|r| match r.kind {
            ResourceKind::Texture(t) if is_depth_stencil(t.format) => Attachable::Depth,
            ResourceKind::Texture(t) if is_renderable(t.format) => Attachable::Color,
            _ => Attachable::Neither,
        })
        .collect();
    let mut uses = Vec::new();
    let mut seen_in_pass = vec![0u32; graph.resources.len()];
    for (p, pass) in graph.passes.iter().enumerate() {
        let stamp = p as u32 + 1;
        validate_pass(
            &graph.resources,
            &attachable,
            pass,
            stamp,
            &mut seen_in_pass,
            &mut uses,
        )?;
    }
    Ok(bytes)
}

/// Names go into an open-addressing table of (hash, index) sized to a power of two: no string is
/// copied and equal hashes are confirmed by comparing the names. The first repeat in declaration
/// order is reported.
fn check_unique_names<'n>(
    names: impl Iterator<Item = &'n str> + Clone,
    count: usize,
    what: &'static str,
) -> Result<(), GraphError> {
    let capacity = (count * 2).next_power_of_two().max(16);
    let mask = capacity - 1;
    let mut table: Vec<(u64, u32)> = vec![(0, u32::MAX); capacity];
    let all: Vec<&str> = names.collect();
    for (i, &name) in all.iter().enumerate() {
        if name.is_empty() {
            return Err(GraphError::invalid(format!("a {what} has an empty name")));
        }
        let mut h = FastHasher::default();
        h.write(name.as_bytes());
        let hash = h.finish();
        let mut slot = (hash as usize) & mask;
        loop {
            let (stored, index) = table[slot];
            if index == u32::MAX {
                table[slot] = (hash, i as u32);
                break;
            }
            if stored == hash && all[index as usize] == name {
                return Err(GraphError::DuplicateName {
                    what,
                    name: name.to_owned(),
                });
            }
            slot = (slot + 1) & mask;
        }
    }
    Ok(())
}

fn validate_resource(r: &ResourceDecl) -> Result<u64, GraphError> {
    let name = &*r.name;
    let invalid = |what: String| GraphError::invalid(format!("resource `{name}`: {what}"));
    match r.kind {
        ResourceKind::Buffer(b) => {
            if b.size == 0 {
                return Err(invalid("buffer size must be at least 1 byte".into()));
            }
            if r.clear.is_some() {
                return Err(GraphError::FormatMismatch {
                    pass: None,
                    resource: name.to_owned(),
                    message: "a buffer has no clear value".into(),
                });
            }
            Ok(b.size)
        }
        ResourceKind::Texture(t) => {
            if t.width == 0 || t.height == 0 || t.layers == 0 {
                return Err(invalid(format!(
                    "size {}x{}x{} has a zero dimension",
                    t.width, t.height, t.layers
                )));
            }
            if !SAMPLE_COUNTS.contains(&t.samples) {
                return Err(invalid(format!(
                    "sample count {} is not one of 1, 2, 4, 8, 16",
                    t.samples
                )));
            }
            let max_mips = 32 - t.width.max(t.height).leading_zeros();
            if t.mips == 0 || t.mips > max_mips {
                return Err(invalid(format!(
                    "{} mips; a {}x{} texture has 1 to {max_mips}",
                    t.mips, t.width, t.height
                )));
            }
            if t.samples > 1 && (t.mips > 1 || t.layers > 1) {
                return Err(invalid(
                    "a multisampled texture has one mip and one layer".into(),
                ));
            }
            if let Some(clear) = r.clear {
                check_clear_fits(None, name, t.format, clear)?;
            }
            let texel = texel_size(name, t.format)?;
            let (bw, bh) = t.format.block_dimensions();
            [
                u64::from(t.width.div_ceil(bw)),
                u64::from(t.height.div_ceil(bh)),
                u64::from(t.layers),
                u64::from(t.samples),
            ]
            .into_iter()
            .try_fold(texel, u64::checked_mul)
            .ok_or_else(|| {
                invalid(format!(
                    "{}x{}x{} texels overflow a 64-bit byte count",
                    t.width, t.height, t.layers
                ))
            })
        }
    }
}

/// Bytes of one texel, or of one block for block-compressed formats.
fn texel_size(name: &str, format: wgpu::TextureFormat) -> Result<u64, GraphError> {
    texel_bytes(format)
        .or_else(|| format.block_copy_size(None).map(u64::from))
        .ok_or_else(|| GraphError::FormatMismatch {
            pass: None,
            resource: name.to_owned(),
            message: format!("format {format:?} is not supported (planar or aspect-less)"),
        })
}

fn check_clear_fits(
    pass: Option<&str>,
    name: &str,
    format: wgpu::TextureFormat,
    clear: ClearValue,
) -> Result<(), GraphError> {
    let message = match clear {
        ClearValue::Color(c) if is_depth_stencil(format) => Some(format!(
            "colour clear value {c:?} for depth format {format:?}"
        )),
        ClearValue::Color(c) if c.iter().any(|v| !v.is_finite()) => {
            Some(format!("clear value {c:?} is not finite"))
        }
        ClearValue::Depth(_) | ClearValue::DepthStencil { .. } if !is_depth_stencil(format) => {
            Some(format!("depth clear value for colour format {format:?}"))
        }
        ClearValue::Depth(d) | ClearValue::DepthStencil { depth: d, .. }
            if !(0.0..=1.0).contains(&d) =>
        {
            Some(format!("depth clear value {d} is outside 0..=1"))
        }
        ClearValue::DepthStencil { stencil, .. }
            if stencil != 0 && !format.has_stencil_aspect() =>
        {
            Some(format!(
                "stencil clear value {stencil} for {format:?}, which has no stencil"
            ))
        }
        _ => None,
    };
    match message {
        None => Ok(()),
        Some(message) => Err(GraphError::FormatMismatch {
            pass: pass.map(str::to_owned),
            resource: name.to_owned(),
            message,
        }),
    }
}

/// What a resource can be attached as.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Attachable {
    Color,
    Depth,
    Neither,
}

fn validate_pass(
    res: &[ResourceDecl],
    attachable: &[Attachable],
    pass: &PassDecl,
    stamp: u32,
    seen_in_pass: &mut [u32],
    uses: &mut Vec<(ResourceId, Use)>,
) -> Result<(), GraphError> {
    let pname = &*pass.name;
    let invalid_access =
        |resource: Option<ResourceId>, message: String| GraphError::InvalidAccess {
            pass: pname.to_owned(),
            resource: resource.map(|r| res[r as usize].name.to_string()),
            message,
        };
    // An access's own clear value is used only by a `clear` (DESIGN §2): other accesses start from
    // the resource's, so a value given there would silently do nothing.
    let check_own_clear = |r: ResourceId, access: Access| {
        if access == Access::Clear {
            Ok(())
        } else {
            Err(invalid_access(
                Some(r),
                format!(
                    "a `{}` access has its own clear value; only `clear` accesses use one (declare it on the resource)",
                    access.as_str()
                ),
            ))
        }
    };
    // Every id must name a declared resource.
    let attached = pass
        .color
        .iter()
        .flat_map(|c| [Some(c.resource), c.resolve])
        .flatten()
        .chain(pass.depth.map(|d| d.resource));
    let listed = [
        &pass.sample,
        &pass.input,
        &pass.storage_read,
        &pass.storage_write,
        &pass.storage_read_write,
        &pass.copy_src,
        &pass.copy_dst,
    ]
    .into_iter()
    .flatten()
    .copied();
    // Meanwhile note whether any resource appears twice: only then do the role checks below run.
    let mut repeated = false;
    for id in attached.chain(listed) {
        let Some(seen) = seen_in_pass.get_mut(id as usize) else {
            return Err(GraphError::UnknownResource {
                pass: pname.to_owned(),
                resource: format!("#{id}"),
            });
        };
        repeated |= *seen == stamp;
        *seen = stamp;
    }
    let name = |id: ResourceId| res[id as usize].name.to_string();
    let texture = |id: ResourceId, what: &str| match res[id as usize].kind {
        ResourceKind::Texture(t) => Ok(t),
        ResourceKind::Buffer(_) => Err(GraphError::FormatMismatch {
            pass: Some(pname.to_owned()),
            resource: name(id),
            message: format!("a buffer used as {what}"),
        }),
    };

    // The accesses a pass type allows.
    let kind_allows = |list_empty: bool, what: &str| {
        if list_empty {
            Ok(())
        } else {
            Err(invalid_access(
                None,
                format!("a {} pass cannot have {what}", pass.kind.as_str()),
            ))
        }
    };
    match pass.kind {
        PassKind::Render => {
            kind_allows(
                pass.copy_src.is_empty() && pass.copy_dst.is_empty(),
                "copy accesses",
            )?;
            if pass.color.is_empty() && pass.depth.is_none() {
                return Err(invalid_access(
                    None,
                    "a render pass needs at least one colour or depth attachment".into(),
                ));
            }
            if pass.color.len() > MAX_COLOR_ATTACHMENTS {
                return Err(invalid_access(
                    None,
                    format!(
                        "{} colour attachments; wgpu allows {MAX_COLOR_ATTACHMENTS}",
                        pass.color.len()
                    ),
                ));
            }
        }
        PassKind::Compute => {
            kind_allows(pass.color.is_empty() && pass.depth.is_none(), "attachments")?;
            kind_allows(pass.input.is_empty(), "inputs")?;
            kind_allows(
                pass.copy_src.is_empty() && pass.copy_dst.is_empty(),
                "copy accesses",
            )?;
        }
        PassKind::Copy => {
            kind_allows(pass.color.is_empty() && pass.depth.is_none(), "attachments")?;
            kind_allows(
                pass.sample.is_empty()
                    && pass.input.is_empty()
                    && pass.storage_read.is_empty()
                    && pass.storage_write.is_empty()
                    && pass.storage_read_write.is_empty(),
                "shader accesses",
            )?;
        }
    }

    // Attachments: formats, slots, one size and one sample count.
    let mut first: Option<(ResourceId, crate::declare::TextureDesc)> = None;
    let mut check_shape =
        |id: ResourceId, t: crate::declare::TextureDesc| -> Result<(), GraphError> {
            match first {
                None => first = Some((id, t)),
                Some((fid, f)) => {
                    if (f.width, f.height, f.layers) != (t.width, t.height, t.layers) {
                        return Err(GraphError::SizeMismatch {
                            pass: pname.to_owned(),
                            resource: name(id),
                            first: name(fid),
                            expected: format!("{}x{}x{}", f.width, f.height, f.layers),
                            found: format!("{}x{}x{}", t.width, t.height, t.layers),
                        });
                    }
                    if f.samples != t.samples {
                        return Err(GraphError::SampleCountMismatch {
                            pass: pname.to_owned(),
                            resource: name(id),
                            first: name(fid),
                            expected: f.samples,
                            found: t.samples,
                        });
                    }
                }
            }
            Ok(())
        };
    for c in &pass.color {
        let t = texture(c.resource, "a colour attachment")?;
        let mismatch = |message: String| GraphError::FormatMismatch {
            pass: Some(pname.to_owned()),
            resource: name(c.resource),
            message,
        };
        if attachable[c.resource as usize] == Attachable::Depth {
            return Err(mismatch(format!(
                "depth format {:?} used as a colour attachment",
                t.format
            )));
        }
        if attachable[c.resource as usize] != Attachable::Color {
            return Err(mismatch(format!(
                "format {:?} cannot be rendered to",
                t.format
            )));
        }
        if c.access == Access::Read {
            return Err(invalid_access(Some(c.resource), "`read` is for depth/stencil attachments; a colour attachment that is only read should be sampled".into()));
        }
        if let Some(clear) = c.clear {
            check_own_clear(c.resource, c.access)?;
            check_clear_fits(Some(pname), &name(c.resource), t.format, clear)?;
        }
        check_shape(c.resource, t)?;
        if let Some(target) = c.resolve {
            let tt = texture(target, "a resolve target")?;
            let resolve_err = |message: String| GraphError::ResolveMismatch {
                pass: pname.to_owned(),
                resource: name(c.resource),
                target: name(target),
                message,
            };
            if t.samples == 1 {
                return Err(resolve_err(
                    "the attachment is single-sampled; only multisampled attachments resolve"
                        .into(),
                ));
            }
            if tt.samples != 1 {
                return Err(resolve_err(format!(
                    "the target has {} samples; it must be single-sampled",
                    tt.samples
                )));
            }
            if tt.format != t.format {
                return Err(resolve_err(format!(
                    "formats differ ({:?} and {:?})",
                    t.format, tt.format
                )));
            }
            if (tt.width, tt.height, tt.layers) != (t.width, t.height, t.layers) {
                return Err(resolve_err(format!(
                    "sizes differ ({}x{}x{} and {}x{}x{})",
                    t.width, t.height, t.layers, tt.width, tt.height, tt.layers
                )));
            }
        }
    }
    if let Some(d) = &pass.depth {
        let t = texture(d.resource, "a depth attachment")?;
        if attachable[d.resource as usize] != Attachable::Depth {
            return Err(GraphError::FormatMismatch {
                pass: Some(pname.to_owned()),
                resource: name(d.resource),
                message: format!("colour format {:?} used as the depth attachment", t.format),
            });
        }
        if let Some(clear) = d.clear {
            check_own_clear(d.resource, d.access)?;
            check_clear_fits(Some(pname), &name(d.resource), t.format, clear)?;
        }
        check_shape(d.resource, t)?;
    }
    for &id in pass.sample.iter() {
        texture(id, "a sampled texture")?;
    }
    for &id in pass.input.iter() {
        texture(id, "an input")?;
    }

    // One resource, one role: a pass may not read what it writes.
    if !repeated {
        return Ok(());
    }
    uses.clear();
    for c in &pass.color {
        uses.push((c.resource, Use::Attachment { writes: true }));
        if let Some(t) = c.resolve {
            uses.push((t, Use::Resolve));
        }
    }
    if let Some(d) = &pass.depth {
        uses.push((
            d.resource,
            Use::Attachment {
                writes: d.access != Access::Read,
            },
        ));
    }
    let lists: [(&[ResourceId], Use); 7] = [
        (&pass.sample, Use::Sample),
        (&pass.input, Use::Input),
        (&pass.storage_read, Use::StorageRead),
        (&pass.storage_write, Use::StorageWrite),
        (&pass.storage_read_write, Use::StorageReadWrite),
        (&pass.copy_src, Use::CopySrc),
        (&pass.copy_dst, Use::CopyDst),
    ];
    for (list, u) in lists {
        uses.extend(list.iter().map(|&r| (r, u)));
    }
    uses.sort_unstable();
    for run in uses.chunk_by(|a, b| a.0 == b.0) {
        if run.len() < 2 {
            continue;
        }
        let id = run[0].0;
        let attached = run
            .iter()
            .filter(|(_, u)| matches!(u, Use::Attachment { .. } | Use::Resolve))
            .count();
        if attached > 1 {
            return Err(invalid_access(
                Some(id),
                "the texture fills two attachment or resolve slots of one pass".into(),
            ));
        }
        if let Some(&(_, w)) = run.iter().find(|(_, u)| u.writes())
            && let Some(&(_, other)) = run.iter().find(|(_, u)| *u != w)
        {
            return Err(GraphError::Feedback {
                pass: pname.to_owned(),
                resource: name(id),
                other: other.name(),
            });
        }
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// Step 2: versions. Every write makes a new version of a resource; every read names the version it
// sees. A pass reading a resource that has no version is a `read_before_write`.

/// Index of a version.
type VersionId = u32;

pub(crate) struct Versions {
    /// Pass that wrote each version; `None` for an import's preserved contents.
    writer: Vec<Option<PassId>>,
    /// Versions each pass reads: `reads[read_start[p]..read_start[p + 1]]`.
    read_start: Vec<u32>,
    reads: Vec<VersionId>,
    /// Per read: the resource and how the pass reads it (for the plan's dependency list).
    read_how: Vec<(ResourceId, &'static str)>,
    /// Per attachment slot (colour slots, then depth) of each pass: the version loaded (if the
    /// access reads and content exists) and the version written.
    slot_start: Vec<u32>,
    slot_read: Vec<Option<VersionId>>,
    slot_written: Vec<Option<VersionId>>,
    /// Frame-end versions of imports kept after the frame: they must reach memory.
    kept_at_end: Vec<bool>,
}

impl Versions {
    fn reads_of(&self, p: usize) -> &[VersionId] {
        &self.reads[self.read_start[p] as usize..self.read_start[p + 1] as usize]
    }

    fn slot(&self, p: PassId, slot: usize) -> usize {
        self.slot_start[p as usize] as usize + slot
    }
}

fn trace_versions(res: &[ResourceDecl], passes: &[PassDecl]) -> Result<Versions, GraphError> {
    // Sized up front: every access reads or writes at most one version.
    let slots: usize = passes
        .iter()
        .map(|p| p.color.len() + usize::from(p.depth.is_some()))
        .sum();
    let listed: usize = passes
        .iter()
        .map(|p| {
            p.color.len()
                + p.sample.len()
                + p.input.len()
                + p.storage_read.len()
                + p.storage_write.len()
                + p.storage_read_write.len()
                + p.copy_src.len()
                + p.copy_dst.len()
        })
        .sum();
    let mut v = Versions {
        writer: Vec::with_capacity(res.len() + slots + listed),
        read_start: Vec::with_capacity(passes.len() + 1),
        reads: Vec::with_capacity(slots + listed),
        read_how: Vec::with_capacity(slots + listed),
        slot_start: Vec::with_capacity(passes.len() + 1),
        slot_read: Vec::with_capacity(slots),
        slot_written: Vec::with_capacity(slots),
        kept_at_end: Vec::new(),
    };
    let mut current: Vec<Option<VersionId>> = res
        .iter()
        .map(|r| {
            r.import
                .filter(|i| i.contents == crate::declare::ImportContents::Preserved)
                .map(|_| {
                    v.writer.push(None);
                    (v.writer.len() - 1) as VersionId
                })
        })
        .collect();
    let new_version =
        |v: &mut Versions, current: &mut [Option<VersionId>], r: ResourceId, p: PassId| {
            v.writer.push(Some(p));
            let id = (v.writer.len() - 1) as VersionId;
            current[r as usize] = Some(id);
            id
        };

    for (p, pass) in passes.iter().enumerate() {
        let pid = p as PassId;
        v.read_start.push(v.reads.len() as u32);
        v.slot_start.push(v.slot_read.len() as u32);
        // Reads first: a read_write reads the prior version, then writes a new one.
        let attachments = pass
            .color
            .iter()
            .map(|c| (c.resource, c.access, c.clear))
            .chain(pass.depth.map(|d| (d.resource, d.access, d.clear)));
        for (r, access, clear) in attachments.clone() {
            let loaded = if access.reads_prior() {
                current[r as usize]
            } else {
                None
            };
            if access.reads_prior() && loaded.is_none() && clear.or(res[r as usize].clear).is_none()
            {
                return Err(GraphError::ReadBeforeWrite {
                    pass: pass.name.to_string(),
                    resource: res[r as usize].name.to_string(),
                    access: access.as_str(),
                    hint: "; declare a clear value on the resource to start from it",
                });
            }
            if let Some(version) = loaded {
                v.reads.push(version);
                v.read_how.push((r, access.as_str()));
            }
            v.slot_read.push(loaded);
        }
        let reading_lists: [(&[ResourceId], &'static str); 5] = [
            (&pass.sample, "sample"),
            (&pass.input, "input"),
            (&pass.storage_read, "storage_read"),
            (&pass.storage_read_write, "storage_read_write"),
            (&pass.copy_src, "copy_src"),
        ];
        for (list, access) in reading_lists {
            for &r in list {
                match current[r as usize] {
                    Some(version) => {
                        v.reads.push(version);
                        v.read_how.push((r, access));
                    }
                    None => {
                        return Err(GraphError::ReadBeforeWrite {
                            pass: pass.name.to_string(),
                            resource: res[r as usize].name.to_string(),
                            access,
                            hint: "; clear values apply to attachments only",
                        });
                    }
                }
            }
        }
        // Writes: every attachment access but `read` makes a version. A `read` never writes,
        // not even when its group clears a never-written depth: the clear is a load op, not
        // content, so a later reader clears again for free instead of keeping it in memory.
        for (r, access, _) in attachments {
            let written =
                (access != Access::Read).then(|| new_version(&mut v, &mut current, r, pid));
            v.slot_written.push(written);
        }
        for c in &pass.color {
            if let Some(t) = c.resolve {
                new_version(&mut v, &mut current, t, pid);
            }
        }
        for list in [
            &pass.storage_write,
            &pass.storage_read_write,
            &pass.copy_dst,
        ] {
            for &r in list {
                new_version(&mut v, &mut current, r, pid);
            }
        }
    }
    v.read_start.push(v.reads.len() as u32);
    v.slot_start.push(v.slot_read.len() as u32);
    v.kept_at_end = vec![false; v.writer.len()];
    for (r, decl) in res.iter().enumerate() {
        if decl
            .import
            .is_some_and(|i| i.after == crate::declare::ImportAfter::Keep)
            && let Some(version) = current[r]
        {
            v.kept_at_end[version as usize] = true;
        }
    }
    Ok(v)
}

// ---------------------------------------------------------------------------------------------
// Step 3: liveness. A pass is live if it has side effects, writes a version a live pass reads, or
// writes the frame-end version of a kept import. Readers follow writers, so one backward sweep
// settles it.

fn find_live_passes(passes: &[PassDecl], v: &Versions, options: &CompileOptions) -> Vec<bool> {
    let mut needed = vec![false; passes.len()];
    for (version, &kept) in v.kept_at_end.iter().enumerate() {
        if let (true, Some(p)) = (kept, v.writer[version]) {
            needed[p as usize] = true;
        }
    }
    for p in (0..passes.len()).rev() {
        needed[p] |= passes[p].side_effects || !options.cull;
        if needed[p] {
            for &version in v.reads_of(p) {
                if let Some(w) = v.writer[version as usize] {
                    needed[w as usize] = true;
                }
            }
        }
    }
    needed
}

/// Every read of every declared pass with the pass that wrote the version it sees.
fn list_dependencies(pass_count: usize, v: &Versions) -> Vec<Dependency> {
    let mut deps = Vec::with_capacity(v.reads.len());
    for p in 0..pass_count {
        let range = v.read_start[p] as usize..v.read_start[p + 1] as usize;
        for (&version, &(resource, access)) in v.reads[range.clone()].iter().zip(&v.read_how[range])
        {
            deps.push(Dependency {
                from: v.writer[version as usize],
                to: p as PassId,
                resource,
                access,
            });
        }
    }
    deps
}

// ---------------------------------------------------------------------------------------------
// Step 4: groups. The next live render pass joins the current group when nothing forces a
// boundary; the first reason that applies is recorded.

fn form_groups(
    resource_count: usize,
    passes: &[PassDecl],
    v: &Versions,
    live: &[bool],
    options: &CompileOptions,
) -> Vec<Group> {
    let mut groups: Vec<Group> = Vec::with_capacity(live.iter().filter(|&&l| l).count());
    // Per resource: 1 + index of the last group that wrote it / touched it outside attachments.
    let mut written_in = vec![0u32; resource_count];
    let mut touched_in = vec![0u32; resource_count];
    let mut resolved = false;
    for (p, pass) in passes.iter().enumerate().filter(|&(p, _)| live[p]) {
        let stamp = groups.len() as u32; // 1 + index of the current (last) group
        let joins = match groups.last_mut() {
            None => false,
            Some(group) => match merge_boundary(
                group,
                passes,
                pass,
                &written_in,
                &touched_in,
                stamp,
                resolved,
                options,
            ) {
                None => true,
                Some(reason) => {
                    group.boundary = reason;
                    false
                }
            },
        };
        if joins {
            groups
                .last_mut()
                .expect("joined a group")
                .passes
                .push(p as PassId);
        } else {
            groups.push(Group {
                kind: pass.kind,
                passes: vec![p as PassId],
                color: Vec::new(),
                depth: None,
                boundary: GroupBoundary::EndOfGraph,
            });
            resolved = false;
        }
        let stamp = groups.len() as u32;
        // An attachment writes when it makes a version: every access but a `read` of existing
        // contents (a `read` of none clears the tile, and that clear is the contents).
        let attached = pass
            .color
            .iter()
            .map(|c| c.resource)
            .chain(pass.depth.map(|d| d.resource));
        let writes = attached
            .enumerate()
            .filter(|&(slot, _)| v.slot_written[v.slot(p as PassId, slot)].is_some())
            .map(|(_, r)| r)
            .chain(pass.color.iter().filter_map(|c| c.resolve))
            .chain(pass.storage_write.iter().copied())
            .chain(pass.storage_read_write.iter().copied())
            .chain(pass.copy_dst.iter().copied());
        for r in writes {
            written_in[r as usize] = stamp;
        }
        for list in [
            &pass.sample,
            &pass.input,
            &pass.storage_read,
            &pass.storage_write,
            &pass.storage_read_write,
        ] {
            for &r in list {
                touched_in[r as usize] = stamp;
            }
        }
        resolved |= pass.color.iter().any(|c| c.resolve.is_some());
    }
    groups
}

/// Why `next` cannot join `group`, or `None` when it can.
#[allow(clippy::too_many_arguments)]
fn merge_boundary(
    group: &Group,
    passes: &[PassDecl],
    next: &PassDecl,
    written_in: &[u32],
    touched_in: &[u32],
    stamp: u32,
    resolved: bool,
    options: &CompileOptions,
) -> Option<GroupBoundary> {
    let written = |list: &[ResourceId]| list.iter().any(|&r| written_in[r as usize] == stamp);
    let first = &passes[group.passes[0] as usize];
    // Only render passes share a wgpu render pass.
    if group.kind != PassKind::Render || next.kind != PassKind::Render {
        return Some(GroupBoundary::NotRender);
    }
    // A shader read of this group's output needs it in memory: the group must end and store.
    if written(&next.sample) || written(&next.storage_read) || written(&next.storage_read_write) {
        return Some(GroupBoundary::SamplesGroupOutput);
    }
    // Same-pixel reads could stay on tile with framebuffer fetch; wgpu has none.
    if written(&next.input) {
        return Some(GroupBoundary::InputsGroupOutput);
    }
    // Keeping attachments on tile needs the very same framebuffer.
    let same_color = first.color.len() == next.color.len()
        && first
            .color
            .iter()
            .zip(&next.color)
            .all(|(a, b)| a.resource == b.resource);
    if !same_color || first.depth.map(|d| d.resource) != next.depth.map(|d| d.resource) {
        return Some(GroupBoundary::AttachmentsDiffer);
    }
    // A clear is a load op: it can only happen where a wgpu render pass begins.
    if next.color.iter().any(|c| c.access == Access::Clear)
        || next.depth.is_some_and(|d| d.access == Access::Clear)
    {
        return Some(GroupBoundary::ClearsGroupAttachment);
    }
    // A resolve happens where the render pass ends; drawing after it would change what it resolved.
    if resolved {
        return Some(GroupBoundary::Resolve);
    }
    // Draws in one render pass are unordered for storage memory: no write after a read or write.
    let touched = |list: &[ResourceId]| {
        list.iter()
            .any(|&r| touched_in[r as usize] == stamp || written_in[r as usize] == stamp)
    };
    if touched(&next.storage_write) || touched(&next.storage_read_write) {
        return Some(GroupBoundary::StorageHazard);
    }
    // wgpu validates a render pass as one usage scope: a texture the group binds for a shader
    // read (a read-only depth sampled alongside) cannot become its written depth or a resolve target.
    let mut attachment_writes = next.color.iter().filter_map(|c| c.resolve).chain(
        next.depth
            .filter(|d| d.access != Access::Read)
            .map(|d| d.resource),
    );
    if attachment_writes.any(|r| touched_in[r as usize] == stamp) {
        return Some(GroupBoundary::WritesBoundTexture);
    }
    // Merging is the point; only the caller's kill switch stops it here.
    if !options.merge {
        return Some(GroupBoundary::MergingDisabled);
    }
    None
}

fn group_of_pass(pass_count: usize, groups: &[Group]) -> Vec<Option<u32>> {
    let mut group_of = vec![None; pass_count];
    for (g, group) in groups.iter().enumerate() {
        for &p in &group.passes {
            group_of[p as usize] = Some(g as u32);
        }
    }
    group_of
}

/// Per version, 1 + the last group whose live passes read it (0: never read).
fn version_reader_groups(
    passes: &[PassDecl],
    v: &Versions,
    live: &[bool],
    group_of: &[Option<u32>],
) -> Vec<u32> {
    let mut last = vec![0u32; v.writer.len()];
    for p in (0..passes.len()).filter(|&p| live[p]) {
        let g = group_of[p].expect("live passes have a group") + 1;
        for &version in v.reads_of(p) {
            last[version as usize] = last[version as usize].max(g);
        }
    }
    last
}

// ---------------------------------------------------------------------------------------------
// Step 5: load, store, resolve and read-only depth of every attachment of every render group.

fn infer_attachment_ops(
    res: &[ResourceDecl],
    passes: &[PassDecl],
    mut planned: Vec<Group>,
    v: &Versions,
    reader_groups: &[u32],
    options: &CompileOptions,
) -> Vec<Group> {
    for (g, group) in planned.iter_mut().enumerate() {
        if group.kind != PassKind::Render {
            continue;
        }
        let first_id = group.passes[0];
        let last = &passes[*group.passes.last().expect("groups are never empty") as usize];
        let first = &passes[first_id as usize];
        // Contents are needed after the group when a later group reads them or the import keeps them.
        let store_for = |slot: usize| -> StoreOp {
            let written = group
                .passes
                .iter()
                .rev()
                .find_map(|&p| v.slot_written[v.slot(p, slot)]);
            match written {
                None => StoreOp::None,
                Some(version)
                    if v.kept_at_end[version as usize]
                        || reader_groups[version as usize] > g as u32 + 1 =>
                {
                    StoreOp::Store
                }
                Some(_) => StoreOp::Discard,
            }
        };
        let load_for =
            |slot: usize, r: ResourceId, access: Access, clear: Option<ClearValue>| -> LoadOp {
                let decl = &res[r as usize];
                let value = clear
                    .or(decl.clear)
                    .unwrap_or_else(|| ClearValue::fast_default(texture_format(decl)));
                match access {
                    Access::Clear => LoadOp::Clear(value),
                    Access::Write if options.dont_care.is_some() => LoadOp::DontCare,
                    Access::Write => LoadOp::Clear(value),
                    Access::ReadWrite | Access::Read => {
                        if v.slot_read[v.slot(first_id, slot)].is_some() {
                            LoadOp::Load
                        } else {
                            LoadOp::Clear(value)
                        }
                    }
                }
            };
        group.color = first
            .color
            .iter()
            .enumerate()
            .map(|(slot, c)| AttachmentPlan {
                resource: c.resource,
                load: load_for(slot, c.resource, c.access, c.clear),
                store: store_for(slot),
                resolve: last.color[slot].resolve,
                read_only: false,
            })
            .collect();
        group.depth = first.depth.map(|d| {
            let slot = first.color.len();
            let load = load_for(slot, d.resource, d.access, d.clear);
            // Nothing written: read-only when loaded; a clear nobody writes over is discarded.
            let store = match (store_for(slot), load) {
                (StoreOp::None, LoadOp::Clear(_)) => StoreOp::Discard,
                (store, _) => store,
            };
            AttachmentPlan {
                resource: d.resource,
                load,
                store,
                resolve: None,
                read_only: store == StoreOp::None,
            }
        });
    }
    planned
}

fn texture_format(decl: &ResourceDecl) -> wgpu::TextureFormat {
    match decl.kind {
        ResourceKind::Texture(t) => t.format,
        ResourceKind::Buffer(_) => unreachable!("attachments are validated to be textures"),
    }
}

/// DESIGN §5's naive plan: every live render pass alone, `clear` where the pass declares it,
/// `load` for every other access, `store` always, resolves as declared.
fn naive_groups(res: &[ResourceDecl], passes: &[PassDecl], live: &[bool]) -> Vec<Group> {
    let naive_load = |r: ResourceId, access: Access, clear: Option<ClearValue>| match access {
        Access::Clear => LoadOp::Clear(
            clear
                .or(res[r as usize].clear)
                .unwrap_or_else(|| ClearValue::fast_default(texture_format(&res[r as usize]))),
        ),
        _ => LoadOp::Load,
    };
    let mut groups: Vec<Group> = passes
        .iter()
        .enumerate()
        .filter(|&(p, _)| live[p])
        .map(|(p, pass)| Group {
            kind: pass.kind,
            passes: vec![p as PassId],
            color: pass
                .color
                .iter()
                .map(|c| AttachmentPlan {
                    resource: c.resource,
                    load: naive_load(c.resource, c.access, c.clear),
                    store: StoreOp::Store,
                    resolve: c.resolve,
                    read_only: false,
                })
                .collect(),
            depth: pass.depth.map(|d| AttachmentPlan {
                resource: d.resource,
                load: naive_load(d.resource, d.access, d.clear),
                store: StoreOp::Store,
                resolve: None,
                read_only: false,
            }),
            boundary: GroupBoundary::MergingDisabled,
        })
        .collect();
    if let Some(last) = groups.last_mut() {
        last.boundary = GroupBoundary::EndOfGraph;
    }
    groups
}

// ---------------------------------------------------------------------------------------------
// Step 6: lifetimes, usages, transients.

fn resource_lifetimes_and_usage(
    res: &[ResourceDecl],
    passes: &[PassDecl],
    live: &[bool],
    group_of: &[Option<u32>],
) -> Vec<ResourcePlan> {
    let mut plans: Vec<ResourcePlan> = res
        .iter()
        .map(|r| ResourcePlan {
            culled: true,
            transient: false,
            first_group: None,
            last_group: None,
            physical: None,
            usage: match r.kind {
                ResourceKind::Texture(_) => ResourceUsage::Texture(TextureUsages::empty()),
                ResourceKind::Buffer(_) => ResourceUsage::Buffer(BufferUsages::empty()),
            },
        })
        .collect();
    for (p, pass) in passes.iter().enumerate().filter(|&(p, _)| live[p]) {
        let g = group_of[p].expect("live passes have a group");
        let mut touch = |r: ResourceId, tex: TextureUsages, buf: BufferUsages| {
            let plan = &mut plans[r as usize];
            plan.culled = false;
            plan.first_group = Some(plan.first_group.map_or(g, |f| f.min(g)));
            plan.last_group = Some(plan.last_group.map_or(g, |l| l.max(g)));
            match &mut plan.usage {
                ResourceUsage::Texture(u) => *u |= tex,
                ResourceUsage::Buffer(u) => *u |= buf,
            }
        };
        let attach = TextureUsages::RENDER_ATTACHMENT;
        for c in &pass.color {
            touch(c.resource, attach, BufferUsages::empty());
            if let Some(t) = c.resolve {
                touch(t, attach, BufferUsages::empty());
            }
        }
        if let Some(d) = pass.depth {
            touch(d.resource, attach, BufferUsages::empty());
        }
        for &r in pass.sample.iter().chain(&pass.input) {
            touch(r, TextureUsages::TEXTURE_BINDING, BufferUsages::empty());
        }
        for &r in pass
            .storage_read
            .iter()
            .chain(&pass.storage_write)
            .chain(&pass.storage_read_write)
        {
            touch(r, TextureUsages::STORAGE_BINDING, BufferUsages::STORAGE);
        }
        for &r in &pass.copy_src {
            touch(r, TextureUsages::COPY_SRC, BufferUsages::COPY_SRC);
        }
        for &r in &pass.copy_dst {
            touch(r, TextureUsages::COPY_DST, BufferUsages::COPY_DST);
        }
    }
    // wgpu creates multisampled textures only as render attachments, also one that is only
    // copied into and sampled (a copy of a multisampled depth prepass).
    for (plan, r) in plans.iter_mut().zip(res) {
        if let (ResourceKind::Texture(t), ResourceUsage::Texture(u)) = (r.kind, &mut plan.usage)
            && t.samples > 1
            && !plan.culled
        {
            *u |= TextureUsages::RENDER_ATTACHMENT;
        }
    }
    plans
}

/// A texture lives only on tile when it is graph-owned, used only as an attachment (never sampled,
/// stored to, copied or resolved into), all within one group that clears or ignores it on entry
/// and discards it on exit.
fn mark_transients(
    res: &[ResourceDecl],
    plans: &mut [ResourcePlan],
    groups: &mut [Group],
    options: &CompileOptions,
) {
    if !options.transient {
        return;
    }
    for group in groups.iter_mut() {
        for a in group.color.iter().chain(group.depth.iter()) {
            let plan = &mut plans[a.resource as usize];
            let only_attachment =
                plan.usage == ResourceUsage::Texture(TextureUsages::RENDER_ATTACHMENT);
            let one_group = plan.first_group == plan.last_group;
            let on_tile_only = matches!(a.load, LoadOp::Clear(_) | LoadOp::DontCare)
                && a.store == StoreOp::Discard;
            let resolve_target = group.color.iter().any(|c| c.resolve == Some(a.resource));
            if res[a.resource as usize].import.is_none()
                && only_attachment
                && one_group
                && on_tile_only
                && !resolve_target
            {
                plan.transient = true;
                plan.usage = ResourceUsage::Texture(
                    TextureUsages::RENDER_ATTACHMENT | TextureUsages::TRANSIENT_ATTACHMENT,
                );
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Step 7: physical resources. In order of first use, each graph-owned resource takes the lowest
// free index of an identical descriptor and usage whose previous tenant's lifetime has ended.

fn plan_physical_resources(
    res: &[ResourceDecl],
    plans: &mut [ResourcePlan],
    options: &CompileOptions,
) -> Vec<PhysicalResource> {
    let mut order: Vec<ResourceId> = (0..res.len() as ResourceId)
        .filter(|&r| !plans[r as usize].culled && res[r as usize].import.is_none())
        .collect();
    // Textures first, so that their indices do not depend on where buffers are used; the two
    // kinds never share an entry, so one index space stays unambiguous.
    let is_buffer = |r: ResourceId| matches!(res[r as usize].kind, ResourceKind::Buffer(_));
    order.sort_by_key(|&r| (is_buffer(r), plans[r as usize].first_group, r));

    let mut physical: Vec<PhysicalResource> = Vec::new();
    let mut key_of: FastMap<(ResourceKind, ResourceUsage), u32> = FastMap::default();
    let mut free: Vec<BinaryHeap<Reverse<u32>>> = Vec::new(); // per key: free physical indices
    let mut busy: BinaryHeap<Reverse<(u32, u32, u32)>> = BinaryHeap::new(); // (last group, physical, key)
    for r in order {
        let plan = plans[r as usize];
        let first = plan.first_group.expect("live resources have a lifetime");
        while let Some(&Reverse((last, index, key))) = busy.peek() {
            if last >= first {
                break;
            }
            busy.pop();
            free[key as usize].push(Reverse(index));
        }
        let desc = (res[r as usize].kind, plan.usage);
        let next_key = key_of.len() as u32;
        let key = *key_of.entry(desc).or_insert(next_key);
        if key == next_key {
            free.push(BinaryHeap::new());
        }
        let reuse = if options.alias {
            free[key as usize].pop().map(|Reverse(i)| i)
        } else {
            None
        };
        let index = reuse.unwrap_or_else(|| {
            physical.push(PhysicalResource {
                kind: desc.0,
                usage: desc.1,
                resources: Vec::new(),
            });
            (physical.len() - 1) as u32
        });
        physical[index as usize].resources.push(r);
        plans[r as usize].physical = Some(index);
        busy.push(Reverse((
            plan.last_group.expect("live resources have a lifetime"),
            index,
            key,
        )));
    }
    physical
}

// ---------------------------------------------------------------------------------------------
// Step 8: traffic (DESIGN §5).

fn measure_traffic(
    passes: &[PassDecl],
    planned: &[Group],
    naive: &[Group],
    live: &[bool],
    bytes: &[u64],
    fps: u32,
) -> Result<Traffic, GraphError> {
    let overflow = || GraphError::invalid("attachment traffic overflows a 64-bit byte count");
    let group_bytes = |groups: &[Group]| -> Option<u64> {
        let mut total = 0u64;
        for a in groups
            .iter()
            .flat_map(|g| g.color.iter().chain(g.depth.iter()))
        {
            let b = bytes[a.resource as usize];
            if a.load == LoadOp::Load {
                total = total.checked_add(b)?;
            }
            if a.store == StoreOp::Store {
                total = total.checked_add(b)?;
            }
            if let Some(t) = a.resolve {
                total = total.checked_add(bytes[t as usize])?;
            }
        }
        Some(total)
    };
    let planned_bytes = group_bytes(planned).ok_or_else(overflow)?;
    let naive_bytes = group_bytes(naive).ok_or_else(overflow)?;
    let mut sampled = 0u64;
    for (_, pass) in passes.iter().enumerate().filter(|&(p, _)| live[p]) {
        for &r in pass.sample.iter().chain(&pass.input) {
            sampled = sampled
                .checked_add(bytes[r as usize])
                .ok_or_else(overflow)?;
        }
    }
    Ok(Traffic {
        bytes_per_frame: planned_bytes,
        naive_bytes_per_frame: naive_bytes,
        fps,
        bytes_per_second: planned_bytes
            .checked_mul(u64::from(fps))
            .ok_or_else(overflow)?,
        naive_bytes_per_second: naive_bytes
            .checked_mul(u64::from(fps))
            .ok_or_else(overflow)?,
        sampled_bytes_per_frame: sampled,
    })
}

// ---------------------------------------------------------------------------------------------
// Step 9: warnings: what costs bandwidth or time and could be avoided.

fn collect_warnings(
    res: &[ResourceDecl],
    passes: &[PassDecl],
    groups: &[Group],
    options: &CompileOptions,
) -> Vec<Warning> {
    let mut warnings = Vec::new();
    for group in groups.iter().filter(|g| g.kind == PassKind::Render) {
        let pass = group.passes[0];
        let first = &passes[pass as usize];
        let accesses = first
            .color
            .iter()
            .map(|c| c.access)
            .chain(first.depth.map(|d| d.access));
        for (a, access) in group.color.iter().chain(group.depth.iter()).zip(accesses) {
            let warn = |kind, clear| Warning {
                kind,
                pass: Some(pass),
                resource: Some(a.resource),
                clear,
            };
            if let LoadOp::Clear(value) = a.load {
                if !value.is_fast() {
                    warnings.push(warn(WarningKind::SlowClearValue, Some(value)));
                }
                if access == Access::Write && options.dont_care.is_none() {
                    warnings.push(warn(WarningKind::ClearForWrite, None));
                }
            }
            let samples = match res[a.resource as usize].kind {
                ResourceKind::Texture(t) => t.samples,
                ResourceKind::Buffer(_) => 1,
            };
            if samples > 1 && a.store == StoreOp::Store {
                warnings.push(warn(WarningKind::MsaaStored, None));
            }
        }
    }
    warnings
}

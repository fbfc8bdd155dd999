//! Step 1: validate the whole declared graph, culled passes included. Every rule is a function
//! (or a method of [`PassChecker`]) named after what it checks.

use super::accesses::{Accesses, Lists};
use super::compiler::emptied;
use super::prefetch;
use super::subresources::SubTable;
use crate::declare::NameHashes;
use crate::error::GraphError;
use crate::format::{is_depth_stencil, is_renderable};
use crate::hash::NAMED;
use crate::passes::{PassRef, Passes};
use crate::plan::subresource_bytes;
use crate::resource::{
    Access, AttachmentDecl, ClearValue, Entry, HistoryHalf, ListAccess, PassKind, ResourceDecl,
    ResourceId, ResourceKind, Subresource, SubresourceRange, TextureDesc,
};

/// Valid MSAA sample counts.
const SAMPLE_COUNTS: [u32; 5] = [1, 2, 4, 8, 16];
/// wgpu's cap on colour attachments.
const MAX_COLOR_ATTACHMENTS: usize = 8;
/// wgpu's largest `max_texture_array_layers` on any adapter.
const MAX_LAYERS: u32 = 2048;

/// What the later steps need from validation.
#[derive(Default)]
pub(super) struct Checked {
    /// The graph's subresource index space.
    pub subs: SubTable,
    /// The passes' accesses, gathered while each pass was checked.
    pub acc: Accesses,
    /// Per resource: `bytes(R)` of the traffic model (whole texture, every mip; buffer size).
    pub bytes: Vec<u64>,
    /// Per resource: bytes of one subresource of mip 0 (a buffer's size), the one most
    /// attachments name.
    base_bytes: Vec<u64>,
}

impl Checked {
    /// Bytes of one subresource of a resource.
    pub(super) fn subresource_bytes(
        &self,
        res: &[ResourceDecl],
        r: ResourceId,
        sub: Subresource,
    ) -> u64 {
        if sub.mip == 0 {
            self.base_bytes[r.index()]
        } else {
            subresource_bytes(&res[r.index()], sub)
        }
    }
}

/// Validation's working lists, cleared where each is filled.
#[derive(Debug, Default)]
pub(super) struct Workspace {
    /// Per resource: what the pass checks keep of it.
    marks: Vec<Marks>,
    /// Colour formats met before and whether they render, kept between compiles: wgpu's
    /// answer is a large table built each time it is asked, and a graph uses few formats.
    renderable: Renderable,
    /// The unique-name check's open-addressing table.
    names: Vec<(u32, u32)>,
    /// The one-role rule's list of what a pass does with each resource it names.
    roles: Vec<Role>,
}

/// Checks everything but reads before writes (the versions step finds those).
///
/// `names` are the declarations' name hashes; `None` skips the unique-name check, for
/// declarations that passed it before. `checked` (the compiler's) is cleared and filled.
pub(super) fn validate<'w>(
    passes: &Passes,
    res: &[ResourceDecl],
    names: Option<&NameHashes>,
    work: &mut Workspace,
    checked: &'w mut Checked,
) -> Result<&'w Checked, GraphError> {
    if passes.is_empty() {
        return Err(GraphError::invalid("the graph declares no passes"));
    }
    if let Some(names) = names {
        debug_assert_eq!(
            (names.resources.len(), names.passes.len()),
            (res.len(), passes.len())
        );
        check_unique_names(
            &names.resources,
            |i| &res[i].name,
            "resource",
            &mut work.names,
        )?;
        check_unique_names(
            &names.passes,
            |i| passes.at(i).name(),
            "pass",
            &mut work.names,
        )?;
    }
    checked.subs.clear(res.len());
    checked.acc.clear(res.len(), passes.len());
    emptied(&mut checked.bytes, res.len());
    emptied(&mut checked.base_bytes, res.len());
    emptied(&mut work.marks, res.len());
    check_resources_and_passes(passes, res, checked, work)?;
    Ok(checked)
}

/// Every resource, then every pass, filling `checked`'s tables: each resource's byte counts and
/// subresources in the walk that checks it, each pass's accesses right after its declaration
/// is checked, while it is in the caches.
fn check_resources_and_passes(
    passes: &Passes,
    res: &[ResourceDecl],
    checked: &mut Checked,
    work: &mut Workspace,
) -> Result<(), GraphError> {
    for r in res {
        let (bytes, base_bytes) = validate_resource(r)?;
        checked.bytes.push(bytes);
        checked.base_bytes.push(base_bytes);
        checked.subs.push(r)?;
        checked.acc.push_resource(r);
        work.marks.push(Marks {
            seen_in_pass: 0,
            attachable: Attachable::of(r, &mut work.renderable),
        });
    }
    let acc = &mut checked.acc;
    let histories = acc.has_histories();
    for (p, pass) in passes.iter().enumerate() {
        prefetch::declarations(passes, res, p);
        let lists = Lists::of(pass);
        let checker = PassChecker {
            res,
            pass,
            lists,
            first: None,
        };
        let repeated = checker.declaration(p as u32 + 1, &mut work.marks, histories)?;
        // The declaration is sound (its ids exist, its views are few): the access checks walk
        // its dense copy.
        acc.push(pass, lists);
        let (slots, entries) = (acc.slots(p), acc.entries(p));
        checker.accesses(&work.marks, slots, entries, repeated, &mut work.roles)?;
    }
    Ok(())
}

/// Names go into an open-addressing table of (hash, index) sized to a power of two (8 bytes a
/// slot keeps the table of 10 000 names in a core's L2): the hashes were taken when the names
/// were declared ([`name_hash`](crate::hash::name_hash)), so the check reads one dense table
/// and touches a name's text only when two hashes are equal, to confirm the repeat. The first
/// repeat in declaration order is reported. Each slot is prefetched `AHEAD` names before its
/// name goes in, so that the loads of the table's scattered slots overlap.
fn check_unique_names<'n>(
    hashes: &[u32],
    name: impl Fn(usize) -> &'n str,
    what: &'static str,
    table: &mut Vec<(u32, u32)>,
) -> Result<(), GraphError> {
    const AHEAD: usize = 8;
    let capacity = (hashes.len() * 2).next_power_of_two().max(16);
    let mask = capacity - 1;
    table.clear();
    table.resize(capacity, (0, u32::MAX));
    let slot = |table: &[(u32, u32)], hash: u32| prefetch::prefetch(&table[hash as usize & mask]);
    for i in 0..AHEAD {
        prefetch::ahead(hashes, i, 0, |&hash| slot(table, hash));
    }
    let mut found = Ok(());
    'names: for (i, &hash) in hashes.iter().enumerate() {
        prefetch::ahead(hashes, i, AHEAD, |&later| slot(table, later));
        if hash & NAMED == 0 {
            found = Err(GraphError::invalid(format!("a {what} has an empty name")));
            break;
        }
        let mut slot = hash as usize & mask;
        loop {
            let (stored, index) = table[slot];
            if index == u32::MAX {
                table[slot] = (hash, i as u32);
                break;
            }
            if stored == hash && name(index as usize) == name(i) {
                found = Err(GraphError::DuplicateName {
                    what,
                    name: name(i).to_owned(),
                });
                break 'names;
            }
            slot = (slot + 1) & mask;
        }
    }
    found
}

/// A resource's own shape; returns its `bytes(R)` (checked u64) and the bytes of one
/// subresource of mip 0 (a buffer: its size twice).
fn validate_resource(r: &ResourceDecl) -> Result<(u64, u64), GraphError> {
    match r.kind {
        ResourceKind::Buffer(b) => validate_buffer(r, b.size).map(|size| (size, size)),
        ResourceKind::Texture(t) => validate_texture(r, t),
    }
}

/// A buffer has a size and no clear value.
fn validate_buffer(r: &ResourceDecl, size: u64) -> Result<u64, GraphError> {
    let name = &*r.name;
    let invalid = |what: String| GraphError::invalid_resource(name, what);
    if size == 0 {
        return Err(invalid("buffer size must be at least 1 byte".into()));
    }
    if r.clear.is_some() {
        return Err(GraphError::FormatMismatch {
            pass: None,
            resource: name.to_owned(),
            message: "a buffer has no clear value".into(),
        });
    }
    Ok(size)
}

/// A texture's size, layers, samples and mips are possible, its clear value fits its format.
/// Returns its bytes and those of one subresource of mip 0.
fn validate_texture(r: &ResourceDecl, t: TextureDesc) -> Result<(u64, u64), GraphError> {
    let name = &*r.name;
    let invalid = |what: String| GraphError::invalid_resource(name, what);
    if t.width == 0 || t.height == 0 || t.layers == 0 {
        return Err(invalid(format!(
            "size {}x{}x{} has a zero dimension",
            t.width, t.height, t.layers
        )));
    }
    if t.layers > MAX_LAYERS {
        return Err(invalid(format!(
            "{} layers; wgpu allows at most {MAX_LAYERS}",
            t.layers
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
    // Layers are allowed for multiview MSAA; the executor keeps one texture per layer where
    // the device lacks `Features::MULTISAMPLE_ARRAY`.
    if t.samples > 1 && t.mips > 1 {
        return Err(invalid("a multisampled texture has one mip".into()));
    }
    if let Some(clear) = r.clear {
        check_clear_fits(None, name, t.format, clear)?;
    }
    // The texel size once, for every mip.
    let texel = texel_size(name, &t)?;
    let overflow = || {
        invalid(format!(
            "{}x{}x{} texels overflow a 64-bit byte count",
            t.width, t.height, t.layers
        ))
    };
    let mut total = 0u64;
    let mut base = 0u64;
    for mip in 0..t.mips {
        let one = t.mip_bytes(texel, mip).ok_or_else(overflow)?;
        if mip == 0 {
            base = one;
        }
        total = one
            .checked_mul(u64::from(t.layers))
            .and_then(|b| total.checked_add(b))
            .ok_or_else(overflow)?;
    }
    Ok((total, base))
}

/// Bytes of one texel, or of one block for block-compressed formats.
fn texel_size(name: &str, t: &TextureDesc) -> Result<u64, GraphError> {
    t.texel_bytes().ok_or_else(|| GraphError::FormatMismatch {
        pass: None,
        resource: name.to_owned(),
        message: format!(
            "format {:?} is not supported (planar or aspect-less)",
            t.format
        ),
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

/// What the pass checks keep of a resource.
#[derive(Debug, Clone, Copy)]
struct Marks {
    /// 1 + the last pass that named it.
    seen_in_pass: u32,
    /// What it can be attached as.
    attachable: Attachable,
}

/// Colour formats and whether some adapter renders to them, remembered in place (no
/// allocation): more than most graphs use, few enough to search in order.
#[derive(Debug, Default)]
struct Renderable([Option<(wgpu::TextureFormat, bool)>; 16]);

impl Renderable {
    /// Whether some adapter renders to `format`.
    fn get(&mut self, format: wgpu::TextureFormat) -> bool {
        for slot in &mut self.0 {
            match *slot {
                Some((known, color)) if known == format => return color,
                Some(_) => {}
                None => {
                    let color = is_renderable(format);
                    *slot = Some((format, color));
                    return color;
                }
            }
        }
        is_renderable(format)
    }
}

/// What a resource can be attached as.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Attachable {
    Color,
    Depth,
    Neither,
}

impl Attachable {
    /// What `r` can be attached as; `renderable` remembers the colour formats met so far.
    fn of(r: &ResourceDecl, renderable: &mut Renderable) -> Self {
        let ResourceKind::Texture(t) = r.kind else {
            return Attachable::Neither;
        };
        if is_depth_stencil(t.format) {
            return Attachable::Depth;
        }
        if renderable.get(t.format) {
            Attachable::Color
        } else {
            Attachable::Neither
        }
    }
}

/// How a pass uses a resource, for the one-subresource-one-role rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Use {
    Attachment { writes: bool },
    Resolve,
    List(ListAccess),
}

impl Use {
    fn writes(self) -> bool {
        match self {
            Use::Attachment { writes } => writes,
            Use::Resolve => true,
            Use::List(a) => a.writes(),
        }
    }

    fn is_slot(self) -> bool {
        matches!(self, Use::Attachment { .. } | Use::Resolve)
    }

    fn name(self) -> &'static str {
        match self {
            Use::Attachment { .. } => "an attachment",
            Use::Resolve => "a resolve target",
            Use::List(ListAccess::Sample) => "a sampled texture",
            Use::List(ListAccess::Input) => "an input",
            Use::List(ListAccess::CopySrc) => "a copy source",
            Use::List(ListAccess::CopyDst) => "a copy destination",
            Use::List(a) => a.as_str(),
        }
    }
}

/// Checks one pass: each rule a method.
struct PassChecker<'g> {
    res: &'g [ResourceDecl],
    pass: PassRef<'g>,
    /// The pass's non-empty lists.
    lists: Lists,
    /// The first attachment: its resource and rendered extent (width, height, samples).
    first: Option<(ResourceId, (u32, u32, u32))>,
}

/// (resource, subresources named, use): one entry of the role check.
type Role = (ResourceId, SubresourceRange, Use);

impl PassChecker<'_> {
    /// The checks of the declaration itself; returns whether a resource is named twice.
    fn declaration(
        &self,
        stamp: u32,
        marks: &mut [Marks],
        histories: bool,
    ) -> Result<bool, GraphError> {
        let repeated = self.resources_exist(stamp, marks)?;
        self.pass_kind_allows_accesses()?;
        if histories {
            self.history_previous_not_written()?;
        }
        self.attachment_count()?;
        self.multiview()?;
        Ok(repeated)
    }

    /// The checks of every attachment slot and list entry (`slots` and `entries`, as
    /// [`Accesses`] holds them).
    fn accesses(
        mut self,
        marks: &[Marks],
        slots: &[AttachmentDecl],
        entries: &[(ListAccess, Entry)],
        repeated: bool,
        uses: &mut Vec<Role>,
    ) -> Result<(), GraphError> {
        for &a in slots {
            self.attachment(a, marks[a.resource.index()].attachable)?;
        }
        for &(access, entry) in entries {
            self.list_entry(access, entry)?;
        }
        // Only a resource named twice can play two roles.
        if repeated {
            self.one_role_per_subresource(slots, entries, uses)?;
        }
        Ok(())
    }

    fn name(&self, id: ResourceId) -> String {
        self.res[id.index()].name.to_string()
    }

    fn invalid_access(&self, resource: Option<ResourceId>, message: String) -> GraphError {
        GraphError::InvalidAccess {
            pass: self.pass.name().to_string(),
            resource: resource.map(|r| self.name(r)),
            message,
        }
    }

    /// Every id names a declared resource. Returns whether one appears twice in the pass (the
    /// views of a multiview attachment are one use of it).
    fn resources_exist(&self, stamp: u32, marks: &mut [Marks]) -> Result<bool, GraphError> {
        let p = self.pass;
        let mut repeated = false;
        // Plain loops over the lists: this runs for every pass of every compile.
        let mut mark = |id: ResourceId| {
            let Some(Marks {
                seen_in_pass: seen, ..
            }) = marks.get_mut(id.index())
            else {
                return Err(self.unknown(id));
            };
            repeated |= *seen == stamp;
            *seen = stamp;
            Ok(())
        };
        for c in p.color() {
            mark(c.resource)?;
            if let Some(resolve) = c.resolve {
                mark(resolve)?;
            }
        }
        if let Some(d) = p.depth() {
            mark(d.resource)?;
        }
        for access in self.lists.iter() {
            for e in p.list(access) {
                mark(e.resource)?;
            }
        }
        Ok(repeated)
    }

    #[cold]
    fn unknown(&self, id: ResourceId) -> GraphError {
        GraphError::UnknownResource {
            pass: self.pass.name().to_string(),
            resource: format!("#{id}"),
        }
    }

    /// Last frame's half of a history texture is read, never written: a write would be lost (the
    /// half is discarded after the frame) and would hide last frame's contents from later reads.
    fn history_previous_not_written(&self) -> Result<(), GraphError> {
        let p = self.pass;
        let written = |access: Access, r: ResourceId| (access != Access::Read).then_some(r);
        let colors = p
            .color()
            .iter()
            .flat_map(|c| [written(c.access, c.resource), c.resolve]);
        let depth = p.depth().and_then(|d| written(d.access, d.resource));
        let attached = colors.chain([depth]).flatten();
        let listed = p
            .entries()
            .filter(|(access, _)| access.writes())
            .map(|(_, e)| e.resource);
        for id in attached.chain(listed) {
            let r = &self.res[id.index()];
            if r.history == Some(HistoryHalf::Previous) {
                let base = r.name.strip_suffix(".previous").unwrap_or(&r.name);
                return Err(self.invalid_access(
                    Some(id),
                    format!(
                        "`{}` is last frame's half of the history `{base}`: passes read it and never write it; write this frame's contents into `{base}.current`",
                        r.name
                    ),
                ));
            }
        }
        Ok(())
    }

    /// Render passes attach and sample; compute passes use shaders only; copy passes copy only.
    fn pass_kind_allows_accesses(&self) -> Result<(), GraphError> {
        let p = self.pass;
        let has = |lists: &[ListAccess]| self.lists.any(lists);
        let attachments = p.attachment_count() > 0;
        let copies = has(&[ListAccess::CopySrc, ListAccess::CopyDst]);
        let shader = has(&[
            ListAccess::Sample,
            ListAccess::Input,
            ListAccess::StorageRead,
            ListAccess::StorageWrite,
            ListAccess::StorageReadWrite,
            ListAccess::Uniform,
            ListAccess::Vertex,
            ListAccess::Index,
            ListAccess::Indirect,
        ]);
        // An upload is encoder work: it stands in a copy pass, where the bytes land in order.
        let uploads = has(&[ListAccess::Upload]);
        let refused = match p.kind() {
            PassKind::Render if copies => Some("copy accesses"),
            PassKind::Render | PassKind::Compute if uploads => {
                Some("uploads (declare them on a copy pass)")
            }
            PassKind::Compute if has(&[ListAccess::Vertex, ListAccess::Index]) => {
                Some("vertex or index buffers")
            }
            PassKind::Render if !attachments => {
                return Err(self.invalid_access(
                    None,
                    "a render pass needs at least one colour or depth attachment".into(),
                ));
            }
            PassKind::Compute if attachments => Some("attachments"),
            PassKind::Compute if has(&[ListAccess::Input]) => Some("inputs"),
            PassKind::Compute if copies => Some("copy accesses"),
            PassKind::Copy if attachments => Some("attachments"),
            PassKind::Copy if shader => Some("shader accesses"),
            _ => None,
        };
        match refused {
            Some(what) => Err(self.invalid_access(
                None,
                format!("a {} pass cannot have {what}", p.kind().as_str()),
            )),
            None => Ok(()),
        }
    }

    /// wgpu's cap on colour attachments.
    fn attachment_count(&self) -> Result<(), GraphError> {
        if self.pass.color().len() > MAX_COLOR_ATTACHMENTS {
            return Err(self.invalid_access(
                None,
                format!(
                    "{} colour attachments; wgpu allows {MAX_COLOR_ATTACHMENTS}",
                    self.pass.color().len()
                ),
            ));
        }
        Ok(())
    }

    /// A multiview pass is a render pass of at least two views. (Whether the device renders
    /// that many is checked where it executes.) Each attachment renders all N views: its layers
    /// are checked one by one as the pass's attachment slots.
    fn multiview(&self) -> Result<(), GraphError> {
        let Some(views) = self.pass.multiview() else {
            return Ok(());
        };
        let message = if self.pass.kind() != PassKind::Render {
            format!(
                "a {} pass cannot be multiview; only render passes have views",
                self.pass.kind().as_str()
            )
        } else if views < 2 {
            format!("`multiview` is {views}; a multiview pass renders at least 2 views")
        } else if views > MAX_LAYERS {
            format!("`multiview` is {views}; no texture has more than {MAX_LAYERS} layers")
        } else {
            return Ok(());
        };
        Err(self.invalid_access(None, message))
    }

    /// The resource is a texture; buffers are refused with what they were used as.
    #[inline]
    fn texture(&self, id: ResourceId, what: &str) -> Result<TextureDesc, GraphError> {
        match self.res[id.index()].kind {
            ResourceKind::Texture(t) => Ok(t),
            ResourceKind::Buffer(_) => Err(self.buffer_used_as(id, what)),
        }
    }

    #[cold]
    fn buffer_used_as(&self, id: ResourceId, what: &str) -> GraphError {
        GraphError::FormatMismatch {
            pass: Some(self.pass.name().to_string()),
            resource: self.name(id),
            message: format!("a buffer used as {what}"),
        }
    }

    /// The named mip and layer lie inside the texture.
    #[inline]
    fn subresource_in_range(
        &self,
        id: ResourceId,
        t: TextureDesc,
        sub: Subresource,
    ) -> Result<(), GraphError> {
        if t.contains(sub) {
            return Ok(());
        }
        Err(self.outside(id, t, sub))
    }

    #[cold]
    fn outside(&self, id: ResourceId, t: TextureDesc, sub: Subresource) -> GraphError {
        GraphError::InvalidSubresource {
            pass: self.pass.name().to_string(),
            resource: self.name(id),
            message: format!(
                "mip {} of layer {} is outside the texture ({} mips, {} layers)",
                sub.mip, sub.layer, t.mips, t.layers
            ),
        }
    }

    fn attachment(&mut self, a: AttachmentDecl, attachable: Attachable) -> Result<(), GraphError> {
        let slot = if a.is_depth {
            "the depth attachment"
        } else {
            "a colour attachment"
        };
        let t = self.texture(a.resource, slot)?;
        self.attachment_format(a, attachable, t)?;
        if a.access == Access::Read && !a.is_depth {
            return Err(self.invalid_access(Some(a.resource), "`read` is for depth/stencil attachments; a colour attachment that is only read should be sampled".into()));
        }
        if let Some(clear) = a.clear {
            self.own_clear_only_on_clear(a)?;
            check_clear_fits(
                Some(self.pass.name()),
                &self.res[a.resource.index()].name,
                t.format,
                clear,
            )?;
        }
        self.views_in_range(a.resource, t, a.sub.mip, a.sub.layer.saturating_sub(a.view))?;
        self.subresource_in_range(a.resource, t, a.sub)?;
        self.one_extent(a.resource, t, a.sub)?;
        if let Some(target) = a.resolve {
            self.resolve_target(a, t, target)?;
            let tt = self.texture(target, "a resolve target")?;
            self.views_in_range(target, tt, 0, 0)?;
            self.subresource_in_range(target, tt, a.resolve_subresource())?;
        }
        Ok(())
    }

    /// A multiview attachment's views fit in the texture's layers, said in the pass's terms.
    #[inline]
    fn views_in_range(
        &self,
        id: ResourceId,
        t: TextureDesc,
        mip: u32,
        first: u32,
    ) -> Result<(), GraphError> {
        let Some(views) = self.pass.multiview().filter(|&v| v > 1) else {
            return Ok(());
        };
        if mip >= t.mips || u64::from(first) + u64::from(views) <= u64::from(t.layers) {
            return Ok(());
        }
        Err(self.too_few_layers(id, t, views, first))
    }

    #[cold]
    fn too_few_layers(&self, id: ResourceId, t: TextureDesc, views: u32, first: u32) -> GraphError {
        GraphError::InvalidSubresource {
            pass: self.pass.name().to_string(),
            resource: self.name(id),
            message: format!(
                "multiview({views}) needs layers {first}..{} of the texture, which has {} layer{}",
                u64::from(first) + u64::from(views),
                t.layers,
                if t.layers == 1 { "" } else { "s" }
            ),
        }
    }

    /// Colour slots take renderable colour formats, the depth slot depth formats
    /// (`attachable`: what the texture can be attached as).
    fn attachment_format(
        &self,
        a: AttachmentDecl,
        attachable: Attachable,
        t: TextureDesc,
    ) -> Result<(), GraphError> {
        let message = match (a.is_depth, attachable) {
            (false, Attachable::Depth) => {
                format!("depth format {:?} used as a colour attachment", t.format)
            }
            (false, Attachable::Neither) => format!("format {:?} cannot be rendered to", t.format),
            (true, Attachable::Color | Attachable::Neither) => {
                format!("colour format {:?} used as the depth attachment", t.format)
            }
            _ => return Ok(()),
        };
        Err(GraphError::FormatMismatch {
            pass: Some(self.pass.name().to_string()),
            resource: self.name(a.resource),
            message,
        })
    }

    /// An access's own clear value is used only by a `clear`: other accesses start from the
    /// resource's, so a value given there would silently do nothing.
    fn own_clear_only_on_clear(&self, a: AttachmentDecl) -> Result<(), GraphError> {
        if a.access == Access::Clear {
            return Ok(());
        }
        Err(self.invalid_access(
            Some(a.resource),
            format!(
                "a `{}` access has its own clear value; only `clear` accesses use one (declare it on the resource)",
                a.access.as_str()
            ),
        ))
    }

    /// All attachments of a pass render one extent: the attached subresources' sizes and sample
    /// counts agree.
    fn one_extent(
        &mut self,
        id: ResourceId,
        t: TextureDesc,
        sub: Subresource,
    ) -> Result<(), GraphError> {
        let (w, h) = t.mip_size(sub.mip);
        let extent = (w, h, t.samples);
        let Some((fid, (fw, fh, fs))) = self.first else {
            self.first = Some((id, extent));
            return Ok(());
        };
        if (fw, fh) != (w, h) {
            return Err(GraphError::SizeMismatch {
                pass: self.pass.name().to_string(),
                resource: self.name(id),
                first: self.name(fid),
                expected: format!("{fw}x{fh}"),
                found: format!("{w}x{h}"),
            });
        }
        if fs != t.samples {
            return Err(GraphError::SampleCountMismatch {
                pass: self.pass.name().to_string(),
                resource: self.name(id),
                first: self.name(fid),
                expected: fs,
                found: t.samples,
            });
        }
        Ok(())
    }

    /// A resolve target is single-sampled, of the attachment's format and rendered size.
    fn resolve_target(
        &self,
        a: AttachmentDecl,
        t: TextureDesc,
        target: ResourceId,
    ) -> Result<(), GraphError> {
        let tt = self.texture(target, "a resolve target")?;
        let (w, h) = t.mip_size(a.sub.mip);
        let message = if t.samples == 1 {
            "the attachment is single-sampled; only multisampled attachments resolve".to_owned()
        } else if tt.samples != 1 {
            format!(
                "the target has {} samples; it must be single-sampled",
                tt.samples
            )
        } else if tt.format != t.format {
            format!("formats differ ({:?} and {:?})", t.format, tt.format)
        } else if (tt.width, tt.height) != (w, h) {
            format!("sizes differ ({w}x{h} and {}x{})", tt.width, tt.height)
        } else {
            return Ok(());
        };
        Err(GraphError::ResolveMismatch {
            pass: self.pass.name().to_string(),
            resource: self.name(a.resource),
            target: self.name(target),
            message,
        })
    }

    /// Sampled and input entries are textures, bound and uploaded buffers are buffers; a range
    /// names mips and layers inside a texture.
    fn list_entry(&self, access: ListAccess, e: Entry) -> Result<(), GraphError> {
        if let Some(size) = e.binding_size {
            self.binding_size(access, e.resource, size)?;
        }
        match (access, self.res[e.resource.index()].kind) {
            (ListAccess::Sample, ResourceKind::Buffer(_)) => {
                self.texture(e.resource, "a sampled texture").map(drop)
            }
            (ListAccess::Input, ResourceKind::Buffer(_)) => {
                self.texture(e.resource, "an input").map(drop)
            }
            (_, ResourceKind::Texture(_)) if access.is_buffer_only() => {
                Err(GraphError::FormatMismatch {
                    pass: Some(self.pass.name().to_string()),
                    resource: self.name(e.resource),
                    message: format!(
                        "a texture used as {}",
                        match access {
                            ListAccess::Uniform => "a uniform buffer",
                            ListAccess::Vertex => "a vertex buffer",
                            ListAccess::Index => "an index buffer",
                            ListAccess::Indirect => "an indirect buffer",
                            _ => "an uploaded buffer",
                        }
                    ),
                })
            }
            (_, ResourceKind::Buffer(_)) if !e.range.is_all() => {
                Err(GraphError::InvalidSubresource {
                    pass: self.pass.name().to_string(),
                    resource: self.name(e.resource),
                    message: format!(
                        "{} named on a buffer; buffers have no subresources",
                        e.range.describe()
                    ),
                })
            }
            (_, ResourceKind::Texture(t)) if !e.range.is_all() => {
                self.range_in_texture(e.resource, t, e.range)
            }
            _ => Ok(()),
        }
    }

    /// A binding size is given for a uniform or storage buffer, is not zero, fits in the buffer
    /// and, for storage, is a multiple of 4 bytes (wgpu's rule for storage bindings).
    fn binding_size(
        &self,
        access: ListAccess,
        id: ResourceId,
        size: u64,
    ) -> Result<(), GraphError> {
        let storage = matches!(
            access,
            ListAccess::StorageRead | ListAccess::StorageWrite | ListAccess::StorageReadWrite
        );
        let problem = match self.res[id.index()].kind {
            ResourceKind::Texture(_) => {
                Some("a binding size is given for a texture; only buffers have one".to_owned())
            }
            ResourceKind::Buffer(_) if !storage && access != ListAccess::Uniform => Some(format!(
                "a binding size is given in the `{}` list; only uniform and storage buffers have one",
                access.as_str()
            )),
            _ if size == 0 => {
                Some("the binding size is 0; a binding sees at least one byte".to_owned())
            }
            ResourceKind::Buffer(b) if size > b.size => Some(format!(
                "the binding size {size} is larger than the buffer ({} bytes)",
                b.size
            )),
            _ if storage && !size.is_multiple_of(4) => Some(format!(
                "the storage binding size {size} is not a multiple of 4 bytes, as wgpu requires"
            )),
            _ => None,
        };
        match problem {
            Some(message) => Err(self.invalid_access(Some(id), message)),
            None => Ok(()),
        }
    }

    /// A range's mips and layers lie inside the texture, and it names at least one of each.
    fn range_in_texture(
        &self,
        id: ResourceId,
        t: TextureDesc,
        range: SubresourceRange,
    ) -> Result<(), GraphError> {
        if let Some(sub) = range.single() {
            return self.subresource_in_range(id, t, sub);
        }
        let fits = |r: Option<(u32, u32)>, n: u32| {
            r.is_none_or(|(first, count)| {
                count > 0 && u64::from(first) + u64::from(count) <= u64::from(n)
            })
        };
        if fits(range.mips, t.mips) && fits(range.layers, t.layers) {
            return Ok(());
        }
        let empty = [range.mips, range.layers]
            .into_iter()
            .flatten()
            .any(|(_, count)| count == 0);
        Err(GraphError::InvalidSubresource {
            pass: self.pass.name().to_string(),
            resource: self.name(id),
            message: if empty {
                format!("{} names no subresource", range.describe())
            } else {
                format!(
                    "{} is outside the texture ({} mips, {} layers)",
                    range.describe(),
                    t.mips,
                    t.layers
                )
            },
        })
    }

    /// A pass may not read what it writes, nor fill two slots with one subresource. Two entries
    /// overlap when they name the same subresource or one names the whole texture. The one
    /// exception: a `read` depth attachment may also be sampled (neither writes).
    fn one_role_per_subresource(
        &self,
        slots: &[AttachmentDecl],
        entries: &[(ListAccess, Entry)],
        uses: &mut Vec<Role>,
    ) -> Result<(), GraphError> {
        uses.clear();
        for &a in slots {
            let writes = a.access != Access::Read;
            uses.push((
                a.resource,
                SubresourceRange::one(a.sub),
                Use::Attachment { writes },
            ));
            if let Some(t) = a.resolve {
                let sub = SubresourceRange::one(a.resolve_subresource());
                uses.push((t, sub, Use::Resolve));
            }
        }
        uses.extend(
            entries
                .iter()
                .map(|&(access, e)| (e.resource, e.range, Use::List(access))),
        );
        uses.sort_unstable_by_key(|&(r, sub, u)| (r, u, sub));
        let overlap = |a: SubresourceRange, b: SubresourceRange| a.overlaps(&b);
        for run in uses.chunk_by(|a, b| a.0 == b.0) {
            for (i, &(id, sa, ua)) in run.iter().enumerate() {
                for &(_, sb, ub) in &run[i + 1..] {
                    if !overlap(sa, sb) {
                        continue;
                    }
                    if ua.is_slot() && ub.is_slot() {
                        return Err(self.invalid_access(
                            Some(id),
                            "the texture fills two attachment or resolve slots of one pass".into(),
                        ));
                    }
                    let (writer, other) = if ua.writes() { (ua, ub) } else { (ub, ua) };
                    if writer.writes() && writer != other {
                        return Err(GraphError::Feedback {
                            pass: self.pass.name().to_string(),
                            resource: self.name(id),
                            other: if writer == ua { ub.name() } else { ua.name() },
                        });
                    }
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::check_unique_names;
    use crate::error::GraphError;
    use crate::hash::name_hash;

    /// The first problem in order by brute force: an empty name, or a name seen before.
    fn reference(names: &[Arc<str>]) -> Option<(usize, bool)> {
        let mut seen = std::collections::HashSet::new();
        for (i, n) in names.iter().enumerate() {
            if n.is_empty() {
                return Some((i, true));
            }
            if !seen.insert(n.clone()) {
                return Some((i, false));
            }
        }
        None
    }

    fn check(names: &[Arc<str>], scratch: &mut Vec<(u32, u32)>) {
        let hashes: Vec<u32> = names.iter().map(|n| name_hash(n)).collect();
        let got = check_unique_names(&hashes, |i| &names[i], "pass", scratch);
        match (reference(names), got) {
            (None, Ok(())) => {}
            (Some((i, false)), Err(GraphError::DuplicateName { what, name })) => {
                assert_eq!((what, name.as_str()), ("pass", &*names[i]));
            }
            (Some((_, true)), Err(GraphError::InvalidDescription { message, .. })) => {
                assert_eq!(message, "a pass has an empty name");
            }
            (want, got) => panic!("expected {want:?}, got {got:?}"),
        }
    }

    #[test]
    fn unique_names_report_the_first_problem_in_order() {
        let mut scratch = Vec::new();
        for count in [1, 7, 1000, 1024, 5000, 12_800] {
            let names: Vec<Arc<str>> = (0..count).map(|i| format!("pass{i}").into()).collect();
            check(&names, &mut scratch);
            if count < 1000 {
                continue;
            }
            // Two repeats: the one whose first occurrence comes later in the list repeats first,
            // so it is the one reported.
            let mut twice = names.clone();
            twice[count - 10] = twice[count / 3].clone();
            twice[count / 2] = twice[count / 4].clone();
            check(&twice, &mut scratch);
            // An empty name after the first repeat, then before it.
            twice[count / 2 + 1] = "".into();
            check(&twice, &mut scratch);
            twice[count / 8] = "".into();
            check(&twice, &mut scratch);
            // A name repeated many times: its second occurrence is the first repeat.
            let mut many = names.clone();
            for i in (count / 5..count).step_by(97) {
                many[i] = many[count / 6].clone();
            }
            check(&many, &mut scratch);
        }
    }
}

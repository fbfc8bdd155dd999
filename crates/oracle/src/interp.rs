//! Reference interpreter: runs a plan symbolically on a tile model and records what every read sees.
//!
//! Every subresource (one mip of one array layer of a texture, or a whole buffer) holds a *content
//! token* naming the version it holds (who wrote it, or which clear value, or the import's
//! preserved contents, or garbage). Memory is kept per physical slot per subresource, so two
//! resources sharing a physical texture share each of its subresources, and a mip written through
//! one resource is garbage when read through another. A render group brings its attachments (one
//! subresource each) onto the tile with its load ops, runs its passes on the tile and writes back
//! with its store ops and resolves; compute and copy groups work on memory. [`reference()`] gives
//! what every read must see from the declarations alone, in declaration order (the guide);
//! [`Machine`] gives what a plan makes it see. A correct plan makes the two agree.
//!
//! Memory remembers, per slot, which subresource last wrote it: reading a slot through another
//! subresource (two resources sharing a physical texture) is reading garbage. Copies follow one of
//! two models ([`Copies`]): the destination holds a token of the copy (`Write`, what the declared
//! plan's checks use to tell versions apart), or the very content the source held (`Propagate`,
//! the data itself: a copy folded into a resolve then shows as the same content as the copy).

use std::collections::{BTreeMap, BTreeSet};

use tilegraph::decl::{Entry, PassKind, PassRef, Passes, ResourceDecl, ResourceKind};
use tilegraph::plan::{AttachmentPlan, Group, LoadOp, StoreOp};
use tilegraph::{
    Access, ClearValue, CompiledGraph, ImportAfter, ImportContents, PassId, RenderGraph,
    ResourceId, Subresource,
};

/// Mip 0 of layer 0: a buffer's only subresource, a resolve target's subresource.
pub const BASE: Subresource = Subresource { mip: 0, layer: 0 };

/// A clear value normalised so that equal clears compare equal (`Depth(d)` is `{d, stencil 0}`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ClearKey {
    Color([u64; 4]),
    DepthStencil(u32, u32),
}

pub fn clear_key(value: ClearValue) -> ClearKey {
    match value {
        ClearValue::Color(c) => ClearKey::Color(c.map(|v| (v + 0.0).to_bits())),
        ClearValue::Depth(d) => ClearKey::DepthStencil((d + 0.0).to_bits(), 0),
        ClearValue::DepthStencil { depth, stencil } => {
            ClearKey::DepthStencil((depth + 0.0).to_bits(), stencil)
        }
    }
}

/// the guide's fast-clear default: transparent black, depth 1.0 and stencil 0.
pub fn default_clear(decl: &ResourceDecl) -> ClearKey {
    match decl.kind {
        ResourceKind::Texture(t) if t.format.is_depth_stencil_format() => {
            ClearKey::DepthStencil(1.0f32.to_bits(), 0)
        }
        _ => ClearKey::Color([0.0f64.to_bits(); 4]),
    }
}

/// (mips, layers) of a resource: a buffer is one subresource.
pub fn grid(decl: &ResourceDecl) -> (u32, u32) {
    match decl.kind {
        ResourceKind::Texture(t) => (t.mips, t.layers),
        ResourceKind::Buffer(_) => (1, 1),
    }
}

/// Number of subresources of a resource.
pub fn sub_count(decl: &ResourceDecl) -> u32 {
    let (mips, layers) = grid(decl);
    mips * layers
}

/// Position of `sub` in the resource's grid (`layer * mips + mip`), `None` outside it.
pub fn sub_index(decl: &ResourceDecl, sub: Subresource) -> Option<u32> {
    let (mips, layers) = grid(decl);
    (sub.mip < mips && sub.layer < layers).then_some(sub.layer * mips + sub.mip)
}

/// Every subresource of a resource, in grid order.
pub fn all_subs(decl: &ResourceDecl) -> Vec<Subresource> {
    let (mips, layers) = grid(decl);
    (0..layers)
        .flat_map(|layer| (0..mips).map(move |mip| Subresource { mip, layer }))
        .collect()
}

/// The subresources a list entry names: one, or every one for a whole-resource entry.
pub fn entry_subs(res: &[ResourceDecl], e: Entry) -> Vec<Subresource> {
    all_subs(&res[e.resource.index()])
        .into_iter()
        .filter(|&s| e.range.contains(s))
        .collect()
}

/// What a subresource holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Content {
    /// Garbage: never written, discarded, don't-care, another subresource's data or a race.
    Undefined,
    /// An import's contents from before the frame.
    Preserved(ResourceId, Subresource),
    /// The subresource cleared to a value, nothing drawn on top.
    Cleared(ResourceId, Subresource, ClearKey),
    /// What `pass` wrote into `resource`'s `sub`.
    Written {
        pass: PassId,
        resource: ResourceId,
        sub: Subresource,
    },
    /// The resolve of what `pass` wrote into `source`'s `source_sub`, in whichever target: the
    /// token does not name the target, so a resolve folded into a copy's destination leaves
    /// there what the copy would have.
    Resolved {
        pass: PassId,
        source: ResourceId,
        source_sub: Subresource,
    },
}

/// What a copy leaves in its destination.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Copies {
    /// A token of the copy itself (`Written` by the copy pass): every version names its writer.
    #[default]
    Write,
    /// Whatever the source held, subresource by subresource, when the copy has one source and
    /// one destination of as many subresources (else a token of the copy, as `Write`).
    Propagate,
}

/// One subresource of one resource.
pub type SubKey = (ResourceId, Subresource);

/// The (source, destination) subresource pairs of a copy that moves one entry into one entry of
/// as many subresources; `None` for any other pass.
pub fn copy_pairs(res: &[ResourceDecl], pass: PassRef<'_>) -> Option<Vec<(SubKey, SubKey)>> {
    let simple = pass.kind() == PassKind::Copy
        && pass.copy_src().len() == 1
        && pass.copy_dst().len() == 1
        && pass.entries().count() == 2;
    if !simple {
        return None;
    }
    let (src, dst) = (pass.copy_src()[0], pass.copy_dst()[0]);
    let (from, to) = (entry_subs(res, src), entry_subs(res, dst));
    (from.len() == to.len()).then(|| {
        from.into_iter()
            .map(|s| (src.resource, s))
            .zip(to.into_iter().map(|s| (dst.resource, s)))
            .collect()
    })
}

impl Content {
    /// The pass that wrote it (`None`: an import's preserved contents, a clear, garbage).
    pub fn writer(self) -> Option<PassId> {
        match self {
            Content::Written { pass, .. } | Content::Resolved { pass, .. } => Some(pass),
            _ => None,
        }
    }
}

/// How a read happens.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ReadKind {
    /// What an attachment access finds on the tile: the prior contents for `read_write`/`read`,
    /// the cleared tile for `clear` (slot: colour slots, then depth).
    Attachment(u32),
    /// Entry `.0` of the list.
    Sample(u32),
    Input(u32),
    StorageRead(u32),
    StorageReadWrite(u32),
    CopySrc(u32),
    Uniform(u32),
    Vertex(u32),
    Index(u32),
    Indirect(u32),
}

/// One read of the frame: one subresource each.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Observation {
    Read {
        pass: PassId,
        kind: ReadKind,
        resource: ResourceId,
        sub: Subresource,
    },
    /// What a kept import's subresource holds when the frame ends.
    FrameEnd(ResourceId, Subresource),
}

impl Observation {
    pub fn resource(self) -> ResourceId {
        match self {
            Observation::Read { resource, .. } | Observation::FrameEnd(resource, _) => resource,
        }
    }

    pub fn sub(self) -> Subresource {
        match self {
            Observation::Read { sub, .. } | Observation::FrameEnd(_, sub) => sub,
        }
    }
}

/// An attachment access of a pass.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Attached {
    /// Colour slots, then depth.
    pub slot: u32,
    pub resource: ResourceId,
    pub sub: Subresource,
    pub access: Access,
    /// The access's own clear value.
    pub clear: Option<ClearValue>,
    pub resolve: Option<ResourceId>,
    /// The resolve target's subresource: layer `view` of mip 0.
    pub resolve_sub: Subresource,
    pub is_depth: bool,
}

/// Views of a pass: its multiview count, or 1.
pub fn views(pass: PassRef<'_>) -> u32 {
    pass.multiview().unwrap_or(1).max(1)
}

/// The attachment accesses of a pass, colour slots then depth; a multiview attachment is one
/// slot per view (layers `layer .. layer + n`), its resolve target's layer the view.
pub fn attachments(pass: PassRef<'_>) -> Vec<Attached> {
    let n = views(pass);
    let mut out: Vec<Attached> = Vec::new();
    let layer = |sub: Subresource, v: u32| Subresource {
        mip: sub.mip,
        layer: sub.layer + v,
    };
    let colors = pass
        .color()
        .iter()
        .map(|c| (c.resource, c.sub, c.access, c.clear, c.resolve, false));
    let depth = pass
        .depth()
        .map(|d| (d.resource, d.sub, d.access, d.clear, None, true));
    for (resource, sub, access, clear, resolve, is_depth) in colors.chain(depth) {
        for v in 0..n {
            out.push(Attached {
                slot: out.len() as u32,
                resource,
                sub: layer(sub, v),
                access,
                clear,
                resolve,
                // A depth attachment resolves nowhere.
                resolve_sub: if is_depth { BASE } else { layer(BASE, v) },
                is_depth,
            });
        }
    }
    out
}

/// A group's attachment plans in slot order (colour, depth, the depth's later views), each with
/// its resolve target's subresource.
pub fn group_attachments(group: &Group) -> Vec<(&AttachmentPlan, Subresource)> {
    let n = group.multiview.unwrap_or(1).max(1) as usize;
    let color = group.color.iter().enumerate().map(move |(i, a)| {
        (
            a,
            Subresource {
                mip: 0,
                layer: (i % n) as u32,
            },
        )
    });
    color
        .chain(
            group
                .depth
                .iter()
                .chain(&group.depth_views)
                .map(|a| (a, BASE)),
        )
        .collect()
}

/// Non-attachment reads of a pass, in a fixed order: (kind, entry).
pub fn memory_reads(pass: PassRef<'_>) -> Vec<(ReadKind, Entry)> {
    let mut out = Vec::new();
    type List<'p> = (&'p [Entry], fn(u32) -> ReadKind);
    let lists: [List<'_>; 9] = [
        (pass.sample(), ReadKind::Sample),
        (pass.input(), ReadKind::Input),
        (pass.storage_read(), ReadKind::StorageRead),
        (pass.storage_read_write(), ReadKind::StorageReadWrite),
        (pass.copy_src(), ReadKind::CopySrc),
        (pass.uniform(), ReadKind::Uniform),
        (pass.vertex(), ReadKind::Vertex),
        (pass.index(), ReadKind::Index),
        (pass.indirect(), ReadKind::Indirect),
    ];
    for (list, kind) in lists {
        for (i, &e) in list.iter().enumerate() {
            out.push((kind(i as u32), e));
        }
    }
    out
}

/// Writes that do not go through an attachment (whole entries overwrite every subresource).
pub fn memory_writes(pass: PassRef<'_>) -> impl Iterator<Item = Entry> + '_ {
    pass.storage_write()
        .iter()
        .chain(pass.storage_read_write())
        .chain(pass.copy_dst())
        .chain(pass.upload())
        .copied()
}

/// The clear value an access clears to: its own, else the resource's, else the fast default.
pub fn access_clear(decl: &ResourceDecl, own: Option<ClearValue>) -> ClearKey {
    own.or(decl.clear)
        .map(clear_key)
        .unwrap_or_else(|| default_clear(decl))
}

/// What every read of the live passes must see, from the declarations alone.
#[derive(Debug, Clone, Default)]
pub struct Reference {
    /// The copy model the reference ran with; machines compared with it use the same.
    pub copies: Copies,
    pub expected: BTreeMap<Observation, Content>,
    /// Attachment accesses (pass, slot) of `read_write`/`read` that found no contents and start
    /// from the clear value (the guide); a `read` of that kind writes nothing.
    pub fallback_clears: BTreeSet<(PassId, u32)>,
}

/// Executes the declared graph in declaration order. `live[p]` says whose reads to record (every
/// pass still runs: a live read of a culled pass's output must show up as a mismatch).
pub fn reference(graph: &RenderGraph<'_>, live: &[bool]) -> Result<Reference, String> {
    reference_with(graph, live, Copies::Write)
}

/// [`reference()`] with the given copy model.
pub fn reference_with(
    graph: &RenderGraph<'_>,
    live: &[bool],
    copies: Copies,
) -> Result<Reference, String> {
    let res = graph.resources();
    let mut cur: BTreeMap<(ResourceId, Subresource), Content> = BTreeMap::new();
    for (r, d) in res.iter().enumerate() {
        let r = ResourceId::new(r);
        if d.import
            .is_some_and(|i| i.contents == ImportContents::Preserved)
        {
            for sub in all_subs(d) {
                cur.insert((r, sub), Content::Preserved(r, sub));
            }
        }
    }
    let mut out = Reference {
        copies,
        ..Reference::default()
    };
    for (p, pass) in graph.passes().iter().enumerate() {
        let pid = PassId::new(p);
        let mut record = |obs: Observation, content: Content| {
            if live[p] {
                out.expected.insert(obs, content);
            }
        };
        let atts = attachments(pass);
        let mut fallbacks = Vec::new();
        for a in &atts {
            let obs = Observation::Read {
                pass: pid,
                kind: ReadKind::Attachment(a.slot),
                resource: a.resource,
                sub: a.sub,
            };
            let decl = &res[a.resource.index()];
            match a.access {
                Access::Clear => record(
                    obs,
                    Content::Cleared(a.resource, a.sub, access_clear(decl, a.clear)),
                ),
                Access::Write => {}
                _ => match cur.get(&(a.resource, a.sub)) {
                    Some(&content) => record(obs, content),
                    None => {
                        let value = a.clear.or(decl.clear).ok_or_else(|| {
                            format!(
                                "pass {p} reads resource {} {:?} before anything writes it",
                                a.resource, a.sub
                            )
                        })?;
                        fallbacks.push((pid, a.slot));
                        record(obs, Content::Cleared(a.resource, a.sub, clear_key(value)));
                    }
                },
            }
        }
        out.fallback_clears.extend(fallbacks);
        for (kind, e) in memory_reads(pass) {
            for sub in entry_subs(res, e) {
                let obs = Observation::Read {
                    pass: pid,
                    kind,
                    resource: e.resource,
                    sub,
                };
                let content = *cur.get(&(e.resource, sub)).ok_or_else(|| {
                    format!(
                        "pass {p} reads resource {} {sub:?} before anything writes it",
                        e.resource
                    )
                })?;
                if live[p] {
                    out.expected.insert(obs, content);
                }
            }
        }
        for a in &atts {
            if a.access != Access::Read {
                cur.insert(
                    (a.resource, a.sub),
                    Content::Written {
                        pass: pid,
                        resource: a.resource,
                        sub: a.sub,
                    },
                );
            }
            if let Some(t) = a.resolve {
                cur.insert(
                    (t, a.resolve_sub),
                    Content::Resolved {
                        pass: pid,
                        source: a.resource,
                        source_sub: a.sub,
                    },
                );
            }
        }
        let propagated = match copies {
            Copies::Propagate => copy_pairs(res, pass),
            Copies::Write => None,
        };
        if let Some(pairs) = propagated {
            // The reads above found contents for every source subresource.
            let moved: Vec<_> = pairs.iter().map(|(s, d)| (*d, cur[s])).collect();
            cur.extend(moved);
            continue;
        }
        for e in memory_writes(pass) {
            for sub in entry_subs(res, e) {
                cur.insert(
                    (e.resource, sub),
                    Content::Written {
                        pass: pid,
                        resource: e.resource,
                        sub,
                    },
                );
            }
        }
    }
    for (r, decl) in res.iter().enumerate() {
        let r = ResourceId::new(r);
        if decl.import.is_some_and(|i| i.after == ImportAfter::Keep) {
            for sub in all_subs(decl) {
                if let Some(&content) = cur.get(&(r, sub)) {
                    out.expected.insert(Observation::FrameEnd(r, sub), content);
                }
            }
        }
    }
    Ok(out)
}

/// Where resources keep their contents between groups.
#[derive(Debug, Clone)]
pub enum Memory {
    /// Every resource its own memory, nothing transient (the naive plan's world).
    Separate,
    /// As the plan says: owned resources live in their physical texture, transient ones nowhere.
    Planned,
}

/// The tile machine. Clone it to explore alternatives from a point of the execution.
#[derive(Debug, Clone)]
pub struct Machine<'g> {
    res: &'g [ResourceDecl],
    passes: &'g Passes,
    /// Per resource: where its subresources start in `memory`.
    base: Vec<usize>,
    transient: Vec<bool>,
    memory: Vec<Content>,
    /// Per memory slot: the subresource that wrote it last.
    tags: Vec<Option<(ResourceId, Subresource)>>,
    copies: Copies,
    pub observed: BTreeMap<Observation, Content>,
    /// Plans that cannot be executed at all (a pass attaching what its group does not).
    pub errors: Vec<String>,
    /// When set, every read is compared as it happens and `failed` records a wrong one.
    expect: Option<&'g Reference>,
    pub failed: bool,
}

impl<'g> Machine<'g> {
    pub fn new(graph: &'g RenderGraph<'_>, plan: &CompiledGraph, memory: Memory) -> Self {
        let res = graph.resources();
        let mut errors = Vec::new();
        let mut base = Vec::with_capacity(res.len());
        let mut total = 0usize;
        let mut transient = vec![false; res.len()];
        // Physical slot → (start, subresource count), allocated by its first tenant.
        let mut physical: BTreeMap<usize, (usize, u32)> = BTreeMap::new();
        for (r, decl) in res.iter().enumerate() {
            let count = sub_count(decl);
            let shared = match memory {
                Memory::Planned => {
                    transient[r] = plan.resources()[r].transient;
                    plan.resources()[r].physical.map(|p| p.index())
                }
                Memory::Separate => None,
            };
            match shared.map(|p| physical.get(&p).copied().ok_or(p)) {
                Some(Ok((start, tenants_count))) => {
                    if tenants_count != count {
                        errors.push(format!(
                            "resource {r} has {count} subresources, its physical texture {tenants_count}"
                        ));
                    }
                    base.push(start);
                    total = total.max(start + count as usize);
                }
                Some(Err(p)) => {
                    physical.insert(p, (total, count));
                    base.push(total);
                    total += count as usize;
                }
                None => {
                    base.push(total);
                    total += count as usize;
                }
            }
        }
        let mut memory = vec![Content::Undefined; total];
        let mut tags = vec![None; total];
        for (r, decl) in res.iter().enumerate() {
            if decl
                .import
                .is_some_and(|i| i.contents == ImportContents::Preserved)
            {
                for sub in all_subs(decl) {
                    let i = base[r] + sub_index(decl, sub).unwrap() as usize;
                    let r = ResourceId::new(r);
                    memory[i] = Content::Preserved(r, sub);
                    tags[i] = Some((r, sub));
                }
            }
        }
        Machine {
            res,
            passes: graph.passes(),
            base,
            transient,
            memory,
            tags,
            copies: Copies::Write,
            observed: BTreeMap::new(),
            failed: !errors.is_empty(),
            errors,
            expect: None,
        }
    }

    /// Compares every read with `reference` as it happens (for searches that prune early), with
    /// the reference's copy model.
    pub fn expecting(mut self, reference: &'g Reference) -> Self {
        self.expect = Some(reference);
        self.copies = reference.copies;
        self
    }

    /// Runs copies with the given model.
    pub fn with_copies(mut self, copies: Copies) -> Self {
        self.copies = copies;
        self
    }

    fn slot(&mut self, r: ResourceId, sub: Subresource) -> Option<usize> {
        let decl = self.res.get(r.index());
        match decl.and_then(|d| sub_index(d, sub)) {
            Some(i) => Some(self.base[r.index()] + i as usize),
            None => {
                self.errors
                    .push(format!("resource {r} has no subresource {sub:?}"));
                self.failed = true;
                None
            }
        }
    }

    fn read_memory(&mut self, r: ResourceId, sub: Subresource) -> Content {
        let Some(i) = self.slot(r, sub) else {
            return Content::Undefined;
        };
        if self.transient[r.index()] {
            return Content::Undefined;
        }
        if self.tags[i] == Some((r, sub)) {
            self.memory[i]
        } else {
            Content::Undefined
        }
    }

    fn write_memory(&mut self, r: ResourceId, sub: Subresource, content: Content) {
        if let Some(i) = self.slot(r, sub)
            && !self.transient[r.index()]
        {
            self.memory[i] = content;
            self.tags[i] = Some((r, sub));
        }
    }

    fn observe(&mut self, obs: Observation, content: Content) {
        if self.observed.insert(obs, content).is_some() {
            self.errors.push(format!("{obs:?} happens twice"));
            self.failed = true;
        }
        if let Some(reference) = self.expect {
            match reference.expected.get(&obs) {
                Some(want) => self.failed |= *want != content,
                None => self.failed |= !matches!(obs, Observation::FrameEnd(..)),
            }
        }
    }

    /// Runs every group, then records the frame-end contents of kept imports.
    pub fn run(&mut self, groups: &[Group]) {
        for group in groups {
            self.run_group(group);
        }
        self.finish();
    }

    pub fn finish(&mut self) {
        for (r, decl) in self.res.iter().enumerate() {
            if decl.import.is_some_and(|i| i.after == ImportAfter::Keep) {
                let r = ResourceId::new(r);
                for sub in all_subs(decl) {
                    let content = self.read_memory(r, sub);
                    self.observe(Observation::FrameEnd(r, sub), content);
                }
            }
        }
    }

    /// Reads of a pass's lists, each subresource one observation. `racing` says which
    /// subresources another pass of the same render pass writes as storage (garbage to read).
    fn read_lists(
        &mut self,
        p: PassId,
        pass: PassRef<'_>,
        racing: &dyn Fn(ResourceId, Subresource) -> bool,
    ) {
        for (kind, e) in memory_reads(pass) {
            for sub in entry_subs(self.res, e) {
                let content = if racing(e.resource, sub) {
                    Content::Undefined
                } else {
                    self.read_memory(e.resource, sub)
                };
                self.observe(
                    Observation::Read {
                        pass: p,
                        kind,
                        resource: e.resource,
                        sub,
                    },
                    content,
                );
            }
        }
    }

    pub fn run_group(&mut self, group: &Group) {
        if group.kind != PassKind::Render {
            if !group.color.is_empty() || group.depth.is_some() {
                self.errors
                    .push(format!("a {:?} group has attachments", group.kind));
                self.failed = true;
            }
            for &p in &group.passes {
                self.run_memory_pass(p);
            }
            return;
        }
        let planned = group_attachments(group);
        let plans: Vec<&AttachmentPlan> = planned.iter().map(|&(a, _)| a).collect();
        let mut tile: Vec<Content> = Vec::with_capacity(plans.len());
        for a in &plans {
            let content = match a.load {
                LoadOp::Clear(v) => Content::Cleared(a.resource, a.sub, clear_key(v)),
                LoadOp::Load => self.read_memory(a.resource, a.sub),
                LoadOp::DontCare => Content::Undefined,
            };
            tile.push(content);
        }
        // Storage writes inside one render pass race with every other pass's access to the
        // subresource: draws are unordered for storage memory.
        let mut writers: BTreeMap<(ResourceId, Subresource), BTreeSet<PassId>> = BTreeMap::new();
        for &p in &group.passes {
            for e in memory_writes(self.passes.at(p.index())) {
                for sub in entry_subs(self.res, e) {
                    writers.entry((e.resource, sub)).or_default().insert(p);
                }
            }
        }
        for &p in &group.passes {
            let pass = self.passes.at(p.index());
            if pass.kind() != PassKind::Render {
                self.errors.push(format!("pass {p} is not a render pass"));
                self.failed = true;
            }
            let atts = attachments(pass);
            let matches = atts.len() == plans.len()
                && pass.color().len() * views(pass) as usize == group.color.len()
                && atts
                    .iter()
                    .zip(&plans)
                    .all(|(a, g)| (a.resource, a.sub) == (g.resource, g.sub));
            if !matches {
                self.errors.push(format!(
                    "pass {p} attaches other subresources than its group's"
                ));
                self.failed = true;
                continue;
            }
            for a in &atts {
                if a.access != Access::Write {
                    let content = tile[a.slot as usize];
                    self.observe(
                        Observation::Read {
                            pass: p,
                            kind: ReadKind::Attachment(a.slot),
                            resource: a.resource,
                            sub: a.sub,
                        },
                        content,
                    );
                }
            }
            let racing = |r: ResourceId, sub: Subresource| {
                writers
                    .get(&(r, sub))
                    .is_some_and(|w| w.iter().any(|&q| q != p))
            };
            self.read_lists(p, pass, &racing);
            for a in &atts {
                if a.access != Access::Read {
                    tile[a.slot as usize] = Content::Written {
                        pass: p,
                        resource: a.resource,
                        sub: a.sub,
                    };
                }
            }
        }
        for (a, &content) in plans.iter().zip(&tile) {
            match a.store {
                StoreOp::Store => self.write_memory(a.resource, a.sub, content),
                StoreOp::Discard => self.write_memory(a.resource, a.sub, Content::Undefined),
                StoreOp::None => {}
            }
        }
        for (&(a, resolve_sub), &content) in planned.iter().zip(&tile) {
            if let Some(t) = a.resolve {
                let resolved = match content {
                    Content::Written {
                        pass,
                        resource,
                        sub,
                    } => Content::Resolved {
                        pass,
                        source: resource,
                        source_sub: sub,
                    },
                    _ => Content::Undefined,
                };
                self.write_memory(t, resolve_sub, resolved);
            }
        }
        for ((r, sub), w) in writers {
            let content = match w.iter().collect::<Vec<_>>()[..] {
                [&p] => Content::Written {
                    pass: p,
                    resource: r,
                    sub,
                },
                _ => Content::Undefined,
            };
            self.write_memory(r, sub, content);
        }
    }

    fn run_memory_pass(&mut self, p: PassId) {
        let pass = self.passes.at(p.index());
        if !pass.color().is_empty() || pass.depth().is_some() {
            self.errors.push(format!(
                "pass {p} has attachments but runs outside a render group"
            ));
            self.failed = true;
        }
        self.read_lists(p, pass, &|_, _| false);
        let propagated = match self.copies {
            Copies::Propagate => copy_pairs(self.res, pass),
            Copies::Write => None,
        };
        if let Some(pairs) = propagated {
            let moved: Vec<_> = pairs
                .iter()
                .map(|&((r, s), d)| (d, self.read_memory(r, s)))
                .collect();
            for ((r, s), content) in moved {
                self.write_memory(r, s, content);
            }
            return;
        }
        for e in memory_writes(pass).collect::<Vec<_>>() {
            for sub in entry_subs(self.res, e) {
                self.write_memory(
                    e.resource,
                    sub,
                    Content::Written {
                        pass: p,
                        resource: e.resource,
                        sub,
                    },
                );
            }
        }
    }
}

/// Every difference between what a plan made the reads see and what they must see.
pub fn mismatches(reference: &Reference, observed: &BTreeMap<Observation, Content>) -> Vec<String> {
    let mut out = Vec::new();
    for (obs, want) in &reference.expected {
        match observed.get(obs) {
            None => out.push(format!("{obs:?} never happens (want {want:?})")),
            Some(got) if got == want => {}
            Some(got) => out.push(format!("{obs:?} sees {got:?}, want {want:?}")),
        }
    }
    for (obs, got) in observed {
        let undefined_end = matches!(obs, Observation::FrameEnd(..));
        if !reference.expected.contains_key(obs) && !undefined_end {
            out.push(format!("{obs:?} sees {got:?} but the pass is not live"));
        }
    }
    out
}

/// Runs `groups` and returns the mismatches against the reference (plan errors included).
pub fn execute_and_compare(
    graph: &RenderGraph<'_>,
    plan: &CompiledGraph,
    groups: &[Group],
    memory: Memory,
    reference: &Reference,
) -> Vec<String> {
    let mut machine = Machine::new(graph, plan, memory).with_copies(reference.copies);
    machine.run(groups);
    let mut out = machine.errors.clone();
    out.extend(mismatches(reference, &machine.observed));
    out
}

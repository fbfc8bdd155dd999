//! Reference interpreter: runs a plan symbolically on a tile model and records what every read sees.
//!
//! Every texture and buffer holds a *content token* naming the version it holds (who wrote it, or
//! which clear value, or the import's preserved contents, or garbage). A render group brings its
//! attachments onto the tile with its load ops, runs its passes on the tile and writes back with its
//! store ops and resolves; compute and copy groups work on memory. [`reference`] gives what every
//! read must see from the declarations alone, in declaration order; [`Machine`] gives what a plan
//! makes it see. A correct plan makes the two agree.

use std::collections::{BTreeMap, BTreeSet};

use tilegraph::declare::{PassDecl, ResourceDecl};
use tilegraph::{
    Access, ClearValue, CompiledGraph, Group, ImportAfter, ImportContents, LoadOp, PassKind,
    RenderGraph, ResourceKind, StoreOp,
};

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

/// DESIGN §2's fast-clear default: transparent black, depth 1.0 and stencil 0.
pub fn default_clear(decl: &ResourceDecl) -> ClearKey {
    match decl.kind {
        ResourceKind::Texture(t) if t.format.is_depth_stencil_format() => {
            ClearKey::DepthStencil(1.0f32.to_bits(), 0)
        }
        _ => ClearKey::Color([0.0f64.to_bits(); 4]),
    }
}

/// What a texture or buffer holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Content {
    /// Garbage: never written, discarded, don't-care, another resource's data or a race.
    Undefined,
    /// An import's contents from before the frame.
    Preserved(u32),
    /// Resource `.0` cleared to a value, nothing drawn on top.
    Cleared(u32, ClearKey),
    /// What `pass` wrote into `resource`.
    Written { pass: u32, resource: u32 },
    /// `target` holding the resolve of what `pass` wrote into `source`.
    Resolved { target: u32, pass: u32, source: u32 },
}

impl Content {
    /// The resource whose data this is: reading it through another resource is reading garbage.
    fn owner(self) -> Option<u32> {
        match self {
            Content::Undefined => None,
            Content::Preserved(r) | Content::Cleared(r, _) => Some(r),
            Content::Written { resource, .. } => Some(resource),
            Content::Resolved { target, .. } => Some(target),
        }
    }
}

/// How a read happens.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ReadKind {
    /// What an attachment access finds on the tile: the prior contents for `read_write`/`read`,
    /// the cleared tile for `clear` (slot: colour slots, then depth).
    Attachment(u32),
    Sample(u32),
    Input(u32),
    StorageRead(u32),
    StorageReadWrite(u32),
    CopySrc(u32),
}

/// One read of the frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Observation {
    Read {
        pass: u32,
        kind: ReadKind,
        resource: u32,
    },
    /// What a kept import holds when the frame ends.
    FrameEnd(u32),
}

impl Observation {
    pub fn resource(self) -> u32 {
        match self {
            Observation::Read { resource, .. } | Observation::FrameEnd(resource) => resource,
        }
    }
}

/// An attachment access of a pass: (slot, resource, access, own clear value).
pub fn attachments(pass: &PassDecl) -> Vec<(u32, u32, Access, Option<ClearValue>)> {
    let mut out: Vec<_> = pass
        .color
        .iter()
        .enumerate()
        .map(|(slot, c)| (slot as u32, c.resource, c.access, c.clear))
        .collect();
    if let Some(d) = pass.depth {
        out.push((pass.color.len() as u32, d.resource, d.access, d.clear));
    }
    out
}

/// Non-attachment reads of a pass, in a fixed order.
pub fn memory_reads(pass: &PassDecl) -> Vec<(ReadKind, u32)> {
    let mut out = Vec::new();
    type List<'p> = (&'p [u32], fn(u32) -> ReadKind);
    let lists: [List<'_>; 5] = [
        (&pass.sample, ReadKind::Sample),
        (&pass.input, ReadKind::Input),
        (&pass.storage_read, ReadKind::StorageRead),
        (&pass.storage_read_write, ReadKind::StorageReadWrite),
        (&pass.copy_src, ReadKind::CopySrc),
    ];
    for (list, kind) in lists {
        for (i, &r) in list.iter().enumerate() {
            out.push((kind(i as u32), r));
        }
    }
    out
}

/// Whole-resource writes that do not go through an attachment.
pub fn memory_writes(pass: &PassDecl) -> impl Iterator<Item = u32> + '_ {
    pass.storage_write
        .iter()
        .chain(&pass.storage_read_write)
        .chain(&pass.copy_dst)
        .copied()
}

/// The clear value an access clears to: its own, else the resource's, else the fast default.
fn access_clear(decl: &ResourceDecl, own: Option<ClearValue>) -> ClearKey {
    own.or(decl.clear)
        .map(clear_key)
        .unwrap_or_else(|| default_clear(decl))
}

/// What every read of the live passes must see, from the declarations alone.
#[derive(Debug, Clone, Default)]
pub struct Reference {
    pub expected: BTreeMap<Observation, Content>,
    /// Reads of contents that exist only because an attachment with no prior contents starts from
    /// its clear value (DESIGN §2); the naive plan loads undefined memory there instead.
    pub from_fallback: BTreeSet<Observation>,
    /// Attachment accesses (pass, slot) of `read_write`/`read` that found no contents and start
    /// from the clear value: a `read` of that kind writes the cleared contents.
    pub fallback_clears: BTreeSet<(u32, u32)>,
}

/// Executes the declared graph in declaration order. `live[p]` says whose reads to record (every
/// pass still runs: a live read of a culled pass's output must show up as a mismatch).
pub fn reference(graph: &RenderGraph<'_>, live: &[bool]) -> Result<Reference, String> {
    let res = graph.resources();
    let mut cur: Vec<Option<(Content, bool)>> = res
        .iter()
        .enumerate()
        .map(|(r, d)| match d.import {
            Some(i) if i.contents == ImportContents::Preserved => {
                Some((Content::Preserved(r as u32), false))
            }
            _ => None,
        })
        .collect();
    let mut out = Reference::default();
    for (p, pass) in graph.passes().iter().enumerate() {
        let pid = p as u32;
        let mut record = |obs: Observation, content: Content, fallback: bool| {
            if live[p] {
                out.expected.insert(obs, content);
                if fallback {
                    out.from_fallback.insert(obs);
                }
            }
        };
        let atts = attachments(pass);
        for &(slot, r, access, own) in &atts {
            let obs = Observation::Read {
                pass: pid,
                kind: ReadKind::Attachment(slot),
                resource: r,
            };
            let decl = &res[r as usize];
            match access {
                Access::Clear => record(obs, Content::Cleared(r, access_clear(decl, own)), false),
                Access::Write => {}
                _ => match cur[r as usize] {
                    Some((content, fallback)) => record(obs, content, fallback),
                    None => {
                        let value = own.or(decl.clear).ok_or_else(|| {
                            format!("pass {p} reads resource {r} before anything writes it")
                        })?;
                        out.fallback_clears.insert((pid, slot));
                        record(obs, Content::Cleared(r, clear_key(value)), true);
                    }
                },
            }
        }
        for (kind, r) in memory_reads(pass) {
            let obs = Observation::Read {
                pass: pid,
                kind,
                resource: r,
            };
            let (content, fallback) = cur[r as usize]
                .ok_or_else(|| format!("pass {p} reads resource {r} before anything writes it"))?;
            record(obs, content, fallback);
        }
        for &(_, r, access, _) in &atts {
            if access != Access::Read {
                cur[r as usize] = Some((
                    Content::Written {
                        pass: pid,
                        resource: r,
                    },
                    false,
                ));
            }
        }
        for c in &pass.color {
            if let Some(t) = c.resolve {
                cur[t as usize] = Some((
                    Content::Resolved {
                        target: t,
                        pass: pid,
                        source: c.resource,
                    },
                    false,
                ));
            }
        }
        for r in memory_writes(pass) {
            cur[r as usize] = Some((
                Content::Written {
                    pass: pid,
                    resource: r,
                },
                false,
            ));
        }
    }
    for (r, decl) in res.iter().enumerate() {
        if decl.import.is_some_and(|i| i.after == ImportAfter::Keep)
            && let Some((content, fallback)) = cur[r]
        {
            let obs = Observation::FrameEnd(r as u32);
            out.expected.insert(obs, content);
            if fallback {
                out.from_fallback.insert(obs);
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
    passes: &'g [PassDecl],
    slot_of: Vec<usize>,
    transient: Vec<bool>,
    memory: Vec<Content>,
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
        let n = res.len();
        let mut slot_of: Vec<usize> = (0..n).collect();
        let mut transient = vec![false; n];
        if let Memory::Planned = memory {
            for (r, p) in plan.resources().iter().enumerate() {
                if let Some(phys) = p.physical {
                    slot_of[r] = n + phys as usize;
                }
                transient[r] = p.transient;
            }
        }
        let slots = slot_of.iter().copied().max().map_or(0, |m| m + 1);
        let mut memory = vec![Content::Undefined; slots];
        for (r, decl) in res.iter().enumerate() {
            if decl
                .import
                .is_some_and(|i| i.contents == ImportContents::Preserved)
            {
                memory[slot_of[r]] = Content::Preserved(r as u32);
            }
        }
        Machine {
            res,
            passes: graph.passes(),
            slot_of,
            transient,
            memory,
            observed: BTreeMap::new(),
            errors: Vec::new(),
            expect: None,
            failed: false,
        }
    }

    /// Compares every read with `reference` as it happens (for searches that prune early).
    pub fn expecting(mut self, reference: &'g Reference) -> Self {
        self.expect = Some(reference);
        self
    }

    fn read_memory(&self, r: u32) -> Content {
        if self.transient[r as usize] {
            return Content::Undefined;
        }
        let content = self.memory[self.slot_of[r as usize]];
        if content.owner() == Some(r) {
            content
        } else {
            Content::Undefined
        }
    }

    fn write_memory(&mut self, r: u32, content: Content) {
        if !self.transient[r as usize] {
            self.memory[self.slot_of[r as usize]] = content;
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
                None => self.failed |= !matches!(obs, Observation::FrameEnd(_)),
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
                let content = self.read_memory(r as u32);
                self.observe(Observation::FrameEnd(r as u32), content);
            }
        }
    }

    pub fn run_group(&mut self, group: &Group) {
        if group.kind != PassKind::Render {
            if !group.color.is_empty() || group.depth.is_some() {
                self.errors
                    .push(format!("a {:?} group has attachments", group.kind));
            }
            for &p in &group.passes {
                self.run_memory_pass(p);
            }
            return;
        }
        let plans: Vec<_> = group.color.iter().chain(group.depth.iter()).collect();
        let mut tile: Vec<(u32, Content)> = plans
            .iter()
            .map(|a| {
                let content = match a.load {
                    LoadOp::Clear(v) => Content::Cleared(a.resource, clear_key(v)),
                    LoadOp::Load => self.read_memory(a.resource),
                    LoadOp::DontCare => Content::Undefined,
                };
                (a.resource, content)
            })
            .collect();
        // Storage writes inside one render pass race with every other pass's access to the resource.
        let mut writers: BTreeMap<u32, BTreeSet<u32>> = BTreeMap::new();
        for &p in &group.passes {
            for r in memory_writes(&self.passes[p as usize]) {
                writers.entry(r).or_default().insert(p);
            }
        }
        for &p in &group.passes {
            let pass = &self.passes[p as usize];
            if pass.kind != PassKind::Render {
                self.errors.push(format!("pass {p} is not a render pass"));
            }
            if pass.color.len() != group.color.len()
                || pass.depth.map(|d| d.resource) != group.depth.as_ref().map(|d| d.resource)
                || pass
                    .color
                    .iter()
                    .zip(&group.color)
                    .any(|(c, a)| c.resource != a.resource)
            {
                self.errors.push(format!(
                    "pass {p} attaches other resources than its group's"
                ));
                self.failed = true;
                continue;
            }
            let atts = attachments(pass);
            for &(slot, r, access, _) in &atts {
                if access != Access::Write {
                    let content = tile[slot as usize].1;
                    self.observe(
                        Observation::Read {
                            pass: p,
                            kind: ReadKind::Attachment(slot),
                            resource: r,
                        },
                        content,
                    );
                }
            }
            for (kind, r) in memory_reads(pass) {
                let racing = writers.get(&r).is_some_and(|w| w.iter().any(|&q| q != p));
                let content = if racing {
                    Content::Undefined
                } else {
                    self.read_memory(r)
                };
                self.observe(
                    Observation::Read {
                        pass: p,
                        kind,
                        resource: r,
                    },
                    content,
                );
            }
            for &(slot, r, access, _) in &atts {
                if access != Access::Read {
                    tile[slot as usize].1 = Content::Written {
                        pass: p,
                        resource: r,
                    };
                }
            }
        }
        for (a, &(r, content)) in plans.iter().zip(&tile) {
            match a.store {
                StoreOp::Store => self.write_memory(r, content),
                StoreOp::Discard => self.write_memory(r, Content::Undefined),
                StoreOp::None => {}
            }
        }
        for (a, &(_, content)) in plans.iter().zip(&tile) {
            if let Some(t) = a.resolve {
                let resolved = match content {
                    Content::Written { pass, resource } => Content::Resolved {
                        target: t,
                        pass,
                        source: resource,
                    },
                    _ => Content::Undefined,
                };
                self.write_memory(t, resolved);
            }
        }
        for (r, w) in writers {
            let content = match w.iter().collect::<Vec<_>>()[..] {
                [&p] => Content::Written {
                    pass: p,
                    resource: r,
                },
                _ => Content::Undefined,
            };
            self.write_memory(r, content);
        }
    }

    fn run_memory_pass(&mut self, p: u32) {
        let pass = &self.passes[p as usize];
        if !pass.color.is_empty() || pass.depth.is_some() {
            self.errors.push(format!(
                "pass {p} has attachments but runs outside a render group"
            ));
        }
        for (kind, r) in memory_reads(pass) {
            let content = self.read_memory(r);
            self.observe(
                Observation::Read {
                    pass: p,
                    kind,
                    resource: r,
                },
                content,
            );
        }
        for r in memory_writes(pass).collect::<Vec<_>>() {
            self.write_memory(
                r,
                Content::Written {
                    pass: p,
                    resource: r,
                },
            );
        }
    }
}

/// Every difference between what a plan made the reads see and what they must see. With
/// `naive_fallback`, a read of a clear-value fallback may see garbage (the naive plan loads there).
pub fn mismatches(
    reference: &Reference,
    observed: &BTreeMap<Observation, Content>,
    naive_fallback: bool,
) -> Vec<String> {
    let mut out = Vec::new();
    for (obs, want) in &reference.expected {
        match observed.get(obs) {
            None => out.push(format!("{obs:?} never happens (want {want:?})")),
            Some(got) if got == want => {}
            Some(Content::Undefined) if naive_fallback && reference.from_fallback.contains(obs) => {
            }
            Some(got) => out.push(format!("{obs:?} sees {got:?}, want {want:?}")),
        }
    }
    for (obs, got) in observed {
        let undefined_end = matches!(obs, Observation::FrameEnd(_));
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
    naive_fallback: bool,
) -> Vec<String> {
    let mut machine = Machine::new(graph, plan, memory);
    machine.run(groups);
    let mut out = machine.errors.clone();
    out.extend(mismatches(reference, &machine.observed, naive_fallback));
    out
}

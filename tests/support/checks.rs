//! The properties every compiled plan must have, shared by the random and the regression tests.
//!
//! Everything here is re-derived from the guide on the declared graph (with the
//! reference interpreter of `interp.rs` for what each read sees), never read off the compiler.

use std::collections::{BTreeMap, BTreeSet};

use tilegraph::plan::ResourceUsage;
use tilegraph::wgpu::{TextureFormat, TextureUsages};
use tilegraph::{
    Access, ClearValue, CompileOptions, CompiledGraph, Entry, ErrorKind, LoadOp, LoadReason,
    PassDecl, PassId, PassKind, RenderGraph, ResourceId, ResourceKind, StoreOp, StoreReason,
    Subresource, WarningKind,
};

use super::interp::{
    self, BASE, Content, Memory, Observation, ReadKind, Reference, access_clear, attachments,
    clear_key, entry_subs, execute_and_compare, reference,
};
use super::minimal::search_cheaper;

/// What the checks saw, printed at the end of each property.
#[derive(Default, Debug)]
pub struct Tally {
    pub graphs: u64,
    pub compiled: u64,
    pub errors: BTreeMap<&'static str, u64>,
    /// The last message of each error kind, to see what the generator gets wrong.
    pub error_examples: BTreeMap<&'static str, String>,
    pub groups: u64,
    pub merged_groups: u64,
    pub culled_passes: u64,
    pub transients: u64,
    pub shared_physical: u64,
    /// Compiled graphs whose live passes use a texture of more than one mip or layer.
    pub subresource_graphs: u64,
    /// Planned attachments of a subresource other than mip 0 of layer 0.
    pub sub_attachments: u64,
    /// Live list entries naming one subresource.
    pub sub_entries: u64,
    /// Live list entries naming the whole of a texture of more than one subresource.
    pub whole_multi_entries: u64,
    /// Merged groups whose attachments are not all mip 0 of layer 0.
    pub merged_sub_groups: u64,
    pub minimality_searches: u64,
    pub minimality_leaves: u64,
}

/// the guide's texel bytes for the formats the generator uses (kept apart from the crate's table).
pub fn texel_bytes(format: TextureFormat) -> u64 {
    match format {
        TextureFormat::Rgba8Unorm
        | TextureFormat::Bgra8Unorm
        | TextureFormat::Rgb10a2Unorm
        | TextureFormat::R32Float => 4,
        TextureFormat::Rgba16Float => 8,
        TextureFormat::Rgba32Float => 16,
        TextureFormat::Depth32Float | TextureFormat::Depth24Plus => 4,
        TextureFormat::Depth24PlusStencil8 => 4,
        TextureFormat::Depth16Unorm => 2,
        TextureFormat::Depth32FloatStencil8 => 8,
        other => panic!("the generator does not use {other:?}"),
    }
}

/// the guide: a mip renders at `max(1, w >> mip) × max(1, h >> mip)`.
pub fn mip_size(width: u32, height: u32, mip: u32) -> (u64, u64) {
    let shrink = |v: u32| u64::from(v.checked_shr(mip).unwrap_or(0).max(1));
    (shrink(width), shrink(height))
}

/// the guide: bytes of one subresource (an attachment, a one-subresource entry); a buffer's size.
pub fn sub_bytes(graph: &RenderGraph<'_>, r: ResourceId, sub: Subresource) -> u64 {
    match graph.resources()[r.index()].kind {
        ResourceKind::Texture(t) => {
            let (w, h) = mip_size(t.width, t.height, sub.mip);
            w * h * u64::from(t.samples) * texel_bytes(t.format)
        }
        ResourceKind::Buffer(b) => b.size,
    }
}

/// the guide: `bytes(R)` of a whole resource, every mip at its size times the layers.
pub fn whole_bytes(graph: &RenderGraph<'_>, r: ResourceId) -> u64 {
    match graph.resources()[r.index()].kind {
        ResourceKind::Texture(t) => (0..t.mips)
            .map(|mip| {
                let (w, h) = mip_size(t.width, t.height, mip);
                w * h * u64::from(t.layers) * u64::from(t.samples) * texel_bytes(t.format)
            })
            .sum(),
        ResourceKind::Buffer(b) => b.size,
    }
}

/// Bytes a list entry names.
pub fn entry_bytes(graph: &RenderGraph<'_>, e: Entry) -> u64 {
    match e.sub {
        Some(sub) => sub_bytes(graph, e.resource, sub),
        None => whole_bytes(graph, e.resource),
    }
}

/// One subresource of one resource.
pub type Key = (ResourceId, Subresource);

/// The subresources an entry names.
pub fn keys(graph: &RenderGraph<'_>, e: Entry) -> impl Iterator<Item = Key> {
    entry_subs(graph.resources(), e)
        .into_iter()
        .map(move |s| (e.resource, s))
}

fn multi_sub(graph: &RenderGraph<'_>, r: ResourceId) -> bool {
    interp::sub_count(&graph.resources()[r.index()]) > 1
}

pub fn options_from(bits: u8) -> CompileOptions {
    let mut options = CompileOptions::default();
    if bits & 1 != 0 {
        // SAFETY: plans are checked by the interpreter only, never executed on a device.
        options = options.with_dont_care(unsafe { tilegraph::wgpu::LoadOpDontCare::enabled() });
    }
    // The kill switches are rarer: most cases exercise the full compiler.
    if bits & 0b1110 == 0b0010 {
        options.merge = false;
    }
    if bits & 0b1110 == 0b0100 {
        options.alias = false;
    }
    if bits & 0b1110 == 0b0110 {
        options.transient = false;
    }
    if bits & 0b1110 == 0b1000 {
        options.cull = false;
    }
    options
}

macro_rules! ensure {
    ($cond:expr, $($msg:tt)+) => {
        if !$cond {
            return Err(format!($($msg)+));
        }
    };
}

/// Every property but minimality, for one graph description. `Ok(None)` when it does not compile.
pub fn check_graph(
    json: &str,
    options: &CompileOptions,
    tally: &mut Tally,
) -> Result<Option<(RenderGraph<'static>, CompiledGraph)>, String> {
    tally.graphs += 1;
    let graph =
        RenderGraph::from_json(json).map_err(|e| format!("generated description rejected: {e}"))?;
    // Validation covers the whole declared graph (the guide): the outcome cannot depend on what
    // the options switch off, culling included.
    let mut bare = CompileOptions::default();
    (bare.cull, bare.merge, bare.transient, bare.alias) = (false, false, false, false);
    let outcome = graph.compile(options);
    let bare_kind = graph.compile(&bare).err().map(|e| e.kind());
    ensure!(
        outcome.as_ref().err().map(|e| e.kind()) == bare_kind,
        "compiling with {options:?} gives {:?}, with every optimisation off {bare_kind:?}",
        outcome.as_ref().err()
    );
    let plan = match outcome {
        Ok(plan) => plan,
        Err(e) => {
            ensure!(
                ErrorKind::ALL.contains(&e.kind()),
                "undocumented error kind {}: {e}",
                e.kind()
            );
            let kind = e.kind().as_str();
            *tally.errors.entry(kind).or_default() += 1;
            tally.error_examples.insert(kind, e.to_string());
            return Ok(None);
        }
    };
    tally.compiled += 1;
    check_determinism(&graph, &plan, options)?;
    check_structure(&graph, &plan, options)?;
    check_liveness(&graph, &plan, options)?;
    let live: Vec<bool> = plan.passes().iter().map(|p| !p.culled).collect();
    let reference = reference(&graph, &live)?;
    let planned = execute_and_compare(&graph, &plan, plan.groups(), Memory::Planned, &reference);
    ensure!(
        planned.is_empty(),
        "planned execution differs from the declared semantics:\n  {}",
        planned.join("\n  ")
    );
    // The naive plan clears where nothing wrote the prior contents, so it must match exactly too.
    let naive = execute_and_compare(
        &graph,
        &plan,
        plan.naive_groups(),
        Memory::Separate,
        &reference,
    );
    ensure!(
        naive.is_empty(),
        "naive execution differs from the declared semantics:\n  {}",
        naive.join("\n  ")
    );
    check_naive_groups(&graph, &plan, &reference, &live)?;
    check_planned_ops(&graph, &plan, &reference, options)?;
    check_traffic(&graph, &plan, &live)?;
    check_lifetimes(&graph, &plan, &live)?;
    check_physical(&graph, &plan)?;
    check_transients(&graph, &plan, options)?;
    check_usage_scopes(&graph, &plan)?;
    check_boundaries(&graph, &reference, &plan, options)?;
    check_warnings(&graph, &plan, options)?;
    check_dependencies(&graph, &plan, &reference)?;
    tally.groups += plan.groups().len() as u64;
    tally.merged_groups += plan.groups().iter().filter(|g| g.passes.len() > 1).count() as u64;
    tally.merged_sub_groups += plan
        .groups()
        .iter()
        .filter(|g| {
            g.passes.len() > 1 && g.color.iter().chain(g.depth.iter()).any(|a| a.sub != BASE)
        })
        .count() as u64;
    tally.culled_passes += live.iter().filter(|l| !**l).count() as u64;
    tally.transients += plan.resources().iter().filter(|r| r.transient).count() as u64;
    tally.shared_physical += plan
        .physical()
        .iter()
        .filter(|p| p.resources.len() > 1)
        .count() as u64;
    tally.sub_attachments += plan
        .groups()
        .iter()
        .flat_map(|g| g.color.iter().chain(g.depth.iter()))
        .filter(|a| a.sub != BASE)
        .count() as u64;
    let mut subresources_used = false;
    for (_, pass) in graph.passes().iter().enumerate().filter(|&(p, _)| live[p]) {
        for (_, e) in pass.entries() {
            match e.sub {
                Some(_) => tally.sub_entries += 1,
                None if multi_sub(&graph, e.resource) => tally.whole_multi_entries += 1,
                None => {}
            }
        }
        subresources_used |= pass
            .attachments()
            .map(|a| a.resource)
            .chain(pass.entries().map(|(_, e)| e.resource))
            .any(|r| multi_sub(&graph, r));
    }
    tally.subresource_graphs += u64::from(subresources_used);
    Ok(Some((graph, plan)))
}

pub fn check_determinism(
    graph: &RenderGraph<'_>,
    plan: &CompiledGraph,
    options: &CompileOptions,
) -> Result<(), String> {
    let json = plan.to_json();
    let again = graph
        .compile(options)
        .map_err(|e| format!("second compile failed: {e}"))?;
    ensure!(again.to_json() == json, "two compiles of one graph differ");
    let reloaded = RenderGraph::from_json(&graph.to_json())
        .map_err(|e| format!("round trip rejected: {e}"))?;
    ensure!(
        reloaded.fingerprint() == graph.fingerprint(),
        "fingerprint changed across a round trip"
    );
    let replan = reloaded
        .compile(options)
        .map_err(|e| format!("round trip does not compile: {e}"))?;
    ensure!(
        replan.to_json() == json,
        "plan changed across a round trip:\n{}\n---\n{}",
        json,
        replan.to_json()
    );
    serde_json::from_str::<serde_json::Value>(&json).map_err(|e| format!("plan JSON: {e}"))?;
    Ok(())
}

pub fn check_structure(
    graph: &RenderGraph<'_>,
    plan: &CompiledGraph,
    options: &CompileOptions,
) -> Result<(), String> {
    let passes = graph.passes();
    let mut seen: Vec<Option<usize>> = vec![None; passes.len()];
    let mut previous: Option<PassId> = None;
    for (g, group) in plan.groups().iter().enumerate() {
        ensure!(!group.passes.is_empty(), "group {g} is empty");
        for &p in &group.passes {
            ensure!(p.index() < passes.len(), "group {g} names pass {p}");
            ensure!(seen[p.index()].is_none(), "pass {p} is in two groups");
            ensure!(
                previous < Some(p),
                "group {g} breaks declaration order at pass {p}"
            );
            previous = Some(p);
            seen[p.index()] = Some(g);
            ensure!(
                passes[p.index()].kind == group.kind,
                "pass {p} is not of its group's type"
            );
        }
        if group.kind != PassKind::Render {
            ensure!(
                group.passes.len() == 1,
                "{:?} group {g} holds several passes",
                group.kind
            );
            ensure!(
                group.color.is_empty() && group.depth.is_none(),
                "{:?} group {g} has attachments",
                group.kind
            );
        }
        if let Some(d) = &group.depth {
            let reads_only = group.passes.iter().all(|&p| {
                passes[p.index()]
                    .depth
                    .is_some_and(|d| d.access == Access::Read)
            });
            // Planned groups only: the naive plan keeps a read-only depth's store.
            ensure!(
                d.read_only == (d.store == StoreOp::None),
                "group {g}: read_only and store none disagree"
            );
            if d.read_only {
                ensure!(
                    reads_only && d.load == LoadOp::Load,
                    "group {g}: read-only depth that is written or not loaded"
                );
            }
        }
        for a in &group.color {
            ensure!(
                a.store != StoreOp::None && !a.read_only,
                "group {g}: colour attachment with store none or read-only"
            );
        }
    }
    for (p, pp) in plan.passes().iter().enumerate() {
        ensure!(
            pp.group.map(|g| g.index()) == seen[p],
            "pass {p}: plan says group {:?}, groups say {:?}",
            pp.group,
            seen[p]
        );
        ensure!(
            pp.culled == seen[p].is_none(),
            "pass {p}: culled and grouped disagree"
        );
        if passes[p].side_effects || !options.cull {
            ensure!(
                !pp.culled,
                "pass {p} must stay: side effects or culling off"
            );
        }
    }
    Ok(())
}

/// the guide, per subresource (Subresources): a pass is live if it has side effects (or culling is off),
/// wrote a version that a live pass reads, or wrote the frame-end version of a kept import; every
/// other pass is culled, transitively.
pub fn check_liveness(
    graph: &RenderGraph<'_>,
    plan: &CompiledGraph,
    options: &CompileOptions,
) -> Result<(), String> {
    let passes = graph.passes();
    let every = reference(graph, &vec![true; passes.len()])?;
    let mut live: Vec<bool> = passes
        .iter()
        .map(|p| p.side_effects || !options.cull)
        .collect();
    // Per pass, the writers of what it reads; readers come after writers.
    let mut read_from: Vec<Vec<PassId>> = vec![Vec::new(); passes.len()];
    for (obs, content) in &every.expected {
        match (*obs, content.writer()) {
            (Observation::FrameEnd(..), Some(w)) => live[w.index()] = true,
            (Observation::Read { pass, .. }, Some(w)) => read_from[pass.index()].push(w),
            _ => {}
        }
    }
    for p in (0..passes.len()).rev() {
        if live[p] {
            for &w in &read_from[p] {
                live[w.index()] = true;
            }
        }
    }
    for (p, pp) in plan.passes().iter().enumerate() {
        ensure!(
            pp.culled != live[p],
            "pass {p}: culled {}, but the guide makes it {}",
            pp.culled,
            if live[p] { "live" } else { "dead" }
        );
    }
    Ok(())
}

/// The clear value a `clear` access (or, with `own` absent, any other) clears to.
fn clear_of(graph: &RenderGraph<'_>, r: ResourceId, own: Option<ClearValue>) -> interp::ClearKey {
    access_clear(&graph.resources()[r.index()], own)
}

fn load_clear(load: LoadOp) -> Option<interp::ClearKey> {
    match load {
        LoadOp::Clear(v) => Some(clear_key(v)),
        _ => None,
    }
}

/// What the reference says pass `p`'s attachment in `slot` found on the tile.
fn attachment_read(
    reference: &Reference,
    p: PassId,
    slot: u32,
    r: ResourceId,
    sub: Subresource,
) -> Option<Content> {
    reference
        .expected
        .get(&Observation::Read {
            pass: p,
            kind: ReadKind::Attachment(slot),
            resource: r,
            sub,
        })
        .copied()
}

/// The naive plan (the guide and the naive rules of the guide's Subresources): every live pass its own group; `clear`
/// for a `clear` access and for a read of prior contents nothing wrote; `load` otherwise; `store`
/// always; resolves as declared; a loaded `read` depth attached read-only but still stored.
pub fn check_naive_groups(
    graph: &RenderGraph<'_>,
    plan: &CompiledGraph,
    reference: &Reference,
    live: &[bool],
) -> Result<(), String> {
    let live_passes: Vec<PassId> = (0..live.len())
        .filter(|&p| live[p])
        .map(PassId::new)
        .collect();
    let naive = plan.naive_groups();
    ensure!(
        naive.len() == live_passes.len(),
        "naive plan: {} groups for {} live passes",
        naive.len(),
        live_passes.len()
    );
    for (group, &p) in naive.iter().zip(&live_passes) {
        ensure!(
            group.passes == [p],
            "naive plan: group of {:?}, want [{p}]",
            group.passes
        );
        let pass = &graph.passes()[p.index()];
        ensure!(group.kind == pass.kind, "naive plan: pass {p} group type");
        let atts = attachments(pass);
        let plans: Vec<_> = group.color.iter().chain(group.depth.iter()).collect();
        ensure!(
            plans.len() == atts.len() && group.color.len() == pass.color.len(),
            "naive plan: pass {p} attachments"
        );
        for (a, d) in plans.iter().zip(&atts) {
            ensure!(
                (a.resource, a.sub, a.resolve) == (d.resource, d.sub, d.resolve),
                "naive plan: pass {p} slot {} attaches {:?} {:?} resolve {:?}, declared {:?} {:?} resolve {:?}",
                d.slot,
                a.resource,
                a.sub,
                a.resolve,
                d.resource,
                d.sub,
                d.resolve
            );
            let fallback = reference.fallback_clears.contains(&(p, d.slot));
            let (load, reason) = match d.access {
                Access::Clear => (
                    Some(clear_of(graph, d.resource, d.clear)),
                    LoadReason::Cleared,
                ),
                Access::Write => (None, LoadReason::Overwritten),
                _ if fallback => (
                    Some(clear_of(graph, d.resource, d.clear)),
                    LoadReason::NoContents,
                ),
                _ => {
                    let seen = attachment_read(reference, p, d.slot, d.resource, d.sub)
                        .ok_or_else(|| format!("no reference read of pass {p} slot {}", d.slot))?;
                    (
                        None,
                        LoadReason::ContentsNeeded {
                            writer: seen.writer(),
                        },
                    )
                }
            };
            let load_ok = match load {
                Some(key) => load_clear(a.load) == Some(key),
                None => a.load == LoadOp::Load,
            };
            ensure!(
                load_ok && a.load_reason == reason,
                "naive plan: pass {p} slot {} ({:?}) loads {:?} because {:?}; want {} because {reason:?}",
                d.slot,
                d.access,
                a.load,
                a.load_reason,
                if load.is_some() { "clear" } else { "load" }
            );
            ensure!(
                a.store == StoreOp::Store && a.store_reason == StoreReason::Naive,
                "naive plan: pass {p} slot {} stores {:?} because {:?}",
                d.slot,
                a.store,
                a.store_reason
            );
            let read_only = d.is_depth && d.access == Access::Read && !fallback;
            ensure!(
                a.read_only == read_only,
                "naive plan: pass {p} slot {} read_only {}, want {read_only}",
                d.slot,
                a.read_only
            );
        }
    }
    Ok(())
}

/// the guide's op inference, slot by slot, for the compiler's own groups: the load op from the
/// group's first access, the store op from whether the group's last write of the subresource is
/// read by a later group or kept after the frame, read-only depth, the resolve, and the reasons.
pub fn check_planned_ops(
    graph: &RenderGraph<'_>,
    plan: &CompiledGraph,
    reference: &Reference,
    options: &CompileOptions,
) -> Result<(), String> {
    let passes = graph.passes();
    for (g, group) in plan.groups().iter().enumerate() {
        if group.kind != PassKind::Render {
            continue;
        }
        let first = group.passes[0];
        let last = *group.passes.last().unwrap();
        let plans: Vec<_> = group.color.iter().chain(group.depth.iter()).collect();
        let firsts = attachments(&passes[first.index()]);
        ensure!(
            plans.len() == firsts.len() && group.color.len() == passes[first.index()].color.len(),
            "group {g}: attachments are not its first pass's"
        );
        for (a, d) in plans.iter().zip(&firsts) {
            let at = format!("group {g} slot {} ({} {:?})", d.slot, d.resource, d.sub);
            ensure!(
                (a.resource, a.sub) == (d.resource, d.sub),
                "{at}: plans {} {:?}",
                a.resource,
                a.sub
            );
            // Load: from the group's first access.
            let fallback = reference.fallback_clears.contains(&(first, d.slot));
            let loaded = attachment_read(reference, first, d.slot, d.resource, d.sub);
            let (load_ok, reason) = match d.access {
                Access::Clear => (
                    load_clear(a.load) == Some(clear_of(graph, d.resource, d.clear)),
                    LoadReason::Cleared,
                ),
                Access::Write if options.dont_care.is_some() => {
                    (a.load == LoadOp::DontCare, LoadReason::Overwritten)
                }
                Access::Write => (
                    load_clear(a.load) == Some(clear_of(graph, d.resource, None)),
                    LoadReason::Overwritten,
                ),
                _ if fallback => (
                    load_clear(a.load) == Some(clear_of(graph, d.resource, d.clear)),
                    LoadReason::NoContents,
                ),
                _ => (
                    a.load == LoadOp::Load,
                    LoadReason::ContentsNeeded {
                        writer: loaded.and_then(Content::writer),
                    },
                ),
            };
            ensure!(
                load_ok && a.load_reason == reason,
                "{at}: first access {:?} loads {:?} because {:?}; the guide gives {reason:?}",
                d.access,
                a.load,
                a.load_reason
            );
            // Store: what the group leaves in the slot, and who needs it afterwards.
            let writer = group.passes.iter().rev().find(|&&q| {
                attachments(&passes[q.index()])
                    .get(d.slot as usize)
                    .is_some_and(|x| x.access != Access::Read)
            });
            let (store, store_reason, read_only) = match writer {
                Some(&q) => {
                    let content = Content::Written {
                        pass: q,
                        resource: d.resource,
                        sub: d.sub,
                    };
                    let reader = reference
                        .expected
                        .iter()
                        .filter_map(|(obs, &c)| match *obs {
                            Observation::Read { pass, .. } if pass > last && c == content => {
                                Some(pass)
                            }
                            _ => None,
                        })
                        .max();
                    let kept = reference
                        .expected
                        .get(&Observation::FrameEnd(d.resource, d.sub))
                        == Some(&content);
                    match reader {
                        Some(reader) => (StoreOp::Store, StoreReason::ReadLater { reader }, false),
                        None if kept => (StoreOp::Store, StoreReason::KeptImport, false),
                        None => (StoreOp::Discard, StoreReason::NotNeeded, false),
                    }
                }
                // Nothing written: a cleared never-written depth is dropped, a loaded one is
                // attached read-only.
                None if fallback => (StoreOp::Discard, StoreReason::NotNeeded, false),
                None => (StoreOp::None, StoreReason::NothingWritten, d.is_depth),
            };
            ensure!(
                (a.store, a.store_reason, a.read_only) == (store, store_reason, read_only),
                "{at}: stores {:?} because {:?} (read-only {}); the guide gives {store:?} because {store_reason:?} (read-only {read_only})",
                a.store,
                a.store_reason,
                a.read_only
            );
            // The resolve happens at the end of the group, as its last pass declares it.
            let resolve = attachments(&passes[last.index()])
                .get(d.slot as usize)
                .and_then(|x| x.resolve);
            ensure!(
                a.resolve == resolve,
                "{at}: resolves into {:?}, the last pass declares {resolve:?}",
                a.resolve
            );
        }
    }
    Ok(())
}

/// Bytes the groups' attachments move (the guide): a load and a store move the attached
/// subresource; a resolve moves the target's mip 0 of layer 0 (single-sampled).
pub fn group_bytes(graph: &RenderGraph<'_>, groups: &[tilegraph::Group]) -> u64 {
    let mut total = 0;
    for a in groups
        .iter()
        .flat_map(|g| g.color.iter().chain(g.depth.iter()))
    {
        let bytes = sub_bytes(graph, a.resource, a.sub);
        total += super::minimal::op_bytes(a.load, a.store, bytes);
        if let Some(t) = a.resolve {
            total += sub_bytes(graph, t, BASE);
        }
    }
    total
}

pub fn check_traffic(
    graph: &RenderGraph<'_>,
    plan: &CompiledGraph,
    live: &[bool],
) -> Result<(), String> {
    let t = plan.traffic();
    let planned = group_bytes(graph, plan.groups());
    let naive = group_bytes(graph, plan.naive_groups());
    ensure!(
        t.bytes_per_frame == planned,
        "traffic {} but the groups move {planned}",
        t.bytes_per_frame
    );
    ensure!(
        t.naive_bytes_per_frame == naive,
        "naive traffic {} but its groups move {naive}",
        t.naive_bytes_per_frame
    );
    ensure!(
        planned <= naive,
        "planned traffic {planned} exceeds naive {naive}"
    );
    ensure!(
        t.bytes_per_second == planned * u64::from(t.fps),
        "bytes per second"
    );
    ensure!(
        t.naive_bytes_per_second == naive * u64::from(t.fps),
        "naive bytes per second"
    );
    let sampled: u64 = graph
        .passes()
        .iter()
        .enumerate()
        .filter(|&(p, _)| live[p])
        .flat_map(|(_, pass)| pass.sample.iter().chain(&pass.input))
        .map(|&e| entry_bytes(graph, e))
        .sum();
    ensure!(
        t.sampled_bytes_per_frame == sampled,
        "sampled bytes {} want {sampled}",
        t.sampled_bytes_per_frame
    );
    Ok(())
}

/// Every resource a pass touches, with the usage each touch needs.
pub fn uses(pass: &PassDecl) -> Vec<(ResourceId, TextureUsages)> {
    let mut out = Vec::new();
    for c in &pass.color {
        out.push((c.resource, TextureUsages::RENDER_ATTACHMENT));
        out.extend(c.resolve.map(|t| (t, TextureUsages::RENDER_ATTACHMENT)));
    }
    out.extend(
        pass.depth
            .map(|d| (d.resource, TextureUsages::RENDER_ATTACHMENT)),
    );
    for e in pass.sample.iter().chain(&pass.input) {
        out.push((e.resource, TextureUsages::TEXTURE_BINDING));
    }
    for e in pass
        .storage_read
        .iter()
        .chain(&pass.storage_write)
        .chain(&pass.storage_read_write)
    {
        out.push((e.resource, TextureUsages::STORAGE_BINDING));
    }
    out.extend(
        pass.copy_src
            .iter()
            .map(|e| (e.resource, TextureUsages::COPY_SRC)),
    );
    out.extend(
        pass.copy_dst
            .iter()
            .map(|e| (e.resource, TextureUsages::COPY_DST)),
    );
    out
}

/// A resource lives from the first to the last live group that uses any of its subresources.
pub fn check_lifetimes(
    graph: &RenderGraph<'_>,
    plan: &CompiledGraph,
    live: &[bool],
) -> Result<(), String> {
    let n = graph.resources().len();
    let mut span: Vec<Option<(usize, usize)>> = vec![None; n];
    let mut usage = vec![TextureUsages::empty(); n];
    for (p, pass) in graph.passes().iter().enumerate().filter(|&(p, _)| live[p]) {
        let g = plan.passes()[p]
            .group
            .expect("live passes are grouped")
            .index();
        for (r, u) in uses(pass) {
            let s = &mut span[r.index()];
            *s = Some(s.map_or((g, g), |(f, l)| (f.min(g), l.max(g))));
            usage[r.index()] |= u;
        }
    }
    for (r, rp) in plan.resources().iter().enumerate() {
        let got = rp
            .first_group
            .zip(rp.last_group)
            .map(|(f, l)| (f.index(), l.index()));
        ensure!(
            got == span[r],
            "resource {r}: lifetime {got:?}, live uses span {:?}",
            span[r]
        );
        ensure!(rp.culled == span[r].is_none(), "resource {r}: culled flag");
        if let ResourceUsage::Texture(u) = rp.usage {
            ensure!(
                u.contains(usage[r]),
                "resource {r}: usage {u:?} lacks {:?}",
                usage[r]
            );
        }
    }
    Ok(())
}

/// Physical textures are shared whole, by identical descriptors and usages, never by resources
/// whose lifetimes overlap.
pub fn check_physical(graph: &RenderGraph<'_>, plan: &CompiledGraph) -> Result<(), String> {
    let res = graph.resources();
    let mut members: BTreeMap<usize, Vec<ResourceId>> = BTreeMap::new();
    for (r, rp) in plan.resources().iter().enumerate() {
        let owned_live = !rp.culled && res[r].import.is_none();
        ensure!(
            rp.physical.is_some() == owned_live,
            "resource {r}: physical {:?} (owned and live: {owned_live})",
            rp.physical
        );
        if let Some(i) = rp.physical {
            members
                .entry(i.index())
                .or_default()
                .push(ResourceId::new(r));
        }
    }
    ensure!(
        members.len() == plan.physical().len(),
        "{} physical resources, {} used",
        plan.physical().len(),
        members.len()
    );
    for (i, phys) in plan.physical().iter().enumerate() {
        let mut listed = phys.resources.clone();
        listed.sort_unstable();
        ensure!(
            members.get(&i) == Some(&listed),
            "physical {i} lists {:?}",
            phys.resources
        );
        for &r in &listed {
            let rp = &plan.resources()[r.index()];
            ensure!(
                res[r.index()].kind == phys.kind && rp.usage == phys.usage,
                "resource {r} differs from its physical {i}"
            );
        }
        for (k, &a) in listed.iter().enumerate() {
            for &b in &listed[k + 1..] {
                let (pa, pb) = (&plan.resources()[a.index()], &plan.resources()[b.index()]);
                let overlap = pa.first_group <= pb.last_group && pb.first_group <= pa.last_group;
                ensure!(
                    !overlap,
                    "resources {a} and {b} share physical {i} with overlapping lifetimes"
                );
            }
        }
    }
    Ok(())
}

/// the guide: transient exactly when graph-owned, of one subresource, used only as an
/// attachment, in one group, cleared or ignored on entry and discarded on exit.
pub fn check_transients(
    graph: &RenderGraph<'_>,
    plan: &CompiledGraph,
    options: &CompileOptions,
) -> Result<(), String> {
    for (r, rp) in plan.resources().iter().enumerate() {
        let id = ResourceId::new(r);
        let decl = &graph.resources()[r];
        let one_subresource =
            matches!(decl.kind, ResourceKind::Texture(t) if t.mips == 1 && t.layers == 1);
        let mut entries = Vec::new();
        let mut other_use = false;
        for (g, group) in plan.groups().iter().enumerate() {
            for &p in &group.passes {
                let pass = &graph.passes()[p.index()];
                for (u, usage) in uses(pass) {
                    if u == id {
                        let attached = pass.color.iter().any(|c| c.resource == u)
                            || pass.depth.is_some_and(|d| d.resource == u);
                        other_use |= !attached || usage != TextureUsages::RENDER_ATTACHMENT;
                    }
                }
            }
            entries.extend(
                group
                    .color
                    .iter()
                    .chain(group.depth.iter())
                    .filter(|a| a.resource == id)
                    .map(|a| (g, a.clone())),
            );
        }
        let allowed = options.transient
            && decl.import.is_none()
            && one_subresource
            && !rp.culled
            && !other_use
            && entries.len() == 1
            && matches!(entries[0].1.load, LoadOp::Clear(_) | LoadOp::DontCare)
            && entries[0].1.store == StoreOp::Discard;
        ensure!(
            rp.transient == allowed,
            "resource {r}: transient {} but the guide says {allowed}",
            rp.transient
        );
        if let ResourceUsage::Texture(u) = rp.usage {
            ensure!(
                u.contains(TextureUsages::TRANSIENT_ATTACHMENT) == rp.transient,
                "resource {r}: TRANSIENT_ATTACHMENT usage and transient flag disagree"
            );
        }
    }
    Ok(())
}

/// The subresources a pass binds for a shader (sample, input, storage).
fn bound_keys(graph: &RenderGraph<'_>, pass: &PassDecl) -> Vec<Key> {
    pass.sample
        .iter()
        .chain(&pass.input)
        .chain(&pass.storage_read)
        .chain(&pass.storage_write)
        .chain(&pass.storage_read_write)
        .flat_map(|&e| keys(graph, e))
        .collect()
}

/// wgpu validates one render pass as one usage scope, per subresource: a subresource bound for
/// sampling, input or storage there cannot also be a written attachment or resolve target of the
/// pass (a read-only depth may be sampled; another mip or layer of an attached texture may be).
pub fn check_usage_scopes(graph: &RenderGraph<'_>, plan: &CompiledGraph) -> Result<(), String> {
    for (g, group) in plan
        .groups()
        .iter()
        .enumerate()
        .filter(|(_, g)| g.kind == PassKind::Render)
    {
        let mut written: BTreeSet<Key> = group.color.iter().map(|a| (a.resource, a.sub)).collect();
        written.extend(
            group
                .color
                .iter()
                .filter_map(|a| a.resolve.map(|t| (t, BASE))),
        );
        written.extend(
            group
                .depth
                .iter()
                .filter(|d| !d.read_only)
                .map(|d| (d.resource, d.sub)),
        );
        for &p in &group.passes {
            let pass = &graph.passes()[p.index()];
            for key in bound_keys(graph, pass) {
                ensure!(
                    !written.contains(&key),
                    "group {g}: pass {p} binds {key:?}, which the group's render pass writes as an attachment"
                );
            }
        }
    }
    Ok(())
}

pub fn check_minimal(
    graph: &RenderGraph<'_>,
    plan: &CompiledGraph,
    options: &CompileOptions,
    tally: &mut Tally,
) -> Result<(), String> {
    let live: Vec<bool> = plan.passes().iter().map(|p| !p.culled).collect();
    let reference = reference(graph, &live)?;
    let attached: BTreeSet<Key> = plan
        .groups()
        .iter()
        .flat_map(|g| {
            g.color
                .iter()
                .chain(g.depth.iter())
                .map(|a| (a.resource, a.sub))
        })
        .collect();
    for (r, sub) in attached {
        let found = search_cheaper(
            graph,
            plan,
            &reference,
            r,
            sub,
            sub_bytes(graph, r, sub),
            options.dont_care.is_some(),
        );
        tally.minimality_searches += 1;
        tally.minimality_leaves += found.leaves;
        if let Some((bytes, choices)) = found.cheaper {
            return Err(format!(
                "resource {r} {sub:?}: the compiler's ops move {} bytes, but {choices:?} moves {bytes} and every read still sees the right version",
                found.compiled
            ));
        }
    }
    Ok(())
}

/// Why `next` may not join a group of `members` (the guide's merge rule and boundary order, per
/// subresource as the guide's Subresources says, then the compiler's documented additions), or `None` when it must
/// join.
fn expected_boundary(
    graph: &RenderGraph<'_>,
    reference: &Reference,
    members: &[PassId],
    next: PassId,
    options: &CompileOptions,
) -> Option<&'static str> {
    let passes = graph.passes();
    let next = &passes[next.index()];
    let first = &passes[members[0].index()];
    if first.kind != PassKind::Render || next.kind != PassKind::Render {
        return Some("not_render");
    }
    let mut written: BTreeSet<Key> = BTreeSet::new();
    let mut bound: BTreeSet<Key> = BTreeSet::new();
    for &m in members {
        let p = &passes[m.index()];
        for a in attachments(p) {
            // A `read` of a depth with no contents clears it: the clear is written contents.
            if a.access != Access::Read || reference.fallback_clears.contains(&(m, a.slot)) {
                written.insert((a.resource, a.sub));
            }
            if let Some(t) = a.resolve {
                written.insert((t, BASE));
            }
        }
        for &e in p.storage_write.iter().chain(&p.storage_read_write) {
            written.extend(keys(graph, e));
        }
        bound.extend(bound_keys(graph, p));
    }
    let any_in = |set: &BTreeSet<Key>, list: &[Entry]| {
        list.iter()
            .any(|&e| keys(graph, e).any(|k| set.contains(&k)))
    };
    if any_in(&written, &next.sample)
        || any_in(&written, &next.storage_read)
        || any_in(&written, &next.storage_read_write)
    {
        return Some("samples_group_output");
    }
    if any_in(&written, &next.input) {
        return Some("inputs_group_output");
    }
    let slots = |p: &PassDecl| {
        let mut s: Vec<Option<Key>> = p.color.iter().map(|c| Some((c.resource, c.sub))).collect();
        s.push(p.depth.map(|d| (d.resource, d.sub)));
        s
    };
    if slots(first) != slots(next) {
        return Some("attachments_differ");
    }
    if attachments(next).iter().any(|a| a.access == Access::Clear) {
        return Some("clears_group_attachment");
    }
    let resolved = members
        .iter()
        .any(|&m| passes[m.index()].color.iter().any(|c| c.resolve.is_some()));
    if resolved {
        return Some("resolve");
    }
    let touched: BTreeSet<Key> = bound.union(&written).copied().collect();
    if any_in(&touched, &next.storage_write) || any_in(&touched, &next.storage_read_write) {
        return Some("storage_hazard");
    }
    let writes_bound = next
        .color
        .iter()
        .filter_map(|c| c.resolve.map(|t| (t, BASE)))
        .chain(
            next.depth
                .filter(|d| d.access != Access::Read)
                .map(|d| (d.resource, d.sub)),
        )
        .any(|k| bound.contains(&k));
    if writes_bound {
        return Some("writes_bound_texture");
    }
    if !options.merge {
        return Some("merging_disabled");
    }
    None
}

/// Every group ends for the first reason that applies, and never when none does: the compiler
/// merges as much as the guide allows, and explains each boundary truthfully.
pub fn check_boundaries(
    graph: &RenderGraph<'_>,
    reference: &Reference,
    plan: &CompiledGraph,
    options: &CompileOptions,
) -> Result<(), String> {
    let groups = plan.groups();
    for (g, group) in groups.iter().enumerate() {
        for (k, &p) in group.passes.iter().enumerate().skip(1) {
            let why = expected_boundary(graph, reference, &group.passes[..k], p, options);
            ensure!(
                why.is_none(),
                "group {g}: pass {p} joined although {why:?} applies"
            );
        }
        let want = match groups.get(g + 1) {
            None => Some("end_of_graph"),
            Some(next) => {
                expected_boundary(graph, reference, &group.passes, next.passes[0], options)
            }
        };
        ensure!(
            want == Some(group.boundary.as_str()),
            "group {g} ends with {:?}, the guide gives {want:?}",
            group.boundary.as_str()
        );
    }
    Ok(())
}

/// the guide's fast-clear values.
fn is_fast(value: ClearValue) -> bool {
    const FAST: [[f64; 4]; 4] = [
        [0.0, 0.0, 0.0, 0.0],
        [0.0, 0.0, 0.0, 1.0],
        [1.0, 1.0, 1.0, 0.0],
        [1.0, 1.0, 1.0, 1.0],
    ];
    match value {
        ClearValue::Color(c) => FAST.contains(&c),
        ClearValue::Depth(d) => d == 0.0 || d == 1.0,
        ClearValue::DepthStencil { depth, stencil } => {
            (depth == 0.0 || depth == 1.0) && stencil == 0
        }
    }
}

/// Warnings, re-derived from the (already checked) ops: `slow_clear_value` for each slow clear of
/// an attachment that is not transient, `clear_for_write` once per resource whose `write` pays a
/// clear without the `DontCare` token, `msaa_stored` for each stored multisampled attachment; each
/// naming the group's first pass.
pub fn check_warnings(
    graph: &RenderGraph<'_>,
    plan: &CompiledGraph,
    options: &CompileOptions,
) -> Result<(), String> {
    type Said = (&'static str, Option<PassId>, Option<ResourceId>);
    let mut want: Vec<Said> = Vec::new();
    let mut clear_for_write = BTreeSet::new();
    for group in plan.groups() {
        let pass = Some(group.passes[0]);
        for a in group.color.iter().chain(group.depth.iter()) {
            let r = a.resource;
            if let LoadOp::Clear(value) = a.load {
                if !is_fast(value) && !plan.resources()[r.index()].transient {
                    want.push(("slow_clear_value", pass, Some(r)));
                }
                if a.load_reason == LoadReason::Overwritten
                    && options.dont_care.is_none()
                    && clear_for_write.insert(r)
                {
                    want.push(("clear_for_write", pass, Some(r)));
                }
            }
            let samples = match graph.resources()[r.index()].kind {
                ResourceKind::Texture(t) => t.samples,
                ResourceKind::Buffer(_) => 1,
            };
            if samples > 1 && a.store == StoreOp::Store {
                want.push(("msaa_stored", pass, Some(r)));
            }
        }
    }
    let mut got: Vec<Said> = Vec::new();
    for w in plan.warnings() {
        let kind = match w.kind {
            WarningKind::SlowClearValue => "slow_clear_value",
            WarningKind::ClearForWrite => "clear_for_write",
            WarningKind::MsaaStored => "msaa_stored",
            other => return Err(format!("unexpected warning kind {other:?}")),
        };
        ensure!(
            w.kind.as_str() == kind,
            "warning kind {:?} prints as {}",
            w.kind,
            w.kind.as_str()
        );
        got.push((kind, w.pass, w.resource));
    }
    want.sort();
    got.sort();
    ensure!(got == want, "warnings {got:?}, want {want:?}");
    Ok(())
}

/// The plan's dependency list names, for every read of a live pass, the pass whose write it sees
/// (what the reference says), per subresource.
pub fn check_dependencies(
    graph: &RenderGraph<'_>,
    plan: &CompiledGraph,
    reference: &Reference,
) -> Result<(), String> {
    type Dep = (
        PassId,
        ResourceId,
        Subresource,
        &'static str,
        Option<PassId>,
    );
    let passes = graph.passes();
    let mut want: Vec<Dep> = Vec::new();
    for (obs, content) in &reference.expected {
        let Observation::Read {
            pass,
            kind,
            resource,
            sub,
        } = *obs
        else {
            continue;
        };
        let access = match kind {
            ReadKind::Attachment(slot) => {
                let a = attachments(&passes[pass.index()])[slot as usize];
                let fallback = reference.fallback_clears.contains(&(pass, slot));
                if a.access == Access::Clear || fallback {
                    continue;
                }
                a.access.as_str()
            }
            ReadKind::Sample(_) => "sample",
            ReadKind::Input(_) => "input",
            ReadKind::StorageRead(_) => "storage_read",
            ReadKind::StorageReadWrite(_) => "storage_read_write",
            ReadKind::CopySrc(_) => "copy_src",
        };
        want.push((pass, resource, sub, access, content.writer()));
    }
    let live: Vec<bool> = plan.passes().iter().map(|p| !p.culled).collect();
    let mut got: Vec<Dep> = plan
        .dependencies()
        .iter()
        .filter(|d| live[d.to.index()])
        .map(|d| (d.to, d.resource, d.sub, d.access, d.from))
        .collect();
    want.sort();
    got.sort();
    ensure!(
        got == want,
        "dependencies of live passes {got:?}, the reference reads {want:?}"
    );
    Ok(())
}

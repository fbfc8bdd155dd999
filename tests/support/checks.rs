//! The properties every compiled plan must have, shared by the random and the regression tests.
//!
//! Everything here is re-derived from the guide on the declared graph (with the
//! reference interpreter of `interp.rs` for what each read sees), never read off the compiler.

use std::collections::{BTreeMap, BTreeSet};

use tilegraph::decl::{Entry, PassDecl, PassKind, ResourceKind};
use tilegraph::plan::{LoadOp, LoadReason, StoreOp, StoreReason, WarningKind};
use tilegraph::plan::{NeededBy, ResourceUsage, Restructuring};
use tilegraph::wgpu::{BufferUsages, TextureFormat, TextureUsages};
use tilegraph::{
    Access, ClearValue, CompileOptions, CompiledGraph, ErrorKind, PassId, RenderGraph, ResourceId,
    Subresource, SubresourceRange,
};

use super::interp::{
    self, BASE, Content, Copies, Memory, Observation, ReadKind, Reference, access_clear,
    attachments, clear_key, entry_subs, execute_and_compare, memory_reads, memory_writes,
    reference, reference_with,
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
    /// Planned multiview groups, and those of several passes.
    pub multiview_groups: u64,
    pub merged_multiview_groups: u64,
    pub minimality_searches: u64,
    pub minimality_leaves: u64,
    /// Plans restructuring changed, and how.
    pub restructured_graphs: u64,
    pub cheaper_graphs: u64,
    pub moved_graphs: u64,
    pub moves: u64,
    pub dropped_graphs: u64,
    pub dropped_resolves: u64,
    pub folded_graphs: u64,
    pub folded_copies: u64,
    /// Live `keep_order` passes in restructured plans.
    pub keep_order_passes: u64,
    /// Minimality of moves: single moves tried on restructured plans, and those that would have
    /// been cheaper (see `check_moves`).
    pub moves_tried: u64,
    pub cheaper_single_moves: u64,
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
    if e.range.is_all() {
        return whole_bytes(graph, e.resource);
    }
    interp::entry_subs(graph.resources(), e)
        .into_iter()
        .map(|sub| sub_bytes(graph, e.resource, sub))
        .sum()
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
///
/// The graph is compiled with `options` (restructured unless they say otherwise) and in declared
/// order (`with_restructure(false)`). The declared-order plan gets every property of the declared
/// compiler ([`check_declared_plan`]); the restructured plan must compute the same frame in
/// another order ([`check_restructured`]). Returns the plan compiled with `options`.
pub fn check_graph(
    json: &str,
    options: &CompileOptions,
    tally: &mut Tally,
) -> Result<Option<(RenderGraph<'static>, CompiledGraph)>, String> {
    tally.graphs += 1;
    let graph =
        RenderGraph::from_json(json).map_err(|e| format!("generated description rejected: {e}"))?;
    // Validation covers the whole declared graph (the guide): the outcome cannot depend on what
    // the options switch off, culling and restructuring included.
    let mut bare = CompileOptions::default().with_restructure(false);
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
    let declared_options = options.with_restructure(false);
    let declared = graph
        .compile(&declared_options)
        .map_err(|e| format!("compiles restructured but not in declared order: {e}"))?;
    check_declared_order(&plan, &declared)?;
    check_declared_plan(&graph, &declared, &declared_options)?;
    check_restructured(&graph, &plan, &declared, options, tally)?;
    let live: Vec<bool> = plan.passes().iter().map(|p| !p.culled).collect();
    tally.groups += plan.groups().len() as u64;
    tally.merged_groups += plan.groups().iter().filter(|g| g.passes.len() > 1).count() as u64;
    tally.merged_sub_groups += plan
        .groups()
        .iter()
        .filter(|g| g.passes.len() > 1 && g.attachments().any(|a| a.sub != BASE))
        .count() as u64;
    let multiview = plan.groups().iter().filter(|g| g.multiview.is_some());
    tally.multiview_groups += multiview.clone().count() as u64;
    tally.merged_multiview_groups += multiview.filter(|g| g.passes.len() > 1).count() as u64;
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
        .flat_map(|g| g.attachments())
        .filter(|a| a.sub != BASE)
        .count() as u64;
    let mut subresources_used = false;
    for (_, pass) in graph.passes().iter().enumerate().filter(|&(p, _)| live[p]) {
        for (_, e) in pass.entries() {
            if !e.range.is_all() {
                tally.sub_entries += 1;
            } else if multi_sub(&graph, e.resource) {
                tally.whole_multi_entries += 1;
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

/// `with_restructure(false)` gives the declared order and says it changed nothing, and
/// `as_declared()` is that plan; a restructuring that changed nothing is the declared plan.
pub fn check_declared_order(plan: &CompiledGraph, declared: &CompiledGraph) -> Result<(), String> {
    ensure!(
        declared.restructuring().is_empty(),
        "restructuring off, yet {:?}",
        declared.restructuring()
    );
    let live: Vec<PassId> = (0..declared.passes().len())
        .filter(|&p| !declared.passes()[p].culled)
        .map(PassId::new)
        .collect();
    ensure!(
        declared.order() == live,
        "restructuring off, order {:?}, live passes {live:?}",
        declared.order()
    );
    ensure!(
        declared.passes().iter().all(|p| p.folded_into.is_none()),
        "restructuring off, yet a copy is folded"
    );
    let t = declared.traffic();
    ensure!(
        t.declared_bytes_per_frame == t.bytes_per_frame,
        "restructuring off: declared bytes {} but bytes {}",
        t.declared_bytes_per_frame,
        t.bytes_per_frame
    );
    // When restructuring changed nothing, as_declared() is the plan itself.
    ensure!(
        plan.as_declared().to_json() == declared.to_json(),
        "as_declared() differs from the plan compiled with restructuring off{}",
        if plan.restructuring().is_empty() {
            " (restructuring changed nothing)"
        } else {
            ""
        }
    );
    Ok(())
}

/// Every property of the declared-order compiler (the guide without restructuring).
pub fn check_declared_plan(
    graph: &RenderGraph<'_>,
    plan: &CompiledGraph,
    options: &CompileOptions,
) -> Result<(), String> {
    check_determinism(graph, plan, options)?;
    check_structure(graph, plan, options, true)?;
    check_liveness(graph, plan, options)?;
    let live: Vec<bool> = plan.passes().iter().map(|p| !p.culled).collect();
    let reference = reference(graph, &live)?;
    let planned = execute_and_compare(graph, plan, plan.groups(), Memory::Planned, &reference);
    ensure!(
        planned.is_empty(),
        "planned execution differs from the declared semantics:\n  {}",
        planned.join("\n  ")
    );
    // The naive plan clears where nothing wrote the prior contents, so it must match exactly too.
    let naive = execute_and_compare(
        graph,
        plan,
        plan.naive_groups(),
        Memory::Separate,
        &reference,
    );
    ensure!(
        naive.is_empty(),
        "naive execution differs from the declared semantics:\n  {}",
        naive.join("\n  ")
    );
    let passes = graph.passes();
    check_naive_groups(graph, plan, &reference, &live)?;
    check_planned_ops(graph, plan, &reference, options, passes)?;
    check_traffic(graph, plan, &live)?;
    check_lifetimes(graph, plan, passes, &live)?;
    check_physical(graph, plan)?;
    check_transients(graph, plan, options, passes)?;
    check_usage_scopes(graph, plan, passes)?;
    check_boundaries(graph, passes, &reference, plan, options)?;
    check_warnings(graph, plan, options)?;
    check_dependencies(graph, plan, &reference)?;
    check_needed_by(graph, plan, &reference, options)?;
    Ok(())
}

/// Per pass: it runs in the plan (live and not folded into a resolve).
pub fn runs(plan: &CompiledGraph) -> Vec<bool> {
    plan.passes()
        .iter()
        .map(|p| !p.culled && p.folded_into.is_none())
        .collect()
}

/// The properties of a restructured plan (the guide's Restructuring), checked against the
/// declarations and the declared-order plan `declared`, never against the compiler's reasoning:
/// the same passes live; `order()`, groups and restructuring entries consistent and justified;
/// every hazard, side effect and pinned pass in declared order; every read and every kept import
/// seeing the declared contents (the interpreter, copies as data); traffic at most the declared
/// plan's; and the declared compiler's per-plan properties (ops, lifetimes, transients, physical
/// textures, usage scopes, boundaries, warnings) on the declarations as the plan runs them.
pub fn check_restructured(
    graph: &RenderGraph<'_>,
    plan: &CompiledGraph,
    declared: &CompiledGraph,
    options: &CompileOptions,
    tally: &mut Tally,
) -> Result<(), String> {
    let changes = plan.restructuring();
    if changes.is_empty() {
        // check_declared_order showed it is the declared plan.
        return Ok(());
    }
    ensure!(options.restructure, "restructuring off, yet {changes:?}");
    tally.restructured_graphs += 1;
    let count = |kind: &str| changes.iter().filter(|c| c.kind_str() == kind).count() as u64;
    let (moves, dropped, folded) = (
        count("moved"),
        count("resolve_dropped"),
        count("copy_folded"),
    );
    tally.moves += moves;
    tally.moved_graphs += u64::from(moves > 0);
    tally.dropped_resolves += dropped;
    tally.dropped_graphs += u64::from(dropped > 0);
    tally.folded_copies += folded;
    tally.folded_graphs += u64::from(folded > 0);
    let saved = declared.traffic().bytes_per_frame
        - plan
            .traffic()
            .bytes_per_frame
            .min(declared.traffic().bytes_per_frame);
    tally.cheaper_graphs += u64::from(saved > 0);
    tally.keep_order_passes += graph
        .passes()
        .iter()
        .zip(plan.passes())
        .filter(|(d, p)| d.keep_order && !p.culled)
        .count() as u64;

    for (p, (pp, dp)) in plan.passes().iter().zip(declared.passes()).enumerate() {
        ensure!(
            pp.culled == dp.culled,
            "pass {p}: culled {} restructured, {} in declared order",
            pp.culled,
            dp.culled
        );
    }
    check_determinism(graph, plan, options)?;
    check_structure(graph, plan, options, false)?;
    let runs = runs(plan);
    let eff = effective_passes(graph, plan);
    let declared_live: Vec<bool> = declared.passes().iter().map(|p| !p.culled).collect();
    let declared_ref = reference(graph, &declared_live)?;
    check_changes(graph, plan, declared, &eff, &declared_ref, &runs)?;
    check_order(graph, plan, &eff, &runs)?;
    check_needed_by(graph, plan, &declared_ref, options)?;

    // What every read sees, with copies as data: a folded copy's destination then holds what
    // the copy would have put there. Folded copies do not run, so their reads are not expected.
    let data = reference_with(graph, &runs, Copies::Propagate)?;
    let planned = execute_and_compare(graph, plan, plan.groups(), Memory::Planned, &data);
    ensure!(
        planned.is_empty(),
        "restructured execution differs from the declared semantics:\n  {}",
        planned.join("\n  ")
    );

    let (t, d) = (plan.traffic(), declared.traffic());
    ensure!(
        t.bytes_per_frame <= d.bytes_per_frame,
        "restructured traffic {} exceeds the declared plan's {}",
        t.bytes_per_frame,
        d.bytes_per_frame
    );
    ensure!(
        t.declared_bytes_per_frame == d.bytes_per_frame,
        "declared_bytes_per_frame {}, the declared plan moves {}",
        t.declared_bytes_per_frame,
        d.bytes_per_frame
    );
    ensure!(
        (t.naive_bytes_per_frame, t.sampled_bytes_per_frame, t.fps)
            == (d.naive_bytes_per_frame, d.sampled_bytes_per_frame, d.fps),
        "naive or sampled traffic differs from the declared plan's"
    );
    ensure!(
        plan.naive_groups() == declared.naive_groups(),
        "the naive plan differs from the declared plan's"
    );
    let live: Vec<bool> = plan.passes().iter().map(|p| !p.culled).collect();
    check_traffic(graph, plan, &live)?;

    // The declared compiler's per-plan rules, on the declarations as the plan runs them.
    let running = fold_writers(reference(graph, &runs)?, plan);
    check_planned_ops(graph, plan, &running, options, &eff)?;
    check_lifetimes(graph, plan, &eff, &runs)?;
    check_physical(graph, plan)?;
    check_transients(graph, plan, options, &eff)?;
    check_usage_scopes(graph, plan, &eff)?;
    check_boundaries(graph, &eff, &running, plan, options)?;
    check_warnings(graph, plan, options)?;
    check_dependencies(graph, plan, &declared_ref)?;
    Ok(())
}

/// In a reference of the passes a plan runs: what a folded copy wrote is what the resolve it was
/// folded into wrote (the version's writer is that resolving pass).
pub fn fold_writers(mut reference: Reference, plan: &CompiledGraph) -> Reference {
    for content in reference.expected.values_mut() {
        if let Content::Written {
            pass,
            resource,
            sub,
        } = *content
            && let Some(into) = plan.passes()[pass.index()].folded_into
        {
            *content = Content::Written {
                pass: into,
                resource,
                sub,
            };
        }
    }
    reference
}

/// The declarations as the plan runs them: a pass resolves what its group resolves at its end
/// (nothing when it does not end its group); everything else as declared.
pub fn effective_passes(graph: &RenderGraph<'_>, plan: &CompiledGraph) -> Vec<PassDecl> {
    let mut eff = graph.passes().to_vec();
    for group in plan.groups() {
        for (k, &p) in group.passes.iter().enumerate() {
            let last = k + 1 == group.passes.len();
            let n = interp::views(&eff[p.index()]) as usize;
            for (slot, c) in eff[p.index()].color.iter_mut().enumerate() {
                c.resolve = if last {
                    group.color.get(slot * n).and_then(|a| a.resolve)
                } else {
                    None
                };
            }
        }
    }
    eff
}

/// Whether a pass writes a subresource (attachment other than `read`, resolve target, storage or
/// copy destination).
fn writes_key(graph: &RenderGraph<'_>, pass: &PassDecl, key: Key) -> bool {
    attachments(pass).iter().any(|a| {
        (a.access != Access::Read && (a.resource, a.sub) == key)
            || (a.resolve.map(|t| (t, a.resolve_sub)) == Some(key))
    }) || memory_writes(pass).any(|e| keys(graph, e).any(|k| k == key))
}

/// The subresources a pass reads and writes as the plan runs it: (key, writes).
fn access_keys(graph: &RenderGraph<'_>, pass: &PassDecl) -> Vec<(Key, bool)> {
    let mut out = Vec::new();
    for a in attachments(pass) {
        let key = (a.resource, a.sub);
        if matches!(a.access, Access::Read | Access::ReadWrite) {
            out.push((key, false));
        }
        if a.access != Access::Read {
            out.push((key, true));
        }
        if let Some(t) = a.resolve {
            out.push(((t, a.resolve_sub), true));
        }
    }
    for (_, e) in memory_reads(pass) {
        out.extend(keys(graph, e).map(|k| (k, false)));
    }
    for e in memory_writes(pass) {
        out.extend(keys(graph, e).map(|k| (k, true)));
    }
    out
}

/// The slots of a render pass: colour (resource, subresource) in order, then depth.
fn attachment_slots(pass: &PassDecl) -> (Vec<Key>, Option<Key>) {
    (
        pass.color.iter().map(|c| (c.resource, c.sub)).collect(),
        pass.depth.map(|d| (d.resource, d.sub)),
    )
}

/// Every restructuring entry is true of the declarations, and the plan's resolves differ from the
/// declared ones exactly where an entry says so.
pub fn check_changes(
    graph: &RenderGraph<'_>,
    plan: &CompiledGraph,
    declared: &CompiledGraph,
    eff: &[PassDecl],
    declared_ref: &Reference,
    runs: &[bool],
) -> Result<(), String> {
    let passes = graph.passes();
    let res = graph.resources();
    let group_of = |p: PassId| plan.passes()[p.index()].group;
    let declared_live = |p: usize| !declared.passes()[p].culled;
    let resolve_token = |p: PassId, target: ResourceId| {
        passes[p.index()]
            .color
            .iter()
            .find(|c| c.resolve == Some(target))
            .map(|c| Content::Resolved {
                pass: p,
                source: c.resource,
                source_sub: c.sub,
            })
    };
    // Live reads of a content at (r, BASE), and whether the frame ends with it.
    let readers_of = |r: ResourceId, token: Content| -> Vec<PassId> {
        declared_ref
            .expected
            .iter()
            .filter_map(|(obs, &c)| match *obs {
                Observation::Read {
                    pass,
                    resource,
                    sub,
                    ..
                } if resource == r && sub == BASE && c == token => Some(pass),
                _ => None,
            })
            .collect()
    };
    let kept_at_end = |r: ResourceId, token: Content| {
        declared_ref.expected.get(&Observation::FrameEnd(r, BASE)) == Some(&token)
    };
    let mut dropped: BTreeSet<(PassId, ResourceId)> = BTreeSet::new();
    let mut folded: BTreeMap<(PassId, ResourceId), ResourceId> = BTreeMap::new();
    let mut moved: BTreeSet<PassId> = BTreeSet::new();
    for change in plan.restructuring() {
        match change {
            Restructuring::Moved {
                pass,
                joins,
                ahead,
                after,
                saved_bytes,
            } => {
                let (x, j) = (*pass, *joins);
                ensure!(moved.insert(x), "pass {x} moved twice");
                ensure!(
                    runs[x.index()] && runs[j.index()],
                    "{change:?}: a pass that does not run"
                );
                ensure!(
                    passes[x.index()].kind == PassKind::Render
                        && passes[j.index()].kind == PassKind::Render,
                    "{change:?}: not render passes"
                );
                ensure!(j < x, "{change:?}: joins a pass declared after it");
                ensure!(
                    !passes[x.index()].keep_order,
                    "{change:?}: a keep_order pass moved"
                );
                ensure!(*saved_bytes > 0, "{change:?}: saves nothing");
                ensure!(
                    attachment_slots(&passes[x.index()]) == attachment_slots(&passes[j.index()]),
                    "{change:?}: the attachments differ"
                );
                ensure!(
                    group_of(x).is_some() && group_of(x) == group_of(j),
                    "{change:?}: {x} is in group {:?}, {j} in {:?}",
                    group_of(x),
                    group_of(j)
                );
                let mut listed = BTreeSet::new();
                for &q in ahead.iter().chain(after) {
                    ensure!(
                        runs[q.index()] && q < x && q != j && listed.insert(q),
                        "{change:?}: lists {q}, which does not run, is not declared before it or is listed twice"
                    );
                }
            }
            Restructuring::ResolveDropped {
                pass,
                resource,
                overwritten_by,
            } => {
                let (p, t) = (*pass, *resource);
                ensure!(runs[p.index()], "{change:?}: the pass does not run");
                let token = resolve_token(p, t)
                    .ok_or_else(|| format!("{change:?}: the pass declares no such resolve"))?;
                let read = readers_of(t, token);
                ensure!(
                    read.is_empty(),
                    "{change:?}: live passes {read:?} read the resolve"
                );
                ensure!(
                    !kept_at_end(t, token),
                    "{change:?}: the frame ends with the resolve in a kept import"
                );
                let next = (p.index() + 1..passes.len())
                    .find(|&q| declared_live(q) && writes_key(graph, &passes[q], (t, BASE)))
                    .map(PassId::new);
                ensure!(
                    *overwritten_by == next,
                    "{change:?}: the next live write of the target is {next:?}"
                );
                ensure!(dropped.insert((p, t)), "{change:?} twice");
            }
            Restructuring::CopyFolded {
                pass,
                into,
                source,
                target,
            } => {
                let (c, p, r, s) = (*pass, *into, *source, *target);
                let cp = &plan.passes()[c.index()];
                ensure!(
                    cp.folded_into == Some(p) && !cp.culled && cp.group.is_none(),
                    "{change:?}: the copy's plan is {cp:?}"
                );
                ensure!(
                    declared_live(c.index()),
                    "{change:?}: the copy is culled in declared order"
                );
                let cd = &passes[c.index()];
                let whole_or_base = |r: SubresourceRange| {
                    r.is_all() || (r.contains(BASE) && r.resolve(1, 1) == (0, 1, 0, 1))
                };
                ensure!(
                    cd.kind == PassKind::Copy
                        && cd.entries().count() == 2
                        && cd.copy_src.len() == 1
                        && cd.copy_dst.len() == 1
                        && cd.copy_src[0].resource == r
                        && cd.copy_dst[0].resource == s
                        && whole_or_base(cd.copy_src[0].range)
                        && whole_or_base(cd.copy_dst[0].range)
                        && !cd.side_effects
                        && !cd.keep_order,
                    "{change:?}: not a plain copy from the source to the target"
                );
                ensure!(
                    runs[p.index()],
                    "{change:?}: the resolving pass does not run"
                );
                let token = resolve_token(p, r)
                    .ok_or_else(|| format!("{change:?}: the pass declares no such resolve"))?;
                let (rd, sd) = (&res[r.index()], &res[s.index()]);
                ensure!(
                    r != s
                        && matches!(sd.kind, ResourceKind::Texture(_))
                        && sd.kind == rd.kind
                        && interp::sub_count(sd) == 1
                        && sd.import.is_none()
                        && rd
                            .import
                            .is_none_or(|i| i.after != tilegraph::ImportAfter::Keep),
                    "{change:?}: the target is not a graph-owned texture of the source's shape, or the source is kept"
                );
                let read = readers_of(r, token);
                ensure!(
                    read == [c],
                    "{change:?}: the resolve is read by {read:?}, not by the copy alone"
                );
                ensure!(
                    !kept_at_end(r, token),
                    "{change:?}: the frame ends with the resolve in a kept import"
                );
                let between = p.index() + 1..c.index();
                if let Some(q) = between
                    .clone()
                    .find(|&q| declared_live(q) && passes[q].uses(s))
                {
                    return Err(format!(
                        "{change:?}: live pass {q} between the resolve and the copy uses the target"
                    ));
                }
                ensure!(
                    folded.insert((p, r), s).is_none(),
                    "{change:?}: a second fold of one resolve"
                );
            }
            other => return Err(format!("unknown restructuring {other:?}")),
        }
    }
    let folded_count = plan
        .passes()
        .iter()
        .filter(|p| p.folded_into.is_some())
        .count();
    ensure!(
        folded_count == folded.len(),
        "{folded_count} folded passes, {} copy_folded entries",
        folded.len()
    );
    // Resolves differ from the declared ones exactly where an entry says so.
    for p in (0..passes.len()).filter(|&p| runs[p]) {
        let pid = PassId::new(p);
        for (slot, c) in passes[p].color.iter().enumerate() {
            let planned = eff[p].color[slot].resolve;
            match (c.resolve, planned) {
                (d, e) if d == e => {
                    if let Some(t) = d {
                        ensure!(
                            !dropped.contains(&(pid, t)) && !folded.contains_key(&(pid, t)),
                            "pass {p} still resolves into {t}, though an entry changed it"
                        );
                    }
                }
                (Some(t), None) => ensure!(
                    dropped.remove(&(pid, t)),
                    "pass {p} slot {slot}: the resolve into {t} is gone, no resolve_dropped says so"
                ),
                (Some(t), Some(s)) => ensure!(
                    folded.remove(&(pid, t)) == Some(s),
                    "pass {p} slot {slot}: resolves into {s}, declared {t}, no copy_folded says so"
                ),
                (None, Some(s)) => {
                    return Err(format!(
                        "pass {p} slot {slot}: resolves into {s}, declared none"
                    ));
                }
                (None, None) => {}
            }
        }
    }
    ensure!(
        dropped.is_empty() && folded.is_empty(),
        "entries with no effect on the plan: dropped {dropped:?}, folded {folded:?}"
    );
    Ok(())
}

/// Hazard pairs among the passes that run, from the declarations as the plan runs them: (earlier,
/// later) in declared order, touching one subresource, at least one writing it; side-effect passes
/// pairwise.
pub fn hazard_pairs(
    graph: &RenderGraph<'_>,
    eff: &[PassDecl],
    runs: &[bool],
) -> BTreeSet<(PassId, PassId)> {
    let running: Vec<usize> = (0..eff.len()).filter(|&p| runs[p]).collect();
    let access: Vec<Vec<(Key, bool)>> = eff.iter().map(|p| access_keys(graph, p)).collect();
    let mut pairs = BTreeSet::new();
    for (i, &p) in running.iter().enumerate() {
        for &q in &running[i + 1..] {
            let conflict = access[p]
                .iter()
                .any(|&(k, wp)| access[q].iter().any(|&(l, wq)| k == l && (wp || wq)));
            if conflict || (eff[p].side_effects && eff[q].side_effects) {
                pairs.insert((PassId::new(p), PassId::new(q)));
            }
        }
    }
    pairs
}

/// `order()` holds the passes that run, once each, and the groups list them in that order; every
/// hazard pair and every pair of side-effect passes keeps its declared order; no pass crosses a
/// `keep_order` pass (the passes before it are those declared before it).
pub fn check_order(
    graph: &RenderGraph<'_>,
    plan: &CompiledGraph,
    eff: &[PassDecl],
    runs: &[bool],
) -> Result<(), String> {
    let order = plan.order();
    let mut sorted = order.to_vec();
    sorted.sort_unstable();
    let running: Vec<PassId> = (0..runs.len())
        .filter(|&p| runs[p])
        .map(PassId::new)
        .collect();
    ensure!(
        sorted == running,
        "order {order:?} is not a permutation of the passes that run {running:?}"
    );
    let grouped: Vec<PassId> = plan
        .groups()
        .iter()
        .flat_map(|g| g.passes.iter().copied())
        .collect();
    ensure!(
        grouped == order,
        "groups list {grouped:?}, order is {order:?}"
    );
    let mut pos = vec![usize::MAX; runs.len()];
    for (i, &p) in order.iter().enumerate() {
        pos[p.index()] = i;
    }
    for (p, q) in hazard_pairs(graph, eff, runs) {
        ensure!(
            pos[p.index()] < pos[q.index()],
            "passes {p} and {q} conflict (or both have side effects) but run in the other order: {order:?}"
        );
    }
    for &k in running.iter().filter(|k| eff[k.index()].keep_order) {
        let before: Vec<PassId> = order[..pos[k.index()]]
            .iter()
            .copied()
            .filter(|_| true)
            .collect();
        let mut before = before;
        before.sort_unstable();
        let declared: Vec<PassId> = running.iter().copied().filter(|&p| p < k).collect();
        ensure!(
            before == declared,
            "keep_order pass {k}: {before:?} run before it, {declared:?} are declared before it"
        );
    }
    Ok(())
}

/// Every live pass says truly why it is alive (the guide): its side effects first, else a kept
/// import whose frame-end contents it writes, else the first pass (in declared order) that runs
/// and reads what it wrote (for a resolve a copy was folded into: what the copy wrote). Culled and
/// folded passes, and live passes nothing needs (culling off), say nothing.
pub fn check_needed_by(
    graph: &RenderGraph<'_>,
    plan: &CompiledGraph,
    declared_ref: &Reference,
    options: &CompileOptions,
) -> Result<(), String> {
    let passes = graph.passes();
    let runs = runs(plan);
    for (p, pp) in plan.passes().iter().enumerate() {
        let pid = PassId::new(p);
        if !runs[p] {
            ensure!(
                pp.needed_by.is_none(),
                "pass {p} does not run, yet it is needed by {:?}",
                pp.needed_by
            );
            continue;
        }
        let folded_here: Vec<PassId> = (0..passes.len())
            .filter(|&c| plan.passes()[c].folded_into == Some(pid))
            .map(PassId::new)
            .collect();
        let wrote = |c: Content| {
            c.writer()
                .is_some_and(|w| w == pid || folded_here.contains(&w))
        };
        let reader = declared_ref
            .expected
            .iter()
            .filter_map(|(obs, &c)| match *obs {
                Observation::Read { pass, .. } if pass != pid && runs[pass.index()] && wrote(c) => {
                    Some(pass)
                }
                _ => None,
            })
            .min();
        let kept: BTreeSet<ResourceId> = declared_ref
            .expected
            .iter()
            .filter_map(|(obs, &c)| match *obs {
                Observation::FrameEnd(r, _) if wrote(c) => Some(r),
                _ => None,
            })
            .collect();
        let side = passes[p].side_effects;
        let ok = match pp.needed_by {
            Some(NeededBy::SideEffects) => side,
            Some(NeededBy::KeptImport(r)) => !side && kept.contains(&r),
            Some(NeededBy::Reader(q)) => !side && kept.is_empty() && reader == Some(q),
            None => !options.cull && !side && kept.is_empty() && reader.is_none(),
            Some(other) => return Err(format!("pass {p}: unknown reason {other:?}")),
        };
        ensure!(
            ok,
            "pass {p} is needed by {:?}; side effects {side}, kept imports {kept:?}, first reader {reader:?}",
            pp.needed_by
        );
    }
    Ok(())
}

pub fn check_determinism(
    graph: &RenderGraph<'_>,
    plan: &CompiledGraph,
    options: &CompileOptions,
) -> Result<(), String> {
    let json = plan.to_json();
    // The second compile reuses storage: one compiler per thread, handed back every plan it made,
    // from graphs of all shapes.
    thread_local! {
        static COMPILER: std::cell::RefCell<tilegraph::Compiler> = Default::default();
    }
    let again = COMPILER
        .with_borrow_mut(|c| c.compile(graph, options))
        .map_err(|e| format!("second compile failed: {e}"))?;
    ensure!(
        again.to_json() == json,
        "two compiles of one graph differ (the second with a reused compiler)"
    );
    COMPILER.with_borrow_mut(|c| c.recycle(again));
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

/// Groups partition the passes that run: every pass in at most one group, of its group's type,
/// in declaration order when `declared_order` (else in `order()`'s order, checked by
/// `check_order`); culled and folded passes in none.
pub fn check_structure(
    graph: &RenderGraph<'_>,
    plan: &CompiledGraph,
    options: &CompileOptions,
    declared_order: bool,
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
                !declared_order || previous < Some(p),
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
        for d in group.depth.iter().chain(&group.depth_views) {
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
            pp.culled || pp.folded_into.is_some() == seen[p].is_none(),
            "pass {p}: culled, folded and grouped disagree"
        );
        ensure!(
            !(pp.culled && pp.folded_into.is_some()),
            "pass {p}: culled and folded"
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
        let plans: Vec<_> = group.attachments().collect();
        ensure!(
            plans.len() == atts.len()
                && group.color.len() == pass.color.len() * interp::views(pass) as usize,
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
///
/// `passes` are the declarations as the plan runs them (declared, or with the restructured
/// resolves of `effective_passes`); "later" means a later group, and the reader a store names is
/// the last reading pass of the last group that reads.
pub fn check_planned_ops(
    graph: &RenderGraph<'_>,
    plan: &CompiledGraph,
    reference: &Reference,
    options: &CompileOptions,
    passes: &[PassDecl],
) -> Result<(), String> {
    let group_of = |p: PassId| plan.passes()[p.index()].group.map(|g| g.index());
    for (g, group) in plan.groups().iter().enumerate() {
        if group.kind != PassKind::Render {
            continue;
        }
        let first = group.passes[0];
        let last = *group.passes.last().unwrap();
        let plans: Vec<_> = group.attachments().collect();
        let firsts = attachments(&passes[first.index()]);
        let first_pass = &passes[first.index()];
        ensure!(
            plans.len() == firsts.len()
                && group.color.len() == first_pass.color.len() * interp::views(first_pass) as usize,
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
                            Observation::Read { pass, .. }
                                if c == content && group_of(pass).is_some_and(|h| h > g) =>
                            {
                                Some((group_of(pass), pass))
                            }
                            _ => None,
                        })
                        .max()
                        .map(|(_, pass)| pass);
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
pub fn group_bytes(graph: &RenderGraph<'_>, groups: &[tilegraph::plan::Group]) -> u64 {
    let mut total = 0;
    for a in groups.iter().flat_map(|g| g.attachments()) {
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
    // Buffers bound or uploaded: no texture usage (their own in `buffer_uses`).
    for e in buffer_only_lists(pass) {
        out.push((e.resource, TextureUsages::empty()));
    }
    out
}

fn buffer_only_lists(pass: &PassDecl) -> impl Iterator<Item = &Entry> {
    pass.uniform
        .iter()
        .chain(&pass.vertex)
        .chain(&pass.index)
        .chain(&pass.indirect)
        .chain(&pass.upload)
}

/// Every buffer usage a pass's lists need.
pub fn buffer_uses(pass: &PassDecl) -> Vec<(ResourceId, BufferUsages)> {
    let lists = [
        (&pass.storage_read, BufferUsages::STORAGE),
        (&pass.storage_write, BufferUsages::STORAGE),
        (&pass.storage_read_write, BufferUsages::STORAGE),
        (&pass.copy_src, BufferUsages::COPY_SRC),
        (&pass.copy_dst, BufferUsages::COPY_DST),
        (&pass.uniform, BufferUsages::UNIFORM),
        (&pass.vertex, BufferUsages::VERTEX),
        (&pass.index, BufferUsages::INDEX),
        (&pass.indirect, BufferUsages::INDIRECT),
        (&pass.upload, BufferUsages::COPY_DST),
    ];
    lists
        .into_iter()
        .flat_map(|(list, u)| list.iter().map(move |e| (e.resource, u)))
        .collect()
}

/// A resource lives from the first to the last live group that uses any of its subresources.
/// `passes`: the declarations as the plan runs them; `runs[p]`: pass `p` runs (live, not folded).
pub fn check_lifetimes(
    graph: &RenderGraph<'_>,
    plan: &CompiledGraph,
    passes: &[PassDecl],
    runs: &[bool],
) -> Result<(), String> {
    let n = graph.resources().len();
    let mut span: Vec<Option<(usize, usize)>> = vec![None; n];
    let mut usage = vec![TextureUsages::empty(); n];
    let mut buffer_usage = vec![BufferUsages::empty(); n];
    for (p, pass) in passes.iter().enumerate().filter(|&(p, _)| runs[p]) {
        let g = plan.passes()[p]
            .group
            .expect("live passes are grouped")
            .index();
        for (r, u) in uses(pass) {
            let s = &mut span[r.index()];
            *s = Some(s.map_or((g, g), |(f, l)| (f.min(g), l.max(g))));
            usage[r.index()] |= u;
        }
        for (r, u) in buffer_uses(pass) {
            buffer_usage[r.index()] |= u;
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
        // A graph-owned buffer gets exactly what its live accesses need.
        if let ResourceUsage::Buffer(u) = rp.usage {
            ensure!(
                u == buffer_usage[r],
                "buffer {r}: usage {u:?}, its live accesses need {:?}",
                buffer_usage[r]
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
    passes: &[PassDecl],
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
                let pass = &passes[p.index()];
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
pub fn check_usage_scopes(
    graph: &RenderGraph<'_>,
    plan: &CompiledGraph,
    passes: &[PassDecl],
) -> Result<(), String> {
    for (g, group) in plan
        .groups()
        .iter()
        .enumerate()
        .filter(|(_, g)| g.kind == PassKind::Render)
    {
        let mut written: BTreeSet<Key> = group.color.iter().map(|a| (a.resource, a.sub)).collect();
        written.extend(
            interp::group_attachments(group)
                .into_iter()
                .filter_map(|(a, sub)| a.resolve.map(|t| (t, sub))),
        );
        written.extend(
            group
                .depth
                .iter()
                .chain(&group.depth_views)
                .filter(|d| !d.read_only)
                .map(|d| (d.resource, d.sub)),
        );
        for &p in &group.passes {
            let pass = &passes[p.index()];
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

/// Minimality, for small graphs: no load/store assignment of the declared plan's groups, nor of
/// the restructured plan's, that the interpreter accepts moves fewer bytes than the compiler's;
/// and the restructured order's moves are worth it ([`check_moves`]).
pub fn check_minimal(
    graph: &RenderGraph<'_>,
    plan: &CompiledGraph,
    options: &CompileOptions,
    tally: &mut Tally,
) -> Result<(), String> {
    let declared = plan.as_declared();
    let live: Vec<bool> = declared.passes().iter().map(|p| !p.culled).collect();
    check_minimal_ops(graph, declared, &reference(graph, &live)?, options, tally)?;
    if !plan.restructuring().is_empty() {
        let data = reference_with(graph, &runs(plan), Copies::Propagate)?;
        check_minimal_ops(graph, plan, &data, options, tally)
            .map_err(|e| format!("restructured plan: {e}"))?;
        check_moves(graph, plan, options, tally)?;
    }
    Ok(())
}

fn check_minimal_ops(
    graph: &RenderGraph<'_>,
    plan: &CompiledGraph,
    reference: &Reference,
    options: &CompileOptions,
    tally: &mut Tally,
) -> Result<(), String> {
    let attached: BTreeSet<Key> = plan
        .groups()
        .iter()
        .flat_map(|g| g.attachments().map(|a| (a.resource, a.sub)))
        .collect();
    for (r, sub) in attached {
        let found = search_cheaper(
            graph,
            plan,
            reference,
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

/// The guide's groups and attachment bytes for running `order`, re-derived without the compiler:
/// `passes` are the declarations as the plan runs them, `reference` a reference of the passes
/// that run (copy tokens, folded writers). Passes join a group by the merge rule
/// (`expected_boundary`); each group attachment loads when the group's first access needs prior
/// contents that exist, stores when the group's last write of it is read in a later group or kept
/// after the frame, and adds the target's bytes when the group's last pass resolves it.
pub fn model_traffic(
    graph: &RenderGraph<'_>,
    passes: &[PassDecl],
    reference: &Reference,
    order: &[PassId],
    options: &CompileOptions,
) -> (Vec<Vec<PassId>>, u64) {
    let mut groups: Vec<Vec<PassId>> = Vec::new();
    for &p in order {
        match groups.last_mut() {
            Some(g) if expected_boundary(graph, passes, reference, g, p, options).is_none() => {
                g.push(p)
            }
            _ => groups.push(vec![p]),
        }
    }
    let mut group_of = vec![usize::MAX; passes.len()];
    for (g, members) in groups.iter().enumerate() {
        for &p in members {
            group_of[p.index()] = g;
        }
    }
    let mut bytes = 0;
    for (g, members) in groups.iter().enumerate() {
        let (first, last) = (members[0], *members.last().unwrap());
        if passes[first.index()].kind != PassKind::Render {
            continue;
        }
        for a in attachments(&passes[first.index()]) {
            let b = sub_bytes(graph, a.resource, a.sub);
            let reads = matches!(a.access, Access::Read | Access::ReadWrite);
            if reads && !reference.fallback_clears.contains(&(first, a.slot)) {
                bytes += b;
            }
            let writer = members.iter().rev().find(|&&q| {
                attachments(&passes[q.index()])
                    .get(a.slot as usize)
                    .is_some_and(|x| x.access != Access::Read)
            });
            if let Some(&q) = writer {
                let content = Content::Written {
                    pass: q,
                    resource: a.resource,
                    sub: a.sub,
                };
                let needed = reference.expected.iter().any(|(obs, &c)| {
                    c == content
                        && match *obs {
                            Observation::Read { pass, .. } => group_of[pass.index()] > g,
                            Observation::FrameEnd(..) => true,
                        }
                });
                if needed {
                    bytes += b;
                }
            }
            if let Some(t) = attachments(&passes[last.index()])
                .get(a.slot as usize)
                .and_then(|x| x.resolve)
            {
                bytes += sub_bytes(graph, t, BASE);
            }
        }
    }
    (groups, bytes)
}

/// Moves are worth it, re-derived with [`model_traffic`] (itself checked against the plan's own
/// groups and traffic): the restructured order is strictly cheaper than the declared order with
/// the same resolve changes when it moved anything (and is the declared order when it moved
/// nothing); and no single further legal move of one render pass to right after an earlier group
/// that ends with a pass of its attachments (crossing no pass it conflicts with, no `keep_order`
/// pass) would be cheaper. The last is a search of the compiler's greedy neighbourhood, counted
/// in the tally as `moves_tried` and `cheaper_single_moves`.
pub fn check_moves(
    graph: &RenderGraph<'_>,
    plan: &CompiledGraph,
    options: &CompileOptions,
    tally: &mut Tally,
) -> Result<(), String> {
    let eff = effective_passes(graph, plan);
    let runs = runs(plan);
    let reference = fold_writers(reference(graph, &runs)?, plan);
    let order = plan.order();
    let (groups, bytes) = model_traffic(graph, &eff, &reference, order, options);
    let planned: Vec<Vec<PassId>> = plan.groups().iter().map(|g| g.passes.clone()).collect();
    ensure!(
        groups == planned,
        "the merge rule groups the order as {groups:?}, the plan as {planned:?}"
    );
    ensure!(
        bytes == plan.traffic().bytes_per_frame,
        "the traffic model gives {bytes} bytes for the plan's order, the plan says {}",
        plan.traffic().bytes_per_frame
    );
    let declared_order: Vec<PassId> = (0..runs.len())
        .filter(|&p| runs[p])
        .map(PassId::new)
        .collect();
    let moved = plan
        .restructuring()
        .iter()
        .any(|c| matches!(c, Restructuring::Moved { .. }));
    if order != declared_order {
        let (_, unmoved) = model_traffic(graph, &eff, &reference, &declared_order, options);
        ensure!(
            bytes < unmoved,
            "the moves do not pay: {bytes} bytes, {unmoved} in declared order with the same resolves"
        );
    }
    ensure!(
        moved == (order != declared_order),
        "moved entries {moved}, but the order is {order:?}"
    );
    let hazards = hazard_pairs(graph, &eff, &runs);
    let conflict = |a: PassId, b: PassId| hazards.contains(&(a.min(b), a.max(b)));
    let group_end: BTreeSet<PassId> = planned.iter().map(|g| *g.last().unwrap()).collect();
    for i in 0..order.len() {
        let x = order[i];
        let xd = &eff[x.index()];
        if xd.kind != PassKind::Render || xd.keep_order || xd.attachment_count() == 0 {
            continue;
        }
        for j in (0..i.saturating_sub(1)).rev() {
            let y = order[j];
            let crossed = &order[j + 1..i];
            if crossed
                .iter()
                .any(|&c| eff[c.index()].keep_order || conflict(c, x))
            {
                break;
            }
            if !group_end.contains(&y)
                || eff[y.index()].kind != PassKind::Render
                || attachment_slots(&eff[y.index()]) != attachment_slots(xd)
            {
                continue;
            }
            let mut trial: Vec<PassId> = order[..=j].to_vec();
            trial.push(x);
            trial.extend_from_slice(crossed);
            trial.extend_from_slice(&order[i + 1..]);
            tally.moves_tried += 1;
            let (_, b) = model_traffic(graph, &eff, &reference, &trial, options);
            if b < bytes {
                tally.cheaper_single_moves += 1;
                if std::env::var_os("TILEGRAPH_SHOW_MOVES").is_some() {
                    eprintln!(
                        "cheaper single move: {trial:?} moves {b}, the plan's order {order:?} moves {bytes}"
                    );
                }
            }
        }
    }
    Ok(())
}

/// Why `next` may not join a group of `members` (the guide's merge rule and boundary order, per
/// subresource as the guide's Subresources says, then the compiler's documented additions), or `None` when it must
/// join.
fn expected_boundary(
    graph: &RenderGraph<'_>,
    passes: &[PassDecl],
    reference: &Reference,
    members: &[PassId],
    next: PassId,
    options: &CompileOptions,
) -> Option<&'static str> {
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
                written.insert((t, a.resolve_sub));
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
    if slots(first) != slots(next) || first.multiview != next.multiview {
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
    let writes_bound = attachments(next)
        .into_iter()
        .filter_map(|a| match a.resolve {
            Some(t) => Some((t, a.resolve_sub)),
            None => (a.is_depth && a.access != Access::Read).then_some((a.resource, a.sub)),
        })
        .chain(None::<Key>)
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
    passes: &[PassDecl],
    reference: &Reference,
    plan: &CompiledGraph,
    options: &CompileOptions,
) -> Result<(), String> {
    let groups = plan.groups();
    for (g, group) in groups.iter().enumerate() {
        for (k, &p) in group.passes.iter().enumerate().skip(1) {
            let why = expected_boundary(graph, passes, reference, &group.passes[..k], p, options);
            ensure!(
                why.is_none(),
                "group {g}: pass {p} joined although {why:?} applies"
            );
        }
        let want = match groups.get(g + 1) {
            None => Some("end_of_graph"),
            Some(next) => expected_boundary(
                graph,
                passes,
                reference,
                &group.passes,
                next.passes[0],
                options,
            ),
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
/// an attachment that is not transient and that its group does not discard (a clear that reaches
/// memory), `clear_for_write` once per resource whose `write` pays a
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
        let n = group.multiview.unwrap_or(1).max(1) as usize;
        for a in group.color.iter().step_by(n).chain(group.depth.iter()) {
            let r = a.resource;
            if let LoadOp::Clear(value) = a.load {
                if !is_fast(value)
                    && !plan.resources()[r.index()].transient
                    && a.store != StoreOp::Discard
                {
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
            ReadKind::Uniform(_) => "uniform",
            ReadKind::Vertex(_) => "vertex",
            ReadKind::Index(_) => "index",
            ReadKind::Indirect(_) => "indirect",
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

//! The properties every compiled plan must have, shared by the random and the regression tests.
//!
//! Everything here is re-derived from the guide on the declared graph (with the
//! reference interpreter of `interp.rs` for what each read sees), never read off the compiler.
//!
//! One file per step of the compiler, named after its file in `src/compile/`; this file holds the
//! entry points that run them all.

use std::collections::{BTreeMap, BTreeSet};

use tilegraph::decl::{Entry, PassKind, PassRef, Passes, ResourceKind};
use tilegraph::plan::{LoadOp, LoadReason, StoreOp, StoreReason, WarningKind};
use tilegraph::plan::{NeededBy, ResourceUsage, Restructuring};
use tilegraph::wgpu::{BufferUsages, TextureFormat, TextureUsages};
use tilegraph::{
    Access, ClearValue, CompileOptions, CompiledGraph, ErrorKind, PassId, RenderGraph, ResourceId,
    Subresource, SubresourceRange,
};

use crate::interp::{
    self, BASE, Content, Copies, Memory, Observation, ReadKind, Reference, access_clear,
    attachments, clear_key, entry_subs, execute_and_compare, memory_reads, memory_writes,
    reference, reference_with,
};
use crate::minimal::search_cheaper;

macro_rules! ensure {
    ($cond:expr, $($msg:tt)+) => {
        if !$cond {
            return Err(format!($($msg)+));
        }
    };
}

/// What a check looks at: a graph, a plan compiled from it and the options it was compiled with.
#[derive(Clone, Copy)]
pub struct Subject<'a, 'g> {
    pub graph: &'a RenderGraph<'g>,
    pub plan: &'a CompiledGraph,
    pub options: &'a CompileOptions,
}

mod groups;
mod liveness;
mod naive;
mod ops;
mod resources;
mod restructure;
mod subresources;
mod traffic;
mod versions;
mod warnings;

use groups::expected_break;
pub use groups::{check_breaks, check_structure};
pub use liveness::{check_liveness, check_needed_by};
pub use naive::check_naive_groups;
pub use ops::check_planned_ops;
use ops::{attachment_read, check_minimal_ops, clear_of, load_clear};
use resources::bound_keys;
pub use resources::{check_lifetimes, check_physical, check_transients, check_usage_scopes};
pub use restructure::{check_moves, check_restructured};
use subresources::multi_sub;
pub use subresources::{Key, entry_bytes, keys, sub_bytes};
pub use traffic::{check_traffic, model_traffic};
pub use versions::check_dependencies;
pub use warnings::check_warnings;

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
    let subject = |plan, options| Subject {
        graph: &graph,
        plan,
        options,
    };
    check_declared_plan(subject(&declared, &declared_options))?;
    check_restructured(subject(&plan, options), &declared, tally)?;
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
pub fn check_declared_plan(s: Subject<'_, '_>) -> Result<(), String> {
    let (graph, plan) = (s.graph, s.plan);
    check_determinism(s)?;
    check_structure(s, true)?;
    check_liveness(s)?;
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
    check_naive_groups(s, &reference, &live)?;
    check_planned_ops(s, &reference, passes)?;
    check_traffic(s, &live)?;
    check_lifetimes(s, passes, &live)?;
    check_physical(s)?;
    check_transients(s, passes)?;
    check_usage_scopes(s, passes)?;
    check_breaks(s, passes, &reference)?;
    check_warnings(s)?;
    check_dependencies(s, &reference)?;
    check_needed_by(s, &reference)?;
    Ok(())
}

/// Per pass: it runs in the plan (live and not folded into a resolve).
pub fn runs(plan: &CompiledGraph) -> Vec<bool> {
    plan.passes()
        .iter()
        .map(|p| !p.culled && p.folded_into.is_none())
        .collect()
}

pub fn check_determinism(s: Subject<'_, '_>) -> Result<(), String> {
    let (graph, plan, options) = (s.graph, s.plan, s.options);
    let json = plan.to_json();
    // The second compile reuses storage: one compiler per thread, and the plans dropped on the
    // thread, from graphs of all shapes.
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
    drop(again);
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
    let subject = |plan| Subject {
        graph,
        plan,
        options,
    };
    check_minimal_ops(subject(declared), &reference(graph, &live)?, tally)?;
    if !plan.restructuring().is_empty() {
        let data = reference_with(graph, &runs(plan), Copies::Propagate)?;
        check_minimal_ops(subject(plan), &data, tally)
            .map_err(|e| format!("restructured plan: {e}"))?;
        check_moves(subject(plan), tally)?;
    }
    Ok(())
}

//! Compile: from the declared graph to the plan. Pure CPU, no device.
//!
//! `compile` is the whole compiler on one screen. Each step is a function named after what it
//! decides, in a file of its own, and hands the next step a small result; they run in the order
//! of their numbers, which each file's first line gives:
//!
//! | # | step | file | decides |
//! |---|---|---|---|
//! | 1 | validate | `validate.rs` | that the declared graph is well formed (one checker method per rule) |
//! | 2 | versions | `versions.rs` | which version of which subresource every access reads and writes |
//! | 3 | liveness | `liveness.rs` | which passes are live (and why); who reads each version last |
//! | 4–6 | plan an order | `planned.rs` | for one execution order: 4 its groups (`groups.rs`), 5 their ops (`ops.rs`) with the resources' lifetimes and transient textures (`resources.rs`), 6 the warnings (`warnings.rs`) |
//! | 7 | restructure | `restructure/` | dead resolves dropped and copies folded (`edits.rs`), passes moved (`reorder.rs`); each order tried is planned as in 4–6 |
//! | 8 | naive | `naive.rs` | what the naive plan (the executor's `Naive` mode) would load |
//! | 9 | resources | `resources.rs` | the physical textures of the order kept |
//! | 10 | traffic | `traffic.rs` | attachment bytes of the plan and of the naive plan |
//! | 11 | assemble | `assemble.rs` | each pass's plan, and the plan of the steps' results, moved out of their workspaces |
//! | 12 | limits | `limits.rs` | that the plan fits the caller's device limits, if given |
//!
//! What the steps share: `accesses.rs` holds every pass's attachment slots, list entries, kind
//! and key, and every resource's facts, in dense tables that validation fills while each
//! declaration is in the caches. Every table lives in a workspace the compiler (`compiler.rs`)
//! owns: one per step for its own lists, one per result a step hands the next, which the step
//! that fills it clears first and the later steps borrow. The plan's lists are moved out of
//! their workspaces, and those of the plan handed back take their places. Each group's bytes,
//! transient textures and warnings are found right after its ops. `prefetch.rs` holds the
//! cache hints.

mod accesses;
mod assemble;
mod compiler;
mod groups;
mod limits;
mod liveness;
mod naive;
mod ops;
mod planned;
mod prefetch;
mod resources;
mod restructure;
mod subresources;
mod traffic;
mod validate;
mod versions;
mod warnings;

use std::collections::HashMap;
use std::hash::BuildHasherDefault;
use std::sync::Arc;

use crate::declare::{NameHashes, RenderGraph};
use crate::error::GraphError;
use crate::hash::FastHasher;
use crate::options::CompileOptions;
use crate::passes::Passes;
use crate::plan::CompiledGraph;
use crate::resource::ResourceDecl;

pub use compiler::Compiler;
use compiler::Workspaces;
use planned::{Planned, declared_order, plan_order};

type FastMap<K, V> = HashMap<K, V, BuildHasherDefault<FastHasher>>;

/// The declarations a step reads: the declared ones, or those restructuring edited.
#[derive(Clone, Copy)]
struct Decls<'a> {
    passes: &'a Passes,
    resources: &'a [ResourceDecl],
    /// The passes' accesses in dense tables.
    acc: &'a accesses::Accesses,
}

/// The compiler pipeline.
fn compile(
    graph: &RenderGraph<'_>,
    options: &CompileOptions,
    work: &mut Workspaces,
) -> Result<CompiledGraph, GraphError> {
    if let Some((pass, resource)) = &graph.foreign_handle {
        return Err(GraphError::UnknownResource {
            pass: pass.to_string(),
            resource: resource.clone(),
        });
    }
    compile_decls(
        (&graph.passes, &graph.resources),
        Some(&graph.names),
        graph.fingerprint(),
        options,
        work,
    )
}

/// Compiles declarations. `names` are their name hashes; `None` skips the unique-name check,
/// for declarations that compiled before. Each step fills its result's workspace in `work`
/// and the steps after it borrow it.
fn compile_decls(
    (passes, resources): (&Arc<Passes>, &Arc<Vec<ResourceDecl>>),
    names: Option<&NameHashes>,
    fingerprint: u128,
    options: &CompileOptions,
    work: &mut Workspaces,
) -> Result<CompiledGraph, GraphError> {
    let steps = &mut work.steps;
    let checked = validate::validate(
        passes,
        resources,
        names,
        &mut steps.validate,
        &mut work.checked,
    )?;
    let declared = Decls {
        passes,
        resources,
        acc: &checked.acc,
    };
    let current = &mut steps.current_versions;
    let versions = versions::trace_versions(declared, checked, current, &mut work.versions)?;
    let live = liveness::find_live_passes(&checked.acc, versions, options, &mut work.live);
    let plans = &mut work.plans;
    declared_order(live, &mut plans.declared.order);
    plan_order(
        declared,
        checked,
        versions,
        live,
        options,
        &mut plans.declared,
        &mut steps.planning,
    );
    let declared_bytes = plans.declared.bytes;
    let frame = restructure::restructure(declared, checked, versions, live, plans, options, steps);
    let (eff, eff_versions, eff_live) = frame.as_run(declared, versions, live, &steps.restructure);
    let found = &mut work.found;
    naive::naive_sources(versions, &mut found.naive);
    let planned = plans.get_mut(frame.kept);
    let pooling = &mut steps.pooling;
    resources::plan_physical_resources(
        eff,
        &mut planned.resources,
        options,
        pooling,
        &mut found.physical,
    );
    let pass_bytes = &versions.pass_bytes;
    let traffic =
        traffic::measure_traffic(planned.bytes, declared_bytes, pass_bytes, live, options.fps)?;
    liveness::why_live(
        eff.acc,
        &checked.subs,
        eff_versions,
        eff_live,
        &mut found.needed_by,
    );
    let lists = assemble::Lists {
        planned,
        found,
        returned: &mut work.returned,
    };
    let decls = (passes, resources);
    let mut plan = assemble::assemble(
        decls,
        fingerprint,
        options,
        frame,
        (live, eff_live),
        traffic,
        lists,
    );
    let subs = &mut work.checked.subs;
    plan.reads = work
        .versions
        .hand_over_reads(subs, &mut work.returned.reads);
    limits::check_limits(&plan)?;
    Ok(plan)
}

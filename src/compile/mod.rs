//! Compile: from the declared graph to the plan. Pure CPU, no device.
//!
//! `compile` is the whole compiler on one screen. Each step is a function named after what it
//! decides, in a file of its own, and hands the next step a small result:
//!
//! | step | file | decides |
//! |---|---|---|
//! | validate | `validate.rs` | that the declared graph is well formed (one checker method per rule) |
//! | versions | `versions.rs` | which version of which subresource every access reads and writes |
//! | liveness | `liveness.rs` | which passes are live (and why); who reads each version last |
//! | plan an order | `planned.rs` | groups (`groups.rs`), ops (`ops.rs`), lifetimes, warnings of one order |
//! | restructure | `restructure/` | dead resolves dropped and copies folded (`edits.rs`), passes moved (`reorder.rs`) |
//! | naive | `naive.rs` | what the naive plan (the executor's `Naive` mode) would load |
//! | resources | `resources.rs` | lifetimes, usages, transient textures, physical textures |
//! | traffic | `traffic.rs` | attachment bytes of the plan and of the naive plan |
//! | assemble | `assemble.rs` | each pass's plan, and the plan from the steps' results |
//! | limits | `limits.rs` | that the plan fits the caller's device limits, if given |
//!
//! What the steps share: `accesses.rs` holds every pass's attachment slots, list entries, kind
//! and key, and every resource's facts, in dense tables that validation fills while each
//! declaration is in the caches. The compiler (`compiler.rs`) keeps each step's own lists in
//! that step's workspace, cleared at its start; the tables that pass from step to step and the
//! lists of plans handed back come from `scratch.rs`. Each group's bytes, transient textures
//! and warnings are found right after its ops. `prefetch.rs` holds the cache hints.

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
mod scratch;
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
use crate::plan::CompiledGraph;
use crate::resource::{PassDecl, ResourceDecl};

pub use compiler::Compiler;
use compiler::Spares;
use planned::{Planned, declared_order, plan_order};

type FastMap<K, V> = HashMap<K, V, BuildHasherDefault<FastHasher>>;

/// The declarations a step reads: the declared ones, or those restructuring edited.
#[derive(Clone, Copy)]
struct Decls<'a> {
    passes: &'a [PassDecl],
    resources: &'a [ResourceDecl],
    /// The passes' accesses in dense tables.
    acc: &'a accesses::Accesses,
}

/// The compiler pipeline.
fn compile(
    graph: &RenderGraph<'_>,
    options: &CompileOptions,
    spares: &mut Spares,
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
        spares,
    )
}

/// Compiles declarations. `names` are their name hashes; `None` skips the unique-name check,
/// for declarations that compiled before.
fn compile_decls(
    (passes, resources): (&Arc<Vec<PassDecl>>, &Arc<Vec<ResourceDecl>>),
    names: Option<&NameHashes>,
    fingerprint: u128,
    options: &CompileOptions,
    spares: &mut Spares,
) -> Result<CompiledGraph, GraphError> {
    let scratch = &mut spares.scratch;
    let work = &mut spares.work;
    let checked = validate::validate(passes, resources, names, scratch, &mut work.validate)?;
    let declared = Decls {
        passes,
        resources,
        acc: &checked.acc,
    };
    let current = &mut work.current_versions;
    let versions = match versions::trace_versions(declared, &checked, scratch, current) {
        Ok(v) => v,
        Err(e) => {
            checked.recycle(scratch);
            return Err(e);
        }
    };
    let plan = plan_frame(
        (passes, resources),
        &checked,
        &versions,
        fingerprint,
        options,
        spares,
    );
    let scratch = &mut spares.scratch;
    let reads = versions.into_reads(checked.into_subs(scratch), scratch);
    match plan {
        Ok(mut plan) => {
            plan.reads = reads;
            limits::check_limits(&plan)?;
            Ok(plan)
        }
        Err(e) => {
            scratch.give_reads(reads);
            Err(e)
        }
    }
}

/// Everything after validation and versions, step by step.
fn plan_frame(
    (passes, resources): (&Arc<Vec<PassDecl>>, &Arc<Vec<ResourceDecl>>),
    checked: &validate::Checked,
    versions: &versions::Versions,
    fingerprint: u128,
    options: &CompileOptions,
    spares: &mut Spares,
) -> Result<CompiledGraph, GraphError> {
    let declared = Decls {
        passes,
        resources,
        acc: &checked.acc,
    };
    let live = liveness::find_live_passes(&checked.acc, versions, options, &mut spares.scratch);
    let order = declared_order(&live, &mut spares.scratch);
    let as_declared = plan_order(declared, checked, versions, &live, order, options, spares);
    let declared_bytes = as_declared.bytes;
    let mut frame = restructure::restructure(
        declared,
        checked,
        versions,
        &live,
        as_declared,
        options,
        spares,
    );
    let (eff, eff_versions, eff_live) =
        restructure::as_run(&frame.edits, &frame.retraced, declared, versions, &live);
    let naive = naive::naive_sources(versions, &mut spares.scratch);
    let resource_plans = &mut frame.planned.resources;
    let physical = resources::plan_physical_resources(eff, resource_plans, options, spares);
    let traffic = traffic::measure_traffic(
        frame.planned.bytes,
        declared_bytes,
        &versions.pass_bytes,
        &live,
        options.fps,
    );
    let scratch = &mut spares.scratch;
    let needed_by = liveness::why_live(eff.acc, &checked.subs, eff_versions, eff_live, scratch);
    let found = assemble::Found {
        naive,
        physical,
        traffic,
        needed_by,
    };
    assemble::assemble(
        (passes, resources),
        fingerprint,
        options,
        frame,
        live,
        found,
        spares,
    )
}

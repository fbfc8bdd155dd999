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
//! | restructure | `restructure.rs` | dead resolves dropped, copies folded, the execution order |
//! | groups | `groups.rs` | which live passes share one wgpu pass, and why each group ends |
//! | ops | `ops.rs` | every attachment's load op, store op and read-only depth |
//! | naive | `naive.rs` | what the naive plan (the executor's `Naive` mode) would load |
//! | resources | `resources.rs` | lifetimes, usages, transient textures, physical textures |
//! | traffic | `traffic.rs` | attachment bytes of the plan and of the naive plan |
//! | warnings | `warnings.rs` | avoidable costs worth telling the user about |
//! | limits | here, `check_limits` | that the plan fits the caller's device limits, if given |
//!
//! What the steps share: `accesses.rs` holds every pass's attachment slots, list entries, kind
//! and key, and every resource's facts, in dense tables that validation fills while each
//! declaration is in the caches (the later steps read declarations only for names and clear
//! values); `scratch.rs` keeps the steps' working lists between compiles; `compiler.rs` keeps
//! the lists of plans handed back. Steps that walk the same data run in one walk where the
//! order allows: each group's bytes, transient textures and warnings right after its ops, each
//! pass's naive and sampled bytes as its versions are traced. `prefetch.rs` holds the cache
//! hints of the walks that follow a declaration's pointers.

mod accesses;
mod compiler;
mod groups;
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
use std::sync::{Arc, OnceLock};

use crate::compiled::{CompiledGraph, PassPlan, Reads, Restructuring};
use crate::declare::{NameHashes, RenderGraph};
use crate::error::GraphError;
use crate::hash::FastHasher;
use crate::options::CompileOptions;
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

impl RenderGraph<'_> {
    /// Compiles the graph in full. See [`PlanCache`](crate::PlanCache) to reuse a plan across frames.
    pub fn compile(&self, options: &CompileOptions) -> Result<CompiledGraph, GraphError> {
        compile(self, options, &mut Spares::default())
    }
}

impl CompiledGraph {
    /// The plan of the declared order: this plan itself when restructuring changed nothing
    /// (or was off), else the same graph compiled with
    /// [`with_restructure(false)`](CompileOptions::with_restructure), made when first asked
    /// for. The executor's `Naive` and `Poison` modes record it, so their images check the
    /// restructured plan.
    pub fn as_declared(&self) -> &CompiledGraph {
        if self.restructure.is_empty() {
            return self;
        }
        self.declared.get_or_init(|| {
            let options = self.options.with_restructure(false);
            let declared = compile_decls(
                (&self.pass_decls, &self.resource_decls),
                None,
                self.fingerprint,
                &options,
                &mut Spares::default(),
            )
            // The same declarations compiled once already; the declared order checks less.
            .expect("a graph that compiled restructured compiles in declared order");
            Box::new(declared)
        })
    }
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

/// Step 11, limits: that no live pass needs more than the caller's device limits
/// ([`CompileOptions::with_limits`]); the first declared pass over one is the error.
fn check_limits(plan: &CompiledGraph) -> Result<(), GraphError> {
    let Some(given) = &plan.options.limits else {
        return Ok(());
    };
    match plan.first_pass_over(given) {
        None => Ok(()),
        Some(excess) => Err(GraphError::ExceedsLimit {
            pass: plan.pass_name(excess.pass).to_owned(),
            resource: excess.resource.map(|r| plan.resource_name(r).to_owned()),
            limit: excess.limit,
            needed: excess.needed,
            given: excess.given,
            detail: plan.describe_excess(&excess),
        }),
    }
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
    let checked = validate::validate(passes, resources, names, scratch)?;
    let declared = Decls {
        passes,
        resources,
        acc: &checked.acc,
    };
    let versions = match versions::trace_versions(declared, &checked, scratch) {
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
            check_limits(&plan)?;
            Ok(plan)
        }
        Err(e) => {
            scratch.give_reads(reads);
            Err(e)
        }
    }
}

/// Everything after validation and versions: liveness, the declared order's plan,
/// restructuring, resources, traffic, warnings.
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
    let subs = &checked.subs;
    let live = liveness::find_live_passes(&checked.acc, versions, options, &mut spares.scratch);

    // Restructuring: dead resolves and folded copies edit the declarations the later steps
    // read; the order follows from the hazards. Each is kept only if the frame gets cheaper.
    let order = declared_order(&live, &mut spares.scratch);
    let as_declared = plan_order(declared, checked, versions, &live, order, options, spares);
    let declared_bytes = as_declared.bytes;
    let restructured = options
        .restructure
        .then(|| {
            restructure::restructure_frame(
                declared,
                checked,
                versions,
                &live,
                &as_declared,
                options,
                spares,
            )
        })
        .flatten();
    let (edits, retraced, moves, planned) = match restructured {
        Some(r) => {
            as_declared.recycle(spares);
            (r.edits, r.retraced, r.moves, r.planned)
        }
        None => (None, None, Vec::new(), as_declared),
    };
    let Planned {
        order,
        groups: planned_groups,
        group_of,
        bytes: planned_bytes,
        resources: mut resource_plans,
        warnings,
    } = planned;
    let (eff, eff_versions, eff_live) = match (&edits, &retraced) {
        (Some((e, acc)), retraced) => {
            let eff = Decls {
                passes: &e.passes[..],
                resources,
                acc,
            };
            match retraced {
                Some((v, l)) => (eff, v, &l[..]),
                None => (eff, versions, &live[..]),
            }
        }
        (None, _) => (declared, versions, &live[..]),
    };

    let scratch = &mut spares.scratch;
    let naive = naive::naive_sources(versions, scratch);
    let physical = resources::plan_physical_resources(eff, &mut resource_plans, options, spares);
    let traffic = traffic::measure_traffic(
        planned_bytes,
        declared_bytes,
        &versions.pass_bytes,
        &live,
        options.fps,
    );
    let scratch = &mut spares.scratch;
    let needed_by = liveness::why_live(eff.acc, subs, eff_versions, eff_live, scratch);
    let mut restructure: Vec<Restructuring> = Vec::new();
    let folded_into = match edits {
        Some((e, acc)) => {
            acc.recycle(scratch);
            restructure = e.changes;
            e.folded_into
        }
        None => scratch.maybe_passes.filled(passes.len(), None),
    };
    restructure.extend(moves);
    let mut pass_plans = scratch.pass_plans.take(passes.len());
    pass_plans.extend((0..passes.len()).map(|p| PassPlan {
        culled: !eff_live[p] && folded_into[p].is_none(),
        group: group_of[p],
        needed_by: needed_by[p],
        folded_into: folded_into[p],
    }));
    scratch.maybe_passes.give(folded_into);
    scratch.needed_by.give(needed_by);
    scratch.maybe_groups.give(group_of);
    restructure::give_back_retraced(retraced, scratch);
    let traffic = traffic?;
    log::debug!(
        "compiled {} passes ({} culled) into {} groups: {} attachment bytes a frame, naive {}, {} restructured",
        passes.len(),
        live.iter().filter(|&&l| !l).count(),
        planned_groups.len(),
        traffic.bytes_per_frame,
        traffic.naive_bytes_per_frame,
        restructure.len()
    );
    scratch.flags.give(live);
    Ok(CompiledGraph {
        fingerprint,
        options: *options,
        pass_decls: Arc::clone(passes),
        resource_decls: Arc::clone(resources),
        passes: pass_plans,
        groups: planned_groups,
        order,
        restructure,
        declared: OnceLock::new(),
        naive_groups: OnceLock::new(),
        naive_sources: naive,
        resources: resource_plans,
        physical,
        traffic,
        warnings,
        dependencies: OnceLock::new(),
        reads: Reads::default(),
    })
}

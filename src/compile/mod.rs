//! Compile: from the declared graph to the plan. Pure CPU, no device.
//!
//! `compile` is the whole compiler on one screen. Each step is a function named after what it
//! decides, in a file of its own, and hands the next step a small result; they run in the order
//! of their numbers, which each file's first line gives:
//!
//! | # | step | file | decides |
//! |---|---|---|---|
//! | 1 | validate | `validate/` | that the declared graph is well formed (one checker method per rule) |
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
//! What the steps read: from planning on, each takes one read-only `Frame` first (the
//! declarations, validation's tables, versions, liveness and options) and besides it only its
//! own workspace and result; restructuring hands the later steps the frame as it runs.
//! `accesses.rs` holds every pass's attachment slots, list entries, kind and key, and every
//! resource's facts, in dense tables that validation fills while each declaration is in the
//! caches. Every table lives in a workspace the compiler (`compiler.rs`)
//! owns: one per step for its own lists, one per result a step hands the next, which the step
//! that fills it clears first and the later steps borrow. The plan's lists are moved out of
//! their workspaces, and those of the last plan dropped take their places. Each group's bytes,
//! transient textures and warnings are found right after its ops.

mod accesses;
mod assemble;
mod compiler;
mod groups;
mod limits;
mod liveness;
mod naive;
mod ops;
mod planned;
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

use crate::decl::Passes;
use crate::decl::resource::ResourceDecl;
use crate::declare::{NameHashes, RenderGraph};
use crate::error::GraphError;
use crate::hash::FastHasher;
use crate::options::CompileOptions;
use crate::plan::CompiledGraph;

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

/// What the steps after liveness read and none of them changes: the declarations (as declared,
/// or as restructuring edited them), validation's tables, the versions and liveness of those
/// declarations, and the options. Each step takes it first and reads from it what it needs.
#[derive(Clone, Copy)]
struct Frame<'a> {
    decls: Decls<'a>,
    checked: &'a validate::Checked,
    v: &'a versions::Versions,
    live: &'a [bool],
    options: &'a CompileOptions,
}

impl<'a> Frame<'a> {
    /// The same options and tables, with other declarations, versions and liveness.
    fn with(self, decls: Decls<'a>, v: &'a versions::Versions, live: &'a [bool]) -> Self {
        Frame {
            decls,
            v,
            live,
            ..self
        }
    }
}

/// The declarations a compile starts from, shared with the plan it makes: `names` are their
/// name hashes (`None` skips the unique-name check, for declarations that compiled before).
struct Source<'a> {
    passes: &'a Arc<Passes>,
    resources: &'a Arc<Vec<ResourceDecl>>,
    names: Option<&'a NameHashes>,
    fingerprint: u128,
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
    let source = Source {
        passes: &graph.passes,
        resources: &graph.resources,
        names: Some(&graph.names),
        fingerprint: graph.fingerprint(),
    };
    compile_decls(&source, options, work)
}

/// Compiles declarations. Each step fills its result's workspace in `work` and the steps after
/// it borrow it.
fn compile_decls(
    source: &Source<'_>,
    options: &CompileOptions,
    work: &mut Workspaces,
) -> Result<CompiledGraph, GraphError> {
    compiler::take_dropped(&mut work.returned);
    let steps = &mut work.steps;
    let checked = validate::validate(source, &mut steps.validate, &mut work.checked)?;
    let declared = Decls {
        passes: source.passes,
        resources: source.resources,
        acc: &checked.acc,
    };
    let current = &mut steps.current_versions;
    let versions = versions::trace_versions(declared, checked, current, &mut work.versions)?;
    let live = liveness::find_live_passes(&checked.acc, versions, options.cull, &mut work.live);
    let frame = Frame {
        decls: declared,
        checked,
        v: versions,
        live,
        options,
    };
    let plans = &mut work.plans;
    declared_order(live, &mut plans.declared.order);
    plan_order(frame, &mut plans.declared, &mut steps.planning);
    let declared_bytes = plans.declared.bytes;
    let restructured = restructure::restructure(frame, plans, steps);
    let run = restructured.as_run(frame, &steps.restructure);
    let found = &mut work.found;
    naive::naive_sources(versions, &mut found.naive);
    let planned = plans.get_mut(restructured.kept);
    let pooling = &mut steps.pooling;
    let physical = &mut found.physical;
    resources::plan_physical_resources(run, &mut planned.resources, pooling, physical);
    let pass_bytes = &versions.pass_bytes;
    let traffic =
        traffic::measure_traffic(planned.bytes, declared_bytes, pass_bytes, live, options.fps)?;
    let needed_by = &mut found.needed_by;
    liveness::why_live(run.decls.acc, &checked.subs, run.v, run.live, needed_by);
    let lists = assemble::Lists {
        planned,
        found,
        returned: &mut work.returned,
    };
    let results = assemble::Results {
        run_live: restructured.run_live(live, &steps.restructure),
        restructured,
        traffic,
    };
    let mut plan = assemble::assemble(source, frame, results, lists);
    let subs = &mut work.checked.subs;
    plan.reads = work
        .versions
        .hand_over_reads(subs, &mut work.returned.reads);
    limits::check_limits(&plan)?;
    Ok(plan)
}

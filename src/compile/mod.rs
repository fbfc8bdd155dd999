//! Compile: from the declared graph to the plan. Pure CPU, no device.
//!
//! `compile` is the whole compiler on one screen. Each step is a function named after what it
//! decides, in a file of its own, and hands the next step a small result:
//!
//! | step | file | decides |
//! |---|---|---|
//! | validate | `validate.rs` | that the declared graph is well formed (one checker method per rule) |
//! | versions | `versions.rs` | which version of which subresource every access reads and writes |
//! | liveness | `liveness.rs` | which passes are live; who reads each version last |
//! | groups | `groups.rs` | which live passes share one wgpu pass, and why each group ends |
//! | ops | `ops.rs` | every attachment's load op, store op and read-only depth |
//! | naive | `naive.rs` | what the naive plan (the executor's `Naive` mode) would load |
//! | resources | `resources.rs` | lifetimes, usages, transient textures, physical textures |
//! | traffic | `traffic.rs` | attachment bytes of the plan and of the naive plan |
//! | warnings | `warnings.rs` | avoidable costs worth telling the user about |

mod groups;
mod liveness;
mod naive;
mod ops;
mod resources;
mod subresources;
mod traffic;
mod validate;
mod versions;
mod warnings;

use std::collections::HashMap;
use std::hash::BuildHasherDefault;
use std::sync::Arc;

use crate::declare::RenderGraph;
use crate::error::GraphError;
use crate::hash::FastHasher;
use crate::options::CompileOptions;
use crate::plan::{CompiledGraph, PassPlan};

type FastMap<K, V> = HashMap<K, V, BuildHasherDefault<FastHasher>>;

impl RenderGraph<'_> {
    /// Compiles the graph in full. See [`PlanCache`](crate::PlanCache) to reuse a plan across frames.
    pub fn compile(&self, options: &CompileOptions) -> Result<CompiledGraph, GraphError> {
        compile(self, options)
    }
}

/// The compiler pipeline.
pub(crate) fn compile(
    graph: &RenderGraph<'_>,
    options: &CompileOptions,
) -> Result<CompiledGraph, GraphError> {
    let checked = validate::validate(graph)?;
    let versions = versions::trace_versions(graph, &checked.subs)?;
    let live = liveness::find_live_passes(&graph.passes, &versions, options);
    let grouping = groups::form_groups(&graph.passes, &checked.subs, &versions, &live, options);
    let readers = liveness::last_readers(&graph.passes, &versions, &live, &grouping.group_of);
    let planned = ops::infer_attachment_ops(graph, grouping.groups, &versions, &readers, options);
    let naive = naive::naive_sources(&graph.passes, &versions);
    let mut resources = resources::lifetimes_and_usage(graph, &live, &grouping.group_of);
    resources::mark_transients(graph, &mut resources, &planned, options);
    let physical = resources::plan_physical_resources(graph, &mut resources, options);
    let traffic = traffic::measure_traffic(graph, &planned, &naive, &live, &checked, options.fps)?;
    let warnings = warnings::collect_warnings(graph, &planned, &resources, options);
    let dependencies = liveness::list_dependencies(&graph.passes, &versions, &checked.subs);
    log::debug!(
        "compiled {} passes ({} culled) into {} groups: {} attachment bytes a frame, naive {}",
        graph.passes.len(),
        live.iter().filter(|&&l| !l).count(),
        planned.len(),
        traffic.bytes_per_frame,
        traffic.naive_bytes_per_frame
    );
    Ok(CompiledGraph {
        fingerprint: graph.fingerprint(),
        options: *options,
        pass_decls: Arc::clone(&graph.passes),
        resource_decls: Arc::clone(&graph.resources),
        passes: live
            .iter()
            .zip(&grouping.group_of)
            .map(|(&l, &group)| PassPlan { culled: !l, group })
            .collect(),
        groups: planned,
        naive_groups: std::sync::OnceLock::new(),
        naive_sources: naive,
        resources,
        physical,
        traffic,
        warnings,
        dependencies,
    })
}

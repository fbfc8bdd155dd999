//! Step 7: attachment traffic of the plan and of the naive plan
//! ([guide](crate::guide#traffic-model)).

use super::validate::{Checked, subresource_bytes, texel_size};
use crate::declare::RenderGraph;
use crate::error::GraphError;
use crate::plan::{Group, LoadOp, StoreOp, Traffic};
use crate::resource::{ResourceId, ResourceKind, Subresource};

/// Bytes of one subresource of a validated resource (a buffer's size for buffers).
fn sub_bytes(graph: &RenderGraph<'_>, checked: &Checked, r: ResourceId, sub: Subresource) -> u64 {
    let decl = &graph.resources[r.index()];
    match decl.kind {
        ResourceKind::Texture(t) => texel_size(&decl.name, t.format)
            .ok()
            .and_then(|texel| subresource_bytes(t, texel, sub))
            .expect("validated textures have a texel size and fit in u64"),
        ResourceKind::Buffer(_) => checked.bytes[r.index()],
    }
}

/// Bytes an attachment moves: a load, a store, a resolve.
fn group_bytes(graph: &RenderGraph<'_>, checked: &Checked, groups: &[Group]) -> Option<u64> {
    let mut total = 0u64;
    for a in groups
        .iter()
        .flat_map(|g| g.color.iter().chain(g.depth.iter()))
    {
        let b = sub_bytes(graph, checked, a.resource, a.sub);
        if a.load == LoadOp::Load {
            total = total.checked_add(b)?;
        }
        if a.store == StoreOp::Store {
            total = total.checked_add(b)?;
        }
        if let Some(t) = a.resolve {
            total = total.checked_add(sub_bytes(graph, checked, t, Subresource::BASE))?;
        }
    }
    Some(total)
}

pub(super) fn measure_traffic(
    graph: &RenderGraph<'_>,
    planned: &[Group],
    naive: &[Group],
    live: &[bool],
    checked: &Checked,
    fps: u32,
) -> Result<Traffic, GraphError> {
    let overflow = || GraphError::invalid("attachment traffic overflows a 64-bit byte count");
    let planned_bytes = group_bytes(graph, checked, planned).ok_or_else(overflow)?;
    let naive_bytes = group_bytes(graph, checked, naive).ok_or_else(overflow)?;
    let mut sampled = 0u64;
    for (_, pass) in graph.passes.iter().enumerate().filter(|&(p, _)| live[p]) {
        for e in pass.sample.iter().chain(&pass.input) {
            let b = match e.sub {
                Some(sub) => sub_bytes(graph, checked, e.resource, sub),
                None => checked.bytes[e.resource.index()],
            };
            sampled = sampled.checked_add(b).ok_or_else(overflow)?;
        }
    }
    let per_second = |b: u64| b.checked_mul(u64::from(fps)).ok_or_else(overflow);
    Ok(Traffic {
        bytes_per_frame: planned_bytes,
        naive_bytes_per_frame: naive_bytes,
        fps,
        bytes_per_second: per_second(planned_bytes)?,
        naive_bytes_per_second: per_second(naive_bytes)?,
        sampled_bytes_per_frame: sampled,
    })
}

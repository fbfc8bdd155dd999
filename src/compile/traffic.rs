//! Step 7: attachment traffic of the plan and of the naive plan
//! ([guide](crate::guide#traffic-model)).

use super::validate::Checked;
use crate::declare::RenderGraph;
use crate::error::GraphError;
use crate::plan::{Group, Traffic, attachment_bytes, subresource_bytes};

pub(super) fn measure_traffic(
    graph: &RenderGraph<'_>,
    planned: &[Group],
    naive: &[Group],
    live: &[bool],
    checked: &Checked,
    fps: u32,
) -> Result<Traffic, GraphError> {
    let overflow = || GraphError::invalid("attachment traffic overflows a 64-bit byte count");
    let planned_bytes = attachment_bytes(&graph.resources, planned).ok_or_else(overflow)?;
    let naive_bytes = attachment_bytes(&graph.resources, naive).ok_or_else(overflow)?;
    let mut sampled = 0u64;
    for (_, pass) in graph.passes.iter().enumerate().filter(|&(p, _)| live[p]) {
        for e in pass.sample.iter().chain(&pass.input) {
            let b = match e.sub {
                Some(sub) => subresource_bytes(&graph.resources[e.resource.index()], sub),
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

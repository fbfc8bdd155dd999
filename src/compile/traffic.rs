//! Step 7: attachment traffic of the plan and of the naive plan
//! ([guide](crate::guide#traffic-model)).

use super::Decls;
use super::validate::Checked;
use crate::compiled::{NaiveSources, Traffic, naive_loads};
use crate::error::GraphError;
use crate::resource::{ListAccess, PassId, ResourceId, Subresource};

/// The traffic of a plan whose attachment bytes (`planned_bytes`, from [`planned_bytes`]) and
/// those of the declared order's plan are counted already; `graph` and `live` are the declared
/// frame's, whose naive plan and sampled bytes these are, whatever restructuring did.
pub(super) fn measure_traffic(
    graph: Decls<'_>,
    planned_bytes: Option<u64>,
    declared_bytes: Option<u64>,
    naive: &NaiveSources,
    live: &[bool],
    checked: &Checked,
    fps: u32,
) -> Result<Traffic, GraphError> {
    let overflow = || GraphError::invalid("attachment traffic overflows a 64-bit byte count");
    let bytes =
        |r: ResourceId, sub: Subresource| checked.subresource_bytes(graph.resources, r, sub);
    let planned_bytes = planned_bytes.ok_or_else(overflow)?;
    let declared_bytes = declared_bytes.ok_or_else(overflow)?;
    // The naive plan, counted without building it: every live pass alone.
    let mut naive_bytes = 0u64;
    for p in (0..graph.passes.len()).filter(|&p| live[p]) {
        // The naive plan's rule (`naive_attachment`), without its clear values.
        for (slot, a) in graph.acc.slots(p).iter().enumerate() {
            let loads = naive_loads(a.access, naive.of(PassId::new(p), slot));
            let moved = 1 + u64::from(loads);
            naive_bytes = bytes(a.resource, a.sub)
                .checked_mul(moved)
                .and_then(|b| naive_bytes.checked_add(b))
                .ok_or_else(overflow)?;
            if let Some(t) = a.resolve {
                naive_bytes = naive_bytes
                    .checked_add(bytes(t, Subresource::BASE))
                    .ok_or_else(overflow)?;
            }
        }
    }
    let mut sampled = 0u64;
    for p in (0..graph.passes.len()).filter(|&p| live[p]) {
        let shader_reads = graph
            .acc
            .entries(p)
            .iter()
            .filter(|(access, _)| matches!(access, ListAccess::Sample | ListAccess::Input));
        for (_, e) in shader_reads {
            let b = match e.sub {
                Some(sub) => bytes(e.resource, sub),
                None => checked.bytes[e.resource.index()],
            };
            sampled = sampled.checked_add(b).ok_or_else(overflow)?;
        }
    }
    let per_second = |b: u64| b.checked_mul(u64::from(fps)).ok_or_else(overflow);
    Ok(Traffic {
        bytes_per_frame: planned_bytes,
        naive_bytes_per_frame: naive_bytes,
        declared_bytes_per_frame: declared_bytes,
        fps,
        bytes_per_second: per_second(planned_bytes)?,
        naive_bytes_per_second: per_second(naive_bytes)?,
        declared_bytes_per_second: per_second(declared_bytes)?,
        sampled_bytes_per_frame: sampled,
    })
}

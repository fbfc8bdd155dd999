//! Step 10: attachment traffic of the plan and of the naive plan
//! ([guide](crate::guide#traffic-model)).

use super::Decls;
use super::validate::Checked;
use super::versions::VersionId;
use crate::decl::pass::ListAccess;
use crate::decl::resource::{ResourceDecl, ResourceKind};
use crate::error::GraphError;
use crate::ids::ResourceId;
use crate::options::Fps;
use crate::plan::{Traffic, naive_loads};
use crate::resource::{Subresource, SubresourceRange};

/// What one pass moves alone, `None` beyond `u64`: its attachments in the naive plan, and what
/// it samples or reads as inputs.
#[derive(Debug, Clone, Copy)]
pub(super) struct PassBytes {
    pub naive: Option<u64>,
    pub sampled: Option<u64>,
}

impl PassBytes {
    /// Pass `p`'s bytes, once versions know which of its slots find contents (`slot_read`, one
    /// per slot of `slots`).
    pub(super) fn of(
        graph: Decls<'_>,
        checked: &Checked,
        p: usize,
        slot_read: &[Option<VersionId>],
    ) -> Self {
        let bytes = |r: ResourceId, sub| checked.subresource_bytes(graph.resources, r, sub);
        // Summed in `u128`, where a pass's bytes cannot overflow: whether they fit a `u64` is
        // asked once, of each sum.
        // The naive plan's rule (`naive_attachment`): a load where `naive_loads` says, a store
        // always, the resolve.
        let mut naive = 0u128;
        for (a, read) in graph.acc.slots(p).iter().zip(slot_read) {
            let moved = 1 + u128::from(naive_loads(a.access, read.map(|_| None)));
            naive += u128::from(bytes(a.resource, a.sub)) * moved;
            if let Some(t) = a.resolve {
                naive += u128::from(bytes(t, Subresource::BASE));
            }
        }
        let mut sampled = 0u128;
        for &(access, e) in graph.acc.entries(p) {
            if !matches!(access, ListAccess::Sample | ListAccess::Input) {
                continue;
            }
            let b = if e.range.is_all() {
                checked.bytes[e.resource.index()]
            } else {
                range_bytes(graph.resources, e.resource, e.range, |mip| {
                    bytes(e.resource, Subresource { mip, layer: 0 })
                })
            };
            sampled += u128::from(b);
        }
        let (naive, sampled) = (u64::try_from(naive).ok(), u64::try_from(sampled).ok());
        PassBytes { naive, sampled }
    }
}

/// Bytes of a range of a texture's subresources: each mip's bytes (`mip_bytes`) times the
/// range's layers.
fn range_bytes(
    resources: &[ResourceDecl],
    r: ResourceId,
    range: SubresourceRange,
    mip_bytes: impl Fn(u32) -> u64,
) -> u64 {
    let ResourceKind::Texture(t) = resources[r.index()].kind else {
        return 0;
    };
    let (m0, mc, _, lc) = range.resolve(t.mips, t.layers);
    (m0..m0 + mc)
        .map(|mip| mip_bytes(mip).saturating_mul(u64::from(lc)))
        .fold(0, u64::saturating_add)
}

/// The traffic of a plan whose attachment bytes (`planned_bytes`, from the ops step) and those
/// of the declared order's plan are counted already; `pass_bytes` and `live` are the declared
/// frame's, whose naive plan and sampled bytes these are, whatever restructuring did.
pub(super) fn measure_traffic(
    planned_bytes: Option<u64>,
    declared_bytes: Option<u64>,
    pass_bytes: &[PassBytes],
    live: &[bool],
    fps: Fps,
) -> Result<Traffic, GraphError> {
    let overflow = || GraphError::invalid("attachment traffic overflows a 64-bit byte count");
    let planned_bytes = planned_bytes.ok_or_else(overflow)?;
    let declared_bytes = declared_bytes.ok_or_else(overflow)?;
    // The naive plan, counted without building it: every live pass alone.
    let (mut naive_bytes, mut sampled) = (0u64, 0u64);
    for p in (0..live.len()).filter(|&p| live[p]) {
        let PassBytes { naive, sampled: s } = pass_bytes[p];
        naive_bytes = naive
            .and_then(|b| naive_bytes.checked_add(b))
            .ok_or_else(overflow)?;
        sampled = s
            .and_then(|b| sampled.checked_add(b))
            .ok_or_else(overflow)?;
    }
    let per_second = |b: u64| fps.per_second(b).ok_or_else(overflow);
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

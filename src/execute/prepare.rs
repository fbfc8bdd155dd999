//! Prepared plans: a plan lowered for one mode, kept across frames with the pool entries its
//! physical resources are bound to, so that a steady frame neither lowers nor binds again.

use super::limits::{check_limits, check_multiview};
use super::lower::{ExecGroup, lower};
use super::parallel::Chunks;
use super::{ExecuteError, ExecuteMode, Executor};
use crate::compiled::CompiledGraph;
use crate::options::CompileOptions;
use crate::resource::{ResourceId, Subresource};

/// A plan lowered for one mode, with the pool entries its physical resources are bound to.
pub(super) struct Prepared {
    pub fingerprint: u128,
    pub options: CompileOptions,
    pub mode: ExecuteMode,
    pub groups: Vec<ExecGroup>,
    /// Per physical resource: its pool entry (texture or buffer index), valid for `generation`.
    pub bound: Vec<u32>,
    pub generation: Option<u64>,
    pub last_used: u64,
    /// With recording threads: the runs of consecutive groups recorded apart.
    pub chunks: Chunks,
    /// The 2D-array views multiview render passes attach: (resource, first subresource, views).
    pub layer_views: Vec<(ResourceId, Subresource, u32)>,
    /// The label of the encoder a frame is recorded into on one thread.
    pub encoder_label: String,
}

/// Plans kept lowered at once (a renderer alternating between a few graph shapes keeps hitting).
pub(super) const PREPARED_CAPACITY: usize = 4;

impl Executor {
    /// Where `plan` is already lowered for `mode`.
    pub(super) fn prepared_index(&self, plan: &CompiledGraph, mode: ExecuteMode) -> Option<usize> {
        self.prepared.iter().position(|p| {
            p.fingerprint == plan.fingerprint() && p.options == *plan.options() && p.mode == mode
        })
    }

    /// Lowers the plan for the mode, or finds it lowered; returns its index in `self.prepared`.
    /// A plan is checked against the device's limits when it is first lowered.
    pub(super) fn prepare(
        &mut self,
        plan: &CompiledGraph,
        mode: ExecuteMode,
    ) -> Result<usize, ExecuteError> {
        if let Some(i) = self.prepared_index(plan, mode) {
            return Ok(i);
        }
        let limits = self.device.limits();
        check_limits(plan, &limits)?;
        let groups = lower(
            plan,
            mode,
            self.dont_care,
            self.multiview_enabled(),
            self.multisample_arrays(),
        );
        check_multiview(&groups, &limits)?;
        let chunks = Chunks::new(&groups, self.recording_threads(), plan.passes().len());
        let prepared = Prepared {
            fingerprint: plan.fingerprint(),
            options: *plan.options(),
            mode,
            layer_views: layer_views(&groups),
            encoder_label: encoder_label(&groups),
            groups,
            bound: Vec::new(),
            generation: None,
            last_used: self.frame,
            chunks,
        };
        if self.prepared.len() < PREPARED_CAPACITY {
            self.prepared.push(prepared);
            Ok(self.prepared.len() - 1)
        } else {
            let oldest = (0..self.prepared.len())
                .min_by_key(|&i| self.prepared[i].last_used)
                .unwrap_or(0);
            self.prepared[oldest] = prepared;
            Ok(oldest)
        }
    }

    /// Whether multisampled arrays are one texture: where multiview records them. Elsewhere
    /// (no multiview, no `Features::MULTISAMPLE_ARRAY`) they are one texture per layer, as
    /// render passes of one view attach them; resolving from a layer of a multisampled array
    /// loses the resolve on lavapipe.
    fn multisample_arrays(&self) -> bool {
        !self.pool.split_multisampled_arrays
    }
}

/// Every 2D-array view the groups recorded as one multiview render pass attach (in Poison mode,
/// their passes recorded apart), once each.
fn layer_views(groups: &[ExecGroup]) -> Vec<(ResourceId, Subresource, u32)> {
    let mut out = Vec::new();
    for group in groups {
        let ops = std::iter::once(&group.ops).chain(group.split.iter().map(|s| &s.ops));
        for mv in ops.filter_map(|o| o.multiview.as_ref()) {
            let colors = mv.color.iter().flat_map(|c| {
                let resolve = c.resolve.map(|t| (t, Subresource::BASE));
                [Some((c.resource, c.sub)), resolve]
            });
            let depth = mv.depth.map(|d| (d.resource, d.sub));
            for (resource, sub) in colors.chain([depth]).flatten() {
                let view = (resource, sub, group.views);
                if !out.contains(&view) {
                    out.push(view);
                }
            }
        }
    }
    out
}

/// The label of an encoder that records `groups`: the frame's span of groups, `first .. last`.
pub(super) fn encoder_label(groups: &[ExecGroup]) -> String {
    match groups {
        [] => "tilegraph frame".to_owned(),
        [one] => format!("frame {}", one.label),
        [first, .., last] => format!("frame {} .. {}", first.label, last.label),
    }
}

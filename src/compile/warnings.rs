//! Step 8: warnings: what costs bandwidth or time and could be avoided
//! ([guide](crate::guide#warnings)).

use super::Decls;
use super::scratch::Scratch;
use crate::compiled::{Group, LoadOp, LoadReason, ResourcePlan, StoreOp, Warning, WarningKind};
use crate::options::CompileOptions;
use crate::resource::{ResourceDecl, ResourceKind};

pub(super) fn collect_warnings(
    graph: Decls<'_>,
    groups: &[Group],
    resources: &[ResourcePlan],
    options: &CompileOptions,
    mut warnings: Vec<Warning>,
    scratch: &mut Scratch,
) -> Vec<Warning> {
    // One `clear_for_write` per resource is enough to say what the token would save.
    let mut clear_for_write_said = scratch.flags.filled(graph.resources.len(), false);
    for group in groups
        .iter()
        .filter(|g| !g.color.is_empty() || g.depth.is_some())
    {
        let pass = group.passes[0];
        // One warning per attachment: the first view stands for the views of a multiview slot.
        let views = group.views() as usize;
        for a in group.color.iter().step_by(views).chain(group.depth.iter()) {
            let r = a.resource.index();
            let warn = |kind, clear| Warning {
                kind,
                pass: Some(pass),
                resource: Some(a.resource),
                clear,
            };
            if let LoadOp::Clear(value) = a.load {
                // A transient attachment's clear never leaves the tile: any value is as cheap.
                if !value.is_fast() && !resources[r].transient {
                    warnings.push(warn(WarningKind::SlowClearValue, Some(value)));
                }
                if a.load_reason == LoadReason::Overwritten
                    && options.dont_care.is_none()
                    && !clear_for_write_said[r]
                {
                    clear_for_write_said[r] = true;
                    warnings.push(warn(WarningKind::ClearForWrite, None));
                }
            }
            if a.store == StoreOp::Store && samples(&graph.resources[r]) > 1 {
                warnings.push(warn(WarningKind::MsaaStored, None));
            }
        }
    }
    scratch.flags.give(clear_for_write_said);
    warnings
}

/// A texture's sample count (1 for a buffer).
fn samples(r: &ResourceDecl) -> u32 {
    match r.kind {
        ResourceKind::Texture(t) => t.samples,
        ResourceKind::Buffer(_) => 1,
    }
}

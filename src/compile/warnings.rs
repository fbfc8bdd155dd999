//! Step 6: warnings: what costs bandwidth or time and could be avoided
//! ([guide](crate::guide#warnings)).

use super::Frame;
use crate::plan::{Group, LoadOp, LoadReason, ResourcePlan, StoreOp, Warning, WarningKind};

/// The warnings of a plan, group by group.
pub(super) struct Warnings<'w> {
    list: &'w mut Vec<Warning>,
    /// Per resource: a `clear_for_write` was said (one per resource is enough to say what the
    /// token would save).
    clear_for_write_said: &'w mut Vec<bool>,
}

impl<'w> Warnings<'w> {
    /// No warnings yet, into `list`. `list` and `said` are the compiler's lists, cleared here.
    pub(super) fn new(
        list: &'w mut Vec<Warning>,
        resources: usize,
        said: &'w mut Vec<bool>,
    ) -> Self {
        list.clear();
        said.clear();
        said.resize(resources, false);
        Warnings {
            list,
            clear_for_write_said: said,
        }
    }

    /// The warnings of one group, whose attachments' resources are planned (transient or not).
    pub(super) fn group(&mut self, frame: Frame<'_>, group: &Group, resources: &[ResourcePlan]) {
        let (graph, options) = (frame.decls, frame.options);
        if group.color.is_empty() && group.depth.is_none() {
            return;
        }
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
            if let LoadOp::Clear(value) = &a.load {
                // A clear that never reaches memory (a transient attachment, or one the group
                // discards) costs the same whatever its value.
                if a.store != StoreOp::Discard && !resources[r].transient && !value.is_fast() {
                    self.list
                        .push(warn(WarningKind::SlowClearValue, Some(*value)));
                }
                if a.load_reason == LoadReason::Overwritten
                    && options.dont_care.is_none()
                    && !self.clear_for_write_said[r]
                {
                    self.clear_for_write_said[r] = true;
                    self.list.push(warn(WarningKind::ClearForWrite, None));
                }
            }
            if a.store == StoreOp::Store && graph.acc.resource(r).multisampled {
                self.list.push(warn(WarningKind::MsaaStored, None));
            }
        }
    }
}

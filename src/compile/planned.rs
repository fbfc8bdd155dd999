//! One execution order planned: its groups, their ops and bytes, the resources' lifetimes and
//! transient textures, and the warnings. The declared order, the edited one and the reordered
//! one are each planned this way, each into a [`Planned`] of its own, and the cheapest kept.

use super::groups::Grouping;
use super::liveness::Readers;
use super::{Frame, groups, liveness, ops, resources, warnings};
use crate::ids::{GroupId, PassId};
use crate::plan::{Group, ResourcePlan, Warning};

/// The groups of one execution order with their ops, what they cost, the resources' lifetimes
/// and transient textures, and the warnings.
#[derive(Default)]
pub(in crate::compile) struct Planned {
    pub order: Vec<PassId>,
    pub groups: Vec<Group>,
    pub group_of: Vec<Option<GroupId>>,
    pub bytes: Option<u64>,
    pub resources: Vec<ResourcePlan>,
    pub warnings: Vec<Warning>,
}

/// The orders a compile plans: each its own lists, refilled by the next compile.
#[derive(Default)]
pub(in crate::compile) struct Plans {
    /// The declared order.
    pub declared: Planned,
    /// The declared order of the edited declarations.
    pub edited: Planned,
    /// The reordered order.
    pub reordered: Planned,
}

/// Which of the [`Plans`] the frame runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(in crate::compile) enum Kept {
    Declared,
    Edited,
    Reordered,
}

impl Plans {
    pub(in crate::compile) fn get_mut(&mut self, kept: Kept) -> &mut Planned {
        match kept {
            Kept::Declared => &mut self.declared,
            Kept::Edited => &mut self.edited,
            Kept::Reordered => &mut self.reordered,
        }
    }
}

/// Planning's working lists, cleared where each is filled.
#[derive(Debug, Default)]
pub(in crate::compile) struct Workspace {
    /// Grouping: the merge rule's marks and spare groups.
    grouping: Grouping,
    /// Who reads each version last.
    readers: Readers,
    /// Warnings: per resource, a `clear_for_write` was said.
    clear_for_write_said: Vec<bool>,
}

/// Plans `planned.order` (filled by the caller) into the rest of `planned`.
pub(in crate::compile) fn plan_order(
    frame: Frame<'_>,
    planned: &mut Planned,
    work: &mut Workspace,
) {
    groups::form_groups(frame, &mut work.grouping, planned);
    let Frame {
        decls, checked, v, ..
    } = frame;
    let Planned {
        groups,
        group_of,
        bytes,
        resources: plans,
        warnings: list,
        ..
    } = planned;
    resources::lifetimes_and_usage(decls, frame.live, group_of, plans);
    let readers = liveness::last_readers(v, frame.live, group_of, &mut work.readers);
    let bytes_of = |r, sub| checked.subresource_bytes(decls.resources, r, sub);
    // Each group's transient textures, then its warnings (which depend on them), right after
    // its ops, while it is in the caches.
    let said = &mut work.clear_for_write_said;
    let mut warnings = warnings::Warnings::new(list, decls.resources.len(), said);
    let each_group = |group: &Group| {
        resources::mark_transients(frame, plans, group);
        warnings.group(frame, group, plans);
    };
    *bytes = ops::infer_attachment_ops(frame, groups, readers, bytes_of, each_group);
}

/// The live passes in declared order, into `order` (cleared here; sized once: a filtered
/// iterator would grow the list).
pub(in crate::compile) fn declared_order(live: &[bool], order: &mut Vec<PassId>) {
    order.clear();
    order.reserve(live.len());
    order.extend((0..live.len()).filter(|&p| live[p]).map(PassId::new));
}

//! One execution order planned: its groups, their ops and bytes, the resources' lifetimes and
//! transient textures, and the warnings. The declared order, the edited one and the reordered
//! one are each planned this way, and the cheapest kept.

use super::compiler::Spares;
use super::scratch::Scratch;
use super::{Decls, groups, liveness, ops, resources, validate, versions, warnings};
use crate::ids::{GroupId, PassId};
use crate::options::CompileOptions;
use crate::plan::{Group, ResourcePlan, Warning};

/// The groups of one execution order with their ops, what they cost, the resources' lifetimes
/// and transient textures, and the warnings.
pub(in crate::compile) struct Planned {
    pub order: Vec<PassId>,
    pub groups: Vec<Group>,
    pub group_of: Vec<Option<GroupId>>,
    pub bytes: Option<u64>,
    pub resources: Vec<ResourcePlan>,
    pub warnings: Vec<Warning>,
}

impl Planned {
    /// Hands the lists of a plan not kept back.
    pub(in crate::compile) fn recycle(self, spares: &mut Spares) {
        spares.groups.take_groups(self.groups);
        spares.take_warning_list(self.warnings);
        let scratch = &mut spares.scratch;
        scratch.pass_ids.give(self.order);
        scratch.maybe_groups.give(self.group_of);
        scratch.resource_plans.give(self.resources);
    }
}

pub(in crate::compile) fn plan_order(
    decls: Decls<'_>,
    checked: &validate::Checked,
    v: &versions::Versions,
    live: &[bool],
    order: Vec<PassId>,
    options: &CompileOptions,
    spares: &mut Spares,
) -> Planned {
    let grouping = groups::form_groups(decls, &checked.subs, v, &order, options, spares);
    let list = spares.warning_list();
    let scratch = &mut spares.scratch;
    let mut resources = resources::lifetimes_and_usage(decls, live, &grouping.group_of, scratch);
    let work = &mut spares.work;
    let readers = liveness::last_readers(v, live, &grouping.group_of, &mut work.readers);
    let bytes_of = |r, sub| checked.subresource_bytes(decls.resources, r, sub);
    // Each group's transient textures, then its warnings (which depend on them), right after
    // its ops, while it is in the caches.
    let said = &mut work.clear_for_write_said;
    let mut warnings = warnings::Warnings::new(list, decls.resources.len(), said);
    let each_group = |group: &Group| {
        resources::mark_transients(decls, &mut resources, group, options);
        warnings.group(decls, group, &resources, options);
    };
    let (groups, bytes) = ops::infer_attachment_ops(
        decls,
        grouping.groups,
        v,
        readers,
        options,
        bytes_of,
        each_group,
    );
    Planned {
        order,
        groups,
        group_of: grouping.group_of,
        bytes,
        resources,
        warnings: warnings.finish(),
    }
}

/// The live passes in declared order (sized once: a filtered iterator would grow the list).
pub(in crate::compile) fn declared_order(live: &[bool], scratch: &mut Scratch) -> Vec<PassId> {
    let mut order = scratch.pass_ids.take(live.len());
    order.extend((0..live.len()).filter(|&p| live[p]).map(PassId::new));
    order
}

//! A compiler that keeps its storage between compiles: its working tables, and the lists of the
//! plans handed back (and of the plans a compile tried and did not keep), are reused by the
//! next compile, so a frame that compiles a graph like the last one's allocates nothing per
//! pass or group, and works in memory the last compile left in the caches.

use super::groups::GroupMarks;
use super::liveness::Readers;
use super::prefetch;
use super::restructure::ReorderWorkspace;
use super::scratch::Scratch;
use super::validate;
use crate::declare::RenderGraph;
use crate::error::GraphError;
use crate::options::CompileOptions;
use crate::plan::{CompiledGraph, Group, GroupBreak, PhysicalResource, Warning};
use crate::resource::{PassId, PassKind, ResourceId};

impl RenderGraph<'_> {
    /// Compiles the graph in full. See [`PlanCache`](crate::PlanCache) to reuse a plan across frames.
    pub fn compile(&self, options: &CompileOptions) -> Result<CompiledGraph, GraphError> {
        super::compile(self, options, &mut Spares::default())
    }
}

impl CompiledGraph {
    /// The plan of the declared order: this plan itself when restructuring changed nothing
    /// (or was off), else the same graph compiled with
    /// [`with_restructure(false)`](CompileOptions::with_restructure), made when first asked
    /// for. The executor's `Naive` and `Poison` modes record it, so their images check the
    /// restructured plan.
    pub fn as_declared(&self) -> &CompiledGraph {
        if self.restructure.is_empty() {
            return self;
        }
        self.declared.get_or_init(|| {
            let options = self.options.with_restructure(false);
            let declared = super::compile_decls(
                (&self.pass_decls, &self.resource_decls),
                None,
                self.fingerprint,
                &options,
                &mut Spares::default(),
            )
            // The same declarations compiled once already; the declared order checks less.
            .expect("a graph that compiled restructured compiles in declared order");
            Box::new(declared)
        })
    }
}

/// Compiles graphs, reusing the storage of plans it is handed back.
///
/// [`RenderGraph::compile`] compiles with a fresh one. A renderer that compiles every frame
/// keeps one and hands each plan back with [`recycle`](Self::recycle) once it is done with it;
/// [`PlanCache`](crate::PlanCache) keeps one and recycles the plans it evicts. Plans are the
/// same either way. The storage kept is bounded by a few times what the largest compile used
/// and the largest plan handed back held.
#[derive(Debug, Default)]
pub struct Compiler {
    spares: Spares,
}

impl Compiler {
    /// A compiler with no storage yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// Compiles `graph` in full, as [`RenderGraph::compile`] does.
    pub fn compile(
        &mut self,
        graph: &RenderGraph<'_>,
        options: &CompileOptions,
    ) -> Result<CompiledGraph, GraphError> {
        super::compile(graph, options, &mut self.spares)
    }

    /// Takes back a plan nobody needs any more: the next compiles reuse its storage.
    pub fn recycle(&mut self, plan: CompiledGraph) {
        self.spares.take_plan(plan);
    }
}

/// Spare lists, emptied, with their capacity.
#[derive(Debug, Default)]
pub(super) struct Spares {
    /// Group lists handed back.
    pub(super) groups: GroupLists,
    /// Empty resource lists of physical resources.
    resource_lists: Vec<Vec<ResourceId>>,
    /// Empty physical resource lists.
    physical_lists: Vec<Vec<PhysicalResource>>,
    /// An empty warning list.
    warnings: Vec<Warning>,
    /// The most physical resources one list handed back held: the spares keep that many
    /// resource lists, however many plans come back.
    most_physical: usize,
    /// The steps' working lists, and the per-pass and per-resource lists of plans handed back.
    pub(super) scratch: Scratch,
    /// The lists that stay inside one step.
    pub(super) work: Workspaces,
}

/// The lists that stay inside one step, one field per step: the step clears them at its start
/// and fills them, so a compile like the last one's allocates none of them, and nothing hands
/// them back.
#[derive(Debug, Default)]
pub(super) struct Workspaces {
    pub validate: validate::Workspace,
    /// Versions: per subresource, its current version while tracing.
    pub current_versions: Vec<Option<u32>>,
    /// Grouping: what the current group wrote and touched.
    pub group_marks: GroupMarks,
    /// Planning an order: who reads each version last.
    pub readers: Readers,
    /// Warnings: per resource, a `clear_for_write` was said.
    pub clear_for_write_said: Vec<bool>,
    /// Restructuring: the reordering's positions, group starts and marks.
    pub reorder: ReorderWorkspace,
}

/// Group lists handed back, and empty ones.
#[derive(Debug, Default)]
pub(super) struct GroupLists {
    /// Group lists handed back, their groups still in them: the groups' pass and attachment
    /// lists keep their capacity. Groups are taken from the last list; kept whole, a list is
    /// never copied group by group.
    full_lists: Vec<Vec<Group>>,
    /// Empty group lists.
    group_lists: Vec<Vec<Group>>,
}

/// Plans (tried and kept) one compile may hold at once: the declared order, the edited one and
/// the restructured one.
const PLANS_AT_ONCE: usize = 3;

/// A list of groups being filled: the groups of a list handed back are reset where they lie
/// instead of being moved out and back in.
pub(super) struct GroupFill {
    list: Vec<Group>,
    /// Groups of `list` filled so far; those after them are the old groups not yet reused.
    used: usize,
}

impl GroupFill {
    /// Starts a group of one pass after the last one, of `kind` and `multiview` views.
    pub(super) fn start(
        &mut self,
        spares: &mut GroupLists,
        kind: PassKind,
        multiview: Option<u32>,
        first: PassId,
    ) {
        if self.used == self.list.len() {
            let group = spares.spare_group().unwrap_or_else(|| Group {
                kind,
                passes: Vec::new(),
                color: Vec::new(),
                depth: None,
                depth_views: Vec::new(),
                multiview: None,
                color_bytes_per_sample: 0,
                break_reason: GroupBreak::EndOfGraph,
            });
            self.list.push(group);
        }
        prefetch::reused_groups(&self.list, self.used);
        let group = &mut self.list[self.used];
        self.used += 1;
        group.kind = kind;
        group.passes.clear();
        group.passes.push(first);
        group.color.clear();
        group.depth = None;
        group.depth_views.clear();
        group.multiview = multiview;
        group.color_bytes_per_sample = 0;
        group.break_reason = GroupBreak::EndOfGraph;
    }

    /// The last group started.
    pub(super) fn last_mut(&mut self) -> Option<&mut Group> {
        self.used.checked_sub(1).map(|i| &mut self.list[i])
    }

    /// Groups started.
    pub(super) fn len(&self) -> usize {
        self.used
    }
}

impl GroupLists {
    /// A list to fill with groups (room for `capacity`): a list handed back with its groups,
    /// else an empty one.
    pub(super) fn group_fill(&mut self, capacity: usize) -> GroupFill {
        let mut list = (self.full_lists.pop())
            .or_else(|| self.group_lists.pop())
            .unwrap_or_default();
        list.reserve(capacity.saturating_sub(list.len()));
        GroupFill { list, used: 0 }
    }

    /// The groups filled; old groups not reused are kept for later.
    pub(super) fn filled_groups(&mut self, mut fill: GroupFill) -> Vec<Group> {
        if fill.list.len() > fill.used {
            let unused = fill.list.split_off(fill.used);
            self.take_groups(unused);
        }
        fill.list
    }

    /// A group handed back, from the last list that still has one; lists emptied become
    /// empty group lists.
    fn spare_group(&mut self) -> Option<Group> {
        while let Some(list) = self.full_lists.last_mut() {
            if let Some(group) = list.pop() {
                return Some(group);
            }
            let empty = self.full_lists.pop().expect("a last list");
            if self.group_lists.len() < PLANS_AT_ONCE {
                self.group_lists.push(empty);
            }
        }
        None
    }

    /// Keeps a list with its groups.
    pub(super) fn take_groups(&mut self, groups: Vec<Group>) {
        if groups.is_empty() {
            if self.group_lists.len() < PLANS_AT_ONCE {
                self.group_lists.push(groups);
            }
        } else if self.full_lists.len() < PLANS_AT_ONCE {
            self.full_lists.push(groups);
        }
    }
}

impl Spares {
    /// An empty list of physical resources.
    pub(super) fn physical_list(&mut self) -> Vec<PhysicalResource> {
        self.physical_lists.pop().unwrap_or_default()
    }

    /// An empty list of warnings.
    pub(super) fn warning_list(&mut self) -> Vec<Warning> {
        std::mem::take(&mut self.warnings)
    }

    /// Keeps a warning list for the next compile.
    pub(super) fn take_warning_list(&mut self, mut warnings: Vec<Warning>) {
        warnings.clear();
        if warnings.capacity() > self.warnings.capacity() {
            self.warnings = warnings;
        }
    }

    /// An empty list of resources.
    pub(super) fn resource_list(&mut self) -> Vec<ResourceId> {
        self.resource_lists.pop().unwrap_or_default()
    }

    /// Keeps the plan's own groups and physical resources. Its naive groups and declared-order
    /// plan, made on demand elsewhere, are dropped: keeping them would grow the spares by a
    /// plan's worth every frame that asks for them.
    fn take_plan(&mut self, mut plan: CompiledGraph) {
        self.groups.take_groups(std::mem::take(&mut plan.groups));
        let scratch = &mut self.scratch;
        scratch.pass_plans.give(std::mem::take(&mut plan.passes));
        scratch.pass_ids.give(std::mem::take(&mut plan.order));
        scratch
            .resource_plans
            .give(std::mem::take(&mut plan.resources));
        // A dependency list built on request is dropped with the plan: compiles make none.
        scratch.give_reads(std::mem::take(&mut plan.reads));
        let naive = std::mem::take(&mut plan.naive_sources);
        scratch.u32s.give(naive.start);
        scratch.loaded.give(naive.loaded);
        self.take_warning_list(std::mem::take(&mut plan.warnings));
        let mut physical = std::mem::take(&mut plan.physical);
        self.most_physical = self.most_physical.max(physical.len());
        for p in physical.drain(..) {
            if self.resource_lists.len() < self.most_physical {
                let mut list = p.resources;
                list.clear();
                self.resource_lists.push(list);
            }
        }
        if self.physical_lists.is_empty() {
            self.physical_lists.push(physical);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::resource::TextureDesc;

    #[test]
    fn spares_stay_bounded_however_many_plans_come_back() {
        let mut g = RenderGraph::new();
        let t = g.create_texture(
            "t",
            TextureDesc::new(wgpu::TextureFormat::Rgba8Unorm, 64, 64),
        );
        for p in 0..8 {
            g.add_compute_pass(&format!("fill{p}"))
                .storage_write(t)
                .side_effects()
                .finish();
        }
        let options = CompileOptions::default();
        let groups = g.compile(&options).unwrap().groups().len();
        let mut compiler = Compiler::new();
        for _ in 0..20 {
            compiler.recycle(g.compile(&options).unwrap());
        }
        let spares = &compiler.spares;
        assert_eq!(groups, 8);
        let spare_groups = |s: &Spares| s.groups.full_lists.iter().map(Vec::len).sum::<usize>();
        assert!(spares.groups.full_lists.len() <= PLANS_AT_ONCE);
        assert!(spare_groups(spares) <= PLANS_AT_ONCE * groups);
        assert!(spares.groups.group_lists.len() <= PLANS_AT_ONCE);
        assert!(spares.physical_lists.len() <= 1);
        assert!(spares.resource_lists.len() <= spares.most_physical);
        // And they are used: the next compile takes its groups from them.
        let before = spare_groups(spares);
        let plan = compiler.compile(&g, &options).unwrap();
        assert_eq!(spare_groups(&compiler.spares), before - groups);
        assert_eq!(plan.to_json(), g.compile(&options).unwrap().to_json());
    }
}

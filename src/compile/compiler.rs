//! A compiler that keeps its storage between compiles: the lists of the plans handed back
//! (and of the plans a compile tried and did not keep) are reused by the next compile, so a
//! frame that compiles a graph like the last one's allocates nothing per pass or group.

use crate::declare::RenderGraph;
use crate::error::GraphError;
use crate::options::CompileOptions;
use crate::plan::{CompiledGraph, Group, GroupBoundary, PhysicalResource, Warning};
use crate::resource::{PassId, PassKind, ResourceId};

/// Compiles graphs, reusing the storage of plans it is handed back.
///
/// [`RenderGraph::compile`] compiles with a fresh one. A renderer that compiles every frame
/// keeps one and hands each plan back with [`recycle`](Self::recycle) once it is done with it;
/// [`PlanCache`](crate::PlanCache) keeps one and recycles the plans it evicts. Plans are the
/// same either way.
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
    /// Groups whose pass and attachment lists keep their capacity.
    groups: Vec<Group>,
    /// Empty group lists.
    group_lists: Vec<Vec<Group>>,
    /// Empty resource lists of physical resources.
    resource_lists: Vec<Vec<ResourceId>>,
    /// Empty physical resource lists.
    physical_lists: Vec<Vec<PhysicalResource>>,
    /// An empty warning list.
    warnings: Vec<Warning>,
}

impl Spares {
    /// A group of one pass.
    pub(super) fn group(&mut self, kind: PassKind, first: PassId) -> Group {
        let mut group = self.groups.pop().unwrap_or_else(|| Group {
            kind,
            passes: Vec::new(),
            color: Vec::new(),
            depth: None,
            boundary: GroupBoundary::EndOfGraph,
        });
        group.kind = kind;
        group.passes.clear();
        group.passes.push(first);
        group.color.clear();
        group.depth = None;
        group.boundary = GroupBoundary::EndOfGraph;
        group
    }

    /// An empty list of groups with room for `capacity`.
    pub(super) fn group_list(&mut self, capacity: usize) -> Vec<Group> {
        let mut list = self.group_lists.pop().unwrap_or_default();
        list.reserve(capacity);
        list
    }

    /// Keeps the groups of a list and the list itself.
    pub(super) fn take_groups(&mut self, mut groups: Vec<Group>) {
        self.groups.append(&mut groups);
        self.group_lists.push(groups);
    }

    /// An empty list of physical resources.
    pub(super) fn physical_list(&mut self) -> Vec<PhysicalResource> {
        self.physical_lists.pop().unwrap_or_default()
    }

    /// An empty list of warnings.
    pub(super) fn warning_list(&mut self) -> Vec<Warning> {
        std::mem::take(&mut self.warnings)
    }

    /// An empty list of resources.
    pub(super) fn resource_list(&mut self) -> Vec<ResourceId> {
        self.resource_lists.pop().unwrap_or_default()
    }

    /// Keeps the plan's own groups and physical resources. Its naive groups and declared-order
    /// plan, made on demand elsewhere, are dropped: keeping them would grow the spares by a
    /// plan's worth every frame that asks for them.
    fn take_plan(&mut self, mut plan: CompiledGraph) {
        self.take_groups(std::mem::take(&mut plan.groups));
        let mut warnings = std::mem::take(&mut plan.warnings);
        warnings.clear();
        if warnings.capacity() > self.warnings.capacity() {
            self.warnings = warnings;
        }
        let mut physical = std::mem::take(&mut plan.physical);
        for p in physical.drain(..) {
            let mut list = p.resources;
            list.clear();
            self.resource_lists.push(list);
        }
        self.physical_lists.push(physical);
    }
}

//! A compiler that keeps its storage between compiles. Every table a compile builds lives in a
//! workspace of the compiler's ([`Workspaces`]): one per step for the lists that stay inside
//! it, one per result that passes from step to step. The step that fills a workspace clears it
//! first (keeping its capacity), and the steps after it borrow it. The plan's own lists are
//! moved out of their workspaces into the plan, and the lists of the last plan dropped on the
//! thread (`impl Drop for CompiledGraph`, the one way back) take their places; so a frame that
//! compiles a graph like the last one's allocates nothing per pass or group, gives nothing back,
//! and works in memory the last compile left in the caches. Groups and physical resources a list has no room for come from
//! spares, and those a smaller graph leaves over become spares (their own lists keeping their
//! storage): graphs of different sizes compiled in turn allocate nothing once each was compiled.

use std::cell::Cell;
use std::fmt;

use super::assemble::Found;
use super::planned::{self, Plans};
use super::resources::Pooling;
use super::restructure;
use super::validate::{self, Checked};
use super::versions::Versions;
use crate::declare::RenderGraph;
use crate::error::GraphError;
use crate::ids::PassId;
use crate::options::CompileOptions;
use crate::plan::{
    CompiledGraph, Group, NaiveSources, PassPlan, PhysicalResource, Reads, ResourcePlan, Warning,
};

thread_local! {
    /// The workspaces of [`RenderGraph::compile`] on this thread, kept between calls.
    static THREAD_WORK: Cell<Workspaces> = Cell::new(Workspaces::default());
    /// The lists of the last plan dropped on this thread, for the next compile on it.
    static DROPPED: Cell<PlanLists> = Cell::new(PlanLists::default());
}

/// Puts the lists of the last plan dropped on this thread into `returned`, if a plan left some
/// (else `returned` keeps what it holds).
pub(super) fn take_dropped(returned: &mut PlanLists) {
    let dropped = DROPPED.try_with(Cell::take).unwrap_or_default();
    if dropped.passes.capacity() != 0 {
        *returned = dropped;
    }
}

/// Runs `f` with this thread's workspaces (new ones inside a compile that holds them, or while
/// the thread ends) and keeps them for the next call.
fn with_thread_work<T>(f: impl FnOnce(&mut Workspaces) -> T) -> T {
    let mut work = THREAD_WORK.try_with(Cell::take).unwrap_or_default();
    let out = f(&mut work);
    let _ = THREAD_WORK.try_with(|kept| kept.set(work));
    out
}

impl RenderGraph<'_> {
    /// Compiles the graph in full. See [`PlanCache`](crate::PlanCache) to reuse a plan across
    /// frames.
    ///
    /// The compile works in this thread's workspaces, kept between calls as a [`Compiler`]'s
    /// are, and takes the lists of the last plan dropped on the thread: a thread that compiles
    /// graphs one after another this way costs what a reused `Compiler` does. What is kept is
    /// bounded by the largest graph compiled and the largest plan dropped on the thread; a
    /// renderer that wants the workspaces under its own control keeps a `Compiler`.
    pub fn compile(&self, options: &CompileOptions) -> Result<CompiledGraph, GraphError> {
        with_thread_work(|work| super::compile(self, options, work))
    }
}

impl Drop for CompiledGraph {
    /// Leaves the plan's lists to this thread, for the next compile on it (with
    /// [`RenderGraph::compile`] or a [`Compiler`]), in place of those of the plan dropped
    /// before.
    fn drop(&mut self) {
        // The declared-order plan, if made, goes first: this plan's lists are the ones kept.
        drop(self.declared.take());
        if self.passes.capacity() != 0 {
            let lists = PlanLists::of(self);
            let _ = DROPPED.try_with(|kept| kept.set(lists));
        }
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
            let source = super::Source {
                passes: &self.pass_decls,
                resources: &self.resource_decls,
                names: None,
                fingerprint: self.fingerprint,
            };
            let declared = with_thread_work(|work| super::compile_decls(&source, &options, work))
                // The same declarations compiled once already; the declared order checks less.
                .expect("a graph that compiled restructured compiles in declared order");
            Box::new(declared)
        })
    }
}

/// Compiles graphs, keeping its working tables between compiles.
///
/// [`RenderGraph::compile`] compiles with one kept per thread. A renderer that compiles every
/// frame keeps one, and drops each plan once it is done with it: the next compile on the
/// thread (this compiler's or another's) reuses the lists of the last plan dropped there.
/// [`PlanCache`](crate::PlanCache) keeps one. Plans are the same either way. The storage kept
/// is what the largest compile used.
#[derive(Default)]
pub struct Compiler {
    work: Workspaces,
}

impl fmt::Debug for Compiler {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Compiler").finish_non_exhaustive()
    }
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
        super::compile(graph, options, &mut self.work)
    }

    /// Drops `plan`: as any plan dropped on the thread, it leaves its lists to the next
    /// compile there.
    #[deprecated(
        since = "0.1.0",
        note = "drop the plan instead: a plan dropped leaves its lists to the next compile on the thread; removed in 0.2"
    )]
    pub fn recycle(&mut self, plan: CompiledGraph) {
        drop(plan);
    }
}

/// Every table a compile builds, each cleared by the step that fills it.
#[derive(Default)]
pub(super) struct Workspaces {
    /// Validation's result: the subresource space, the dense access tables, the byte counts.
    pub checked: Checked,
    /// The declared graph's versions.
    pub versions: Versions,
    /// The declared graph's liveness.
    pub live: Vec<bool>,
    /// The plans of the declared, edited and reordered orders.
    pub plans: Plans,
    /// The naive plan's inputs, the physical resources and why each pass is live.
    pub found: Found,
    /// The lists that stay inside one step.
    pub steps: Steps,
    /// The lists of the last plan dropped on the thread, taken at the start of a compile: they
    /// take the places of the next plan's lists in the workspaces.
    pub returned: PlanLists,
}

/// The lists that stay inside one step, one field per step (restructuring's also hold the edited
/// declarations' tables, versions and liveness, which the steps after it read).
#[derive(Default)]
pub(super) struct Steps {
    pub validate: validate::Workspace,
    /// Versions: per subresource, its current version while tracing.
    pub current_versions: Vec<Option<u32>>,
    /// Planning an order: grouping's marks, the last readers, the warnings said.
    pub planning: planned::Workspace,
    pub restructure: restructure::Workspace,
    /// Physical resources: the pooling tables.
    pub pooling: Pooling,
}

/// The lists of a plan dropped, contents and all: the next plan leaves them in the
/// workspaces it takes its own lists from, and the steps that fill those clear them (groups and
/// physical resources are reset where they lie, their lists keeping their capacity).
#[derive(Default)]
pub(super) struct PlanLists {
    pub passes: Vec<PassPlan>,
    pub groups: Vec<Group>,
    pub order: Vec<PassId>,
    pub naive: NaiveSources,
    pub resources: Vec<ResourcePlan>,
    pub physical: Vec<PhysicalResource>,
    pub warnings: Vec<Warning>,
    pub reads: Reads,
}

impl PlanLists {
    /// The plan's lists. Its naive groups, dependency list and declared-order plan, made on
    /// demand elsewhere, are dropped with it: compiles make none of them.
    fn of(plan: &mut CompiledGraph) -> Self {
        use std::mem::take;
        PlanLists {
            passes: take(&mut plan.passes),
            groups: take(&mut plan.groups),
            order: take(&mut plan.order),
            naive: take(&mut plan.naive_sources),
            resources: take(&mut plan.resources),
            physical: take(&mut plan.physical),
            warnings: take(&mut plan.warnings),
            reads: take(&mut plan.reads),
        }
    }
}

/// The list `list` holds, moved out for the plan, with `returned` (a list of the plan dropped
/// last) in its place.
pub(super) fn hand_over<T>(list: &mut Vec<T>, returned: &mut Vec<T>) -> Vec<T> {
    std::mem::replace(list, std::mem::take(returned))
}

/// A list refilled in place: the items it held (its last compile's, or those of a plan handed
/// dropped) are reset where they lie, their own lists keeping their storage. Past its end, items
/// come from a spare list, and the old items a shorter fill leaves over go there when it
/// finishes: a compile of a smaller graph keeps the larger one's items for the next compile of it.
pub(super) struct Refill<'l, T> {
    list: &'l mut Vec<T>,
    spare: &'l mut Vec<T>,
    /// Items of `list` filled so far; those after them are old items not yet reused.
    used: usize,
}

impl<'l, T> Refill<'l, T> {
    /// Refills `list`, taking items past its end from `spare`.
    pub(super) fn new(list: &'l mut Vec<T>, spare: &'l mut Vec<T>) -> Self {
        Refill {
            list,
            spare,
            used: 0,
        }
    }

    /// The next item: the old item there, a spare, or `new()`. The caller resets every field.
    pub(super) fn next(&mut self, new: impl FnOnce() -> T) -> &mut T {
        if self.used == self.list.len() {
            let item = self.spare.pop().unwrap_or_else(new);
            self.list.push(item);
        }
        self.used += 1;
        &mut self.list[self.used - 1]
    }

    /// The number of items filled.
    pub(super) fn len(&self) -> usize {
        self.used
    }

    /// The filled item at `index` (below [`Refill::len`]).
    pub(super) fn get_mut(&mut self, index: usize) -> &mut T {
        debug_assert!(index < self.used, "item {index} of {} filled", self.used);
        &mut self.list[index]
    }

    /// Ends the list after the items filled; the old items after them become spares.
    pub(super) fn finish(self) {
        self.spare.extend(self.list.drain(self.used..));
    }
}

/// Empties `list`, with room for `capacity`.
pub(super) fn emptied<T>(list: &mut Vec<T>, capacity: usize) {
    list.clear();
    list.reserve(capacity);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::resource::TextureDesc;

    #[test]
    fn a_compiler_keeps_one_plans_lists_and_reuses_them() {
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
        let lists = |groups: &[Group]| -> Vec<*const PassId> {
            groups.iter().map(|g| g.passes.as_ptr()).collect()
        };
        let mut compiler = Compiler::new();
        for _ in 0..20 {
            drop(g.compile(&options).unwrap());
        }
        // One plan's lists are kept, however many plans are dropped.
        let kept = DROPPED.with(|d| {
            let dropped = d.take();
            let kept = lists(&dropped.groups);
            d.set(dropped);
            kept
        });
        assert_eq!(kept.len(), 8);
        // The next compile takes them into its workspaces; the one after fills them.
        let plan = compiler.compile(&g, &options).unwrap();
        assert!(compiler.work.returned.groups.is_empty());
        drop(plan);
        let plan = compiler.compile(&g, &options).unwrap();
        assert_eq!(lists(plan.groups()), kept);
        assert_eq!(plan.to_json(), g.compile(&options).unwrap().to_json());
    }

    #[test]
    fn a_compile_that_fails_leaves_the_next_one_as_a_fresh_compiler_makes_it() {
        let frame = |passes: usize, read_first: bool| {
            let mut g = RenderGraph::new();
            let desc = TextureDesc::new(wgpu::TextureFormat::Rgba8Unorm, 64, 64);
            let (a, b) = (g.create_texture("a", desc), g.create_texture("b", desc));
            if read_first {
                g.add_compute_pass("early")
                    .sample(a)
                    .side_effects()
                    .finish();
            }
            for p in 0..passes {
                let (to, from) = if p % 2 == 0 { (a, b) } else { (b, a) };
                let pass = g.add_render_pass(&format!("draw{p}"));
                let pass = pass.color(to, crate::resource::Access::Clear);
                let pass = if p > 0 { pass.sample(from) } else { pass };
                pass.finish();
            }
            g.add_compute_pass("last").sample(a).side_effects().finish();
            g
        };
        let options = CompileOptions::default();
        let mut compiler = Compiler::new();
        for (passes, read_first) in [(40, false), (9, true), (3, false), (40, true), (17, false)] {
            let g = frame(passes, read_first);
            let fresh = g.compile(&options);
            let reused = compiler.compile(&g, &options);
            assert_eq!(read_first, fresh.is_err());
            match (fresh, reused) {
                (Ok(fresh), Ok(reused)) => {
                    assert_eq!(fresh.to_json(), reused.to_json());
                }
                (Err(fresh), Err(reused)) => assert_eq!(fresh.to_string(), reused.to_string()),
                _ => panic!("a reused compiler and a fresh one disagree"),
            }
        }
    }
}

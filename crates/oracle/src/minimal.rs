//! Minimality: the cheapest load/store assignment for the compiler's own groups that the
//! interpreter accepts, searched exhaustively per attached subresource.
//!
//! With every resource in its own memory, what a read of subresource (`r`, `sub`) sees depends only
//! on the ops of the attachment entries of that very subresource (a resolve target receives what
//! its source's last pass wrote, whatever the source's ops; other mips and layers have memory of
//! their own). So the cheapest whole-plan assignment is the cheapest assignment of each attached
//! subresource, all others kept as compiled; each is found by a depth-first search over the groups
//! that prunes a branch as soon as a read goes wrong or its bytes reach the best known.

use tilegraph::plan::{Group, LoadOp, StoreOp};
use tilegraph::{ClearValue, CompiledGraph, RenderGraph, ResourceId, Subresource};

use crate::interp::{Machine, Memory, Reference};

/// One attachment entry of the search: group, index among its colour-then-depth attachments.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Choice {
    pub group: usize,
    pub index: usize,
    pub load: LoadOp,
    pub store: StoreOp,
}

/// Attachment `index` of `group`, in the order of `Group::attachments` (colour, depth, depth
/// views), which numbers the search's choices.
fn entry_mut(group: &mut Group, index: usize) -> &mut tilegraph::plan::AttachmentPlan {
    group
        .color
        .iter_mut()
        .chain(group.depth.iter_mut())
        .chain(group.depth_views.iter_mut())
        .nth(index)
        .expect("index names an attachment of the group")
}

fn entry(group: &Group, index: usize) -> &tilegraph::plan::AttachmentPlan {
    group
        .attachments()
        .nth(index)
        .expect("index names an attachment of the group")
}

/// Bytes an attachment entry's ops move (the guide, resolves excluded: they do not depend on ops).
pub fn op_bytes(load: LoadOp, store: StoreOp, bytes: u64) -> u64 {
    u64::from(load == LoadOp::Load) * bytes + u64::from(store == StoreOp::Store) * bytes
}

struct Search {
    groups: Vec<Group>,
    entries: Vec<Option<usize>>,
    clear: Vec<Option<ClearValue>>,
    allow_dont_care: bool,
    bytes: u64,
    best: u64,
    current: Vec<Choice>,
    found: Option<Vec<Choice>>,
    leaves: u64,
}

impl Search {
    fn go(&mut self, g: usize, mut machine: Machine<'_>, cost: u64) {
        if cost >= self.best || machine.failed {
            return;
        }
        if g == self.groups.len() {
            machine.finish();
            self.leaves += 1;
            if !machine.failed {
                self.best = cost;
                self.found = Some(self.current.clone());
            }
            return;
        }
        let Some(index) = self.entries[g] else {
            machine.run_group(&self.groups[g]);
            return self.go(g + 1, machine, cost);
        };
        let mut loads = vec![LoadOp::Clear(
            self.clear[g].expect("render entries have a value"),
        )];
        if self.allow_dont_care {
            loads.push(LoadOp::DontCare);
        }
        loads.push(LoadOp::Load);
        let compiled = entry(&self.groups[g], index).clone();
        for &load in &loads {
            for store in [StoreOp::Discard, StoreOp::None, StoreOp::Store] {
                let step = op_bytes(load, store, self.bytes);
                if cost + step >= self.best {
                    continue;
                }
                {
                    let e = entry_mut(&mut self.groups[g], index);
                    e.load = load;
                    e.store = store;
                }
                let mut next = machine.clone();
                next.run_group(&self.groups[g]);
                self.current.push(Choice {
                    group: g,
                    index,
                    load,
                    store,
                });
                self.go(g + 1, next, cost + step);
                self.current.pop();
            }
        }
        *entry_mut(&mut self.groups[g], index) = compiled;
    }
}

/// Result of the search for one resource.
#[derive(Debug)]
pub struct Cheapest {
    /// Bytes the compiler's ops for the resource move.
    pub compiled: u64,
    /// An accepted assignment strictly cheaper than the compiler's, if there is one.
    pub cheaper: Option<(u64, Vec<Choice>)>,
    /// Complete assignments the search evaluated.
    pub leaves: u64,
}

/// Searches every load (`clear`, `dont_care` when allowed, `load`) and store (`discard`, `none`,
/// `store`) of the attachment entries of `resource`'s subresource `sub` in the compiler's groups
/// for one that the interpreter accepts and that moves fewer bytes than the compiler's. `bytes`:
/// what one load or store of the subresource moves.
pub fn search_cheaper(
    graph: &RenderGraph<'_>,
    plan: &CompiledGraph,
    reference: &Reference,
    resource: ResourceId,
    sub: Subresource,
    bytes: u64,
    allow_dont_care: bool,
) -> Cheapest {
    let groups = plan.groups().to_vec();
    let mut compiled = 0;
    let mut entries = Vec::new();
    let mut clear = Vec::new();
    for group in &groups {
        let index = group
            .attachments()
            .position(|a| (a.resource, a.sub) == (resource, sub));
        if let Some(i) = index {
            let a = entry(group, i);
            compiled += op_bytes(a.load, a.store, bytes);
        }
        entries.push(index);
        clear.push(index.map(|i| group_clear_value(graph, group, i)));
    }
    let mut search = Search {
        groups,
        entries,
        clear,
        allow_dont_care,
        bytes,
        best: compiled,
        current: Vec::new(),
        found: None,
        leaves: 0,
    };
    let machine = Machine::new(graph, plan, Memory::Separate).expecting(reference);
    search.go(0, machine, 0);
    Cheapest {
        compiled,
        cheaper: search.found.map(|f| (search.best, f)),
        leaves: search.leaves,
    }
}

/// The clear value the first pass of a group would clear the entry's attachment to.
fn group_clear_value(graph: &RenderGraph<'_>, group: &Group, index: usize) -> ClearValue {
    let pass = graph.passes().at(group.passes[0].index());
    let views = pass.multiview().unwrap_or(1).max(1) as usize;
    let (resource, own) = if index < pass.color().len() * views {
        let c = &pass.color()[index / views];
        (c.resource, c.clear)
    } else {
        let d = pass.depth().expect("the group has a depth attachment");
        (d.resource, d.clear)
    };
    let decl = &graph.resources()[resource.index()];
    own.or(decl.clear).unwrap_or_else(|| match decl.kind {
        tilegraph::decl::ResourceKind::Texture(t) => ClearValue::fast_default(t.format),
        tilegraph::decl::ResourceKind::Buffer(_) => unreachable!("attachments are textures"),
    })
}

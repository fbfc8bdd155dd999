//! Reordering: a pass moves back to join an earlier group with the same attachments when every
//! hazard keeps its order and the traffic model says it pays.

use super::ReadersOf;
use crate::compile::accesses::{Accesses, PassInfo};
use crate::compile::compiler::emptied;
use crate::compile::groups::{GroupMarks, Grouper, same_attachments};
use crate::compile::ops;
use crate::compile::planned::Planned;
use crate::compile::subresources::SubTable;
use crate::compile::{Decls, Frame};
use crate::decl::pass::{AttachmentDecl, PassKind};
use crate::ids::GroupId;
use crate::ids::PassId;
use crate::plan::{Restructuring, subresource_bytes};
use crate::resource::Access;

/// How far back a pass looks for a group to join.
const WINDOW: usize = 32;
/// The longest stretch of the frame one move may regroup (the joined group and the one before
/// it included); longer stretches are left as they are.
const MAX_REGION: usize = 256;

/// Every subresource range a pass touches, with whether it writes it. A pass that reads and
/// writes a subresource lists it twice.
fn accesses<'p>(
    acc: &'p Accesses,
    p: PassId,
    subs: &'p SubTable,
) -> impl Iterator<Item = (std::ops::Range<usize>, bool)> + 'p {
    let attachments = acc.slots(p.index()).iter().flat_map(move |a| {
        let s = subs.index(a.resource, a.sub);
        let reads = matches!(a.access, Access::Read | Access::ReadWrite);
        let writes = a.access != Access::Read;
        let resolve = a.resolve.map(|t| {
            let s = subs.index(t, a.resolve_subresource());
            (s..s + 1, true)
        });
        reads
            .then_some((s..s + 1, false))
            .into_iter()
            .chain(writes.then_some((s..s + 1, true)))
            .chain(resolve)
    });
    let lists = acc.entries(p.index()).iter().flat_map(move |&(access, e)| {
        let range = subs.span(e.resource, e.range);
        access
            .reads()
            .then_some((range.clone(), false))
            .into_iter()
            .chain(access.writes().then_some((range, true)))
    });
    attachments.chain(lists)
}

/// Reordering's working lists: cleared at the step's start (the subresource marks at its
/// first trial) and filled in place.
#[derive(Debug, Default)]
pub(in crate::compile) struct Workspace {
    /// Where each attachment key was last seen, to skip the window scan.
    last_seen: LastSeen,
    out_keys: Vec<u64>,
    starts: Vec<bool>,
    mark: Vec<u32>,
    read_mark: Vec<u32>,
    write_mark: Vec<u32>,
    local_group: Vec<(u32, u32)>,
    /// The merge rule's marks after the order so far, and on trial orders.
    tail_marks: GroupMarks,
    trial_marks: GroupMarks,
}

/// Greedy, in declared order: each live render pass looks up to `WINDOW` passes back for the
/// last pass with the same attachments. If passes stand between, it tries the order where what
/// it depends on among them goes ahead of that pass's group, itself right after the group, and
/// the rest after itself; it keeps that order when it merges there and the traffic of the
/// regrouped stretch goes down. `declared` is the plan of the declared order (its order and
/// grouping, which stands until the first move). The order goes into `out` (cleared here), the
/// moves that made it are returned. `readers` holds the readers of the frame's versions when
/// it says so; else it is filled at the first trial.
pub(in crate::compile) fn reorder<'a>(
    frame: Frame<'a>,
    readers: &'a mut ReadersOf,
    declared: &'a Planned,
    out: &'a mut Vec<PassId>,
    work: &'a mut Workspace,
) -> Vec<Restructuring> {
    let graph = frame.decls;
    let passes = graph.passes;
    let keys = graph.acc.keys();
    let declared_groups = &declared.group_of[..];
    let declared = &declared.order[..];
    let Workspace {
        last_seen,
        out_keys,
        starts,
        mark,
        read_mark,
        write_mark,
        local_group,
        tail_marks,
        trial_marks,
    } = work;
    if !frame.options.merge || !has_candidates(graph, keys, declared, last_seen) {
        return Vec::new();
    }
    last_seen.reset(declared.len());
    let live_count = declared.len();
    for list in [&mut *mark, &mut *read_mark, &mut *write_mark] {
        list.clear();
    }
    mark.resize(passes.len(), 0);
    emptied(out, live_count);
    emptied(out_keys, live_count);
    emptied(starts, live_count);
    local_group.clear();
    local_group.resize(passes.len(), (0, 0));
    let mut r = Reorderer {
        frame,
        readers,
        last_seen,
        declared_groups,
        keys,
        out,
        out_keys,
        starts,
        tail: None,
        tail_marks: Some(tail_marks),
        trial: None,
        trial_marks: Some(trial_marks),
        mark,
        read_mark,
        write_mark,
        stamp: 0,
        local_group,
        moves: Vec::new(),
    };
    for &p in declared {
        r.place(p);
    }
    r.moves
}

/// Whether any live render pass has somewhere to join ([`join_candidate`]): most frames have
/// none, and then the declared order stands without building anything else.
fn has_candidates(
    graph: Decls<'_>,
    keys: &[u64],
    declared: &[PassId],
    last_seen: &mut LastSeen,
) -> bool {
    last_seen.reset(declared.len());
    let key_at = |at: usize| keys[declared[at].index()];
    (0..declared.len()).any(|i| {
        let key = key_at(i);
        let found =
            last_seen.may_join(key, i) && join_candidate(graph, declared, key_at, i).is_some();
        last_seen.saw(key, i);
        found
    })
}

/// Per slot of a small table indexed by a few bits of an attachment key: 1 + the last position
/// of the order holding a key of that slot (0: none yet). [`join_candidate`] scans a window of
/// keys for every pass, and in most frames finds nothing: a slot that saw no key within the
/// window says so at once. Keys that share a slot only send a pass on to the scan.
#[derive(Debug, Default)]
struct LastSeen {
    slots: Vec<u32>,
    /// A key's slot is its top bits (the best mixed of a multiplicative hash): it shifted
    /// right by this.
    shift: u32,
}

impl LastSeen {
    /// Empties the table, sized for an order of `len` positions: a power of two, about
    /// twice the positions, so that keys in one window seldom share a slot.
    fn reset(&mut self, len: usize) {
        let size = (2 * len).next_power_of_two().clamp(64, 4096);
        self.slots.clear();
        self.slots.resize(size, 0);
        self.shift = u64::BITS - size.trailing_zeros();
    }

    fn slot(&self, key: u64) -> usize {
        (key >> self.shift) as usize
    }

    /// Whether the pass at position `i`, of `key`, may have a [`join_candidate`]: a key of its
    /// slot was seen within the window before it. When not, no pass there has its key.
    fn may_join(&self, key: u64, i: usize) -> bool {
        key != 0
            && key & PINNED == 0
            && self.slots[self.slot(key)] as usize > i.saturating_sub(WINDOW)
    }

    /// Records `key` at position `i`. A slot keeps the latest position it saw: positions are
    /// recorded in increasing order, or again after a move rewrote them, where an entry may stay
    /// later than the key now there (which only sends a pass on to the scan).
    fn saw(&mut self, key: u64, i: usize) {
        let key = key & !PINNED;
        if key != 0 {
            let slot = self.slot(key);
            self.slots[slot] = self.slots[slot].max(i as u32 + 1);
        }
    }
}

/// The position of the nearest pass before position `i` of `order` with the attachments of the
/// pass at `i`, within the window and not across a pinned pass, when passes stand between the
/// two (right next to it, the pass merged already, or what stops it is not in between).
/// The window is scanned by key (`key_at`: each position's [`pass_key`]): declarations are
/// read only on a match.
fn join_candidate(
    graph: Decls<'_>,
    order: &[PassId],
    key_at: impl Fn(usize) -> u64,
    i: usize,
) -> Option<usize> {
    let key = key_at(i);
    if key == 0 || key & PINNED != 0 {
        return None;
    }
    // Each stop is a pass with the same key or a pinned one (or both).
    for at in (i.saturating_sub(WINDOW)..i).rev() {
        let q_key = key_at(at);
        if q_key & !PINNED == key && same_attachments(graph.acc, order[at], order[i]) {
            return (at + 1 < i).then_some(at);
        }
        if q_key & PINNED != 0 {
            return None;
        }
    }
    None
}

/// The bit of a [`pass_key`] that says the pass is pinned (`keep_order`).
const PINNED: u64 = 2;

/// A pass's attachment key with the [`PINNED`] bit.
pub(in crate::compile) fn pass_key(pass: PassInfo, slots: &[AttachmentDecl]) -> u64 {
    (attachment_key(pass, slots) & !PINNED) | if pass.keep_order { PINNED } else { 0 }
}

/// A hash of the attachment set (0: none); equal keys are confirmed with `same_attachments`.
fn attachment_key(pass: PassInfo, slots: &[AttachmentDecl]) -> u64 {
    if pass.kind != PassKind::Render || slots.is_empty() {
        return 0;
    }
    let mut h: u64 = 0xcbf2_9ce4_8422_2325 ^ u64::from(pass.colors);
    for a in slots {
        for x in [
            a.resource.index() as u64,
            u64::from(a.sub.mip),
            u64::from(a.sub.layer),
        ] {
            h = (h ^ x).wrapping_mul(0x0100_0000_01b3);
        }
    }
    h | 1
}

struct Reorderer<'a> {
    frame: Frame<'a>,
    /// Per version of the frame: its readers, once filled (by the caller, or at the first
    /// trial).
    readers: &'a mut ReadersOf,
    /// Where each key of `out` was last seen.
    last_seen: &'a mut LastSeen,
    declared_groups: &'a [Option<GroupId>],
    /// Per pass: its [`pass_key`].
    keys: &'a [u64],
    /// The order so far.
    out: &'a mut Vec<PassId>,
    /// Per position of `out`: its pass's key.
    out_keys: &'a mut Vec<u64>,
    /// Per position: a group starts there.
    starts: &'a mut Vec<bool>,
    /// The merge rule's state after `out`, from the first move on (before it, `out` is the
    /// declared order and its groups are `declared_groups`).
    tail: Option<Grouper<'a>>,
    /// The tail's marks, until it is made.
    tail_marks: Option<&'a mut GroupMarks>,
    /// The merge rule on trial orders, made at the first trial.
    trial: Option<Grouper<'a>>,
    /// The trial's marks, until it is made.
    trial_marks: Option<&'a mut GroupMarks>,
    /// Per pass: a stamp (dependency marks).
    mark: &'a mut Vec<u32>,
    /// Per subresource: stamps of what the passes being moved read and write.
    read_mark: &'a mut Vec<u32>,
    write_mark: &'a mut Vec<u32>,
    stamp: u32,
    /// Per pass: (stamp of the region it was last simulated in, its group there).
    local_group: &'a mut Vec<(u32, u32)>,
    moves: Vec<Restructuring>,
}

impl<'a> Reorderer<'a> {
    fn place(&mut self, x: PassId) {
        let i = self.out.len();
        self.out.push(x);
        self.out_keys.push(self.keys[x.index()]);
        let moved = self.try_move(x, i);
        if let Some(rs) = moved {
            // The move rewrote positions `rs..=i`.
            for at in rs..=i {
                self.last_seen.saw(self.out_keys[at], at);
            }
            return;
        }
        self.last_seen.saw(self.out_keys[i], i);
        let starts = match self.tail.as_mut() {
            Some(tail) => tail.push(x).is_some(),
            None => {
                i == 0
                    || self.declared_groups[x.index()]
                        != self.declared_groups[self.out[i - 1].index()]
            }
        };
        self.starts.push(starts);
    }

    /// The start of the group holding position `at`, if within `MAX_REGION` of `from`.
    fn group_start(&self, at: usize, from: usize) -> Option<usize> {
        let mut s = at;
        while !self.starts[s] {
            if from - s >= MAX_REGION {
                return None;
            }
            s -= 1;
        }
        Some(s)
    }

    /// Marks what pass `p` reads and writes with `stamp`.
    fn mark_accesses(&mut self, p: PassId, stamp: u32) {
        for (range, writes) in accesses(self.frame.decls.acc, p, &self.frame.checked.subs) {
            let marks = if writes {
                &mut self.write_mark
            } else {
                &mut self.read_mark
            };
            for s in range {
                marks[s] = stamp;
            }
        }
    }

    /// Whether pass `p` and the passes marked with `stamp` touch one subresource, one of them
    /// writing it: then they must keep their order.
    fn conflicts(&self, p: PassId, stamp: u32) -> bool {
        accesses(self.frame.decls.acc, p, &self.frame.checked.subs).any(|(mut range, writes)| {
            range.any(|s| self.write_mark[s] == stamp || (writes && self.read_mark[s] == stamp))
        })
    }

    /// Moves `x` (at position `i`, the last) back to join a group where that pays; returns the
    /// first position the move rewrote.
    fn try_move(&mut self, x: PassId, i: usize) -> Option<usize> {
        if !self.last_seen.may_join(self.out_keys[i], i) {
            return None;
        }
        let out_keys = &self.out_keys[..];
        let k = join_candidate(self.frame.decls, self.out, |at| out_keys[at], i)?;
        let gs = self.group_start(k, i)?;
        if self.read_mark.is_empty() {
            let subs = self.frame.checked.subs.len();
            self.read_mark.resize(subs, 0);
            self.write_mark.resize(subs, 0);
        }
        let dep = self.mark_dependencies(x, k, i);
        if !self.groups_stay_whole(k, i, dep) || !self.ahead_may_pass(gs, k, i, dep) {
            return None;
        }
        let goes_ahead = |q: &PassId| self.mark[q.index()] == dep;
        let between = &self.out[k + 1..i];
        let ahead: Vec<PassId> = between.iter().copied().filter(goes_ahead).collect();
        let after: Vec<PassId> = between.iter().copied().filter(|q| !goes_ahead(q)).collect();
        // The stretch to regroup starts with the group before the joined one: what moves ahead
        // could join that one.
        let rs = if gs > 0 {
            self.group_start(gs - 1, i)?
        } else {
            gs
        };
        let old: Vec<PassId> = self.out[rs..=i].to_vec();
        let mut new = Vec::with_capacity(old.len());
        new.extend_from_slice(&self.out[rs..gs]);
        new.extend_from_slice(&ahead);
        new.extend_from_slice(&self.out[gs..=k]);
        new.push(x);
        new.extend_from_slice(&after);
        let joins = self.out[gs];
        let old_cost = self.simulate(&old);
        let new_cost = self.simulate(&new);
        let joined = self.local_group[x.index()] == self.local_group[self.out[k].index()];
        if !joined || new_cost >= old_cost {
            return None;
        }
        self.keep(rs, &new);
        let names = |p: PassId| self.frame.decls.passes.at(p.index()).name();
        log::debug!(
            "restructure: `{}` joins `{}`, saving {} bytes",
            names(x),
            names(joins),
            old_cost - new_cost
        );
        self.moves.push(Restructuring::Moved {
            pass: x,
            joins,
            ahead,
            after,
            saved_bytes: old_cost - new_cost,
        });
        Some(rs)
    }

    /// Marks (in `mark`, with a new stamp, returned) what `x` at position `i` depends on among
    /// the passes after position `k`: those go ahead of the group. Walking back, a pass that
    /// conflicts with `x` or with what already goes ahead must go ahead too.
    fn mark_dependencies(&mut self, x: PassId, k: usize, i: usize) -> u32 {
        let acc = self.frame.decls.acc;
        self.stamp += 1;
        let dep = self.stamp;
        self.mark_accesses(x, dep);
        let mut side_effects = acc.info(x.index()).side_effects;
        for at in (k + 1..i).rev() {
            let q = self.out[at];
            let q_effects = acc.info(q.index()).side_effects;
            if self.conflicts(q, dep) || (side_effects && q_effects) {
                self.mark[q.index()] = dep;
                side_effects |= q_effects;
                self.mark_accesses(q, dep);
            }
        }
        dep
    }

    /// Whether each group between positions `k` and `i` goes ahead (its passes marked `dep`)
    /// or after whole: a merge made earlier is never split.
    fn groups_stay_whole(&self, k: usize, i: usize, dep: u32) -> bool {
        let mut group_ahead = None;
        for at in k + 1..i {
            let ahead = self.mark[self.out[at].index()] == dep;
            if self.starts[at] {
                group_ahead = Some(ahead);
            } else if group_ahead != Some(ahead) {
                return false;
            }
        }
        true
    }

    /// Whether the passes between positions `k` and `i` marked `dep` may go ahead of the group
    /// from `gs` to `k`: none conflicts with the group, nor crosses a pinned pass in it.
    fn ahead_may_pass(&mut self, gs: usize, k: usize, i: usize, dep: u32) -> bool {
        let acc = self.frame.decls.acc;
        // Listed only once the move passes its checks: most candidates fail them.
        let goes_ahead = |mark: &[u32], q: PassId| mark[q.index()] == dep;
        if !self.out[k + 1..i].iter().any(|&q| goes_ahead(self.mark, q)) {
            return true;
        }
        self.stamp += 1;
        let moved = self.stamp;
        let mut side_effects = false;
        for at in k + 1..i {
            let d = self.out[at];
            if goes_ahead(self.mark, d) {
                self.mark_accesses(d, moved);
                side_effects |= acc.info(d.index()).side_effects;
            }
        }
        (gs..=k).all(|at| {
            let g = self.out[at];
            let gd = acc.info(g.index());
            !(gd.keep_order || (side_effects && gd.side_effects) || self.conflicts(g, moved))
        })
    }

    /// Keeps the order `new` from position `rs` on: positions, group starts and the merge
    /// rule's state.
    fn keep(&mut self, rs: usize, new: &[PassId]) {
        let frame = self.frame;
        let marks = &mut self.tail_marks;
        let tail = self.tail.get_or_insert_with(|| {
            let marks = marks.take().expect("the tail's marks until it is made");
            Grouper::new(frame, marks)
        });
        tail.reset();
        for (offset, &p) in new.iter().enumerate() {
            let at = rs + offset;
            self.out[at] = p;
            self.out_keys[at] = self.keys[p.index()];
            let starts = tail.push(p).is_some();
            if at < self.starts.len() {
                self.starts[at] = starts;
            } else {
                self.starts.push(starts);
            }
        }
    }

    /// Groups `seq` (which starts a group) with the merge rule and returns its attachment
    /// bytes, counting every reader outside `seq` as later. Resolves are left out: every
    /// resolving pass ends its group in any order, so they cost the same.
    fn simulate(&mut self, seq: &[PassId]) -> u64 {
        self.stamp += 1;
        let region = self.stamp;
        let frame = self.frame;
        if !self.readers.filled {
            self.readers.fill(frame.decls.passes.len(), frame.v);
        }
        let marks = &mut self.trial_marks;
        let trial = self.trial.get_or_insert_with(|| {
            let marks = marks.take().expect("the trial's marks until it is made");
            Grouper::new(frame, marks)
        });
        trial.reset();
        let mut group = 0u32;
        let mut bounds = Vec::with_capacity(seq.len() + 1);
        for (at, &p) in seq.iter().enumerate() {
            if trial.push(p).is_some() {
                if at > 0 {
                    group += 1;
                }
                bounds.push(at);
            }
            self.local_group[p.index()] = (region, group);
        }
        bounds.push(seq.len());
        let mut cost = 0u64;
        for (g, w) in bounds.windows(2).enumerate() {
            cost = cost.saturating_add(self.group_cost(&seq[w[0]..w[1]], g as u32, region));
        }
        cost
    }

    /// Loads at the start of a group and stores at its end, as the ops step decides them (with
    /// its predicates): a reader outside the region counts as a later group.
    fn group_cost(&self, members: &[PassId], g: u32, region: u32) -> u64 {
        let first = members[0];
        let Frame {
            decls: graph,
            v,
            live,
            ..
        } = self.frame;
        if graph.acc.info(first.index()).kind != PassKind::Render {
            return 0;
        }
        let mut cost = 0u64;
        for (slot, a) in graph.acc.slots(first.index()).iter().enumerate() {
            let bytes = subresource_bytes(&graph.resources[a.resource.index()], a.sub);
            if ops::loads(a.access, v.slot_read[v.slot(first, slot)]).is_some() {
                cost = cost.saturating_add(bytes);
            }
            let Some(version) = ops::last_write(members, slot, v) else {
                continue;
            };
            let read_later = || {
                debug_assert!(
                    self.readers.filled,
                    "readers are filled before the first trial"
                );
                self.readers.of(version).iter().any(|r| {
                    live[r.index()] && {
                        let (stamp, rg) = self.local_group[r.index()];
                        stamp != region || rg > g
                    }
                })
            };
            if ops::stores(version, v, read_later) {
                cost = cost.saturating_add(bytes);
            }
        }
        cost
    }
}

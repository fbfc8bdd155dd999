//! The lists that pass from step to step (versions, dense tables, orders, plans) and those of
//! plans handed back, kept between compiles by element type: a renderer that compiles every
//! frame reuses the same memory for the same tables, which stays in the caches and costs no
//! allocator calls. A step's own lists are in its workspace (`compiler.rs`) instead.

use super::accesses::{PassInfo, ResourceInfo};
use super::resources::Pooling;
use super::traffic::PassBytes;
use crate::ids::GroupId;
use crate::plan::{DependencyAccess, NeededBy, PassPlan, Reads, ResourcePlan};
use crate::resource::{AttachmentDecl, Entry, ListAccess, PassId, ResourceId};

/// Lists of one element type a compile may hold at once, at most; more handed back are
/// dropped, so the storage kept stays a few times what one compile needs.
const KEEP: usize = 24;

/// Emptied lists of one element type, with their capacity.
#[derive(Debug)]
pub(super) struct Lists<T>(Vec<Vec<T>>);

impl<T> Default for Lists<T> {
    fn default() -> Self {
        Lists(Vec::new())
    }
}

impl<T> Lists<T> {
    /// An empty list with room for `capacity`: the smallest kept one that has that room (the
    /// same list a compile of the same graph took last time), else the largest.
    pub(super) fn take(&mut self, capacity: usize) -> Vec<T> {
        let fits = |l: &&Vec<T>| l.capacity() >= capacity;
        let best = self
            .0
            .iter()
            .enumerate()
            .filter(|(_, l)| fits(l))
            .min_by_key(|(_, l)| l.capacity())
            .or_else(|| self.0.iter().enumerate().max_by_key(|(_, l)| l.capacity()))
            .map(|(i, _)| i);
        let mut list = best.map_or_else(Vec::new, |i| self.0.swap_remove(i));
        list.reserve(capacity);
        list
    }

    /// A list of `len` copies of `value`.
    pub(super) fn filled(&mut self, len: usize, value: T) -> Vec<T>
    where
        T: Clone,
    {
        let mut list = self.take(len);
        list.resize(len, value);
        list
    }

    /// Keeps `list`'s storage for a later compile.
    pub(super) fn give(&mut self, mut list: Vec<T>) {
        if list.capacity() == 0 {
            return;
        }
        list.clear();
        if self.0.len() < KEEP {
            self.0.push(list);
        }
    }

    #[cfg(test)]
    pub(super) fn kept(&self) -> usize {
        self.0.len()
    }
}

/// Working lists by element type.
#[derive(Debug, Default)]
pub(super) struct Scratch {
    pub u32s: Lists<u32>,
    pub u64s: Lists<u64>,
    pub flags: Lists<bool>,
    pub pass_ids: Lists<PassId>,
    pub maybe_passes: Lists<Option<PassId>>,
    pub maybe_u32s: Lists<Option<u32>>,
    pub maybe_groups: Lists<Option<GroupId>>,
    pub read_how: Lists<(ResourceId, DependencyAccess)>,
    pub keyed: Lists<(bool, GroupId, ResourceId)>,
    pub needed_by: Lists<Option<NeededBy>>,
    pub loaded: Lists<Option<Option<PassId>>>,
    pub pass_plans: Lists<PassPlan>,
    pub resource_plans: Lists<ResourcePlan>,
    pub infos: Lists<PassInfo>,
    pub pass_bytes: Lists<PassBytes>,
    pub resource_infos: Lists<ResourceInfo>,
    pub slots: Lists<AttachmentDecl>,
    pub entries: Lists<(ListAccess, Entry)>,
    pub pooling: Pooling,
}

impl Scratch {
    /// Keeps the lists of a plan's reads (or of versions a compile did not keep).
    pub(super) fn give_reads(&mut self, reads: Reads) {
        self.maybe_passes.give(reads.writer);
        for list in [
            reads.sub_of,
            reads.read_start,
            reads.reads,
            reads.sub_base,
            reads.sub_mips,
        ] {
            self.u32s.give(list);
        }
        self.read_how.give(reads.read_how);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_list_is_taken_by_best_fit_and_kept_lists_are_bounded() {
        let mut lists = Lists::<u32>::default();
        lists.give(Vec::with_capacity(100));
        lists.give(Vec::with_capacity(10));
        lists.give(Vec::new());
        assert_eq!(lists.kept(), 2);
        let small = lists.take(5);
        assert!(small.capacity() >= 5 && small.capacity() < 100);
        let large = lists.take(50);
        assert!(large.capacity() >= 100);
        assert_eq!(lists.kept(), 0);
        lists.give(small);
        assert_eq!(lists.filled(200, 7), vec![7; 200]);
        for _ in 0..2 * KEEP {
            lists.give(Vec::with_capacity(1));
        }
        assert_eq!(lists.kept(), KEEP);
    }
}

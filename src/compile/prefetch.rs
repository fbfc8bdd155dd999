//! Cache-line prefetch hints for the walks that follow pointers: the resources a pass names and
//! a reused group's lists lie where no walk in order reaches them, which the hardware
//! prefetcher cannot guess. Asking for their lines a few steps ahead lets the misses overlap the
//! work on the current pass or group; in a frame of 10 000 passes, whose declarations and plan
//! do not stay in a core's caches between compiles, that took about a third off the compile
//! (BENCHMARKS.md), and nothing at 1 000.
//!
//! The steps call one helper per walk ([`declarations`], [`reused_groups`], [`planned_groups`])
//! with the walk's position; what each asks for, and how far ahead, is kept here, out of the
//! rules.

use super::Decls;
use crate::passes::Passes;
use crate::plan::{AttachmentPlan, Group};
use crate::resource::{ResourceDecl, ResourceId};

/// Asks the CPU to start loading the cache line holding `*p` into its caches.
#[inline(always)]
pub(super) fn prefetch<T>(p: *const T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch hint never faults and changes no memory or register the program reads:
    // any address, valid or not, is allowed.
    unsafe {
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        _mm_prefetch::<_MM_HINT_T0>(p.cast());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = p;
}

/// For position `i` of a walk over `items`: `lines` of the item `distance` places ahead, if any.
#[inline(always)]
pub(super) fn ahead<T>(items: &[T], i: usize, distance: usize, lines: impl FnOnce(&T)) {
    if let Some(item) = items.get(i + distance) {
        lines(item);
    }
}

/// Prefetches every cache line of `*value`.
#[inline(always)]
fn prefetch_all<T>(value: &T) {
    prefetch_bytes((value as *const T).cast(), size_of::<T>());
}

/// Prefetches the cache lines of the `len` bytes from `start`.
#[inline(always)]
fn prefetch_bytes(start: *const u8, len: usize) {
    for offset in (0..len).step_by(64) {
        prefetch(start.wrapping_add(offset));
    }
}

/// Validation at pass `p`: three passes ahead, the resources its attachments and samples
/// name (not yet checked: an id past the end prefetches nothing). The declarations themselves
/// lie in tables read in order, which the hardware prefetcher follows.
#[inline(always)]
pub(super) fn declarations(passes: &Passes, res: &[ResourceDecl], p: usize) {
    if let Some(pass) = passes.get(p + 3) {
        let resource = |id: ResourceId| {
            if let Some(r) = res.get(id.index()) {
                prefetch(r);
            }
        };
        pass.color().iter().for_each(|c| resource(c.resource));
        pass.depth().iter().for_each(|d| resource(d.resource));
        pass.sample().iter().for_each(|e| resource(e.resource));
    }
}

/// Grouping, reusing the old groups of `list` from position `used`: they are reused in turn,
/// twelve ahead the group, four ahead its pass and colour lists.
#[inline(always)]
pub(super) fn reused_groups(list: &[Group], used: usize) {
    ahead(list, used, 12, prefetch_all);
    ahead(list, used, 4, |group| {
        prefetch(group.passes.as_ptr());
        prefetch(group.color.as_ptr());
    });
}

/// The ops step at group `g`: what planning the groups after it reads and writes outside the
/// dense tables. Eight groups ahead the group itself, its pass list and up to four lines of its
/// attachment list (written where the last plan's were: the list's first lines), four groups
/// ahead its attachments' declarations (planning a group takes less time than a load from
/// memory).
#[inline(always)]
pub(super) fn planned_groups(graph: Decls<'_>, groups: &[Group], g: usize) {
    ahead(groups, g, 8, |group| {
        prefetch_all(group);
        prefetch(group.passes.as_ptr());
        let bytes = group.color.capacity() * size_of::<AttachmentPlan>();
        prefetch_bytes(group.color.as_ptr().cast(), bytes.min(256));
    });
    ahead(groups, g, 4, |group| {
        if let Some(first) = group.passes.first() {
            for a in graph.acc.slots(first.index()) {
                prefetch_all(&graph.resources[a.resource.index()]);
            }
        }
    });
}

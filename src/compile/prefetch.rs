//! Cache-line prefetch hints for the walks that follow pointers: a pass declaration's lists,
//! the resources it names, a reused group's lists each live in an allocation of their
//! own, which the hardware prefetcher cannot guess. Asking for the lines of the declarations
//! or groups a few steps ahead lets their misses overlap the work on the current one; in a
//! frame of 10 000 passes, whose declarations and plan do not stay in a core's caches between
//! compiles, that took about a third off the compile (BENCHMARKS.md), and nothing at 1 000.

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

/// Prefetches every cache line of `*value`.
#[inline(always)]
pub(super) fn prefetch_all<T>(value: &T) {
    prefetch_bytes((value as *const T).cast(), size_of::<T>());
}

/// Prefetches the cache lines of the `len` bytes from `start`.
#[inline(always)]
pub(super) fn prefetch_bytes(start: *const u8, len: usize) {
    for offset in (0..len).step_by(64) {
        prefetch(start.wrapping_add(offset));
    }
}

/// Prefetches what checking pass `pass` reads beyond the pass itself: its lists (its name is
/// read only for an error: the unique-name check reads the hashes taken when it was declared).
#[inline(always)]
pub(super) fn pass_lists(pass: &crate::resource::PassDecl) {
    prefetch(pass.color.as_ptr());
    prefetch(pass.sample.as_ptr());
}

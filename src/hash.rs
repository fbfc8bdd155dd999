//! Fast non-cryptographic hashing for the compiler's tables and the graph fingerprint.
//!
//! Inputs are the caller's own graph, not adversarial data, and hashing sits on per-frame paths
//! (declaring a graph, compiling it), where SipHash showed up in profiles.

use std::hash::Hasher;

const K1: u64 = 0x517c_c1b7_2722_0a95;
const K2: u64 = 0x9e37_79b9_7f4a_7c15;

/// Feeds every 8 bytes of `bytes` (the tail zero-padded, tagged with the length) to `add`.
#[inline]
fn words(bytes: &[u8], mut add: impl FnMut(u64)) {
    let mut chunks = bytes.chunks_exact(8);
    for chunk in &mut chunks {
        add(u64::from_le_bytes(chunk.try_into().expect("8-byte chunk")));
    }
    // The last bytes gathered in a register: copied into a buffer and read back as one word,
    // the load waited for the copy's byte stores (most names end in a short tail).
    let tail = chunks
        .remainder()
        .iter()
        .rev()
        .fold(0u64, |word, &b| word << 8 | u64::from(b));
    add(tail ^ ((bytes.len() as u64) << 56));
}

/// The compiler's tables hash with the fingerprint's hasher; `finish` gives 64 well-mixed bits.
pub(crate) type FastHasher = WideHasher;

/// Set in the [`name_hash`] of every name but the empty one.
pub(crate) const NAMED: u32 = 1 << 31;

/// A declaration's name as the compiler's unique-name check takes it: 31 bits of its hash, and
/// [`NAMED`] unless the name is empty. Taken when the name is declared, while it is in the
/// caches, so that the check reads one dense table instead of every name's own allocation.
/// One multiply chain and one final mix: 31 bits need no more, and equal hashes are confirmed
/// against the names.
pub(crate) fn name_hash(name: &str) -> u32 {
    if name.is_empty() {
        return 0;
    }
    let mut h = K2;
    words(name.as_bytes(), |w| {
        h = (h.rotate_left(5) ^ w).wrapping_mul(K1)
    });
    let h = (h ^ (h >> 29)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    ((h >> 32) as u32 & !NAMED) | NAMED
}

/// Two independent multiply-rotate streams over the same input: a 128-bit fingerprint.
#[derive(Clone, Copy)]
pub(crate) struct WideHasher {
    a: u64,
    b: u64,
}

impl Default for WideHasher {
    fn default() -> Self {
        WideHasher { a: 0, b: K2 }
    }
}

impl WideHasher {
    #[inline]
    fn add(&mut self, word: u64) {
        self.a = (self.a.rotate_left(5) ^ word).wrapping_mul(K1);
        self.b = (self.b.rotate_left(23) ^ word).wrapping_mul(K2);
    }

    /// The 128-bit value.
    pub(crate) fn finish128(&self) -> u128 {
        // A final avalanche per stream so that nearby inputs spread over every bit.
        let mix = |mut x: u64| {
            x ^= x >> 33;
            x = x.wrapping_mul(0xff51_afd7_ed55_8ccd);
            x ^= x >> 33;
            x = x.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
            x ^ (x >> 33)
        };
        (u128::from(mix(self.b)) << 64) | u128::from(mix(self.a))
    }
}

/// `Hasher` for a hasher of words: every integer is one word (`add`), bytes go in as
/// [`words`], and `finish` is the low half of `finish128`.
macro_rules! word_hasher {
    ($hasher:ty) => {
        impl Hasher for $hasher {
            fn write(&mut self, bytes: &[u8]) {
                words(bytes, |w| self.add(w));
            }

            fn write_u8(&mut self, i: u8) {
                self.add(u64::from(i));
            }

            fn write_u32(&mut self, i: u32) {
                self.add(u64::from(i));
            }

            fn write_u64(&mut self, i: u64) {
                self.add(i);
            }

            fn write_usize(&mut self, i: usize) {
                self.add(i as u64);
            }

            fn finish(&self) -> u64 {
                self.finish128() as u64
            }
        }
    };
}

word_hasher!(WideHasher);

/// The graph fingerprint's hasher: [`WideHasher`]'s two streams, each split into two lanes
/// that take alternate words, so that four multiply chains run side by side instead of two (a
/// graph is hashed as it is declared, on every frame's path, and the chains' latency is what
/// hashing a declaration costs). Each half of the result depends on every word.
#[derive(Clone, Copy)]
pub(crate) struct LaneHasher {
    /// Stream one: the lane taking this word, the lane taking the next.
    a: [u64; 2],
    /// Stream two, likewise.
    b: [u64; 2],
    words: u64,
}

impl Default for LaneHasher {
    fn default() -> Self {
        LaneHasher {
            a: [0, K1],
            b: [K2, 0],
            words: 0,
        }
    }
}

impl LaneHasher {
    #[inline]
    fn add(&mut self, word: u64) {
        let a = (self.a[0].rotate_left(5) ^ word).wrapping_mul(K1);
        let b = (self.b[0].rotate_left(23) ^ word).wrapping_mul(K2);
        self.a = [self.a[1], a];
        self.b = [self.b[1], b];
        self.words += 1;
    }

    pub(crate) fn finish128(&self) -> u128 {
        let stream = |lanes: [u64; 2], k: u64| {
            let mut h = WideHasher::default();
            h.add(self.words);
            h.add(lanes[0]);
            h.add(lanes[1] ^ k);
            h.finish128() as u64
        };
        let (a, b) = (stream(self.a, K1), stream(self.b, K2));
        (u128::from(b) << 64) | u128::from(a)
    }
}

word_hasher!(LaneHasher);

#[cfg(test)]
mod tests {
    use std::hash::Hash;

    use super::*;

    fn wide(item: impl Hash) -> u128 {
        let mut h = WideHasher::default();
        item.hash(&mut h);
        h.finish128()
    }

    #[test]
    fn distinguishes_order_and_length() {
        assert_ne!(wide((1u32, 2u32)), wide((2u32, 1u32)));
        assert_ne!(wide("ab"), wide("abc"));
        assert_ne!(wide(""), wide(0u8));
        assert_eq!(wide(("gbuffer", 3u32)), wide(("gbuffer", 3u32)));
    }

    fn lanes(item: impl Hash) -> u128 {
        let mut h = LaneHasher::default();
        item.hash(&mut h);
        h.finish128()
    }

    #[test]
    fn the_lane_hasher_distinguishes_order_length_and_lane() {
        assert_ne!(lanes((1u32, 2u32)), lanes((2u32, 1u32)));
        assert_ne!(lanes((1u32, 0u32, 2u32)), lanes((2u32, 0u32, 1u32)));
        assert_ne!(lanes("ab"), lanes("abc"));
        assert_ne!(lanes(()), lanes(0u8));
        assert_ne!(lanes(0u8), lanes((0u8, 0u8)));
        assert_eq!(lanes(("gbuffer", 3u32)), lanes(("gbuffer", 3u32)));
        let mut seen = std::collections::HashSet::new();
        for i in 0..20_000u32 {
            assert!(seen.insert(lanes(format!("pass{i}"))));
            assert!(seen.insert(lanes((i, 1_000_000u32))));
            assert!(seen.insert(lanes((2_000_000u32, i))));
            // Each half alone tells them apart too.
            assert!(seen.insert(lanes((i, 1u8, i)) >> 64));
        }
    }

    #[test]
    fn no_collisions_among_many_small_inputs() {
        let mut seen = std::collections::HashSet::new();
        for i in 0..20_000u32 {
            assert!(seen.insert(wide(format!("pass{i}"))));
            assert!(seen.insert(wide(i)));
        }
    }
}

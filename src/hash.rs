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
    let mut tail = [0u8; 8];
    tail[..chunks.remainder().len()].copy_from_slice(chunks.remainder());
    add(u64::from_le_bytes(tail) ^ ((bytes.len() as u64) << 56));
}

/// The compiler's tables hash with the fingerprint's hasher; `finish` gives 64 well-mixed bits.
pub(crate) type FastHasher = WideHasher;

/// Set in the [`name_hash`] of every name but the empty one.
pub(crate) const NAMED: u32 = 1 << 31;

/// A declaration's name as the compiler's unique-name check takes it: 31 bits of its hash, and
/// [`NAMED`] unless the name is empty. Taken when the name is declared, while it is in the
/// caches, so that the check reads one dense table instead of every name's own allocation.
pub(crate) fn name_hash(name: &str) -> u32 {
    if name.is_empty() {
        return 0;
    }
    let mut h = FastHasher::default();
    h.write(name.as_bytes());
    (h.finish() as u32 & !NAMED) | NAMED
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

impl Hasher for WideHasher {
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

    #[test]
    fn no_collisions_among_many_small_inputs() {
        let mut seen = std::collections::HashSet::new();
        for i in 0..20_000u32 {
            assert!(seen.insert(wide(format!("pass{i}"))));
            assert!(seen.insert(wide(i)));
        }
    }
}

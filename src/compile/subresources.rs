//! One index space for every subresource of the graph: a texture's (mip, layer) grid, a buffer's
//! single whole. Versions and per-group marks are kept per subresource.

use std::ops::Range;

use super::compiler::{emptied, hand_over};
use crate::decl::resource::{ResourceDecl, ResourceKind};
use crate::error::GraphError;
use crate::ids::ResourceId;
use crate::resource::{Subresource, SubresourceRange};

/// More subresources than this in one graph is a description error, not an allocation.
const MAX_SUBRESOURCES: usize = 1 << 24;

/// Where each resource's subresources start in the graph's subresource index space.
#[derive(Default)]
pub(super) struct SubTable {
    /// Per resource: first index; one more entry at the end holds the total.
    base: Vec<u32>,
    /// Per resource: mip count (1 for buffers).
    mips: Vec<u32>,
}

impl SubTable {
    /// Empties the table, with room for `resources`.
    pub(super) fn clear(&mut self, resources: usize) {
        emptied(&mut self.base, resources + 1);
        self.base.push(0);
        emptied(&mut self.mips, resources);
    }

    /// Adds the next resource (its mips and layers already checked to be few).
    #[inline]
    pub(super) fn push(&mut self, r: &ResourceDecl) -> Result<(), GraphError> {
        let first = self.base.last().copied().unwrap_or(0) as usize;
        let total = first + r.subresource_count() as usize;
        if total > MAX_SUBRESOURCES {
            return Err(GraphError::invalid(format!(
                "the graph declares more than {MAX_SUBRESOURCES} subresources (mips × layers over all textures)"
            )));
        }
        self.mips.push(match r.kind {
            ResourceKind::Texture(t) => t.mips,
            ResourceKind::Buffer(_) => 1,
        });
        self.base.push(total as u32);
        Ok(())
    }

    /// The lists (per resource, its first index and, last, the total; its mip count), moved
    /// out for the plan, with the lists of the plan dropped last (`base`, `mips`) in their place.
    pub(super) fn hand_over(
        &mut self,
        base: &mut Vec<u32>,
        mips: &mut Vec<u32>,
    ) -> (Vec<u32>, Vec<u32>) {
        (
            hand_over(&mut self.base, base),
            hand_over(&mut self.mips, mips),
        )
    }

    /// Subresources of the whole graph.
    pub(super) fn len(&self) -> usize {
        *self.base.last().unwrap_or(&0) as usize
    }

    /// Index of one subresource.
    pub(super) fn index(&self, r: ResourceId, sub: Subresource) -> usize {
        let r = r.index();
        (self.base[r] + sub.layer * self.mips[r] + sub.mip) as usize
    }

    /// Indices of every subresource of a resource.
    pub(super) fn all(&self, r: ResourceId) -> Range<usize> {
        self.base[r.index()] as usize..self.base[r.index() + 1] as usize
    }

    /// Indices an entry names (a range already checked to lie inside the texture), in
    /// index order.
    pub(super) fn of(&self, r: ResourceId, range: SubresourceRange) -> SubIter {
        let all = self.all(r);
        if range.is_all() {
            return SubIter {
                next: all.start,
                row_end: all.end,
                row_len: all.len(),
                stride: 0,
                rows_left: 0,
            };
        }
        let mips = self.mips[r.index()];
        let layers = all.len() as u32 / mips.max(1);
        let (m0, mc, l0, lc) = range.resolve(mips, layers);
        let start = all.start + (l0 * mips + m0) as usize;
        SubIter {
            next: start,
            row_end: if lc == 0 { start } else { start + mc as usize },
            row_len: mc as usize,
            stride: mips as usize,
            rows_left: lc.saturating_sub(1),
        }
    }

    /// The smallest run of indices that holds every index an entry names: what restructuring
    /// compares (a wider run only adds orderings, never drops one).
    pub(super) fn span(&self, r: ResourceId, range: SubresourceRange) -> Range<usize> {
        let mut it = self.of(r, range);
        let Some(first) = it.next() else {
            return 0..0;
        };
        let last = it.last().unwrap_or(first);
        first..last + 1
    }

    /// The resource a subresource index belongs to.
    pub(super) fn resource_at(&self, index: usize) -> ResourceId {
        ResourceId::new(self.base.partition_point(|&b| b as usize <= index) - 1)
    }

    /// The (mip, layer) of a resource's subresource index.
    pub(super) fn sub_at(&self, r: ResourceId, index: usize) -> Subresource {
        let offset = index as u32 - self.base[r.index()];
        let mips = self.mips[r.index()];
        Subresource {
            mip: offset % mips,
            layer: offset / mips,
        }
    }
}

/// The indices of [`SubTable::of`]: rows of consecutive mips, one row per layer.
#[derive(Clone)]
pub(super) struct SubIter {
    next: usize,
    row_end: usize,
    row_len: usize,
    /// Distance from one layer's first index to the next one's.
    stride: usize,
    rows_left: u32,
}

impl Iterator for SubIter {
    type Item = usize;

    fn next(&mut self) -> Option<usize> {
        if self.next == self.row_end {
            if self.rows_left == 0 {
                return None;
            }
            self.rows_left -= 1;
            let row_start = self.row_end - self.row_len + self.stride;
            self.next = row_start;
            self.row_end = row_start + self.row_len;
            if self.row_len == 0 {
                return None;
            }
        }
        let i = self.next;
        self.next += 1;
        Some(i)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::resource::{Subresource, TextureDesc};

    fn table() -> SubTable {
        let mut t = SubTable::default();
        t.base.push(0);
        let decl = |desc: TextureDesc| ResourceDecl {
            name: "t".into(),
            kind: ResourceKind::Texture(desc),
            clear: None,
            import: None,
            keep_memory: false,
            history: None,
        };
        let f = wgpu::TextureFormat::Rgba8Unorm;
        t.push(&decl(TextureDesc::new(f, 8, 8))).unwrap();
        t.push(&decl(TextureDesc::new(f, 8, 8).mips(3).layers(4)))
            .unwrap();
        t
    }

    #[test]
    fn ranges_name_exactly_their_subresources() {
        let t = table();
        let r = ResourceId::new(1);
        let of = |range: SubresourceRange| t.of(r, range).collect::<Vec<_>>();
        assert_eq!(of(SubresourceRange::ALL), (1..13).collect::<Vec<_>>());
        let one = SubresourceRange::one(Subresource { mip: 2, layer: 1 });
        assert_eq!(of(one), [1 + 3 + 2]);
        let layers = SubresourceRange {
            mips: None,
            layers: Some((1, 2)),
        };
        assert_eq!(of(layers), [4, 5, 6, 7, 8, 9]);
        let mips = SubresourceRange {
            mips: Some((1, 2)),
            layers: None,
        };
        assert_eq!(of(mips), [2, 3, 5, 6, 8, 9, 11, 12]);
        assert_eq!(t.span(r, mips), 2..13);
        for range in [one, layers, mips] {
            for i in t.of(r, range) {
                assert!(range.contains(t.sub_at(r, i)));
            }
        }
        assert_eq!(
            t.of(ResourceId::new(0), SubresourceRange::ALL)
                .collect::<Vec<_>>(),
            [0]
        );
    }
}

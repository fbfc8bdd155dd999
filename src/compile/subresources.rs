//! One index space for every subresource of the graph: a texture's (mip, layer) grid, a buffer's
//! single whole. Versions and per-group marks are kept per subresource.

use std::ops::Range;

use super::scratch::Scratch;
use crate::error::GraphError;
use crate::resource::{ResourceDecl, ResourceId, ResourceKind, Subresource};

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
    /// A table with no resource yet, with room for `resources`.
    pub(super) fn empty(resources: usize, scratch: &mut Scratch) -> Self {
        let mut base = scratch.u32s.take(resources + 1);
        base.push(0);
        SubTable {
            base,
            mips: scratch.u32s.take(resources),
        }
    }

    /// Adds the next resource (its mips and layers already checked to be few).
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

    /// The lists: per resource, its first index (and, last, the total); its mip count.
    pub(super) fn into_lists(self) -> (Vec<u32>, Vec<u32>) {
        (self.base, self.mips)
    }

    /// Hands the lists back.
    pub(super) fn recycle(self, scratch: &mut Scratch) {
        scratch.u32s.give(self.base);
        scratch.u32s.give(self.mips);
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

    /// Indices an entry names: one subresource, or all of them.
    pub(super) fn of(&self, r: ResourceId, sub: Option<Subresource>) -> Range<usize> {
        match sub {
            Some(s) => {
                let i = self.index(r, s);
                i..i + 1
            }
            None => self.all(r),
        }
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

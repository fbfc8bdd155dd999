//! The incrementally kept fingerprint of a graph's structure, updated as each declaration is made.

use std::hash::{Hash, Hasher};

use crate::decl::{ColorAttachment, DepthAttachment, PassRef, ResourceDecl, ResourceKind};
use crate::hash::LaneHasher;
use crate::resource::{BufferDesc, ClearValue, Subresource, SubresourceRange, TextureDesc};

/// Incrementally maintained 128-bit fingerprint of the graph's structure (what the compiler reads).
#[derive(Clone)]
pub(crate) struct Fingerprint(LaneHasher);

impl Fingerprint {
    pub(super) fn new() -> Self {
        Fingerprint(LaneHasher::default())
    }

    pub(super) fn add(&mut self, item: &impl Hash) {
        item.hash(&mut self.0);
    }

    /// Adds a pass: every field it declares, packed into a few words (a pass is hashed as it is
    /// declared, on every frame's path).
    pub(super) fn add_pass(&mut self, pass: PassRef<'_>) {
        let name = pass.name();
        let kind = pass.kind();
        let color = pass.color();
        let depth = pass.depth();
        let side_effects = pass.side_effects();
        let keep_order = pass.keep_order();
        let multiview = pass.multiview();
        let h = &mut self.0;
        h.write_u8(1);
        h.write_usize(name.len());
        h.write(name.as_bytes());
        let (views, multiview) = multiview.map_or((0, 0), |views| (1, views));
        h.write_u64(
            kind as u64
                | u64::from(side_effects) << 2
                | u64::from(keep_order) << 3
                | views << 4
                | (depth.is_some() as u64) << 5
                | (color.len() as u64) << 8
                | u64::from(multiview) << 32,
        );
        let sub = |s: Subresource| u64::from(s.mip) | u64::from(s.layer) << 32;
        for c in color {
            let ColorAttachment {
                resource,
                sub: at,
                access,
                clear,
                resolve,
            } = *c;
            let (resolves, resolve) = resolve.map_or((0, 0), |r| (1, r.index() as u64));
            h.write_u64(resource.index() as u64 | (access as u64) << 32 | resolves << 40);
            h.write_u64(sub(at));
            h.write_u64(resolve);
            Self::add_clear(h, clear);
        }
        if let Some(d) = depth {
            let DepthAttachment {
                resource,
                sub: at,
                access,
                clear,
            } = *d;
            h.write_u64(resource.index() as u64 | (access as u64) << 32);
            h.write_u64(sub(at));
            Self::add_clear(h, clear);
        }
        // The lists' ends, two to a word, then every entry, list after list: one loop over the
        // pass's entries rather than one per list.
        let mut ends = pass.list_ends();
        while let Some(a) = ends.next() {
            h.write_u64(u64::from(a) | u64::from(ends.next().unwrap_or(0)) << 32);
        }
        for e in pass.all_entries() {
            let SubresourceRange { mips, layers } = e.range;
            h.write_u64(
                e.resource.index() as u64
                    | u64::from(mips.is_some()) << 32
                    | u64::from(layers.is_some()) << 33
                    | u64::from(e.binding_size.is_some()) << 34,
            );
            for (base, count) in mips.into_iter().chain(layers) {
                h.write_u64(u64::from(base) | u64::from(count) << 32);
            }
            if let Some(size) = e.binding_size {
                h.write_u64(size);
            }
        }
    }

    /// Adds a resource (its `keep_memory` is added on its own when set), packed as a pass is.
    pub(super) fn add_resource(&mut self, resource: &ResourceDecl) {
        let ResourceDecl {
            name,
            kind,
            clear,
            import,
            keep_memory: _,
            history,
        } = resource;
        let h = &mut self.0;
        h.write_u8(0);
        h.write_usize(name.len());
        h.write(name.as_bytes());
        let import = import.map_or(0, |i| 1 | (i.contents as u64) << 1 | (i.after as u64) << 2);
        let history = history.map_or(0, |half| 1 | (half as u64) << 1);
        match kind {
            ResourceKind::Texture(desc) => {
                let TextureDesc {
                    format,
                    width,
                    height,
                    layers,
                    samples,
                    mips,
                } = *desc;
                h.write_u64(import | history << 8);
                format.hash(h);
                h.write_u64(u64::from(width) | u64::from(height) << 32);
                h.write_u64(u64::from(layers) | u64::from(samples) << 32);
                h.write_u32(mips);
            }
            ResourceKind::Buffer(BufferDesc { size }) => {
                h.write_u64(import | history << 8 | 1 << 16);
                h.write_u64(*size);
            }
        }
        Self::add_clear(h, *clear);
    }

    fn add_clear(h: &mut LaneHasher, clear: Option<ClearValue>) {
        match clear {
            None => h.write_u8(0),
            Some(ClearValue::Color(c)) => {
                h.write_u8(1);
                for channel in c {
                    h.write_u64(channel.to_bits());
                }
            }
            Some(ClearValue::Depth(d)) => {
                h.write_u8(2);
                h.write_u32(d.to_bits());
            }
            Some(ClearValue::DepthStencil { depth, stencil }) => {
                h.write_u8(3);
                h.write_u64(u64::from(depth.to_bits()) | u64::from(stencil) << 32);
            }
        }
    }

    pub(super) fn value(&self) -> u128 {
        self.0.finish128()
    }
}

//! Step 9: what each resource needs: its lifetime and usages and whether it can live on tile
//! only (transient), found while an order is planned (steps 4–6), and which pooled physical
//! resource holds it, found once for the order kept.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use wgpu::{BufferUsages, TextureUsages};

use super::FastMap;
use super::compiler::{Refill, emptied};
use super::{Decls, Frame};
use crate::decl::pass::ListAccess;
use crate::decl::resource::ResourceKind;
use crate::ids::ResourceId;
use crate::ids::{GroupId, PhysicalId};
use crate::plan::{Group, LoadOp, PhysicalResource, ResourcePlan, ResourceUsage, StoreOp};

/// Usages a list access needs (texture, buffer).
fn list_usage(access: ListAccess) -> (TextureUsages, BufferUsages) {
    match access {
        ListAccess::Sample | ListAccess::Input => {
            (TextureUsages::TEXTURE_BINDING, BufferUsages::empty())
        }
        ListAccess::StorageRead | ListAccess::StorageWrite | ListAccess::StorageReadWrite => {
            (TextureUsages::STORAGE_BINDING, BufferUsages::STORAGE)
        }
        ListAccess::CopySrc => (TextureUsages::COPY_SRC, BufferUsages::COPY_SRC),
        ListAccess::CopyDst => (TextureUsages::COPY_DST, BufferUsages::COPY_DST),
        ListAccess::Uniform => (TextureUsages::empty(), BufferUsages::UNIFORM),
        ListAccess::Vertex => (TextureUsages::empty(), BufferUsages::VERTEX),
        ListAccess::Index => (TextureUsages::empty(), BufferUsages::INDEX),
        ListAccess::Indirect => (TextureUsages::empty(), BufferUsages::INDIRECT),
        // The executor copies the bytes in from a staging buffer.
        ListAccess::Upload => (TextureUsages::empty(), BufferUsages::COPY_DST),
    }
}

/// A resource lives from the first to the last live group that uses any of its subresources.
/// Into `plans` (cleared here).
pub(super) fn lifetimes_and_usage(
    graph: Decls<'_>,
    live: &[bool],
    group_of: &[Option<GroupId>],
    plans: &mut Vec<ResourcePlan>,
) {
    emptied(plans, graph.resources.len());
    plans.extend((0..graph.resources.len()).map(|r| ResourcePlan {
        culled: true,
        transient: false,
        first_group: None,
        last_group: None,
        physical: None,
        usage: if graph.acc.resource(r).buffer {
            ResourceUsage::Buffer(BufferUsages::empty())
        } else {
            ResourceUsage::Texture(TextureUsages::empty())
        },
    }));
    for p in (0..graph.passes.len()).filter(|&p| live[p]) {
        let g = group_of[p].expect("live passes have a group");
        let mut touch = |r: ResourceId, (tex, buf): (TextureUsages, BufferUsages)| {
            let plan = &mut plans[r.index()];
            plan.culled = false;
            plan.first_group = Some(plan.first_group.map_or(g, |f| f.min(g)));
            plan.last_group = Some(plan.last_group.map_or(g, |l| l.max(g)));
            match &mut plan.usage {
                ResourceUsage::Texture(u) => *u |= tex,
                ResourceUsage::Buffer(u) => *u |= buf,
            }
        };
        let attach = (TextureUsages::RENDER_ATTACHMENT, BufferUsages::empty());
        for a in graph.acc.slots(p) {
            touch(a.resource, attach);
            if let Some(t) = a.resolve {
                touch(t, attach);
            }
        }
        for &(access, e) in graph.acc.entries(p) {
            touch(e.resource, list_usage(access));
        }
    }
    // wgpu creates multisampled textures only as render attachments, also one that is only
    // copied into and sampled (a copy of a multisampled depth prepass).
    for (r, plan) in plans.iter_mut().enumerate() {
        if let ResourceUsage::Texture(u) = &mut plan.usage
            && graph.acc.resource(r).multisampled
            && !plan.culled
        {
            *u |= TextureUsages::RENDER_ATTACHMENT;
        }
    }
}

/// A texture lives only on tile when it is graph-owned, not declared `keep_memory`, has one
/// subresource (wgpu allows TRANSIENT_ATTACHMENT on single-mip textures only), is used only as
/// an attachment (never sampled, stored to, copied or resolved into), all within one group that
/// clears or ignores it on entry and discards it on exit. Called for each group in turn: a transient texture's one
/// group is where it is marked.
pub(super) fn mark_transients(frame: Frame<'_>, plans: &mut [ResourcePlan], group: &Group) {
    let graph = frame.decls;
    if !frame.options.transient {
        return;
    }
    for a in group.color.iter().chain(group.depth.iter()) {
        let plan = &plans[a.resource.index()];
        // The plan's own conditions first: most attachments fail one.
        let only_attachment =
            plan.usage == ResourceUsage::Texture(TextureUsages::RENDER_ATTACHMENT);
        let one_group = plan.first_group == plan.last_group;
        let on_tile_only =
            matches!(a.load, LoadOp::Clear(_) | LoadOp::DontCare) && a.store == StoreOp::Discard;
        if !(only_attachment && one_group && on_tile_only) {
            continue;
        }
        let info = graph.acc.resource(a.resource.index());
        let resolve_target = group.color.iter().any(|c| c.resolve == Some(a.resource));
        if !info.imported && !info.keep_memory && info.one_subresource && !resolve_target {
            let plan = &mut plans[a.resource.index()];
            plan.transient = true;
            plan.usage = ResourceUsage::Texture(
                TextureUsages::RENDER_ATTACHMENT | TextureUsages::TRANSIENT_ATTACHMENT,
            );
        }
    }
}

/// In order of first use, each graph-owned resource takes the lowest free physical index of an
/// identical descriptor and usage whose previous tenant's lifetime has ended. Textures are
/// numbered before buffers, so texture indices do not depend on where buffers are used.
/// Into `physical`, the compiler's list refilled in place ([`Refill`]) with `pooling`'s spares.
pub(super) fn plan_physical_resources(
    frame: Frame<'_>,
    plans: &mut [ResourcePlan],
    pooling: &mut Pooling,
    physical: &mut Vec<PhysicalResource>,
) {
    let (graph, options) = (frame.decls, frame.options);
    let res = &graph.resources;
    let Pooling {
        keyed,
        key_of,
        free,
        busy,
        free_heaps,
        spare,
    } = pooling;
    // Keys worked out once: (buffer?, first group, resource), unique, so an unstable sort is exact.
    emptied(keyed, res.len());
    keyed.extend(
        (0..res.len())
            .filter(|&r| !plans[r].culled && !graph.acc.resource(r).imported)
            .map(|r| {
                let is_buffer = graph.acc.resource(r).buffer;
                let first = plans[r]
                    .first_group
                    .expect("live resources have a lifetime");
                (is_buffer, first, ResourceId::new(r))
            }),
    );
    keyed.sort_unstable();

    key_of.clear();
    busy.clear();
    free_heaps.extend(free.drain(..).map(|mut heap| {
        heap.clear();
        heap
    }));
    let mut physical = Refill::new(physical, spare);
    for &(_, _, r) in keyed.iter() {
        let plan = plans[r.index()];
        let first = plan.first_group.expect("live resources have a lifetime");
        while let Some(&Reverse((last, index, key))) = busy.peek() {
            if last >= first {
                break;
            }
            busy.pop();
            free[key as usize].push(Reverse(index));
        }
        let desc = (res[r.index()].kind, plan.usage);
        let (key, new) = key_of.key(desc);
        if new {
            free.push(free_heaps.pop().unwrap_or_default());
        }
        let reuse = if options.alias {
            free[key as usize].pop().map(|Reverse(i)| i)
        } else {
            None
        };
        let index = reuse.unwrap_or_else(|| {
            let (kind, usage) = desc;
            let p = physical.next(|| PhysicalResource {
                kind,
                usage,
                resources: Vec::new(),
            });
            p.kind = kind;
            p.usage = usage;
            p.resources.clear();
            (physical.len() - 1) as u32
        });
        physical.get_mut(index as usize).resources.push(r);
        plans[r.index()].physical = Some(PhysicalId(index));
        let last = plan.last_group.expect("live resources have a lifetime");
        busy.push(Reverse((last, index, key)));
    }
    physical.finish();
}

/// The physical-resource step's working tables, kept between compiles.
#[derive(Debug, Default)]
pub(super) struct Pooling {
    /// Per live graph-owned resource: (buffer?, first group, resource), in the order resources
    /// are placed.
    keyed: Vec<(bool, GroupId, ResourceId)>,
    /// Each descriptor and usage seen: its key.
    key_of: DescKeys,
    /// Per key: free physical indices.
    free: Vec<BinaryHeap<Reverse<u32>>>,
    /// (last group, physical, key) of the physical resources in use.
    busy: BinaryHeap<Reverse<(GroupId, u32, u32)>>,
    /// Emptied free lists.
    free_heaps: Vec<BinaryHeap<Reverse<u32>>>,
    /// Physical resources the list has no room for, and those a shorter list left over (their
    /// resource lists keeping their capacity).
    spare: Vec<PhysicalResource>,
}

/// A descriptor and usage of a physical resource.
type Desc = (ResourceKind, ResourceUsage);

/// Past this many descriptors, [`DescKeys`] looks them up by hash.
const FEW_DESCS: usize = 16;

/// Each descriptor and usage seen, numbered in order of first use. A frame's resources share a
/// handful of descriptors, and comparing a few is cheaper than hashing each one: the list is
/// searched while it is short, and a table indexes it once it is not.
#[derive(Debug, Default)]
struct DescKeys {
    /// Key `k`'s descriptor at `k`.
    seen: Vec<Desc>,
    /// Every descriptor's key, once there are more than [`FEW_DESCS`].
    table: FastMap<Desc, u32>,
}

impl DescKeys {
    fn clear(&mut self) {
        self.seen.clear();
        self.table.clear();
    }

    /// `desc`'s key, and whether it is new.
    fn key(&mut self, desc: Desc) -> (u32, bool) {
        let found = if self.seen.len() <= FEW_DESCS {
            self.seen.iter().position(|d| *d == desc).map(|k| k as u32)
        } else {
            self.table.get(&desc).copied()
        };
        if let Some(key) = found {
            return (key, false);
        }
        let key = self.seen.len() as u32;
        self.seen.push(desc);
        if self.seen.len() == FEW_DESCS + 1 {
            self.table
                .extend(self.seen.iter().enumerate().map(|(k, &d)| (d, k as u32)));
        } else if self.seen.len() > FEW_DESCS + 1 {
            self.table.insert(desc, key);
        }
        (key, true)
    }
}

#[cfg(test)]
mod desc_key_tests {
    use super::*;
    use crate::resource::TextureDesc;

    #[test]
    fn keys_are_numbered_in_order_of_first_use_past_the_short_list() {
        let desc = |w| {
            (
                ResourceKind::Texture(TextureDesc::new(wgpu::TextureFormat::Rgba8Unorm, w, 4)),
                ResourceUsage::Texture(wgpu::TextureUsages::RENDER_ATTACHMENT),
            )
        };
        let mut keys = DescKeys::default();
        for round in 0..2 {
            keys.clear();
            for w in 1..=40u32 {
                assert_eq!(keys.key(desc(w)), (w - 1, true), "round {round}");
                // Every descriptor seen so far keeps its key.
                for again in 1..=w {
                    assert_eq!(keys.key(desc(again)), (again - 1, false), "round {round}");
                }
            }
        }
    }
}

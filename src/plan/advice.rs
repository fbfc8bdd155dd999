//! Advice: per render group, up to three changes to the description that the plan can put a
//! figure on, the largest saving first.

use super::{CompiledGraph, Group, GroupBreak, LoadOp, LoadReason, StoreOp, StoreReason};
use crate::decl::resource::ResourceKind;
use crate::ids::GroupId;
use crate::ids::{PassId, ResourceId};
use crate::resource::Access;

/// What a piece of [`Advice`] proposes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum AdviceKind {
    /// Declaring the frame a texture per view would make these textures memoryless: they live
    /// on tile only, but have one layer a view, which wgpu will not make transient. Bytes of
    /// memory.
    PerView,
    /// If the pass overwrites every pixel of the attachment, declaring its access `write`
    /// skips the load. Bytes a frame.
    DeclareWrite,
    /// A later pass reads the multisampled texture, so every sample is stored; reading its
    /// resolve target (resolving into one first, where there is none) stores one sample.
    /// Bytes a frame.
    ReadResolve,
    /// The next group reads these at the pixel the group wrote (if it does): with framebuffer
    /// fetch the two would be one render pass and these would stay on tile; wgpu has none.
    /// Bytes a frame.
    FramebufferFetch,
}

impl AdviceKind {
    /// The plan's name.
    pub fn as_str(self) -> &'static str {
        match self {
            AdviceKind::PerView => "per_view",
            AdviceKind::DeclareWrite => "declare_write",
            AdviceKind::ReadResolve => "read_resolve",
            AdviceKind::FramebufferFetch => "framebuffer_fetch",
        }
    }

    /// Whether the bytes are memory (else attachment traffic a frame).
    pub fn saves_memory(self) -> bool {
        self == AdviceKind::PerView
    }
}

/// A change to the description that would save bytes, with the figure the plan backs it with
/// ([guide](crate::guide#will-it-fit-the-tile)). Advice, not a decision: the plan stays as it is.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct Advice {
    /// What it proposes.
    pub kind: AdviceKind,
    /// The resources it is about, in the group's slot order.
    pub resources: Vec<ResourceId>,
    /// The pass it is about, where one is.
    pub pass: Option<PassId>,
    /// Bytes saved: memory for [`AdviceKind::PerView`], else attachment bytes a frame.
    pub bytes: u64,
}

impl CompiledGraph {
    /// Up to three changes that would save bytes on group `group`, the largest first (empty for
    /// compute and copy groups and where the plan has no figure to give).
    pub fn advice(&self, group: GroupId) -> Vec<Advice> {
        let Some(g) = self.groups.get(group.index()) else {
            return Vec::new();
        };
        let mut advice = Vec::new();
        let mut push = |kind, resources: Vec<ResourceId>, pass, bytes: u64| {
            if bytes > 0 && !resources.is_empty() {
                advice.push(Advice {
                    kind,
                    resources,
                    pass,
                    bytes,
                });
            }
        };
        let mut blocked = Vec::new();
        for a in g.attachments() {
            if !blocked.contains(&a.resource) && self.transient_blocked(a.resource).is_some() {
                blocked.push(a.resource);
            }
        }
        let bytes = blocked.iter().map(|&r| self.resource_bytes(r)).sum();
        push(AdviceKind::PerView, blocked, None, bytes);
        for (resource, pass, bytes) in self.loads_a_write_would_skip(group) {
            push(AdviceKind::DeclareWrite, vec![resource], Some(pass), bytes);
        }
        for (resource, bytes) in self.multisampled_stores(group) {
            push(AdviceKind::ReadResolve, vec![resource], None, bytes);
        }
        if let Some((resources, reader, bytes)) = self.kept_for_the_next_group(group) {
            push(AdviceKind::FramebufferFetch, resources, Some(reader), bytes);
        }
        advice.sort_by_key(|a| std::cmp::Reverse(a.bytes));
        advice.truncate(3);
        advice
    }

    /// Colour attachments the group loads because its first pass declared them `read_write`:
    /// the resource, that pass and the bytes of the loads (every view's).
    fn loads_a_write_would_skip(&self, group: GroupId) -> Vec<(ResourceId, PassId, u64)> {
        let g = &self.groups[group.index()];
        let mut found: Vec<(ResourceId, PassId, u64)> = Vec::new();
        for a in &g.color {
            let (LoadOp::Load, LoadReason::ContentsNeeded { .. }) = (a.load, a.load_reason) else {
                continue;
            };
            let first = g.passes.iter().copied().find_map(|p| {
                let c = self
                    .pass_decl(p)
                    .color()
                    .iter()
                    .find(|c| c.resource == a.resource)?;
                Some((p, c.access))
            });
            let Some((pass, Access::ReadWrite)) = first else {
                continue;
            };
            let bytes = super::subresource_bytes(&self.resource_decls[a.resource.index()], a.sub);
            match found.iter_mut().find(|f| f.0 == a.resource) {
                Some(f) => f.2 = f.2.saturating_add(bytes),
                None => found.push((a.resource, pass, bytes)),
            }
        }
        found
    }

    /// Multisampled colour attachments the group stores for a later reader: the bytes a
    /// single-sampled read would not store (every sample but one, every view).
    fn multisampled_stores(&self, group: GroupId) -> Vec<(ResourceId, u64)> {
        let g = &self.groups[group.index()];
        let mut found: Vec<(ResourceId, u64)> = Vec::new();
        for a in &g.color {
            let ResourceKind::Texture(t) = self.resource_decls[a.resource.index()].kind else {
                continue;
            };
            let read_later = matches!(a.store_reason, StoreReason::ReadLater { .. });
            if t.samples < 2 || a.store != StoreOp::Store || !read_later {
                continue;
            }
            let stored = super::subresource_bytes(&self.resource_decls[a.resource.index()], a.sub);
            let saved = stored - stored / u64::from(t.samples);
            match found.iter_mut().find(|f| f.0 == a.resource) {
                Some(f) => f.1 = f.1.saturating_add(saved),
                None => found.push((a.resource, saved)),
            }
        }
        found
    }

    /// Where the next group reads what this one wrote: the attachments stored only for passes
    /// of the next group, its first such reader, and the bytes of those stores.
    fn kept_for_the_next_group(&self, group: GroupId) -> Option<(Vec<ResourceId>, PassId, u64)> {
        let g = &self.groups[group.index()];
        let next = self.groups.get(group.index() + 1)?;
        let reads_at_the_pixel = matches!(
            g.break_reason,
            GroupBreak::SamplesGroupOutput | GroupBreak::InputsGroupOutput
        );
        // Framebuffer fetch reads the pixel being shaded: the same render area and views.
        let same_area =
            self.render_area(g).is_some() && self.render_area(g) == self.render_area(next);
        if !reads_at_the_pixel || !same_area || g.multiview != next.multiview {
            return None;
        }
        let (mut resources, mut reader, mut bytes) = (Vec::new(), None, 0u64);
        for a in g.attachments() {
            let StoreReason::ReadLater { reader: last } = a.store_reason else {
                continue;
            };
            if a.store != StoreOp::Store || !next.passes.contains(&last) {
                continue;
            }
            let decl = &self.resource_decls[a.resource.index()];
            bytes = bytes.saturating_add(super::subresource_bytes(decl, a.sub));
            if !resources.contains(&a.resource) {
                resources.push(a.resource);
            }
            reader = Some(reader.map_or(last, |r: PassId| r.min(last)));
        }
        Some((resources, reader?, bytes))
    }

    /// A render group's size: its first attachment's (every attachment has it).
    fn render_area(&self, g: &Group) -> Option<(u32, u32)> {
        let a = g.attachments().next()?;
        match self.resource_decls[a.resource.index()].kind {
            ResourceKind::Texture(t) => Some(t.mip_size(a.sub.mip)),
            ResourceKind::Buffer(_) => None,
        }
    }

    /// A piece of advice in a sentence, with its names and figure.
    pub fn advice_message(&self, advice: &Advice) -> String {
        let names: Vec<String> = advice
            .resources
            .iter()
            .map(|&r| format!("`{}`", self.resource_name(r)))
            .collect();
        let names = names.join(", ");
        let pass = advice.pass.map_or("?", |p| self.pass_name(p));
        let saved = megabytes(advice.bytes);
        match advice.kind {
            AdviceKind::PerView => format!(
                "declared a texture per view, {names} would be memoryless (wgpu makes no texture of several layers transient): -{saved} of memory"
            ),
            AdviceKind::DeclareWrite => format!(
                "if `{pass}` overwrites every pixel of {names}, declare it `write`: -{saved} a frame (its load)"
            ),
            AdviceKind::ReadResolve => format!(
                "read {names} through a single-sampled resolve target instead of every sample: -{saved} a frame"
            ),
            AdviceKind::FramebufferFetch => format!(
                "if `{pass}` reads {names} only at the pixel it shades, framebuffer fetch would keep them on tile: -{saved} a frame; wgpu has none"
            ),
        }
    }
}

/// Bytes in decimal units, as the HTML page shows them: `812 B`, `4.19 MB`, `112.6 MB`.
fn megabytes(bytes: u64) -> String {
    let units = ["B", "kB", "MB", "GB", "TB", "PB", "EB"];
    let (mut n, mut u) = (bytes as f64, 0);
    while n >= 1000.0 && u < units.len() - 1 {
        n /= 1000.0;
        u += 1;
    }
    match u {
        0 => format!("{bytes} B"),
        _ if n < 10.0 => format!("{n:.2} {}", units[u]),
        _ => format!("{n:.1} {}", units[u]),
    }
}

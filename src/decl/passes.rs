//! The declared passes of a graph, stored flat: one table of pass heads, one of colour
//! attachments and one of list entries, each pass's rows after the last pass's. Every compile
//! sweeps the declarations pass by pass; stored this way the sweep reads three tables in order
//! instead of thirteen small lists per pass wherever the allocator put them.

use std::sync::Arc;

use crate::decl::pass::{
    AttachmentDecl, ColorAttachment, DepthAttachment, Entry, ListAccess, PassDecl, PassKind,
};
use crate::ids::{PassId, ResourceId};

/// Number of entry lists a pass has ([`ListAccess::ALL`]).
const LISTS: usize = ListAccess::ALL.len();

/// The declared passes of a [`RenderGraph`](crate::RenderGraph) (or of the graph a plan was
/// compiled from), in declaration order. Read each pass through a [`PassRef`]:
///
/// ```
/// # use tilegraph::{Access, Import, RenderGraph, TextureDesc, wgpu::TextureFormat};
/// let mut graph = RenderGraph::new();
/// let out = graph.import_texture(
///     "out",
///     TextureDesc::new(TextureFormat::Rgba8Unorm, 64, 64),
///     Import::OUTPUT,
/// );
/// graph.add_render_pass("draw").color(out, Access::Clear).finish();
/// for pass in graph.passes() {
///     assert_eq!(pass.name(), "draw");
///     assert_eq!(pass.color()[0].resource, out.index());
/// }
/// ```
#[derive(Clone, Default)]
pub struct Passes {
    heads: Vec<Head>,
    color: Vec<ColorAttachment>,
    entries: Vec<Entry>,
}

/// What a pass declares besides its lists, and where its rows of the other tables lie.
#[derive(Clone)]
struct Head {
    name: Arc<str>,
    kind: PassKind,
    depth: Option<DepthAttachment>,
    side_effects: bool,
    keep_order: bool,
    multiview: Option<u32>,
    /// The pass's colour attachments: `color[color.0 .. color.1]`.
    color: (u32, u32),
    /// List `i` ([`ListAccess::ALL`] order) is `entries[lists[i] .. lists[i + 1]]`.
    lists: [u32; LISTS + 1],
}

/// A row offset of a table: tables are indexed by `u32`, as resource and pass ids are.
fn offset(len: usize) -> u32 {
    u32::try_from(len).expect("a graph's tables hold fewer than 2^32 rows")
}

impl Passes {
    /// Number of passes.
    #[inline]
    pub fn len(&self) -> usize {
        self.heads.len()
    }

    /// Whether no pass is declared.
    pub fn is_empty(&self) -> bool {
        self.heads.is_empty()
    }

    /// The pass at `index` in declaration order, if there is one.
    #[inline]
    pub fn get(&self, index: usize) -> Option<PassRef<'_>> {
        self.heads
            .get(index)
            .map(|head| PassRef { passes: self, head })
    }

    /// The pass `id`.
    ///
    /// # Panics
    ///
    /// If `id` is not a pass of this graph (`id.index() >= len()`).
    #[inline]
    pub fn pass(&self, id: PassId) -> PassRef<'_> {
        self.at(id.index())
    }

    /// The pass at `index` in declaration order.
    ///
    /// # Panics
    ///
    /// If `index >= len()`, as indexing a slice does.
    #[inline]
    pub fn at(&self, index: usize) -> PassRef<'_> {
        PassRef {
            passes: self,
            head: &self.heads[index],
        }
    }

    /// The passes in declaration order.
    #[inline]
    pub fn iter(&self) -> PassIter<'_> {
        PassIter {
            passes: self,
            heads: self.heads.iter(),
        }
    }

    /// The passes as owned declarations, e.g. to change some and build a graph again with
    /// [`RenderGraph::from_declarations`](crate::RenderGraph::from_declarations).
    pub fn to_vec(&self) -> Vec<PassDecl> {
        self.iter().map(|p| p.to_decl()).collect()
    }

    /// Room for `passes` more passes.
    pub(crate) fn reserve(&mut self, passes: usize) {
        self.heads.reserve(passes);
    }

    /// Empties the table, keeping its storage; the names go to `names` in declaration order.
    pub(crate) fn clear_into(&mut self, names: &mut std::collections::VecDeque<Arc<str>>) {
        names.extend(self.heads.drain(..).map(|h| h.name));
        self.color.clear();
        self.entries.clear();
    }

    /// Appends a pass.
    pub(crate) fn push(&mut self, decl: &PassDecl) {
        let color = offset(self.color.len());
        self.color.extend_from_slice(&decl.color);
        let mut lists = [offset(self.entries.len()); LISTS + 1];
        for (i, access) in ListAccess::ALL.into_iter().enumerate() {
            self.entries.extend_from_slice(decl.list(access));
            lists[i + 1] = offset(self.entries.len());
        }
        self.heads.push(Head {
            name: decl.name.clone(),
            kind: decl.kind,
            depth: decl.depth,
            side_effects: decl.side_effects,
            keep_order: decl.keep_order,
            multiview: decl.multiview,
            color: (color, offset(self.color.len())),
            lists,
        });
    }

    /// Appends a pass that accesses nothing yet: the builder's pass, filled by the `push_*`
    /// and `last_mut` methods until the next pass starts.
    pub(crate) fn start(&mut self, name: Arc<str>, kind: PassKind) {
        let color = offset(self.color.len());
        self.heads.push(Head {
            name,
            kind,
            depth: None,
            side_effects: false,
            keep_order: false,
            multiview: None,
            color: (color, color),
            lists: [offset(self.entries.len()); LISTS + 1],
        });
    }

    /// Adds a colour attachment to the last pass.
    pub(crate) fn push_color(&mut self, c: ColorAttachment) {
        self.color.push(c);
        self.heads.last_mut().expect("a started pass").color.1 = offset(self.color.len());
    }

    /// Adds an entry to a list of the last pass: after the list's entries, before the next
    /// lists' (which move up one row).
    pub(crate) fn push_entry(&mut self, access: ListAccess, entry: Entry) {
        let head = self.heads.last_mut().expect("a started pass");
        let list = access as usize;
        self.entries.insert(head.lists[list + 1] as usize, entry);
        for end in &mut head.lists[list + 1..] {
            *end += 1;
        }
    }

    /// The last pass's depth attachment, flags and view count, to set.
    pub(crate) fn last_mut(&mut self) -> LastPass<'_> {
        let head = self.heads.last_mut().expect("a started pass");
        LastPass {
            depth: &mut head.depth,
            side_effects: &mut head.side_effects,
            keep_order: &mut head.keep_order,
            multiview: &mut head.multiview,
        }
    }

    /// Sets the resolve target of colour attachment `slot` of pass `pass`.
    pub(crate) fn set_resolve(&mut self, pass: usize, slot: usize, resolve: Option<ResourceId>) {
        let start = self.heads[pass].color.0 as usize;
        self.color[start..self.heads[pass].color.1 as usize][slot].resolve = resolve;
    }

    /// Empties pass `pass`: a copy pass of the same name that accesses nothing (its rows of
    /// the other tables stay, unread).
    pub(crate) fn empty(&mut self, pass: usize) {
        let head = &mut self.heads[pass];
        head.kind = PassKind::Copy;
        head.depth = None;
        head.side_effects = false;
        head.keep_order = false;
        head.multiview = None;
        head.color.1 = head.color.0;
        head.lists = [head.lists[0]; LISTS + 1];
    }

    /// The name of the last pass.
    pub(crate) fn last_name(&self) -> Option<&Arc<str>> {
        self.heads.last().map(|h| &h.name)
    }
}

/// The settable fields of the pass being declared ([`Passes::last_mut`]).
pub(crate) struct LastPass<'p> {
    pub(crate) depth: &'p mut Option<DepthAttachment>,
    pub(crate) side_effects: &'p mut bool,
    pub(crate) keep_order: &'p mut bool,
    pub(crate) multiview: &'p mut Option<u32>,
}

impl std::fmt::Debug for Passes {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl PartialEq for Passes {
    fn eq(&self, other: &Self) -> bool {
        self.len() == other.len() && self.iter().zip(other).all(|(a, b)| a == b)
    }
}

impl Eq for Passes {}

/// A table of owned declarations, in order: the passes as a graph of them would store them.
impl FromIterator<PassDecl> for Passes {
    fn from_iter<I: IntoIterator<Item = PassDecl>>(decls: I) -> Self {
        let mut passes = Passes::default();
        for decl in decls {
            passes.push(&decl);
        }
        passes
    }
}

impl<'p> IntoIterator for &'p Passes {
    type Item = PassRef<'p>;
    type IntoIter = PassIter<'p>;

    fn into_iter(self) -> PassIter<'p> {
        self.iter()
    }
}

/// The iterator of [`Passes::iter`].
#[derive(Clone)]
pub struct PassIter<'p> {
    passes: &'p Passes,
    heads: std::slice::Iter<'p, Head>,
}

impl<'p> Iterator for PassIter<'p> {
    type Item = PassRef<'p>;

    #[inline]
    fn next(&mut self) -> Option<PassRef<'p>> {
        let passes = self.passes;
        self.heads.next().map(|head| PassRef { passes, head })
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        self.heads.size_hint()
    }
}

impl DoubleEndedIterator for PassIter<'_> {
    #[inline]
    fn next_back(&mut self) -> Option<Self::Item> {
        let passes = self.passes;
        self.heads.next_back().map(|head| PassRef { passes, head })
    }
}

impl ExactSizeIterator for PassIter<'_> {}

/// One declared pass of [`Passes`]: its type and every access, read where the graph stores
/// them.
#[derive(Clone, Copy)]
pub struct PassRef<'p> {
    passes: &'p Passes,
    head: &'p Head,
}

impl<'p> PassRef<'p> {
    /// Unique name.
    #[inline]
    pub fn name(self) -> &'p str {
        &self.head.name
    }

    /// Render, compute or copy.
    #[inline]
    pub fn kind(self) -> PassKind {
        self.head.kind
    }

    /// Colour attachments in slot order.
    #[inline]
    pub fn color(self) -> &'p [ColorAttachment] {
        let (start, end) = self.head.color;
        &self.passes.color[start as usize..end as usize]
    }

    /// Depth/stencil attachment.
    #[inline]
    pub fn depth(self) -> Option<&'p DepthAttachment> {
        self.head.depth.as_ref()
    }

    /// One of the pass's lists.
    #[inline]
    pub fn list(self, access: ListAccess) -> &'p [Entry] {
        let i = access as usize;
        let lists = &self.head.lists;
        &self.passes.entries[lists[i] as usize..lists[i + 1] as usize]
    }

    /// Textures read by a shader.
    pub fn sample(self) -> &'p [Entry] {
        self.list(ListAccess::Sample)
    }

    /// Textures read at the same pixel an earlier pass wrote (framebuffer fetch).
    pub fn input(self) -> &'p [Entry] {
        self.list(ListAccess::Input)
    }

    /// Storage resources read.
    pub fn storage_read(self) -> &'p [Entry] {
        self.list(ListAccess::StorageRead)
    }

    /// Storage resources overwritten entirely.
    pub fn storage_write(self) -> &'p [Entry] {
        self.list(ListAccess::StorageWrite)
    }

    /// Storage resources read and written.
    pub fn storage_read_write(self) -> &'p [Entry] {
        self.list(ListAccess::StorageReadWrite)
    }

    /// Copy sources.
    pub fn copy_src(self) -> &'p [Entry] {
        self.list(ListAccess::CopySrc)
    }

    /// Copy destinations, overwritten entirely.
    pub fn copy_dst(self) -> &'p [Entry] {
        self.list(ListAccess::CopyDst)
    }

    /// Buffers bound as uniform buffers.
    pub fn uniform(self) -> &'p [Entry] {
        self.list(ListAccess::Uniform)
    }

    /// Buffers bound as vertex buffers.
    pub fn vertex(self) -> &'p [Entry] {
        self.list(ListAccess::Vertex)
    }

    /// Buffers bound as index buffers.
    pub fn index(self) -> &'p [Entry] {
        self.list(ListAccess::Index)
    }

    /// Buffers read as indirect draw or dispatch arguments.
    pub fn indirect(self) -> &'p [Entry] {
        self.list(ListAccess::Indirect)
    }

    /// Buffers overwritten entirely by bytes from the CPU, in frame order (copy passes:
    /// [`PassContext::upload`](crate::PassContext::upload)).
    pub fn upload(self) -> &'p [Entry] {
        self.list(ListAccess::Upload)
    }

    /// Kept alive even if nobody reads its outputs.
    #[inline]
    pub fn side_effects(self) -> bool {
        self.head.side_effects
    }

    /// Pinned: restructuring moves no pass across it ([guide](crate::guide#restructuring)).
    #[inline]
    pub fn keep_order(self) -> bool {
        self.head.keep_order
    }

    /// A multiview render pass of this many views ([guide](crate::guide#multiview)); `None`
    /// for one view.
    #[inline]
    pub fn multiview(self) -> Option<u32> {
        self.head.multiview
    }

    /// Views the pass renders: its multiview count, or 1.
    #[inline]
    pub fn views(self) -> u32 {
        self.head.multiview.unwrap_or(1).max(1)
    }

    /// Attachment slots in order: colour slots, then depth. A multiview attachment is one
    /// slot per view (layers `layer .. layer + N`, consecutively): the compiler tracks each
    /// layer as its own subresource.
    pub fn attachments(self) -> impl ExactSizeIterator<Item = AttachmentDecl> + Clone + 'p {
        Slots {
            color: self.color(),
            depth: self.head.depth.as_ref(),
            views: self.views(),
            next: 0,
            end: self.attachment_count(),
        }
    }

    /// Number of attachment slots (one per view of a multiview attachment).
    #[inline]
    pub fn attachment_count(self) -> usize {
        let (start, end) = self.head.color;
        ((end - start) as usize + usize::from(self.head.depth.is_some())) * self.views() as usize
    }

    /// Number of colour slots (one per view of a multiview attachment).
    pub fn color_slot_count(self) -> usize {
        self.color().len() * self.views() as usize
    }

    /// Every list entry with how the pass uses it.
    pub fn entries(self) -> impl Iterator<Item = (ListAccess, Entry)> + Clone + 'p {
        let pass = self;
        ListAccess::ALL
            .into_iter()
            .flat_map(move |a| pass.list(a).iter().map(move |&e| (a, e)))
    }

    /// Where each list ends in [`all_entries`](Self::all_entries), in [`ListAccess::ALL`] order.
    #[inline]
    pub(crate) fn list_ends(self) -> impl Iterator<Item = u32> + 'p {
        let lists = &self.head.lists;
        lists[1..].iter().map(move |&end| end - lists[0])
    }

    /// Every list entry, list after list in [`ListAccess::ALL`] order.
    #[inline]
    pub(crate) fn all_entries(self) -> &'p [Entry] {
        let lists = &self.head.lists;
        &self.passes.entries[lists[0] as usize..lists[LISTS] as usize]
    }

    /// Whether the pass names `resource` anywhere: an attachment, a resolve target or a list.
    pub fn uses(self, resource: ResourceId) -> bool {
        self.color()
            .iter()
            .any(|c| c.resource == resource || c.resolve == Some(resource))
            || self.head.depth.is_some_and(|d| d.resource == resource)
            || self.lists_name(resource, |_| true)
    }

    /// Whether an entry of the lists names `resource` and satisfies `accept`. A plain loop:
    /// the executor asks this for every view a pass closure requests.
    pub(crate) fn lists_name(self, resource: ResourceId, accept: impl Fn(&Entry) -> bool) -> bool {
        self.all_entries()
            .iter()
            .any(|e| e.resource == resource && accept(e))
    }

    /// The pass as an owned declaration.
    pub fn to_decl(self) -> PassDecl {
        let mut decl = PassDecl::new(self.head.name.clone(), self.head.kind);
        decl.color = self.color().to_vec();
        decl.depth = self.head.depth;
        for access in ListAccess::ALL {
            *decl.list_mut(access) = self.list(access).to_vec();
        }
        decl.side_effects = self.head.side_effects;
        decl.keep_order = self.head.keep_order;
        decl.multiview = self.head.multiview;
        decl
    }
}

impl std::fmt::Debug for PassRef<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut s = f.debug_struct("PassRef");
        s.field("name", &self.name())
            .field("kind", &self.kind())
            .field("color", &self.color())
            .field("depth", &self.depth());
        for access in ListAccess::ALL {
            let list = self.list(access);
            if !list.is_empty() {
                s.field(access.as_str(), &list);
            }
        }
        s.field("side_effects", &self.side_effects())
            .field("keep_order", &self.keep_order())
            .field("multiview", &self.multiview())
            .finish()
    }
}

/// Equal when every declared field is: the same pass, wherever it is stored.
impl PartialEq for PassRef<'_> {
    fn eq(&self, other: &Self) -> bool {
        let (a, b) = (self.head, other.head);
        a.name == b.name
            && a.kind == b.kind
            && a.depth == b.depth
            && a.side_effects == b.side_effects
            && a.keep_order == b.keep_order
            && a.multiview == b.multiview
            && self.color() == other.color()
            && ListAccess::ALL
                .into_iter()
                .all(|access| self.list(access) == other.list(access))
    }
}

impl Eq for PassRef<'_> {}

/// The iterator of [`PassRef::attachments`]: slots by index, so the common pass of one view
/// costs no nested iterators in the compiler's loops.
#[derive(Clone)]
struct Slots<'p> {
    color: &'p [ColorAttachment],
    depth: Option<&'p DepthAttachment>,
    views: u32,
    next: usize,
    end: usize,
}

impl Slots<'_> {
    /// Attachment slot `slot` (`slot < end`): colour attachment `slot / views`, or the depth
    /// attachment, seen through view `slot % views`.
    #[inline]
    fn slot(&self, slot: usize) -> AttachmentDecl {
        let views = self.views;
        let (index, view) = if views == 1 {
            (slot, 0)
        } else {
            (slot / views as usize, (slot % views as usize) as u32)
        };
        match self.color.get(index) {
            Some(c) => c.slot(view),
            None => self.depth.expect("slot within attachment_count").slot(view),
        }
    }
}

impl Iterator for Slots<'_> {
    type Item = AttachmentDecl;

    #[inline]
    fn next(&mut self) -> Option<AttachmentDecl> {
        if self.next == self.end {
            return None;
        }
        let slot = self.slot(self.next);
        self.next += 1;
        Some(slot)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let left = self.end - self.next;
        (left, Some(left))
    }
}

impl ExactSizeIterator for Slots<'_> {}

// `PassRef::list` indexes the offsets by the enum's value: it must be the place in `ALL`.
const _: () = {
    let mut i = 0;
    while i < LISTS {
        assert!(ListAccess::ALL[i] as usize == i);
        i += 1;
    }
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::resource::{Access, Subresource};

    fn color(resource: usize) -> ColorAttachment {
        ColorAttachment {
            resource: ResourceId::new(resource),
            sub: Subresource::default(),
            access: Access::Write,
            clear: None,
            resolve: None,
        }
    }

    fn whole(resource: usize) -> Entry {
        Entry::whole(ResourceId::new(resource))
    }

    /// Accesses declared in any order land in their own lists, each pass's after the last's.
    #[test]
    fn entries_pushed_in_any_order_land_in_their_lists() {
        let mut passes = Passes::default();
        passes.start("a".into(), PassKind::Render);
        passes.push_entry(ListAccess::Uniform, whole(1));
        passes.push_color(color(0));
        passes.push_entry(ListAccess::Sample, whole(2));
        passes.push_entry(ListAccess::Uniform, whole(3));
        passes.push_entry(ListAccess::Sample, whole(4));
        passes.push_entry(ListAccess::Input, whole(5));
        passes.start("b".into(), PassKind::Copy);
        passes.push_entry(ListAccess::CopyDst, whole(6));
        passes.push_entry(ListAccess::CopySrc, whole(7));

        let a = passes.at(0);
        assert_eq!(a.color(), [color(0)]);
        assert_eq!(a.sample(), [whole(2), whole(4)]);
        assert_eq!(a.input(), [whole(5)]);
        assert_eq!(a.uniform(), [whole(1), whole(3)]);
        assert_eq!(a.all_entries().len(), 5);
        let b = passes.at(1);
        assert!(b.color().is_empty() && b.sample().is_empty());
        assert_eq!(
            (b.copy_src(), b.copy_dst()),
            (&[whole(7)][..], &[whole(6)][..])
        );

        // The owned form and back gives the same passes.
        let again: Passes = passes.to_vec().into_iter().collect();
        assert_eq!(again, passes);
        assert_eq!(again.at(0).to_decl(), passes.at(0).to_decl());
    }

    #[test]
    fn an_emptied_pass_accesses_nothing_and_its_neighbours_keep_theirs() {
        let mut passes = Passes::default();
        for (name, resource) in [("a", 0), ("b", 1), ("c", 2)] {
            passes.start(name.into(), PassKind::Render);
            passes.push_color(color(resource));
            passes.push_entry(ListAccess::Sample, whole(resource + 10));
        }
        passes.set_resolve(0, 0, Some(ResourceId::new(9)));
        passes.empty(1);
        let b = passes.at(1);
        assert_eq!((b.name(), b.kind()), ("b", PassKind::Copy));
        assert_eq!((b.attachment_count(), b.entries().count()), (0, 0));
        assert_eq!(passes.at(0).color()[0].resolve, Some(ResourceId::new(9)));
        assert_eq!(passes.at(2).color(), [color(2)]);
        assert_eq!(passes.at(2).sample(), [whole(12)]);
    }
}

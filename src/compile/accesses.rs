//! Every pass's attachment slots and list entries in two dense tables, made once per compile:
//! the steps after validation walk these instead of each declaration's eight lists, which lie
//! wherever the allocator put them.

use super::compiler::emptied;
use super::restructure::pass_key;
use crate::decl::pass::{AttachmentDecl, Entry, ListAccess, PassKind};
use crate::decl::resource::{ResourceDecl, ResourceKind};
use crate::decl::{PassRef, Passes};
use crate::ids::ResourceId;

/// What the steps read of a pass besides its accesses.
#[derive(Debug, Clone, Copy)]
pub(super) struct PassInfo {
    pub kind: PassKind,
    pub side_effects: bool,
    pub keep_order: bool,
    /// Colour attachments declared (a multiview pass has `views` slots for each).
    pub colors: u8,
    pub multiview: Option<u32>,
}

/// Which of a pass's twelve lists have entries, one bit per position in [`ListAccess::ALL`]:
/// most passes fill one list or none, and the walks over a declaration's lists (validation's,
/// [`Accesses::push`]) visit only the filled ones instead of loading all twelve each time.
#[derive(Debug, Clone, Copy)]
pub(super) struct Lists(u16);

impl Lists {
    /// The non-empty lists of `pass`.
    #[inline]
    pub(super) fn of(pass: PassRef<'_>) -> Self {
        let mut bits = 0;
        for (i, access) in ListAccess::ALL.into_iter().enumerate() {
            bits |= u16::from(!pass.list(access).is_empty()) << i;
        }
        Lists(bits)
    }

    /// Whether one of `lists` is non-empty.
    #[inline]
    pub(super) fn any(self, lists: &[ListAccess]) -> bool {
        let mask = lists.iter().fold(0, |mask, &a| mask | 1 << a as u16);
        self.0 & mask != 0
    }

    /// The non-empty lists, in the order of [`ListAccess::ALL`].
    #[inline]
    pub(super) fn iter(self) -> impl Iterator<Item = ListAccess> {
        let mut bits = self.0;
        std::iter::from_fn(move || {
            if bits == 0 {
                return None;
            }
            let i = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            Some(ListAccess::ALL[i])
        })
    }
}

/// What the steps read of a resource besides its descriptor.
#[derive(Debug, Clone, Copy)]
pub(super) struct ResourceInfo {
    pub buffer: bool,
    /// A texture of more than one sample.
    pub multisampled: bool,
    pub imported: bool,
    pub one_subresource: bool,
    /// Declared never transient.
    pub keep_memory: bool,
}

#[derive(Default)]
pub(super) struct Accesses {
    /// Per resource: what the steps read of it besides its descriptor.
    resources: Vec<ResourceInfo>,
    /// Per pass: what the steps read of it besides its accesses.
    info: Vec<PassInfo>,
    /// Per pass: the key restructuring looks for a pass to join by.
    keys: Vec<u64>,
    /// Per pass: its first slot; one more entry at the end holds the total.
    slot_start: Vec<u32>,
    /// Every pass's attachment slots, as [`PassRef::attachments`] gives them.
    slots: Vec<AttachmentDecl>,
    /// Per pass: its first entry; one more entry at the end holds the total.
    entry_start: Vec<u32>,
    /// Every pass's list entries, as [`PassRef::entries`] gives them.
    entries: Vec<(ListAccess, Entry)>,
    /// The imported resources, in order: the steps that handle imports visit only these.
    imports: Vec<u32>,
    /// Whether a resource is half of a history texture.
    histories: bool,
}

impl Accesses {
    /// Fills the tables with `res` and `passes`.
    pub(super) fn fill(&mut self, res: &[ResourceDecl], passes: &Passes) {
        self.clear(res.len(), passes.len());
        for r in res {
            self.push_resource(r);
        }
        for pass in passes {
            self.push(pass, Lists::of(pass));
        }
    }

    /// Empties the tables, with room for `resources` and `passes` (and the accesses they held
    /// before).
    pub(super) fn clear(&mut self, resources: usize, passes: usize) {
        emptied(&mut self.resources, resources);
        for list in [&mut self.slot_start, &mut self.entry_start] {
            emptied(list, passes + 1);
            list.push(0);
        }
        emptied(&mut self.info, passes);
        emptied(&mut self.keys, passes);
        emptied(&mut self.slots, passes);
        emptied(&mut self.entries, passes);
        self.imports.clear();
        self.histories = false;
    }

    /// Adds the next resource.
    #[inline]
    pub(super) fn push_resource(&mut self, r: &ResourceDecl) {
        let (buffer, samples) = match r.kind {
            ResourceKind::Texture(t) => (false, t.samples),
            ResourceKind::Buffer(_) => (true, 1),
        };
        let imported = r.import.is_some();
        if imported {
            self.imports.push(self.resources.len() as u32);
        }
        self.histories |= r.history.is_some();
        self.resources.push(ResourceInfo {
            buffer,
            multisampled: samples > 1,
            imported,
            one_subresource: r.subresource_count() == 1,
            keep_memory: r.keep_memory,
        });
    }

    /// The imported resources, in order.
    pub(super) fn imports(&self) -> impl Iterator<Item = ResourceId> + '_ {
        self.imports.iter().map(|&r| ResourceId::new(r as usize))
    }

    /// Whether a resource is half of a history texture.
    pub(super) fn has_histories(&self) -> bool {
        self.histories
    }

    /// What the steps read of resource `r` besides its descriptor.
    pub(super) fn resource(&self, r: usize) -> ResourceInfo {
        self.resources[r]
    }

    /// Adds the next pass, whose non-empty lists are `lists`.
    pub(super) fn push(&mut self, pass: PassRef<'_>, lists: Lists) {
        let info = PassInfo {
            kind: pass.kind(),
            side_effects: pass.side_effects(),
            keep_order: pass.keep_order(),
            // Validation allows at most 8 before the pass is pushed.
            colors: pass.color().len().min(usize::from(u8::MAX)) as u8,
            multiview: pass.multiview(),
        };
        let first = self.slots.len();
        if pass.views() == 1 {
            // The common pass of one view: one slot per attachment, copied from slices.
            self.slots.extend(pass.color().iter().map(|c| c.slot(0)));
            if let Some(d) = pass.depth() {
                self.slots.push(d.slot(0));
            }
        } else {
            self.slots.extend(pass.attachments());
        }
        // List by list (as `PassRef::entries` orders them), the non-empty ones only: each
        // extends from a slice.
        for access in lists.iter() {
            let list = pass.list(access);
            self.entries.extend(list.iter().map(|&e| (access, e)));
        }
        self.info.push(info);
        self.keys.push(pass_key(info, &self.slots[first..]));
        self.slot_start.push(self.slots.len() as u32);
        self.entry_start.push(self.entries.len() as u32);
    }

    /// What the steps read of pass `p` besides its accesses.
    pub(super) fn info(&self, p: usize) -> PassInfo {
        self.info[p]
    }

    /// Per pass: the key restructuring looks for a pass to join by ([`pass_key`]).
    pub(super) fn keys(&self) -> &[u64] {
        &self.keys
    }

    /// Passes pushed.
    pub(super) fn len(&self) -> usize {
        self.info.len()
    }

    /// Pass `p`'s attachment slots: colour slots, then depth (a multiview attachment: one slot
    /// per view).
    pub(super) fn slots(&self, p: usize) -> &[AttachmentDecl] {
        &self.slots[self.slot_start[p] as usize..self.slot_start[p + 1] as usize]
    }

    /// Pass `p`'s list entries with how it uses them.
    pub(super) fn entries(&self, p: usize) -> &[(ListAccess, Entry)] {
        &self.entries[self.entry_start[p] as usize..self.entry_start[p + 1] as usize]
    }

    /// Attachment slots of every pass.
    pub(super) fn slot_count(&self) -> usize {
        self.slots.len()
    }

    /// List entries of every pass.
    pub(super) fn entry_count(&self) -> usize {
        self.entries.len()
    }
}

//! Step 2: versions. Every write makes a new version of a subresource; every read names the
//! version it sees. Reading a subresource that has no version is a `read_before_write`.

use super::Decls;
use super::accesses::Accesses;
use super::compiler::{emptied, hand_over};
use super::subresources::SubTable;
use super::traffic::PassBytes;
use super::validate::Checked;
use crate::decl::Passes;
use crate::decl::resource::{HistoryHalf, ResourceDecl};
use crate::error::GraphError;
use crate::ids::{PassId, ResourceId};
use crate::plan::{DependencyAccess, Reads};
use crate::resource::{Access, ImportAfter, ImportContents, Subresource};

/// Index of a version.
pub(super) type VersionId = u32;

#[derive(Default)]
pub(super) struct Versions {
    /// Pass that wrote each version; `None` for an import's preserved contents.
    pub writer: Vec<Option<PassId>>,
    /// Subresource (index in the graph's space) of each version.
    pub sub_of: Vec<u32>,
    /// Versions each pass reads: `reads[read_start[p]..read_start[p + 1]]`.
    read_start: Vec<u32>,
    reads: Vec<VersionId>,
    /// Per read: the resource and how the pass reads it (for the plan's dependency list).
    read_how: Vec<(ResourceId, DependencyAccess)>,
    /// Per attachment slot (colour slots, then depth) of each pass: the version loaded (if the
    /// access reads and content exists) and the version written.
    slot_start: Vec<u32>,
    pub slot_read: Vec<Option<VersionId>>,
    pub slot_written: Vec<Option<VersionId>>,
    /// Per attachment slot: the version its resolve writes into the resolve target.
    pub slot_resolved: Vec<Option<VersionId>>,
    /// Frame-end versions of imports kept after the frame: they must reach memory.
    pub kept_at_end: Vec<bool>,
    /// Per pass: what it moves alone (naive plan, samples), counted as it is traced.
    pub pass_bytes: Vec<PassBytes>,
}

impl Versions {
    /// The lists the plan builds its dependency list from (with `subs`'s), moved out, with the
    /// lists of the plan dropped last (`returned`) in their place.
    pub(super) fn hand_over_reads(&mut self, subs: &mut SubTable, returned: &mut Reads) -> Reads {
        let (sub_base, sub_mips) = subs.hand_over(&mut returned.sub_base, &mut returned.sub_mips);
        Reads {
            writer: hand_over(&mut self.writer, &mut returned.writer),
            sub_of: hand_over(&mut self.sub_of, &mut returned.sub_of),
            read_start: hand_over(&mut self.read_start, &mut returned.read_start),
            reads: hand_over(&mut self.reads, &mut returned.reads),
            read_how: hand_over(&mut self.read_how, &mut returned.read_how),
            sub_base,
            sub_mips,
        }
    }

    pub(super) fn reads_of(&self, p: usize) -> &[VersionId] {
        &self.reads[self.read_start[p] as usize..self.read_start[p + 1] as usize]
    }

    /// Per pass: its first slot in the slot tables; one more entry at the end holds the total.
    pub(super) fn slot_starts(&self) -> &[u32] {
        &self.slot_start
    }

    /// Index of attachment `slot` of pass `p` in the slot tables.
    pub(super) fn slot(&self, p: PassId, slot: usize) -> usize {
        self.slot_start[p.index()] as usize + slot
    }
}

/// Advice for a read of contents nobody wrote.
fn read_before_write_hint(
    decl: &ResourceDecl,
    attachment: bool,
    sub: Option<Subresource>,
) -> String {
    let what = match sub {
        Some(s) if s != Subresource::BASE || decl.subresource_count() > 1 => {
            format!(" (mip {} of layer {})", s.mip, s.layer)
        }
        _ => String::new(),
    };
    if decl.history == Some(HistoryHalf::Current) {
        let base = decl.name.strip_suffix(".current").unwrap_or(&decl.name);
        return format!(
            "{what}; it is this frame's half of the history texture `{base}`, empty until a pass of this frame writes it: read last frame's contents through `{base}.previous`, or read this one after the pass that writes it"
        );
    }
    let advice = match decl.import {
        Some(i) if i.contents == ImportContents::Undefined => {
            "; it is imported with undefined contents: declare the import `preserved` if its contents from before the frame are wanted"
        }
        _ if attachment => "; declare a clear value on the resource to start from it",
        _ => "; clear values apply to attachments only",
    };
    format!("{what}{advice}")
}

/// Traces the versions of `graph` into `v` (the compiler's lists, cleared here).
pub(super) fn trace_versions<'w>(
    graph: Decls<'_>,
    checked: &Checked,
    current: &mut Vec<Option<VersionId>>,
    v: &'w mut Versions,
) -> Result<&'w Versions, GraphError> {
    let mut t = Tracer::new(graph, &checked.subs, current, &mut *v);
    t.preserved_imports();
    let traced = (0..graph.passes.len()).try_for_each(|p| {
        t.v.read_start.push(t.v.reads.len() as u32);
        t.v.slot_start.push(t.v.slot_read.len() as u32);
        // Reads first: a read_write reads the prior version, then writes a new one.
        t.read_attachments(p)?;
        let slots = graph.acc.slots(p).len();
        let slot_read = &t.v.slot_read[t.v.slot_read.len() - slots..];
        t.v.pass_bytes
            .push(PassBytes::of(graph, checked, p, slot_read));
        t.read_lists(p)?;
        t.write(p);
        Ok(())
    });
    traced?;
    t.v.read_start.push(t.v.reads.len() as u32);
    t.v.slot_start.push(t.v.slot_read.len() as u32);
    t.kept_imports();
    Ok(v)
}

/// The versions being traced and each subresource's current one.
struct Tracer<'g> {
    passes: &'g Passes,
    acc: &'g Accesses,
    res: &'g [ResourceDecl],
    subs: &'g SubTable,
    /// The versions (the compiler's lists, cleared here).
    v: &'g mut Versions,
    /// Per subresource: its current version (the compiler's list, cleared here).
    current: &'g mut Vec<Option<VersionId>>,
}

impl<'g> Tracer<'g> {
    fn new(
        graph: Decls<'g>,
        subs: &'g SubTable,
        current: &'g mut Vec<Option<VersionId>>,
        v: &'g mut Versions,
    ) -> Self {
        current.clear();
        current.resize(subs.len(), None);
        let (passes, res) = (graph.passes, graph.resources);
        // Sized up front for the common case of one subresource per access.
        let slots = graph.acc.slot_count();
        let listed = graph.acc.entry_count();
        let versions = res.len() + slots + listed;
        for list in [&mut v.read_start, &mut v.slot_start] {
            emptied(list, passes.len() + 1);
        }
        for list in [&mut v.slot_read, &mut v.slot_written, &mut v.slot_resolved] {
            emptied(list, slots);
        }
        emptied(&mut v.writer, versions);
        emptied(&mut v.sub_of, versions);
        emptied(&mut v.reads, slots + listed);
        emptied(&mut v.read_how, slots + listed);
        emptied(&mut v.pass_bytes, passes.len());
        v.kept_at_end.clear();
        Tracer {
            passes,
            acc: graph.acc,
            res,
            subs,
            v,
            current,
        }
    }

    fn new_version(&mut self, sub: usize, writer: Option<PassId>) -> VersionId {
        self.v.writer.push(writer);
        self.v.sub_of.push(sub as u32);
        let id = (self.v.writer.len() - 1) as VersionId;
        self.current[sub] = Some(id);
        id
    }

    /// An import's preserved contents are a version of every subresource, written by nobody.
    fn preserved_imports(&mut self) {
        for r in self.acc.imports() {
            if self.res[r.index()]
                .import
                .is_some_and(|i| i.contents == ImportContents::Preserved)
            {
                for sub in self.subs.all(r) {
                    self.new_version(sub, None);
                }
            }
        }
    }

    /// What each attachment slot loads: the current version when the access reads prior contents;
    /// none to load and no clear value to start from is a `read_before_write`.
    fn read_attachments(&mut self, p: usize) -> Result<(), GraphError> {
        for &a in self.acc.slots(p) {
            let sub = self.subs.index(a.resource, a.sub);
            let loaded = a.access.reads_prior().then(|| self.current[sub]).flatten();
            let decl = &self.res[a.resource.index()];
            if a.access.reads_prior() && loaded.is_none() && a.clear.or(decl.clear).is_none() {
                return Err(GraphError::ReadBeforeWrite {
                    pass: self.passes.at(p).name().to_string(),
                    resource: decl.name.to_string(),
                    access: a.access.as_str(),
                    hint: read_before_write_hint(decl, true, Some(a.sub)),
                });
            }
            if let Some(version) = loaded {
                self.v.reads.push(version);
                self.v
                    .read_how
                    .push((a.resource, DependencyAccess::Attachment(a.access)));
            }
            self.v.slot_read.push(loaded);
        }
        Ok(())
    }

    /// Every subresource a reading list entry names must have a version.
    fn read_lists(&mut self, p: usize) -> Result<(), GraphError> {
        let acc = self.acc;
        for &(access, e) in acc.entries(p).iter().filter(|(a, _)| a.reads()) {
            for sub in self.subs.of(e.resource, e.range) {
                let Some(version) = self.current[sub] else {
                    let decl = &self.res[e.resource.index()];
                    let named = e.range.single().or_else(|| {
                        (decl.subresource_count() > 1).then(|| self.subs.sub_at(e.resource, sub))
                    });
                    return Err(GraphError::ReadBeforeWrite {
                        pass: self.passes.at(p).name().to_string(),
                        resource: decl.name.to_string(),
                        access: access.as_str(),
                        hint: read_before_write_hint(decl, false, named),
                    });
                };
                self.v.reads.push(version);
                self.v
                    .read_how
                    .push((e.resource, DependencyAccess::List(access)));
            }
        }
        Ok(())
    }

    /// Every attachment access but `read` makes a version, and so do resolves and writing list
    /// entries. A `read` never writes, not even when its group clears a never-written depth: the
    /// clear is a load op, not content, so a later reader clears again for free instead of
    /// keeping it in memory.
    fn write(&mut self, p: usize) {
        let (acc, pid) = (self.acc, PassId::new(p));
        for a in acc.slots(p) {
            let written = (a.access != Access::Read)
                .then(|| self.new_version(self.subs.index(a.resource, a.sub), Some(pid)));
            self.v.slot_written.push(written);
        }
        for a in acc.slots(p) {
            let resolved = a
                .resolve
                .map(|t| self.new_version(self.subs.index(t, a.resolve_subresource()), Some(pid)));
            self.v.slot_resolved.push(resolved);
        }
        for (_, e) in acc.entries(p).iter().filter(|(a, _)| a.writes()) {
            for sub in self.subs.of(e.resource, e.range) {
                self.new_version(sub, Some(pid));
            }
        }
    }

    /// Frame-end versions of imports kept after the frame must reach memory.
    fn kept_imports(&mut self) {
        self.v.kept_at_end.resize(self.v.writer.len(), false);
        for r in self.acc.imports() {
            if self.res[r.index()]
                .import
                .is_some_and(|i| i.after == ImportAfter::Keep)
            {
                for sub in self.subs.all(r) {
                    if let Some(version) = self.current[sub] {
                        self.v.kept_at_end[version as usize] = true;
                    }
                }
            }
        }
    }
}

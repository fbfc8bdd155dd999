//! Step 3: liveness. A pass is live if it has side effects, writes a version a live pass reads,
//! or writes the frame-end version of a kept import. Readers follow writers, so one backward
//! sweep settles it.

use super::accesses::Accesses;
use super::compiler::emptied;
use super::subresources::SubTable;
use super::versions::Versions;
use crate::ids::GroupId;
use crate::ids::PassId;
use crate::plan::NeededBy;

/// Per pass: live, into `needed` (the compiler's list, cleared here); every pass when `cull`
/// (the options' `cull`) is off.
pub(super) fn find_live_passes<'w>(
    acc: &Accesses,
    v: &Versions,
    cull: bool,
    needed: &'w mut Vec<bool>,
) -> &'w [bool] {
    needed.clear();
    needed.resize(acc.len(), false);
    for (version, &kept) in v.kept_at_end.iter().enumerate() {
        if let (true, Some(p)) = (kept, v.writer[version]) {
            needed[p.index()] = true;
        }
    }
    for p in (0..acc.len()).rev() {
        needed[p] |= acc.info(p).side_effects || !cull;
        if needed[p] {
            for &version in v.reads_of(p) {
                if let Some(w) = v.writer[version as usize] {
                    needed[w.index()] = true;
                }
            }
        }
    }
    needed
}

/// Why each live pass is alive: its side effects, else the kept import whose frame-end
/// contents it writes, else the first live pass that reads what it wrote. `None` for culled
/// passes (and for passes kept only because culling is off). Into `why` (the compiler's list,
/// cleared here).
pub(super) fn why_live<'w>(
    acc: &Accesses,
    subs: &SubTable,
    v: &Versions,
    live: &[bool],
    why: &'w mut Vec<Option<NeededBy>>,
) -> &'w [Option<NeededBy>] {
    emptied(why, acc.len());
    why.extend(
        live.iter()
            .enumerate()
            .map(|(p, &l)| (l && acc.info(p).side_effects).then_some(NeededBy::SideEffects)),
    );
    for (version, &kept) in v.kept_at_end.iter().enumerate() {
        if let (true, Some(p)) = (kept, v.writer[version]) {
            let resource = subs.resource_at(v.sub_of[version] as usize);
            why[p.index()].get_or_insert(NeededBy::KeptImport(resource));
        }
    }
    for p in (0..acc.len()).filter(|&p| live[p]) {
        for &version in v.reads_of(p) {
            if let Some(w) = v.writer[version as usize]
                && w.index() != p
            {
                why[w.index()].get_or_insert(NeededBy::Reader(PassId::new(p)));
            }
        }
    }
    why
}

/// Per version: the last live pass that reads it and its group.
#[derive(Debug, Default)]
pub(super) struct Readers {
    /// 1 + the last group whose live passes read the version (0: never read).
    pub last_group: Vec<u32>,
    /// That group's last reading pass.
    pub last_pass: Vec<Option<PassId>>,
}

/// Fills `readers` (the compiler's lists, cleared here) for the groups of `group_of`.
pub(super) fn last_readers<'w>(
    v: &Versions,
    live: &[bool],
    group_of: &[Option<GroupId>],
    readers: &'w mut Readers,
) -> &'w Readers {
    readers.last_group.clear();
    readers.last_group.resize(v.writer.len(), 0);
    readers.last_pass.clear();
    readers.last_pass.resize(v.writer.len(), None);
    for p in (0..live.len()).filter(|&p| live[p]) {
        let g = group_of[p].expect("live passes have a group").index() as u32 + 1;
        for &version in v.reads_of(p) {
            let version = version as usize;
            if g >= readers.last_group[version] {
                readers.last_group[version] = g;
                readers.last_pass[version] = Some(PassId::new(p));
            }
        }
    }
    readers
}

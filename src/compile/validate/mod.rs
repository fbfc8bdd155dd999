//! Step 1: validate the whole declared graph, culled passes included. Every rule is a function
//! (or a method of [`PassChecker`]) named after what it checks. This file walks the graph and
//! checks names; `resources.rs` holds the rules of a resource's own declaration,
//! `declaration.rs` those of a pass's declaration as a whole, `attachments.rs` those of its
//! attachment slots and `entries.rs` those of its list entries.

use super::Source;
use super::accesses::{Accesses, Lists};
use super::compiler::emptied;
use super::subresources::SubTable;
use crate::decl::pass::{AttachmentDecl, Entry, ListAccess};
use crate::decl::resource::ResourceDecl;
use crate::decl::{PassRef, Passes};
use crate::error::GraphError;
use crate::hash::NAMED;
use crate::ids::ResourceId;
use crate::plan::subresource_bytes;
use crate::resource::{Subresource, SubresourceRange};

/// Valid MSAA sample counts.
const SAMPLE_COUNTS: [u32; 5] = [1, 2, 4, 8, 16];
/// wgpu's cap on colour attachments.
const MAX_COLOR_ATTACHMENTS: usize = 8;
/// wgpu's largest `max_texture_array_layers` on any adapter.
const MAX_LAYERS: u32 = 2048;

/// What the later steps need from validation.
#[derive(Default)]
pub(super) struct Checked {
    /// The graph's subresource index space.
    pub subs: SubTable,
    /// The passes' accesses, gathered while each pass was checked.
    pub acc: Accesses,
    /// Per resource: `bytes(R)` of the traffic model (whole texture, every mip; buffer size).
    pub bytes: Vec<u64>,
    /// Per resource: bytes of one subresource of mip 0 (a buffer's size), the one most
    /// attachments name.
    base_bytes: Vec<u64>,
}

impl Checked {
    /// Bytes of one subresource of a resource.
    pub(super) fn subresource_bytes(
        &self,
        res: &[ResourceDecl],
        r: ResourceId,
        sub: Subresource,
    ) -> u64 {
        if sub.mip == 0 {
            self.base_bytes[r.index()]
        } else {
            subresource_bytes(&res[r.index()], sub)
        }
    }
}

/// Validation's working lists, cleared where each is filled.
#[derive(Debug, Default)]
pub(super) struct Workspace {
    /// Per resource: what the pass checks keep of it.
    marks: Vec<Marks>,
    /// Colour formats met before and whether they render, kept between compiles: wgpu's
    /// answer is a large table built each time it is asked, and a graph uses few formats.
    renderable: Renderable,
    /// The unique-name check's open-addressing table.
    names: Vec<(u32, u32)>,
    /// The one-role rule's list of what a pass does with each resource it names.
    roles: Vec<Role>,
}

/// Checks everything but reads before writes (the versions step finds those).
///
/// `source.names` are the declarations' name hashes; `None` skips the unique-name check, for
/// declarations that passed it before. `checked` (the compiler's) is cleared and filled.
pub(super) fn validate<'w>(
    source: &Source<'_>,
    work: &mut Workspace,
    checked: &'w mut Checked,
) -> Result<&'w Checked, GraphError> {
    let (passes, res, names) = (&**source.passes, &source.resources[..], source.names);
    if passes.is_empty() {
        return Err(GraphError::invalid("the graph declares no passes"));
    }
    if let Some(names) = names {
        debug_assert_eq!(
            (names.resources.len(), names.passes.len()),
            (res.len(), passes.len())
        );
        check_unique_names(
            &names.resources,
            |i| &res[i].name,
            "resource",
            &mut work.names,
        )?;
        check_unique_names(
            &names.passes,
            |i| passes.at(i).name(),
            "pass",
            &mut work.names,
        )?;
    }
    checked.subs.clear(res.len());
    checked.acc.clear(res.len(), passes.len());
    emptied(&mut checked.bytes, res.len());
    emptied(&mut checked.base_bytes, res.len());
    emptied(&mut work.marks, res.len());
    check_resources_and_passes(passes, res, checked, work)?;
    Ok(checked)
}

/// Every resource, then every pass, filling `checked`'s tables: each resource's byte counts and
/// subresources in the walk that checks it, each pass's accesses right after its declaration
/// is checked, while it is in the caches.
fn check_resources_and_passes(
    passes: &Passes,
    res: &[ResourceDecl],
    checked: &mut Checked,
    work: &mut Workspace,
) -> Result<(), GraphError> {
    for r in res {
        let (bytes, base_bytes) = validate_resource(r)?;
        checked.bytes.push(bytes);
        checked.base_bytes.push(base_bytes);
        checked.subs.push(r)?;
        checked.acc.push_resource(r);
        work.marks.push(Marks {
            seen_in_pass: 0,
            attachable: Attachable::of(r, &mut work.renderable),
        });
    }
    let acc = &mut checked.acc;
    let histories = acc.has_histories();
    for (p, pass) in passes.iter().enumerate() {
        let lists = Lists::of(pass);
        let checker = PassChecker {
            res,
            pass,
            lists,
            first: None,
        };
        let repeated = checker.declaration(p as u32 + 1, &mut work.marks, histories)?;
        // The declaration is sound (its ids exist, its views are few): the access checks walk
        // its dense copy.
        acc.push(pass, lists);
        let (slots, entries) = (acc.slots(p), acc.entries(p));
        let roles = repeated.then_some(&mut work.roles);
        checker.accesses(&work.marks, slots, entries, roles)?;
    }
    Ok(())
}

/// Names go into an open-addressing table of (hash, index) sized to a power of two (8 bytes a
/// slot keeps the table of 10 000 names in a core's L2): the hashes were taken when the names
/// were declared ([`name_hash`](crate::hash::name_hash)), so the check reads one dense table
/// and touches a name's text only when two hashes are equal, to confirm the repeat. The first
/// repeat in declaration order is reported.
fn check_unique_names<'n>(
    hashes: &[u32],
    name: impl Fn(usize) -> &'n str,
    what: &'static str,
    table: &mut Vec<(u32, u32)>,
) -> Result<(), GraphError> {
    let capacity = (hashes.len() * 2).next_power_of_two().max(16);
    let mask = capacity - 1;
    table.clear();
    table.resize(capacity, (0, u32::MAX));
    let mut found = Ok(());
    'names: for (i, &hash) in hashes.iter().enumerate() {
        if hash & NAMED == 0 {
            found = Err(GraphError::invalid(format!("a {what} has an empty name")));
            break;
        }
        let mut slot = hash as usize & mask;
        loop {
            let (stored, index) = table[slot];
            if index == u32::MAX {
                table[slot] = (hash, i as u32);
                break;
            }
            if stored == hash && name(index as usize) == name(i) {
                found = Err(GraphError::DuplicateName {
                    what,
                    name: name(i).to_owned(),
                });
                break 'names;
            }
            slot = (slot + 1) & mask;
        }
    }
    found
}

/// Checks one pass: each rule a method.
struct PassChecker<'g> {
    res: &'g [ResourceDecl],
    pass: PassRef<'g>,
    /// The pass's non-empty lists.
    lists: Lists,
    /// The first attachment: its resource and rendered extent (width, height, samples).
    first: Option<(ResourceId, (u32, u32, u32))>,
}

/// (resource, subresources named, use): one entry of the role check.
type Role = (ResourceId, SubresourceRange, Use);

impl PassChecker<'_> {
    /// The checks of the declaration itself; returns whether a resource is named twice.
    fn declaration(
        &self,
        stamp: u32,
        marks: &mut [Marks],
        histories: bool,
    ) -> Result<bool, GraphError> {
        let repeated = self.resources_exist(stamp, marks)?;
        self.pass_kind_allows_accesses()?;
        if histories {
            self.history_previous_not_written()?;
        }
        self.attachment_count()?;
        self.multiview()?;
        Ok(repeated)
    }

    /// The checks of every attachment slot and list entry (`slots` and `entries`, as
    /// [`Accesses`] holds them); the one-role check with the list `roles`, given where a
    /// resource is named twice.
    fn accesses(
        mut self,
        marks: &[Marks],
        slots: &[AttachmentDecl],
        entries: &[(ListAccess, Entry)],
        roles: Option<&mut Vec<Role>>,
    ) -> Result<(), GraphError> {
        for &a in slots {
            self.attachment(a, marks[a.resource.index()].attachable)?;
        }
        for &(access, entry) in entries {
            self.list_entry(access, entry)?;
        }
        // Only a resource named twice can play two roles.
        if let Some(uses) = roles {
            self.one_role_per_subresource(slots, entries, uses)?;
        }
        Ok(())
    }

    fn name(&self, id: ResourceId) -> String {
        self.res[id.index()].name.to_string()
    }

    fn invalid_access(&self, resource: Option<ResourceId>, message: String) -> GraphError {
        GraphError::InvalidAccess {
            pass: self.pass.name().to_string(),
            resource: resource.map(|r| self.name(r)),
            message,
        }
    }
}

mod attachments;
mod declaration;
mod entries;
mod resources;

use entries::Use;
use resources::{Attachable, Marks, Renderable, validate_resource};

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::check_unique_names;
    use crate::error::GraphError;
    use crate::hash::name_hash;

    /// The first problem in order by brute force: an empty name, or a name seen before.
    fn reference(names: &[Arc<str>]) -> Option<(usize, bool)> {
        let mut seen = std::collections::HashSet::new();
        for (i, n) in names.iter().enumerate() {
            if n.is_empty() {
                return Some((i, true));
            }
            if !seen.insert(n.clone()) {
                return Some((i, false));
            }
        }
        None
    }

    fn check(names: &[Arc<str>], scratch: &mut Vec<(u32, u32)>) {
        let hashes: Vec<u32> = names.iter().map(|n| name_hash(n)).collect();
        let got = check_unique_names(&hashes, |i| &names[i], "pass", scratch);
        match (reference(names), got) {
            (None, Ok(())) => {}
            (Some((i, false)), Err(GraphError::DuplicateName { what, name })) => {
                assert_eq!((what, name.as_str()), ("pass", &*names[i]));
            }
            (Some((_, true)), Err(GraphError::InvalidDescription { message, .. })) => {
                assert_eq!(message, "a pass has an empty name");
            }
            (want, got) => panic!("expected {want:?}, got {got:?}"),
        }
    }

    #[test]
    fn unique_names_report_the_first_problem_in_order() {
        let mut scratch = Vec::new();
        for count in [1, 7, 1000, 1024, 5000, 12_800] {
            let names: Vec<Arc<str>> = (0..count).map(|i| format!("pass{i}").into()).collect();
            check(&names, &mut scratch);
            if count < 1000 {
                continue;
            }
            // Two repeats: the one whose first occurrence comes later in the list repeats first,
            // so it is the one reported.
            let mut twice = names.clone();
            twice[count - 10] = twice[count / 3].clone();
            twice[count / 2] = twice[count / 4].clone();
            check(&twice, &mut scratch);
            // An empty name after the first repeat, then before it.
            twice[count / 2 + 1] = "".into();
            check(&twice, &mut scratch);
            twice[count / 8] = "".into();
            check(&twice, &mut scratch);
            // A name repeated many times: its second occurrence is the first repeat.
            let mut many = names.clone();
            for i in (count / 5..count).step_by(97) {
                many[i] = many[count / 6].clone();
            }
            check(&many, &mut scratch);
        }
    }
}

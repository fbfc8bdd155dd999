//! The dependency list: every read of every declared pass with the write it sees, rebuilt from
//! the versions the compile traced.

use super::Dependency;
use crate::decl::pass::ListAccess;
use crate::ids::{PassId, ResourceId};
use crate::resource::{Access, Subresource};

/// What the dependency list is built from when first asked for: the compile's versions, kept
/// as they were traced (most plans are executed, never listed).
#[derive(Debug, Clone, Default)]
pub(crate) struct Reads {
    /// Per version: the pass that wrote it (`None`: an import's preserved contents).
    pub writer: Vec<Option<PassId>>,
    /// Per version: its subresource, an index into the graph's subresource space.
    pub sub_of: Vec<u32>,
    /// Versions each pass reads: `reads[read_start[p]..read_start[p + 1]]`.
    pub read_start: Vec<u32>,
    pub reads: Vec<u32>,
    /// Per read: the resource and how the pass reads it.
    pub read_how: Vec<(ResourceId, DependencyAccess)>,
    /// Per resource: its first subresource index; its mip count.
    pub sub_base: Vec<u32>,
    pub sub_mips: Vec<u32>,
}

impl Reads {
    /// Every read of every declared pass with the pass that wrote the version it sees.
    pub(super) fn dependencies(&self) -> Vec<Dependency> {
        let mut deps = Vec::with_capacity(self.reads.len());
        for (p, range) in self.read_start.windows(2).enumerate() {
            let range = range[0] as usize..range[1] as usize;
            for (&version, &(resource, access)) in
                self.reads[range.clone()].iter().zip(&self.read_how[range])
            {
                let version = version as usize;
                let r = resource.index();
                let offset = self.sub_of[version] - self.sub_base[r];
                deps.push(Dependency {
                    from: self.writer[version],
                    to: PassId::new(p),
                    resource,
                    sub: Subresource {
                        mip: offset % self.sub_mips[r],
                        layer: offset / self.sub_mips[r],
                    },
                    access,
                });
            }
        }
        deps
    }
}

/// How a [`Dependency`]'s pass reads what it depends on: through an attachment (`read`,
/// `read_write`) or one of its lists (`sample`, `input`, `storage_read`, `copy_src`, ...).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DependencyAccess {
    /// A colour or depth attachment's access.
    Attachment(Access),
    /// One of the pass's lists.
    List(ListAccess),
}

impl DependencyAccess {
    /// The access's name in the description (`read_write`, `sample`, ...).
    pub fn as_str(self) -> &'static str {
        match self {
            DependencyAccess::Attachment(a) => a.as_str(),
            DependencyAccess::List(a) => a.as_str(),
        }
    }
}

impl std::fmt::Display for DependencyAccess {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

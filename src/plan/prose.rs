//! The plan's decisions as sentences: why a load, a store, a group break, a live pass, a
//! restructuring.

use super::{GroupBreak, LoadReason, NeededBy, Restructuring, StoreReason};
use crate::ids::{PassId, ResourceId};

impl LoadReason {
    /// The reason as a sentence about `resource`, naming passes through `pass_name`.
    pub fn describe(self, pass_name: impl Fn(PassId) -> String) -> String {
        match self {
            LoadReason::Cleared => "the pass clears it".into(),
            LoadReason::Overwritten => {
                "the pass overwrites every pixel (`write`): prior contents are not needed".into()
            }
            LoadReason::ContentsNeeded { writer: Some(p) } => format!(
                "the pass needs the prior contents, written by `{}`",
                pass_name(p)
            ),
            LoadReason::ContentsNeeded { writer: None } => {
                "the pass needs the prior contents, preserved from before the frame".into()
            }
            LoadReason::NoContents => {
                "the pass reads prior contents that nothing wrote: it starts from the clear value"
                    .into()
            }
        }
    }
}

impl StoreReason {
    /// The reason as a sentence, naming passes through `pass_name`.
    pub fn describe(self, pass_name: impl Fn(PassId) -> String) -> String {
        match self {
            StoreReason::ReadLater { reader } => {
                format!("`{}` reads the contents later", pass_name(reader))
            }
            StoreReason::KeptImport => "the import's contents are kept after the frame".into(),
            StoreReason::NotNeeded => "nothing reads the contents after the group".into(),
            StoreReason::NothingWritten => {
                "no pass of the group writes it (read-only depth)".into()
            }
            StoreReason::Naive => "the naive plan stores every attachment".into(),
        }
    }
}

impl GroupBreak {
    /// The reason as a sentence about the next pass.
    pub fn describe(self) -> &'static str {
        match self {
            GroupBreak::NotRender => "this or the next pass is a compute or copy pass",
            GroupBreak::SamplesGroupOutput => {
                "the next pass reads in a shader what this group wrote, so it must reach memory first"
            }
            GroupBreak::InputsGroupOutput => {
                "the next pass reads this group's output at the same pixel; it would stay on tile with framebuffer fetch, which wgpu lacks"
            }
            GroupBreak::AttachmentsDiffer => {
                "the next pass attaches other subresources (or another size or sample count)"
            }
            GroupBreak::ClearsGroupAttachment => {
                "the next pass clears an attachment, and a clear can only start a render pass"
            }
            GroupBreak::Resolve => {
                "this group resolves its multisampled attachments; drawing after the resolve would change it"
            }
            GroupBreak::StorageHazard => {
                "the next pass writes storage this group already accessed; draws in one render pass have no barrier between them"
            }
            GroupBreak::WritesBoundTexture => {
                "the next pass writes, as depth or resolve target, a texture this group binds for reading"
            }
            GroupBreak::MergingDisabled => "merging is switched off",
            GroupBreak::EndOfGraph => "this group holds the last live pass",
        }
    }
}

impl NeededBy {
    /// The plan's spelling: the reader's name, `import:NAME` or `side_effects`.
    pub fn describe(
        self,
        pass_name: impl Fn(PassId) -> String,
        resource_name: impl Fn(ResourceId) -> String,
    ) -> String {
        match self {
            NeededBy::Reader(p) => pass_name(p),
            NeededBy::KeptImport(r) => format!("import:{}", resource_name(r)),
            NeededBy::SideEffects => "side_effects".into(),
        }
    }
}

impl Restructuring {
    /// Why, as a sentence naming passes and resources.
    pub fn describe(
        &self,
        pass_name: impl Fn(PassId) -> String,
        resource_name: impl Fn(ResourceId) -> String,
    ) -> String {
        let list = |passes: &[PassId]| {
            passes
                .iter()
                .map(|&p| format!("`{}`", pass_name(p)))
                .collect::<Vec<_>>()
                .join(", ")
        };
        match self {
            Restructuring::Moved {
                joins,
                ahead,
                after,
                saved_bytes,
                ..
            } => {
                let mut s = format!(
                    "runs in the group of `{}` (same attachments), saving {saved_bytes} attachment bytes a frame",
                    pass_name(*joins)
                );
                if !ahead.is_empty() {
                    s += &format!("; {} it depends on moved ahead of that group", list(ahead));
                }
                if !after.is_empty() {
                    s += &format!("; {} now run after it", list(after));
                }
                s
            }
            Restructuring::ResolveDropped {
                resource,
                overwritten_by: Some(next),
                ..
            } => format!(
                "nothing reads what it resolves into `{}` before `{}` overwrites it",
                resource_name(*resource),
                pass_name(*next)
            ),
            Restructuring::ResolveDropped { resource, .. } => format!(
                "nothing reads what it resolves into `{}`, and the frame does not keep it",
                resource_name(*resource)
            ),
            Restructuring::CopyFolded {
                into,
                source,
                target,
                ..
            } => format!(
                "only this copy reads `{}`, so `{}` resolves straight into `{}`",
                resource_name(*source),
                pass_name(*into),
                resource_name(*target)
            ),
        }
    }
}

//! The naive plan's inputs: for every attachment slot of every pass, whether it would find
//! contents to load and who wrote them. The plan builds the naive groups from these when they are
//! first asked for ([`CompiledGraph::naive_groups`](crate::CompiledGraph::naive_groups)), so a
//! compile allocates none of them; the naive traffic is counted from the same rule.

use super::versions::Versions;
use crate::compiled::NaiveSources;
use crate::resource::PassDecl;

pub(super) fn naive_sources(passes: &[PassDecl], v: &Versions) -> NaiveSources {
    let mut start = Vec::with_capacity(passes.len() + 1);
    let mut loaded = Vec::with_capacity(v.slot_read.len());
    for (p, pass) in passes.iter().enumerate() {
        start.push(loaded.len() as u32);
        for slot in 0..pass.attachment_count() {
            let read = v.slot_read[v.slot(crate::ids::PassId::new(p), slot)];
            loaded.push(read.map(|version| v.writer[version as usize]));
        }
    }
    start.push(loaded.len() as u32);
    NaiveSources { start, loaded }
}

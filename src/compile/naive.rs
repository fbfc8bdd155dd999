//! Step 8: the naive plan's inputs: for every attachment slot of every pass, whether it would find
//! contents to load and who wrote them. The plan builds the naive groups from these when they are
//! first asked for ([`CompiledGraph::naive_groups`](crate::CompiledGraph::naive_groups)), so a
//! compile allocates none of them; the naive traffic is counted from the same rule.

use super::compiler::emptied;
use super::versions::Versions;
use crate::plan::NaiveSources;

/// Into `naive` (the compiler's lists, cleared here).
pub(super) fn naive_sources(v: &Versions, naive: &mut NaiveSources) {
    let NaiveSources { start, loaded } = naive;
    emptied(start, v.slot_starts().len());
    start.extend_from_slice(v.slot_starts());
    emptied(loaded, v.slot_read.len());
    loaded.extend(
        v.slot_read
            .iter()
            .map(|read| read.map(|version| v.writer[version as usize])),
    );
}

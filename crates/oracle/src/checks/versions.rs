//! The dependency list against what the reference says each read sees (mirrors
//! `src/compile/versions.rs`).

use super::*;

/// The plan's dependency list names, for every read of a live pass, the pass whose write it sees
/// (what the reference says), per subresource.
pub fn check_dependencies(s: Subject<'_, '_>, reference: &Reference) -> Result<(), String> {
    let (graph, plan) = (s.graph, s.plan);
    type Dep = (
        PassId,
        ResourceId,
        Subresource,
        &'static str,
        Option<PassId>,
    );
    let passes = graph.passes();
    let mut want: Vec<Dep> = Vec::new();
    for (obs, content) in &reference.expected {
        let Observation::Read {
            pass,
            kind,
            resource,
            sub,
        } = *obs
        else {
            continue;
        };
        let access = match kind {
            ReadKind::Attachment(slot) => {
                let a = attachments(passes.at(pass.index()))[slot as usize];
                let fallback = reference.fallback_clears.contains(&(pass, slot));
                if a.access == Access::Clear || fallback {
                    continue;
                }
                a.access.as_str()
            }
            ReadKind::Sample(_) => "sample",
            ReadKind::Input(_) => "input",
            ReadKind::StorageRead(_) => "storage_read",
            ReadKind::StorageReadWrite(_) => "storage_read_write",
            ReadKind::CopySrc(_) => "copy_src",
            ReadKind::Uniform(_) => "uniform",
            ReadKind::Vertex(_) => "vertex",
            ReadKind::Index(_) => "index",
            ReadKind::Indirect(_) => "indirect",
        };
        want.push((pass, resource, sub, access, content.writer()));
    }
    let live: Vec<bool> = plan.passes().iter().map(|p| !p.culled).collect();
    let mut got: Vec<Dep> = plan
        .dependencies()
        .iter()
        .filter(|d| live[d.to.index()])
        .map(|d| (d.to, d.resource, d.sub, d.access.as_str(), d.from))
        .collect();
    want.sort();
    got.sort();
    ensure!(
        got == want,
        "dependencies of live passes {got:?}, the reference reads {want:?}"
    );
    Ok(())
}

//! Attachment traffic of the plan and of the naive plan, and the traffic model of an order
//! (mirrors `src/compile/traffic.rs`).

use super::*;

/// Bytes the groups' attachments move (the guide): a load and a store (a read-only depth's by
/// the backend) move the attached subresource; a resolve moves the target's mip 0 of layer 0 (single-sampled).
pub fn group_bytes(graph: &RenderGraph<'_>, groups: &[tilegraph::plan::Group]) -> u64 {
    let mut total = 0;
    for a in groups.iter().flat_map(|g| g.attachments()) {
        let bytes = sub_bytes(graph, a.resource, a.sub);
        total += crate::minimal::op_bytes(a.load, a.store, bytes);
        // A read-only depth: wgpu-core hands Vulkan Load + Store, and the store counts.
        if a.read_only && a.store != StoreOp::Store {
            total += bytes;
        }
        if let Some(t) = a.resolve {
            total += sub_bytes(graph, t, BASE);
        }
    }
    total
}

pub fn check_traffic(s: Subject<'_, '_>, live: &[bool]) -> Result<(), String> {
    let (graph, plan) = (s.graph, s.plan);
    let t = plan.traffic();
    let planned = group_bytes(graph, plan.groups());
    let naive = group_bytes(graph, plan.naive_groups());
    ensure!(
        t.bytes_per_frame == planned,
        "traffic {} but the groups move {planned}",
        t.bytes_per_frame
    );
    ensure!(
        t.naive_bytes_per_frame == naive,
        "naive traffic {} but its groups move {naive}",
        t.naive_bytes_per_frame
    );
    ensure!(
        planned <= naive,
        "planned traffic {planned} exceeds naive {naive}"
    );
    ensure!(
        Some(t.bytes_per_second) == t.fps.per_second(planned),
        "bytes per second"
    );
    ensure!(
        Some(t.naive_bytes_per_second) == t.fps.per_second(naive),
        "naive bytes per second"
    );
    let sampled: u64 = graph
        .passes()
        .iter()
        .enumerate()
        .filter(|&(p, _)| live[p])
        .flat_map(|(_, pass)| pass.sample().iter().chain(pass.input()))
        .map(|&e| entry_bytes(graph, e))
        .sum();
    ensure!(
        t.sampled_bytes_per_frame == sampled,
        "sampled bytes {} want {sampled}",
        t.sampled_bytes_per_frame
    );
    Ok(())
}

/// The guide's groups and attachment bytes for running `order`, re-derived without the compiler:
/// `passes` are the declarations as the plan runs them, `reference` a reference of the passes
/// that run (copy tokens, folded writers). Passes join a group by the merge rule
/// (`expected_break`); each group attachment loads when the group's first access needs prior
/// contents that exist, stores when the group's last write of it is read in a later group or kept
/// after the frame, and adds the target's bytes when the group's last pass resolves it.
pub fn model_traffic(
    graph: &RenderGraph<'_>,
    passes: &Passes,
    reference: &Reference,
    order: &[PassId],
    options: &CompileOptions,
) -> (Vec<Vec<PassId>>, u64) {
    let mut groups: Vec<Vec<PassId>> = Vec::new();
    for &p in order {
        match groups.last_mut() {
            Some(g) if expected_break(graph, passes, reference, g, p, options).is_none() => {
                g.push(p)
            }
            _ => groups.push(vec![p]),
        }
    }
    let mut group_of = vec![usize::MAX; passes.len()];
    for (g, members) in groups.iter().enumerate() {
        for &p in members {
            group_of[p.index()] = g;
        }
    }
    let mut bytes = 0;
    for (g, members) in groups.iter().enumerate() {
        let (first, last) = (members[0], *members.last().unwrap());
        if passes.at(first.index()).kind() != PassKind::Render {
            continue;
        }
        for a in attachments(passes.at(first.index())) {
            let b = sub_bytes(graph, a.resource, a.sub);
            let reads = matches!(a.access, Access::Read | Access::ReadWrite);
            if reads && !reference.fallback_clears.contains(&(first, a.slot)) {
                bytes += b;
            }
            let writer = members.iter().rev().find(|&&q| {
                attachments(passes.at(q.index()))
                    .get(a.slot as usize)
                    .is_some_and(|x| x.access != Access::Read)
            });
            if let Some(&q) = writer {
                let content = Content::Written {
                    pass: q,
                    resource: a.resource,
                    sub: a.sub,
                };
                let needed = reference.expected.iter().any(|(obs, &c)| {
                    c == content
                        && match *obs {
                            Observation::Read { pass, .. } => group_of[pass.index()] > g,
                            Observation::FrameEnd(..) => true,
                        }
                });
                if needed {
                    bytes += b;
                }
            } else if a.is_depth && reads && !reference.fallback_clears.contains(&(first, a.slot)) {
                // A loaded depth nothing in the group writes: read-only (the backend stores
                // it) where a later group reads what it holds, the frame keeps it or the group
                // samples it; loaded and discarded otherwise.
                let loaded = attachment_read(reference, first, a.slot, a.resource, a.sub);
                let needed = loaded.is_some_and(|c| {
                    reference.expected.iter().any(|(obs, &e)| {
                        e == c
                            && match *obs {
                                Observation::Read { pass, .. } => group_of[pass.index()] > g,
                                Observation::FrameEnd(r, sub) => (r, sub) == (a.resource, a.sub),
                            }
                    })
                });
                let sampled = members.iter().any(|&q| {
                    let pass = passes.at(q.index());
                    (pass.sample().iter())
                        .chain(pass.input())
                        .any(|e| e.resource == a.resource)
                });
                if needed || sampled {
                    bytes += b;
                }
            }
            if let Some(t) = attachments(passes.at(last.index()))
                .get(a.slot as usize)
                .and_then(|x| x.resolve)
            {
                bytes += sub_bytes(graph, t, BASE);
            }
        }
    }
    (groups, bytes)
}

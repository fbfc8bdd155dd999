//! Resources: usages, lifetimes, physical textures, transients and usage scopes (mirrors
//! `src/compile/resources.rs`).

use super::*;

/// Every resource a pass touches, with the usage each touch needs.
pub fn uses(pass: PassRef<'_>) -> Vec<(ResourceId, TextureUsages)> {
    let mut out = Vec::new();
    for c in pass.color() {
        out.push((c.resource, TextureUsages::RENDER_ATTACHMENT));
        out.extend(c.resolve.map(|t| (t, TextureUsages::RENDER_ATTACHMENT)));
    }
    out.extend(
        pass.depth()
            .map(|d| (d.resource, TextureUsages::RENDER_ATTACHMENT)),
    );
    for e in pass.sample().iter().chain(pass.input()) {
        out.push((e.resource, TextureUsages::TEXTURE_BINDING));
    }
    for e in pass
        .storage_read()
        .iter()
        .chain(pass.storage_write())
        .chain(pass.storage_read_write())
    {
        out.push((e.resource, TextureUsages::STORAGE_BINDING));
    }
    out.extend(
        pass.copy_src()
            .iter()
            .map(|e| (e.resource, TextureUsages::COPY_SRC)),
    );
    out.extend(
        pass.copy_dst()
            .iter()
            .map(|e| (e.resource, TextureUsages::COPY_DST)),
    );
    // Buffers bound or uploaded: no texture usage (their own in `buffer_uses`).
    for e in buffer_only_lists(pass) {
        out.push((e.resource, TextureUsages::empty()));
    }
    out
}

fn buffer_only_lists(pass: PassRef<'_>) -> impl Iterator<Item = &Entry> {
    pass.uniform()
        .iter()
        .chain(pass.vertex())
        .chain(pass.index())
        .chain(pass.indirect())
        .chain(pass.upload())
}

/// Every buffer usage a pass's lists need.
pub fn buffer_uses(pass: PassRef<'_>) -> Vec<(ResourceId, BufferUsages)> {
    let lists = [
        (pass.storage_read(), BufferUsages::STORAGE),
        (pass.storage_write(), BufferUsages::STORAGE),
        (pass.storage_read_write(), BufferUsages::STORAGE),
        (pass.copy_src(), BufferUsages::COPY_SRC),
        (pass.copy_dst(), BufferUsages::COPY_DST),
        (pass.uniform(), BufferUsages::UNIFORM),
        (pass.vertex(), BufferUsages::VERTEX),
        (pass.index(), BufferUsages::INDEX),
        (pass.indirect(), BufferUsages::INDIRECT),
        (pass.upload(), BufferUsages::COPY_DST),
    ];
    lists
        .into_iter()
        .flat_map(|(list, u)| list.iter().map(move |e| (e.resource, u)))
        .collect()
}

/// A resource lives from the first to the last live group that uses any of its subresources.
/// `passes`: the declarations as the plan runs them; `runs[p]`: pass `p` runs (live, not folded).
pub fn check_lifetimes(s: Subject<'_, '_>, passes: &Passes, runs: &[bool]) -> Result<(), String> {
    let (graph, plan) = (s.graph, s.plan);
    let n = graph.resources().len();
    let mut span: Vec<Option<(usize, usize)>> = vec![None; n];
    let mut usage = vec![TextureUsages::empty(); n];
    let mut buffer_usage = vec![BufferUsages::empty(); n];
    for (p, pass) in passes.iter().enumerate().filter(|&(p, _)| runs[p]) {
        let g = plan.passes()[p]
            .group
            .expect("live passes are grouped")
            .index();
        for (r, u) in uses(pass) {
            let s = &mut span[r.index()];
            *s = Some(s.map_or((g, g), |(f, l)| (f.min(g), l.max(g))));
            usage[r.index()] |= u;
        }
        for (r, u) in buffer_uses(pass) {
            buffer_usage[r.index()] |= u;
        }
    }
    for (r, rp) in plan.resources().iter().enumerate() {
        let got = rp
            .first_group
            .zip(rp.last_group)
            .map(|(f, l)| (f.index(), l.index()));
        ensure!(
            got == span[r],
            "resource {r}: lifetime {got:?}, live uses span {:?}",
            span[r]
        );
        ensure!(rp.culled == span[r].is_none(), "resource {r}: culled flag");
        if let ResourceUsage::Texture(u) = rp.usage {
            ensure!(
                u.contains(usage[r]),
                "resource {r}: usage {u:?} lacks {:?}",
                usage[r]
            );
        }
        // A graph-owned buffer gets exactly what its live accesses need.
        if let ResourceUsage::Buffer(u) = rp.usage {
            ensure!(
                u == buffer_usage[r],
                "buffer {r}: usage {u:?}, its live accesses need {:?}",
                buffer_usage[r]
            );
        }
    }
    Ok(())
}

/// Physical textures are shared whole, by identical descriptors and usages, never by resources
/// whose lifetimes overlap.
pub fn check_physical(s: Subject<'_, '_>) -> Result<(), String> {
    let (graph, plan) = (s.graph, s.plan);
    let res = graph.resources();
    let mut members: BTreeMap<usize, Vec<ResourceId>> = BTreeMap::new();
    for (r, rp) in plan.resources().iter().enumerate() {
        let owned_live = !rp.culled && res[r].import.is_none();
        ensure!(
            rp.physical.is_some() == owned_live,
            "resource {r}: physical {:?} (owned and live: {owned_live})",
            rp.physical
        );
        if let Some(i) = rp.physical {
            members
                .entry(i.index())
                .or_default()
                .push(ResourceId::new(r));
        }
    }
    ensure!(
        members.len() == plan.physical().len(),
        "{} physical resources, {} used",
        plan.physical().len(),
        members.len()
    );
    for (i, phys) in plan.physical().iter().enumerate() {
        let mut listed = phys.resources.clone();
        listed.sort_unstable();
        ensure!(
            members.get(&i) == Some(&listed),
            "physical {i} lists {:?}",
            phys.resources
        );
        for &r in &listed {
            let rp = &plan.resources()[r.index()];
            ensure!(
                res[r.index()].kind == phys.kind && rp.usage == phys.usage,
                "resource {r} differs from its physical {i}"
            );
        }
        for (k, &a) in listed.iter().enumerate() {
            for &b in &listed[k + 1..] {
                let (pa, pb) = (&plan.resources()[a.index()], &plan.resources()[b.index()]);
                let overlap = pa.first_group <= pb.last_group && pb.first_group <= pa.last_group;
                ensure!(
                    !overlap,
                    "resources {a} and {b} share physical {i} with overlapping lifetimes"
                );
            }
        }
    }
    Ok(())
}

/// the guide: transient exactly when graph-owned, of one subresource, used only as an
/// attachment, in one group, cleared or ignored on entry and discarded on exit.
pub fn check_transients(s: Subject<'_, '_>, passes: &Passes) -> Result<(), String> {
    let (graph, plan, options) = (s.graph, s.plan, s.options);
    for (r, rp) in plan.resources().iter().enumerate() {
        let id = ResourceId::new(r);
        let decl = &graph.resources()[r];
        let one_subresource =
            matches!(decl.kind, ResourceKind::Texture(t) if t.mips == 1 && t.layers == 1);
        let mut entries = Vec::new();
        let mut other_use = false;
        for (g, group) in plan.groups().iter().enumerate() {
            for &p in &group.passes {
                let pass = passes.at(p.index());
                for (u, usage) in uses(pass) {
                    if u == id {
                        let attached = pass.color().iter().any(|c| c.resource == u)
                            || pass.depth().is_some_and(|d| d.resource == u);
                        other_use |= !attached || usage != TextureUsages::RENDER_ATTACHMENT;
                    }
                }
            }
            entries.extend(
                group
                    .color
                    .iter()
                    .chain(group.depth.iter())
                    .filter(|a| a.resource == id)
                    .map(|a| (g, a.clone())),
            );
        }
        let allowed = options.transient
            && decl.import.is_none()
            && one_subresource
            && !rp.culled
            && !other_use
            && entries.len() == 1
            && matches!(entries[0].1.load, LoadOp::Clear(_) | LoadOp::DontCare)
            && entries[0].1.store == StoreOp::Discard;
        ensure!(
            rp.transient == allowed,
            "resource {r}: transient {} but the guide says {allowed}",
            rp.transient
        );
        if let ResourceUsage::Texture(u) = rp.usage {
            ensure!(
                u.contains(TextureUsages::TRANSIENT_ATTACHMENT) == rp.transient,
                "resource {r}: TRANSIENT_ATTACHMENT usage and transient flag disagree"
            );
        }
    }
    Ok(())
}

/// The subresources a pass binds for a shader (sample, input, storage).
pub(super) fn bound_keys(graph: &RenderGraph<'_>, pass: PassRef<'_>) -> Vec<Key> {
    pass.sample()
        .iter()
        .chain(pass.input())
        .chain(pass.storage_read())
        .chain(pass.storage_write())
        .chain(pass.storage_read_write())
        .flat_map(|&e| keys(graph, e))
        .collect()
}

/// wgpu validates one render pass as one usage scope, per subresource: a subresource bound for
/// sampling, input or storage there cannot also be a written attachment or resolve target of the
/// pass (a read-only depth may be sampled; another mip or layer of an attached texture may be).
pub fn check_usage_scopes(s: Subject<'_, '_>, passes: &Passes) -> Result<(), String> {
    let (graph, plan) = (s.graph, s.plan);
    for (g, group) in plan
        .groups()
        .iter()
        .enumerate()
        .filter(|(_, g)| g.kind == PassKind::Render)
    {
        let mut written: BTreeSet<Key> = group.color.iter().map(|a| (a.resource, a.sub)).collect();
        written.extend(
            interp::group_attachments(group)
                .into_iter()
                .filter_map(|(a, sub)| a.resolve.map(|t| (t, sub))),
        );
        written.extend(
            group
                .depth
                .iter()
                .chain(&group.depth_views)
                .filter(|d| !d.read_only)
                .map(|d| (d.resource, d.sub)),
        );
        for &p in &group.passes {
            let pass = passes.at(p.index());
            for key in bound_keys(graph, pass) {
                ensure!(
                    !written.contains(&key),
                    "group {g}: pass {p} binds {key:?}, which the group's render pass writes as an attachment"
                );
            }
        }
    }
    Ok(())
}

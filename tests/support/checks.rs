//! The properties every compiled plan must have, shared by the random and the regression tests.

use std::collections::BTreeMap;

use tilegraph::plan::ResourceUsage;
use tilegraph::wgpu::{TextureFormat, TextureUsages};
use tilegraph::{
    Access, CompileOptions, CompiledGraph, LoadOp, PassKind, RenderGraph, ResourceKind, StoreOp,
};

use super::interp::{Memory, execute_and_compare, reference};
use super::minimal::search_cheaper;

pub const DOCUMENTED_KINDS: [&str; 10] = [
    "invalid_description",
    "unknown_resource",
    "duplicate_name",
    "read_before_write",
    "feedback",
    "size_mismatch",
    "sample_count_mismatch",
    "format_mismatch",
    "resolve_mismatch",
    "invalid_access",
];

/// What the checks saw, printed at the end of each property.
#[derive(Default, Debug)]
pub struct Tally {
    pub graphs: u64,
    pub compiled: u64,
    pub errors: BTreeMap<&'static str, u64>,
    /// The last message of each error kind, to see what the generator gets wrong.
    pub error_examples: BTreeMap<&'static str, String>,
    pub groups: u64,
    pub merged_groups: u64,
    pub culled_passes: u64,
    pub transients: u64,
    pub shared_physical: u64,
    pub minimality_resources: u64,
    pub minimality_leaves: u64,
}

/// DESIGN §5's texel bytes for the formats the generator uses (kept apart from the crate's table).
pub fn texel_bytes(format: TextureFormat) -> u64 {
    match format {
        TextureFormat::Rgba8Unorm
        | TextureFormat::Bgra8Unorm
        | TextureFormat::Rgb10a2Unorm
        | TextureFormat::R32Float => 4,
        TextureFormat::Rgba16Float => 8,
        TextureFormat::Rgba32Float => 16,
        TextureFormat::Depth32Float | TextureFormat::Depth24Plus => 4,
        TextureFormat::Depth24PlusStencil8 => 4,
        TextureFormat::Depth16Unorm => 2,
        TextureFormat::Depth32FloatStencil8 => 8,
        other => panic!("the generator does not use {other:?}"),
    }
}

pub fn resource_bytes(graph: &RenderGraph<'_>, r: u32) -> u64 {
    match graph.resources()[r as usize].kind {
        ResourceKind::Texture(t) => {
            u64::from(t.width)
                * u64::from(t.height)
                * u64::from(t.layers)
                * u64::from(t.samples)
                * texel_bytes(t.format)
        }
        ResourceKind::Buffer(b) => b.size,
    }
}

pub fn options_from(bits: u8) -> CompileOptions {
    let mut options = CompileOptions::default();
    if bits & 1 != 0 {
        // SAFETY: plans are checked by the interpreter only, never executed on a device.
        options = options.with_dont_care(unsafe { tilegraph::wgpu::LoadOpDontCare::enabled() });
    }
    // The kill switches are rarer: most cases exercise the full compiler.
    if bits & 0b1110 == 0b0010 {
        options.merge = false;
    }
    if bits & 0b1110 == 0b0100 {
        options.alias = false;
    }
    if bits & 0b1110 == 0b0110 {
        options.transient = false;
    }
    if bits & 0b1110 == 0b1000 {
        options.cull = false;
    }
    options
}

macro_rules! ensure {
    ($cond:expr, $($msg:tt)+) => {
        if !$cond {
            return Err(format!($($msg)+));
        }
    };
}

/// Every property but minimality, for one graph description. `Ok(None)` when it does not compile.
pub fn check_graph(
    json: &str,
    options: &CompileOptions,
    tally: &mut Tally,
) -> Result<Option<(RenderGraph<'static>, CompiledGraph)>, String> {
    tally.graphs += 1;
    let graph =
        RenderGraph::from_json(json).map_err(|e| format!("generated description rejected: {e}"))?;
    // Validation covers the whole declared graph (DESIGN §2): the outcome cannot depend on what
    // the options switch off, culling included.
    let mut bare = CompileOptions::default();
    (bare.cull, bare.merge, bare.transient, bare.alias) = (false, false, false, false);
    let outcome = graph.compile(options);
    let bare_kind = graph.compile(&bare).err().map(|e| e.kind().as_str());
    ensure!(
        outcome.as_ref().err().map(|e| e.kind().as_str()) == bare_kind,
        "compiling with {options:?} gives {:?}, with every optimisation off {bare_kind:?}",
        outcome.as_ref().err()
    );
    let plan = match outcome {
        Ok(plan) => plan,
        Err(e) => {
            let kind = e.kind().as_str();
            ensure!(
                DOCUMENTED_KINDS.contains(&kind),
                "undocumented error kind {kind}: {e}"
            );
            *tally.errors.entry(kind).or_default() += 1;
            tally.error_examples.insert(kind, e.to_string());
            return Ok(None);
        }
    };
    tally.compiled += 1;
    check_determinism(&graph, &plan, options)?;
    check_structure(&graph, &plan, options)?;
    let live: Vec<bool> = plan.passes().iter().map(|p| !p.culled).collect();
    let reference = reference(&graph, &live)?;
    let planned = execute_and_compare(
        &graph,
        &plan,
        plan.groups(),
        Memory::Planned,
        &reference,
        false,
    );
    ensure!(
        planned.is_empty(),
        "planned execution differs from the declared semantics:\n  {}",
        planned.join("\n  ")
    );
    let naive = execute_and_compare(
        &graph,
        &plan,
        plan.naive_groups(),
        Memory::Separate,
        &reference,
        true,
    );
    ensure!(
        naive.is_empty(),
        "naive execution differs from the declared semantics:\n  {}",
        naive.join("\n  ")
    );
    check_naive_groups(&graph, &plan, &live)?;
    check_traffic(&graph, &plan, &live)?;
    check_lifetimes(&graph, &plan, &live)?;
    check_physical(&graph, &plan)?;
    check_transients(&graph, &plan, options)?;
    check_usage_scopes(&graph, &plan)?;
    check_boundaries(&graph, &reference, &plan, options)?;
    tally.groups += plan.groups().len() as u64;
    tally.merged_groups += plan.groups().iter().filter(|g| g.passes.len() > 1).count() as u64;
    tally.culled_passes += live.iter().filter(|l| !**l).count() as u64;
    tally.transients += plan.resources().iter().filter(|r| r.transient).count() as u64;
    tally.shared_physical += plan
        .physical()
        .iter()
        .filter(|p| p.resources.len() > 1)
        .count() as u64;
    Ok(Some((graph, plan)))
}

pub fn check_determinism(
    graph: &RenderGraph<'_>,
    plan: &CompiledGraph,
    options: &CompileOptions,
) -> Result<(), String> {
    let json = plan.to_json();
    let again = graph
        .compile(options)
        .map_err(|e| format!("second compile failed: {e}"))?;
    ensure!(again.to_json() == json, "two compiles of one graph differ");
    let reloaded = RenderGraph::from_json(&graph.to_json())
        .map_err(|e| format!("round trip rejected: {e}"))?;
    ensure!(
        reloaded.fingerprint() == graph.fingerprint(),
        "fingerprint changed across a round trip"
    );
    let replan = reloaded
        .compile(options)
        .map_err(|e| format!("round trip does not compile: {e}"))?;
    ensure!(
        replan.to_json() == json,
        "plan changed across a round trip:\n{}\n---\n{}",
        json,
        replan.to_json()
    );
    serde_json::from_str::<serde_json::Value>(&json).map_err(|e| format!("plan JSON: {e}"))?;
    Ok(())
}

pub fn check_structure(
    graph: &RenderGraph<'_>,
    plan: &CompiledGraph,
    options: &CompileOptions,
) -> Result<(), String> {
    let passes = graph.passes();
    let mut seen = vec![None; passes.len()];
    let mut previous = None;
    for (g, group) in plan.groups().iter().enumerate() {
        ensure!(!group.passes.is_empty(), "group {g} is empty");
        for &p in &group.passes {
            ensure!(seen[p as usize].is_none(), "pass {p} is in two groups");
            ensure!(
                previous < Some(p),
                "group {g} breaks declaration order at pass {p}"
            );
            previous = Some(p);
            seen[p as usize] = Some(g as u32);
            ensure!(
                passes[p as usize].kind == group.kind,
                "pass {p} is not of its group's type"
            );
        }
        if group.kind != PassKind::Render {
            ensure!(
                group.passes.len() == 1,
                "{:?} group {g} holds several passes",
                group.kind
            );
            ensure!(
                group.color.is_empty() && group.depth.is_none(),
                "{:?} group {g} has attachments",
                group.kind
            );
        }
        if let Some(d) = &group.depth {
            let reads_only = group.passes.iter().all(|&p| {
                passes[p as usize]
                    .depth
                    .is_some_and(|d| d.access == Access::Read)
            });
            ensure!(
                d.read_only == (d.store == StoreOp::None),
                "group {g}: read_only and store none disagree"
            );
            if d.read_only {
                ensure!(
                    reads_only && d.load == LoadOp::Load,
                    "group {g}: read-only depth that is written or not loaded"
                );
            }
        }
        for a in &group.color {
            ensure!(
                a.store != StoreOp::None,
                "group {g}: colour attachment with store none"
            );
        }
    }
    for (p, pp) in plan.passes().iter().enumerate() {
        ensure!(
            pp.group == seen[p],
            "pass {p}: plan says group {:?}, groups say {:?}",
            pp.group,
            seen[p]
        );
        ensure!(
            pp.culled == seen[p].is_none(),
            "pass {p}: culled and grouped disagree"
        );
        if passes[p].side_effects || !options.cull {
            ensure!(
                !pp.culled,
                "pass {p} must stay: side effects or culling off"
            );
        }
    }
    Ok(())
}

pub fn check_naive_groups(
    graph: &RenderGraph<'_>,
    plan: &CompiledGraph,
    live: &[bool],
) -> Result<(), String> {
    let live_passes: Vec<u32> = (0..live.len() as u32)
        .filter(|&p| live[p as usize])
        .collect();
    let naive = plan.naive_groups();
    ensure!(
        naive.len() == live_passes.len(),
        "naive plan: {} groups for {} live passes",
        naive.len(),
        live_passes.len()
    );
    for (group, &p) in naive.iter().zip(&live_passes) {
        ensure!(
            group.passes == [p],
            "naive plan: group of {:?}, want [{p}]",
            group.passes
        );
        let pass = &graph.passes()[p as usize];
        let accesses: Vec<Access> = pass
            .color
            .iter()
            .map(|c| c.access)
            .chain(pass.depth.map(|d| d.access))
            .collect();
        let plans: Vec<_> = group.color.iter().chain(group.depth.iter()).collect();
        ensure!(
            plans.len() == accesses.len(),
            "naive plan: pass {p} attachments"
        );
        for (a, access) in plans.iter().zip(accesses) {
            let clear = matches!(a.load, LoadOp::Clear(_));
            ensure!(
                clear == (access == Access::Clear) && (clear || a.load == LoadOp::Load),
                "naive plan: pass {p} load {:?} for {access:?}",
                a.load
            );
            ensure!(
                a.store == StoreOp::Store,
                "naive plan: pass {p} does not store"
            );
        }
        let declared: Vec<_> = pass.color.iter().map(|c| c.resolve).collect();
        let resolves: Vec<_> = group.color.iter().map(|c| c.resolve).collect();
        ensure!(declared == resolves, "naive plan: pass {p} resolves differ");
    }
    Ok(())
}

pub fn group_bytes(graph: &RenderGraph<'_>, groups: &[tilegraph::Group]) -> u64 {
    let mut total = 0;
    for a in groups
        .iter()
        .flat_map(|g| g.color.iter().chain(g.depth.iter()))
    {
        let bytes = resource_bytes(graph, a.resource);
        total += super::minimal::op_bytes(a.load, a.store, bytes);
        if let Some(t) = a.resolve {
            total += resource_bytes(graph, t);
        }
    }
    total
}

pub fn check_traffic(
    graph: &RenderGraph<'_>,
    plan: &CompiledGraph,
    live: &[bool],
) -> Result<(), String> {
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
        t.bytes_per_second == planned * u64::from(t.fps),
        "bytes per second"
    );
    ensure!(
        t.naive_bytes_per_second == naive * u64::from(t.fps),
        "naive bytes per second"
    );
    let sampled: u64 = graph
        .passes()
        .iter()
        .enumerate()
        .filter(|&(p, _)| live[p])
        .flat_map(|(_, pass)| pass.sample.iter().chain(&pass.input))
        .map(|&r| resource_bytes(graph, r))
        .sum();
    ensure!(
        t.sampled_bytes_per_frame == sampled,
        "sampled bytes {} want {sampled}",
        t.sampled_bytes_per_frame
    );
    Ok(())
}

/// Every resource a pass touches, with the usage each touch needs.
pub fn uses(pass: &tilegraph::declare::PassDecl) -> Vec<(u32, TextureUsages)> {
    let mut out = Vec::new();
    for c in &pass.color {
        out.push((c.resource, TextureUsages::RENDER_ATTACHMENT));
        out.extend(c.resolve.map(|t| (t, TextureUsages::RENDER_ATTACHMENT)));
    }
    out.extend(
        pass.depth
            .map(|d| (d.resource, TextureUsages::RENDER_ATTACHMENT)),
    );
    for &r in pass.sample.iter().chain(&pass.input) {
        out.push((r, TextureUsages::TEXTURE_BINDING));
    }
    for &r in pass
        .storage_read
        .iter()
        .chain(&pass.storage_write)
        .chain(&pass.storage_read_write)
    {
        out.push((r, TextureUsages::STORAGE_BINDING));
    }
    out.extend(pass.copy_src.iter().map(|&r| (r, TextureUsages::COPY_SRC)));
    out.extend(pass.copy_dst.iter().map(|&r| (r, TextureUsages::COPY_DST)));
    out
}

pub fn check_lifetimes(
    graph: &RenderGraph<'_>,
    plan: &CompiledGraph,
    live: &[bool],
) -> Result<(), String> {
    let n = graph.resources().len();
    let mut span: Vec<Option<(u32, u32)>> = vec![None; n];
    let mut usage = vec![TextureUsages::empty(); n];
    for (p, pass) in graph.passes().iter().enumerate().filter(|&(p, _)| live[p]) {
        let g = plan.passes()[p].group.expect("live passes are grouped");
        for (r, u) in uses(pass) {
            let s = &mut span[r as usize];
            *s = Some(s.map_or((g, g), |(f, l)| (f.min(g), l.max(g))));
            usage[r as usize] |= u;
        }
    }
    for (r, rp) in plan.resources().iter().enumerate() {
        let got = rp.first_group.zip(rp.last_group);
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
    }
    Ok(())
}

pub fn check_physical(graph: &RenderGraph<'_>, plan: &CompiledGraph) -> Result<(), String> {
    let res = graph.resources();
    let mut members: BTreeMap<u32, Vec<u32>> = BTreeMap::new();
    for (r, rp) in plan.resources().iter().enumerate() {
        let owned_live = !rp.culled && res[r].import.is_none();
        ensure!(
            rp.physical.is_some() == owned_live,
            "resource {r}: physical {:?} (owned and live: {owned_live})",
            rp.physical
        );
        if let Some(i) = rp.physical {
            members.entry(i).or_default().push(r as u32);
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
            members.get(&(i as u32)) == Some(&listed),
            "physical {i} lists {:?}",
            phys.resources
        );
        for &r in &listed {
            let rp = &plan.resources()[r as usize];
            ensure!(
                res[r as usize].kind == phys.kind && rp.usage == phys.usage,
                "resource {r} differs from its physical {i}"
            );
        }
        for (k, &a) in listed.iter().enumerate() {
            for &b in &listed[k + 1..] {
                let (pa, pb) = (&plan.resources()[a as usize], &plan.resources()[b as usize]);
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

pub fn check_transients(
    graph: &RenderGraph<'_>,
    plan: &CompiledGraph,
    options: &CompileOptions,
) -> Result<(), String> {
    for (r, rp) in plan.resources().iter().enumerate() {
        let decl = &graph.resources()[r];
        let mut entries = Vec::new();
        let mut other_use = false;
        for (g, group) in plan.groups().iter().enumerate() {
            for &p in &group.passes {
                let pass = &graph.passes()[p as usize];
                for (u, usage) in uses(pass) {
                    if u == r as u32 {
                        let attached = pass.color.iter().any(|c| c.resource == u)
                            || pass.depth.is_some_and(|d| d.resource == u);
                        other_use |= !attached || usage != TextureUsages::RENDER_ATTACHMENT;
                    }
                }
            }
            entries.extend(
                group
                    .color
                    .iter()
                    .chain(group.depth.iter())
                    .filter(|a| a.resource == r as u32)
                    .map(|a| (g, a.clone())),
            );
        }
        let allowed = options.transient
            && decl.import.is_none()
            && !rp.culled
            && !other_use
            && entries.len() == 1
            && matches!(entries[0].1.load, LoadOp::Clear(_) | LoadOp::DontCare)
            && entries[0].1.store == StoreOp::Discard;
        ensure!(
            rp.transient == allowed,
            "resource {r}: transient {} but DESIGN §2 says {allowed}",
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

/// wgpu validates one render pass as one usage scope: a texture bound for sampling, input or
/// storage there cannot also be a written attachment of the pass (a read-only depth may be sampled).
pub fn check_usage_scopes(graph: &RenderGraph<'_>, plan: &CompiledGraph) -> Result<(), String> {
    for (g, group) in plan
        .groups()
        .iter()
        .enumerate()
        .filter(|(_, g)| g.kind == PassKind::Render)
    {
        let mut written: Vec<u32> = group.color.iter().map(|a| a.resource).collect();
        written.extend(group.color.iter().filter_map(|a| a.resolve));
        written.extend(
            group
                .depth
                .iter()
                .filter(|d| !d.read_only)
                .map(|d| d.resource),
        );
        for &p in &group.passes {
            let pass = &graph.passes()[p as usize];
            for &r in pass
                .sample
                .iter()
                .chain(&pass.input)
                .chain(&pass.storage_read)
                .chain(&pass.storage_write)
                .chain(&pass.storage_read_write)
            {
                ensure!(
                    !written.contains(&r),
                    "group {g}: pass {p} binds resource {r}, which the group's render pass writes as an attachment"
                );
            }
        }
    }
    Ok(())
}

pub fn check_minimal(
    graph: &RenderGraph<'_>,
    plan: &CompiledGraph,
    options: &CompileOptions,
    tally: &mut Tally,
) -> Result<(), String> {
    let live: Vec<bool> = plan.passes().iter().map(|p| !p.culled).collect();
    let reference = reference(graph, &live)?;
    let attached: std::collections::BTreeSet<u32> = plan
        .groups()
        .iter()
        .flat_map(|g| g.color.iter().chain(g.depth.iter()).map(|a| a.resource))
        .collect();
    for r in attached {
        let found = search_cheaper(
            graph,
            plan,
            &reference,
            r,
            resource_bytes(graph, r),
            options.dont_care.is_some(),
        );
        tally.minimality_resources += 1;
        tally.minimality_leaves += found.leaves;
        if let Some((bytes, choices)) = found.cheaper {
            return Err(format!(
                "resource {r}: the compiler's ops move {} bytes, but {choices:?} moves {bytes} and every read still sees the right version",
                found.compiled
            ));
        }
    }
    Ok(())
}

/// Why `next` may not join a group of `members` (DESIGN §2's merge rule and boundary order, then
/// the compiler's documented additions), or `None` when it must join.
fn expected_boundary(
    graph: &RenderGraph<'_>,
    reference: &super::interp::Reference,
    members: &[u32],
    next: u32,
    options: &CompileOptions,
) -> Option<&'static str> {
    let passes = graph.passes();
    let next = &passes[next as usize];
    let first = &passes[members[0] as usize];
    if first.kind != PassKind::Render || next.kind != PassKind::Render {
        return Some("not_render");
    }
    let mut written = Vec::new();
    let mut bound = Vec::new();
    for &m in members {
        let p = &passes[m as usize];
        written.extend(p.color.iter().map(|c| c.resource));
        written.extend(p.color.iter().filter_map(|c| c.resolve));
        // A `read` of a depth with no contents clears it: the clear is written contents.
        let depth_slot = p.color.len() as u32;
        written.extend(
            p.depth
                .filter(|d| {
                    d.access != Access::Read || reference.fallback_clears.contains(&(m, depth_slot))
                })
                .map(|d| d.resource),
        );
        written.extend(p.storage_write.iter().chain(&p.storage_read_write));
        bound.extend(
            p.sample
                .iter()
                .chain(&p.input)
                .chain(&p.storage_read)
                .chain(&p.storage_write)
                .chain(&p.storage_read_write),
        );
    }
    let any_written = |list: &[u32]| list.iter().any(|r| written.contains(r));
    if any_written(&next.sample)
        || any_written(&next.storage_read)
        || any_written(&next.storage_read_write)
    {
        return Some("samples_group_output");
    }
    if any_written(&next.input) {
        return Some("inputs_group_output");
    }
    let slots = |p: &tilegraph::declare::PassDecl| {
        let mut s: Vec<u32> = p.color.iter().map(|c| c.resource).collect();
        s.push(p.depth.map_or(u32::MAX, |d| d.resource));
        s
    };
    if slots(first) != slots(next) {
        return Some("attachments_differ");
    }
    let clears = next.color.iter().any(|c| c.access == Access::Clear)
        || next.depth.is_some_and(|d| d.access == Access::Clear);
    if clears {
        return Some("clears_group_attachment");
    }
    let resolved = members
        .iter()
        .any(|&m| passes[m as usize].color.iter().any(|c| c.resolve.is_some()));
    if resolved {
        return Some("resolve");
    }
    let touched = |list: &[u32]| {
        list.iter()
            .any(|r| bound.contains(r) || written.contains(r))
    };
    if touched(&next.storage_write) || touched(&next.storage_read_write) {
        return Some("storage_hazard");
    }
    let writes_bound = next
        .color
        .iter()
        .filter_map(|c| c.resolve)
        .chain(
            next.depth
                .filter(|d| d.access != Access::Read)
                .map(|d| d.resource),
        )
        .any(|r| bound.contains(&r));
    if writes_bound {
        return Some("writes_bound_texture");
    }
    if !options.merge {
        return Some("merging_disabled");
    }
    None
}

/// Every group ends for the first reason that applies, and never when none does: the compiler
/// merges as much as DESIGN §2 allows, and explains each boundary truthfully.
pub fn check_boundaries(
    graph: &RenderGraph<'_>,
    reference: &super::interp::Reference,
    plan: &CompiledGraph,
    options: &CompileOptions,
) -> Result<(), String> {
    let groups = plan.groups();
    for (g, group) in groups.iter().enumerate() {
        for (k, &p) in group.passes.iter().enumerate().skip(1) {
            let why = expected_boundary(graph, reference, &group.passes[..k], p, options);
            ensure!(
                why.is_none(),
                "group {g}: pass {p} joined although {why:?} applies"
            );
        }
        let want = match groups.get(g + 1) {
            None => Some("end_of_graph"),
            Some(next) => {
                expected_boundary(graph, reference, &group.passes, next.passes[0], options)
            }
        };
        ensure!(
            want == Some(group.boundary.as_str()),
            "group {g} ends with {:?}, DESIGN §2 gives {want:?}",
            group.boundary.as_str()
        );
    }
    Ok(())
}

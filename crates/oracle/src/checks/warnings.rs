//! Warnings, re-derived from the ops (mirrors `src/compile/warnings.rs`).

use super::*;

/// the guide's fast-clear values.
fn is_fast(value: ClearValue) -> bool {
    const FAST: [[f64; 4]; 4] = [
        [0.0, 0.0, 0.0, 0.0],
        [0.0, 0.0, 0.0, 1.0],
        [1.0, 1.0, 1.0, 0.0],
        [1.0, 1.0, 1.0, 1.0],
    ];
    match value {
        ClearValue::Color(c) => FAST.contains(&c),
        ClearValue::Depth(d) => d == 0.0 || d == 1.0,
        ClearValue::DepthStencil { depth, stencil } => {
            (depth == 0.0 || depth == 1.0) && stencil == 0
        }
    }
}

/// Warnings, re-derived from the (already checked) ops: `slow_clear_value` for each slow clear of
/// an attachment that is not transient and that its group does not discard (a clear that reaches
/// memory), `clear_for_write` once per resource whose `write` pays a
/// clear without the `DontCare` token, `msaa_stored` for each stored multisampled attachment; each
/// naming the group's first pass.
pub fn check_warnings(s: Subject<'_, '_>) -> Result<(), String> {
    let (graph, plan, options) = (s.graph, s.plan, s.options);
    type Said = (&'static str, Option<PassId>, Option<ResourceId>);
    let mut want: Vec<Said> = Vec::new();
    let mut clear_for_write = BTreeSet::new();
    for group in plan.groups() {
        let pass = Some(group.passes[0]);
        let n = group.multiview.unwrap_or(1).max(1) as usize;
        for a in group.color.iter().step_by(n).chain(group.depth.iter()) {
            let r = a.resource;
            if let LoadOp::Clear(value) = a.load {
                if !is_fast(value)
                    && !plan.resources()[r.index()].transient
                    && a.store != StoreOp::Discard
                {
                    want.push(("slow_clear_value", pass, Some(r)));
                }
                if a.load_reason == LoadReason::Overwritten
                    && options.dont_care.is_none()
                    && clear_for_write.insert(r)
                {
                    want.push(("clear_for_write", pass, Some(r)));
                }
            }
            let samples = match graph.resources()[r.index()].kind {
                ResourceKind::Texture(t) => t.samples,
                ResourceKind::Buffer(_) => 1,
            };
            if samples > 1 && a.store == StoreOp::Store {
                want.push(("msaa_stored", pass, Some(r)));
            }
        }
    }
    let mut got: Vec<Said> = Vec::new();
    for w in plan.warnings() {
        let kind = match w.kind {
            WarningKind::SlowClearValue => "slow_clear_value",
            WarningKind::ClearForWrite => "clear_for_write",
            WarningKind::MsaaStored => "msaa_stored",
            other => return Err(format!("unexpected warning kind {other:?}")),
        };
        ensure!(
            w.kind.as_str() == kind,
            "warning kind {:?} prints as {}",
            w.kind,
            w.kind.as_str()
        );
        got.push((kind, w.pass, w.resource));
    }
    want.sort();
    got.sort();
    ensure!(got == want, "warnings {got:?}, want {want:?}");
    Ok(())
}

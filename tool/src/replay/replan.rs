//! The replanned replay's ops: per attachment of every render pass, what `tilegraph trace`
//! proves in place of what the app recorded. Only loads, stores and resolves change; where the
//! plan keeps an attachment on tile between passes it would merge (`tile`) or culls the pass,
//! the replay keeps the app's op, as it neither merges nor culls.

use std::collections::HashMap;

use tilegraph::ClearValue;

use crate::trace::{Report, Row};

/// A load the replanned replay uses.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum NewLoad {
    Clear(ClearValue),
    Load,
    DontCare,
}

/// What the replanned replay changes on one attachment; `None` keeps the app's op.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub(crate) struct NewOps {
    pub load: Option<NewLoad>,
    /// `true`: store; `false`: discard.
    pub store: Option<bool>,
    /// Drop the resolve: nothing reads the resolved texture.
    pub drop_resolve: bool,
}

/// Where an attachment is: the `Submit` action, the render pass's place among its render
/// passes, the colour attachment's place (`None`: depth-stencil).
pub(crate) type At = (usize, usize, Option<usize>);

/// The replanned ops of every attachment that changes.
pub(crate) type Plan = HashMap<At, NewOps>;

/// How many of the app's ops the replanned replay changes.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Changes {
    /// Loads changed (a load that becomes a clear or don't-care).
    pub loads: usize,
    /// Stores changed (a store that becomes a discard).
    pub stores: usize,
    /// Resolves dropped.
    pub resolves: usize,
}

/// The proven ops of every row of the report; with `discard_store` (`PASS/RESOURCE`), that
/// attachment's store turned into a discard as well (a deliberately wrong replan). `None` where
/// `discard_store` names no attachment of the report.
pub(crate) fn proven(report: &Report, discard_store: Option<&str>) -> Option<(Plan, Changes)> {
    let mut plan = Plan::new();
    let mut changes = Changes::default();
    let mut named = discard_store.is_none();
    for row in report.frames.iter().flat_map(|f| &f.rows) {
        let mut ops = new_ops(row);
        if discard_store == Some(format!("{}/{}", row.pass, row.resource).as_str()) {
            named = true;
            if row.app.store == "store" {
                ops.store = Some(false);
            }
        }
        changes.loads += usize::from(ops.load.is_some_and(|l| load_name(l) != row.app.load));
        changes.stores += usize::from(ops.store == Some(false) && row.app.store == "store");
        changes.resolves += usize::from(ops.drop_resolve);
        if ops != NewOps::default() {
            plan.insert(row.at, ops);
        }
    }
    named.then_some((plan, changes))
}

/// One row's proven ops, where they differ from the app's.
fn new_ops(row: &Row) -> NewOps {
    let mut ops = NewOps::default();
    if row.app.load != "read_only" {
        let load = match row.plan.load {
            "clear" => row.plan_clear.map(NewLoad::Clear),
            "load" => Some(NewLoad::Load),
            "dont_care" => Some(NewLoad::DontCare),
            // `tile` (kept on tile in a merged group), `culled`: the app's op.
            _ => None,
        };
        ops.load = load.filter(|&l| load_name(l) != row.app.load || row.app.load == "clear");
    }
    if row.app.store != "none" {
        ops.store = match (row.app.store, row.plan.store) {
            ("store", "discard") => Some(false),
            ("discard", "store") => Some(true),
            _ => None,
        };
    }
    // A resolve at the end of the plan's group that the plan leaves out: nothing reads it.
    let at_end = !matches!(row.plan.store, "tile" | "culled");
    ops.drop_resolve = row.app.resolve && !row.plan.resolve && at_end;
    ops
}

fn load_name(load: NewLoad) -> &'static str {
    match load {
        NewLoad::Clear(_) => "clear",
        NewLoad::Load => "load",
        NewLoad::DontCare => "dont_care",
    }
}

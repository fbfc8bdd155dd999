//! Step 12: limits: that the plan fits the caller's device limits, if given.

use crate::error::GraphError;
use crate::plan::CompiledGraph;

/// That no live pass needs more than the caller's device limits
/// ([`CompileOptions::with_limits`](crate::CompileOptions::with_limits)); the first declared pass over one is the error.
pub(super) fn check_limits(plan: &CompiledGraph) -> Result<(), GraphError> {
    let Some(given) = &plan.options.limits else {
        return Ok(());
    };
    match plan.first_pass_over(given) {
        None => Ok(()),
        Some(excess) => Err(GraphError::ExceedsLimit {
            pass: plan.pass_name(excess.pass).to_owned(),
            resource: excess.resource.map(|r| plan.resource_name(r).to_owned()),
            limit: excess.limit,
            needed: excess.needed,
            given: excess.given,
            detail: plan.describe_excess(&excess),
        }),
    }
}

//! What the executor would create, checked against the device's limits before anything is
//! allocated, so that a too-large resource is a typed error instead of a wgpu panic.

use super::ExecuteError;
use super::lower::ExecGroup;
use crate::decl::resource::{ResourceDecl, ResourceKind};
use crate::ids::ResourceId;
use crate::plan::{CompiledGraph, Shortfall};

/// Checks what the executor creates for `plan` — graph-owned textures and buffers — against
/// the device's limits. (History textures, imports to the plan, are checked each frame by
/// [`check_histories`].)
pub(super) fn check_limits(
    plan: &CompiledGraph,
    limits: &wgpu::Limits,
) -> Result<(), ExecuteError> {
    for (r, resource) in plan.resources().iter().enumerate() {
        let decl = plan.resource_decl(ResourceId::new(r));
        if !resource.culled && decl.import.is_none() {
            check_resource(decl, limits)?;
        }
    }
    Ok(())
}

/// Checks that `device` has every feature, limit and downlevel flag recording `plan` needs
/// (`downlevel`: the adapter's flags where the caller gave them, else those
/// [`Quirks`](super::Quirks) assumes), naming the first declared pass
/// that needs what is missing. The multiview count is not needed: without it multiview passes
/// record per view.
pub(super) fn check_requirements(
    plan: &CompiledGraph,
    device: &wgpu::Device,
    downlevel: wgpu::DownlevelFlags,
) -> Result<(), ExecuteError> {
    let shortfall = plan.device_shortfall(device.features(), &device.limits(), downlevel);
    let name = |p| plan.pass_name(p).to_owned();
    match shortfall {
        None => Ok(()),
        Some(Shortfall::Features(p, missing)) => Err(ExecuteError::MissingFeatures {
            pass: name(p),
            missing,
        }),
        Some(Shortfall::DownlevelFlags(p, missing)) => Err(ExecuteError::MissingDownlevelFlags {
            pass: name(p),
            missing,
        }),
        Some(Shortfall::Limit(excess)) => {
            // A texture or buffer too large is named as such (history textures, imports).
            if let Some(r) = excess.resource {
                check_resource(plan.resource_decl(r), &device.limits())?;
            }
            Err(ExecuteError::PassExceedsDeviceLimit {
                pass: name(excess.pass),
                limit: excess.limit,
                needed: excess.needed,
                max: excess.given,
                detail: plan.describe_excess(&excess),
            })
        }
    }
}

/// Says, in one log line, that `plan`'s multiview passes are recorded one render pass per
/// view, and why; nothing when they are recorded as multiview or the caller turned it off.
pub(super) fn note_multiview(plan: &CompiledGraph, device: &wgpu::Device, option: bool) {
    let views = plan
        .pass_decls()
        .iter()
        .zip(plan.passes())
        .filter(|(_, p)| !p.culled)
        .filter_map(|(d, _)| d.multiview())
        .max();
    let (Some(views), true) = (views, option) else {
        return;
    };
    if !device.features().contains(wgpu::Features::MULTIVIEW) {
        log::info!(
            "multiview passes ({views} views) are recorded one render pass per view: the device has no Features::MULTIVIEW"
        );
    } else if device.limits().max_multiview_view_count < 2 {
        log::warn!(
            "multiview passes ({views} views) are recorded one render pass per view: the device has Features::MULTIVIEW but max_multiview_view_count {}; open it with DeviceOptions::for_plan",
            device.limits().max_multiview_view_count
        );
    }
}

/// Checks that groups recorded as one multiview render pass fit the device's view count.
pub(super) fn check_multiview(
    groups: &[ExecGroup],
    limits: &wgpu::Limits,
) -> Result<(), ExecuteError> {
    match groups
        .iter()
        .find(|g| g.ops.multiview.is_some() && g.views > limits.max_multiview_view_count)
    {
        Some(g) => Err(ExecuteError::MultiviewLimit {
            pass: g.label.clone(),
            views: g.views,
            limit: limits.max_multiview_view_count,
        }),
        None => Ok(()),
    }
}

/// Checks the history textures and buffers the executor would create for `plan` (both halves
/// of a history share one declaration's size).
pub(super) fn check_histories(
    plan: &CompiledGraph,
    limits: &wgpu::Limits,
) -> Result<(), ExecuteError> {
    for decl in plan.resource_decls() {
        if decl.history.is_some() {
            check_resource(decl, limits)?;
        }
    }
    Ok(())
}

fn check_resource(decl: &ResourceDecl, limits: &wgpu::Limits) -> Result<(), ExecuteError> {
    let exceeds = |what, value: u64, limit, max: u64| {
        if value > max {
            Err(ExecuteError::ExceedsDeviceLimit {
                resource: decl.name.to_string(),
                what,
                value,
                limit,
                max,
            })
        } else {
            Ok(())
        }
    };
    match decl.kind {
        ResourceKind::Texture(t) => {
            let max_2d = u64::from(limits.max_texture_dimension_2d);
            exceeds("width", t.width.into(), "max_texture_dimension_2d", max_2d)?;
            exceeds(
                "height",
                t.height.into(),
                "max_texture_dimension_2d",
                max_2d,
            )?;
            exceeds(
                "array layers",
                t.layers.into(),
                "max_texture_array_layers",
                limits.max_texture_array_layers.into(),
            )
        }
        ResourceKind::Buffer(b) => exceeds(
            "size in bytes",
            b.size,
            "max_buffer_size",
            limits.max_buffer_size,
        ),
    }
}

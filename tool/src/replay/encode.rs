//! A submission's commands as a wgpu command buffer, with the replanned ops put in place of the
//! app's; bind groups and pipelines from the trace's descriptors.

use wgpu_core::binding_model::BindingResource;
use wgpu_core::command::{
    BasePass, ColorAttachments, Command, ComputeCommand, DrawCommandFamily, PassTimestampWrites,
    PointerReferences, RenderCommand, ResolvedPassChannel,
    ResolvedRenderPassDepthStencilAttachment,
};
use wgpu_core::device::trace::{
    TraceBindGroupDescriptor, TraceComputePipelineDescriptor, TraceGeneralRenderPipelineDescriptor,
};
use wgpu_core::id::{PointerId, markers};
use wgpu_core::pipeline::{ProgrammableStageDescriptor, RenderPipelineVertexProcessor};

use super::ReplayError;
use super::player::{Objects, get};
use super::replan::{NewLoad, NewOps, Plan};
use crate::headless::Gpu;
use tilegraph::ClearValue;

type Commands = [Command<PointerReferences>];
type QuerySetId = PointerId<markers::QuerySet>;

/// Encodes one `Submit`'s commands (action `action`).
pub(super) fn encode(
    gpu: &Gpu,
    o: &Objects,
    commands: &Commands,
    action: usize,
    plan: &Plan,
) -> Result<wgpu::CommandBuffer, ReplayError> {
    let mut encoder = gpu
        .device
        .create_command_encoder(&wgpu::CommandEncoderDescriptor::default());
    let mut render_passes = 0;
    for command in commands {
        match command {
            Command::RunRenderPass {
                pass,
                color_attachments,
                depth_stencil_attachment,
                timestamp_writes,
                occlusion_query_set,
                multiview_mask,
            } => {
                let at = (action, render_passes);
                render_passes += 1;
                let target = Target {
                    color: color_attachments,
                    depth: depth_stencil_attachment.as_ref(),
                    timestamps: timestamp_writes.as_ref(),
                    occlusion: occlusion_query_set.as_ref(),
                    multiview: *multiview_mask,
                };
                render_pass(&mut encoder, o, pass, &target, (at, plan))?;
            }
            Command::RunComputePass {
                pass,
                timestamp_writes,
            } => compute_pass(&mut encoder, o, pass, timestamp_writes.as_ref(), action)?,
            other => copy(&mut encoder, o, other, action)?,
        }
    }
    Ok(encoder.finish())
}

/// Copies, clears, queries and debug markers.
fn copy(
    encoder: &mut wgpu::CommandEncoder,
    o: &Objects,
    command: &Command<PointerReferences>,
    action: usize,
) -> Result<(), ReplayError> {
    let buffer = |id| get(&o.buffers, id, (action, "buffer"));
    let texture = |id| get(&o.textures, id, (action, "texture"));
    match command {
        Command::CopyBufferToBuffer {
            src,
            src_offset,
            dst,
            dst_offset,
            size,
        } => encoder.copy_buffer_to_buffer(
            buffer(src)?,
            *src_offset,
            buffer(dst)?,
            *dst_offset,
            *size,
        ),
        Command::CopyBufferToTexture { src, dst, size } => encoder.copy_buffer_to_texture(
            wgpu::TexelCopyBufferInfo {
                buffer: buffer(&src.buffer)?,
                layout: src.layout,
            },
            texel_copy(texture(&dst.texture)?, dst),
            *size,
        ),
        Command::CopyTextureToBuffer { src, dst, size } => encoder.copy_texture_to_buffer(
            texel_copy(texture(&src.texture)?, src),
            wgpu::TexelCopyBufferInfo {
                buffer: buffer(&dst.buffer)?,
                layout: dst.layout,
            },
            *size,
        ),
        Command::CopyTextureToTexture { src, dst, size } => encoder.copy_texture_to_texture(
            texel_copy(texture(&src.texture)?, src),
            texel_copy(texture(&dst.texture)?, dst),
            *size,
        ),
        Command::ClearBuffer { dst, offset, size } => {
            encoder.clear_buffer(buffer(dst)?, *offset, *size)
        }
        Command::ClearTexture {
            dst,
            subresource_range,
        } => encoder.clear_texture(texture(dst)?, subresource_range),
        Command::WriteTimestamp {
            query_set,
            query_index,
        } => encoder.write_timestamp(query_set_of(o, query_set, action)?, *query_index),
        Command::ResolveQuerySet {
            query_set,
            start_query,
            query_count,
            destination,
            destination_offset,
        } => encoder.resolve_query_set(
            query_set_of(o, query_set, action)?,
            *start_query..start_query.saturating_add(*query_count),
            buffer(destination)?,
            *destination_offset,
        ),
        Command::PushDebugGroup(label) => encoder.push_debug_group(label),
        Command::PopDebugGroup => encoder.pop_debug_group(),
        Command::InsertDebugMarker(label) => encoder.insert_debug_marker(label),
        // Usage hints for the backend's barriers: what they would change wgpu tracks itself.
        Command::TransitionResources { .. } => {}
        _ => {
            return Err(ReplayError::Unhandled {
                action,
                what: "an acceleration structure build".into(),
            });
        }
    }
    Ok(())
}

fn texel_copy<'t>(
    texture: &'t wgpu::Texture,
    info: &wgpu::TexelCopyTextureInfoBase<PointerId<markers::Texture>>,
) -> wgpu::TexelCopyTextureInfo<'t> {
    wgpu::TexelCopyTextureInfo {
        texture,
        mip_level: info.mip_level,
        origin: info.origin,
        aspect: info.aspect,
    }
}

fn query_set_of<'o>(
    o: &'o Objects,
    id: &QuerySetId,
    action: usize,
) -> Result<&'o wgpu::QuerySet, ReplayError> {
    get(&o.query_sets, id, (action, "query set"))
}

/// A render pass's attachments and queries as the trace holds them.
struct Target<'t> {
    color: &'t ColorAttachments<PointerId<markers::TextureView>>,
    depth: Option<&'t ResolvedRenderPassDepthStencilAttachment<PointerId<markers::TextureView>>>,
    timestamps: Option<&'t PassTimestampWrites<QuerySetId>>,
    occlusion: Option<&'t QuerySetId>,
    multiview: Option<std::num::NonZeroU32>,
}

/// One render pass: its attachments with the plan's ops where it changes them, then its
/// commands.
fn render_pass(
    encoder: &mut wgpu::CommandEncoder,
    o: &Objects,
    pass: &BasePass<RenderCommand<PointerReferences>, std::convert::Infallible>,
    target: &Target<'_>,
    ((action, ordinal), plan): ((usize, usize), &Plan),
) -> Result<(), ReplayError> {
    let view = |id| get(&o.views, id, (action, "texture view"));
    let ops_of = |slot| {
        plan.get(&(action, ordinal, slot))
            .copied()
            .unwrap_or_default()
    };
    let mut color = Vec::new();
    let mut slot = 0;
    for a in target.color.iter() {
        let Some(a) = a else {
            color.push(None);
            continue;
        };
        let new = ops_of(Some(slot));
        slot += 1;
        let load = match new.load {
            Some(NewLoad::Clear(ClearValue::Color([r, g, b, a]))) => {
                wgpu::LoadOp::Clear(wgpu::Color { r, g, b, a })
            }
            Some(other) => new_load(other, a.load_op),
            None => a.load_op,
        };
        let resolve = a.resolve_target.as_ref().filter(|_| !new.drop_resolve);
        color.push(Some(wgpu::RenderPassColorAttachment {
            view: &view(&a.view)?.0,
            depth_slice: a.depth_slice,
            resolve_target: resolve.map(|r| view(r).map(|v| &v.0)).transpose()?,
            ops: wgpu::Operations {
                load,
                store: new_store(new, a.store_op),
            },
        }));
    }
    let depth = match target.depth {
        Some(d) => Some(depth_attachment(view(&d.view)?, d, ops_of(None))),
        None => None,
    };
    let timestamp_writes = match target.timestamps {
        Some(t) => Some(wgpu::RenderPassTimestampWrites {
            query_set: query_set_of(o, &t.query_set, action)?,
            beginning_of_pass_write_index: t.beginning_of_pass_write_index,
            end_of_pass_write_index: t.end_of_pass_write_index,
        }),
        None => None,
    };
    let occlusion_query_set = match target.occlusion {
        Some(q) => Some(query_set_of(o, q, action)?),
        None => None,
    };
    let mut rp = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
        label: pass.label.as_deref(),
        color_attachments: &color,
        depth_stencil_attachment: depth,
        timestamp_writes,
        occlusion_query_set,
        multiview_mask: target.multiview,
    });
    let mut cursor = Cursor::default();
    for command in &pass.commands {
        render_command(&mut rp, o, pass, command, (&mut cursor, action))?;
    }
    Ok(())
}

/// The depth-stencil attachment, its aspects' ops replaced by `new`'s where it changes them;
/// an aspect the format lacks has none.
fn depth_attachment<'v>(
    (view, format): &'v (wgpu::TextureView, wgpu::TextureFormat),
    d: &ResolvedRenderPassDepthStencilAttachment<PointerId<markers::TextureView>>,
    new: NewOps,
) -> wgpu::RenderPassDepthStencilAttachment<'v> {
    let depth = format.has_depth_aspect().then(|| {
        channel(&d.depth, new, |c| match c {
            ClearValue::Depth(v) | ClearValue::DepthStencil { depth: v, .. } => Some(v),
            ClearValue::Color(_) => None,
        })
    });
    let stencil = format.has_stencil_aspect().then(|| {
        channel(&d.stencil, new, |c| match c {
            ClearValue::Depth(_) => Some(0),
            ClearValue::DepthStencil { stencil, .. } => Some(stencil),
            ClearValue::Color(_) => None,
        })
    });
    wgpu::RenderPassDepthStencilAttachment {
        view,
        depth_ops: depth.flatten(),
        stencil_ops: stencil.flatten(),
    }
}

/// A depth or stencil aspect's ops (`None`: read-only), with the plan's where it changes them.
fn channel<V: Copy>(
    channel: &ResolvedPassChannel<V>,
    new: NewOps,
    clear_value: impl Fn(ClearValue) -> Option<V>,
) -> Option<wgpu::Operations<V>> {
    let ResolvedPassChannel::Operational(ops) = channel else {
        return None;
    };
    let load = match new.load {
        Some(NewLoad::Clear(c)) => clear_value(c).map_or(ops.load, wgpu::LoadOp::Clear),
        Some(other) => new_load(other, ops.load),
        None => ops.load,
    };
    Some(wgpu::Operations {
        load,
        store: new_store(new, ops.store),
    })
}

/// A load or don't-care load in place of `app`'s (a clear is set by the caller).
fn new_load<V>(load: NewLoad, app: wgpu::LoadOp<V>) -> wgpu::LoadOp<V> {
    match load {
        NewLoad::Load => wgpu::LoadOp::Load,
        // SAFETY: the trace's analysis proves that nothing reads the contents this load would
        // bring; the replay's comparison checks it.
        NewLoad::DontCare => wgpu::LoadOp::DontCare(unsafe { wgpu::LoadOpDontCare::enabled() }),
        NewLoad::Clear(_) => app,
    }
}

fn new_store(new: NewOps, app: wgpu::StoreOp) -> wgpu::StoreOp {
    match new.store {
        Some(true) => wgpu::StoreOp::Store,
        Some(false) => wgpu::StoreOp::Discard,
        None => app,
    }
}

/// Where a pass's commands are in its dynamic offsets, strings and immediates.
#[derive(Default)]
struct Cursor {
    offsets: usize,
    strings: usize,
}

impl Cursor {
    fn offsets<'p>(&mut self, all: &'p [u32], n: usize) -> &'p [u32] {
        let start = self.offsets.min(all.len());
        self.offsets += n;
        &all[start..self.offsets.min(all.len())]
    }

    fn string(&mut self, all: &[u8], len: usize) -> String {
        let start = self.strings.min(all.len());
        self.strings += len;
        String::from_utf8_lossy(&all[start..self.strings.min(all.len())]).into_owned()
    }
}

/// The bytes of `size_bytes` of immediates from `values_offset` (zeros where `None`).
fn immediates(all: &[u32], values_offset: Option<u32>, size_bytes: u32) -> Vec<u8> {
    let n = size_bytes as usize / 4;
    match values_offset {
        Some(start) => all
            .iter()
            .skip(start as usize)
            .take(n)
            .flat_map(|v| v.to_le_bytes())
            .collect(),
        None => vec![0; n * 4],
    }
}

/// The part of `buffer` a vertex or index binding names; past its end is an error (wgpu would
/// panic).
fn slice(
    buffer: &wgpu::Buffer,
    offset: u64,
    size: Option<wgpu::BufferSize>,
    action: usize,
) -> Result<wgpu::BufferSlice<'_>, ReplayError> {
    let end = size.map_or(Some(buffer.size()), |s| offset.checked_add(s.get()));
    match end {
        Some(end) if offset <= end && end <= buffer.size() => Ok(buffer.slice(offset..end)),
        _ => Err(ReplayError::Wgpu {
            action,
            message: format!(
                "a vertex or index buffer binding at {offset} (size {size:?}) past the end of a buffer of {} bytes",
                buffer.size()
            ),
        }),
    }
}

/// The bind group a `SetBindGroup` command names, if it names one.
fn bind_group_of<'o>(
    o: &'o Objects,
    group: Option<&PointerId<markers::BindGroup>>,
    action: usize,
) -> Result<Option<&'o wgpu::BindGroup>, ReplayError> {
    group
        .map(|g| get(&o.groups, g, (action, "bind group")))
        .transpose()
}

/// One command of a render pass.
fn render_command(
    rp: &mut wgpu::RenderPass<'_>,
    o: &Objects,
    pass: &BasePass<RenderCommand<PointerReferences>, std::convert::Infallible>,
    command: &RenderCommand<PointerReferences>,
    (cursor, action): (&mut Cursor, usize),
) -> Result<(), ReplayError> {
    let buffer = |id| get(&o.buffers, id, (action, "buffer"));
    match command {
        RenderCommand::SetBindGroup {
            index,
            num_dynamic_offsets,
            bind_group,
        } => {
            let group = bind_group_of(o, bind_group.as_ref(), action)?;
            let offsets = cursor.offsets(&pass.dynamic_offsets, *num_dynamic_offsets);
            rp.set_bind_group(*index, group, offsets);
        }
        RenderCommand::SetPipeline(id) => {
            rp.set_pipeline(get(&o.render_pipelines, id, (action, "render pipeline"))?)
        }
        RenderCommand::SetIndexBuffer {
            buffer: b,
            index_format,
            offset,
            size,
        } => rp.set_index_buffer(slice(buffer(b)?, *offset, *size, action)?, *index_format),
        RenderCommand::SetVertexBuffer {
            slot,
            buffer: b,
            offset,
            size,
        } => match b {
            Some(b) => rp.set_vertex_buffer(*slot, slice(buffer(b)?, *offset, *size, action)?),
            None => rp.set_vertex_buffer(*slot, None),
        },
        RenderCommand::SetBlendConstant(c) => rp.set_blend_constant(*c),
        RenderCommand::SetStencilReference(r) => rp.set_stencil_reference(*r),
        RenderCommand::SetViewport {
            rect,
            depth_min,
            depth_max,
        } => rp.set_viewport(rect.x, rect.y, rect.w, rect.h, *depth_min, *depth_max),
        RenderCommand::SetScissor(r) => rp.set_scissor_rect(r.x, r.y, r.w, r.h),
        RenderCommand::SetImmediate {
            offset,
            size_bytes,
            values_offset,
        } => rp.set_immediates(
            *offset,
            &immediates(&pass.immediates_data, *values_offset, *size_bytes),
        ),
        RenderCommand::PushDebugGroup { len, .. } => {
            rp.push_debug_group(&cursor.string(&pass.string_data, *len))
        }
        RenderCommand::PopDebugGroup => rp.pop_debug_group(),
        RenderCommand::InsertDebugMarker { len, .. } => {
            rp.insert_debug_marker(&cursor.string(&pass.string_data, *len))
        }
        other => draw_or_query(rp, o, other, action)?,
    }
    Ok(())
}

/// Draws and queries of a render pass.
fn draw_or_query(
    rp: &mut wgpu::RenderPass<'_>,
    o: &Objects,
    command: &RenderCommand<PointerReferences>,
    action: usize,
) -> Result<(), ReplayError> {
    let buffer = |id| get(&o.buffers, id, (action, "buffer"));
    let unhandled = |what: &str| ReplayError::Unhandled {
        action,
        what: what.into(),
    };
    match command {
        RenderCommand::Draw {
            vertex_count,
            instance_count,
            first_vertex,
            first_instance,
        } => rp.draw(
            *first_vertex..first_vertex.saturating_add(*vertex_count),
            *first_instance..first_instance.saturating_add(*instance_count),
        ),
        RenderCommand::DrawIndexed {
            index_count,
            instance_count,
            first_index,
            base_vertex,
            first_instance,
        } => rp.draw_indexed(
            *first_index..first_index.saturating_add(*index_count),
            *base_vertex,
            *first_instance..first_instance.saturating_add(*instance_count),
        ),
        RenderCommand::DrawIndirect {
            buffer: b,
            offset,
            count,
            family,
            ..
        } => match family {
            DrawCommandFamily::Draw => rp.multi_draw_indirect(buffer(b)?, *offset, *count),
            DrawCommandFamily::DrawIndexed => {
                rp.multi_draw_indexed_indirect(buffer(b)?, *offset, *count)
            }
            DrawCommandFamily::DrawMeshTasks => return Err(unhandled("a mesh shader draw")),
        },
        RenderCommand::MultiDrawIndirectCount {
            buffer: b,
            offset,
            count_buffer,
            count_buffer_offset,
            max_count,
            family,
        } => {
            let (b, c) = (buffer(b)?, buffer(count_buffer)?);
            match family {
                DrawCommandFamily::Draw => {
                    rp.multi_draw_indirect_count(b, *offset, c, *count_buffer_offset, *max_count)
                }
                DrawCommandFamily::DrawIndexed => rp.multi_draw_indexed_indirect_count(
                    b,
                    *offset,
                    c,
                    *count_buffer_offset,
                    *max_count,
                ),
                DrawCommandFamily::DrawMeshTasks => return Err(unhandled("a mesh shader draw")),
            }
        }
        RenderCommand::DrawMeshTasks { .. } => return Err(unhandled("a mesh shader draw")),
        RenderCommand::ExecuteBundle(_) => return Err(unhandled("a render bundle")),
        other => query(rp, o, other, action)?,
    }
    Ok(())
}

/// Queries of a render pass.
fn query(
    rp: &mut wgpu::RenderPass<'_>,
    o: &Objects,
    command: &RenderCommand<PointerReferences>,
    action: usize,
) -> Result<(), ReplayError> {
    match command {
        RenderCommand::WriteTimestamp {
            query_set,
            query_index,
        } => rp.write_timestamp(query_set_of(o, query_set, action)?, *query_index),
        RenderCommand::BeginOcclusionQuery { query_index } => {
            rp.begin_occlusion_query(*query_index)
        }
        RenderCommand::EndOcclusionQuery => rp.end_occlusion_query(),
        RenderCommand::BeginPipelineStatisticsQuery {
            query_set,
            query_index,
        } => rp.begin_pipeline_statistics_query(query_set_of(o, query_set, action)?, *query_index),
        RenderCommand::EndPipelineStatisticsQuery => rp.end_pipeline_statistics_query(),
        _ => {
            return Err(ReplayError::Unhandled {
                action,
                what: "a render pass command".into(),
            });
        }
    }
    Ok(())
}

/// One compute pass.
fn compute_pass(
    encoder: &mut wgpu::CommandEncoder,
    o: &Objects,
    pass: &BasePass<ComputeCommand<PointerReferences>, std::convert::Infallible>,
    timestamps: Option<&PassTimestampWrites<QuerySetId>>,
    action: usize,
) -> Result<(), ReplayError> {
    let timestamp_writes = match timestamps {
        Some(t) => Some(wgpu::ComputePassTimestampWrites {
            query_set: query_set_of(o, &t.query_set, action)?,
            beginning_of_pass_write_index: t.beginning_of_pass_write_index,
            end_of_pass_write_index: t.end_of_pass_write_index,
        }),
        None => None,
    };
    let mut cp = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
        label: pass.label.as_deref(),
        timestamp_writes,
    });
    let mut cursor = Cursor::default();
    for command in &pass.commands {
        match command {
            ComputeCommand::SetBindGroup {
                index,
                num_dynamic_offsets,
                bind_group,
            } => {
                let group = bind_group_of(o, bind_group.as_ref(), action)?;
                let offsets = cursor.offsets(&pass.dynamic_offsets, *num_dynamic_offsets);
                cp.set_bind_group(*index, group, offsets);
            }
            ComputeCommand::SetPipeline(id) => {
                cp.set_pipeline(get(&o.compute_pipelines, id, (action, "compute pipeline"))?)
            }
            ComputeCommand::SetImmediate {
                offset,
                size_bytes,
                values_offset,
            } => cp.set_immediates(
                *offset,
                &immediates(&pass.immediates_data, Some(*values_offset), *size_bytes),
            ),
            ComputeCommand::DispatchWorkgroups([x, y, z]) => cp.dispatch_workgroups(*x, *y, *z),
            ComputeCommand::DispatchWorkgroupsIndirect { buffer, offset } => cp
                .dispatch_workgroups_indirect(
                    get(&o.buffers, buffer, (action, "buffer"))?,
                    *offset,
                ),
            ComputeCommand::PushDebugGroup { len, .. } => {
                cp.push_debug_group(&cursor.string(&pass.string_data, *len))
            }
            ComputeCommand::PopDebugGroup => cp.pop_debug_group(),
            ComputeCommand::InsertDebugMarker { len, .. } => {
                cp.insert_debug_marker(&cursor.string(&pass.string_data, *len))
            }
            ComputeCommand::WriteTimestamp {
                query_set,
                query_index,
            } => cp.write_timestamp(query_set_of(o, query_set, action)?, *query_index),
            ComputeCommand::BeginPipelineStatisticsQuery {
                query_set,
                query_index,
            } => cp
                .begin_pipeline_statistics_query(query_set_of(o, query_set, action)?, *query_index),
            ComputeCommand::EndPipelineStatisticsQuery => cp.end_pipeline_statistics_query(),
            ComputeCommand::TransitionResources { .. } => {}
        }
    }
    Ok(())
}

/// A resource of a bind group entry, looked up.
enum Resource<'o> {
    Buffer(wgpu::BufferBinding<'o>),
    Buffers(Vec<wgpu::BufferBinding<'o>>),
    Sampler(&'o wgpu::Sampler),
    Samplers(Vec<&'o wgpu::Sampler>),
    View(&'o wgpu::TextureView),
    Views(Vec<&'o wgpu::TextureView>),
}

/// A bind group from the trace's descriptor.
pub(super) fn bind_group(
    gpu: &Gpu,
    o: &Objects,
    desc: &TraceBindGroupDescriptor<'_>,
    action: usize,
) -> Result<wgpu::BindGroup, ReplayError> {
    let buffer = |b: &wgpu_core::binding_model::BufferBinding<PointerId<markers::Buffer>>| {
        Ok::<_, ReplayError>(wgpu::BufferBinding {
            buffer: get(&o.buffers, &b.buffer, (action, "buffer"))?,
            offset: b.offset,
            size: b.size.and_then(wgpu::BufferSize::new),
        })
    };
    let sampler = |s| get(&o.samplers, s, (action, "sampler"));
    let view = |v| get(&o.views, v, (action, "texture view")).map(|v| &v.0);
    let mut resources = Vec::new();
    for e in desc.entries.iter() {
        resources.push(match &e.resource {
            BindingResource::Buffer(b) => Resource::Buffer(buffer(b)?),
            BindingResource::BufferArray(bs) => {
                Resource::Buffers(bs.iter().map(buffer).collect::<Result<_, _>>()?)
            }
            BindingResource::Sampler(s) => Resource::Sampler(sampler(s)?),
            BindingResource::SamplerArray(ss) => {
                Resource::Samplers(ss.iter().map(sampler).collect::<Result<_, _>>()?)
            }
            BindingResource::TextureView(v) => Resource::View(view(v)?),
            BindingResource::TextureViewArray(vs) => {
                Resource::Views(vs.iter().map(view).collect::<Result<_, _>>()?)
            }
            _ => {
                return Err(ReplayError::Unhandled {
                    action,
                    what: "a bind group entry of an acceleration structure or external texture"
                        .into(),
                });
            }
        });
    }
    let entries: Vec<wgpu::BindGroupEntry<'_>> = desc
        .entries
        .iter()
        .zip(&resources)
        .map(|(e, r)| wgpu::BindGroupEntry {
            binding: e.binding,
            resource: match r {
                Resource::Buffer(b) => wgpu::BindingResource::Buffer(b.clone()),
                Resource::Buffers(bs) => wgpu::BindingResource::BufferArray(bs),
                Resource::Sampler(s) => wgpu::BindingResource::Sampler(s),
                Resource::Samplers(ss) => wgpu::BindingResource::SamplerArray(ss),
                Resource::View(v) => wgpu::BindingResource::TextureView(v),
                Resource::Views(vs) => wgpu::BindingResource::TextureViewArray(vs),
            },
        })
        .collect();
    Ok(gpu.device.create_bind_group(&wgpu::BindGroupDescriptor {
        label: desc.label.as_deref(),
        layout: get(&o.layouts, &desc.layout, (action, "bind group layout"))?,
        entries: &entries,
    }))
}

/// A stage's module and its constants.
type Stage<'o> = (&'o wgpu::ShaderModule, Vec<(&'o str, f64)>);

/// A stage's module, entry point and constants (sorted by name, so both replays agree).
fn stage<'o>(
    o: &'o Objects,
    s: &'o ProgrammableStageDescriptor<'_, PointerId<markers::ShaderModule>>,
    action: usize,
) -> Result<Stage<'o>, ReplayError> {
    let module = get(&o.shaders, &s.module, (action, "shader module"))?;
    let mut constants: Vec<(&str, f64)> =
        s.constants.iter().map(|(k, v)| (k.as_str(), *v)).collect();
    constants.sort_by(|a, b| a.0.cmp(b.0));
    Ok((module, constants))
}

fn layout_of<'o>(
    o: &'o Objects,
    layout: Option<&PointerId<markers::PipelineLayout>>,
    action: usize,
) -> Result<Option<&'o wgpu::PipelineLayout>, ReplayError> {
    layout
        .map(|l| get(&o.pipeline_layouts, l, (action, "pipeline layout")))
        .transpose()
}

/// A compute pipeline from the trace's descriptor.
pub(super) fn compute_pipeline(
    gpu: &Gpu,
    o: &Objects,
    desc: &TraceComputePipelineDescriptor<'_>,
    action: usize,
) -> Result<wgpu::ComputePipeline, ReplayError> {
    let (module, constants) = stage(o, &desc.stage, action)?;
    Ok(gpu
        .device
        .create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
            label: desc.label.as_deref(),
            layout: layout_of(o, desc.layout.as_ref(), action)?,
            module,
            entry_point: desc.stage.entry_point.as_deref(),
            compilation_options: wgpu::PipelineCompilationOptions {
                constants: &constants,
                zero_initialize_workgroup_memory: desc.stage.zero_initialize_workgroup_memory,
            },
            cache: None,
        }))
}

/// A render pipeline from the trace's descriptor (vertex pipelines; mesh pipelines are not
/// handled).
pub(super) fn render_pipeline(
    gpu: &Gpu,
    o: &Objects,
    desc: &TraceGeneralRenderPipelineDescriptor<'_>,
    action: usize,
) -> Result<wgpu::RenderPipeline, ReplayError> {
    let RenderPipelineVertexProcessor::Vertex(vertex) = &desc.vertex else {
        return Err(ReplayError::Unhandled {
            action,
            what: "a mesh shader pipeline".into(),
        });
    };
    let (vs, vs_constants) = stage(o, &vertex.stage, action)?;
    let buffers: Vec<Option<wgpu::VertexBufferLayout<'_>>> = vertex
        .buffers
        .iter()
        .map(|b| {
            b.as_ref().map(|b| wgpu::VertexBufferLayout {
                array_stride: b.array_stride,
                step_mode: b.step_mode,
                attributes: &b.attributes,
            })
        })
        .collect();
    let fragment = match &desc.fragment {
        Some(f) => Some((stage(o, &f.stage, action)?, f)),
        None => None,
    };
    Ok(gpu
        .device
        .create_render_pipeline(&wgpu::RenderPipelineDescriptor {
            label: desc.label.as_deref(),
            layout: layout_of(o, desc.layout.as_ref(), action)?,
            vertex: wgpu::VertexState {
                module: vs,
                entry_point: vertex.stage.entry_point.as_deref(),
                compilation_options: wgpu::PipelineCompilationOptions {
                    constants: &vs_constants,
                    zero_initialize_workgroup_memory: vertex.stage.zero_initialize_workgroup_memory,
                },
                buffers: &buffers,
            },
            primitive: desc.primitive,
            depth_stencil: desc.depth_stencil.clone(),
            multisample: desc.multisample,
            fragment: fragment
                .as_ref()
                .map(|((fs, constants), f)| wgpu::FragmentState {
                    module: fs,
                    entry_point: f.stage.entry_point.as_deref(),
                    compilation_options: wgpu::PipelineCompilationOptions {
                        constants,
                        zero_initialize_workgroup_memory: f.stage.zero_initialize_workgroup_memory,
                    },
                    targets: &f.targets,
                }),
            multiview_mask: desc.multiview_mask,
            cache: None,
        }))
}

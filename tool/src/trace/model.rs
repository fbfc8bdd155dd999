//! A trace's frames as passes over textures and buffers: the objects each action creates, the
//! commands of every submission, and what each render, compute and copy pass touches.

use std::collections::HashMap;

use wgpu_core::binding_model::BindingResource;
use wgpu_core::command::{
    ColorAttachments, Command, ComputeCommand, RenderCommand, ResolvedPassChannel,
    ResolvedRenderPassDepthStencilAttachment,
};
use wgpu_core::device::trace::Action;
use wgpu_core::id::{PointerId, markers};

use super::TraceError;
use super::read::{Trace, TraceAction};
use tilegraph::wgpu;

/// A texture the trace created (or a surface texture it acquired).
#[derive(Debug, Clone)]
pub struct Texture {
    /// Its name in the rebuilt descriptions: its label, else `texture<action>`, made unique.
    pub name: String,
    pub format: wgpu::TextureFormat,
    pub size: (u32, u32, u32),
    pub mips: u32,
    pub samples: u32,
    pub usage: wgpu::TextureUsages,
    /// A surface texture (`GetSurfaceTexture`): presented, so read after its frame.
    pub surface: bool,
}

/// A buffer the trace created.
#[derive(Debug, Clone)]
pub struct Buffer {
    pub name: String,
    pub size: u64,
    pub usage: wgpu::BufferUsages,
}

/// Mips and layers of a texture a view or copy covers: `(first, count)`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Range {
    pub texture: usize,
    pub mips: (u32, u32),
    pub layers: (u32, u32),
}

/// How a pass touches a texture or buffer outside its attachments.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum UseKind {
    Sample,
    StorageRead,
    StorageWrite,
    StorageReadWrite,
    Uniform,
    CopySrc,
    CopyDst,
}

impl UseKind {
    /// The description's list for it.
    pub fn list(self) -> &'static str {
        match self {
            UseKind::Sample => "sample",
            UseKind::StorageRead => "storage_read",
            UseKind::StorageWrite => "storage_write",
            UseKind::StorageReadWrite => "storage_read_write",
            UseKind::Uniform => "uniform",
            UseKind::CopySrc => "copy_src",
            UseKind::CopyDst => "copy_dst",
        }
    }
}

/// What a pass touches besides its attachments.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Use {
    Texture(Range, UseKind),
    Buffer(usize, UseKind),
}

/// An app's load op.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum AppLoad {
    /// Clear to these values (colour: RGBA; depth: `[d]`; stencil: `[s]`).
    Clear([f64; 4]),
    Load,
    DontCare,
    /// A read-only depth or stencil aspect.
    ReadOnly,
}

/// One attachment of a render pass as the app recorded it.
#[derive(Debug, Clone)]
pub struct Attachment {
    pub range: Range,
    pub load: AppLoad,
    /// `true`: `StoreOp::Store` (or a read-only aspect, which keeps its contents).
    pub store: bool,
    pub resolve: Option<Range>,
    /// The stencil aspect's ops where the format has one: `(load, store)`.
    pub stencil: Option<(AppLoad, bool)>,
}

/// A pass of a frame.
#[derive(Debug, Clone)]
pub struct Pass {
    /// The app's label, else `render`/`compute`/`copy`.
    pub label: String,
    /// The `Submit` action it came from.
    pub action: usize,
    pub kind: PassKind,
    pub color: Vec<Attachment>,
    pub depth: Option<Attachment>,
    pub uses: Vec<Use>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PassKind {
    Render,
    Compute,
    Copy,
}

/// A frame: the commands of one submission, or those between two presents.
#[derive(Debug, Clone, Default)]
pub struct Frame {
    /// The `Submit` actions it spans.
    pub actions: Vec<usize>,
    pub passes: Vec<Pass>,
    /// Textures written by queue uploads (`WriteTexture`) before the frame's commands.
    pub uploads: Vec<usize>,
    /// Surface textures presented at its end.
    pub presented: Vec<usize>,
}

/// A bind group entry's resource as a trace holds it.
type TraceBinding = BindingResource<
    'static,
    PointerId<markers::Buffer>,
    PointerId<markers::Sampler>,
    PointerId<markers::TextureView>,
    PointerId<markers::Tlas>,
    PointerId<markers::ExternalTexture>,
>;

/// A bind group layout's bindings by their type; `None` for a pipeline's derived layout, whose
/// entries the trace does not record.
type Layout = Option<HashMap<u32, UseKind>>;

/// The objects alive while the actions are walked.
#[derive(Default)]
struct Objects {
    textures: Vec<Texture>,
    texture_ids: HashMap<PointerId<markers::Texture>, usize>,
    buffers: Vec<Buffer>,
    buffer_ids: HashMap<PointerId<markers::Buffer>, usize>,
    views: HashMap<PointerId<markers::TextureView>, Range>,
    layouts: HashMap<PointerId<markers::BindGroupLayout>, Layout>,
    /// Bind groups: their entries as uses, and whether the layout was a pipeline's derived one.
    groups: HashMap<PointerId<markers::BindGroup>, (Vec<Use>, bool)>,
    surfaces: HashMap<PointerId<markers::Surface>, usize>,
    names: HashMap<String, u32>,
}

/// The trace's objects and frames.
pub struct Model {
    pub textures: Vec<Texture>,
    pub buffers: Vec<Buffer>,
    pub frames: Vec<Frame>,
    /// Submissions numbered but not in the trace, with the action after which each is missing:
    /// empty submissions, or ones wgpu could not record (those using `LoadOp::DontCare`).
    pub unrecorded: Vec<(usize, u64)>,
}

/// Walks the actions: objects, then each submission's passes, grouped into frames.
pub fn build(trace: &Trace) -> Result<Model, TraceError> {
    let mut o = Objects::default();
    let mut frames = Vec::new();
    let mut current = Frame::default();
    // wgpu numbers submissions from 1.
    let mut next_submission = 1;
    let mut unrecorded = Vec::new();
    let presents = trace
        .actions
        .iter()
        .any(|a| matches!(a, Action::Present(_)));
    for (index, action) in trace.actions.iter().enumerate() {
        match action {
            Action::Submit(submission, commands) => {
                let submission = *submission;
                unrecorded.extend((next_submission..submission).map(|s| (index, s)));
                next_submission = submission + 1;
                current.actions.push(index);
                for command in commands {
                    o.command(command, index, &mut current.passes)?;
                }
                if !presents {
                    // Where nothing presents, the frame's output is its last written texture:
                    // what a present would have shown, so it counts as read after the frame.
                    current.presented.extend(last_written(&current.passes));
                    frames.push(std::mem::take(&mut current));
                }
            }
            Action::Present(surface) => {
                if let Some(&texture) = o.surfaces.get(surface) {
                    current.presented.push(texture);
                }
                frames.push(std::mem::take(&mut current));
            }
            Action::WriteTexture { to, .. } => {
                let texture = o.texture(to.texture, index)?;
                if !current.uploads.contains(&texture) {
                    current.uploads.push(texture);
                }
            }
            other => o.object(other, index)?,
        }
    }
    if !current.passes.is_empty() {
        frames.push(current);
    }
    Ok(Model {
        textures: o.textures,
        buffers: o.buffers,
        frames,
        unrecorded,
    })
}

impl Objects {
    /// A unique name from a label.
    fn name(&mut self, label: Option<&str>, fallback: String) -> String {
        let base = label
            .map(|l| l.replace(['"', '\\', '@', '#'], "_"))
            .filter(|l| !l.is_empty())
            .unwrap_or(fallback);
        let n = self.names.entry(base.clone()).or_insert(0);
        *n += 1;
        if *n == 1 { base } else { format!("{base}.{n}") }
    }

    fn texture(&self, id: PointerId<markers::Texture>, action: usize) -> Result<usize, TraceError> {
        self.texture_ids
            .get(&id)
            .copied()
            .ok_or_else(|| TraceError::unknown(action, "texture"))
    }

    fn buffer(&self, id: PointerId<markers::Buffer>, action: usize) -> Result<usize, TraceError> {
        self.buffer_ids
            .get(&id)
            .copied()
            .ok_or_else(|| TraceError::unknown(action, "buffer"))
    }

    fn view(
        &self,
        id: PointerId<markers::TextureView>,
        action: usize,
    ) -> Result<Range, TraceError> {
        self.views
            .get(&id)
            .copied()
            .ok_or_else(|| TraceError::unknown(action, "texture view"))
    }

    /// A resolve target's view: a description resolves into mip 0, layer 0 of its target, so a
    /// resolve into another subresource is refused rather than read as that one.
    fn resolve_target(
        &self,
        id: PointerId<markers::TextureView>,
        action: usize,
    ) -> Result<Range, TraceError> {
        let range = self.view(id, action)?;
        if range.mips.0 != 0 || range.layers.0 != 0 {
            return Err(TraceError::Unhandled {
                action,
                what: format!(
                    "a resolve into mip {}, layer {} of `{}` (a description resolves into mip 0, layer 0 of its target)",
                    range.mips.0, range.layers.0, self.textures[range.texture].name
                ),
            });
        }
        Ok(range)
    }

    fn whole(&self, texture: usize) -> Range {
        let t = &self.textures[texture];
        Range {
            texture,
            mips: (0, t.mips),
            layers: (0, t.size.2),
        }
    }

    /// Records what a non-command action creates; rejects what the tool cannot follow.
    fn object(&mut self, action: &TraceAction, index: usize) -> Result<(), TraceError> {
        match action {
            Action::CreateTexture(id, desc) => {
                let name = self.name(desc.label.as_deref(), format!("texture{index}"));
                self.texture_ids.insert(*id, self.textures.len());
                let size = &desc.size;
                self.textures.push(Texture {
                    name,
                    format: desc.format,
                    size: (size.width, size.height, size.depth_or_array_layers),
                    mips: desc.mip_level_count,
                    samples: desc.sample_count,
                    usage: desc.usage,
                    surface: false,
                });
            }
            Action::ConfigureSurface(surface, config) => {
                let name = self.name(None, format!("surface{index}"));
                // The surface's textures share one resource: the frame's backbuffer.
                let texture = self.textures.len();
                self.textures.push(Texture {
                    name,
                    format: config.format,
                    size: (config.width, config.height, 1),
                    mips: 1,
                    samples: 1,
                    usage: config.usage,
                    surface: true,
                });
                self.surfaces.insert(*surface, texture);
            }
            Action::GetSurfaceTexture { id, parent } => {
                let texture = *self
                    .surfaces
                    .get(parent)
                    .ok_or_else(|| TraceError::unknown(index, "surface"))?;
                self.texture_ids.insert(*id, texture);
            }
            Action::CreateBuffer(id, desc) => {
                let name = self.name(desc.label.as_deref(), format!("buffer{index}"));
                self.buffer_ids.insert(*id, self.buffers.len());
                self.buffers.push(Buffer {
                    name,
                    size: desc.size,
                    usage: desc.usage,
                });
            }
            Action::CreateTextureView { id, parent, desc } => {
                let range = self.view_range(*parent, &desc.range, index)?;
                self.views.insert(*id, range);
            }
            Action::CreateBindGroupLayout(id, desc) => {
                let entries = desc
                    .entries
                    .iter()
                    .filter_map(|e| binding_kind(&e.ty).map(|k| (e.binding, k)))
                    .collect();
                self.layouts.insert(*id, Some(entries));
            }
            Action::GetRenderPipelineBindGroupLayout { id, .. }
            | Action::GetComputePipelineBindGroupLayout { id, .. } => {
                self.layouts.insert(*id, None);
            }
            Action::CreateBindGroup(id, desc) => {
                let layout = self
                    .layouts
                    .get(&desc.layout)
                    .ok_or_else(|| TraceError::unknown(index, "bind group layout"))?;
                let derived = layout.is_none();
                let kinds: Vec<Option<UseKind>> = desc
                    .entries
                    .iter()
                    .map(|e| layout.as_ref().and_then(|l| l.get(&e.binding)).copied())
                    .collect();
                let mut uses = Vec::new();
                for (entry, kind) in desc.entries.iter().zip(kinds) {
                    self.bind_entry(&entry.resource, kind, index, &mut uses)?;
                }
                self.groups.insert(*id, (uses, derived));
            }
            other => refuse(other, index)?,
        }
        Ok(())
    }

    /// The mips and layers a view of `parent` covers.
    fn view_range(
        &self,
        parent: PointerId<markers::Texture>,
        r: &wgpu::ImageSubresourceRange,
        index: usize,
    ) -> Result<Range, TraceError> {
        let texture = self.texture(parent, index)?;
        let whole = self.whole(texture);
        let mips = r.mip_level_count.unwrap_or(whole.mips.1 - r.base_mip_level);
        let layers = r
            .array_layer_count
            .unwrap_or(whole.layers.1 - r.base_array_layer);
        Ok(Range {
            texture,
            mips: (r.base_mip_level, mips),
            layers: (r.base_array_layer, layers),
        })
    }

    /// A bind group entry as uses: by the layout's binding type, or where the layout is a
    /// pipeline's derived one, by what the resource's usages allow (storage where it can be).
    fn bind_entry(
        &self,
        resource: &TraceBinding,
        kind: Option<UseKind>,
        index: usize,
        uses: &mut Vec<Use>,
    ) -> Result<(), TraceError> {
        let mut view = |id: &PointerId<markers::TextureView>| -> Result<(), TraceError> {
            let range = self.view(*id, index)?;
            let usage = self.textures[range.texture].usage;
            let kind = kind.unwrap_or(if usage.contains(wgpu::TextureUsages::STORAGE_BINDING) {
                UseKind::StorageReadWrite
            } else {
                UseKind::Sample
            });
            uses.push(Use::Texture(range, kind));
            Ok(())
        };
        match resource {
            BindingResource::TextureView(id) => view(id)?,
            BindingResource::TextureViewArray(ids) => ids.iter().try_for_each(&mut view)?,
            BindingResource::Buffer(b) => uses.push(self.buffer_use(b.buffer, kind, index)?),
            BindingResource::BufferArray(bs) => {
                for b in bs.iter() {
                    uses.push(self.buffer_use(b.buffer, kind, index)?);
                }
            }
            BindingResource::Sampler(_) | BindingResource::SamplerArray(_) => {}
            _ => {
                return Err(TraceError::Unhandled {
                    action: index,
                    what: "a bind group entry of an acceleration structure or external texture"
                        .into(),
                });
            }
        }
        Ok(())
    }

    fn buffer_use(
        &self,
        id: PointerId<markers::Buffer>,
        kind: Option<UseKind>,
        index: usize,
    ) -> Result<Use, TraceError> {
        let buffer = self.buffer(id, index)?;
        let kind = kind.unwrap_or(
            if self.buffers[buffer]
                .usage
                .contains(wgpu::BufferUsages::STORAGE)
            {
                UseKind::StorageReadWrite
            } else {
                UseKind::Uniform
            },
        );
        Ok(Use::Buffer(buffer, kind))
    }

    /// One command of a submission as a pass (debug markers and queries as nothing).
    fn command(
        &self,
        command: &Command<PointerReferences>,
        index: usize,
        passes: &mut Vec<Pass>,
    ) -> Result<(), TraceError> {
        if let Some(uses) = self.copy_uses(command, index)? {
            passes.push(Pass {
                label: "copy".into(),
                action: index,
                kind: PassKind::Copy,
                color: Vec::new(),
                depth: None,
                uses,
            });
            return Ok(());
        }
        match command {
            Command::RunComputePass { pass, .. } => {
                let uses = self.compute_uses(&pass.commands, index)?;
                passes.push(Pass {
                    label: pass.label.clone().unwrap_or_else(|| "compute".into()),
                    action: index,
                    kind: PassKind::Compute,
                    color: Vec::new(),
                    depth: None,
                    uses,
                });
            }
            Command::RunRenderPass {
                pass,
                color_attachments,
                depth_stencil_attachment,
                multiview_mask,
                ..
            } => {
                if multiview_mask.is_some() {
                    return Err(TraceError::Unhandled {
                        action: index,
                        what: "a multiview render pass".into(),
                    });
                }
                let (color, depth) =
                    self.attachments(color_attachments, depth_stencil_attachment.as_ref(), index)?;
                let uses = self.render_uses(&pass.commands, index)?;
                passes.push(Pass {
                    label: pass.label.clone().unwrap_or_else(|| "render".into()),
                    action: index,
                    kind: PassKind::Render,
                    color,
                    depth,
                    uses,
                });
            }
            Command::BuildAccelerationStructures { .. } => {
                return Err(TraceError::Unhandled {
                    action: index,
                    what: "an acceleration structure build".into(),
                });
            }
            _ => {}
        }
        Ok(())
    }

    /// A render pass's attachments with the app's ops.
    fn attachments(
        &self,
        color_attachments: &ColorAttachments<PointerId<markers::TextureView>>,
        depth_stencil_attachment: Option<
            &ResolvedRenderPassDepthStencilAttachment<PointerId<markers::TextureView>>,
        >,
        index: usize,
    ) -> Result<(Vec<Attachment>, Option<Attachment>), TraceError> {
        let mut color = Vec::new();
        for a in color_attachments.iter().flatten() {
            color.push(Attachment {
                range: self.view(a.view, index)?,
                load: match a.load_op {
                    wgpu::LoadOp::Clear(c) => AppLoad::Clear([c.r, c.g, c.b, c.a]),
                    wgpu::LoadOp::Load => AppLoad::Load,
                    wgpu::LoadOp::DontCare(_) => AppLoad::DontCare,
                },
                store: a.store_op == wgpu::StoreOp::Store,
                resolve: a
                    .resolve_target
                    .map(|v| self.resolve_target(v, index))
                    .transpose()?,
                stencil: None,
            });
        }
        let depth = match depth_stencil_attachment {
            Some(d) => {
                let range = self.view(d.view, index)?;
                let format = self.textures[range.texture].format;
                let depth = channel_load(&d.depth, f64::from);
                let stencil = channel_load(&d.stencil, f64::from);
                // The aspects the format has: a missing one's ops mean nothing.
                let (main, stencil) = match (format.has_depth_aspect(), format.has_stencil_aspect())
                {
                    (true, true) => (depth, Some(stencil)),
                    (true, false) => (depth, None),
                    _ => (stencil, None),
                };
                Some(Attachment {
                    range,
                    load: main.0,
                    store: main.1,
                    resolve: None,
                    stencil,
                })
            }
            None => None,
        };
        Ok((color, depth))
    }

    /// A copy or clear command's uses; `None` for other commands.
    fn copy_uses(
        &self,
        command: &Command<PointerReferences>,
        index: usize,
    ) -> Result<Option<Vec<Use>>, TraceError> {
        Ok(match command {
            Command::CopyBufferToBuffer { src, dst, .. } => Some(vec![
                Use::Buffer(self.buffer(*src, index)?, UseKind::CopySrc),
                Use::Buffer(self.buffer(*dst, index)?, UseKind::CopyDst),
            ]),
            Command::CopyBufferToTexture { src, dst, size } => Some(vec![
                Use::Buffer(self.buffer(src.buffer, index)?, UseKind::CopySrc),
                self.copy_texture(dst.texture, dst.mip_level, dst.origin.z, *size, index)?,
            ]),
            Command::CopyTextureToBuffer { src, dst, size } => Some(vec![
                self.copy_texture_src(src.texture, src.mip_level, src.origin.z, *size, index)?,
                Use::Buffer(self.buffer(dst.buffer, index)?, UseKind::CopyDst),
            ]),
            Command::CopyTextureToTexture { src, dst, size } => Some(vec![
                self.copy_texture_src(src.texture, src.mip_level, src.origin.z, *size, index)?,
                self.copy_texture(dst.texture, dst.mip_level, dst.origin.z, *size, index)?,
            ]),
            Command::ClearBuffer { dst, .. } => Some(vec![Use::Buffer(
                self.buffer(*dst, index)?,
                UseKind::StorageReadWrite,
            )]),
            Command::ClearTexture {
                dst,
                subresource_range: r,
            } => {
                let texture = self.texture(*dst, index)?;
                let whole = self.whole(texture);
                let range = Range {
                    texture,
                    mips: (
                        r.base_mip_level,
                        r.mip_level_count.unwrap_or(whole.mips.1 - r.base_mip_level),
                    ),
                    layers: (
                        r.base_array_layer,
                        r.array_layer_count
                            .unwrap_or(whole.layers.1 - r.base_array_layer),
                    ),
                };
                Some(vec![Use::Texture(range, UseKind::CopyDst)])
            }
            _ => None,
        })
    }

    /// What the bind groups set before each dispatch of a compute pass give it.
    fn compute_uses(
        &self,
        commands: &[ComputeCommand<PointerReferences>],
        index: usize,
    ) -> Result<Vec<Use>, TraceError> {
        let steps = commands.iter().map(|c| match c {
            ComputeCommand::SetBindGroup {
                index, bind_group, ..
            } => Step::Bind(*index, *bind_group),
            ComputeCommand::DispatchWorkgroups(_)
            | ComputeCommand::DispatchWorkgroupsIndirect { .. } => Step::Work,
            _ => Step::Other,
        });
        self.pass_uses(steps, index, false)
    }

    /// What the bind groups set before each draw of a render pass give it.
    fn render_uses(
        &self,
        commands: &[RenderCommand<PointerReferences>],
        index: usize,
    ) -> Result<Vec<Use>, TraceError> {
        let steps = commands.iter().map(|c| match c {
            RenderCommand::SetBindGroup {
                index, bind_group, ..
            } => Step::Bind(*index, *bind_group),
            RenderCommand::Draw { .. }
            | RenderCommand::DrawIndexed { .. }
            | RenderCommand::DrawIndirect { .. }
            | RenderCommand::MultiDrawIndirectCount { .. }
            | RenderCommand::DrawMeshTasks { .. } => Step::Work,
            RenderCommand::ExecuteBundle(_) => Step::Bundle,
            _ => Step::Other,
        });
        self.pass_uses(steps, index, true)
    }

    /// What the groups bound at each draw or dispatch of a pass's `steps` give the pass.
    fn pass_uses(
        &self,
        steps: impl Iterator<Item = Step>,
        index: usize,
        render: bool,
    ) -> Result<Vec<Use>, TraceError> {
        let mut bound = HashMap::new();
        let mut uses = Vec::new();
        for step in steps {
            match step {
                Step::Bind(slot, Some(group)) => {
                    bound.insert(slot, group);
                }
                Step::Bind(slot, None) => {
                    bound.remove(&slot);
                }
                Step::Work => self.bound_uses(&bound, (index, render), &mut uses)?,
                Step::Bundle => {
                    return Err(TraceError::Unhandled {
                        action: index,
                        what: "a render bundle executed in a render pass".into(),
                    });
                }
                Step::Other => {}
            }
        }
        Ok(uses)
    }

    /// What the bound groups give a draw (`render`) or a dispatch. A derived layout's buffer
    /// bindings are taken as read-only storage in a render pass (fragment shaders write storage
    /// buffers rarely, and buffers carry no attachment traffic), read-write in a compute pass.
    fn bound_uses(
        &self,
        bound: &HashMap<u32, PointerId<markers::BindGroup>>,
        (index, render): (usize, bool),
        uses: &mut Vec<Use>,
    ) -> Result<(), TraceError> {
        for group in bound.values() {
            let (entries, derived) = self
                .groups
                .get(group)
                .ok_or_else(|| TraceError::unknown(index, "bind group"))?;
            for &u in entries {
                let u = match u {
                    Use::Buffer(b, UseKind::StorageReadWrite) if *derived && render => {
                        Use::Buffer(b, UseKind::StorageRead)
                    }
                    u => u,
                };
                if !uses.contains(&u) {
                    uses.push(u);
                }
            }
        }
        Ok(())
    }

    fn copy_texture_src(
        &self,
        id: PointerId<markers::Texture>,
        mip: u32,
        z: u32,
        size: wgpu::Extent3d,
        index: usize,
    ) -> Result<Use, TraceError> {
        let texture = self.texture(id, index)?;
        let range = Range {
            texture,
            mips: (mip, 1),
            layers: (z, size.depth_or_array_layers),
        };
        Ok(Use::Texture(range, UseKind::CopySrc))
    }

    /// A copy into a texture: a `copy_dst` where it covers whole subresources, else a
    /// read-modify-write (the rest of the subresource keeps its contents).
    fn copy_texture(
        &self,
        id: PointerId<markers::Texture>,
        mip: u32,
        z: u32,
        size: wgpu::Extent3d,
        index: usize,
    ) -> Result<Use, TraceError> {
        let Use::Texture(range, _) = self.copy_texture_src(id, mip, z, size, index)? else {
            unreachable!("a texture use")
        };
        let t = &self.textures[range.texture];
        let whole =
            size.width >= (t.size.0 >> mip).max(1) && size.height >= (t.size.1 >> mip).max(1);
        let kind = if whole {
            UseKind::CopyDst
        } else {
            UseKind::StorageReadWrite
        };
        Ok(Use::Texture(range, kind))
    }
}

/// The texture the last pass that writes one writes: a render pass's first colour attachment
/// (its resolve target where it resolves), a copy's or storage write's destination.
pub fn last_written(passes: &[Pass]) -> Option<usize> {
    passes.iter().rev().find_map(|p| {
        if let Some(a) = p.color.first() {
            return Some(a.resolve.unwrap_or(a.range).texture);
        }
        p.uses.iter().rev().find_map(|u| match u {
            Use::Texture(
                r,
                UseKind::CopyDst | UseKind::StorageWrite | UseKind::StorageReadWrite,
            ) => Some(r.texture),
            _ => None,
        })
    })
}

/// Actions the tool cannot follow: an error naming them; the rest (drops, samplers, shaders,
/// pipelines, queries) change nothing the descriptions hold.
fn refuse(action: &TraceAction, index: usize) -> Result<(), TraceError> {
    let what = match action {
        Action::CreateRenderBundle { .. } => "a render bundle",
        Action::CreateBlas { .. } | Action::CreateTlas { .. } => "an acceleration structure",
        Action::CreateExternalTexture { .. } => "an external texture",
        _ => return Ok(()),
    };
    Err(TraceError::Unhandled {
        action: index,
        what: what.into(),
    })
}

/// What a pass command does to the groups a draw or dispatch sees.
enum Step {
    /// A bind group set (or unset) at a slot.
    Bind(u32, Option<PointerId<markers::BindGroup>>),
    /// A draw or a dispatch: it uses what is bound.
    Work,
    /// A render bundle executed: not followed.
    Bundle,
    Other,
}

/// A depth or stencil aspect's load and store.
fn channel_load<V: Copy>(
    channel: &ResolvedPassChannel<V>,
    value: impl Fn(V) -> f64,
) -> (AppLoad, bool) {
    match channel {
        ResolvedPassChannel::ReadOnly => (AppLoad::ReadOnly, true),
        ResolvedPassChannel::Operational(ops) => (
            match ops.load {
                wgpu::LoadOp::Clear(v) => AppLoad::Clear([value(v), 0.0, 0.0, 0.0]),
                wgpu::LoadOp::Load => AppLoad::Load,
                wgpu::LoadOp::DontCare(_) => AppLoad::DontCare,
            },
            ops.store == wgpu::StoreOp::Store,
        ),
    }
}

/// The use a binding type gives; samplers and acceleration structures none.
fn binding_kind(ty: &wgpu::BindingType) -> Option<UseKind> {
    match ty {
        wgpu::BindingType::Buffer { ty, .. } => Some(match ty {
            wgpu::BufferBindingType::Uniform => UseKind::Uniform,
            wgpu::BufferBindingType::Storage { read_only: true } => UseKind::StorageRead,
            wgpu::BufferBindingType::Storage { read_only: false } => UseKind::StorageReadWrite,
        }),
        wgpu::BindingType::Texture { .. } | wgpu::BindingType::ExternalTexture => {
            Some(UseKind::Sample)
        }
        wgpu::BindingType::StorageTexture { access, .. } => Some(match access {
            wgpu::StorageTextureAccess::WriteOnly => UseKind::StorageWrite,
            wgpu::StorageTextureAccess::ReadOnly => UseKind::StorageRead,
            _ => UseKind::StorageReadWrite,
        }),
        _ => None,
    }
}

use wgpu_core::command::PointerReferences;

//! The trace's actions as wgpu calls on a device opened the documented way
//! ([`DeviceOptions`] with the trace's required features and limits): every object it creates,
//! its uploads, its submissions (`encode`), and its surfaces as offscreen textures of the same
//! format and size, read back where the trace presents them.

use std::borrow::Cow;
use std::collections::HashMap;
use std::path::Path;

use tilegraph::helpers::{Backend, DeviceOptions};
use wgpu_core::command::{Command, DrawCommandFamily, PointerReferences, RenderCommand};
use wgpu_core::device::trace::{Action, Data, DataKind};
use wgpu_core::id::{Marker, PointerId, markers};
use wgpu_core::pipeline::RenderPipelineVertexProcessor;

use super::replan::Plan;
use super::{Image, ReplayError, Replayed};
use crate::headless::{self, Gpu};
use crate::trace::TraceError;
use crate::trace::model::{AppLoad, Model, Use};
use crate::trace::read::{Trace, TraceAction};

/// What the trace's `Init` asks of the device.
pub(super) struct Init {
    features: wgpu::Features,
    limits: wgpu::Limits,
    /// A render pass samples a depth it attaches read-only (wgpu's GL backend cannot).
    read_only_depth: bool,
}

/// The trace's first action, `Init`: its required features and limits.
pub(super) fn init(trace: &Trace, model: &Model) -> Result<Init, ReplayError> {
    match trace.actions.first() {
        Some(Action::Init { desc, .. }) => Ok(Init {
            features: desc.required_features,
            limits: desc.required_limits.clone(),
            read_only_depth: samples_read_only_depth(model),
        }),
        _ => Err(ReplayError::NoInit { action: 0 }),
    }
}

/// The first action the replay cannot perform, found before any GPU work: shaders other than
/// WGSL, mesh shaders, render bundles, textures wgpu refused. (What `tilegraph trace` already
/// refuses, `build_model` reports.)
pub(super) fn check_handled(trace: &Trace) -> Result<(), ReplayError> {
    for (action, a) in trace.actions.iter().enumerate() {
        let what = match a {
            Action::CreateShaderModule { data, .. } if !is_wgsl(data) => {
                "a shader module whose source is not WGSL"
            }
            Action::CreateShaderModulePassthrough { .. } => "a passthrough shader module",
            Action::CreateTextureError(..) => "a texture wgpu refused to create",
            Action::CreateGeneralRenderPipeline { desc, .. }
                if matches!(desc.vertex, RenderPipelineVertexProcessor::Mesh(..)) =>
            {
                "a mesh shader pipeline"
            }
            Action::Submit(_, commands) if commands.iter().any(unhandled_command) => {
                "a render bundle or mesh shader draw in a render pass"
            }
            _ => continue,
        };
        return Err(ReplayError::Unhandled {
            action,
            what: what.into(),
        });
    }
    Ok(())
}

fn unhandled_command(command: &Command<PointerReferences>) -> bool {
    let Command::RunRenderPass { pass, .. } = command else {
        return false;
    };
    pass.commands.iter().any(|c| {
        matches!(
            c,
            RenderCommand::ExecuteBundle(_)
                | RenderCommand::DrawMeshTasks { .. }
                | RenderCommand::DrawIndirect {
                    family: DrawCommandFamily::DrawMeshTasks,
                    ..
                }
                | RenderCommand::MultiDrawIndirectCount {
                    family: DrawCommandFamily::DrawMeshTasks,
                    ..
                }
        )
    })
}

/// A device on `backend` with the trace's features and limits (DESIGN 2.6's documented path).
pub(super) fn open(init: Init, backend: Backend) -> Result<Gpu, ReplayError> {
    let options = DeviceOptions::new(backend)
        .with_validation(headless::validation_from_env())
        .with_features(init.features)
        .with_limits(&init.limits);
    let mut options = options;
    if init.read_only_depth {
        options.required_downlevel_flags |= wgpu::DownlevelFlags::READ_ONLY_DEPTH_STENCIL;
    }
    Ok(headless::open(&options)?)
}

/// Whether a render pass attaches a depth or stencil aspect read-only and binds the same
/// texture for its shaders: what wgpu allows only with `READ_ONLY_DEPTH_STENCIL`.
fn samples_read_only_depth(model: &Model) -> bool {
    model.frames.iter().flat_map(|f| &f.passes).any(|p| {
        p.depth.as_ref().is_some_and(|d| {
            let read_only =
                d.load == AppLoad::ReadOnly || d.stencil.is_some_and(|s| s.0 == AppLoad::ReadOnly);
            read_only
                && p.uses
                    .iter()
                    .any(|u| matches!(u, Use::Texture(r, _) if r.texture == d.range.texture))
        })
    })
}

/// A texture of the model's numbering: one the trace created, or a surface's current texture.
pub(super) enum Indexed {
    Texture(wgpu::Texture),
    Surface(PointerId<markers::Surface>),
}

/// A configured surface: the offscreen texture that stands in for each texture it hands out.
pub(super) struct Surface {
    desc: wgpu::TextureDescriptor<'static>,
    view_formats: Vec<wgpu::TextureFormat>,
    current: Option<wgpu::Texture>,
}

impl Surface {
    /// The offscreen stand-in for a surface configured with `config`.
    fn new(config: &wgpu::wgt::SurfaceConfiguration<Vec<wgpu::TextureFormat>>) -> Self {
        Surface {
            desc: wgpu::TextureDescriptor {
                label: Some("surface"),
                size: wgpu::Extent3d {
                    width: config.width,
                    height: config.height,
                    depth_or_array_layers: 1,
                },
                mip_level_count: 1,
                sample_count: 1,
                dimension: wgpu::TextureDimension::D2,
                format: config.format,
                usage: readable(config.usage, config.format, 1)
                    | wgpu::TextureUsages::RENDER_ATTACHMENT,
                view_formats: &[],
            },
            view_formats: config.view_formats.clone(),
            current: None,
        }
    }
}

/// Objects of one kind by their trace id. A dropped object stays until the next submission
/// has run: an app may drop a view or buffer after recording the commands that use it and
/// before submitting them (wgpu keeps it alive meanwhile, so its id cannot be reused before).
pub(super) struct Map<M: Marker, V> {
    live: HashMap<PointerId<M>, V>,
    dropped: Vec<PointerId<M>>,
}

impl<M: Marker, V> Default for Map<M, V> {
    fn default() -> Self {
        Map {
            live: HashMap::new(),
            dropped: Vec::new(),
        }
    }
}

impl<M: Marker, V> Map<M, V> {
    fn insert(&mut self, id: PointerId<M>, value: V) {
        self.dropped.retain(|d| *d != id);
        self.live.insert(id, value);
    }

    fn drop_later(&mut self, id: PointerId<M>) {
        self.dropped.push(id);
    }

    /// Removes what was dropped before the submission just made.
    fn flush(&mut self) {
        for id in self.dropped.drain(..) {
            self.live.remove(&id);
        }
    }

    fn get_mut(&mut self, id: &PointerId<M>) -> Option<&mut V> {
        self.live.get_mut(id)
    }
}

/// The objects alive while the actions play.
#[derive(Default)]
pub(super) struct Objects {
    pub buffers: Map<markers::Buffer, wgpu::Buffer>,
    pub textures: Map<markers::Texture, wgpu::Texture>,
    /// Views with their format.
    pub views: Map<markers::TextureView, (wgpu::TextureView, wgpu::TextureFormat)>,
    pub samplers: Map<markers::Sampler, wgpu::Sampler>,
    pub layouts: Map<markers::BindGroupLayout, wgpu::BindGroupLayout>,
    pub pipeline_layouts: Map<markers::PipelineLayout, wgpu::PipelineLayout>,
    pub groups: Map<markers::BindGroup, wgpu::BindGroup>,
    pub shaders: Map<markers::ShaderModule, wgpu::ShaderModule>,
    pub render_pipelines: Map<markers::RenderPipeline, wgpu::RenderPipeline>,
    pub compute_pipelines: Map<markers::ComputePipeline, wgpu::ComputePipeline>,
    pub query_sets: Map<markers::QuerySet, wgpu::QuerySet>,
    pub surfaces: Map<markers::Surface, Surface>,
    /// Textures in the model's numbering (`CreateTexture` and `ConfigureSurface` in order).
    pub indexed: Vec<Indexed>,
}

/// The object `id` of `map`, else [`ReplayError::UnknownObject`].
pub(super) fn get<'m, M: Marker, V>(
    map: &'m Map<M, V>,
    id: &PointerId<M>,
    (action, what): (usize, &'static str),
) -> Result<&'m V, ReplayError> {
    map.live
        .get(id)
        .ok_or(ReplayError::UnknownObject { action, what })
}

/// Plays every action of `trace`; with `plan`, its ops in place of the app's. Reads back each
/// frame's presented textures (or last written texture, where nothing presents).
pub(super) fn play(
    gpu: &Gpu,
    trace: &Trace,
    model: &Model,
    plan: Option<&Plan>,
) -> Result<Replayed, ReplayError> {
    let empty = Plan::new();
    let plan = plan.unwrap_or(&empty);
    let presents = trace
        .actions
        .iter()
        .any(|a| matches!(a, Action::Present(_)));
    let mut o = Objects::default();
    let mut out = Replayed {
        images: Vec::new(),
        frames: model.frames.len(),
    };
    let mut frame = 0;
    gpu.take_uncaptured_errors();
    for (index, action) in trace.actions.iter().enumerate() {
        let ends_frame = match action {
            Action::Init { .. } => false,
            Action::Submit(_, commands) => {
                let commands = super::encode::encode(gpu, &o, commands, index, plan)?;
                gpu.queue.submit([commands]);
                o.flush();
                !presents
            }
            Action::Present(_) => true,
            other => {
                o.apply(gpu, other, index, &trace.dir)?;
                false
            }
        };
        check(gpu, index)?;
        if ends_frame {
            read_frame(gpu, &o, model, (frame, index), &mut out.images)?;
            frame += 1;
        }
    }
    Ok(out)
}

/// Errors wgpu raised while playing action `action`.
fn check(gpu: &Gpu, action: usize) -> Result<(), ReplayError> {
    let errors = gpu.take_uncaptured_errors();
    if errors.is_empty() {
        Ok(())
    } else {
        Err(ReplayError::Wgpu {
            action,
            message: errors.join("; "),
        })
    }
}

/// Reads back the textures frame `frame` shows.
fn read_frame(
    gpu: &Gpu,
    o: &Objects,
    model: &Model,
    (frame, action): (usize, usize),
    images: &mut Vec<Image>,
) -> Result<(), ReplayError> {
    let Some(f) = model.frames.get(frame) else {
        return Ok(());
    };
    for &t in &f.presented {
        let name = model.textures[t].name.clone();
        let failed = |message: String| ReplayError::Readback {
            frame,
            action,
            texture: name.clone(),
            message,
        };
        let texture = match o.indexed.get(t) {
            Some(Indexed::Texture(texture)) => texture,
            Some(Indexed::Surface(s)) => o
                .surfaces
                .live
                .get(s)
                .and_then(|s| s.current.as_ref())
                .ok_or_else(|| failed("the surface has no texture".into()))?,
            None => return Err(failed("the texture was never created".into())),
        };
        let readback = gpu
            .read_texture(texture)
            .map_err(|e| failed(e.to_string()))?;
        images.push(Image {
            frame,
            action,
            texture: name,
            format: readback.format,
            size: (readback.width, readback.height),
            bytes: readback.bytes,
        });
    }
    Ok(())
}

/// The bytes of a data file or inline data.
pub(super) fn load<'d>(
    dir: &Path,
    data: &'d Data,
    action: usize,
) -> Result<Cow<'d, [u8]>, ReplayError> {
    Ok(match data {
        Data::File(name) => {
            let path = dir.join(name);
            match std::fs::read(&path) {
                Ok(bytes) => Cow::Owned(bytes),
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                    return Err(TraceError::MissingDataFile { file: path, action }.into());
                }
                Err(e) => {
                    return Err(TraceError::Io {
                        path,
                        message: e.to_string(),
                    }
                    .into());
                }
            }
        }
        Data::String(_, s) => Cow::Borrowed(s.as_bytes()),
        Data::Binary(_, b) => Cow::Borrowed(b),
    })
}

/// Whether shader data is WGSL (by the data file's extension or the inline data's kind).
fn is_wgsl(data: &Data) -> bool {
    match data {
        Data::File(name) => name.ends_with(".wgsl"),
        Data::String(kind, _) | Data::Binary(kind, _) => *kind == DataKind::Wgsl,
    }
}

impl Objects {
    /// Plays an action that is neither `Init`, `Submit` nor `Present`.
    fn apply(
        &mut self,
        gpu: &Gpu,
        action: &TraceAction,
        index: usize,
        dir: &Path,
    ) -> Result<(), ReplayError> {
        if self.resource(gpu, action, index, dir)? || self.binding(gpu, action, index)? {
            return Ok(());
        }
        if self.pipeline(gpu, action, index, dir)? || self.drop(action) {
            return Ok(());
        }
        let what = match action {
            // Commands that failed in the app ran nothing there; nor do they here.
            Action::FailedCommands { .. } => return Ok(()),
            // A pipeline cache only speeds up pipeline creation: the pipelines are made without.
            Action::CreatePipelineCache { .. } | Action::DropPipelineCache(_) => return Ok(()),
            Action::DiscardSurfaceTexture(_) | Action::ReleaseSurfaceTexture(_) => return Ok(()),
            Action::CreateTextureError(..) => "a texture wgpu refused to create",
            Action::CreateExternalTexture { .. } => "an external texture",
            Action::CreateShaderModulePassthrough { .. } => "a passthrough shader module",
            Action::CreateRenderBundle { .. } => "a render bundle",
            Action::CreateBlas { .. } | Action::CreateTlas { .. } => "an acceleration structure",
            _ => "this action",
        };
        Err(ReplayError::Unhandled {
            action: index,
            what: what.into(),
        })
    }

    /// Buffers, textures, views, samplers, surfaces and uploads; `false` for other actions.
    fn resource(
        &mut self,
        gpu: &Gpu,
        action: &TraceAction,
        index: usize,
        dir: &Path,
    ) -> Result<bool, ReplayError> {
        match action {
            Action::CreateBuffer(id, desc) => {
                // Mapping plays as queue writes (`WriteBuffer`), so no buffer is mapped.
                let usage =
                    (desc.usage - wgpu::BufferUsages::MAP_READ - wgpu::BufferUsages::MAP_WRITE)
                        | wgpu::BufferUsages::COPY_DST;
                let buffer = gpu.device.create_buffer(&wgpu::BufferDescriptor {
                    label: desc.label.as_deref(),
                    size: desc.size,
                    usage,
                    mapped_at_creation: false,
                });
                self.buffers.insert(*id, buffer);
            }
            Action::CreateTexture(id, desc) => {
                let texture = gpu.device.create_texture(&wgpu::TextureDescriptor {
                    label: desc.label.as_deref(),
                    size: desc.size,
                    mip_level_count: desc.mip_level_count,
                    sample_count: desc.sample_count,
                    dimension: desc.dimension,
                    format: desc.format,
                    usage: readable(desc.usage, desc.format, desc.sample_count),
                    view_formats: &desc.view_formats,
                });
                self.textures.insert(*id, texture.clone());
                self.indexed.push(Indexed::Texture(texture));
            }
            Action::CreateTextureView { id, parent, desc } => {
                let texture = get(&self.textures, parent, (index, "texture"))?;
                let view = texture.create_view(&wgpu::TextureViewDescriptor {
                    label: desc.label.as_deref(),
                    format: desc.format,
                    dimension: desc.dimension,
                    usage: desc.usage,
                    aspect: desc.range.aspect,
                    base_mip_level: desc.range.base_mip_level,
                    mip_level_count: desc.range.mip_level_count,
                    base_array_layer: desc.range.base_array_layer,
                    array_layer_count: desc.range.array_layer_count,
                });
                let format = desc.format.unwrap_or(texture.format());
                self.views.insert(*id, (view, format));
            }
            Action::CreateSampler(id, d) => {
                let sampler = gpu.device.create_sampler(&wgpu::SamplerDescriptor {
                    label: d.label.as_deref(),
                    address_mode_u: d.address_modes[0],
                    address_mode_v: d.address_modes[1],
                    address_mode_w: d.address_modes[2],
                    mag_filter: d.mag_filter,
                    min_filter: d.min_filter,
                    mipmap_filter: d.mipmap_filter,
                    lod_min_clamp: d.lod_min_clamp,
                    lod_max_clamp: d.lod_max_clamp,
                    compare: d.compare,
                    anisotropy_clamp: d.anisotropy_clamp,
                    border_color: d.border_color,
                });
                self.samplers.insert(*id, sampler);
            }
            _ => return self.upload_or_surface(gpu, action, index, dir),
        }
        Ok(true)
    }

    /// Queue writes and surfaces; `false` for other actions.
    fn upload_or_surface(
        &mut self,
        gpu: &Gpu,
        action: &TraceAction,
        index: usize,
        dir: &Path,
    ) -> Result<bool, ReplayError> {
        match action {
            Action::WriteBuffer {
                id,
                data,
                offset,
                size,
                ..
            } => {
                let buffer = get(&self.buffers, id, (index, "buffer"))?;
                let bytes = load(dir, data, index)?;
                let n = usize::try_from(*size).map_or(bytes.len(), |s| s.min(bytes.len()));
                gpu.queue.write_buffer(buffer, *offset, &bytes[..n]);
            }
            Action::WriteTexture {
                to,
                data,
                layout,
                size,
            } => {
                let texture = get(&self.textures, &to.texture, (index, "texture"))?;
                let bytes = load(dir, data, index)?;
                let to = wgpu::TexelCopyTextureInfo {
                    texture,
                    mip_level: to.mip_level,
                    origin: to.origin,
                    aspect: to.aspect,
                };
                gpu.queue.write_texture(to, &bytes, *layout, *size);
            }
            Action::ConfigureSurface(surface, config) => {
                self.surfaces.insert(*surface, Surface::new(config));
                self.indexed.push(Indexed::Surface(*surface));
            }
            Action::GetSurfaceTexture { id, parent } => {
                let surface = self
                    .surfaces
                    .get_mut(parent)
                    .ok_or(ReplayError::UnknownObject {
                        action: index,
                        what: "surface",
                    })?;
                // A fresh texture for each frame, as a swapchain hands out an image whose
                // contents the app cannot rely on.
                let texture = gpu.device.create_texture(&wgpu::TextureDescriptor {
                    view_formats: &surface.view_formats,
                    ..surface.desc.clone()
                });
                surface.current = Some(texture.clone());
                self.textures.insert(*id, texture);
            }
            _ => return Ok(false),
        }
        Ok(true)
    }

    /// Bind group layouts, pipeline layouts and bind groups; `false` for other actions.
    fn binding(
        &mut self,
        gpu: &Gpu,
        action: &TraceAction,
        index: usize,
    ) -> Result<bool, ReplayError> {
        match action {
            Action::CreateBindGroupLayout(id, desc) => {
                let layout =
                    gpu.device
                        .create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
                            label: desc.label.as_deref(),
                            entries: &desc.entries,
                        });
                self.layouts.insert(*id, layout);
            }
            Action::CreatePipelineLayout(id, desc) => {
                let layouts = desc
                    .bind_group_layouts
                    .iter()
                    .map(|l| {
                        l.as_ref()
                            .map(|l| get(&self.layouts, l, (index, "bind group layout")))
                            .transpose()
                    })
                    .collect::<Result<Vec<_>, _>>()?;
                let layout = gpu
                    .device
                    .create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
                        label: desc.label.as_deref(),
                        bind_group_layouts: &layouts,
                        immediate_size: desc.immediate_size,
                    });
                self.pipeline_layouts.insert(*id, layout);
            }
            Action::CreateBindGroup(id, desc) => {
                let group = super::encode::bind_group(gpu, self, desc, index)?;
                self.groups.insert(*id, group);
            }
            Action::GetRenderPipelineBindGroupLayout {
                id,
                pipeline,
                index: group,
            } => {
                let p = get(&self.render_pipelines, pipeline, (index, "render pipeline"))?;
                let layout = p.get_bind_group_layout(*group);
                self.layouts.insert(*id, layout);
            }
            Action::GetComputePipelineBindGroupLayout {
                id,
                pipeline,
                index: group,
            } => {
                let p = get(
                    &self.compute_pipelines,
                    pipeline,
                    (index, "compute pipeline"),
                )?;
                let layout = p.get_bind_group_layout(*group);
                self.layouts.insert(*id, layout);
            }
            _ => return Ok(false),
        }
        Ok(true)
    }

    /// Shader modules, pipelines and query sets; `false` for other actions.
    fn pipeline(
        &mut self,
        gpu: &Gpu,
        action: &TraceAction,
        index: usize,
        dir: &Path,
    ) -> Result<bool, ReplayError> {
        match action {
            Action::CreateShaderModule { id, desc, data } => {
                if !is_wgsl(data) {
                    return Err(ReplayError::Unhandled {
                        action: index,
                        what: "a shader module whose source is not WGSL".into(),
                    });
                }
                let bytes = load(dir, data, index)?;
                let source = String::from_utf8_lossy(&bytes).into_owned();
                let module = gpu
                    .device
                    .create_shader_module(wgpu::ShaderModuleDescriptor {
                        label: desc.label.as_deref(),
                        source: wgpu::ShaderSource::Wgsl(source.into()),
                    });
                self.shaders.insert(*id, module);
            }
            Action::CreateQuerySet { id, desc } => {
                let set = gpu.device.create_query_set(&wgpu::QuerySetDescriptor {
                    label: desc.label.as_deref(),
                    ty: desc.ty,
                    count: desc.count,
                });
                self.query_sets.insert(*id, set);
            }
            Action::CreateComputePipeline { id, desc } => {
                let pipeline = super::encode::compute_pipeline(gpu, self, desc, index)?;
                self.compute_pipelines.insert(*id, pipeline);
            }
            Action::CreateGeneralRenderPipeline { id, desc } => {
                let pipeline = super::encode::render_pipeline(gpu, self, desc, index)?;
                self.render_pipelines.insert(*id, pipeline);
            }
            _ => return Ok(false),
        }
        Ok(true)
    }

    /// Drops and destroys: the object leaves the maps (wgpu keeps what work in flight still
    /// uses). `false` for other actions.
    fn drop(&mut self, action: &TraceAction) -> bool {
        match action {
            Action::DropBuffer(id) | Action::DestroyBuffer(id) => {
                self.buffers.drop_later(*id);
            }
            Action::DropTexture(id) | Action::DestroyTexture(id) => {
                self.textures.drop_later(*id);
            }
            Action::DropTextureView(id) => {
                self.views.drop_later(*id);
            }
            Action::DropSampler(id) => {
                self.samplers.drop_later(*id);
            }
            Action::DropBindGroupLayout(id) => {
                self.layouts.drop_later(*id);
            }
            Action::DropPipelineLayout(id) => {
                self.pipeline_layouts.drop_later(*id);
            }
            Action::DropBindGroup(id) => {
                self.groups.drop_later(*id);
            }
            Action::DropShaderModule(id) => {
                self.shaders.drop_later(*id);
            }
            Action::DropComputePipeline(id) => {
                self.compute_pipelines.drop_later(*id);
            }
            Action::DropRenderPipeline(id) => {
                self.render_pipelines.drop_later(*id);
            }
            Action::DropQuerySet(id) | Action::DestroyQuerySet(id) => {
                self.query_sets.drop_later(*id);
            }
            _ => return false,
        }
        true
    }
}

impl Objects {
    /// Removes every object dropped before the submission just made.
    fn flush(&mut self) {
        self.buffers.flush();
        self.textures.flush();
        self.views.flush();
        self.samplers.flush();
        self.layouts.flush();
        self.pipeline_layouts.flush();
        self.groups.flush();
        self.shaders.flush();
        self.render_pipelines.flush();
        self.compute_pipelines.flush();
        self.query_sets.flush();
    }
}

/// A texture's usage with `COPY_SRC` added where it can be read back (single-sampled colour),
/// so that every frame's image can be copied out.
fn readable(
    usage: wgpu::TextureUsages,
    format: wgpu::TextureFormat,
    samples: u32,
) -> wgpu::TextureUsages {
    if samples == 1 && !format.is_depth_stencil_format() {
        usage | wgpu::TextureUsages::COPY_SRC
    } else {
        usage
    }
}

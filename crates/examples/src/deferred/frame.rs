//! The deferred frame declared as a tilegraph graph: G-buffer, light animation and tiled light
//! culling in compute passes, lighting and transparent glass merged into one render pass,
//! tonemap to the output. The graph comes first ([`DeferredFrame::declare`]), then what changes
//! per frame; the scene, shaders and pipelines it records with are in `scene.rs`.
//!
//! Shared by the `deferred` example, its GPU test and the recording benchmark, which also records
//! the same frame by hand ([`DeferredFrame::record_by_hand`]) to measure what the graph costs.

use glam::{Mat4, Vec3};
use tilegraph::wgpu;
use tilegraph::{Access, BufferHandle, Import, RenderGraph, TextureDesc, TextureHandle};

use super::scene::{
    ALBEDO_FORMAT, CameraUniform, DEPTH_FORMAT, HDR_FORMAT, Instance, LIGHT_BYTES, LIGHT_COUNT,
    LightPath, MASK_WORDS, MATERIAL_FORMAT, NORMAL_FORMAT, Pipelines, Scene, animated_lights,
    tile_counts,
};

/// The deferred renderer: scene, pipelines and cached bind groups; declares one frame at a time.
pub struct DeferredFrame {
    device: wgpu::Device,
    /// Lighting attaches depth read-only (while sampling it), so it merges with the glass.
    /// Adapters without `DownlevelFlags::READ_ONLY_DEPTH_STENCIL` (GL) cannot sample an
    /// attached depth texture: there lighting attaches no depth and the two stay apart.
    depth_in_lighting: bool,
    path: LightPath,
    output_format: wgpu::TextureFormat,
    scene: Scene,
    pipelines: Pipelines,
    binds: Binds,
}

/// The graph handles of a declared frame that the caller binds or reads.
#[derive(Debug, Clone, Copy)]
pub struct FrameHandles {
    /// The imported output (undefined at frame start, kept after it).
    pub output: TextureHandle,
    pub hdr: TextureHandle,
    pub lights: BufferHandle,
}

impl DeferredFrame {
    /// Declares the frame at `size`: the closures record into the graph's passes with the
    /// renderer's pipelines and cached bind groups.
    pub fn declare(&mut self, size: (u32, u32)) -> (RenderGraph<'_>, FrameHandles) {
        let (w, h) = size;
        let (tiles_x, tiles_y) = tile_counts(size);
        let DeferredFrame {
            device,
            depth_in_lighting,
            path,
            output_format,
            scene,
            pipelines: p,
            binds,
        } = self;
        let (device, scene, p) = (&*device, &*scene, &*p);
        let Binds {
            animate,
            cull,
            lighting,
            transparent,
            tonemap,
        } = binds;

        let mut graph = RenderGraph::with_capacity(8, 6);
        let albedo = graph.create_texture("albedo", TextureDesc::new(ALBEDO_FORMAT, w, h));
        let normal = graph.create_texture("normal", TextureDesc::new(NORMAL_FORMAT, w, h));
        let material = graph.create_texture("material", TextureDesc::new(MATERIAL_FORMAT, w, h));
        let depth = graph.create_texture("depth", TextureDesc::new(DEPTH_FORMAT, w, h));
        let hdr = graph.create_texture("hdr", TextureDesc::new(HDR_FORMAT, w, h));
        let lights = graph.create_buffer("lights", u64::from(LIGHT_COUNT) * LIGHT_BYTES);
        let tiles =
            graph.create_buffer("light_tiles", u64::from(tiles_x * tiles_y * MASK_WORDS) * 4);
        let output = graph.import_texture(
            "output",
            TextureDesc::new(*output_format, w, h),
            Import::OUTPUT,
        );

        graph
            .add_render_pass("gbuffer")
            .color(albedo, Access::Clear)
            .color(normal, Access::Clear)
            .color(material, Access::Clear)
            .depth(depth, Access::Clear)
            .execute(move |pass, _| {
                p.draw_gbuffer(scene, pass);
                Ok(())
            });
        let storage = *path == LightPath::Storage;
        let uniform_lights = &scene.uniform_lights;
        if storage {
            graph
                .add_compute_pass("animate_lights")
                .storage_write_buffer(lights)
                .execute(move |pass, ctx| {
                    let buffer = ctx.buffer(lights)?;
                    let group = cached(animate, buffer.clone(), |b| {
                        p.animate_group(device, scene, b)
                    });
                    p.dispatch_animate(group, pass);
                    Ok(())
                });
            graph
                .add_compute_pass("light_cull")
                .sample(depth)
                .storage_read_buffer(lights)
                .storage_write_buffer(tiles)
                .execute(move |pass, ctx| {
                    let key = (
                        ctx.view(depth)?.clone(),
                        ctx.buffer(lights)?.clone(),
                        ctx.buffer(tiles)?.clone(),
                    );
                    let group = cached(cull, key, |(d, l, t)| p.cull_group(device, scene, d, l, t));
                    p.dispatch_cull(group, size, pass);
                    Ok(())
                });
        }
        // Lighting and the glass share the attachments (hdr, depth read-only), so the graph
        // merges them into one render pass.
        let mut pass = graph
            .add_render_pass("lighting")
            .sample(albedo)
            .sample(normal)
            .sample(material)
            .sample(depth)
            .color(hdr, Access::Write);
        if storage {
            pass = pass.storage_read_buffer(lights).storage_read_buffer(tiles);
        }
        if *depth_in_lighting {
            pass = pass.depth(depth, Access::Read);
        }
        pass.execute(move |pass, ctx| {
            let view = |t: TextureHandle| ctx.view(t).cloned();
            let key = (
                [view(albedo)?, view(normal)?, view(material)?, view(depth)?],
                if storage {
                    ctx.buffer(lights)?.clone()
                } else {
                    uniform_lights.clone()
                },
                if storage {
                    ctx.buffer(tiles)?.clone()
                } else {
                    uniform_lights.clone()
                },
            );
            let group = cached(lighting, key, |(g, l, t)| {
                p.lighting_group(device, scene, [&g[0], &g[1], &g[2], &g[3]], l, t)
            });
            p.draw_lighting(group, pass);
            Ok(())
        });
        let mut pass = graph.add_render_pass("transparent");
        if storage {
            pass = pass.storage_read_buffer(lights);
        }
        pass.color(hdr, Access::ReadWrite)
            .depth(depth, Access::Read)
            .execute(move |pass, ctx| {
                let buffer = if storage {
                    ctx.buffer(lights)?
                } else {
                    uniform_lights
                };
                let group = cached(transparent, buffer.clone(), |b| {
                    p.transparent_group(device, scene, b)
                });
                p.draw_transparent(scene, group, pass);
                Ok(())
            });
        graph
            .add_render_pass("tonemap")
            .sample(hdr)
            .color(output, Access::Write)
            .execute(move |pass, ctx| {
                let view = ctx.view(hdr)?;
                let group = cached(tonemap, view.clone(), |v| p.tonemap_group(device, scene, v));
                p.draw_tonemap(group, pass);
                Ok(())
            });
        (
            graph,
            FrameHandles {
                output,
                hdr,
                lights,
            },
        )
    }

    /// Uploads the frame's camera (orbiting with `time`, in seconds) and the glass panes sorted
    /// back to front for it.
    pub fn update(&mut self, queue: &wgpu::Queue, size: (u32, u32), time: f32) {
        let angle = 0.7 + 0.08 * time;
        let eye = Vec3::new(angle.cos() * 27.0, 12.5, angle.sin() * 27.0);
        let view = Mat4::look_at_rh(eye, Vec3::new(0.0, 0.8, 0.0), Vec3::Y);
        let aspect = size.0 as f32 / size.1.max(1) as f32;
        let proj = Mat4::perspective_rh(0.85, aspect, 0.1, 200.0);
        let view_proj = proj * view;
        let tiles = tile_counts(size);
        let camera = CameraUniform {
            view_proj: view_proj.to_cols_array_2d(),
            inv_view_proj: view_proj.inverse().to_cols_array_2d(),
            view: view.to_cols_array_2d(),
            inv_proj: proj.inverse().to_cols_array_2d(),
            eye: eye.extend(1.0).to_array(),
            frame: [size.0 as f32, size.1 as f32, time, 1.0],
            tiles: [tiles.0, tiles.1, 0, 0],
        };
        queue.write_buffer(&self.scene.camera, 0, bytemuck::bytes_of(&camera));
        let distance = |p: &Instance| eye.distance_squared(Vec3::from_slice(&p.model[3][..3]));
        let mut panes = self.scene.panes.clone();
        panes.sort_by(|a, b| distance(b).total_cmp(&distance(a)));
        queue.write_buffer(&self.scene.glass, 0, bytemuck::cast_slice(&panes));
        if self.path == LightPath::Uniform {
            let lights = animated_lights(time);
            queue.write_buffer(&self.scene.uniform_lights, 0, bytemuck::cast_slice(&lights));
        }
    }
}

/// Construction: the scene, and pipelines for the first light path that compiles.
impl DeferredFrame {
    /// Builds the scene and pipelines for a tonemapped output of `output_format`, on the storage
    /// light path where the adapter compiles it, else the uniform one. Shader or pipeline errors
    /// (an adapter too limited for either) come back as text.
    pub fn new(
        adapter: &wgpu::Adapter,
        device: &wgpu::Device,
        output_format: wgpu::TextureFormat,
    ) -> Result<Self, String> {
        Self::with_light_path(adapter, device, output_format, None)
    }

    /// [`new`](Self::new) on the given light path (`None`: the first that compiles).
    pub fn with_light_path(
        adapter: &wgpu::Adapter,
        device: &wgpu::Device,
        output_format: wgpu::TextureFormat,
        path: Option<LightPath>,
    ) -> Result<Self, String> {
        let depth_in_lighting = adapter
            .get_downlevel_capabilities()
            .flags
            .contains(wgpu::DownlevelFlags::READ_ONLY_DEPTH_STENCIL);
        let scene = Scene::new(device);
        let candidates = match path {
            Some(p) => vec![p],
            None => [LightPath::Storage, LightPath::Uniform]
                .into_iter()
                .filter(|p| p.fits(adapter))
                .collect(),
        };
        let mut failures = Vec::new();
        for path in candidates {
            // Limits do not say everything (desktop GL 3.3 reports storage buffers that its
            // GLSL 330 cannot declare): create the pipelines under error scopes and see.
            // Backends report shader translation failures as internal errors.
            let internal = device.push_error_scope(wgpu::ErrorFilter::Internal);
            let validation = device.push_error_scope(wgpu::ErrorFilter::Validation);
            let pipelines = Pipelines::new(device, &scene, output_format, depth_in_lighting, path);
            let validation = pollster::block_on(validation.pop());
            let internal = pollster::block_on(internal.pop());
            if let Some(error) = validation.or(internal) {
                log::warn!(
                    "the {} light path does not compile here: {error}",
                    path.as_str()
                );
                failures.push(format!("{} light path: {error}", path.as_str()));
                continue;
            }
            return Ok(DeferredFrame {
                device: device.clone(),
                depth_in_lighting,
                path,
                output_format,
                scene,
                pipelines,
                binds: Binds::default(),
            });
        }
        if failures.is_empty() {
            failures.push("no light path fits the adapter's limits".into());
        }
        Err(format!(
            "the deferred pipelines cannot be created on this adapter: {}",
            failures.join("; ")
        ))
    }

    /// The light path in use.
    pub fn light_path(&self) -> LightPath {
        self.path
    }

    /// Whether lighting attaches depth (read-only) and so merges with the glass.
    pub fn merges_lighting_with_glass(&self) -> bool {
        self.depth_in_lighting
    }
}

type Cached<K> = Option<(K, wgpu::BindGroup)>;

/// The bind group cached in `slot` if it was made for `key`, else a new one made by `make`.
/// Views and buffers of the executor's pool stay the same from frame to frame, so after the
/// first frame this is a comparison.
fn cached<K: PartialEq>(
    slot: &mut Cached<K>,
    key: K,
    make: impl FnOnce(&K) -> wgpu::BindGroup,
) -> &wgpu::BindGroup {
    if slot.as_ref().is_some_and(|(k, _)| *k != key) {
        *slot = None;
    }
    &slot
        .get_or_insert_with(|| {
            let group = make(&key);
            (key, group)
        })
        .1
}

/// Bind groups over graph resources, cached across frames.
#[derive(Default)]
struct Binds {
    animate: Cached<wgpu::Buffer>,
    cull: Cached<(wgpu::TextureView, wgpu::Buffer, wgpu::Buffer)>,
    lighting: Cached<([wgpu::TextureView; 4], wgpu::Buffer, wgpu::Buffer)>,
    transparent: Cached<wgpu::Buffer>,
    tonemap: Cached<wgpu::TextureView>,
}

/// The same frame recorded by hand, without the graph: the recording benchmark's baseline.
impl DeferredFrame {
    /// Creates what [`record_by_hand`](Self::record_by_hand) renders into at `size`.
    pub fn hand_targets(&self, size: (u32, u32)) -> HandTargets {
        let d = &self.device;
        let texture = |label, format| {
            let texture = d.create_texture(&wgpu::TextureDescriptor {
                label: Some(label),
                size: wgpu::Extent3d {
                    width: size.0,
                    height: size.1,
                    depth_or_array_layers: 1,
                },
                mip_level_count: 1,
                sample_count: 1,
                dimension: wgpu::TextureDimension::D2,
                format,
                usage: wgpu::TextureUsages::RENDER_ATTACHMENT
                    | wgpu::TextureUsages::TEXTURE_BINDING,
                view_formats: &[],
            });
            texture.create_view(&Default::default())
        };
        let buffer = |label, size| {
            d.create_buffer(&wgpu::BufferDescriptor {
                label: Some(label),
                size,
                usage: wgpu::BufferUsages::STORAGE,
                mapped_at_creation: false,
            })
        };
        let (tx, ty) = tile_counts(size);
        let albedo = texture("albedo", ALBEDO_FORMAT);
        let normal = texture("normal", NORMAL_FORMAT);
        let material = texture("material", MATERIAL_FORMAT);
        let depth = texture("depth", DEPTH_FORMAT);
        let hdr = texture("hdr", HDR_FORMAT);
        let lights = buffer("lights", u64::from(LIGHT_COUNT) * LIGHT_BYTES);
        let tiles = buffer("light_tiles", u64::from(tx * ty * MASK_WORDS) * 4);
        let (p, s) = (&self.pipelines, &self.scene);
        let storage = self.path == LightPath::Storage;
        let (lights, tiles) = if storage {
            (lights, tiles)
        } else {
            (s.uniform_lights.clone(), s.uniform_lights.clone())
        };
        HandTargets {
            size,
            compute: storage.then(|| {
                [
                    p.animate_group(d, s, &lights),
                    p.cull_group(d, s, &depth, &lights, &tiles),
                ]
            }),
            groups: [
                p.lighting_group(d, s, [&albedo, &normal, &material, &depth], &lights, &tiles),
                p.transparent_group(d, s, &lights),
                p.tonemap_group(d, s, &hdr),
            ],
            albedo,
            normal,
            material,
            depth,
            hdr,
        }
    }

    /// that the graph's plan records (Planned mode, no DontCare opt-in): the baseline of the
    /// recording benchmark.
    pub fn record_by_hand(
        &self,
        encoder: &mut wgpu::CommandEncoder,
        t: &HandTargets,
        output: &wgpu::TextureView,
    ) {
        let (p, s) = (&self.pipelines, &self.scene);
        let clear = |view| {
            Some(wgpu::RenderPassColorAttachment {
                view,
                depth_slice: None,
                resolve_target: None,
                ops: wgpu::Operations {
                    load: wgpu::LoadOp::Clear(wgpu::Color::TRANSPARENT),
                    store: wgpu::StoreOp::Store,
                },
            })
        };
        {
            let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
                label: Some("gbuffer"),
                color_attachments: &[clear(&t.albedo), clear(&t.normal), clear(&t.material)],
                depth_stencil_attachment: Some(wgpu::RenderPassDepthStencilAttachment {
                    view: &t.depth,
                    depth_ops: Some(wgpu::Operations {
                        load: wgpu::LoadOp::Clear(1.0),
                        store: wgpu::StoreOp::Store,
                    }),
                    stencil_ops: None,
                }),
                ..Default::default()
            });
            p.draw_gbuffer(s, &mut pass);
        }
        for (label, work) in [("animate_lights", 0), ("light_cull", 1)] {
            let Some(groups) = &t.compute else { break };
            let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
                label: Some(label),
                timestamp_writes: None,
            });
            match work {
                0 => p.dispatch_animate(&groups[0], &mut pass),
                _ => p.dispatch_cull(&groups[1], t.size, &mut pass),
            }
        }
        let read_only_depth = Some(wgpu::RenderPassDepthStencilAttachment {
            view: &t.depth,
            depth_ops: None,
            stencil_ops: None,
        });
        if self.depth_in_lighting {
            let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
                label: Some("lighting+transparent"),
                color_attachments: &[clear(&t.hdr)],
                depth_stencil_attachment: read_only_depth,
                ..Default::default()
            });
            p.draw_lighting(&t.groups[0], &mut pass);
            p.draw_transparent(s, &t.groups[1], &mut pass);
        } else {
            let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
                label: Some("lighting"),
                color_attachments: &[clear(&t.hdr)],
                ..Default::default()
            });
            p.draw_lighting(&t.groups[0], &mut pass);
            drop(pass);
            let load = Some(wgpu::RenderPassColorAttachment {
                view: &t.hdr,
                depth_slice: None,
                resolve_target: None,
                ops: wgpu::Operations {
                    load: wgpu::LoadOp::Load,
                    store: wgpu::StoreOp::Store,
                },
            });
            let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
                label: Some("transparent"),
                color_attachments: &[load],
                depth_stencil_attachment: read_only_depth,
                ..Default::default()
            });
            p.draw_transparent(s, &t.groups[1], &mut pass);
        }
        let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
            label: Some("tonemap"),
            color_attachments: &[clear(output)],
            ..Default::default()
        });
        p.draw_tonemap(&t.groups[2], &mut pass);
    }
}

/// Textures, buffers and bind groups of the hand-written frame.
pub struct HandTargets {
    size: (u32, u32),
    /// Light animation and culling (the storage path).
    compute: Option<[wgpu::BindGroup; 2]>,
    /// Lighting, glass, tonemap.
    groups: [wgpu::BindGroup; 3],
    albedo: wgpu::TextureView,
    normal: wgpu::TextureView,
    material: wgpu::TextureView,
    depth: wgpu::TextureView,
    hdr: wgpu::TextureView,
}

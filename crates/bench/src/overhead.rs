//! The scene of `benches/overhead.rs`: pipelines, targets and buffers of the boids-, MRT- and
//! bunnymark-shaped frames, and the commands both the hand-written frame and the graph's pass
//! closures record, so the two record exactly the same work.

use tilegraph::helpers::{BindGroupCache, Binding};
use tilegraph::wgpu;
use tilegraph::{
    Access, BufferHandle, PassContext, PassError, RenderGraph, TextureDesc, TextureHandle,
};

/// The format of every target.
pub const FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba8Unorm;
/// Width and height of every target.
pub const SIZE: u32 = 64;
/// Bytes one bunny's uniforms take in the bunnymark-shaped frame (its dynamic-offset stride).
pub const SLICE: u64 = 256;
const PARTICLES: u64 = 1024;

/// A frame's shape.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shape {
    /// A compute pass moving particles from last frame's buffer into this frame's, then a
    /// render pass drawing them from this frame's as instances.
    Boids,
    /// Draws into two colour targets, then a pass sampling both into the output.
    Mrt,
    /// One render pass, each draw with its own 256 B of one uniform buffer (dynamic offsets).
    Bunnymark,
}

impl Shape {
    /// The shape's name on the command line and in the table.
    pub fn name(self) -> &'static str {
        match self {
            Shape::Boids => "boids",
            Shape::Mrt => "mrt",
            Shape::Bunnymark => "bunnymark",
        }
    }
}

impl std::str::FromStr for Shape {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        [Shape::Boids, Shape::Mrt, Shape::Bunnymark]
            .into_iter()
            .find(|shape| shape.name() == s)
            .ok_or_else(|| format!("unknown shape `{s}`: expected boids, mrt or bunnymark"))
    }
}

const SHADERS: &str = r#"
@group(0) @binding(0) var<storage, read> previous: array<vec2f>;
@group(0) @binding(1) var<storage, read_write> current: array<vec2f>;
@compute @workgroup_size(64) fn simulate(@builtin(global_invocation_id) id: vec3u) {
    current[id.x] = fract(previous[id.x] + vec2f(0.001, 0.002));
}

fn corner(i: u32) -> vec2f { return vec2f(f32((i << 1u) & 2u), f32(i & 2u)) * 0.05; }

@vertex fn particle_vs(@builtin(vertex_index) i: u32, @location(0) at: vec2f) -> @builtin(position) vec4f {
    return vec4f(at * 2.0 - 1.0 + corner(i), 0.0, 1.0);
}
@fragment fn particle_fs() -> @location(0) vec4f { return vec4f(1.0); }

@vertex fn tiny_vs(@builtin(vertex_index) i: u32) -> @builtin(position) vec4f {
    return vec4f(corner(i), 0.0, 1.0);
}
struct Targets { @location(0) albedo: vec4f, @location(1) normal: vec4f }
@fragment fn mrt_fs() -> Targets { return Targets(vec4f(1.0, 0.5, 0.0, 1.0), vec4f(0.0, 0.0, 1.0, 1.0)); }

@group(0) @binding(0) var albedo: texture_2d<f32>;
@group(0) @binding(1) var normal: texture_2d<f32>;
@group(0) @binding(2) var linear: sampler;
@vertex fn full_vs(@builtin(vertex_index) i: u32) -> @builtin(position) vec4f {
    let uv = vec2f(f32((i << 1u) & 2u), f32(i & 2u));
    return vec4f(uv * 2.0 - 1.0, 0.0, 1.0);
}
@fragment fn composite_fs(@builtin(position) p: vec4f) -> @location(0) vec4f {
    let uv = p.xy / 64.0;
    return textureSample(albedo, linear, uv) * textureSample(normal, linear, uv);
}

@group(0) @binding(0) var<uniform> bunny: vec4f;
@vertex fn bunny_vs(@builtin(vertex_index) i: u32) -> @builtin(position) vec4f {
    return vec4f(bunny.xy + corner(i), 0.0, 1.0);
}
@fragment fn bunny_fs() -> @location(0) vec4f { return vec4f(bunny.zw, 1.0, 1.0); }
"#;

/// Everything both ways of recording share.
pub struct Scene {
    pub device: wgpu::Device,
    pub queue: wgpu::Queue,
    pub output: wgpu::Texture,
    pub output_view: wgpu::TextureView,
    /// The MRT targets of the hand-written frame.
    pub mrt_views: [wgpu::TextureView; 2],
    pub sampler: wgpu::Sampler,
    pub composite_layout: wgpu::BindGroupLayout,
    pub hand_composite_group: wgpu::BindGroup,
    pub bunny_layout: wgpu::BindGroupLayout,
    pub hand_bunny_group: wgpu::BindGroup,
    /// The bunnies' uniforms, `SLICE` bytes each.
    pub objects: wgpu::Buffer,
    /// The graph's bind groups.
    pub bind_groups: BindGroupCache,
    simulate_layout: wgpu::BindGroupLayout,
    particles: [wgpu::Buffer; 2],
    hand_simulate_groups: [wgpu::BindGroup; 2],
    simulate: wgpu::ComputePipeline,
    particle: wgpu::RenderPipeline,
    mrt: wgpu::RenderPipeline,
    composite: wgpu::RenderPipeline,
    bunny: wgpu::RenderPipeline,
}

fn texture(device: &wgpu::Device, label: &str, usage: wgpu::TextureUsages) -> wgpu::Texture {
    device.create_texture(&wgpu::TextureDescriptor {
        label: Some(label),
        size: wgpu::Extent3d {
            width: SIZE,
            height: SIZE,
            depth_or_array_layers: 1,
        },
        mip_level_count: 1,
        sample_count: 1,
        dimension: wgpu::TextureDimension::D2,
        format: FORMAT,
        usage,
        view_formats: &[],
    })
}

fn buffer(
    device: &wgpu::Device,
    label: &str,
    size: u64,
    usage: wgpu::BufferUsages,
) -> wgpu::Buffer {
    device.create_buffer(&wgpu::BufferDescriptor {
        label: Some(label),
        size,
        usage,
        mapped_at_creation: false,
    })
}

fn layout_entry(binding: u32, ty: wgpu::BindingType) -> wgpu::BindGroupLayoutEntry {
    wgpu::BindGroupLayoutEntry {
        binding,
        visibility: match ty {
            wgpu::BindingType::Buffer {
                ty: wgpu::BufferBindingType::Storage { .. },
                ..
            } => wgpu::ShaderStages::COMPUTE,
            _ => wgpu::ShaderStages::VERTEX_FRAGMENT,
        },
        ty,
        count: None,
    }
}

fn bind_layout(device: &wgpu::Device, entries: &[wgpu::BindingType]) -> wgpu::BindGroupLayout {
    let entries: Vec<_> = (0..)
        .zip(entries)
        .map(|(i, &ty)| layout_entry(i, ty))
        .collect();
    device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
        label: None,
        entries: &entries,
    })
}

fn storage(read_only: bool) -> wgpu::BindingType {
    wgpu::BindingType::Buffer {
        ty: wgpu::BufferBindingType::Storage { read_only },
        has_dynamic_offset: false,
        min_binding_size: None,
    }
}

/// A render pipeline of `module`'s `vs` and `fs` drawing triangles into `targets` FORMAT targets.
struct RenderPipelineDesc<'a> {
    layout: &'a wgpu::BindGroupLayout,
    entry_points: (&'a str, &'a str),
    targets: usize,
    instances: bool,
}

impl RenderPipelineDesc<'_> {
    fn create(&self, device: &wgpu::Device, module: &wgpu::ShaderModule) -> wgpu::RenderPipeline {
        let layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: None,
            bind_group_layouts: &[Some(self.layout)],
            immediate_size: 0,
        });
        let attributes = wgpu::vertex_attr_array![0 => Float32x2];
        let instance = wgpu::VertexBufferLayout {
            array_stride: 8,
            step_mode: wgpu::VertexStepMode::Instance,
            attributes: &attributes,
        };
        let buffers = if self.instances {
            vec![Some(instance)]
        } else {
            vec![]
        };
        let targets = vec![Some(wgpu::ColorTargetState::from(FORMAT)); self.targets];
        device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
            label: Some(self.entry_points.0),
            layout: Some(&layout),
            vertex: wgpu::VertexState {
                module,
                entry_point: Some(self.entry_points.0),
                compilation_options: Default::default(),
                buffers: &buffers,
            },
            primitive: Default::default(),
            depth_stencil: None,
            multisample: Default::default(),
            fragment: Some(wgpu::FragmentState {
                module,
                entry_point: Some(self.entry_points.1),
                compilation_options: Default::default(),
                targets: &targets,
            }),
            multiview_mask: None,
            cache: None,
        })
    }
}

impl Scene {
    /// The scene on `device`, with uniforms for `max_draws` bunnies.
    pub fn new(device: &wgpu::Device, queue: &wgpu::Queue, max_draws: u32) -> Self {
        use wgpu::{BufferUsages as B, TextureUsages as T};
        let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("overhead"),
            source: wgpu::ShaderSource::Wgsl(SHADERS.into()),
        });
        let output = texture(device, "output", T::RENDER_ATTACHMENT | T::COPY_SRC);
        let mrt = [T::RENDER_ATTACHMENT | T::TEXTURE_BINDING; 2].map(|u| texture(device, "mrt", u));
        let view = |t: &wgpu::Texture| t.create_view(&Default::default());
        let sampler = device.create_sampler(&Default::default());
        let composite_layout = bind_layout(
            device,
            &[
                wgpu::BindingType::Texture {
                    sample_type: wgpu::TextureSampleType::Float { filterable: true },
                    view_dimension: wgpu::TextureViewDimension::D2,
                    multisampled: false,
                },
                wgpu::BindingType::Texture {
                    sample_type: wgpu::TextureSampleType::Float { filterable: true },
                    view_dimension: wgpu::TextureViewDimension::D2,
                    multisampled: false,
                },
                wgpu::BindingType::Sampler(wgpu::SamplerBindingType::Filtering),
            ],
        );
        let mrt_views = [view(&mrt[0]), view(&mrt[1])];
        let hand_composite_group = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("composite"),
            layout: &composite_layout,
            entries: &[
                wgpu::BindGroupEntry {
                    binding: 0,
                    resource: wgpu::BindingResource::TextureView(&mrt_views[0]),
                },
                wgpu::BindGroupEntry {
                    binding: 1,
                    resource: wgpu::BindingResource::TextureView(&mrt_views[1]),
                },
                wgpu::BindGroupEntry {
                    binding: 2,
                    resource: wgpu::BindingResource::Sampler(&sampler),
                },
            ],
        });
        let bunny_layout = bind_layout(
            device,
            &[wgpu::BindingType::Buffer {
                ty: wgpu::BufferBindingType::Uniform,
                has_dynamic_offset: true,
                min_binding_size: wgpu::BufferSize::new(16),
            }],
        );
        let objects = buffer(
            device,
            "objects",
            u64::from(max_draws.max(1)) * SLICE,
            B::UNIFORM | B::COPY_DST,
        );
        let bunnies: Vec<u8> = (0..u64::from(max_draws.max(1)))
            .flat_map(|i| {
                let mut slice = [0u8; SLICE as usize];
                let at = [
                    (i % 97) as f32 / 97.0 - 0.5,
                    (i % 89) as f32 / 89.0 - 0.5,
                    0.5,
                    0.25,
                ];
                for (j, v) in at.iter().enumerate() {
                    slice[j * 4..j * 4 + 4].copy_from_slice(&v.to_le_bytes());
                }
                slice
            })
            .collect();
        queue.write_buffer(&objects, 0, &bunnies);
        let hand_bunny_group = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("bunnies"),
            layout: &bunny_layout,
            entries: &[wgpu::BindGroupEntry {
                binding: 0,
                resource: wgpu::BindingResource::Buffer(wgpu::BufferBinding {
                    buffer: &objects,
                    offset: 0,
                    size: wgpu::BufferSize::new(SLICE),
                }),
            }],
        });
        let simulate_layout = bind_layout(device, &[storage(true), storage(false)]);
        let usage = B::STORAGE | B::VERTEX | B::COPY_DST | B::COPY_SRC;
        let particles = [0, 1].map(|_| buffer(device, "particles", PARTICLES * 8, usage));
        let group = |from: &wgpu::Buffer, to: &wgpu::Buffer| {
            device.create_bind_group(&wgpu::BindGroupDescriptor {
                label: Some("simulate"),
                layout: &simulate_layout,
                entries: &[
                    wgpu::BindGroupEntry {
                        binding: 0,
                        resource: from.as_entire_binding(),
                    },
                    wgpu::BindGroupEntry {
                        binding: 1,
                        resource: to.as_entire_binding(),
                    },
                ],
            })
        };
        let hand_simulate_groups = [
            group(&particles[0], &particles[1]),
            group(&particles[1], &particles[0]),
        ];
        let simulate = device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
            label: Some("simulate"),
            layout: Some(
                &device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
                    label: None,
                    bind_group_layouts: &[Some(&simulate_layout)],
                    immediate_size: 0,
                }),
            ),
            module: &module,
            entry_point: Some("simulate"),
            compilation_options: Default::default(),
            cache: None,
        });
        let empty = bind_layout(device, &[]);
        let render = |layout, entry_points, targets, instances| {
            RenderPipelineDesc {
                layout,
                entry_points,
                targets,
                instances,
            }
            .create(device, &module)
        };
        Scene {
            particle: render(&empty, ("particle_vs", "particle_fs"), 1, true),
            mrt: render(&empty, ("tiny_vs", "mrt_fs"), 2, false),
            composite: render(&composite_layout, ("full_vs", "composite_fs"), 1, false),
            bunny: render(&bunny_layout, ("bunny_vs", "bunny_fs"), 1, false),
            device: device.clone(),
            queue: queue.clone(),
            output_view: view(&output),
            output,
            mrt_views,
            sampler,
            composite_layout,
            hand_composite_group,
            bunny_layout,
            hand_bunny_group,
            objects,
            bind_groups: BindGroupCache::new(),
            simulate_layout,
            particles,
            hand_simulate_groups,
            simulate,
        }
    }

    /// Bytes of one particle buffer.
    pub fn particle_bytes(&self) -> u64 {
        PARTICLES * 8
    }

    /// The hand-written frame's ping-pong: (bind group reading last frame's, this frame's buffer).
    pub fn particles_by_parity(&self, frame: u64) -> (&wgpu::BindGroup, &wgpu::Buffer) {
        let i = (frame % 2) as usize;
        (&self.hand_simulate_groups[i], &self.particles[1 - i])
    }

    /// A render pass clearing `views`.
    pub fn begin<'e>(
        &self,
        encoder: &'e mut wgpu::CommandEncoder,
        views: &[&wgpu::TextureView],
        label: &str,
    ) -> wgpu::RenderPass<'e> {
        let attachments: Vec<_> = views
            .iter()
            .map(|&view| {
                Some(wgpu::RenderPassColorAttachment {
                    view,
                    depth_slice: None,
                    resolve_target: None,
                    ops: wgpu::Operations {
                        load: wgpu::LoadOp::Clear(wgpu::Color::TRANSPARENT),
                        store: wgpu::StoreOp::Store,
                    },
                })
            })
            .collect();
        encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
            label: Some(label),
            color_attachments: &attachments,
            ..Default::default()
        })
    }

    /// Moves the particles (bind group `group`: last frame's buffer, this frame's).
    pub fn simulate(&self, pass: &mut wgpu::ComputePass<'_>, group: &wgpu::BindGroup) {
        pass.set_pipeline(&self.simulate);
        pass.set_bind_group(0, group, &[]);
        pass.dispatch_workgroups((PARTICLES / 64) as u32, 1, 1);
    }

    /// The graph's `simulate` closure: its bind group from the cache.
    pub fn simulate_in_graph(
        &self,
        pass: &mut wgpu::ComputePass<'_>,
        ctx: &PassContext<'_>,
        [previous, current]: [BufferHandle; 2],
    ) -> Result<(), PassError> {
        let bindings = [Binding::Buffer(previous), Binding::Buffer(current)];
        let group = self
            .bind_groups
            .bind_group(ctx, &self.simulate_layout, &bindings)?;
        self.simulate(pass, &group);
        Ok(())
    }

    /// The boids-shaped frame's passes into `graph`: `simulate` moves the particles from the
    /// `particles` history buffer's previous half into its current one (where the hand-written
    /// frame picks two buffers by frame parity), `draw` draws them `draws` times into `output`.
    pub fn declare_boids<'s>(
        &'s self,
        graph: &mut RenderGraph<'s>,
        draws: u32,
        output: TextureHandle,
    ) {
        let particles = graph.history_buffer("particles", self.particle_bytes());
        graph
            .add_compute_pass("simulate")
            .storage_read_buffer(particles.previous)
            .storage_write_buffer(particles.current)
            .execute(move |pass, ctx| {
                self.simulate_in_graph(pass, ctx, [particles.previous, particles.current])
            });
        graph
            .add_render_pass("draw")
            .vertex(particles.current)
            .color(output, Access::Clear)
            .execute(move |pass, ctx| {
                self.draw_particles(pass, ctx.buffer(particles.current)?, draws);
                Ok(())
            });
    }

    /// `draws` instanced draws of one particle each from `particles`.
    pub fn draw_particles(
        &self,
        pass: &mut wgpu::RenderPass<'_>,
        particles: &wgpu::Buffer,
        draws: u32,
    ) {
        pass.set_pipeline(&self.particle);
        pass.set_vertex_buffer(0, particles.slice(..));
        for i in 0..draws {
            let first = i % PARTICLES as u32;
            pass.draw(0..3, first..first + 1);
        }
    }

    /// `draws` draws into both MRT targets.
    pub fn draw_mrt(&self, pass: &mut wgpu::RenderPass<'_>, draws: u32) {
        pass.set_pipeline(&self.mrt);
        for _ in 0..draws {
            pass.draw(0..3, 0..1);
        }
    }

    /// The MRT-shaped frame's passes into `graph`: `gbuffer` clears both targets and draws into
    /// them `draws` times, `composite` samples them into `output`.
    pub fn declare_mrt<'s>(
        &'s self,
        graph: &mut RenderGraph<'s>,
        draws: u32,
        output: TextureHandle,
    ) {
        let desc = TextureDesc::new(FORMAT, SIZE, SIZE);
        let targets = [
            graph.create_texture("albedo", desc),
            graph.create_texture("normal", desc),
        ];
        graph
            .add_render_pass("gbuffer")
            .color(targets[0], Access::Clear)
            .color(targets[1], Access::Clear)
            .execute(move |pass, _| {
                self.draw_mrt(pass, draws);
                Ok(())
            });
        graph
            .add_render_pass("composite")
            .sample(targets[0])
            .sample(targets[1])
            .color(output, Access::Clear)
            .execute(move |pass, ctx| {
                let bindings = [
                    targets[0].into(),
                    targets[1].into(),
                    Binding::Sampler(&self.sampler),
                ];
                let group = self
                    .bind_groups
                    .bind_group(ctx, &self.composite_layout, &bindings)?;
                self.composite(pass, &group);
                Ok(())
            });
    }

    /// The pass sampling both MRT targets (`group` binds them).
    pub fn composite(&self, pass: &mut wgpu::RenderPass<'_>, group: &wgpu::BindGroup) {
        pass.set_pipeline(&self.composite);
        pass.set_bind_group(0, group, &[]);
        pass.draw(0..3, 0..1);
    }

    /// `draws` bunnies, each at its own 256 B of the uniform buffer.
    pub fn draw_bunnies(
        &self,
        pass: &mut wgpu::RenderPass<'_>,
        group: &wgpu::BindGroup,
        draws: u32,
    ) {
        pass.set_pipeline(&self.bunny);
        for i in 0..draws {
            pass.set_bind_group(0, group, &[i * SLICE as u32]);
            pass.draw(0..3, 0..1);
        }
    }
}

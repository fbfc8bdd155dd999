//! Running graphs without a window: a device opened for the plans it records (or, opted into,
//! with every adapter limit), wgpu's uncaptured errors collected, reading depth
//! back where the backend cannot copy it, and PNGs. Used by `tilegraph run`, the examples and
//! the GPU tests. Opening the device and reading back are the library's
//! [`tilegraph::helpers`], re-exported here.

use std::sync::{Arc, Mutex};

use tilegraph::helpers::{DeviceOptions, open_device_with};
use tilegraph::{ExecuteError, Executor, ExecutorOptions};

pub use tilegraph::helpers::{
    Backend, DeviceError, Readback, ReadbackError, instance_descriptor, read_buffer,
    read_subresource, read_texture,
};

/// A render pipeline of one shader module's vertex stage `vs` (no vertex buffers) and fragment
/// stage `fs`: the shape of every pipeline of the synthetic renderer and the GPU tests. `new`
/// gives the plain case (layout derived from the shader, no depth, one sample, one view, no
/// pipeline constants); set the other fields with struct update syntax, then `create` it.
#[derive(Clone)]
pub struct ShaderPipeline<'a> {
    /// The pipeline's label.
    pub label: &'a str,
    /// The module of both stages.
    pub module: &'a wgpu::ShaderModule,
    /// The vertex and fragment entry points.
    pub entry_points: (&'a str, &'a str),
    /// `None` derives the layout from the shader.
    pub layout: Option<&'a wgpu::PipelineLayout>,
    /// The colour targets.
    pub targets: &'a [Option<wgpu::ColorTargetState>],
    /// The depth/stencil state.
    pub depth: Option<wgpu::DepthStencilState>,
    /// Sample count and mask.
    pub multisample: wgpu::MultisampleState,
    /// Pipeline-overridable constants, given to both stages.
    pub constants: &'a [(&'a str, f64)],
    /// The views of a multiview render pass.
    pub multiview_mask: Option<std::num::NonZeroU32>,
}

impl<'a> ShaderPipeline<'a> {
    /// The plain pipeline of `module`'s `vs` and `fs` drawing into `targets`.
    pub fn new(
        label: &'a str,
        module: &'a wgpu::ShaderModule,
        entry_points: (&'a str, &'a str),
        targets: &'a [Option<wgpu::ColorTargetState>],
    ) -> Self {
        ShaderPipeline {
            label,
            module,
            entry_points,
            layout: None,
            targets,
            depth: None,
            multisample: wgpu::MultisampleState::default(),
            constants: &[],
            multiview_mask: None,
        }
    }

    /// Creates the pipeline.
    pub fn create(&self, device: &wgpu::Device) -> wgpu::RenderPipeline {
        let (vs, fs) = self.entry_points;
        device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
            label: Some(self.label),
            layout: self.layout,
            vertex: wgpu::VertexState {
                module: self.module,
                entry_point: Some(vs),
                compilation_options: wgpu::PipelineCompilationOptions {
                    constants: self.constants,
                    ..Default::default()
                },
                buffers: &[],
            },
            primitive: Default::default(),
            depth_stencil: self.depth.clone(),
            multisample: self.multisample,
            fragment: Some(wgpu::FragmentState {
                module: self.module,
                entry_point: Some(fs),
                compilation_options: wgpu::PipelineCompilationOptions {
                    constants: self.constants,
                    ..Default::default()
                },
                targets: self.targets,
            }),
            multiview_mask: self.multiview_mask,
            cache: None,
        })
    }
}

/// The [`ShaderPipeline`] of `module`'s `vs` and `fs` drawing into one colour target of
/// `format`, with `layout` (`None`: derived from the shader).
pub fn color_pipeline(
    device: &wgpu::Device,
    label: &str,
    module: &wgpu::ShaderModule,
    layout: Option<&wgpu::PipelineLayout>,
    entry_points: (&str, &str),
    format: wgpu::TextureFormat,
) -> wgpu::RenderPipeline {
    ShaderPipeline {
        layout,
        ..ShaderPipeline::new(label, module, entry_points, &[Some(format.into())])
    }
    .create(device)
}

/// A device with everything needed to drive it headless.
pub struct Gpu {
    /// The instance.
    pub instance: wgpu::Instance,
    /// The chosen adapter.
    pub adapter: wgpu::Adapter,
    /// The device.
    pub device: wgpu::Device,
    /// Its queue.
    pub queue: wgpu::Queue,
    /// wgpu errors no error scope caught (validation layer messages go to `log`).
    pub uncaptured: Arc<Mutex<Vec<String>>>,
}

impl Gpu {
    /// One line naming the adapter and backend.
    pub fn describe(&self) -> String {
        let info = self.adapter.get_info();
        format!("{} ({:?}, {:?})", info.name, info.backend, info.device_type)
    }

    /// An executor for this device that knows the adapter's downlevel flags.
    pub fn executor(&self, options: ExecutorOptions) -> Executor {
        let flags = self.adapter.get_downlevel_capabilities().flags;
        Executor::with_options(
            &self.device,
            &self.queue,
            options.with_downlevel_flags(flags),
        )
    }

    /// Whether the device's submissions execute: a 4×4 texture cleared by a render pass reads
    /// back as the clear colour. `false` on a driver that records and submits without running
    /// anything (Mesa's drm shims), where read-backs return whatever the memory held.
    pub fn executes_submissions(&self) -> bool {
        let usage = wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::COPY_SRC;
        let (texture, view) = self.target(
            "executes_submissions",
            (4, 4),
            wgpu::TextureFormat::Rgba8Unorm,
            usage,
        );
        self.clears_magenta(None, &view, None, &texture)
    }

    /// Whether a render pass clearing `view` to magenta (and resolving it into `resolve`, the
    /// samples discarded) leaves `read` magenta.
    fn clears_magenta(
        &self,
        label: Option<&str>,
        view: &wgpu::TextureView,
        resolve: Option<&wgpu::TextureView>,
        read: &wgpu::Texture,
    ) -> bool {
        let mut encoder = self.device.create_command_encoder(&Default::default());
        let _ = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
            label,
            color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                view,
                depth_slice: None,
                resolve_target: resolve,
                ops: wgpu::Operations {
                    load: wgpu::LoadOp::Clear(wgpu::Color {
                        r: 1.0,
                        g: 0.0,
                        b: 1.0,
                        a: 1.0,
                    }),
                    store: match resolve {
                        Some(_) => wgpu::StoreOp::Discard,
                        None => wgpu::StoreOp::Store,
                    },
                },
            })],
            ..Default::default()
        });
        self.queue.submit([encoder.finish()]);
        read_texture(&self.device, &self.queue, read)
            .is_ok_and(|r| r.bytes.chunks_exact(4).all(|t| t == [255, 0, 255, 255]))
    }

    /// A single-sampled 2D texture of one mip and one layer, and a view of all of it: what a
    /// frame renders into when there is no surface.
    pub fn target(
        &self,
        label: &str,
        (width, height): (u32, u32),
        format: wgpu::TextureFormat,
        usage: wgpu::TextureUsages,
    ) -> (wgpu::Texture, wgpu::TextureView) {
        let texture = self.device.create_texture(&wgpu::TextureDescriptor {
            label: Some(label),
            size: wgpu::Extent3d {
                width,
                height,
                depth_or_array_layers: 1,
            },
            mip_level_count: 1,
            sample_count: 1,
            dimension: wgpu::TextureDimension::D2,
            format,
            usage,
            view_formats: &[],
        });
        let view = texture.create_view(&Default::default());
        (texture, view)
    }

    /// Reads mip 0 of layer 0 of `texture` like [`read_texture`]; a depth texture on an adapter
    /// that cannot copy depth to buffers (no `DownlevelFlags::DEPTH_TEXTURE_AND_BUFFER_COPIES`:
    /// wgpu's GL backend) is read with a draw instead (it needs `TEXTURE_BINDING`), giving the
    /// same bytes a copy would.
    pub fn read_texture(&self, texture: &wgpu::Texture) -> Result<Readback, ReadbackError> {
        let copies = self
            .adapter
            .get_downlevel_capabilities()
            .flags
            .contains(wgpu::DownlevelFlags::DEPTH_TEXTURE_AND_BUFFER_COPIES);
        let format = texture.format();
        if copies
            || !format.is_depth_stencil_format()
            || texture.sample_count() != 1
            || !texture
                .usage()
                .contains(wgpu::TextureUsages::TEXTURE_BINDING)
        {
            return read_texture(&self.device, &self.queue, texture);
        }
        let unreadable = ReadbackError::Unreadable {
            format,
            samples: texture.sample_count(),
        };
        let depth_format = format
            .aspect_specific_format(wgpu::TextureAspect::DepthOnly)
            .unwrap_or(format);
        if !matches!(
            depth_format,
            wgpu::TextureFormat::Depth32Float | wgpu::TextureFormat::Depth16Unorm
        ) {
            return Err(unreadable);
        }
        let bits = self.depth_bits_by_draw(texture);
        let readback = read_texture(&self.device, &self.queue, &bits)?;
        let bytes = match depth_format {
            wgpu::TextureFormat::Depth16Unorm => readback
                .bytes
                .chunks_exact(4)
                .flat_map(|c| {
                    let depth = f32::from_le_bytes([c[0], c[1], c[2], c[3]]);
                    // Exact: a unorm16 depth is k / 65535 as the shader reads it.
                    ((depth * 65535.0).round() as u16).to_le_bytes()
                })
                .collect(),
            _ => readback.bytes,
        };
        Ok(Readback {
            format: depth_format,
            width: readback.width,
            height: readback.height,
            bytes,
        })
    }

    /// An `r32uint` texture holding the bits of `depth`'s mip 0, layer 0, drawn from it.
    fn depth_bits_by_draw(&self, depth: &wgpu::Texture) -> wgpu::Texture {
        let device = &self.device;
        let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("tilegraph depth readback"),
            source: wgpu::ShaderSource::Wgsl(
                "@group(0) @binding(0) var depth: texture_2d<f32>;
@vertex fn vs(@builtin(vertex_index) i: u32) -> @builtin(position) vec4f {
    var p = array(vec2f(-1.0, -1.0), vec2f(3.0, -1.0), vec2f(-1.0, 3.0));
    return vec4f(p[i], 0.5, 1.0);
}
@fragment fn fs(@builtin(position) pos: vec4f) -> @location(0) vec4u {
    return vec4u(bitcast<u32>(textureLoad(depth, vec2i(pos.xy), 0).x), 0u, 0u, 0u);
}
"
                .into(),
            ),
        });
        let (target, target_view) = self.target(
            "tilegraph depth readback",
            (depth.width(), depth.height()),
            wgpu::TextureFormat::R32Uint,
            wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::COPY_SRC,
        );
        let pipeline = color_pipeline(
            device,
            "tilegraph depth readback",
            &module,
            None,
            ("vs", "fs"),
            wgpu::TextureFormat::R32Uint,
        );
        let view = depth.create_view(&wgpu::TextureViewDescriptor {
            aspect: wgpu::TextureAspect::DepthOnly,
            dimension: Some(wgpu::TextureViewDimension::D2),
            mip_level_count: Some(1),
            array_layer_count: Some(1),
            ..Default::default()
        });
        let group = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("tilegraph depth readback"),
            layout: &pipeline.get_bind_group_layout(0),
            entries: &[wgpu::BindGroupEntry {
                binding: 0,
                resource: wgpu::BindingResource::TextureView(&view),
            }],
        });
        let mut encoder = device.create_command_encoder(&Default::default());
        {
            let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
                label: Some("tilegraph depth readback"),
                color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                    view: &target_view,
                    depth_slice: None,
                    resolve_target: None,
                    ops: wgpu::Operations {
                        load: wgpu::LoadOp::Clear(wgpu::Color::TRANSPARENT),
                        store: wgpu::StoreOp::Store,
                    },
                })],
                ..Default::default()
            });
            pass.set_pipeline(&pipeline);
            pass.set_bind_group(0, &group, &[]);
            pass.draw(0..3, 0..1);
        }
        self.queue.submit([encoder.finish()]);
        target
    }

    /// Whether a multisampled texture that shaders may read (`TEXTURE_BINDING`) holds what is
    /// rendered into it. Always on Vulkan and Metal. wgpu 30's GL backend allocates such a
    /// texture with the `GL_TEXTURE_2D` target instead of `GL_TEXTURE_2D_MULTISAMPLE` (wgpu issue
    /// #6084): Mesa rejects it (`GL_INVALID_ENUM`) and leaves the texture without storage, so
    /// draws into it and resolves from it do nothing, silently; NVIDIA's GL 3.3 context leaves it
    /// empty too. Found out by rendering: a clear of such a texture, resolved and read back.
    pub fn sampled_multisample_textures_work(&self) -> bool {
        if self.adapter.get_info().backend != wgpu::Backend::Gl {
            return true;
        }
        let format = wgpu::TextureFormat::Rgba8Unorm;
        let msaa = self.device.create_texture(&wgpu::TextureDescriptor {
            label: Some("tilegraph multisample probe"),
            size: wgpu::Extent3d {
                width: 4,
                height: 4,
                depth_or_array_layers: 1,
            },
            mip_level_count: 1,
            sample_count: 4,
            dimension: wgpu::TextureDimension::D2,
            format,
            usage: wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::TEXTURE_BINDING,
            view_formats: &[],
        });
        let (resolved, resolved_view) = self.target(
            "tilegraph multisample probe",
            (4, 4),
            format,
            wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::COPY_SRC,
        );
        let view = msaa.create_view(&Default::default());
        self.clears_magenta(
            Some("tilegraph multisample probe"),
            &view,
            Some(&resolved_view),
            &resolved,
        )
    }

    /// Errors wgpu raised outside any error scope since the last call.
    pub fn take_uncaptured_errors(&self) -> Vec<String> {
        std::mem::take(&mut *self.uncaptured.lock().unwrap_or_else(|e| e.into_inner()))
    }
}

/// Sends `log` records (wgpu's warnings and errors, validation layer messages) to stderr,
/// filtered by `RUST_LOG` (default `warn`). Call once at start-up; later calls do nothing.
pub fn init_logging() {
    let _ = env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .format_timestamp(None)
        .try_init();
}

/// Keeps a headless process off the window systems. Mesa's Vulkan device-selection layer (an
/// implicit layer on most Linux machines) connects to the Wayland and X servers whenever adapters
/// are enumerated, to find the GPU driving the display; on a machine without one that prints
/// `error: XDG_RUNTIME_DIR is invalid or not set in the environment.` before any work starts.
/// Headless work picks its adapter itself, so this turns the layer off (`NODEVICE_SELECT=1`)
/// unless the environment already says otherwise. Processes that present to a window leave it on.
/// (The library leaves the environment to the application: [`tilegraph::helpers::open_device`].)
///
/// # Safety
///
/// It changes the process environment: call it before any other thread runs (first thing in
/// `main`), as [`std::env::set_var`] requires.
pub unsafe fn stay_off_window_systems() {
    if std::env::var_os("NODEVICE_SELECT").is_none() {
        // SAFETY: the caller guarantees no other thread reads or writes the environment.
        unsafe { std::env::set_var("NODEVICE_SELECT", "1") };
    }
}

/// Whether `TILEGRAPH_VALIDATION` asks for the API validation layers (`1`, `true`, `yes`).
pub fn validation_from_env() -> bool {
    std::env::var("TILEGRAPH_VALIDATION").is_ok_and(|v| matches!(v.as_str(), "1" | "true" | "yes"))
}

/// The options a headless device starts from: the `backend`, `validation` layers and
/// timestamps where the adapter has them. Add each plan the device will record with
/// [`DeviceOptions::for_plan`] (the documented path), or take `adapter_limits`: every limit of
/// the adapter and the features any description may use (adapter-specific format features,
/// multiview, multisampled arrays), for graphs not known when the device opens.
pub fn device_options(backend: Backend, validation: bool, adapter_limits: bool) -> DeviceOptions {
    let options = DeviceOptions::new(backend)
        .with_validation(validation)
        .with_optional_features(wgpu::Features::TIMESTAMP_QUERY);
    if adapter_limits {
        options
            .with_optional_features(
                wgpu::Features::TEXTURE_ADAPTER_SPECIFIC_FORMAT_FEATURES
                    | wgpu::Features::MULTIVIEW
                    | wgpu::Features::MULTISAMPLE_ARRAY,
            )
            .with_adapter_limits()
    } else {
        options
    }
}

/// Opens a device as `options` ask ([`device_options`]): a hardware adapter if there is one on
/// the backend, else a software one.
pub fn open(options: &DeviceOptions) -> Result<Gpu, DeviceError> {
    let instance = wgpu::Instance::new(instance_descriptor(options.backend, options.validation));
    open_with(instance, options, None)
}

/// [`open`] on a given instance; with `surface`, only adapters that can present to it count.
/// wgpu errors no error scope catches are collected in [`Gpu::uncaptured`].
pub fn open_with(
    instance: wgpu::Instance,
    options: &DeviceOptions,
    surface: Option<&wgpu::Surface<'_>>,
) -> Result<Gpu, DeviceError> {
    let opened = open_device_with(instance, options, surface)?;
    let uncaptured = Arc::new(Mutex::new(Vec::new()));
    let sink = uncaptured.clone();
    opened
        .device
        .on_uncaptured_error(Arc::new(move |error: wgpu::Error| {
            sink.lock()
                .unwrap_or_else(|e| e.into_inner())
                .push(error.to_string());
        }));
    Ok(Gpu {
        instance: opened.instance,
        adapter: opened.adapter,
        device: opened.device,
        queue: opened.queue,
        uncaptured,
    })
}

/// 64-bit FNV-1a of the bytes: a stable fingerprint of read-back contents.
pub fn fnv1a64(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// Writes 8-bit RGBA pixels as a PNG.
pub fn write_png(
    path: &std::path::Path,
    width: u32,
    height: u32,
    rgba: &[u8],
) -> std::io::Result<()> {
    let file = std::io::BufWriter::new(std::fs::File::create(path)?);
    let mut encoder = png::Encoder::new(file, width, height);
    encoder.set_color(png::ColorType::Rgba);
    encoder.set_depth(png::BitDepth::Eight);
    let mut writer = encoder.write_header().map_err(std::io::Error::other)?;
    writer
        .write_image_data(rgba)
        .map_err(std::io::Error::other)?;
    writer.finish().map_err(std::io::Error::other)
}

/// Reads an 8-bit RGBA (or RGB) PNG: `(width, height, rgba)`.
pub fn read_png(path: &std::path::Path) -> std::io::Result<(u32, u32, Vec<u8>)> {
    let decoder = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(path)?));
    let mut reader = decoder.read_info().map_err(std::io::Error::other)?;
    let mut buf = vec![0; reader.output_buffer_size().unwrap_or(0)];
    let info = reader.next_frame(&mut buf).map_err(std::io::Error::other)?;
    buf.truncate(info.buffer_size());
    let rgba = match (info.color_type, info.bit_depth) {
        (png::ColorType::Rgba, png::BitDepth::Eight) => buf,
        (png::ColorType::Rgb, png::BitDepth::Eight) => buf
            .chunks_exact(3)
            .flat_map(|c| [c[0], c[1], c[2], 255])
            .collect(),
        other => {
            return Err(std::io::Error::other(format!(
                "unsupported PNG layout {other:?}; expected 8-bit RGBA"
            )));
        }
    };
    Ok((info.width, info.height, rgba))
}

/// An [`ExecuteError`] with its chain of sources in one message; a source whose message the error
/// already quotes is not repeated.
pub fn describe_failure(error: &ExecuteError) -> String {
    let mut message = error.to_string();
    let mut source = std::error::Error::source(error);
    while let Some(s) = source {
        let text = s.to_string();
        if !message.contains(&text) {
            message.push_str(": ");
            message.push_str(&text);
        }
        source = s.source();
    }
    message
}

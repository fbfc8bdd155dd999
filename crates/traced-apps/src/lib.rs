//! What the traced apps share: their command line, the device each opens as an ordinary wgpu app
//! does (recording wgpu's API trace when asked), and the offscreen images that stand in for a
//! window's surface.
//!
//! Each app is a small renderer by another author, rewritten for wgpu 30 (the crate's README
//! says which and what changed). None of them knows about tilegraph: they exist so that
//! `tilegraph trace` and `tilegraph replay` have frames written by other people to read.

use std::path::PathBuf;

use clap::Parser;

mod setup;

pub use setup::{
    CLEAR_COLOR, bind_group, buffer_init, color_target, depth_target, fragment_stage,
    pipeline_desc, render_pass, texture_desc, vertex_stage,
};

/// The command line every app takes.
#[derive(Debug, Clone, Parser)]
pub struct Args {
    /// The wgpu backend: `vulkan` (lavapipe where there is no GPU) or `gl` (llvmpipe).
    #[arg(long, default_value = "vulkan", value_parser = ["vulkan", "gl"])]
    pub backend: String,
    /// Records wgpu's API trace (`trace.ron` and its data files) into this directory.
    #[arg(long)]
    pub trace_dir: Option<PathBuf>,
    /// How many frames to draw; every frame advances the scene by a fixed step.
    #[arg(long, default_value_t = 3)]
    pub frames: u32,
    /// The size of the offscreen images, WIDTHxHEIGHT.
    #[arg(long, default_value = "256x144", value_parser = parse_size)]
    pub size: (u32, u32),
    /// Writes the last frame to this file as a binary PPM (P6) image.
    #[arg(long)]
    pub output: Option<PathBuf>,
}

fn parse_size(s: &str) -> Result<(u32, u32), String> {
    let (w, h) = s
        .split_once('x')
        .ok_or_else(|| format!("`{s}` is not WIDTHxHEIGHT"))?;
    let parse = |v: &str| {
        v.parse::<u32>()
            .ok()
            .filter(|n| (1..=8192).contains(n))
            .ok_or_else(|| format!("`{v}` in `{s}` is not a size from 1 to 8192"))
    };
    Ok((parse(w)?, parse(h)?))
}

/// An adapter, its device and queue.
pub struct Gpu {
    /// The adapter the device was opened on.
    pub adapter: wgpu::Adapter,
    /// The device (recording the trace when `--trace-dir` is given).
    pub device: wgpu::Device,
    /// Its queue.
    pub queue: wgpu::Queue,
}

/// Opens a device as an ordinary wgpu app does: the instance on the backend asked for, the
/// default adapter, the downlevel limits raised to what the adapter has for resolution, the
/// `optional` features the adapter has, and wgpu's API trace into `--trace-dir`.
pub fn open(args: &Args, optional: wgpu::Features) -> Result<Gpu, String> {
    let backends = match args.backend.as_str() {
        "gl" => wgpu::Backends::GL,
        _ => wgpu::Backends::VULKAN,
    };
    let instance = wgpu::Instance::new(wgpu::InstanceDescriptor {
        backends,
        ..wgpu::InstanceDescriptor::new_without_display_handle()
    });
    let adapter = pollster::block_on(instance.request_adapter(&Default::default()))
        .map_err(|e| format!("no {} adapter: {e}", args.backend))?;
    let trace = match &args.trace_dir {
        Some(dir) => {
            std::fs::create_dir_all(dir)
                .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
            wgpu::Trace::Directory(dir.clone())
        }
        None => wgpu::Trace::Off,
    };
    let (device, queue) = pollster::block_on(adapter.request_device(&wgpu::DeviceDescriptor {
        label: None,
        required_features: adapter.features() & optional,
        required_limits: wgpu::Limits::downlevel_defaults().using_resolution(adapter.limits()),
        trace,
        ..Default::default()
    }))
    .map_err(|e| format!("cannot open a device: {e}"))?;
    let info = adapter.get_info();
    eprintln!("adapter: {} ({:?})", info.name, info.backend);
    Ok(Gpu {
        adapter,
        device,
        queue,
    })
}

/// How many images the offscreen "swapchain" holds: a frame draws into the one written three
/// frames before, as with a window's FIFO surface.
pub const IMAGES: usize = 3;

/// The offscreen images that stand in for a window's surface. Each frame takes the next image
/// ([`Screen::acquire`]) and hands it on ([`Screen::present`]): a copy into a read-back buffer,
/// as a compositor would read a presented image.
pub struct Screen {
    /// The images' format (what a surface usually offers).
    pub format: wgpu::TextureFormat,
    /// Width and height.
    pub size: (u32, u32),
    images: Vec<wgpu::Texture>,
    readback: wgpu::Buffer,
    next: usize,
}

/// A row of the read-back buffer: 4 bytes a texel, padded to wgpu's copy alignment.
fn padded_row(width: u32) -> u32 {
    (width * 4).next_multiple_of(wgpu::COPY_BYTES_PER_ROW_ALIGNMENT)
}

impl Screen {
    /// Three `rgba8unorm-srgb` images of `size`, and the read-back buffer.
    pub fn new(device: &wgpu::Device, size: (u32, u32)) -> Self {
        let format = wgpu::TextureFormat::Rgba8UnormSrgb;
        let images = (0..IMAGES)
            .map(|i| {
                device.create_texture(&texture_desc(
                    Some(&format!("screen {i}")),
                    extent(size),
                    format,
                    wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::COPY_SRC,
                ))
            })
            .collect();
        let readback = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("screen read-back"),
            size: u64::from(padded_row(size.0) * size.1),
            usage: wgpu::BufferUsages::COPY_DST | wgpu::BufferUsages::MAP_READ,
            mapped_at_creation: false,
        });
        Screen {
            format,
            size,
            images,
            readback,
            next: 0,
        }
    }

    /// The image this frame draws into.
    pub fn acquire(&self) -> wgpu::TextureView {
        self.images[self.next].create_view(&Default::default())
    }

    /// Ends the frame: `encoder` copies this frame's image into the read-back buffer and is
    /// submitted; the next frame takes the next image.
    pub fn present(&mut self, queue: &wgpu::Queue, mut encoder: wgpu::CommandEncoder) {
        encoder.copy_texture_to_buffer(
            self.images[self.next].as_image_copy(),
            wgpu::TexelCopyBufferInfo {
                buffer: &self.readback,
                layout: wgpu::TexelCopyBufferLayout {
                    offset: 0,
                    bytes_per_row: Some(padded_row(self.size.0)),
                    rows_per_image: None,
                },
            },
            extent(self.size),
        );
        queue.submit([encoder.finish()]);
        self.next = (self.next + 1) % IMAGES;
    }

    /// The last presented image's texels (rows unpadded), once the GPU is done.
    pub fn read_last(&self, device: &wgpu::Device) -> Result<Vec<u8>, String> {
        let (tx, rx) = std::sync::mpsc::channel();
        self.readback.map_async(wgpu::MapMode::Read, .., move |r| {
            let _ = tx.send(r);
        });
        device
            .poll(wgpu::PollType::wait_indefinitely())
            .map_err(|e| format!("waiting for the GPU: {e}"))?;
        rx.recv()
            .map_err(|e| e.to_string())?
            .map_err(|e| format!("mapping the read-back buffer: {e}"))?;
        let mapped = self
            .readback
            .get_mapped_range(..)
            .map_err(|e| format!("mapping the read-back buffer: {e}"))?;
        let row = padded_row(self.size.0) as usize;
        let texels = mapped
            .chunks_exact(row)
            .flat_map(|r| &r[..self.size.0 as usize * 4])
            .copied()
            .collect();
        drop(mapped);
        self.readback.unmap();
        Ok(texels)
    }
}

/// A 2D extent of one layer.
pub fn extent((width, height): (u32, u32)) -> wgpu::Extent3d {
    wgpu::Extent3d {
        width,
        height,
        depth_or_array_layers: 1,
    }
}

/// 64-bit FNV-1a: the fingerprint each app prints of its last frame.
pub fn fnv1a64(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(*b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// After an app's frames: reads the last presented image back and prints its fingerprint (one
/// line, the same on every run of the same frames).
pub fn finish(name: &str, gpu: &Gpu, screen: &Screen, args: &Args) -> Result<(), String> {
    let texels = screen.read_last(&gpu.device)?;
    let frames = args.frames;
    if let Some(path) = &args.output {
        let mut ppm = format!("P6\n{} {}\n255\n", screen.size.0, screen.size.1).into_bytes();
        ppm.extend(texels.chunks_exact(4).flat_map(|t| [t[0], t[1], t[2]]));
        std::fs::write(path, ppm).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    println!(
        "{name}: {frames} frames at {}x{}, last frame fnv1a64 {:016x}",
        screen.size.0,
        screen.size.1,
        fnv1a64(&texels)
    );
    Ok(())
}

/// An app's whole run: opens the device with the `optional` features it can have, builds the
/// app with `new`, draws `args.frames` frames with `frame` (given each frame's index) and
/// [`finish`]es; on an error, prints it and exits non-zero.
pub fn run<A>(
    name: &str,
    args: &Args,
    optional: wgpu::Features,
    new: impl FnOnce(&Gpu, &Screen) -> A,
    mut frame: impl FnMut(&mut A, &Gpu, &mut Screen, u32),
) {
    exit_on_error((|| {
        let gpu = open(args, optional)?;
        let mut screen = Screen::new(&gpu.device, args.size);
        let mut app = new(&gpu, &screen);
        for i in 0..args.frames {
            frame(&mut app, &gpu, &mut screen, i);
        }
        finish(name, &gpu, &screen, args)
    })());
}

/// [`run`] for an app that takes only the shared command line and asks for no optional features.
pub fn run_plain<A>(
    name: &str,
    new: impl FnOnce(&Gpu, &Screen) -> A,
    frame: impl FnMut(&mut A, &Gpu, &mut Screen, u32),
) {
    run(name, &Args::parse(), wgpu::Features::empty(), new, frame);
}

/// Prints `error: ...` and exits non-zero when `result` is an error.
pub fn exit_on_error(result: Result<(), String>) {
    if let Err(e) = result {
        eprintln!("error: {e}");
        std::process::exit(1);
    }
}

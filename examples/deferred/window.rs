//! `--window`: the deferred frame presented to a winit window through the graph, the surface
//! texture imported as the graph's output every frame.

use std::sync::Arc;
use std::time::Instant;

use tilegraph::prelude::*;
use tilegraph::wgpu;
use tilegraph::{Executor, ExecutorOptions, Imports};
use tilegraph_tool::headless::{self, Gpu};
use winit::application::ApplicationHandler;
use winit::event::WindowEvent;
use winit::event_loop::{ActiveEventLoop, EventLoop, OwnedDisplayHandle};
use winit::window::{Window, WindowId};

use crate::Options;
use crate::frame::DeferredFrame;

/// Whether a window system is reachable (on Linux: an X11 or Wayland display is named).
pub fn display_available() -> bool {
    if cfg!(any(
        target_os = "linux",
        target_os = "freebsd",
        target_os = "openbsd"
    )) {
        ["DISPLAY", "WAYLAND_DISPLAY"]
            .iter()
            .any(|v| std::env::var_os(v).is_some_and(|s| !s.is_empty()))
    } else {
        true
    }
}

pub fn run(options: &Options) -> Result<(), String> {
    let event_loop = EventLoop::new().map_err(|e| format!("cannot open a window: {e}"))?;
    let mut app = App {
        options: options.clone(),
        display: event_loop.owned_display_handle(),
        state: None,
        error: None,
    };
    event_loop
        .run_app(&mut app)
        .map_err(|e| format!("event loop failed: {e}"))?;
    match app.error {
        Some(e) => Err(e),
        None => {
            let frames = app.state.as_ref().map_or(0, |s| s.frames);
            println!("presented {frames} frames to a window");
            Ok(())
        }
    }
}

struct App {
    options: Options,
    display: OwnedDisplayHandle,
    state: Option<State>,
    error: Option<String>,
}

struct State {
    window: Arc<Window>,
    gpu: Gpu,
    surface: wgpu::Surface<'static>,
    config: wgpu::SurfaceConfiguration,
    frame: DeferredFrame,
    executor: Executor,
    cache: PlanCache,
    imports: Imports,
    start: Instant,
    frames: u32,
    plan_printed: bool,
}

impl App {
    fn fail(&mut self, event_loop: &ActiveEventLoop, message: String) {
        self.error = Some(message);
        event_loop.exit();
    }
}

impl ApplicationHandler for App {
    fn resumed(&mut self, event_loop: &ActiveEventLoop) {
        if self.state.is_some() {
            return;
        }
        match State::new(event_loop, &self.options, self.display.clone()) {
            Ok(state) => {
                state.window.request_redraw();
                self.state = Some(state);
            }
            Err(e) => self.fail(event_loop, e),
        }
    }

    fn window_event(&mut self, event_loop: &ActiveEventLoop, _: WindowId, event: WindowEvent) {
        let Some(state) = self.state.as_mut() else {
            return;
        };
        match event {
            WindowEvent::CloseRequested => event_loop.exit(),
            WindowEvent::Resized(size) => {
                state.config.width = size.width;
                state.config.height = size.height;
                state.configure();
            }
            WindowEvent::RedrawRequested => {
                let result = state.redraw(&self.options);
                match result {
                    Err(e) => self.fail(event_loop, e),
                    Ok(()) if self.options.frames.is_some_and(|n| state.frames >= n) => {
                        event_loop.exit()
                    }
                    Ok(()) => state.window.request_redraw(),
                }
            }
            _ => {}
        }
    }
}

impl State {
    fn new(
        event_loop: &ActiveEventLoop,
        options: &Options,
        display: OwnedDisplayHandle,
    ) -> Result<State, String> {
        let attributes = Window::default_attributes()
            .with_title("tilegraph: deferred")
            .with_inner_size(winit::dpi::PhysicalSize::new(
                options.size.0,
                options.size.1,
            ));
        let window = Arc::new(
            event_loop
                .create_window(attributes)
                .map_err(|e| format!("cannot create a window: {e}"))?,
        );
        let validation = headless::validation_from_env();
        let instance = wgpu::Instance::new(
            headless::instance_descriptor(options.backend, validation)
                .with_display_handle(Box::new(display)),
        );
        let surface = instance
            .create_surface(window.clone())
            .map_err(|e| format!("cannot create a surface for the window: {e}"))?;
        let gpu = headless::open_with(instance, options.backend, Some(&surface))
            .map_err(|e| e.to_string())?;
        eprintln!("adapter: {}", gpu.describe());
        let caps = surface.get_capabilities(&gpu.adapter);
        let format = caps
            .formats
            .iter()
            .copied()
            .find(|f| f.is_srgb())
            .or(caps.formats.first().copied())
            .ok_or("the surface supports no format on this adapter")?;
        let size = window.inner_size();
        let config = wgpu::SurfaceConfiguration {
            usage: wgpu::TextureUsages::RENDER_ATTACHMENT,
            format,
            width: size.width,
            height: size.height,
            present_mode: wgpu::PresentMode::AutoVsync,
            desired_maximum_frame_latency: 2,
            alpha_mode: caps
                .alpha_modes
                .first()
                .copied()
                .unwrap_or(wgpu::CompositeAlphaMode::Auto),
            view_formats: vec![],
            color_space: wgpu::SurfaceColorSpace::Auto,
        };
        let frame =
            DeferredFrame::with_light_path(&gpu.adapter, &gpu.device, format, options.light_path)?;
        let executor = gpu.executor(ExecutorOptions::default());
        let state = State {
            window,
            surface,
            config,
            frame,
            executor,
            cache: PlanCache::default(),
            imports: Imports::new(),
            start: Instant::now(),
            frames: 0,
            plan_printed: false,
            gpu,
        };
        state.configure();
        Ok(state)
    }

    /// (Re)configures the surface for the current size; a minimised window (zero size) waits.
    fn configure(&self) {
        if self.config.width > 0 && self.config.height > 0 {
            self.surface.configure(&self.gpu.device, &self.config);
        }
    }

    fn redraw(&mut self, options: &Options) -> Result<(), String> {
        if self.config.width == 0 || self.config.height == 0 {
            return Ok(());
        }
        let (surface_texture, suboptimal) = match self.surface.get_current_texture() {
            wgpu::CurrentSurfaceTexture::Success(t) => (t, false),
            wgpu::CurrentSurfaceTexture::Suboptimal(t) => (t, true),
            // Nothing to draw to this time: skip the frame and try again on the next redraw.
            wgpu::CurrentSurfaceTexture::Timeout | wgpu::CurrentSurfaceTexture::Occluded => {
                return Ok(());
            }
            wgpu::CurrentSurfaceTexture::Outdated => {
                let size = self.window.inner_size();
                self.config.width = size.width;
                self.config.height = size.height;
                self.configure();
                return Ok(());
            }
            wgpu::CurrentSurfaceTexture::Lost => {
                self.surface = self
                    .gpu
                    .instance
                    .create_surface(self.window.clone())
                    .map_err(|e| format!("the surface was lost and cannot be recreated: {e}"))?;
                self.configure();
                return Ok(());
            }
            wgpu::CurrentSurfaceTexture::Validation => {
                let errors = self.gpu.take_uncaptured_errors();
                return Err(format!(
                    "acquiring the surface texture failed validation: {}",
                    errors.join("; ")
                ));
            }
        };
        let size = (self.config.width, self.config.height);
        let texture = &surface_texture.texture;
        let view = texture.create_view(&Default::default());
        self.frame
            .update(&self.gpu.queue, size, self.start.elapsed().as_secs_f32());
        let (mut graph, handles) = self.frame.declare(size);
        let plan = self
            .cache
            .get_or_compile(&graph, &crate::compile_options(options.dont_care))
            .map_err(|e| format!("{}: {e}", e.kind()))?;
        if !self.plan_printed {
            if options.print_plan {
                println!("{}", plan.to_table());
            }
            if let Some(path) = &options.plan_html {
                std::fs::write(path, plan.to_html())
                    .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
            }
            self.plan_printed = true;
        }
        self.imports.clear();
        self.imports.texture(handles.output, texture, &view);
        self.executor
            .execute_and_submit(&mut graph, &plan, &self.imports, options.mode)
            .map_err(|e| headless::describe_failure(&e))?;
        drop(graph);
        self.window.pre_present_notify();
        self.gpu.queue.present(surface_texture);
        if let Some(first) = self.gpu.take_uncaptured_errors().first() {
            return Err(format!("wgpu reported an error: {first}"));
        }
        if suboptimal {
            self.configure();
        }
        self.frames += 1;
        Ok(())
    }
}

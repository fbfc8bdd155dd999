//! The `hud` example: the deferred frame with an egui overlay drawn inside a graph pass
//! ([`overlay`]), run under wgpu-profiler, its flags and how the shell drives it.

pub mod overlay;

use std::collections::VecDeque;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use tilegraph::profiler::wgpu_profiler::{GpuProfiler, GpuProfilerSettings, GpuTimerQueryResult};
use tilegraph::wgpu;
use tilegraph::{CompiledGraph, GroupTiming, RenderGraph, TextureHandle};
use tilegraph_tool::headless::{self, Gpu};
use tilegraph_tool::timings::{Timings, median};
use winit::event::{ElementState, MouseButton, WindowEvent};

use crate::app;
use crate::deferred::{DeferredFrame, LightPath};
use overlay::{Controls, GroupTimes, Overlay, PanelState};

/// Frames the trace keeps: the last ones of the run.
const TRACE_FRAMES: usize = 8;

/// The example's own flags.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct Config {
    /// Write the last frames' profiler scopes here as a Chrome trace.
    #[arg(long, value_name = "FILE")]
    pub trace: Option<PathBuf>,
    /// Headless: show GPU times and the mode switch in the overlay too.
    #[arg(long)]
    pub live_overlay: bool,
}

/// The overlay's cost, frame by frame (seconds).
#[derive(Default)]
struct Costs {
    ui: Vec<f64>,
    upload: Vec<f64>,
    record: Vec<f64>,
    /// GPU time of the group holding the overlay pass, and of the pass's own scope.
    gpu_group: Vec<f64>,
    gpu_pass: Vec<f64>,
}

/// The deferred frame with the overlay pass after it, run under a GPU profiler.
pub struct Hud {
    deferred: DeferredFrame,
    overlay: Overlay,
    profiler: GpuProfiler,
    timestamp_period: f32,
    config: Config,
    /// Set from the flags at the first frame, then by clicks.
    controls: Option<Controls>,
    /// GPU time per group of the last frame the profiler gave back.
    times: GroupTimes,
    trace: VecDeque<Vec<GpuTimerQueryResult>>,
    costs: Costs,
    timings: Timings,
    print_timings: bool,
    pointer: egui::Pos2,
}

impl Hud {
    /// Takes the profiler's finished frames: GPU times for the panel, the trace, the figures.
    fn take_finished(&mut self) {
        while let Some(results) = self.profiler.process_finished_frame(self.timestamp_period) {
            self.times.clear();
            let mut frame = Vec::new();
            for group in &results {
                let seconds = group.time.as_ref().map(|t| t.end - t.start);
                self.times.insert(group.label.clone(), seconds);
                if let Some(s) = seconds {
                    frame.push(GroupTiming {
                        label: group.label.clone(),
                        nanoseconds: s * 1e9,
                    });
                }
                if group.label.split('+').any(|p| p == overlay::PASS) {
                    self.costs.gpu_group.extend(seconds);
                    let pass = group
                        .nested_queries
                        .iter()
                        .find(|q| q.label == overlay::PASS);
                    let pass_time = pass.and_then(|q| q.time.as_ref()).map(|t| t.end - t.start);
                    self.costs.gpu_pass.extend(pass_time);
                }
            }
            self.timings.add_frame(&frame);
            self.trace.push_back(results);
            if self.trace.len() > TRACE_FRAMES {
                self.trace.pop_front();
            }
        }
    }

    fn overlay_cpu_ms(&self) -> Option<f64> {
        let c = &self.costs;
        let last = |v: &[f64]| v.last().copied();
        Some((last(&c.ui)? + last(&c.upload)? + last(&c.record)?) * 1e3)
    }

    fn print_costs(&self, gpu: &Gpu) {
        let ms = |v: &[f64]| median(v) * 1e3;
        let c = &self.costs;
        let total: Vec<f64> = (0..c.ui.len())
            .map(|i| c.ui[i] + c.upload[i] + c.record[i])
            .collect();
        println!(
            "overlay CPU per frame (median of {} frames): {:.3} ms = UI and tessellation {:.3} ms + upload {:.3} ms + recording {:.3} ms",
            total.len(),
            ms(&total),
            ms(&c.ui),
            ms(&c.upload),
            ms(&c.record)
        );
        let gpu_figure = |v: &[f64], what: &str| match v.is_empty() {
            true => format!("{what} n/a"),
            false => format!("{what} {:.3} ms", ms(v)),
        };
        println!(
            "overlay GPU per frame (median, {}): {}, {}",
            gpu.describe(),
            gpu_figure(&c.gpu_group, "its group"),
            gpu_figure(&c.gpu_pass, "its pass scope")
        );
    }
}

impl app::Example for Hud {
    const NAME: &'static str = "hud";
    type Config = Config;

    /// The deferred frame's light path (the first the adapter allows).
    fn limits(adapter: &wgpu::Adapter, _: &Config) -> wgpu::Limits {
        let mut limits = wgpu::Limits::downlevel_webgl2_defaults();
        if let Some(path) = [LightPath::Storage, LightPath::Uniform]
            .into_iter()
            .find(|p| p.fits(adapter))
        {
            path.raise_limits(&mut limits);
        }
        limits
    }

    /// wgpu-profiler's timestamps: per group, inside encoders and inside passes.
    fn optional_features(_: &Config) -> wgpu::Features {
        GpuProfiler::ALL_WGPU_TIMER_FEATURES
    }

    fn new(gpu: &Gpu, format: wgpu::TextureFormat, config: &Config) -> Result<Self, String> {
        let deferred = DeferredFrame::new(&gpu.adapter, &gpu.device, format)?;
        let profiler = GpuProfiler::new(&gpu.device, GpuProfilerSettings::default())
            .map_err(|e| format!("cannot start the profiler: {e}"))?;
        let features = gpu.device.features();
        let missing = GpuProfiler::ALL_WGPU_TIMER_FEATURES - features;
        if !missing.is_empty() {
            eprintln!("profiler: the device lacks {missing:?}; those scopes have no GPU time");
        }
        Ok(Hud {
            deferred,
            overlay: Overlay::new(&gpu.device, format),
            profiler,
            timestamp_period: gpu.queue.get_timestamp_period(),
            config: config.clone(),
            controls: None,
            times: GroupTimes::new(),
            trace: VecDeque::new(),
            costs: Costs::default(),
            timings: Timings::default(),
            print_timings: false,
            pointer: egui::Pos2::ZERO,
        })
    }

    fn update(&mut self, queue: &wgpu::Queue, size: (u32, u32), _: u32, time: f32) {
        self.deferred.update(queue, size, time);
    }

    fn declare(&mut self, size: (u32, u32)) -> (RenderGraph<'_>, TextureHandle) {
        let (mut graph, handles) = self.deferred.declare(size);
        Overlay::declare(&mut graph, handles.output);
        (graph, handles.output)
    }

    fn record_frame(&mut self, f: app::FrameInput<'_>) -> Result<Arc<CompiledGraph>, String> {
        let controls = *self.controls.get_or_insert(Controls {
            mode: f.mode,
            dont_care: f.dont_care,
            restructure: true,
        });
        self.print_timings = f.timings;
        let live = f.window || self.config.live_overlay;
        let overlay_cpu_ms = self.overlay_cpu_ms();
        let options =
            app::compile_options(controls.dont_care).with_restructure(controls.restructure);
        let Hud {
            deferred,
            overlay,
            profiler,
            times,
            costs,
            controls: switches,
            ..
        } = self;
        let (device, queue) = (&f.gpu.device, &f.gpu.queue);
        // CPU time of the overlay pass's closure (the graph's closures borrow it).
        let mut recording = Duration::ZERO;
        let (mut graph, handles) = deferred.declare(f.size);
        let pass = Overlay::declare(&mut graph, handles.output);
        // The same structure and options as last frame: the cached plan; a switch flipped: a new one.
        let plan = f
            .cache
            .get_or_compile(&graph, &options)
            .map_err(|e| format!("{}: {e}", e.kind()))?;
        let mut switched = controls;
        let prepared = overlay.prepare(device, queue, f.size, f64::from(f.frame) / 60.0, |ui| {
            let state = PanelState {
                controls: live.then_some(&mut switched),
                compiled: (controls.dont_care, controls.restructure),
                times: live.then_some(&*times),
                overlay_cpu_ms: overlay_cpu_ms.filter(|_| live),
            };
            overlay::plan_panel(ui, &plan, state);
        });
        *switches = Some(switched);
        overlay.set_callback(&mut graph, pass, &mut recording);
        f.imports.clear();
        f.imports.texture(handles.output, f.texture, f.view);
        let commands = f
            .executor
            .frame(&mut graph, &plan, f.imports, controls.mode)
            .timer(&*profiler)
            .execute()
            .map_err(|e| headless::describe_failure(&e))?;
        drop(graph);
        let mut resolve = device.create_command_encoder(&wgpu::CommandEncoderDescriptor {
            label: Some("profiler resolve"),
        });
        profiler.resolve_queries(&mut resolve);
        // egui's uploads first, then the frame, then the profiler's resolve.
        queue.submit(
            prepared
                .commands
                .into_iter()
                .chain(commands)
                .chain([resolve.finish()]),
        );
        profiler.end_frame().map_err(|e| format!("profiler: {e}"))?;
        costs.ui.push(prepared.ui.as_secs_f64());
        costs.upload.push(prepared.upload.as_secs_f64());
        costs.record.push(recording.as_secs_f64());
        let _ = device.poll(wgpu::PollType::Poll);
        self.take_finished();
        Ok(plan)
    }

    fn window_event(&mut self, event: &WindowEvent) {
        let event = match event {
            WindowEvent::CursorMoved { position, .. } => {
                self.pointer = egui::pos2(position.x as f32, position.y as f32);
                egui::Event::PointerMoved(self.pointer)
            }
            WindowEvent::MouseInput {
                state,
                button: MouseButton::Left,
                ..
            } => egui::Event::PointerButton {
                pos: self.pointer,
                button: egui::PointerButton::Primary,
                pressed: *state == ElementState::Pressed,
                modifiers: egui::Modifiers::default(),
            },
            WindowEvent::CursorLeft { .. } => egui::Event::PointerGone,
            _ => return,
        };
        self.overlay.push_event(event);
    }

    fn finish(&mut self, gpu: &Gpu) -> Result<(), String> {
        let _ = gpu.device.poll(wgpu::PollType::wait_indefinitely());
        self.take_finished();
        if let Some(path) = &self.config.trace {
            let results: Vec<GpuTimerQueryResult> = self.trace.iter().flatten().cloned().collect();
            tilegraph::profiler::write_chrome_trace(path, &results)
                .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
            eprintln!(
                "wrote the profiler's last {} frame(s) to {} ({} group scopes)",
                self.trace.len(),
                path.display(),
                results.len()
            );
        }
        if self.print_timings {
            if self.timings.frames() > 0 {
                println!("{}", self.timings.to_table());
            }
            self.print_costs(gpu);
        }
        Ok(())
    }
}

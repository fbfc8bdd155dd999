//! The hud's overlay: an egui UI drawn by egui-wgpu inside a graph pass, and the panel that shows
//! the running plan (groups with their passes and ops, traffic, GPU time per group) with the
//! switches that change it.
//!
//! Shared by the `hud` example and its GPU test. egui's own textures and buffers are not graph
//! resources: [`Overlay::prepare`] uploads them before the frame's commands run (and the graph,
//! Poison mode included, never touches them); the graph's pass only draws.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use tilegraph::plan::{AttachmentPlan, Group, LoadOp, StoreOp};
use tilegraph::wgpu;
use tilegraph::{
    Access, CompiledGraph, ExecuteMode, PassCallback, PassId, RenderGraph, TextureHandle,
};

/// The overlay pass's name.
pub const PASS: &str = "hud";

/// egui, its wgpu renderer and what the last [`prepare`](Overlay::prepare) made.
pub struct Overlay {
    ctx: egui::Context,
    renderer: egui_wgpu::Renderer,
    /// Input since the last frame (the window's pointer).
    events: Vec<egui::Event>,
    paint: Vec<egui::ClippedPrimitive>,
    screen: egui_wgpu::ScreenDescriptor,
    /// Textures egui gave up last frame, freed once that frame is recorded.
    free: Vec<egui::TextureId>,
}

/// CPU time [`Overlay::prepare`] took, and the commands to submit before the frame's.
pub struct Prepared {
    /// Running the UI and tessellating it.
    pub ui: Duration,
    /// Uploading egui's textures and vertex and index buffers.
    pub upload: Duration,
    /// egui-wgpu's command buffers (paint callbacks' and the upload encoder's), to submit before
    /// the frame.
    pub commands: Vec<wgpu::CommandBuffer>,
}

impl Overlay {
    /// An overlay drawing into targets of `format`.
    pub fn new(device: &wgpu::Device, format: wgpu::TextureFormat) -> Self {
        let renderer = egui_wgpu::Renderer::new(
            device,
            format,
            egui_wgpu::RendererOptions {
                // No noise over the figures: the same pixels wherever the overlay is drawn.
                dithering: false,
                ..Default::default()
            },
        );
        let ctx = egui::Context::default();
        ctx.set_visuals(egui::Visuals::dark());
        Overlay {
            ctx,
            renderer,
            events: Vec::new(),
            paint: Vec::new(),
            screen: egui_wgpu::ScreenDescriptor {
                size_in_pixels: [1, 1],
                pixels_per_point: 1.0,
            },
            free: Vec::new(),
        }
    }

    /// Input for the next frame's UI.
    pub fn push_event(&mut self, event: egui::Event) {
        self.events.push(event);
    }

    /// Runs `ui` for a frame at `size` pixels (one pixel a point) and `time` seconds, tessellates
    /// it and uploads what it draws with.
    pub fn prepare(
        &mut self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        size: (u32, u32),
        time: f64,
        mut ui: impl FnMut(&mut egui::Ui),
    ) -> Prepared {
        let start = Instant::now();
        for id in self.free.drain(..) {
            self.renderer.free_texture(&id);
        }
        let input = egui::RawInput {
            screen_rect: Some(egui::Rect::from_min_size(
                egui::Pos2::ZERO,
                egui::vec2(size.0 as f32, size.1 as f32),
            )),
            time: Some(time),
            events: std::mem::take(&mut self.events),
            focused: true,
            ..Default::default()
        };
        let mut output = self.ctx.run_ui(input, |root| ui(root));
        self.screen = egui_wgpu::ScreenDescriptor {
            size_in_pixels: [size.0, size.1],
            pixels_per_point: output.pixels_per_point,
        };
        self.paint = self.ctx.tessellate(output.shapes, output.pixels_per_point);
        let ui_time = start.elapsed();
        let start = Instant::now();
        let delta = &mut output.textures_delta;
        for (id, deltas) in &delta.set {
            for d in deltas {
                self.renderer.update_texture(device, queue, *id, d);
            }
        }
        self.free.extend(delta.free.drain());
        delta.clear();
        let mut encoder = device.create_command_encoder(&wgpu::CommandEncoderDescriptor {
            label: Some("hud upload"),
        });
        let mut commands =
            self.renderer
                .update_buffers(device, queue, &mut encoder, &self.paint, &self.screen);
        commands.push(encoder.finish());
        Prepared {
            ui: ui_time,
            upload: start.elapsed(),
            commands,
        }
    }

    /// Draws what [`prepare`](Self::prepare) made into the open pass.
    pub fn draw(&self, pass: &mut wgpu::RenderPass<'static>) {
        self.renderer.render(pass, &self.paint, &self.screen);
    }

    /// Declares the overlay pass over `output`, after whatever the graph wrote there: it blends
    /// over the image (`read_write`). Its closure is given later ([`Self::set_callback`]), once
    /// the plan it shows is known.
    pub fn declare(graph: &mut RenderGraph<'_>, output: TextureHandle) -> PassId {
        graph
            .add_render_pass(PASS)
            .color(output, Access::ReadWrite)
            .finish()
    }

    /// Gives the overlay pass its closure: it draws the prepared UI, adding the CPU time that
    /// takes to `recording`.
    pub fn set_callback<'a>(
        &'a self,
        graph: &mut RenderGraph<'a>,
        pass: PassId,
        recording: &'a mut Duration,
    ) {
        let callback = move |rpass: &mut wgpu::RenderPass<'static>,
                             _: &tilegraph::PassContext<'_>| {
            let start = Instant::now();
            self.draw(rpass);
            *recording += start.elapsed();
            Ok(())
        };
        graph.set_callback(pass, PassCallback::Render(Box::new(callback)));
    }
}

/// What the user switches at run time (in a window, by clicking).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Controls {
    pub mode: ExecuteMode,
    pub dont_care: bool,
    pub restructure: bool,
}

/// GPU time per group label of the last timed frame: `None` where the device wrote no
/// timestamps for it.
pub type GroupTimes = HashMap<String, Option<f64>>;

/// What the panel shows besides the plan.
pub struct PanelState<'s> {
    /// The switches, clickable; `None`: the panel shows what does not depend on the recording
    /// mode or the run (the same pixels in every mode), without GPU times.
    pub controls: Option<&'s mut Controls>,
    /// The DontCare and restructuring switches as compiled (shown when `controls` is `None`).
    pub compiled: (bool, bool),
    /// GPU time per group (`None`: not shown).
    pub times: Option<&'s GroupTimes>,
    /// The overlay's own CPU time per frame, milliseconds (`None`: not shown).
    pub overlay_cpu_ms: Option<f64>,
}

/// The groups `mode` records of `plan`.
pub fn recorded_groups(plan: &CompiledGraph, mode: ExecuteMode) -> &[Group] {
    match mode {
        ExecuteMode::Planned => plan.groups(),
        ExecuteMode::Naive => plan.as_declared().naive_groups(),
        _ => plan.as_declared().groups(),
    }
}

fn megabytes(bytes: u64) -> String {
    format!("{:.1} MB", bytes as f64 / 1e6)
}

fn op_text(plan: &CompiledGraph, a: &AttachmentPlan) -> String {
    let load = match a.load {
        LoadOp::Clear(_) => "clear",
        LoadOp::Load => "load",
        LoadOp::DontCare => "dont_care",
    };
    let store = match a.store {
        StoreOp::Store => "store",
        StoreOp::Discard => "discard",
        StoreOp::None => "none",
    };
    format!("{} {load} -> {store}", plan.resource_name(a.resource))
}

/// The plan panel: switches, traffic and one row per recorded group.
pub fn plan_panel(ui: &mut egui::Ui, plan: &CompiledGraph, state: PanelState<'_>) {
    let frame = egui::Frame::window(ui.style())
        .inner_margin(8.0)
        .outer_margin(8.0);
    frame.show(ui, |ui| {
        ui.set_max_width(560.0);
        ui.heading("tilegraph · running plan");
        let live = state.controls.is_some();
        let mode = match state.controls {
            Some(controls) => {
                ui.horizontal(|ui| {
                    ui.label("recording:");
                    for m in [
                        ExecuteMode::Planned,
                        ExecuteMode::Naive,
                        ExecuteMode::Poison,
                    ] {
                        ui.radio_value(&mut controls.mode, m, m.as_str());
                    }
                });
                ui.horizontal(|ui| {
                    ui.checkbox(&mut controls.dont_care, "DontCare");
                    ui.checkbox(&mut controls.restructure, "restructure");
                });
                controls.mode
            }
            None => {
                let (dont_care, restructure) = state.compiled;
                let on = |b: bool| if b { "on" } else { "off" };
                ui.label(format!(
                    "DontCare {} · restructure {}",
                    on(dont_care),
                    on(restructure)
                ));
                ExecuteMode::Planned
            }
        };
        let traffic = plan.traffic();
        let naive = traffic.naive_bytes_per_frame.max(1);
        ui.label(format!(
            "traffic: planned {} · naive {} ({:.0}%)",
            megabytes(traffic.bytes_per_frame),
            megabytes(traffic.naive_bytes_per_frame),
            100.0 * traffic.bytes_per_frame as f64 / naive as f64
        ));
        let groups = recorded_groups(plan, mode);
        ui.label(match live {
            true => format!("recording {mode}: {} groups", groups.len()),
            false => format!("plan: {} groups", groups.len()),
        });
        egui::Grid::new("groups")
            .striped(true)
            .num_columns(3)
            .show(ui, |ui| {
                ui.strong("passes");
                ui.strong("ops");
                ui.strong("GPU");
                ui.end_row();
                let mut total = Some(0.0);
                for group in groups {
                    let names: Vec<&str> =
                        group.passes.iter().map(|&p| plan.pass_name(p)).collect();
                    let label = names.join("+");
                    ui.label(names.join(" + "));
                    let ops: Vec<String> = group.attachments().map(|a| op_text(plan, a)).collect();
                    ui.label(match ops.is_empty() {
                        true => group.kind.as_str().to_owned(),
                        false => ops.join("\n"),
                    });
                    let time = state.times.map(|t| t.get(&label).copied().flatten());
                    ui.label(match time {
                        None => "—".to_owned(),
                        Some(None) => "n/a".to_owned(),
                        Some(Some(seconds)) => format!("{:.3} ms", seconds * 1e3),
                    });
                    total = match (total, time) {
                        (Some(sum), Some(Some(s))) => Some(sum + s),
                        _ => None,
                    };
                    ui.end_row();
                }
                if state.times.is_some() {
                    ui.label("frame");
                    ui.label("");
                    ui.label(match total {
                        Some(s) => format!("{:.3} ms", s * 1e3),
                        None => "n/a".to_owned(),
                    });
                    ui.end_row();
                }
            });
        if let Some(ms) = state.overlay_cpu_ms {
            ui.label(format!("overlay CPU {ms:.3} ms a frame"));
        }
    });
}

//! GPU profiling with [wgpu-profiler](https://docs.rs/wgpu-profiler) (the `profiler` feature):
//! `wgpu_profiler::GpuProfiler` is a [`GroupTimer`], so
//! a frame recorded with it ([`Recording::timer`](crate::Recording::timer)) opens one profiler scope per group,
//! named after the group (its passes joined by `+`), with one scope per pass inside it.
//!
//! - A render or compute group's scope is a pass query (`GpuProfiler::begin_pass_query`): its
//!   first wgpu pass writes the start timestamp, its last the end, so it needs only
//!   `Features::TIMESTAMP_QUERY`. A copy group's scope writes timestamps into the encoder
//!   (`TIMESTAMP_QUERY_INSIDE_ENCODERS`).
//! - Pass scopes write timestamps inside the open wgpu pass (`TIMESTAMP_QUERY_INSIDE_PASSES`).
//! - Where the device lacks a feature, wgpu-profiler still records the scope, without a time
//!   (`GpuTimerQueryResult::time` is `None`): the scope tree is the same on every device.
//!
//! The profiler works as wgpu-profiler documents, across the executor's recording threads too:
//!
//! ```no_run
//! # use tilegraph::{CompiledGraph, ExecuteMode, Executor, Imports, RenderGraph};
//! # use tilegraph::wgpu;
//! use tilegraph::profiler::{self, wgpu_profiler::{GpuProfiler, GpuProfilerSettings}};
//!
//! # fn frame(device: &wgpu::Device, queue: &wgpu::Queue, executor: &mut Executor,
//! #     graph: &mut RenderGraph<'_>, plan: &CompiledGraph, imports: &Imports)
//! #     -> Result<(), Box<dyn std::error::Error>> {
//! // Once: open the device with GpuProfiler::ALL_WGPU_TIMER_FEATURES where the adapter has them.
//! let mut gpu_profiler = GpuProfiler::new(device, GpuProfilerSettings::default())?;
//! // Every frame:
//! let commands = executor
//!     .frame(graph, plan, imports, ExecuteMode::Planned)
//!     .timer(&gpu_profiler)
//!     .execute()?;
//! let mut resolve = device.create_command_encoder(&Default::default());
//! gpu_profiler.resolve_queries(&mut resolve);
//! queue.submit(commands.into_iter().chain([resolve.finish()]));
//! gpu_profiler.end_frame()?;
//! // A few frames later (never blocking the frame):
//! if let Some(results) = gpu_profiler.process_finished_frame(queue.get_timestamp_period()) {
//!     std::fs::write("trace.json", profiler::chrome_trace(&results))?;
//! }
//! # Ok(()) }
//! ```

use wgpu_profiler::{GpuProfiler, GpuProfilerQuery, GpuTimerQueryResult};

use crate::decl::pass::PassKind;
use crate::execute::{GroupTimer, PassRecorder, TimedGroup};

/// The wgpu-profiler this crate was built with (0.28, for wgpu 30).
pub use wgpu_profiler;

impl GroupTimer for GpuProfiler {
    type Group = GpuProfilerQuery;
    type Pass = GpuProfilerQuery;

    fn begin_group(
        &self,
        group: &TimedGroup<'_>,
        encoder: &mut wgpu::CommandEncoder,
    ) -> Self::Group {
        match group.kind {
            PassKind::Render | PassKind::Compute => self.begin_pass_query(group.label, encoder),
            PassKind::Copy => self.begin_query(group.label, encoder),
        }
    }

    fn render_timestamp_writes<'g>(
        &'g self,
        group: &'g Self::Group,
    ) -> Option<wgpu::RenderPassTimestampWrites<'g>> {
        group.render_pass_timestamp_writes()
    }

    fn compute_timestamp_writes<'g>(
        &'g self,
        group: &'g Self::Group,
    ) -> Option<wgpu::ComputePassTimestampWrites<'g>> {
        group.compute_pass_timestamp_writes()
    }

    fn begin_pass(
        &self,
        group: &Self::Group,
        pass: &str,
        recorder: PassRecorder<'_>,
    ) -> Option<Self::Pass> {
        let query = match recorder {
            PassRecorder::Render(p) => self.begin_query(pass, p),
            PassRecorder::Compute(p) => self.begin_query(pass, p),
            PassRecorder::Encoder(e) => self.begin_query(pass, e),
        };
        Some(query.with_parent(Some(group)))
    }

    fn end_pass(&self, pass: Self::Pass, recorder: PassRecorder<'_>) {
        match recorder {
            PassRecorder::Render(p) => self.end_query(p, pass),
            PassRecorder::Compute(p) => self.end_query(p, pass),
            PassRecorder::Encoder(e) => self.end_query(e, pass),
        }
    }

    fn end_group(&self, group: Self::Group, encoder: &mut wgpu::CommandEncoder) {
        self.end_query(encoder, group);
    }
}

/// A Chrome trace (the JSON `chrome://tracing`, Perfetto and Edge read) of `results`: the
/// results of one or more frames (`GpuProfiler::process_finished_frame`), one complete event
/// per scope that has a time, nested scopes included, in order of their start. Scopes without a
/// time (a device without the timestamp feature they need) are left out, as wgpu-profiler's own
/// `chrometrace::write_chrometrace` does; unlike it, the output is valid JSON whichever scopes
/// have times.
pub fn chrome_trace(results: &[GpuTimerQueryResult]) -> String {
    let mut events = Vec::new();
    collect_events(results, &mut events);
    events.sort_by(|a, b| a.0.total_cmp(&b.0));
    let events: Vec<serde_json::Value> = events.into_iter().map(|(_, e)| e).collect();
    serde_json::json!({ "traceEvents": events, "displayTimeUnit": "ns" }).to_string()
}

/// Writes [`chrome_trace`] of `results` to `path`.
pub fn write_chrome_trace(
    path: &std::path::Path,
    results: &[GpuTimerQueryResult],
) -> std::io::Result<()> {
    std::fs::write(path, chrome_trace(results))
}

fn collect_events(results: &[GpuTimerQueryResult], out: &mut Vec<(f64, serde_json::Value)>) {
    for result in results {
        if let Some(time) = &result.time {
            let micros = |seconds: f64| seconds * 1e6;
            out.push((
                time.start,
                serde_json::json!({
                    "name": result.label,
                    "ph": "X",
                    "pid": result.pid,
                    "tid": thread_number(result.tid),
                    "ts": micros(time.start),
                    "dur": micros(time.end - time.start),
                }),
            ));
        }
        collect_events(&result.nested_queries, out);
    }
}

/// A number for a thread: Rust's `ThreadId` prints as `ThreadId(N)` and has no stable integer
/// accessor.
fn thread_number(tid: std::thread::ThreadId) -> u64 {
    let text = format!("{tid:?}");
    text.trim_start_matches("ThreadId(")
        .trim_end_matches(')')
        .parse()
        .unwrap_or(0)
}

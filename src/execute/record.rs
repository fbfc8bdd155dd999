//! One frame from start to end: everything that needs `&mut Executor` first (lowering, limits,
//! pool, bindings, timestamp slots), then the recording on the calling thread or the recording
//! threads, then the history swap.

use super::history::PairOf;
use super::imports::Imports;
use super::parallel::WorkerErrors;
use super::recorder::{Frame, Recorder};
use super::tables::Tables;
use super::timer::DynTimer;
use super::{ExecuteError, ExecuteMode, Executor};
use crate::decl::Passes;
use crate::decl::resource::ResourceDecl;
use crate::declare::{PassCallback, RenderGraph};
use crate::plan::CompiledGraph;

/// A frame of a plan about to be recorded, from [`Executor::frame`]: add the caller's GPU timer
/// with [`timer`](Self::timer) if there is one, then [`execute`](Self::execute) it into the
/// executor's own command buffers or [`record`](Self::record) it into the caller's encoder.
///
/// ```no_run
/// # fn frame(
/// #     executor: &mut tilegraph::Executor,
/// #     graph: &mut tilegraph::RenderGraph<'_>,
/// #     plan: &tilegraph::CompiledGraph,
/// #     imports: &tilegraph::Imports,
/// #     encoder: &mut tilegraph::wgpu::CommandEncoder,
/// # ) -> Result<(), tilegraph::ExecuteError> {
/// use tilegraph::ExecuteMode;
/// executor.frame(graph, plan, imports, ExecuteMode::Planned).record(encoder)?;
/// # Ok(())
/// # }
/// ```
#[must_use = "a frame is recorded only by `execute` or `record`"]
pub struct Recording<'a, 'g> {
    executor: &'a mut Executor,
    args: FrameArgs<'a, 'g>,
}

impl<'a, 'g> Recording<'a, 'g> {
    pub(super) fn new(executor: &'a mut Executor, args: FrameArgs<'a, 'g>) -> Self {
        Recording { executor, args }
    }

    /// The caller's GPU timer around every group: `timer` opens a scope per group in the
    /// encoder that records it (on the recording threads where there are several), gives the
    /// group's wgpu passes their timestamp writes and opens a scope per pass inside them
    /// ([`GroupTimer`](super::GroupTimer)). The executor's own timestamps
    /// ([`ExecutorOptions::timestamps`](super::ExecutorOptions::timestamps)) are not written for
    /// this frame. With the `profiler` feature, a `wgpu_profiler::GpuProfiler` is such a timer
    /// (the module `tilegraph::profiler`); resolve its queries after recording, in a command
    /// buffer submitted after the frame's.
    pub fn timer<T: super::GroupTimer>(self, timer: &'a T) -> Self {
        Recording {
            args: self.args.timed(Some(timer)),
            ..self
        }
    }

    /// Records the frame and returns the command buffers to submit, in order, as
    /// [`Executor::execute`] does.
    pub fn execute(self) -> Result<super::FrameCommands, ExecuteError> {
        self.executor.check_device()?;
        self.executor.record_scoped(self.args)
    }

    /// Records the frame into `encoder` (the caller owns error scopes and submission), always
    /// on the calling thread. A closure error abandons the frame: the encoder should then be
    /// dropped, not submitted.
    pub fn record(self, encoder: &mut wgpu::CommandEncoder) -> Result<(), ExecuteError> {
        self.executor.check_device()?;
        self.executor.record_into(self.args, encoder)
    }
}

impl std::fmt::Debug for Recording<'_, '_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Recording")
            .field("mode", &self.args.mode)
            .field("timed", &self.args.timer.is_some())
            .finish_non_exhaustive()
    }
}

/// A frame's command buffers in submission order.
pub(super) struct Recorded {
    pub commands: Vec<wgpu::CommandBuffer>,
    pub errors: WorkerErrors,
}

/// What one call records: the graph and the plan to record of it, the imports, the mode, and
/// the caller's timer, if any.
pub(super) struct FrameArgs<'a, 'g> {
    pub graph: &'a mut RenderGraph<'g>,
    pub plan: &'a CompiledGraph,
    pub imports: &'a Imports,
    pub mode: ExecuteMode,
    pub timer: Option<&'a dyn DynTimer>,
}

impl<'a, 'g> FrameArgs<'a, 'g> {
    /// The frame of `plan` of `graph`, as `mode` records it ([`ExecuteMode::plan_to_record`]),
    /// with no timer of the caller's.
    pub fn new(
        graph: &'a mut RenderGraph<'g>,
        plan: &'a CompiledGraph,
        imports: &'a Imports,
        mode: ExecuteMode,
    ) -> Self {
        FrameArgs {
            graph,
            plan: mode.plan_to_record(plan),
            imports,
            mode,
            timer: None,
        }
    }

    /// The same frame, borrowed again for a call that records it.
    pub fn reborrow(&mut self) -> FrameArgs<'_, 'g> {
        FrameArgs {
            graph: &mut *self.graph,
            ..*self
        }
    }

    /// The same frame timed by `timer`.
    pub fn timed(self, timer: Option<&'a dyn DynTimer>) -> Self {
        FrameArgs { timer, ..self }
    }
}

/// What recording reads of a graph besides its closures: its id, resources and passes.
#[derive(Clone, Copy)]
pub(super) struct GraphParts<'f> {
    pub id: u32,
    pub resources: &'f [ResourceDecl],
    pub passes: &'f Passes,
}

/// A graph's parts recording reads, beside its closures, which recording calls.
pub(super) fn split<'f, 'g>(
    graph: &'f mut RenderGraph<'g>,
) -> (GraphParts<'f>, &'f mut [Option<PassCallback<'g>>]) {
    let parts = GraphParts {
        id: graph.id,
        resources: &graph.resources,
        passes: &graph.passes,
    };
    (parts, &mut graph.callbacks[..])
}

impl Executor {
    /// What recording reads this frame, for `graph` and `imports`; with the caller's `timer`, or
    /// else this frame's timestamp slots when `timed`.
    pub(super) fn recorder_frame<'f>(
        &'f self,
        graph: GraphParts<'f>,
        imports: &'f Imports,
        timed: bool,
        timer: Option<&'f dyn DynTimer>,
    ) -> Frame<'f> {
        Frame {
            tables: Tables {
                device: &self.device,
                queue: &self.queue,
                slots: &self.slots,
                pool: &self.pool,
                imports,
                histories: &self.histories,
                buffer_histories: &self.buffer_histories,
                layer_views: &self.layer_views,
                graph: graph.id,
                resources: graph.resources,
                quirks: &self.quirks,
            },
            passes: graph.passes,
            timestamps: self
                .timestamps
                .as_ref()
                .filter(|_| timed && timer.is_none())
                .and_then(|t| t.frame_queries()),
            timer,
            debug_groups: self.options.debug_groups,
            error_scopes: self.options.error_scopes,
        }
    }

    /// Records the frame into one encoder on the calling thread, or into one per chunk on the
    /// recording threads.
    pub(super) fn record_frame(
        &mut self,
        mut args: FrameArgs<'_, '_>,
    ) -> Result<Recorded, ExecuteError> {
        let index = self.begin_frame(&args)?;
        let recorded = if self.workers.is_some() && self.prepared[index].chunks.len() > 1 {
            self.record_parallel(args.graph, index, args.imports, args.timer)?
        } else {
            let mut encoder = self
                .device
                .create_command_encoder(&wgpu::CommandEncoderDescriptor {
                    label: Some(&self.prepared[index].encoder_label),
                });
            self.record_serial(&mut args, index, &mut encoder)?;
            Recorded {
                commands: vec![encoder.finish()],
                errors: WorkerErrors::default(),
            }
        };
        self.end_frame(index);
        Ok(recorded)
    }

    /// Records the frame into the caller's encoder, on the calling thread.
    pub(super) fn record_into(
        &mut self,
        mut args: FrameArgs<'_, '_>,
        encoder: &mut wgpu::CommandEncoder,
    ) -> Result<(), ExecuteError> {
        let index = self.begin_frame(&args)?;
        self.record_serial(&mut args, index, encoder)?;
        self.end_frame(index);
        Ok(())
    }

    /// Everything a frame needs `&mut self` for, before recording: checks, lowering, limits,
    /// pool allocation, bindings, timestamp slots (none when the caller's timer times the
    /// frame). Returns the prepared plan's index.
    fn begin_frame(&mut self, args: &FrameArgs<'_, '_>) -> Result<usize, ExecuteError> {
        let (graph, plan, mode) = (&*args.graph, args.plan, args.mode);
        if plan.fingerprint() != graph.fingerprint() {
            return Err(ExecuteError::PlanMismatch {
                plan: plan.fingerprint(),
                graph: graph.fingerprint(),
            });
        }
        let prepared = self.prepare(plan, mode)?;
        self.frame += 1;
        self.prepared[prepared].last_used = self.frame;
        self.pool.evict(self.frame, self.options.keep_frames);
        self.bind(args, prepared)?;
        if let Some(t) = self.timestamps.as_mut() {
            match args.timer.is_some() {
                true => t.skip_frame(),
                false => t.begin_frame(&self.device, &self.prepared[prepared].groups),
            }
        }
        Ok(prepared)
    }
    /// This frame's history textures and buffers become the next frame's previous ones.
    fn end_frame(&mut self, index: usize) {
        for history in &self.prepared[index].histories {
            let wrote = history.wrote();
            match history.pair {
                PairOf::Textures(h) => self.histories[h as usize].swap(wrote),
                PairOf::Buffers(h) => self.buffer_histories[h as usize].swap(wrote),
            }
        }
    }

    /// Records every group of the prepared plan into `encoder`, then resolves the timestamps.
    fn record_serial(
        &mut self,
        args: &mut FrameArgs<'_, '_>,
        index: usize,
        encoder: &mut wgpu::CommandEncoder,
    ) -> Result<(), ExecuteError> {
        let (parts, callbacks) = split(args.graph);
        let mut recorder = Recorder {
            frame: self.recorder_frame(parts, args.imports, true, args.timer),
            encoder: &mut *encoder,
        };
        for (i, group) in self.prepared[index].groups.iter().enumerate() {
            recorder.group(i, group, &mut *callbacks)?;
        }
        if let Some(t) = self.timestamps.as_mut() {
            t.end_frame(encoder);
        }
        Ok(())
    }
}

//! One frame from start to end: everything that needs `&mut Executor` first (lowering, limits,
//! pool, bindings, timestamp slots), then the recording on the calling thread or the recording
//! threads, then the history swap.

use super::imports::Imports;
use super::limits::check_histories;
use super::parallel::WorkerErrors;
use super::recorder::{Frame, Recorder};
use super::tables::{Slot, Tables};
use super::timer::DynTimer;
use super::{ExecuteError, ExecuteMode, Executor};
use crate::declare::RenderGraph;
use crate::passes::Passes;
use crate::plan::CompiledGraph;
use crate::resource::ResourceDecl;

/// A frame's command buffers in submission order.
pub(super) struct Recorded {
    pub commands: Vec<wgpu::CommandBuffer>,
    pub errors: WorkerErrors,
}

impl Executor {
    /// What recording reads this frame, for graph `graph` (its resources and passes) and
    /// `imports`; with the caller's `timer`, or else this frame's timestamp slots when `timed`.
    pub(super) fn frame<'f>(
        &'f self,
        graph: u32,
        resources: &'f [ResourceDecl],
        passes: &'f Passes,
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
                graph,
                resources,
                quirks: &self.quirks,
            },
            passes,
            timestamps: self
                .timestamps
                .as_ref()
                .filter(|_| timed && timer.is_none())
                .and_then(|t| t.frame_queries()),
            timer,
            debug_groups: self.options.debug_groups,
        }
    }

    /// Records the frame into one encoder on the calling thread, or into one per chunk on the
    /// recording threads.
    pub(super) fn record_frame(
        &mut self,
        graph: &mut RenderGraph<'_>,
        plan: &CompiledGraph,
        imports: &Imports,
        mode: ExecuteMode,
        timer: Option<&dyn DynTimer>,
    ) -> Result<Recorded, ExecuteError> {
        let index = self.begin_frame(graph, plan, imports, mode, timer.is_some())?;
        let recorded = if self.workers.is_some() && self.prepared[index].chunks.len() > 1 {
            self.record_parallel(graph, index, imports, timer)?
        } else {
            let mut encoder = self
                .device
                .create_command_encoder(&wgpu::CommandEncoderDescriptor {
                    label: Some(&self.prepared[index].encoder_label),
                });
            self.record_serial(graph, index, imports, &mut encoder, timer)?;
            Recorded {
                commands: vec![encoder.finish()],
                errors: WorkerErrors::default(),
            }
        };
        self.end_frame(graph, plan);
        Ok(recorded)
    }

    /// Records the frame into the caller's encoder, on the calling thread.
    pub(super) fn record_into(
        &mut self,
        graph: &mut RenderGraph<'_>,
        plan: &CompiledGraph,
        imports: &Imports,
        mode: ExecuteMode,
        encoder: &mut wgpu::CommandEncoder,
        timer: Option<&dyn DynTimer>,
    ) -> Result<(), ExecuteError> {
        let index = self.begin_frame(graph, plan, imports, mode, timer.is_some())?;
        self.record_serial(graph, index, imports, encoder, timer)?;
        self.end_frame(graph, plan);
        Ok(())
    }

    /// Everything a frame needs `&mut self` for, before recording: checks, lowering, limits,
    /// pool allocation, bindings, timestamp slots (none when the caller's timer times the
    /// frame). Returns the prepared plan's index.
    fn begin_frame(
        &mut self,
        graph: &RenderGraph<'_>,
        plan: &CompiledGraph,
        imports: &Imports,
        mode: ExecuteMode,
        caller_timed: bool,
    ) -> Result<usize, ExecuteError> {
        if plan.fingerprint() != graph.fingerprint() {
            return Err(ExecuteError::PlanMismatch {
                plan: plan.fingerprint(),
                graph: graph.fingerprint(),
            });
        }
        let prepared = self.prepare(plan, mode)?;
        if !graph.histories.is_empty() {
            check_histories(graph, &self.device.limits())?;
        }
        self.frame += 1;
        self.prepared[prepared].last_used = self.frame;
        self.pool.evict(self.frame, self.options.keep_frames);
        self.bind(graph, plan, prepared, imports, mode)?;
        if let Some(t) = self.timestamps.as_mut() {
            match caller_timed {
                true => t.skip_frame(),
                false => t.begin_frame(&self.device, &self.prepared[prepared].groups),
            }
        }
        Ok(prepared)
    }

    /// This frame's history textures become the next frame's previous ones.
    fn end_frame(&mut self, graph: &RenderGraph<'_>, plan: &CompiledGraph) {
        for &(_, current) in &graph.histories {
            let wrote = !plan.resources()[current.index()].culled;
            match self.slots[current.index()] {
                Slot::History(h, _) => self.histories[h as usize].swap(wrote),
                Slot::HistoryBuffer(h, _) => self.buffer_histories[h as usize].swap(wrote),
                _ => {}
            }
        }
    }

    /// Records every group of the prepared plan into `encoder`, then resolves the timestamps.
    fn record_serial(
        &mut self,
        graph: &mut RenderGraph<'_>,
        index: usize,
        imports: &Imports,
        encoder: &mut wgpu::CommandEncoder,
        timer: Option<&dyn DynTimer>,
    ) -> Result<(), ExecuteError> {
        let mut recorder = Recorder {
            frame: self.frame(
                graph.id,
                &graph.resources,
                &graph.passes,
                imports,
                true,
                timer,
            ),
            encoder: &mut *encoder,
        };
        for (i, group) in self.prepared[index].groups.iter().enumerate() {
            recorder.group(i, group, &mut graph.callbacks[..])?;
        }
        if let Some(t) = self.timestamps.as_mut() {
            t.end_frame(encoder);
        }
        Ok(())
    }
}

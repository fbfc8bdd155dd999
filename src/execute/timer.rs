//! Caller-supplied GPU timing around each group ([`GroupTimer`]): the executor opens a scope per
//! group in the group's encoder, hands the group's wgpu passes the timer's timestamp writes, and
//! opens a scope per pass inside them.

use crate::decl::pass::PassKind;

/// The group a [`GroupTimer`] is asked to time.
#[derive(Debug, Clone, Copy)]
#[non_exhaustive]
pub struct TimedGroup<'a> {
    /// The group's index among the recorded plan's groups (recording order).
    pub index: usize,
    /// Its passes' names joined by `+`: the label of its wgpu passes.
    pub label: &'a str,
    /// Render, compute or copy.
    pub kind: PassKind,
}

/// What a pass of a timed group records into, handed to [`GroupTimer::begin_pass`] and
/// [`GroupTimer::end_pass`]: the group's open render or compute pass, or the encoder for copy
/// passes.
#[derive(Debug)]
#[non_exhaustive]
pub enum PassRecorder<'r> {
    /// The open render pass.
    Render(&'r mut wgpu::RenderPass<'static>),
    /// The open compute pass.
    Compute(&'r mut wgpu::ComputePass<'static>),
    /// The group's encoder (copy passes).
    Encoder(&'r mut wgpu::CommandEncoder),
}

/// GPU timing the caller supplies to [`Executor::execute_timed`](crate::Executor::execute_timed):
/// a GPU profiler's scopes around every group of a frame, with the pass scopes inside.
///
/// For each group, in the encoder that records it (with
/// [recording threads](crate::ExecutorOptions::with_recording_threads), on the thread that
/// records it, so the timer is shared by `&self` and must be `Sync`), the executor calls:
/// 1. [`begin_group`](Self::begin_group) in the group's encoder, before anything of the group;
/// 2. for a render group, [`render_timestamp_writes`](Self::render_timestamp_writes) once: a
///    group may record several wgpu render passes (GL invalidations before it, one render pass
///    per view of a multiview pass recorded per view, one per pass in
///    [`ExecuteMode::Poison`](crate::ExecuteMode::Poison)); its first one writes the beginning
///    index, its last the end index. A compute group records one compute pass, with
///    [`compute_timestamp_writes`](Self::compute_timestamp_writes);
/// 3. around each pass's closure, inside the open wgpu pass (the encoder for copy passes),
///    [`begin_pass`](Self::begin_pass) and [`end_pass`](Self::end_pass) (once per view where a
///    pass's closure is called per view);
/// 4. [`end_group`](Self::end_group) in the group's encoder, after its last wgpu pass, also when
///    a closure failed.
///
/// Poison mode's clears before and after a group lie outside its scope. With the `profiler`
/// feature, `wgpu_profiler::GpuProfiler` implements it (the module `tilegraph::profiler`).
pub trait GroupTimer: Sync {
    /// What [`begin_group`](Self::begin_group) opened (a profiler query).
    type Group: 'static;
    /// What [`begin_pass`](Self::begin_pass) opened.
    type Pass: 'static;

    /// Opens the scope of `group` in the encoder that records it.
    fn begin_group(
        &self,
        group: &TimedGroup<'_>,
        encoder: &mut wgpu::CommandEncoder,
    ) -> Self::Group;

    /// The timestamp writes of a render group: the beginning index goes to its first wgpu
    /// render pass, the end index to its last. `None` (the default): no writes.
    fn render_timestamp_writes<'g>(
        &'g self,
        group: &'g Self::Group,
    ) -> Option<wgpu::RenderPassTimestampWrites<'g>> {
        let _ = group;
        None
    }

    /// The timestamp writes of a compute group's compute pass. `None` (the default): no writes.
    fn compute_timestamp_writes<'g>(
        &'g self,
        group: &'g Self::Group,
    ) -> Option<wgpu::ComputePassTimestampWrites<'g>> {
        let _ = group;
        None
    }

    /// Opens the scope of pass `pass` of `group` before its closure records into `recorder`.
    /// `None` (the default): no pass scopes.
    fn begin_pass(
        &self,
        group: &Self::Group,
        pass: &str,
        recorder: PassRecorder<'_>,
    ) -> Option<Self::Pass> {
        let _ = (group, pass, recorder);
        None
    }

    /// Closes a pass scope after the pass's closure returned, in the same pass or encoder.
    fn end_pass(&self, pass: Self::Pass, recorder: PassRecorder<'_>) {
        let _ = (pass, recorder);
    }

    /// Closes the scope of a group after its last wgpu pass.
    fn end_group(&self, group: Self::Group, encoder: &mut wgpu::CommandEncoder);
}

/// A [`GroupTimer`] of any types, as the recording loop holds it.
pub(super) trait DynTimer: Sync {
    fn begin_group<'s>(
        &'s self,
        group: &TimedGroup<'_>,
        encoder: &mut wgpu::CommandEncoder,
    ) -> Box<dyn GroupScope + 's>;
}

/// One open group scope.
pub(super) trait GroupScope {
    fn render_writes(&self) -> Option<wgpu::RenderPassTimestampWrites<'_>>;
    fn compute_writes(&self) -> Option<wgpu::ComputePassTimestampWrites<'_>>;
    /// Opens a pass scope; what it returns closes it.
    fn begin_pass(&self, pass: &str, recorder: PassRecorder<'_>) -> Option<PassScope<'_>>;
    fn end(self: Box<Self>, encoder: &mut wgpu::CommandEncoder);
}

/// Closes one pass scope.
pub(super) type PassScope<'s> = Box<dyn FnOnce(PassRecorder<'_>) + 's>;

impl<T: GroupTimer> DynTimer for T {
    fn begin_group<'s>(
        &'s self,
        group: &TimedGroup<'_>,
        encoder: &mut wgpu::CommandEncoder,
    ) -> Box<dyn GroupScope + 's> {
        let group = GroupTimer::begin_group(self, group, encoder);
        Box::new(Open { timer: self, group })
    }
}

struct Open<'t, T: GroupTimer> {
    timer: &'t T,
    group: T::Group,
}

impl<T: GroupTimer> GroupScope for Open<'_, T> {
    fn render_writes(&self) -> Option<wgpu::RenderPassTimestampWrites<'_>> {
        self.timer.render_timestamp_writes(&self.group)
    }

    fn compute_writes(&self) -> Option<wgpu::ComputePassTimestampWrites<'_>> {
        self.timer.compute_timestamp_writes(&self.group)
    }

    fn begin_pass(&self, pass: &str, recorder: PassRecorder<'_>) -> Option<PassScope<'_>> {
        let timer = self.timer;
        let scope = timer.begin_pass(&self.group, pass, recorder)?;
        Some(Box::new(move |recorder| timer.end_pass(scope, recorder)))
    }

    fn end(self: Box<Self>, encoder: &mut wgpu::CommandEncoder) {
        self.timer.end_group(self.group, encoder);
    }
}

//! wgpu's error scopes around a frame, and the pass a validation error points at.

use super::record::{FrameArgs, Recorded, split};
use super::recorder::Recorder;
use super::{ExecuteError, Executor, FrameCommands};
use crate::plan::CompiledGraph;

impl Executor {
    /// Records the frame under error scopes (the recording threads' own included) and turns
    /// what they caught into [`ExecuteError`]s, a validation error naming its pass; without
    /// them where [`ExecutorOptions::error_scopes`](super::ExecutorOptions::error_scopes) is off.
    pub(super) fn record_scoped(
        &mut self,
        mut args: FrameArgs<'_, '_>,
    ) -> Result<FrameCommands, ExecuteError> {
        if !self.options.error_scopes {
            let recorded = self.record_frame(args);
            self.check_device()?;
            return recorded.map(|r| FrameCommands(r.commands));
        }
        let oom = self.device.push_error_scope(wgpu::ErrorFilter::OutOfMemory);
        let validation = self.device.push_error_scope(wgpu::ErrorFilter::Validation);
        let recorded = self.record_frame(args.reborrow());
        let (commands, mut worker_errors) = match recorded {
            Ok(Recorded { commands, errors }) => (Ok(FrameCommands(commands)), errors),
            Err(e) => (Err(e), Default::default()),
        };
        let validation = ready_or_block(validation.pop()).or(worker_errors.validation.take());
        let oom = ready_or_block(oom.pop()).or(worker_errors.oom.take());
        self.check_device()?;
        let commands = commands?;
        if let Some(error) = validation {
            let message = error.to_string();
            let pass = self
                .pass_named_in(&message, args.plan)
                .or_else(|| self.locate_validation_error(args.timed(None)));
            return Err(ExecuteError::Validation { pass, message });
        }
        if let Some(error) = oom {
            return Err(ExecuteError::OutOfMemory {
                message: error.to_string(),
            });
        }
        Ok(commands)
    }

    /// The passes of the group whose label wgpu's message quotes, or the pass, where Poison mode
    /// recorded the passes of a group apart (each render pass labelled with its pass).
    fn pass_named_in(&self, message: &str, plan: &CompiledGraph) -> Option<String> {
        let prepared = self.prepared.iter().max_by_key(|p| p.last_used)?;
        if prepared.fingerprint != plan.fingerprint() {
            return None;
        }
        let quoted = |label: &str| {
            message.contains(&format!("'{label}'"))
                || message.contains(&format!("\"{label}\""))
                || message.contains(&format!("`{label}`"))
        };
        let groups = &prepared.groups;
        let group = groups.iter().map(|g| &g.label).find(|l| quoted(l));
        let split = || {
            groups
                .iter()
                .flat_map(|g| &g.split)
                .map(|s| plan.pass_name(s.pass))
                .find(|name| quoted(name))
        };
        group.map(String::as_str).or_else(split).map(str::to_owned)
    }

    /// Finds the group whose commands wgpu rejected. wgpu reports a frame's validation errors when
    /// its encoder finishes, naming the encoder, not the pass; so after a failed frame — never on
    /// the success path — the frame is recorded again one group per encoder on the calling
    /// thread, each under its own error scope, and the first group that fails is named. The
    /// closures of the groups up to that one run a second time; the commands are dropped.
    fn locate_validation_error(&self, args: FrameArgs<'_, '_>) -> Option<String> {
        let index = self.prepared_index(args.plan, args.mode)?;
        let (parts, callbacks) = split(args.graph);
        let frame = self.recorder_frame(parts, args.imports, false, None);
        for (i, group) in self.prepared[index].groups.iter().enumerate() {
            let scope = self.device.push_error_scope(wgpu::ErrorFilter::Validation);
            let mut encoder = self
                .device
                .create_command_encoder(&wgpu::CommandEncoderDescriptor {
                    label: Some(&group.label),
                });
            let mut recorder = Recorder {
                frame,
                encoder: &mut encoder,
            };
            let recorded = recorder.group(i, group, &mut *callbacks);
            drop(encoder.finish());
            let failed = ready_or_block(scope.pop()).is_some();
            if recorded.is_err() || failed {
                return Some(group.label.clone());
            }
        }
        None
    }
}

/// The output of a future wgpu resolves at once on native backends (error scopes), without
/// pollster's thread parking on that path; pollster blocks when it is not ready.
pub(super) fn ready_or_block<F: std::future::Future>(future: F) -> F::Output {
    let mut future = std::pin::pin!(future);
    let mut cx = std::task::Context::from_waker(std::task::Waker::noop());
    match future.as_mut().poll(&mut cx) {
        std::task::Poll::Ready(out) => out,
        std::task::Poll::Pending => pollster::block_on(future),
    }
}

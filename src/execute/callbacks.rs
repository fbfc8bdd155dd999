//! Calling the closures of a group's passes: where the recording finds them, the open wgpu
//! pass (or encoder) they record into, and a closure's error or panic as the frame's error.

use super::ExecuteError;
use super::recorder::Frame;
use super::timer::{GroupScope, PassRecorder};
use crate::context::{PassContext, PassError, RenderTarget, Views};
use crate::declare::{ComputeCallback, CopyCallback, PassCallback, RenderCallback};
use crate::ids::PassId;

/// Where the recording loop finds a pass's closure: the graph's whole table when the frame is
/// recorded on one thread, or the closures of one chunk of groups on a recording thread.
pub(super) trait Callbacks<'a> {
    fn get(&mut self, pass: PassId) -> Option<&mut PassCallback<'a>>;
}

impl<'a> Callbacks<'a> for [Option<PassCallback<'a>>] {
    fn get(&mut self, pass: PassId) -> Option<&mut PassCallback<'a>> {
        self.get_mut(pass.index())?.as_mut()
    }
}

/// What the closures of a group's passes record into: the open render pass, the open compute
/// pass, or the encoder itself for copy passes. [`Frame::call_passes`] calls every kind of
/// closure through it.
pub(super) trait Target {
    /// The kind of pass, as [`ExecuteError::CallbackMismatch`] names it.
    const KIND: &'static str;
    /// Whether the target is a wgpu pass labelled with its group's label, which is the pass's
    /// name where the pass records alone (no debug group needed to name it).
    const LABELLED: bool;
    /// The closures that record into this target.
    type Callback<'a>;
    /// The pass's closure, if it is of this target's kind.
    fn callback<'c, 'a>(callback: &'c mut PassCallback<'a>) -> Option<&'c mut Self::Callback<'a>>;
    fn call(&mut self, f: &mut Self::Callback<'_>, ctx: &PassContext<'_>) -> Result<(), PassError>;
    /// What a [`GroupTimer`](super::GroupTimer)'s pass scope records into.
    fn recorder(&mut self) -> PassRecorder<'_>;
    fn push_debug_group(&mut self, label: &str);
    fn pop_debug_group(&mut self);
}

/// `Target` for a wgpu pass type: its kind's name, whether its label names a pass recorded
/// alone, the closure type, and the variants of `PassCallback` and `PassRecorder` it takes.
macro_rules! target {
    ($target:ty, $kind:literal, $labelled:literal, $callback:ident, $variant:ident, $recorder:ident) => {
        impl Target for $target {
            const KIND: &'static str = $kind;
            const LABELLED: bool = $labelled;
            type Callback<'a> = $callback<'a>;

            fn callback<'c, 'a>(
                callback: &'c mut PassCallback<'a>,
            ) -> Option<&'c mut $callback<'a>> {
                match callback {
                    PassCallback::$variant(f) => Some(f),
                    _ => None,
                }
            }

            fn call(
                &mut self,
                f: &mut $callback<'_>,
                ctx: &PassContext<'_>,
            ) -> Result<(), PassError> {
                f(self, ctx)
            }

            fn recorder(&mut self) -> PassRecorder<'_> {
                PassRecorder::$recorder(self)
            }

            fn push_debug_group(&mut self, label: &str) {
                <$target>::push_debug_group(self, label);
            }

            fn pop_debug_group(&mut self) {
                <$target>::pop_debug_group(self);
            }
        }
    };
}

target!(
    wgpu::RenderPass<'static>,
    "render",
    true,
    RenderCallback,
    Render,
    Render
);
target!(
    wgpu::ComputePass<'static>,
    "compute",
    true,
    ComputeCallback,
    Compute,
    Compute
);
target!(
    wgpu::CommandEncoder,
    "copy",
    false,
    CopyCallback,
    Copy,
    Encoder
);

/// Calls one closure; a panic in it becomes [`ExecuteError::PassPanicked`], so that a frame
/// recorded on worker threads fails like one recorded on the caller's.
fn call_guarded(
    name: &str,
    closure: impl FnOnce() -> Result<(), PassError>,
) -> Result<(), ExecuteError> {
    // The frame is abandoned after a panic, so nothing the closure left half-done is used.
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(closure)) {
        Ok(result) => result.map_err(|source| ExecuteError::Pass {
            pass: name.to_owned(),
            source,
        }),
        Err(payload) => Err(ExecuteError::PassPanicked {
            pass: name.to_owned(),
            message: panic_message(&*payload),
        }),
    }
}

fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_owned()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "a panic with a payload that is not a string".to_owned()
    }
}

/// What the closures of one wgpu pass see besides their pass: the views it records, the render
/// target of its group, and the caller's timer scope of the group.
#[derive(Clone, Copy)]
pub(super) struct CallOn<'s> {
    pub views: Views,
    pub render_target: Option<RenderTarget>,
    pub scope: Option<&'s dyn GroupScope>,
}

impl<'s> CallOn<'s> {
    /// A pass of one view with no render target (compute and copy).
    pub fn one(scope: Option<&'s dyn GroupScope>) -> Self {
        CallOn {
            views: Views::One,
            render_target: None,
            scope,
        }
    }
}

impl Frame<'_> {
    /// Calls the closures of `passes` on the open `target`, each inside a debug group named
    /// after the pass (and the group timer's pass scope), each seeing `on`'s views.
    pub(super) fn call_passes<'a, T: Target>(
        &self,
        passes: &[PassId],
        callbacks: &mut (impl Callbacks<'a> + ?Sized),
        target: &mut T,
        on: CallOn<'_>,
    ) -> Result<(), ExecuteError> {
        let CallOn {
            views,
            render_target,
            scope,
        } = on;
        // A pass recording alone into a wgpu pass is named by that pass's label already.
        let debug_groups = self.debug_groups && !(T::LABELLED && passes.len() == 1);
        for &p in passes {
            let decl = self.passes.pass(p);
            let name = decl.name();
            let callback = callbacks
                .get(p)
                .ok_or_else(|| ExecuteError::MissingCallback {
                    pass: name.to_owned(),
                })?;
            let found = kind_of(callback);
            let f = T::callback(callback).ok_or_else(|| ExecuteError::CallbackMismatch {
                pass: name.to_owned(),
                expected: T::KIND,
                found,
            })?;
            let ctx = self.tables.context(decl, views, render_target);
            if debug_groups {
                target.push_debug_group(name);
            }
            let pass_scope = scope.and_then(|s| s.begin_pass(name, target.recorder()));
            let called = call_guarded(name, || target.call(f, &ctx));
            // Closed whatever the closure returned: a profiler counts the scopes it opened.
            if let Some(end) = pass_scope {
                end(target.recorder());
            }
            called?;
            if debug_groups {
                target.pop_debug_group();
            }
        }
        Ok(())
    }
}

/// The kind of pass a closure records, as errors name it.
fn kind_of(callback: &PassCallback<'_>) -> &'static str {
    match callback {
        PassCallback::Render(_) => "render",
        PassCallback::Compute(_) => "compute",
        PassCallback::Copy(_) => "copy",
    }
}

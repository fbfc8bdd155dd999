//! A lost device: wgpu reports it once per device, through one callback, and every executor of
//! the device fails its frames with [`ExecuteError::DeviceLost`] from then on.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, Weak};

use super::{ExecuteError, Executor};

/// What wgpu said when it reported the device lost; shared by every executor of the device.
#[derive(Default)]
pub(super) struct LostState {
    /// Set once `what` holds the report: what every frame reads, one load.
    lost: AtomicBool,
    what: Mutex<Option<(wgpu::DeviceLostReason, String)>>,
}

/// Per device, the loss state its executors share: wgpu keeps one lost callback per device, so
/// the first executor of a device sets it and later ones join. The callback holds the state
/// weakly and the entry goes when the device's last executor drops, so nothing here keeps a
/// device alive once its executors are gone.
static LOST_STATES: Mutex<Vec<(wgpu::Device, Weak<LostState>)>> = Mutex::new(Vec::new());

/// The loss state of `device`, joined or (for its first executor) made, with the callback set.
pub(super) fn lost_state_of(device: &wgpu::Device) -> Arc<LostState> {
    let mut states = LOST_STATES.lock().unwrap_or_else(|e| e.into_inner());
    states.retain(|(_, state)| state.strong_count() > 0);
    if let Some(state) = states
        .iter()
        .find(|(d, _)| d == device)
        .and_then(|(_, state)| state.upgrade())
    {
        return state;
    }
    let state = Arc::new(LostState::default());
    let weak = Arc::downgrade(&state);
    device.set_device_lost_callback(move |reason, message| {
        if let Some(state) = weak.upgrade() {
            *state.what.lock().unwrap_or_else(|e| e.into_inner()) = Some((reason, message));
            state.lost.store(true, Ordering::Release);
        }
    });
    states.push((device.clone(), Arc::downgrade(&state)));
    state
}

impl Drop for Executor {
    fn drop(&mut self) {
        // The last executor of the device forgets it (counted under the lock, which every
        // executor takes to join).
        let mut states = LOST_STATES.lock().unwrap_or_else(|e| e.into_inner());
        if Arc::strong_count(&self.lost) == 1 {
            states.retain(|(d, state)| d != &self.device && state.strong_count() > 0);
        }
    }
}

impl Executor {
    /// [`ExecuteError::DeviceLost`] once wgpu has reported the device lost. Inlined where it
    /// is called twice a frame: the frame reads one flag.
    #[inline]
    pub(super) fn check_device(&self) -> Result<(), ExecuteError> {
        match self.lost.lost.load(Ordering::Acquire) {
            false => Ok(()),
            true => self.lost_error(),
        }
    }

    /// The error of a device wgpu reported lost.
    #[cold]
    fn lost_error(&self) -> Result<(), ExecuteError> {
        match &*self.lost.what.lock().unwrap_or_else(|e| e.into_inner()) {
            Some((reason, message)) => Err(ExecuteError::DeviceLost {
                reason: *reason,
                message: message.clone(),
            }),
            None => Ok(()),
        }
    }
}

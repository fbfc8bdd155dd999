//! `tilegraph replay DIR`: a wgpu 30 API trace played back through wgpu on the chosen adapter,
//! as recorded and, with `--replan`, with the ops `tilegraph trace` proves in place of the app's
//! (loads, stores and resolves only: no pass moves, merges or disappears). Every presented
//! surface texture (an offscreen texture of the surface's format and size stands in for the
//! surface), or where nothing presents the last texture each frame writes, is read back; the
//! two replays' images compared byte for byte are the proof that the proven ops are safe for
//! that app with the traced inputs (DESIGN 2.9, the guide's "Tracing an existing renderer").
//!
//! - `player`: the actions as wgpu calls (objects, uploads, surfaces).
//! - `encode`: a submission's commands, with the replanned ops put in.
//! - `replan`: the proven ops of the trace's report, per attachment.
//!
//! The actions are translated into wgpu calls here rather than fed to wgpu-core's own player
//! (which is not published): the device is opened the documented way through wgpu, and the
//! surface and buffer mappings need standing in for anyway.
//!
//! The trace is read through wgpu-core's own action types, as `tilegraph trace` reads it; a
//! submission wgpu could not record (one using `LoadOp::DontCare`) is missing from the trace and
//! so from both replays alike.

mod encode;
mod player;
mod replan;

use std::path::{Path, PathBuf};

use tilegraph::helpers::{Backend, DeviceError};

use crate::headless;
use crate::trace::TraceError;

pub use replan::Changes;

/// Why a trace could not be replayed, or where the replays differ.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
#[allow(missing_docs)] // The fields are named for what they hold: action index, frame, texture.
pub enum ReplayError {
    /// The trace could not be read or analysed (`tilegraph trace`'s errors).
    #[error(transparent)]
    Trace(#[from] TraceError),
    /// No device for the trace's features and limits.
    #[error(transparent)]
    Device(#[from] DeviceError),
    /// The trace opens no device (`Init`) before its first action that needs one.
    #[error("action {action} comes before the trace's `Init`: not a whole trace")]
    NoInit { action: usize },
    /// An action or command the replay does not perform.
    #[error("action {action}: {what} is not handled by `tilegraph replay`")]
    Unhandled { action: usize, what: String },
    /// An action uses an object the trace never created (or dropped before).
    #[error("action {action} uses a {what} the trace never created")]
    UnknownObject { action: usize, what: &'static str },
    /// wgpu refused an action on this adapter.
    #[error("action {action}: wgpu refused it: {message}")]
    Wgpu { action: usize, message: String },
    /// A frame's image could not be read back.
    #[error("frame {frame} (action {action}): cannot read back `{texture}`: {message}")]
    Readback {
        frame: usize,
        action: usize,
        texture: String,
        message: String,
    },
    /// `--discard-store` names no attachment of the trace's report.
    #[error("no render pass attaches `{name}` (PASS/RESOURCE, as `tilegraph trace` names them)")]
    NoSuchAttachment { name: String },
    /// The replays read back different images, or a different number of them.
    #[error(
        "frame {frame} (action {action}): texture `{texture}` differs between the recorded and the replanned replay: {detail}"
    )]
    Differs {
        frame: usize,
        action: usize,
        texture: String,
        detail: String,
    },
}

impl ReplayError {
    /// The snake_case kind the tool prints (`error: <kind>: <message>`).
    pub fn kind(&self) -> &'static str {
        match self {
            ReplayError::Trace(e) => e.kind(),
            ReplayError::Device(_) => "device",
            ReplayError::NoInit { .. } => "no_init",
            ReplayError::Unhandled { .. } => "unhandled_action",
            ReplayError::UnknownObject { .. } => "unknown_object",
            ReplayError::Wgpu { .. } => "wgpu",
            ReplayError::Readback { .. } => "readback",
            ReplayError::Differs { .. } => "images_differ",
            ReplayError::NoSuchAttachment { .. } => "no_such_attachment",
        }
    }

    /// The action the error names, where it names one.
    pub fn action(&self) -> Option<usize> {
        match self {
            ReplayError::Trace(e) => e.action(),
            ReplayError::Device(_) | ReplayError::NoSuchAttachment { .. } => None,
            ReplayError::NoInit { action }
            | ReplayError::Unhandled { action, .. }
            | ReplayError::UnknownObject { action, .. }
            | ReplayError::Wgpu { action, .. }
            | ReplayError::Readback { action, .. }
            | ReplayError::Differs { action, .. } => Some(*action),
        }
    }
}

/// What to replay.
#[derive(Debug, Clone, Default)]
#[non_exhaustive]
pub struct ReplayOptions {
    /// The backend to find an adapter on.
    pub backend: Backend,
    /// Replay as recorded.
    pub recorded: bool,
    /// Replay with the proven ops in place of the app's.
    pub replanned: bool,
    /// A deliberately wrong replan, to show that a difference is caught: `PASS/RESOURCE` (the
    /// names of `tilegraph trace`'s rows) has its store turned into a discard in the replanned
    /// replay, wherever it is.
    pub discard_store: Option<String>,
}

impl ReplayOptions {
    /// Replays on `backend`: as recorded, and with `replan` the replanned replay too.
    pub fn new(backend: Backend, recorded: bool, replanned: bool) -> Self {
        ReplayOptions {
            backend,
            recorded,
            replanned,
            discard_store: None,
        }
    }
}

/// One image a replay read back.
#[derive(Debug, Clone)]
pub struct Image {
    /// The frame, from 0 (as `tilegraph trace` numbers them).
    pub frame: usize,
    /// The action after which it was read: the `Present`, or the frame's last `Submit`.
    pub action: usize,
    /// The texture's name (as in `tilegraph trace`'s report).
    pub texture: String,
    /// Its format.
    pub format: wgpu::TextureFormat,
    /// Its mip 0's size.
    pub size: (u32, u32),
    /// The bytes of its mip 0, layer 0, rows unpadded.
    pub bytes: Vec<u8>,
}

impl Image {
    /// 64-bit FNV-1a of the bytes.
    pub fn hash(&self) -> u64 {
        headless::fnv1a64(&self.bytes)
    }
}

/// A replay's images, in the order they were read.
#[derive(Debug, Clone, Default)]
pub struct Replayed {
    /// Every image read back.
    pub images: Vec<Image>,
    /// Frames: how many the trace has.
    pub frames: usize,
}

/// The result of `tilegraph replay`.
#[derive(Debug)]
pub struct Outcome {
    /// The trace's directory.
    pub dir: PathBuf,
    /// The adapter, in words.
    pub adapter: String,
    /// The replay as recorded, where asked for.
    pub recorded: Option<Replayed>,
    /// The replanned replay, where asked for.
    pub replanned: Option<Replayed>,
    /// The ops the replanned replay changes.
    pub changes: Changes,
    /// Submissions missing from the trace (`tilegraph trace`'s `unrecorded`).
    pub unrecorded: usize,
}

/// Replays the trace in `dir` as `options` ask; where both replays run, any difference between
/// their images is [`ReplayError::Differs`].
pub fn replay(dir: &Path, options: &ReplayOptions) -> Result<Outcome, ReplayError> {
    let trace = crate::trace::read_trace(dir)?;
    let model = crate::trace::build_model(&trace)?;
    player::check_handled(&trace)?;
    let (plan, changes) = if options.replanned {
        let report = crate::trace::analyse(dir, 60)?;
        let discard = options.discard_store.as_deref();
        replan::proven(&report, discard).ok_or_else(|| ReplayError::NoSuchAttachment {
            name: discard.unwrap_or_default().to_owned(),
        })?
    } else {
        Default::default()
    };
    let init = player::init(&trace, &model)?;
    let gpu = player::open(init, options.backend)?;
    let recorded = options
        .recorded
        .then(|| player::play(&gpu, &trace, &model, None))
        .transpose()?;
    let replanned = options
        .replanned
        .then(|| player::play(&gpu, &trace, &model, Some(&plan)))
        .transpose()?;
    if let (Some(a), Some(b)) = (&recorded, &replanned) {
        compare(a, b)?;
    }
    Ok(Outcome {
        dir: dir.to_owned(),
        adapter: gpu.describe(),
        recorded,
        replanned,
        changes,
        unrecorded: model.unrecorded.len(),
    })
}

/// Byte-for-byte comparison of two replays' images, in order.
fn compare(a: &Replayed, b: &Replayed) -> Result<(), ReplayError> {
    for (x, y) in a.images.iter().zip(&b.images) {
        let differs = |detail: String| ReplayError::Differs {
            frame: x.frame,
            action: x.action,
            texture: x.texture.clone(),
            detail,
        };
        if (x.frame, &x.texture) != (y.frame, &y.texture) {
            return Err(differs(format!(
                "the replanned replay read `{}` of frame {} instead",
                y.texture, y.frame
            )));
        }
        if x.bytes.len() != y.bytes.len() {
            return Err(differs(format!(
                "{} bytes against {}",
                x.bytes.len(),
                y.bytes.len()
            )));
        }
        let diff: Vec<usize> = (0..x.bytes.len())
            .filter(|&i| x.bytes[i] != y.bytes[i])
            .collect();
        if let Some(&first) = diff.first() {
            let texel = x.format.block_copy_size(None).unwrap_or(1).max(1) as usize;
            let (px, row) = (first / texel, x.size.0.max(1) as usize);
            return Err(differs(format!(
                "{} of {} bytes differ, the first at pixel ({}, {}): {:#018x} against {:#018x}",
                diff.len(),
                x.bytes.len(),
                px % row,
                px / row,
                x.hash(),
                y.hash()
            )));
        }
    }
    if a.images.len() != b.images.len() {
        let (frame, action, texture) = a
            .images
            .get(b.images.len())
            .or_else(|| b.images.get(a.images.len()))
            .map(|i| (i.frame, i.action, i.texture.clone()))
            .unwrap_or_default();
        return Err(ReplayError::Differs {
            frame,
            action,
            texture,
            detail: format!(
                "the recorded replay read {} images, the replanned {}",
                a.images.len(),
                b.images.len()
            ),
        });
    }
    Ok(())
}

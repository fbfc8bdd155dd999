//! Recording on several threads: the groups are split into runs of consecutive groups
//! (chunks), each recorded into its own command encoder on the executor's pool of recording
//! threads, after everything that needs `&mut Executor` is done.

use std::ops::Range;

use super::callbacks::Callbacks;
use super::errors::ready_or_block;
use super::imports::Imports;
use super::lower::ExecGroup;
use super::prepare::encoder_label;
use super::record::{Recorded, split};
use super::recorder::{Frame, Recorder};
use super::timer::DynTimer;
use super::{ExecuteError, Executor};
use crate::declare::{PassCallback, RenderGraph};
use crate::ids::PassId;

/// Chunks per recording thread: a few, so that a thread whose chunk records fast takes another
/// (groups differ in cost), yet not one per group (each chunk is a command buffer).
const CHUNKS_PER_THREAD: usize = 2;

/// The pass of no chunk (culled).
const NOT_RECORDED: u32 = u32::MAX;

/// The pool of `threads` recording threads, or none for one thread (or when the system will not
/// start them: frames are then recorded on the calling thread).
pub(super) fn recording_pool(threads: usize) -> Option<rayon_core::ThreadPool> {
    let threads = match threads {
        0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
        n => n,
    };
    if threads <= 1 {
        return None;
    }
    rayon_core::ThreadPoolBuilder::new()
        .num_threads(threads)
        .thread_name(|i| format!("tilegraph-record-{i}"))
        .build()
        .map_err(|e| {
            log::warn!("no recording threads ({e}); frames are recorded on the calling thread")
        })
        .ok()
}

/// A lowered plan's chunks: runs of consecutive groups, and per pass the chunk that records it.
#[derive(Default)]
pub(super) struct Chunks {
    ranges: Vec<Range<usize>>,
    pass_chunk: Vec<u32>,
    /// Per chunk: the label of the encoder it is recorded into.
    labels: Vec<String>,
}

impl Chunks {
    /// The chunks of `groups` for `threads` recording threads (none for one thread).
    pub(super) fn new(groups: &[ExecGroup], threads: usize, passes: usize) -> Self {
        if threads <= 1 {
            return Chunks::default();
        }
        let ranges = chunk_groups(groups, CHUNKS_PER_THREAD * threads);
        let mut pass_chunk = vec![NOT_RECORDED; passes];
        for (c, range) in ranges.iter().enumerate() {
            for group in &groups[range.clone()] {
                for &p in &group.passes {
                    pass_chunk[p.index()] = c as u32;
                }
            }
        }
        let labels = ranges
            .iter()
            .map(|r| encoder_label(&groups[r.clone()]))
            .collect();
        Chunks {
            ranges,
            pass_chunk,
            labels,
        }
    }

    /// How many chunks there are (0 or 1: record on the calling thread).
    pub(super) fn len(&self) -> usize {
        self.ranges.len()
    }

    /// The graph's closures dealt out to the chunks that call them.
    fn share<'c, 'a>(
        &self,
        callbacks: &'c mut [Option<PassCallback<'a>>],
    ) -> Vec<ChunkCallbacks<'c, 'a>> {
        let mut shares: Vec<ChunkCallbacks<'_, '_>> = self
            .ranges
            .iter()
            .map(|_| ChunkCallbacks(Vec::new()))
            .collect();
        for (p, callback) in callbacks.iter_mut().enumerate() {
            match self.pass_chunk.get(p) {
                Some(&c) if c != NOT_RECORDED => {
                    shares[c as usize].0.push((PassId::new(p), callback))
                }
                _ => {}
            }
        }
        shares
    }
}

/// Splits the groups into at most `count` runs of consecutive groups with about as many passes
/// each (the executor cannot know what a closure costs; a pass is the unit it sees).
fn chunk_groups(groups: &[ExecGroup], count: usize) -> Vec<Range<usize>> {
    let total: usize = groups.iter().map(|g| g.passes.len().max(1)).sum();
    let count = count.clamp(1, groups.len().max(1));
    let mut chunks = Vec::with_capacity(count);
    let (mut start, mut weight) = (0, 0);
    for (i, group) in groups.iter().enumerate() {
        weight += group.passes.len().max(1);
        // End the chunk once it holds its share of the passes seen so far.
        if weight * count >= total * (chunks.len() + 1) && chunks.len() + 1 < count {
            chunks.push(start..i + 1);
            start = i + 1;
        }
    }
    if start < groups.len() {
        chunks.push(start..groups.len());
    }
    chunks
}

/// The closures of one chunk's passes, sorted by pass.
struct ChunkCallbacks<'c, 'a>(Vec<(PassId, &'c mut Option<PassCallback<'a>>)>);

impl<'a> Callbacks<'a> for ChunkCallbacks<'_, 'a> {
    fn get(&mut self, pass: PassId) -> Option<&mut PassCallback<'a>> {
        let i = self.0.binary_search_by_key(&pass, |(p, _)| *p).ok()?;
        self.0[i].1.as_mut()
    }
}

/// Errors raised on a recording thread outside of any encoder (device calls of closures),
/// caught by that thread's error scopes.
#[derive(Default)]
pub(super) struct WorkerErrors {
    pub validation: Option<wgpu::Error>,
    pub oom: Option<wgpu::Error>,
}

/// What one chunk of groups left: its command buffer, or the error that stopped it.
struct ChunkResult {
    commands: Result<wgpu::CommandBuffer, ExecuteError>,
    errors: WorkerErrors,
}

/// Records groups `range` of `frame` into a new encoder and finishes it, on the calling
/// (recording) thread. After a closure error the encoder is dropped unfinished.
fn record_chunk(
    frame: Frame<'_>,
    groups: &[ExecGroup],
    mut range: Range<usize>,
    label: &str,
    mut callbacks: ChunkCallbacks<'_, '_>,
) -> ChunkResult {
    let device = frame.tables.device;
    let scopes = frame.error_scopes.then(|| {
        let oom = device.push_error_scope(wgpu::ErrorFilter::OutOfMemory);
        (oom, device.push_error_scope(wgpu::ErrorFilter::Validation))
    });
    let mut encoder =
        device.create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some(label) });
    let mut recorder = Recorder {
        frame,
        encoder: &mut encoder,
    };
    let recorded = range.try_for_each(|i| recorder.group(i, &groups[i], &mut callbacks));
    let commands = recorded.map(|()| encoder.finish());
    let errors = match scopes {
        Some((oom, validation)) => WorkerErrors {
            validation: ready_or_block(validation.pop()),
            oom: ready_or_block(oom.pop()),
        },
        None => WorkerErrors::default(),
    };
    ChunkResult { commands, errors }
}

impl Executor {
    /// Records the prepared plan's chunks on the recording threads, each into its own encoder
    /// under that thread's own error scopes (wgpu's error scopes are per thread). Each thread
    /// also finishes its encoder: wgpu 30 encodes and validates a pass's commands there, so that
    /// is most of the work.
    pub(super) fn record_parallel(
        &mut self,
        graph: &mut RenderGraph<'_>,
        index: usize,
        imports: &Imports,
        timer: Option<&dyn DynTimer>,
    ) -> Result<Recorded, ExecuteError> {
        let workers = self.workers.as_ref().expect("checked by the caller");
        let prepared = &self.prepared[index];
        let (parts, callbacks) = split(graph);
        let shares = prepared.chunks.share(callbacks);
        let frame = self.recorder_frame(parts, imports, true, timer);
        let groups = &prepared.groups[..];
        let mut results: Vec<Option<ChunkResult>> = shares.iter().map(|_| None).collect();
        workers.scope(|scope| {
            let chunks = prepared.chunks.ranges.iter().zip(&prepared.chunks.labels);
            for (((range, label), share), result) in chunks.zip(shares).zip(&mut results) {
                let range = range.clone();
                scope.spawn(move |_| {
                    *result = Some(record_chunk(frame, groups, range, label, share))
                });
            }
        });
        let mut recorded = Recorded {
            commands: Vec::with_capacity(results.len() + 1),
            errors: WorkerErrors::default(),
        };
        let mut failed = None;
        for result in results {
            let result = result.expect("every chunk ran");
            recorded.errors.validation = recorded.errors.validation.or(result.errors.validation);
            recorded.errors.oom = recorded.errors.oom.or(result.errors.oom);
            match result.commands {
                Ok(commands) => recorded.commands.push(commands),
                // The first failing chunk in plan order names the frame's error.
                Err(e) => failed = failed.or(Some(e)),
            }
        }
        if let Some(e) = failed {
            return Err(e);
        }
        if let Some(t) = self.timestamps.as_mut().filter(|_| timer.is_none()) {
            // The timestamps are resolved after every chunk, in a command buffer of their own.
            let mut encoder = self
                .device
                .create_command_encoder(&wgpu::CommandEncoderDescriptor {
                    label: Some("tilegraph timestamps"),
                });
            t.end_frame(&mut encoder);
            recorded.commands.push(encoder.finish());
        }
        Ok(recorded)
    }
}

#[cfg(test)]
mod tests {
    use super::chunk_groups;
    use crate::decl::pass::PassKind;
    use crate::execute::lower::ExecGroup;
    use crate::ids::PassId;

    fn groups(passes: &[usize]) -> Vec<ExecGroup> {
        let mut next = 0;
        passes
            .iter()
            .map(|&n| {
                let ids = (next..next + n).map(PassId::new).collect();
                next += n;
                ExecGroup {
                    kind: PassKind::Render,
                    passes: ids,
                    label: String::new(),
                    ops: Default::default(),
                    views: 1,
                    split: Vec::new(),
                    poison_before: Vec::new(),
                    poison_after: Vec::new(),
                    invalidate_before: Vec::new(),
                    target: None,
                }
            })
            .collect()
    }

    #[test]
    fn chunks_are_consecutive_runs_with_about_as_many_passes_each() {
        assert_eq!(
            chunk_groups(&groups(&[1; 64]), 16),
            (0..16).map(|c| c * 4..c * 4 + 4).collect::<Vec<_>>()
        );
        assert_eq!(chunk_groups(&groups(&[1; 7]), 2), [0..4, 4..7]);
        // A group of many passes weighs as much as that many groups of one.
        assert_eq!(
            chunk_groups(&groups(&[6, 1, 1, 1, 1, 1, 1]), 2),
            [0..1, 1..7]
        );
        // Never more chunks than groups, never an empty one.
        assert_eq!(chunk_groups(&groups(&[1, 1, 1]), 8), [0..1, 1..2, 2..3]);
        assert_eq!(
            chunk_groups(&groups(&[1]), 4),
            vec![std::ops::Range { start: 0, end: 1 }]
        );
        assert!(chunk_groups(&[], 4).is_empty());
    }
}

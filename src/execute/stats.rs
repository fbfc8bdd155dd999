//! What an executor holds, for checking that a long run stays bounded.

use super::Executor;
use super::history::HistoryPair;
use super::pool::{PoolStats, TextureViews};
use super::prepare::PREPARED_CAPACITY;
use super::timing::Timestamps;
use crate::resource::TextureDesc;

/// What an [`Executor`] holds now ([`Executor::stats`]).
///
/// Everything here is bounded by what the last [`ExecutorOptions::keep_frames`](super::ExecutorOptions::keep_frames)
/// frames used: pooled textures, buffers and histories no frame used for that long are released,
/// and at most [`ExecutorStats::PREPARED_CAPACITY`] lowered plans are kept. A renderer that runs
/// for hours can print these now and then and see them stay flat once its frame shapes are warm.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct ExecutorStats {
    /// The pool's counters: textures and buffers held, created and evicted.
    pub pool: PoolStats,
    /// Plans kept lowered for recording (at most [`Self::PREPARED_CAPACITY`]).
    pub prepared_plans: usize,
    /// History textures held ([`RenderGraph::history_texture`](crate::RenderGraph::history_texture)):
    /// two per history.
    pub history_textures: usize,
    /// Texture views held for pooled and history textures (the whole texture, each mip and
    /// layer of one with several, and the 2D-array views multiview render passes attach).
    pub texture_views: usize,
    /// Bytes of pooled and history textures, every mip, layer and sample counted as the traffic
    /// model counts a texel (drivers may pad; a format the model cannot count adds nothing).
    pub texture_bytes: u64,
    /// Bytes of pooled and history buffers.
    pub buffer_bytes: u64,
    /// Timestamp queries allocated (two per render or compute group of the largest frame since
    /// timestamps were switched on; zero without them).
    pub timestamp_queries: u32,
}

impl ExecutorStats {
    /// The most plans an executor keeps lowered at once; the least recently used is dropped.
    pub const PREPARED_CAPACITY: usize = PREPARED_CAPACITY;

    /// What `executor` holds now.
    pub(super) fn of(executor: &Executor) -> Self {
        let (pool_texture_bytes, pool_buffer_bytes) = executor.pool.bytes();
        let buffer_bytes = executor
            .buffer_histories
            .iter()
            .map(|h| h.bytes())
            .fold(pool_buffer_bytes, u64::saturating_add);
        let history_bytes = executor
            .histories
            .iter()
            .map(|h| 2 * texture_bytes(&h.desc()))
            .fold(0, u64::saturating_add);
        let views = executor
            .pool
            .textures
            .iter()
            .map(|t| &t.views)
            .chain(executor.histories.iter().flat_map(HistoryPair::views))
            .map(TextureViews::count)
            .sum();
        ExecutorStats {
            pool: executor.pool.stats(),
            prepared_plans: executor.prepared.len(),
            history_textures: 2 * executor.histories.len(),
            texture_views: views,
            texture_bytes: pool_texture_bytes.saturating_add(history_bytes),
            buffer_bytes,
            timestamp_queries: executor.timestamps.as_ref().map_or(0, Timestamps::queries),
        }
    }
}

/// Bytes of every mip, layer and sample of a texture.
pub(super) fn texture_bytes(desc: &TextureDesc) -> u64 {
    (0..desc.mips)
        .filter_map(|mip| desc.subresource_bytes(mip))
        .map(|b| b.saturating_mul(u64::from(desc.layers)))
        .fold(0, u64::saturating_add)
}

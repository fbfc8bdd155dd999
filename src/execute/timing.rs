//! Optional GPU timestamps at the start and end of every render and compute group.

use super::lower::ExecGroup;
use crate::decl::pass::PassKind;

/// GPU time one group took.
#[derive(Debug, Clone, PartialEq)]
pub struct GroupTiming {
    /// The group's passes, joined by `+`.
    pub label: String,
    /// Nanoseconds between the group's start and end timestamps.
    pub nanoseconds: f64,
}

/// Where the groups of one frame write their timestamps: a group's two queries are fixed before
/// recording starts.
#[derive(Clone, Copy)]
pub(crate) struct FrameQueries<'f> {
    query_set: &'f wgpu::QuerySet,
    first: &'f [Option<u32>],
}

impl<'f> FrameQueries<'f> {
    pub(crate) fn render(&self, group: usize) -> Option<wgpu::RenderPassTimestampWrites<'f>> {
        let first = (*self.first.get(group)?)?;
        Some(wgpu::RenderPassTimestampWrites {
            query_set: self.query_set,
            beginning_of_pass_write_index: Some(first),
            end_of_pass_write_index: Some(first + 1),
        })
    }

    pub(crate) fn compute(&self, group: usize) -> Option<wgpu::ComputePassTimestampWrites<'f>> {
        let first = (*self.first.get(group)?)?;
        Some(wgpu::ComputePassTimestampWrites {
            query_set: self.query_set,
            beginning_of_pass_write_index: Some(first),
            end_of_pass_write_index: Some(first + 1),
        })
    }
}

/// Query set, resolve and readback buffers, grown to the largest frame seen.
pub(crate) struct Timestamps {
    period_ns: f64,
    capacity: u32,
    query_set: Option<wgpu::QuerySet>,
    resolve: Option<wgpu::Buffer>,
    readback: Option<wgpu::Buffer>,
    labels: Vec<String>,
    /// Per group of the frame: its first query (render and compute groups).
    first: Vec<Option<u32>>,
    used: u32,
    /// Queries written by the frame whose results sit in `readback`.
    pending: u32,
}

impl Timestamps {
    pub(crate) fn new(_device: &wgpu::Device, queue: &wgpu::Queue) -> Self {
        Timestamps {
            period_ns: f64::from(queue.get_timestamp_period()),
            capacity: 0,
            query_set: None,
            resolve: None,
            readback: None,
            labels: Vec::new(),
            first: Vec::new(),
            used: 0,
            pending: 0,
        }
    }

    /// Queries allocated (the largest frame's two per group).
    pub(crate) fn queries(&self) -> u32 {
        self.capacity
    }

    /// Sizes the query set for `groups` and gives every render and compute group its pair of
    /// queries, in recording order, so that groups recorded on different threads write their
    /// own slots.
    pub(crate) fn begin_frame(&mut self, device: &wgpu::Device, groups: &[ExecGroup]) {
        let needed = (groups.len() as u32).max(1) * 2;
        if needed > self.capacity {
            self.capacity = needed;
            self.query_set = Some(device.create_query_set(&wgpu::QuerySetDescriptor {
                label: Some("tilegraph timestamps"),
                ty: wgpu::QueryType::Timestamp,
                count: needed,
            }));
            let size = u64::from(needed) * 8;
            self.resolve = Some(device.create_buffer(&wgpu::BufferDescriptor {
                label: Some("tilegraph timestamp resolve"),
                size,
                usage: wgpu::BufferUsages::QUERY_RESOLVE | wgpu::BufferUsages::COPY_SRC,
                mapped_at_creation: false,
            }));
            self.readback = Some(device.create_buffer(&wgpu::BufferDescriptor {
                label: Some("tilegraph timestamp readback"),
                size,
                usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
                mapped_at_creation: false,
            }));
        }
        self.used = 0;
        self.first.clear();
        for group in groups {
            let timed = matches!(group.kind, PassKind::Render | PassKind::Compute);
            let first = if timed {
                Some(self.next(&group.label))
            } else {
                None
            };
            self.first.push(first);
        }
    }

    /// A frame timed by the caller's [`GroupTimer`](super::GroupTimer): nothing written,
    /// nothing to read.
    pub(crate) fn skip_frame(&mut self) {
        self.used = 0;
        self.first.clear();
        self.pending = 0;
    }

    fn next(&mut self, label: &str) -> u32 {
        let index = self.used / 2;
        match self.labels.get_mut(index as usize) {
            Some(l) if l == label => {}
            Some(l) => label.clone_into(l),
            None => self.labels.push(label.to_owned()),
        }
        let first = self.used;
        self.used += 2;
        first
    }

    /// The queries of this frame's groups, shared by the threads that record them.
    pub(crate) fn frame_queries(&self) -> Option<FrameQueries<'_>> {
        Some(FrameQueries {
            query_set: self.query_set.as_ref()?,
            first: &self.first,
        })
    }

    pub(crate) fn end_frame(&mut self, encoder: &mut wgpu::CommandEncoder) {
        let (Some(query_set), Some(resolve), Some(readback)) =
            (&self.query_set, &self.resolve, &self.readback)
        else {
            return;
        };
        if self.used == 0 {
            return;
        }
        encoder.resolve_query_set(query_set, 0..self.used, resolve, 0);
        encoder.copy_buffer_to_buffer(resolve, 0, readback, 0, u64::from(self.used) * 8);
        self.pending = self.used;
    }

    /// Maps the readback buffer (waiting for the GPU) and converts the ticks to nanoseconds.
    pub(crate) fn read(&mut self, device: &wgpu::Device) -> Vec<GroupTiming> {
        let Some(readback) = &self.readback else {
            return Vec::new();
        };
        if self.pending == 0 {
            return Vec::new();
        }
        let bytes = u64::from(self.pending) * 8;
        readback.map_async(wgpu::MapMode::Read, 0..bytes, |_| {});
        if device.poll(wgpu::PollType::wait_indefinitely()).is_err() {
            return Vec::new();
        }
        let mut out = Vec::with_capacity(self.pending as usize / 2);
        if let Ok(view) = readback.get_mapped_range(0..bytes) {
            let ticks: Vec<u64> = view
                .chunks_exact(8)
                .map(|c| u64::from_le_bytes(c.try_into().expect("8-byte chunks")))
                .collect();
            for (i, pair) in ticks.chunks_exact(2).enumerate() {
                out.push(GroupTiming {
                    label: self.labels[i].clone(),
                    nanoseconds: pair[1].wrapping_sub(pair[0]) as f64 * self.period_ns,
                });
            }
        }
        readback.unmap();
        self.pending = 0;
        out
    }
}

//! Optional GPU timestamps at the start and end of every render and compute group.

/// GPU time one group took.
#[derive(Debug, Clone, PartialEq)]
pub struct GroupTiming {
    /// The group's passes, joined by `+`.
    pub label: String,
    /// Nanoseconds between the group's start and end timestamps.
    pub nanoseconds: f64,
}

/// Query set, resolve and readback buffers, grown to the largest frame seen.
pub(crate) struct Timestamps {
    period_ns: f64,
    capacity: u32,
    query_set: Option<wgpu::QuerySet>,
    resolve: Option<wgpu::Buffer>,
    readback: Option<wgpu::Buffer>,
    labels: Vec<String>,
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
            used: 0,
            pending: 0,
        }
    }

    /// Queries allocated (the largest frame's two per group).
    pub(crate) fn queries(&self) -> u32 {
        self.capacity
    }

    pub(crate) fn begin_frame(&mut self, device: &wgpu::Device, groups: usize) {
        let needed = (groups as u32).max(1) * 2;
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
    }

    fn next(&mut self, label: &str) -> Option<(&wgpu::QuerySet, u32)> {
        let index = self.used / 2;
        if self.used + 2 > self.capacity {
            return None;
        }
        match self.labels.get_mut(index as usize) {
            Some(l) if l == label => {}
            Some(l) => label.clone_into(l),
            None => self.labels.push(label.to_owned()),
        }
        let first = self.used;
        self.used += 2;
        Some((self.query_set.as_ref()?, first))
    }

    pub(crate) fn next_render(
        &mut self,
        label: &str,
    ) -> Option<wgpu::RenderPassTimestampWrites<'_>> {
        let (query_set, first) = self.next(label)?;
        Some(wgpu::RenderPassTimestampWrites {
            query_set,
            beginning_of_pass_write_index: Some(first),
            end_of_pass_write_index: Some(first + 1),
        })
    }

    pub(crate) fn next_compute(
        &mut self,
        label: &str,
    ) -> Option<wgpu::ComputePassTimestampWrites<'_>> {
        let (query_set, first) = self.next(label)?;
        Some(wgpu::ComputePassTimestampWrites {
            query_set,
            beginning_of_pass_write_index: Some(first),
            end_of_pass_write_index: Some(first + 1),
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

//! Median GPU time per group and per frame over the frames of a run, from the executor's
//! timestamps (`ExecutorOptions::with_timestamps`, `Executor::read_timings`).

use tilegraph::GroupTiming;

/// Why timings cannot be taken on an adapter, or `None` when they can.
pub fn unavailable(device: &wgpu::Device) -> Option<String> {
    (!device.features().contains(wgpu::Features::TIMESTAMP_QUERY)).then(|| {
        format!(
            "no GPU timings: the adapter ({:?}) lacks Features::TIMESTAMP_QUERY",
            device.adapter_info().backend
        )
    })
}

/// GPU times collected frame by frame.
#[derive(Debug, Default, Clone)]
pub struct Timings {
    /// Group labels in recording order, each with its nanoseconds per frame.
    groups: Vec<(String, Vec<f64>)>,
    /// Nanoseconds per frame: the sum of its groups with valid timestamps.
    frames: Vec<f64>,
    /// Group timings left out: an end timestamp before the start (llvmpipe's GL compute
    /// passes), which the executor's tick difference wraps to centuries.
    pub invalid: usize,
}

/// Longer than any frame: a group "taking" this long had its timestamps out of order.
const IMPLAUSIBLE_NS: f64 = 1e12;

/// The median of `values` (the mean of the two middle ones for an even count); 0 when empty.
pub fn median(values: &[f64]) -> f64 {
    let mut v = values.to_vec();
    v.sort_by(f64::total_cmp);
    match v.len() {
        0 => 0.0,
        n if n % 2 == 1 => v[n / 2],
        n => (v[n / 2 - 1] + v[n / 2]) / 2.0,
    }
}

/// The median of `values` as [`median`] takes it (the mean of the middle two for an even count;
/// zero for none), for the benches' timings.
pub fn median_duration(values: &[std::time::Duration]) -> std::time::Duration {
    let seconds: Vec<f64> = values
        .iter()
        .map(std::time::Duration::as_secs_f64)
        .collect();
    std::time::Duration::from_secs_f64(median(&seconds))
}

impl Timings {
    /// Adds one frame's group timings (an empty frame adds nothing).
    pub fn add_frame(&mut self, frame: &[GroupTiming]) {
        if frame.is_empty() {
            return;
        }
        let mut total = 0.0;
        let before = self.invalid;
        for t in frame {
            if !(0.0..IMPLAUSIBLE_NS).contains(&t.nanoseconds) {
                self.invalid += 1;
                continue;
            }
            total += t.nanoseconds;
            match self.groups.iter_mut().find(|(l, _)| *l == t.label) {
                Some((_, v)) => v.push(t.nanoseconds),
                None => self.groups.push((t.label.clone(), vec![t.nanoseconds])),
            }
        }
        // A frame whose every timing is invalid says nothing about frame time.
        if self.invalid - before < frame.len() {
            self.frames.push(total);
        }
    }

    /// Frames added.
    pub fn frames(&self) -> usize {
        self.frames.len()
    }

    /// Median nanoseconds of a whole frame.
    pub fn frame_median(&self) -> f64 {
        median(&self.frames)
    }

    /// Median nanoseconds per group label, in recording order.
    pub fn group_medians(&self) -> Vec<(&str, f64)> {
        self.groups
            .iter()
            .map(|(l, v)| (l.as_str(), median(v)))
            .collect()
    }

    /// A table: one line per group and one for the frame, in milliseconds.
    pub fn to_table(&self) -> String {
        let mut out = format!(
            "GPU TIME (median of {} frame(s), timestamps around each render and compute group)\n",
            self.frames()
        );
        for (label, ns) in self.group_medians() {
            out += &format!("  {label:<40} {:>9.3} ms\n", ns / 1e6);
        }
        out += &format!("  {:<40} {:>9.3} ms\n", "frame", self.frame_median() / 1e6);
        if self.invalid > 0 {
            out += &format!(
                "  ({} group timing(s) left out: end timestamp before start)\n",
                self.invalid
            );
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn medians_per_group_and_frame() {
        let mut t = Timings::default();
        for (a, b) in [(1.0, 10.0), (3.0, 30.0), (2.0, 20.0)] {
            t.add_frame(&[
                GroupTiming {
                    label: "a".into(),
                    nanoseconds: a,
                },
                GroupTiming {
                    label: "b+c".into(),
                    nanoseconds: b,
                },
            ]);
        }
        t.add_frame(&[]);
        t.add_frame(&[GroupTiming {
            label: "a".into(),
            nanoseconds: 1.8e22,
        }]);
        assert_eq!(t.invalid, 1);
        assert_eq!(t.frames(), 3);
        assert_eq!(t.group_medians(), vec![("a", 2.0), ("b+c", 20.0)]);
        assert_eq!(t.frame_median(), 22.0);
        assert_eq!(median(&[4.0, 1.0, 3.0, 2.0]), 2.5);
        assert!(t.to_table().contains("b+c"));
    }
}

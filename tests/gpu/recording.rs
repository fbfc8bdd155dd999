//! The ways to record a frame give one image: `Executor::execute`, `Executor::frame(..)` into the
//! executor's command buffers or into the caller's encoder, with or without a timer, and the
//! deprecated `record` it replaces.

use tilegraph::wgpu;
use tilegraph::{CompileOptions, ExecuteMode, Executor, ExecutorOptions};
use tilegraph::{GroupTimer, TimedGroup};
use tilegraph_examples::deferred::DeferredFrame;
use tilegraph_tool::headless::{self, Gpu};

const FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba8UnormSrgb;
const SIZE: (u32, u32) = (160, 90);

#[derive(Clone, Copy, Debug, PartialEq)]
enum Way {
    Execute,
    FrameExecute,
    FrameTimedExecute,
    FrameRecord,
    FrameTimedRecord,
    DeprecatedRecord,
}

impl Way {
    /// Whether the frame is recorded with the caller's timer.
    fn timed(self) -> bool {
        matches!(self, Way::FrameTimedExecute | Way::FrameTimedRecord)
    }

    /// Whether the frame is recorded into the caller's encoder.
    fn into_encoder(self) -> bool {
        matches!(
            self,
            Way::FrameRecord | Way::FrameTimedRecord | Way::DeprecatedRecord
        )
    }
}

/// Counts the groups it was asked to time; writes no timestamps.
#[derive(Default)]
struct CountingTimer(std::sync::atomic::AtomicUsize);

impl GroupTimer for CountingTimer {
    type Group = ();
    type Pass = ();

    fn begin_group(&self, _: &TimedGroup<'_>, _: &mut wgpu::CommandEncoder) {
        self.0.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    }

    fn end_group(&self, _: (), _: &mut wgpu::CommandEncoder) {}
}

/// Two frames of the deferred example recorded `way` in `mode`; the last output's texels.
fn render(gpu: &Gpu, way: Way, mode: ExecuteMode) -> Vec<u8> {
    let mut deferred = DeferredFrame::new(&gpu.adapter, &gpu.device, FORMAT).expect("pipelines");
    let usage = wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::COPY_SRC;
    let (texture, view) = gpu.target("output", SIZE, FORMAT, usage);
    let mut executor: Executor = gpu.executor(ExecutorOptions::default());
    let timer = CountingTimer::default();
    for i in 0..2 {
        deferred.update(&gpu.queue, SIZE, i as f32 / 60.0);
        let (mut graph, handles) = deferred.declare(SIZE);
        let plan = graph
            .compile(&CompileOptions::default())
            .expect("the deferred frame compiles");
        let imports = crate::support::output_imports(handles.output, &texture, &view);
        let mut encoder = gpu.device.create_command_encoder(&Default::default());
        let (graph, plan, imports) = (&mut graph, &plan, &imports);
        let result = match way {
            Way::Execute => executor
                .execute(graph, plan, imports, mode)
                .map(Vec::from_iter),
            #[allow(deprecated)]
            Way::DeprecatedRecord => executor
                .record(graph, plan, imports, mode, &mut encoder)
                .map(|()| Vec::new()),
            Way::FrameExecute
            | Way::FrameTimedExecute
            | Way::FrameRecord
            | Way::FrameTimedRecord => {
                let frame = executor.frame(graph, plan, imports, mode);
                let frame = if way.timed() {
                    frame.timer(&timer)
                } else {
                    frame
                };
                if way.into_encoder() {
                    frame.record(&mut encoder).map(|()| Vec::new())
                } else {
                    frame.execute().map(Vec::from_iter)
                }
            }
        };
        let commands =
            result.unwrap_or_else(|e| panic!("{way:?} {mode}: {}", headless::describe_failure(&e)));
        gpu.queue
            .submit(commands.into_iter().chain([encoder.finish()]));
    }
    let timed = timer.0.into_inner();
    match way.timed() {
        true => assert!(timed > 0, "{way:?}: the timer saw no group"),
        false => assert_eq!(timed, 0, "{way:?}"),
    }
    let readback = headless::read_texture(&gpu.device, &gpu.queue, &texture).expect("readback");
    crate::support::assert_no_gpu_errors(gpu);
    readback.bytes
}

#[test]
fn every_way_of_recording_a_frame_gives_the_same_image() {
    let gpu = crate::support::gpu();
    for mode in [ExecuteMode::Planned, ExecuteMode::Poison] {
        let reference = render(&gpu, Way::Execute, mode);
        assert!(
            reference.iter().any(|&b| b != 0),
            "{mode}: the frame drew nothing"
        );
        for way in [
            Way::FrameExecute,
            Way::FrameTimedExecute,
            Way::FrameRecord,
            Way::FrameTimedRecord,
            Way::DeprecatedRecord,
        ] {
            assert!(
                render(&gpu, way, mode) == reference,
                "{way:?} in {mode} differs from `execute`"
            );
        }
    }
}

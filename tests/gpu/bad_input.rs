//! What the executor does with graphs the device cannot run and with a device that is gone:
//! typed errors, nothing allocated, no panic.

use tilegraph::wgpu;
use tilegraph::{
    Access, CompileOptions, ExecuteError, ExecuteMode, Executor, ExecutorOptions, Imports,
    RenderGraph, TextureDesc,
};
use tilegraph_tool::headless::Gpu;

const FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba8Unorm;

/// A graph whose one pass clears `desc` (kept alive by side effects).
fn one_texture(desc: TextureDesc) -> RenderGraph<'static> {
    crate::support::one_cleared_texture("huge", desc)
}

fn limit_error(executor: &mut Executor, graph: &mut RenderGraph<'_>) -> ExecuteError {
    let plan = graph.compile(&CompileOptions::default()).expect("compiles");
    executor
        .execute(graph, &plan, &Imports::new(), ExecuteMode::Planned)
        .expect_err("over the device's limits")
}

/// A device with lower limits than its adapter's (every adapter offers these): the check must
/// read the device's limits, not the adapter's.
fn limited_device(gpu: &Gpu) -> (wgpu::Device, wgpu::Queue) {
    let limits = wgpu::Limits {
        max_texture_dimension_2d: 1024,
        max_texture_array_layers: 64,
        max_buffer_size: 1 << 20,
        ..gpu.adapter.limits()
    };
    pollster::block_on(gpu.adapter.request_device(&wgpu::DeviceDescriptor {
        label: Some("limited"),
        required_limits: limits,
        ..Default::default()
    }))
    .expect("a device with lower limits")
}

#[test]
fn textures_over_the_device_limits_are_refused_before_anything_is_allocated() {
    let gpu = crate::support::gpu();
    let (device, queue) = limited_device(&gpu);
    let limits = device.limits();
    assert_eq!(limits.max_texture_dimension_2d, 1024);
    let mut executor = Executor::new(&device, &queue);
    let max_2d = limits.max_texture_dimension_2d;

    let mut wide = one_texture(TextureDesc::new(FORMAT, max_2d + 1, 4));
    let err = limit_error(&mut executor, &mut wide);
    match &err {
        ExecuteError::ExceedsDeviceLimit {
            resource,
            what,
            value,
            limit,
            max,
        } => {
            assert_eq!(
                (resource.as_str(), *what, *limit),
                ("huge", "width", "max_texture_dimension_2d")
            );
            assert_eq!((*value, *max), (u64::from(max_2d) + 1, u64::from(max_2d)));
        }
        other => panic!("expected ExceedsDeviceLimit, got {other}"),
    }
    assert!(
        err.to_string().contains("max_texture_dimension_2d"),
        "{err}"
    );

    let mut tall = one_texture(TextureDesc::new(FORMAT, 4, max_2d + 1));
    let err = limit_error(&mut executor, &mut tall);
    assert!(
        matches!(err, ExecuteError::ExceedsDeviceLimit { what: "height", .. }),
        "{err}"
    );

    let layers = limits.max_texture_array_layers + 1;
    let mut deep = one_texture(TextureDesc::new(FORMAT, 4, 4).layers(layers));
    let err = limit_error(&mut executor, &mut deep);
    assert!(
        matches!(
            err,
            ExecuteError::ExceedsDeviceLimit {
                what: "array layers",
                limit: "max_texture_array_layers",
                ..
            }
        ),
        "{err}"
    );

    // A history texture, which the executor creates too.
    let mut graph = RenderGraph::new();
    let history = graph.history_texture("trail", TextureDesc::new(FORMAT, max_2d + 1, 1));
    graph
        .add_render_pass("accumulate")
        .sample(history.previous)
        .color(history.current, Access::Write)
        .execute(|_, _| Ok(()));
    let err = limit_error(&mut executor, &mut graph);
    assert!(
        matches!(&err, ExecuteError::ExceedsDeviceLimit { resource, .. } if resource.starts_with("trail.")),
        "{err}"
    );

    // A buffer.
    let mut graph = RenderGraph::new();
    let buffer = graph.create_buffer("big", (1 << 20) + 4);
    graph
        .add_compute_pass("fill")
        .storage_write_buffer(buffer)
        .side_effects()
        .execute(|_, _| Ok(()));
    let err = limit_error(&mut executor, &mut graph);
    assert!(
        matches!(&err, ExecuteError::ExceedsDeviceLimit { resource, limit: "max_buffer_size", .. } if resource == "big"),
        "{err}"
    );

    let stats = executor.pool_stats();
    assert_eq!(stats.textures_created, 0, "nothing allocated: {stats:?}");

    // The executor stays usable.
    let mut fine = one_texture(TextureDesc::new(FORMAT, 8, 8));
    let plan = fine.compile(&CompileOptions::default()).expect("compiles");
    executor
        .execute_and_submit(&mut fine, &plan, &Imports::new(), ExecuteMode::Planned)
        .expect("a graph within the limits records");
    assert_eq!(executor.pool_stats().textures_created, 1);
}

#[test]
fn a_lost_device_is_a_typed_error() {
    // A device of its own: this one is destroyed.
    let gpu = crate::support::gpu();
    // Two executors of one device (and one of a dropped executor before them): wgpu keeps one
    // lost callback per device, and both must hear of the loss.
    drop(Executor::new(&gpu.device, &gpu.queue));
    let mut executors = [
        Executor::new(&gpu.device, &gpu.queue),
        gpu.executor(ExecutorOptions::default().with_recording_threads(2)),
    ];
    let mut graph = one_texture(TextureDesc::new(FORMAT, 8, 8));
    let plan = graph.compile(&CompileOptions::default()).expect("compiles");
    for executor in &mut executors {
        executor
            .execute_and_submit(&mut graph, &plan, &Imports::new(), ExecuteMode::Planned)
            .expect("records before the loss");
    }
    gpu.device.destroy();
    // wgpu reports the loss when the device is next maintained (a poll, as a frame loop does).
    let _ = gpu.device.poll(wgpu::PollType::wait_indefinitely());
    for i in [0, 1, 0, 1] {
        let executor = &mut executors[i];
        let err = executor
            .execute_and_submit(&mut graph, &plan, &Imports::new(), ExecuteMode::Planned)
            .expect_err("the device is gone");
        assert!(
            matches!(
                err,
                ExecuteError::DeviceLost {
                    reason: wgpu::DeviceLostReason::Destroyed,
                    ..
                }
            ),
            "{err}"
        );
    }
}

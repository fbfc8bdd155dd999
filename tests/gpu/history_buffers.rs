//! History buffers (`RenderGraph::history_buffer`): boids-shaped ping-pong, a compute pass that
//! reads last frame's particles and writes this frame's, run for several frames in every mode;
//! the pass is kept although nothing in the frame reads what it writes; the same graph declared
//! once and executed every frame.

use std::sync::Mutex;

use tilegraph::helpers::read_buffer;
use tilegraph::wgpu;
use tilegraph::{CompileOptions, Executor, Import, Imports, RenderGraph};

const PARTICLES: u32 = 64;
const BYTES: u64 = PARTICLES as u64 * 4;

/// Each frame: particle `i` moves by `i + 1` from where it was last frame.
const SIMULATE: &str = r#"
@group(0) @binding(0) var<storage, read> previous: array<u32>;
@group(0) @binding(1) var<storage, read_write> current: array<u32>;
@compute @workgroup_size(64) fn main(@builtin(global_invocation_id) id: vec3u) {
    current[id.x] = previous[id.x] + id.x + 1u;
}
"#;

fn pipeline(device: &wgpu::Device) -> wgpu::ComputePipeline {
    let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
        label: Some("simulate"),
        source: wgpu::ShaderSource::Wgsl(SIMULATE.into()),
    });
    device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
        label: Some("simulate"),
        layout: None,
        module: &module,
        entry_point: Some("main"),
        compilation_options: Default::default(),
        cache: None,
    })
}

/// One frame: simulate, and (where `copy_out` is given) copy this frame's particles out.
fn declare<'a>(
    pipeline: &'a wgpu::ComputePipeline,
    valid: &'a Mutex<Vec<bool>>,
    copy_out: bool,
) -> RenderGraph<'a> {
    let mut graph = RenderGraph::new();
    let particles = graph.history_buffer("particles", BYTES);
    graph
        .add_compute_pass("simulate")
        .storage_read_buffer(particles.previous)
        .storage_write_buffer(particles.current)
        .execute(move |pass, ctx| {
            valid
                .lock()
                .unwrap()
                .push(ctx.history_buffer_valid(particles.previous));
            let layout = pipeline.get_bind_group_layout(0);
            let previous = ctx.buffer(particles.previous)?;
            let current = ctx.buffer(particles.current)?;
            let group = ctx.device().create_bind_group(&wgpu::BindGroupDescriptor {
                label: Some("simulate"),
                layout: &layout,
                entries: &[
                    wgpu::BindGroupEntry {
                        binding: 0,
                        resource: previous.as_entire_binding(),
                    },
                    wgpu::BindGroupEntry {
                        binding: 1,
                        resource: current.as_entire_binding(),
                    },
                ],
            });
            pass.set_pipeline(pipeline);
            pass.set_bind_group(0, &group, &[]);
            pass.dispatch_workgroups(PARTICLES / 64, 1, 1);
            Ok(())
        });
    if copy_out {
        let out = graph.import_buffer("out", BYTES, Import::OUTPUT);
        graph
            .add_copy_pass("copy_out")
            .copy_src_buffer(particles.current)
            .copy_dst_buffer(out)
            .execute(move |encoder, ctx| {
                let (from, to) = (ctx.buffer(particles.current)?, ctx.buffer(out)?);
                encoder.copy_buffer_to_buffer(from, 0, to, 0, BYTES);
                Ok(())
            });
    }
    graph
}

/// The buffer the particles are copied out to.
fn out_buffer(device: &wgpu::Device) -> wgpu::Buffer {
    device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("out"),
        size: BYTES,
        usage: wgpu::BufferUsages::COPY_DST | wgpu::BufferUsages::COPY_SRC,
        mapped_at_creation: false,
    })
}

/// Particle `i` has moved `frames` times by `i + 1`.
fn assert_particles_moved(bytes: &[u8], frames: u32, what: &str) {
    for (i, v) in bytes.chunks_exact(4).enumerate() {
        let v = u32::from_le_bytes(v.try_into().unwrap());
        assert_eq!(v, frames * (i as u32 + 1), "{what}: particle {i}");
    }
}

/// The simulating closure found `previous` valid from the second of `frames` frames on.
fn assert_valid_from_the_second_frame(valid: Mutex<Vec<bool>>, frames: u32, what: &str) {
    let valid = valid.into_inner().unwrap();
    let expect: Vec<bool> = (1..=frames).map(|f| f > 1).collect();
    assert_eq!(
        valid, expect,
        "{what}: `previous` holds a frame from the second on"
    );
}

#[test]
fn particles_ping_pong_through_a_history_buffer_for_several_frames() {
    let gpu = crate::support::gpu();
    let pipeline = pipeline(&gpu.device);
    let out = out_buffer(&gpu.device);
    const FRAMES: u32 = 5;
    for mode in crate::support::MODES {
        let valid = Mutex::new(Vec::new());
        let mut executor = Executor::new(&gpu.device, &gpu.queue);
        for frame in 1..=FRAMES {
            // The last frame copies the particles out; the others only simulate.
            let last = frame == FRAMES;
            let mut graph = declare(&pipeline, &valid, last);
            let plan = graph.compile(&CompileOptions::default()).expect("compiles");
            let simulate = plan.pass_id("simulate").expect("declared");
            assert!(
                !plan.passes()[simulate.index()].culled,
                "the writer of `current` is kept for the next frame"
            );
            let mut imports = Imports::new();
            if last {
                let handle = graph.buffer_handle("out").expect("declared");
                imports.buffer(handle, &out);
            }
            executor
                .execute_and_submit(&mut graph, &plan, &imports, mode)
                .map(drop)
                .unwrap_or_else(|e| panic!("{mode:?}, frame {frame}: {e}"));
            crate::support::assert_no_gpu_errors(&gpu);
        }
        let what = format!("{mode:?}");
        let bytes = read_buffer(&gpu.device, &gpu.queue, &out).expect("reads back");
        assert_particles_moved(&bytes, FRAMES, &what);
        assert_valid_from_the_second_frame(valid, FRAMES, &what);
        assert_eq!(executor.stats().buffer_bytes, 2 * BYTES, "{mode:?}");
    }
}

#[test]
fn a_graph_declared_once_is_executed_frame_after_frame() {
    // A renderer whose frame keeps its shape declares and compiles it once and executes the
    // same graph, plan and imports every frame: the history buffer still swaps each frame.
    let gpu = crate::support::gpu();
    let pipeline = pipeline(&gpu.device);
    let out = out_buffer(&gpu.device);
    const FRAMES: u32 = 4;
    for mode in crate::support::MODES {
        let valid = Mutex::new(Vec::new());
        let mut executor = Executor::new(&gpu.device, &gpu.queue);
        let mut graph = declare(&pipeline, &valid, true);
        let plan = graph.compile(&CompileOptions::default()).expect("compiles");
        let mut imports = Imports::new();
        imports.buffer(graph.buffer_handle("out").expect("declared"), &out);
        for frame in 1..=FRAMES {
            executor
                .execute_and_submit(&mut graph, &plan, &imports, mode)
                .map(drop)
                .unwrap_or_else(|e| panic!("{mode:?}, frame {frame}: {e}"));
            crate::support::assert_no_gpu_errors(&gpu);
            let what = format!("{mode:?}, frame {frame}");
            let bytes = read_buffer(&gpu.device, &gpu.queue, &out).expect("reads back");
            assert_particles_moved(&bytes, frame, &what);
        }
        drop(graph);
        assert_valid_from_the_second_frame(valid, FRAMES, &format!("{mode:?}"));
    }
}

//! Recording on several threads: the same images as on one thread in every mode and over
//! several frames, timestamps and validation errors still name the right passes, and a closure
//! that panics on a recording thread fails only its frame.

use std::sync::Mutex;

use tilegraph::wgpu;
use tilegraph::{
    Access, CompileOptions, ExecuteError, ExecuteMode, Executor, ExecutorOptions, Import,
    RenderGraph, TextureDesc,
};
use tilegraph_tool::headless::Gpu;

const FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba8Unorm;
const SIZE: (u32, u32) = (64, 48);
/// Render passes in the chain; each samples the one before, so each is its own group.
const CHAIN: usize = 24;
/// The chain pass after which a compute pass writes the tint the later passes sample.
const TINT_AT: usize = 12;
/// Dynamic-offset stride of the per-pass parameters.
const STRIDE: u64 = 256;
const MODES: [ExecuteMode; 3] = [
    ExecuteMode::Planned,
    ExecuteMode::Naive,
    ExecuteMode::Poison,
];

const SHADER: &str = "
struct Params { color: vec4f }
@group(0) @binding(0) var previous: texture_2d<f32>;
@group(0) @binding(1) var tint: texture_2d<f32>;
@group(0) @binding(2) var<uniform> params: Params;

@vertex fn vs(@builtin(vertex_index) i: u32) -> @builtin(position) vec4f {
    var p = array(vec2f(-1.0, -1.0), vec2f(3.0, -1.0), vec2f(-1.0, 3.0));
    return vec4f(p[i], 0.0, 1.0);
}

@fragment fn fs(@builtin(position) pos: vec4f) -> @location(0) vec4f {
    let here = vec2i(pos.xy);
    let before = textureLoad(previous, here, 0);
    let t = textureLoad(tint, vec2i(0, 0), 0);
    let ramp = vec4f(pos.x / 64.0, pos.y / 48.0, 0.0, 0.0);
    return fract(before * 0.75 + params.color + t * 0.5 + ramp * 0.125);
}

@group(0) @binding(0) var tint_out: texture_storage_2d<rgba8unorm, write>;
@compute @workgroup_size(1) fn tint_cs() {
    textureStore(tint_out, vec2i(0, 0), vec4f(0.25, 0.125, 0.5, 0.0));
}
";

/// Pipelines, the per-pass parameters and a black stand-in for the tint before it exists.
struct Chain {
    render: wgpu::RenderPipeline,
    compute: wgpu::ComputePipeline,
    layout: wgpu::BindGroupLayout,
    compute_layout: wgpu::BindGroupLayout,
    params: wgpu::Buffer,
    black: wgpu::TextureView,
    output: wgpu::Texture,
    output_view: wgpu::TextureView,
    /// The name of the thread each chain closure ran on.
    threads_seen: Mutex<Vec<Option<String>>>,
}

impl Chain {
    fn new(gpu: &Gpu) -> Self {
        let device = &gpu.device;
        let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("chain"),
            source: wgpu::ShaderSource::Wgsl(SHADER.into()),
        });
        let texture_entry = |binding| wgpu::BindGroupLayoutEntry {
            binding,
            visibility: wgpu::ShaderStages::FRAGMENT,
            ty: wgpu::BindingType::Texture {
                sample_type: wgpu::TextureSampleType::Float { filterable: false },
                view_dimension: wgpu::TextureViewDimension::D2,
                multisampled: false,
            },
            count: None,
        };
        let layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("chain"),
            entries: &[
                texture_entry(0),
                texture_entry(1),
                wgpu::BindGroupLayoutEntry {
                    binding: 2,
                    visibility: wgpu::ShaderStages::FRAGMENT,
                    ty: wgpu::BindingType::Buffer {
                        ty: wgpu::BufferBindingType::Uniform,
                        has_dynamic_offset: true,
                        min_binding_size: wgpu::BufferSize::new(16),
                    },
                    count: None,
                },
            ],
        });
        let compute_layout = crate::support::one_entry_layout(
            device,
            "tint",
            wgpu::ShaderStages::COMPUTE,
            crate::support::storage_image(FORMAT),
        );
        let pipeline_layout = |layout: &wgpu::BindGroupLayout| {
            device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
                label: None,
                bind_group_layouts: &[Some(layout)],
                immediate_size: 0,
            })
        };
        let render = tilegraph_tool::headless::color_pipeline(
            device,
            "chain",
            &module,
            Some(&pipeline_layout(&layout)),
            ("vs", "fs"),
            FORMAT,
        );
        let compute = device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
            label: Some("tint"),
            layout: Some(&pipeline_layout(&compute_layout)),
            module: &module,
            entry_point: Some("tint_cs"),
            compilation_options: Default::default(),
            cache: None,
        });
        let params = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("params"),
            size: STRIDE * CHAIN as u64,
            usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let (_, black) = gpu.target(
            "black",
            (1, 1),
            FORMAT,
            wgpu::TextureUsages::TEXTURE_BINDING,
        );
        let (output, output_view) = gpu.target(
            "output",
            SIZE,
            FORMAT,
            wgpu::TextureUsages::COPY_DST | wgpu::TextureUsages::COPY_SRC,
        );
        Chain {
            render,
            compute,
            layout,
            compute_layout,
            params,
            black,
            output,
            output_view,
            threads_seen: Mutex::new(Vec::new()),
        }
    }

    /// Per-pass colours of frame `frame`, one per dynamic offset.
    fn update(&self, gpu: &Gpu, frame: u32) {
        let mut bytes = vec![0u8; (STRIDE * CHAIN as u64) as usize];
        for i in 0..CHAIN {
            let x = (i as f32 + 1.0) * 0.037 + frame as f32 * 0.11;
            let color = [x.fract(), (x * 1.7).fract(), (x * 2.3).fract(), 0.25];
            for (c, v) in color.iter().enumerate() {
                let at = i * STRIDE as usize + c * 4;
                bytes[at..at + 4].copy_from_slice(&v.to_le_bytes());
            }
        }
        gpu.queue.write_buffer(&self.params, 0, &bytes);
    }
}

/// What a frame of the chain does wrong on purpose.
#[derive(Clone, Copy, PartialEq)]
enum Fault {
    None,
    /// Chain pass `n` panics.
    Panic(usize),
    /// Chain pass `n` draws without a pipeline (rejected when the encoder finishes).
    Draw(usize),
    /// Chain pass `n` creates an invalid buffer through the device (rejected at once, on the
    /// thread that records it).
    Device(usize),
}

/// Declares and records one frame of the chain: `history.previous` → CHAIN render passes (a
/// compute pass writing the tint after pass `TINT_AT`) → `keep` writes `history.current` →
/// `present` copies the last chain texture to the output. Returns how many command buffers
/// the frame was recorded into.
fn chain_frame(
    chain: &Chain,
    executor: &mut Executor,
    mode: ExecuteMode,
    fault: Fault,
) -> Result<usize, ExecuteError> {
    let desc = TextureDesc::new(FORMAT, SIZE.0, SIZE.1);
    let mut graph = RenderGraph::new();
    let history = graph.history_texture("history", desc);
    let tint = graph.create_texture("tint", TextureDesc::new(FORMAT, 1, 1));
    let output = graph.import_texture("output", desc, Import::OUTPUT);
    let mut previous = history.previous;
    for i in 0..CHAIN {
        if i == TINT_AT {
            graph
                .add_compute_pass("tint")
                .storage_write(tint)
                .execute(move |pass, ctx| {
                    let bind = ctx.device().create_bind_group(&wgpu::BindGroupDescriptor {
                        label: None,
                        layout: &chain.compute_layout,
                        entries: &[wgpu::BindGroupEntry {
                            binding: 0,
                            resource: wgpu::BindingResource::TextureView(ctx.view(tint)?),
                        }],
                    });
                    pass.set_pipeline(&chain.compute);
                    pass.set_bind_group(0, &bind, &[]);
                    pass.dispatch_workgroups(1, 1, 1);
                    Ok(())
                });
        }
        let target = graph.create_texture(&format!("chain{i}"), desc);
        let mut pass = graph
            .add_render_pass(&format!("chain{i}"))
            .sample(previous)
            .color(target, Access::Write);
        if i >= TINT_AT {
            pass = pass.sample(tint);
        }
        let source = previous;
        pass.execute(move |pass, ctx| {
            let thread = std::thread::current().name().map(str::to_owned);
            chain.threads_seen.lock().unwrap().push(thread);
            if fault == Fault::Panic(i) {
                panic!("chain{i} fails on purpose");
            }
            if fault == Fault::Device(i) {
                // Mapped at creation, a size must be a multiple of 4.
                let _ = ctx.device().create_buffer(&wgpu::BufferDescriptor {
                    label: Some("invalid"),
                    size: 3,
                    usage: wgpu::BufferUsages::COPY_DST,
                    mapped_at_creation: true,
                });
            }
            let tint_view = if i >= TINT_AT {
                ctx.view(tint)?
            } else {
                &chain.black
            };
            let bind = ctx.device().create_bind_group(&wgpu::BindGroupDescriptor {
                label: None,
                layout: &chain.layout,
                entries: &[
                    wgpu::BindGroupEntry {
                        binding: 0,
                        resource: wgpu::BindingResource::TextureView(ctx.view(source)?),
                    },
                    wgpu::BindGroupEntry {
                        binding: 1,
                        resource: wgpu::BindingResource::TextureView(tint_view),
                    },
                    wgpu::BindGroupEntry {
                        binding: 2,
                        resource: wgpu::BindingResource::Buffer(wgpu::BufferBinding {
                            buffer: &chain.params,
                            offset: 0,
                            size: wgpu::BufferSize::new(16),
                        }),
                    },
                ],
            });
            if fault != Fault::Draw(i) {
                pass.set_pipeline(&chain.render);
            }
            pass.set_bind_group(0, &bind, &[(i as u64 * STRIDE) as u32]);
            pass.draw(0..3, 0..1);
            Ok(())
        });
        previous = target;
    }
    let last = previous;
    graph
        .add_copy_pass("keep")
        .copy_src(last)
        .copy_dst(history.current)
        .execute(move |encoder, ctx| {
            let (src, dst) = (ctx.texture(last)?, ctx.texture(history.current)?);
            encoder.copy_texture_to_texture(src.as_image_copy(), dst.as_image_copy(), src.size());
            Ok(())
        });
    crate::support::copy_pass(&mut graph, "present", last, output);
    let plan = graph.compile(&CompileOptions::default()).expect("compiles");
    let imports = crate::support::output_imports(output, &chain.output, &chain.output_view);
    let commands = executor.execute(&mut graph, &plan, &imports, mode)?;
    let buffers = commands.len();
    executor.queue().submit(commands);
    Ok(buffers)
}

/// The output after each of `frames` frames recorded on `threads` threads in `mode`.
fn render(gpu: &Gpu, threads: usize, mode: ExecuteMode, frames: u32) -> Vec<Vec<u8>> {
    let chain = Chain::new(gpu);
    let mut executor = gpu.executor(ExecutorOptions::default().with_recording_threads(threads));
    assert_eq!(executor.recording_threads(), threads);
    (0..frames)
        .map(|frame| {
            chain.update(gpu, frame);
            let buffers = chain_frame(&chain, &mut executor, mode, Fault::None)
                .unwrap_or_else(|e| panic!("{threads} threads, {mode}, frame {frame}: {e}"));
            // Two chunks per thread, each its own command buffer.
            assert_eq!(buffers, if threads == 1 { 1 } else { 2 * threads });
            // With recording threads every closure ran on one of them; without, on this thread.
            let seen = std::mem::take(&mut *chain.threads_seen.lock().unwrap());
            assert_eq!(seen.len(), CHAIN);
            let caller = std::thread::current().name().map(str::to_owned);
            for name in &seen {
                if threads == 1 {
                    assert_eq!(name, &caller);
                } else {
                    assert!(
                        name.as_deref()
                            .is_some_and(|n| n.starts_with("tilegraph-record-")),
                        "a closure ran on {name:?}"
                    );
                }
            }
            let readback = gpu.read_texture(&chain.output).expect("readback");
            crate::support::assert_no_gpu_errors(gpu);
            readback.bytes
        })
        .collect()
}

#[test]
fn several_threads_render_what_one_thread_renders_in_every_mode() {
    let gpu = crate::support::gpu();
    let reference = render(&gpu, 1, ExecuteMode::Planned, 3);
    // Each frame differs from the one before (new colours, the history), so the frames check
    // the history's swap as well as the order of the passes.
    assert!(reference[0] != reference[1] && reference[1] != reference[2]);
    for mode in MODES {
        for threads in [1, 3, 4] {
            let frames = render(&gpu, threads, mode, 3);
            for (f, (got, expected)) in frames.iter().zip(&reference).enumerate() {
                assert!(
                    got == expected,
                    "{mode} on {threads} threads: frame {f} differs from one thread's planned frame"
                );
            }
        }
    }
}

#[test]
fn timestamps_name_the_same_groups_on_several_threads() {
    let gpu = crate::support::gpu();
    if !crate::support::can_time(&gpu) {
        return;
    }
    let chain = Chain::new(&gpu);
    chain.update(&gpu, 0);
    let labels = |threads: usize| {
        let mut executor = gpu.executor(
            ExecutorOptions::default()
                .with_timestamps(true)
                .with_recording_threads(threads),
        );
        chain_frame(&chain, &mut executor, ExecuteMode::Planned, Fault::None).expect("records");
        let timings = executor.read_timings();
        for t in &timings {
            assert!(t.nanoseconds.is_finite() && t.nanoseconds >= 0.0, "{t:?}");
        }
        timings.into_iter().map(|t| t.label).collect::<Vec<_>>()
    };
    let one = labels(1);
    assert_eq!(
        one.len(),
        CHAIN + 1,
        "every render and compute group: {one:?}"
    );
    assert_eq!(one[0], "chain0");
    assert_eq!(one[TINT_AT], "tint");
    assert_eq!(labels(4), one);
    crate::support::assert_no_gpu_errors(&gpu);
}

#[test]
fn validation_errors_on_recording_threads_name_the_pass() {
    let gpu = crate::support::gpu();
    let chain = Chain::new(&gpu);
    chain.update(&gpu, 0);
    let mut executor = gpu.executor(ExecutorOptions::default().with_recording_threads(4));
    // Rejected when its encoder finishes, on the calling thread.
    let err = chain_frame(&chain, &mut executor, ExecuteMode::Planned, Fault::Draw(17))
        .expect_err("a draw without a pipeline");
    assert!(
        matches!(&err, ExecuteError::Validation { pass: Some(p), .. } if p == "chain17"),
        "{err}"
    );
    // Rejected at once, on the recording thread that calls the device.
    let err = chain_frame(
        &chain,
        &mut executor,
        ExecuteMode::Planned,
        Fault::Device(5),
    )
    .expect_err("an invalid buffer");
    assert!(
        matches!(&err, ExecuteError::Validation { pass: Some(p), .. } if p == "chain5"),
        "{err}"
    );
    chain_frame(&chain, &mut executor, ExecuteMode::Planned, Fault::None)
        .expect("the next frame records");
    crate::support::assert_no_gpu_errors(&gpu);
}

#[test]
fn a_panicking_closure_fails_its_frame_and_the_executor_records_the_next() {
    let gpu = crate::support::gpu();
    for threads in [4, 1] {
        let chain = Chain::new(&gpu);
        chain.update(&gpu, 0);
        let mut executor = gpu.executor(ExecutorOptions::default().with_recording_threads(threads));
        let err = chain_frame(
            &chain,
            &mut executor,
            ExecuteMode::Planned,
            Fault::Panic(20),
        )
        .expect_err("the closure panics");
        match &err {
            ExecuteError::PassPanicked { pass, message } => {
                assert_eq!(pass, "chain20");
                assert!(message.contains("fails on purpose"), "{message}");
            }
            other => panic!("{threads} threads: expected PassPanicked, got {other}"),
        }
        // The next frame records, and renders what a fresh executor renders.
        chain_frame(&chain, &mut executor, ExecuteMode::Planned, Fault::None)
            .expect("the next frame records");
        let after = gpu.read_texture(&chain.output).expect("readback").bytes;
        crate::support::assert_no_gpu_errors(&gpu);
        let mut fresh = gpu.executor(ExecutorOptions::default());
        chain_frame(&chain, &mut fresh, ExecuteMode::Planned, Fault::None).expect("fresh");
        let expected = gpu.read_texture(&chain.output).expect("readback").bytes;
        assert!(
            after == expected,
            "{threads} threads: the frame after the panic differs"
        );
    }
}

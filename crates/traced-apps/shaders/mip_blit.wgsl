// One mip level from the level above: a triangle over the whole target, sampled bilinearly.

struct Varyings {
    @builtin(position) clip: vec4<f32>,
    @location(0) uv: vec2<f32>,
}

@vertex
fn vs_main(@builtin(vertex_index) index: u32) -> Varyings {
    // Vertices (0,0), (0,2), (2,0) in texture space: the triangle covers the unit square.
    let uv = vec2<f32>(f32(index / 2u), f32(index & 1u)) * 2.0;
    return Varyings(vec4<f32>(uv.x * 2.0 - 1.0, 1.0 - uv.y * 2.0, 0.0, 1.0), uv);
}

@group(0) @binding(0) var source: texture_2d<f32>;
@group(0) @binding(1) var source_sampler: sampler;

@fragment
fn fs_main(in: Varyings) -> @location(0) vec4<f32> {
    return textureSample(source, source_sampler, in.uv);
}

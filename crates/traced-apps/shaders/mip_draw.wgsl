// A long textured strip receding to the horizon, so that every mip level shows.

struct Locals {
    transform: mat4x4<f32>,
}

struct Varyings {
    @builtin(position) clip: vec4<f32>,
    @location(0) uv: vec2<f32>,
}

@group(0) @binding(0) var<uniform> locals: Locals;
@group(0) @binding(1) var color: texture_2d<f32>;
@group(0) @binding(2) var color_sampler: sampler;

@vertex
fn vs_main(@builtin(vertex_index) index: u32) -> Varyings {
    let xy = vec2<f32>(100.0 * (1.0 - f32(index & 2u)), 1000.0 * f32(index & 1u));
    return Varyings(locals.transform * vec4<f32>(xy, 0.0, 1.0), 0.05 * xy + vec2<f32>(0.5, 0.5));
}

@fragment
fn fs_main(in: Varyings) -> @location(0) vec4<f32> {
    return textureSample(color, color_sampler, in.uv);
}

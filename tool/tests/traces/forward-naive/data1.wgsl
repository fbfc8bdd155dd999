// Forward shading with three shadow cascades: the cascades' depth (vs_shadow, no fragment stage)
// and the lit, fogged, tonemapped colour (vs_main with fs_linear or fs_encode).

struct Globals {
    view_proj: mat4x4<f32>,
    view: mat4x4<f32>,
    cascades: array<mat4x4<f32>, 3>,
    // xyz: view-space distance where each cascade ends.
    splits: vec4<f32>,
    // xyz: direction towards the sun.
    sun: vec4<f32>,
    eye: vec4<f32>,
};

struct Cascade {
    index: vec4<u32>,
};

@group(0) @binding(0) var<uniform> globals: Globals;

struct VertexIn {
    @location(0) position: vec3<f32>,
    @location(1) normal: vec3<f32>,
    @location(2) color: vec3<f32>,
};

@group(0) @binding(1) var<uniform> cascade: Cascade;

@vertex
fn vs_shadow(v: VertexIn) -> @builtin(position) vec4<f32> {
    return globals.cascades[cascade.index.x] * vec4(v.position, 1.0);
}

// Shared by the forward example's two modules (shadow.wgsl and lit.wgsl); prepended to each.

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

@group(0) @binding(0) var<uniform> globals: Globals;

struct VertexIn {
    @location(0) position: vec3<f32>,
    @location(1) normal: vec3<f32>,
    @location(2) color: vec3<f32>,
};

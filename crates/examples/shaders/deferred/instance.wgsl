// The instanced meshes' vertex stage, shared by the G-buffer and the transparent pass; prepended
// to their modules after common.wgsl.

@group(0) @binding(0) var<uniform> camera: Camera;

struct VertexIn {
    @location(0) position: vec3<f32>,
    @location(1) normal: vec3<f32>,
    @location(2) model_0: vec4<f32>,
    @location(3) model_1: vec4<f32>,
    @location(4) model_2: vec4<f32>,
    @location(5) model_3: vec4<f32>,
    // Opaque meshes: rgb albedo. Glass: rgb tint, a opacity.
    @location(6) color: vec4<f32>,
    // roughness, metalness, checker pattern (0 or 1).
    @location(7) material: vec4<f32>,
}

struct VertexOut {
    @builtin(position) clip: vec4<f32>,
    @location(0) world: vec3<f32>,
    @location(1) normal: vec3<f32>,
    @location(2) color: vec4<f32>,
    @location(3) material: vec4<f32>,
}

@vertex
fn vs_main(in: VertexIn) -> VertexOut {
    let model = mat4x4<f32>(in.model_0, in.model_1, in.model_2, in.model_3);
    let world = model * vec4<f32>(in.position, 1.0);
    var out: VertexOut;
    out.clip = camera.view_proj * world;
    out.world = world.xyz;
    // Models use rotations and per-axis scales of axis-aligned meshes, uniform scales of spheres:
    // the model matrix keeps normals' directions.
    out.normal = (model * vec4<f32>(in.normal, 0.0)).xyz;
    out.color = in.color;
    out.material = in.material;
    return out;
}

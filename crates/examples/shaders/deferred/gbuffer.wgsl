// G-buffer: albedo, world normal, roughness/metalness and depth of the opaque scene.

@group(0) @binding(0) var<uniform> camera: Camera;

struct VertexIn {
    @location(0) position: vec3<f32>,
    @location(1) normal: vec3<f32>,
    @location(2) model_0: vec4<f32>,
    @location(3) model_1: vec4<f32>,
    @location(4) model_2: vec4<f32>,
    @location(5) model_3: vec4<f32>,
    @location(6) albedo: vec4<f32>,
    // roughness, metalness, checker pattern (0 or 1).
    @location(7) material: vec4<f32>,
}

struct VertexOut {
    @builtin(position) clip: vec4<f32>,
    @location(0) world: vec3<f32>,
    @location(1) normal: vec3<f32>,
    @location(2) albedo: vec3<f32>,
    @location(3) material: vec3<f32>,
}

struct GBuffer {
    @location(0) albedo: vec4<f32>,
    @location(1) normal: vec4<f32>,
    @location(2) material: vec4<f32>,
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
    out.albedo = in.albedo.rgb;
    out.material = in.material.xyz;
    return out;
}

@fragment
fn fs_main(in: VertexOut) -> GBuffer {
    var albedo = in.albedo;
    if in.material.z > 0.5 {
        let cell = vec2<i32>(floor(in.world.xz * 0.5));
        if ((cell.x + cell.y) & 1) == 0 {
            albedo = albedo * 0.55;
        }
    }
    var out: GBuffer;
    out.albedo = vec4<f32>(albedo, 1.0);
    out.normal = vec4<f32>(normalize(in.normal), 0.0);
    out.material = vec4<f32>(in.material.x, in.material.y, 0.0, 0.0);
    return out;
}

// Transparent glass panes, forward shaded over the lit image with every light and blended;
// depth-tested against the G-buffer's depth without writing it.

@group(0) @binding(0) var<uniform> camera: Camera;
@group(0) @binding(1) var<storage, read> lights: array<Light>;

struct VertexIn {
    @location(0) position: vec3<f32>,
    @location(1) normal: vec3<f32>,
    @location(2) model_0: vec4<f32>,
    @location(3) model_1: vec4<f32>,
    @location(4) model_2: vec4<f32>,
    @location(5) model_3: vec4<f32>,
    // rgb: tint, a: opacity.
    @location(6) color: vec4<f32>,
    @location(7) material: vec4<f32>,
}

struct VertexOut {
    @builtin(position) clip: vec4<f32>,
    @location(0) world: vec3<f32>,
    @location(1) normal: vec3<f32>,
    @location(2) color: vec4<f32>,
    @location(3) roughness: f32,
}

@vertex
fn vs_main(in: VertexIn) -> VertexOut {
    let model = mat4x4<f32>(in.model_0, in.model_1, in.model_2, in.model_3);
    let world = model * vec4<f32>(in.position, 1.0);
    var out: VertexOut;
    out.clip = camera.view_proj * world;
    out.world = world.xyz;
    out.normal = (model * vec4<f32>(in.normal, 0.0)).xyz;
    out.color = in.color;
    out.roughness = in.material.x;
    return out;
}

@fragment
fn fs_main(in: VertexOut, @builtin(front_facing) front: bool) -> @location(0) vec4<f32> {
    let v = normalize(camera.eye.xyz - in.world);
    var n = normalize(in.normal);
    if !front {
        n = -n;
    }
    var color = in.color.rgb * 0.08;
    for (var i = 0u; i < LIGHT_COUNT; i++) {
        color += shade_point_light(lights[i], in.world, n, v, in.color.rgb, in.roughness, 0.0);
    }
    let fresnel = pow(1.0 - max(dot(n, v), 0.0), 5.0);
    let alpha = mix(in.color.a, 1.0, fresnel * 0.6);
    return vec4<f32>(color, alpha);
}

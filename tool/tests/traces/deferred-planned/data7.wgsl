// Shared by every shader of the deferred example; prepended to each module.

const LIGHT_COUNT: u32 = 256u;
// Words of a tile's light mask: one bit per light.
const MASK_WORDS: u32 = 8u;
const TILE_SIZE: u32 = 16u;

struct Camera {
    view_proj: mat4x4<f32>,
    inv_view_proj: mat4x4<f32>,
    view: mat4x4<f32>,
    inv_proj: mat4x4<f32>,
    // xyz: eye position.
    eye: vec4<f32>,
    // width, height, time in seconds, exposure.
    frame: vec4<f32>,
    // tiles across, tiles down.
    tiles: vec4<u32>,
}

struct Light {
    // xyz: world position, w: radius of influence.
    position_radius: vec4<f32>,
    // rgb: intensity.
    color: vec4<f32>,
}

// Light reaching a surface point from one point light (Blinn-Phong with a roughness-derived
// exponent, energy roughly conserved; good enough for a render-graph demo).
fn shade_point_light(light: Light, world: vec3<f32>, n: vec3<f32>, v: vec3<f32>,
                     albedo: vec3<f32>, roughness: f32, metalness: f32) -> vec3<f32> {
    let to_light = light.position_radius.xyz - world;
    let dist = length(to_light);
    let radius = light.position_radius.w;
    if dist >= radius {
        return vec3<f32>(0.0);
    }
    let l = to_light / dist;
    let window = clamp(1.0 - pow(dist / radius, 4.0), 0.0, 1.0);
    let attenuation = window * window / (dist * dist + 1.0);
    let n_dot_l = max(dot(n, l), 0.0);
    let h = normalize(l + v);
    let alpha = max(roughness * roughness, 0.02);
    let shininess = 2.0 / (alpha * alpha) - 2.0;
    let specular_color = mix(vec3<f32>(0.04), albedo, metalness);
    let specular = specular_color * pow(max(dot(n, h), 0.0), shininess) * (shininess + 8.0) / 25.13;
    let diffuse = albedo * (1.0 - metalness) / 3.14159;
    return (diffuse + specular) * light.color.rgb * n_dot_l * attenuation;
}

// A triangle covering the whole viewport.
fn fullscreen_position(index: u32) -> vec4<f32> {
    let uv = vec2<f32>(f32((index << 1u) & 2u), f32(index & 2u));
    return vec4<f32>(uv * 2.0 - 1.0, 0.0, 1.0);
}
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

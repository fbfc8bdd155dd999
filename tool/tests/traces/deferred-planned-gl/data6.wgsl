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
// Deferred lighting: a full-screen triangle shades every pixel from the G-buffer with the lights
// its tile's mask names; pixels the G-buffer did not cover get the sky.

@group(0) @binding(0) var<uniform> camera: Camera;
@group(0) @binding(1) var albedo_texture: texture_2d<f32>;
@group(0) @binding(2) var normal_texture: texture_2d<f32>;
@group(0) @binding(3) var material_texture: texture_2d<f32>;
// Depth as unfilterable float: GLSL cannot load texels of depth textures.
@group(0) @binding(4) var depth_texture: texture_2d<f32>;
@group(0) @binding(5) var<storage, read> lights: array<Light>;
@group(0) @binding(6) var<storage, read> tiles: array<u32>;

@vertex
fn vs_main(@builtin(vertex_index) index: u32) -> @builtin(position) vec4<f32> {
    return fullscreen_position(index);
}

fn sky(y: f32) -> vec3<f32> {
    let t = clamp(y / camera.frame.y, 0.0, 1.0);
    return mix(vec3<f32>(0.10, 0.14, 0.28), vec3<f32>(0.02, 0.02, 0.05), 1.0 - t);
}

@fragment
fn fs_main(@builtin(position) position: vec4<f32>) -> @location(0) vec4<f32> {
    let pixel = vec2<u32>(position.xy);
    let depth = textureLoad(depth_texture, pixel, 0).r;
    if depth >= 1.0 {
        return vec4<f32>(sky(position.y), 1.0);
    }
    let ndc = vec2<f32>(position.x / camera.frame.x * 2.0 - 1.0, 1.0 - position.y / camera.frame.y * 2.0);
    let world_h = camera.inv_view_proj * vec4<f32>(ndc, depth, 1.0);
    let world = world_h.xyz / world_h.w;
    let albedo = textureLoad(albedo_texture, pixel, 0).rgb;
    let n = normalize(textureLoad(normal_texture, pixel, 0).xyz);
    let material = textureLoad(material_texture, pixel, 0).rg;
    let v = normalize(camera.eye.xyz - world);

    var color = albedo * vec3<f32>(0.030, 0.034, 0.045);
    let tile = (pixel.y / TILE_SIZE) * camera.tiles.x + pixel.x / TILE_SIZE;
    for (var word = 0u; word < MASK_WORDS; word++) {
        var bits = tiles[tile * MASK_WORDS + word];
        while bits != 0u {
            let bit = firstTrailingBit(bits);
            bits &= bits - 1u;
            color += shade_point_light(lights[word * 32u + bit], world, n, v, albedo, material.r, material.g);
        }
    }
    return vec4<f32>(color, 1.0);
}

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
// Tiled light culling: one workgroup per 16x16 tile bounds the tile's depth range, tests every
// light's sphere against the tile's view-space box, and writes a bit mask of the lights that
// touch it. A mask (not a list) keeps the result independent of thread scheduling.

@group(0) @binding(0) var<uniform> camera: Camera;
// Depth as unfilterable float: GLSL cannot load texels of depth textures.
@group(0) @binding(1) var depth_texture: texture_2d<f32>;
@group(0) @binding(2) var<storage, read> lights: array<Light>;
@group(0) @binding(3) var<storage, read_write> tiles: array<u32>;

var<workgroup> depth_min: atomic<u32>;
var<workgroup> depth_max: atomic<u32>;
var<workgroup> mask: array<atomic<u32>, MASK_WORDS>;

fn view_position(ndc: vec2<f32>, depth: f32) -> vec3<f32> {
    let p = camera.inv_proj * vec4<f32>(ndc, depth, 1.0);
    return p.xyz / p.w;
}

@compute @workgroup_size(16, 16)
fn main(@builtin(workgroup_id) tile: vec3<u32>,
        @builtin(local_invocation_id) local: vec3<u32>,
        @builtin(local_invocation_index) index: u32) {
    if index == 0u {
        // Non-negative floats order like their bits.
        atomicStore(&depth_min, 0x7f7fffffu);
        atomicStore(&depth_max, 0u);
    }
    if index < MASK_WORDS {
        atomicStore(&mask[index], 0u);
    }
    workgroupBarrier();

    let size = vec2<u32>(camera.frame.xy);
    let pixel = tile.xy * TILE_SIZE + local.xy;
    if pixel.x < size.x && pixel.y < size.y {
        let depth = bitcast<u32>(textureLoad(depth_texture, pixel, 0).r);
        atomicMin(&depth_min, depth);
        atomicMax(&depth_max, depth);
    }
    workgroupBarrier();

    let near = bitcast<f32>(atomicLoad(&depth_min));
    let far = bitcast<f32>(atomicLoad(&depth_max));
    let lo = vec2<f32>(tile.xy * TILE_SIZE);
    let hi = vec2<f32>(min((tile.xy + 1u) * TILE_SIZE, size));
    let to_ndc = vec2<f32>(2.0, -2.0) / vec2<f32>(size);
    let ndc_lo = lo * to_ndc + vec2<f32>(-1.0, 1.0);
    let ndc_hi = hi * to_ndc + vec2<f32>(-1.0, 1.0);
    var box_min = vec3<f32>(1e30);
    var box_max = vec3<f32>(-1e30);
    for (var corner = 0u; corner < 8u; corner++) {
        let ndc = vec2<f32>(select(ndc_lo.x, ndc_hi.x, (corner & 1u) != 0u),
                            select(ndc_lo.y, ndc_hi.y, (corner & 2u) != 0u));
        let p = view_position(ndc, select(near, far, (corner & 4u) != 0u));
        box_min = min(box_min, p);
        box_max = max(box_max, p);
    }

    // One light per invocation: the workgroup has exactly LIGHT_COUNT invocations.
    let light = lights[index];
    let centre = (camera.view * vec4<f32>(light.position_radius.xyz, 1.0)).xyz;
    let offset = clamp(centre, box_min, box_max) - centre;
    let radius = light.position_radius.w;
    if near <= far && dot(offset, offset) <= radius * radius {
        atomicOr(&mask[index / 32u], 1u << (index % 32u));
    }
    workgroupBarrier();

    if index < MASK_WORDS {
        let tile_index = tile.y * camera.tiles.x + tile.x;
        tiles[tile_index * MASK_WORDS + index] = atomicLoad(&mask[index]);
    }
}

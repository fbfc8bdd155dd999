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

// Deferred lighting: a full-screen triangle shades every pixel from the G-buffer with the lights
// its tile's mask names (shade_gbuffer.wgsl, prepended, reads the G-buffer).

@group(0) @binding(5) var<storage, read> lights: array<Light>;
@group(0) @binding(6) var<storage, read> tiles: array<u32>;

fn add_lights(s: Surface, pixel: vec2<u32>, ambient: vec3<f32>) -> vec3<f32> {
    var color = ambient;
    let tile = (pixel.y / TILE_SIZE) * camera.tiles.x + pixel.x / TILE_SIZE;
    for (var word = 0u; word < MASK_WORDS; word++) {
        var bits = tiles[tile * MASK_WORDS + word];
        while bits != 0u {
            let bit = firstTrailingBit(bits);
            bits &= bits - 1u;
            color += shade_point_light(lights[word * 32u + bit], s.world, s.n, s.v, s.albedo, s.material.r, s.material.g);
        }
    }
    return color;
}

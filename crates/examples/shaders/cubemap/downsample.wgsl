// One mip of one face from the mip above it, filtered in the directions around each texel (the
// source is a cube view of the larger mip, so filtering crosses face edges).

@group(0) @binding(0) var<uniform> face: Face;
@group(0) @binding(1) var source: texture_cube<f32>;
@group(0) @binding(2) var linear: sampler;

@fragment
fn fs_main(in: FullscreenVertex) -> @location(0) vec4<f32> {
    let size = vec2<f32>(textureDimensions(source)) * 0.5;
    var sum = vec3(0.0);
    for (var y = -1; y <= 1; y++) {
        for (var x = -1; x <= 1; x++) {
            let uv = in.uv + vec2(f32(x), f32(y)) / size;
            let w = f32((2 - abs(x)) * (2 - abs(y)));
            sum += w * textureSampleLevel(source, linear, face_direction(face.index.x, uv), 0.0).rgb;
        }
    }
    return vec4(sum / 16.0, 1.0);
}


struct FullscreenVertex {
    @builtin(position) position: vec4<f32>,
    @location(0) uv: vec2<f32>,
};

@vertex
fn fullscreen_vs(@builtin(vertex_index) index: u32) -> FullscreenVertex {
    // (0, 0), (2, 0), (0, 2): one triangle whose inner corner covers the target.
    let corner = vec2<f32>(f32((index << 1u) & 2u), f32(index & 2u));
    var out: FullscreenVertex;
    out.position = vec4<f32>(corner.x * 2.0 - 1.0, 1.0 - corner.y * 2.0, 0.0, 1.0);
    out.uv = corner;
    return out;
}
// Temporal anti-aliasing: this frame's jittered colour blended with last frame's result,
// reprojected by the motion the scene wrote and clamped to this pixel's neighbourhood.

struct Taa {
    // x: 1 when the history holds last frame's result (not on the first frame, nor after a resize).
    valid: vec4<f32>,
};

@group(0) @binding(0) var<uniform> taa: Taa;
@group(0) @binding(1) var current: texture_2d<f32>;
@group(0) @binding(2) var motion: texture_2d<f32>;
@group(0) @binding(3) var history: texture_2d<f32>;
@group(0) @binding(4) var linear: sampler;

@fragment
fn fs_main(in: FullscreenVertex) -> @location(0) vec4<f32> {
    let size = vec2<i32>(textureDimensions(current));
    let pixel = vec2<i32>(in.position.xy);
    let center = textureLoad(current, pixel, 0).rgb;
    if taa.valid.x < 0.5 {
        return vec4(center, 1.0);
    }
    var low = center;
    var high = center;
    for (var y = -1; y <= 1; y++) {
        for (var x = -1; x <= 1; x++) {
            let c = textureLoad(current, clamp(pixel + vec2(x, y), vec2(0), size - 1), 0).rgb;
            low = min(low, c);
            high = max(high, c);
        }
    }
    let prev_uv = in.uv - textureLoad(motion, pixel, 0).xy;
    if any(prev_uv < vec2(0.0)) || any(prev_uv > vec2(1.0)) {
        return vec4(center, 1.0);
    }
    let past = clamp(textureSampleLevel(history, linear, prev_uv, 0.0).rgb, low, high);
    return vec4(mix(past, center, 0.1), 1.0);
}

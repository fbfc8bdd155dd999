
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
// Bloom through the mips of one texture: a bright-pass into mip 0, box-filtered halvings down
// the chain, then tent-filtered upsamples added back into each larger mip.

@group(0) @binding(0) var source: texture_2d<f32>;
@group(0) @binding(1) var linear: sampler;

// Four bilinear taps around the pixel: a 4x4 box of the source, twice the target's size.
fn box4(uv: vec2<f32>) -> vec3<f32> {
    let texel = 1.0 / vec2<f32>(textureDimensions(source));
    var sum = vec3(0.0);
    for (var i = 0; i < 4; i++) {
        let offset = vec2(f32(i & 1) - 0.5, f32(i >> 1u) - 0.5) * 2.0 * texel;
        sum += textureSampleLevel(source, linear, uv + offset, 0.0).rgb;
    }
    return sum * 0.25;
}

@fragment
fn fs_prefilter(in: FullscreenVertex) -> @location(0) vec4<f32> {
    let c = min(box4(in.uv), vec3(64.0));
    let brightness = max(c.r, max(c.g, c.b));
    // Soft threshold at 1.0: what is brighter than white spills.
    let knee = clamp(brightness - 0.5, 0.0, 1.0);
    let weight = max(brightness - 1.0, knee * knee * 0.5) / max(brightness, 1.0e-4);
    return vec4(c * weight, 1.0);
}

@fragment
fn fs_down(in: FullscreenVertex) -> @location(0) vec4<f32> {
    return vec4(box4(in.uv), 1.0);
}

// A 3x3 tent of the smaller mip, added (blending One + One) into the larger one.
@fragment
fn fs_up(in: FullscreenVertex) -> @location(0) vec4<f32> {
    let texel = 1.0 / vec2<f32>(textureDimensions(source));
    var sum = vec3(0.0);
    for (var y = -1; y <= 1; y++) {
        for (var x = -1; x <= 1; x++) {
            let w = f32((2 - abs(x)) * (2 - abs(y)));
            sum += w * textureSampleLevel(source, linear, in.uv + vec2(f32(x), f32(y)) * texel, 0.0).rgb;
        }
    }
    return vec4(sum / 16.0, 1.0);
}

// The anti-aliased HDR image plus bloom, tonemapped (a filmic curve) to the output.

@group(0) @binding(0) var hdr: texture_2d<f32>;
@group(0) @binding(1) var bloom: texture_2d<f32>;
@group(0) @binding(2) var linear: sampler;

fn filmic(x: vec3<f32>) -> vec3<f32> {
    // Narkowicz's fit of the ACES curve.
    return clamp((x * (2.51 * x + 0.03)) / (x * (2.43 * x + 0.59) + 0.14), vec3(0.0), vec3(1.0));
}

fn mapped(in: FullscreenVertex) -> vec3<f32> {
    let color = textureLoad(hdr, vec2<i32>(in.position.xy), 0).rgb;
    let glow = textureSampleLevel(bloom, linear, in.uv, 0.0).rgb;
    return filmic((color + glow * 0.08) * 0.6);
}

// For an sRGB output format, which encodes on write.
@fragment
fn fs_linear(in: FullscreenVertex) -> @location(0) vec4<f32> {
    return vec4(mapped(in), 1.0);
}

// For a linear output format: encode here.
@fragment
fn fs_encode(in: FullscreenVertex) -> @location(0) vec4<f32> {
    return vec4(encode_srgb(mapped(in)), 1.0);
}

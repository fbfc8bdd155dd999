// Per eye: tonemap the eye's HDR layer and darken towards the lens edge. A full-screen pass of
// the two views (`helpers::FullscreenViews`): the fragment stage reads the view it shades.

@group(0) @binding(0) var hdr: texture_2d_array<f32>;

fn post(pos: vec4f, eye: u32) -> vec4f {
    let size = vec2f(textureDimensions(hdr));
    let c = textureLoad(hdr, vec2i(pos.xy), i32(eye), 0).rgb;
    let mapped = c / (1.0 + c);
    // The lens centre sits towards the nose: right of centre for the left eye.
    let centre = vec2f(select(0.45, 0.55, eye == 0u), 0.5) * size;
    let r = length((pos.xy - centre) / size.y);
    let vignette = clamp(1.25 - r * 0.9, 0.0, 1.0);
    return vec4f(mapped * vignette, 1.0);
}

@fragment fn fs(in: FullscreenVertex) -> @location(0) vec4f {
    return post(in.position, in.view);
}

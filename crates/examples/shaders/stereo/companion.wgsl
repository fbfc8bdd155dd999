// The companion window: both eyes side by side.

@group(0) @binding(0) var eyes: texture_2d_array<f32>;

override ENCODE_SRGB: bool = false;

@vertex fn vs(@builtin(vertex_index) i: u32) -> @builtin(position) vec4f {
    var p = array(vec2f(-1.0, -1.0), vec2f(3.0, -1.0), vec2f(-1.0, 3.0));
    return vec4f(p[i], 0.0, 1.0);
}

fn encode(c: vec3f) -> vec3f {
    return select(12.92 * c, 1.055 * pow(c, vec3f(1.0 / 2.4)) - 0.055, c > vec3f(0.0031308));
}

@fragment fn fs(@builtin(position) pos: vec4f) -> @location(0) vec4f {
    let half = i32(textureDimensions(eyes).x);
    let x = i32(pos.x);
    let eye = min(x / half, 1);
    var c = textureLoad(eyes, vec2i(x - eye * half, i32(pos.y)), eye, 0).rgb;
    // A thin divider between the eyes.
    if x == half || x == half - 1 {
        c = vec3f(0.02);
    }
    if ENCODE_SRGB {
        c = encode(c);
    }
    return vec4f(c, 1.0);
}

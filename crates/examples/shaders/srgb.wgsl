// sRGB encoding for outputs of a linear format (an sRGB format encodes on write); prepended to
// the modules whose `fs_encode` writes the output.

fn encode_srgb(c: vec3<f32>) -> vec3<f32> {
    return select(1.055 * pow(c, vec3<f32>(1.0 / 2.4)) - 0.055, c * 12.92, c <= vec3<f32>(0.0031308));
}

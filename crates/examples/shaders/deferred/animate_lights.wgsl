// Moves the point lights: every light orbits the scene centre on its own ring, height and speed.

@group(0) @binding(0) var<uniform> camera: Camera;
@group(0) @binding(1) var<storage, read_write> lights: array<Light>;

fn hash(x: u32) -> u32 {
    var h = x * 747796405u + 2891336453u;
    h = ((h >> ((h >> 28u) + 4u)) ^ h) * 277803737u;
    return (h >> 22u) ^ h;
}

fn unit(x: u32) -> f32 {
    return f32(hash(x) & 0xffffu) / 65535.0;
}

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let i = id.x;
    if i >= LIGHT_COUNT {
        return;
    }
    let time = camera.frame.z;
    let ring = 1.5 + 15.0 * sqrt(unit(i * 4u));
    let speed = (0.2 + 0.6 * unit(i * 4u + 1u)) * select(-1.0, 1.0, (i & 1u) == 0u);
    let angle = unit(i * 4u + 2u) * 6.28318 + time * speed;
    let height = 0.35 + 2.2 * unit(i * 4u + 3u) + 0.25 * sin(time * 1.7 + f32(i));
    let hue = unit(i * 7u + 5u) * 6.0;
    let rgb = clamp(vec3<f32>(abs(hue - 3.0) - 1.0, 2.0 - abs(hue - 2.0), 2.0 - abs(hue - 4.0)),
                    vec3<f32>(0.0), vec3<f32>(1.0));
    var light: Light;
    light.position_radius = vec4<f32>(cos(angle) * ring, height, sin(angle) * ring,
                                      2.5 + 2.0 * unit(i * 7u + 6u));
    light.color = vec4<f32>((rgb * 0.8 + 0.2) * 4.0, 1.0);
    lights[i] = light;
}

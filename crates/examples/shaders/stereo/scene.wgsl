// Forward shading of a field of spinning cubes on a floor, seen by two eyes. The vertex stage
// takes the eye as its view index (in a render pass of one eye, `helpers::ViewPipelines` makes it
// a constant) and picks the eye's view-projection.

struct Scene {
    view_proj: array<mat4x4f, 2>,
    light: vec4f,
    time: vec4f,
}
@group(0) @binding(0) var<uniform> scene: Scene;

struct VOut {
    @builtin(position) pos: vec4f,
    @location(0) world: vec3f,
    @location(1) @interpolate(flat) tint: vec3f,
}

const CORNERS = array(
    vec3f(-1.0, -1.0, -1.0), vec3f(1.0, -1.0, -1.0), vec3f(1.0, 1.0, -1.0), vec3f(-1.0, 1.0, -1.0),
    vec3f(-1.0, -1.0, 1.0), vec3f(1.0, -1.0, 1.0), vec3f(1.0, 1.0, 1.0), vec3f(-1.0, 1.0, 1.0));
const FACES = array(
    0u, 2u, 1u, 0u, 3u, 2u,  4u, 5u, 6u, 4u, 6u, 7u,  0u, 1u, 5u, 0u, 5u, 4u,
    3u, 6u, 2u, 3u, 7u, 6u,  0u, 4u, 7u, 0u, 7u, 3u,  1u, 2u, 6u, 1u, 6u, 5u);

fn rotate_y(p: vec3f, a: f32) -> vec3f {
    let c = cos(a);
    let s = sin(a);
    return vec3f(c * p.x + s * p.z, p.y, -s * p.x + c * p.z);
}

@vertex fn vs(@builtin(vertex_index) i: u32, @builtin(instance_index) instance: u32, @builtin(view_index) eye: u32) -> VOut {
    var out: VOut;
    var world: vec3f;
    if instance == 0u {
        // The floor: one large flat box.
        world = CORNERS[FACES[i]] * vec3f(6.0, 0.05, 6.0) + vec3f(0.0, -0.05, 0.0);
        out.tint = vec3f(0.55, 0.55, 0.6);
    } else {
        let k = instance - 1u;
        let cell = vec2f(f32(k % 4u), f32(k / 4u)) - vec2f(1.5, 1.5);
        let spin = scene.time.x * (0.4 + 0.15 * f32(k % 3u)) + f32(k);
        let size = 0.25 + 0.08 * f32(k % 2u);
        world = rotate_y(CORNERS[FACES[i]] * size, spin) + vec3f(cell.x * 1.3, size, cell.y * 1.3);
        out.tint = 0.15 + 0.85 * fract(vec3f(0.31, 0.57, 0.83) * f32(k + 1u));
    }
    out.world = world;
    out.pos = scene.view_proj[eye] * vec4f(world, 1.0);
    return out;
}

@fragment fn fs(v: VOut) -> @location(0) vec4f {
    let n = normalize(cross(dpdx(v.world), dpdy(v.world)));
    let diffuse = max(dot(n, normalize(scene.light.xyz)), 0.0);
    let checker = select(1.0, 0.8, (i32(floor(v.world.x)) + i32(floor(v.world.z))) % 2 == 0);
    let color = v.tint * v.tint * checker * (0.08 + 0.92 * diffuse) * 2.2;
    return vec4f(color, 1.0);
}

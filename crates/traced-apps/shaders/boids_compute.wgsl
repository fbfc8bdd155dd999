// One step of Reynolds' flocking rules: cohesion, separation and alignment within set radii,
// speed clamped, positions wrapped to [-1, 1]. Reads one buffer, writes the other.

struct Boid {
    position: vec2<f32>,
    velocity: vec2<f32>,
}

struct Params {
    dt: f32,
    cohesion_radius: f32,
    separation_radius: f32,
    alignment_radius: f32,
    cohesion_scale: f32,
    separation_scale: f32,
    alignment_scale: f32,
}

@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> current: array<Boid>;
@group(0) @binding(2) var<storage, read_write> next: array<Boid>;

fn wrap(v: f32) -> f32 {
    if v < -1.0 {
        return 1.0;
    }
    if v > 1.0 {
        return -1.0;
    }
    return v;
}

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let count = arrayLength(&current);
    let me = id.x;
    if me >= count {
        return;
    }
    let p = current[me].position;
    var v = current[me].velocity;
    var centre = vec2<f32>(0.0);
    var centre_count = 0;
    var away = vec2<f32>(0.0);
    var heading = vec2<f32>(0.0);
    var heading_count = 0;
    for (var i = 0u; i < count; i += 1u) {
        if i == me {
            continue;
        }
        let other = current[i];
        let d = distance(other.position, p);
        if d < params.cohesion_radius {
            centre += other.position;
            centre_count += 1;
        }
        if d < params.separation_radius {
            away -= other.position - p;
        }
        if d < params.alignment_radius {
            heading += other.velocity;
            heading_count += 1;
        }
    }
    if centre_count > 0 {
        centre = centre / f32(centre_count) - p;
    }
    if heading_count > 0 {
        heading = heading / f32(heading_count);
    }
    v += centre * params.cohesion_scale + away * params.separation_scale + heading * params.alignment_scale;
    v = normalize(v) * clamp(length(v), 0.0, 0.1);
    let moved = p + v * params.dt;
    next[me] = Boid(vec2<f32>(wrap(moved.x), wrap(moved.y)), v);
}

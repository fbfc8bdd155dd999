//! The forward example's geometry: one vertex and index buffer's worth of triangles with their
//! colours baked in, built in code or loaded from a glTF 2.0 file.

use std::path::Path;

use bytemuck::{Pod, Zeroable};
use glam::{Mat3, Mat4, Vec3};

#[repr(C)]
#[derive(Clone, Copy, Debug, Pod, Zeroable)]
pub struct Vertex {
    pub position: [f32; 3],
    pub normal: [f32; 3],
    pub color: [f32; 3],
}

/// Triangles in world space.
#[derive(Debug, Default, Clone)]
pub struct Geometry {
    pub vertices: Vec<Vertex>,
    pub indices: Vec<u32>,
}

impl Geometry {
    /// Adds `mesh` (positions, normals, triangle indices) transformed by `model`, in `color`.
    fn add(&mut self, mesh: &Mesh, model: Mat4, color: [f32; 3]) {
        let base = self.vertices.len() as u32;
        let normal_matrix = Mat3::from_mat4(model).inverse().transpose();
        self.vertices.extend(
            mesh.positions
                .iter()
                .zip(&mesh.normals)
                .map(|(&p, &n)| Vertex {
                    position: model.transform_point3(p).to_array(),
                    normal: (normal_matrix * n).normalize_or_zero().to_array(),
                    color,
                }),
        );
        self.indices.extend(mesh.indices.iter().map(|i| base + i));
    }

    /// The smallest and largest corner of the vertices' bounding box.
    fn bounds(&self) -> (Vec3, Vec3) {
        self.vertices.iter().fold(
            (Vec3::splat(f32::MAX), Vec3::splat(f32::MIN)),
            |(lo, hi), v| {
                let p = Vec3::from(v.position);
                (lo.min(p), hi.max(p))
            },
        )
    }
}

/// A mesh in its own space.
struct Mesh {
    positions: Vec<Vec3>,
    normals: Vec<Vec3>,
    indices: Vec<u32>,
}

fn cube() -> Mesh {
    let mut m = Mesh {
        positions: Vec::new(),
        normals: Vec::new(),
        indices: Vec::new(),
    };
    for axis in 0..3 {
        for sign in [1.0f32, -1.0] {
            let n = Vec3::AXES[axis] * sign;
            let u = Vec3::AXES[(axis + 1) % 3];
            let v = n.cross(u);
            let base = m.positions.len() as u32;
            for (a, b) in [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)] {
                m.positions.push(n + u * a + v * b);
                m.normals.push(n);
            }
            m.indices
                .extend([base, base + 1, base + 2, base, base + 2, base + 3]);
        }
    }
    m
}

fn sphere(slices: u32, stacks: u32) -> Mesh {
    let mut m = Mesh {
        positions: Vec::new(),
        normals: Vec::new(),
        indices: Vec::new(),
    };
    for s in 0..=stacks {
        let theta = std::f32::consts::PI * s as f32 / stacks as f32;
        for l in 0..=slices {
            let phi = std::f32::consts::TAU * l as f32 / slices as f32;
            let p = Vec3::new(
                theta.sin() * phi.cos(),
                theta.cos(),
                theta.sin() * phi.sin(),
            );
            m.positions.push(p);
            m.normals.push(p);
        }
    }
    let row = slices + 1;
    for s in 0..stacks {
        for l in 0..slices {
            let a = s * row + l;
            m.indices
                .extend([a, a + row, a + 1, a + 1, a + row, a + row + 1]);
        }
    }
    m
}

fn ground(geometry: &mut Geometry) {
    let quad = Mesh {
        positions: vec![
            Vec3::new(-1.0, 0.0, -1.0),
            Vec3::new(-1.0, 0.0, 1.0),
            Vec3::new(1.0, 0.0, 1.0),
            Vec3::new(1.0, 0.0, -1.0),
        ],
        normals: vec![Vec3::Y; 4],
        indices: vec![0, 1, 2, 0, 2, 3],
    };
    geometry.add(
        &quad,
        Mat4::from_scale(Vec3::new(40.0, 1.0, 40.0)),
        [0.6, 0.6, 0.58],
    );
}

/// The default scene: a ring of pillars, boxes and spheres on a ground plane.
pub fn procedural() -> Geometry {
    let mut g = Geometry::default();
    ground(&mut g);
    let (cube, ball) = (cube(), sphere(24, 12));
    let palette = [
        [0.85, 0.25, 0.2],
        [0.95, 0.7, 0.25],
        [0.25, 0.5, 0.85],
        [0.3, 0.7, 0.4],
        [0.75, 0.75, 0.78],
    ];
    for i in 0..12 {
        let angle = i as f32 * std::f32::consts::TAU / 12.0;
        let at = Vec3::new(angle.cos(), 0.0, angle.sin()) * 6.0;
        let color = palette[i % palette.len()];
        let height = 1.0 + (i % 4) as f32 * 0.6;
        let model = Mat4::from_scale_rotation_translation(
            Vec3::new(0.35, height, 0.35),
            glam::Quat::from_rotation_y(angle),
            at + Vec3::Y * height,
        );
        g.add(&cube, model, color);
    }
    for i in 0..7 {
        let x = (i as f32 - 3.0) * 1.6;
        let r = 0.45 + 0.1 * (i % 3) as f32;
        let color = palette[(i + 2) % palette.len()];
        g.add(
            &ball,
            Mat4::from_scale_rotation_translation(
                Vec3::splat(r),
                glam::Quat::IDENTITY,
                Vec3::new(x, r, (i % 2) as f32 * 1.8 - 0.9),
            ),
            color,
        );
    }
    let slab = Mat4::from_scale_rotation_translation(
        Vec3::new(2.2, 0.25, 1.2),
        glam::Quat::from_rotation_y(0.4),
        Vec3::new(0.0, 2.6, 0.0),
    );
    g.add(&cube, slab, [0.8, 0.8, 0.82]);
    g.add(
        &cube,
        Mat4::from_scale_rotation_translation(
            Vec3::new(0.3, 1.2, 0.3),
            glam::Quat::IDENTITY,
            Vec3::new(0.0, 1.2, 0.0),
        ),
        [0.8, 0.8, 0.82],
    );
    g
}

/// The triangles of a glTF 2.0 file (`.glb`, or `.gltf` with its buffers beside it), scaled to
/// stand about 6 units tall on a ground plane. Errors name the file and what is wrong with it.
pub fn load_gltf(path: &Path) -> Result<Geometry, String> {
    let fail = |what: String| format!("cannot load the scene {}: {what}", path.display());
    let bytes = std::fs::read(path).map_err(|e| fail(e.to_string()))?;
    let gltf = gltf::Gltf::from_slice(&bytes).map_err(|e| {
        fail(format!(
            "not a glTF 2.0 file it can read: {}",
            brief(&e.to_string())
        ))
    })?;
    let dir = path.parent().unwrap_or(Path::new("."));
    let mut buffers = Vec::new();
    for buffer in gltf.buffers() {
        let data = match buffer.source() {
            gltf::buffer::Source::Bin => gltf
                .blob
                .clone()
                .ok_or_else(|| fail("buffer 0 is the binary chunk, which is missing".into()))?,
            gltf::buffer::Source::Uri(uri) if uri.starts_with("data:") => {
                return Err(fail(
                    "buffers embedded as data: URIs are not supported (use .glb or a .bin file)"
                        .into(),
                ));
            }
            gltf::buffer::Source::Uri(uri) => {
                std::fs::read(dir.join(uri)).map_err(|e| fail(format!("buffer `{uri}`: {e}")))?
            }
        };
        if data.len() < buffer.length() {
            return Err(fail(format!(
                "buffer {} has {} bytes, the file declares {}",
                buffer.index(),
                data.len(),
                buffer.length()
            )));
        }
        buffers.push(data);
    }
    let scene = gltf
        .default_scene()
        .or_else(|| gltf.scenes().next())
        .ok_or_else(|| fail("it has no scene".into()))?;
    let mut meshes = Geometry::default();
    let mut stack: Vec<(gltf::Node<'_>, Mat4)> =
        scene.nodes().map(|n| (n, Mat4::IDENTITY)).collect();
    while let Some((node, parent)) = stack.pop() {
        let model = parent * Mat4::from_cols_array_2d(&node.transform().matrix());
        stack.extend(node.children().map(|c| (c, model)));
        let Some(mesh) = node.mesh() else { continue };
        for primitive in mesh.primitives() {
            if primitive.mode() != gltf::mesh::Mode::Triangles {
                continue;
            }
            let reader = primitive.reader(|b| buffers.get(b.index()).map(Vec::as_slice));
            let Some(positions) = reader.read_positions() else {
                continue;
            };
            let positions: Vec<Vec3> = positions.map(Vec3::from).collect();
            if positions.iter().any(|p| !p.is_finite()) {
                return Err(fail(format!(
                    "mesh {} has positions that are not finite numbers",
                    mesh.index()
                )));
            }
            let indices: Vec<u32> = match reader.read_indices() {
                Some(i) => i.into_u32().collect(),
                None => (0..positions.len() as u32).collect(),
            };
            if let Some(&bad) = indices.iter().find(|&&i| i as usize >= positions.len()) {
                return Err(fail(format!(
                    "mesh {} indexes vertex {bad} of {}",
                    mesh.index(),
                    positions.len()
                )));
            }
            let indices = &indices[..indices.len() / 3 * 3];
            let normals: Vec<Vec3> = match reader.read_normals() {
                Some(n) if n.len() == positions.len() => n.map(Vec3::from).collect(),
                _ => face_normals(&positions, indices),
            };
            let [r, g, b, _] = primitive
                .material()
                .pbr_metallic_roughness()
                .base_color_factor();
            let m = Mesh {
                positions,
                normals,
                indices: indices.to_vec(),
            };
            meshes.add(&m, model, [r, g, b]);
        }
    }
    if meshes.indices.is_empty() {
        return Err(fail(
            "it has no triangle meshes with positions to draw".into(),
        ));
    }
    // Fit it: about 6 units on its longest side, centred, standing on the ground.
    let (lo, hi) = meshes.bounds();
    let scale = 6.0 / (hi - lo).max_element().max(1e-6);
    let centre = (lo + hi) * 0.5;
    let fit = Mat4::from_scale(Vec3::splat(scale))
        * Mat4::from_translation(Vec3::new(-centre.x, -lo.y, -centre.z));
    let mut g = Geometry::default();
    ground(&mut g);
    let base = g.vertices.len() as u32;
    g.vertices.extend(meshes.vertices.iter().map(|v| Vertex {
        position: fit.transform_point3(Vec3::from(v.position)).to_array(),
        ..*v
    }));
    g.indices.extend(meshes.indices.iter().map(|i| base + i));
    Ok(g)
}

/// Per-vertex normals averaged from the faces around each vertex (for files without normals).
fn face_normals(positions: &[Vec3], indices: &[u32]) -> Vec<Vec3> {
    let mut normals = vec![Vec3::ZERO; positions.len()];
    for t in indices.chunks_exact(3) {
        let [a, b, c] = [t[0], t[1], t[2]].map(|i| positions[i as usize]);
        let n = (b - a).cross(c - a);
        for &i in t {
            normals[i as usize] += n;
        }
    }
    normals.iter().map(|n| n.normalize_or(Vec3::Y)).collect()
}

/// gltf's validation message lists every problem; the first few (required extensions it lacks
/// first, since they explain the rest) say enough.
fn brief(message: &str) -> String {
    let mut parts: Vec<&str> = message
        .split("; ")
        .map(|p| p.trim().trim_end_matches(';'))
        .filter(|p| !p.is_empty())
        .collect();
    parts.sort_by_key(|p| !p.contains("extension"));
    let more = parts.len().saturating_sub(3);
    let mut out = parts[..parts.len().min(3)].join("; ");
    if more > 0 {
        out.push_str(&format!("; and {more} more"));
    }
    out
}

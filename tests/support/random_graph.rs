//! Random graph descriptions for the property tests, decoded from a sequence of numbers so that
//! proptest shrinks a failing graph by shortening and zeroing the sequence. A zero (also what an
//! exhausted sequence gives) always decodes to the simplest choice, and the choices are biased so
//! that most graphs are valid and many render passes share attachment sets and merge.

use serde_json::{Value, json};

/// Reads choices off a sequence of numbers.
pub struct Choices<'a> {
    data: &'a [u32],
    pos: usize,
}

impl<'a> Choices<'a> {
    pub fn new(data: &'a [u32]) -> Self {
        Choices { data, pos: 0 }
    }

    /// A number below `n`.
    pub fn below(&mut self, n: usize) -> usize {
        let v = self.data.get(self.pos).copied().unwrap_or(0);
        self.pos += 1;
        v as usize % n.max(1)
    }

    /// An index drawn with the given weights (index 0 for a zero choice).
    pub fn weighted(&mut self, weights: &[usize]) -> usize {
        let total: usize = weights.iter().sum();
        let mut v = self.below(total);
        for (i, &w) in weights.iter().enumerate() {
            if v < w {
                return i;
            }
            v -= w;
        }
        weights.len() - 1
    }

    /// True with `percent` % probability (false for a zero choice).
    pub fn chance(&mut self, percent: usize) -> bool {
        let v = self.below(100);
        v >= 100 - percent
    }

    pub fn pick<'t, T>(&mut self, items: &'t [T]) -> &'t T {
        &items[self.below(items.len())]
    }
}

const COLOR_FORMATS: [&str; 6] = [
    "rgba8unorm",
    "rgba16float",
    "bgra8unorm",
    "rgb10a2unorm",
    "r32float",
    "rgba32float",
];
const DEPTH_FORMATS: [&str; 5] = [
    "depth32float",
    "depth24plus-stencil8",
    "depth24plus",
    "depth16unorm",
    "depth32float-stencil8",
];
const SIZES: [[u32; 3]; 4] = [[64, 32, 1], [16, 16, 1], [100, 60, 1], [8, 8, 2]];

#[derive(Clone)]
struct Texture {
    name: String,
    depth: bool,
    format: &'static str,
    size: usize,
    samples: u32,
}

/// Shape knobs: how many passes at most.
pub struct Shape {
    pub max_passes: usize,
}

/// Decodes a graph description (as JSON) from `choices`.
pub fn graph(c: &mut Choices<'_>, shape: &Shape) -> Value {
    let mut textures: Vec<Texture> = Vec::new();
    let mut resources: Vec<Value> = Vec::new();
    let mut preserved: Vec<String> = Vec::new();
    let sizes: Vec<usize> = (0..1 + c.below(2)).map(|_| c.below(SIZES.len())).collect();
    let texture_count = 2 + c.below(6);
    for i in 0..texture_count {
        let (depth, size, samples, format) = match textures.last() {
            // A twin of the previous texture: candidates for sharing one physical texture.
            Some(t) if c.chance(30) => (t.depth, t.size, t.samples, t.format),
            _ => {
                let depth = c.chance(30);
                let size = *c.pick(&sizes);
                let samples = if SIZES[size][2] == 1 && c.chance(20) {
                    4
                } else {
                    1
                };
                let format = if depth {
                    DEPTH_FORMATS[c.weighted(&[50, 20, 10, 10, 10])]
                } else {
                    COLOR_FORMATS[c.weighted(&[50, 20, 10, 10, 5, 5])]
                };
                (depth, size, samples, format)
            }
        };
        let name = format!("t{i}");
        let mut r = json!({
            "name": name,
            "texture": {"format": format, "size": size_json(size), "samples": samples},
        });
        match c.weighted(&[50, 35, 15]) {
            0 => {}
            1 => r["clear"] = fast_clear(c, depth),
            _ => r["clear"] = slow_clear(c, depth, format),
        }
        if c.chance(30) {
            let contents = if c.chance(60) {
                "preserved"
            } else {
                "undefined"
            };
            if contents == "preserved" {
                preserved.push(name.clone());
            }
            r["import"] = json!({
                "contents": contents,
                "after": if c.chance(70) { "keep" } else { "discard" },
            });
        }
        resources.push(r);
        textures.push(Texture {
            name,
            depth,
            format,
            size,
            samples,
        });
        // A multisampled colour texture usually comes with a single-sampled twin to resolve into.
        if samples > 1 && !depth && c.chance(70) {
            let name = format!("t{i}_resolved");
            let mut r = json!({
                "name": name,
                "texture": {"format": format, "size": size_json(size)},
            });
            if c.chance(25) {
                r["import"] = json!({"contents": "undefined", "after": "keep"});
            }
            resources.push(r);
            textures.push(Texture {
                name,
                depth,
                format,
                size,
                samples: 1,
            });
        }
    }
    let buffers: Vec<String> = (0..c.weighted(&[60, 30, 10]))
        .map(|i| {
            let name = format!("b{i}");
            let mut r = json!({"name": name, "buffer": {"size": 256 << c.below(4)}});
            if c.chance(20) {
                r["import"] = json!({"contents": "preserved", "after": "keep"});
                preserved.push(name.clone());
            }
            resources.push(r);
            name
        })
        .collect();

    // Attachment sets that render passes share, so that consecutive passes can merge.
    let mut framebuffers: Vec<(Vec<usize>, Option<usize>)> = Vec::new();
    for _ in 0..1 + c.below(3) {
        let seed = c.below(textures.len());
        let (size, samples) = (textures[seed].size, textures[seed].samples);
        let same: Vec<usize> = (0..textures.len())
            .filter(|&t| textures[t].size == size && textures[t].samples == samples)
            .collect();
        let colors: Vec<usize> = same
            .iter()
            .copied()
            .filter(|&t| !textures[t].depth)
            .collect();
        let depths: Vec<usize> = same
            .iter()
            .copied()
            .filter(|&t| textures[t].depth)
            .collect();
        let mut color = Vec::new();
        for _ in 0..c.weighted(&[15, 55, 20, 10]) {
            if !colors.is_empty() {
                let t = *c.pick(&colors);
                if !color.contains(&t) {
                    color.push(t);
                }
            }
        }
        let depth = if !depths.is_empty() && (color.is_empty() || c.chance(50)) {
            Some(*c.pick(&depths))
        } else {
            None
        };
        if !color.is_empty() || depth.is_some() {
            framebuffers.push((color, depth));
        }
    }

    let texture_names: Vec<String> = textures.iter().map(|t| t.name.clone()).collect();
    let all: Vec<String> = texture_names.iter().chain(&buffers).cloned().collect();
    // Resources with contents so far: reads mostly pick these, so that most graphs are valid.
    let mut written: Vec<String> = preserved;
    let mut passes = Vec::new();
    let mut previous_framebuffer: Option<usize> = None;
    let pass_count = 1 + c.below(shape.max_passes);
    for p in 0..pass_count {
        let kind = if framebuffers.is_empty() {
            1 + c.below(2)
        } else {
            c.weighted(&[70, 18, 12])
        };
        let kind_name = ["render", "compute", "copy"][kind];
        let mut pass = json!({"name": format!("p{p}"), "type": kind_name});
        // What the pass writes; reads avoid these (mostly), since a pass cannot read what it writes.
        let mut writes: Vec<String> = Vec::new();
        // Something with contents to read, rarely anything at all (a read before write, a
        // feedback), or nothing when nothing has contents yet.
        let read = |c: &mut Choices<'_>, pool: &[String], writes: &[String]| -> Option<String> {
            let fresh: Vec<&String> = written
                .iter()
                .filter(|w| pool.contains(w) && !writes.contains(w))
                .collect();
            let roll = c.below(100);
            if !fresh.is_empty() && roll < 96 {
                Some((*c.pick(&fresh)).clone())
            } else if !(8..96).contains(&roll) {
                Some(c.pick(pool).clone())
            } else {
                None
            }
        };
        let add = |pass: &mut Value, list: &str, name: String| {
            let entry = pass
                .as_object_mut()
                .expect("a pass is an object")
                .entry(list)
                .or_insert(json!([]));
            entry
                .as_array_mut()
                .expect("lists are arrays")
                .push(json!(name));
        };
        match kind {
            0 => {
                // Often a chain: the previous render pass's attachments, drawn on top of, no samples.
                let chain = previous_framebuffer.is_some() && c.chance(45);
                let framebuffer = match previous_framebuffer {
                    Some(f) if chain => f,
                    _ => c.below(framebuffers.len()),
                };
                previous_framebuffer = Some(framebuffer);
                let (color, depth) = framebuffers[framebuffer].clone();
                let mut entries = Vec::new();
                for t in color {
                    let name = &textures[t].name;
                    // A first use mostly starts the contents; later ones mostly build on them.
                    let weights = if chain && written.contains(name) {
                        [70, 0, 30, 0]
                    } else if written.contains(name) {
                        [50, 20, 27, 3]
                    } else {
                        [3, 47, 47, 3]
                    };
                    let access = ["read_write", "clear", "write", "read"][c.weighted(&weights)];
                    let mut e = json!({"resource": name, "access": access});
                    // Own clear values belong to `clear` accesses; elsewhere they are an error,
                    // generated rarely.
                    if c.chance(8) && (access == "clear" || c.chance(10)) {
                        e["clear"] = slow_clear(c, false, textures[t].format);
                    }
                    if textures[t].samples > 1 && c.chance(60) {
                        let targets: Vec<&Texture> = textures
                            .iter()
                            .filter(|u| {
                                u.samples == 1
                                    && u.format == textures[t].format
                                    && u.size == textures[t].size
                            })
                            .collect();
                        if !targets.is_empty() {
                            let target = c.pick(&targets).name.clone();
                            writes.push(target.clone());
                            e["resolve"] = json!(target);
                        }
                    }
                    writes.push(name.clone());
                    entries.push(e);
                }
                if !entries.is_empty() {
                    pass["color"] = json!(entries);
                }
                let mut read_only_depth = None;
                if let Some(t) = depth {
                    let name = &textures[t].name;
                    let weights = if chain && written.contains(name) {
                        [45, 45, 0, 10]
                    } else if written.contains(name) {
                        [35, 40, 15, 10]
                    } else {
                        [5, 5, 60, 30]
                    };
                    let access = ["read_write", "read", "clear", "write"][c.weighted(&weights)];
                    let mut e = json!({"resource": name, "access": access});
                    if c.chance(8) && (access == "clear" || c.chance(10)) {
                        e["clear"] = fast_clear(c, true);
                    }
                    if access == "read" {
                        read_only_depth = Some(name.clone());
                    } else {
                        writes.push(name.clone());
                    }
                    pass["depth"] = e;
                }
                let samples = if chain { 0 } else { c.weighted(&[60, 30, 10]) };
                for _ in 0..samples {
                    // A read-only depth may be sampled by its own pass.
                    let name = match &read_only_depth {
                        Some(d) if c.chance(15) => Some(d.clone()),
                        _ => read(c, &texture_names, &writes),
                    };
                    if let Some(name) = name {
                        add(&mut pass, "sample", name);
                    }
                }
                if c.chance(10)
                    && let Some(name) = read(c, &texture_names, &writes)
                {
                    add(&mut pass, "input", name);
                }
                if c.chance(8) {
                    let name = c.pick(&all).clone();
                    writes.push(name.clone());
                    let list = ["storage_write", "storage_read_write"][c.below(2)];
                    add(&mut pass, list, name);
                }
            }
            1 => {
                let mut outputs = Vec::new();
                for _ in 0..1 + c.below(2) {
                    let name = c.pick(&all).clone();
                    if !outputs.contains(&name) {
                        outputs.push(name);
                    }
                }
                for _ in 0..c.weighted(&[30, 50, 20]) {
                    let Some(name) = read(c, &all, &outputs) else {
                        continue;
                    };
                    let list = if texture_names.contains(&name) && c.chance(50) {
                        "sample"
                    } else {
                        "storage_read"
                    };
                    add(&mut pass, list, name);
                }
                for name in outputs {
                    let has_contents = written.contains(&name);
                    let list = if has_contents && c.chance(40) {
                        "storage_read_write"
                    } else {
                        "storage_write"
                    };
                    writes.push(name.clone());
                    add(&mut pass, list, name);
                }
            }
            _ => {
                let dst = c.pick(&all).clone();
                if let Some(src) = read(c, &all, std::slice::from_ref(&dst)) {
                    add(&mut pass, "copy_src", src);
                }
                writes.push(dst.clone());
                add(&mut pass, "copy_dst", dst);
            }
        }
        if c.chance(35) || (p + 1 == pass_count && c.chance(50)) {
            pass["side_effects"] = json!(true);
        }
        for w in writes {
            if !written.contains(&w) {
                written.push(w);
            }
        }
        passes.push(pass);
    }
    json!({"resources": resources, "passes": passes})
}

fn size_json(size: usize) -> Value {
    let [w, h, l] = SIZES[size];
    if l == 1 {
        json!([w, h])
    } else {
        json!([w, h, l])
    }
}

fn fast_clear(c: &mut Choices<'_>, depth: bool) -> Value {
    if depth {
        [json!(1.0), json!(0.0), json!({"depth": 1.0, "stencil": 0})][c.below(3)].clone()
    } else {
        [
            json!([0, 0, 0, 1]),
            json!([0, 0, 0, 0]),
            json!([1, 1, 1, 1]),
        ][c.below(3)]
        .clone()
    }
}

fn slow_clear(c: &mut Choices<'_>, depth: bool, format: &str) -> Value {
    if depth {
        if format.contains("stencil") && c.chance(50) {
            json!({"depth": 0.5, "stencil": 1 + c.below(255)})
        } else {
            json!(0.25 * (1 + c.below(3)) as f64)
        }
    } else {
        json!([0.5, 0.25 * c.below(5) as f64, 0.0, 1.0])
    }
}

//! Random graph descriptions for the property tests, decoded from a sequence of numbers so that
//! proptest shrinks a failing graph by shortening and zeroing the sequence. A zero (also what an
//! exhausted sequence gives) always decodes to the simplest choice, and the choices are biased so
//! that most graphs are valid and many render passes share attachment sets and merge.
//!
//! Textures sometimes have several mips or array layers (the guide): render passes then attach
//! single mips and layers (downsample chains that sample the mip above, one pass per layer), and
//! list entries name one subresource or the whole texture. A few entries name a mip or layer
//! outside the texture, or a subresource of a buffer (`invalid_subresource`).
//!
//! Restructuring (the guide) gets its situations often: multisampled passes resolving into a
//! target that a later pass resolves into again or overwrites (dead resolves), copies of a
//! resolve target into a fresh graph-owned texture of its shape (folds), render passes that
//! return to the attachments of an earlier one with unrelated passes declared between (moves),
//! and `keep_order` and side-effect passes that pin the order.

mod multiview;
mod scenario;

use multiview::multiview;
use scenario::{Stage, scenario};

use std::collections::BTreeSet;

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
/// Sizes and their default layer counts. Mips of one size meet another's mip 0 (16×16 mip 1 is
/// 8×8), so attachments of different mips share passes.
const SIZES: [[u32; 3]; 4] = [[64, 32, 1], [16, 16, 1], [100, 60, 1], [8, 8, 2]];

#[derive(Clone)]
struct Resource {
    name: String,
    /// `None` for buffers.
    texture: Option<Texture>,
}

#[derive(Clone, Copy)]
struct Texture {
    depth: bool,
    format: &'static str,
    width: u32,
    height: u32,
    layers: u32,
    mips: u32,
    samples: u32,
}

impl Texture {
    fn mip_size(&self, mip: u32) -> (u32, u32) {
        ((self.width >> mip).max(1), (self.height >> mip).max(1))
    }
}

impl Resource {
    fn grid(&self) -> (u32, u32) {
        self.texture.map_or((1, 1), |t| (t.mips, t.layers))
    }

    fn keys(&self, r: usize) -> impl Iterator<Item = Key> {
        let (mips, layers) = self.grid();
        (0..layers).flat_map(move |l| (0..mips).map(move |m| (r, m, l)))
    }
}

/// One subresource: (resource index, mip, layer).
type Key = (usize, u32, u32);

/// A list entry: a resource, and one subresource or the whole.
#[derive(Clone, Copy, PartialEq)]
struct Pick {
    resource: usize,
    sub: Option<(u32, u32)>,
}

/// Shape knobs: how many passes at most.
pub struct Shape {
    pub max_passes: usize,
}

struct Decoder<'c, 'd> {
    c: &'c mut Choices<'d>,
    res: Vec<Resource>,
    /// Subresources with contents so far: reads mostly pick these, so that most graphs are valid.
    written: BTreeSet<Key>,
}

impl Decoder<'_, '_> {
    fn keys(&self, p: Pick) -> Vec<Key> {
        match p.sub {
            Some((m, l)) => vec![(p.resource, m, l)],
            None => self.res[p.resource].keys(p.resource).collect(),
        }
    }

    fn entry_json(&mut self, p: Pick) -> Value {
        let name = self.res[p.resource].name.clone();
        match p.sub {
            None => json!(name),
            Some((m, l)) => {
                let mut e = json!({"resource": name});
                // Absent mip and layer mean 0: sometimes say it, sometimes not.
                if m != 0 || self.c.chance(50) {
                    e["mip"] = json!(m);
                }
                if l != 0 || self.c.chance(50) {
                    e["layer"] = json!(l);
                }
                e
            }
        }
    }

    /// What a compute or copy pass writes of resource `r`: one subresource of a texture of several
    /// half the time, rarely a careless pick, else the whole.
    fn written_pick(&mut self, r: usize) -> Pick {
        match self.res[r].texture {
            Some(t) if t.mips * t.layers > 1 && self.c.chance(50) => Pick {
                resource: r,
                sub: Some((
                    self.c.below(t.mips as usize) as u32,
                    self.c.below(t.layers as usize) as u32,
                )),
            },
            _ if self.c.chance(2) => self.careless(r),
            _ => Pick {
                resource: r,
                sub: None,
            },
        }
    }

    /// Any subresource of a resource, or the whole, possibly out of range (rarely): what a
    /// careless caller might name.
    fn careless(&mut self, r: usize) -> Pick {
        let sub = match self.res[r].texture {
            None => self.c.chance(10).then_some((0, 0)),
            Some(t) if self.c.chance(30) => {
                let (mips, layers) = (t.mips as usize, t.layers as usize);
                if self.c.chance(25) {
                    // One past the last mip or layer.
                    if self.c.chance(50) {
                        Some((t.mips, self.c.below(layers) as u32))
                    } else {
                        Some((self.c.below(mips) as u32, t.layers))
                    }
                } else {
                    Some((self.c.below(mips) as u32, self.c.below(layers) as u32))
                }
            }
            Some(_) => None,
        };
        Pick { resource: r, sub }
    }

    /// Something with contents to read, rarely anything at all (a read before write, a feedback,
    /// an out-of-range subresource), or nothing when nothing has contents yet. `pool` limits the
    /// resources; reads avoid the subresources in `writes`, which the pass writes.
    fn read(&mut self, pool: &[usize], writes: &BTreeSet<Key>) -> Option<Pick> {
        let mut fresh: Vec<Pick> = Vec::new();
        for &r in pool {
            let keys: Vec<Key> = self.res[r].keys(r).collect();
            let free = |k: &Key| self.written.contains(k) && !writes.contains(k);
            if keys.len() == 1 {
                if free(&keys[0]) {
                    fresh.push(Pick {
                        resource: r,
                        sub: None,
                    });
                }
                continue;
            }
            if keys.iter().all(free) {
                // A whole multi-subresource texture: weigh it like its parts together.
                fresh.push(Pick {
                    resource: r,
                    sub: None,
                });
                fresh.push(Pick {
                    resource: r,
                    sub: None,
                });
            }
            fresh.extend(keys.iter().filter(|k| free(k)).map(|&(_, m, l)| Pick {
                resource: r,
                sub: Some((m, l)),
            }));
        }
        let roll = self.c.below(100);
        if !fresh.is_empty() && roll < 96 {
            let mut p = *self.c.pick(&fresh);
            // A one-subresource texture named as its mip 0 of layer 0, now and then.
            if p.sub.is_none()
                && self.res[p.resource].texture.is_some()
                && self.res[p.resource].keys(0).count() == 1
                && self.c.chance(10)
            {
                p.sub = Some((0, 0));
            }
            Some(p)
        } else if !(8..96).contains(&roll) {
            let r = *self.c.pick(pool);
            Some(self.careless(r))
        } else {
            None
        }
    }

    /// An attachment entry of `key`: its access drawn from `accesses` with the weights for
    /// continuing a chain over written contents, for written contents, and for nothing written;
    /// its subresource; now and then an own clear value from `clear`.
    fn attachment_json(
        &mut self,
        key: Key,
        chain: bool,
        (accesses, [chained, written, fresh]): AttachmentAccesses,
        clear: impl FnOnce(&mut Choices<'_>, Texture) -> Value,
    ) -> (&'static str, Value) {
        let (t, m, l) = key;
        let tex = self.res[t].texture.unwrap();
        let has = self.written.contains(&key);
        let weights = if chain && has {
            chained
        } else if has {
            written
        } else {
            fresh
        };
        let access = accesses[self.c.weighted(&weights)];
        let mut e = json!({"resource": self.res[t].name, "access": access});
        self.attached_json(&mut e, tex, (m, l));
        // Own clear values belong to `clear` accesses; elsewhere they are an error, generated
        // rarely.
        if self.c.chance(8) && (access == "clear" || self.c.chance(10)) {
            e["clear"] = clear(self.c, tex);
        }
        (access, e)
    }

    /// An attachment's mip and layer: in range, but rarely one past the texture.
    fn attached_json(&mut self, e: &mut Value, t: Texture, (m, l): (u32, u32)) {
        let (mut m, mut l) = (m, l);
        if self.c.chance(1) {
            if self.c.chance(50) {
                m = t.mips;
            } else {
                l = t.layers;
            }
        }
        if m != 0 || self.c.chance(10) {
            e["mip"] = json!(m);
        }
        if l != 0 || self.c.chance(10) {
            e["layer"] = json!(l);
        }
    }
}

/// An attachment's accesses and their weights (see `Decoder::attachment_json`).
type AttachmentAccesses = ([&'static str; 4], [[usize; 4]; 3]);

/// A colour attachment's: a first use mostly starts the contents; later ones mostly build on them.
const COLOR_ACCESSES: AttachmentAccesses = (
    ["read_write", "clear", "write", "read"],
    [[70, 0, 30, 0], [50, 20, 27, 3], [2, 48, 48, 2]],
);

/// A depth attachment's: a read one is attached read-only.
const DEPTH_ACCESSES: AttachmentAccesses = (
    ["read_write", "read", "clear", "write"],
    [[45, 45, 0, 10], [35, 40, 15, 10], [5, 5, 60, 30]],
);

/// An attachment set: colour keys, depth key.
type Framebuffer = (Vec<Key>, Option<Key>);

/// `count` random graph descriptions of up to 16 passes, each drawn from 256 choices of a
/// linear congruential sequence started at `seed`: the soak run's and its test's candidates.
pub fn seeded_descriptions(seed: u64, count: usize) -> Vec<String> {
    let mut state = seed;
    (0..count)
        .map(|_| {
            let data: Vec<u32> = (0..256)
                .map(|_| {
                    state = state
                        .wrapping_mul(6_364_136_223_846_793_005)
                        .wrapping_add(1_442_695_040_888_963_407);
                    (state >> 33) as u32
                })
                .collect();
            graph(&mut Choices::new(&data), &Shape { max_passes: 16 }).to_string()
        })
        .collect()
}

/// Decodes a graph description (as JSON) from `choices`.
pub fn graph(c: &mut Choices<'_>, shape: &Shape) -> Value {
    let mut d = Decoder {
        c,
        res: Vec::new(),
        written: BTreeSet::new(),
    };
    let mut resources: Vec<Value> = Vec::new();
    let mut preserved: Vec<usize> = Vec::new();
    // (resolve target, a texture of its shape) pairs: copies between them can fold.
    let mut copy_twins: Vec<(usize, usize)> = Vec::new();
    let sizes: Vec<usize> = (0..1 + d.c.below(2))
        .map(|_| d.c.below(SIZES.len()))
        .collect();
    let texture_count = 2 + d.c.below(6);
    for i in 0..texture_count {
        let previous = d.res.last().and_then(|r| r.texture);
        let t = match previous {
            // A twin of the previous texture: candidates for sharing one physical texture.
            Some(t) if d.c.chance(30) => t,
            _ => {
                let depth = d.c.chance(30);
                let [width, height, mut layers] = SIZES[*d.c.pick(&sizes)];
                let max_mips = 32 - width.max(height).leading_zeros();
                let mut mips = 1;
                if d.c.chance(25) {
                    mips = 2 + d.c.below(max_mips.min(4) as usize - 1) as u32;
                }
                if d.c.chance(12) {
                    layers = 2 + d.c.below(2) as u32;
                }
                let samples = if layers == 1 && mips == 1 && d.c.chance(25) {
                    4
                } else {
                    1
                };
                let format = if depth {
                    DEPTH_FORMATS[d.c.weighted(&[50, 20, 10, 10, 10])]
                } else {
                    COLOR_FORMATS[d.c.weighted(&[50, 20, 10, 10, 5, 5])]
                };
                Texture {
                    depth,
                    format,
                    width,
                    height,
                    layers,
                    mips,
                    samples,
                }
            }
        };
        let name = format!("t{i}");
        let mut r = json!({
            "name": name,
            "texture": texture_json(&t),
        });
        match d.c.weighted(&[50, 35, 15]) {
            0 => {}
            1 => r["clear"] = fast_clear(d.c, t.depth),
            _ => r["clear"] = slow_clear(d.c, t.depth, t.format),
        }
        if d.c.chance(30) {
            let contents = if d.c.chance(60) {
                "preserved"
            } else {
                "undefined"
            };
            if contents == "preserved" {
                preserved.push(d.res.len());
            }
            r["import"] = json!({
                "contents": contents,
                "after": if d.c.chance(70) { "keep" } else { "discard" },
            });
        }
        resources.push(r);
        d.res.push(Resource {
            name,
            texture: Some(t),
        });
        // A multisampled colour texture usually comes with a single-sampled twin to resolve into.
        if t.samples > 1 && !t.depth && d.c.chance(70) {
            let name = format!("t{i}_resolved");
            let twin = Texture { samples: 1, ..t };
            let mut r = json!({"name": name, "texture": texture_json(&twin)});
            // A texture of the resolve target's shape to copy it into (a fold, the guide); a
            // kept target cannot fold, so such targets are mostly the graph's own.
            let copied = d.c.chance(50);
            if d.c.chance(if copied { 5 } else { 25 }) {
                r["import"] = json!({"contents": "undefined", "after": "keep"});
            }
            resources.push(r);
            d.res.push(Resource {
                name,
                texture: Some(twin),
            });
            if copied {
                let name = format!("t{i}_copy");
                resources.push(json!({"name": name, "texture": texture_json(&twin)}));
                copy_twins.push((d.res.len() - 1, d.res.len()));
                d.res.push(Resource {
                    name,
                    texture: Some(twin),
                });
            }
        }
    }
    let texture_ids: Vec<usize> = (0..d.res.len()).collect();
    for i in 0..d.c.weighted(&[60, 30, 10]) {
        let name = format!("b{i}");
        let mut r = json!({"name": name, "buffer": {"size": 256 << d.c.below(4)}});
        if d.c.chance(20) {
            r["import"] = json!({"contents": "preserved", "after": "keep"});
            preserved.push(d.res.len());
        }
        resources.push(r);
        d.res.push(Resource {
            name,
            texture: None,
        });
    }
    let all: Vec<usize> = (0..d.res.len()).collect();
    for &r in &preserved {
        let keys: Vec<Key> = d.res[r].keys(r).collect();
        d.written.extend(keys);
    }

    // Attachment sets that render passes share, so that consecutive passes can merge. An
    // attachment is one subresource; the others of a set render at the same size.
    let textures: Vec<(usize, Texture)> = texture_ids
        .iter()
        .map(|&r| (r, d.res[r].texture.unwrap()))
        .collect();
    let mut framebuffers: Vec<Framebuffer> = Vec::new();
    for _ in 0..1 + d.c.below(3) {
        let (seed, t) = *d.c.pick(&textures);
        let mip = if t.mips > 1 && d.c.chance(60) {
            d.c.below(t.mips as usize) as u32
        } else {
            0
        };
        let layer = d.c.below(t.layers as usize) as u32;
        let size = t.mip_size(mip);
        let mut colors: Vec<Key> = Vec::new();
        let mut depths: Vec<Key> = Vec::new();
        for &(r, u) in &textures {
            if u.samples != t.samples {
                continue;
            }
            for m in (0..u.mips).filter(|&m| u.mip_size(m) == size) {
                for l in 0..u.layers {
                    if u.depth {
                        depths.push((r, m, l));
                    } else {
                        colors.push((r, m, l));
                    }
                }
            }
        }
        // The seed first, so that its mip and layer are likely picked.
        let seed_key = (seed, mip, layer);
        let mut color = Vec::new();
        for k in 0..d.c.weighted(&[15, 55, 20, 10]) {
            if colors.is_empty() {
                break;
            }
            let key = if k == 0 && !t.depth && d.c.chance(70) {
                seed_key
            } else {
                *d.c.pick(&colors)
            };
            if !color.contains(&key) {
                color.push(key);
            }
        }
        let depth = if !depths.is_empty() && (color.is_empty() || d.c.chance(50)) {
            Some(if t.depth && d.c.chance(70) {
                seed_key
            } else {
                *d.c.pick(&depths)
            })
        } else {
            None
        };
        if !color.is_empty() || depth.is_some() {
            framebuffers.push((color, depth));
        }
    }
    // Mip chains (bloom, HiZ) and per-layer passes (shadow cascades): one framebuffer per
    // subresource of a texture of several.
    for &(r, t) in &textures {
        if t.mips * t.layers > 1 && d.c.chance(60) {
            let layer = d.c.below(t.layers as usize) as u32;
            let subs: Vec<(u32, u32)> = if t.mips > 1 && (t.layers == 1 || d.c.chance(50)) {
                (0..t.mips).map(|m| (m, layer)).collect()
            } else {
                (0..t.layers).map(|l| (0, l)).collect()
            };
            for (m, l) in subs {
                framebuffers.push(if t.depth {
                    (Vec::new(), Some((r, m, l)))
                } else {
                    (vec![(r, m, l)], None)
                });
            }
        }
    }

    let mut passes = Vec::new();
    let mut previous_framebuffer: Option<usize> = None;
    // Framebuffers of earlier render passes: returning to one after other work invites a move.
    let mut used_framebuffers: Vec<usize> = Vec::new();
    let pass_count = 1 + d.c.below(shape.max_passes);
    // A stretch of passes made for restructuring, somewhere in the frame.
    let scenario_at = (pass_count >= 2 && d.c.chance(55)).then(|| d.c.below(pass_count - 1));
    let mut skip_until = 0;
    for p in 0..pass_count {
        if p < skip_until {
            continue;
        }
        if scenario_at == Some(p) {
            let made = scenario(
                &mut d,
                &Stage {
                    textures: &textures,
                    framebuffers: &framebuffers,
                    copy_twins: &copy_twins,
                    all: &all,
                },
                p,
                pass_count - p,
            );
            if !made.is_empty() {
                skip_until = p + made.len();
                passes.extend(made);
                previous_framebuffer = None;
                continue;
            }
        }
        let kind = if framebuffers.is_empty() {
            1 + d.c.below(2)
        } else {
            d.c.weighted(&[70, 18, 12])
        };
        let kind_name = ["render", "compute", "copy"][kind];
        let mut pass = json!({"name": format!("p{p}"), "type": kind_name});
        // What the pass writes; reads avoid these (mostly), since a pass cannot read what it writes.
        let mut writes: BTreeSet<Key> = BTreeSet::new();
        match kind {
            0 => {
                // Often a chain: the previous render pass's attachments, drawn on top of, no samples.
                let chain = previous_framebuffer.is_some() && d.c.chance(45);
                let framebuffer = match previous_framebuffer {
                    Some(f) if chain => f,
                    _ if !used_framebuffers.is_empty() && d.c.chance(25) => {
                        *d.c.pick(&used_framebuffers)
                    }
                    _ => d.c.below(framebuffers.len()),
                };
                previous_framebuffer = Some(framebuffer);
                used_framebuffers.push(framebuffer);
                let (color, depth) = framebuffers[framebuffer].clone();
                let mut entries = Vec::new();
                for key in color.iter().copied() {
                    let (t, m, _) = key;
                    let tex = d.res[t].texture.unwrap();
                    let (_, mut e) = d.attachment_json(key, chain, COLOR_ACCESSES, |c, tex| {
                        slow_clear(c, false, tex.format)
                    });
                    if tex.samples > 1 && d.c.chance(60) {
                        let targets: Vec<usize> = textures
                            .iter()
                            .filter(|(_, u)| {
                                u.samples == 1
                                    && u.format == tex.format
                                    && u.mip_size(0) == tex.mip_size(m)
                            })
                            .map(|&(u, _)| u)
                            .collect();
                        if !targets.is_empty() {
                            let target = *d.c.pick(&targets);
                            writes.insert((target, 0, 0));
                            e["resolve"] = json!(d.res[target].name);
                        }
                    }
                    writes.insert(key);
                    entries.push(e);
                }
                if !entries.is_empty() {
                    pass["color"] = json!(entries);
                }
                let mut read_only_depth = None;
                if let Some(key) = depth {
                    let (access, e) =
                        d.attachment_json(key, chain, DEPTH_ACCESSES, |c, _| fast_clear(c, true));
                    if access == "read" {
                        read_only_depth = Some(key);
                    } else {
                        writes.insert(key);
                    }
                    pass["depth"] = e;
                }
                if !chain {
                    // A downsample reads the mip above the one it renders (the guide).
                    for &(t, m, l) in &color {
                        if m > 0 && d.written.contains(&(t, m - 1, l)) && d.c.chance(60) {
                            let pick = Pick {
                                resource: t,
                                sub: Some((m - 1, l)),
                            };
                            add(&mut d, &mut pass, "sample", pick);
                        }
                    }
                }
                let samples = if chain {
                    0
                } else {
                    d.c.weighted(&[60, 30, 10])
                };
                for _ in 0..samples {
                    // A read-only depth may be sampled by its own pass, alone or whole.
                    let pick = match read_only_depth {
                        Some((t, m, l)) if d.c.chance(15) => Some(Pick {
                            resource: t,
                            sub: if d.c.chance(50) { Some((m, l)) } else { None },
                        }),
                        _ => d.read(&texture_ids, &writes),
                    };
                    if let Some(pick) = pick {
                        add(&mut d, &mut pass, "sample", pick);
                    }
                }
                if d.c.chance(10)
                    && let Some(pick) = d.read(&texture_ids, &writes)
                {
                    add(&mut d, &mut pass, "input", pick);
                }
                if d.c.chance(8) {
                    let r = *d.c.pick(&all);
                    let pick = d.careless(r);
                    writes.extend(d.keys(pick));
                    let list = ["storage_write", "storage_read_write"][d.c.below(2)];
                    add(&mut d, &mut pass, list, pick);
                }
            }
            1 => {
                let mut outputs: Vec<Pick> = Vec::new();
                for _ in 0..1 + d.c.below(2) {
                    let r = *d.c.pick(&all);
                    let pick = d.written_pick(r);
                    if !outputs.iter().any(|o| o.resource == pick.resource) {
                        outputs.push(pick);
                    }
                }
                let output_keys: BTreeSet<Key> = outputs.iter().flat_map(|&o| d.keys(o)).collect();
                for _ in 0..d.c.weighted(&[30, 50, 20]) {
                    let Some(pick) = d.read(&all, &output_keys) else {
                        continue;
                    };
                    let list = if d.res[pick.resource].texture.is_some() && d.c.chance(50) {
                        "sample"
                    } else {
                        "storage_read"
                    };
                    add(&mut d, &mut pass, list, pick);
                }
                for pick in outputs {
                    let keys = d.keys(pick);
                    let has_contents = keys.iter().all(|k| d.written.contains(k));
                    let list = if has_contents && d.c.chance(40) {
                        "storage_read_write"
                    } else {
                        "storage_write"
                    };
                    writes.extend(keys);
                    add(&mut d, &mut pass, list, pick);
                }
            }
            _ => 'copy: {
                // A copy of a resolved image into a texture of its shape, now and then.
                let resolved: Vec<(usize, usize)> = copy_twins
                    .iter()
                    .copied()
                    .filter(|&(src, _)| d.written.contains(&(src, 0, 0)))
                    .collect();
                if !resolved.is_empty() && d.c.chance(60) {
                    let (src, dst) = *d.c.pick(&resolved);
                    for (list, r) in [("copy_src", src), ("copy_dst", dst)] {
                        let sub = d.c.chance(20).then_some((0, 0));
                        add(&mut d, &mut pass, list, Pick { resource: r, sub });
                    }
                    writes.insert((dst, 0, 0));
                    break 'copy;
                }
                let r = *d.c.pick(&all);
                let dst = d.written_pick(r);
                let dst_keys: BTreeSet<Key> = d.keys(dst).into_iter().collect();
                if let Some(src) = d.read(&all, &dst_keys) {
                    add(&mut d, &mut pass, "copy_src", src);
                }
                writes.extend(dst_keys);
                add(&mut d, &mut pass, "copy_dst", dst);
            }
        }
        if d.c.chance(35) || (p + 1 == pass_count && d.c.chance(50)) {
            pass["side_effects"] = json!(true);
        }
        if d.c.chance(6) {
            pass["keep_order"] = json!(true);
        }
        d.written.extend(writes);
        passes.push(pass);
    }
    multiview(&mut d, &mut passes);
    json!({"resources": resources, "passes": passes})
}

/// Appends an entry to one of a pass's lists.
fn add(d: &mut Decoder<'_, '_>, pass: &mut Value, list: &str, pick: Pick) {
    let e = d.entry_json(pick);
    pass.as_object_mut()
        .expect("a pass is an object")
        .entry(list)
        .or_insert(json!([]))
        .as_array_mut()
        .expect("lists are arrays")
        .push(e);
}

fn texture_json(t: &Texture) -> Value {
    let size = if t.layers == 1 {
        json!([t.width, t.height])
    } else {
        json!([t.width, t.height, t.layers])
    };
    let mut v = json!({"format": t.format, "size": size, "samples": t.samples});
    if t.mips > 1 {
        v["mips"] = json!(t.mips);
    }
    v
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

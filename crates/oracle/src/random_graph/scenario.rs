//! The restructuring scenarios: dead resolves, folded copies and moves, which the compiler's
//! restructuring step rewrites.

use serde_json::{Value, json};

use super::{Decoder, Framebuffer, Key, Pick, Texture, add};

/// What the restructuring scenarios build from.
pub(super) struct Stage<'s> {
    pub(super) textures: &'s [(usize, Texture)],
    pub(super) framebuffers: &'s [Framebuffer],
    pub(super) copy_twins: &'s [(usize, usize)],
    pub(super) all: &'s [usize],
}

/// A render pass on a framebuffer: `fresh` starts every attachment (clear or write), else
/// every attachment builds on its contents where it has any.
fn render_on(d: &mut Decoder<'_, '_>, name: String, fb: &Framebuffer, fresh: bool) -> Value {
    let mut pass = json!({"name": name, "type": "render"});
    let (color, depth) = fb;
    let mut entries = Vec::new();
    for &(t, m, l) in color {
        let tex = d.res[t].texture.unwrap();
        let access = if !fresh && d.written.contains(&(t, m, l)) {
            "read_write"
        } else {
            ["clear", "write"][d.c.below(2)]
        };
        let mut e = json!({"resource": d.res[t].name, "access": access});
        d.attached_json(&mut e, tex, (m, l));
        entries.push(e);
    }
    if !entries.is_empty() {
        pass["color"] = json!(entries);
    }
    if let Some((t, m, l)) = *depth {
        let tex = d.res[t].texture.unwrap();
        let access = if !fresh && d.written.contains(&(t, m, l)) {
            ["read_write", "read"][d.c.below(2)]
        } else {
            "clear"
        };
        let mut e = json!({"resource": d.res[t].name, "access": access});
        d.attached_json(&mut e, tex, (m, l));
        pass["depth"] = e;
    }
    for &key in color.iter().chain(depth.iter()) {
        d.written.insert(key);
    }
    pass
}

/// Work unrelated to `avoid` (a framebuffer's subresources): a compute pass writing something
/// else, or a render pass on another framebuffer; rarely a pass that samples `avoid` (a hazard
/// that must keep it ahead of whatever overwrites `avoid`).
fn unrelated(d: &mut Decoder<'_, '_>, stage: &Stage<'_>, name: String, avoid: &[Key]) -> Value {
    let others: Vec<usize> = (0..stage.framebuffers.len())
        .filter(|&f| {
            let (c, z) = &stage.framebuffers[f];
            !c.iter().chain(z.iter()).any(|k| avoid.contains(k))
        })
        .collect();
    let mut pass = match d.c.weighted(&[45, 40, 15]) {
        1 if !others.is_empty() => {
            let f = *d.c.pick(&others);
            let fresh = d.c.chance(70);
            render_on(d, name, &stage.framebuffers[f], fresh)
        }
        2 if !avoid.is_empty() => {
            let &(t, m, l) = d.c.pick(avoid);
            let mut pass = json!({"name": name, "type": "compute"});
            let pick = Pick {
                resource: t,
                sub: Some((m, l)),
            };
            add(d, &mut pass, "sample", pick);
            pass
        }
        _ => {
            let mut pass = json!({"name": name, "type": "compute"});
            let free: Vec<usize> = stage
                .all
                .iter()
                .copied()
                .filter(|&r| !avoid.iter().any(|k| k.0 == r))
                .collect();
            if let Some(&r) = (!free.is_empty()).then(|| d.c.pick(&free)) {
                let pick = Pick {
                    resource: r,
                    sub: None,
                };
                let keys = d.keys(pick);
                add(d, &mut pass, "storage_write", pick);
                d.written.extend(keys);
            }
            pass
        }
    };
    if d.c.chance(40) {
        pass["side_effects"] = json!(true);
    }
    if d.c.chance(10) {
        pass["keep_order"] = json!(true);
    }
    pass
}

/// Up to `budget` passes, named from `p{first}` on, where restructuring applies (the guide): a
/// multisampled pass whose resolve a later pass resolves again, overwrites or copies into a
/// texture of its shape; or a render pass that returns to an earlier pass's attachments after
/// unrelated work. Empty when the graph has nothing to build them from.
pub(super) fn scenario(
    d: &mut Decoder<'_, '_>,
    stage: &Stage<'_>,
    first: usize,
    budget: usize,
) -> Vec<Value> {
    let mut out: Vec<Value> = Vec::new();
    let name = |out: &Vec<Value>| format!("p{}", first + out.len());
    // (multisampled colour texture, resolve target) pairs.
    let pairs: Vec<(usize, usize)> = stage
        .textures
        .iter()
        .filter(|(_, t)| t.samples > 1 && !t.depth)
        .flat_map(|&(m, t)| {
            stage
                .textures
                .iter()
                .filter(move |(_, u)| {
                    u.samples == 1 && u.format == t.format && u.mip_size(0) == t.mip_size(0)
                })
                .map(move |&(u, _)| (m, u))
        })
        .collect();
    if !pairs.is_empty() && (stage.framebuffers.is_empty() || d.c.chance(60)) {
        // Mostly a target with a texture of its shape to copy it into.
        let foldable: Vec<(usize, usize)> = pairs
            .iter()
            .copied()
            .filter(|&(_, t)| stage.copy_twins.iter().any(|&(src, _)| src == t))
            .collect();
        let (m, t) = if !foldable.is_empty() && d.c.chance(75) {
            *d.c.pick(&foldable)
        } else {
            *d.c.pick(&pairs)
        };
        let resolving = |d: &mut Decoder<'_, '_>, name: String, again: bool| {
            let access = if again {
                "read_write"
            } else {
                ["clear", "write"][d.c.below(2)]
            };
            d.written.extend([(m, 0, 0), (t, 0, 0)]);
            json!({"name": name, "type": "render", "color": [
                {"resource": d.res[m].name, "access": access, "resolve": d.res[t].name}
            ]})
        };
        out.push(resolving(d, name(&out), false));
        if out.len() < budget && d.c.chance(50) {
            let pass = unrelated(d, stage, name(&out), &[(m, 0, 0), (t, 0, 0)]);
            out.push(pass);
        }
        let twin = stage
            .copy_twins
            .iter()
            .find(|&&(src, _)| src == t)
            .map(|&(_, dst)| dst);
        let mut read = t;
        if out.len() < budget {
            match d.c.weighted(&[30, 45, 25]) {
                0 => out.push(resolving(d, name(&out), true)),
                1 if twin.is_some() => {
                    let dst = twin.unwrap();
                    let mut pass = json!({"name": name(&out), "type": "copy"});
                    add(
                        d,
                        &mut pass,
                        "copy_src",
                        Pick {
                            resource: t,
                            sub: None,
                        },
                    );
                    add(
                        d,
                        &mut pass,
                        "copy_dst",
                        Pick {
                            resource: dst,
                            sub: None,
                        },
                    );
                    d.written.insert((dst, 0, 0));
                    // Later passes mostly read the copy, not the resolve target: a fold needs
                    // the copy to be the target's only reader.
                    if d.c.chance(80) {
                        d.written.remove(&(t, 0, 0));
                    }
                    out.push(pass);
                    read = dst;
                }
                _ => {
                    let fresh = (vec![(t, 0, 0)], None);
                    out.push(render_on(d, name(&out), &fresh, true));
                }
            }
        }
        if out.len() < budget && d.c.chance(85) {
            let mut pass = json!({"name": name(&out), "type": "compute", "side_effects": true});
            add(
                d,
                &mut pass,
                "sample",
                Pick {
                    resource: read,
                    sub: None,
                },
            );
            out.push(pass);
        }
        return out;
    }
    if stage.framebuffers.is_empty() || budget < 3 {
        return out;
    }
    let f = d.c.below(stage.framebuffers.len());
    let fb = stage.framebuffers[f].clone();
    let avoid: Vec<Key> = fb.0.iter().chain(fb.1.iter()).copied().collect();
    let fresh = d.c.chance(60);
    out.push(render_on(d, name(&out), &fb, fresh));
    let between = 1 + d.c.below(3.min(budget - 2));
    let mut made_between: Vec<Key> = Vec::new();
    for _ in 0..between {
        let before = d.written.clone();
        let pass = unrelated(d, stage, name(&out), &avoid);
        made_between.extend(d.written.difference(&before).copied());
        out.push(pass);
    }
    let mut last = render_on(d, name(&out), &fb, false);
    // Sometimes it reads what a pass in between wrote: that pass must move ahead with it.
    let sampleable: Vec<Key> = made_between
        .into_iter()
        .filter(|k| d.res[k.0].texture.is_some() && !avoid.contains(k))
        .collect();
    if !sampleable.is_empty() && d.c.chance(40) {
        let &(r, m, l) = d.c.pick(&sampleable);
        add(
            d,
            &mut last,
            "sample",
            Pick {
                resource: r,
                sub: Some((m, l)),
            },
        );
    }
    if d.c.chance(50) {
        last["side_effects"] = json!(true);
    }
    out.push(last);
    out
}

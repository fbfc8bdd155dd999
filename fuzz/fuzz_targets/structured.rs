//! Well-formed descriptions built from structured input, so the fuzzer spends its time in the
//! compiler rather than in the JSON parser: names come from small pools and mostly resolve.
//! Textures have mips and array layers (the guide); attachments and list entries name single
//! subresources, mostly inside the texture, sometimes one past it or on a buffer.
#![no_main]

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use serde_json::{Value, json};

const FORMATS: [&str; 12] = [
    "rgba8unorm",
    "bgra8unorm",
    "rgba16float",
    "rgb10a2unorm",
    "r32float",
    "rgba32float",
    "depth32float",
    "depth24plus",
    "depth24plus-stencil8",
    "depth16unorm",
    "depth32float-stencil8",
    "bc1-rgba-unorm",
];
const ACCESSES: [&str; 4] = ["clear", "write", "read_write", "read"];
const KINDS: [&str; 3] = ["render", "compute", "copy"];
const LISTS: [&str; 7] = [
    "sample",
    "input",
    "storage_read",
    "storage_write",
    "storage_read_write",
    "copy_src",
    "copy_dst",
];

#[derive(Arbitrary, Debug)]
struct Graph {
    resources: Vec<Resource>,
    passes: Vec<Pass>,
}

#[derive(Arbitrary, Debug)]
struct Resource {
    buffer: bool,
    format: u8,
    size: (u16, u16, u8),
    samples: u8,
    mips: u8,
    clear: Option<Clear>,
    import: Option<(bool, bool)>,
}

#[derive(Arbitrary, Debug)]
enum Clear {
    Color([i8; 4]),
    Depth(i8),
    DepthStencil(i8, u8),
}

#[derive(Arbitrary, Debug)]
struct Pass {
    kind: u8,
    color: Vec<(u8, u8, Option<Clear>, Option<u8>, Option<Sub>)>,
    depth: Option<(u8, u8, Option<Clear>, Option<Sub>)>,
    lists: Vec<(u8, u8, Option<Sub>)>,
    side_effects: bool,
    keep_order: bool,
}

/// A mip and a layer, each 0 to 3: inside most textures here, one past the end of some.
#[derive(Arbitrary, Debug)]
struct Sub {
    mip: u8,
    layer: u8,
    /// Leave zero fields out (they default to 0).
    terse: bool,
}

impl Sub {
    fn add_to(&self, v: &mut Value) {
        let (mip, layer) = (self.mip % 4, self.layer % 4);
        if mip != 0 || !self.terse {
            v["mip"] = json!(mip);
        }
        if layer != 0 || !self.terse {
            v["layer"] = json!(layer);
        }
    }
}

fn clear_json(c: &Clear) -> Value {
    match *c {
        Clear::Color(rgba) => json!(rgba.map(|v| f64::from(v) / 64.0)),
        Clear::Depth(d) => json!(f64::from(d) / 64.0),
        Clear::DepthStencil(d, s) => json!({"depth": f64::from(d) / 64.0, "stencil": s}),
    }
}

fn resource_name(i: u8) -> String {
    format!("r{}", i % 10)
}

impl Graph {
    fn to_json(&self) -> Value {
        let resources: Vec<Value> = self
            .resources
            .iter()
            .take(10)
            .enumerate()
            .map(|(i, r)| {
                let mut v = json!({"name": resource_name(i as u8)});
                if r.buffer {
                    v["buffer"] = json!({"size": r.size.0});
                } else {
                    let mut size = vec![u32::from(r.size.0 % 300), u32::from(r.size.1 % 300)];
                    if r.size.2 % 4 == 3 {
                        size.push(u32::from(r.size.2 % 5));
                    }
                    let format = FORMATS[usize::from(r.format) % FORMATS.len()];
                    let samples = [1, 1, 4, 2, 8, 3][usize::from(r.samples) % 6];
                    // Mostly 1, often 2 to 4, rarely 0 or more than the size allows.
                    let mips = [1, 1, 1, 1, 2, 3, 4, 0, 9][usize::from(r.mips) % 9];
                    v["texture"] = json!({
                        "format": format,
                        "size": size,
                        "samples": samples,
                        "mips": mips,
                    });
                }
                if let Some(c) = &r.clear {
                    v["clear"] = clear_json(c);
                }
                if let Some((preserved, keep)) = r.import {
                    v["import"] = json!({
                        "contents": if preserved { "preserved" } else { "undefined" },
                        "after": if keep { "keep" } else { "discard" },
                    });
                }
                v
            })
            .collect();
        let passes: Vec<Value> = self
            .passes
            .iter()
            .take(12)
            .enumerate()
            .map(|(i, p)| {
                let kind = KINDS[usize::from(p.kind) % 3];
                let mut v = json!({"name": format!("p{i}"), "type": kind});
                let color: Vec<Value> = p
                    .color
                    .iter()
                    .take(9)
                    .map(|(r, a, c, resolve, sub)| {
                        let access = ACCESSES[usize::from(*a) % 4];
                        let mut e = json!({"resource": resource_name(*r), "access": access});
                        if let Some(sub) = sub {
                            sub.add_to(&mut e);
                        }
                        if let Some(c) = c {
                            e["clear"] = clear_json(c);
                        }
                        if let Some(t) = resolve {
                            e["resolve"] = json!(resource_name(*t));
                        }
                        e
                    })
                    .collect();
                if !color.is_empty() {
                    v["color"] = json!(color);
                }
                if let Some((r, a, c, sub)) = &p.depth {
                    let access = ACCESSES[usize::from(*a) % 4];
                    let mut e = json!({"resource": resource_name(*r), "access": access});
                    if let Some(sub) = sub {
                        sub.add_to(&mut e);
                    }
                    if let Some(c) = c {
                        e["clear"] = clear_json(c);
                    }
                    v["depth"] = e;
                }
                for (list, r, sub) in p.lists.iter().take(8) {
                    let key = LISTS[usize::from(*list) % LISTS.len()];
                    // A name is the whole resource; an object one subresource.
                    let item = match sub {
                        None => json!(resource_name(*r)),
                        Some(sub) => {
                            let mut e = json!({"resource": resource_name(*r)});
                            sub.add_to(&mut e);
                            e
                        }
                    };
                    let entry = v.as_object_mut().unwrap().entry(key).or_insert(json!([]));
                    entry.as_array_mut().unwrap().push(item);
                }
                if p.side_effects {
                    v["side_effects"] = json!(true);
                }
                if p.keep_order {
                    v["keep_order"] = json!(true);
                }
                v
            })
            .collect();
        json!({"resources": resources, "passes": passes})
    }
}

fuzz_target!(|graph: Graph| {
    tilegraph_oracle::pipeline::check_description(&graph.to_json().to_string());
});

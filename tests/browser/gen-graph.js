#!/usr/bin/env node
// Prints a graph description (the guide) of a long deferred frame: blocks of ten passes
// (shadows, G-buffer, decals, a compute cull, lighting, transparents, bloom, composite and two
// debug passes nobody reads, so they are culled) and fourteen resources each, blocks chained
// through their outputs; the last block composites into an imported backbuffer.
//   node gen-graph.js [--passes N] [--subresources]   (N: a multiple of 10, default 500)
// --subresources adds a bloom mip chain and a layered shadow map (needs a compiler with mips/layers).
'use strict';
const args = process.argv.slice(2);
let passesWanted = 500;
let sub = false;
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--passes') passesWanted = Number(args[++i]);
  else if (args[i] === '--subresources') sub = true;
  else { console.error(`usage: gen-graph.js [--passes N] [--subresources]`); process.exit(2); }
}
if (!Number.isInteger(passesWanted) || passesWanted < 10 || passesWanted % 10) {
  console.error('--passes must be a multiple of 10, at least 10');
  process.exit(2);
}
const blocks = passesWanted / 10;
const W = 1920, H = 1080;
const tex = (format, w = W, h = H, extra = {}) => ({ texture: Object.assign({ format, size: [w, h] }, extra) });
const resources = [];
const passes = [];
resources.push(Object.assign({ name: 'backbuffer' }, tex('bgra8unorm'), { import: { contents: 'undefined', after: 'keep' } }));
for (let b = 0; b < blocks; b++) {
  const p = (s) => `b${String(b).padStart(3, '0')}.${s}`;
  const last = b === blocks - 1;
  const add = (name, desc, more = {}) => resources.push(Object.assign({ name: p(name) }, desc, more));
  add('shadow_map', sub ? tex('depth32float', 2048, 2048, { size: [2048, 2048, 2] }) : tex('depth32float', 2048, 2048), { clear: 1.0 });
  add('albedo', tex('rgba8unorm'), { clear: [0, 0, 0, 1] });
  add('normal', tex('rgb10a2unorm'));
  add('material', tex('rgba8unorm'));
  add('velocity', tex('rg16float'));
  add('depth', tex('depth32float'), { clear: 1.0 });
  add('lights', { buffer: { size: 65536 } });
  add('ao', tex('r8unorm'));
  add('hdr', tex('rgba16float'));
  add('bloom', sub ? tex('rgba16float', W / 2, H / 2, { mips: 3 }) : tex('rgba16float', W / 2, H / 2));
  add('out', tex('rgba16float'));
  add('debug', tex('rgba8unorm'));
  add('debug2', tex('rgba8unorm'));
  add('history', tex('rgba16float'));
  const shadowDepth = sub ? { resource: p('shadow_map'), access: 'clear', layer: b % 2 } : { resource: p('shadow_map'), access: 'clear' };
  passes.push({ name: p('shadows'), type: 'render', depth: shadowDepth });
  passes.push({
    name: p('gbuffer'), type: 'render',
    color: ['albedo', 'normal', 'material', 'velocity'].map((r) => ({ resource: p(r), access: 'clear' })),
    depth: { resource: p('depth'), access: 'clear' }
  });
  passes.push({
    name: p('decals'), type: 'render',
    color: ['albedo', 'normal', 'material', 'velocity'].map((r) => ({ resource: p(r), access: 'read_write' })),
    depth: { resource: p('depth'), access: 'read' }
  });
  passes.push({ name: p('cull'), type: 'compute', sample: [p('depth')], storage_write: [p('lights'), p('ao')] });
  passes.push({
    name: p('lighting'), type: 'render',
    sample: [p('albedo'), p('normal'), p('material'), p('depth'), sub ? { resource: p('shadow_map'), layer: b % 2 } : p('shadow_map'), p('ao')],
    storage_read: [p('lights')],
    color: [{ resource: p('hdr'), access: 'write' }]
  });
  passes.push({
    name: p('transparent'), type: 'render', sample: [p('shadow_map')],
    color: [{ resource: p('hdr'), access: 'read_write' }], depth: { resource: p('depth'), access: 'read' }
  });
  if (sub) {
    passes.push({ name: p('bloom'), type: 'render', sample: [p('hdr')], color: [{ resource: p('bloom'), access: 'write', mip: 1 }] });
  } else {
    passes.push({ name: p('bloom'), type: 'render', sample: [p('hdr')], color: [{ resource: p('bloom'), access: 'write' }] });
  }
  const compSample = [p('hdr'), sub ? { resource: p('bloom'), mip: 1 } : p('bloom'), p('velocity')];
  if (b > 0) compSample.push(`b${String(b - 1).padStart(3, '0')}.out`, `b${String(b - 1).padStart(3, '0')}.history`);
  passes.push({
    name: p('composite'), type: 'render', sample: compSample,
    color: [{ resource: last ? 'backbuffer' : p('out'), access: 'write' }]
  });
  passes.push({ name: p('debug_view'), type: 'render', sample: [p('normal')], color: [{ resource: p('debug'), access: 'write' }] });
  if (last) {
    passes.push({ name: p('debug_overlay'), type: 'render', sample: [p('debug')], color: [{ resource: p('debug2'), access: 'write' }] });
  } else {
    passes.push({ name: p('capture'), type: 'copy', copy_src: [p('out')], copy_dst: [p('history')] });
  }
}
process.stdout.write(JSON.stringify({ resources, passes }, null, 1) + '\n');

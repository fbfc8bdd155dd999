#!/usr/bin/env node
// Browser tests of tilegraph's HTML plan viewer, in Debian's headless chromium.
//   node tests/browser/test.js [--budget-ms N] PAGE.html...
// Every page is checked the same way, against the data object embedded in it:
//  - no console errors, page errors or network requests; `data-ready` set within the budget
//    (navigation start to the viewer's ready mark; printed with the page size);
//  - one column per pass: the plan's `order` (execution order), then the copies folded into a
//    resolve, then the culled passes, each marked; every group's passes in adjacent columns under
//    its band, in the group's order; one row per resource;
//  - every group's load and store ops (and resolves), attachment by attachment, as the grid and the
//    group list show them, in the row of the attachment's resource, coloured by cost;
//  - hovering an op shows its reason; hovering a group's store op shows why the group ended;
//  - traffic figures equal the plan's, and the per-group bytes add up to them;
//  - warnings listed, and clicking one selects its pass column;
//  - the Restructured list equals the plan's `restructure` entries, and clicking each selects its
//    pass column (and the resource it names); the declared-order traffic is shown when it differs;
//    dropped resolves are struck through in their cell and the cell's tooltip gives the reason;
//  - needed_by: selecting a pass shows why it is alive; following the link (by mouse, by keyboard,
//    and from every running pass) selects the pass the plan names at each step and reaches an
//    `import:` or `side_effects` pass without a cycle; hovering a pass says why it is alive;
//  - memory figures equal the plan's; the tile profile picker offers the plan's profiles, and
//    picking each marks exactly the groups over its budget, with the consequence in words;
//  - search: `/` focuses it, Enter jumps to the next match, Escape clears; arrow keys move in the grid;
//  - names are text: no element the viewer does not make exists, no injected script ran, and every
//    pass and resource name reads back exactly as the data has it.
// Exits non-zero on any failure.
'use strict';
const fs = require('fs');
const { launch, fileUrl } = require('./browser');

// A real mouse click costs playwright's actionability checks (about 0.4 s on the 500-pass page):
// the mouse follows this many needed_by steps, the keyboard and the in-page walk the whole chains.
const MOUSE_STEPS = 6;
const LOAD_SHORT = { clear: 'C', load: 'L', dont_care: 'DC' };
const STORE_SHORT = { store: 'S', discard: 'D', none: 'N' };
const COSTLY = new Set(['load', 'store']);
// Elements the viewer's template and script make; anything else was injected by a name.
const ALLOWED_TAGS = new Set(['HTML', 'HEAD', 'META', 'TITLE', 'STYLE', 'SCRIPT', 'BODY', 'HEADER', 'MAIN',
  'SECTION', 'ARTICLE', 'H1', 'H2', 'H3', 'P', 'DIV', 'SPAN', 'LABEL', 'INPUT', 'BUTTON', 'UL', 'LI', 'TABLE',
  'TBODY', 'TR', 'TH', 'TD', 'NOSCRIPT']);
const TEXEL = {
  depth16unorm: 2, depth24plus: 4, 'depth24plus-stencil8': 4, depth32float: 4, 'depth32float-stencil8': 8,
  stencil8: 1, r8unorm: 1, rg8unorm: 2, rgba8unorm: 4, bgra8unorm: 4, rgb10a2unorm: 4, r32float: 4, rg16float: 4,
  rgba16float: 8, rg32float: 8, rgba32float: 16
};

function usage() {
  console.error('usage: test.js [--budget-ms N] PAGE.html...');
  process.exit(2);
}

const args = process.argv.slice(2);
let budgetMs = 2000;
const pages = [];
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--budget-ms') {
    budgetMs = Number(args[++i]);
    if (!(budgetMs > 0)) usage();
  } else if (args[i].startsWith('-')) usage();
  else pages.push(args[i]);
}
if (!pages.length) usage();

class Check {
  constructor(page) { this.page = page; this.failures = []; }
  fail(msg) { this.failures.push(msg); }
  ok(cond, msg) { if (!cond) this.fail(msg); return cond; }
  eq(actual, expected, what) {
    if (actual !== expected) this.fail(`${what}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`);
  }
}

// The expected attachment label, as the guide names subresources: `name@mip#layer`.
function subLabel(res, mip, layer) {
  const t = res && res.texture ? res.texture : {};
  const mips = t.mips || 1;
  const layers = (t.size && t.size[2]) || 1;
  let s = '';
  if (mip > 0 || mips > 1) s += '@' + mip;
  if (layer > 0 || layers > 1) s += '#' + layer;
  return s;
}

// Planned bytes of one group from its ops (the guide), or null for an unknown format.
function groupBytes(group, resByName) {
  let total = 0;
  for (const a of attachments(group)) {
    const r = resByName.get(a.resource);
    const t = r && r.texture;
    const texel = t && TEXEL[String(t.format).replace(/-srgb$/, '')];
    if (!texel) return null;
    const mip = a.mip || 0;
    const px = Math.max(1, Math.floor(t.size[0] / 2 ** mip)) * Math.max(1, Math.floor(t.size[1] / 2 ** mip));
    const b = px * texel * (t.samples || 1);
    if (a.load === 'load') total += b;
    if (a.store === 'store') total += b;
    if (a.resolve != null) total += px * texel;
  }
  return total;
}

// The columns the viewer must draw, as indices into plan.passes: the plan's `order`, then folded
// copies, then culled passes (declaration order among each); without `order` (a plan from before
// restructuring) the running passes in declaration order come first.
function expectedColumns(plan, c) {
  const ps = plan.passes || [];
  const byName = new Map();
  ps.forEach((p, i) => { if (!byName.has(p.name)) byName.set(p.name, i); });
  const runs = (p) => !p.culled && p.folded_into == null;
  const cols = [];
  const seen = new Set();
  const put = (i) => { if (!seen.has(i)) { seen.add(i); cols.push(i); } };
  if (Array.isArray(plan.order)) {
    plan.order.forEach((n, k) => {
      const i = byName.get(n);
      if (c.ok(i != null && runs(ps[i]), `plan order[${k}] ${JSON.stringify(n)} is not a running pass`)) put(i);
    });
    c.eq(plan.order.length, ps.filter(runs).length, 'plan order: one entry per running pass');
  }
  ps.forEach((p, i) => { if (runs(p)) put(i); });
  ps.forEach((p, i) => { if (!p.culled) put(i); });
  ps.forEach((p, i) => put(i));
  return cols;
}

// What keeps a pass alive, read from the plan as the guide defines `needed_by` (a pass whose own
// name is `side_effects` or `import:…` is told apart by its description, as the viewer does).
function neededBy(p, graph, planPassIndex, resByName) {
  const nb = p.needed_by;
  if (nb == null) return null;
  const desc = (graph.passes || []).find((d) => d.name === p.name) || {};
  if (nb === 'side_effects' && (desc.side_effects === true || !planPassIndex.has(nb))) return { k: 'side_effects' };
  if (nb.startsWith('import:')) {
    const r = resByName.get(nb.slice(7));
    if ((r && r.import) || !planPassIndex.has(nb)) return { k: 'import', name: nb.slice(7) };
  }
  return { k: 'pass', name: nb, p: planPassIndex.has(nb) ? planPassIndex.get(nb) : -1 };
}

// The viewer's slot names: `c0`, `d`; in a multiview group each view's, `c0v1`, `dv1`.
// An attachment of a multiview group is its first view with the others nested in `views`.
function attachments(group) {
  const views = Number.isInteger(group.multiview) && group.multiview > 1 ? group.multiview : 1;
  const view = (k) => (views > 1 ? 'v' + k : '');
  const list = [];
  const push = (a, slot, kind, index) => {
    list.push(Object.assign({}, a, { slot: slot + view(0), kind, index, view: 0 }));
    (a.views || []).forEach((v, k) =>
      list.push(Object.assign({}, v, { slot: slot + view(k + 1), kind, index, view: k + 1 })));
  };
  (group.color || []).forEach((a, k) => push(a, 'c' + k, 'color', k));
  if (group.depth) push(group.depth, 'd', 'depth', 0);
  return list;
}

async function hoverTip(page, locator) {
  await locator.hover();
  await page.waitForFunction(() => !document.getElementById('tip').hidden, null, { timeout: 2000 }).catch(() => {});
  // A tooltip is lines (span.tl) of text, names in span.q: anything else in it was injected.
  return page.evaluate(() => {
    const tip = document.getElementById('tip');
    const foreign = [...tip.querySelectorAll('*')].filter((e) => e.tagName !== 'SPAN' || e.attributes.length !== 1 ||
      !['tl', 'q'].includes(e.getAttribute('class')));
    return { hidden: tip.hidden, text: tip.textContent, foreign: foreign.length };
  });
}

// The selected-pass panel's needed-by control, read back.
function readNeed(page) {
  return page.evaluate(() => {
    const info = document.getElementById('passinfo');
    const sel = document.querySelector('.colhead .pass.sel');
    const n = info.querySelector('.need');
    return {
      sel: sel ? Number(sel.dataset.p) : null,
      name: info.querySelector('.piname') ? info.querySelector('.piname').textContent : null,
      kind: n ? n.dataset.kind : null,
      button: !!n && n.tagName === 'BUTTON' && !n.disabled,
      target: n && n.querySelector('.q') ? n.querySelector('.q').textContent : null,
      focused: !!n && document.activeElement === n,
      foreign: [...info.querySelectorAll('*')].filter((e) => !['P', 'SPAN', 'BUTTON', 'DIV'].includes(e.tagName)).length
    };
  });
}

// Follows needed_by from pass to pass through the panel's control: from the first column by mouse
// (the first MOUSE_STEPS steps), from the last running column by keyboard (focus, Enter), then from every
// running pass by the control's click (in the page, for speed); each step must select the pass the
// plan names, and every chain must end at an import or side effects without a cycle.
async function followNeeds(page, c, planPasses, columns, graph, planPassIndex, resByName, resIndex) {
  const running = columns.filter((i) => !planPasses[i].culled && planPasses[i].folded_into == null);
  if (!running.length || !planPasses.some((p) => 'needed_by' in p)) return 0;
  const want = (pi) => neededBy(planPasses[pi], graph, planPassIndex, resByName);
  const check = (got, pi, where) => {
    const w = want(pi);
    c.eq(got.sel, pi, `${where}: selected pass`);
    c.eq(got.name, planPasses[pi].name, `${where}: panel names the pass`);
    c.eq(got.foreign, 0, `${where}: elements in the panel that the viewer does not make`);
    if (!w) { c.eq(got.kind, 'none', `${where}: needed-by kind`); return null; }
    c.eq(got.kind, w.k, `${where}: needed-by kind`);
    if (w.k !== 'side_effects') {
      c.eq(got.target, w.name, `${where}: needed-by target`);
      c.ok(got.button, `${where}: the needed-by target is not an enabled button`);
    }
    return w;
  };
  let steps = 0;
  for (const [how, start] of [['mouse', running[0]], ['keyboard', running[running.length - 1]]]) {
    await page.locator(`.colhead .pass[data-p="${start}"]`).click();
    let pi = start;
    const seen = new Set();
    for (;;) {
      const where = `needed_by by ${how} from ${planPasses[start].name}, at ${planPasses[pi].name}`;
      if (!c.ok(!seen.has(pi), `${where}: a cycle`)) break;
      seen.add(pi);
      const got = await readNeed(page);
      const w = check(got, pi, where);
      if (!w || w.k === 'side_effects') break;
      if ((how === 'mouse' && seen.size > MOUSE_STEPS) || !got.button) break;
      if (how === 'mouse') await page.locator('#passinfo button.need').click();
      else {
        if (!got.focused) await page.locator('#passinfo button.need').focus();
        await page.keyboard.press('Enter');
      }
      steps++;
      if (w.k === 'import') {
        const r = await page.evaluate(() => { const e = document.querySelector('.rowhead .res.sel'); return e ? Number(e.dataset.r) : null; });
        c.eq(r, resIndex.has(w.name) ? resIndex.get(w.name) : null, `${where}: following the import selects its resource row`);
        break;
      }
      if (!c.ok(w.p >= 0, `${where}: needed_by names no pass of the plan`)) break;
      if (how === 'keyboard') c.ok((await readNeed(page)).focused || want(w.p) == null || want(w.p).k === 'side_effects',
        `${where}: after Enter the focus is not on the next needed-by control`);
      pi = w.p;
    }
  }
  // Every running pass: select it, then click through; passes already known to reach the end stop a chain.
  const result = await page.evaluate((running) => {
    const out = [];
    const done = new Set();
    const read = () => {
      const sel = document.querySelector('.colhead .pass.sel');
      const n = document.querySelector('#passinfo .need');
      return {
        sel: sel ? Number(sel.dataset.p) : null,
        name: document.querySelector('#passinfo .piname') ? document.querySelector('#passinfo .piname').textContent : null,
        kind: n ? n.dataset.kind : null, button: !!n && n.tagName === 'BUTTON' && !n.disabled,
        target: n && n.querySelector('.q') ? n.querySelector('.q').textContent : null, focused: false,
        foreign: [...document.getElementById('passinfo').querySelectorAll('*')].filter((e) => !['P', 'SPAN', 'BUTTON', 'DIV'].includes(e.tagName)).length
      };
    };
    for (const start of running) {
      if (done.has(start)) continue;
      document.querySelector(`.colhead .pass[data-p="${start}"]`).click();
      const chain = [];
      const seen = new Set();
      for (let k = 0; k <= running.length + 1; k++) {
        const got = read();
        chain.push(got);
        if (got.sel == null || done.has(got.sel) || seen.has(got.sel)) break;
        seen.add(got.sel);
        const b = document.querySelector('#passinfo button.need');
        if (got.kind !== 'pass' || !b) break;
        b.click();
      }
      chain.forEach((g) => { if (g.sel != null) done.add(g.sel); });
      out.push({ start, chain });
    }
    return out;
  }, running);
  const ends = new Set();
  for (const { start, chain } of result) {
    let pi = start;
    const seen = new Set();
    for (const [k, got] of chain.entries()) {
      const where = `needed_by from ${planPasses[start].name}, step ${k} at ${planPasses[pi] ? planPasses[pi].name : pi}`;
      if (ends.has(pi)) break;
      if (!c.ok(!seen.has(pi), `${where}: a cycle`)) break;
      seen.add(pi);
      const w = check(got, pi, where);
      if (!w || w.k !== 'pass') { c.ok(w && (w.k === 'import' || w.k === 'side_effects'), `${where}: the chain ends without an import or side effects`); break; }
      steps++;
      if (!c.ok(w.p >= 0, `${where}: needed_by names no pass of the plan`)) break;
      if (!c.ok(k + 1 < chain.length, `${where}: the chain stopped early`)) break;
      pi = w.p;
    }
    for (const p of seen) ends.add(p);
  }
  c.eq(running.every((pi) => ends.has(pi)), true, 'needed_by: every running pass was followed to the end of its chain');
  return steps;
}

async function testPage(context, file) {
  const c = new Check(file);
  const page = await context.newPage();
  const problems = [];
  page.on('console', (m) => { if (m.type() === 'error') problems.push(`console error: ${m.text()}`); });
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('request', (r) => {
    if (!r.url().startsWith('file:') && !r.url().startsWith('data:')) problems.push(`network request: ${r.url()}`);
  });
  await page.addInitScript(() => { window.__pwned = undefined; });
  const size = fs.statSync(file).size;
  // A page error before the ready mark (a script ended early by a name, say) ends the wait at once.
  const crashed = new Promise((resolve, reject) => page.once('pageerror', (e) => reject(new Error(`page error: ${e.message}`))));
  crashed.catch(() => {});
  await page.goto(fileUrl(file), { waitUntil: 'load' });
  try {
    await Promise.race([
      page.waitForSelector('body[data-ready], body[data-error]', { timeout: Math.max(30000, budgetMs * 5) }),
      crashed
    ]);
  } catch (e) {
    c.fail(`the page never set data-ready: ${e.message.split('\n')[0]}`);
    c.failures.push(...problems);
    await page.close();
    return { c, line: `${file}: not ready` };
  }
  const pageError = await page.getAttribute('body', 'data-error');
  if (pageError) c.fail(`the viewer reports: ${pageError}`);
  const readyMs = Number(await page.getAttribute('body', 'data-ready'));

  const data = await page.evaluate(() => JSON.parse(document.getElementById('tilegraph-data').textContent));
  const graph = data.graph || {};
  const plan = data.plan || {};
  const explain = data.explain || {};
  const planPasses = plan.passes || [];
  const groups = plan.groups || [];
  const gRes = graph.resources || [];
  const resByName = new Map(gRes.map((r) => [r.name, r]));
  const resIndex = new Map(gRes.map((r, i) => [r.name, i]));

  // Names are text, and nothing was injected.
  const dom = await page.evaluate(() => {
    const tags = new Set();
    for (const e of document.getElementsByTagName('*')) tags.add(e.tagName);
    return {
      tags: [...tags],
      scripts: document.scripts.length,
      pwned: window.__pwned,
      elements: document.getElementsByTagName('*').length,
      passes: [...document.querySelectorAll('.colhead .pass')].sort((a, b) => a.offsetLeft - b.offsetLeft).map((e) => ({
        name: e.querySelector('.pname').textContent, culled: e.classList.contains('culled'),
        folded: e.classList.contains('folded'), p: Number(e.dataset.p),
        mark: e.querySelector('.pmark') ? e.querySelector('.pmark').textContent : null,
        children: e.querySelector('.pname').children.length,
        left: e.offsetLeft, right: e.offsetLeft + e.offsetWidth
      })),
      bands: [...document.querySelectorAll('.colhead .band')].map((e) => ({
        g: Number(e.dataset.g), left: e.offsetLeft, right: e.offsetLeft + e.offsetWidth
      })),
      resources: [...document.querySelectorAll('.rowhead .res')].map((e) => ({
        name: e.querySelector('.rname').textContent, children: e.querySelector('.rname').children.length
      }))
    };
  });
  for (const t of dom.tags) c.ok(ALLOWED_TAGS.has(t), `an element the viewer never makes exists: <${t.toLowerCase()}>`);
  c.eq(dom.scripts, 2, 'script elements');
  c.eq(dom.pwned, undefined, 'window.__pwned (set by a script injected through a name)');

  // One column per pass: execution order, then folded copies, then culled passes; one row per resource.
  const planPassIndex = new Map();
  planPasses.forEach((p, i) => { if (!planPassIndex.has(p.name)) planPassIndex.set(p.name, i); });
  const columns = expectedColumns(plan, c);
  const restructure = plan.restructure || [];
  const moved = new Set(restructure.filter((x) => x.kind === 'moved').map((x) => x.pass));
  c.eq(dom.passes.length, planPasses.length, 'pass columns');
  if (graph.passes) c.eq(dom.passes.length, graph.passes.length, 'pass columns against the description');
  columns.forEach((pi, i) => {
    const p = planPasses[pi];
    const d = dom.passes[i];
    if (!d) return;
    c.eq(d.name, p.name, `pass column ${i} name`);
    c.eq(d.p, pi, `pass column ${i} (${p.name}) pass index`);
    c.eq(d.culled, !!p.culled, `pass column ${i} (${p.name}) culled`);
    const folded = !p.culled && p.folded_into != null;
    c.eq(d.folded, folded, `pass column ${i} (${p.name}) folded`);
    c.eq(d.mark, p.culled ? 'culled' : folded ? `folded into ${p.folded_into}` : moved.has(p.name) ? 'moved' : null,
      `pass column ${i} (${p.name}) mark`);
    if (folded) c.eq(p.group, null, `folded pass ${p.name} has a group`);
    c.eq(d.children, 0, `pass column ${i} name has child elements`);
  });
  // Group bands: a group's passes sit in adjacent columns, in the group's order, under its band,
  // and no other pass column is under it.
  const colOf = new Map(dom.passes.map((d, i) => [d.p, i]));
  groups.forEach((g, gi) => {
    const cols = (g.passes || []).map((n) => colOf.get(planPassIndex.get(n)));
    cols.forEach((col, k) => {
      if (k) c.eq(col, cols[k - 1] + 1, `group ${gi}: pass ${JSON.stringify(g.passes[k])} is not in the column after ${JSON.stringify(g.passes[k - 1])}`);
    });
    const band = dom.bands.find((b) => b.g === gi);
    if (!c.ok(band, `group ${gi} has no band`)) return;
    dom.passes.forEach((d, i) => {
      const inside = d.left >= band.left && d.right <= band.right;
      c.eq(inside, cols.includes(i), `group ${gi} band over pass column ${i} (${d.name})`);
    });
  });
  c.eq(dom.resources.length, gRes.length, 'resource rows');
  gRes.forEach((r, i) => {
    const d = dom.resources[i];
    if (!d) return;
    c.eq(d.name, r.name, `resource row ${i} name`);
    c.eq(d.children, 0, `resource row ${i} name has child elements`);
  });

  // Ops, group by group and attachment by attachment, in the grid and in the group list.
  const shown = await page.evaluate(() => {
    const rows = [...document.querySelectorAll('.rowhead .res')].map((e) => {
      const r = e.getBoundingClientRect();
      return [r.top, r.bottom];
    });
    const rowOf = (e) => {
      const r = e.getBoundingClientRect();
      const y = (r.top + r.bottom) / 2;
      return rows.findIndex((row) => y >= row[0] && y < row[1]);
    };
    const ops = (sel) => [...document.querySelectorAll(sel)].map((e) => ({
      g: Number(e.dataset.g), a: e.dataset.a, e: e.dataset.e, text: e.textContent,
      cost: e.classList.contains('cost'), free: e.classList.contains('free'), row: rowOf(e)
    }));
    const cards = [...document.querySelectorAll('#groups .gcard')].map((card) => ({
      g: Number(card.dataset.g),
      bytes: card.querySelector('.gbp') ? Number(card.querySelector('.gbp').dataset.bytes) : null,
      labels: Object.fromEntries([...card.querySelectorAll('tr[data-a]')].map((tr) => [tr.dataset.a, tr.querySelector('.aname').textContent])),
      brk: card.querySelector('.bk') ? card.querySelector('.bk').textContent : null,
      why: card.querySelector('.bwhy') ? card.querySelector('.bwhy').textContent : null
    }));
    return { grid: ops('.gbody .op'), panel: ops('#groups .op'), cards };
  });
  const key = (o) => `${o.g}/${o.a}/${o.e}`;
  const gridOps = new Map();
  for (const o of shown.grid) {
    if (gridOps.has(key(o))) c.fail(`grid shows op ${key(o)} twice`);
    gridOps.set(key(o), o);
  }
  const panelOps = new Map(shown.panel.map((o) => [key(o), o]));
  let expectedOps = 0;
  c.eq(shown.cards.length, groups.length, 'group cards');
  groups.forEach((g, gi) => {
    const card = shown.cards[gi] || { labels: {} };
    c.eq(card.brk, `ends: ${g.break}`, `group ${gi} break`);
    c.ok(card.why && card.why.length > 0, `group ${gi} has no break reason`);
    const ex = ((explain.groups || [])[gi] || {});
    if (typeof ex.break_reason === 'string' && ex.break_reason) c.eq(card.why, ex.break_reason, `group ${gi} break reason`);
    const wantBytes = typeof ex.bytes === 'number' ? ex.bytes : groupBytes(g, resByName);
    if (wantBytes != null) c.eq(card.bytes, wantBytes, `group ${gi} planned bytes`);
    for (const a of attachments(g)) {
      const where = `group ${gi} ${a.slot} (${a.resource})`;
      const row = resIndex.has(a.resource) ? resIndex.get(a.resource) : -2;
      c.eq(card.labels[a.slot], a.resource + subLabel(resByName.get(a.resource), a.mip || 0, a.layer || 0), `${where} label`);
      for (const [edge, op, short] of [['load', a.load, LOAD_SHORT], ['store', a.store, STORE_SHORT]]) {
        expectedOps++;
        const k = `${gi}/${a.slot}/${edge}`;
        const gOp = gridOps.get(k);
        const pOp = panelOps.get(k);
        if (c.ok(gOp, `${where}: no ${edge} op in the grid`)) {
          c.ok(gOp.text === op || gOp.text === short[op], `${where}: grid ${edge} op shows ${JSON.stringify(gOp.text)}, plan says ${op}`);
          c.eq(gOp.row, row, `${where}: grid ${edge} op row`);
          c.eq(gOp.cost, COSTLY.has(op), `${where}: grid ${edge} op coloured as costly`);
          c.eq(gOp.free, !COSTLY.has(op), `${where}: grid ${edge} op coloured as free`);
        }
        if (c.ok(pOp, `${where}: no ${edge} op in the group list`)) c.eq(pOp.text, op, `${where}: listed ${edge} op`);
      }
      const k = `${gi}/${a.slot}/resolve`;
      if (a.resolve != null) {
        expectedOps++;
        const gOp = gridOps.get(k);
        if (c.ok(gOp, `${where}: no resolve in the grid`)) c.eq(gOp.row, resIndex.get(a.resolve), `${where}: resolve row`);
        const pOp = panelOps.get(k);
        if (c.ok(pOp, `${where}: no resolve in the group list`)) c.eq(pOp.text, '\u2192 ' + a.resolve, `${where}: listed resolve`);
      } else {
        c.ok(!gridOps.has(k), `${where}: grid shows a resolve the plan does not have`);
      }
    }
  });
  c.eq(gridOps.size, expectedOps, 'ops in the grid');

  // Hovering an op shows its reason; a store op also says why the group ended.
  const hovered = [];
  for (const [edge, field] of [['load', 'load_reason'], ['store', 'store_reason']]) {
    const gi = groups.findIndex((g) => attachments(g).length > 0);
    if (gi < 0) break;
    const a = attachments(groups[gi])[0];
    const loc = page.locator(`.gbody .op[data-g="${gi}"][data-a="${a.slot}"][data-e="${edge}"]`);
    const tip = await hoverTip(page, loc);
    hovered.push(edge);
    const where = `hovering group ${gi} ${a.slot} ${edge}`;
    if (!c.ok(!tip.hidden && tip.text.trim().length > 0, `${where}: no tooltip`)) continue;
    c.eq(tip.foreign, 0, `${where}: elements in the tooltip that the viewer does not make`);
    c.ok(/why: \S/.test(tip.text), `${where}: tooltip gives no reason: ${JSON.stringify(tip.text)}`);
    const ex = ((explain.groups || [])[gi] || {});
    const exSlot = a.kind === 'depth' ? ex.depth : (ex.color || [])[a.index];
    const exA = a.view === 0 ? exSlot : ((exSlot || {}).views || [])[a.view - 1];
    if (exA && exA[field]) c.ok(tip.text.includes(exA[field]), `${where}: tooltip lacks the plan's reason ${JSON.stringify(exA[field])}`);
    if (edge === 'store') c.ok(tip.text.includes(`group ended: ${groups[gi].break}`), `${where}: tooltip does not say why the group ended`);
  }
  // Hover a pass header too: names in tooltips are text.
  // The first column is the first pass to run; its tooltip also says why it is alive.
  if (planPasses.length) {
    const first = planPasses[columns[0]];
    const tip = await hoverTip(page, page.locator(`.colhead .pass[data-p="${columns[0]}"]`));
    c.ok(!tip.hidden && tip.text.includes(first.name), 'hovering the first pass: tooltip lacks its name');
    c.eq(tip.foreign, 0, 'elements in the pass tooltip that the viewer does not make');
    const need = neededBy(first, graph, planPassIndex, resByName);
    if ('needed_by' in first && !first.culled && first.folded_into == null) {
      const want = !need ? 'alive because: the plan does not say' : need.k === 'side_effects' ? 'alive because: it has side effects'
        : need.k === 'import' ? `alive because: the kept import ${need.name} needs` : `alive because: ${need.name} reads what it writes`;
      c.ok(tip.text.includes(want), `hovering the first pass: tooltip lacks ${JSON.stringify(want)}: ${JSON.stringify(tip.text)}`);
    }
  }
  await page.mouse.move(0, 0);

  // Traffic figures.
  const traffic = plan.traffic || {};
  const figures = await page.evaluate(() => ({
    cells: Object.fromEntries([...document.querySelectorAll('#traffic td[data-k]')].map((td) => [td.dataset.k, td.querySelector('.exact').textContent])),
    mismatch: [...document.querySelectorAll('#traffic .mismatch')].map((e) => e.textContent)
  }));
  for (const k of ['bytes_per_frame', 'naive_bytes_per_frame', 'bytes_per_second', 'naive_bytes_per_second']) {
    if (traffic[k] == null) continue;
    c.eq((figures.cells[k] || '').replace(/[^0-9]/g, ''), String(traffic[k]), `traffic ${k}`);
  }
  for (const m of figures.mismatch) c.fail(`traffic: ${m}`);
  // The declared order's figure, next to planned and naive, where restructuring changed it.
  const declared = traffic.declared_bytes_per_frame;
  if (declared != null && declared !== traffic.bytes_per_frame) {
    c.eq((figures.cells.declared_bytes_per_frame || '').replace(/[^0-9]/g, ''), String(declared), 'traffic declared_bytes_per_frame');
    c.eq((figures.cells.declared_bytes_per_second || '').replace(/[^0-9]/g, ''), String(declared * (traffic.fps == null ? 60 : traffic.fps)),
      'traffic declared bytes per second (declared per frame times fps)');
  } else {
    c.ok(!('declared_bytes_per_frame' in figures.cells), 'traffic shows a declared-order row where the plan has none or it equals planned');
  }

  // Warnings: listed, and clicking one selects its pass.
  const warnings = plan.warnings || [];
  const warnShown = await page.evaluate(() => [...document.querySelectorAll('.warnlist .warn')].map((b) => ({
    pass: b.querySelector('.wpass') ? b.querySelector('.wpass').textContent : null,
    res: b.querySelector('.wres') ? b.querySelector('.wres').textContent : null,
    msg: b.querySelector('.wmsg').textContent
  })));
  c.eq(warnShown.length, warnings.length, 'warnings listed');
  warnings.forEach((w, i) => {
    const s = warnShown[i];
    if (!s) return;
    c.eq(s.pass, w.pass == null ? null : w.pass, `warning ${i} pass`);
    c.eq(s.res, w.resource == null ? null : w.resource, `warning ${i} resource`);
    c.eq(s.msg, w.message, `warning ${i} message`);
  });
  const wi = warnings.findIndex((w) => planPasses.some((p) => p.name === w.pass));
  if (wi >= 0) {
    const want = planPasses.findIndex((p) => p.name === warnings[wi].pass);
    await page.locator('.warnlist .warn').nth(wi).click();
    const sel = await page.evaluate(() => {
      const h = document.querySelector('.colhead .pass.sel');
      const s = document.getElementById('scroller').getBoundingClientRect();
      const r = h ? h.getBoundingClientRect() : null;
      return {
        p: h ? Number(h.dataset.p) : null,
        colhl: !document.querySelector('.colhl').hidden,
        visible: !!r && r.left >= s.left && r.right <= s.right + 1 && r.top >= s.top - 1 && r.bottom <= s.bottom + 1
      };
    });
    c.eq(sel.p, want, `clicking warning ${wi}: selected pass column`);
    c.ok(sel.colhl, `clicking warning ${wi}: the pass column is not highlighted`);
    c.ok(sel.visible, `clicking warning ${wi}: the pass column is not scrolled into view`);
  }

  // Restructured: the list equals the plan's entries, and clicking an entry selects its pass.
  const rsShown = await page.evaluate(() => {
    const t = (e, sel) => { const x = e.querySelector(sel); return x ? x.textContent : null; };
    const names = (e, sel) => { const x = e.querySelector(sel); return x ? [...x.querySelectorAll('.q')].map((q) => q.textContent) : null; };
    return [...document.querySelectorAll('.rslist .rs')].map((b) => ({
      kind: t(b, '.rkind'), pass: t(b, '.rpass'), joins: t(b, '.rjoins'), into: t(b, '.rinto'), resource: t(b, '.rres'),
      ahead: names(b, '.rahead'), after: names(b, '.rafter'), saved: t(b, '.rbytes .exact'), reason: t(b, '.rmsg')
    }));
  });
  c.eq(rsShown.length, restructure.length, 'restructure entries listed');
  restructure.forEach((x, i) => {
    const s = rsShown[i];
    if (!s) return;
    const w = `restructure entry ${i} (${x.kind} ${x.pass})`;
    c.eq(s.kind, x.kind, `${w} kind`);
    c.eq(s.pass, x.pass, `${w} pass`);
    c.eq(s.reason, x.reason, `${w} reason`);
    c.eq(s.joins, x.kind === 'moved' ? x.joins : null, `${w} joins`);
    c.eq(JSON.stringify(s.ahead), JSON.stringify(x.kind === 'moved' && x.ahead && x.ahead.length ? x.ahead : null), `${w} ahead`);
    c.eq(JSON.stringify(s.after), JSON.stringify(x.kind === 'moved' && x.after && x.after.length ? x.after : null), `${w} after`);
    c.eq(s.saved == null ? null : s.saved.replace(/[^0-9]/g, ''), x.kind === 'moved' && x.saved_bytes != null ? String(x.saved_bytes) : null, `${w} saved bytes`);
    c.eq(s.into, x.kind === 'copy_folded' ? x.into : null, `${w} into`);
    c.eq(s.resource, x.kind !== 'moved' && x.resource != null ? x.resource : null, `${w} resource`);
  });
  // Click every entry (the first ten): its pass column is selected and in view, and the resource it names.
  for (let i = 0; i < Math.min(restructure.length, rsShown.length, 10); i++) {
    const x = restructure[i];
    await page.locator('.rslist .rs').nth(i).click();
    const sel = await page.evaluate(() => {
      const h = document.querySelector('.colhead .pass.sel');
      const r = document.querySelector('.rowhead .res.sel');
      const s = document.getElementById('scroller').getBoundingClientRect();
      const b = h ? h.getBoundingClientRect() : null;
      return {
        p: h ? Number(h.dataset.p) : null, r: r ? Number(r.dataset.r) : null,
        info: document.querySelector('#passinfo .piname') ? document.querySelector('#passinfo .piname').textContent : null,
        visible: !!b && b.left >= s.left && b.right <= s.right + 1 && b.top >= s.top - 1 && b.bottom <= s.bottom + 1
      };
    });
    c.eq(sel.p, planPassIndex.has(x.pass) ? planPassIndex.get(x.pass) : null, `clicking restructure entry ${i}: selected pass column`);
    c.ok(sel.visible, `clicking restructure entry ${i}: the pass column is not scrolled into view`);
    c.eq(sel.info, x.pass, `clicking restructure entry ${i}: the selected-pass panel`);
    if (x.kind !== 'moved' && resIndex.has(x.resource)) c.eq(sel.r, resIndex.get(x.resource), `clicking restructure entry ${i}: selected resource row`);
  }

  // Dropped resolves: struck through in their cell, and the cell's tooltip gives the reason.
  for (const [i, x] of restructure.entries()) {
    if (x.kind !== 'resolve_dropped' || !planPassIndex.has(x.pass) || !resIndex.has(x.resource)) continue;
    const loc = page.locator(`.gbody .cell[data-p="${planPassIndex.get(x.pass)}"][data-r="${resIndex.get(x.resource)}"]`);
    const cell = await loc.evaluate((e) => ({ dropped: e.classList.contains('dropped') || !!e.querySelector('.xdrop'), deco: getComputedStyle(e.querySelector('.xdrop') || e).textDecorationLine }))
      .catch(() => null);
    if (!c.ok(cell, `restructure entry ${i}: no cell for the dropped resolve`)) continue;
    c.ok(cell.dropped && cell.deco.includes('line-through'), `restructure entry ${i}: the dropped resolve is not struck through`);
    const tip = await hoverTip(page, loc);
    c.ok(tip.text.includes('resolve dropped: ' + x.reason), `restructure entry ${i}: the cell's tooltip lacks the reason: ${JSON.stringify(tip.text)}`);
    c.eq(tip.foreign, 0, `restructure entry ${i}: elements in the cell tooltip that the viewer does not make`);
  }
  // Folded copies: their cells are marked as not running.
  for (const [pi, p] of planPasses.entries()) {
    if (p.culled || p.folded_into == null) continue;
    const cells = await page.evaluate((pi) => [...document.querySelectorAll(`.gbody .cell[data-p="${pi}"]`)].map((e) => e.classList.contains('folded')), pi);
    c.ok(cells.length > 0 && cells.every(Boolean), `folded pass ${p.name}: its cells are not all marked folded`);
  }
  await page.mouse.move(0, 0);

  // needed_by: why each pass is alive, as the selected-pass panel shows it.
  const needSteps = await followNeeds(page, c, planPasses, columns, graph, planPassIndex, resByName, resIndex);

  // Search: `/` focuses it, Enter jumps to the first match, Escape clears.
  const target = planPasses[Math.floor(planPasses.length / 2)];
  if (target) {
    await page.locator('body').click({ position: { x: 2, y: 2 } });
    await page.keyboard.press('/');
    c.eq(await page.evaluate(() => document.activeElement && document.activeElement.id), 'search', '`/` focuses the search box');
    await page.locator('#search').fill(target.name);
    await page.keyboard.press('Enter');
    const q = target.name.trim().toLowerCase();
    const firstPass = columns.find((i) => planPasses[i].name.toLowerCase().includes(q));
    const found = await page.evaluate(() => {
      const h = document.querySelector('.colhead .pass.sel');
      return {
        p: h ? Number(h.dataset.p) : null, hit: h ? h.classList.contains('hit') : false,
        count: document.getElementById('search-count').textContent,
        searching: document.body.classList.contains('searching')
      };
    });
    c.ok(found.searching, 'typing in the search box does not highlight');
    c.eq(found.p, firstPass, `search for ${JSON.stringify(target.name)}, Enter: selected pass`);
    c.ok(found.hit, 'the found pass is not marked as a match');
    c.ok(/^1 \/ \d+/.test(found.count), `search count reads ${JSON.stringify(found.count)}`);
    await page.keyboard.press('Escape');
    const cleared = await page.evaluate(() => ({
      value: document.getElementById('search').value,
      searching: document.body.classList.contains('searching'),
      hits: document.querySelectorAll('.hit').length
    }));
    c.eq(cleared.value, '', 'Escape clears the search box');
    c.eq(cleared.searching || cleared.hits > 0, false, 'Escape clears the highlights');
  }

  // Arrow keys move a cursor in the grid, which describes the cell under it.
  if (planPasses.length && gRes.length) {
    await page.focus('#scroller');
    await page.keyboard.press('Home');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowDown');
    const nav = await page.evaluate(() => ({
      status: document.getElementById('cursor-status').textContent,
      cursor: !document.querySelector('.cursor').hidden,
      tip: !document.getElementById('tip').hidden
    }));
    c.ok(nav.cursor && nav.status.length > 0, 'arrow keys: no cursor or no description of the cell');
    c.ok(nav.tip, 'arrow keys: the cell under the cursor has no tooltip');
  }

  // Memory and tile budgets: the memory figures are the plan's; the profile picker offers the
  // plan's profiles, and picking one marks exactly the render groups over its budget, with the
  // consequence in words, on their cards and in the list under the picker.
  if (plan.memory) {
    const shown = await page.evaluate(() => Object.fromEntries([...document.querySelectorAll('#tile .memory li')]
      .map((li) => [li.getAttribute('data-k'), li.querySelector('.exact').textContent.replace(/\D/g, '')])));
    for (const k of ['declared', 'allocated', 'transient']) {
      c.eq(shown[k], String(plan.memory[`${k}_bytes`]), `memory: ${k} bytes`);
    }
  }
  const profiles = [];
  groups.forEach((g) => (g.tile || []).forEach((t) => { if (!profiles.includes(t.profile)) profiles.push(t.profile); }));
  const offered = await page.evaluate(() => [...document.querySelectorAll('#tile button.tprof')].map((b) => b.getAttribute('data-profile')));
  c.eq(JSON.stringify(offered), JSON.stringify(profiles), 'tile profiles offered by the picker');
  for (const profile of profiles) {
    await page.locator(`#tile button.tprof[data-profile="${profile}"]`).click();
    const got = await page.evaluate((profile) => ({
      pressed: [...document.querySelectorAll('#tile button.tprof[aria-pressed="true"]')].map((b) => b.getAttribute('data-profile')),
      cards: [...document.querySelectorAll('#groups .gcard')].map((card) => {
        const line = card.querySelector('.gtile');
        return {
          g: Number(card.getAttribute('data-g')),
          over: card.classList.contains('tile-over'),
          profile: line ? line.getAttribute('data-profile') : null,
          text: line ? line.textContent : null
        };
      }),
      listed: [...document.querySelectorAll('#tile .tover li')].map((li) => Number(li.getAttribute('data-g')))
    }), profile);
    c.eq(JSON.stringify(got.pressed), JSON.stringify([profile]), `tile picker: pressed after picking ${profile}`);
    const overExpected = [];
    groups.forEach((g, gi) => {
      const fit = (g.tile || []).find((t) => t.profile === profile);
      const card = got.cards.find((x) => x.g === gi);
      if (!card) { c.fail(`tile ${profile}: no card for group ${gi}`); return; }
      if (!fit) {
        c.eq(card.profile, null, `tile ${profile}: group ${gi} has no entry but its card has a tile line`);
        return;
      }
      if (!fit.fits) overExpected.push(gi);
      c.eq(card.over, !fit.fits, `tile ${profile}: group ${gi} marked over budget`);
      c.eq(card.profile, profile, `tile ${profile}: group ${gi}'s tile line`);
      c.ok(card.text && card.text.includes(fit.consequence), `tile ${profile}: group ${gi} does not say ${JSON.stringify(fit.consequence)}`);
    });
    c.eq(JSON.stringify(got.listed), JSON.stringify(overExpected), `tile ${profile}: groups listed over budget`);
  }

  // Switching between compact and wide columns draws the same ops.
  await page.locator('#legend .mode').click();
  const after = await page.evaluate(() => ({
    ops: document.querySelectorAll('.gbody .op').length,
    passes: document.querySelectorAll('.colhead .pass').length
  }));
  c.eq(after.ops, expectedOps, 'ops in the grid after switching column width');
  c.eq(after.passes, planPasses.length, 'pass columns after switching column width');

  c.ok(readyMs > 0 && readyMs <= budgetMs, `rendered in ${readyMs} ms, over the ${budgetMs} ms budget`);
  c.failures.push(...problems);
  await page.close();
  const line = `${file}: ${planPasses.length} passes, ${gRes.length} resources, ${groups.length} groups, ` +
    `page ${size} bytes, ready in ${readyMs.toFixed(0)} ms (budget ${budgetMs} ms), ${dom.elements} elements, ` +
    `${restructure.length} restructured, ${needSteps} needed_by steps followed`;
  return { c, line };
}

async function main() {
  for (const p of pages) {
    if (!fs.existsSync(p)) { console.error(`test: no page at ${p}`); process.exit(2); }
  }
  const browser = await launch();
  let failed = 0;
  try {
    for (const file of pages) {
      let result;
      try {
        result = await testPage(browser.context, file);
      } catch (e) {
        result = { c: new Check(file), line: `${file}: crashed` };
        result.c.fail(`test crashed: ${e.stack || e.message}`);
      }
      const { c, line } = result;
      if (c.failures.length) {
        failed++;
        console.log(`FAIL ${line}`);
        for (const f of c.failures.slice(0, 40)) console.log(`  - ${f}`);
        if (c.failures.length > 40) console.log(`  … and ${c.failures.length - 40} more`);
      } else {
        console.log(`ok   ${line}`);
      }
    }
  } finally {
    await browser.close();
  }
  console.log(failed ? `${failed} of ${pages.length} pages failed` : `all ${pages.length} pages passed`);
  process.exit(failed ? 1 : 0);
}

main().catch((e) => { console.error(`test: ${e.stack || e.message}`); process.exit(1); });

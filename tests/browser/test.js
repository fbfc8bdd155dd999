#!/usr/bin/env node
// Browser tests of tilegraph's HTML plan viewer, in Debian's headless chromium.
//   node tests/browser/test.js [--budget-ms N] PAGE.html...
// Every page is checked the same way, against the data object embedded in it:
//  - no console errors, page errors or network requests; `data-ready` set within the budget
//    (navigation start to the viewer's ready mark; printed with the page size);
//  - one column per pass (names and culled state in order), one row per resource;
//  - every group's load and store ops (and resolves), attachment by attachment, as the grid and the
//    group list show them, in the row of the attachment's resource, coloured by cost;
//  - hovering an op shows its reason; hovering a group's store op shows why the group ended;
//  - traffic figures equal the plan's, and the per-group bytes add up to them;
//  - warnings listed, and clicking one selects its pass column;
//  - search: `/` focuses it, Enter jumps to the next match, Escape clears; arrow keys move in the grid;
//  - names are text: no element the viewer does not make exists, no injected script ran, and every
//    pass and resource name reads back exactly as the data has it.
// Exits non-zero on any failure.
'use strict';
const fs = require('fs');
const { launch, fileUrl } = require('./browser');

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

function attachments(group) {
  const list = (group.color || []).map((a, k) => Object.assign({ slot: 'c' + k }, a));
  if (group.depth) list.push(Object.assign({ slot: 'd' }, group.depth));
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
      passes: [...document.querySelectorAll('.colhead .pass')].map((e) => ({
        name: e.querySelector('.pname').textContent, culled: e.classList.contains('culled'),
        children: e.querySelector('.pname').children.length
      })),
      resources: [...document.querySelectorAll('.rowhead .res')].map((e) => ({
        name: e.querySelector('.rname').textContent, children: e.querySelector('.rname').children.length
      }))
    };
  });
  for (const t of dom.tags) c.ok(ALLOWED_TAGS.has(t), `an element the viewer never makes exists: <${t.toLowerCase()}>`);
  c.eq(dom.scripts, 2, 'script elements');
  c.eq(dom.pwned, undefined, 'window.__pwned (set by a script injected through a name)');

  // One column per pass, in declaration order; one row per resource.
  c.eq(dom.passes.length, planPasses.length, 'pass columns');
  if (graph.passes) c.eq(dom.passes.length, graph.passes.length, 'pass columns against the description');
  planPasses.forEach((p, i) => {
    const d = dom.passes[i];
    if (!d) return;
    c.eq(d.name, p.name, `pass column ${i} name`);
    c.eq(d.culled, !!p.culled, `pass column ${i} (${p.name}) culled`);
    c.eq(d.children, 0, `pass column ${i} name has child elements`);
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
    const exA = a.slot === 'd' ? ex.depth : (ex.color || [])[Number(a.slot.slice(1))];
    if (exA && exA[field]) c.ok(tip.text.includes(exA[field]), `${where}: tooltip lacks the plan's reason ${JSON.stringify(exA[field])}`);
    if (edge === 'store') c.ok(tip.text.includes(`group ended: ${groups[gi].break}`), `${where}: tooltip does not say why the group ended`);
  }
  // Hover a pass header too: names in tooltips are text.
  if (planPasses.length) {
    const tip = await hoverTip(page, page.locator('.colhead .pass').first());
    c.ok(!tip.hidden && tip.text.includes(planPasses[0].name), 'hovering the first pass: tooltip lacks its name');
    c.eq(tip.foreign, 0, 'elements in the pass tooltip that the viewer does not make');
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

  // Search: `/` focuses it, Enter jumps to the first match, Escape clears.
  const target = planPasses[Math.floor(planPasses.length / 2)];
  if (target) {
    await page.locator('body').click({ position: { x: 2, y: 2 } });
    await page.keyboard.press('/');
    c.eq(await page.evaluate(() => document.activeElement && document.activeElement.id), 'search', '`/` focuses the search box');
    await page.locator('#search').fill(target.name);
    await page.keyboard.press('Enter');
    const q = target.name.trim().toLowerCase();
    const firstPass = planPasses.findIndex((p) => p.name.toLowerCase().includes(q));
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
    `page ${size} bytes, ready in ${readyMs.toFixed(0)} ms (budget ${budgetMs} ms), ${dom.elements} elements`;
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

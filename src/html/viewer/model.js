// tilegraph plan viewer: draws the data object embedded in #tilegraph-data.
// Every name in the data is untrusted: it only ever reaches the page through textContent or an
// attribute value, never as markup. Class names come from fixed tables, never from the data.
// Viewer, part 1 of 5 (src/html.rs joins the parts in order into one script; this part opens its
// function, the last closes it): helpers, fixed vocabulary, and the model of the embedded data,
// with the bytes and reasons the plan sent.
(function () {
  'use strict';

  var doc = document;
  var body = doc.body;
  function $(id) { return doc.getElementById(id); }
  function el(tag, cls, text) {
    var e = doc.createElement(tag);
    if (cls) e.className = cls;
    if (text != null) e.textContent = text;
    return e;
  }
  function isObj(x) { return x !== null && typeof x === 'object' && !Array.isArray(x); }
  function arr(x) { return Array.isArray(x) ? x : []; }
  function str(x) { return typeof x === 'string' ? x : x == null ? '' : String(x); }
  function int(x) { return Number.isInteger(x) ? x : null; }
  function num(x, d) { return typeof x === 'number' && isFinite(x) ? x : d; }
  function has(o, k) { return Object.prototype.hasOwnProperty.call(o, k); }

  function fail(msg) {
    console.error('tilegraph viewer: ' + msg);
    body.setAttribute('data-error', msg);
    var box = el('p', 'fatal', 'The plan could not be shown: ' + msg);
    var main = doc.querySelector('main');
    (main || body).insertBefore(box, (main || body).firstChild);
  }

  performance.mark('tilegraph-start');
  var data;
  try {
    data = JSON.parse($('tilegraph-data').textContent);
    if (!isObj(data)) throw new Error('the embedded data is not a JSON object');
  } catch (e) {
    fail('could not read the embedded data: ' + e.message);
    return;
  }

  // ---------------------------------------------------------------- fixed vocabulary

  // Accesses as the grid shows them: short label (compact), label, and whether they read/write.
  var ACCESS = {
    clear: ['C', 'clear', 'w'],
    write: ['W', 'write', 'w'],
    read_write: ['RW', 'read_write', 'rw'],
    read: ['R', 'read', 'r'],
    sample: ['S', 'sample', 'r'],
    input: ['I', 'input', 'r'],
    storage_read: ['St', 'storage', 'r'],
    storage_write: ['St', 'storage', 'w'],
    storage_read_write: ['St', 'storage', 'rw'],
    copy_src: ['CS', 'copy_src', 'r'],
    copy_dst: ['CD', 'copy_dst', 'w'],
    resolve: ['Rs', 'resolve', 'w']
  };
  var LISTS = ['sample', 'input', 'storage_read', 'storage_write', 'storage_read_write', 'copy_src', 'copy_dst'];
  // Ops: short label and whether they move bytes (the guide's traffic model).
  var LOAD = { clear: ['C', false], load: ['L', true], dont_care: ['DC', false] };
  var STORE = { store: ['S', true], discard: ['D', false], none: ['N', false] };
  var GROUP_TYPES = { render: 't-render', compute: 't-compute', copy: 't-copy' };
  // Texel bytes (block copy size) of common formats, as the guide's traffic model counts them.
  var TEXEL = {
    depth16unorm: 2, depth24plus: 4, 'depth24plus-stencil8': 4, depth32float: 4,
    'depth32float-stencil8': 8, stencil8: 1, rgb10a2unorm: 4, rgb10a2uint: 4,
    rg11b10ufloat: 4, rg11b10float: 4, rgb9e5ufloat: 4, r64uint: 8
  };
  function texelBytes(format) {
    var f = str(format).toLowerCase().replace(/-srgb$/, '');
    if (has(TEXEL, f)) return TEXEL[f];
    var m = /^(r|rg|rgba|bgra)(8|16|32|64)(unorm|snorm|uint|sint|float)$/.exec(f);
    return m ? m[1].length * (Number(m[2]) / 8) : null;
  }

  var NF = new Intl.NumberFormat('en-US');
  function fmtInt(n) { return n == null ? '?' : NF.format(n); }
  function fmtBytes(n) {
    if (n == null) return '?';
    var units = ['B', 'kB', 'MB', 'GB', 'TB', 'PB'];
    var u = 0;
    while (Math.abs(n) >= 1000 && u < units.length - 1) { n /= 1000; u++; }
    return (u === 0 ? String(n) : n.toFixed(n < 10 ? 2 : 1)) + ' ' + units[u];
  }
  // Names may carry bidirectional controls: a right-to-left override, or a paragraph separator
  // that ends an isolate early, would reorder the text after the name. So names shown inside other
  // text sit in their own inline-block spans (`.q`, isolated), and their text stays the exact name.
  // The same sentence as DOM: `quoted` names in isolating spans, the text unchanged.
  function quotedInto(parent, s) {
    var parts = str(s).split('`');
    parts.forEach(function (part, k) {
      if (k % 2 === 0) { if (part) parent.appendChild(doc.createTextNode(part)); return; }
      if (k === parts.length - 1) { parent.appendChild(doc.createTextNode('`' + part)); return; }
      parent.appendChild(doc.createTextNode('`'));
      parent.appendChild(el('span', 'q', part));
      parent.appendChild(doc.createTextNode('`'));
    });
    return parent;
  }
  function plural(n, one, many) { return fmtInt(n) + ' ' + (n === 1 ? one : many || one + 's'); }

  // ---------------------------------------------------------------- model

  var graph = isObj(data.graph) ? data.graph : {};
  var plan = isObj(data.plan) ? data.plan : {};
  var explain = isObj(data.explain) ? data.explain : {};
  var exGroups = arr(explain.groups);

  var descPass = new Map();
  arr(graph.passes).forEach(function (p) { if (isObj(p)) descPass.set(str(p.name), p); });
  var planRes = new Map();
  arr(plan.resources).forEach(function (r) { if (isObj(r)) planRes.set(str(r.name), r); });

  var resources = (arr(graph.resources).length ? arr(graph.resources) : arr(plan.resources))
    .filter(isObj).map(function (rd, i) {
      var name = str(rd.name);
      var pr = planRes.get(name) || {};
      var tex = isObj(rd.texture) ? rd.texture : null;
      var buf = isObj(rd.buffer) ? rd.buffer : null;
      var size = tex ? arr(tex.size) : [];
      return {
        i: i, name: name, lname: name.toLowerCase(), desc: rd,
        texture: !!tex, buffer: !!buf,
        format: tex ? str(tex.format) : '',
        w: num(size[0], 0), h: num(size[1], 0), layers: num(size[2], 1),
        mips: num(tex && tex.mips, 1), samples: num(tex && tex.samples, 1),
        bufSize: buf ? num(buf.size, null) : null,
        imported: isObj(rd.import) ? rd.import : null,
        transient: pr.transient === true, culled: pr.culled === true,
        blocked: pr.transient_blocked != null ? str(pr.transient_blocked) : null, blockedBytes: num(pr.transient_blocked_bytes, null),
        first: int(pr.first_group), last: int(pr.last_group), physical: int(pr.physical),
        inPlan: planRes.has(name)
      };
    });
  var resIndex = new Map();
  resources.forEach(function (r) { if (!resIndex.has(r.name)) resIndex.set(r.name, r.i); });
  function resOf(name) { var i = resIndex.get(str(name)); return i == null ? -1 : i; }

  var passes = (arr(plan.passes).length ? arr(plan.passes) : arr(graph.passes))
    .filter(isObj).map(function (pp, i) {
      var name = str(pp.name);
      var desc = descPass.get(name) || {};
      return {
        i: i, name: name, lname: name.toLowerCase(), desc: desc, type: str(desc.type),
        culled: pp.culled === true, group: int(pp.group), acc: [],
        // Why it is alive (a pass name, `import:NAME` or `side_effects`); undefined where the plan
        // predates `needed_by`.
        need: has(pp, 'needed_by') ? (pp.needed_by == null ? null : str(pp.needed_by)) : undefined,
        folded: pp.folded_into == null ? null : str(pp.folded_into),
        pos: null, col: -1, rs: [], into: []
      };
    });
  var passIndex = new Map();
  passes.forEach(function (p) { if (!passIndex.has(p.name)) passIndex.set(p.name, p.i); });
  function passOf(name) { var i = passIndex.get(str(name)); return i == null ? -1 : i; }

  // Columns: the live passes in execution order (the plan's `order`; declaration order for a plan
  // from before restructuring), then the copies folded into a resolve, then the culled passes.
  // seq[k] is the pass shown in the k-th column; p.pos is its place in execution order.
  var seq = [];
  (function () {
    var placed = new Uint8Array(passes.length);
    function place(i) { if (i >= 0 && !placed[i]) { placed[i] = 1; passes[i].col = seq.length; seq.push(i); } }
    function running(p) { return !p.culled && p.folded == null; }
    arr(plan.order).forEach(function (n) { var i = passOf(n); if (i >= 0 && running(passes[i])) place(i); });
    passes.forEach(function (p) { if (running(p)) place(p.i); });
    seq.forEach(function (i, k) { passes[i].pos = k; });
    passes.forEach(function (p) { if (p.folded != null && !p.culled) place(p.i); });
    passes.forEach(function (p) { place(p.i); });
  })();
  var running = passes.filter(function (p) { return p.pos != null; }).length;
  var declaredRank = new Map(); // pass -> its place among the running passes in declaration order
  passes.forEach(function (p) { if (p.pos != null) declaredRank.set(p.i, declaredRank.size); });
  var restructure = arr(plan.restructure).filter(isObj);
  restructure.forEach(function (x, xi) {
    var p = passOf(x.pass);
    if (p >= 0) passes[p].rs.push(xi);
  });

  // A subresource suffix: `@mip` and `#layer` where the entry names one (or the texture has several).
  function subLabel(r, mip, layer) {
    var res = resources[r];
    var s = '';
    if (mip != null && (mip > 0 || (res && res.mips > 1))) s += '@' + mip;
    if (layer != null && (layer > 0 || (res && res.layers > 1))) s += '#' + layer;
    return s;
  }
  // How a slot reads: `color 0`, `depth`, `color 1 view 1` in a multiview group.
  function slotName(slot) {
    var parts = slot.slice(1).split('v');
    var name = slot.charAt(0) === 'd' ? 'depth' : 'color ' + parts[0];
    return parts.length > 1 ? name + ' view ' + parts[1] : name;
  }
  function entryMip(e) { return isObj(e) && int(e.mip) != null ? e.mip : 0; }
  function entryLayer(e) { return isObj(e) && int(e.layer) != null ? e.layer : 0; }

  passes.forEach(function (p) {
    var d = p.desc;
    function add(resource, kind, mip, layer, slot, whole) {
      p.acc.push({ r: resOf(resource), res: str(resource), kind: kind, mip: mip, layer: layer, slot: slot, whole: whole });
    }
    arr(d.color).forEach(function (c, k) {
      if (!isObj(c)) return;
      add(c.resource, str(c.access), entryMip(c), entryLayer(c), 'c' + k, false);
      if (c.resolve != null) add(c.resolve, 'resolve', 0, 0, 'c' + k, false);
    });
    if (isObj(d.depth)) add(d.depth.resource, str(d.depth.access), entryMip(d.depth), entryLayer(d.depth), 'd', false);
    LISTS.forEach(function (list) {
      arr(d[list]).forEach(function (e) {
        if (typeof e === 'string') add(e, list, null, null, null, true);
        else if (isObj(e)) add(e.resource, list, entryMip(e), entryLayer(e), null, false);
      });
    });
  });

  // Restructuring as the grid marks it: a declared resolve that was dropped (a.dropped), and a
  // resolve that now writes a folded copy's destination (a.redirect); both the entry's index.
  restructure.forEach(function (x, xi) {
    var p = passOf(x.pass);
    if (p < 0) return;
    if (x.kind === 'resolve_dropped') {
      passes[p].acc.forEach(function (a) { if (a.kind === 'resolve' && a.res === str(x.resource)) a.dropped = xi; });
    } else if (x.kind === 'copy_folded') {
      var into = passOf(x.into);
      if (into < 0) return;
      passes[into].into.push(xi);
      var src = passes[p].acc.filter(function (a) { return a.kind === 'copy_src'; }).map(function (a) { return a.res; });
      passes[into].acc.forEach(function (a) {
        if (a.kind === 'resolve' && a.dropped == null && src.indexOf(a.res) >= 0) a.redirect = xi;
      });
    }
  });

  // Bytes of one subresource (the guide's traffic model); null when the format's texel size is unknown.
  function subBytes(r, mip, samples) {
    var res = resources[r];
    if (!res || !res.texture) return null;
    var t = texelBytes(res.format);
    if (t == null) return null;
    return Math.max(1, Math.floor(res.w / Math.pow(2, mip))) * Math.max(1, Math.floor(res.h / Math.pow(2, mip))) * t * samples;
  }
  function addBytes(a, b) { return a == null || b == null ? null : a + b; }

  var groupById = new Map();
  var groups = arr(plan.groups).filter(isObj).map(function (g, gi) {
    var ex = isObj(exGroups[gi]) ? exGroups[gi] : {};
    var exColor = arr(ex.color);
    var G = {
      i: gi, index: int(g.index) != null ? g.index : gi, type: str(g.type),
      names: arr(g.passes).map(str), passes: [], atts: [], brk: str(g['break']), ex: ex,
      first: null, last: null, tile: new Map()
    };
    arr(g.tile).filter(isObj).forEach(function (t) { G.tile.set(str(t.profile), t); });
    function att(a, slot, ex) {
      var r = resOf(a.resource);
      var mip = int(a.mip) != null ? a.mip : 0;
      var layer = int(a.layer) != null ? a.layer : 0;
      var A = {
        g: gi, slot: slot, r: r, res: str(a.resource), mip: mip, layer: layer,
        load: str(a.load), store: str(a.store), readOnly: a.read_only === true,
        resolve: a.resolve == null ? null : str(a.resolve), resolveR: a.resolve == null ? -1 : resOf(a.resolve),
        ex: isObj(ex) ? ex : {}
      };
      var b = r < 0 ? null : subBytes(r, mip, resources[r].samples);
      A.bytesLoad = A.load === 'load' ? b : 0;
      A.bytesStore = A.store === 'store' ? b : 0;
      A.bytesResolve = A.resolve != null ? (r < 0 ? null : subBytes(r, mip, 1)) : 0;
      A.bytes = addBytes(addBytes(A.bytesLoad, A.bytesStore), A.bytesResolve);
      A.label = A.res + (r < 0 ? '' : subLabel(r, mip, layer));
      return A;
    }
    // An attachment of a multiview group is its first view with the others in `views`, in the
    // plan and in its reasons alike: slots name the view, `c0v1`.
    var views = int(g.multiview) != null && g.multiview > 1 ? g.multiview : 1;
    function viewOf(k) { return views > 1 ? 'v' + k : ''; }
    function push(a, slot, exA) {
      if (!isObj(a)) return;
      G.atts.push(att(a, slot + viewOf(0), exA));
      var exViews = isObj(exA) ? arr(exA.views) : [];
      arr(a.views).forEach(function (v, k) {
        if (isObj(v)) G.atts.push(att(v, slot + viewOf(k + 1), exViews[k]));
      });
    }
    arr(g.color).forEach(function (a, k) { push(a, 'c' + k, exColor[k]); });
    push(g.depth, 'd', ex.depth);
    groupById.set(G.index, G);
    return G;
  });
  seq.forEach(function (pi) {
    var p = passes[pi];
    var G = p.group == null ? null : groupById.get(p.group);
    p.G = G || null;
    if (!G) return;
    G.passes.push(p.i);
    if (G.first == null) G.first = p.i;
    G.last = p.i;
  });

  // A group's planned and naive bytes are the plan's (`explain`); a page without them shows none.
  groups.forEach(function (G) {
    G.bytes = typeof G.ex.bytes === 'number' ? G.ex.bytes : null;
    G.naive = typeof G.ex.naive_bytes === 'number' ? G.ex.naive_bytes : null;
  });

  var traffic = isObj(plan.traffic) ? plan.traffic : {};
  var warnings = arr(plan.warnings).filter(isObj);
  // ---------------------------------------------------------------- reasons

  // The reasons are the plan's (`explain`), sentences the compiler wrote; the viewer adds none.
  function sent(x) { return typeof x === 'string' && x ? x : 'not given in the page data'; }
  function loadReason(A) { return sent(A.ex.load_reason); }
  function storeReason(A) { return sent(A.ex.store_reason); }
  function breakReason(G) { return sent(G.ex.break_reason); }


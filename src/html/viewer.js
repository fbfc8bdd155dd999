// tilegraph plan viewer: draws the data object embedded in #tilegraph-data.
// Every name in the data is untrusted: it only ever reaches the page through textContent or an
// attribute value, never as markup. Class names come from fixed tables, never from the data.
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
  var BREAKS = {
    not_render: 'this or the next pass is a compute or copy pass, which cannot share a render pass',
    samples_group_output: 'the next pass samples a subresource written inside this group, so it must be stored first',
    inputs_group_output: 'the next pass reads (input) a subresource written inside this group; with framebuffer fetch or input attachments, which wgpu lacks, they would merge',
    attachments_differ: 'the next pass has a different attachment set (resources, slots, size or sample count)',
    clears_group_attachment: 'the next pass clears an attachment already used in this group',
    resolve: 'this group resolves its multisampled attachment and the next pass would keep drawing',
    end_of_graph: 'no live pass follows'
  };
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

  // Naive plan (the guide's traffic model): every live render pass its own render pass, load unless it clears,
  // store always, resolves as declared.
  function naivePassBytes(p) {
    if (p.culled || p.type !== 'render') return 0;
    var total = 0;
    p.acc.forEach(function (a) {
      if (a.slot == null || total == null) return;
      if (a.kind === 'resolve') { total = addBytes(total, a.r < 0 ? null : subBytes(a.r, 0, 1)); return; }
      if (a.r < 0) { total = null; return; }
      var b = subBytes(a.r, a.mip, resources[a.r].samples);
      total = addBytes(total, a.kind === 'clear' ? b : addBytes(b, b));
    });
    return total;
  }
  // A resolve counts the attachment's bytes at one sample: the target's size, as declared.
  groups.forEach(function (G) {
    var planned = 0;
    G.atts.forEach(function (A) { planned = addBytes(planned, A.bytes); });
    var naive = 0;
    G.passes.forEach(function (p) { naive = addBytes(naive, naivePassBytes(passes[p])); });
    G.bytesComputed = planned;
    G.bytes = typeof G.ex.bytes === 'number' ? G.ex.bytes : planned;
    G.naive = typeof G.ex.naive_bytes === 'number' ? G.ex.naive_bytes : naive;
  });

  var traffic = isObj(plan.traffic) ? plan.traffic : {};
  var warnings = arr(plan.warnings).filter(isObj);
  // ---------------------------------------------------------------- reasons

  function sameSub(acc, A) {
    return acc.r === A.r && (acc.whole || (acc.mip === A.mip && acc.layer === A.layer));
  }
  // The running pass after pass `after` in execution order.
  function nextLivePass(after) {
    var k = passes[after].pos;
    return k != null && k + 1 < running ? passes[seq[k + 1]] : null;
  }
  function loadReason(A) {
    if (typeof A.ex.load_reason === 'string' && A.ex.load_reason) return A.ex.load_reason;
    var G = groups[A.g];
    var first = null;
    G.passes.some(function (pi) {
      return passes[pi].acc.some(function (a) {
        if (a.slot != null && a.kind !== 'resolve' && sameSub(a, A)) { first = { p: passes[pi], a: a }; return true; }
        return false;
      });
    });
    var who = first ? '`' + first.p.name + '` ' : 'the first pass ';
    var acc = first ? first.a.kind : '';
    var s;
    if (A.load === 'load') s = who + 'needs the prior contents (' + (acc || 'read') + ') and an earlier pass or the import provides them';
    else if (A.load === 'dont_care') s = who + 'overwrites every pixel (write) and the DontCare token was given, so nothing is loaded or cleared';
    else if (A.load === 'clear') {
      if (acc === 'clear') s = who + 'clears it (clear access)';
      else if (acc === 'write') s = who + 'overwrites every pixel (write); without the DontCare token it is cleared';
      else s = who + 'reads it (' + (acc || 'read') + ') before any content exists, so it starts from its clear value';
    } else s = 'load op ' + (A.load || 'missing');
    return s + ' (inferred by the viewer; the plan gave no reason)';
  }
  function storeReason(A) {
    if (typeof A.ex.store_reason === 'string' && A.ex.store_reason) return A.ex.store_reason;
    var G = groups[A.g];
    var res = resources[A.r];
    var s;
    if (A.store === 'none') s = 'read-only depth: every pass only read it, so there is nothing to write back';
    else if (A.store === 'discard') s = 'no live pass after this group reads it' + (res && res.imported ? ' and the import is not kept' : '');
    else if (A.store === 'store') {
      var next = null;
      for (var k = G.last == null || passes[G.last].pos == null ? 0 : passes[G.last].pos + 1; k < running && !next; k++) {
        var np = passes[seq[k]];
        np.acc.forEach(function (a) { if (!next && sameSub(a, A)) next = { p: np, a: a }; });
      }
      if (next) s = 'its content is needed after this group: next use `' + next.p.name + '` (' + next.a.kind + ')';
      else if (res && res.imported) s = 'it is an import kept after the frame (after: ' + str(res.imported.after) + ')';
      else s = 'its content is needed after this group';
    } else s = 'store op ' + (A.store || 'missing');
    return s + ' (inferred by the viewer; the plan gave no reason)';
  }
  function breakReason(G) {
    if (typeof G.ex.break_reason === 'string' && G.ex.break_reason) return G.ex.break_reason;
    var s = has(BREAKS, G.brk) ? BREAKS[G.brk] : 'break ' + (G.brk || 'not given');
    var next = G.last == null ? null : nextLivePass(G.last);
    if (next && G.brk !== 'end_of_graph') s += ' (next live pass: `' + next.name + '`)';
    return s;
  }

  // ---------------------------------------------------------------- summary, traffic, warnings

  var nCulled = passes.filter(function (p) { return p.culled; }).length;
  var nFolded = passes.length - nCulled - running;
  var RS_KINDS = { moved: 'moved', resolve_dropped: 'resolve dropped', copy_folded: 'copy folded' };
  function rsSummary() {
    if (!Array.isArray(plan.restructure)) return null;
    if (!restructure.length) return 'declared order kept';
    var n = {};
    restructure.forEach(function (x) { var k = str(x.kind); n[k] = (n[k] || 0) + 1; });
    return 'restructured: ' + Object.keys(n).map(function (k) {
      return fmtInt(n[k]) + ' ' + (has(RS_KINDS, k) ? RS_KINDS[k] : k);
    }).join(', ');
  }
  var summary = $('summary');
  [
    plural(passes.length, 'pass', 'passes') + ' (' + fmtInt(running) + ' run, ' +
      (nFolded ? fmtInt(nFolded) + ' folded, ' : '') + fmtInt(nCulled) + ' culled)',
    rsSummary(),
    plural(groups.length, 'group'),
    plural(resources.length, 'resource') + ' (' + fmtInt(resources.filter(function (r) { return r.transient; }).length) + ' transient, ' +
      fmtInt(resources.filter(function (r) { return r.imported; }).length) + ' imported, ' +
      fmtInt(resources.filter(function (r) { return r.culled; }).length) + ' culled)',
    plural(warnings.length, 'warning')
  ].forEach(function (t) { if (t != null) summary.appendChild(el('span', 'sumitem', t)); });

  (function drawTraffic() {
    var sec = $('traffic');
    var fps = num(traffic.fps, 60);
    // What the declared order would move: shown when restructuring changed it. The plan gives it
    // per frame; per second is per frame times fps, like the other two.
    var declared = num(traffic.declared_bytes_per_frame, null);
    var fig = {
      bytes_per_frame: num(traffic.bytes_per_frame, null), bytes_per_second: num(traffic.bytes_per_second, null),
      naive_bytes_per_frame: num(traffic.naive_bytes_per_frame, null), naive_bytes_per_second: num(traffic.naive_bytes_per_second, null),
      declared_bytes_per_frame: declared, declared_bytes_per_second: declared == null ? null : declared * fps
    };
    var rows = [['planned', 'bytes_per_frame', 'bytes_per_second']];
    if (declared != null && declared !== fig.bytes_per_frame) rows.push(['declared order', 'declared_bytes_per_frame', 'declared_bytes_per_second']);
    rows.push(['naive', 'naive_bytes_per_frame', 'naive_bytes_per_second']);
    var max = Math.max(num(traffic.bytes_per_frame, 0), num(traffic.naive_bytes_per_frame, 0), num(declared, 0), 1);
    var table = el('table', 'tt');
    var head = el('tr');
    ['', 'per frame', 'per second at ' + fmtInt(fps) + ' fps', ''].forEach(function (t) { head.appendChild(el('th', null, t)); });
    table.appendChild(head);
    rows.forEach(function (row) {
      var tcls = row[0] === 'declared order' ? 'declared' : row[0];
      var tr = el('tr', 'tr-' + tcls);
      tr.appendChild(el('th', null, row[0]));
      [row[1], row[2]].forEach(function (k) {
        var v = fig[k];
        var td = el('td', 'num');
        td.setAttribute('data-k', k);
        td.appendChild(el('span', 'exact', fmtInt(v) + ' B'));
        td.appendChild(el('span', 'human', ' (' + fmtBytes(v) + (k.indexOf('second') >= 0 ? '/s' : '') + ')'));
        tr.appendChild(td);
      });
      var barTd = el('td', 'bartd');
      var bar = el('div', 'tbar ' + tcls);
      bar.style.width = (100 * num(fig[row[1]], 0) / max).toFixed(2) + '%';
      barTd.appendChild(bar);
      tr.appendChild(barTd);
      table.appendChild(tr);
    });
    sec.appendChild(table);
    var planned = num(traffic.bytes_per_frame, null);
    var naive = num(traffic.naive_bytes_per_frame, null);
    var notes = el('p', 'tnotes');
    if (planned != null && naive != null && naive > 0) {
      notes.appendChild(el('span', 'saved', 'saved ' + fmtBytes(naive - planned) + ' per frame (' + (100 * (naive - planned) / naive).toFixed(1) + '%)'));
    }
    if (planned != null && declared != null && declared !== planned && declared > 0) {
      var d = declared - planned;
      notes.appendChild(el('span', 'saved rsaved', 'restructuring ' + (d > 0 ? 'saved ' : 'added ') + fmtBytes(Math.abs(d)) +
        ' per frame against the declared order (' + (100 * Math.abs(d) / declared).toFixed(1) + '%)'));
    }
    if (traffic.sampled_bytes_per_frame != null) {
      notes.appendChild(el('span', 'sampled', 'sampled and input reads, not counted above: ' + fmtBytes(num(traffic.sampled_bytes_per_frame, null)) + ' per frame'));
    }
    notes.appendChild(el('span', 'model', 'attachments only, uncompressed: load and store move the subresource\u2019s bytes, a resolve its bytes at one sample; clear, dont_care, discard and none move nothing'));
    sec.appendChild(notes);
    // The per-group figures must add up to the plan's totals; say so when they do not.
    var sumP = 0, sumN = 0;
    groups.forEach(function (G) { sumP = addBytes(sumP, G.bytes); sumN = addBytes(sumN, G.naive); });
    [[sumP, planned, 'planned'], [sumN, naive, 'naive']].forEach(function (c) {
      if (c[1] != null && c[0] !== c[1]) {
        sec.appendChild(el('p', 'mismatch', 'The per-group ' + c[2] + ' figures add up to ' + fmtInt(c[0]) +
          ' B, the plan\u2019s total is ' + fmtInt(c[1]) + ' B (unknown texel size or a different model).'));
      }
    });
  })();

  // Tile profiles the plan reports (the tool's --tile), in the plan's order; one is picked at a
  // time, and the group cards say how each group fares on it.
  var tileProfiles = [];
  groups.forEach(function (G) { G.tile.forEach(function (t, name) { if (tileProfiles.indexOf(name) < 0) tileProfiles.push(name); }); });
  var tileProfile = tileProfiles.length ? tileProfiles[0] : null;
  function tileUnit(t) { return t.memoryless != null ? 'B of colour a sample' : 'B a pixel'; }
  // Budgets as the vendors quote them: bytes a pixel or a sample, GMEM in MiB.
  function tileBudget(t) {
    var b = int(t.budget);
    if (b == null) return '?';
    return b >= 1048576 ? fmtInt(b / 1048576) + ' MiB of GMEM' : fmtInt(b) + ' B';
  }
  function tileLine(t) {
    return str(t.profile) + ': ' + fmtInt(int(t.bytes_per_pixel)) + ' ' + tileUnit(t) + ' against ' +
      tileBudget(t) + (t.fits === true ? ', fits' : ', over budget');
  }
  (function drawTile() {
    var sec = $('tile');
    var m = isObj(plan.memory) ? plan.memory : null;
    if (m) {
      var declared = num(m.declared_bytes, null), allocated = num(m.allocated_bytes, null);
      var ul = el('ul', 'memory');
      [['declared', declared, 'every live graph-owned resource allocated on its own'],
        ['allocated', allocated, 'the pooled physical resources' + (declared && allocated != null && declared > 0
          ? ' (' + (100 * (declared - allocated) / declared).toFixed(1) + '% less)' : '')],
        ['transient', num(m.transient_bytes, null), 'of those, memoryless on tilers']].forEach(function (row) {
        var li = el('li');
        li.setAttribute('data-k', row[0]);
        li.appendChild(el('span', 'mkind', row[0]));
        li.appendChild(el('span', 'exact', fmtInt(row[1]) + ' B'));
        li.appendChild(el('span', 'human', ' (' + fmtBytes(row[1]) + ')'));
        li.appendChild(el('span', 'mwhy', ' ' + row[2]));
        ul.appendChild(li);
      });
      sec.appendChild(ul);
    }
    if (!tileProfiles.length) {
      sec.appendChild(el('p', 'none', 'No tile profile in this plan: `tilegraph plan FILE --tile mali-g52 --tile adreno-630 \u2026` reports how each render group fits a tiler\u2019s on-chip budget.'));
    } else {
      var picker = el('div', 'tpicker');
      picker.setAttribute('role', 'group');
      picker.setAttribute('aria-label', 'Tile profile');
      picker.appendChild(el('span', 'tplabel', 'Tile profile: '));
      tileProfiles.forEach(function (name) {
        var b = el('button', 'tprof', name);
        b.type = 'button';
        b.setAttribute('data-profile', name);
        picker.appendChild(b);
      });
      sec.appendChild(picker);
      var verdict = el('div', 'tverdict');
      verdict.setAttribute('aria-live', 'polite');
      sec.appendChild(verdict);
      picker.addEventListener('click', function (ev) {
        var b = ev.target.closest('button.tprof');
        if (!b) return;
        tileProfile = b.getAttribute('data-profile');
        showTile();
        drawGroups();
      });
    }
    sec.appendChild(el('p', 'model', 'A model, not a measurement: attachment bytes at the traffic model\u2019s texel sizes against each vendor\u2019s documented budget (the guide gives the sources); memory counts every mip and layer \u00d7 samples, without a driver\u2019s padding or compression.'));
  })();
  function showTile() {
    var sec = $('tile');
    sec.querySelectorAll('button.tprof').forEach(function (b) {
      b.setAttribute('aria-pressed', b.getAttribute('data-profile') === tileProfile ? 'true' : 'false');
    });
    var verdict = sec.querySelector('.tverdict');
    if (!verdict) return;
    verdict.textContent = '';
    var render = groups.filter(function (G) { return G.tile.has(tileProfile); });
    var over = render.filter(function (G) { return G.tile.get(tileProfile).fits !== true; });
    verdict.appendChild(el('p', 'tsum', fmtInt(over.length) + ' of ' + plural(render.length, 'render group') + ' over the ' + tileProfile + ' budget'));
    if (!over.length) return;
    var ul = el('ul', 'tover');
    over.forEach(function (G) {
      var t = G.tile.get(tileProfile);
      var li = el('li');
      li.setAttribute('data-g', String(G.i));
      li.appendChild(el('span', 'gidx', '#' + G.index));
      li.appendChild(el('span', 'tnames', G.names.join(' + ')));
      li.appendChild(el('span', 'tline', tileLine(t)));
      li.appendChild(el('span', 'tcons', str(t.consequence)));
      ul.appendChild(li);
    });
    verdict.appendChild(ul);
  }
  showTile();

  var warnEls = [];
  (function drawWarnings() {
    var sec = $('warnings');
    if (!warnings.length) { sec.appendChild(el('p', 'none', 'No warnings.')); return; }
    var ul = el('ul', 'warnlist');
    warnings.forEach(function (w, wi) {
      var li = el('li');
      var b = el('button', 'warn');
      b.type = 'button';
      b.setAttribute('data-w', String(wi));
      b.appendChild(el('span', 'wkind', str(w.kind)));
      var p = passIndex.get(str(w.pass));
      if (w.pass != null) b.appendChild(el('span', 'wpass', str(w.pass)));
      if (w.resource != null) b.appendChild(el('span', 'wres', str(w.resource)));
      b.appendChild(quotedInto(el('span', 'wmsg'), w.message));
      if (p == null) b.classList.add('nolink');
      li.appendChild(b);
      ul.appendChild(li);
      warnEls.push({ el: li, w: w, p: p == null ? -1 : p, r: w.resource == null ? -1 : resOf(w.resource) });
    });
    sec.appendChild(ul);
    ul.addEventListener('click', function (ev) {
      var b = ev.target.closest('button.warn');
      if (!b) return;
      var W = warnEls[Number(b.getAttribute('data-w'))];
      if (W.r >= 0) selectRes(W.r, false);
      if (W.p >= 0) selectPass(W.p, true);
    });
  })();

  // One restructure entry as DOM: kind, pass, what it did (names as text), and the reason.
  var rsEls = [];
  (function drawRestructure() {
    var sec = $('restructure');
    if (!Array.isArray(plan.restructure)) {
      sec.appendChild(el('p', 'none', 'The plan does not say (a compiler from before restructuring): passes run as declared.'));
      return;
    }
    if (!restructure.length) { sec.appendChild(el('p', 'none', 'Nothing restructured: the passes run as declared.')); return; }
    sec.appendChild(el('p', 'rsintro', 'The compiler changed how the frame runs, not what it computes. Columns in the grid follow the order below; click an entry to select its pass.'));
    var ul = el('ul', 'rslist');
    restructure.forEach(function (x, xi) {
      var li = el('li');
      var b = el('button', 'rs');
      b.type = 'button';
      b.setAttribute('data-x', String(xi));
      var kind = str(x.kind);
      b.appendChild(el('span', 'rkind', kind));
      b.appendChild(el('span', 'rpass', str(x.pass)));
      function names(cls, label, list) {
        if (!Array.isArray(list) || !list.length) return;
        var sp = el('span', cls, label);
        list.forEach(function (n, k) {
          if (k) sp.appendChild(doc.createTextNode(', '));
          sp.appendChild(el('span', 'q', str(n)));
        });
        b.appendChild(sp);
      }
      if (kind === 'moved') {
        if (x.joins != null) b.appendChild(el('span', 'rjoins', str(x.joins)));
        names('rahead', 'moved ahead of the group: ', x.ahead);
        names('rafter', 'now run after it: ', x.after);
        if (x.saved_bytes != null) {
          var sv = el('span', 'rbytes', 'saves ');
          sv.appendChild(el('span', 'exact', fmtInt(num(x.saved_bytes, null)) + ' B'));
          sv.appendChild(doc.createTextNode(' (' + fmtBytes(num(x.saved_bytes, null)) + ') a frame'));
          b.appendChild(sv);
        }
      } else if (kind === 'copy_folded') {
        if (x.into != null) b.appendChild(el('span', 'rinto', str(x.into)));
        if (x.resource != null) b.appendChild(el('span', 'rres', str(x.resource)));
      } else if (x.resource != null) {
        b.appendChild(el('span', 'rres', str(x.resource)));
      }
      b.appendChild(quotedInto(el('span', 'rmsg'), x.reason));
      var p = passOf(x.pass);
      if (p < 0) b.classList.add('nolink');
      li.appendChild(b);
      ul.appendChild(li);
      var rel = [p];
      [x.joins, x.into].concat(arr(x.ahead), arr(x.after)).forEach(function (n) { if (n != null) rel.push(passOf(n)); });
      rsEls.push({ el: li, p: p, rel: rel, r: x.resource == null ? -1 : resOf(x.resource) });
    });
    sec.appendChild(ul);
    ul.addEventListener('click', function (ev) {
      var b = ev.target.closest('button.rs');
      if (!b) return;
      var X = rsEls[Number(b.getAttribute('data-x'))];
      if (X.r >= 0) selectRes(X.r, false);
      if (X.p >= 0) selectPass(X.p, true);
    });
  })();

  // ---------------------------------------------------------------- grid

  var scroller = $('scroller');
  var compact = passes.length > 40;
  var L; // layout of the current mode
  var passHead = [], resHead = [], cellEls = [], chipEls = [], lifeEls = [], bandEls = [];
  var colhl, rowhl, cursorEl;
  var cursor = { c: 0, r: 0 };
  var selPass = -1, selRes = -1;

  function layout() {
    var CW = compact ? 26 : 78, EW = compact ? 18 : 60, RH = 20;
    var maxName = passes.reduce(function (m, p) { return Math.max(m, p.name.length); }, 5);
    var NAME_H = Math.min(170, 16 + maxName * 7);
    var BAND_H = 22, BYTES_H = 32;
    var cols = [], passCol = new Array(passes.length), gx0 = [], gx1 = [], loadCol = [], storeCol = [];
    var x = 0;
    function edges(G) { return G && G.atts.length > 0; }
    var notRun = null; // x of the first column that does not run (folded copies, culled passes)
    seq.forEach(function (pi) {
      var p = passes[pi];
      var G = p.G;
      if (p.pos == null && notRun == null) { notRun = x; x += 6; }
      if (G && G.first === p.i) {
        gx0[G.i] = x;
        if (edges(G)) { loadCol[G.i] = cols.length; cols.push({ kind: 'load', x: x, w: EW, g: G.i }); x += EW; }
      }
      passCol[p.i] = cols.length;
      cols.push({ kind: 'pass', x: x, w: CW, p: p.i });
      x += CW;
      if (G && G.last === p.i) {
        if (edges(G)) { storeCol[G.i] = cols.length; cols.push({ kind: 'store', x: x, w: EW, g: G.i }); x += EW; }
        gx1[G.i] = x;
      }
    });
    var LW = Math.min(260, Math.max(150, 60 + resources.reduce(function (m, r) { return Math.max(m, r.name.length); }, 4) * 7));
    return {
      CW: CW, EW: EW, RH: RH, BAND_H: BAND_H, BYTES_H: BYTES_H, NAME_H: NAME_H, HH: BAND_H + BYTES_H + NAME_H,
      LW: LW, W: Math.max(x, 1), H: Math.max(resources.length * RH, RH), notRun: notRun,
      cols: cols, passCol: passCol, gx0: gx0, gx1: gx1, loadCol: loadCol, storeCol: storeCol
    };
  }

  function pos(e, x, y, w, h) {
    e.style.cssText = 'left:' + x + 'px;top:' + y + 'px;width:' + w + 'px;height:' + h + 'px';
  }
  function opClass(table, op) { return has(table, op) ? (table[op][1] ? 'op cost' : 'op free') : 'op unknown'; }
  function opText(table, op) { return has(table, op) ? (compact ? table[op][0] : op) : (op || '?'); }

  function drawGrid() {
    L = layout();
    passHead = []; resHead = []; cellEls = []; chipEls = []; lifeEls = []; bandEls = [];
    scroller.textContent = '';
    scroller.classList.toggle('compact', compact);
    var sheet = el('div', 'sheet');
    sheet.style.width = (L.LW + L.W) + 'px';
    var headWrap = el('div', 'headwrap');
    headWrap.style.cssText = 'width:' + (L.LW + L.W) + 'px;height:' + L.HH + 'px';
    var corner = el('div', 'corner');
    corner.style.cssText = 'width:' + L.LW + 'px;height:' + L.HH + 'px';
    corner.appendChild(el('span', 'c-groups', 'groups'));
    corner.appendChild(el('span', 'c-bytes', 'bytes per group'));
    corner.appendChild(el('span', 'c-passes', 'passes \u2192'));
    corner.appendChild(el('span', 'c-res', 'resources \u2193'));
    var colhead = el('div', 'colhead');
    colhead.style.cssText = 'width:' + L.W + 'px;height:' + L.HH + 'px';
    headWrap.appendChild(corner);
    headWrap.appendChild(colhead);
    var bodyRow = el('div', 'bodyrow');
    bodyRow.style.cssText = 'width:' + (L.LW + L.W) + 'px;height:' + L.H + 'px';
    var rowhead = el('div', 'rowhead');
    rowhead.style.cssText = 'width:' + L.LW + 'px;height:' + L.H + 'px;--rh:' + L.RH + 'px';
    var gbody = el('div', 'gbody');
    gbody.style.cssText = 'width:' + L.W + 'px;height:' + L.H + 'px;--rh:' + L.RH + 'px';
    bodyRow.appendChild(rowhead);
    bodyRow.appendChild(gbody);
    sheet.appendChild(headWrap);
    sheet.appendChild(bodyRow);

    var fh = doc.createDocumentFragment(), fb = doc.createDocumentFragment(), fr = doc.createDocumentFragment();
    var maxBytes = 1;
    groups.forEach(function (G) { maxBytes = Math.max(maxBytes, G.bytes || 0, G.naive || 0); });

    // Group bands (header and body background) and the bytes of each group.
    groups.forEach(function (G, gi) {
      if (L.gx0[gi] == null) return;
      var x0 = L.gx0[gi], w = L.gx1[gi] - x0;
      var tcls = has(GROUP_TYPES, G.type) ? GROUP_TYPES[G.type] : 't-other';
      var bg = el('div', 'gbg ' + tcls + (gi % 2 ? ' odd' : ''));
      pos(bg, x0, 0, w, L.H);
      fb.appendChild(bg);
      var band = el('div', 'band ' + tcls + (gi % 2 ? ' odd' : ''), w >= 22 ? '#' + G.index + (w >= 90 ? ' ' + G.type : '') : '');
      band.setAttribute('data-t', 'band');
      band.setAttribute('data-g', String(gi));
      pos(band, x0, 0, w, L.BAND_H);
      fh.appendChild(band);
      bandEls.push({ el: band, g: gi });
      var gb = el('div', 'gbytes');
      gb.setAttribute('data-t', 'gbytes');
      gb.setAttribute('data-g', String(gi));
      pos(gb, x0, L.BAND_H, w, L.BYTES_H);
      var nb = el('div', 'nbar');
      nb.style.height = Math.round((L.BYTES_H - 4) * (G.naive || 0) / maxBytes) + 'px';
      var pb = el('div', 'pbar');
      pb.style.height = Math.round((L.BYTES_H - 4) * (G.bytes || 0) / maxBytes) + 'px';
      gb.appendChild(nb);
      gb.appendChild(pb);
      fh.appendChild(gb);
    });

    // Columns that do not run: folded copies and culled passes, after a divider.
    if (L.notRun != null) {
      var nr = el('div', 'notrun', L.W - L.notRun >= 60 ? 'not run' : '');
      pos(nr, L.notRun + 6, 0, L.W - L.notRun - 6, L.BAND_H);
      fh.appendChild(nr);
      var dv = el('div', 'rundiv');
      pos(dv, L.notRun, 0, 6, L.H);
      fb.appendChild(dv);
    }

    // Pass headers (with a mark: folded, culled, moved), edge headers, culled and folded columns.
    L.cols.forEach(function (c) {
      if (c.kind === 'pass') {
        var p = passes[c.p];
        var h = el('div', 'pass' + (p.culled ? ' culled' : p.folded != null ? ' folded' : ''));
        h.setAttribute('data-t', 'pass');
        h.setAttribute('data-p', String(p.i));
        h.appendChild(el('span', 'pname', p.name));
        var mark = null;
        if (p.culled) mark = el('span', 'pmark', 'culled');
        else if (p.folded != null) {
          mark = el('span', 'pmark', 'folded into ');
          mark.appendChild(el('span', 'q', p.folded));
        } else if (p.rs.some(function (xi) { return restructure[xi].kind === 'moved'; })) mark = el('span', 'pmark', 'moved');
        if (mark) h.appendChild(mark);
        pos(h, c.x, L.BAND_H + L.BYTES_H, c.w, L.NAME_H);
        fh.appendChild(h);
        passHead[p.i] = h;
        if (p.culled || p.folded != null) {
          var cc = el('div', p.culled ? 'culledcol' : 'foldedcol');
          pos(cc, c.x, 0, c.w, L.H);
          fb.appendChild(cc);
        }
      } else {
        var eh = el('div', 'edge ' + c.kind, c.kind === 'load' ? 'load' : 'store');
        pos(eh, c.x, L.BAND_H + L.BYTES_H, c.w, L.NAME_H);
        fh.appendChild(eh);
      }
    });

    // Resource rows and lifetimes.
    resources.forEach(function (r) {
      var y = r.i * L.RH;
      var h = el('div', 'res' + (r.culled ? ' culled' : ''));
      h.setAttribute('data-t', 'res');
      h.setAttribute('data-r', String(r.i));
      h.appendChild(el('span', 'rname', r.name));
      var badges = el('span', 'badges');
      if (r.buffer) badges.appendChild(el('span', 'badge b-buf', 'buf'));
      if (r.imported) badges.appendChild(el('span', 'badge b-imp', 'import'));
      if (r.transient) badges.appendChild(el('span', 'badge b-tr', 'transient'));
      if (r.mips > 1) badges.appendChild(el('span', 'badge b-sub', r.mips + ' mips'));
      if (r.layers > 1) badges.appendChild(el('span', 'badge b-sub', r.layers + ' layers'));
      if (r.samples > 1) badges.appendChild(el('span', 'badge b-sub', r.samples + '\u00d7'));
      h.appendChild(badges);
      pos(h, 0, y, L.LW, L.RH);
      fr.appendChild(h);
      resHead[r.i] = h;
      if (r.first != null && r.last != null && L.gx0[groupIdx(r.first)] != null && L.gx1[groupIdx(r.last)] != null) {
        var x0 = L.gx0[groupIdx(r.first)], x1 = L.gx1[groupIdx(r.last)];
        var life = el('div', 'life' + (r.transient ? ' transient' : '') + (r.imported ? ' imported' : ''));
        life.setAttribute('data-t', 'life');
        life.setAttribute('data-r', String(r.i));
        pos(life, x0 + 1, y + 3, Math.max(2, x1 - x0 - 2), L.RH - 6);
        fb.appendChild(life);
        lifeEls.push({ el: life, r: r.i });
      }
    });

    // Cells: one per (pass, resource) with an access.
    passes.forEach(function (p) {
      var byRes = new Map();
      p.acc.forEach(function (a) {
        if (a.r < 0) return;
        var list = byRes.get(a.r);
        if (!list) byRes.set(a.r, (list = []));
        list.push(a);
      });
      var c = L.cols[L.passCol[p.i]];
      byRes.forEach(function (list, r) {
        var rd = false, wr = false, dropped = 0, redirect = false;
        var parts = list.map(function (a) {
          var k = has(ACCESS, a.kind) ? ACCESS[a.kind] : ['?', a.kind || '?', 'r'];
          if (a.dropped != null) dropped++;
          else {
            if (k[2] !== 'w') rd = true;
            if (k[2] !== 'r') wr = true;
          }
          if (a.redirect != null) redirect = true;
          return (compact ? k[0] : k[1]) + (a.whole ? '' : subLabel(r, a.mip, a.layer));
        });
        // A dropped resolve is struck through: all of the cell, or its own part of the text.
        var kcls = !rd && !wr ? 'k-w' : rd && wr ? 'k-rw' : wr ? 'k-w' : 'k-r';
        var cls = 'cell ' + kcls + (p.culled ? ' culled' : p.folded != null ? ' folded' : '') +
          (dropped && dropped === list.length ? ' dropped' : '') + (redirect ? ' redirect' : '');
        var cell;
        if (dropped && dropped < list.length && !compact) {
          cell = el('div', cls);
          list.forEach(function (a, k) {
            if (k) cell.appendChild(doc.createTextNode(' '));
            if (a.dropped != null) cell.appendChild(el('span', 'xdrop', parts[k]));
            else cell.appendChild(doc.createTextNode(parts[k]));
          });
        } else {
          cell = el('div', cls, compact ? parts[0] + (parts.length > 1 ? '+' : '') : parts.join(' '));
        }
        cell.setAttribute('data-t', 'cell');
        cell.setAttribute('data-p', String(p.i));
        cell.setAttribute('data-r', String(r));
        pos(cell, c.x + 1, r * L.RH + 2, c.w - 2, L.RH - 4);
        fb.appendChild(cell);
        cellEls.push({ el: cell, p: p.i, r: r });
      });
    });

    // Ops at each group's edges: load on the left, store (and resolve) on the right.
    groups.forEach(function (G, gi) {
      if (L.loadCol[gi] == null) return;
      var slots = new Map();
      function put(col, r, make) {
        if (r < 0) return;
        var key = col + ':' + r;
        var list = slots.get(key);
        if (!list) slots.set(key, (list = { col: col, r: r, chips: [] }));
        list.chips.push(make());
      }
      G.atts.forEach(function (A) {
        put(L.loadCol[gi], A.r, function () { return chip(A, 'load', opText(LOAD, A.load), opClass(LOAD, A.load)); });
        put(L.storeCol[gi], A.r, function () { return chip(A, 'store', opText(STORE, A.store), opClass(STORE, A.store)); });
        if (A.resolve != null) put(L.storeCol[gi], A.resolveR, function () { return chip(A, 'resolve', compact ? 'Rs' : 'resolve', 'op cost resolve'); });
      });
      slots.forEach(function (s) {
        var c = L.cols[s.col], n = s.chips.length, w = (c.w - 2) / n;
        s.chips.forEach(function (e, k) {
          pos(e, c.x + 1 + k * w, s.r * L.RH + 2, w - (n > 1 ? 1 : 0), L.RH - 4);
          fb.appendChild(e);
          chipEls.push({ el: e, g: gi, r: s.r });
        });
      });
    });

    colhl = el('div', 'colhl');
    colhl.hidden = true;
    rowhl = el('div', 'rowhl');
    rowhl.hidden = true;
    cursorEl = el('div', 'cursor');
    cursorEl.hidden = true;
    fb.appendChild(colhl);
    fb.appendChild(rowhl);
    fb.appendChild(cursorEl);
    colhead.appendChild(fh);
    gbody.appendChild(fb);
    rowhead.appendChild(fr);
    scroller.appendChild(sheet);
    if (selPass >= 0) selectPass(selPass, false);
    if (selRes >= 0) selectRes(selRes, false);
    cursor.c = Math.min(cursor.c, L.cols.length - 1);
    applySearch();
  }

  function groupIdx(index) { var G = groupById.get(index); return G ? G.i : -1; }

  function chip(A, edge, text, cls) {
    var e = el('div', cls, text);
    e.setAttribute('data-t', 'op');
    e.setAttribute('data-g', String(A.g));
    e.setAttribute('data-a', A.slot);
    e.setAttribute('data-e', edge);
    return e;
  }

  // ---------------------------------------------------------------- legend

  (function drawLegend() {
    var lg = $('legend');
    var acc = el('span', 'lgroup');
    acc.appendChild(el('span', 'ltitle', 'access'));
    [['C', 'clear', 'k-w'], ['W', 'write', 'k-w'], ['RW', 'read_write', 'k-rw'], ['R', 'read', 'k-r'], ['S', 'sample', 'k-r'],
      ['I', 'input', 'k-r'], ['St', 'storage', 'k-rw'], ['CS', 'copy_src', 'k-r'], ['CD', 'copy_dst', 'k-w'], ['Rs', 'resolve', 'k-w']]
      .forEach(function (a) {
        var item = el('span', 'litem');
        item.appendChild(el('span', 'lcell ' + a[2], a[0]));
        item.appendChild(doc.createTextNode(' ' + a[1]));
        acc.appendChild(item);
      });
    var ops = el('span', 'lgroup');
    ops.appendChild(el('span', 'ltitle', 'ops'));
    [['C', 'clear', 'free'], ['DC', 'dont_care', 'free'], ['L', 'load', 'cost'], ['S', 'store', 'cost'], ['D', 'discard', 'free'],
      ['N', 'none', 'free'], ['Rs', 'resolve', 'cost']].forEach(function (o) {
      var item = el('span', 'litem');
      item.appendChild(el('span', 'lop ' + o[2], o[0]));
      item.appendChild(doc.createTextNode(' ' + o[1]));
      ops.appendChild(item);
    });
    ops.appendChild(el('span', 'lnote', 'red moves bytes, green is free; hover for the reason'));
    var misc = el('span', 'lgroup');
    misc.appendChild(el('span', 'ltitle', 'rows'));
    [['life', 'lifetime'], ['life transient', 'transient'], ['life imported', 'imported']].forEach(function (m) {
      var item = el('span', 'litem');
      item.appendChild(el('span', 'llife ' + m[0]));
      item.appendChild(doc.createTextNode(' ' + m[1]));
      misc.appendChild(item);
    });
    var cols = el('span', 'lgroup');
    cols.appendChild(el('span', 'ltitle', 'columns'));
    cols.appendChild(el('span', 'lnote', 'execution order, then what does not run:'));
    [['CS', 'lcell lfold', 'folded copy'], ['Rs', 'lcell ldrop', 'dropped resolve'], ['Rs', 'lcell k-w lredir', 'resolve into a folded copy\u2019s destination']].forEach(function (m) {
      var item = el('span', 'litem');
      item.appendChild(el('span', m[1], m[0]));
      item.appendChild(doc.createTextNode(' ' + m[2]));
      cols.appendChild(item);
    });
    var toggle = el('button', 'mode', '');
    toggle.type = 'button';
    function label() { toggle.textContent = compact ? 'wide columns' : 'compact columns'; }
    label();
    toggle.addEventListener('click', function () { compact = !compact; label(); drawGrid(); drawGroups(); });
    var keys = el('span', 'keys', '/ search \u00b7 Enter next match \u00b7 Esc clear \u00b7 arrows move in the grid');
    [acc, ops, misc, cols, toggle, keys].forEach(function (x) { lg.appendChild(x); });
  })();

  // ---------------------------------------------------------------- groups

  var cardEls = [];
  function opSpan(A, edge) {
    var table = edge === 'load' ? LOAD : STORE;
    var op = edge === 'load' ? A.load : A.store;
    var e = el('span', opClass(table, op), op || '?');
    e.setAttribute('data-t', 'op');
    e.setAttribute('data-g', String(A.g));
    e.setAttribute('data-a', A.slot);
    e.setAttribute('data-e', edge);
    return e;
  }
  function drawGroups() {
    var sec = $('groups');
    var old = sec.querySelector('.cards');
    if (old) old.remove();
    cardEls = [];
    var wrap = el('div', 'cards');
    var maxBytes = 1;
    groups.forEach(function (G) { maxBytes = Math.max(maxBytes, G.bytes || 0, G.naive || 0); });
    groups.forEach(function (G, gi) {
      var card = el('article', 'gcard ' + (has(GROUP_TYPES, G.type) ? GROUP_TYPES[G.type] : 't-other'));
      card.id = 'group-' + gi;
      card.setAttribute('data-g', String(gi));
      var h = el('h3');
      h.appendChild(el('span', 'gidx', '#' + G.index));
      h.appendChild(el('span', 'gtype', G.type || '?'));
      var ps = el('span', 'gpasses');
      (G.passes.length ? G.passes.map(function (p) { return passes[p].name; }) : G.names).forEach(function (name, k) {
        if (k) ps.appendChild(doc.createTextNode(' + '));
        var b = el('button', 'plink', name);
        b.type = 'button';
        var pi = passIndex.get(name);
        if (pi != null) b.setAttribute('data-p', String(pi));
        ps.appendChild(b);
      });
      h.appendChild(ps);
      card.appendChild(h);
      var line = el('p', 'gbline');
      var gbp = el('span', 'gbp', 'planned ' + fmtBytes(G.bytes));
      if (G.bytes != null) gbp.setAttribute('data-bytes', String(G.bytes));
      line.appendChild(gbp);
      line.appendChild(el('span', 'gbn', 'naive ' + fmtBytes(G.naive)));
      card.appendChild(line);
      if (G.atts.length) {
        var stack = el('div', 'stack');
        G.atts.forEach(function (A) {
          [['load', A.bytesLoad], ['store', A.bytesStore], ['resolve', A.bytesResolve]].forEach(function (s) {
            if (!s[1]) return;
            var seg = el('span', 'seg s-' + s[0]);
            seg.style.width = (100 * s[1] / maxBytes).toFixed(3) + '%';
            seg.setAttribute('data-t', 'op');
            seg.setAttribute('data-g', String(gi));
            seg.setAttribute('data-a', A.slot);
            seg.setAttribute('data-e', s[0]);
            stack.appendChild(seg);
          });
        });
        var nstack = el('div', 'stack naive');
        var ns = el('span', 'seg s-naive');
        ns.style.width = (100 * (G.naive || 0) / maxBytes).toFixed(3) + '%';
        nstack.appendChild(ns);
        card.appendChild(stack);
        card.appendChild(nstack);
        var t = el('table', 'atts');
        var hr = el('tr');
        ['slot', 'attachment', 'load', '', 'store', 'resolve', 'bytes'].forEach(function (x) { hr.appendChild(el('th', null, x)); });
        t.appendChild(hr);
        G.atts.forEach(function (A) {
          var tr = el('tr');
          tr.setAttribute('data-a', A.slot);
          tr.appendChild(el('td', 'slot', slotName(A.slot) + (A.readOnly ? ' (read-only)' : '')));
          tr.appendChild(el('td', 'aname', A.label));
          var tl = el('td'); tl.appendChild(opSpan(A, 'load')); tr.appendChild(tl);
          tr.appendChild(el('td', 'arrow', '\u2192'));
          var ts = el('td'); ts.appendChild(opSpan(A, 'store')); tr.appendChild(ts);
          var trs = el('td', 'resolve');
          if (A.resolve != null) {
            var rs = el('span', 'op cost resolve', '\u2192 ');
            rs.appendChild(el('span', 'q', A.resolve));
            rs.setAttribute('data-t', 'op');
            rs.setAttribute('data-g', String(gi));
            rs.setAttribute('data-a', A.slot);
            rs.setAttribute('data-e', 'resolve');
            trs.appendChild(rs);
          }
          tr.appendChild(trs);
          tr.appendChild(el('td', 'num', fmtBytes(A.bytes)));
          t.appendChild(tr);
        });
        card.appendChild(t);
      }
      var tfit = tileProfile == null ? null : G.tile.get(tileProfile);
      if (tfit) {
        var fits = tfit.fits === true;
        card.classList.add(fits ? 'tile-fits' : 'tile-over');
        var tl2 = el('p', 'gtile ' + (fits ? 'fits' : 'over'));
        tl2.setAttribute('data-profile', tileProfile);
        tl2.appendChild(el('span', 'tline', tileLine(tfit)));
        tl2.appendChild(el('span', 'tcons', ' \u2014 ' + str(tfit.consequence)));
        card.appendChild(tl2);
      }
      var notes = [];
      G.passes.forEach(function (pi) { passes[pi].rs.concat(passes[pi].into).forEach(function (xi) { notes.push(rsLine(xi)); }); });
      if (notes.length) {
        var gn = el('div', 'gnotes');
        renderLines(gn, notes);
        card.appendChild(gn);
      }
      var br = el('p', 'break');
      br.setAttribute('data-t', 'band');
      br.setAttribute('data-g', String(gi));
      br.appendChild(el('span', 'bk', 'ends: ' + (G.brk || '?')));
      br.appendChild(quotedInto(el('span', 'bwhy'), breakReason(G)));
      card.appendChild(br);
      wrap.appendChild(card);
      cardEls.push(card);
    });
    if (!groups.length) wrap.appendChild(el('p', 'none', 'No groups.'));
    sec.appendChild(wrap);
    wrap.addEventListener('click', function (ev) {
      var b = ev.target.closest('button.plink');
      if (b && b.hasAttribute('data-p')) selectPass(Number(b.getAttribute('data-p')), true);
    });
    applySearch();
  }

  // ---------------------------------------------------------------- tooltips

  // A tooltip is a list of lines; a line is a list of parts: plain strings (the viewer's own words),
  // N(name) for a name and S(sentence) for a sentence from the data whose `quoted` names are isolated.
  // renderLines turns them into DOM, names as text in isolating spans.
  var tip = $('tip');
  function N(name) { return { n: str(name) }; }
  function S(sentence) { return { s: str(sentence) }; }
  function renderLines(parent, lines) {
    parent.textContent = '';
    lines.forEach(function (line) {
      var d = el('span', 'tl');
      line.forEach(function (part) {
        if (typeof part === 'string') d.appendChild(doc.createTextNode(part));
        else if (part.n != null) d.appendChild(el('span', 'q', part.n));
        else quotedInto(d, part.s);
      });
      parent.appendChild(d);
    });
  }
  function accLines(list) {
    return list.map(function (a) {
      var k = has(ACCESS, a.kind) ? ACCESS[a.kind][1] : a.kind;
      var slot = a.slot == null ? '' : slotName(a.slot) + ' ';
      var what = a.kind === 'resolve' ? 'resolve target' : k;
      var label = a.kind !== k && has(ACCESS, a.kind) && k === 'storage' ? ' (' + a.kind + ')' : '';
      var line = ['  ' + slot + what + label + ': ', N(a.res + (a.whole || a.r < 0 ? '' : subLabel(a.r, a.mip, a.layer)))];
      if (a.dropped != null) line.push(' \u2014 resolve dropped: ', S(restructure[a.dropped].reason));
      if (a.redirect != null) {
        var X = restructure[a.redirect];
        line.push(' \u2014 resolves straight into ', N(X.resource), ' instead: the copy ', N(X.pass), ' is folded into it');
      }
      return line;
    });
  }
  // Where a pass runs, and why it is alive, as tooltip or panel lines.
  function runLine(P) {
    if (P.culled) return ['culled: nothing live uses its results'];
    if (P.folded != null) return ['does not run: folded into ', N(P.folded), ', whose resolve writes its destination'];
    var s = 'runs ' + (P.pos + 1) + ' of ' + running;
    var d = declaredRank.get(P.i);
    if (d != null && d !== P.pos) s += ' (declared ' + (d + 1) + ')';
    return [s + (P.G ? ', group #' + P.G.index : ', no group')];
  }
  // What keeps a pass alive: {k: 'pass', p, name} | {k: 'import', name, r} | {k: 'side_effects'} | null.
  // A pass may be named `side_effects` or `import:…` too: the description decides (a pass that
  // declares side effects, an imported resource of that name) and otherwise the pass of that name.
  function needOf(P) {
    var nb = P.need;
    if (nb == null) return null;
    if (nb === 'side_effects' && (P.desc.side_effects === true || passOf(nb) < 0)) return { k: 'side_effects' };
    if (nb.indexOf('import:') === 0) {
      var r = resOf(nb.slice(7));
      if ((r >= 0 && resources[r].imported) || passOf(nb) < 0) return { k: 'import', name: nb.slice(7), r: r };
    }
    return { k: 'pass', name: nb, p: passOf(nb) };
  }
  function needParts(P) {
    if (P.culled || P.folded != null || P.need === undefined) return null;
    var n = needOf(P);
    if (!n) return ['alive because: the plan does not say'];
    if (n.k === 'side_effects') return ['alive because: it has side effects'];
    if (n.k === 'import') return ['alive because: the kept import ', N(n.name), ' needs its frame-end contents'];
    return ['alive because: ', N(n.name), ' reads what it writes'];
  }
  function passTip(p) {
    var P = passes[p];
    var lines = [['pass ', N(P.name), ' \u00b7 ' + (P.type || '?')], runLine(P)];
    var need = needParts(P);
    if (need) lines.push(need);
    P.rs.concat(P.into).forEach(function (xi) { lines.push(rsLine(xi)); });
    return lines.concat(accLines(P.acc));
  }
  function rsLine(xi) {
    var X = restructure[xi];
    return [(has(RS_KINDS, str(X.kind)) ? RS_KINDS[str(X.kind)] : str(X.kind)) + ' (', N(X.pass), '): ', S(X.reason)];
  }
  function resTip(r) {
    var R = resources[r];
    var lines = [[N(R.name)]];
    if (R.texture) {
      var t = 'texture ' + R.format + ' ' + R.w + '\u00d7' + R.h;
      if (R.layers > 1) t += '\u00d7' + R.layers + ' layers';
      if (R.mips > 1) t += ', ' + R.mips + ' mips';
      if (R.samples > 1) t += ', ' + R.samples + '\u00d7 MSAA';
      lines.push([t]);
    } else if (R.buffer) lines.push(['buffer, ' + fmtInt(R.bufSize) + ' B']);
    if (R.desc.clear != null) lines.push(['clear value: ' + JSON.stringify(R.desc.clear)]);
    if (R.imported) lines.push(['imported: contents ' + str(R.imported.contents) + ', after ' + str(R.imported.after)]);
    if (R.transient) lines.push(['transient: TRANSIENT_ATTACHMENT, memoryless on tilers']);
    if (R.culled) lines.push(['culled: no live pass uses it']);
    else if (R.first != null) lines.push(['lifetime: groups #' + R.first + '..#' + R.last]);
    if (R.physical != null) {
      var line = ['physical texture #' + R.physical];
      var shared = resources.filter(function (o) { return o.physical === R.physical && o.i !== R.i; });
      shared.slice(0, 8).forEach(function (o, k) { line.push(k ? ', ' : ', shared with ', N(o.name)); });
      if (shared.length > 8) line.push(', \u2026');
      lines.push(line);
    }
    return lines;
  }
  function cellTip(p, r) {
    var P = passes[p];
    return [[N(P.name), ' \u00d7 ', N(resources[r].name), P.culled ? ' (pass culled)' : P.folded != null ? ' (pass folded into ' : ''].concat(
      P.folded != null && !P.culled ? [N(P.folded), ': it does not run)'] : [])]
      .concat(accLines(P.acc.filter(function (a) { return a.r === r; })));
  }
  function opTip(g, slot, edge) {
    var G = groups[g];
    var A = null;
    G.atts.forEach(function (x) { if (x.slot === slot) A = x; });
    if (!A) return [];
    var where = 'group #' + G.index + ', ' + slotName(slot);
    if (edge === 'resolve') {
      var rl = [[N(A.label), ' resolves into ', N(A.resolve), ' at the end of ' + where + ' (moves ' + fmtBytes(A.bytesResolve) + ')']];
      G.passes.forEach(function (pi) {
        passes[pi].into.forEach(function (xi) {
          if (str(restructure[xi].resource) === A.resolve) rl.push(['copy ', N(restructure[xi].pass), ' folded into this resolve: ', S(restructure[xi].reason)]);
        });
      });
      return rl;
    }
    if (edge === 'load') {
      return [[N(A.label), ' \u2014 load op: ' + (A.load || '?') + ' (' + where + (A.bytesLoad ? ', moves ' + fmtBytes(A.bytesLoad) : ', free') + ')'],
        ['why: ', S(loadReason(A))]];
    }
    return [[N(A.label), ' \u2014 store op: ' + (A.store || '?') + ' (' + where + (A.bytesStore ? ', moves ' + fmtBytes(A.bytesStore) : ', free') + ')'],
      ['why: ', S(storeReason(A))],
      ['group ended: ' + (G.brk || '?') + ' \u2014 ', S(breakReason(G))]];
  }
  function bandTip(g) {
    var G = groups[g];
    var head = ['group #' + G.index + ' \u00b7 ' + (G.type || '?') + ' \u00b7 '];
    G.passes.forEach(function (p, k) { head.push(k ? ' + ' : '', N(passes[p].name)); });
    var lines = [head, ['attachment traffic: ' + fmtBytes(G.bytes) + ' planned, ' + fmtBytes(G.naive) + ' naive']];
    G.atts.forEach(function (A) {
      var line = ['  ', N(A.label), ': ' + A.load + ' \u2192 ' + A.store];
      if (A.resolve != null) line.push(', resolve \u2192 ', N(A.resolve));
      line.push(' (' + fmtBytes(A.bytes) + ')');
      lines.push(line);
    });
    lines.push(['ended: ' + (G.brk || '?') + ' \u2014 ', S(breakReason(G))]);
    return lines;
  }
  function lifeTip(r) {
    var R = resources[r];
    return [[N(R.name), ': live in groups #' + R.first + '..#' + R.last + (R.transient ? ', transient' : '') + (R.imported ? ', imported' : '')]];
  }
  function tipLines(t) {
    var k = t.getAttribute('data-t');
    var n = function (a) { return Number(t.getAttribute(a)); };
    if (k === 'pass') return passTip(n('data-p'));
    if (k === 'res') return resTip(n('data-r'));
    if (k === 'cell') return cellTip(n('data-p'), n('data-r'));
    if (k === 'op') return opTip(n('data-g'), t.getAttribute('data-a'), t.getAttribute('data-e'));
    if (k === 'band' || k === 'gbytes') return bandTip(n('data-g'));
    if (k === 'life') return lifeTip(n('data-r'));
    return [];
  }
  function showTip(lines, rect) {
    if (!lines.length) { hideTip(); return; }
    renderLines(tip, lines);
    tip.hidden = false;
    var tw = tip.offsetWidth, th = tip.offsetHeight;
    var vw = doc.documentElement.clientWidth, vh = doc.documentElement.clientHeight;
    var x = Math.min(Math.max(4, rect.left), vw - tw - 4);
    var y = rect.bottom + 6;
    if (y + th > vh - 4) y = Math.max(4, rect.top - th - 6);
    tip.style.left = x + 'px';
    tip.style.top = y + 'px';
  }
  function hideTip() { tip.hidden = true; }
  var tipTarget = null;
  doc.addEventListener('mouseover', function (ev) {
    var t = ev.target.closest ? ev.target.closest('[data-t]') : null;
    if (t === tipTarget) return;
    tipTarget = t;
    if (t) showTip(tipLines(t), t.getBoundingClientRect());
    else hideTip();
  });
  doc.addEventListener('mouseleave', function () { tipTarget = null; hideTip(); });
  scroller.addEventListener('scroll', function () { if (tipTarget) { tipTarget = null; hideTip(); } }, { passive: true });

  // ---------------------------------------------------------------- selection, cursor, keyboard

  function ensureVisible(x, y, w, h) {
    var s = scroller;
    var vw = s.clientWidth - L.LW, vh = s.clientHeight - L.HH;
    if (x < s.scrollLeft) s.scrollLeft = Math.max(0, x - 40);
    else if (x + w > s.scrollLeft + vw) s.scrollLeft = x + w - vw + 40;
    if (y < s.scrollTop) s.scrollTop = Math.max(0, y - 2 * L.RH);
    else if (y + h > s.scrollTop + vh) s.scrollTop = y + h - vh + 2 * L.RH;
  }
  function bringGridIntoView() {
    // Below the sticky top bar, as much of the grid as fits.
    var bar = doc.querySelector('.top');
    var top = bar ? bar.offsetHeight : 0;
    var r = scroller.getBoundingClientRect();
    if (r.top < top || r.bottom > doc.documentElement.clientHeight) window.scrollBy(0, r.top - top - 8);
  }
  // A short highlight; an animation rather than a class toggled around a forced layout, which on a
  // large grid cost more than everything else a click does.
  function flash(e) {
    if (e.animate) {
      e.animate([{ boxShadow: '0 0 0 4px #f08c00' }, { boxShadow: '0 0 0 0 transparent' }], { duration: 1200, easing: 'ease-out' });
      return;
    }
    e.classList.remove('flash');
    void e.offsetWidth;
    e.classList.add('flash');
  }
  // The selected pass: where it runs, why it is alive (a control that selects the pass, or the
  // import's row, that keeps it alive, so the chain can be followed to its end), what was restructured.
  var passinfo = $('passinfo');
  function drawPassInfo(p) {
    var P = passes[p];
    passinfo.textContent = '';
    if (!P) return;
    var head = el('p', 'pihead');
    head.appendChild(doc.createTextNode('pass '));
    head.appendChild(el('span', 'q piname', P.name));
    head.appendChild(doc.createTextNode(' \u00b7 ' + (P.type || '?') + ' \u00b7 '));
    renderLines(head.appendChild(el('span', 'pirun')), [runLine(P)]);
    passinfo.appendChild(head);
    var line = el('p', 'pineed');
    var nb = needOf(P);
    var ctl = null;
    if (P.folded != null && !P.culled) {
      line.appendChild(doc.createTextNode('folded into '));
      ctl = el('button', 'need');
      ctl.setAttribute('data-kind', 'folded');
      ctl.appendChild(el('span', 'q', P.folded));
      var fp = passOf(P.folded);
      if (fp >= 0) ctl.setAttribute('data-p', String(fp));
    } else if (P.culled) {
      line.appendChild(el('span', 'need', 'culled: nothing live uses its results'));
      line.lastChild.setAttribute('data-kind', 'culled');
    } else if (P.need === undefined) {
      line.appendChild(el('span', 'need', 'the plan does not say why it is alive'));
      line.lastChild.setAttribute('data-kind', 'unknown');
    } else {
      if (nb == null) {
        line.appendChild(el('span', 'need', 'alive, but the plan names nothing that needs it'));
        line.lastChild.setAttribute('data-kind', 'none');
      } else {
        line.appendChild(doc.createTextNode('alive because '));
        if (nb.k === 'side_effects') {
          line.appendChild(el('span', 'need', 'it has side effects'));
          line.lastChild.setAttribute('data-kind', 'side_effects');
          line.appendChild(doc.createTextNode(' \u2014 the end of the chain'));
        } else if (nb.k === 'import') {
          var b = el('button', 'need', 'the kept import ');
          b.setAttribute('data-kind', 'import');
          b.appendChild(el('span', 'q', nb.name));
          if (nb.r >= 0) b.setAttribute('data-r', String(nb.r));
          line.appendChild(b);
          line.appendChild(doc.createTextNode(' needs its frame-end contents \u2014 the end of the chain'));
        } else {
          var bp = el('button', 'need');
          bp.setAttribute('data-kind', 'pass');
          bp.appendChild(el('span', 'q', nb.name));
          if (nb.p >= 0) bp.setAttribute('data-p', String(nb.p));
          line.appendChild(bp);
          line.appendChild(doc.createTextNode(' reads what it writes'));
        }
      }
    }
    if (ctl) line.appendChild(ctl);
    passinfo.appendChild(line);
    var nbtn = passinfo.querySelector('button.need');
    if (nbtn) {
      nbtn.type = 'button';
      if (!nbtn.hasAttribute('data-p') && !nbtn.hasAttribute('data-r')) nbtn.disabled = true;
      else nbtn.title = nbtn.hasAttribute('data-p') ? 'select this pass' : 'select this resource';
    }
    var rl = P.rs.concat(P.into).map(rsLine);
    if (rl.length) renderLines(passinfo.appendChild(el('div', 'pirs')), rl);
  }
  passinfo.addEventListener('click', function (ev) {
    var b = ev.target.closest('button.need');
    if (!b) return;
    var refocus = doc.activeElement === b;
    if (b.hasAttribute('data-p')) selectPass(Number(b.getAttribute('data-p')), true);
    else if (b.hasAttribute('data-r')) selectRes(Number(b.getAttribute('data-r')), true);
    // Keyboard users keep following the chain: focus the new control (or the panel at its end).
    if (refocus) {
      var next = passinfo.querySelector('button.need:not([disabled])');
      (next || passinfo).focus({ preventScroll: true });
    }
  });

  function selectPass(p, scroll) {
    if (selPass >= 0 && passHead[selPass]) passHead[selPass].classList.remove('sel');
    selPass = p;
    drawPassInfo(p);
    var h = passHead[p];
    if (!h) return;
    h.classList.add('sel');
    var c = L.cols[L.passCol[p]];
    colhl.hidden = false;
    colhl.style.cssText = 'left:' + c.x + 'px;width:' + c.w + 'px;height:' + L.H + 'px';
    if (scroll) {
      flash(h);
      flash(colhl);
      var row = selRes >= 0 ? selRes : firstRowOf(p);
      setCursor(L.passCol[p], row, false);
      bringGridIntoView();
      ensureVisible(c.x, row * L.RH, c.w, L.RH);
    }
  }
  function firstRowOf(p) {
    var r = passes[p].acc.reduce(function (m, a) { return a.r >= 0 && (m < 0 || a.r < m) ? a.r : m; }, -1);
    return r >= 0 ? r : cursor.r;
  }
  function selectRes(r, scroll) {
    if (selRes >= 0 && resHead[selRes]) resHead[selRes].classList.remove('sel');
    selRes = r;
    var h = resHead[r];
    if (!h) return;
    h.classList.add('sel');
    rowhl.hidden = false;
    rowhl.style.cssText = 'top:' + (r * L.RH) + 'px;height:' + L.RH + 'px;width:' + L.W + 'px';
    if (scroll) {
      flash(h);
      flash(rowhl);
      var R = resources[r];
      var col = cursor.c;
      if (R.first != null && L.gx0[groupIdx(R.first)] != null) col = colAt(L.gx0[groupIdx(R.first)]);
      setCursor(col, r, false);
      bringGridIntoView();
      var c = L.cols[col];
      ensureVisible(c ? c.x : 0, r * L.RH, c ? c.w : 0, L.RH);
    }
  }
  function colAt(x) {
    var lo = 0, hi = L.cols.length - 1;
    while (lo < hi) {
      var mid = (lo + hi + 1) >> 1;
      if (L.cols[mid].x <= x) lo = mid; else hi = mid - 1;
    }
    return lo;
  }
  function describeCursor() {
    var c = L.cols[cursor.c], r = cursor.r;
    if (!c || !resources[r]) return [];
    if (c.kind === 'pass') {
      var P = passes[c.p];
      var list = P.acc.filter(function (a) { return a.r === r; });
      return list.length ? cellTip(c.p, r) : [[N(P.name), ' \u00d7 ', N(resources[r].name), ': no access']];
    }
    var G = groups[c.g];
    var lines = [];
    G.atts.forEach(function (A) {
      if (A.r === r) lines = lines.concat(opTip(c.g, A.slot, c.kind));
      if (c.kind === 'store' && A.resolveR === r) lines = lines.concat(opTip(c.g, A.slot, 'resolve'));
    });
    return lines.length ? lines : [['group #' + G.index + ' ' + c.kind + ' edge \u00d7 ', N(resources[r].name), ': not attached']];
  }
  var status = $('cursor-status');
  function setCursor(ci, r, scroll) {
    if (!L.cols.length || !resources.length) return;
    cursor.c = Math.max(0, Math.min(L.cols.length - 1, ci));
    cursor.r = Math.max(0, Math.min(resources.length - 1, r));
    var c = L.cols[cursor.c];
    cursorEl.hidden = false;
    cursorEl.style.cssText = 'left:' + c.x + 'px;top:' + (cursor.r * L.RH) + 'px;width:' + c.w + 'px;height:' + L.RH + 'px';
    if (scroll) ensureVisible(c.x, cursor.r * L.RH, c.w, L.RH);
    var lines = describeCursor();
    renderLines(status, lines);
    if (doc.activeElement === scroller) {
      tipTarget = null;
      showTip(lines, cursorEl.getBoundingClientRect());
    }
  }
  // Focus by keyboard brings the cursor into view; focus by a click leaves the scroll alone (the
  // click then puts the cursor where it landed).
  var pointerDown = false;
  scroller.addEventListener('mousedown', function () { pointerDown = true; });
  scroller.addEventListener('focus', function () { setCursor(cursor.c, cursor.r, !pointerDown); pointerDown = false; });
  scroller.addEventListener('blur', function () { hideTip(); });
  scroller.addEventListener('keydown', function (ev) {
    if (ev.altKey || ev.ctrlKey || ev.metaKey) return;
    var c = cursor.c, r = cursor.r, page = Math.max(1, Math.floor((scroller.clientHeight - L.HH) / L.RH) - 1);
    switch (ev.key) {
      case 'ArrowLeft': c -= 1; break;
      case 'ArrowRight': c += 1; break;
      case 'ArrowUp': r -= 1; break;
      case 'ArrowDown': r += 1; break;
      case 'PageUp': r -= page; break;
      case 'PageDown': r += page; break;
      case 'Home': c = 0; break;
      case 'End': c = L.cols.length - 1; break;
      case 'Enter': {
        var col = L.cols[c];
        var gi = col.kind === 'pass' ? (passes[col.p].G ? passes[col.p].G.i : -1) : col.g;
        if (gi >= 0 && cardEls[gi]) { cardEls[gi].scrollIntoView({ block: 'center' }); flash(cardEls[gi]); }
        ev.preventDefault();
        return;
      }
      case 'Escape': hideTip(); return;
      default: return;
    }
    ev.preventDefault();
    setCursor(c, r, true);
  });
  scroller.addEventListener('click', function (ev) {
    var ph = ev.target.closest('.pass');
    if (ph) { selectPass(Number(ph.getAttribute('data-p')), true); return; }
    var rh = ev.target.closest('.res');
    if (rh) { selectRes(Number(rh.getAttribute('data-r')), true); return; }
    var gb = scroller.querySelector('.gbody');
    if (gb && gb.contains(ev.target)) {
      var rect = gb.getBoundingClientRect();
      var x = ev.clientX - rect.left, y = ev.clientY - rect.top;
      if (doc.activeElement !== scroller) scroller.focus({ preventScroll: true });
      setCursor(colAt(x), Math.floor(y / L.RH), false);
    }
  });

  // ---------------------------------------------------------------- search

  var search = $('search');
  var count = $('search-count');
  var matches = [], matchPos = -1, hitEls = [];
  function applySearch() {
    var q = search.value.trim().toLowerCase();
    hitEls.forEach(function (e) { e.classList.remove('hit'); });
    hitEls = [];
    matches = [];
    matchPos = -1;
    var root = $('grid-section');
    if (!q) {
      root.classList.remove('searching');
      body.classList.remove('searching');
      count.textContent = '';
      return;
    }
    root.classList.add('searching');
    body.classList.add('searching');
    var pm = new Uint8Array(passes.length), rm = new Uint8Array(resources.length), gm = new Uint8Array(groups.length);
    // Matches in column order, so Enter walks the grid left to right.
    seq.forEach(function (pi) {
      var p = passes[pi];
      if (p.lname.indexOf(q) >= 0) { pm[p.i] = 1; matches.push({ k: 'p', i: p.i }); if (p.G) gm[p.G.i] = 1; }
    });
    resources.forEach(function (r) { if (r.lname.indexOf(q) >= 0) { rm[r.i] = 1; matches.push({ k: 'r', i: r.i }); } });
    groups.forEach(function (G) { G.atts.forEach(function (A) { if ((A.r >= 0 && rm[A.r]) || (A.resolveR >= 0 && rm[A.resolveR])) gm[G.i] = 1; }); });
    function hit(e) { e.classList.add('hit'); hitEls.push(e); }
    passHead.forEach(function (e, i) { if (e && pm[i]) hit(e); });
    resHead.forEach(function (e, i) { if (e && rm[i]) hit(e); });
    cellEls.forEach(function (c) { if (pm[c.p] || rm[c.r]) hit(c.el); });
    chipEls.forEach(function (c) { if (rm[c.r] || gm[c.g]) hit(c.el); });
    lifeEls.forEach(function (c) { if (rm[c.r]) hit(c.el); });
    bandEls.forEach(function (c) { if (gm[c.g]) hit(c.el); });
    cardEls.forEach(function (e, gi) { if (gm[gi]) hit(e); });
    warnEls.forEach(function (w) { if ((w.p >= 0 && pm[w.p]) || (w.r >= 0 && rm[w.r])) hit(w.el); });
    rsEls.forEach(function (x) { if (x.rel.some(function (p) { return p >= 0 && pm[p]; }) || (x.r >= 0 && rm[x.r])) hit(x.el); });
    count.textContent = matches.length ? matches.length + (matches.length === 1 ? ' match' : ' matches') + ', Enter for next' : 'no match';
  }
  function jump(step) {
    if (!matches.length) return;
    matchPos = (matchPos + step + matches.length) % matches.length;
    var m = matches[matchPos];
    renderLines(count, [[(matchPos + 1) + ' / ' + matches.length + (m.k === 'p' ? ' pass ' : ' resource '), N(m.k === 'p' ? passes[m.i].name : resources[m.i].name)]]);
    if (m.k === 'p') selectPass(m.i, true); else selectRes(m.i, true);
  }
  search.addEventListener('input', applySearch);
  search.addEventListener('keydown', function (ev) {
    if (ev.key === 'Enter') { ev.preventDefault(); jump(ev.shiftKey ? -1 : 1); }
    else if (ev.key === 'Escape') { ev.preventDefault(); search.value = ''; applySearch(); search.blur(); }
    else if (ev.key === 'ArrowDown' && matches.length) { ev.preventDefault(); if (matchPos < 0) jump(1); scroller.focus(); }
  });
  doc.addEventListener('keydown', function (ev) {
    var t = ev.target;
    var typing = t && (t.tagName === 'INPUT' || t.tagName === 'TEXTAREA' || t.isContentEditable);
    if (ev.key === '/' && !typing && !ev.ctrlKey && !ev.metaKey && !ev.altKey) {
      ev.preventDefault();
      search.focus();
      search.select();
    } else if (ev.key === 'Escape' && !typing) {
      hideTip();
      if (search.value) { search.value = ''; applySearch(); }
    }
  });

  // ---------------------------------------------------------------- go

  performance.mark('tilegraph-model');
  drawGrid();
  performance.mark('tilegraph-grid');
  drawGroups();
  performance.mark('tilegraph-groups');
  body.setAttribute('data-build-ms', performance.now().toFixed(1));
  void body.offsetHeight; // style and layout now, so the ready mark includes them
  performance.mark('tilegraph-layout');
  requestAnimationFrame(function () {
    setTimeout(function () { body.setAttribute('data-ready', performance.now().toFixed(1)); }, 0);
  });
})();

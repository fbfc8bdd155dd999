  // Viewer, part 3 of 5: the grid of passes against resources, and its legend.
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


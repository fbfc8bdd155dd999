  // Viewer, part 4 of 5: the group cards and the tooltips.
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
    if (R.blocked === 'layers') lines.push(['on tile only, not memoryless: wgpu makes no texture of several layers transient; a texture per view would save ' + fmtBytes(R.blockedBytes)]);
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


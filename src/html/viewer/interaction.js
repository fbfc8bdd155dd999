  // Viewer, part 5 of 5: selection, cursor, keyboard and search; drawing the page; the end of
  // the function part 1 opened.
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

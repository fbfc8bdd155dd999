  // Viewer, part 2 of 5: the summary line and the traffic, memory, tile, warnings and
  // restructuring sections.
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
        ['transient', num(m.transient_bytes, null), 'of those, memoryless on tilers']].concat(
        num(m.transient_blocked_bytes, null) ? [['blocked', num(m.transient_blocked_bytes, null),
          'on tile only but not memoryless: wgpu makes no texture of several layers transient; declared a texture per view, these would be']] : []
      ).forEach(function (row) {
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


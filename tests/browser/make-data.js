#!/usr/bin/env node
// Combines a graph description and its plan JSON (and optionally an explain object) into the
// viewer's data object: {"graph": …, "plan": …, "explain": …}.
//   node make-data.js GRAPH.json PLAN.json [EXPLAIN.json] > DATA.json
'use strict';
const fs = require('fs');
const [graphPath, planPath, explainPath] = process.argv.slice(2);
if (!graphPath || !planPath) {
  console.error('usage: make-data.js GRAPH.json PLAN.json [EXPLAIN.json]');
  process.exit(2);
}
const read = (p) => JSON.parse(fs.readFileSync(p, 'utf8'));
const out = { graph: read(graphPath), plan: read(planPath) };
if (explainPath) out.explain = read(explainPath);
process.stdout.write(JSON.stringify(out) + '\n');

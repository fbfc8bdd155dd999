#!/usr/bin/env node
// Puts a viewer data object (`{"graph", "plan", "explain"?}`) into a page the tool wrote
// (`tilegraph plan FILE --format html`) in place of that page's own data, escaped for the HTML
// context as the crate's page writer (src/html.rs) escapes it, so a hand-written plan gets the very
// page the tool would give it.
//   node make-page.js PAGE.html DATA.json > NEW.html
'use strict';
const fs = require('fs');
const [pagePath, dataPath] = process.argv.slice(2);
if (!pagePath || !dataPath) {
  console.error('usage: make-page.js PAGE.html DATA.json > NEW.html');
  process.exit(2);
}
const OPEN = '<script type="application/json" id="tilegraph-data">';
const CLOSE = '</script>';
const page = fs.readFileSync(pagePath, 'utf8');
const start = page.indexOf(OPEN);
const end = start < 0 ? -1 : page.indexOf(CLOSE, start + OPEN.length);
if (end < 0) {
  console.error(`make-page.js: ${pagePath} has no tilegraph data element`);
  process.exit(1);
}
// src/html.rs `escape_json_for_script`: in valid JSON these characters occur only inside strings,
// where the escapes mean the same characters.
const ESCAPES = { '<': '\\u003c', '>': '\\u003e', '&': '\\u0026', '\u2028': '\\u2028', '\u2029': '\\u2029' };
const data = fs
  .readFileSync(dataPath, 'utf8')
  .trimEnd()
  .replace(/[<>&\u2028\u2029]/g, (c) => ESCAPES[c]);
process.stdout.write(page.slice(0, start + OPEN.length) + data + page.slice(end));

// Launches Debian's chromium headless through playwright-core, with a fresh profile and the
// background services off (without them the browser tries the network and connections fail here).
'use strict';
const fs = require('fs');
const os = require('os');
const path = require('path');
const { chromium } = require('playwright-core');

const ARGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync'
];

async function launch(executablePath) {
  const exe = executablePath || process.env.CHROMIUM || '/usr/bin/chromium';
  if (!fs.existsSync(exe)) {
    throw new Error(`no chromium at ${exe} (apt-get install -y chromium, or set CHROMIUM)`);
  }
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'tilegraph-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: exe,
    headless: true,
    args: ARGS,
    viewport: { width: 1400, height: 900 },
    offline: true
  });
  return {
    context,
    async close() {
      await context.close();
      fs.rmSync(profile, { recursive: true, force: true });
    }
  };
}

function fileUrl(p) {
  return require('url').pathToFileURL(path.resolve(p)).href;
}

module.exports = { launch, fileUrl };

#!/usr/bin/env node
// Full-page screenshot of a plan page: node screenshot.js PAGE.html OUT.png
// The grid is drawn at full size (not in its scroll box) unless that would exceed 16000 px.
'use strict';
const { launch, fileUrl } = require('./browser');

async function main() {
  const [pagePath, out] = process.argv.slice(2);
  if (!pagePath || !out) {
    console.error('usage: screenshot.js PAGE.html OUT.png');
    process.exit(2);
  }
  const browser = await launch();
  try {
    const page = await browser.context.newPage();
    await page.goto(fileUrl(pagePath));
    await page.waitForSelector('body[data-ready], body[data-error]', { timeout: 60000 });
    const error = await page.getAttribute('body', 'data-error');
    if (error) throw new Error(`the page reports an error: ${error}`);
    const expanded = await page.evaluate(() => {
      const sheet = document.querySelector('.sheet');
      if (!sheet || sheet.offsetWidth > 16000 || sheet.offsetHeight > 16000) return false;
      document.body.classList.add('expand');
      return true;
    });
    await page.screenshot({ path: out, fullPage: true });
    console.log(`${out}: full page${expanded ? ', grid expanded' : ', grid in its scroll box (too large to expand)'}`);
  } finally {
    await browser.close();
  }
}
main().catch((e) => { console.error(`screenshot: ${e.message}`); process.exit(1); });

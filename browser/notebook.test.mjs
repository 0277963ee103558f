// Opens the exported wiki notebook (notebooks/out/html/wiki.html, nbconvert's HTML) in headless Chromium and reads it
// as a person does: the calibration table shows every wiki with its score and failing checks, the reference run's
// pages are rendered (titles, lists, links), a click on a link between pages lands on that page, and a click on a
// citation shows the cited document. Screenshots into OUT_DIR.
//
//   node notebook.test.mjs WIKI_NOTEBOOK.html OUT_DIR
//
// Prints PASS/FAIL lines and "N passed, M failed"; exits 1 on a failure.
import { chromium } from 'playwright-core';
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const [notebook, outDir] = process.argv.slice(2);
if (!notebook || !outDir) {
  console.error('usage: node notebook.test.mjs WIKI_NOTEBOOK.html OUT_DIR');
  process.exit(2);
}
mkdirSync(outDir, { recursive: true });
let passed = 0, failed = 0;
function check(name, ok, detail = '') {
  if (ok) passed++; else failed++;
  console.log((ok ? 'PASS ' : 'FAIL ') + 'wiki notebook: ' + name + (ok ? '' : ': ' + detail));
}

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
});
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  // nbconvert's page asks a CDN for MathJax and require.js: there is no network here, and the outputs need neither.
  await page.route(url => !url.href.startsWith('file:') && !url.href.startsWith('data:'), route => route.abort());
  await page.goto(pathToFileURL(resolve(notebook)).href, { waitUntil: 'domcontentloaded' });
  const inView = loc => loc.evaluate(e => {
    const r = e.getBoundingClientRect();
    return r.top >= 0 && r.top < window.innerHeight && r.height > 0;
  });

  const table = page.locator('table').filter({ has: page.locator('caption', { hasText: /^calibration on the public seed/ }) });
  check('the calibration table shows', (await table.count()) === 1 && await table.isVisible());
  const rows = table.locator('tbody tr');
  const cells = async i => (await rows.nth(i).locator('td').allTextContents()).map(s => s.trim());
  check('it lists the eleven wikis, the reference first at 1.00 with no check failing',
        (await rows.count()) === 11 && JSON.stringify(await cells(0)) === JSON.stringify(['reference', 'reference', '1.00', 'none']),
        JSON.stringify(await cells(0)));
  const names = [];
  for (let i = 0; i < await rows.count(); i++) names.push((await cells(i))[0]);
  check('best first, empty last, every adversarial wiki below the honest ones',
        names[names.length - 1] === 'empty' && names.indexOf('cite-all') > names.indexOf('no-citations')
        && ['dump', 'one-page', 'facts-uncited'].every(n => names.indexOf(n) > names.indexOf('missing-pages')), names.join(','));
  await table.scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${outDir}/wiki-calibration.png` });

  const run = page.locator('.brokkr-run').filter({ has: page.locator('.md-file') }).first();
  const index = run.locator('.files article.md-file').first();
  check('the reference run shows its pages rendered from Markdown', (await run.locator('.files article.md-file').count()) === 10
        && await index.locator('h1').isVisible() && ((await index.locator('h1').textContent()) || '').endsWith(' wiki')
        && (await index.locator('li a').count()) === 9);
  const link = index.locator('li a').last();
  const name = (await link.textContent()) || '';
  await link.click();
  const target = page.locator('article.md-file:target');
  check('a click on a link between pages lands on that page',
        (await target.count()) === 1 && (await target.locator('h1').textContent()) === name && await inView(target),
        `${name} -> ${await target.count() ? await target.locator('h1').textContent() : 'no :target'}`);
  await page.screenshot({ path: `${outDir}/wiki-page.png` });
  const cite = target.locator('a[data-dest^="/docs/"]').first();
  const doc = await cite.getAttribute('data-dest');
  await cite.click();
  const source = page.locator('article.md-file:target');
  check('a click on a citation shows the cited document',
        (await source.count()) === 1 && (await source.locator('.md-path').textContent()) === doc && await source.isVisible()
        && await inView(source),
        `${doc} -> ${await source.count() ? await source.locator('.md-path').textContent() : 'no :target'}`);
  await page.screenshot({ path: `${outDir}/wiki-source.png` });
} catch (e) {
  check('the browser session ran to the end', false, String(e && e.stack || e));
} finally {
  await browser.close();
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);

// Opens a ./brokkr report in headless Chromium (Debian's, through playwright-core: no browser
// download) and uses it as a reader does: it opens without errors or network requests, the
// failed-only filter hides what passed, a transcript expands. Takes screenshots into OUT_DIR.
//
//   node report.test.mjs REPORT.html OUT_DIR [COST_REPORT.html [WIKI_REPORT.html]]
//
// COST_REPORT.html, a report of priced candidates, is checked for its score-against-cost chart (#cost): an inline
// SVG with the candidates, the Pareto front's members starred and joined by its step line, the dominated one not;
// its screenshot is OUT_DIR/report-cost.png.
// WIKI_REPORT.html, a wiki experiment's report (the scripted reference and the hostile wiki-vandal), is read as a
// reader reads a wiki: a click on a link between pages lands on that page, a click on a citation opens the cited
// document, the vandal's <script>, onerror and javascript: link do nothing; screenshots OUT_DIR/report-wiki*.png.
// Prints PASS/FAIL lines and "N passed, M failed"; exits 1 on a failure.
import { chromium } from 'playwright-core';
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const [report, outDir, costReport, wikiReport] = process.argv.slice(2);
if (!report || !outDir) {
  console.error('usage: node report.test.mjs REPORT.html OUT_DIR');
  process.exit(2);
}
mkdirSync(outDir, { recursive: true });
let passed = 0, failed = 0;
function check(name, ok, detail = '') {
  if (ok) passed++; else failed++;
  console.log((ok ? 'PASS ' : 'FAIL ') + 'report: ' + name + (ok ? '' : ': ' + detail));
}

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
});
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const fetched = [], errors = [];
  page.on('request', r => { if (!r.url().startsWith('file:') && !r.url().startsWith('data:')) fetched.push(r.url()); });
  page.on('pageerror', e => errors.push(String(e)));
  page.on('console', m => { if (m.type() === 'error') errors.push(m.text()); });
  await page.goto(pathToFileURL(resolve(report)).href, { waitUntil: 'load' });

  check('opens with the experiment as title', (await page.title()).endsWith(' - Brokkr report'), await page.title());
  const headline = (await page.locator('#headline').textContent()) || '';
  check('a headline says what was found, before the tables',
    await page.locator('#headline').isVisible() && / did best: mean reward .* above .*95% interval .* cells/.test(headline), headline);
  check('scorecard table shows', await page.locator('#scorecard table').first().isVisible());
  // a scorecard too wide for the page is stacked column groups, each repeating benchmark and candidate
  const groups = page.locator('#scorecard table');
  const heads = [];
  let steps, inTok;
  for (let g = 0; g < await groups.count(); g++) {
    const h = await groups.nth(g).locator('th').allTextContents();
    heads.push(...h);
    const row = groups.nth(g).locator('tbody tr').first().locator('td');
    if (h.includes('steps/ep')) steps = await row.nth(h.indexOf('steps/ep')).textContent();
    if (h.includes('in_tok/ep')) inTok = await row.nth(h.indexOf('in_tok/ep')).textContent();
  }
  check('scorecard has what an episode costs (scripted: tokens a dash, steps counted)',
        ['in_tok/ep', 'out_tok/ep', 'steps/ep', 'calls/ep', 'req_chars/ep'].every(h => heads.includes(h)) && Number(steps) > 0 && inTok === '\u2013',
        `${heads.join(',')} steps=${steps} in_tok=${inTok}`);
  const edges = await page.evaluate(() => ({
    page: document.documentElement.clientWidth,
    right: [...document.querySelectorAll('#scorecard table')].map(t => Math.round(t.getBoundingClientRect().right)) }));
  check('every scorecard column is on the page, none off its right edge', edges.right.every(r => r <= edges.page), JSON.stringify(edges));
  check('statistics table shows with its intervals', await page.locator('#statistics table').isVisible()
        && (await page.locator('#statistics').textContent()).includes('wilson95_lo'));
  check('pass^k chart shows (inline SVG)', await page.locator('#passk svg').isVisible());
  const chartBox = await page.locator('#passk svg').boundingBox();
  check('the chart has its size', chartBox && chartBox.width > 600 && chartBox.height > 300, JSON.stringify(chartBox));
  await page.screenshot({ path: `${outDir}/report-top.png` });

  const attempts = page.locator('details.attempt');
  const total = await attempts.count();
  const notPassed = await page.locator('details.attempt[data-passed="0"]').count();
  const taskRows = await page.locator('tr.task-row').count();
  const failedTasks = await page.locator('tr.task-row[data-passed="0"]').count();
  check('attempts listed, some passed and some not', total > notPassed && notPassed > 0, `${notPassed} of ${total}`);
  check('count of what shows', (await page.locator('#shown').textContent()) === `showing ${total} of ${total} attempts`,
        await page.locator('#shown').textContent());
  check('every attempt starts folded', (await page.locator('details.attempt[open]').count()) === 0);

  // A passed attempt with tool calls expands to its grade and transcript.
  const rich = page.locator('details.attempt[data-passed="1"]').filter({ has: page.locator('.msg-tool') }).first();
  await rich.locator(':scope > summary').click();
  check('a transcript expands on a click', (await rich.getAttribute('open')) !== null);
  check('the grade breakdown shows', await rich.locator('.grade table.checks').isVisible());
  check('the dialogue shows user and assistant turns', await rich.locator('.msg-user').first().isVisible()
        && await rich.locator('.msg-assistant').first().isVisible());
  check('tool calls and their results show', await rich.locator('.call').first().isVisible() && await rich.locator('.msg-tool').first().isVisible());
  const json = rich.locator('.msg-tool details.brokkr-json').first();
  if (await json.count() > 0) {
    const wasOpen = (await json.getAttribute('open')) !== null;
    await json.locator(':scope > summary').click();
    check('a JSON tool result folds and unfolds', ((await json.getAttribute('open')) !== null) !== wasOpen);
    if (!wasOpen) await json.locator(':scope > summary').click(); else await json.locator(':scope > summary').click();
  } else {
    check('a JSON tool result folds and unfolds', false, 'no JSON tool result in the expanded attempt');
  }
  await rich.locator(':scope > summary').scrollIntoViewIfNeeded();
  await page.evaluate(() => window.scrollBy(0, -60));
  await page.screenshot({ path: `${outDir}/report-transcript.png` });
  await rich.locator(':scope > summary').click();

  // The failed-only filter.
  await page.locator('#failed-only').check();
  check('failed only: passed attempts hidden', (await page.locator('details.attempt:visible').count()) === notPassed,
        `${await page.locator('details.attempt:visible').count()} visible, ${notPassed} not passed`);
  check('failed only: passed tasks hidden', (await page.locator('tr.task-row:visible').count()) === failedTasks,
        `${await page.locator('tr.task-row:visible').count()} of ${taskRows}`);
  check('failed only: the count says so', (await page.locator('#shown').textContent()) === `showing ${notPassed} of ${total} attempts`);
  const firstFailed = page.locator('details.attempt:visible').first();
  await firstFailed.locator(':scope > summary').click();
  check('a failed attempt expands with its failed checks', await firstFailed.locator('.grade .bad').first().isVisible());
  await page.locator('#tasks').scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${outDir}/report-failed-only.png` });
  await page.locator('#failed-only').uncheck();
  check('unfiltered again: every attempt listed', (await page.locator('details.attempt:visible').count()) === total);

  await page.locator('#expand-all').click();
  check('expand all opens every attempt', (await page.locator('details.attempt[open]').count()) === total);
  await page.locator('#collapse-all').click();
  check('collapse all folds them again', (await page.locator('details.attempt[open]').count()) === 0);

  if (costReport) {
    await page.goto(pathToFileURL(resolve(costReport)).href, { waitUntil: 'load' });
    const cost = page.locator('#cost');
    check('the priced report has its score-against-cost section', await cost.isVisible()
          && (await cost.locator('h2').textContent()) === 'Score against cost');
    const svg = cost.locator('svg');
    const box = await svg.boundingBox();
    check('the cost chart is an inline SVG of its size', box && box.width > 600 && box.height > 300, JSON.stringify(box));
    // The SVG draws its words as outlines: the front is read from the caption, the step line by its grey stroke.
    check('the chart is titled for its candidates and front', (await cost.locator('figure').getAttribute('aria-label'))
          === 'bfcl-cost: score against cost (3 candidates, * on the Pareto front)');
    const strokes = await svg.evaluate(s => [...s.querySelectorAll('[style]')].map(e => e.getAttribute('style')));
    check('the Pareto front is drawn (its grey steps, and its legend line)',
          strokes.filter(st => st.includes('stroke:rgb(128,128,128)')).length >= 3, strokes.length + ' styled shapes');
    check('three candidates plotted in three colours',
          new Set(strokes.map(st => (st.match(/stroke:rgb\((0,114,178|0,158,115|213,94,0)\)/) || [])[1]).filter(Boolean)).size === 3);
    check('the front is caller and mute, not mute-pricey', (await cost.locator('.front').textContent()) === 'caller, mute',
          await cost.locator('.front').textContent());
    const caption = (await cost.locator('figcaption').textContent()) || '';
    check('the caption says what the grey steps are', caption.includes('Pareto front'), caption);
    const usd = await page.locator('#scorecard th').allTextContents();
    check('the scorecard has the dollars the chart plots', usd.includes('usd_agent/ep'), usd.join(','));
    await cost.scrollIntoViewIfNeeded();
    await cost.screenshot({ path: `${outDir}/report-cost.png` });
  }

  if (wikiReport) {
    await page.goto(pathToFileURL(resolve(wikiReport)).href, { waitUntil: 'load' });
    const inView = loc => loc.evaluate(e => {
      const r = e.getBoundingClientRect();
      return r.top >= 0 && r.top < window.innerHeight && r.height > 0;
    });
    const ref = page.locator('details.attempt').filter({ has: page.locator('summary b', { hasText: /^reference$/ }) }).first();
    await ref.locator(':scope > summary').click();
    const files = ref.locator('.files');
    check('wiki: the attempt shows its pages beside its grade', await files.isVisible()
          && (await files.locator('h3').textContent()) === 'the wiki: 10 pages under /wiki'
          && (await files.locator('article.md-file').count()) === 10);
    const index = files.locator('article.md-file').first();
    check('wiki: the index page rendered from its Markdown (a title, a list of links)',
          (await index.locator('.md-path').textContent()) === '/wiki/index.md'
          && await index.locator('h1').isVisible() && (await index.locator('li a.md-link').count()) === 9);
    // The last entry of the index is the page furthest down: the jump has to scroll to it.
    const link = index.locator('li a.md-link').last();
    const name = (await link.textContent()) || '';
    await link.click();
    const target = page.locator('article.md-file:target');
    check('wiki: a click on a link between pages lands on that page',
          (await target.count()) === 1 && (await target.locator('h1').textContent()) === name && await inView(target),
          `${name} -> ${await target.count() ? await target.locator('h1').textContent() : 'no :target'}`);
    check('wiki: the location names the page', (await page.evaluate(() => location.hash)) === (await link.getAttribute('href')));
    await page.screenshot({ path: `${outDir}/report-wiki.png` });
    const cite = target.locator('a.md-link[data-dest^="/docs/"]').first();
    const doc = await cite.getAttribute('data-dest');
    check('wiki: the sources start folded', (await page.locator('details.sources[open]').count()) === 0);
    await cite.click();
    const source = page.locator('article.md-file:target');
    check('wiki: a click on a citation opens the cited document',
          (await source.count()) === 1 && (await source.locator('.md-path').textContent()) === doc
          && await source.isVisible() && await inView(source) && (await page.locator('details.sources[open]').count()) === 1,
          `${doc} -> ${await source.count() ? await source.locator('.md-path').textContent() : 'no :target'}`);
    await page.screenshot({ path: `${outDir}/report-wiki-source.png` });

    const vandal = page.locator('details.attempt').filter({ has: page.locator('summary b', { hasText: /^vandal$/ }) }).first();
    await vandal.locator(':scope > summary').click();
    const vIndex = vandal.locator('article.md-file').first();
    check('wiki: a hostile page\'s markup shows as text', ((await vIndex.locator('h1').textContent()) || '').startsWith('<script>window.pwned=1</script>')
          && ((await vIndex.textContent()) || '').includes('<img src=x onerror="window.pwned=3">'));
    const broken = vIndex.locator('.md-broken');
    check('wiki: the link the grader counts broken is marked', (await broken.count()) === 1 && (await broken.textContent()) === 'Gone'
          && await broken.isVisible());
    await vIndex.locator('.md-external', { hasText: 'click me' }).click();
    await vIndex.locator('a.md-link', { hasText: 'Alpha' }).click();
    check('wiki: the hostile page\'s link to its other page works', (await page.locator('article.md-file:target h1').textContent()) === 'Alpha');
    check('wiki: no script of the page ran (window.pwned unset)', (await page.evaluate(() => typeof window.pwned)) === 'undefined');
    await vIndex.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${outDir}/report-wiki-vandal.png` });
  }

  check('no network requests', fetched.length === 0, fetched.join(', '));
  check('no script errors', errors.length === 0, errors.join(' | '));
} catch (e) {
  check('the browser session ran to the end', false, String(e && e.stack || e));
} finally {
  await browser.close();
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);

// Compare side by side (issue 33): two scenarios pinned with real clicks on "Pin this scenario" stay next to the
// current one; each column's figures are the CLI's for that scenario (`gpuguide estimate`, and the cheapest fitting
// rent offer of `gpuguide rank` for its card), the link carries the pins, and the view is looked at on a desktop and
// a phone in both languages (build/browser/compare-*.png).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { launch, serveDist, openPage, waitReady, repoRoot, anchorCentre, shotsDir, waitFrames, waitSettled } from './harness.mjs';

const cli = path.join(repoRoot, 'build', 'native', 'gpuguide');
const base = { model: 'qwen2.5-0.5b', batch_size: 4, seq_len: 512, precision: 'bf16-amp', optimizer: 'adamw',
  gpu: { id: 'rtx-4090', count: 1 }, dataset: { samples: 20000, epochs: 1 } };
const full = base;
const lora = { ...base, method: 'lora' };
const fourCards = { ...base, gpu: { id: 'rtx-4090', count: 4 } };

const run = (command, scenario) =>
  JSON.parse(execFileSync(cli, [command, '-'], { input: JSON.stringify(scenario), maxBuffer: 1 << 26 }).toString());
// The cost panel's rent figure: the cheapest offer for the card that the job fits.
const cheapestRent = (ranking, gpu) => {
  const costs = ranking.options.filter((o) => o.kind === 'rent' && o.gpu === gpu && o.fits).map((o) => o.cost.amount);
  return costs.length ? Math.min(...costs) : null;
};

let browser, server;
before(async () => { browser = await launch(); server = await serveDist(); });
after(async () => { if (browser) await browser.close(); if (server) await server.close(); });

const hashOf = (s) => '#s=1.' + Buffer.from(JSON.stringify(s)).toString('base64url');

async function pinWithAClick(page) {
  const before = await page.evaluate(() => window.gpuguide.compare().pins.length);
  const pin = await anchorCentre(page, 'pin');
  await page.mouse.click(pin.x, pin.y);
  await page.waitForFunction((n) => window.gpuguide.compare().pins.length === n + 1, before, { timeout: 10000 });
}

async function loadAndSettle(page, scenario) {
  assert.deepEqual(await page.evaluate((s) => window.gpuguide.load(s), scenario), []);
  await waitSettled(page);  // the ranking comes one frame after the results
}

function checkAgainstCli(entry, scenario) {
  const report = run('estimate', entry.scenario);
  assert.deepEqual(entry.report, report, 'the column is the CLI report of its scenario');
  assert.equal(entry.scenario.method || 'full', scenario.method || 'full');
  assert.equal(entry.scenario.gpu.count, scenario.gpu.count);
  const rent = cheapestRent(run('rank', entry.scenario), scenario.gpu.id);
  assert.equal(entry.rent ? entry.rent.cost.amount : null, rent, 'the rent figure is the CLI ranking\'s');
}

test('two pinned scenarios sit beside the current one with the CLI\'s figures, and the link keeps them', async () => {
  const { context, page, problems } = await openPage(browser, server.url + hashOf(full), { width: 1280, height: 800 });
  assert.equal((await waitReady(page)).ready, true);
  await waitSettled(page);
  await pinWithAClick(page);              // full fine-tuning on one 4090
  await loadAndSettle(page, lora);
  await pinWithAClick(page);              // LoRA on one 4090
  await loadAndSettle(page, fourCards);   // now: full fine-tuning on four
  const cmp = await page.evaluate(() => window.gpuguide.compare());
  assert.equal(cmp.pins.length, 2);
  checkAgainstCli(cmp.pins[0], full);
  checkAgainstCli(cmp.pins[1], lora);
  checkAgainstCli(cmp.current, fourCards);
  for (const pin of cmp.pins) {
    const d = pin.differences;
    assert.ok(Math.abs(d.peak_bytes - (pin.report.memory_bytes.nvidia_smi - cmp.current.report.memory_bytes.nvidia_smi)) < 1);
    assert.ok(Math.abs(d.total_s - (pin.report.time.total_s - cmp.current.report.time.total_s)) < 1e-9 * pin.report.time.total_s);
  }
  assert.ok(cmp.pins[1].report.memory_bytes.nvidia_smi < cmp.pins[0].report.memory_bytes.nvidia_smi, 'LoRA needs less');
  const table = await page.evaluate(() => window.gpuguide.anchor('compare-table'));
  assert.ok(table, 'the comparison table is drawn');

  // The link carries the pins: a fresh page opened on it shows the same comparison.
  const link = await page.evaluate(() => location.hash);
  assert.match(link, /&p=1\./);
  const { context: c2, page: p2, problems: pr2 } = await openPage(browser, server.url + link, { width: 1280, height: 800 });
  await waitReady(p2);
  await waitSettled(p2);
  assert.deepEqual(await p2.evaluate(() => window.gpuguide.compare()), cmp);
  await c2.close();
  assert.deepEqual(pr2, []);

  // Screenshots: the comparison in view, in English and Chinese.
  for (const lang of ['en', 'zh']) {
    if (lang === 'zh') {
      const l = await anchorCentre(page, 'lang');
      await page.mouse.click(l.x, l.y);
      await waitSettled(page);
    }
    await scrollTo(page, 'compare-table');
    await page.screenshot({ path: path.join(shotsDir, `compare-1280-${lang}.png`) });
  }
  assert.deepEqual(problems, []);
  await context.close();
});

// Wheel-scrolls the results until the named widget's top is in the upper part of the window.
async function scrollTo(page, name) {
  for (let i = 0; i < 20; ++i) {
    const a = await page.evaluate((n) => window.gpuguide.anchor(n), name);
    const h = page.viewportSize().height;
    if (a && a.visible && a.y > 0.1 * h && a.y < 0.45 * h) return;
    const pin = await page.evaluate(() => window.gpuguide.anchor('pin'));
    if (!pin) return;
    await page.mouse.move(pin.x + 4, Math.min(Math.max(pin.y, 10), h - 10));
    await page.mouse.wheel(0, a && a.y < 0.1 * h ? -120 : 120);
    await waitFrames(page, 1);
  }
}

test('on a 390 px phone the comparison scrolls sideways inside its table, in both languages', async () => {
  const { context, page, problems } = await openPage(browser, server.url + hashOf(full), { width: 390, height: 844, scale: 2 });
  await waitReady(page);
  await waitSettled(page);
  await pinWithAClick(page);
  await loadAndSettle(page, lora);
  await pinWithAClick(page);
  await loadAndSettle(page, fourCards);
  const view = await anchorCentre(page, 'view-answer');  // gpuguide.load leaves the phone on its current view
  await page.mouse.click(view.x, view.y);
  await waitSettled(page);
  for (const lang of ['en', 'zh']) {
    if (lang === 'zh') {
      const l = await anchorCentre(page, 'lang');
      await page.mouse.click(l.x, l.y);
      await waitSettled(page);
    }
    await scrollTo(page, 'compare-table');
    const t = await page.evaluate(() => window.gpuguide.anchor('compare-table'));
    assert.ok(t && t.x >= 0 && t.x + t.w <= 390 + 0.5, `the table stays inside the screen: ${JSON.stringify(t)}`);
    await page.screenshot({ path: path.join(shotsDir, `compare-390-${lang}.png`) });
  }
  assert.deepEqual(problems, []);
  await context.close();
});

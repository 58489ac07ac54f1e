// The page budget (issue 8): the first frame in headless Chromium, and an idle page that costs almost no CPU.
// The issue's target is 1.5 s from navigation to the first frame; with software WebGL (SwiftShader) on 2 cores the
// page takes 1.8-1.9 s (docs/performance.md says where), so this test fails at 2.5 s, a guard against regressions,
// and prints how far the best load is from the target. Start-up is timed through the page's User Timing marks (gg:script, gg:wasm, gg:main,
// gg:webgl, gg:app-init, gg:results, gg:fonts, gg:ui, gg:first-frame; see docs/performance.md), written to
// build/browser/startup.json for the record.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { launch, serveDist, openPage, waitReady, shotsDir } from './harness.mjs';

const kFirstFrameTargetMs = 1500;  // issue 8's target (not met yet: see above)
const kFirstFrameBudgetMs = 2500;  // what the test enforces
const kLoads = 5;             // the best of several loads: the machine may be busy with something else for one
const kIdleWindowMs = 3000;
const kIdleCpuBudget = 0.05;  // main-thread busy fraction while nobody touches the page

let browser;
let server;

before(async () => {
  browser = await launch();
  server = await serveDist();
});

after(async () => {
  if (browser) await browser.close();
  if (server) await server.close();
});

async function startupMarks(page) {
  return page.evaluate(() => Object.fromEntries(
    performance.getEntriesByType('mark').filter((m) => m.name.startsWith('gg:'))
      .map((m) => [m.name.slice(3), Math.round(m.startTime)])));
}

test(`the first frame comes within ${kFirstFrameBudgetMs} ms of navigation (best of ${kLoads} loads)`, async () => {
  const loads = [];
  for (let i = 0; i < kLoads; i++) {
    const { context, page, problems } = await openPage(browser, server.url);
    const state = await waitReady(page);
    assert.equal(state.error, null);
    loads.push(await startupMarks(page));
    assert.deepEqual(problems, []);
    await context.close();
  }
  const best = loads.reduce((a, b) => (b['first-frame'] < a['first-frame'] ? b : a));
  fs.mkdirSync(shotsDir, { recursive: true });
  fs.writeFileSync(path.join(shotsDir, 'startup.json'),
                   JSON.stringify({ target_ms: kFirstFrameTargetMs, budget_ms: kFirstFrameBudgetMs, loads }, null, 1));
  console.log(`first frame (ms after navigation) per load: ${loads.map((l) => l['first-frame']).join(', ')}`);
  console.log(`best load: ${Object.entries(best).map(([k, v]) => `${k} ${v}`).join(', ')}`);
  console.log(`target ${kFirstFrameTargetMs} ms: ${best['first-frame'] <= kFirstFrameTargetMs ? 'met' : `missed by ${best['first-frame'] - kFirstFrameTargetMs} ms`}`);
  for (const name of ['script', 'wasm', 'main', 'webgl', 'app-init', 'results', 'fonts', 'ui', 'first-frame'])
    assert.ok(Number.isFinite(best[name]), `the start-up mark gg:${name} is missing`);
  assert.ok(best['first-frame'] <= kFirstFrameBudgetMs,
            `first frame after ${best['first-frame']} ms (budget ${kFirstFrameBudgetMs} ms): see build/browser/startup.json`);
});

test('an idle page keeps the main thread almost free', async () => {
  const { context, page, problems } = await openPage(browser, server.url);
  await waitReady(page);
  // Past the page's "active after input" window (2.5 s): the page says when it has paused its main loop.
  await page.waitForFunction(() => window.gpuguide.frame().idle, null, { timeout: 30000, polling: 100 });
  const cdp = await context.newCDPSession(page);
  await cdp.send('Performance.enable');
  const busy = async () => (await cdp.send('Performance.getMetrics')).metrics.find((m) => m.name === 'TaskDuration').value;
  const before = await busy();
  await page.waitForTimeout(kIdleWindowMs);
  const fraction = (await busy() - before) / (kIdleWindowMs / 1000);
  console.log(`idle main-thread busy fraction: ${(100 * fraction).toFixed(2)} %`);
  assert.ok(fraction < kIdleCpuBudget, `the idle page keeps the main thread ${(100 * fraction).toFixed(1)} % busy`);
  assert.deepEqual(problems, []);
  await context.close();
});

// Memory over one training step (issue 33): the page draws the report's memory_timeline (the CLI's `estimate` output,
// the same numbers) as stacked bands with the peak marked, at 1280x800 and on a 390x844 phone, in English and Chinese
// (build/browser/timeline-*.png, each with the peak's tooltip open).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { launch, serveDist, openPage, waitReady, repoRoot, anchorCentre, clickAnchor, screenshotColours, waitFrames, waitSettled } from './harness.mjs';

const cli = path.join(repoRoot, 'build', 'native', 'gpuguide');
// A full fine-tune that evaluates between steps: every phase of the step, and the evaluation column.
const job = { model: 'qwen2.5-0.5b', batch_size: 8, seq_len: 512, precision: 'bf16-amp', optimizer: 'adamw',
  eval_batch_size: 16, gpu: { id: 'rtx-4060' }, dataset: { samples: 20000, epochs: 1 } };
const hashOf = (s) => '#s=1.' + Buffer.from(JSON.stringify(s)).toString('base64url');

let browser, server;
before(async () => { browser = await launch(); server = await serveDist(); });
after(async () => { if (browser) await browser.close(); if (server) await server.close(); });

// Wheel over the results pane's scrollbar (tables inside it scroll on their own) until `name` is in the upper part.
async function scrollTo(page, name) {
  const h = page.viewportSize().height;
  for (let i = 0; i < 80; ++i) {
    const a = await page.evaluate((n) => window.gpuguide.anchor(n), name);
    if (a && a.visible && a.y > 0.08 * h && a.y < 0.4 * h) return a;
    const pane = await page.evaluate(() => window.gpuguide.anchor('results-pane'));
    await page.mouse.move(pane.x + pane.w - 3, pane.y + pane.h / 2);
    await page.mouse.wheel(0, a && a.y <= 0.08 * h ? -100 : 100);
    await waitFrames(page, 1);
  }
  throw new Error(`could not scroll ${name} into view`);
}

test('the timeline is the CLI\'s memory_timeline, drawn with its peak where the peak point is', async () => {
  const { context, page, problems } = await openPage(browser, server.url + hashOf(job), { width: 1280, height: 800 });
  assert.equal((await waitReady(page)).ready, true);
  await waitSettled(page);
  const report = await page.evaluate(() => JSON.parse(window.gpuguide.report()));
  const cliReport = JSON.parse(execFileSync(cli, ['estimate', '-'], { input: JSON.stringify(job) }).toString());
  assert.deepEqual(report.memory_timeline, cliReport.memory_timeline);
  const tl = report.memory_timeline;
  const n = tl.points.length;
  assert.equal(tl.points[n - 1].point, 'evaluation', 'the job evaluates: its pass is the last column');
  assert.ok(tl.points.filter((p) => p.point === 'backward').length >= 2, 'one point per backward segment');
  assert.equal(tl.points[tl.peak_index].allocated_bytes, report.memory_bytes.peak_allocated);

  const chart = await scrollTo(page, 'memory-timeline');
  const peak = await anchorCentre(page, 'timeline-peak');
  // Where the chart puts each point (memory_panel.cpp): one unit per phase, three for all the backward's points, 1.5
  // before the evaluation; the plot has 4.2 em on the left and 0.8 em on the right (16 px a em).
  const segments = tl.points.filter((p) => p.point === 'backward').length;
  const xs = [0];
  for (let i = 1; i < n; ++i)
    xs.push(xs[i - 1] + (tl.points[i].point === 'backward' ? 3 / segments : tl.points[i].point === 'evaluation' ? 1.5 : 1));
  const plotX = chart.x + 4.2 * 16, plotW = chart.w - 5.0 * 16;
  const at = -0.5 + ((peak.x - plotX) / plotW) * (xs[n - 1] + 1);
  const nearest = xs.reduce((best, v, i) => (Math.abs(v - at) < Math.abs(xs[best] - at) ? i : best), 0);
  assert.equal(nearest, tl.peak_index, `the peak marker sits on point ${tl.peak_index} (${at} units)`);
  assert.ok(peak.y > chart.y && peak.y < chart.y + chart.h, 'inside the chart');

  for (const lang of ['en', 'zh']) {
    if (lang === 'zh') await clickAnchor(page, 'lang');
    const a = await scrollTo(page, 'memory-timeline');
    const p = await anchorCentre(page, 'timeline-peak');
    await page.mouse.move(p.x, Math.min(p.y + 40, a.y + a.h - 50));  // over the peak's column: its tooltip
    await waitSettled(page);
    const shot = await screenshotColours(page, `timeline-1280-${lang}`);
    assert.ok(shot.colours > 20, `blank: ${shot.file}`);
  }
  assert.deepEqual(problems, []);
  await context.close();
});

test('on a 390 px phone the timeline fits the screen, in both languages', async () => {
  const { context, page, problems } = await openPage(browser, server.url + hashOf(job), { width: 390, height: 844, scale: 2 });
  await waitReady(page);
  await waitSettled(page);
  await clickAnchor(page, 'view-answer');
  for (const lang of ['en', 'zh']) {
    if (lang === 'zh') await clickAnchor(page, 'lang');
    const a = await scrollTo(page, 'memory-timeline');
    assert.ok(a.x >= 0 && a.x + a.w <= 390 + 0.5, `inside the screen: ${JSON.stringify(a)}`);
    await anchorCentre(page, 'timeline-peak');
    await page.mouse.move(2, 2);  // no tooltip: on a phone it would cover the chart
    await waitSettled(page);
    const shot = await screenshotColours(page, `timeline-390-${lang}`);
    assert.ok(shot.colours > 20, `blank: ${shot.file}`);
  }
  assert.deepEqual(problems, []);
  await context.close();
});

// The page on a 390x844 phone (issue 33): the answer comes first (the verdict above the inputs, and first in the
// answer view), and every wide table stays inside the screen and scrolls sideways instead of cutting its text
// (window.gpuguide.anchor's content_w and clipped_columns, ui::table_anchor). Screenshots of both views in English and
// Chinese, and of the desktop layout for comparison, go to build/browser/phone-*.png and layout-1280-*.png.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, serveDist, openPage, waitReady, clickAnchor, screenshotColours, waitFrames, waitSettled } from './harness.mjs';

const base = { model: 'qwen2.5-0.5b', batch_size: 4, seq_len: 512, precision: 'bf16-amp', optimizer: 'adamw',
  gpu: { id: 'rtx-4090', count: 1 }, dataset: { samples: 20000, epochs: 1 } };
const pins = [{ ...base, method: 'lora' }, { ...base, gpu: { id: 'rtx-4090', count: 4 } }];
const b64 = (v) => Buffer.from(JSON.stringify(v)).toString('base64url');
const link = `#s=1.${b64(base)}&p=1.${b64(pins)}`;
const kWidth = 390, kHeight = 844;

let browser, server;
before(async () => { browser = await launch(); server = await serveDist(); });
after(async () => { if (browser) await browser.close(); if (server) await server.close(); });

const anchor = (page, name) => page.evaluate((n) => window.gpuguide.anchor(n), name);

// Wheel over the pane's scrollbar (a table under the pointer would scroll itself instead) until `name` is drawn in
// the upper half of the screen.
async function scrollTo(page, pane, name) {
  let last = null, highest = Infinity, turnsWithoutGain = 0;
  for (let i = 0; i < 120; ++i) {
    const a = await anchor(page, name);
    if (a && a.visible && a.y > 0.05 * kHeight && a.y < 0.5 * kHeight) return a;
    // The last panels cannot scroll that far up: on the screen, and the pane has stopped (within half a pixel: the
    // page scrolls smoothly, and under load a frame may land mid-way), or it has not brought `name` any higher in
    // five turns (at the end of the Accuracy tab the table was seen to step between three places, 524-604 px).
    const onScreen = a && a.visible && a.y > 0.05 * kHeight && a.y < 0.85 * kHeight;
    if (onScreen && last && Math.abs(a.y - last.y) < 0.5) return a;
    if (a && a.y < highest - 0.5) { highest = a.y; turnsWithoutGain = 0; } else ++turnsWithoutGain;
    if (onScreen && turnsWithoutGain >= 5) return a;
    last = a;
    const p = await anchor(page, pane);
    await page.mouse.move(p.x + p.w - 3, p.y + p.h / 2);
    // Three notches at a time while the table is off the screen below (a screen is about eight notches), then one.
    const far = !a || a.y > kHeight;
    await page.mouse.wheel(0, a && a.y <= 0.05 * kHeight ? -100 : far ? 300 : 100);
    await waitFrames(page, 1);  // the frame that applies the wheel (the loop checks where it landed)
  }
  // Drawn with its top on the screen is enough for the checks (its columns and width); anything else is a failure.
  const a = await anchor(page, name);
  if (a && a.visible && a.y > 0 && a.y < 0.85 * kHeight) return a;
  throw new Error(`could not scroll ${name} into view: ${JSON.stringify(a)}`);
}

// A table on the phone: inside the screen, no column cutting its text; returns whether it scrolls sideways.
function checkTable(name, a) {
  assert.ok(a, `${name} is drawn`);
  assert.ok(a.x >= 0 && a.x + a.w <= kWidth + 0.5, `${name} stays inside the screen: ${JSON.stringify(a)}`);
  assert.equal(a.clipped_columns, 0, `${name}: no column cuts its text (${JSON.stringify(a)})`);
  return a.content_w > a.w + 1;
}

test('on a 390x844 phone the verdict comes first and the wide tables scroll sideways, in both languages', async () => {
  const { context, page, problems } = await openPage(browser, server.url + link, { width: kWidth, height: kHeight, scale: 2 });
  assert.equal((await waitReady(page)).ready, true);
  await waitSettled(page);
  for (const lang of ['en', 'zh']) {
    if (lang === 'zh') await clickAnchor(page, 'lang');
    // The inputs view (a link opens on the answer): the one-line verdict sits above the first input.
    await clickAnchor(page, 'view-job');
    await page.mouse.move(2, 2);
    await waitFrames(page);
    const verdict = await anchor(page, 'narrow-verdict'), inputs = await anchor(page, 'inputs');
    assert.ok(verdict && verdict.visible, 'the verdict is on the first screen');
    assert.ok(inputs && verdict.y + verdict.h <= inputs.y, `the verdict (${verdict.y}) is above the inputs (${inputs.y})`);
    assert.ok((await screenshotColours(page, `phone-job-390-${lang}`)).colours > 8);

    // The answer view: the verdict is the first thing in it, then every table fits the screen or scrolls.
    await clickAnchor(page, 'view-answer');
    const first = await anchor(page, 'verdict');
    assert.ok(first && first.visible && first.y < 0.35 * kHeight, `the verdict opens the answer: ${JSON.stringify(first)}`);
    for (const other of ['compare-table', 'breakdown-table', 'ranking-table', 'memory-timeline']) {
      const a = await anchor(page, other);
      if (a) assert.ok(a.y > first.y, `${other} comes after the verdict`);
    }
    assert.ok((await screenshotColours(page, `phone-answer-390-${lang}`)).colours > 8);
    let scrolling = 0;
    for (const name of ['compare-table', 'scaling-table', 'breakdown-table', 'ranking-table', 'percard-table']) {
      const a = await scrollTo(page, 'results-pane', name);
      if (checkTable(name, a)) ++scrolling;
      if (name === 'ranking-table') await screenshotColours(page, `phone-ranking-390-${lang}`);
    }
    assert.ok(scrolling >= 1, 'at least the comparison scrolls sideways');
  }
  // The Accuracy tab's table and the data tab's two (the page is in Chinese now).
  await page.evaluate(() => window.gpuguide.tab(2));
  await waitSettled(page);
  checkTable('validation-table', await scrollTo(page, 'tab-pane', 'validation-table'));
  await screenshotColours(page, 'phone-accuracy-table-390-zh');
  await page.evaluate(() => window.gpuguide.tab(3));
  await waitSettled(page);
  for (const name of ['gpus-table', 'offers-table']) checkTable(name, await scrollTo(page, 'tab-pane', name));
  assert.deepEqual(problems, []);
  await context.close();
});

test('the same link at 1280x800, in both languages (the desktop beside the phone)', async () => {
  const { context, page, problems } = await openPage(browser, server.url + link, { width: 1280, height: 800 });
  await waitReady(page);
  await waitSettled(page);
  for (const lang of ['en', 'zh']) {
    if (lang === 'zh') await clickAnchor(page, 'lang');
    await page.mouse.move(2, 2);  // off the language button (its tooltip)
    await waitFrames(page);
    const verdict = await anchor(page, 'verdict');
    assert.ok(verdict && verdict.visible && verdict.y < 0.3 * 800, 'the verdict is at the top of the answer');
    assert.ok((await screenshotColours(page, `layout-1280-${lang}`)).colours > 8);
  }
  assert.deepEqual(problems, []);
  await context.close();
});

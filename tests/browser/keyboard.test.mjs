// Issue 40: a phone's on-screen keyboard. A finger's tap on one of the page's text boxes focuses the invisible
// textarea #gg-keyboard (src/platform/web_keyboard.cpp), which is what makes a phone show its keyboard; what that
// keyboard types (the browser's insertText, as an on-screen keyboard or an IME delivers it, with no key events) goes
// into the box, and a tap outside closes it. Real touch (CDP touch events) and Chromium's own text input only; the
// test hook reads the scenario. 390x844 with touch, in Chinese. Screenshots: build/browser/keyboard-*.png.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, serveDist, openPage, waitReady, anchor, anchorCentre, scrollPaneTo, waitSettled, screenshotColours } from './harness.mjs';

let browser, server;
before(async () => { browser = await launch(); server = await serveDist(); });
after(async () => { if (browser) await browser.close(); if (server) await server.close(); });

const report = async (page) => JSON.parse(await page.evaluate(() => window.gpuguide.report()));
const focused = (page) => page.evaluate(() => (document.activeElement && document.activeElement.id) || '');

// A tap as Playwright's touchscreen makes it: touchstart and touchend at once (a hand's tap lasts 50-150 ms, a few
// frames; under this machine's load a finger held across frames would be a long press). The keyboard then opens from
// the frame that finds the box active (Chrome allows that focus); a tap held across a frame opens it in touchend.
async function tap(page, name) {
  const at = await anchorCentre(page, name);
  await page.touchscreen.tap(at.x, at.y);
  await waitSettled(page);
}
const keyboardOpen = (page) => page.waitForFunction(
  () => document.activeElement && document.activeElement.id === 'gg-keyboard', null, { timeout: 10000 });

test('390x844 zh touch: a tap on the batch field opens the keyboard, what it types sets the batch, a tap outside closes it', { timeout: 240000 }, async () => {
  const size = { width: 390, height: 844, scale: 2 };
  const { context, page, problems } = await openPage(browser, server.url, { ...size, touch: true });
  assert.equal((await waitReady(page)).ready, true);
  await waitSettled(page);
  await tap(page, 'lang');
  await page.waitForFunction(() => window.gpuguide.ui().lang === 'zh', null, { timeout: 5000 });
  if (await anchor(page, 'region-elsewhere')) await tap(page, 'region-elsewhere');  // the first visit's question
  await tap(page, 'view-job');  // the phone shows the job's inputs or the answer, one at a time
  const before = (await report(page)).scenario.batch_size;
  const want = before === 48 ? 40 : 48;
  await scrollPaneTo(page, 'results-pane', 'batch', size.height);  // the phone's one pane
  assert.notEqual(await focused(page), 'gg-keyboard', 'no keyboard before the tap');

  await tap(page, 'batch');
  await keyboardOpen(page);
  // ImGui selects a number field's text when it is activated: what the keyboard types replaces it.
  await page.keyboard.insertText(String(want));
  await page.waitForFunction((w) => JSON.parse(window.gpuguide.report()).scenario.batch_size === w, want,
                             { timeout: 10000 });
  await screenshotColours(page, 'keyboard-typed-zh-390');

  // Backspace: an on-screen keyboard sends it as a key (its text area is empty), pressed and released at once: 48 -> 4.
  await page.keyboard.press('Backspace');
  await page.waitForFunction((w) => JSON.parse(window.gpuguide.report()).scenario.batch_size === w, Math.floor(want / 10),
                             { timeout: 10000 });
  await page.keyboard.insertText(String(want % 10));
  await page.waitForFunction((w) => JSON.parse(window.gpuguide.report()).scenario.batch_size === w, want,
                             { timeout: 10000 });

  // A tap on the page outside any box: the box lets go, and the keyboard closes.
  const at = await anchorCentre(page, 'batch');
  await page.touchscreen.tap(8, at.y - 120);
  await waitSettled(page);
  await page.waitForFunction(() => !document.activeElement || document.activeElement.id !== 'gg-keyboard', null,
                             { timeout: 5000 });
  assert.equal((await report(page)).scenario.batch_size, want, 'the typed batch stays');

  // The keyboard comes back with the next tap on the box.
  await page.touchscreen.tap(at.x, at.y);
  await keyboardOpen(page);
  assert.deepEqual(problems, []);
  await context.close();
});

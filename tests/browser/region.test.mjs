// "Where are you?" (issue 40): asked once at the top of the inputs, answered with a real click, remembered in the
// saved settings, never put in a shared link; at 1280x800 in English and 390x844 in Chinese.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, serveDist, openPage, waitReady, screenshotColours, clickAnchor, waitSettled } from './harness.mjs';

let browser;
let server;
before(async () => { browser = await launch(); server = await serveDist(); });
after(async () => { if (browser) await browser.close(); if (server) await server.close(); });

const stored = (page) => page.evaluate(() => JSON.parse(localStorage.getItem('gpuguide.v1') || '{}'));
const drawn = (page, name) => page.evaluate((n) => window.gpuguide.anchor(n), name);

test('the region question is asked once, a click answers it, the answer is saved and stays out of links', async () => {
  const { context, page, problems } = await openPage(browser, server.url, { width: 1280, height: 800 });
  assert.equal((await waitReady(page)).ready, true);
  assert.ok(await drawn(page, 'region-mainland'), 'the question is on screen before it is answered');
  assert.ok((await screenshotColours(page, 'region-question-1280-en')).colours > 8);
  await clickAnchor(page, 'region-mainland');
  await page.waitForFunction(() => (localStorage.getItem('gpuguide.v1') || '').includes('mainland_china'));
  assert.equal((await stored(page)).user_region, 'mainland_china');
  assert.equal(await drawn(page, 'region-mainland'), null, 'answered: the question is gone');
  // A link is for someone else, who may be elsewhere: it carries the job, not where the sender is.
  const hash = await page.evaluate(() => decodeURIComponent(location.hash));
  assert.ok(hash.length > 1);
  assert.ok(!hash.includes('user_region') && !hash.includes('mainland'), hash);
  assert.ok((await screenshotColours(page, 'region-answered-1280-en')).colours > 8);
  // The next visit does not ask again.
  await page.reload();
  await waitReady(page);
  await waitSettled(page);
  assert.equal(await drawn(page, 'region-mainland'), null);
  assert.equal((await stored(page)).user_region, 'mainland_china');
  assert.deepEqual(problems, []);
  await context.close();
});

test('on a 390x844 touch phone in Chinese the question is answered with a tap', async () => {
  const { context, page, problems } = await openPage(browser, server.url, { width: 390, height: 844, touch: true });
  assert.equal((await waitReady(page)).ready, true);
  await clickAnchor(page, 'lang');
  await waitSettled(page);
  assert.ok(await drawn(page, 'region-elsewhere'));
  assert.ok((await screenshotColours(page, 'region-question-390-zh')).colours > 8);
  const a = await page.evaluate(() => window.gpuguide.anchor('region-elsewhere'));
  await page.touchscreen.tap(a.x + a.w / 2, a.y + a.h / 2);
  await page.waitForFunction(() => (localStorage.getItem('gpuguide.v1') || '').includes('elsewhere'), null, { timeout: 10000 });
  assert.equal((await stored(page)).user_region, 'elsewhere');
  await waitSettled(page);
  assert.equal(await drawn(page, 'region-elsewhere'), null);
  assert.ok((await screenshotColours(page, 'region-answered-390-zh')).colours > 8);
  assert.deepEqual(problems, []);
  await context.close();
});

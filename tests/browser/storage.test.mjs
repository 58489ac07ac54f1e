// Saved settings: the last scenario comes back on the next visit; a damaged store is moved aside (nothing lost)
// and the defaults work; a newer version's store is left untouched.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { launch, serveDist, waitReady, screenshotColours, shotsDir, anchorCentre, waitSettled } from './harness.mjs';

let browser;
let server;
before(async () => { browser = await launch(); server = await serveDist(); });
after(async () => { if (browser) await browser.close(); if (server) await server.close(); });

async function visit(context, fragment = '') {
  const page = await context.newPage();
  const problems = [];
  page.on('console', (m) => { if (m.type() === 'error') problems.push(m.text()); });
  page.on('pageerror', (e) => problems.push(e.message));
  await page.goto(server.url + fragment);
  await waitReady(page);
  return { page, problems };
}
const model = async (page) => JSON.parse(await page.evaluate(() => window.gpuguide.report())).scenario.model;

test('the last scenario is kept for the next visit', async () => {
  const context = await browser.newContext();
  const first = await visit(context);
  assert.deepEqual(await first.page.evaluate(() => window.gpuguide.load({ model: 'vit-b-16', batch_size: 64 })), []);
  await first.page.waitForFunction(() => (localStorage.getItem('gpuguide.v1') || '').includes('vit-b-16'));
  await first.page.close();
  const second = await visit(context);
  assert.equal(await model(second.page), 'vit-b-16');
  assert.deepEqual([...first.problems, ...second.problems], []);
  await context.close();
});

test('a damaged store is moved aside, the defaults work, and the damaged text can be saved as a file', async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 720 }, acceptDownloads: true });
  await context.addInitScript(() => {
    if (!sessionStorage.getItem('seeded')) { localStorage.setItem('gpuguide.v1', '{"version":1,"scenario":{broken'); sessionStorage.setItem('seeded', '1'); }
  });
  const { page, problems } = await visit(context);
  assert.equal(await model(page), 'bert-base');
  const kept = await page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('gpuguide.v1.unreadable.'))
    .map((k) => localStorage.getItem(k)));
  assert.deepEqual(kept, ['{"version":1,"scenario":{broken']);
  await screenshotColours(page, 'storage-damaged');
  // The notice offers the damaged text as a file ("Save that data as a file", under the notice).
  const keep = await anchorCentre(page, 'save-kept-store');
  const [download] = await Promise.all([page.waitForEvent('download'), page.mouse.click(keep.x, keep.y)]);
  assert.equal(download.suggestedFilename(), 'gpuguide-saved-settings.json');
  assert.equal(fs.readFileSync(await download.path(), 'utf8'), '{"version":1,"scenario":{broken');
  assert.deepEqual(problems, []);
  await context.close();
});

test("a newer version's store is left untouched", async () => {
  const context = await browser.newContext();
  const newer = JSON.stringify({ version: 7, scenario: { model: 'something-new' } });
  await context.addInitScript((text) => {
    if (!sessionStorage.getItem('seeded')) { localStorage.setItem('gpuguide.v1', text); sessionStorage.setItem('seeded', '1'); }
  }, newer);
  const { page, problems } = await visit(context);
  assert.equal(await model(page), 'bert-base');
  assert.deepEqual(await page.evaluate(() => window.gpuguide.load({ model: 'gpt2' })), []);
  await waitSettled(page);
  assert.equal(await page.evaluate(() => localStorage.getItem('gpuguide.v1')), newer);
  assert.deepEqual(problems, []);
  await context.close();
});

// The user's own data (issue 7): a card and an offer of their own, saved with the settings, exported as a file
// with a real click on "Save as a file", and loaded into a fresh browser through "Load from a file".
const kUserData = {
  schema_version: 1,
  gpus: [{ id: 'my-lab-card', name: 'Lab card', memory_gib: 20, memory_bandwidth_gb_per_s: 800,
           dense_tflops: { fp32: 40, fp16: 80 }, tdp_w: 300,
           street_price_cny: { new: 9000, used: null, as_of: '2026-11-30', source: 'entered by the user' } }],
  offers: [{ id: 'my-offer-lab', provider: 'Lab cluster', gpu: 'my-lab-card', gpu_count: 1, price_per_hour: 1.5,
             currency: 'CNY', billing: 'on-demand' }],
};

test('own cards and offers are used, saved, exported and imported as a file', async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, acceptDownloads: true });
  const stored = JSON.stringify({ version: 1, user_data: kUserData,
                                  scenario: { model: 'bert-base', batch_size: 8, seq_len: 128, gpu: { id: 'my-lab-card' } } });
  await context.addInitScript((text) => {
    if (!sessionStorage.getItem('seeded')) { localStorage.setItem('gpuguide.v1', text); sessionStorage.setItem('seeded', '1'); }
  }, stored);
  const { page, problems } = await visit(context);
  const report = JSON.parse(await page.evaluate(() => window.gpuguide.report()));
  assert.equal(report.scenario.gpu.id, 'my-lab-card');
  await page.evaluate(() => window.gpuguide.tab(3));
  await waitSettled(page);
  await screenshotColours(page, 'user-data-1280x800');
  const save = await anchorCentre(page, 'save-file');  // "Save as a file" on the GPUs and prices tab
  const [download] = await Promise.all([page.waitForEvent('download'), page.mouse.click(save.x, save.y)]);
  assert.equal(download.suggestedFilename(), 'gpuguide-my-data.json');
  const exported = JSON.parse(fs.readFileSync(await download.path(), 'utf8'));
  assert.deepEqual(exported, kUserData);
  // The address bar's link carries the card the scenario is on (src/ui/link.h).
  const link = await page.evaluate(() => location.hash);
  assert.ok(link.includes('&u=1.'), link);
  assert.deepEqual(problems, []);
  await context.close();

  // Someone who opens that link gets the same report; the card is used for that view, not saved into their data
  // unless they ask (issue 30).
  const reader = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const opened = await visit(reader, link);
  assert.deepEqual(JSON.parse(await opened.page.evaluate(() => window.gpuguide.report())), report);
  await opened.page.waitForFunction(() => (localStorage.getItem('gpuguide.v1') || '').includes('my-lab-card'));
  assert.equal(JSON.parse(await opened.page.evaluate(() => localStorage.getItem('gpuguide.v1'))).user_data, undefined);
  assert.deepEqual((await opened.page.evaluate(() => window.gpuguide.notice())).link.records,
                   ['Lab card (my-lab-card)', 'Lab cluster · my-lab-card (my-offer-lab)']);
  assert.deepEqual(opened.problems, []);
  await reader.close();

  // A classmate's browser: nothing saved; the file comes in through the file picker.
  const fresh = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const other = await visit(fresh);
  assert.notDeepEqual(await other.page.evaluate(() => window.gpuguide.load({ model: 'gpt2', gpu: { id: 'my-lab-card' } })), []);
  await other.page.evaluate(() => window.gpuguide.tab(3));
  await other.page.waitForTimeout(500);
  const load = await anchorCentre(other.page, 'load-file');  // "Load from a file"
  const [chooser] = await Promise.all([other.page.waitForEvent('filechooser'), other.page.mouse.click(load.x, load.y)]);
  await chooser.setFiles({ name: 'gpuguide-my-data.json', mimeType: 'application/json',
                           buffer: Buffer.from(JSON.stringify(exported)) });
  await other.page.waitForTimeout(400);
  const confirm = await anchorCentre(other.page, 'import-confirm');  // it asks first
  await other.page.mouse.click(confirm.x, confirm.y);
  await other.page.waitForFunction(() => (localStorage.getItem('gpuguide.v1') || '').includes('my-lab-card'));
  assert.deepEqual(await other.page.evaluate(() => window.gpuguide.load({ model: 'gpt2', gpu: { id: 'my-lab-card' } })), []);
  assert.equal(JSON.parse(await other.page.evaluate(() => window.gpuguide.report())).scenario.gpu.id, 'my-lab-card');
  assert.deepEqual(other.problems, []);
  await fresh.close();
});

test('a card of their own is added with real clicks and keys, and the scenario can use it', async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 1000 } });
  const { page, problems } = await visit(context);
  await page.evaluate(() => window.gpuguide.tab(3));
  await waitSettled(page);
  // "A card that is not in the catalog", opened; its fields (see own-card-form.png).
  const section = await anchorCentre(page, 'my-gpu');
  await page.mouse.click(section.rect.x + 10, section.y);  // on the arrow: a tree node's row is wider than its label
  await waitSettled(page);
  const type = async (field, text) => {
    const at = await anchorCentre(page, field);
    await page.mouse.click(at.x, at.y);
    await page.keyboard.press('Control+A');
    await page.keyboard.type(text);
    await page.keyboard.press('Enter');
    await waitSettled(page);
  };
  await type('my_gpu_name', 'Lab 4090 48G');
  await type('my_gpu_mem', '48');
  await type('my_gpu_bw', '1008');
  await type('my_gpu_fp32', '82.6');
  await page.mouse.move(1, 999);
  await waitSettled(page);
  await page.screenshot({ path: path.join(shotsDir, 'own-card-form.png') });
  const add = await anchorCentre(page, 'my-gpu-add');  // "Add this card"
  await page.mouse.click(add.x, add.y);
  await page.waitForFunction(() => (localStorage.getItem('gpuguide.v1') || '').includes('Lab 4090 48G'));
  const saved = JSON.parse(await page.evaluate(() => localStorage.getItem('gpuguide.v1')));
  const card = saved.user_data.gpus[0];
  assert.equal(card.memory_gib, 48);
  assert.equal(card.memory_bandwidth_gb_per_s, 1008);
  assert.equal(card.dense_tflops.fp32, 82.6);
  assert.deepEqual(await page.evaluate((id) => window.gpuguide.load({ model: 'gpt2', gpu: { id } }), card.id), []);
  const report = JSON.parse(await page.evaluate(() => window.gpuguide.report()));
  assert.equal(report.gpu.memory_bytes, 48 * 2 ** 30);
  assert.deepEqual(problems, []);
  await context.close();
});

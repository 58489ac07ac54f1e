// Saved settings: the last scenario comes back on the next visit; a damaged store is moved aside (nothing lost)
// and the defaults work; a newer version's store is left untouched.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, serveDist, waitReady, screenshotColours } from './harness.mjs';

let browser;
let server;
before(async () => { browser = await launch(); server = await serveDist(); });
after(async () => { if (browser) await browser.close(); if (server) await server.close(); });

async function visit(context) {
  const page = await context.newPage();
  const problems = [];
  page.on('console', (m) => { if (m.type() === 'error') problems.push(m.text()); });
  page.on('pageerror', (e) => problems.push(e.message));
  await page.goto(server.url);
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

test('a damaged store is moved aside and the defaults work', async () => {
  const context = await browser.newContext();
  await context.addInitScript(() => {
    if (!sessionStorage.getItem('seeded')) { localStorage.setItem('gpuguide.v1', '{"version":1,"scenario":{broken'); sessionStorage.setItem('seeded', '1'); }
  });
  const { page, problems } = await visit(context);
  assert.equal(await model(page), 'bert-base');
  assert.equal(await page.evaluate(() => localStorage.getItem('gpuguide.v1.unreadable')), '{"version":1,"scenario":{broken');
  await screenshotColours(page, 'storage-damaged');
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
  await page.waitForTimeout(300);
  assert.equal(await page.evaluate(() => localStorage.getItem('gpuguide.v1')), newer);
  assert.deepEqual(problems, []);
  await context.close();
});

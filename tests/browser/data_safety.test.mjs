// The user's data is never lost (issue 30), through the page as a user meets it: "Load from a file" refuses what is
// not a data file and asks before it changes anything, "Undo import" restores; a link that carries records changes no
// saved record; a 3 MB damaged store is kept or offered as a file before anything overwrites it; a 50 MB file and a
// 50 MB window.gpuguide.load() get a message and the page keeps working; every notice lists its items.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { launch, serveDist, waitReady, screenshotColours, shotsDir, repoRoot, waitSettled } from './harness.mjs';

const cli = path.join(repoRoot, 'build', 'native', 'gpuguide');

let browser;
let server;
before(async () => { browser = await launch(); server = await serveDist(); });
after(async () => { if (browser) await browser.close(); if (server) await server.close(); });

const kMine = {
  schema_version: 1,
  gpus: [{ id: 'my-lab-card', name: 'Lab card', memory_gib: 20, memory_bandwidth_gb_per_s: 800,
           dense_tflops: { fp32: 40, fp16: 80 }, tdp_w: 300,
           street_price_cny: { new: 9000, used: null, as_of: '2026-11-30', source: 'entered by the user' } }],
  offers: [{ id: 'my-offer-lab', provider: 'Lab cluster', gpu: 'my-lab-card', gpu_count: 1, price_per_hour: 1.5,
             currency: 'CNY', billing: 'on-demand' }],
};
const kStored = JSON.stringify({ version: 1, user_data: kMine, scenario: { model: 'bert-base', batch_size: 8, gpu: { id: 'my-lab-card' } } });

// A browser whose saved settings are `stored` (once: a reload keeps what the page wrote since).
async function visit({ stored = kStored, fragment = '', width = 1280, height = 900 } = {}) {
  const context = await browser.newContext({ viewport: { width, height }, acceptDownloads: true });
  if (stored !== null)
    await context.addInitScript((text) => {
      if (!sessionStorage.getItem('seeded')) { localStorage.setItem('gpuguide.v1', text); sessionStorage.setItem('seeded', '1'); }
    }, stored);
  const page = await context.newPage();
  const problems = [];
  page.on('console', (m) => { if (m.type() === 'error') problems.push(m.text()); });
  page.on('pageerror', (e) => problems.push(e.message));
  await page.goto(server.url + fragment);
  const state = await waitReady(page);
  assert.equal(state.error, null);
  return { context, page, problems };
}
const notice = (page) => page.evaluate(() => window.gpuguide.notice());
const savedUserData = async (page) => JSON.parse(await page.evaluate(() => localStorage.getItem('gpuguide.v1'))).user_data;

// A notice whose text announces a list (ends with ':') has one.
function assertListed(n) {
  if (n.text && n.text.endsWith(':')) assert.ok(n.details.length > 0, `${n.text} has an empty list`);
}

// A real click on a named widget once it has been drawn at the same place in two polls (under load a frame can
// still be moving the layout, e.g. right after a tab switch).
async function clickAnchor(page, name) {
  let last = null;
  for (let i = 0; i < 100; ++i) {
    const a = await page.evaluate((n) => window.gpuguide.anchor(n), name);
    if (a && a.visible && last && a.x === last.x && a.y === last.y) {
      await page.mouse.click(a.x + a.w / 2, a.y + a.h / 2);
      return;
    }
    last = a;
    await page.waitForTimeout(100);
  }
  throw new Error(`anchor '${name}' was not drawn in one place`);
}
const kWait = { timeout: 60000 };

// "Load from a file" with a real click and the browser's file chooser; `file` is {name, buffer} or a path.
async function pickFile(page, file) {
  if (!(await page.evaluate(() => window.gpuguide.anchor('load-file')))) {
    await page.evaluate(() => window.gpuguide.tab(3));
    await waitSettled(page);
  }
  const [chooser] = await Promise.all([page.waitForEvent('filechooser'), clickAnchor(page, 'load-file')]);
  const before = JSON.stringify(await notice(page));
  await chooser.setFiles(typeof file === 'string' ? file : { mimeType: 'application/json', ...file });
  // The file is read asynchronously: wait until the page has answered (a notice or a question).
  await page.waitForFunction((b) => JSON.stringify(window.gpuguide.notice()) !== b, before, kWait);
  await waitSettled(page);
}

test('each wrong file is refused with what it is, and the saved data stays as it was', async () => {
  const { context, page, problems } = await visit();
  const wrong = [
    ['empty.json', '{}', 'What it holds:'],
    ['package.json', JSON.stringify({ name: 'my-app', version: '1.0.0', dependencies: { 'left-pad': '1' } }), 'What it holds:'],
    ['scenario.json', JSON.stringify({ model: 'gpt2', batch_size: 8, gpu: { id: 'rtx-4090' } }), 'training scenario'],
    ['gpuguide-saved-settings.json', kStored, "page's saved settings"],
    ['newer.json', JSON.stringify({ schema_version: 2, gpus: [{ id: 'x' }] }), 'newer version'],
  ];  // (a file without records, broken JSON and more: tests/ui/test_data_safety.cpp)
  for (const [name, text, says] of wrong) {
    await pickFile(page, { name, buffer: Buffer.from(text) });
    const n = await notice(page);
    assert.ok(n.text && n.text.includes(says), `${name}: ${JSON.stringify(n)}`);
    assert.equal(n.import, null, name);
    assertListed(n);
    assert.deepEqual(await savedUserData(page), kMine, name);
  }
  await screenshotColours(page, 'import-refused');
  assert.deepEqual(problems, []);
  await context.close();
});

test('a data file shows what it adds, replaces and keeps; Import applies it and Undo import restores', async () => {
  const { context, page, problems } = await visit();
  const file = structuredClone(kMine);
  file.gpus[0].memory_gib = 24;                 // replaces mine
  file.offers = [];                             // mine is kept
  file.gpus.push({ ...kMine.gpus[0], id: 'friend-card', name: "Friend's card" });  // added
  await pickFile(page, { name: 'friend.json', buffer: Buffer.from(JSON.stringify(file)) });
  const asked = await notice(page);
  assert.deepEqual(asked.import.added, ["Friend's card (friend-card)"]);
  assert.deepEqual(asked.import.replaced, ['Lab card (my-lab-card)']);
  assert.deepEqual(asked.import.kept, ['Lab cluster · my-lab-card (my-offer-lab)']);
  assert.deepEqual(await savedUserData(page), kMine);  // asked, not done
  await screenshotColours(page, 'import-asks');

  await clickAnchor(page, 'import-confirm');
  await page.waitForFunction(() => (localStorage.getItem('gpuguide.v1') || '').includes('friend-card'), null, kWait);
  const loaded = await notice(page);
  assert.ok(loaded.details.some((d) => d.includes("Friend's card")), JSON.stringify(loaded));
  assert.equal(loaded.undo, true);
  const saved = await savedUserData(page);
  assert.equal(saved.gpus.length, 2);
  assert.deepEqual(saved.offers, kMine.offers);
  await screenshotColours(page, 'import-done');

  // After a reload, "Undo import" is still there.
  await page.reload();
  await waitReady(page);
  await page.evaluate(() => window.gpuguide.tab(3));
  await clickAnchor(page, 'undo-import');
  await page.waitForFunction(() => !(localStorage.getItem('gpuguide.v1') || '').includes('friend-card'), null, kWait);
  assert.deepEqual(await savedUserData(page), kMine);
  assert.deepEqual(problems, []);
  await context.close();
});

test('pinned scenarios go out with "Save as a file", and a file\'s pins replace them only after asking; undo restores', async () => {
  const pinA = { model: 'bert-base', batch_size: 8, seq_len: 128, method: 'lora', gpu: { id: 'rtx-4090' } };
  const pinB = { model: 'bert-base', batch_size: 16, seq_len: 128, gpu: { id: 'rtx-4060' } };
  const pinC = { model: 'bert-base', batch_size: 8, seq_len: 128, gpu: { id: 'my-lab-card' } };  // the file's own card
  const stored = JSON.stringify({ ...JSON.parse(kStored), pins: [pinA] });
  const { context, page, problems } = await visit({ stored });
  const pinned = async () => (await page.evaluate(() => window.gpuguide.compare())).pins.map((p) => p.scenario);
  const storedPins = async () => JSON.parse(await page.evaluate(() => localStorage.getItem('gpuguide.v1'))).pins;
  assert.deepEqual(await pinned(), [pinA]);
  await page.evaluate(() => window.gpuguide.tab(3));
  await waitSettled(page);
  const [download] = await Promise.all([page.waitForEvent('download'), clickAnchor(page, 'save-file')]);
  const exported = JSON.parse(fs.readFileSync(await download.path(), 'utf8'));
  assert.deepEqual(exported.pins, [pinA], 'the export carries the pins');
  // The command-line tool reads the same file (it refuses keys it does not know): the pins are accepted.
  const file = path.join(shotsDir, 'exported-with-pins.json');
  fs.writeFileSync(file, JSON.stringify(exported));
  execFileSync(cli, ['estimate', '-', '--user-data', file], { input: JSON.stringify(pinC) });
  fs.unlinkSync(file);

  const incoming = { ...exported, pins: [pinB, pinC] };
  await pickFile(page, { name: 'with-pins.json', buffer: Buffer.from(JSON.stringify(incoming)) });
  const asked = await notice(page);
  assert.deepEqual(asked.import.pins, { file: 2, yours: 1 });
  assert.equal(asked.import.problems, 0, 'the file\'s pins are valid scenarios with its records');
  assert.deepEqual(await pinned(), [pinA], 'asked, not done');
  await screenshotColours(page, 'import-pins-asks');
  await clickAnchor(page, 'import-confirm');
  await page.waitForFunction(() => JSON.parse(localStorage.getItem('gpuguide.v1') || '{}').pins?.length === 2, null, kWait);
  assert.deepEqual(await pinned(), [pinB, pinC]);
  assert.ok((await notice(page)).details.some((d) => d.includes('my-lab-card')), 'the notice names the pins');

  await page.reload();  // the undo survives a reload
  await waitReady(page);
  await page.evaluate(() => window.gpuguide.tab(3));
  await clickAnchor(page, 'undo-import');
  await page.waitForFunction(() => JSON.parse(localStorage.getItem('gpuguide.v1') || '{}').pins?.length === 1, null, kWait);
  assert.deepEqual(await pinned(), [pinA]);
  assert.deepEqual(await storedPins(), [pinA]);
  assert.deepEqual(problems, []);
  await context.close();
});

test('a 50 MB file and a 50 MB load() get a message naming the limit, and the page keeps working', async () => {
  const { context, page, problems } = await visit();
  const started = Date.now();
  const huge = path.join(shotsDir, 'huge-50mb.json');  // over playwright's 50 MB buffer limit: from a file
  fs.writeFileSync(huge, '[' + ' '.repeat(50 * 1024 * 1024) + ']');
  await pickFile(page, huge);
  fs.unlinkSync(huge);
  const n = await notice(page);
  assert.ok(n.text.includes('too large'), JSON.stringify(n));
  assert.ok(n.details[0].includes('4 MiB'), JSON.stringify(n));
  const answer = await page.evaluate(() => window.gpuguide.load('[' + ' '.repeat(50 * 1024 * 1024) + ']'));
  assert.equal(answer.length, 1);
  assert.match(answer[0].message, /larger than 4 MiB/);
  // Under the size limit but 200,000 keys: refused quickly, not 12 s.
  const keys = await page.evaluate(() => {
    const doc = { model: 'gpt2' };
    for (let i = 0; i < 200000; i++) doc['k' + i] = 1;
    const t0 = performance.now();
    const problems = window.gpuguide.load(doc);
    return { problems, ms: performance.now() - t0 };
  });
  assert.match(keys.problems[0].message, /more than 100000 values/);
  assert.ok(keys.ms < 2000, `${keys.ms} ms`);
  assert.deepEqual(await page.evaluate(() => window.gpuguide.load({ model: 'gpt2', batch_size: 4 })), []);
  assert.equal(JSON.parse(await page.evaluate(() => window.gpuguide.report())).scenario.model, 'gpt2');
  assert.equal(await page.evaluate(() => window.gpuguide.error), null);
  assert.deepEqual(await savedUserData(page), kMine);
  assert.ok(Date.now() - started < 30000);
  assert.deepEqual(problems, []);
  await context.close();
});

test('a link carrying an RTX 4090 of 96 GiB for 100 CNY changes no saved record', async () => {
  const poison = { schema_version: 1, offers: [],
    gpus: [{ id: 'rtx-4090', name: 'NVIDIA GeForce RTX 4090', memory_gib: 96, memory_bandwidth_gb_per_s: 1008,
             dense_tflops: { fp32: 82.6, fp16: 165.2 }, tdp_w: 450,
             street_price_cny: { new: 100, used: null, as_of: '2026-11-30', source: 'entered by the user' } }] };
  const part = (key, doc) => `${key}=1.` + Buffer.from(JSON.stringify(doc)).toString('base64url');
  // 1. The link's scenario does not use the card: it is not even read.
  const other = await visit({ fragment: '#' + part('s', { model: 'bert-base', gpu: { id: 'rtx-4060' } }) + '&' + part('u', poison) });
  assert.equal((await notice(other.page)).link, null);
  await other.page.waitForTimeout(300);
  assert.deepEqual(await savedUserData(other.page), kMine);
  await other.context.close();
  // 2. It does: used for this view, shown as replacing the catalog's card, saved only after "Save" and "Yes".
  const { context, page, problems } = await visit({
    fragment: '#' + part('s', { model: 'bert-base', batch_size: 8, gpu: { id: 'rtx-4090' } }) + '&' + part('u', poison) });
  const n = await notice(page);
  assert.equal(n.link.over_bundled.length, 1);
  assert.match(n.link.over_bundled[0], /96\.0 GiB.*catalog: 24\.0 GiB/);
  // The link's scenario is shown, not saved (issue 39): the saved settings keep the user's until "Keep".
  assert.equal(n.link_view.pending, true);
  await page.waitForFunction(() => (localStorage.getItem('gpuguide.v1') || '').includes('my-lab-card'), null, kWait);
  assert.equal(JSON.parse(await page.evaluate(() => localStorage.getItem('gpuguide.v1'))).scenario.gpu.id, 'my-lab-card');
  assert.deepEqual(await savedUserData(page), kMine);
  await screenshotColours(page, 'link-records-over-bundled');
  await clickAnchor(page, 'link-save');
  await page.waitForFunction(() => window.gpuguide.notice().link.confirming, null, kWait);
  assert.deepEqual(await savedUserData(page), kMine);
  await screenshotColours(page, 'link-records-confirm');
  await clickAnchor(page, 'link-save-cancel');
  await page.waitForFunction(() => !window.gpuguide.notice().link.confirming, null, kWait);
  await page.reload();  // the next visit: the saved 4090 is the catalog's
  await waitReady(page);
  assert.deepEqual(await savedUserData(page), kMine);
  assert.deepEqual(problems, []);
  await context.close();
});

test('a 3 MB damaged store that storage cannot copy is offered as a file and not overwritten until saved', async () => {
  const damaged = '{"version":1,"scenario":{broken' + 'x'.repeat(3 * 1024 * 1024);
  const { context, page, problems } = await visit({ stored: damaged });
  const n = await notice(page);
  assert.match(n.text, /could not be read/);
  assertListed(n);
  assert.ok(n.details.some((d) => d.includes('not valid JSON')), JSON.stringify(n.details));
  assert.equal(n.store_blocked, true, JSON.stringify(n.details));  // 3 M characters twice do not fit in 5 M
  assert.deepEqual(await page.evaluate(() => window.gpuguide.load({ model: 'gpt2' })), []);
  await waitSettled(page);
  assert.equal(await page.evaluate(() => localStorage.getItem('gpuguide.v1')), damaged);  // not overwritten
  await screenshotColours(page, 'store-damaged-3mb');
  const [download] = await Promise.all([page.waitForEvent('download'), clickAnchor(page, 'save-kept-store')]);
  assert.equal(fs.readFileSync(await download.path(), 'utf8'), damaged);
  // Saved as a file: the page may write its settings again.
  await page.waitForFunction(() => (localStorage.getItem('gpuguide.v1') || '').includes('gpt2'), null, kWait);
  assert.deepEqual(problems, []);
  await context.close();
});

test('damaged stores are each kept under a dated key, and the notice says where', async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  await context.addInitScript(() => {
    const n = Number(sessionStorage.getItem('visits') || '0');
    if (n < 2) localStorage.setItem('gpuguide.v1', `{"version":1,"scenario":{broken ${n}`);
    sessionStorage.setItem('visits', String(n + 1));
  });
  const page = await context.newPage();
  for (let visit = 0; visit < 2; ++visit) {
    if (visit === 0) await page.goto(server.url); else await page.reload();
    await waitReady(page);
    const n = await notice(page);
    assertListed(n);
    assert.ok(n.details.some((d) => d.includes('gpuguide.v1.unreadable.')), JSON.stringify(n.details));
  }
  const kept = await page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('gpuguide.v1.unreadable.'))
    .map((k) => localStorage.getItem(k)).sort());
  assert.deepEqual(kept, ['{"version":1,"scenario":{broken 0', '{"version":1,"scenario":{broken 1']);
  await context.close();
});

test('a saved user_data that is not an object is set aside and listed, and the scenario comes back', async () => {
  const stored = JSON.stringify({ version: 1, scenario: { model: 'gpt2', batch_size: 4 }, user_data: { gpu: kMine.gpus } });
  const { context, page, problems } = await visit({ stored });
  const n = await notice(page);
  assert.match(n.text, /Set aside:$/);
  assert.ok(n.details.some((d) => d.startsWith('/user_data/gpu: ')), JSON.stringify(n.details));
  assert.equal(JSON.parse(await page.evaluate(() => window.gpuguide.report())).scenario.model, 'gpt2');
  const kept = await page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('gpuguide.v1.unreadable.'))
    .map((k) => localStorage.getItem(k)));
  assert.deepEqual(kept, [stored]);
  assert.deepEqual(problems, []);
  await context.close();
});

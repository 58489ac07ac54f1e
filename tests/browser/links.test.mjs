// Links and embedding: a scenario in the URL fragment opens the same results, the fragment follows the inputs
// without adding history entries, damaged or newer links leave the defaults with no error, and ?embed=1 renders
// the compact layout at 360x640.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, serveDist, openPage, waitReady, screenshotColours, fileUrl, anchorCentre, clickAnchor, waitSettled } from './harness.mjs';

let browser;
let server;
before(async () => { browser = await launch(); server = await serveDist(); });
after(async () => { if (browser) await browser.close(); if (server) await server.close(); });

const fragmentOf = (scenario) => 's=1.' + Buffer.from(JSON.stringify(scenario)).toString('base64url');
const report = async (page) => JSON.parse(await page.evaluate(() => window.gpuguide.report()));

test('a link with a scenario opens the same results, from http and from file://', async () => {
  const scenario = { model: 'resnet50', batch_size: 48, image_size: 224, precision: 'bf16-amp', gpu: { id: 'rtx-4090', count: 1 } };
  for (const base of [server.url, fileUrl]) {
    const url = `${base}#${fragmentOf(scenario)}`;
    const { context, page, problems } = await openPage(browser, url);
    await waitReady(page);
    const r = await report(page);
    assert.equal(r.scenario.model, 'resnet50');
    assert.equal(r.scenario.batch_size, 48);
    assert.equal(r.scenario.gpu.id, 'rtx-4090');
    assert.deepEqual(problems, []);
    await context.close();
  }
});

test('the fragment follows the inputs without new history entries, and reopening it gives the same report', async () => {
  const { context, page, problems } = await openPage(browser, server.url);
  await waitReady(page);
  const historyBefore = await page.evaluate(() => history.length);
  const refused = await page.evaluate(() => window.gpuguide.load({ model: 'gpt2-medium', batch_size: 4, seq_len: 512,
    precision: 'bf16-amp', gpu: { id: 'rtx-3090', count: 1 }, budget: { amount: 8000, currency: 'CNY' } }));
  assert.deepEqual(refused, []);
  await page.waitForFunction(() => location.hash.startsWith('#s=1.') && location.hash.length > 40);
  await waitSettled(page);
  const link = await page.evaluate(() => location.href);
  assert.equal(await page.evaluate(() => history.length), historyBefore);
  const first = await report(page);
  const second = await openPage(browser, link);
  await waitReady(second.page);
  assert.deepEqual(await report(second.page), first);
  assert.deepEqual(problems, []);
  assert.deepEqual(second.problems, []);
  await second.context.close();
  await context.close();
});

test('a pasted Hugging Face config.json gives its exact parameter count, and its link opens the same report', async () => {
  const { context, page, problems } = await openPage(browser, server.url, { width: 1280, height: 800, scale: 1 });
  await waitReady(page);
  // EleutherAI/pythia-70m's config.json (tests/validation/hf_configs.json): 70,426,624 parameters.
  const config = { architectures: ['GPTNeoXForCausalLM'], model_type: 'gpt_neox', hidden_size: 512, num_hidden_layers: 6,
    num_attention_heads: 8, intermediate_size: 2048, vocab_size: 50304, max_position_embeddings: 2048, rotary_pct: 0.25,
    use_parallel_residual: true, tie_word_embeddings: false, hidden_act: 'gelu' };
  const open = await anchorCentre(page, 'hf_config_open');
  await page.mouse.click(open.x, open.y);
  await waitSettled(page);
  const box = await anchorCentre(page, 'hf_config_text');
  await page.mouse.click(box.x, box.y);
  await page.keyboard.type(JSON.stringify(config));
  await waitSettled(page);
  await screenshotColours(page, 'hf-config-pasted-1280x800');
  const apply = await anchorCentre(page, 'hf_config_apply');
  await page.mouse.click(apply.x, apply.y);
  await page.waitForFunction(() => JSON.parse(window.gpuguide.report()).params.total === 70426624, null, { timeout: 10000 });
  const first = await report(page);
  assert.deepEqual(first.scenario.model, { hf_config: config });
  await page.waitForFunction(() => location.hash.startsWith('#s=1.') && location.hash.length > 200);
  await waitSettled(page);
  await screenshotColours(page, 'hf-config-applied-1280x800');
  const link = await page.evaluate(() => location.href);
  const second = await openPage(browser, link, { width: 1280, height: 800, scale: 1 });
  await waitReady(second.page);
  assert.deepEqual(await report(second.page), await report(page));
  await screenshotColours(second.page, 'hf-config-from-link-1280x800');
  assert.deepEqual(problems, []);
  assert.deepEqual(second.problems, []);
  await second.context.close();
  await context.close();
});

for (const [name, fragment] of [['damaged', 's=1.@@@not-base64'], ['newer', 's=99.e30'],
                                ['invalid', fragmentOf({ model: 'no-such-model', batch_size: -3 })]]) {
  test(`a ${name} link shows the default example and a notice, never an error`, async () => {
    const { context, page, problems } = await openPage(browser, `${server.url}#${fragment}`);
    const state = await waitReady(page);
    assert.equal(state.error, null);
    assert.equal((await report(page)).scenario.model, 'bert-base');
    await screenshotColours(page, `link-${name}`);
    assert.deepEqual(problems, []);
    await context.close();
  });
}

test('embed mode renders compactly at 360x640', async () => {
  const { context, page, problems } = await openPage(browser, `${server.url}?embed=1`, { width: 360, height: 640, scale: 2 });
  await waitReady(page);
  const shot = await screenshotColours(page, 'embed-360x640@2x');
  assert.ok(shot.colours > 8);
  assert.deepEqual(problems, []);
  await context.close();
});

// Issue 39: a user with saved settings (a scenario on their own card, that card, two pins) opens links that used to
// stop the page for good. Every visit must come up ready, and the saved pins and card must survive the link.
const kOwnCard = { id: 'my-lab-card', name: 'Lab card', memory_gib: 20, memory_bandwidth_gb_per_s: 800,
  dense_tflops: { fp32: 40, fp16: 80 }, tdp_w: 300,
  street_price_cny: { new: 9000, used: null, as_of: '2026-11-30', source: 'entered by the user' } };
const kPins = [{ model: 'gpt2', batch_size: 4, seq_len: 512, gpu: { id: 'rtx-4090', count: 1 } },
               { model: 'bert-base', batch_size: 32, seq_len: 128, gpu: { id: 'rtx-3090', count: 1 } }];
const kSaved = JSON.stringify({ version: 1, scenario: { model: 'bert-base', batch_size: 16, gpu: { id: 'my-lab-card' } },
  user_data: { schema_version: 1, gpus: [kOwnCard], offers: [] }, pins: kPins });
const part = (key, value) => `${key}=1.` + Buffer.from(JSON.stringify(value)).toString('base64url');
const kIssueLinks = [
  ['own card', part('s', { model: 'gpt2', batch_size: 8, gpu: { id: 'friend-card' } }) + '&' +
               part('u', { schema_version: 1, gpus: [{ ...kOwnCard, id: 'friend-card', name: "Friend's card" }], offers: [] })],
  ['reset setting', part('s', { model: 'gpt2', batch_size: 0 })],
  ['unknown GPU', part('s', { model: 'gpt2', batch_size: 8, gpu: { id: 'no-such-gpu' } })],
  ['two s= parts', part('s', { model: 'gpt2', batch_size: 8 }) + '&' + part('s', { model: 'vit-b-16', batch_size: 64 })],
  ['pins null', part('s', { model: 'gpt2', batch_size: 8 }) + '&' + part('p', null)],
  ['pins []', part('s', { model: 'gpt2', batch_size: 8 }) + '&' + part('p', [])],
  ['pins on unknown cards', part('s', { model: 'gpt2', batch_size: 8 }) + '&' +
                            part('p', [{ model: 'gpt2', gpu: { id: 'nope-1' } }, { model: 'gpt2', gpu: { id: 'nope-2' } }])],
];

// A tab whose localStorage starts as kSaved (seeded once per tab: a later navigation keeps what the page wrote).
async function savedUserTab({ width = 1280, height = 800 } = {}) {
  const context = await browser.newContext({ viewport: { width, height } });
  await context.addInitScript((text) => {
    if (!sessionStorage.getItem('seeded')) { localStorage.setItem('gpuguide.v1', text); sessionStorage.setItem('seeded', '1'); }
  }, kSaved);
  const page = await context.newPage();
  const problems = [];
  page.on('console', (m) => { if (m.type() === 'error') problems.push(m.text()); });
  page.on('pageerror', (e) => problems.push(e.message));
  return { context, page, problems };
}
const stored = async (page) => JSON.parse(await page.evaluate(() => localStorage.getItem('gpuguide.v1')));

test('each link of issue 39 opens, and the next visit starts with the saved pins and card', async () => {
  for (const [name, fragment] of kIssueLinks) {
    const { context, page, problems } = await savedUserTab();
    await page.goto(`${server.url}#${fragment}`);
    assert.deepEqual(await waitReady(page), { ready: true, error: null }, name);
    await waitSettled(page);  // the page writes its settings after the first frames
    await page.goto(`${server.url}?later`);  // a later visit in the same tab, without the link (a query: a real load)
    assert.deepEqual(await waitReady(page), { ready: true, error: null }, name);
    const cmp = await page.evaluate(() => window.gpuguide.compare());
    assert.deepEqual(cmp.pins.map((p) => p.scenario), kPins, name);
    assert.equal(cmp.current.scenario.gpu.id, 'my-lab-card', name);
    assert.deepEqual((await stored(page)).user_data.gpus, [kOwnCard], name);
    assert.deepEqual(problems, [], name);
    await context.close();
  }
});

test("a link's pins are shown, not saved: Keep saves them, Undo and Back to my settings bring the saved ones back", async () => {
  const linkPins = [{ model: 'gpt2', batch_size: 2, seq_len: 256, gpu: { id: 'rtx-4060', count: 1 } }];
  const fragment = part('s', { model: 'vit-b-16', batch_size: 64, gpu: { id: 'rtx-4090' } }) + '&' + part('p', linkPins);
  for (const [width, height] of [[1280, 800], [390, 844]]) {
    const { context, page, problems } = await savedUserTab({ width, height });
    await page.goto(`${server.url}#${fragment}`);
    await waitReady(page);
    const n = await page.evaluate(() => window.gpuguide.notice());
    assert.deepEqual(n.link_view, { pending: true, brought_pins: true, undo: false, shown_pins: 1, saved_pins: 2 });
    await waitSettled(page);
    assert.deepEqual((await stored(page)).pins, kPins, 'shown, not saved');
    assert.equal((await stored(page)).scenario.gpu.id, 'my-lab-card');
    const shot = await screenshotColours(page, `link-view-asks-${width}x${height}`);
    assert.ok(shot.colours > 8);
    // The strip's buttons fit the screen (the phone puts "Back to my settings" under "Keep" when it must).
    for (const name of ['link-keep', 'link-discard']) {
      const a = await anchorCentre(page, name);
      assert.ok(a.rect.x >= 0 && a.rect.x + a.rect.w <= width, `${name} inside ${width} px: ${JSON.stringify(a.rect)}`);
    }

    await clickAnchor(page, 'link-keep');
    await page.waitForFunction(() => JSON.parse(localStorage.getItem('gpuguide.v1')).pins.length === 1, null, { timeout: 20000 });
    assert.deepEqual((await stored(page)).pins, linkPins);
    assert.equal((await stored(page)).scenario.model, 'vit-b-16');
    await screenshotColours(page, `link-view-kept-${width}x${height}`);
    await clickAnchor(page, 'link-undo');
    await page.waitForFunction(() => JSON.parse(localStorage.getItem('gpuguide.v1')).pins.length === 2, null, { timeout: 20000 });
    assert.deepEqual((await stored(page)).pins, kPins);
    assert.equal((await page.evaluate(() => window.gpuguide.compare())).pins.length, 2);

    // The link again (a link pasted into the address bar), and "Back to my settings".
    await page.evaluate((f) => { location.hash = f; }, fragment);
    await page.waitForFunction(() => window.gpuguide.notice().link_view.pending, null, { timeout: 20000 });
    await waitSettled(page);
    await clickAnchor(page, 'link-discard');
    await page.waitForFunction(() => !window.gpuguide.notice().link_view.pending, null, { timeout: 20000 });
    const cmp = await page.evaluate(() => window.gpuguide.compare());
    assert.deepEqual(cmp.pins.map((p) => p.scenario), kPins);
    assert.equal(cmp.current.scenario.gpu.id, 'my-lab-card');
    assert.deepEqual(problems, []);
    await context.close();
  }
});

test('window.gpuguide.load() with no argument answers with a problem instead of throwing', async () => {
  const { context, page, problems } = await openPage(browser, server.url);
  await waitReady(page);
  const answer = await page.evaluate(() => window.gpuguide.load());
  assert.equal(answer.length > 0, true, JSON.stringify(answer));
  assert.equal((await report(page)).scenario.model, 'bert-base');
  assert.deepEqual(problems, []);
  await context.close();
});

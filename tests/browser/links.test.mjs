// Links and embedding: a scenario in the URL fragment opens the same results, the fragment follows the inputs
// without adding history entries, damaged or newer links leave the defaults with no error, and ?embed=1 renders
// the compact layout at 360x640.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, serveDist, openPage, waitReady, screenshotColours, fileUrl, anchorCentre } from './harness.mjs';

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
  await page.waitForTimeout(200);
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
  await page.waitForTimeout(300);
  const box = await anchorCentre(page, 'hf_config_text');
  await page.mouse.click(box.x, box.y);
  await page.keyboard.type(JSON.stringify(config));
  await page.waitForTimeout(300);
  await screenshotColours(page, 'hf-config-pasted-1280x800');
  const apply = await anchorCentre(page, 'hf_config_apply');
  await page.mouse.click(apply.x, apply.y);
  await page.waitForFunction(() => JSON.parse(window.gpuguide.report()).params.total === 70426624, null, { timeout: 10000 });
  const first = await report(page);
  assert.deepEqual(first.scenario.model, { hf_config: config });
  await page.waitForFunction(() => location.hash.startsWith('#s=1.') && location.hash.length > 200);
  await page.waitForTimeout(300);
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

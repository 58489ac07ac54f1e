// Issue 43 on the page: "Paste your training config" under the config.json box. Each upstream example file
// (tests/data/training_configs/, PROVENANCE.md) is put on the system clipboard, pasted with Ctrl+V (the torchtune one
// with the box's Paste button) and used; the
// calculator then holds the scenario `gpuguide from-config --scenario-only` prints for it (the card the reader chose
// kept), and the link carries it. The Qwen3 example names a model that is not bundled: the box says so until its
// config.json is pasted and used in the box above. Screenshots: build/browser/training-config-*.png.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { launch, serveDist, openPage, waitReady, clickAnchor, screenshotColours, repoRoot, anchor, scrollPaneTo, waitSettled } from './harness.mjs';

const cli = path.join(repoRoot, 'build', 'native', 'gpuguide');
const dataDir = path.join(repoRoot, 'tests', 'data', 'training_configs');
const files = ['llama_factory_llama3_lora_sft.yaml', 'axolotl_llama3_qlora.yml',
               'torchtune_llama3_1_8B_qlora_single_device.yaml', 'llama_factory_qwen3_lora_sft.yaml'];
// Qwen/Qwen3-4B-Instruct-2507's config.json, its architecture fields (written out here: nothing is fetched in tests):
// 4,022,468,096 parameters (tests/catalog/test_training_config.cpp has the sum).
const qwen3Config = {
  architectures: ['Qwen3ForCausalLM'], model_type: 'qwen3', hidden_size: 2560, num_hidden_layers: 36,
  num_attention_heads: 32, num_key_value_heads: 8, head_dim: 128, intermediate_size: 9728, vocab_size: 151936,
  tie_word_embeddings: true, max_position_embeddings: 262144, attention_bias: false, hidden_act: 'silu',
  rms_norm_eps: 1e-06, torch_dtype: 'bfloat16',
};

let browser, server;
before(async () => { browser = await launch(); server = await serveDist(); });
after(async () => { if (browser) await browser.close(); if (server) await server.close(); });

const report = async (page) => JSON.parse(await page.evaluate(() => window.gpuguide.report()));

// What the CLI reads from the file; the page keeps the card it had.
function expectedScenario(file, extra = []) {
  const out = execFileSync(cli, ['from-config', path.join(dataDir, file), '--scenario-only', ...extra]).toString();
  return JSON.parse(out);
}

async function openBox(page, height) {
  await scrollPaneTo(page, 'inputs-pane', 'training_config_open', height).catch(() => {});
  if (!(await anchor(page, 'training_config_text'))) await clickAnchor(page, 'training_config_open');
  await scrollPaneTo(page, 'inputs-pane', 'training_config_text', height).catch(() => {});
}

// Replaces the box's text with `text` through the system clipboard (select all, Ctrl+V).
async function pasteInto(page, box, text) {
  await page.evaluate((t) => navigator.clipboard.writeText(t), text);
  await scrollPaneTo(page, 'inputs-pane', box, 800).catch(() => {});
  await clickAnchor(page, box);
  await page.keyboard.press('Control+A');
  await page.keyboard.press('Control+V');
  await waitSettled(page);  // the clipboard text fed to the box (the hook's busy flag), then a frame
}

test('1280x800: each upstream example pasted into "Paste your training config" fills the calculator', { timeout: 300000 }, async () => {
  const size = { width: 1280, height: 800, scale: 1, phone: false };
  const { context, page, problems } = await openPage(browser, server.url, size);
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  assert.equal((await waitReady(page)).ready, true);
  await waitSettled(page);
  const card = (await report(page)).scenario.gpu.id;
  await openBox(page, size.height);
  for (const file of files.slice(0, 3)) {
    const text = fs.readFileSync(path.join(dataDir, file), 'utf8');
    const before = await page.evaluate(() => window.gpuguide.report());
    if (file.startsWith('torchtune')) {
      // The box's own Paste button (a phone has no Ctrl+V): the clipboard replaces the box's text.
      await page.evaluate((t) => navigator.clipboard.writeText(t), text);
      await scrollPaneTo(page, 'inputs-pane', 'training_config_paste', 800).catch(() => {});
      await clickAnchor(page, 'training_config_paste');
      await page.waitForTimeout(400);  // navigator.clipboard.readText resolves outside the frames
      await waitSettled(page);
    } else {
      await pasteInto(page, 'training_config_text', text);
    }
    await scrollPaneTo(page, 'inputs-pane', 'training_config_apply', 800).catch(() => {});
    await clickAnchor(page, 'training_config_apply');
    const changed = await page.waitForFunction((b) => window.gpuguide.report() !== b, before, { timeout: 10000 })
      .then(() => true, () => false);
    await screenshotColours(page, `training-config-applied-${file.replace(/\..*$/, '')}`);
    assert.ok(changed, `${file}: the calculator changed after Apply`);
    const want = expectedScenario(file);
    if (card) want.gpu = { ...(want.gpu || {}), id: card };
    const r = await report(page);
    for (const key of ['model', 'method', 'lora', 'seq_len', 'batch_size', 'grad_accum_steps', 'precision',
                       'checkpointing', 'stack', 'stack_options', 'optimizer'])
      assert.deepEqual(r.scenario[key], want[key], `${file}: ${key}`);
    assert.equal(r.scenario.gpu.id, card, `${file}: the card stays the reader's`);
    // The base model's exact count with its adapters, as `gpuguide estimate` counts this scenario.
    const est = JSON.parse(execFileSync(cli, ['estimate', '-'], { input: JSON.stringify(want) }).toString());
    assert.equal(r.params.total, est.params.total, file);
    assert.ok(r.params.total >= 8030261248 && r.params.total < 8.2e9, `${file}: Llama 3 8B, ${r.params.total}`);
    // The link carries it as a normal scenario: opened elsewhere, the same scenario.
    await page.waitForFunction(() => location.hash.startsWith('#s=1.') && location.hash.length > 40);
    if (file === files[0]) {
      await waitSettled(page);  // the link follows the last recomputation
      const second = await openPage(browser, await page.evaluate(() => location.href), size);
      assert.equal((await waitReady(second.page)).ready, true);
      assert.deepEqual((await report(second.page)).scenario, (await report(page)).scenario, 'the link opens the same scenario');
      await second.context.close();
    }
    await screenshotColours(page, `training-config-${file.replace(/\..*$/, '')}`);
  }
  // Qwen3-4B-Instruct-2507 is not bundled: the box names it; with its config.json used above, the example reads.
  const qwen = fs.readFileSync(path.join(dataDir, files[3]), 'utf8');
  await pasteInto(page, 'training_config_text', qwen);
  const unchanged = await page.evaluate(() => window.gpuguide.report());
  await scrollPaneTo(page, 'inputs-pane', 'training_config_apply', 800).catch(() => {});
  await clickAnchor(page, 'training_config_apply');
  await waitSettled(page);
  assert.equal(await page.evaluate(() => window.gpuguide.report()), unchanged, 'nothing applied');
  const notes = await anchor(page, 'training_config_notes');
  assert.ok(notes, 'the problem list is drawn');
  await screenshotColours(page, 'training-config-qwen3-unknown');
  await scrollPaneTo(page, 'inputs-pane', 'hf_config_open', size.height).catch(() => {});
  if (!(await anchor(page, 'hf_config_text'))) await clickAnchor(page, 'hf_config_open');
  await scrollPaneTo(page, 'inputs-pane', 'hf_config_text', size.height).catch(() => {});
  await pasteInto(page, 'hf_config_text', JSON.stringify(qwen3Config, null, 2));
  await scrollPaneTo(page, 'inputs-pane', 'hf_config_apply', 800).catch(() => {});
  await clickAnchor(page, 'hf_config_apply');
  const applied = await page.waitForFunction(() => {
    const m = JSON.parse(window.gpuguide.report()).scenario.model;
    return m.hf_config && m.hf_config.model_type === 'qwen3' && m.hf_config.hidden_size === 2560;
  }, null, { timeout: 30000 }).then(() => true, () => false);
  assert.ok(applied, 'the pasted config.json is used');
  assert.deepEqual((await report(page)).scenario.model, { hf_config: qwen3Config });
  // Apply again, now that the config.json is there.
  await openBox(page, size.height);
  await scrollPaneTo(page, 'inputs-pane', 'training_config_apply', 800).catch(() => {});
  await clickAnchor(page, 'training_config_apply');
  const read = await page.waitForFunction(() => JSON.parse(window.gpuguide.report()).scenario.stack === 'llama-factory',
                                          null, { timeout: 10000 }).then(() => true, () => false);
  assert.ok(read, 'the Qwen3 example is read with its config.json');
  const r = await report(page);
  const hfFile = path.join(repoRoot, 'build', 'browser', 'qwen3-4b-config.json');
  fs.mkdirSync(path.dirname(hfFile), { recursive: true });
  fs.writeFileSync(hfFile, JSON.stringify(qwen3Config));
  const want = expectedScenario(files[3], ['--hf-config', hfFile]);
  if (card) want.gpu = { ...(want.gpu || {}), id: card };
  const est = JSON.parse(execFileSync(cli, ['estimate', '-'], { input: JSON.stringify(want) }).toString());
  assert.equal(r.params.total, est.params.total);
  assert.ok(r.params.total > 4022468096 && r.params.total < 4.1e9, `Qwen3 4B with its adapters: ${r.params.total}`);
  assert.equal(r.scenario.seq_len, 2048);
  assert.equal(r.scenario.grad_accum_steps, 8);
  assert.deepEqual(r.scenario.lora.targets, ['all-linear']);
  assert.deepEqual(problems, []);
  await context.close();
});

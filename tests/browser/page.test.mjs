// The page's calculator against the CLI: the same scenario gives the same report (gpuguide.report() vs
// `gpuguide estimate`), scenarios load through the test hook, bad ones are refused without losing the inputs,
// a real click switches the language, and every tab is photographed at desktop and phone sizes.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { launch, serveDist, openPage, waitReady, screenshotColours, repoRoot, anchorCentre, waitFrames, waitSettled, scrollPaneTo } from './harness.mjs';

const cli = path.join(repoRoot, 'build', 'native', 'gpuguide');
let browser;
let server;

before(async () => {
  assert.ok(fs.existsSync(cli), `${cli} is missing: run make cli first`);
  browser = await launch();
  server = await serveDist();
});

after(async () => {
  if (browser) await browser.close();
  if (server) await server.close();
});

function cliReport(scenario) {
  return JSON.parse(execFileSync(cli, ['estimate', '-'], { input: JSON.stringify(scenario) }).toString());
}

// Deep equality with a relative tolerance for numbers: wasm and native builds may differ in the last bits.
function assertSame(actual, expected, where = '') {
  if (typeof expected === 'number' && typeof actual === 'number') {
    const scale = Math.max(Math.abs(expected), Math.abs(actual), 1e-300);
    assert.ok(Math.abs(actual - expected) / scale < 1e-9, `${where}: ${actual} != ${expected}`);
    return;
  }
  if (expected === null || typeof expected !== 'object') { assert.deepEqual(actual, expected, where); return; }
  assert.equal(typeof actual, 'object', where);
  assert.ok(actual !== null, where);
  assert.deepEqual(Object.keys(actual).sort(), Object.keys(expected).sort(), `${where}: keys`);
  for (const k of Object.keys(expected)) assertSame(actual[k], expected[k], `${where}/${k}`);
}

const kScenarios = [
  { model: 'resnet50', batch_size: 64, image_size: 224, precision: 'fp16-amp', optimizer: 'sgd-momentum',
    gpu: { id: 'rtx-4090', count: 1 }, dataset: { samples: 1281167, epochs: 1 } },
  { model: 'llama-3.1-8b', batch_size: 2, seq_len: 2048, precision: 'nf4', method: 'qlora', optimizer: 'adamw-8bit',
    lora: { rank: 16, targets: ['q', 'k', 'v', 'o'] }, checkpointing: 'full', gpu: { id: 'rtx-4060-ti-16gb', count: 1 },
    dataset: { tokens: 2e7 }, budget: { amount: 3000, currency: 'CNY' }, ownership: 'rent' },
  { model: 'gpt2', batch_size: 8, seq_len: 1024, precision: 'bf16-amp', gpu: { id: 'a100-sxm4-80gb', count: 8, strategy: 'zero2' },
    dataset: { tokens: 1e9 } },
  // The layout, the all-reduce dtype and the optimizer's implementation reach the page's engine as they reach the CLI's.
  { model: 'resnet50', batch_size: 256, precision: 'fp16-amp', optimizer: 'sgd-momentum', memory_format: 'channels_last',
    gpu: { id: 'rtx-3090', count: 1 }, dataset: { samples: 1281167, epochs: 1 } },
  { model: 'bert-large', batch_size: 32, seq_len: 384, precision: 'fp16-amp',
    gpu: { id: 'a100-sxm4-80gb', count: 4, peer_to_peer: false, grad_reduce_dtype: 'fp16' }, dataset: { samples: 88641, epochs: 2 } },
  { model: 'bert-large', batch_size: 4, seq_len: 512, precision: 'fp16-amp', optimizer: 'adafactor', optimizer_impl: 'for-loop',
    attention: 'eager', gpu: { id: 'v100-sxm2-16gb', count: 1 }, dataset: { samples: 512, epochs: 1 } },
];

test("the page's report equals the CLI's report for the same scenario", async () => {
  const { context, page, problems } = await openPage(browser, server.url);
  await waitReady(page);
  const first = JSON.parse(await page.evaluate(() => window.gpuguide.report()));
  assertSame(first, cliReport(first.scenario), 'default');
  for (const scenario of kScenarios) {
    const refused = await page.evaluate((s) => window.gpuguide.load(s), scenario);
    assert.deepEqual(refused, [], JSON.stringify(scenario));
    const report = JSON.parse(await page.evaluate(() => window.gpuguide.report()));
    assertSame(report, cliReport(report.scenario), scenario.model);
    assert.equal(report.scenario.model, scenario.model);
    assert.equal(report.scenario.memory_format, scenario.memory_format);
    assert.equal(report.scenario.gpu.grad_reduce_dtype, scenario.gpu.grad_reduce_dtype);
    assert.equal(report.scenario.optimizer_impl, scenario.optimizer_impl);
  }
  assert.deepEqual(problems, []);
  await context.close();
});

test('a bad scenario is refused with its problems and the inputs stay as they were', async () => {
  const { context, page, problems } = await openPage(browser, server.url);
  await waitReady(page);
  const before = await page.evaluate(() => window.gpuguide.report());
  const refused = await page.evaluate(() => window.gpuguide.load({ model: 'resnet50', batch_size: 0, precision: 'fp64' }));
  assert.ok(refused.length >= 2, JSON.stringify(refused));
  assert.ok(refused.some((p) => p.pointer === '/batch_size'));
  assert.ok(refused.some((p) => p.pointer === '/precision'));
  const broken = await page.evaluate(() => window.gpuguide.load('{not json'));
  assert.ok(broken.length >= 1);
  assert.equal(await page.evaluate(() => window.gpuguide.report()), before);
  assert.deepEqual(problems, []);
  await context.close();
});

for (const [width, height] of [[1280, 800], [390, 844]]) {
  test(`every tab renders at ${width}x${height}, in English and after a click on the language button`, async () => {
    const { context, page, problems } = await openPage(browser, server.url, { width, height, scale: 1 });
    await waitReady(page);
    const tabs = ['calculator', 'guide', 'accuracy', 'data'];
    for (const lang of ['en', 'zh']) {
      if (lang === 'zh') {
        const beforeClick = await page.screenshot({ clip: { x: 0, y: 0, width, height: 40 } });
        const toggle = await anchorCentre(page, 'lang');  // the language toggle, at the top right
        await page.mouse.click(toggle.x, toggle.y);
        await waitSettled(page);  // a frame with the pointer still on it (ImGui reads it per frame)
        await page.mouse.move(1, height - 1);  // then away: the toggle's tooltip would cover the tagline
        await waitSettled(page);
        const afterClick = await page.screenshot({ clip: { x: 0, y: 0, width, height: 40 } });
        assert.notDeepEqual(afterClick, beforeClick, 'the language button changed nothing');
      }
      for (let i = 0; i < tabs.length; ++i) {
        await page.evaluate((t) => window.gpuguide.tab(t), i);
        await waitSettled(page);
        const shot = await screenshotColours(page, `tab-${tabs[i]}-${lang}-${width}x${height}`);
        assert.ok(shot.colours > 8, `blank: ${shot.file}`);
      }
    }
    assert.deepEqual(problems, []);
    await context.close();
  });
}

test('typing into an input with real clicks and keys changes the scenario', async () => {
  const { context, page, problems } = await openPage(browser, server.url, { width: 1280, height: 800, scale: 1 });
  await waitReady(page);
  // The "Batch size per GPU" field of the left column (see tab-calculator-en-1280x800.png), scrolled to with the
  // wheel when the inputs above it (the data loader's, issue 42) push it below the window.
  await scrollPaneTo(page, 'inputs-pane', 'batch', 800);
  const batch = await anchorCentre(page, 'batch');
  await page.mouse.click(batch.x, batch.y);
  await page.keyboard.press('Control+A');
  await page.keyboard.type('24');
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => JSON.parse(window.gpuguide.report()).scenario.batch_size === 24, null, { timeout: 10000 });
  // An out-of-range value is explained next to the field and not applied.
  await page.mouse.click(batch.x, batch.y);
  await page.keyboard.press('Control+A');
  await page.keyboard.type('0');
  await page.keyboard.press('Enter');
  await waitSettled(page);
  assert.equal(JSON.parse(await page.evaluate(() => window.gpuguide.report())).scenario.batch_size, 24);
  await screenshotColours(page, 'input-out-of-range');
  assert.deepEqual(problems, []);
  await context.close();
});

test('a custom ResNet is edited with real clicks and keys, and the image size the user set is kept', async () => {
  const { context, page, problems } = await openPage(browser, server.url, { width: 1280, height: 800, scale: 1 });
  await waitReady(page);
  const resnet50 = { family: 'resnet', depths: [3, 4, 6, 3], block: 'bottleneck', width: 64, classes: 1000 };
  assert.deepEqual(await page.evaluate((m) => window.gpuguide.load({
    model: m, batch_size: 32, image_size: 160, gpu: { id: 'rtx-4090' }, dataset: { samples: 100000, epochs: 1 } }), resnet50), []);
  await waitSettled(page);
  await screenshotColours(page, 'custom-resnet-1280x800');
  // "Blocks in stage 3" of the left column (see custom-resnet-1280x800.png): ResNet-50 -> ResNet-101.
  const stage3 = await anchorCentre(page, 'custom_depth_2');
  await page.mouse.click(stage3.x, stage3.y);
  await page.keyboard.press('Control+A');
  await page.keyboard.type('23');
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => JSON.parse(window.gpuguide.report()).scenario.model.depths[2] === 23, null, { timeout: 10000 });
  const report = JSON.parse(await page.evaluate(() => window.gpuguide.report()));
  assert.equal(report.params.total, 44549160);  // torchvision resnet101
  assert.equal(report.scenario.image_size, 160);
  assertSame(report, cliReport(report.scenario), 'resnet101');
  assert.deepEqual(problems, []);
  await context.close();
});

test('on a phone the answer is one tap away from the inputs, and switching views changes nothing', async () => {
  const { context, page, problems } = await openPage(browser, server.url, { width: 390, height: 844, scale: 1 });
  await waitReady(page);
  const before = await page.evaluate(() => window.gpuguide.report());
  const body = { x: 0, y: 165, width: 390, height: 679 };  // below the view switch (see phone-answer-390x844.png)
  const inputs = await page.screenshot({ clip: body });
  const answerButton = await anchorCentre(page, 'view-answer');  // "2  The answer"
  await page.mouse.click(answerButton.x, answerButton.y);
  await waitSettled(page);
  const answer = await page.screenshot({ clip: body });
  assert.notDeepEqual(answer, inputs, 'the answer button changed nothing');
  await screenshotColours(page, 'phone-answer-390x844');
  const jobButton = await anchorCentre(page, 'view-job');  // "1  Your job"
  await page.mouse.click(jobButton.x, jobButton.y);
  await waitSettled(page);
  assert.deepEqual(await page.screenshot({ clip: body }), inputs, 'back on the inputs, they look as before');
  assert.equal(await page.evaluate(() => window.gpuguide.report()), before);
  assert.deepEqual(problems, []);
  await context.close();
});

test("hovering a ranking cell opens that figure's formula", async () => {
  const { context, page, problems } = await openPage(browser, server.url, { width: 1280, height: 2400, scale: 1 });
  await waitReady(page);
  await waitSettled(page);  // the ranking comes one frame after the first
  // The first row's cost cell (see ranking-cell-formula.png); the tooltip opens below and to the right of it.
  const cell = await anchorCentre(page, 'ranking-first-cost');
  const below = { x: cell.rect.x - 250, y: cell.y + 8, width: 460, height: 100 };
  const plain = await page.screenshot({ clip: below });
  await page.mouse.move(cell.x, cell.y);
  await waitSettled(page);
  assert.notDeepEqual(await page.screenshot({ clip: below }), plain, 'no formula opened');
  await page.screenshot({ path: path.join(repoRoot, 'build', 'browser', 'ranking-cell-formula.png'),
                          clip: { x: 400, y: cell.y - 322, width: 880, height: 700 } });
  assert.deepEqual(problems, []);
  await context.close();
});

test('a click on a row of "the same job on more of this card" sets that many cards', async () => {
  const scenario = { model: 'bert-large', batch_size: 16, seq_len: 384, precision: 'fp16-amp',
    gpu: { id: 'rtx-4090', count: 1 }, dataset: { samples: 88000, epochs: 2 } };
  const hash = '#s=1.' + Buffer.from(JSON.stringify(scenario)).toString('base64url');
  const { context, page, problems } = await openPage(browser, server.url + hash, { width: 1400, height: 700, scale: 1 });
  await waitReady(page);
  await waitSettled(page);
  const report = () => page.evaluate(() => JSON.parse(window.gpuguide.report()));
  const rows = (await report()).time.scaling;
  assert.deepEqual(rows.map((r) => r.gpus), [1, 2, 4, 8, 16]);
  // The table opens under the time line (see scaling-table.png).
  const row = await anchorCentre(page, 'scaling-4');
  await page.screenshot({ path: path.join(repoRoot, 'build', 'browser', 'scaling-table.png'),
                          clip: { x: 400, y: row.y - 150, width: 1000, height: 240 } });
  await page.mouse.click(row.x, row.y);
  await waitSettled(page);
  const after = await report();
  assert.equal(after.scenario.gpu.count, 4);
  assertSame(after.time.step_s, rows[2].step_s, 'step_s at 4 cards');
  assert.deepEqual(problems, []);
  await context.close();
});

test('the mouse wheel scrolls the answer the way it turns, a notch at a time, and a trackpad smoothly', async () => {
  // Emscripten 3.1.6's GLFW passes the raw deltaY (+100 for one notch down) where GLFW means +1 = up: before the
  // fix one notch up threw the panel to its end (src/platform/web_main.cpp on_scroll_browser).
  const { context, page, problems } = await openPage(browser, server.url, { width: 1280, height: 800, scale: 1 });
  await waitReady(page);
  await waitSettled(page);
  const rowY = async () => (await page.evaluate(() => window.gpuguide.anchor('scaling-1'))).y;
  const top = await rowY();
  await page.mouse.move(700, 450);
  await page.mouse.wheel(0, 100);  // one notch down: the content moves up by a few lines
  await waitFrames(page);
  const down = await rowY();
  assert.ok(top - down > 20 && top - down < 200, `one notch down moved the row from ${top} to ${down}`);
  await page.mouse.wheel(0, -100);  // one notch up: back
  await waitFrames(page);
  assert.ok(Math.abs((await rowY()) - top) < 2, 'one notch up undoes one notch down');
  for (let i = 0; i < 5; ++i) { await page.mouse.wheel(0, 4); await page.waitForTimeout(40); }  // trackpad: 20 px
  await waitFrames(page);
  const smooth = top - (await rowY());
  assert.ok(smooth > 0 && smooth < 40, `five 4-pixel trackpad events moved the row ${smooth} px`);
  assert.deepEqual(problems, []);
  await context.close();
});

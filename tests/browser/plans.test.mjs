// Plans (issue 28): the guides' 13B full fine-tuning does not fit one card as typed; the ranking's first row runs it
// with a plan (ZeRO/FSDP or tensor parallelism on several cards, the global batch kept). A real click on that row
// sets the inputs to the plan, and the calculator then reports the figures the row promised, as the CLI does.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { launch, serveDist, openPage, waitReady, repoRoot, anchorCentre, waitSettled } from './harness.mjs';

const cli = path.join(repoRoot, 'build', 'native', 'gpuguide');
const scenario = { model: 'llama-2-13b', batch_size: 8, seq_len: 2048, precision: 'bf16-amp', optimizer: 'adamw',
  gpu: { id: 'a100-sxm4-80gb', count: 1 }, dataset: { samples: 10000, epochs: 1 } };

let browser, server;
before(async () => { browser = await launch(); server = await serveDist(); });
after(async () => { if (browser) await browser.close(); if (server) await server.close(); });

test('a click on a planned ranking row applies its plan, and the calculator shows the same figures', async () => {
  const hash = '#s=1.' + Buffer.from(JSON.stringify(scenario)).toString('base64url');
  const { context, page, problems } = await openPage(browser, server.url + hash, { width: 1600, height: 2400, scale: 1 });
  await waitReady(page);
  await waitSettled(page);  // the ranking comes one frame after the first
  const report = () => page.evaluate(() => JSON.parse(window.gpuguide.report()));
  const before = await report();
  assert.equal(before.fits, false, 'one A100 80GB cannot hold a 13B full fine-tune as typed');
  // The page's ranking is the CLI's for the same scenario; its first row carries a plan other than the typed one.
  const ranking = JSON.parse(execFileSync(cli, ['rank', '-'], { input: JSON.stringify(before.scenario), maxBuffer: 1 << 26 }).toString());
  const first = ranking.options[0];
  assert.ok(first.plan.found && !first.plan.as_typed, 'the first option runs a plan');
  assert.equal(first.plan.global_batch, 8, 'the plan keeps the global batch');
  await page.screenshot({ path: path.join(repoRoot, 'build', 'browser', 'plans-before-click.png') });
  const cell = await anchorCentre(page, 'ranking-first-plan');
  await page.mouse.click(cell.x, cell.y);
  await page.waitForFunction((n) => JSON.parse(window.gpuguide.report()).scenario.gpu.count === n, first.count,
                             { timeout: 10000 });
  await waitSettled(page);
  const after = await report();
  const s = after.scenario, p = first.plan.scenario;
  assert.equal(s.gpu.id, first.gpu);
  assert.equal(s.gpu.count, p.gpu.count);
  assert.equal(s.gpu.strategy, p.gpu.strategy);
  assert.equal(s.gpu.tensor_parallel || 1, p.gpu.tensor_parallel);
  assert.equal(s.gpu.pipeline_parallel || 1, p.gpu.pipeline_parallel);
  assert.equal(s.batch_size, p.batch_size);
  assert.equal(s.grad_accum_steps, p.grad_accum_steps);
  assert.equal(s.checkpointing, p.checkpointing);
  assert.equal(after.fits, true, 'the plan fits');
  assert.ok(Math.abs(after.memory_bytes.nvidia_smi - first.plan.peak_bytes_per_card) < 1, 'the same bytes per card');
  assert.ok(Math.abs(after.time.total_s - first.time_s) < 1e-6 * first.time_s, 'the same time');
  // The verdict now says the job fits as set.
  await page.evaluate(() => true);
  await page.screenshot({ path: path.join(repoRoot, 'build', 'browser', 'plans-after-click.png') });
  assert.deepEqual(problems, []);
  await context.close();
});

test('the verdict for a card that cannot hold the job as typed offers the plan, in both languages', async () => {
  const s = { ...scenario, gpu: { id: 'h100-sxm', count: 8 } };
  const hash = '#s=1.' + Buffer.from(JSON.stringify(s)).toString('base64url');
  const { context, page, problems } = await openPage(browser, server.url + hash, { width: 1280, height: 1400, scale: 1 });
  await waitReady(page);
  await waitSettled(page);
  assert.equal(JSON.parse(await page.evaluate(() => window.gpuguide.report())).fits, false);
  for (const lang of ['en', 'zh']) {
    const button = await anchorCentre(page, 'apply-plan');
    await page.screenshot({ path: path.join(repoRoot, 'build', 'browser', `plans-verdict-${lang}.png`),
                            clip: { x: 380, y: Math.max(0, button.y - 200), width: 900, height: 320 } });
    if (lang === 'en') {
      const toggle = await anchorCentre(page, 'lang');
      await page.mouse.click(toggle.x, toggle.y);
      await waitSettled(page);
    }
  }
  const button = await anchorCentre(page, 'apply-plan');
  await page.mouse.click(button.x, button.y);
  await page.waitForFunction(() => JSON.parse(window.gpuguide.report()).fits === true, null, { timeout: 10000 });
  const after = JSON.parse(await page.evaluate(() => window.gpuguide.report()));
  assert.equal(after.scenario.gpu.count, 8, 'the plan is for the cards the user chose');
  assert.deepEqual(problems, []);
  await context.close();
});

// Issue 42 with real input: a GAN preset chosen in the model box with the mouse (the "GANs" group) turns the calculator
// into the GAN view: the verdict, sec/kimg and the phases come from the page's own GAN report, the inputs that do not
// apply to a GAN are not drawn, and the link carries the GAN scenario (a reload of it shows the same answer).
// At 1280x800 in English and Chinese. Screenshots: build/browser/gan-*.png.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, serveDist, openPage, waitReady, clickAnchor, anchor, anchorCentre, screenshotColours, waitFrames, waitSettled } from './harness.mjs';

let browser, server;
before(async () => { browser = await launch(); server = await serveDist(); });
after(async () => { if (browser) await browser.close(); if (server) await server.close(); });

const report = async (page) => JSON.parse(await page.evaluate(() => window.gpuguide.report()));
const kPreset = 'stylegan2-ada-256';

// Opens the model box and turns the wheel over its list until the preset's entry is on screen, then clicks it.
async function chooseModel(page, id) {
  await clickAnchor(page, 'model');
  const box = await anchorCentre(page, 'model');
  for (let i = 0; i < 40; ++i) {
    const a = await anchor(page, `model-${id}`);
    if (a && a.visible && a.y > 0 && a.y + a.h < 790) break;
    await page.mouse.move(box.x, box.rect.y + box.rect.h + 120);
    await page.mouse.wheel(0, 200);
    await waitFrames(page, 2);
  }
  await clickAnchor(page, `model-${id}`);
}

for (const lang of ['en', 'zh']) {
  test(`1280x800 ${lang}: choosing ${kPreset} with the mouse shows its verdict, sec/kimg and phases, and the link keeps it`, { timeout: 240000 }, async () => {
    const { context, page, problems } = await openPage(browser, server.url, { width: 1280, height: 800 });
    assert.equal((await waitReady(page)).ready, true);
    await waitSettled(page);
    if (lang === 'zh') await clickAnchor(page, 'lang');
    assert.equal(await anchor(page, 'gan-inputs'), null, 'the default example is no GAN');
    await chooseModel(page, kPreset);
    await page.mouse.move(2, 2);
    await waitSettled(page);

    const r = await report(page);
    assert.equal(r.kind, 'gan');
    assert.equal(r.model.id, kPreset);
    assert.ok(['fits', 'tight', 'does_not_fit'].includes(r.verdict), `verdict ${r.verdict}`);
    assert.ok(r.time.sec_per_kimg > 0, 'sec/kimg');
    assert.ok(Math.abs(r.time.samples_per_s * r.time.sec_per_kimg - 1000) < 1e-6, 'sec/kimg = 1000 / samples per second');
    assert.deepEqual(r.phases.map((p) => p.name), ['Gmain', 'Greg', 'Dmain', 'Dreg']);
    assert.equal(r.phases.filter((p) => p.peak).map((p) => p.name)[0], r.peak_phase);
    for (const name of ['gan-verdict', 'gan-speed', 'gan-phases', 'gan-inputs'])
      assert.ok((await anchor(page, name))?.visible, `${name} is drawn`);
    // What does not apply to a GAN is not drawn: the one-network verdict and the strategy / stack inputs.
    for (const name of ['verdict', 'stack', 'strategy', 'offload-optimizer'])
      assert.equal(await anchor(page, name), null, `${name} is not drawn for a GAN`);
    const shot = await screenshotColours(page, `gan-${lang}`);
    assert.ok(shot.colours > 8);

    // The link carries the GAN scenario: the same page opened from it shows the same answer.
    const url = page.url();
    assert.ok(url.includes('#'), 'the page wrote its scenario into the link');
    const again = await openPage(browser, url, { width: 1280, height: 800 });
    assert.equal((await waitReady(again.page)).ready, true);
    await waitSettled(again.page);
    const r2 = await report(again.page);
    assert.equal(r2.model.id, kPreset);
    assert.equal(r2.time.sec_per_kimg, r.time.sec_per_kimg);
    assert.equal(r2.verdict, r.verdict);
    assert.deepEqual(again.problems, []);
    await again.context.close();
    assert.deepEqual(problems, []);
    await context.close();
  });
}

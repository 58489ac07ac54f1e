// The page starts and draws from http and from file://, asks for nothing but itself, follows resizes at the
// device's pixel density, exposes the test hook, and explains itself when WebGL2 is missing.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import zlib from 'node:zlib';
import { launch, serveDist, openPage, waitReady, screenshotColours, pagePath, fileUrl } from './harness.mjs';

let browser;
let server;

before(async () => {
  assert.ok(fs.existsSync(pagePath), `${pagePath} is missing: run make page first`);
  browser = await launch();
  server = await serveDist();
});

after(async () => {
  if (browser) await browser.close();
  if (server) await server.close();
});

// The budget was 1.0 MB until issue 43 (2026-12-07): reading pasted training configs with yaml-cpp costs 51 KB
// gzipped and the stacks' readers with the page's box 25 KB; the page went from 0.995 MB to 1.065 MB (this test's
// zlib level 9). docs/performance.md has the measurements and the options weighed. It went to 1.10 MB with issue 42
// (2026-12-07): GANs on the page (+35.7 KB) and the CPU loader with the first projects (+14.0 KB), after zopfli took
// 41.5 KB off the wasm; the page then read 1,085,025 bytes here. It went to 1.11 MB with session 26's merges
// (2026-12-07): the house's split (issue 45: the catalog's parsers in five files, the scenario key table, the UI in
// smaller functions), the phone's keyboard and nine Hub records; 1,101,674 bytes here (docs/performance.md).
test('the single-file page stays under 1.11 MB gzipped', () => {
  const raw = fs.readFileSync(pagePath);
  const gzipped = zlib.gzipSync(raw, { level: 9 }).length;
  console.log(`dist/index.html: ${(raw.length / 1e6).toFixed(2)} MB, ${(gzipped / 1e6).toFixed(3)} MB gzipped`);
  assert.ok(gzipped < 1.11e6, `${gzipped} bytes gzipped`);
  assert.doesNotMatch(raw.toString('latin1'), /<script[^>]+src=|<link[^>]+stylesheet/, 'the page must not load other files');
});

for (const source of ['http', 'file']) {
  test(`the page renders from ${source} with no console error and no request but itself`, async () => {
    const url = source === 'http' ? server.url : fileUrl;
    const { context, page, problems } = await openPage(browser, url);
    const state = await waitReady(page);
    assert.equal(state.error, null);
    assert.equal(state.ready, true);
    const report = JSON.parse(await page.evaluate(() => window.gpuguide.report()));
    assert.equal(report.scenario.model, 'bert-base');
    assert.ok(report.memory_bytes.nvidia_smi > 0);
    const shot = await screenshotColours(page, `smoke-${source}-1280x800`);
    assert.ok(shot.colours > 8, `the canvas looks blank (${shot.colours} colours in ${shot.file})`);
    assert.equal(await page.locator('#status').count(), 0, 'the loading message is gone after the first frame');
    assert.deepEqual(problems, []);
    await context.close();
  });
}

test('the saved page works from file:// with the network off', async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  await context.setOffline(true);
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  await page.goto(fileUrl);
  const state = await waitReady(page);
  assert.equal(state.error, null);
  assert.ok(JSON.parse(await page.evaluate(() => window.gpuguide.report())).memory_bytes.nvidia_smi > 0);
  await screenshotColours(page, 'offline-file');
  assert.deepEqual(errors, []);
  await context.close();
});

test('the canvas follows resizes at the device pixel ratio (crisp on HiDPI)', async () => {
  const { context, page, problems } = await openPage(browser, server.url, { width: 1280, height: 800, scale: 2 });
  await waitReady(page);
  const size = () => page.evaluate(() => {
    const c = document.getElementById('canvas');
    return { w: c.width, h: c.height, cssW: c.clientWidth, cssH: c.clientHeight };
  });
  await page.waitForFunction(() => document.getElementById('canvas').width === 2560);
  let s = await size();
  assert.deepEqual(s, { w: 2560, h: 1600, cssW: 1280, cssH: 800 });
  await screenshotColours(page, 'smoke-http-1280x800@2x');
  await page.setViewportSize({ width: 390, height: 844 });
  await page.waitForFunction(() => document.getElementById('canvas').width === 780, null, { timeout: 10000 });
  s = await size();
  assert.deepEqual(s, { w: 780, h: 1688, cssW: 390, cssH: 844 });
  const shot = await screenshotColours(page, 'smoke-http-390x844@2x');
  assert.ok(shot.colours > 8, `blank after resize (${shot.file})`);
  assert.deepEqual(problems, []);
  await context.close();
});

test('without WebGL2 a readable message replaces the canvas', async () => {
  const noGl = await launch(['--disable-webgl', '--disable-webgl2']);
  try {
    const { context, page, problems } = await openPage(noGl, server.url);
    const state = await waitReady(page);
    assert.equal(state.error, 'webgl2');
    const text = await page.locator('#status').innerText();
    assert.match(text, /needs WebGL 2/);
    assert.match(text, /WebGL 2/);
    assert.equal(await page.locator('#canvas').isVisible(), false);
    await screenshotColours(page, 'smoke-no-webgl2');
    assert.deepEqual(problems, []);
    await context.close();
  } finally {
    await noGl.close();
  }
});

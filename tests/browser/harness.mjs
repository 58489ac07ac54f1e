// Shared pieces of the browser tests: Debian's Chromium with software WebGL2, a static server for dist/ on
// 127.0.0.1, and checks every page load must pass (no console errors, no requests beyond the page itself).
import { chromium } from 'playwright-core';
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
export const repoRoot = path.resolve(here, '../..');
export const distDir = path.join(repoRoot, 'dist');
export const pagePath = path.join(distDir, 'index.html');
export const shotsDir = path.join(repoRoot, 'build', 'browser');
export const fileUrl = pathToFileURL(pagePath).href;

// Flags from ../shared/TOOLCHAIN.md: software GL (no GPU here) and no background traffic.
const kChromiumArgs = [
  '--no-sandbox', '--disable-quic', '--no-first-run', '--disable-background-networking',
  '--disable-component-update', '--disable-sync', '--use-gl=angle', '--use-angle=swiftshader',
  '--enable-unsafe-swiftshader',
];

export async function launch(extraArgs = []) {
  fs.mkdirSync(shotsDir, { recursive: true });
  return chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: [...kChromiumArgs, ...extraArgs] });
}

// Serves dist/ on an ephemeral loopback port; resolves to { url, close }.
export function serveDist() {
  const types = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.wasm': 'application/wasm' };
  const server = http.createServer((req, res) => {
    const rel = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    const file = path.join(distDir, rel.endsWith('/') ? rel + 'index.html' : rel);
    if (!file.startsWith(distDir) || !fs.existsSync(file)) { res.writeHead(404); res.end(); return; }
    res.writeHead(200, { 'content-type': types[path.extname(file)] || 'application/octet-stream' });
    fs.createReadStream(file).pipe(res);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => {
    resolve({ url: `http://127.0.0.1:${server.address().port}/`, close: () => new Promise((r) => server.close(r)) });
  }));
}

// Opens `url` in a new page and records console errors, page errors and every request that is not the page.
// `touch`: a touch screen (the page gets touch events; page.touchscreen and CDP Input.dispatchTouchEvent work).
export async function openPage(browser, url, { width = 1280, height = 800, scale = 1, touch = false } = {}) {
  const context = await browser.newContext({ viewport: { width, height }, deviceScaleFactor: scale, hasTouch: touch });
  const page = await context.newPage();
  const problems = [];
  page.on('console', (msg) => { if (msg.type() === 'error') problems.push(`console error: ${msg.text()}`); });
  page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
  const pageUrl = url.split('#')[0];  // requests never carry the fragment
  page.on('request', (req) => {
    const u = req.url();
    if (u !== pageUrl && !u.startsWith('data:') && !u.startsWith('blob:')) problems.push(`unexpected request: ${u}`);
  });
  await page.goto(url);
  return { context, page, problems };
}

export async function waitReady(page, timeoutMs = 60000) {
  await page.waitForFunction(() => window.gpuguide && (window.gpuguide.ready || window.gpuguide.error), null,
                             { timeout: timeoutMs, polling: 100 });
  return page.evaluate(() => ({ ready: window.gpuguide.ready, error: window.gpuguide.error }));
}

// Screenshot to build/browser/NAME.png; returns the number of distinct colours (a blank canvas has ~1).
export async function screenshotColours(page, name) {
  const file = path.join(shotsDir, `${name}.png`);
  const png = await page.screenshot({ path: file });
  const colours = await page.evaluate(async (b64) => {
    const img = new Image();
    img.src = 'data:image/png;base64,' + b64;
    await img.decode();
    const c = document.createElement('canvas');
    c.width = img.width; c.height = img.height;
    const ctx = c.getContext('2d');
    ctx.drawImage(img, 0, 0);
    const d = ctx.getImageData(0, 0, c.width, c.height).data;
    const seen = new Set();
    for (let i = 0; i < d.length; i += 4 * 7) seen.add((d[i] << 16) | (d[i + 1] << 8) | d[i + 2]);
    return seen.size;
  }, png.toString('base64'));
  return { file, colours };
}

// The centre of a named widget as drawn in the last frame (window.gpuguide.anchor, src/ui/widgets.h test_anchor),
// in CSS pixels; fails when the widget is not on screen. Tests click what they mean, not points that move with the
// layout.
export async function anchorCentre(page, name) {
  const a = await page.evaluate((n) => window.gpuguide.anchor(n), name);
  if (!a) throw new Error(`anchor '${name}' was not drawn in the last frame`);
  if (!a.visible) throw new Error(`anchor '${name}' is clipped (scrolled out of its panel)`);
  return { x: a.x + a.w / 2, y: a.y + a.h / 2, rect: a };
}

// What the page has drawn (window.gpuguide.frame(), src/platform/web_main.cpp): {drawn, pending, busy, idle}.
export const frameState = (page) => page.evaluate(() => window.gpuguide.frame());

// Waits until the page has drawn `count` whole frames after this call, or has paused its main loop (idle: it has
// drawn everything its inputs asked for). Call it after an input: Dear ImGui 1.86 reads the mouse and the keys once
// per frame, so a press needs a frame to be seen and another for what it changed to be drawn.
export async function waitFrames(page, count = 2, timeoutMs = 30000) {
  const start = (await frameState(page)).drawn;
  await page.waitForFunction(([s, n]) => { const f = window.gpuguide.frame(); return f.drawn >= s + n || f.idle; },
                             [start, count], { timeout: timeoutMs, polling: 'raf' });
}

// Waits until the page has drawn what its inputs ask for: `count` more frames, then none of the ranking and advice
// still to come (they are computed a frame after the results) and no touch or paste still being fed in.
export async function waitSettled(page, count = 2, timeoutMs = 30000) {
  await waitFrames(page, count, timeoutMs);
  await page.waitForFunction(() => { const f = window.gpuguide.frame(); return (!f.pending && !f.busy) || f.idle; }, null,
                             { timeout: timeoutMs, polling: 'raf' });
}

// A click as a hand makes it: the pointer rests on the widget for a frame first (Dear ImGui 1.86 finds the hovered
// widget in the frame before the press), then presses and releases in separate frames, then the page settles
// (`settleFrames` frames drawn after the release, the ranking included).
export async function clickAnchor(page, name, settleFrames = 3) {
  const at = await anchorCentre(page, name);
  await page.mouse.move(at.x, at.y);
  await waitFrames(page, 2);
  await page.mouse.down();
  await waitFrames(page, 1);
  await page.mouse.up();
  await waitSettled(page, settleFrames);
}

// A widget as drawn in the last frame (window.gpuguide.anchor), or null.
export const anchor = (page, name) => page.evaluate((n) => window.gpuguide.anchor(n), name);

// Wheel over the pane's scrollbar until `name` is drawn in the upper part of the pane (`height`: the viewport's), or,
// for the last widgets of a pane, until the pane stops at its end with `name` whole on the screen.
export async function scrollPaneTo(page, pane, name, height) {
  let last = null;
  for (let i = 0; i < 150; ++i) {
    const a = await anchor(page, name);
    if (a && a.visible && a.y > 0.1 * height && a.y < 0.6 * height) return a;
    const atEnd = a && last && a.visible && a.y > 0.6 * height && Math.abs(a.y - last.y) < 0.5;
    if (atEnd && a.y + a.h <= height) return a;
    last = a;
    const p = await anchor(page, pane);
    await page.mouse.move(p.x + p.w - 3, p.y + p.h / 2);
    // Three notches at a time while `name` is off the screen below, then one (the window it must land in is taller).
    await page.mouse.wheel(0, a && a.y <= 0.1 * height ? -100 : !a || a.y > height ? 300 : 100);
    await waitFrames(page, 1);  // the frame that applies the wheel (the loop checks where it landed)
  }
  throw new Error(`could not scroll ${name} into view: ${JSON.stringify(await anchor(page, name))}`);
}

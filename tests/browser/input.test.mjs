// Issue 40 with real input only: the system clipboard (Ctrl+V into the config.json box, the right click's paste, the
// Paste button, the stack config's Copy button, Ctrl+C of a selection, the hand-copy box where the browser refuses)
// and touch (a tap lands where it is made, a swipe scrolls the panel under the finger and flings on, a drag on the
// scrollbar drags it, a long press opens the right-click menu), at 1280x800 and 390x844, in English and Chinese.
// Screenshots: build/browser/input-*.png.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { launch, serveDist, openPage, waitReady, clickAnchor, anchorCentre, screenshotColours, repoRoot, anchor, scrollPaneTo, waitFrames, waitSettled } from './harness.mjs';

const cli = path.join(repoRoot, 'build', 'native', 'gpuguide');
// Qwen/Qwen2-1.5B's config.json, pretty-printed with all its keys as the Hub's file has them (written out here, not
// fetched: nothing is downloaded in tests): 1,543,714,304 parameters, the count tests/validation/hf_configs.json holds
// for the same architecture (Qwen2.5-1.5B), and what `gpuguide estimate` gives for this text.
const qwenConfigText = `{
  "architectures": [
    "Qwen2ForCausalLM"
  ],
  "attention_dropout": 0.0,
  "bos_token_id": 151643,
  "eos_token_id": 151643,
  "hidden_act": "silu",
  "hidden_size": 1536,
  "initializer_range": 0.02,
  "intermediate_size": 8960,
  "max_position_embeddings": 131072,
  "max_window_layers": 28,
  "model_type": "qwen2",
  "num_attention_heads": 12,
  "num_hidden_layers": 28,
  "num_key_value_heads": 2,
  "rms_norm_eps": 1e-06,
  "rope_theta": 1000000.0,
  "sliding_window": 131072,
  "tie_word_embeddings": true,
  "torch_dtype": "bfloat16",
  "transformers_version": "4.40.1",
  "use_cache": true,
  "use_sliding_window": false,
  "vocab_size": 151936
}
`;
const kQwenParams = 1543714304;
const sizes = [{ width: 1280, height: 800, scale: 1, phone: false }, { width: 390, height: 844, scale: 2, phone: true }];

let browser, server;
before(async () => { browser = await launch(); server = await serveDist(); });
after(async () => { if (browser) await browser.close(); if (server) await server.close(); });

const report = async (page) => JSON.parse(await page.evaluate(() => window.gpuguide.report()));
const ui = (page) => page.evaluate(() => window.gpuguide.ui());


// The clipboard as the system holds it (the page writes it asynchronously): waits for `want`, returns what is there.
async function clipboardHolds(page, want) {
  let text = null;
  for (let waited = 0; waited < 10000; waited += 100) {
    text = await page.evaluate(() => navigator.clipboard.readText());
    if (text === want) return text;
    await page.waitForTimeout(100);
  }
  return text;
}

async function openConfigBox(page, size) {
  if (size.phone) await clickAnchor(page, 'view-job');
  await scrollPaneTo(page, 'results-pane', 'hf_config_open', size.height).catch(() => {});
  if (!(await anchor(page, 'hf_config_text'))) await clickAnchor(page, 'hf_config_open');
  if (size.phone) await scrollPaneTo(page, 'results-pane', 'hf_config_text', size.height);
}

// The stack config's title on screen and open; returns the copy-config anchor's centre.
async function openStackConfig(page, size) {
  if (size.phone) await clickAnchor(page, 'view-answer');
  const pane = 'results-pane';
  await scrollPaneTo(page, pane, 'stack-config', size.height);
  if (!(await anchor(page, 'copy-config'))) await clickAnchor(page, 'stack-config');
  await scrollPaneTo(page, pane, 'copy-config', size.height);
  return anchorCentre(page, 'copy-config');
}

for (const size of sizes) {
  for (const lang of ['en', 'zh']) {
    test(`${size.width}x${size.height} ${lang}: Ctrl+V pastes Qwen2-1.5B's config.json, Apply counts its parameters, Copy puts the stack config on the clipboard`, { timeout: 240000 }, async () => {
      const { context, page, problems } = await openPage(browser, server.url, size);
      await context.grantPermissions(['clipboard-read', 'clipboard-write']);
      assert.equal((await waitReady(page)).ready, true);
      await waitSettled(page);
      if (lang === 'zh') await clickAnchor(page, 'lang');
      assert.equal((await ui(page)).lang, lang);
      // The user copied config.json from the Hub's Files tab.
      await page.evaluate((t) => navigator.clipboard.writeText(t), qwenConfigText);
      await openConfigBox(page, size);
      await clickAnchor(page, 'hf_config_text');
      await page.keyboard.press('Control+V');
      await waitSettled(page);
      await screenshotColours(page, `input-pasted-${size.width}-${lang}`);
      await clickAnchor(page, 'hf_config_apply');
      await page.waitForFunction((n) => JSON.parse(window.gpuguide.report()).params.total === n, kQwenParams, { timeout: 10000 });
      const r = await report(page);
      assert.equal(r.params.total, kQwenParams);
      assert.deepEqual(r.scenario.model, { hf_config: JSON.parse(qwenConfigText) }, 'pasted once, every line and key');

      // The stack config's Copy button: the clipboard then holds exactly what `gpuguide config` writes.
      const expected = execFileSync(cli, ['config', '-'], { input: JSON.stringify(r.scenario) }).toString();
      const copy = await openStackConfig(page, size);
      await page.evaluate(() => navigator.clipboard.writeText(''));
      await clickAnchor(page, 'copy-config', 1);
      assert.equal(await clipboardHolds(page, expected), expected);
      await page.mouse.move(2, 2);
      await waitFrames(page);
      const shot = await screenshotColours(page, `input-copy-config-${size.width}-${lang}`);
      assert.ok(shot.colours > 8);
      // The button stays inside the screen and its pane, with "Copied" beside it.
      assert.ok(copy.rect.x >= 0 && copy.rect.x + copy.rect.w <= size.width, JSON.stringify(copy.rect));
      assert.deepEqual(problems, []);
      await context.close();
    });
  }
}

test('1280x800: Ctrl+A Ctrl+C in the stack config copies it; a right click on the config.json box focuses a text area for the menu\'s Paste, which pastes into the box', { timeout: 240000 }, async () => {
  const size = sizes[0];
  const { context, page, problems } = await openPage(browser, server.url, size);
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await waitReady(page);
  await waitSettled(page);
  await openConfigBox(page, size);
  const box = await anchorCentre(page, 'hf_config_text');
  await page.mouse.move(box.x, box.y);
  await waitFrames(page);  // the frame that shows the text cursor over the box
  await page.evaluate(() => {
    window.menuSeen = null;
    window.addEventListener('contextmenu', (e) => {  // after the page's own listeners (bubbling, on window)
      window.menuSeen = { target: e.target.id || e.target.tagName, prevented: e.defaultPrevented,
                          editable: e.target.tagName === 'TEXTAREA', focused: document.activeElement && document.activeElement.id };
    }, { once: true });
  });
  await page.mouse.click(box.x, box.y, { button: 'right' });
  await page.waitForTimeout(100);
  const seen = await page.evaluate(() => window.menuSeen);
  assert.deepEqual(seen, { target: 'gg-paste-target', prevented: false, editable: true, focused: 'gg-paste-target' },
                   'the browser\'s own menu (with Paste) opens on an editable element');
  await waitSettled(page);  // the box got a left click: its caret
  // The menu's Paste sends the same paste event as Ctrl+V to the focused text area (headless Chromium draws no menu).
  await page.evaluate((t) => navigator.clipboard.writeText(t), qwenConfigText);
  await page.keyboard.press('Control+V');
  await waitSettled(page);
  assert.equal(await page.evaluate(() => document.activeElement.id), 'canvas', 'the page has the keyboard again');
  await clickAnchor(page, 'hf_config_apply');
  await page.waitForFunction((n) => JSON.parse(window.gpuguide.report()).params.total === n, kQwenParams, { timeout: 10000 });

  // A selection copied with the keyboard (keys held as a hand holds them: ImGui 1.86 reads keys once a frame).
  const r = await report(page);
  const expected = execFileSync(cli, ['config', '-'], { input: JSON.stringify(r.scenario) }).toString();
  await openStackConfig(page, size);
  await page.evaluate(() => navigator.clipboard.writeText(''));
  const text = await anchor(page, 'copy-config');
  await page.mouse.click(text.x + 10, text.y + text.h * 3);  // into the config's text box, under the button
  await waitSettled(page);
  await page.keyboard.down('Control');
  for (const key of ['a', 'c']) {
    await page.keyboard.down(key);
    await waitFrames(page, 1);
    await page.keyboard.up(key);
    await waitFrames(page, 1);
  }
  await page.keyboard.up('Control');
  assert.equal(await clipboardHolds(page, expected), expected);
  assert.deepEqual(problems, []);
  await context.close();
});

test('390x844 zh: the Paste button reads the clipboard into the config.json box (a phone has no Ctrl+V)', { timeout: 240000 }, async () => {
  const size = sizes[1];
  const { context, page, problems } = await openPage(browser, server.url, { ...size, touch: true });
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await waitReady(page);
  await waitSettled(page);
  await clickAnchor(page, 'lang');
  await page.evaluate((t) => navigator.clipboard.writeText(t), qwenConfigText);
  await openConfigBox(page, size);
  const paste = await anchorCentre(page, 'hf_config_paste');
  await page.touchscreen.tap(paste.x, paste.y);
  await page.waitForTimeout(500);
  const apply = await anchorCentre(page, 'hf_config_apply');
  await page.touchscreen.tap(apply.x, apply.y);
  await page.waitForFunction((n) => JSON.parse(window.gpuguide.report()).params.total === n, kQwenParams, { timeout: 10000 });
  await screenshotColours(page, 'input-paste-button-390-zh');
  assert.deepEqual(problems, []);
  await context.close();
});

test('where the browser refuses the clipboard, Copy shows the text selected in a box of its own, to copy by hand', { timeout: 240000 }, async () => {
  for (const [size, lang] of [[sizes[0], 'en'], [sizes[1], 'zh']]) {
    const { context, page, problems } = await openPage(browser, server.url, size);
    // A browser that refuses both ways of writing the clipboard (no permission, no execCommand("copy")).
    await page.addInitScript(() => {
      navigator.clipboard.writeText = () => Promise.reject(new DOMException('refused', 'NotAllowedError'));
      document.execCommand = () => false;
    });
    await page.reload();
    await waitReady(page);
    await waitSettled(page);
    if (lang === 'zh') await clickAnchor(page, 'lang');
    await page.evaluate(() => window.gpuguide.load({ model: 'qwen2.5-0.5b', batch_size: 4, seq_len: 512, precision: 'bf16-amp',
                                                     method: 'lora', stack: 'llama-factory', gpu: { id: 'rtx-4090' } }));
    await waitSettled(page);
    const r = await report(page);
    const expected = execFileSync(cli, ['config', '-'], { input: JSON.stringify(r.scenario) }).toString();
    await openStackConfig(page, size);
    await clickAnchor(page, 'copy-config');
    await page.waitForFunction(() => document.getElementById('gg-copy-box'), null, { timeout: 10000 });
    const shown = await page.evaluate(() => {
      const box = document.getElementById('gg-copy-box');
      if (!box) return null;
      const area = box.querySelector('textarea');
      return { text: area.value, selected: area.selectionEnd - area.selectionStart, focused: document.activeElement === area,
               label: box.querySelector('p').textContent, button: box.querySelector('button').textContent };
    });
    assert.ok(shown, 'the hand-copy box is shown');
    assert.equal(shown.text, expected);
    assert.equal(shown.selected, expected.length, 'all of it selected');
    assert.ok(shown.focused);
    assert.match(shown.label, lang === 'zh' ? /浏览器不允许/ : /did not allow/);
    await screenshotColours(page, `input-copy-refused-${size.width}-${lang}`);
    const close = await page.evaluate(() => {
      const r = document.querySelector('#gg-copy-box button').getBoundingClientRect();
      return { x: r.x + r.width / 2, y: r.y + r.height / 2 };
    });
    await page.mouse.click(close.x, close.y);
    assert.equal(await page.evaluate(() => document.getElementById('gg-copy-box')), null);
    assert.deepEqual(problems, []);
    await context.close();
  }
});

// ---- touch --------------------------------------------------------------------------------------------------------
async function tap(page, name, settle = true) {
  const at = await anchorCentre(page, name);
  await page.touchscreen.tap(at.x, at.y);
  if (settle) await waitSettled(page);
}

// A finger moved as a hand moves it (CDP touch events: the browser's own input path). Each event carries the time the
// finger is meant to be there (CDP's timestamp becomes the event's timeStamp, which the page reads): on this loaded
// machine a CDP round trip takes up to 200 ms, which would make every swipe a slow one. `restMs`: how long the finger
// rests before it lifts (a rested finger does not fling).
async function swipe(cdp, page, x0, y0, x1, y1, { steps = 20, stepMs = 16, restMs = 0 } = {}) {
  const t0 = Date.now() / 1000;
  const send = (type, touchPoints, atMs) =>
    cdp.send('Input.dispatchTouchEvent', { type, touchPoints, timestamp: t0 + atMs / 1000 });
  // The first move goes out with the touch, not a round trip later: a finger held still for half a second is a long
  // press, and under load a round trip can take that long.
  const started = send('touchStart', [{ x: x0, y: y0 }], 0);
  for (let i = 1; i <= steps; ++i) {
    await send('touchMove', [{ x: x0 + (x1 - x0) * i / steps, y: y0 + (y1 - y0) * i / steps }], stepMs * i);
    await page.waitForTimeout(stepMs);
  }
  await started;
  if (restMs) await page.waitForTimeout(restMs);
  await send('touchEnd', [], stepMs * steps + restMs + 5);
}

// Waits (5 s at most: a frame of software rendering takes tens of milliseconds here) until window.gpuguide.ui() is
// `want`; fails with `what` otherwise.
async function uiBecomes(page, want, what) {
  const got = await page.waitForFunction((w) => JSON.stringify(window.gpuguide.ui()) === JSON.stringify(w), want,
                                         { timeout: 5000, polling: 20 }).then(() => want, () => ui(page));
  assert.deepEqual(got, want, what);
}

// Waits until `name` stops moving (a fling has run out); returns its last anchor.
async function still(page, name) {
  let last = await anchor(page, name);
  for (let i = 0; i < 60; ++i) {
    await page.waitForTimeout(150);
    const a = await anchor(page, name);
    if (Math.abs(a.y - last.y) < 0.5) return a;
    last = a;
  }
  return last;
}

for (const size of sizes) {
  test(`${size.width}x${size.height} touch: 中文 then Guide each land where tapped; a 400-pixel swipe scrolls the inputs 400 pixels; a flick flings on`, { timeout: 240000 }, async () => {
    const { context, page, problems } = await openPage(browser, server.url, { ...size, touch: true });
    await waitReady(page);
    await waitSettled(page);
    assert.deepEqual(await ui(page), { lang: 'en', tab: 0 });
    await tap(page, 'lang');
    await uiBecomes(page, { lang: 'zh', tab: 0 }, 'the tap on 中文 switched the language');
    await tap(page, 'tab-guide');
    await uiBecomes(page, { lang: 'zh', tab: 1 }, 'the next tap opened the Guide and left the language');
    await waitSettled(page);  // nothing else follows from that tap (the language stays)
    assert.deepEqual(await ui(page), { lang: 'zh', tab: 1 });
    await screenshotColours(page, `input-touch-guide-${size.width}-zh`);
    await tap(page, 'tab-calculator');
    await uiBecomes(page, { lang: 'zh', tab: 0 }, 'back to the calculator');
    // Eight quick taps more, none lost: the language flips each time.
    // (Software rendering of a 2x phone screen takes tens of milliseconds a frame here: the tap needs three frames.)
    for (let i = 0; i < 8; ++i) {
      await tap(page, 'lang', false);
      const want = i % 2 === 0 ? 'en' : 'zh';
      await uiBecomes(page, { lang: want, tab: 0 }, `tap ${i + 1} of 8 switched the language`);
      await page.waitForTimeout(100);  // the finger lifts before the next tap
    }

    if (size.phone) await tap(page, 'view-job');
    const cdp = await context.newCDPSession(page);
    const pane = await anchor(page, size.phone ? 'results-pane' : 'inputs');
    const x = size.phone ? size.width / 2 : pane.x + pane.w / 2;
    const before = await anchor(page, 'inputs');
    await swipe(cdp, page, x, 650, x, 250, { restMs: 300 });
    const after = await still(page, 'inputs');
    assert.ok(Math.abs(before.y - after.y - 400) <= 2, `the inputs moved up with the finger: ${before.y} -> ${after.y}`);
    assert.deepEqual(await ui(page), { lang: 'zh', tab: 0 }, 'the swipe pressed nothing');
    await screenshotColours(page, `input-touch-swiped-${size.width}-zh`);

    // Back down with the same slow swipe, then a flick: 150 px in about 50 ms goes on well past the finger.
    await swipe(cdp, page, x, 250, x, 650, { restMs: 300 });
    const top = await still(page, 'inputs');
    await swipe(cdp, page, x, 500, x, 350, { steps: 3, stepMs: 16 });
    const flung = await still(page, 'inputs');
    assert.ok(top.y - flung.y > 300, `the flick flung the inputs on after the finger lifted: ${top.y} -> ${flung.y}`);
    assert.deepEqual(problems, []);
    await context.close();
  });
}

test('390x844 touch: a drag on the scrollbar scrolls down; a long press on a ranking row opens its menu, whose Pin pins it', { timeout: 240000 }, async () => {
  const size = sizes[1];
  const { context, page, problems } = await openPage(browser, server.url, { ...size, touch: true });
  await waitReady(page);
  await waitSettled(page);
  const cdp = await context.newCDPSession(page);
  await tap(page, 'view-job');
  const pane = await anchor(page, 'results-pane');
  const before = await anchor(page, 'inputs');
  const barX = pane.x + pane.w - 2;
  await swipe(cdp, page, barX, pane.y + 20, barX, pane.y + 120, { restMs: 200 });
  const after = await still(page, 'inputs');
  // Dragging the thumb down moves the content up, by more than the finger moved (the bar is shorter than the content).
  assert.ok(before.y - after.y > 150, `the scrollbar drag scrolled down: ${before.y} -> ${after.y}`);

  await tap(page, 'view-answer');
  const pinsBefore = (await page.evaluate(() => window.gpuguide.compare())).pins.length;
  // Swipe until the ranking's first row is on the screen.
  for (let i = 0; i < 40; ++i) {
    const row = await anchor(page, 'ranking-first-row');
    if (row && row.visible && row.y > 150 && row.y < 650) break;
    await swipe(cdp, page, size.width / 2, 600, size.width / 2, 300, { steps: 10, restMs: 200 });
    await page.waitForTimeout(100);
  }
  const row = await anchorCentre(page, 'ranking-first-row');
  const scenarioBefore = (await report(page)).scenario;
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x: 40, y: row.y }] });
  await page.waitForTimeout(800);
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  await page.waitForTimeout(300);
  await screenshotColours(page, 'input-touch-long-press-390-en');
  assert.ok(await anchor(page, 'pin-option'), 'the long press opened the row\'s menu');
  assert.deepEqual((await report(page)).scenario, scenarioBefore, 'the long press did not select the row');
  await tap(page, 'pin-option');
  assert.equal((await page.evaluate(() => window.gpuguide.compare())).pins.length, pinsBefore + 1);
  assert.deepEqual(problems, []);
  await context.close();
});

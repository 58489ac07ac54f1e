// Export (issue 7): "Copy the table as" Markdown, CSV and JSON with real clicks; the clipboard then holds the whole
// ranking, and the JSON is exactly what the CLI's `gpuguide rank` prints for the same scenario.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { launch, openPage, waitReady, repoRoot, fileUrl, anchorCentre, waitSettled } from './harness.mjs';

const cli = path.join(repoRoot, 'build', 'native', 'gpuguide');
// At 1280x2400 the calculator's right column shows the ranking's export buttons without scrolling.

// Reads the clipboard until it holds a complete text of `format` (the page writes it asynchronously).
async function clipboardText(page, format) {
  const complete = (text) => {
    if (format === 'JSON') { try { JSON.parse(text); return true; } catch (e) { return false; } }
    return text.startsWith(format === 'CSV' ? 'rank,' : '| ') && text.endsWith('\n');
  };
  for (let waited = 0; waited < 10000; waited += 100) {
    const text = await page.evaluate(() => navigator.clipboard.readText());
    if (complete(text)) return text;
    await page.waitForTimeout(100);
  }
  throw new Error(`the clipboard never held the ${format} export`);
}

let browser;
before(async () => { browser = await launch(); });
after(async () => { if (browser) await browser.close(); });

test('the ranking copied as Markdown, CSV and JSON holds every option; the JSON equals the CLI', async () => {
  const { context, page, problems } = await openPage(browser, fileUrl, { width: 1280, height: 2400 });
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await waitReady(page);
  await waitSettled(page);  // the ranking comes one frame after the first
  const scenario = JSON.parse(await page.evaluate(() => window.gpuguide.report())).scenario;
  const ranking = JSON.parse(execFileSync(cli, ['rank', '-'], { input: JSON.stringify(scenario), maxBuffer: 1 << 26 }).toString());
  const copied = {};
  for (const format of ['Markdown', 'CSV', 'JSON']) {
    const at = await anchorCentre(page, `copy-${format}`);
    await page.evaluate(() => navigator.clipboard.writeText(''));
    await page.mouse.click(at.x, at.y);
    // The page writes the clipboard asynchronously: poll for a complete text of this format.
    copied[format] = await clipboardText(page, format);
  }
  assert.deepEqual(JSON.parse(copied.JSON), ranking);
  const options = ranking.options.length;
  const md = copied.Markdown.trim().split('\n');
  assert.equal(md.length, options + 2, 'a header, a separator and one row per option');
  assert.match(md[0], /^\|.*\|$/);
  assert.match(md[1], /^\|[ :|-]+\|$/);
  const csv = copied.CSV.trim().split('\n');
  assert.equal(csv.length, options + 1, 'a header and one row per option');
  assert.ok(copied.Markdown.includes('RTX 4060'), 'GPU names in the Markdown');
  assert.ok(copied.CSV.includes(',rtx-4060,'), 'GPU ids in the CSV');
  assert.deepEqual(problems, []);
  await context.close();
});

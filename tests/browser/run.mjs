// Runs the browser test files, JOBS at a time, each in its own `node --test` process, then budget.test.mjs alone
// (it times the page's start-up and idle CPU, which the others would skew).
//
// A file that passed is not run again while nothing it depends on has changed, as Bazel caches test results: the key
// is a SHA-256 of the page (dist/), the file itself, harness.mjs, the CLI the tests compare against
// (build/native/gpuguide), the test data they read (tests/data, tests/validation), and the versions of Node.js, playwright-core and Chromium. A
// failed file is always run again. BROWSER_RERUN=1 (make test BROWSER_RERUN=1) ignores the cache; a fresh clone has
// none. The results are kept in build/browser/passed/.
//
// usage: node run.mjs [--jobs N] [FILE.test.mjs ...]
import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, '..', '..');
const passedDir = path.join(repoRoot, 'build', 'browser', 'passed');
const chromium = '/usr/bin/chromium';

const args = process.argv.slice(2);
let jobs = 3;
const named = [];
for (let i = 0; i < args.length; ++i) {
  if (args[i] === '--jobs') jobs = Math.max(1, Number.parseInt(args[++i], 10) || 1);
  else named.push(args[i]);
}
const rerun = process.env.BROWSER_RERUN === '1';

const files = named.length ? named : fs.readdirSync(here).filter((f) => f.endsWith('.test.mjs')).sort();
const alone = files.filter((f) => f === 'budget.test.mjs');
const together = files.filter((f) => f !== 'budget.test.mjs');

function hashFile(hash, file) {
  hash.update(`${path.relative(repoRoot, file)}\0`);
  hash.update(fs.existsSync(file) ? fs.readFileSync(file) : Buffer.from('missing'));
  hash.update('\0');
}

function hashTree(hash, dir) {
  if (!fs.existsSync(dir)) return;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) hashTree(hash, p);
    else if (entry.isFile()) hashFile(hash, p);
  }
}

// The inputs every file shares.
function sharedKey() {
  const hash = crypto.createHash('sha256');
  hashTree(hash, path.join(repoRoot, 'dist'));
  hashFile(hash, path.join(here, 'harness.mjs'));
  hashFile(hash, path.join(repoRoot, 'build', 'native', 'gpuguide'));
  hashTree(hash, path.join(repoRoot, 'tests', 'data'));
  hashTree(hash, path.join(repoRoot, 'tests', 'validation'));
  hash.update(`node ${process.version}\0`);
  const pw = path.join(here, 'node_modules', 'playwright-core', 'package.json');
  hash.update(`playwright ${fs.existsSync(pw) ? JSON.parse(fs.readFileSync(pw, 'utf8')).version : 'none'}\0`);
  try {  // Debian's /usr/bin/chromium is a script: the browser is the binary it starts
    const real = fs.realpathSync('/usr/lib/chromium/chromium');
    const st = fs.statSync(real);
    hash.update(`chromium ${real} ${st.size} ${st.mtimeMs}\0`);
  } catch {
    hash.update(`chromium ${fs.existsSync(chromium) ? 'script' : 'none'}\0`);
  }
  return hash;
}

const shared = sharedKey().digest('hex');
const keyOf = (file) => {
  const hash = crypto.createHash('sha256');
  hash.update(shared);
  hashFile(hash, path.join(here, file));
  return hash.digest('hex');
};
const stampOf = (file) => path.join(passedDir, `${file}.key`);
const cached = (file) => !rerun && fs.existsSync(stampOf(file)) && fs.readFileSync(stampOf(file), 'utf8') === keyOf(file);

function runFile(file) {
  return new Promise((resolve) => {
    const started = Date.now();
    const key = keyOf(file);  // before the run: a file edited meanwhile is not marked passed
    const child = spawn(process.execPath, ['--test', '--test-reporter=spec', file], { cwd: here, env: process.env });
    const out = [];
    child.stdout.on('data', (d) => out.push(d));
    child.stderr.on('data', (d) => out.push(d));
    child.on('close', (code) => {
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      process.stdout.write(`\n=== ${file}: ${code === 0 ? 'passed' : 'FAILED'} in ${seconds} s\n`);
      process.stdout.write(Buffer.concat(out));
      if (code === 0) {
        fs.mkdirSync(passedDir, { recursive: true });
        fs.writeFileSync(stampOf(file), key);
      } else {
        fs.rmSync(stampOf(file), { force: true });
      }
      resolve(code === 0);
    });
  });
}

async function pool(list, n) {
  const results = [];
  let next = 0;
  const worker = async () => {
    while (next < list.length) {
      const file = list[next++];
      results.push([file, await runFile(file)]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(n, list.length) }, worker));
  return results;
}

const started = Date.now();
const skipped = files.filter(cached);
for (const f of skipped) process.stdout.write(`=== ${f}: passed before with the same page, test and inputs (cached)\n`);
const results = [
  ...(await pool(together.filter((f) => !skipped.includes(f)), jobs)),
  ...(await pool(alone.filter((f) => !skipped.includes(f)), 1)),
];
const failed = results.filter(([, ok]) => !ok).map(([f]) => f);
const seconds = ((Date.now() - started) / 1000).toFixed(1);
process.stdout.write(`\nbrowser tests: ${results.length - failed.length} files passed, ${failed.length} failed, ` +
                     `${skipped.length} cached (BROWSER_RERUN=1 runs them too), in ${seconds} s\n`);
if (failed.length) {
  process.stdout.write(`failed: ${failed.join(', ')}\n`);
  process.exit(1);
}

// The script-tag file (dist/pay-checkout.js) as browsers get it: within its size budget, self-contained, in Lit's
// production mode, and free of anything a strict CSP (no 'unsafe-eval') would block. Builds it first when it is
// missing or older than the sources.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, gzipSync } from 'node:zlib';

const root = fileURLToPath(new URL('../../', import.meta.url));
const bundle = join(root, 'dist/pay-checkout.js');
/** Lit, the element, its catalogs and the QR encoder; docs/benchmarks in the README say what it was and why. */
const BUDGET_GZIP_BYTES = 28 * 1024;

function newestSource(dir: string): number {
  return Math.max(
    ...readdirSync(dir, { withFileTypes: true }).map((entry) =>
      entry.isDirectory() ? newestSource(join(dir, entry.name)) : statSync(join(dir, entry.name)).mtimeMs,
    ),
  );
}

function ensureBuilt(): string {
  const sources = Math.max(newestSource(join(root, 'src/checkout')), newestSource(join(root, 'src/contract')), statSync(join(root, 'vite.config.ts')).mtimeMs);
  if (!existsSync(bundle) || statSync(bundle).mtimeMs < sources) {
    const result = spawnSync('npx', ['vite', 'build'], { cwd: root, encoding: 'utf8' });
    assert.equal(result.status, 0, `vite build failed:\n${result.stdout}\n${result.stderr}`);
  }
  return readFileSync(bundle, 'utf8');
}

const code = ensureBuilt();

test(`the script-tag file is at most ${BUDGET_GZIP_BYTES} bytes gzipped`, () => {
  const gzip = gzipSync(code, { level: 9 }).length;
  const brotli = brotliCompressSync(code).length;
  console.log(`dist/pay-checkout.js: ${Buffer.byteLength(code)} B raw, ${gzip} B gzip, ${brotli} B brotli`);
  assert.ok(gzip <= BUDGET_GZIP_BYTES, `${gzip} B gzipped is over the budget of ${BUDGET_GZIP_BYTES} B`);
});

test("the script-tag file opens with V8's compile hint: compiled as it streams in, off the main thread", () => {
  assert.ok(code.startsWith('//# allFunctionsCalledOnLoad\n'), `it opens with ${JSON.stringify(code.slice(0, 40))}`);
});

test('the script-tag file needs no eval (CSP without unsafe-eval)', () => {
  for (const pattern of [/\beval\s*\(/, /\bnew\s+Function\s*\(/, /=\s*Function\s*[;,]/, /\bsetTimeout\s*\(\s*["'`]/]) {
    assert.doesNotMatch(code, pattern, `found ${pattern} in dist/pay-checkout.js`);
  }
});

test('the script-tag file is self-contained and defines the element', () => {
  // Every dependency is inlined: no import of another module is left.
  assert.doesNotMatch(code, /\bimport\s*(?:[\w{}*\s,]+from\s*)?["'`]/, 'a static import is left in the bundle');
  assert.doesNotMatch(code, /\bimport\s*\(/, 'a dynamic import is left in the bundle');
  assert.match(code, /customElements\.define\(/);
  assert.match(code, /pay-checkout/);
});

test('the script-tag file builds no schema: the answers are checked without zod (src/checkout/answers.ts)', () => {
  assert.doesNotMatch(code, /\$Zod[A-Z]\w+/, "zod's schema classes are in the bundle");
});

test('the script-tag file ships Lit in production mode', () => {
  assert.doesNotMatch(code, /Lit is in dev mode/);
});

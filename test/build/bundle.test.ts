// The script-tag file (dist/pay-checkout.js) and its chunks (dist/pay-checkout/) as browsers get them: each within
// its size budget, the script with no import of its own before the first QR, the chunks loaded by URLs relative to
// it, in Lit's production mode, and free of anything a strict CSP (no 'unsafe-eval') would block. Builds them first
// when they are missing or older than the sources.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { catalogs } from '../../src/checkout/i18n/catalogs.js';
import { locales } from '../../src/checkout/i18n/index.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const bundle = join(root, 'dist/pay-checkout.js');
/** Lit, the element, its catalogs and the QR encoder; docs/benchmarks in the README say what it was and why. */
const BUDGET_GZIP_BYTES = 28 * 1024;
/** The chunks beside the script, by the name before their hash, each with its own budget (gzip bytes). */
const CHUNK_BUDGETS: Record<string, number> = {
  /** Confirming, paid, paid late, expired, the late transfer: the views once money moved or the quote ran out and their pure figures (later-state.ts; 4 KB until they said what happens to held money and the old address). */
  later: 5 * 1024,
  /** Paying from a browser wallet (EIP-1193): loaded only when a wallet is announced and the payment is on an EVM network. */
  'browser-wallet': 3 * 1024,
  /** "I pay from an exchange": the amount to type after the exchange's fee (views/from-exchange.ts, exchange-fee.ts). */
  'from-exchange': 2 * 1024,
};
const chunkDir = join(root, 'dist/pay-checkout');

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
/** The chunks by name (`later` for `later-<hash>.js`). */
const chunks = new Map(
  readdirSync(chunkDir)
    .filter((file) => file.endsWith('.js'))
    .map((file) => [file.replace(/-[\w-]{8}\.js$/, ''), { file, code: readFileSync(join(chunkDir, file), 'utf8') }] as const),
);
const everyFile = [{ file: 'pay-checkout.js', code }, ...[...chunks.values()].map((c) => ({ file: `pay-checkout/${c.file}`, code: c.code }))];

test(`the script-tag file is at most ${BUDGET_GZIP_BYTES} bytes gzipped`, () => {
  const gzip = gzipSync(code, { level: 9 }).length;
  const brotli = brotliCompressSync(code).length;
  console.log(`dist/pay-checkout.js: ${Buffer.byteLength(code)} B raw, ${gzip} B gzip, ${brotli} B brotli`);
  assert.ok(gzip <= BUDGET_GZIP_BYTES, `${gzip} B gzipped is over the budget of ${BUDGET_GZIP_BYTES} B`);
});

test("the script-tag file opens with V8's compile hint: compiled as it streams in, off the main thread", () => {
  assert.ok(code.startsWith('//# allFunctionsCalledOnLoad\n'), `it opens with ${JSON.stringify(code.slice(0, 40))}`);
});

test('each chunk beside the script is within its own budget, and every chunk has one', () => {
  assert.deepEqual([...chunks.keys()].sort(), Object.keys(CHUNK_BUDGETS).sort(), 'the chunks built are the chunks budgeted');
  for (const [name, chunk] of chunks) {
    const gzip = gzipSync(chunk.code, { level: 9 }).length;
    console.log(`dist/pay-checkout/${chunk.file}: ${Buffer.byteLength(chunk.code)} B raw, ${gzip} B gzip`);
    assert.ok(gzip <= CHUNK_BUDGETS[name]!, `${chunk.file}: ${gzip} B gzipped is over its budget of ${CHUNK_BUDGETS[name]} B`);
  }
});

test('no file of the element needs eval (CSP without unsafe-eval)', () => {
  for (const { file, code: text } of everyFile) {
    for (const pattern of [/\beval\s*\(/, /\bnew\s+Function\s*\(/, /=\s*Function\s*[;,]/, /\bsetTimeout\s*\(\s*["'`]/]) {
      assert.doesNotMatch(text, pattern, `found ${pattern} in dist/${file}`);
    }
  }
});

/** Every module specifier of a file: static imports and re-exports, and dynamic imports. */
function specifiers(text: string): { statics: string[]; dynamics: string[] } {
  const statics = [...text.matchAll(/\b(?:import|export)\s*(?:[\w{}*\s,$]+from\s*)?["'`]([^"'`]+)["'`]/g)].map((m) => m[1]!);
  const dynamics = [...text.matchAll(/\bimport\s*\(\s*([^)]*)\)/g)].map((m) => m[1]!);
  return { statics, dynamics };
}

test('the script-tag file imports nothing before it runs, and loads each chunk from beside itself, by a literal URL', () => {
  const { statics, dynamics } = specifiers(code);
  assert.deepEqual(statics, [], 'a static import is left in the script: a request before the first paint');
  // A literal relative specifier: resolved against the script's own URL (the gateway it came from), needing no
  // eval, no inline script and no import map, so the strict CSP of the hosted page (script-src 'self') allows it.
  assert.deepEqual(dynamics.map((d) => d.replace(/-[\w-]{8}\.js/, '.js')).sort(), [...chunks.keys()].map((name) => `\`./pay-checkout/${name}.js\``).sort());
  assert.match(code, /customElements\.define\(/);
  assert.match(code, /pay-checkout/);
});

test('the chunks import only the script they were loaded by, from beside it', () => {
  for (const [name, chunk] of chunks) {
    const { statics } = specifiers(chunk.code);
    assert.deepEqual([...new Set(statics)], ['../pay-checkout.js'], `${name}: ${statics.join(', ')}`);
    assert.doesNotMatch(chunk.code, /customElements\.define\(/, `${name} defines an element of its own`);
  }
});

test("each language's words are where they are read: the script's in the script, each chunk's in its chunk alone, the pages' in no file (vite.config.ts, localeParts)", () => {
  /** Where each part of a catalog ships (docs/i18n.md); a message that short could be part of another's. */
  const SHIPPED: Record<keyof (typeof catalogs)['en'], string | undefined> = { script: 'pay-checkout.js', later: 'later', wallet: 'browser-wallet', exchange: 'from-exchange', hosted: undefined, receipt: undefined, claim: undefined };
  const fileOf = (name: string) => (name === 'pay-checkout.js' ? { file: name, code } : { file: `pay-checkout/${chunks.get(name)!.file}`, code: chunks.get(name)!.code });
  for (const locale of locales) {
    for (const [part, shipped] of Object.entries(SHIPPED)) {
      for (const message of Object.values(catalogs[locale][part as keyof typeof SHIPPED] as Record<string, string>).filter((m) => m.length >= 40)) {
        const holders = everyFile.filter((f) => f.code.includes(message)).map((f) => f.file);
        assert.deepEqual(holders, shipped ? [fileOf(shipped).file] : [], `${locale}.${part}: "${message}"`);
      }
    }
  }
});

test('the package ships the chunks beside the script', () => {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { files: string[]; exports: Record<string, unknown> };
  assert.ok(pkg.files.includes('dist/pay-checkout'), `package.json "files" lists dist/pay-checkout: ${pkg.files.join(', ')}`);
  assert.equal(pkg.exports['./pay-checkout/*'], './dist/pay-checkout/*');
});

test('no file of the element builds a schema: the answers are checked without zod (src/checkout/answers.ts)', () => {
  for (const { file, code: text } of everyFile) assert.doesNotMatch(text, /\$Zod[A-Z]\w+/, `zod's schema classes are in dist/${file}`);
});

test('no file of the element ships Lit in dev mode', () => {
  for (const { file, code: text } of everyFile) assert.doesNotMatch(text, /Lit is in dev mode/, `dist/${file}`);
});

test("no file of the element carries the sandbox's tester panel: it is a script of its own (dist/sandbox/tester-panel.js)", () => {
  for (const { file, code: text } of everyFile) assert.doesNotMatch(text, /tester-panel|Tester controls/, `dist/${file}`);
});

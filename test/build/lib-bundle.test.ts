// dist/lib/ as a merchant's own bundler sees it (esbuild, with code splitting, of `pay-checkout/define`): what loads
// before the first paint (the entry's file and the files it imports, not the chunks it imports on demand) within a
// budget, with the script's words of each language, and none of a chunk's or the gateway's pages' (docs/i18n.md:
// scripts/lib-locale-parts.ts splits the catalogs by part). Builds dist/lib/ first when it is missing or older than
// the sources.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { catalogs } from '../../src/checkout/i18n/catalogs.js';
import { locales } from '../../src/checkout/i18n/index.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
/** What `pay-checkout/define` loads before the first paint, gzipped: 30,010 B when a language's module held the script's words alone. */
const FIRST_PAINT_BUDGET = 30_050;
/** The file `pay-checkout/define` names (package.json "exports"), from the root. */
const DEFINE = 'dist/lib/checkout/define.js';

function newest(path: string): number {
  return statSync(path).isDirectory() ? Math.max(...readdirSync(path).map((entry) => newest(join(path, entry)))) : statSync(path).mtimeMs;
}

function ensureBuilt() {
  const built = join(root, 'dist/lib/checkout/i18n/index.js');
  const sources = Math.max(...['src/checkout', 'src/contract', 'scripts/lib-locale-parts.ts', 'scripts/locale-parts.ts'].map((path) => newest(join(root, path))));
  if (existsSync(built) && statSync(built).mtimeMs >= sources) return;
  const result = spawnSync('npm', ['run', 'build:modules'], { cwd: root, encoding: 'utf8' });
  assert.equal(result.status, 0, `npm run build:modules failed:\n${result.stdout}\n${result.stderr}`);
}

ensureBuilt();
// UTF-8 as written, so that each language's words are found as the catalogs write them.
const bundled = await build({ entryPoints: [DEFINE], absWorkingDir: root, bundle: true, splitting: true, format: 'esm', minify: true, charset: 'utf8', outdir: 'out', write: false, metafile: true, logLevel: 'silent' });
const texts = new Map(bundled.outputFiles.map((file) => [file.path.slice(root.length), file.text]));
/** The entry's file and those it imports statically, which the browser fetches before it runs it. */
const firstPaint = new Set<string>();
const load = (file: string) => {
  if (firstPaint.has(file)) return;
  firstPaint.add(file);
  for (const imported of bundled.metafile.outputs[file]!.imports) if (imported.kind === 'import-statement') load(imported.path);
};
load(Object.entries(bundled.metafile.outputs).find(([, output]) => output.entryPoint === DEFINE)![0]);
const later = [...texts.keys()].filter((file) => !firstPaint.has(file));

test(`pay-checkout/define, bundled with code splitting, loads at most ${FIRST_PAINT_BUDGET} bytes gzipped before the first paint`, () => {
  const gzip = [...firstPaint].reduce((bytes, file) => bytes + gzipSync(texts.get(file)!, { level: 9 }).length, 0);
  console.log(`esbuild of ${DEFINE}: ${firstPaint.size} files before the first paint, ${gzip} B gzip; ${later.length} chunks on demand`);
  assert.ok(later.length > 0, 'the views that come later are chunks of their own');
  assert.ok(gzip <= FIRST_PAINT_BUDGET, `${gzip} B gzipped is over the budget of ${FIRST_PAINT_BUDGET} B`);
});

test("a bundle of dist/lib/ has each language's script words before the first paint, each chunk's words only in a chunk, the pages' nowhere", () => {
  /** Where each part of a catalog may be; a message that short could be part of another's. */
  const WHERE: Record<keyof (typeof catalogs)['en'], 'first paint' | 'chunk' | 'nowhere'> = { script: 'first paint', later: 'chunk', wallet: 'chunk', exchange: 'chunk', hosted: 'nowhere', receipt: 'nowhere', claim: 'nowhere' };
  for (const locale of locales) {
    for (const [part, where] of Object.entries(WHERE)) {
      for (const message of Object.values(catalogs[locale][part as keyof typeof WHERE] as Record<string, string>).filter((m) => m.length >= 40)) {
        const holders = [...texts].filter(([, text]) => text.includes(message)).map(([file]) => file);
        const found = holders.length === 0 ? 'nowhere' : holders.every((file) => firstPaint.has(file)) ? 'first paint' : holders.some((file) => firstPaint.has(file)) ? `both: ${holders.join(', ')}` : 'chunk';
        assert.equal(found, where, `${locale}.${part} is ${found}, not ${where}: "${message}"`);
      }
    }
  }
});

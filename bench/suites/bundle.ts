// The element's weight on the page: dist/pay-checkout.js beside its dependencies (lit, @lit/task, lean-qr/nano) bundled alone.
// Not a gateway suite: it runs once, whatever the storages.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { build } from 'vite';
import { ELEMENT_BUNDLE, ensureElementBuilt } from '../lib/element-build.js';
import { round, type Cell, type Table } from '../lib/report.js';
import type { Suite } from '../lib/suite.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
/** Inside node_modules so the entry resolves the project's packages, and nothing is left in the tree. */
const SCRATCH = join(ROOT, 'node_modules', '.cache', 'pay-checkout-bench-bundle');

/** The dependencies bundled alone, without the element: a small use of each, and everything each exports. */
const DEPENDENCY_ENTRIES = {
  'lit + @lit/task + lean-qr/nano, a small use of each': `import { LitElement, html, css } from 'lit';
import { Task } from '@lit/task';
import { generate } from 'lean-qr/nano';
export class Probe extends LitElement {
  static styles = css\`:host { display: block }\`;
  task = new Task(this, { task: async () => 1, args: () => [] });
  render() { return html\`<canvas></canvas>\`; }
}
export const qr = (text) => generate(text).size;
`,
  'lit + @lit/task + lean-qr/nano, every export': `export * from 'lit';
export * from '@lit/task';
export * from 'lean-qr/nano';
`,
};

function sizes(name: string, code: Buffer): Cell[] {
  const gzip = gzipSync(code, { level: 9 }).length;
  const brotli = brotliCompressSync(code, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length;
  return [name, round(code.length / 1024, 1), round(gzip / 1024, 1), round(brotli / 1024, 1)];
}

/** A minified ES module of `source` alone, resolved and minified as vite.config.ts builds the element. */
async function bundleAlone(source: string): Promise<Buffer> {
  rmSync(SCRATCH, { recursive: true, force: true });
  mkdirSync(SCRATCH, { recursive: true });
  try {
    const entry = join(SCRATCH, 'entry.js');
    writeFileSync(entry, source);
    await build({
      root: SCRATCH,
      configFile: false,
      logLevel: 'silent',
      mode: 'production',
      resolve: { conditions: ['production', 'module', 'browser'] },
      build: {
        target: 'es2022',
        outDir: join(SCRATCH, 'out'),
        lib: { entry, formats: ['es'], fileName: () => 'deps.js' },
        rolldownOptions: { output: { minify: true, codeSplitting: false, comments: false } },
      },
    });
    return readFileSync(join(SCRATCH, 'out', 'deps.js'));
  } finally {
    rmSync(SCRATCH, { recursive: true, force: true });
  }
}

export const bundleSuite: Suite = {
  id: 'bundle',
  title: 'Element bundle size',
  gateway: false,
  async run() {
    const notes: string[] = [];
    const table: Table = { title: 'Bundle size (minified ES module)', columns: ['bundle', 'raw KiB', 'gzip KiB', 'brotli KiB'], rows: [] };
    notes.push(ensureElementBuilt());
    table.rows.push(sizes('dist/pay-checkout.js', readFileSync(ELEMENT_BUNDLE)));
    for (const [name, source] of Object.entries(DEPENDENCY_ENTRIES)) table.rows.push(sizes(name, await bundleAlone(source)));
    notes.push('gzip at level 9, brotli at quality 11. The "every export" row is an upper bound for what the element can pull in from its dependencies.');
    return { tables: [table], notes };
  },
};

// The script-tag build of <pay-checkout> (DESIGN.md section 2): dist/pay-checkout.js, one ES module (Lit, @lit/task
// and lean-qr's nano encoder inlined, minified) with everything up to the customer's first QR, that defines the tag;
// the gateway serves it at /pay-checkout.js. The later and optional views (paid, expired, browser wallets...) are
// chunks in dist/pay-checkout/, which the file imports on demand by URLs relative to its own (the gateway serves
// them at /pay-checkout/<chunk>.js, beside it), and which import what they share from it. ES module format so that `import.meta.url` tells the element which gateway it came from (its
// default `api-base`). It resolves the `production` export condition, so Lit ships without its dev mode.
// Bundlers get the modules tsc emits to dist/lib/ (tsconfig.build.json), with the dependencies left as imports and the
// catalogs split by part as here (scripts/lib-locale-parts.ts).
// The demo has its own config (demo/vite.config.ts) and output (dist/demo/), which this build leaves alone.
// Third-party licences travel with the file: a banner names every bundled package with its licence and copyright
// lines (zod, of which only its e-mail pattern is bundled, carries none in its code). Lit's modules each repeat a
// `@license` comment, their SPDX identifier and a copyright line that the banner carries already: the eleven of
// them cost 100 bytes gzipped, which the budget spends on the customer's first QR (views/after-order.ts) instead.
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { compileLitTemplates } from '@lit-labs/compiler';
import { transform as transformCss } from 'lightningcss';
import ts from 'typescript';
import { defineConfig, type Plugin } from 'vite';
import { READERS, REGISTRY, registryLines } from './scripts/locale-parts.js';

const path = (relative: string) => fileURLToPath(new URL(relative, import.meta.url));

/** The package folder that holds a bundled file (the one nearest its node_modules). */
function packageDir(id: string): string | undefined {
  const match = /^(.*\/node_modules\/(?:@[^/]+\/)?[^/]+)\//.exec(id.replaceAll('\\', '/'));
  return match?.[1];
}

function licenceBanner(moduleIds: string[]): string {
  const own = JSON.parse(readFileSync(path('./package.json'), 'utf8')) as { name: string; version: string; license: string };
  const lines = [`${own.name} ${own.version} (${own.license}): the <pay-checkout> element, with these packages bundled:`];
  for (const dir of [...new Set(moduleIds.map(packageDir).filter((d) => d !== undefined))].sort()) {
    const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name: string; version: string; license: string };
    const licenceFile = ['LICENSE', 'LICENSE.md', 'license'].map((f) => join(dir, f)).find(existsSync);
    // A copyright line, with the indented lines that continue it.
    const copyright = licenceFile ? [...readFileSync(licenceFile, 'utf8').matchAll(/^[ \t]*(Copyright.*(?:\n[ \t]+\S.*)*)/gim)].map((m) => m[1]!.replace(/\s+/g, ' ').trim()) : [];
    lines.push(`${pkg.name} ${pkg.version} (${pkg.license})${copyright.length ? `: ${copyright.join('; ')}` : ''}`);
  }
  return `/*! ${lines.join('\n * ')}\n */`;
}

/**
 * The templates the customer waits for, prepared at build time (@lit-labs/compiler): the element's frame, the order
 * and the payment (the QR). lit-html then skips its "prepare" phase (lexing each template's HTML, walking it for its
 * parts) on their first render, which on a phone's CPU was a good part of the time from insertion to the order
 * painted. A prepared template costs more bytes than its source, so the views that come after a wait anyway (paid,
 * expired, errors...) stay as they are, within the script's budget. TypeScript runs the compiler's transformer, then
 * vite the rest.
 */
const PREPARED = /\/src\/checkout\/pay-checkout\/(pay-checkout|views\/(order|parts|payment))\.ts$/;

function compiledTemplates(): Plugin {
  return {
    name: 'pay-checkout:compiled-lit-templates',
    enforce: 'pre',
    transform(source, id) {
      if (!PREPARED.test(id)) return null;
      const { outputText, sourceMapText } = ts.transpileModule(source, {
        fileName: id,
        compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext, experimentalDecorators: true, useDefineForClassFields: false, sourceMap: true },
        transformers: { before: [compileLitTemplates()] },
      });
      // The prepared HTML keeps the source's indentation: each run of white space with a line break becomes one
      // space, which HTML draws the same (the element has no pre-formatted text) and which keeps every node.
      const code = outputText.replace(/(\bh: \w+ ?`)([^`]*)`/g, (_literal, start: string, markup: string) => `${start}${markup.replace(/\s*\n\s*/g, ' ')}\``);
      return { code, map: sourceMapText };
    },
  };
}

/** Where the chunks go, beside the script (their names carry a hash of their content: cached for good). */
export const CHUNK_DIR = 'pay-checkout';

/**
 * The payment view and the QR encoder are part of the script itself: the element asks for them by a dynamic import
 * (a bundler of dist/lib/ makes a chunk of them), which this build turns into a static one, so that the customer's
 * first QR never waits on a second request. Their modules only declare functions: evaluating them with the script
 * costs nothing the order's first paint would see.
 */
function afterOrderInline(): Plugin {
  const IMPORT = "import('./views/after-order.js')";
  return {
    name: 'pay-checkout:after-order-inline',
    enforce: 'pre',
    transform(source, id) {
      if (!id.endsWith('/src/checkout/pay-checkout/pay-checkout.ts')) return null;
      if (!source.includes(IMPORT)) this.error(`${IMPORT} is gone from pay-checkout.ts: update vite.config.ts`);
      return { code: `import * as afterOrder$ from './views/after-order.js';\n${source.replace(IMPORT, 'Promise.resolve(afterOrder$)')}`, map: null };
    },
  };
}

/**
 * A language is one catalog file (src/checkout/i18n/locales/<tag>.ts) with a part for the script and a part for each
 * chunk beside it; a bundler places a whole module in one chunk, so this build gives each module that reads the
 * registry (i18n/locales.ts; scripts/locale-parts.ts says which, and their part) a registry of its own, made of that
 * part of each catalog: the chunk's words stay in the chunk and the script keeps only its own. The registry's lines
 * say which catalogs there are (docs/i18n.md).
 */
function localeParts(): Plugin {
  const registry = path(`./${REGISTRY}`);
  const PREFIX = '\0pay-checkout-locales:';
  return {
    name: 'pay-checkout:locale-parts',
    enforce: 'pre',
    async resolveId(source, importer) {
      const part = importer && Object.entries(READERS).find(([reader]) => importer.endsWith(`/src/checkout/${reader}.ts`))?.[1];
      if (!part || !source.endsWith('/locales.js') || (await this.resolve(source, importer, { skipSelf: true }))?.id !== registry) return null;
      return PREFIX + part;
    },
    load(id) {
      if (!id.startsWith(PREFIX)) return null;
      const part = id.slice(PREFIX.length);
      // Each part from a copy of the catalog, a module of its own: no other module of the element imports a catalog.
      const file = (catalog: string) => `${join(dirname(registry), catalog)}.ts?part=${part}`;
      return registryLines(readFileSync(registry, 'utf8'))
        .map(({ tag, catalog }) => `import { ${part} as ${tag}$ } from ${JSON.stringify(file(catalog))};\nexport const ${tag} = { ${part}: ${tag}$ };`)
        .join('\n');
    },
  };
}

/** The chunks of the previous build go: their names change with their content, and only this build's are served. */
function freshChunkDir(): Plugin {
  return { name: 'pay-checkout:fresh-chunk-dir', apply: 'build', buildStart: () => rmSync(path(`./dist/${CHUNK_DIR}`), { recursive: true, force: true }) };
}

/** The browsers of the build's `es2022` target, for which CSS keeps its fallbacks (lightningcss's version numbers). */
const CSS_TARGETS = { chrome: 94 << 16, firefox: 93 << 16, safari: (15 << 16) | (4 << 8) };

/**
 * The element's stylesheets (css`` literals without expressions) minified by lightningcss: fewer bytes to send and
 * for the browser to parse when the first element adopts them.
 */
function minifiedCss(): Plugin {
  return {
    name: 'pay-checkout:minified-css',
    enforce: 'pre',
    transform(code, id) {
      if (!/\/src\/checkout\/.+\.styles\.ts$/.test(id)) return null;
      const minified = code.replace(/\bcss`([^`$\\]*)`/g, (_literal, text: string) => {
        const rules = transformCss({ filename: id, code: Buffer.from(text), minify: true, targets: CSS_TARGETS }).code.toString();
        return `css\`${rules.replace(/[`\\]|\$\{/g, (c) => `\\${c}`)}\``;
      });
      // No mappings for a file of rules: its source map points at the module, not into its stylesheet.
      return { code: minified, map: { mappings: '' } };
    },
  };
}

export default defineConfig({
  plugins: [freshChunkDir(), afterOrderInline(), localeParts(), minifiedCss(), compiledTemplates()],
  resolve: { conditions: ['production', 'module', 'browser'] },
  build: {
    target: 'es2022',
    sourcemap: true,
    outDir: path('./dist'),
    // dist/ also holds the demo's build and dist/lib/: write the script and its chunks, delete nothing else.
    emptyOutDir: false,
    copyPublicDir: false,
    lib: { entry: path('./src/checkout/script-tag.ts'), formats: ['es'], fileName: () => 'pay-checkout.js' },
    // Library mode keeps ES output's white space for bundlers; these files go to browsers as they are: minify them.
    // Each dynamic import left in the source is a chunk; the source maps (with the sources inside) ship beside them.
    rolldownOptions: {
      // What the chunks share with the script stays in the script, which exports it to them (with names of its own
      // beside its API): library mode's 'strict' would move it into a third file, fetched before the first paint.
      preserveEntrySignatures: 'allow-extension',
      output: {
        minify: true,
        chunkFileNames: `${CHUNK_DIR}/[name]-[hash].js`,
        comments: { legal: false, annotation: false, jsdoc: false },
        // V8's compile hint first: every function compiled while the file streams in, off the main thread, instead
        // of lazily on first call, between the element's insertion and its first paint (Chromium 136+; a plain
        // comment elsewhere).
        // A chunk is compiled as it streams in too: it is fetched when its view is about to be drawn.
        postBanner: (chunk) => `//# allFunctionsCalledOnLoad\n${licenceBanner(chunk.moduleIds)}`,
      },
    },
  },
});

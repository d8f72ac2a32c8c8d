// The script-tag build of <pay-checkout> (DESIGN.md section 2): dist/pay-checkout.js, one self-contained ES module
// (Lit, @lit/task and lean-qr's nano encoder inlined, minified) that defines the tag; the gateway serves it at
// /pay-checkout.js. ES module format so that `import.meta.url` tells the element which gateway it came from (its
// default `api-base`). It resolves the `production` export condition, so Lit ships without its dev mode.
// Bundlers get the modules tsc emits to dist/lib/ (tsconfig.build.json), with the dependencies left as imports.
// The demo has its own config (demo/vite.config.ts) and output (dist/demo/), which this build leaves alone.
// Third-party licences travel with the file: the notices in the sources (Lit's) stay, and a banner names every
// bundled package with its licence and copyright lines (zod, of which only its e-mail pattern is bundled, carries
// none in its code).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

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

export default defineConfig({
  resolve: { conditions: ['production', 'module', 'browser'] },
  build: {
    target: 'es2022',
    sourcemap: true,
    outDir: path('./dist'),
    // dist/ also holds the demo's build and dist/lib/: write the one file, delete nothing.
    emptyOutDir: false,
    copyPublicDir: false,
    lib: { entry: path('./src/checkout/script-tag.ts'), formats: ['es'], fileName: () => 'pay-checkout.js' },
    // Library mode keeps ES output's white space for bundlers; this file goes to browsers as is: minify it all,
    // and never split it (one file is the point).
    // The source map (with the sources inside) ships beside it in the package.
    rolldownOptions: {
      output: {
        minify: true,
        codeSplitting: false,
        comments: { legal: true, annotation: false, jsdoc: false },
        // V8's compile hint first: every function compiled while the file streams in, off the main thread, instead
        // of lazily on first call, between the element's insertion and its first paint (Chromium 136+; a plain
        // comment elsewhere).
        postBanner: (chunk) => `//# allFunctionsCalledOnLoad\n${licenceBanner(chunk.moduleIds)}`,
      },
    },
  },
});

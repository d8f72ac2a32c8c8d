// The script-tag build of <pay-checkout> (DESIGN.md section 2): dist/pay-checkout.js, one self-contained ES module
// (Lit, @lit/task, qrcode and zod/mini inlined, minified) that defines the tag; the gateway serves it at
// /pay-checkout.js. ES module format so that `import.meta.url` tells the element which gateway it came from (its
// default `api-base`). It resolves the `production` export condition, so Lit ships without its dev mode.
// Bundlers get the modules tsc emits to dist/lib/ (tsconfig.build.json), with the dependencies left as imports.
// The demo has its own config (demo/vite.config.ts) and output (dist/demo/), which this build leaves alone.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const path = (relative: string) => fileURLToPath(new URL(relative, import.meta.url));

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
    rolldownOptions: { output: { minify: true, codeSplitting: false, comments: false } },
  },
});

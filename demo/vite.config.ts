// The demo's pages: a multi-page build into dist/demo/, served by demo/server.ts under /demo/ (pages at /, /wallet, ...).
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const page = (name: string) => fileURLToPath(new URL(`./${name}.html`, import.meta.url));

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/demo/',
  publicDir: 'public',
  // Lit without its dev mode, as the element ships.
  resolve: { conditions: ['production', 'module', 'browser'] },
  build: {
    outDir: fileURLToPath(new URL('../dist/demo', import.meta.url)),
    emptyOutDir: true,
    // Modern browsers only (the element's own floor); no inline polyfill, which the pages' CSP would block.
    target: 'es2022',
    modulePreload: { polyfill: false },
    rollupOptions: {
      input: { index: page('index'), wallet: page('wallet'), success: page('success'), failure: page('failure'), portal: page('portal'), webhooks: page('webhooks') },
    },
  },
});

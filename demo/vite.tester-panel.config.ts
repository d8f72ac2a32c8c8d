// The tester panel as one self-contained module, dist/sandbox/tester-panel.js (Lit inlined), for the gateway's hosted
// checkout page (src/sandbox/routes/sandbox.ts serves it at /sandbox/tester-panel.js). A build of its own: nothing of
// it reaches the element's script (vite.config.ts), whose size has a budget, and the demo's pages import it as source.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

export default defineConfig({
  resolve: { conditions: ['production', 'module', 'browser'] },
  build: {
    target: 'es2022',
    outDir: fileURLToPath(new URL('../dist/sandbox', import.meta.url)),
    emptyOutDir: true,
    copyPublicDir: false,
    lib: { entry: fileURLToPath(new URL('./scripts/tester-panel.ts', import.meta.url)), formats: ['es'], fileName: () => 'tester-panel.js' },
    rolldownOptions: { output: { minify: true } },
  },
});

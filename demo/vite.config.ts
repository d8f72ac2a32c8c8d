// The demo's pages: a multi-page build into dist/demo/, served by demo/routes/pages.ts under /demo/ (pages at /, /wallet, ...).
import { basename } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';

const page = (name: string) => fileURLToPath(new URL(`./${name}.html`, import.meta.url));

/** The pages of the navigation, by file: their address and name. */
const NAV = [
  ['index', '/', 'Build a link'],
  ['wallet', '/wallet', 'Test wallet'],
  ['portal', '/portal', 'Merchant portal'],
  ['webhooks', '/webhooks', 'Webhooks'],
] as const;

/** What every page shares, written once: `<!-- demo:head -->` and `<!-- demo:header -->` in each page are filled here. */
function demoChrome(): Plugin {
  const head = `<meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <link rel="icon" href="/demo/logo.svg" type="image/svg+xml" />
    <link rel="stylesheet" href="./styles/demo.css" />`;
  const header = (current: string) => `<a class="skip" href="#main">Skip to content</a>
    <header class="top">
      <a class="brand" href="/"><img src="/demo/logo.svg" alt="" width="28" height="28" /> pay-checkout <span class="badge">Sandbox</span></a>
      <nav aria-label="Demo pages">
        ${NAV.map(([file, href, name]) => `<a href="${href}"${file === current ? ' aria-current="page"' : ''}>${name}</a>`).join('\n        ')}
      </nav>
      <div class="session" id="session"></div>
    </header>`;
  return {
    name: 'demo-chrome',
    // Before Vite's own HTML handling, so the stylesheet link is bundled like any other.
    transformIndexHtml: {
      order: 'pre',
      handler: (html, { filename }) =>
        html.replace('<!-- demo:head -->', head).replace('<!-- demo:header -->', header(basename(filename, '.html'))),
    },
  };
}

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/demo/',
  publicDir: 'public',
  plugins: [demoChrome()],
  // Lit without its dev mode, as the element ships.
  resolve: { conditions: ['production', 'module', 'browser'] },
  build: {
    outDir: fileURLToPath(new URL('../dist/demo', import.meta.url)),
    emptyOutDir: true,
    // Modern browsers only (the element's own floor); no inline polyfill, which the pages' CSP would block.
    target: 'es2022',
    modulePreload: { polyfill: false },
    rollupOptions: {
      input: Object.fromEntries(['index', 'wallet', 'success', 'failure', 'portal', 'webhooks', 'signin'].map((name) => [name, page(name)])),
    },
  },
});

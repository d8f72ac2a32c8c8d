// Files the gateway reads at run time, by where they sit in the package. This module is two folders below the package
// root both as source (src/sandbox/paths.ts) and inside the compiled gateway (dist/gateway/main.js, which bundles it;
// scripts/build-gateway.mjs), so the same relative URLs hold for both.
import { fileURLToPath } from 'node:url';

const root = new URL('../../', import.meta.url);

/** The element's script-tag build and its source map (`npm run build`). */
export const ELEMENT_SCRIPT = new URL('dist/pay-checkout.js', root);
export const ELEMENT_SOURCE_MAP = new URL('dist/pay-checkout.js.map', root);
/** The chunks the script loads on demand from beside itself, with their source maps (vite.config.ts). */
export const ELEMENT_CHUNKS = new URL('dist/pay-checkout/', root);
/** The sandbox's tester panel for the hosted checkout page, one module (demo/vite.tester-panel.config.ts). */
export const TESTER_PANEL_SCRIPT = new URL('dist/sandbox/tester-panel.js', root);
/** The demo's built pages (`npm run build`), for `npm start`. */
export const DEMO_DIST = fileURLToPath(new URL('dist/demo', root));

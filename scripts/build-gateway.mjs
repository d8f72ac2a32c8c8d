// `npm run build:gateway` (part of `npm run build`, and the image's build step, Dockerfile): the gateway compiled to
// JavaScript, started with `node dist/gateway/main.js` (the gateway alone) or `node dist/gateway/demo.js` (what
// `npm start` serves); `node dist/gateway/merchants.js` is the operator's merchants command. Everything they import is
// bundled in, so the published package keeps the gateway's packages as development dependencies, except PGlite, whose
// WebAssembly is read from beside its own module (the image copies node_modules/@electric-sql/pglite), and what only
// development uses. The migrations, SQL read at run time, go beside. Each of those files loads its bundle
// (`main.bundle.js`) with source maps on, so that logged stacks name the TypeScript sources.
import { writeFile } from 'node:fs/promises';
import { bundleGateway } from './gateway-bundle.mjs';

const OUT = 'dist/gateway';

// Each entry is a loader (written below) and its bundle: main.js imports main.bundle.js.
await bundleGateway({ main: 'src/sandbox/main.ts', demo: 'demo/main.ts', merchants: 'src/sandbox/merchants-main.ts' }, OUT, { suffix: '.bundle' });
// Stacks name the TypeScript sources through the maps beside: Node reads the map only of a file loaded after this
// call, so it is made in a loader before the bundle is imported, never inside the bundle.
for (const name of ['main', 'demo', 'merchants']) {
  await writeFile(`${OUT}/${name}.js`, `process.setSourceMapsEnabled(true);\nawait import('./${name}.bundle.js');\n`);
}
// ES modules wherever the folder is copied (the image has no package.json of the repository's above it).
await writeFile(`${OUT}/package.json`, '{ "type": "module" }\n');

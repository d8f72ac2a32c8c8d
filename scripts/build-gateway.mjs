// `npm run build:gateway` (part of `npm run build`, and the image's build step, Dockerfile): the gateway compiled to
// JavaScript, started with `node dist/gateway/main.js` (the gateway alone) or `node dist/gateway/demo.js` (what
// `npm start` serves); `node dist/gateway/merchants.js` is the operator's merchants command. Everything they import is
// bundled in, so the published package keeps the gateway's packages as development dependencies, except PGlite, whose
// WebAssembly is read from beside its own module (the image copies node_modules/@electric-sql/pglite), and what only
// development uses. The migrations, SQL read at run time, go beside. Each of those files loads its bundle
// (`main.bundle.js`) with source maps on, so that logged stacks name the TypeScript sources.
import { build } from 'esbuild';
import { cp, rm, writeFile } from 'node:fs/promises';

const OUT = 'dist/gateway';

await rm(OUT, { recursive: true, force: true });
await build({
  entryPoints: { main: 'src/sandbox/main.ts', demo: 'demo/main.ts', merchants: 'src/sandbox/merchants-main.ts' },
  outdir: OUT,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: true,
  // Stacks need the mappings alone: without the sources' text the map is 1.6 MB, not 6.6, and the first stack a process
  // formats costs it about 60 MB and 0.7 s, not 80 MB and 1.5 s (measured on a refused start).
  sourcesContent: false,
  // Each entry is a loader (written below) and its bundle: main.js imports main.bundle.js.
  entryNames: '[name].bundle',
  // pg-native is pg's optional native driver; anvil (SANDBOX_CHAIN=anvil) is found in node_modules when asked for.
  external: ['@electric-sql/pglite', 'pg-native', '@foundry-rs/*'],
  // The bundled CommonJS packages (pg, pino) require Node's modules.
  banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
  logLevel: 'warning',
});
// Stacks name the TypeScript sources through the maps beside: Node reads the map only of a file loaded after this
// call, so it is made in a loader before the bundle is imported, never inside the bundle.
for (const name of ['main', 'demo', 'merchants']) {
  await writeFile(`${OUT}/${name}.js`, `process.setSourceMapsEnabled(true);\nawait import('./${name}.bundle.js');\n`);
}
await cp('src/sandbox/storage/migrations', `${OUT}/migrations`, { recursive: true });
// ES modules wherever the folder is copied (the image has no package.json of the repository's above it).
await writeFile(`${OUT}/package.json`, '{ "type": "module" }\n');

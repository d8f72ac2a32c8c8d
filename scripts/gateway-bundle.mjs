// The gateway's entry points compiled to JavaScript as it runs in production: everything they import bundled into one
// ES module each, but PGlite (its WebAssembly is read from beside its own module), pg's optional native driver and
// anvil, with the migrations (SQL read at run time) copied beside. `npm run build:gateway` (scripts/build-gateway.mjs)
// builds the gateway's; the benchmarks build their gateway server the same way (bench/lib/server-process.ts), so they
// measure what operators run rather than the TypeScript loader.
import { build } from 'esbuild';
import { cp, rm } from 'node:fs/promises';

/** Bundles `entryPoints` (name → source) into `outdir` as `<name><suffix>.js`, emptied first. */
export async function bundleGateway(entryPoints, outdir, { suffix = '' } = {}) {
  await rm(outdir, { recursive: true, force: true });
  await build({
    entryPoints,
    outdir,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    sourcemap: true,
    // Stacks need the mappings alone: without the sources' text the map is 1.6 MB, not 6.6, and the first stack a process
    // formats costs it about 60 MB and 0.7 s, not 80 MB and 1.5 s (measured on a refused start).
    sourcesContent: false,
    entryNames: `[name]${suffix}`,
    // pg-native is pg's optional native driver; anvil (SANDBOX_CHAIN=anvil) is found in node_modules when asked for.
    external: ['@electric-sql/pglite', 'pg-native', '@foundry-rs/*'],
    // The bundled CommonJS packages (pg, pino) require Node's modules.
    banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
    logLevel: 'warning',
  });
  await cp('src/sandbox/storage/migrations', `${outdir}/migrations`, { recursive: true });
}

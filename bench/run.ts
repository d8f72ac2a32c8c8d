// `npm run bench`: every suite once, tables on stdout, the same figures in bench/results/latest.json.
// `npm run bench -- sse webhooks` runs only the suites named; `--pglite-only` leaves PostgreSQL out.
// A new measurement (the element's paint time in Chromium, say) is one more Suite in `suites`.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { renderTable, type SuiteResult } from './lib/report.js';
import { pglite, startPostgresStorage, type Storage } from './lib/storage.js';
import type { Suite } from './lib/suite.js';
import { bundleSuite } from './suites/bundle.js';
import { chainSuite } from './suites/chain.js';
import { elementSuite } from './suites/element.js';
import { httpSuite } from './suites/http.js';
import { searchSuite } from './suites/search.js';
import { sseCapacitySuite } from './suites/sse-capacity.js';
import { sseLatencySuite } from './suites/sse-latency.js';
import { watcherSuite } from './suites/watcher.js';
import { webhookSuite } from './suites/webhooks.js';

const suites: Suite[] = [httpSuite, searchSuite, sseLatencySuite, sseCapacitySuite, watcherSuite, chainSuite, webhookSuite, bundleSuite, elementSuite];

const args = process.argv.slice(2);
const chosen = args.filter((a) => !a.startsWith('--'));
const unknown = chosen.filter((id) => !suites.some((s) => s.id === id));
if (unknown.length) {
  console.error(`Unknown suite ${unknown.join(', ')}; the suites are ${suites.map((s) => s.id).join(', ')}.`);
  process.exit(2);
}
const selected = chosen.length ? suites.filter((s) => chosen.includes(s.id)) : suites;

const started = Date.now();
const commit = (() => {
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
  } catch {
    return 'unknown';
  }
})();
const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, Node ${process.version}, ${process.platform}/${process.arch}`;
console.log(`pay-checkout benchmarks — commit ${commit} (working tree may differ), ${machine}, ${new Date().toISOString()}\n`);

const runNotes: string[] = [];
const storages: Storage[] = [pglite];
let postgres: Awaited<ReturnType<typeof startPostgresStorage>> | undefined;
if (!selected.some((s) => s.gateway)) storages.length = 0;
else if (args.includes('--pglite-only')) runNotes.push('PostgreSQL left out (--pglite-only).');
else {
  postgres = await startPostgresStorage();
  if ('skipped' in postgres) runNotes.push(postgres.skipped);
  else storages.push(postgres.storage);
}
for (const note of runNotes) console.log(`note: ${note}`);

const results: Record<string, SuiteResult & { title: string; seconds: number; loadBefore: string; error?: string }> = {};
try {
  for (const suite of selected) {
    // The machine may be shared: the load before each suite says how quiet it was.
    const load = loadavg().map((l) => l.toFixed(2)).join(' ');
    console.log(`\n=== ${suite.title} === (load average ${load})`);
    const t0 = Date.now();
    let result: SuiteResult;
    let error: string | undefined;
    try {
      result = await suite.run({ storages });
    } catch (cause) {
      // One suite failing must not lose the others' figures.
      error = cause instanceof Error ? (cause.stack ?? cause.message) : String(cause);
      result = { tables: [], notes: [`FAILED: ${error}`] };
    }
    const seconds = (Date.now() - t0) / 1000;
    for (const table of result.tables) console.log(`\n${renderTable(table)}`);
    for (const note of result.notes) console.log(`\nnote: ${note}`);
    console.log(`\n(${suite.id}: ${seconds.toFixed(0)} s)`);
    results[suite.id] = { title: suite.title, ...result, seconds, loadBefore: load, ...(error ? { error } : {}) };
  }
} finally {
  if (postgres && !('skipped' in postgres)) postgres.stop();
}

const out = join(dirname(fileURLToPath(import.meta.url)), 'results', 'latest.json');
mkdirSync(dirname(out), { recursive: true });
writeFileSync(
  out,
  `${JSON.stringify({ commit, machine, date: new Date(started).toISOString(), seconds: (Date.now() - started) / 1000, notes: runNotes, suites: results }, null, 2)}\n`,
);
console.log(`\nTotal ${((Date.now() - started) / 1000).toFixed(0)} s; figures written to ${out}`);
if (Object.values(results).some((r) => r.error)) process.exitCode = 1;

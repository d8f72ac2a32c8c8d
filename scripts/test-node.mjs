// `npm run test:node`: the node:test suites, once on PGlite and, when a PostgreSQL server is installed,
// once more on a throwaway PostgreSQL cluster started on loopback for this run (README, "Set up").
// `--pglite-only` skips the second pass, `--postgres-only` the first; extra arguments narrow the files
// (`npm run test:node -- test/chain`).
// The second pass runs only what depends on the store: files that start a gateway (they call a starter of
// test/helpers, STARTS_A_GATEWAY), but not test/build (what ships, whatever the store) nor a file that says
// `// Store: any.` in its header (a gateway it starts is only the way to reach what it checks: bodies, configuration,
// documents); `*.pglite.test.ts` and `*.postgres.test.ts` run in their store's pass.
import { spawnSync } from 'node:child_process';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { postgresBin, startPostgres } from './postgres.mjs';

const args = process.argv.slice(2);
const pgliteOnly = args.includes('--pglite-only');
const postgresOnly = args.includes('--postgres-only');
const roots = args.filter((a) => !a.startsWith('--'));

/** The node:test files below the given roots; browser (test/checkout, test/portal-views) and end-to-end suites have their own runners. */
function testFiles(dirs) {
  const found = [];
  const walk = (path) => {
    if (statSync(path).isFile()) {
      if (path.endsWith('.test.ts')) found.push(path);
      return;
    }
    for (const name of readdirSync(path).sort()) walk(join(path, name));
  };
  for (const dir of dirs) walk(dir);
  return found;
}

const files = testFiles(roots.length ? roots : readdirSync('test').filter((d) => !['checkout', 'portal-views', 'e2e', 'helpers'].includes(d)).map((d) => join('test', d)));

// The model-based tests search for a fixed time (test/payments/model.test.ts, and its passes on anvil and on TRON's
// stand-in): started first, they run beside the other files instead of after them.
const TIME_BOXED = /model(-anvil|-tron)?\.test\.ts$/;
files.sort((a, b) => Number(TIME_BOXED.test(b)) - Number(TIME_BOXED.test(a)));

// The starters of test/helpers: fixture.ts and gateway.ts, anvil.ts and tron-node.ts (a gateway on a node), portal.ts,
// process.ts, payment-model.ts. A new starter belongs here.
const STARTS_A_GATEWAY = /\b(useTestGateway|startTestGateway|useGatewayOnChain|useGatewayOnTron|startPortal|startGatewayProcess|GatewaySystem\.start|runModelOnNode)\(/;
const STORE_ANY = /^\/\/ Store: any\./m;
const storeBound = (source) => STARTS_A_GATEWAY.test(source) && !STORE_ANY.test(source);
const pgliteFiles = files.filter((f) => !f.endsWith('.postgres.test.ts'));
const postgresFiles = files.filter(
  (f) => f.endsWith('.postgres.test.ts') || (!f.endsWith('.pglite.test.ts') && !f.startsWith(join('test', 'build')) && storeBound(readFileSync(f, 'utf8'))),
);

function run(label, files, env) {
  if (!files.length) return 0;
  console.log(`\n# node:test on ${label} (${files.length} files)`);
  const started = Date.now();
  // Two cores: two files at a time keeps PGlite start-up (about 1 s a gateway, from test/helpers/pglite-image.ts) from dominating.
  const result = spawnSync(process.execPath, ['--import', 'tsx', '--test', `--test-concurrency=${process.env.TEST_CONCURRENCY ?? 2}`, '--test-reporter=spec', ...files], {
    stdio: 'inherit',
    // The gateways' request lines would drown the report: warnings and errors only, unless LOG_LEVEL says otherwise.
    env: { LOG_LEVEL: 'warn', ...process.env, ...env },
  });
  console.log(`# node:test on ${label.split(' ')[0]}: ${Math.round((Date.now() - started) / 1000)} s`);
  return result.status ?? 1;
}

let status = postgresOnly ? 0 : run('PGlite', pgliteFiles, { TEST_DATABASE_URL: '' });
const bin = pgliteOnly || !postgresFiles.length ? undefined : postgresBin();
if (bin) {
  const server = await startPostgres(bin);
  const stop = () => server.stop();
  process.once('SIGINT', () => {
    stop();
    process.exit(130);
  });
  try {
    status = run(`PostgreSQL (${server.url})`, postgresFiles, { TEST_DATABASE_URL: server.url }) || status;
  } finally {
    stop();
  }
} else if (!pgliteOnly) {
  console.log('\n# PostgreSQL is not installed (apt-get install postgresql): the PostgreSQL pass is skipped.');
  if (process.env.CI) status ||= 1; // CI installs it; a missing server there is a broken set-up, not a pass.
}
process.exit(status);

// `npm run test:node`: the node:test suites, once on PGlite and, when a PostgreSQL server is installed,
// once more on a throwaway PostgreSQL cluster started on loopback for this run (README, "Set up").
// `--pglite-only` skips the second pass; extra arguments narrow the files (`npm run test:node -- test/chain`).
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { postgresBin, startPostgres } from './postgres.mjs';

const args = process.argv.slice(2);
const pgliteOnly = args.includes('--pglite-only');
const roots = args.filter((a) => !a.startsWith('--'));

/** The node:test files below the given roots; browser (test/checkout) and end-to-end suites have their own runners. */
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

const files = testFiles(roots.length ? roots : readdirSync('test').filter((d) => !['checkout', 'e2e', 'helpers'].includes(d)).map((d) => join('test', d)));

function run(label, env) {
  console.log(`\n# node:test on ${label} (${files.length} files)`);
  // Two cores: two files at a time keeps PGlite start-up (about 3 s a file) from dominating.
  const result = spawnSync(process.execPath, ['--import', 'tsx', '--test', '--test-concurrency=2', '--test-reporter=spec', ...files], {
    stdio: 'inherit',
    env: { ...process.env, ...env },
  });
  return result.status ?? 1;
}

let status = run('PGlite', { TEST_DATABASE_URL: '' });
const bin = pgliteOnly ? undefined : postgresBin();
if (bin) {
  const server = await startPostgres(bin);
  const stop = () => server.stop();
  process.once('SIGINT', () => {
    stop();
    process.exit(130);
  });
  try {
    status = run(`PostgreSQL (${server.url})`, { TEST_DATABASE_URL: server.url }) || status;
  } finally {
    stop();
  }
} else if (!pgliteOnly) {
  console.log('\n# PostgreSQL is not installed (apt-get install postgresql): the PostgreSQL pass is skipped.');
  if (process.env.CI) status ||= 1; // CI installs it; a missing server there is a broken set-up, not a pass.
}
process.exit(status);

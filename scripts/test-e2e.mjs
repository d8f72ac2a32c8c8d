// `npm run test:e2e`: builds, starts what `npm start` starts (demo/main.ts through tsx, or with `--compiled` its compiled
// form, node dist/gateway/demo.js) on a free port with a throwaway PGlite folder, waits for the URL it prints, then runs
// the node:test files of test/e2e/ against it in the system Chromium. `--screenshots` also writes
// docs/screenshots/*.png from the run; extra arguments narrow the files.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { clearTimeout, setTimeout } from 'node:timers';
import { freePort } from './free-port.mjs';

const args = process.argv.slice(2);
const screenshots = args.includes('--screenshots');
const compiled = args.includes('--compiled');
const chosen = args.filter((a) => !a.startsWith('--'));
const files = chosen.length ? chosen : readdirSync('test/e2e').filter((f) => f.endsWith('.test.ts')).sort().map((f) => join('test/e2e', f));

// `npm test` has just built (and says so with --built); run alone, this builds what it serves.
if (!args.includes('--built')) {
  const build = spawnSync('npm', ['run', 'build', '--silent'], { stdio: ['ignore', 'ignore', 'inherit'] });
  if (build.status !== 0) {
    console.error('npm run build failed');
    process.exit(build.status ?? 1);
  }
}

const port = await freePort();
const dataDir = mkdtempSync(join(tmpdir(), 'pay-checkout-e2e-'));
// Blocks only when a test mines them: a block timer would add confirmations between a test's steps.
// Its request lines would drown the report: warnings and errors only, unless LOG_LEVEL says otherwise.
const server = spawn(process.execPath, compiled ? ['dist/gateway/demo.js'] : ['--import', 'tsx', 'demo/main.ts'], {
  // One browser plays every customer of the run: one client address (docs/security.md, "Limits").
  env: {
    LOG_LEVEL: 'warn',
    ...process.env,
    PORT: String(port),
    PGLITE_DIR: dataDir,
    DATABASE_URL: '',
    SANDBOX_BLOCK_INTERVAL_MS: '0',
    LIMIT_OPENS_PER_CLIENT_PER_MINUTE: '100000',
    LIMIT_STREAMS_PER_CLIENT: '100000',
    // Every test signs in as the sandbox merchant.
    LIMIT_SIGN_INS_PER_MERCHANT_PER_MINUTE: '100000',
  },
  stdio: ['ignore', 'pipe', 'inherit'],
});
let log = '';
const stop = () => {
  if (server.exitCode === null) server.kill('SIGTERM');
  rmSync(dataDir, { recursive: true, force: true });
};
process.once('SIGINT', () => {
  stop();
  process.exit(130);
});

const baseUrl = await new Promise((resolve, reject) => {
  const timer = setTimeout(() => reject(new Error(`the demo did not print its URL within 60 s:\n${log}`)), 60_000);
  server.stdout.on('data', (chunk) => {
    log += chunk;
    const url = /^Open (http\S+?)\/?$/m.exec(log)?.[1];
    if (url) {
      clearTimeout(timer);
      resolve(url);
    }
  });
  server.once('exit', (code) => reject(new Error(`the demo exited (${code}) before it served:\n${log}`)));
}).catch((error) => {
  console.error(error.message);
  stop();
  process.exit(1);
});
console.log(`# end-to-end against ${baseUrl}${compiled ? ', the compiled start' : ''} (${files.length} files)`);

// One browser at a time: the machine has two cores and the server needs one.
const run = spawnSync(process.execPath, ['--import', 'tsx', '--test', '--test-concurrency=1', '--test-reporter=spec', ...files], {
  stdio: 'inherit',
  env: { ...process.env, E2E_BASE_URL: baseUrl, ...(screenshots && { E2E_SCREENSHOTS: 'docs/screenshots' }) },
});
stop();
process.exit(run.status ?? 1);

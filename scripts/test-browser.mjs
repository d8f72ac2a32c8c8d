// `npm run test:browser`: the <pay-checkout> tests (test/checkout) and the portal's views (test/portal-views) in
// Chromium, Firefox ESR and WebKitGTK through web-test-runner (web-test-runner.config.mjs). `--browsers chromium,firefox` narrows the engines;
// every other argument goes to wtr as is (`--files test/checkout/views.test.ts`).
// WebKitGTK is driven by WebKitWebDriver, which needs a display for MiniBrowser: it runs under xvfb-run.
/* global fetch */
import { spawn } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { freePort } from './free-port.mjs';

const ENGINES = ['chromium', 'firefox', 'webkit'];
const args = process.argv.slice(2);
let engines = ENGINES;
const passThrough = [];
for (let i = 0; i < args.length; i++) {
  const arg = args[i];
  if (arg === '--browsers' || arg.startsWith('--browsers=')) {
    const list = arg.includes('=') ? arg.slice('--browsers='.length) : args[++i];
    engines = (list ?? '').split(',').map((s) => s.trim()).filter(Boolean);
    const unknown = engines.filter((e) => !ENGINES.includes(e));
    if (!engines.length || unknown.length) {
      console.error(`--browsers takes a comma-separated list of ${ENGINES.join(', ')}; got ${list ?? 'nothing'}`);
      process.exit(2);
    }
  } else passThrough.push(arg);
}

const root = fileURLToPath(new URL('..', import.meta.url));
const started = Date.now();
const children = new Set();

/** Ends a child and everything it started (xvfb-run starts Xvfb, the driver starts MiniBrowser). */
function end(child) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, 'SIGTERM');
  } catch {
    child.kill('SIGTERM');
  }
}

function endAll() {
  for (const child of children) end(child);
}

async function startWebKitDriver() {
  const port = await freePort();
  const driver = spawn('xvfb-run', ['-a', 'WebKitWebDriver', `--port=${port}`], { detached: true, stdio: ['ignore', 'ignore', 'inherit'] });
  children.add(driver);
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (driver.exitCode !== null) throw new Error(`WebKitWebDriver exited with ${driver.exitCode} (is webkit2gtk-driver installed, and xvfb?)`);
    try {
      const status = await fetch(`http://127.0.0.1:${port}/status`);
      if (status.ok) return port;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`WebKitWebDriver did not answer on port ${port} within 30 s`);
    await sleep(200);
  }
}

process.once('SIGINT', () => {
  endAll();
  process.exit(130);
});
process.once('SIGTERM', () => {
  endAll();
  process.exit(143);
});

let code = 1;
try {
  // The in-process gateway's request lines would drown the report: warnings and errors only, unless LOG_LEVEL says otherwise.
  const env = { LOG_LEVEL: 'warn', ...process.env, PAY_CHECKOUT_BROWSERS: engines.join(',') };
  if (engines.includes('webkit')) env.WEBKIT_DRIVER_PORT = String(await startWebKitDriver());
  // The config imports the gateway (TypeScript) in process: wtr runs in a node with tsx loaded.
  const wtr = spawn(process.execPath, ['--import', 'tsx', 'node_modules/@web/test-runner/dist/bin.js', '--config', 'web-test-runner.config.mjs', ...passThrough], {
    cwd: root,
    env,
    stdio: 'inherit',
  });
  children.add(wtr);
  code = await new Promise((resolve) => wtr.once('exit', (status, signal) => resolve(status ?? (signal ? 1 : 0))));
} catch (error) {
  console.error(`test:browser: ${error.message}`);
} finally {
  endAll();
}
const seconds = ((Date.now() - started) / 1000).toFixed(1);
console.log(`\ntest:browser: ${code === 0 ? 'passed' : `failed (exit ${code})`} in ${engines.join(', ')}, ${seconds} s`);
process.exit(code);

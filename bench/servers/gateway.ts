// The gateway under test, alone in its process: configured by environment like `npm run gateway` (PORT=0),
// timers on as in production unless BENCH_TIMERS=off (used only to queue webhook events without delivering them), and
// its logs as the start sets them (src/sandbox/start.ts): a JSON line per request, written off its path, at LOG_LEVEL.
import { loadConfig } from '../../src/sandbox/config.js';
import { configureLogging } from '../../src/sandbox/logging.js';
import { startGateway } from '../../src/sandbox/server.js';
import { announce } from './announce.js';

const config = loadConfig();
await configureLogging(config.log?.level ?? 'info', 'json');
const running = await startGateway(config, { watch: process.env.BENCH_TIMERS !== 'off' });
announce(running.url, () => running.close());

// The gateway under test, alone in its process: configured by environment like `npm run gateway` (PORT=0),
// timers on as in production unless BENCH_TIMERS=off (used only to queue webhook events without delivering them).
import { loadConfig } from '../../src/sandbox/config.js';
import { startGateway } from '../../src/sandbox/server.js';
import { announce } from './announce.js';

const running = await startGateway(loadConfig(), { watch: process.env.BENCH_TIMERS !== 'off' });
announce(running.url, () => running.close());

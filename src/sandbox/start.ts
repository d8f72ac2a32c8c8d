// How a gateway process starts and stops (`npm run gateway`, `npm start`, the image's `node dist/gateway/main.js`):
// the configuration checked, the logs set up, the gateway started and its banner printed; on SIGTERM or Ctrl-C a stop
// within SHUTDOWN_TIMEOUT_MS, then exit 0. A start that fails says why in one line on stderr and exits 1.
import type { Hono } from 'hono';
import { startBanner, type BannerOptions } from './banner.js';
import { ConfigError, loadConfig } from './config.js';
import { unknownVariableLine, variablesUnknown } from './config/unknown-variables.js';
import { configureLogging, firstLine, flushLogs, log } from './logging.js';
import { startGateway, type RunningGateway } from './server.js';
import type { Services } from './services.js';

export interface StartSpec {
  title: string;
  /** The environment, with the caller's defaults under it. */
  env?: NodeJS.ProcessEnv;
  mount?: (app: Hono, services: Services) => void;
  banner?: (running: RunningGateway) => BannerOptions;
}

export async function runGateway(spec: StartSpec): Promise<void> {
  try {
    const env = spec.env ?? process.env;
    const config = loadConfig(env);
    await configureLogging(config.log?.level ?? 'info', config.log?.format ?? (process.stderr.isTTY ? 'pretty' : 'json'));
    // Live refused these in loadConfig; the sandbox says each and goes on.
    if (config.environment === 'sandbox') for (const unknown of variablesUnknown(env, config.networks)) log.warn({ variable: unknown.name, nearest: unknown.nearest }, unknownVariableLine(unknown));
    // SANDBOX_CHAIN=anvil: Ethereum on a development node, started here (chains/evm/dev-chain.ts).
    const dev = config.sandboxChain === 'anvil' ? await (await import('./chains/evm/dev-chain.js')).startDevChain(config) : undefined;
    const running = await startGateway(dev?.config ?? config, { mount: spec.mount });
    // Before the banner: whoever waits for it may signal at once.
    stopOnSignals(running, config.shutdown?.timeoutMs ?? 10_000, config.shutdown?.delayMs ?? 0, dev?.node.stop);
    const options = spec.banner?.(running) ?? {};
    console.log(startBanner(running, spec.title, { ...options, extra: [...(options.extra ?? []), ...(dev ? ['', ...dev.banner] : [])] }));
  } catch (error) {
    const lines = error instanceof ConfigError ? error.problems : [firstLine(error)];
    for (const line of lines) console.error(`${spec.title} cannot start: ${line}`);
    log.debug({ err: error }, 'start failed');
    flushLogs();
    process.exit(1);
  }
}

/**
 * SIGTERM (an orchestrator): not ready at once, answering for SHUTDOWN_DELAY_MS, then the stop. SIGINT (Ctrl-C): the
 * stop at once. Either way the process exits within `timeoutMs`, with 1 if the stop could not finish by then.
 */
function stopOnSignals(running: RunningGateway, timeoutMs: number, delayMs: number, after: () => Promise<void> = async () => undefined): void {
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal, timeout_ms: timeoutMs }, 'stopping');
    const started = Date.now();
    setTimeout(() => {
      log.error({ timeout_ms: timeoutMs }, 'the stop did not finish in time; exiting');
      flushLogs();
      process.exit(1);
    }, timeoutMs).unref();
    void running
      .close({ delayMs: signal === 'SIGTERM' ? delayMs : 0 })
      .then(after)
      .then(() => {
        log.info({ ms: Date.now() - started }, 'stopped');
        flushLogs();
        process.exit(0);
      });
  };
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, stop);
}

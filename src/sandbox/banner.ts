// What `npm start` and `npm run gateway` print once listening: where, on what storage, and the sandbox credentials.
import type { RunningGateway } from './gateway.js';

export function startBanner({ gateway, url }: RunningGateway, title: string, extra: string[] = []): string {
  const { clientId, clientSecret, merchantKey } = gateway.config.sandboxMerchant;
  const { dataDir } = gateway.config;
  return [
    `${title} on ${url} (storage: ${gateway.db.engine}${dataDir ? `, ${dataDir}` : ''})`,
    '',
    'Sandbox credentials:',
    `  ClientId       ${clientId}`,
    `  Client Secret  ${clientSecret}`,
    `  Merchant Key   ${merchantKey}`,
    `  Access Token   POST ${url}/api/v2/oauth/token with the two above`,
    ...(extra.length ? ['', ...extra] : []),
    '',
  ].join('\n');
}

/** Ends the process cleanly on Ctrl-C or a stop signal: open streams closed, the database closed. */
export function closeOnSignals(running: RunningGateway): void {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => void running.close().then(() => process.exit(0)));
  }
}

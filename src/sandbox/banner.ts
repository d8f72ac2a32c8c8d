// What `npm start` and `npm run gateway` print once listening: where, on what storage, who can reach it, and the
// sandbox credentials.
import { networkInterfaces } from 'node:os';
import type { RunningGateway } from './server.js';

export interface BannerOptions {
  /** Lines after the credentials (the demo's pages). */
  extra?: string[];
  /** What a phone on the network would open, when HOST lets one in (`/wallet` for the demo). */
  phonePath?: string;
}

export function startBanner({ gateway, url }: RunningGateway, title: string, options: BannerOptions = {}): string {
  const { clientId, clientSecret, merchantKey } = gateway.config.sandboxMerchant;
  const { dataDir } = gateway.config;
  const extra = options.extra ?? [];
  return [
    `${title} on ${url} (storage: ${gateway.db.engine}${dataDir ? `, ${dataDir}` : ''})`,
    ...reach(gateway.config.host, new URL(url).port, options.phonePath ?? ''),
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

const WILDCARD = new Set(['0.0.0.0', '::', '[::]']);
const isLoopback = (host: string) => host === 'localhost' || /^127\./.test(host) || host === '::1' || host === '[::1]';

/** Who reaches the server on this HOST; the network's addresses only when HOST opens it to them. */
function reach(host: string, port: string, phonePath: string): string[] {
  if (isLoopback(host)) {
    return [`Only this machine reaches it (HOST=${host}). HOST=0.0.0.0 opens it to your network, e.g. for the test wallet on a phone.`];
  }
  const addresses = WILDCARD.has(host)
    ? Object.values(networkInterfaces())
        .flat()
        .filter((i) => i && i.family === 'IPv4' && !i.internal)
        .map((i) => i!.address)
    : [host];
  return [
    `HOST=${host}: open to your network at ${addresses.map((a) => `http://${a}:${port}${phonePath}`).join(', ') || 'every address of this machine'}.`,
    'Anyone there can use the checkout and the sandbox endpoints (test wallet, mining); the merchant API and the portal',
    'need the merchant credentials below, which are public defaults unless SANDBOX_CLIENT_SECRET and SANDBOX_MERCHANT_KEY are set.',
  ];
}

/** Ends the process cleanly on Ctrl-C or a stop signal: open streams closed, the database closed, then `after`. */
export function closeOnSignals(running: RunningGateway, after: () => Promise<void> = async () => undefined): void {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => void running.close().then(after).then(() => process.exit(0)));
  }
}

// What `npm start` and `npm run gateway` print once listening, as plain text on stdout: where, on what storage, who can
// reach it, where rates come from, the sandbox credentials while they are the public defaults (never one an operator set), and which keys the
// process holds. A live gateway says LIVE, which of its networks are testnets, and has no sandbox credentials to print.
import { networkInterfaces } from 'node:os';
import { DEFAULT_SANDBOX_SEED_HEX } from '../codecs/addresses.js';
import { SANDBOX_DEFAULTS } from './config.js';
import { SANDBOX_DATA_KEY, SANDBOX_PAYOUT_SEED_HEX } from './config/public-keys.js';
import type { RunningGateway } from './server.js';
import { keyId } from './secrets.js';
import type { RateSettings } from './rates/configuration.js';
import type { Services } from './services.js';
import { parsePostgresUrl } from './storage/postgres-url.js';

export interface BannerOptions {
  /** Lines after the credentials (the demo's pages). */
  extra?: string[];
  /** What a phone on the network would open, when HOST lets one in (`/wallet` for the demo). */
  phonePath?: string;
}

export function startBanner({ gateway, url, metricsUrl }: RunningGateway, title: string, options: BannerOptions = {}): string {
  const { clientId, clientSecret, merchantKey } = gateway.config.sandboxMerchant;
  const { dataDir, databaseUrl } = gateway.config;
  const extra = options.extra ?? [];
  // Neither: PGlite in memory, which a misspelt DATABASE_URL also gives, so the banner says so.
  const where = databaseUrl ? `, ${parsePostgresUrl(databaseUrl).display}` : dataDir ? `, ${dataDir}` : ', in memory: everything is lost when the process stops; DATABASE_URL or PGLITE_DIR keeps it';
  const shown = (value: string, fallback: string, variable: string) => (value === fallback ? value : `(set by ${variable}; not printed)`);
  const publicDefaults = clientSecret === SANDBOX_DEFAULTS.clientSecret || merchantKey === SANDBOX_DEFAULTS.merchantKey;
  const live = gateway.config.environment === 'live';
  const merchants = live
    ? ['Merchants: only those in its database; live takes none from the environment (no SANDBOX_* credentials).']
    : [
        publicDefaults ? 'Sandbox credentials (public defaults, written in the README: anyone can use them):' : 'Sandbox credentials:',
        `  ClientId       ${clientId}`,
        `  Client Secret  ${shown(clientSecret, SANDBOX_DEFAULTS.clientSecret, 'SANDBOX_CLIENT_SECRET')}`,
        `  Merchant Key   ${shown(merchantKey, SANDBOX_DEFAULTS.merchantKey, 'SANDBOX_MERCHANT_KEY')}`,
        `  Access Token   POST ${url}/api/v2/oauth/token with the two above`,
      ];
  return [
    `${title} on ${url} (storage: ${gateway.db.engine}${where})`,
    ...(live ? liveLines(gateway) : []),
    networkLine(gateway),
    ...reach(gateway.config.host, new URL(url).port, options.phonePath ?? '', live),
    rates(gateway.config.rates, live),
    ...metrics(gateway.config, url, metricsUrl),
    '',
    ...merchants,
    '',
    'Keys this process holds:',
    ...keys(gateway),
    ...(extra.length ? ['', ...extra] : []),
    '',
  ].join('\n');
}

/** Where each network's facts come from: the simulator, or a node named by its origin only (a key in its URL stays here). */
function networkLine({ networks }: Services): string {
  const sources = networks.all.map((n) => `${n.name} (${n.id}) ${n.source.kind === 'node' ? `on a node at ${new URL(n.source.rpcUrl).origin}` : 'simulated'}`);
  return `Networks: ${sources.join('; ')}.`;
}

/** What a live gateway is: real payments, on which networks, and which of those are testnets (a staging deployment). */
function liveLines({ networks }: Services): string[] {
  const testnets = networks.all.filter((n) => n.testnet).map((n) => `${n.id} (${n.name})`);
  return [
    `LIVE (GATEWAY_ENV=live): payments on ${networks.all.map((n) => n.id).join(', ')}, each watched on its node; no sandbox route, tester panel or test wallet.`,
    ...(testnets.length ? [`Testnet: ${testnets.join(', ')}: coins there are worth nothing.`] : []),
  ];
}

/** Where /metrics is and what it needs, once METRICS_PORT or METRICS_TOKEN says (without them it is the main port's, open). */
function metrics(config: Services['config'], url: string, metricsUrl: string | undefined): string[] {
  const { token, port } = config.metrics ?? {};
  if (token === undefined && port === undefined) return [];
  return [`Metrics: ${metricsUrl ?? `${url}/metrics`}${token === undefined ? '' : ' (Authorization: Bearer METRICS_TOKEN; not printed)'}`];
}

/** Which keys the process holds: the data key, and for each network whether a private key derives its addresses. */
function keys({ config, networks }: Services): string[] {
  const previous = config.previousDataKeys?.length ?? 0;
  const dataKey =
    config.dataKey === SANDBOX_DATA_KEY
      ? 'the public sandbox key (set GATEWAY_DATA_KEY)'
      : // By fingerprint (gateway_processes has the same): which processes hold which key, never the key.
        `GATEWAY_DATA_KEY (key ${keyId(config.dataKey)})${previous ? `, and ${previous} previous (GATEWAY_DATA_KEYS_PREVIOUS: ${config.previousDataKeys!.map(keyId).join(', ')})` : ''}`;
  const given = config.payments.accountXpubs ?? {};
  const fromXpub = networks.all.filter((n) => given[n.family]).map((n) => n.id);
  const fromSeed = networks.all.filter((n) => !given[n.family]).map((n) => n.id);
  const seed =
    config.payments.hdSeedHex === DEFAULT_SANDBOX_SEED_HEX
      ? 'the public sandbox HD seed: anyone can spend what reaches them (sandbox only; HD_XPUB_* for real funds)'
      : 'SANDBOX_HD_SEED, a private key held here';
  // Live holds no receiving key at all: each merchant's addresses derive from its own (services/merchant/receiving-keys.ts).
  const addresses =
    config.environment === 'live'
      ? [`  Addresses      ${networks.all.map((n) => n.id).join(', ')} from each merchant's extended public keys (npm run merchants -- set-xpub): no private key here`]
      : [
          ...(fromXpub.length ? [`  Addresses      ${fromXpub.join(', ')} from extended public keys (HD_XPUB_*): no private key here`] : []),
          ...(fromSeed.length ? [`  Addresses      ${fromSeed.join(', ')} from ${seed}`] : []),
        ];
  return [
    `  Data key       ${dataKey}`,
    ...addresses,
    ...(config.environment === 'live' ? [] : ['  Test wallet    the sandbox wallet\'s private keys (SANDBOX_WALLET_SEED): it signs the sandbox\'s test payments']),
    `  Payouts        each merchant's payout wallet, at its own account of ${config.payments.payoutSeedHex === SANDBOX_PAYOUT_SEED_HEX ? 'the public sandbox seed (PAYOUT_HD_SEED for real funds)' : "the operator's seed (PAYOUT_HD_SEED)"}: it signs that merchant's refunds sent on chain, ${payoutCap(config.payments.payoutDailyCapVnd)}`,
  ];
}

/** The daily cap of each merchant's payouts, as the banner says it (docs/operations.md, "Payout wallets"). */
const payoutCap = (cap: number) =>
  cap === 0 ? 'none of them sent while PAYOUT_DAILY_CAP_VND is 0' : `at most ${cap.toLocaleString('en-US')} VND a merchant in any 24 h (PAYOUT_DAILY_CAP_VND)`;

/** Where quotes' rates come from: the sandbox's fixed rates, or the market's sources (docs/rates.md). */
function rates({ sources }: RateSettings, live: boolean): string {
  const market = sources.filter((s) => s.kind !== 'fixed').map((s) => s.id);
  if (market.length) return `Rates from the market: ${market.join(', ')} (RATE_SOURCES), fetched on their schedules.`;
  // Live always has RATE_SOURCES: fixed rates there are the operator's own, never the sandbox's.
  return live
    ? `Rates: fixed, as RATE_SOURCES gives them (${sources.map((s) => s.id).join(', ')}): the operator's choice, moved by no market.`
    : "Rates: the sandbox's fixed ones (SANDBOX_RATE_*); RATE_SOURCES takes them from the market (docs/rates.md).";
}

const WILDCARD = new Set(['0.0.0.0', '::', '[::]']);
const isLoopback = (host: string) => host === 'localhost' || /^127\./.test(host) || host === '::1' || host === '[::1]';

/** Who reaches the server on this HOST; the network's addresses only when HOST opens it to them. */
function reach(host: string, port: string, phonePath: string, live: boolean): string[] {
  if (isLoopback(host)) {
    return [`Only this machine reaches it (HOST=${host}). HOST=0.0.0.0 opens it to your network${live ? '' : ', e.g. for the test wallet on a phone'}.`];
  }
  const addresses = WILDCARD.has(host)
    ? Object.values(networkInterfaces())
        .flat()
        .filter((i) => i && i.family === 'IPv4' && !i.internal)
        .map((i) => i!.address)
    : [host];
  const open = `HOST=${host}: open to your network at ${addresses.map((a) => `http://${a}:${port}${phonePath}`).join(', ') || 'every address of this machine'}.`;
  if (live) return [open, 'Anyone there can use the checkout; the merchant API and the portal need a merchant\'s credentials.'];
  return [
    open,
    'Anyone there can use the checkout and the sandbox endpoints (test wallet, mining); the merchant API and the portal',
    'need the merchant credentials below, which are public defaults unless SANDBOX_CLIENT_SECRET and SANDBOX_MERCHANT_KEY are set.',
  ];
}

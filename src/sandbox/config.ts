// Configuration by environment (README, "Configuration"). The sandbox defaults are public on purpose:
// they are printed at start and written in the README, so a tester can use them at once; GATEWAY_ENV=live refuses
// every one of them (config/refusals.ts; docs/operations.md, "Going live").
import { isIP } from 'node:net';
import * as z from 'zod/mini';
import { accountKeyFrom, DEFAULT_SANDBOX_SEED_HEX, type NetworkFamily } from '../codecs/addresses.js';
import { NETWORK_FAMILIES } from '../contract/assets.js';
import { ENVIRONMENTS, type Environment } from '../contract/rules.js';
import { networksFrom, networksTaken } from './chains/configuration.js';
import type { NetworkSpec } from './chains/networks.js';
import { SANDBOX_DATA_KEY, SANDBOX_PAYOUT_SEED_HEX, SANDBOX_WALLET_SEED_HEX } from './config/public-keys.js';
import { liveDataKeyRefusals, liveRefusals, sandboxCredentialRefusals } from './config/refusals.js';
import { unknownVariableLine, variablesUnknown } from './config/unknown-variables.js';
import { LOG_LEVELS, type LogFormat, type LogLevel } from './logging.js';
import { ratesFrom, type RateSettings } from './rates/configuration.js';
import { DEFAULT_DATABASE_LIMITS, type DatabaseLimits } from './storage/database.js';
import { parsePostgresUrl } from './storage/postgres-url.js';
import { xpubVariable, type ConfigVariable } from './variables.js';

export interface MerchantCredentials {
  name: string;
  clientId: string;
  clientSecret: string;
  merchantKey: string;
}

export interface GatewayConfig {
  /**
   * GATEWAY_ENV: `sandbox` serves the /sandbox routes, the tester panel and the test wallet; `live` serves none of them,
   * has no sandbox merchant, and started only with every network on a node and no public key (config/refusals.ts).
   */
  environment: Environment;
  port: number;
  /** The address to listen on: loopback by default, so only this machine reaches the gateway and the portal. */
  host: string;
  /** PostgreSQL server; PGlite when absent. */
  databaseUrl?: string;
  databaseLimits?: DatabaseLimits;
  /** PGlite data folder; in memory when absent. */
  dataDir?: string;
  /**
   * One-time addresses after a restore (services/merchant/address-guard.ts; docs/operations.md, "Back up and restore"):
   * how far past what may have been handed out every index moves, and where the marks file lives (ADDRESS_STATE_DIR;
   * beside the PGlite folder when absent; none: the database's identity alone).
   */
  addresses: { restoreMargin: number; stateDir?: string };
  /** Public address of the hosted checkout page; `payment_link` = `{checkoutUrl}?ref=...`. */
  checkoutUrl: string;
  /** The sandbox merchant, created at start in the sandbox; a live gateway creates none and never reads this. */
  sandboxMerchant: MerchantCredentials;
  /** A webhook endpoint the sandbox merchant gets at start (more can be added through the API or the portal). */
  sandboxWebhookUrl?: string;
  /** Webhook endpoints on the loopback host (`http:` included) are taken: set for the demo's own receiver. */
  allowLocalWebhooks: boolean;
  /** The portal's one-click "Sign in as the sandbox merchant", without its secret (still from this machine only). */
  secretlessSignIn: boolean;
  webhookTimeoutMs: number;
  /** Key that seals stored client secrets and webhook secrets. */
  dataKey: string;
  /** Keys that sealed before `dataKey` did: they still open what they sealed, which the start seals again with `dataKey`. */
  previousDataKeys?: string[];
  tokenTtlSeconds: number;
  /** How long a refund's claim link stays open for the customer to give an address. */
  refundClaimTtlSeconds: number;
  /** How long an Idempotency-Key answers as it first did; after that the key is new again (docs/api.md, "Idempotency"). */
  idempotencyKeyTtlSeconds: number;
  /** How long GET /api/events lists an event (EVENTS_RETENTION_DAYS, at least 30). */
  eventsRetentionDays: number;
  payments: PaymentSettings;
  /** The networks payments are taken on, and where each one's facts come from (chains/configuration.ts). */
  networks: NetworkSpec[];
  /** Where each asset's rate comes from, and the guards on it (rates/configuration.ts). */
  rates: RateSettings;
  /** `anvil`: the gateway's start runs a development node and puts Ethereum on it (chains/evm/dev-chain.ts). */
  sandboxChain?: 'anvil';
  log?: { level: LogLevel; format?: LogFormat };
  /** How long a stop may take in all (SIGTERM to exit), and how long it answers /readyz 503 before it stops accepting. */
  shutdown?: { timeoutMs: number; delayMs: number };
  /** What one client, link or merchant may ask of the gateway (docs/security.md, "Limits"). */
  limits: LimitSettings;
  /**
   * Who reads /metrics (docs/operations.md, "Metrics"): with `token`, only a request with `Authorization: Bearer
   * <token>`; with `port`, only a listener of its own on that port (0: any free one), and the main port answers 404.
   */
  metrics?: { token?: string; port?: number };
}

/** Each bound on what one client, link or merchant may ask; its variable and default in LIMIT_VARIABLES. */
export interface LimitSettings {
  /** Payments one link may have in all: each new coin or new quote is one. */
  paymentsPerLink: number;
  /** Payment opens a minute on one link, and from one client address over every link. */
  opensPerLinkPerMinute: number;
  opensPerClientPerMinute: number;
  /** Event streams open at once from one client address, on one link, and in one process. */
  streamsPerClient: number;
  streamsPerLink: number;
  streams: number;
  /** Webhook endpoints one merchant may have, and may add in a minute (refused ones too: each costs a transaction). */
  webhookEndpointsPerMerchant: number;
  webhookEndpointAddsPerMerchantPerMinute: number;
  /** Wrong client secrets in `failedSecretWindowSeconds`, per client id and per client address, before a 429 until the window ends. */
  failedSecretsPerClientId: number;
  failedSecretsPerAddress: number;
  failedSecretWindowSeconds: number;
  /** Portal sign-ins a minute of one merchant (its right secret), before a 429 until the minute ends. */
  signInsPerMerchantPerMinute: number;
}

/** The variable of each limit and its default (docs/security.md, "Limits", lists them). */
export const LIMIT_VARIABLES = {
  paymentsPerLink: ['LIMIT_PAYMENTS_PER_LINK', 20],
  opensPerLinkPerMinute: ['LIMIT_OPENS_PER_LINK_PER_MINUTE', 30],
  opensPerClientPerMinute: ['LIMIT_OPENS_PER_CLIENT_PER_MINUTE', 120],
  streamsPerClient: ['LIMIT_STREAMS_PER_CLIENT', 100],
  streamsPerLink: ['LIMIT_STREAMS_PER_LINK', 20],
  streams: ['LIMIT_STREAMS', 20_000],
  webhookEndpointsPerMerchant: ['LIMIT_WEBHOOK_ENDPOINTS_PER_MERCHANT', 16],
  webhookEndpointAddsPerMerchantPerMinute: ['LIMIT_WEBHOOK_ENDPOINT_ADDS_PER_MERCHANT_PER_MINUTE', 60],
  failedSecretsPerClientId: ['LIMIT_FAILED_SECRETS_PER_CLIENT_ID', 10],
  failedSecretsPerAddress: ['LIMIT_FAILED_SECRETS_PER_ADDRESS', 30],
  failedSecretWindowSeconds: ['LIMIT_FAILED_SECRET_WINDOW_SECONDS', 300],
  signInsPerMerchantPerMinute: ['LIMIT_SIGN_INS_PER_MERCHANT_PER_MINUTE', 30],
} as const satisfies Record<keyof LimitSettings, readonly [ConfigVariable, number]>;
type LimitVariable = (typeof LIMIT_VARIABLES)[keyof LimitSettings][0];

export const DEFAULT_LIMITS = Object.fromEntries(Object.entries(LIMIT_VARIABLES).map(([key, [, value]]) => [key, value])) as unknown as LimitSettings;

export interface PaymentSettings {
  /** The HD seed (hex) or xprv of the key one-time addresses derive from. Public default: sandbox only. */
  hdSeedHex: string;
  /** Per network family, an account's extended public key: that family's addresses derive from it, with no private key here. */
  accountXpubs?: Partial<Record<NetworkFamily, string>>;
  /** The HD seed (hex) of the test wallet's keys. */
  walletSeedHex: string;
  /** The HD seed (hex) each merchant's payout wallet derives from, at an account of its own: refunds on a node's network leave it. */
  payoutSeedHex: string;
  /**
   * What each merchant's payout wallets may send in any 24 h, in VND (by the VND of each refund); 0 sends nothing from
   * them until the operator sets a cap (docs/operations.md, "Payout wallets").
   */
  payoutDailyCapVnd: number;
  /** The customer's rate is the market rate less this spread, in basis points (a rate rule may set its own). */
  spreadBps: number;
  /** A payment short of what is due by at most this much (basis points) counts as full. */
  toleranceBps: number;
  quoteTtlSeconds: number;
}

/** Each merchant's payouts in any 24 h when PAYOUT_DAILY_CAP_VND is unset: 100 million VND (about 4,000 USD). */
export const DEFAULT_PAYOUT_DAILY_CAP_VND = 100_000_000;

/** The name to print for a listen address: `localhost` for the loopback and for every interface. */
export function urlHost(host: string): string {
  if (isIP(host) === 0) return host;
  if (/^(127\.|::1$|::$|0\.0\.0\.0$)/.test(host)) return 'localhost';
  return isIP(host) === 6 ? `[${host}]` : host;
}

/** A configuration that cannot start: one line per variable, naming it, what was wrong and what is allowed. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(problems.join('\n'));
  }
}

export const SANDBOX_DEFAULTS = {
  clientId: 'sandbox_client',
  clientSecret: 'sandbox_secret_7Hq2vN9xLr4pK8mW3tYz',
  merchantKey: 'sandbox_merchant_key_Qb6sE1uJ5cR0',
} as const;

type Issues = { issues: z.core.$ZodRawIssue[] };
/** A variable read from its text: `read` returns the value, or a string saying what is wrong with `raw`. */
function variable<T>(fallback: T, read: (raw: string) => T | { wrong: string }) {
  return z.pipe(
    z.optional(z.string()),
    z.transform((raw: string | undefined, ctx: Issues) => {
      if (raw === undefined || raw === '') return fallback;
      const value = read(raw);
      if (typeof value === 'object' && value !== null && 'wrong' in value) {
        ctx.issues.push({ code: 'custom', message: value.wrong, input: raw });
        return z.NEVER;
      }
      return value as T;
    }),
  );
}

function whole(fallback: number, min = 0, max = Number.MAX_SAFE_INTEGER) {
  const range = `a whole number from ${min}${max < Number.MAX_SAFE_INTEGER ? ` to ${max}` : ''}`;
  return variable(fallback, (raw) => {
    const value = Number(raw);
    return Number.isInteger(value) && value >= min && value <= max ? value : { wrong: `must be ${range}, got ${raw}` };
  });
}
const oneOf = <const T extends string, F extends T | undefined>(values: readonly T[], fallback: F) =>
  variable<T | F>(fallback, (raw) => ((values as readonly string[]).includes(raw) ? (raw as T) : { wrong: `must be ${values.join(', ')}, got ${raw}` }));
const text = <F extends string | undefined = undefined>(fallback?: F) => variable<string | F>(fallback as F, (raw) => raw);
const webUrl = variable(undefined, (raw) => (/^https?:\/\/[^/?#\s]+/.test(raw) ? raw : { wrong: `must be an absolute http(s) URL, got ${raw}` }));
/** Never echoed: a URL may carry a password. */
const databaseUrl = variable(undefined, (raw) => {
  try {
    parsePostgresUrl(raw);
    return raw;
  } catch (error) {
    return { wrong: `${(error as Error).message} (libpq syntax: postgres://user:password@host:5432,host2:5432/database?target_session_attrs=read-write)` };
  }
});
const hdSeed = variable(DEFAULT_SANDBOX_SEED_HEX, (raw) =>
  /^([0-9a-fA-F]{2}){16,64}$/.test(raw) || /^[xt]prv[1-9A-HJ-NP-Za-km-z]{100,112}$/.test(raw) ? raw : { wrong: 'must be 16 to 64 bytes of hex, or an xprv/tprv (not printed)' },
);
const seedOr = (fallback: string) => variable(fallback, (raw) => (/^([0-9a-fA-F]{2}){16,64}$/.test(raw) ? raw : { wrong: 'must be 16 to 64 bytes of hex (not printed)' }));
const walletSeed = seedOr(SANDBOX_WALLET_SEED_HEX);
/** Whole VND in digits: money is never read as a float, an exponent or hex. */
const vnd = (fallback: number) =>
  variable(fallback, (raw) => (/^\d+$/.test(raw) && Number(raw) <= Number.MAX_SAFE_INTEGER ? Number(raw) : { wrong: `must be a whole number of VND in digits (0 or more), got ${raw}` }));
const accountKey = variable(undefined, (raw) => {
  try {
    accountKeyFrom(raw);
    return raw;
  } catch (error) {
    return { wrong: `${(error as Error).message}` };
  }
});
const previousKeys = variable([] as string[], (raw) => {
  const keys = raw.split(',');
  // `A,,B` or a trailing comma: an entry lost in editing, which a rotation would then miss without a word.
  return keys.some((key) => key === '') ? { wrong: `has an empty entry (${keys.length} entries, ${keys.filter((key) => key === '').length} empty): list each previous key once, separated by commas` } : keys;
});
/** A Bearer token's characters (RFC 6750 b64token), long enough that guessing is hopeless. */
const metricsToken = variable(undefined, (raw) =>
  /^[A-Za-z0-9\-._~+/]{16,}=*$/.test(raw) ? raw : { wrong: 'must be at least 16 characters of A-Z, a-z, 0-9 and -._~+/ (a Bearer token; `openssl rand -hex 32` makes one; not printed)' },
);
const metricsPort = variable<number | undefined>(undefined, (raw) => {
  const value = Number(raw);
  return Number.isInteger(value) && value >= 1 && value <= 65535 ? value : { wrong: `must be a whole number from 1 to 65535, got ${raw}` };
});

/**
 * Every variable of CONFIG_VARIABLES (variables.ts), each and no other, with its default; the networks and rates are
 * read by chains/configuration.ts and rates/configuration.ts.
 */
const ENVIRONMENT = z.object({
  GATEWAY_ENV: oneOf(ENVIRONMENTS, 'sandbox'),
  PORT: whole(4010, 0, 65535),
  HOST: variable('127.0.0.1', (raw) => (isIP(raw) || /^[a-zA-Z0-9.-]+$/.test(raw) ? raw : { wrong: `must be an IP address or a host name, got ${raw}` })),
  DATABASE_URL: databaseUrl,
  DATABASE_CONNECT_TIMEOUT_MS: whole(DEFAULT_DATABASE_LIMITS.connectTimeoutMs, 1),
  DATABASE_STATEMENT_TIMEOUT_MS: whole(DEFAULT_DATABASE_LIMITS.statementTimeoutMs),
  DATABASE_POOL_MAX: whole(DEFAULT_DATABASE_LIMITS.poolMax, 1, 1000),
  PGLITE_DIR: text(),
  ADDRESS_STATE_DIR: text(),
  ADDRESS_RESTORE_MARGIN: whole(100, 0, 1_000_000),
  CHECKOUT_URL: webUrl,
  SANDBOX_CLIENT_ID: text(SANDBOX_DEFAULTS.clientId),
  SANDBOX_CLIENT_SECRET: text(SANDBOX_DEFAULTS.clientSecret),
  SANDBOX_MERCHANT_KEY: text(SANDBOX_DEFAULTS.merchantKey),
  SANDBOX_WEBHOOK_URL: webUrl,
  SANDBOX_ALLOW_LOCAL_WEBHOOKS: oneOf(['1', '0'], '0'),
  SANDBOX_SECRETLESS_SIGN_IN: oneOf(['1', '0'], '0'),
  WEBHOOK_TIMEOUT_MS: whole(10_000),
  GATEWAY_DATA_KEY: text(SANDBOX_DATA_KEY),
  GATEWAY_DATA_KEYS_PREVIOUS: previousKeys,
  SANDBOX_HD_SEED: hdSeed,
  HD_XPUB_TRON: accountKey,
  HD_XPUB_EVM: accountKey,
  HD_XPUB_BITCOIN: accountKey,
  SANDBOX_WALLET_SEED: walletSeed,
  PAYOUT_HD_SEED: seedOr(SANDBOX_PAYOUT_SEED_HEX),
  PAYOUT_DAILY_CAP_VND: vnd(DEFAULT_PAYOUT_DAILY_CAP_VND),
  SANDBOX_SPREAD_BPS: whole(50, 0, 9_999),
  SANDBOX_TOLERANCE_BPS: whole(50),
  SANDBOX_QUOTE_TTL_SECONDS: whole(900),
  REFUND_CLAIM_TTL_SECONDS: whole(604_800, 1),
  IDEMPOTENCY_KEY_TTL_SECONDS: whole(86_400, 1),
  // The events API promises a merchant at least 30 days to catch up after an outage (docs/api.md, "Events").
  EVENTS_RETENTION_DAYS: whole(30, 30, 3650),
  SANDBOX_CHAIN: oneOf(['anvil', 'simulated'], undefined),
  LOG_LEVEL: oneOf(LOG_LEVELS, 'info'),
  LOG_FORMAT: oneOf(['json', 'pretty'], undefined),
  SHUTDOWN_TIMEOUT_MS: whole(10_000),
  SHUTDOWN_DELAY_MS: whole(1_000),
  METRICS_TOKEN: metricsToken,
  METRICS_PORT: metricsPort,
  ...(Object.fromEntries(Object.values(LIMIT_VARIABLES).map(([name, fallback]) => [name, whole(fallback, 1)])) as Record<LimitVariable, ReturnType<typeof whole>>),
} satisfies Record<ConfigVariable, z.ZodMiniType>);

/** The configuration of `env`, or a ConfigError naming every variable that is wrong. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): GatewayConfig {
  const problems: string[] = [];
  const parsed = ENVIRONMENT.safeParse(env);
  if (!parsed.success) for (const issue of parsed.error.issues) problems.push(`${String(issue.path[0])} ${issue.message}`);
  let networks: NetworkSpec[] = [];
  let rates: RateSettings = { sources: [], assets: {}, pairs: {} };
  try {
    const taken = networksTaken(networksFrom(env), env.NETWORKS);
    networks = taken.networks;
    problems.push(...taken.problems);
    rates = ratesFrom(env, networks, parsed.success ? parsed.data.SANDBOX_SPREAD_BPS : 0);
  } catch (error) {
    problems.push((error as Error).message);
  }
  if (env.GATEWAY_ENV === 'live') problems.push(...liveRefusals(env, networks), ...variablesUnknown(env, networks).map(unknownVariableLine));
  else problems.push(...sandboxCredentialRefusals(env));
  if (parsed.success && parsed.data.METRICS_PORT !== undefined && parsed.data.METRICS_PORT === parsed.data.PORT) {
    problems.push(`METRICS_PORT must differ from PORT (both ${parsed.data.PORT}): it is a listener of its own, so that /metrics can be kept off the port customers reach`);
  }
  if (parsed.success && parsed.data.SHUTDOWN_DELAY_MS > parsed.data.SHUTDOWN_TIMEOUT_MS) {
    problems.push(`SHUTDOWN_DELAY_MS (${parsed.data.SHUTDOWN_DELAY_MS}) must not exceed SHUTDOWN_TIMEOUT_MS (${parsed.data.SHUTDOWN_TIMEOUT_MS}): the stop would always run out of time while still answering`);
  }
  if (!parsed.success || problems.length) throw new ConfigError(problems);
  const v = parsed.data;
  const xpubs: Partial<Record<NetworkFamily, string>> = Object.fromEntries(NETWORK_FAMILIES.map((family) => [family, v[xpubVariable(family)]]));
  return {
    environment: v.GATEWAY_ENV,
    port: v.PORT,
    host: v.HOST,
    databaseUrl: v.DATABASE_URL,
    databaseLimits: { connectTimeoutMs: v.DATABASE_CONNECT_TIMEOUT_MS, statementTimeoutMs: v.DATABASE_STATEMENT_TIMEOUT_MS, poolMax: v.DATABASE_POOL_MAX },
    dataDir: v.PGLITE_DIR,
    addresses: { restoreMargin: v.ADDRESS_RESTORE_MARGIN, stateDir: v.ADDRESS_STATE_DIR },
    checkoutUrl: v.CHECKOUT_URL ?? `http://localhost:${v.PORT}/checkout`,
    sandboxMerchant: { name: 'Sandbox Merchant', clientId: v.SANDBOX_CLIENT_ID, clientSecret: v.SANDBOX_CLIENT_SECRET, merchantKey: v.SANDBOX_MERCHANT_KEY },
    sandboxWebhookUrl: v.SANDBOX_WEBHOOK_URL,
    allowLocalWebhooks: v.SANDBOX_ALLOW_LOCAL_WEBHOOKS === '1',
    secretlessSignIn: v.SANDBOX_SECRETLESS_SIGN_IN === '1',
    webhookTimeoutMs: v.WEBHOOK_TIMEOUT_MS,
    dataKey: v.GATEWAY_DATA_KEY,
    previousDataKeys: v.GATEWAY_DATA_KEYS_PREVIOUS,
    tokenTtlSeconds: 3600,
    refundClaimTtlSeconds: v.REFUND_CLAIM_TTL_SECONDS,
    idempotencyKeyTtlSeconds: v.IDEMPOTENCY_KEY_TTL_SECONDS,
    eventsRetentionDays: v.EVENTS_RETENTION_DAYS,
    payments: {
      hdSeedHex: v.SANDBOX_HD_SEED,
      accountXpubs: Object.fromEntries(Object.entries(xpubs).filter(([, key]) => key)),
      walletSeedHex: v.SANDBOX_WALLET_SEED,
      payoutSeedHex: v.PAYOUT_HD_SEED,
      payoutDailyCapVnd: v.PAYOUT_DAILY_CAP_VND,
      spreadBps: v.SANDBOX_SPREAD_BPS,
      toleranceBps: v.SANDBOX_TOLERANCE_BPS,
      quoteTtlSeconds: v.SANDBOX_QUOTE_TTL_SECONDS,
    },
    networks,
    rates,
    sandboxChain: v.SANDBOX_CHAIN === 'anvil' ? 'anvil' : undefined,
    log: { level: v.LOG_LEVEL, format: v.LOG_FORMAT },
    shutdown: { timeoutMs: v.SHUTDOWN_TIMEOUT_MS, delayMs: v.SHUTDOWN_DELAY_MS },
    limits: Object.fromEntries(Object.entries(LIMIT_VARIABLES).map(([key, [name]]) => [key, (v as Record<string, unknown>)[name]])) as unknown as LimitSettings,
    metrics: { token: v.METRICS_TOKEN, port: v.METRICS_PORT },
  };
}

/** What the operator's merchants command works on: the gateway's own database and data key, in its environment. */
export type StoreConfig = Pick<GatewayConfig, 'environment' | 'databaseUrl' | 'dataDir' | 'databaseLimits' | 'dataKey' | 'previousDataKeys'>;

const STORE_ENVIRONMENT = z.pick(ENVIRONMENT, {
  GATEWAY_ENV: true,
  DATABASE_URL: true,
  DATABASE_CONNECT_TIMEOUT_MS: true,
  DATABASE_STATEMENT_TIMEOUT_MS: true,
  DATABASE_POOL_MAX: true,
  PGLITE_DIR: true,
  GATEWAY_DATA_KEY: true,
  GATEWAY_DATA_KEYS_PREVIOUS: true,
});

/**
 * The database and data key of `env`, read as the gateway reads them (src/sandbox/merchants-command.ts), or a
 * ConfigError naming every variable that is wrong. A database must be named: a gateway without one keeps it in memory.
 */
export function loadStoreConfig(env: NodeJS.ProcessEnv = process.env): StoreConfig {
  const problems: string[] = [];
  const parsed = STORE_ENVIRONMENT.safeParse(env);
  if (!parsed.success) for (const issue of parsed.error.issues) problems.push(`${String(issue.path[0])} ${issue.message}`);
  if (!env.DATABASE_URL && !env.PGLITE_DIR) {
    problems.push("DATABASE_URL or PGLITE_DIR must name the gateway's database (a gateway with neither keeps its database in memory, where no other process reaches it)");
  }
  // The gateway's check of its variables (DATABSE_URL beside a PGLITE_DIR would add the merchants to the folder):
  // refused in live, and the command warns of them in the sandbox.
  if (env.GATEWAY_ENV === 'live') problems.push(...liveDataKeyRefusals(env), ...variablesUnknown(env).map(unknownVariableLine));
  if (!parsed.success || problems.length) throw new ConfigError(problems);
  const v = parsed.data;
  return {
    environment: v.GATEWAY_ENV,
    databaseUrl: v.DATABASE_URL,
    dataDir: v.PGLITE_DIR,
    databaseLimits: { connectTimeoutMs: v.DATABASE_CONNECT_TIMEOUT_MS, statementTimeoutMs: v.DATABASE_STATEMENT_TIMEOUT_MS, poolMax: v.DATABASE_POOL_MAX },
    dataKey: v.GATEWAY_DATA_KEY,
    previousDataKeys: v.GATEWAY_DATA_KEYS_PREVIOUS,
  };
}

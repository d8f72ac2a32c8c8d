// Every environment variable the gateway reads, in one list: config.ts, chains/configuration.ts and
// rates/configuration.ts read them by these names only (their types allow no other), and the start checks the
// environment against it, so that a misspelled name (`DATABSE_URL`) is never ignored without a word
// (docs/operations.md, "Configure").
import type { NetworkFamily } from '../codecs/addresses.js';

/** Read by config.ts (its ENVIRONMENT declares each one, and no other). */
export const CONFIG_VARIABLES = [
  'GATEWAY_ENV', 'PORT', 'HOST',
  'DATABASE_URL', 'DATABASE_CONNECT_TIMEOUT_MS', 'DATABASE_STATEMENT_TIMEOUT_MS', 'DATABASE_POOL_MAX', 'PGLITE_DIR',
  'ADDRESS_STATE_DIR', 'ADDRESS_RESTORE_MARGIN', 'CHECKOUT_URL',
  'SANDBOX_CLIENT_ID', 'SANDBOX_CLIENT_SECRET', 'SANDBOX_MERCHANT_KEY', 'SANDBOX_WEBHOOK_URL', 'SANDBOX_ALLOW_LOCAL_WEBHOOKS', 'SANDBOX_SECRETLESS_SIGN_IN',
  'WEBHOOK_TIMEOUT_MS', 'GATEWAY_DATA_KEY', 'GATEWAY_DATA_KEYS_PREVIOUS',
  'SANDBOX_HD_SEED', 'HD_XPUB_TRON', 'HD_XPUB_EVM', 'HD_XPUB_BITCOIN', 'SANDBOX_WALLET_SEED', 'PAYOUT_HD_SEED', 'PAYOUT_DAILY_CAP_VND',
  'SANDBOX_SPREAD_BPS', 'SANDBOX_TOLERANCE_BPS', 'SANDBOX_QUOTE_TTL_SECONDS', 'REFUND_CLAIM_TTL_SECONDS', 'IDEMPOTENCY_KEY_TTL_SECONDS',
  'EVENTS_RETENTION_DAYS', 'SANDBOX_CHAIN', 'LOG_LEVEL', 'LOG_FORMAT', 'SHUTDOWN_TIMEOUT_MS', 'SHUTDOWN_DELAY_MS', 'METRICS_TOKEN', 'METRICS_PORT',
  'LIMIT_PAYMENTS_PER_LINK', 'LIMIT_OPENS_PER_LINK_PER_MINUTE', 'LIMIT_OPENS_PER_CLIENT_PER_MINUTE', 'LIMIT_STREAMS_PER_CLIENT', 'LIMIT_STREAMS_PER_LINK',
  'LIMIT_STREAMS', 'LIMIT_WEBHOOK_ENDPOINTS_PER_MERCHANT', 'LIMIT_WEBHOOK_ENDPOINT_ADDS_PER_MERCHANT_PER_MINUTE', 'LIMIT_FAILED_SECRETS_PER_CLIENT_ID',
  'LIMIT_FAILED_SECRETS_PER_ADDRESS', 'LIMIT_FAILED_SECRET_WINDOW_SECONDS', 'LIMIT_SIGN_INS_PER_MERCHANT_PER_MINUTE',
] as const;

/** Read by chains/configuration.ts. */
export const CHAIN_VARIABLES = [
  'NETWORKS', 'SANDBOX_BLOCK_INTERVAL_MS', 'EVM_NETWORKS', 'WITHDRAWAL_FEES',
  'ETHEREUM_RPC_URL', 'ETHEREUM_CHAIN_ID', 'ETHEREUM_USDT_CONTRACT', 'ETHEREUM_USDT_DECIMALS', 'ETHEREUM_CONFIRMATIONS',
  'ETHEREUM_POLL_MS', 'ETHEREUM_WALLET_RPC_URL', 'ETHEREUM_TIMEOUT_MS', 'ETHEREUM_FINALITY_BLOCKS',
  'TRON_RPC_URL', 'TRON_API_URL', 'TRON_API_KEY', 'TRON_USDT_CONTRACT', 'TRON_CHAIN_ID', 'TRON_CONFIRMATIONS', 'TRON_POLL_MS', 'TRON_TIMEOUT_MS',
  'TRON_FINALITY_BLOCKS', 'TRON_STALL_MS', 'TRON_CROSSCHECK_MS',
] as const;

/** Read by rates/configuration.ts, beside one SANDBOX_RATE_<ASSET> for each asset a network takes. */
export const RATE_VARIABLES = ['RATE_SOURCES'] as const;
export const RATE_VARIABLE_PREFIX = 'SANDBOX_RATE_';

export type ConfigVariable = (typeof CONFIG_VARIABLES)[number];
export type ChainVariable = (typeof CHAIN_VARIABLES)[number];
export type RateVariable = (typeof RATE_VARIABLES)[number];
/** An environment that names only the variables `Name`: reading any other is a type error. */
/** The variable of each family's account key (the sandbox merchant's), `HD_XPUB_EVM`: its addresses derive from it, with no private key here. */
export const xpubVariable = (family: NetworkFamily) => `HD_XPUB_${family.toUpperCase() as Uppercase<NetworkFamily>}` as const;

export type EnvOf<Name extends string> = { readonly [name in Name]?: string };
export type RateEnv = EnvOf<RateVariable> & { readonly [name: `${typeof RATE_VARIABLE_PREFIX}${string}`]: string | undefined };

export const KNOWN_VARIABLES: readonly string[] = [...CONFIG_VARIABLES, ...CHAIN_VARIABLES, ...RATE_VARIABLES];

/**
 * The gateway's prefixes: each known name's first word. LOG_ is left out: LOG_LEVEL is a name other software reads too,
 * and a LOG_FILE of another tool's is no misspelling of ours.
 */
export const VARIABLE_PREFIXES: readonly string[] = [...new Set([...KNOWN_VARIABLES, RATE_VARIABLE_PREFIX].filter((name) => name.includes('_')).map((name) => name.slice(0, name.indexOf('_') + 1)))].filter(
  (prefix) => prefix !== 'LOG_',
);

export interface UnknownVariable {
  name: string;
  /** The known name it is closest to, by edits. */
  nearest: string;
}

/**
 * The variables of `env` that look like the gateway's and are none of its names: one with a gateway prefix, or any one
 * within two edits of a known name (one edit for a name of 4 to 7 letters, so that HOME is not HOST's misspelling).
 * Names are compared in upper case: `database_url` is no variable of the gateway's either.
 */
export function unknownVariables(env: Readonly<Record<string, string | undefined>>, assets: readonly string[]): UnknownVariable[] {
  const known = [...KNOWN_VARIABLES, ...assets.map((asset) => `${RATE_VARIABLE_PREFIX}${asset}`)];
  const found: UnknownVariable[] = [];
  for (const name of Object.keys(env)) {
    if (known.includes(name)) continue;
    const upper = name.toUpperCase();
    const [nearest, edits] = known.map((candidate) => [candidate, editDistance(upper, candidate)] as const).reduce((best, next) => (next[1] < best[1] ? next : best));
    if (VARIABLE_PREFIXES.some((prefix) => upper.startsWith(prefix)) || edits <= Math.min(2, Math.floor(nearest.length / 4))) found.push({ name, nearest });
  }
  return found;
}

/** Levenshtein distance (insertions, deletions, substitutions), two rows at a time; names are short. */
export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    previous = current;
  }
  return previous[b.length]!;
}

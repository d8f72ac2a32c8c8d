// Configuration by environment (DESIGN.md section 6). The sandbox defaults are public on purpose:
// they are printed at start and written in the README, so a tester can use them at once.
import { isIP } from 'node:net';
import type { Network } from '../contract/index.js';
import { DEFAULT_SANDBOX_SEED_HEX } from './chain/addresses.js';

export interface MerchantCredentials {
  name: string;
  clientId: string;
  clientSecret: string;
  merchantKey: string;
}

export interface GatewayConfig {
  port: number;
  /** The address to listen on: loopback by default, so only this machine reaches the gateway and the portal. */
  host: string;
  /** PostgreSQL server; PGlite when absent. */
  databaseUrl?: string;
  /** PGlite data folder; in memory when absent. */
  dataDir?: string;
  /** Public address of the hosted checkout page; `payment_link` = `{checkoutUrl}?ref=...`. */
  checkoutUrl: string;
  sandboxMerchant: MerchantCredentials;
  /** A webhook endpoint the sandbox merchant gets at start (more can be added through the API or the portal). */
  sandboxWebhookUrl?: string;
  /** Webhook endpoints on the loopback host (`http:` included) are taken: set for the demo's own receiver. */
  allowLocalWebhooks: boolean;
  webhookTimeoutMs: number;
  /** Key that seals stored client secrets. */
  dataKey: string;
  tokenTtlSeconds: number;
  payments: PaymentSettings;
}

export interface NetworkSettings {
  confirmations: number;
  /** A block comes this often on its own; 0: only when mined on demand (tests). */
  blockIntervalMs: number;
}

export interface PaymentSettings {
  /** Seed of the HD key that one-time addresses derive from (hex). Public default: sandbox only. */
  hdSeedHex: string;
  /** Seed of the test wallet's keys (hex). */
  walletSeedHex: string;
  /** Market rates in VND per unit, as decimal strings. */
  rates: Record<'USDT' | 'ETH' | 'BTC', string>;
  /** The customer's rate is the market rate less this spread, in basis points. */
  spreadBps: number;
  /** A payment short of what is due by at most this much (basis points) counts as full. */
  toleranceBps: number;
  quoteTtlSeconds: number;
  networks: Record<Network, NetworkSettings>;
}

/** The test wallet's seed: public, like every sandbox default. */
export const SANDBOX_WALLET_SEED_HEX = '7061792d636865636b6f75742073616e64626f782074657374207761606c6574';

/** The name to print for a listen address: `localhost` for the loopback and for every interface. */
export function urlHost(host: string): string {
  if (isIP(host) === 0) return host;
  if (/^(127\.|::1$|::$|0\.0\.0\.0$)/.test(host)) return 'localhost';
  return isIP(host) === 6 ? `[${host}]` : host;
}

function intFrom(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) throw new Error(`${name} must be a whole number, got ${raw}`);
  return value;
}

function flagFrom(env: NodeJS.ProcessEnv, name: string): boolean {
  const raw = env[name] ?? '';
  if (raw !== '' && raw !== '0' && raw !== '1') throw new Error(`${name} must be 1 or 0, got ${raw}`);
  return raw === '1';
}

export const SANDBOX_DEFAULTS = {
  clientId: 'sandbox_client',
  clientSecret: 'sandbox_secret_7Hq2vN9xLr4pK8mW3tYz',
  merchantKey: 'sandbox_merchant_key_Qb6sE1uJ5cR0',
} as const;

export function loadConfig(env: NodeJS.ProcessEnv = process.env): GatewayConfig {
  // One interval for every network's blocks when set (0: blocks only when mined on demand).
  const blockInterval = (fallback: number) => intFrom(env, 'SANDBOX_BLOCK_INTERVAL_MS', fallback);
  const port = Number(env.PORT ?? 4010);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`PORT must be a port number, got ${env.PORT}`);
  return {
    port,
    host: env.HOST || '127.0.0.1',
    databaseUrl: env.DATABASE_URL || undefined,
    dataDir: env.PGLITE_DIR || undefined,
    checkoutUrl: env.CHECKOUT_URL || `http://localhost:${port}/checkout`,
    sandboxMerchant: {
      name: 'Sandbox Merchant',
      clientId: env.SANDBOX_CLIENT_ID || SANDBOX_DEFAULTS.clientId,
      clientSecret: env.SANDBOX_CLIENT_SECRET || SANDBOX_DEFAULTS.clientSecret,
      merchantKey: env.SANDBOX_MERCHANT_KEY || SANDBOX_DEFAULTS.merchantKey,
    },
    sandboxWebhookUrl: env.SANDBOX_WEBHOOK_URL || undefined,
    allowLocalWebhooks: flagFrom(env, 'SANDBOX_ALLOW_LOCAL_WEBHOOKS'),
    webhookTimeoutMs: intFrom(env, 'WEBHOOK_TIMEOUT_MS', 10_000),
    dataKey: env.GATEWAY_DATA_KEY || 'pay-checkout sandbox data key',
    tokenTtlSeconds: 3600,
    payments: {
      hdSeedHex: env.SANDBOX_HD_SEED || DEFAULT_SANDBOX_SEED_HEX,
      walletSeedHex: env.SANDBOX_WALLET_SEED || SANDBOX_WALLET_SEED_HEX,
      rates: {
        USDT: env.SANDBOX_RATE_USDT || '26350',
        ETH: env.SANDBOX_RATE_ETH || '92000000',
        BTC: env.SANDBOX_RATE_BTC || '2600000000',
      },
      spreadBps: intFrom(env, 'SANDBOX_SPREAD_BPS', 50),
      toleranceBps: intFrom(env, 'SANDBOX_TOLERANCE_BPS', 50),
      quoteTtlSeconds: intFrom(env, 'SANDBOX_QUOTE_TTL_SECONDS', 900),
      networks: {
        TRON: { confirmations: 3, blockIntervalMs: blockInterval(3_000) },
        ETHEREUM: { confirmations: 3, blockIntervalMs: blockInterval(6_000) },
        BITCOIN: { confirmations: 2, blockIntervalMs: blockInterval(10_000) },
      },
    },
  };
}

// Configuration by environment (README, "Configuration"). The sandbox defaults are public on purpose:
// they are printed at start and written in the README, so a tester can use them at once.
import { isIP } from 'node:net';
import type { AssetCode } from '../contract/index.js';
import { DEFAULT_SANDBOX_SEED_HEX } from '../codecs/addresses.js';
import { networksFrom, type NetworkSpec } from './chains/configuration.js';

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
  /** How long a refund's claim link stays open for the customer to give an address. */
  refundClaimTtlSeconds: number;
  payments: PaymentSettings;
  /** The networks payments are taken on, and where each one's facts come from (chains/configuration.ts). */
  networks: NetworkSpec[];
  /** `anvil`: the gateway's start runs a development node and puts Ethereum on it (chains/evm/dev-chain.ts). */
  sandboxChain?: 'anvil';
}

export interface PaymentSettings {
  /** The HD seed (hex) of the key one-time addresses derive from. Public default: sandbox only. */
  hdSeedHex: string;
  /** The HD seed (hex) of the test wallet's keys. */
  walletSeedHex: string;
  /** Market rates in VND per unit, as decimal strings, by asset. */
  rates: Record<AssetCode, string>;
  /** The customer's rate is the market rate less this spread, in basis points. */
  spreadBps: number;
  /** A payment short of what is due by at most this much (basis points) counts as full. */
  toleranceBps: number;
  quoteTtlSeconds: number;
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
  const networks = networksFrom(env);
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
    refundClaimTtlSeconds: intFrom(env, 'REFUND_CLAIM_TTL_SECONDS', 604_800),
    payments: {
      hdSeedHex: env.SANDBOX_HD_SEED || DEFAULT_SANDBOX_SEED_HEX,
      walletSeedHex: env.SANDBOX_WALLET_SEED || SANDBOX_WALLET_SEED_HEX,
      rates: ratesFrom(env, networks),
      spreadBps: intFrom(env, 'SANDBOX_SPREAD_BPS', 50),
      toleranceBps: intFrom(env, 'SANDBOX_TOLERANCE_BPS', 50),
      quoteTtlSeconds: intFrom(env, 'SANDBOX_QUOTE_TTL_SECONDS', 900),
    },
    networks,
    sandboxChain: sandboxChainFrom(env),
  };
}

/** The sandbox's market rates in VND per unit. */
const DEFAULT_RATES: Record<AssetCode, string> = { USDT: '26350', ETH: '92000000', BTC: '2600000000' };

/** A rate for every configured asset: SANDBOX_RATE_<ASSET>, else the network file's `rate_vnd`, else the sandbox's. */
function ratesFrom(env: NodeJS.ProcessEnv, networks: readonly NetworkSpec[]): Record<AssetCode, string> {
  const rates: Record<AssetCode, string> = {};
  for (const asset of networks.flatMap((n) => n.assets)) {
    const rate = env[`SANDBOX_RATE_${asset.asset}`] || rates[asset.asset] || asset.rate_vnd || DEFAULT_RATES[asset.asset];
    if (!rate) throw new Error(`${asset.asset} has no rate: set SANDBOX_RATE_${asset.asset} (VND per ${asset.asset}) or its rate_vnd in EVM_NETWORKS`);
    if (!/^\d+(\.\d+)?$/.test(rate) || /^0+(\.0+)?$/.test(rate)) throw new Error(`SANDBOX_RATE_${asset.asset} must be a positive decimal number of VND, got ${rate}`);
    rates[asset.asset] = rate;
  }
  return rates;
}

function sandboxChainFrom(env: NodeJS.ProcessEnv): 'anvil' | undefined {
  const raw = env.SANDBOX_CHAIN ?? '';
  if (raw === '' || raw === 'simulated') return undefined;
  if (raw === 'anvil') return 'anvil';
  throw new Error(`SANDBOX_CHAIN must be anvil (a development node for Ethereum) or simulated, got ${raw}`);
}

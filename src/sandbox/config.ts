// Configuration by environment (DESIGN.md section 6). The sandbox defaults are public on purpose:
// they are printed at start and written in the README, so a tester can use them at once.

export interface MerchantCredentials {
  name: string;
  clientId: string;
  clientSecret: string;
  merchantKey: string;
}

export interface GatewayConfig {
  port: number;
  /** PostgreSQL server; PGlite when absent. */
  databaseUrl?: string;
  /** PGlite data folder; in memory when absent. */
  dataDir?: string;
  /** Public address of the hosted checkout page; `payment_link` = `{checkoutUrl}?ref=...`. */
  checkoutUrl: string;
  sandboxMerchant: MerchantCredentials;
  /** Key that seals stored client secrets. */
  dataKey: string;
  tokenTtlSeconds: number;
}

export const SANDBOX_DEFAULTS = {
  clientId: 'sandbox_client',
  clientSecret: 'sandbox_secret_7Hq2vN9xLr4pK8mW3tYz',
  merchantKey: 'sandbox_merchant_key_Qb6sE1uJ5cR0',
} as const;

export function loadConfig(env: NodeJS.ProcessEnv = process.env): GatewayConfig {
  const port = Number(env.PORT ?? 4010);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`PORT must be a port number, got ${env.PORT}`);
  return {
    port,
    databaseUrl: env.DATABASE_URL || undefined,
    dataDir: env.PGLITE_DIR || undefined,
    checkoutUrl: env.CHECKOUT_URL || `http://localhost:${port}/checkout`,
    sandboxMerchant: {
      name: 'Sandbox Merchant',
      clientId: env.SANDBOX_CLIENT_ID || SANDBOX_DEFAULTS.clientId,
      clientSecret: env.SANDBOX_CLIENT_SECRET || SANDBOX_DEFAULTS.clientSecret,
      merchantKey: env.SANDBOX_MERCHANT_KEY || SANDBOX_DEFAULTS.merchantKey,
    },
    dataKey: env.GATEWAY_DATA_KEY || 'pay-checkout sandbox data key',
    tokenTtlSeconds: 3600,
  };
}

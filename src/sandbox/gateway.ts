// The sandbox gateway: the seed's merchant API on Hono, over the storage of openDatabase().
import { randomBytes } from 'node:crypto';
import { serve, type ServerType } from '@hono/node-server';
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { HTTPException } from 'hono/http-exception';
import { systemClock, type Clock } from './clock.js';
import type { GatewayConfig } from './config.js';
import { ProblemError, problemResponse } from './http/problem.js';
import { oauthRoutes } from './routes/oauth.js';
import { paymentLinkRoutes } from './routes/payment-links.js';
import { refundRoutes } from './routes/refunds.js';
import { createSealer } from './secrets.js';
import { Merchants, type Merchant } from './services/merchants.js';
import { PaymentLinks } from './services/payment-links.js';
import { Refunds, type RefundSender } from './services/refunds.js';
import { Tokens } from './services/tokens.js';
import { openDatabase, type Database } from './storage/database.js';

export interface Gateway {
  config: GatewayConfig;
  db: Database;
  clock: Clock;
  merchants: Merchants;
  tokens: Tokens;
  paymentLinks: PaymentLinks;
  refunds: Refunds;
  sandboxMerchant: Merchant;
}

export interface GatewayOptions {
  clock?: Clock;
  /** PostgreSQL schema to work in; tests give each file its own. */
  schema?: string;
}

// Until the simulated chain carries refunds, a sandbox refund succeeds at once with a processor id.
const instantRefunds: RefundSender = {
  send: async () => ({ refund_status: 'SUCCESS', psp_refund_id: `0x${randomBytes(32).toString('hex')}` }),
};

export async function createGateway(config: GatewayConfig, options: GatewayOptions = {}): Promise<Gateway> {
  const clock = options.clock ?? systemClock;
  const db = await openDatabase({ url: config.databaseUrl, dataDir: config.dataDir, schema: options.schema });
  const merchants = new Merchants(db, createSealer(config.dataKey));
  return {
    config,
    db,
    clock,
    merchants,
    tokens: new Tokens(db, clock, config.tokenTtlSeconds),
    paymentLinks: new PaymentLinks(db, clock, config.checkoutUrl),
    refunds: new Refunds(db, clock, instantRefunds),
    sandboxMerchant: await merchants.upsert(config.sandboxMerchant),
  };
}

export function createApp(gateway: Gateway): Hono {
  const app = new Hono();
  app.use(
    bodyLimit({
      maxSize: 256 * 1024,
      onError: (c) => problemResponse(c, new ProblemError(413, 'The body must be at most 256 KiB.')),
    }),
  );
  app.route('/api/v2/oauth', oauthRoutes(gateway));
  app.route('/api/paymentLink', paymentLinkRoutes(gateway));
  app.route('/api/refund', refundRoutes(gateway));
  app.notFound((c) => problemResponse(c, new ProblemError(404, `No route for ${c.req.method} ${c.req.path}.`)));
  app.onError((error, c) => {
    if (error instanceof ProblemError) return problemResponse(c, error);
    if (error instanceof HTTPException && error.status < 500) return problemResponse(c, new ProblemError(error.status, error.message));
    console.error(error);
    return problemResponse(c, new ProblemError(500, 'The gateway failed to handle this request.'));
  });
  return app;
}

export interface RunningGateway {
  gateway: Gateway;
  url: string;
  close(): Promise<void>;
}

/** Starts the gateway on `config.port` (0: any free port) and resolves once it listens. */
export async function startGateway(config: GatewayConfig, options: GatewayOptions = {}): Promise<RunningGateway> {
  const gateway = await createGateway(config, options);
  const app = createApp(gateway);
  const server = await new Promise<ServerType>((resolve) => {
    const s = serve({ fetch: app.fetch, port: config.port, hostname: '127.0.0.1' }, () => resolve(s));
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  return {
    gateway,
    url: `http://localhost:${port}`,
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await gateway.db.close();
    },
  };
}

// The sandbox gateway: the seed's merchant API on Hono, over the storage of openDatabase().
import type { Server } from 'node:http';
import { serve, type Http2Bindings, type HttpBindings } from '@hono/node-server';
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { HTTPException } from 'hono/http-exception';
import { systemClock, type Clock } from './clock.js';
import { urlHost, type GatewayConfig } from './config.js';
import { answerClientErrors } from './http/client-errors.js';
import { ProblemError, problemResponse } from './http/problem.js';
import { sandboxRootKey } from './chain/addresses.js';
import { assetRoutes } from './routes/assets.js';
import { checkoutRoutes } from './routes/checkout.js';
import { oauthRoutes } from './routes/oauth.js';
import { openApiRoutes } from './routes/openapi.js';
import { paymentLinkRoutes } from './routes/payment-links.js';
import { refundRoutes } from './routes/refunds.js';
import { sandboxRoutes } from './routes/sandbox.js';
import { webhookRoutes } from './routes/webhooks.js';
import { paymentRoutes } from './routes/payments.js';
import { createSealer } from './secrets.js';
import { Chain } from './services/chain.js';
import { chainRefunds } from './services/chain-refunds.js';
import { Checkout } from './services/checkout.js';
import { HeldFunds } from './services/held-funds.js';
import { Merchants, type Merchant } from './services/merchants.js';
import { PaymentEvents } from './services/payment-events.js';
import { PaymentView } from './services/payment-view.js';
import { PaymentLinks } from './services/payment-links.js';
import { LinkResources } from './services/link-resources.js';
import { Reconciler } from './services/reconciler.js';
import { Refunds } from './services/refunds.js';
import { SandboxControls } from './services/sandbox-controls.js';
import { Tokens } from './services/tokens.js';
import { TestWallet } from './services/wallet.js';
import { Watcher } from './services/watcher.js';
import { Webhooks } from './services/webhooks.js';
import { WebhookTargets, type Resolve } from './services/webhook-targets.js';
import { openDatabase, type Database } from './storage/database.js';

export interface Gateway {
  config: GatewayConfig;
  db: Database;
  clock: Clock;
  merchants: Merchants;
  tokens: Tokens;
  paymentLinks: PaymentLinks;
  refunds: Refunds;
  checkout: Checkout;
  heldFunds: HeldFunds;
  sandboxControls: SandboxControls;
  paymentEvents: PaymentEvents;
  chain: Chain;
  watcher: Watcher;
  wallet: TestWallet;
  linkResources: LinkResources;
  webhooks: Webhooks;
  sandboxMerchant: Merchant;
  close(): Promise<void>;
}

export interface GatewayOptions {
  clock?: Clock;
  /** PostgreSQL schema to work in; tests give each file its own. */
  schema?: string;
  /** Run the timers (blocks, expiries, webhook deliveries on their own). Tests turn them off and drive each step. */
  watch?: boolean;
  /** How webhook hosts resolve (the system's DNS when absent); tests give names of their own. */
  resolve?: Resolve;
}

export async function createGateway(config: GatewayConfig, options: GatewayOptions = {}): Promise<Gateway> {
  const clock = options.clock ?? systemClock;
  const db = await openDatabase({ url: config.databaseUrl, dataDir: config.dataDir, schema: options.schema });
  const sealer = createSealer(config.dataKey);
  const merchants = new Merchants(db, sealer);
  const chain = new Chain(db, clock);
  const paymentEvents = new PaymentEvents(db, clock);
  // Webhook bodies carry the link as the read API shows it, which needs the services built after them.
  const targets = new WebhookTargets(config.allowLocalWebhooks, options.resolve);
  const webhooks: Webhooks = new Webhooks(db, clock, sealer, (sql, merchantId, ref) => linkResources.get(sql, merchantId, ref), targets, config.webhookTimeoutMs);
  const view = new PaymentView((sql, merchantId) => merchants.clientSecret(sql, merchantId));
  const reconciler = new Reconciler(clock, config.payments.toleranceBps, view, paymentEvents, webhooks);
  const heldFunds = new HeldFunds(clock, reconciler);
  const refunds = new Refunds(db, clock, reconciler, heldFunds, chainRefunds(chain), webhooks);
  const linkResources = new LinkResources(reconciler, view, refunds, config.checkoutUrl);
  const watcher = new Watcher(db, clock, chain, reconciler, config.payments);
  const wallet = new TestWallet(db, chain, watcher, config.payments.walletSeedHex);
  const sandboxMerchant = await merchants.upsert(config.sandboxMerchant);
  if (config.sandboxWebhookUrl) await webhooks.ensureEndpoint(sandboxMerchant.merchant_id, config.sandboxWebhookUrl);
  await paymentEvents.start();
  if ((await wallet.balances()).every((b) => b.balance === '0')) await wallet.faucet();
  if (options.watch ?? true) {
    await watcher.start();
    await webhooks.start();
  }
  return {
    config,
    db,
    clock,
    merchants,
    tokens: new Tokens(db, clock, config.tokenTtlSeconds),
    paymentLinks: new PaymentLinks(db, clock, config.checkoutUrl, heldFunds),
    refunds,
    checkout: new Checkout(db, clock, config.payments, sandboxRootKey(config.payments.hdSeedHex), reconciler, view),
    heldFunds,
    sandboxControls: new SandboxControls(db, clock, reconciler, view),
    linkResources,
    webhooks,
    paymentEvents,
    chain,
    watcher,
    wallet,
    sandboxMerchant,
    async close() {
      await watcher.stop();
      await webhooks.stop();
      await paymentEvents.stop();
      await db.close();
    },
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
  // A NUL in the path or query can match no resource, and PostgreSQL refuses it in text: say so before any SQL.
  app.use(async (c, next) => {
    if (/%00/.test(c.req.url)) throw new ProblemError(400, 'The URL must not contain NUL characters (%00).');
    await next();
  });
  app.route('/api/v2/oauth', oauthRoutes(gateway));
  app.route('/api/paymentLink', paymentLinkRoutes(gateway));
  app.route('/api/refund', refundRoutes(gateway));
  app.route('/api/checkout', checkoutRoutes(gateway));
  app.route('/api/payments', paymentRoutes(gateway));
  app.route('/api/webhooks', webhookRoutes(gateway));
  app.route('/sandbox', sandboxRoutes(gateway));
  app.route('/', assetRoutes());
  app.route('/', openApiRoutes());
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

export interface StartOptions extends GatewayOptions {
  /** Adds routes beside the gateway's own on the same port (the demo); `app.fetch` reaches the gateway in process. */
  mount?: (app: Hono, gateway: Gateway) => void;
}

/** How long a stopping gateway lets requests under way finish before it closes the database under them. */
const DRAIN_MS = 5_000;

/** Starts the gateway on `config.port` (0: any free port) and resolves once it listens. */
export async function startGateway(config: GatewayConfig, options: StartOptions = {}): Promise<RunningGateway> {
  const gateway = await createGateway(config, options);
  const app = createApp(gateway);
  options.mount?.(app, gateway);
  // Requests not yet answered in full; an event stream counts only until its response starts.
  let underWay = 0;
  let drained: (() => void) | undefined;
  const fetch = async (request: Request, env: HttpBindings | Http2Bindings) => {
    underWay++;
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      if (--underWay === 0) drained?.();
    };
    try {
      const response = await app.fetch(request, env);
      // The answer is written after this returns: the request is over when the socket has it all (or is gone).
      if (response.headers.get('content-type')?.startsWith('text/event-stream')) finish();
      else env.outgoing.once('close', finish);
      return response;
    } catch (error) {
      finish();
      throw error;
    }
  };
  const server = await new Promise<Server>((resolve) => {
    const s = serve({ fetch, port: config.port, hostname: config.host }, () => resolve(s as Server));
  });
  answerClientErrors(server);
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  return {
    gateway,
    url: `http://${urlHost(config.host)}:${port}`,
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      // No new requests; those under way finish (a refund mid-transaction commits or rolls back, never half-run).
      if (underWay > 0) {
        await new Promise<void>((resolve) => {
          drained = resolve;
          setTimeout(resolve, DRAIN_MS).unref();
        });
      }
      // Open event streams would hold the server open: end them.
      server.closeAllConnections();
      await closed;
      await gateway.close();
    },
  };
}

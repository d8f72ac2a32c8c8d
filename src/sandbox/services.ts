// The composition root: every service built once, from the configuration, over the storage of openDatabase().
// app.ts turns them into routes; server.ts runs them on a port.
import { receivingKey, sandboxRootKey } from '../codecs/addresses.js';
import { Chains, resolveNetworks } from './chains/chains.js';
import { Networks } from './chains/networks.js';
import { systemClock, type Clock } from './clock.js';
import type { GatewayConfig } from './config.js';
import { EventStreams } from './http/event-stream.js';
import { createSealer } from './secrets.js';
import { ChainFacts } from './services/chains/chain-facts.js';
import { CustomerCheckout } from './services/customer/customer-checkout.js';
import { HeldPayments } from './services/orders/held-payments.js';
import { LinkCancels } from './services/orders/link-cancels.js';
import { Orders } from './services/orders/orders.js';
import { claimUrlBase, RefundLedger } from './services/orders/refund-ledger.js';
import { RefundCover } from './services/orders/refund-cover.js';
import { Payouts } from './services/orders/payouts.js';
import { RefundClaims } from './services/orders/refund-claims.js';
import { Idempotency } from './services/merchant/idempotency.js';
import { MerchantLinks } from './services/merchant/merchant-links.js';
import { Merchants, type Merchant } from './services/merchant/merchants.js';
import { ReceivingKeys } from './services/merchant/receiving-keys.js';
import { AddressGuard, marksFile } from './services/merchant/address-guard.js';
import { AddressScan } from './services/merchant/address-scan.js';
import { PaymentEvents } from './services/customer/payment-events.js';
import { PaymentLinks } from './services/orders/payment-links.js';
import { PaymentView } from './services/payments/payment-view.js';
import { LinkReader } from './services/payments/link-reader.js';
import { Reconciler } from './services/payments/reconciler.js';
import { Refunds } from './services/orders/refunds.js';
import { SandboxControls } from './services/sandbox/sandbox-controls.js';
import { Tokens } from './services/merchant/tokens.js';
import { ClientSignIn } from './services/merchant/client-sign-in.js';
import { TestWallet } from './services/sandbox/test-wallet.js';
import { Watcher } from './services/chains/watcher.js';
import { sandboxReceivers, WebhookTargets, type LocalReceivers, type Resolve } from './services/webhooks/targets.js';
import { WebhookDispatcher } from './services/webhooks/dispatcher.js';
import { WebhookEndpoints } from './services/webhooks/endpoints.js';
import { MerchantEvents } from './services/webhooks/events.js';
import { WebhookOutbox } from './services/webhooks/outbox.js';
import { DataKeys } from './services/operations/data-keys.js';
import { Metrics } from './services/operations/metrics.js';
import { Health } from './services/operations/readiness.js';
import { RateBook } from './services/rates/rate-book.js';
import { RateFeed } from './services/rates/rate-feed.js';
import { rateSource } from './rates/sources.js';
import { RateLimits } from './services/operations/rate-limits.js';
import type { Database } from './storage/database.js';
import { openDatabase } from './storage/open.js';
import { migrationNames } from './storage/migrate.js';

export interface Services {
  config: GatewayConfig;
  db: Database;
  clock: Clock;
  merchants: Merchants;
  idempotency: Idempotency;
  tokens: Tokens;
  clientSignIn: ClientSignIn;
  paymentLinks: PaymentLinks;
  refunds: Refunds;
  refundLedger: RefundLedger;
  refundClaims: RefundClaims;
  payouts: Payouts;
  heldPayments: HeldPayments;
  linkCancels: LinkCancels;
  customerCheckout: CustomerCheckout;
  sandboxControls: SandboxControls;
  paymentEvents: PaymentEvents;
  networks: Networks;
  chains: Chains;
  watcher: Watcher;
  wallet: TestWallet;
  merchantLinks: MerchantLinks;
  webhookEndpoints: WebhookEndpoints;
  webhookOutbox: WebhookOutbox;
  webhookDispatcher: WebhookDispatcher;
  /** The events API: what the outbox wrote, by sequence. */
  merchantEvents: MerchantEvents;
  /** The sandbox merchant; none in live, whose merchants are only those in its database. */
  sandboxMerchant?: Merchant;
  eventStreams: EventStreams;
  health: Health;
  metrics: Metrics;
  rateBook: RateBook;
  rateFeed: RateFeed;
  rateLimits: RateLimits;
  /** Stops the timers and the work under way (each part by `deadline`, ms since the epoch, at the latest), then the database. */
  close(deadline?: number): Promise<void>;
}

export interface ServiceOptions {
  clock?: Clock;
  /** PostgreSQL schema to work in; tests give each file its own. */
  schema?: string;
  /**
   * Run the timers (blocks, expiries, webhook deliveries, rate sources asked on their own). Tests turn them off and drive
   * each step (a fixed rate source is in the book from the start; others wait for rateFeed.refresh()).
   */
  watch?: boolean;
  /** How webhook hosts resolve (the system's DNS when absent); tests give names of their own. */
  resolve?: Resolve;
  /**
   * Which loopback URLs webhooks may go to, in place of the sandbox's own receivers (services/webhooks/targets.ts):
   * tests' receivers listen on ports of their own.
   */
  localReceivers?: LocalReceivers;
  /** PGlite: the image of a data folder to start from (storage/pglite.ts); tests give a migrated one. */
  pgliteImage?: Blob;
}

export async function createServices(config: GatewayConfig, options: ServiceOptions = {}): Promise<Services> {
  const clock = options.clock ?? systemClock;
  const sandbox = config.environment === 'sandbox';
  const networks = new Networks(await resolveNetworks(config.networks, { findDevelopmentNodes: sandbox }));
  // Before the database: a key that cannot derive stops the start before anything is written. Live has none: each
  // merchant's addresses derive from its own keys (services/merchant/receiving-keys.ts).
  const sandboxKeys = sandbox
    ? {
        sandboxMerchant: receivingKey(everyFamilyGiven(config, networks) ? undefined : config.payments.hdSeedHex, config.payments.accountXpubs ?? {}),
        others: sandboxRootKey(config.payments.hdSeedHex),
      }
    : undefined;
  const metrics = new Metrics();
  const db = await openDatabase({ url: config.databaseUrl, dataDir: config.dataDir, schema: options.schema, pgliteImage: options.pgliteImage, limits: config.databaseLimits, timed: metrics.timed });
  const sealer = createSealer(config.dataKey, config.previousDataKeys);
  const chains = await Chains.open(db, clock, networks);
  // Before any address is handed out: a restored database moves every address index past what may have been, and past
  // what the nodes show used.
  const scan = new AddressScan(chains.ports, sandboxKeys ? [sandboxKeys.sandboxMerchant, sandboxKeys.others] : []);
  const addressGuard = new AddressGuard(db, clock, marksFile(config), config.addresses.restoreMargin, scan);
  const dataKeys = new DataKeys(db, sealer, clock);
  try {
    // Beats with the other timers: a test that drives every step has none running.
    await dataKeys.start({ beating: options.watch ?? true });
    await addressGuard.start();
  } catch (error) {
    await dataKeys.stop();
    await chains.stop();
    await db.close();
    throw error;
  }
  const merchants = new Merchants(db, sealer, clock, config.environment);
  const rateLimits = new RateLimits(db, clock);
  const idempotency = new Idempotency(db, clock, config.idempotencyKeyTtlSeconds);
  // Built in one order, each from those before it: readers first, then what writes, then what follows chains.
  const view = new PaymentView(networks, merchants);
  const reader = new LinkReader(clock, networks, config.payments.toleranceBps);
  const refundLedger = new RefundLedger(db, clock, reader, claimUrlBase(config.checkoutUrl));
  const merchantLinks = new MerchantLinks(db, networks, reader, refundLedger, view, config.checkoutUrl);
  const webhookOutbox = new WebhookOutbox(clock, merchantLinks, networks);
  const paymentEvents = new PaymentEvents(db, clock, view);
  const payouts = new Payouts(db, clock, chains, networks, webhookOutbox, config.payments.payoutSeedHex, config.payments.payoutDailyCapVnd);
  // Refunds first: the payment's events then show the refunds a change failed.
  const reconciler = new Reconciler(clock, reader, [new RefundCover(payouts), paymentEvents, webhookOutbox]);
  const orders = new Orders(clock, reconciler);
  const local = config.allowLocalWebhooks ? (options.localReceivers ?? sandboxReceivers(config.sandboxWebhookUrl, config.port)) : undefined;
  const targets = new WebhookTargets(local, options.resolve);
  const webhookEndpoints = new WebhookEndpoints(db, clock, sealer, targets, idempotency, rateLimits, config.limits, config.environment);
  const webhookDispatcher = new WebhookDispatcher(db, clock, sealer, targets, metrics, config.webhookTimeoutMs);
  const watcher = new Watcher(db, clock, chains, new ChainFacts(db, clock, reconciler, webhookOutbox), reconciler, metrics);
  const refunds = new Refunds(db, clock, networks, orders, refundLedger, payouts, webhookOutbox, idempotency, config.refundClaimTtlSeconds);
  const wallet = new TestWallet(chains, networks, watcher, config.payments.walletSeedHex);
  const sandboxControls = new SandboxControls(db, clock, networks, chains, reconciler, view, watcher);
  const rateBook = new RateBook(config.rates);
  const rateFeed = new RateFeed(rateBook, clock, config.rates.sources.map((spec) => rateSource(spec, clock.now())));
  const eventStreams = new EventStreams(config.limits);
  const health = new Health(db, clock, sealer, sandboxControls, await migrationNames());
  metrics.observe({ db, clock, eventStreams, sandboxControls, watcher, rateFeed, rateBook });
  const sandboxMerchant = sandbox ? await merchants.upsert(config.sandboxMerchant) : undefined;
  if (sandboxMerchant && config.sandboxWebhookUrl) await webhookEndpoints.ensure(sandboxMerchant.merchant_id, config.sandboxWebhookUrl);
  const receivingKeys = new ReceivingKeys(merchants, sandboxKeys && { ...sandboxKeys, sandboxMerchantId: sandboxMerchant?.merchant_id }, addressGuard);
  await merchants.start();
  await paymentEvents.start();
  // Live has no test wallet: no route reaches this one, and it is given nothing.
  if (sandbox) await wallet.faucetWhereEmpty();
  await payouts.prepareWallets();
  if (options.watch ?? true) {
    // Bounded by each source's timeout: a gateway that starts with its sources answering quotes at once.
    await rateFeed.start();
    await watcher.start();
    chains.startMining();
    payouts.start();
    await webhookDispatcher.start();
  } else {
    // Each network's cursor at its tip, so that what the tests do next is followed from there.
    await watcher.followAll();
    await rateFeed.start({ remote: false });
  }
  return {
    config,
    db,
    clock,
    merchants,
    idempotency,
    tokens: new Tokens(db, clock, config.tokenTtlSeconds, merchants, config.environment),
    clientSignIn: new ClientSignIn(merchants, rateLimits, config.limits),
    paymentLinks: new PaymentLinks(db, clock, config.checkoutUrl, orders, idempotency),
    refunds,
    refundLedger,
    refundClaims: new RefundClaims(db, clock, networks, payouts),
    payouts,
    heldPayments: new HeldPayments(clock, orders, reconciler, merchantLinks, idempotency),
    linkCancels: new LinkCancels(clock, orders, reconciler, merchantLinks, idempotency),
    customerCheckout: new CustomerCheckout(db, clock, networks, config.payments, rateBook, receivingKeys, reader, reconciler, view, new URL('receipt', config.checkoutUrl), config.limits, rateLimits, config.environment, merchants),
    sandboxControls,
    merchantLinks,
    webhookEndpoints,
    webhookOutbox,
    webhookDispatcher,
    merchantEvents: new MerchantEvents(db, clock, config.eventsRetentionDays),
    paymentEvents,
    networks,
    chains,
    watcher,
    wallet,
    sandboxMerchant,
    eventStreams,
    health,
    metrics,
    rateBook,
    rateFeed,
    rateLimits,
    async close(deadline = Date.now() + 10_000) {
      const by = <T>(work: Promise<T>) => Promise.race([work, new Promise<void>((resolve) => setTimeout(resolve, Math.max(0, deadline - Date.now())).unref())]);
      // The watcher ends its round and the dispatcher its sends (releasing what it cannot finish), side by side.
      await Promise.all([by(watcher.stop()), webhookDispatcher.stop(deadline), rateFeed.stop()]);
      await payouts.stop();
      await chains.stop();
      await paymentEvents.stop();
      await merchants.stop();
      await addressGuard.stop();
      // Within the deadline: with the database away, the row goes by itself once not seen (PROCESS_GONE_SECONDS).
      await by(dataKeys.stop());
      await db.close();
    },
  };
}

/** Whether every network's family has an extended public key: then no HD seed is read, and none is held. */
export function everyFamilyGiven(config: GatewayConfig, networks: Networks): boolean {
  const given = config.payments.accountXpubs ?? {};
  return networks.all.every((network) => given[network.family] !== undefined);
}

// The composition root: every service built once, from the configuration, over the storage of openDatabase().
// app.ts turns them into routes; server.ts runs them on a port.
import { sandboxRootKey } from './chain/addresses.js';
import { Chains, resolveNetworks } from './chains/chains.js';
import { Networks } from './chains/networks.js';
import { systemClock, type Clock } from './clock.js';
import type { GatewayConfig } from './config.js';
import { createSealer } from './secrets.js';
import { ChainFacts } from './services/chain-facts.js';
import { chainRefunds } from './services/chain-refunds.js';
import { Checkout } from './services/checkout.js';
import { HeldFunds } from './services/held-funds.js';
import { LinkResources } from './services/link-resources.js';
import { Merchants, type Merchant } from './services/merchants.js';
import { PaymentEvents } from './services/payment-events.js';
import { PaymentLinks } from './services/payment-links.js';
import { PaymentView } from './services/payment-view.js';
import { Reconciler } from './services/reconciler.js';
import { Refunds } from './services/refunds.js';
import { SandboxControls } from './services/sandbox-controls.js';
import { Tokens } from './services/tokens.js';
import { TestWallet } from './services/wallet.js';
import { Watcher } from './services/watcher.js';
import { WebhookTargets, type Resolve } from './services/webhook-targets.js';
import { WebhookDispatcher } from './services/webhook-dispatcher.js';
import { WebhookEndpoints } from './services/webhook-endpoints.js';
import { WebhookOutbox } from './services/webhook-outbox.js';
import { openDatabase, type Database } from './storage/database.js';

export interface Services {
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
  networks: Networks;
  chains: Chains;
  watcher: Watcher;
  wallet: TestWallet;
  linkResources: LinkResources;
  webhookEndpoints: WebhookEndpoints;
  webhookOutbox: WebhookOutbox;
  webhookDispatcher: WebhookDispatcher;
  sandboxMerchant: Merchant;
  close(): Promise<void>;
}

export interface ServiceOptions {
  clock?: Clock;
  /** PostgreSQL schema to work in; tests give each file its own. */
  schema?: string;
  /** Run the timers (blocks, expiries, webhook deliveries on their own). Tests turn them off and drive each step. */
  watch?: boolean;
  /** How webhook hosts resolve (the system's DNS when absent); tests give names of their own. */
  resolve?: Resolve;
}

export async function createServices(config: GatewayConfig, options: ServiceOptions = {}): Promise<Services> {
  const clock = options.clock ?? systemClock;
  const networks = new Networks(await resolveNetworks(config.networks));
  const db = await openDatabase({ url: config.databaseUrl, dataDir: config.dataDir, schema: options.schema });
  const sealer = createSealer(config.dataKey);
  const merchants = new Merchants(db, sealer);
  const chains = await Chains.open(db, clock, networks);
  const paymentEvents = new PaymentEvents(db, clock);
  // Webhook bodies carry the link as the read API shows it, which needs the services built after them.
  const targets = new WebhookTargets(config.allowLocalWebhooks, options.resolve);
  const webhookOutbox: WebhookOutbox = new WebhookOutbox(clock, (sql, merchantId, ref) => linkResources.get(merchantId, ref, sql));
  const webhookEndpoints = new WebhookEndpoints(db, clock, sealer, targets);
  const webhookDispatcher = new WebhookDispatcher(db, clock, sealer, targets, config.webhookTimeoutMs);
  const view = new PaymentView(networks, (sql, merchantId) => merchants.clientSecret(sql, merchantId));
  const reconciler = new Reconciler(clock, networks, config.payments.toleranceBps, view, paymentEvents, webhookOutbox);
  const heldFunds: HeldFunds = new HeldFunds(db, clock, reconciler, (sql, merchantId, ref) => linkResources.get(merchantId, ref, sql));
  const refunds = new Refunds(db, clock, reconciler, heldFunds, chainRefunds(chains), webhookOutbox);
  const linkResources = new LinkResources(db, networks, reconciler, view, refunds, config.checkoutUrl);
  const watcher = new Watcher(db, clock, chains, new ChainFacts(db, clock, reconciler, webhookOutbox), reconciler);
  const wallet = new TestWallet(chains, networks, watcher, config.payments.walletSeedHex);
  const sandboxMerchant = await merchants.upsert(config.sandboxMerchant);
  if (config.sandboxWebhookUrl) await webhookEndpoints.ensure(sandboxMerchant.merchant_id, config.sandboxWebhookUrl);
  await merchants.start();
  await paymentEvents.start();
  await wallet.faucetWhereEmpty();
  if (options.watch ?? true) {
    await watcher.start();
    chains.startMining();
    await webhookDispatcher.start();
  } else {
    // Each network's cursor at its tip, so that what the tests do next is followed from there.
    await watcher.followAll();
  }
  return {
    config,
    db,
    clock,
    merchants,
    tokens: new Tokens(db, clock, config.tokenTtlSeconds),
    paymentLinks: new PaymentLinks(db, clock, config.checkoutUrl, heldFunds),
    refunds,
    checkout: new Checkout(db, clock, networks, config.payments, sandboxRootKey(config.payments.hdSeedHex), reconciler, view),
    heldFunds,
    sandboxControls: new SandboxControls(db, clock, networks, chains, reconciler, view, watcher),
    linkResources,
    webhookEndpoints,
    webhookOutbox,
    webhookDispatcher,
    paymentEvents,
    networks,
    chains,
    watcher,
    wallet,
    sandboxMerchant,
    async close() {
      await watcher.stop();
      await chains.stop();
      await webhookDispatcher.stop();
      await paymentEvents.stop();
      await merchants.stop();
      await db.close();
    },
  };
}

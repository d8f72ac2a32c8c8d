// A real gateway for a test file: PGlite in memory, or its own schema on the PostgreSQL server of
// TEST_DATABASE_URL (scripts/test-node.mjs sets it for the second pass). One per file, reset between tests.
import { randomBytes } from 'node:crypto';
import { ManualClock } from '../../src/sandbox/clock.js';
import { loadConfig, type GatewayConfig, type MerchantCredentials } from '../../src/sandbox/config.js';
import { startGateway, type RunningGateway, type StartOptions } from '../../src/sandbox/server.js';
import { issueCredentials } from '../../src/sandbox/services/merchant/credentials.js';
import { MerchantClient } from '../../src/merchant/index.js';
import { migratedPgliteImage } from './pglite-image.js';
import type { CreateRefundRequest, PaymentLinkInput } from '../../src/contract/index.js';

export interface TestGateway extends RunningGateway {
  clock: ManualClock;
  /** The SDK, signed in as the sandbox merchant. */
  client: MerchantClient;
  credentials: MerchantCredentials;
  /** Another merchant, for "not yours" cases, with credentials issued as the operator's command issues them. */
  addMerchant(name?: string): Promise<{ credentials: MerchantCredentials; client: MerchantClient; merchantId: string }>;
  /** Pays a link in full through the real flow: open a USDT/TRON payment, the test wallet sends, blocks confirm it. */
  markPaid(paymentLinkRef: string): Promise<void>;
  /** Runs the webhook worker until nothing is due now. */
  deliverAll(): Promise<void>;
  /** Empties every table but merchants and the chains (the simulator's, and how far the gateway followed them). */
  reset(): Promise<void>;
}

export const storageName = process.env.TEST_DATABASE_URL ? 'PostgreSQL' : 'PGlite';

/** A clock that runs in real time, and that a test can still move forward (for a gateway whose timers run). */
export class RunningClock extends ManualClock {
  #ahead = 0;
  override now(): Date {
    return new Date(Date.now() + this.#ahead);
  }
  override advance(ms: number): void {
    this.#ahead += ms;
  }
}

export interface TestGatewayOptions {
  /** Configuration over the defaults (a PGlite folder, a webhook timeout …). */
  config?: Partial<GatewayConfig>;
  clock?: ManualClock;
  /** Reuse a PostgreSQL schema (a restarted gateway); it is then left in place on close. */
  schema?: string;
  /** Routes beside the gateway's own (see startGateway). */
  mount?: StartOptions['mount'];
  /** How webhook hosts resolve (see createGateway). */
  resolve?: StartOptions['resolve'];
  /**
   * Which loopback webhook URLs are taken (with allowLocalWebhooks): `any` (the default), as tests' receivers listen
   * on ports of their own; `sandbox` for the gateway's own rule (SANDBOX_WEBHOOK_URL and the demo's receiver only).
   */
  localWebhooks?: 'any' | 'sandbox';
  /** Run the timers and the start-up reconciliation (off: each test drives every step). */
  watch?: boolean;
  /** A new PGlite folder (config.dataDir) starts from the migrated image too, skipping its initdb. */
  newFolder?: boolean;
}

export async function startTestGateway(options: TestGatewayOptions = {}): Promise<TestGateway> {
  const clock = options.clock ?? new ManualClock();
  // Receivers in tests listen on loopback, as the demo's does: allowed (on any port) unless a test says otherwise.
  const config = { ...loadConfig({}), port: 0, databaseUrl: process.env.TEST_DATABASE_URL, allowLocalWebhooks: true, ...options.config };
  const ownSchema = config.databaseUrl && !options.schema ? `test_${randomBytes(6).toString('hex')}` : undefined;
  const schema = options.schema ?? ownSchema;
  const localReceivers = options.localWebhooks === 'sandbox' ? undefined : () => true;
  const pgliteImage = config.databaseUrl || (config.dataDir && !options.newFolder) ? undefined : await migratedPgliteImage();
  const running = await startGateway(config, { clock, schema, watch: options.watch ?? false, mount: options.mount, resolve: options.resolve, localReceivers, pgliteImage });
  const clientFor = (credentials: MerchantCredentials) =>
    new MerchantClient({ baseUrl: running.url, clientId: credentials.clientId, clientSecret: credentials.clientSecret, merchantKey: credentials.merchantKey });
  const { db } = running.gateway;
  return {
    ...running,
    clock,
    credentials: config.sandboxMerchant,
    client: clientFor(config.sandboxMerchant),
    async addMerchant(name = 'Other Merchant') {
      const issued = issueCredentials(config.environment);
      const credentials = { name, clientId: issued.client_id, clientSecret: issued.client_secret, merchantKey: issued.merchant_key };
      const { merchant_id } = await running.gateway.merchants.upsert(credentials);
      return { credentials, client: clientFor(credentials), merchantId: merchant_id };
    },
    async markPaid(paymentLinkRef) {
      const { customerCheckout: checkout, wallet, sandboxControls } = running.gateway;
      const { payment } = await checkout.open(paymentLinkRef, { pmt_channel: 'PROVIDER', pmt_method: 'PROVIDER_CRYPTO', asset: 'USDT', network: 'TRON' });
      await wallet.transfer({ to: payment.address, asset: 'USDT', network: 'TRON', amount: payment.amount_crypto });
      await sandboxControls.mine(payment.confirmations_required, 'TRON');
    },
    async deliverAll() {
      while ((await running.gateway.webhookDispatcher.deliverDue()) > 0);
    },
    async reset() {
      const tables = await db.query<{ tablename: string }>(
        `SELECT tablename FROM pg_tables WHERE schemaname = current_schema() AND tablename NOT IN ('merchants', 'schema_migrations', 'sim_blocks', 'sim_transactions', 'chain_blocks', 'chain_cursors')`,
      );
      if (tables.length) await db.query(`TRUNCATE ${tables.map((t) => `"${t.tablename}"`).join(', ')} CASCADE`);
    },
    async close() {
      await running.close();
      if (ownSchema) {
        const { default: pg } = await import('pg');
        const admin = new pg.Client({ connectionString: config.databaseUrl });
        await admin.connect();
        await admin.query(`DROP SCHEMA ${ownSchema} CASCADE`);
        await admin.end();
      }
    },
  };
}

/** A partial refund request of `amount` VND for a returned item. */
export function sampleRefund(amount: number, overrides: Partial<CreateRefundRequest> = {}): CreateRefundRequest {
  return { amount, channel: 'PROVIDER', description: 'one bag returned', refund_type: 'partial', refund_reason: 'damaged', ...overrides };
}

/** A valid link request whose amount adds up: 2 × 150,000 + 1 × 50,000 − 20,000 + 30,000 = 360,000 VND. */
export function sampleLink(overrides: Partial<PaymentLinkInput> = {}): PaymentLinkInput {
  return {
    merchant_order_id: `order-${randomBytes(6).toString('hex')}`,
    amount: 360_000,
    currency: 'VND',
    country_code: 'VN',
    billing_details: {
      billing_name: 'Nguyễn Văn An',
      billing_email: 'an@example.com',
      billing_phone: '+84 912 345 678',
      billing_address: { city: 'Hà Nội', country_code: 'VN', locale: 'vi', line_1: '12 Tràng Tiền', postal_code: '100000' },
    },
    merchant_details: { name: 'Cà Phê Sữa Đá', promo_code: 'TET2026', promo_discount: 20_000, shipping_charges: 30_000 },
    order_details: [
      { id: 'sku-1', name: 'Cà phê hạt 500 g', price: 150_000, quantity: 2 },
      { id: 'sku-2', name: 'Phin nhôm', price: 50_000, quantity: 1 },
    ],
    success_url: 'https://shop.example/success',
    failure_url: 'https://shop.example/failure',
    expiry_hours: 24,
    description: 'Đơn hàng cà phê',
    ...overrides,
  };
}

// Two gateway processes on one PostgreSQL under load: 200 opens and transfers at once, customers switching asset
// while they pay, and every gateway connection cut (pg_terminate_backend, as a restart or failover does) mid-run.
// Zero 5xx, no deadlock surfacing, every payment in its true status, every customer's event stream at the end.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import type { AssetCode, Network, Payment } from '../../src/contract/index.js';
import { loadConfig } from '../../src/sandbox/config.js';
import { followEvents } from '../helpers/checkout.js';
import { signedLinkBody } from '../helpers/merchant-api.js';
import { call, checkInvariants, expectStatus, GatewaySystem, orderInput } from '../helpers/payment-model.js';

const databaseUrl = process.env.TEST_DATABASE_URL;
const LINKS = 50;
const PAIRS: [AssetCode, Network][][] = [
  [
    ['USDT', 'TRON'],
    ['USDT', 'ETHEREUM'],
  ],
  [
    ['USDT', 'TRON'],
    ['BTC', 'BITCOIN'],
  ],
  [
    ['ETH', 'ETHEREUM'],
    ['USDT', 'TRON'],
  ],
  [
    ['USDT', 'TRON'],
    ['USDT', 'TRON'],
  ],
];

describe('two gateway processes on one PostgreSQL under concurrent load', () => {
  const applicationName = `pay-checkout-load-${process.pid}`;
  let system: GatewaySystem;
  before(async () => {
    system = await GatewaySystem.start(databaseUrl, { applicationName });
  });
  after(() => system?.close());

  it('answers 200 concurrent opens and transfers without a 5xx, survives its connections being cut, and ends every payment truly', async () => {
    const { sandboxMerchant } = loadConfig({});
    const orders = await Promise.all(
      Array.from({ length: LINKS }, async (_, i) => {
        const orderId = `load-${process.pid}-${i}`;
        const created = await call<{ payment_link_ref: string }>(system, 'POST', '/api/paymentLink', signedLinkBody(sandboxMerchant, orderInput(orderId)));
        expectStatus(created, [201], 'create link');
        return { orderId, ref: created.body.payment_link_ref, pair: PAIRS[i % PAIRS.length]! };
      }),
    );
    const [first, second] = system.urls();
    const streams = orders.map((o) => followEvents(first!, o.ref));
    const answers: number[] = [];
    let done = 0;
    const admin = new pg.Client({ connectionString: databaseUrl });
    await admin.connect();
    let cuts = 0;
    const cutWhenHalfway = async () => {
      while (done < 100) await new Promise((resolve) => setTimeout(resolve, 5));
      const cut = await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1', [applicationName]);
      cuts = cut.rowCount ?? 0;
    };
    try {
      await Promise.all([
        cutWhenHalfway(),
        ...orders.map(async ({ ref, pair }) => {
          // The customer opens in two assets at once (two tabs, two processes), then pays both addresses it was given.
          const opened = await Promise.all(
            pair.map(async ([asset, network]) => {
              const answer = await call<Payment>(system, 'POST', `/api/checkout/${ref}/payments`, { pmt_channel: 'PROVIDER', pmt_method: 'PROVIDER_CRYPTO', asset, network });
              answers.push(answer.status);
              done++;
              expectStatus(answer, [200, 201, 409], `open ${asset}/${network}`);
              return answer.status < 300 ? answer.body : undefined;
            }),
          );
          await Promise.all(
            opened.map(async (payment) => {
              if (!payment) return;
              const sent = await call(system, 'POST', '/sandbox/wallet/transfers', { to: payment.address, asset: payment.asset, network: payment.network, amount: payment.amount_crypto });
              answers.push(sent.status);
              done++;
              expectStatus(sent, [201], 'transfer');
            }),
          );
        }),
      ]);
      assert.ok(cuts >= 2, `cut ${cuts} connections of the two gateways`);
      assert.ok(answers.length >= 150, `${answers.length} requests answered`);
      assert.deepEqual(answers.filter((s) => s >= 500), []);
      // Blocks come on their own; every order settles, truly.
      for (const { orderId } of orders) await checkInvariants(system, orderId);
      // The last transfers still wait for their blocks (every 300 ms): read until no link is open, for 20 s at most.
      const readViews = () => Promise.all(orders.map(async ({ ref }) => (await call<{ status: string; payment: Payment }>(system, 'GET', `/api/checkout/${ref}`)).body));
      let views = await readViews();
      for (const deadline = Date.now() + 20_000; views.some((v) => v.status === 'active') && Date.now() < deadline; views = await readViews()) {
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      const unpaid = views.filter((v) => v.status !== 'paid').map(({ status, payment }) => ({ status, payment }));
      assert.deepEqual(unpaid, [], 'every order was paid in full in time by one of its payments');
      // Every customer's stream (on the first gateway, whose LISTEN connection was cut too) reaches the final status.
      await Promise.all(orders.map((_, i) => streams[i]!.next((p) => p.payment_id === views[i]!.payment.payment_id && p.status === views[i]!.payment.status, 20_000)));
      assert.ok(second, 'two gateway processes served the run');
    } finally {
      for (const s of streams) s.close();
      await admin.end();
    }
  });
});

// Two gateway processes on one PostgreSQL, and one Idempotency-Key sent through both at once: a refund, a webhook
// endpoint and an accept are each made once; every other answer is the replay, with the same effect in it.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Payment } from '../../src/contract/index.js';
import { MerchantClient } from '../../src/merchant/index.js';
import { loadConfig } from '../../src/sandbox/config.js';
import { sampleLink } from '../helpers/gateway.js';
import { GatewaySystem } from '../helpers/payment-model.js';

const databaseUrl = process.env.TEST_DATABASE_URL;
const { sandboxMerchant } = loadConfig({});
const AT_ONCE = 20;

describe('one Idempotency-Key through two gateway processes over one PostgreSQL', () => {
  let system: GatewaySystem;
  let clients: MerchantClient[];
  let urls: string[];
  before(async () => {
    system = await GatewaySystem.start(databaseUrl, { env: { SANDBOX_ALLOW_LOCAL_WEBHOOKS: '1' } });
    urls = system.urls();
    clients = urls.map((baseUrl) => new MerchantClient({ baseUrl, clientId: sandboxMerchant.clientId, clientSecret: sandboxMerchant.clientSecret, merchantKey: sandboxMerchant.merchantKey }));
  });
  after(() => system?.close());

  const post = async <T>(path: string, body: unknown) =>
    (await (await fetch(`${urls[0]}${path}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) })).json()) as T;
  const each = <T>(work: (client: MerchantClient) => Promise<T>) => Promise.all(Array.from({ length: AT_ONCE }, (_, i) => work(clients[i % 2]!)));

  /** A link's payment, paid in full: after its quote ran out when `late`, so that it is held. */
  async function paidPayment(late: boolean) {
    const link = await clients[0]!.createPaymentLink(sampleLink());
    const payment = await post<Payment>(`/api/checkout/${link.payment_link_ref}/payments`, { pmt_channel: 'PROVIDER', pmt_method: 'PROVIDER_CRYPTO', asset: 'USDT', network: 'TRON' });
    if (late) await fetch(`${urls[0]}/sandbox/payments/${payment.payment_id}/expire-quote`, { method: 'POST' });
    await post(`/sandbox/wallet/transfers`, { to: payment.address, asset: 'USDT', network: 'TRON', amount: payment.amount_crypto });
    await post(`/sandbox/chain/mine`, { blocks: payment.confirmations_required, network: 'TRON' });
    return { payment, orderId: (await clients[0]!.getPaymentLink(link.payment_link_ref)).merchant_order_id };
  }

  it('makes one refund, one endpoint and one accept of twenty requests with one key each', async () => {
    const { orderId } = await paidPayment(false);
    const lists = await each((c) => c.createRefund(orderId, { amount: 10_000, channel: 'PROVIDER', description: 'twice', refund_type: 'partial', refund_reason: 'race' }, { idempotencyKey: 'race-refund' }));
    const { refunds } = await clients[1]!.listRefunds(orderId);
    assert.equal(refunds.length, 1);
    for (const list of lists) assert.deepEqual(list.refundDetails.map((r) => r.refund_id), [refunds[0]!.refund_id]);

    const url = 'https://93.184.216.34/race'; // a public address as a literal: no DNS asked
    const endpoints = await each((c) => c.addWebhookEndpoint(url, { idempotencyKey: 'race-endpoint' }));
    const live = (await clients[0]!.listWebhookEndpoints()).filter((e) => e.url === url);
    assert.equal(live.length, 1);
    for (const endpoint of endpoints) assert.deepEqual(endpoint, live[0]);

    const { payment } = await paidPayment(true);
    const accepted = await each((c) => c.acceptPayment(payment.payment_id, { idempotencyKey: 'race-accept' }));
    for (const link of accepted) assert.deepEqual([link.status, link.payments[0]!.status], ['paid', 'paid']);
  });
});

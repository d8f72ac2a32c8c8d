// Idempotency-Key on every POST docs/api.md promises it for (docs/api.md, "Idempotency"): accepting a held payment,
// adding a webhook endpoint, refunds; keys that expire after IDEMPOTENCY_KEY_TTL_SECONDS and are new again then; what a
// key keeps, bounded whatever the order's size; expired keys deleted in batches.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, it } from 'node:test';
import type { PaymentLinkResource, Problem, RefundList, WebhookEndpoint } from '../../src/contract/index.js';
import { ConfigError, loadConfig } from '../../src/sandbox/config.js';
import { useTestGateway } from '../helpers/fixture.js';
import { sampleLink, storageName } from '../helpers/gateway.js';
import { accessToken, JSON_TYPE, paidOrder, send } from '../helpers/merchant-api.js';

const DAY_MS = 86_400_000;

describe(`Idempotency-Key (${storageName})`, () => {
  const gw = useTestGateway({ reset: true });

  // A token of its own for each call: tests move the clock past a token's life.
  const post = async <T>(path: string, body: unknown, key?: string) =>
    send<T & Pick<Problem, 'detail' | 'errors'>>(gw.url, 'POST', path, {
      headers: { Authorization: `Bearer ${await accessToken(gw.url, gw.credentials)}`, ...JSON_TYPE, ...(key && { 'Idempotency-Key': key }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  const refund = (orderId: string, amount: number, key?: string) =>
    post<RefundList>(`/api/refund/createRefund/${orderId}`, { amount, channel: 'PROVIDER', description: 'returned', refund_type: 'partial', refund_reason: 'keyed' }, key);
  const addEndpoint = (url: string, key?: string) => post<WebhookEndpoint>('/api/webhooks/endpoints', { url }, key);
  const keyRows = (like = '%') => gw.gateway.db.query<{ bytes: number }>('SELECT length(response::text) AS bytes FROM idempotency_keys WHERE idempotency_key LIKE $1', [like]);

  /** A payment that came in full after its quote ran out: held for the merchant, who may accept it. */
  async function heldPayment() {
    const { customerCheckout, sandboxControls, wallet } = gw.gateway;
    const { payment_link_ref: ref } = await gw.client.createPaymentLink(sampleLink());
    const { payment } = await customerCheckout.open(ref, { pmt_channel: 'PROVIDER', pmt_method: 'PROVIDER_CRYPTO', asset: 'USDT', network: 'TRON' });
    await sandboxControls.expireQuote({ payment_id: payment.payment_id });
    gw.clock.advance(1000);
    await wallet.transfer({ to: payment.address, asset: 'USDT', network: 'TRON', amount: payment.amount_crypto });
    await sandboxControls.mine(payment.confirmations_required, 'TRON');
    return payment;
  }

  it('replays an accept that went through, never the 409 that says to refund the payment that now pays the link', async () => {
    const payment = await heldPayment();
    const path = `/api/payments/${payment.payment_id}/accept`;
    const first = await post<PaymentLinkResource>(path, undefined, 'accept-1');
    assert.equal(first.status, 200, JSON.stringify(first.body));
    assert.equal(first.body.status, 'paid');
    const again = await post<PaymentLinkResource>(path, undefined, 'accept-1');
    assert.equal(again.status, 200, JSON.stringify(again.body));
    assert.equal(again.headers.get('idempotent-replayed'), 'true');
    assert.deepEqual(again.body, first.body);
    // Without its key, the accept is refused, and the refusal does not send the merchant to refund the payment.
    const unkeyed = await post(path, undefined);
    assert.equal(unkeyed.status, 409);
    assert.doesNotMatch(unkeyed.body.detail ?? '', /refund/);
    assert.match(unkeyed.body.detail ?? '', /already pays/);
  });

  it('adds one webhook endpoint per key: the replay has the same id and secret; another URL under the key is a 422', async () => {
    const url = `http://127.0.0.1:9/${randomUUID()}`;
    const first = await addEndpoint(url, 'endpoint-1');
    assert.equal(first.status, 201, JSON.stringify(first.body));
    const again = await addEndpoint(url, 'endpoint-1');
    assert.equal(again.status, 201);
    assert.equal(again.headers.get('idempotent-replayed'), 'true');
    assert.deepEqual(again.body, first.body);
    const other = await addEndpoint(`${url}/other`, 'endpoint-1');
    assert.equal(other.status, 422);
    assert.equal(other.body.errors?.[0]?.path, 'Idempotency-Key');
    assert.deepEqual((await gw.client.listWebhookEndpoints()).map((e) => e.endpoint_id), [first.body.endpoint_id]);
    // The secret is not what the key keeps: it stays sealed in the endpoint's row only.
    const [row] = await gw.gateway.db.query<{ response: string }>('SELECT response::text FROM idempotency_keys');
    assert.doesNotMatch(row!.response, new RegExp(first.body.secret));
  });

  it('keeps a key one day by default: a second later it is new, and makes a new refund', async () => {
    const { orderId } = await paidOrder(gw);
    const first = await refund(orderId, 10_000, 'refund-day');
    assert.equal(first.status, 201, JSON.stringify(first.body));
    gw.clock.advance(DAY_MS - 1000);
    const within = await refund(orderId, 10_000, 'refund-day');
    assert.equal(within.headers.get('idempotent-replayed'), 'true');
    assert.equal(within.body.refundDetails.length, 1);
    gw.clock.advance(1000);
    const after = await refund(orderId, 10_000, 'refund-day');
    assert.equal(after.status, 201);
    assert.equal(after.headers.get('idempotent-replayed'), null);
    assert.equal(after.body.refundDetails.length, 2, 'the expired key made a second refund');
    // …and is live again from then: another body under it is refused.
    assert.equal((await refund(orderId, 20_000, 'refund-day')).status, 422);
  });

  it('takes an expired key for a new payment link, the link written in its own statement or not', async () => {
    const first = await gw.client.createPaymentLink(sampleLink(), { idempotencyKey: 'link-day' });
    gw.clock.advance(DAY_MS);
    const second = await gw.client.createPaymentLink(sampleLink(), { idempotencyKey: 'link-day' });
    assert.notEqual(second.payment_link_ref, first.payment_link_ref);
    assert.deepEqual(await gw.client.createPaymentLink(sampleLink(), { idempotencyKey: 'link-day' }).catch((e: { status: number }) => e.status), 422);
  });

  it('keeps a few bytes per key however many refunds the order has; a replay lists the refunds through its own, as they are now', async () => {
    const { orderId } = await paidOrder(gw);
    let last: RefundList | undefined;
    for (let i = 0; i < 60; i++) {
      const answer = await refund(orderId, 1_000, `bounded-${i}`);
      assert.equal(answer.status, 201, JSON.stringify(answer.body));
      last = answer.body;
    }
    assert.equal(last!.refundDetails.length, 60);
    const bytes = (await keyRows('bounded-%')).map((r) => r.bytes);
    assert.ok(Math.max(...bytes) < 100, `at most ${Math.max(...bytes)} bytes kept for one key`);
    const replay = await refund(orderId, 1_000, 'bounded-59');
    assert.equal(replay.headers.get('idempotent-replayed'), 'true');
    assert.deepEqual(replay.body, last);
    const firstAgain = await refund(orderId, 1_000, 'bounded-0');
    assert.deepEqual(firstAgain.body, { amountToRefund: 359_000, refundDetails: last!.refundDetails.slice(0, 1) });
  });

  it('deletes expired keys in batches, oldest first, and keeps the live ones', async () => {
    const merchant = (await gw.gateway.db.query<{ merchant_id: string }>('SELECT merchant_id FROM merchants LIMIT 1'))[0]!.merchant_id;
    const at = gw.clock.now().getTime();
    await gw.gateway.db.query(
      `INSERT INTO idempotency_keys (merchant_id, idempotency_key, request_hash, response, created_at)
       SELECT $1, 'old-' || i, 'h', '{}', $2::timestamptz + i * interval '1 ms' FROM generate_series(1, 1500) AS i`,
      [merchant, new Date(at - 2 * DAY_MS)],
    );
    await gw.gateway.db.query(`INSERT INTO idempotency_keys (merchant_id, idempotency_key, request_hash, response, created_at) VALUES ($1, 'live', 'h', '{}', $2)`, [
      merchant,
      new Date(at - 1000),
    ]);
    assert.equal(await gw.gateway.idempotency.purge(), 1000);
    assert.equal(await gw.gateway.idempotency.purge(), 500);
    assert.equal(await gw.gateway.idempotency.purge(), 0);
    assert.deepEqual(await gw.gateway.db.query('SELECT idempotency_key FROM idempotency_keys'), [{ idempotency_key: 'live' }]);
  });

  it('deletes expired keys as keyed requests come, without being asked', async () => {
    const url = () => `http://127.0.0.1:9/${randomUUID()}`;
    const merchant = (await gw.gateway.db.query<{ merchant_id: string }>('SELECT merchant_id FROM merchants LIMIT 1'))[0]!.merchant_id;
    await gw.gateway.db.query(
      `INSERT INTO idempotency_keys (merchant_id, idempotency_key, request_hash, response, created_at)
       SELECT $1, 'old-' || i, 'h', '{}', $2 FROM generate_series(1, 300) AS i`,
      [merchant, new Date(gw.clock.now().getTime() - 2 * DAY_MS)],
    );
    // Payment links: the most common keyed request, whose answer is written in the link's own statement.
    for (let i = 0; i < 100; i++) assert.equal((await gw.client.createPaymentLink(sampleLink(), { idempotencyKey: `link-${i}` })).payment_link.length > 0, true);
    const old = await gw.gateway.db.query("SELECT 1 FROM idempotency_keys WHERE idempotency_key LIKE 'old-%'");
    assert.equal(old.length, 0);
    for (let i = 0; i < 16; i++) await addEndpoint(url(), `endpoint-${i}`);
    assert.equal((await keyRows('link-%')).length + (await keyRows('endpoint-%')).length, 116);
  });
});

describe('IDEMPOTENCY_KEY_TTL_SECONDS', () => {
  it('is a day by default, read in seconds, and refused at start when it is not a whole number of at least 1', () => {
    assert.equal(loadConfig({}).idempotencyKeyTtlSeconds, 86_400);
    assert.equal(loadConfig({ IDEMPOTENCY_KEY_TTL_SECONDS: '3600' }).idempotencyKeyTtlSeconds, 3600);
    for (const wrong of ['0', '1.5', 'day']) {
      assert.throws(() => loadConfig({ IDEMPOTENCY_KEY_TTL_SECONDS: wrong }), (error: unknown) => error instanceof ConfigError && /IDEMPOTENCY_KEY_TTL_SECONDS/.test(error.message));
    }
  });
});

// The SDK through a loopback proxy that cuts connections, holds answers past the deadline and answers 503 and 429
// itself: every call ends with exactly one link or refund, or a typed error within its timeout, and never does
// anything twice (one Idempotency-Key per call, on every attempt).
// Store: any. What it checks is the same on either store, so it runs in the PGlite pass only (scripts/test-node.mjs).
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import fc from 'fast-check';
import {
  MerchantClient,
  PayCheckoutApiError,
  PayCheckoutConnectionError,
  PayCheckoutError,
  PayCheckoutResponseError,
  PayCheckoutTimeoutError,
  type MerchantClientOptions,
} from '../../src/merchant/index.js';
import { useTestGateway } from '../helpers/fixture.js';
import { startFlakyProxy, type Fault, type FlakyProxy } from '../helpers/flaky-proxy.js';
import { sampleLink, storageName } from '../helpers/gateway.js';

const REFUND = { channel: 'PROVIDER', description: 'One bag returned', refund_type: 'partial', refund_reason: 'damaged' } as const;

describe(`the merchant SDK over a flaky network (${storageName})`, () => {
  let proxy: FlakyProxy;
  // Registered before the gateway's: the proxy's connections to it end before it closes.
  after(() => proxy?.close());
  const gw = useTestGateway();
  const client = (options: Partial<MerchantClientOptions> = {}) =>
    new MerchantClient({ baseUrl: proxy.url, ...gw.credentials, initialRetryDelayMs: 20, ...options });
  const linksOf = async (orderId: string) => gw.client.findPaymentLinks(orderId);
  const logOf = (path: RegExp) => proxy.log.filter((r) => path.test(r.path));

  before(async () => {
    proxy = await startFlakyProxy(gw.url);
  });
  beforeEach(() => {
    proxy.fail([]);
    proxy.log.length = 0;
  });

  it('creates exactly one link through a cut answer, a 503 and a 429 with Retry-After, one Idempotency-Key on every attempt', async () => {
    proxy.fail(['drop-after', { status: 503 }, { status: 429, retryAfter: '1' }], /^\/api\/paymentLink$/);
    const input = sampleLink();
    const link = await client({ maxRetries: 3 }).createPaymentLink(input);
    const attempts = logOf(/^\/api\/paymentLink$/);
    assert.deepEqual(attempts.map((a) => a.fault), ['drop-after', { status: 503 }, { status: 429, retryAfter: '1' }, 'pass']);
    assert.equal(new Set(attempts.map((a) => a.idempotencyKey)).size, 1);
    assert.match(attempts[0]!.idempotencyKey!, /^[0-9a-f-]{36}$/);
    assert.ok(attempts[3]!.at - attempts[2]!.at >= 1000, 'waited as Retry-After asked');
    assert.deepEqual((await linksOf(input.merchant_order_id)).map((l) => l.payment_link_ref), [link.payment_link_ref]);
  });

  it('ends a call whose answer is held past the timeout with a PayCheckoutTimeoutError, and its key then finishes it once', async () => {
    proxy.fail([{ delayMs: 4000 }], /^\/api\/paymentLink$/);
    const input = sampleLink();
    const timeoutMs = 1000;
    const started = Date.now();
    const error = await client({ timeoutMs }).createPaymentLink(input).then(
      () => assert.fail('the call should time out'),
      (e: unknown) => e,
    );
    assert.ok(error instanceof PayCheckoutTimeoutError, String(error));
    assert.ok(Date.now() - started < 2 * timeoutMs, `ended after ${Date.now() - started} ms`);
    assert.match(error.message, /within 1000 ms/);
    // The gateway did create it; the same key, later, returns that link instead of a second one.
    const again = await client().createPaymentLink(input, { idempotencyKey: error.idempotencyKey });
    const links = await linksOf(input.merchant_order_id);
    assert.deepEqual(links.map((l) => l.payment_link_ref), [again.payment_link_ref]);
  });

  it('refunds exactly once through cut connections, with the caller’s own Idempotency-Key', async () => {
    const input = sampleLink();
    const { payment_link_ref } = await gw.client.createPaymentLink(input);
    await gw.markPaid(payment_link_ref);
    proxy.fail(['drop-after', 'drop-before', 'drop-after'], /createRefund/);
    const refunds = await client({ maxRetries: 3 }).createRefund(input.merchant_order_id, { ...REFUND, amount: 60_000 }, { idempotencyKey: `refund-${input.merchant_order_id}-1` });
    assert.equal(refunds.refundDetails.length, 1);
    assert.equal(refunds.amountToRefund, input.amount - 60_000);
    assert.deepEqual(logOf(/createRefund/).map((a) => a.idempotencyKey), Array(4).fill(`refund-${input.merchant_order_id}-1`));
    assert.equal((await gw.client.getRefunds(input.merchant_order_id)).refundDetails.length, 1);
  });

  it('gives up after its retries with the last error answer, typed, and does not wait for a Retry-After past its deadline', async () => {
    proxy.fail([{ status: 503 }, { status: 503 }, { status: 503 }], /^\/api\/paymentLink$/);
    const input = sampleLink();
    const unavailable = await client().createPaymentLink(input).catch((e: unknown) => e);
    assert.ok(unavailable instanceof PayCheckoutApiError);
    assert.equal(unavailable.status, 503);
    assert.equal(unavailable.attempts, 3);
    assert.equal(logOf(/^\/api\/paymentLink$/).length, 3);

    proxy.fail([{ status: 429, retryAfter: '3600' }], /^\/api\/paymentLink$/);
    const started = Date.now();
    const limited = await client().createPaymentLink(input).catch((e: unknown) => e);
    assert.ok(limited instanceof PayCheckoutApiError);
    assert.equal(limited.status, 429);
    assert.equal(limited.retryAfterMs, 3_600_000);
    assert.equal(limited.attempts, 1);
    assert.ok(Date.now() - started < 30_000);
    assert.deepEqual(await linksOf(input.merchant_order_id), []);
  });

  it('refuses an answer the contract does not allow with a PayCheckoutResponseError naming the field', async () => {
    proxy.fail([{ status: 201, body: JSON.stringify({ payment_link_ref: 42, payment_link: 'x' }) }], /^\/api\/paymentLink$/);
    const error = await client().createPaymentLink(sampleLink()).catch((e: unknown) => e);
    assert.ok(error instanceof PayCheckoutResponseError, String(error));
    assert.deepEqual(error.issues.map((i) => i.path), ['payment_link_ref']);
    assert.equal(error.attempts, 1);

    proxy.fail([{ status: 200, body: '<html>proxy error</html>' }], /^\/api\/refund/);
    await assert.rejects(client().getRefunds('order-1'), (e: unknown) => e instanceof PayCheckoutResponseError && /not JSON/.test(e.message));
  });

  it('does not repeat a call that takes no Idempotency-Key once the request may have been handled', async () => {
    const { endpoint_id } = await gw.client.addWebhookEndpoint('http://127.0.0.1:9/hooks');
    proxy.fail(['drop-after'], /\/api\/webhooks\/endpoints\//);
    const error = await client().removeWebhookEndpoint(endpoint_id).catch((e: unknown) => e);
    assert.ok(error instanceof PayCheckoutConnectionError, String(error));
    assert.equal(error.attempts, 1);
    assert.equal(logOf(/\/api\/webhooks\/endpoints\//).length, 1);
  });

  it('adds one webhook endpoint through a cut answer: the retry, under the same key, answers the same endpoint and secret', async () => {
    const url = 'http://127.0.0.1:9/hooks-once';
    proxy.fail(['drop-after'], /\/api\/webhooks\/endpoints$/);
    const endpoint = await client().addWebhookEndpoint(url);
    const attempts = logOf(/\/api\/webhooks\/endpoints$/);
    assert.deepEqual(attempts.map((a) => a.fault), ['drop-after', 'pass']);
    assert.equal(new Set(attempts.map((a) => a.idempotencyKey)).size, 1);
    assert.deepEqual((await gw.client.listWebhookEndpoints()).filter((e) => e.url === url), [endpoint]);
  });

  it('accepts a held payment with one Idempotency-Key and answers the link resource, validated', async () => {
    const { payment_link_ref } = await gw.client.createPaymentLink(sampleLink());
    const resource = await gw.client.getPaymentLink(payment_link_ref);
    proxy.fail([{ status: 503 }, { status: 200, body: JSON.stringify(resource) }], /\/accept$/);
    assert.deepEqual(await client().acceptPayment('pay_held 1'), resource);
    const attempts = logOf(/\/accept$/);
    assert.deepEqual(attempts.map((a) => [a.method, a.path]), Array(2).fill(['POST', '/api/payments/pay_held%201/accept']));
    assert.equal(new Set(attempts.map((a) => a.idempotencyKey)).size, 1);

    proxy.fail([{ status: 200, body: JSON.stringify({ ...resource, amountToRefund: '0' }) }], /\/accept$/);
    await assert.rejects(client().acceptPayment('pay_held'), (e: unknown) => e instanceof PayCheckoutResponseError && e.issues[0]?.path === 'amountToRefund');
  });

  it('cancels a link once through a cut answer: the retry, under the caller’s key, answers the cancelled link', async () => {
    const { payment_link_ref } = await gw.client.createPaymentLink(sampleLink());
    proxy.fail(['drop-after'], /\/cancel$/);
    const cancelled = await client().cancelPaymentLink(payment_link_ref, { idempotencyKey: `cancel-${payment_link_ref}` });
    assert.equal(cancelled.status, 'cancelled');
    const attempts = logOf(/\/cancel$/);
    assert.deepEqual(attempts.map((a) => [a.fault, a.idempotencyKey]), [['drop-after', `cancel-${payment_link_ref}`], ['pass', `cancel-${payment_link_ref}`]]);
    assert.deepEqual(await gw.client.getPaymentLink(payment_link_ref), cancelled);
  });

  it('never creates two links for one call, whatever the network does (property)', async () => {
    const fault = fc.constantFrom<Fault>('drop-before', 'drop-after', { status: 503 }, { status: 502 }, { status: 408 }, { status: 429, retryAfter: '0' });
    await fc.assert(
      fc.asyncProperty(fc.array(fault, { maxLength: 4 }), async (faults) => {
        proxy.fail(faults, /^\/api\/paymentLink$/);
        const input = sampleLink();
        const outcome = await client({ initialRetryDelayMs: 1 })
          .createPaymentLink(input)
          .catch((e: unknown) => (e instanceof PayCheckoutError ? e : assert.fail(`an untyped error: ${String(e)}`)));
        const links = await linksOf(input.merchant_order_id);
        if (outcome instanceof PayCheckoutError) {
          assert.ok(links.length <= 1);
          // The same key later finishes the call: one link in all.
          proxy.fail([]);
          const again = await client().createPaymentLink(input, { idempotencyKey: outcome.idempotencyKey });
          assert.deepEqual((await linksOf(input.merchant_order_id)).map((l) => l.payment_link_ref), [again.payment_link_ref]);
        } else {
          assert.deepEqual(links.map((l) => l.payment_link_ref), [outcome.payment_link_ref]);
        }
      }),
      { numRuns: 25 },
    );
  });
});

// A link the merchant cancels (docs/api.md, "Cancel a payment link"): no new payment, the open quote closed, money that
// still comes held and refundable, one payment_link.cancelled webhook; refused (409) once a customer sent money.
// Store: any. The cancel is one column the state function reads; the same statements on either store, so it runs in the PGlite pass only.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Payment, PaymentLinkResource, RefundList } from '../../src/contract/index.js';
import { PayCheckoutApiError, verifyRedirect } from '../../src/merchant/index.js';
import { checkoutApi, sandboxApi } from '../helpers/checkout.js';
import { useTestGateway } from '../helpers/fixture.js';
import { sampleLink, storageName } from '../helpers/gateway.js';
import { accessToken, JSON_TYPE, send } from '../helpers/merchant-api.js';
import { startReceiver } from '../helpers/receiver.js';

describe(`cancelling a payment link (${storageName})`, () => {
  const gw = useTestGateway({ reset: true });

  const sandbox = () => sandboxApi(gw.url);
  async function newLink() {
    const input = sampleLink();
    const link = await gw.client.createPaymentLink(input);
    return { ...link, orderId: input.merchant_order_id, checkout: checkoutApi(gw.url, link.payment_link_ref) };
  }
  async function pay(payment: Payment, amount = payment.amount_crypto) {
    const sent = await sandbox().transfer(payment.address, payment.asset, payment.network, amount);
    assert.equal(sent.status, 201, JSON.stringify(sent.body));
  }
  const merchant = async <T>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
    send<T>(gw.url, method, path, {
      headers: { Authorization: `Bearer ${await accessToken(gw.url, gw.credentials)}`, ...JSON_TYPE, ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  const cancel = (ref: string, headers: Record<string, string> = {}) => merchant<PaymentLinkResource>('POST', `/api/paymentLink/${ref}/cancel`, undefined, headers);
  const detail = (body: unknown) => String((body as { detail?: string }).detail);

  it('closes the open quote, refuses new payments, holds a transfer to the old address and lets the merchant refund it', async () => {
    const { checkout, orderId, payment_link_ref: ref } = await newLink();
    const { body: payment } = await checkout.open('USDT', 'TRON');
    const cancelled = await cancel(ref);
    assert.equal(cancelled.status, 200, JSON.stringify(cancelled.body));
    assert.deepEqual([cancelled.body.status, cancelled.body.payments[0]!.status], ['cancelled', 'expired']);
    const view = (await checkout.view()).body;
    assert.equal(view.status, 'cancelled');
    assert.deepEqual((await verifyRedirect(view.failure_redirect_url!, gw.credentials.clientSecret))?.status, 'cancelled');
    const refused = await checkout.open('USDT', 'TRON');
    assert.equal(refused.status, 410, JSON.stringify(refused.body));
    assert.match(detail(refused.body), /cancelled/);
    assert.equal((await checkout.open('USDT', 'ETHEREUM')).status, 410, 'no payment in another asset either');
    // The customer's wallet sends to the address of the quote that closed.
    await pay(payment);
    await sandbox().mine(3, 'TRON');
    const held = await gw.client.getPaymentLink(ref);
    assert.deepEqual([held.status, held.payments[0]!.status, held.payments[0]!.held_vnd, held.amountToRefund], ['cancelled', 'paid_late', 360_000, 360_000]);
    const refund = await merchant<RefundList>('POST', `/api/refund/createRefund/${orderId}`, {
      amount: 360_000, channel: 'PROVIDER', description: 'returned', refund_type: 'full', refund_reason: 'order cancelled', send_to: 'payer',
    });
    assert.equal(refund.status, 201, JSON.stringify(refund.body));
    assert.equal(refund.body.amountToRefund, 0);
    assert.equal((await gw.client.getPaymentLink(ref)).status, 'cancelled');
  });

  it('says when the merchant cancelled the link: cancelled_at, null before, in the link, the list and the webhook body', async () => {
    const { payment_link_ref: ref, orderId } = await newLink();
    assert.equal((await gw.client.getPaymentLink(ref)).cancelled_at, null);
    gw.clock.advance(60_000);
    const at = gw.clock.now().toISOString();
    const cancelled = await cancel(ref);
    assert.equal(cancelled.body.cancelled_at, at);
    assert.equal((await gw.client.getPaymentLink(ref)).cancelled_at, at);
    const { payment_links: listed } = await gw.client.listPaymentLinks({ merchant_order_id: orderId });
    assert.deepEqual(listed.map((l) => [l.payment_link_ref, l.cancelled_at]), [[ref, at]]);
    const [event] = (await gw.client.events.list({ type: 'payment_link.cancelled' })).data;
    assert.equal(event?.data.payment_link.cancelled_at, at);
  });

  it('sends payment_link.cancelled once, also when cancelled again (200, the same link) and under a key', async () => {
    const receiver = await startReceiver();
    try {
      await gw.client.addWebhookEndpoint(receiver.url);
      const { checkout, payment_link_ref: ref } = await newLink();
      await checkout.open('USDT', 'TRON');
      const first = await cancel(ref, { 'Idempotency-Key': 'cancel-1' });
      assert.equal(first.status, 200);
      const again = await cancel(ref);
      assert.deepEqual([again.status, again.body], [200, first.body]);
      const replay = await cancel(ref, { 'Idempotency-Key': 'cancel-1' });
      assert.deepEqual([replay.status, replay.headers.get('idempotent-replayed'), replay.body], [200, 'true', first.body]);
      await gw.deliverAll();
      assert.deepEqual(receiver.types().sort(), ['payment.expired', 'payment_link.cancelled']);
    } finally {
      await receiver.stop();
    }
  });

  it('refuses a paid link and one whose payment has received money (seen, underpaid) with a 409 saying why', async () => {
    const seen = await newLink();
    const { body: p1 } = await seen.checkout.open('USDT', 'TRON');
    await pay(p1);
    const unconfirmed = await cancel(seen.payment_link_ref);
    assert.equal(unconfirmed.status, 409);
    assert.match(detail(unconfirmed.body), /received money seen and not yet confirmed/);
    await sandbox().mine(3, 'TRON');
    const paid = await cancel(seen.payment_link_ref);
    assert.equal(paid.status, 409);
    assert.match(detail(paid.body), /paid/);
    await assert.rejects(gw.client.cancelPaymentLink(seen.payment_link_ref), (e: unknown) => e instanceof PayCheckoutApiError && e.status === 409, 'the SDK says the same');

    const partial = await newLink();
    const { body: p2 } = await partial.checkout.open('USDT', 'TRON');
    await pay(p2, '1.00');
    await sandbox().mine(3, 'TRON');
    assert.equal((await partial.checkout.payment(p2.payment_id)).body.status, 'underpaid');
    const underpaid = await cancel(partial.payment_link_ref);
    assert.equal(underpaid.status, 409);
    assert.match(detail(underpaid.body), /underpaid/);
    assert.equal((await gw.client.getPaymentLink(partial.payment_link_ref)).status, 'active', 'nothing changed');
  });

  it('answers 404 for another merchant’s link and for none, 401 without a token; a new link may follow for the order', async () => {
    const { payment_link_ref: ref, orderId } = await newLink();
    const other = await gw.addMerchant();
    const theirs = await send(gw.url, 'POST', `/api/paymentLink/${ref}/cancel`, { headers: { Authorization: `Bearer ${await accessToken(gw.url, other.credentials)}` } });
    assert.equal(theirs.status, 404);
    assert.equal((await cancel('pl_unknown')).status, 404);
    assert.equal((await send(gw.url, 'POST', `/api/paymentLink/${ref}/cancel`)).status, 401);
    assert.equal((await gw.client.getPaymentLink(ref)).status, 'active');
    assert.equal((await gw.client.cancelPaymentLink(ref, { idempotencyKey: 'sdk-cancel' })).status, 'cancelled', 'the SDK cancels');
    const next = await gw.client.createPaymentLink(sampleLink({ merchant_order_id: orderId }));
    assert.equal((await gw.client.getPaymentLink(next.payment_link_ref)).status, 'active');
  });
});

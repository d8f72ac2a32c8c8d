// Webhooks to a real local receiver: every event type, signed; retries through failures, in order, once per
// success; delivery after a restart; two processes sharing one PostgreSQL never send one event twice.
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, beforeEach, describe, it } from 'node:test';
import type { WebhookEvent } from '../../src/contract/index.js';
import type { PayCheckoutApiError } from '../../src/merchant/index.js';
import { verifyRedirect, verifyWebhook, WebhookVerificationError } from '../../src/merchant/index.js';
import { ManualClock } from '../../src/sandbox/clock.js';
import { checkoutApi, sandboxApi } from '../helpers/checkout.js';
import { useTestGateway } from '../helpers/fixture.js';
import { sampleLink, startTestGateway, storageName, type TestGateway } from '../helpers/gateway.js';

import { startReceiver } from '../helpers/receiver.js';

// Long enough that a loaded machine's local receiver answers in time (one test waits it out once, on purpose).
const TIMEOUT_MS = 2_000;

describe(`webhooks (${storageName})`, () => {
  const gw = useTestGateway({ config: { webhookTimeoutMs: TIMEOUT_MS }, reset: true });
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let secret: string;
  let endpointId: string;

  before(async () => {
    receiver = await startReceiver();
  });
  after(() => receiver.stop());
  beforeEach(async () => {
    receiver.received.length = 0;
    receiver.setMode('ok');
    const endpoint = await gw.client.addWebhookEndpoint(receiver.url);
    ({ secret, endpoint_id: endpointId } = endpoint);
  });

  const events = () => Promise.all(receiver.received.map((r) => verifyWebhook(r.body, r.signature, secret, { now: gw.clock.now() })));

  async function openPayment(overrides = {}) {
    const link = await gw.client.createPaymentLink(sampleLink(overrides));
    const { body: payment } = await checkoutApi(gw.url, link.payment_link_ref).open('USDT', 'TRON');
    return { ref: link.payment_link_ref, payment, orderId: link.payment_link_ref && (overrides as { merchant_order_id?: string }).merchant_order_id };
  }

  const sandbox = () => sandboxApi(gw.url);

  it('delivers every event type, signed, with the link as the read API shows it', async () => {
    const { ref, payment } = await openPayment({ merchant_order_id: 'wh-all' });
    const half = (BigInt(payment.amount_crypto.replace('.', '')) / 2n).toString();
    await sandbox().transfer(payment.address, 'USDT', 'TRON', `${half.slice(0, -6) || '0'}.${half.slice(-6).padStart(6, '0')}`);
    await sandbox().mine(3, 'TRON');
    const { body: underpaid } = await checkoutApi(gw.url, ref).payment(payment.payment_id);
    await sandbox().transfer(payment.address, 'USDT', 'TRON', underpaid.remaining_crypto);
    await sandbox().mine(3, 'TRON');
    const refund = { channel: 'PROVIDER', description: 'returned', refund_type: 'partial' } as const;
    // One sent to the payer (confirmed by the blocks below), one cancelled before it was claimed.
    await gw.client.createRefund('wh-all', { ...refund, amount: 10_000, refund_reason: 'damaged', send_to: 'payer' });
    const claimed = await gw.client.createRefund('wh-all', { ...refund, amount: 10_000, refund_reason: 'asked by mistake' });
    await gw.client.cancelRefund(claimed.refundDetails.at(-1)!.refund_id);

    const late = await openPayment();
    await sandbox().expireQuote(late.payment.payment_id);
    gw.clock.advance(1000);
    await sandbox().transfer(late.payment.address, 'USDT', 'TRON', late.payment.amount_crypto);
    await sandbox().mine(3, 'TRON');

    await gw.client.createPaymentLink(sampleLink({ merchant_order_id: 'wh-expiring', expiry_hours: 1 }));
    gw.clock.advance(3_600_000);
    await gw.gateway.watcher.tick();

    await gw.deliverAll();
    const received = await events();
    assert.deepEqual(new Set(received.map((e) => e.type)), new Set([
      'payment.confirming', 'payment.paid', 'payment.underpaid', 'payment.expired', 'payment.paid_late',
      'payment_link.expired', 'refund.pending', 'refund.succeeded', 'refund.failed',
    ]));
    assert.deepEqual(
      received.filter((e) => e.data.payment_link?.payment_link_ref === ref).map((e) => e.type),
      ['payment.underpaid', 'payment.confirming', 'payment.paid', 'refund.pending', 'refund.pending', 'refund.failed', 'refund.succeeded'],
      'in order per link',
    );
    const paid = received.find((e) => e.type === 'payment.paid')!;
    assert.equal(paid.payment_id, payment.payment_id);
    assert.equal(paid.data.payment_link.status, 'paid');
    assert.equal(paid.data.payment_link.payments[0]!.status, 'paid');
    assert.deepEqual(await gw.client.getPaymentLink(ref).then((l) => l.payment_link_ref), ref);
    assert.equal(new Set(received.map((e) => e.id)).size, received.length, 'one delivery per event');
    assert.ok(receiver.received.every((r) => r.eventId === (JSON.parse(r.body) as WebhookEvent).id));
  });

  it('retries through a 500, a timeout and a refused connection, then delivers once, in order', async () => {
    receiver.setMode('error');
    const { payment } = await openPayment();
    await sandbox().transfer(payment.address, 'USDT', 'TRON', payment.amount_crypto); // confirming
    await sandbox().mine(3, 'TRON'); // paid
    await gw.deliverAll();
    let log = await gw.client.getWebhookDeliveries(endpointId);
    assert.deepEqual(log.map((d) => [d.type, d.status, d.attempts, d.last_status_code]), [
      ['payment.paid', 'pending', 0, null],
      ['payment.confirming', 'pending', 1, 500],
    ], 'the later event waits for the earlier one');
    assert.equal(log[1]!.last_error, 'HTTP 500');
    assert.equal(Date.parse(log[1]!.next_attempt_at!) - gw.clock.now().getTime(), 10_000);

    receiver.setMode('hang');
    gw.clock.advance(10_000);
    await gw.deliverAll();
    log = await gw.client.getWebhookDeliveries(endpointId);
    assert.equal(log[1]!.last_error, 'unreachable', 'a timeout, in the words the merchant sees');

    await receiver.stop();
    gw.clock.advance(20_000);
    await gw.deliverAll();
    log = await gw.client.getWebhookDeliveries(endpointId);
    assert.equal(log[1]!.attempts, 3);
    assert.equal(log[1]!.last_error, 'unreachable', 'a refused connection, with no word of the gateway\'s network');

    await receiver.start();
    receiver.setMode('ok');
    gw.clock.advance(40_000);
    await gw.deliverAll();
    await gw.deliverAll();
    assert.deepEqual(receiver.types(), ['payment.confirming', 'payment.paid']);
    log = await gw.client.getWebhookDeliveries(endpointId);
    assert.deepEqual(log.map((d) => [d.status, d.attempts]), [['delivered', 1], ['delivered', 4]]);
  });

  it('gives up after three days of failures, and redelivers by hand', async () => {
    receiver.setMode('error');
    const { payment } = await openPayment();
    await sandbox().transfer(payment.address, 'USDT', 'TRON', payment.amount_crypto);
    for (let hour = 0; hour <= 73; hour++) {
      await gw.deliverAll();
      gw.clock.advance(3_600_000);
    }
    const [delivery] = await gw.client.getWebhookDeliveries(endpointId);
    assert.equal(delivery!.status, 'failed');
    assert.ok(delivery!.attempts > 70);
    receiver.setMode('ok');
    await gw.client.redeliverWebhook(delivery!.delivery_id);
    await gw.deliverAll();
    assert.deepEqual(receiver.types(), ['payment.confirming']);
  });

  it('sends nothing more to a removed endpoint, not even what was waiting for it', async () => {
    receiver.setMode('error');
    const { payment } = await openPayment();
    await sandbox().transfer(payment.address, 'USDT', 'TRON', payment.amount_crypto);
    await gw.deliverAll();
    const [waiting] = await gw.client.getWebhookDeliveries(endpointId);
    assert.equal(waiting!.status, 'pending');
    await gw.client.removeWebhookEndpoint(endpointId);
    receiver.setMode('ok');
    await sandbox().mine(3, 'TRON'); // paid: a new event, for no endpoint
    gw.clock.advance(3_600_000);
    await gw.deliverAll();
    assert.deepEqual(receiver.received, []);
    const [removed] = await gw.gateway.db.query<{ status: string }>('SELECT status FROM webhook_deliveries WHERE delivery_id = $1', [waiting!.delivery_id]);
    assert.equal(removed!.status, 'failed');
    await assert.rejects(gw.client.redeliverWebhook(waiting!.delivery_id), (error: PayCheckoutApiError) => error.status === 404);
  });

  it('delivers after a restart what was written before it', async () => {
    const dataDir = process.env.TEST_DATABASE_URL ? undefined : await mkdtemp(join(tmpdir(), 'pay-checkout-'));
    const clock = new ManualClock();
    // A schema of our own, named up front, so both gateways use it and closing the first leaves it in place.
    const schema = process.env.TEST_DATABASE_URL ? `test_restart_${Date.now().toString(36)}` : undefined;
    const first = await startTestGateway({ clock, schema, config: { dataDir } });
    const { secret: restartSecret } = await first.client.addWebhookEndpoint(receiver.url);
    const link = await first.client.createPaymentLink(sampleLink());
    await first.markPaid(link.payment_link_ref);
    // The gateway stops after the state change and before any delivery.
    await first.close();
    const second = await startTestGateway({ clock, schema, config: { dataDir } });
    try {
      await second.deliverAll();
      const types = (await Promise.all(receiver.received.map((r) => verifyWebhook(r.body, r.signature, restartSecret, { now: clock.now() })))).map((e) => e.type);
      assert.deepEqual(types, ['payment.confirming', 'payment.paid']);
    } finally {
      await second.close();
      if (dataDir) await rm(dataDir, { recursive: true, force: true });
    }
  });

  it('lets the SDK reject a forged, tampered or replayed webhook and a tampered redirect', async () => {
    const { ref, payment } = await openPayment();
    await sandbox().transfer(payment.address, 'USDT', 'TRON', payment.amount_crypto);
    await gw.deliverAll();
    const { body, signature } = receiver.received[0]!;
    const now = gw.clock.now();
    assert.equal((await verifyWebhook(body, signature, secret, { now })).type, 'payment.confirming');
    await assert.rejects(() => verifyWebhook(body, signature, 'whsec_forged', { now }), WebhookVerificationError);
    await assert.rejects(() => verifyWebhook(body.replace('confirming', 'paid'), signature, secret, { now }), WebhookVerificationError);
    await assert.rejects(() => verifyWebhook(body, signature, secret, { now: new Date(now.getTime() + 301_000) }), /tolerance/);
    await assert.rejects(() => verifyWebhook(body, undefined, secret, { now }), WebhookVerificationError);

    await sandbox().mine(3, 'TRON');
    const { body: paid } = await checkoutApi(gw.url, ref).payment(payment.payment_id);
    const redirect = paid.success_redirect_url!;
    assert.deepEqual(await verifyRedirect(redirect, gw.credentials.clientSecret), {
      merchant_order_id: (await gw.client.getPaymentLink(ref)).merchant_order_id,
      payment_link_ref: ref,
      status: 'paid',
    });
    const forged = new URL(redirect);
    forged.searchParams.set('payment_link_ref', 'pl_someone_else');
    assert.equal(await verifyRedirect(forged, gw.credentials.clientSecret), undefined);
    assert.equal(await verifyRedirect(redirect, 'wrong secret'), undefined);
  });

  if (process.env.TEST_DATABASE_URL) {
    it('sends each event exactly once with two gateway processes on one database', async () => {
      const schema = (await gw.gateway.db.query<{ schema: string }>('SELECT current_schema() AS schema'))[0]!.schema;
      const second = await startTestGateway({ clock: gw.clock, schema, config: { webhookTimeoutMs: TIMEOUT_MS } });
      try {
        for (let i = 0; i < 10; i++) {
          const { payment } = await openPayment();
          await sandbox().transfer(payment.address, 'USDT', 'TRON', payment.amount_crypto);
        }
        await sandbox().mine(3, 'TRON');
        const worker = async (g: TestGateway) => {
          for (let round = 0; round < 20; round++) await g.gateway.webhookDispatcher.deliverDue();
        };
        await Promise.all([worker(gw), worker(second)]);
        const ids = receiver.received.map((r) => r.eventId);
        assert.equal(ids.length, 20, `confirming and paid for each of 10 payments: ${JSON.stringify(receiver.received.map((r) => [r.eventId, (JSON.parse(r.body) as { type: string }).type]))}`);
        assert.equal(new Set(ids).size, ids.length);
      } finally {
        await second.close(); // the schema is the first gateway's: left in place
      }
    });
  }
});

describe(`the webhook worker stopping (${storageName})`, () => {
  it('settles at once when asked to deliver with nothing to do, started or stopped', { timeout: 20_000 }, async () => {
    const gw = await startTestGateway();
    try {
      const webhooks = gw.gateway.webhookDispatcher;
      assert.equal(await webhooks.deliverDue(), 0);
      await webhooks.start(60_000);
      await webhooks.stop();
      // A send that finishes while the worker stops asks it to look again: that must not leave a claim that never ends.
      assert.equal(await webhooks.deliverDue(), 0);
      await webhooks.stop();
    } finally {
      await gw.close();
    }
  });
});

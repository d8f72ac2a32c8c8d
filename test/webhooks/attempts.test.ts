// Every attempt of a delivery, as the portal shows it: the body sent, the receiver's status and the start of its
// answer (as text, at most 4 KiB), how long it took, or in a word why nothing answered; a test event per endpoint,
// signed and sent as every event; a delivery sent again adds an attempt.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, beforeEach, describe, it } from 'node:test';
import { WEBHOOK_RESPONSE_BODY_BYTES, type WebhookAttempt } from '../../src/contract/index.js';
import type { PayCheckoutApiError } from '../../src/merchant/index.js';
import { verifyWebhook } from '../../src/merchant/index.js';
import { systemResolve } from '../../src/sandbox/services/webhooks/targets.js';
import { useTestGateway } from '../helpers/fixture.js';
import { sampleLink, storageName } from '../helpers/gateway.js';

/** What the receiver answers next: a status and a body (bytes or text), or nothing at all. */
type Reply = { status: number; body: string | Buffer } | 'hang';

/** A receiver that answers each POST with the next reply queued (200 "ok" when none is), and keeps what came. */
async function replyingReceiver() {
  const replies: Reply[] = [];
  const received: { body: string; signature: string }[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ body: Buffer.concat(chunks).toString('utf8'), signature: String(request.headers['pay-checkout-signature']) });
      const reply = replies.shift() ?? { status: 200, body: 'ok' };
      if (reply === 'hang') return;
      response.writeHead(reply.status, { 'Content-Type': 'text/html' }).end(reply.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://localhost:${port}/hooks`,
    port,
    replies,
    received,
    stop: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
}

const PUBLIC = '93.184.216.34';

describe(`webhook attempts (${storageName})`, () => {
  let receiver: Awaited<ReturnType<typeof replyingReceiver>>;
  let endpointId: string;
  let secret: string;
  // Public when added, then resolving nowhere, or to a private address, at the delivery.
  const names: Record<string, string[][]> = { 'nowhere.shop.test': [[PUBLIC], []], 'rebind.shop.test': [[PUBLIC], ['10.1.2.3']] };
  const asked: Record<string, number> = {};
  const resolve = async (host: string) => {
    const answers = names[host];
    if (!answers) return systemResolve(host);
    const nth = (asked[host] = (asked[host] ?? 0) + 1) - 1;
    return answers[Math.min(nth, answers.length - 1)]!;
  };

  const gw = useTestGateway({ config: { webhookTimeoutMs: 2_000 }, resolve, reset: true });
  before(async () => {
    receiver = await replyingReceiver();
  });
  after(() => receiver.stop());
  beforeEach(async () => {
    receiver.received.length = 0;
    receiver.replies.length = 0;
    for (const host of Object.keys(asked)) delete asked[host];
    ({ endpoint_id: endpointId, secret } = await gw.client.addWebhookEndpoint(receiver.url));
  });

  /** A paid link: payment.confirming and payment.paid queued for every endpoint. */
  async function paidLink() {
    const { payment_link_ref: ref } = await gw.client.createPaymentLink(sampleLink());
    await gw.markPaid(ref);
    return ref;
  }

  const attempts = async (deliveryId: number) => (await gw.client.getWebhookDelivery(deliveryId)).attempt_log;
  const only = (log: WebhookAttempt[]) => log.map(({ status_code, response_body, response_truncated, error }) => ({ status_code, response_body, response_truncated, error }));

  it("keeps each attempt's status and answer, as text, beside the body it sent", async () => {
    const ref = await paidLink();
    receiver.replies.push({ status: 503, body: '<h1>Down</h1><script>alert(1)</script>' });
    await gw.deliverAll();
    gw.clock.advance(10_000);
    await gw.deliverAll();
    const [, confirming] = await gw.client.getWebhookDeliveries(endpointId);
    assert.equal(confirming!.type, 'payment.confirming');
    const detail = await gw.client.getWebhookDelivery(confirming!.delivery_id);
    assert.deepEqual(only(detail.attempt_log), [
      { status_code: 503, response_body: '<h1>Down</h1><script>alert(1)</script>', response_truncated: false, error: null },
      { status_code: 200, response_body: 'ok', response_truncated: false, error: null },
    ]);
    assert.ok(detail.attempt_log.every((a) => Number.isInteger(a.duration_ms) && a.duration_ms >= 0));
    assert.equal(detail.attempt_log[1]!.attempted_at, gw.clock.now().toISOString());
    assert.equal(detail.endpoint_id, endpointId);
    assert.equal(detail.payment_link_ref, ref);
    assert.equal(detail.payload, receiver.received[0]!.body, 'the body as sent, byte for byte');
    assert.equal(receiver.received[0]!.body, receiver.received[1]!.body, 'and the same body again');
    assert.equal(detail.last_status_code, 200);
  });

  it('keeps the first 4 KiB of a long answer, and a NUL or a broken character does not stop it', async () => {
    await paidLink();
    const long = Buffer.concat([Buffer.from('a\0b'), Buffer.alloc(WEBHOOK_RESPONSE_BODY_BYTES * 3, 'x')]);
    receiver.replies.push({ status: 200, body: long }, { status: 200, body: Buffer.from([0x68, 0x69, 0xff]) });
    await gw.deliverAll();
    const [paid, confirming] = await gw.client.getWebhookDeliveries(endpointId);
    const [first] = await attempts(confirming!.delivery_id);
    assert.equal(first!.response_truncated, true);
    assert.equal(first!.response_body, `ab${'x'.repeat(WEBHOOK_RESPONSE_BODY_BYTES - 3)}`);
    const [second] = await attempts(paid!.delivery_id);
    assert.deepEqual(only([second!]), [{ status_code: 200, response_body: 'hi\uFFFD', response_truncated: false, error: null }]);
  });

  it('says in a word why nothing answered: timeout, connection_failed, tls, unresolved, refused_address', async () => {
    const gone = await replyingReceiver();
    const { endpoint_id } = await gw.client.addWebhookEndpoint(gone.url);
    gone.replies.push('hang');
    const { delivery_id: id } = await gw.client.sendTestWebhook(endpoint_id);
    await gw.deliverAll();
    await gone.stop();
    gw.clock.advance(10_000);
    await gw.deliverAll();
    const log = await attempts(id);
    assert.deepEqual(
      log.map((a) => [a.status_code, a.response_body, a.error]),
      [
        [null, null, 'timeout'],
        [null, null, 'connection_failed'],
      ],
    );
    assert.equal((await gw.client.getWebhookDeliveries(endpoint_id))[0]!.last_error, 'unreachable', 'the log line says what it said before');

    // https: to a server that speaks plain http; names that do not resolve, or resolve to a private address.
    const plain = await replyingReceiver();
    try {
      for (const [url, error] of [
        [`https://localhost:${plain.port}/hooks`, 'tls'],
        ['https://nowhere.shop.test/hooks', 'unresolved'],
        ['https://rebind.shop.test/hooks', 'refused_address'],
      ] as const) {
        const endpoint = await gw.client.addWebhookEndpoint(url);
        const test = await gw.client.sendTestWebhook(endpoint.endpoint_id);
        await gw.deliverAll();
        assert.deepEqual(
          (await attempts(test.delivery_id)).map((a) => [a.status_code, a.error]),
          [[null, error]],
          url,
        );
      }
    } finally {
      await plain.stop();
    }
  });

  it('sends an endpoint a test event, signed, about no link, ahead of deliveries still waiting', async () => {
    receiver.replies.push({ status: 500, body: 'not yet' });
    const ref = await paidLink();
    await gw.deliverAll();
    const test = await gw.client.sendTestWebhook(endpointId);
    assert.deepEqual([test.type, test.payment_link_ref, test.status, test.attempts], ['test.ping', null, 'pending', 0]);
    await gw.deliverAll();
    // The link's events wait for their retry; the test went at once.
    const event = await verifyWebhook(receiver.received.at(-1)!.body, receiver.received.at(-1)!.signature, secret, { now: gw.clock.now() });
    assert.equal(event.type, 'test.ping');
    assert.deepEqual(event.data, { payment_link: null, endpoint_id: endpointId });
    assert.deepEqual([event.payment_id, event.refund_id], [null, null]);
    const log = await gw.client.getWebhookDeliveries(endpointId);
    assert.deepEqual(
      log.map((d) => [d.type, d.status]),
      [
        ['test.ping', 'delivered'],
        ['payment.paid', 'pending'],
        ['payment.confirming', 'pending'],
      ],
    );
    assert.equal(log[0]!.event_id, event.id);
    assert.deepEqual(await gw.client.getWebhookDeliveries(endpointId, { paymentLinkRef: ref }).then((l) => l.length), 2, "not one of the link's");
    assert.equal(JSON.parse((await gw.client.getWebhookDelivery(test.delivery_id)).payload).id, event.id);
  });

  it("sending a delivery again adds an attempt; another merchant's delivery or endpoint is not found", async () => {
    await paidLink();
    await gw.deliverAll();
    const [paid] = await gw.client.getWebhookDeliveries(endpointId);
    await gw.client.redeliverWebhook(paid!.delivery_id);
    await gw.deliverAll();
    assert.equal((await attempts(paid!.delivery_id)).length, 2);
    assert.equal(receiver.received.filter((r) => JSON.parse(r.body).id === paid!.event_id).length, 2);

    const other = (await gw.addMerchant()).client;
    const status = (promise: Promise<unknown>) => promise.then(() => 200, (error: PayCheckoutApiError) => error.status);
    assert.equal(await status(other.getWebhookDelivery(paid!.delivery_id)), 404);
    assert.equal(await status(other.sendTestWebhook(endpointId)), 404);
    await gw.client.removeWebhookEndpoint(endpointId);
    assert.equal(await status(gw.client.sendTestWebhook(endpointId)), 404, 'nor a removed one');
    assert.equal(await status(gw.client.getWebhookDelivery(paid!.delivery_id)), 200, 'its log stays readable');
  });
});

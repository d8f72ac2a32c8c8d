// One slow merchant delays no other merchant's webhooks (docs/security.md): a receiver that holds every request
// open holds only its own merchant's few deliveries in flight, while another merchant's events go out at once.
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, it } from 'node:test';
import type { WebhookEventType } from '../../src/contract/index.js';
import { useTestGateway } from '../helpers/fixture.js';
import { sampleLink, storageName } from '../helpers/gateway.js';

import { startReceiver } from '../helpers/receiver.js';

/** A receiver that answers nothing until released, and counts how many requests it holds at once. */
async function stallingReceiver() {
  const held: ServerResponse[] = [];
  let released = false;
  let open = 0;
  let mostOpen = 0;
  let answered = 0;
  const answer = (response: ServerResponse) => {
    answered++;
    open--;
    response.writeHead(200).end('ok');
  };
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    open++;
    mostOpen = Math.max(mostOpen, open);
    request.resume();
    request.on('end', () => (released ? answer(response) : held.push(response)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (path: string) => `http://127.0.0.1:${port}/${path}`,
    open: () => open,
    mostOpen: () => mostOpen,
    answered: () => answered,
    release() {
      released = true;
      held.splice(0).forEach(answer);
    },
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

/** Waits for a condition, failing with `why` if it does not hold within `ms` (a guard against a hang, not a speed check). */
async function until(condition: () => boolean, why: string, ms = 15_000): Promise<void> {
  const end = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > end) assert.fail(why);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe(`webhook delivery fairness (${storageName})`, () => {
  // Far longer than the test: only the test's release ends the slow merchant's requests.
  const gw = useTestGateway({ config: { webhookTimeoutMs: 120_000 } });

  const emit = (merchantId: string, ref: string, type: WebhookEventType = 'payment.paid') =>
    gw.gateway.db.transaction((tx) => gw.gateway.webhookOutbox.emit(tx, { merchantId, type, ref }));

  it("delivers another merchant's events while a slow merchant's receiver holds every request open", async () => {
    const slow = await stallingReceiver();
    const fast = await startReceiver();
    try {
      // The slow merchant: 8 endpoints on the stalling receiver, 3 links: 24 deliveries, none waiting for another.
      const slowMerchant = gw.gateway.sandboxMerchant!.merchant_id;
      for (let i = 0; i < 8; i++) await gw.client.addWebhookEndpoint(slow.url(`hooks/${i}`));
      const slowRefs = [];
      for (let i = 0; i < 3; i++) slowRefs.push((await gw.client.createPaymentLink(sampleLink())).payment_link_ref);
      await gw.gateway.webhookDispatcher.start(50);
      for (const ref of slowRefs) await emit(slowMerchant, ref);
      await until(() => slow.open() > 0, 'the slow receiver got its first request');

      // Another merchant's event, queued while the slow ones hang.
      const other = await gw.addMerchant('Quick Merchant');
      const otherId = (await gw.gateway.merchants.byMerchantKey(other.credentials.merchantKey))!.merchant_id;
      await other.client.addWebhookEndpoint(fast.url);
      const otherRef = (await other.client.createPaymentLink(sampleLink())).payment_link_ref;
      await emit(otherId, otherRef);
      await until(() => fast.received.length === 1, "the other merchant's event waited for the slow merchant's receiver");
      assert.equal(slow.answered(), 0, 'the slow receiver still holds every request');
      assert.ok(slow.mostOpen() <= 4, `the slow merchant held ${slow.mostOpen()} deliveries in flight at once, more than its share of 4`);

      // Released, the slow merchant's deliveries all go out, a few at a time.
      slow.release();
      await until(() => slow.answered() === 24, `all 24 of the slow merchant's deliveries arrive (${slow.answered()} did)`);
      assert.ok(slow.mostOpen() <= 4);
    } finally {
      slow.release();
      await gw.gateway.webhookDispatcher.stop();
      await slow.close();
      await fast.stop();
    }
  });
});

// Stopping a gateway lets the requests under way finish, with their database, before it closes; then it closes
// the event streams that would otherwise hold it open.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkoutApi, followEvents } from '../helpers/checkout.js';
import { sampleLink, startTestGateway, storageName } from '../helpers/gateway.js';

describe(`gateway shutdown (${storageName})`, () => {
  it('answers a request that was under way when close() was called, and ends open event streams', async () => {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let arrived!: () => void;
    const underWay = new Promise<void>((resolve) => (arrived = resolve));
    const gw = await startTestGateway({
      // A request that is inside the gateway, waiting, when the stop comes; then it still needs the database.
      mount: (app, gateway) =>
        app.get('/test/slow', async (c) => {
          arrived();
          await released;
          const [row] = await gateway.db.query<{ links: number }>('SELECT count(*)::int AS links FROM payment_links');
          return c.json(row);
        }),
    });
    const link = await gw.client.createPaymentLink(sampleLink());
    await checkoutApi(gw.url, link.payment_link_ref).open('USDT', 'TRON');
    const events = followEvents(gw.url, link.payment_link_ref);
    await events.next((p) => p.status === 'awaiting_payment');

    const slow = fetch(`${gw.url}/test/slow`);
    await underWay;
    const closing = gw.close();
    release();
    const response = await slow;
    assert.equal(response.status, 200);
    assert.deepEqual(await response.json(), { links: 1 });
    await closing;
    events.close();
  });
});

// The event stream: the current state first, replay after Last-Event-ID, and — on PostgreSQL — a change made
// through one gateway process streamed by another on the same database.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { checkoutApi, followEvents, sandboxApi } from '../helpers/checkout.js';
import { useTestGateway } from '../helpers/fixture.js';
import { sampleLink, storageName } from '../helpers/gateway.js';
import { startGatewayProcess, urlInSchema, type GatewayProcess } from '../helpers/process.js';

describe(`payment event stream (${storageName})`, () => {
  const gw = useTestGateway();

  async function openPayment() {
    const { payment_link_ref: ref } = await gw.client.createPaymentLink(sampleLink());
    const { body: payment } = await checkoutApi(gw.url, ref).open('USDT', 'TRON');
    return { ref, payment };
  }

  it('sends the current state on connect, then every change, and replays what came after Last-Event-ID', async () => {
    const { ref, payment } = await openPayment();
    const first = followEvents(gw.url, ref);
    await first.next((p) => p.status === 'awaiting_payment');
    await sandboxApi(gw.url).transfer(payment.address, 'USDT', 'TRON', payment.amount_crypto);
    await first.next((p) => p.status === 'confirming');
    first.close();
    const [awaiting, ...rest] = first.seen;
    assert.equal(rest.length, 1);

    await sandboxApi(gw.url).mine(1, 'TRON');
    const resumed = followEvents(gw.url, ref, { lastEventId: awaiting!.id });
    try {
      await resumed.next((p) => p.transactions[0]?.confirmations === 1);
      assert.deepEqual(
        resumed.seen.map((e) => e.payment.status),
        ['confirming', 'confirming'],
        'replays the missed confirming event, then the block, and not the event it already had',
      );
      assert.ok(resumed.seen.every((e) => Number(e.id) > Number(awaiting!.id)));
    } finally {
      resumed.close();
    }
  });

  it('reads each change once for all the streams of a link, however many are open', async () => {
    const { ref, payment } = await openPayment();
    const streams = Array.from({ length: 20 }, () => followEvents(gw.url, ref));
    const { db } = gw.gateway;
    const query = db.query;
    let reads = 0;
    try {
      await Promise.all(streams.map((s) => s.next((p) => p.status === 'awaiting_payment')));
      db.query = <T extends object>(text: string, params?: readonly unknown[]) => {
        if (/FROM payment_events WHERE payment_link_ref/.test(text)) reads++;
        return query.call(db, text, params) as Promise<T[]>;
      };
      await sandboxApi(gw.url).transfer(payment.address, 'USDT', 'TRON', payment.amount_crypto);
      await Promise.all(streams.map((s) => s.next((p) => p.status === 'confirming')));
      assert.equal(reads, 1, 'one read of the new event, shared by the 20 streams');
      assert.ok(streams.every((s) => s.seen.length === 2));
    } finally {
      db.query = query;
      for (const s of streams) s.close();
    }
  });

  it('answers 404 for the stream of an unknown link', async () => {
    const response = await fetch(`${gw.url}/api/checkout/pl_nope/events`);
    assert.equal(response.status, 404);
    assert.equal(response.headers.get('content-type'), 'application/problem+json');
  });

  if (process.env.TEST_DATABASE_URL) {
    describe('two gateway processes on one PostgreSQL', () => {
      let other: GatewayProcess;
      before(async () => {
        const schema = (await gw.gateway.db.query<{ schema: string }>('SELECT current_schema() AS schema'))[0]!.schema;
        other = await startGatewayProcess({ DATABASE_URL: urlInSchema(process.env.TEST_DATABASE_URL!, schema) });
      });
      after(() => other.kill());

      it('streams from one process a transfer made through the other', async () => {
        const { ref, payment } = await openPayment();
        const events = followEvents(other.url, ref);
        try {
          await events.next((p) => p.status === 'awaiting_payment');
          await sandboxApi(gw.url).transfer(payment.address, 'USDT', 'TRON', payment.amount_crypto);
          const confirming = await events.next((p) => p.status === 'confirming');
          assert.equal(confirming.payment_id, payment.payment_id);
        } finally {
          events.close();
        }
      });
    });
  }
});

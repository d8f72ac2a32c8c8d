// The events API (GET /api/events): a merchant's events, oldest first, numbered by a per-merchant `sequence` with no
// gap. Paging while events are written never skips or repeats one (a property: concurrent writers, some rolled back,
// and a reader with random page sizes); another merchant's events and cursors are never reached (a property over
// random ids and cursors); and events about money name their chain facts. A receiver that was down through a run of
// payments catching up: events-anvil.test.ts.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import type { MerchantEventResource } from '../../src/contract/index.js';
import type { MerchantClient, PayCheckoutApiError } from '../../src/merchant/index.js';
import { blocksBetween, transactionByHash } from '../../src/sandbox/chains/simulated/storage.js';
import { ConfigError, loadConfig } from '../../src/sandbox/config.js';
import { useTestGateway } from '../helpers/fixture.js';
import { sampleLink, storageName } from '../helpers/gateway.js';
import { accessToken, send } from '../helpers/merchant-api.js';
import { storedMerchant } from '../helpers/merchants.js';

const OPEN = { pmt_channel: 'PROVIDER', pmt_method: 'PROVIDER_CRYPTO', asset: 'USDT', network: 'TRON' } as const;

/** Every event the client lists, through the SDK's iterator. */
async function all(client: MerchantClient, after?: string): Promise<MerchantEventResource[]> {
  const seen: MerchantEventResource[] = [];
  for await (const event of client.events.iterate({ after, limit: 37 })) seen.push(event);
  return seen;
}

function assertGapless(events: MerchantEventResource[], first = 1) {
  assert.deepEqual(
    events.map((e) => e.sequence),
    events.map((_, i) => first + i),
    'sequences 1, 2, 3, … with no gap and no repeat',
  );
  assert.equal(new Set(events.map((e) => e.id)).size, events.length, 'no event twice');
}

describe(`the events API (${storageName})`, () => {
  const gw = useTestGateway();

  it('never skips or repeats an event when a reader pages while events are written (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ events: fc.integer({ min: 1, max: 3 }), rollback: fc.boolean() }), { minLength: 3, maxLength: 25 }),
        fc.array(fc.integer({ min: 1, max: 100 }), { minLength: 1, maxLength: 10 }),
        async (writes, limits) => {
          const { merchantId, client } = await storedMerchant(gw, 'Concurrent Merchant');
          const { payment_link_ref: ref } = await client.createPaymentLink(sampleLink());
          const { db, webhookOutbox: outbox, merchantEvents } = gw.gateway;
          let done = false;
          const writers = Promise.all(
            writes.map(async ({ events, rollback }) => {
              await db
                .transaction(async (tx) => {
                  for (let i = 0; i < events; i++) await outbox.emit(tx, { merchantId, type: 'payment_link.expired', ref });
                  if (rollback) throw new Error('rolled back on purpose');
                })
                .catch((error: Error) => assert.equal(error.message, 'rolled back on purpose'));
            }),
          ).finally(() => (done = true));
          const seen: MerchantEventResource[] = [];
          let cursor: string | undefined;
          for (let page = 0; ; page++) {
            // PGlite answers within microtasks: a turn of the event loop lets the writers' timers and I/O run.
            await new Promise((resolve) => setImmediate(resolve));
            const finished = done;
            const answer = await merchantEvents.list(merchantId, { after: cursor, limit: String(limits[page % limits.length]) });
            seen.push(...answer.data);
            cursor = answer.next_after ?? undefined;
            // A last read after every writer is done, and nothing more to read.
            if (finished && !answer.has_more) break;
          }
          await writers;
          const committed = writes.filter((w) => !w.rollback).reduce((sum, w) => sum + w.events, 0);
          assert.equal(seen.length, committed, 'every committed event seen');
          assertGapless(seen);
        },
      ),
      { numRuns: 6 },
    );
  });

  it("never lists another merchant's events, nor takes its ids as cursors (property)", async () => {
    const merchants = await Promise.all(['A', 'B', 'C'].map((name) => storedMerchant(gw, `Merchant ${name}`)));
    for (const { client } of merchants) {
      for (let i = 0; i < 2; i++) await gw.markPaid((await client.createPaymentLink(sampleLink())).payment_link_ref);
    }
    const owned = await Promise.all(merchants.map(({ client }) => all(client)));
    owned.forEach((events) => assert.ok(events.length >= 4, `${events.length} events`));
    const tokens = await Promise.all(merchants.map(({ credentials }) => accessToken(gw.url, credentials)));
    const anyId = fc.oneof(
      fc.constantFrom(...owned.flat().map((e) => e.id)),
      fc.stringMatching(/^evt_[A-Za-z0-9_-]{1,30}$/),
    );
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: 2 }), anyId, fc.integer({ min: 1, max: 100 }), async (who, id, limit) => {
        const mine = owned[who]!;
        const headers = { Authorization: `Bearer ${tokens[who]}` };
        const position = mine.findIndex((e) => e.id === id);
        const list = await send<{ data: MerchantEventResource[]; errors?: { path: string }[] }>(gw.url, 'GET', `/api/events?after=${encodeURIComponent(id)}&limit=${limit}`, { headers });
        const one = await send<MerchantEventResource>(gw.url, 'GET', `/api/events/${encodeURIComponent(id)}`, { headers });
        if (position < 0) {
          assert.equal(list.status, 400);
          assert.deepEqual(list.body.errors?.map((e) => e.path), ['after']);
          assert.equal(one.status, 404);
        } else {
          assert.equal(list.status, 200);
          assert.deepEqual(list.body.data.map((e) => e.id), mine.slice(position + 1, position + 1 + limit).map((e) => e.id));
          assert.equal(one.status, 200);
          assert.equal(one.body.id, id);
        }
      }),
      { numRuns: 40 },
    );
  });

  it('names the chain facts of the money an event is about, as the simulated chain records them', async () => {
    const { merchantId, client } = await storedMerchant(gw, 'Chain Facts Merchant');
    const { customerCheckout: checkout, wallet, sandboxControls: controls, db } = gw.gateway;
    const { payment_link_ref: ref } = await client.createPaymentLink(sampleLink());
    const { payment } = await checkout.open(ref, OPEN);
    const { tx_hash } = await wallet.transfer({ to: payment.address, asset: 'USDT', network: 'TRON', amount: payment.amount_crypto });
    await controls.mine(payment.confirmations_required, 'TRON');
    const events = await all(client);
    assert.deepEqual(events.map((e) => e.type), ['payment.confirming', 'payment.paid']);
    // The oracle is the chain: the simulator's own transaction and block, not the gateway's facts.
    const sent = (await transactionByHash(db, 'TRON', tx_hash))!;
    const [block] = await blocksBetween(db, 'TRON', sent.block_height!, sent.block_height!);
    const [confirming, paid] = events.map((e) => e.data.transfers);
    assert.deepEqual(confirming, [
      { network: 'TRON', asset: 'USDT', tx_hash, log_index: null, block_height: null, block_hash: null, token_contract: null, amount_crypto: payment.amount_crypto, confirmations: 0 },
    ]);
    assert.deepEqual(paid, [
      {
        network: 'TRON',
        asset: 'USDT',
        tx_hash,
        log_index: null,
        block_height: sent.block_height,
        block_hash: block!.hash,
        token_contract: null,
        amount_crypto: payment.amount_crypto,
        confirmations: payment.confirmations_required,
      },
    ]);
    // An addition: the link resource stays where it was, and an event about no payment names no transfers.
    assert.deepEqual(Object.keys(events[1]!.data), ['payment_link', 'transfers']);
    await db.transaction((tx) => gw.gateway.webhookOutbox.emit(tx, { merchantId, type: 'payment_link.expired', ref }));
    const [expired] = await all(client, events[1]!.id);
    assert.deepEqual(Object.keys(expired!.data), ['payment_link']);
  });

  it('refuses bad after, limit and type values with a 400 naming the field', async () => {
    const token = await accessToken(gw.url, gw.credentials);
    for (const [query, field] of [
      ['limit=0', 'limit'],
      ['limit=101', 'limit'],
      ['limit=1e1', 'limit'],
      ['limit=-1', 'limit'],
      ['type=payment.nope', 'type'],
      ['after=nope', 'after'],
      ['after=evt_unknown', 'after'],
    ] as const) {
      const answer = await send<{ status: number; errors: { path: string; message: string }[] }>(gw.url, 'GET', `/api/events?${query}`, {
        headers: { Authorization: `Bearer ${token}` },
      });
      assert.equal(answer.status, 400, query);
      assert.match(answer.headers.get('content-type') ?? '', /^application\/problem\+json/);
      assert.deepEqual(answer.body.errors.map((e) => e.path), [field], query);
    }
    await assert.rejects(gw.client.events.list({ limit: 0 }), (error: PayCheckoutApiError) => error.status === 400);
  });

  it('lists events for EVENTS_RETENTION_DAYS (at least 30) and says how far back it goes', async () => {
    assert.equal(loadConfig({}).eventsRetentionDays, 30);
    assert.equal(loadConfig({ EVENTS_RETENTION_DAYS: '90' }).eventsRetentionDays, 90);
    for (const wrong of ['29', '0', '30.5', 'month']) {
      assert.throws(() => loadConfig({ EVENTS_RETENTION_DAYS: wrong }), (error: unknown) => error instanceof ConfigError && /EVENTS_RETENTION_DAYS/.test(error.message));
    }
    await gw.reset();
    await gw.markPaid((await gw.client.createPaymentLink(sampleLink())).payment_link_ref);
    const [old] = await all(gw.client);
    gw.clock.advance(29 * 86_400_000);
    assert.equal((await all(gw.client)).length, 2, 'kept on day 29');
    gw.clock.advance(2 * 86_400_000);
    await gw.markPaid((await gw.client.createPaymentLink(sampleLink())).payment_link_ref);
    const page = await gw.client.events.list();
    assert.equal(page.retention_days, 30);
    assert.equal(Date.parse(page.available_from), gw.clock.now().getTime() - 30 * 86_400_000);
    assert.deepEqual(page.data.map((e) => e.sequence), [3, 4], 'past the window, the list starts at what is still kept');
    await assert.rejects(gw.client.events.list({ after: old!.id }), (error: PayCheckoutApiError) => error.status === 400);
    await assert.rejects(gw.client.events.get(old!.id), (error: PayCheckoutApiError) => error.status === 404);
  });
});

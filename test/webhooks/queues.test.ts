// The queue of each endpoint and link (storage/webhook-deliveries.ts): a delivery behind a pending one has no time of
// its own until that one is done, so the claim reads only what may go. Searched over random sequences of queueing,
// claims, outcomes, redeliveries and clock moves (on PostgreSQL also a queueing and an outcome of the same queue at
// once), with the invariants checked after every step: a claimed delivery has no earlier one pending, the first pending
// delivery of every queue has a time, and with the receivers up everything is delivered in the end.
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import fc from 'fast-check';
import type { Row, Sql } from '../../src/sandbox/storage/database.js';
import { claimDueDeliveries, enqueueEvent, recordAttempt, redeliverNow, releaseLease, type ClaimedDelivery } from '../../src/sandbox/storage/webhook-deliveries.js';
import { insertEndpoint } from '../../src/sandbox/storage/webhook-endpoints.js';
import { useTestGateway } from '../helpers/fixture.js';
import { storageName } from '../helpers/gateway.js';

const ENDPOINTS = ['we_queue_a', 'we_queue_b'];
const LEASE_MS = 30_000;

type Outcome = 'delivered' | 'retry' | 'gave up' | 'released';
type Step =
  | { kind: 'queue'; link: number | null }
  | { kind: 'claim'; limit: number; perMerchant: number }
  | { kind: 'finish'; pick: number; outcome: Outcome; retryMs: number }
  | { kind: 'queue and finish at once'; pick: number; outcome: Outcome }
  | { kind: 'redeliver'; pick: number }
  | { kind: 'wait'; ms: number };

const outcome = fc.constantFrom<Outcome>('delivered', 'retry', 'gave up', 'released');
const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('queue' as const), link: fc.option(fc.nat(3), { freq: 6 }) }) },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('claim' as const), limit: fc.integer({ min: 1, max: 8 }), perMerchant: fc.integer({ min: 1, max: 4 }) }) },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('finish' as const), pick: fc.nat(), outcome, retryMs: fc.integer({ min: 0, max: 120_000 }) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('queue and finish at once' as const), pick: fc.nat(), outcome }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('redeliver' as const), pick: fc.nat() }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('wait' as const), ms: fc.integer({ min: 0, max: 90_000 }) }) },
);

describe(`webhook queues per endpoint and link (${storageName})`, () => {
  const gw = useTestGateway();
  let merchantId: string;
  let now: Date;
  let eventCount = 0;
  before(() => {
    merchantId = gw.gateway.sandboxMerchant!.merchant_id;
  });

  const db = () => gw.gateway.db;
  /** An empty outbox, `now` at a fixed instant, and these endpoints of the merchant. */
  async function start(endpoints: readonly string[]): Promise<void> {
    now = new Date('2026-11-27T00:00:00Z');
    await gw.reset();
    for (const endpoint_id of endpoints) await insertEndpoint(db(), merchantId, { endpoint_id, url: 'https://hooks.example/pay', secret_sealed: 'sealed', created_at: now });
  }
  const queue = (link: number | null, endpoints = ENDPOINTS) =>
    db().transaction((tx) => {
      const event_id = `evt_queue_${++eventCount}`;
      const ref = link === null ? null : `pl_queue_${link}`;
      return enqueueEvent(tx, { event_id, merchant_id: merchantId, type: 'payment.paid', payment_link_ref: ref, body: '{}', created_at: now }, endpoints);
    });
  const claim = (limit: number, perMerchant: number) => db().transaction((tx) => claimDueDeliveries(tx, now, limit, new Date(now.getTime() + LEASE_MS), perMerchant));
  const finish = async (delivery: ClaimedDelivery, how: Outcome, retryMs = 10_000) => {
    if (how === 'released') return releaseLease(db(), delivery.delivery_id);
    const status = how === 'delivered' ? 'delivered' : how === 'gave up' ? 'failed' : 'pending';
    const attempt = { status, attempts: delivery.attempts + 1, status_code: 500, error: null, next_attempt_at: status === 'pending' ? new Date(now.getTime() + retryMs) : null, delivered_at: null } as const;
    const logged = { attempted_at: now, duration_ms: 1, status_code: 500, response_body: null, response_truncated: false, error: null };
    await db().transaction((tx) => recordAttempt(tx, delivery.delivery_id, attempt, logged));
  };

  /** A delivery is taken only once every earlier one of its endpoint and link is done. */
  async function assertInOrder(claimed: readonly ClaimedDelivery[]): Promise<void> {
    if (!claimed.length) return;
    const early = await db().query<{ delivery_id: number }>(
      `SELECT d.delivery_id FROM webhook_deliveries d WHERE d.delivery_id = ANY($1::bigint[]) AND EXISTS (
         SELECT 1 FROM webhook_deliveries s WHERE s.status = 'pending' AND s.endpoint_id = d.endpoint_id AND s.ordering_key = d.ordering_key AND s.delivery_id < d.delivery_id)`,
      [claimed.map((c) => c.delivery_id)],
    );
    assert.deepEqual(early, [], 'claimed ahead of an earlier delivery still pending');
  }

  /** No queue is stuck: its first pending delivery has a time, so a claim takes it once it is due. */
  async function assertNoneStuck(): Promise<void> {
    const stuck = await db().query<{ delivery_id: number }>(
      `SELECT d.delivery_id FROM webhook_deliveries d WHERE d.status = 'pending' AND d.next_attempt_at IS NULL AND NOT EXISTS (
         SELECT 1 FROM webhook_deliveries s WHERE s.status = 'pending' AND s.endpoint_id = d.endpoint_id AND s.ordering_key = d.ordering_key AND s.delivery_id < d.delivery_id)`,
    );
    assert.deepEqual(stuck, [], 'a pending delivery with no time and nothing before it waits for ever');
  }

  it('keeps every queue in order and none stuck, and delivers all once the receivers answer (property)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 40 }), async (steps) => {
        await start(ENDPOINTS);
        let inFlight: ClaimedDelivery[] = [];
        const take = (pick: number) => (inFlight.length ? inFlight.splice(pick % inFlight.length, 1)[0] : undefined);
        for (const s of steps) {
          if (s.kind === 'queue') await queue(s.link);
          else if (s.kind === 'claim') {
            const claimed = await claim(s.limit, s.perMerchant);
            await assertInOrder(claimed);
            inFlight.push(...claimed);
          } else if (s.kind === 'finish') {
            const delivery = take(s.pick);
            if (delivery) await finish(delivery, s.outcome, s.retryMs);
          } else if (s.kind === 'queue and finish at once') {
            const delivery = take(s.pick);
            const link = (await db().query<{ ordering_key: string }>('SELECT ordering_key FROM webhook_deliveries WHERE delivery_id = $1', [delivery?.delivery_id ?? 0]))[0];
            const sameLink = link?.ordering_key.startsWith('pl_queue_') ? Number(link.ordering_key.slice('pl_queue_'.length)) : 0;
            await Promise.all([queue(sameLink), delivery && finish(delivery, s.outcome)]);
          } else if (s.kind === 'redeliver') {
            const ids = await db().query<{ delivery_id: number }>('SELECT delivery_id FROM webhook_deliveries ORDER BY delivery_id');
            if (!ids.length) continue;
            const deliveryId = Number(ids[s.pick % ids.length]!.delivery_id);
            const again = await db().transaction((tx) => redeliverNow(tx, merchantId, deliveryId, now));
            const [behind] = await db().query<{ n: number }>(
              `SELECT count(*)::int AS n FROM webhook_deliveries d JOIN webhook_deliveries s USING (endpoint_id, ordering_key)
               WHERE d.delivery_id = $1 AND s.status = 'pending' AND s.delivery_id < d.delivery_id`,
              [deliveryId],
            );
            assert.equal(again!.next_attempt_at === null, behind!.n > 0, 'a redelivery has a time unless an earlier delivery of its queue is pending');
          } else {
            now = new Date(now.getTime() + s.ms);
            // A lease that ran out is another process's to take: this one forgets it.
            inFlight = inFlight.filter(() => s.ms < LEASE_MS);
          }
          await assertNoneStuck();
        }
        // The receivers answer from now on: everything still pending goes, each queue in order.
        for (let round = 0; round < 500; round++) {
          for (const delivery of inFlight.splice(0)) await finish(delivery, 'delivered');
          now = new Date(now.getTime() + 3_600_000);
          const claimed = await claim(16, 16);
          await assertInOrder(claimed);
          await assertNoneStuck();
          if (!claimed.length) break;
          inFlight.push(...claimed);
        }
        const [left] = await db().query<{ pending: number }>(`SELECT count(*)::int AS pending FROM webhook_deliveries WHERE status = 'pending'`);
        assert.equal(left!.pending, 0, 'deliveries still pending with every receiver answering');
      }),
      { numRuns: 60 },
    );
  });

  it('reads only the deliveries that may go: a backlog waiting on receivers that are down is not read by a claim', async () => {
    // A merchant at the cap of 16 endpoints.
    const endpoints = Array.from({ length: 16 }, (_, i) => `we_queue_${i}`);
    await start(endpoints);
    const links = 60;
    for (let link = 0; link < links; link++) for (let event = 0; event < 3; event++) await queue(link, endpoints);
    // The receivers are down: every link's first delivery fails and waits out its retry; the two after it wait behind it.
    const heads = await claim(10_000, 10_000);
    assert.equal(heads.length, links * endpoints.length, 'one delivery of each endpoint and link goes');
    for (const delivery of heads) await finish(delivery, 'retry', 3_600_000);
    now = new Date(now.getTime() + 60_000);
    let read = 0;
    const rolledBack = new Error('roll back');
    await assert.rejects(
      db().transaction(async (tx) => {
        const explaining: Sql = {
          async query<T extends Row>(text: string, params?: readonly unknown[]): Promise<T[]> {
            const [row] = await tx.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(`EXPLAIN (ANALYZE, FORMAT JSON) ${text}`, params);
            read = rowsRead(row!['QUERY PLAN'][0].Plan, 'webhook_deliveries');
            return [];
          },
        };
        await claimDueDeliveries(explaining, now, 16, new Date(now.getTime() + LEASE_MS), 4);
        throw rolledBack;
      }),
      rolledBack,
    );
    assert.ok(read <= 10, `the claim read ${read} deliveries of the ${links * 3 * endpoints.length} waiting`);
    assert.deepEqual(await claim(16, 4), [], 'nothing is due');
  });
});

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Actual Rows': number;
  'Actual Loops': number;
  Plans?: PlanNode[];
}

/** Rows the plan's scans of `table` returned, over all their loops. */
function rowsRead(node: PlanNode, table: string): number {
  const own = node['Relation Name'] === table && /Scan/.test(node['Node Type']) ? node['Actual Rows'] * node['Actual Loops'] : 0;
  return own + (node.Plans ?? []).reduce((sum, child) => sum + rowsRead(child, table), 0);
}

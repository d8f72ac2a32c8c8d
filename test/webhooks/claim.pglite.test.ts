// The claim of due webhook deliveries on a backlog, on PGlite, whose statistics are never refreshed (it has no
// autovacuum): the planner believes the deliveries table holds a row or two. The claim must still do each of its
// steps once, not once per delivery it joins (which took over ten seconds a claim with 300 queued).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Database, Row, Sql } from '../../src/sandbox/storage/database.js';
import { openDatabase } from '../../src/sandbox/storage/open.js';
import { claimDueDeliveries, enqueueEvent } from '../../src/sandbox/storage/webhook-deliveries.js';
import { insertEndpoint } from '../../src/sandbox/storage/webhook-endpoints.js';

const QUEUED = 300;

interface PlanNode {
  'Node Type': string;
  'Actual Loops': number;
  Plans?: PlanNode[];
}

function* nodes(node: PlanNode): Generator<PlanNode> {
  yield node;
  for (const child of node.Plans ?? []) yield* nodes(child);
}

describe('claiming due webhook deliveries on a backlog (PGlite, stale statistics)', () => {
  let db: Database;
  before(async () => {
    db = await openDatabase({});
    await db.query(
      `INSERT INTO merchants (merchant_id, name, client_id, client_secret_hash, client_secret_sealed, svc_key_hash)
       VALUES ('m_claim', 'Claims', 'client_claim', 'hash', 'sealed', 'svc_hash')`,
    );
    await insertEndpoint(db, 'm_claim', { endpoint_id: 'we_claim', url: 'https://hooks.example/pay', secret_sealed: 'sealed', created_at: new Date() });
    // The tables are analyzed while nearly empty, as on a fresh sandbox; the backlog comes after.
    await db.query('ANALYZE');
    for (let i = 0; i < QUEUED; i++) {
      const at = new Date(Date.now() - 60_000);
      await enqueueEvent(db, { event_id: `evt_${i}`, merchant_id: 'm_claim', type: 'payment.expired', payment_link_ref: `pl_${i}`, body: '{}', created_at: at }, ['we_claim']);
    }
  });
  after(() => db.close());

  it('runs every step of the claim once, and leases what a merchant may have in flight', async () => {
    let plan: PlanNode | undefined;
    // EXPLAIN ANALYZE runs the claim: in a transaction rolled back after, so its leases go with it.
    const rolledBack = new Error('roll back');
    await assert.rejects(
      db.transaction(async (tx) => {
        const explaining: Sql = {
          async query<T extends Row>(text: string, params?: readonly unknown[]): Promise<T[]> {
            const [row] = await tx.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(`EXPLAIN (ANALYZE, FORMAT JSON) ${text}`, params);
            plan = row!['QUERY PLAN'][0].Plan;
            return [];
          },
        };
        await claimDueDeliveries(explaining, new Date(), 32, new Date(Date.now() + 30_000), 4);
        throw rolledBack;
      }),
      rolledBack,
    );
    const repeated = [...nodes(plan!)].filter((n) => ['WindowAgg', 'Unique', 'Sort', 'Incremental Sort', 'Aggregate', 'HashAggregate'].includes(n['Node Type']) && n['Actual Loops'] > 1);
    assert.deepEqual(
      repeated.map((n) => `${n['Node Type']} ×${n['Actual Loops']}`),
      [],
      'a step of the claim ran once per joined row',
    );
    const claimed = await claimDueDeliveries(db, new Date(), 32, new Date(Date.now() + 30_000), 4);
    assert.equal(claimed.length, 4, 'at most 4 deliveries of one merchant in flight');
  });
});

// Many orders at once, in SQL, for the measurements that need a full table: copies of an order made through the API
// (its link, its first payment and first refund), each a paid order of its own, so every table grows as in use.
// The copies take every column from the original (to_jsonb) but those that must differ, so a migration that adds a
// column needs nothing here.
import type { SqlSession } from './storage.js';

/** Orders per statement: big enough to be quick, small enough to stay well inside memory on PGlite. */
const BATCH = 20_000;

// The record is built in FROM (not as `(f(row)).*` in the select list, which calls f once per column).
const CLONES = [
  `INSERT INTO payment_links OVERRIDING USER VALUE
   SELECT copy.* FROM payment_links l, generate_series($2::int, $3::int) i,
     jsonb_populate_record(NULL::payment_links, to_jsonb(l) || jsonb_build_object(
       'payment_link_ref', 'pl_seed_' || i, 'merchant_order_id', 'seed-order-' || i,
       'request', l.request || jsonb_build_object('merchant_order_id', 'seed-order-' || i))) copy
   WHERE l.payment_link_ref = $1`,
  // A settled payment: the watcher has nothing to reconcile in the copies. Negative address indexes never meet the
  // gateway's sequence.
  `INSERT INTO payments OVERRIDING USER VALUE
   SELECT copy.* FROM (SELECT * FROM payments WHERE payment_link_ref = $1 ORDER BY seq LIMIT 1) p, generate_series($2::int, $3::int) i,
     jsonb_populate_record(NULL::payments, to_jsonb(p) || jsonb_build_object(
       'payment_id', 'pay_seed_' || i, 'payment_link_ref', 'pl_seed_' || i, 'address', 'seed-address-' || i, 'address_index', -i,
       'unsettled', false)) copy`,
  `INSERT INTO refunds OVERRIDING USER VALUE
   SELECT copy.* FROM (SELECT * FROM refunds WHERE payment_link_ref = $1 ORDER BY seq LIMIT 1) r, generate_series($2::int, $3::int) i,
     jsonb_populate_record(NULL::refunds, to_jsonb(r) || jsonb_build_object(
       'refund_id', 'rf_seed_' || i, 'payment_link_ref', 'pl_seed_' || i, 'payment_id', 'pay_seed_' || i,
       -- A claim link's token is its bearer secret, one per refund.
       'claim_token', CASE WHEN r.claim_token IS NULL THEN NULL ELSE 'seed-claim-' || i END)) copy`,
];

/** Copies the order of `templateRef` until payment_links holds `links` rows; answers how many it added. */
export async function growOrdersTo(sql: SqlSession, templateRef: string, links: number): Promise<number> {
  const [counts] = await sql.query<{ total: number; seeded: number }>(
    "SELECT count(*)::int AS total, (count(*) FILTER (WHERE payment_link_ref LIKE 'pl\\_seed\\_%'))::int AS seeded FROM payment_links",
  );
  const missing = links - counts!.total;
  for (let from = counts!.seeded + 1; from <= counts!.seeded + missing; from += BATCH) {
    const to = Math.min(from + BATCH - 1, counts!.seeded + missing);
    for (const clone of CLONES) await sql.query(clone, [templateRef, from, to]);
  }
  // Statistics as a long-running database would have them, the same for the gateway and its floor.
  await sql.query('ANALYZE');
  return Math.max(missing, 0);
}

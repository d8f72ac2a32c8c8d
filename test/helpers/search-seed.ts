// Many orders of one merchant, all different, for the portal's search at scale: its plans (test/gateway/search-plan.test.ts)
// and its times (bench/suites/search.ts).
import type { Database } from '../../src/sandbox/storage/database.js';

/** The order every seeded search looks for, and what a customer would quote of it. */
export const SEARCHED = { ref: 'pl_42110', merchantId: 'm_shop' };

/**
 * 100,000 paid orders of one merchant, each with its payment, transfer and refund, all different. Names in ASCII but
 * one: folding Vietnamese costs PGlite some 50 µs a row, a few seconds more for the seed and nothing for the plans.
 */
const SEED = (links: number): string[] => [
  `INSERT INTO merchants (merchant_id, name, client_id, client_secret_hash, client_secret_sealed, svc_key_hash) VALUES ('m_shop', 'Shop', 'c', 'h', 's', 'k')`,
  `INSERT INTO payment_links (payment_link_ref, merchant_id, merchant_order_id, status, amount, currency, request, expires_at, created_at)
   SELECT 'pl_' || i, 'm_shop', 'DH-' || i, 'paid', 100000 + i, 'VND',
     jsonb_build_object('billing_details', jsonb_build_object('billing_name', 'Khach ' || i, 'billing_email', 'khach' || i || '@example.com',
       'billing_phone', '+84 9' || lpad(i::text, 8, '0'))),
     now(), now() - i * interval '1 second'
   FROM generate_series(1, ${links}) i`,
  `INSERT INTO payments (payment_id, payment_link_ref, status, asset, network, address, address_index, amount_atomic, amount_vnd, rate,
     quote_expires_at, confirmations_required, created_at, unsettled)
   SELECT 'pay_' || i, 'pl_' || i, 'paid', 'USDT', 'TRON', 'T' || md5('to' || i), -i, 1, 100000 + i, '1', now(), 1, now(), false
   FROM generate_series(1, ${links}) i`,
  `INSERT INTO chain_transfers (network, tx_hash, position, asset, from_address, to_address, amount_atomic, block_height, block_hash, seen_at)
   SELECT 'TRON', md5('tx' || i) || md5('tx2' || i), 'call:', 'USDT', 'T' || md5('from' || i), 'T' || md5('to' || i), 1, 1, 'h', now()
   FROM generate_series(1, ${links}) i`,
  `INSERT INTO refunds (refund_id, payment_link_ref, payment_id, amount, currency, channel, refund_status, refund_type, refund_reason, description,
     psp_refund_id, destination, send_to, created_at)
   SELECT 'rf_' || i, 'pl_' || i, 'pay_' || i, 1000, 'vnd', 'PROVIDER', 'SUCCESS', 'partial', 'r', 'd', md5('payout' || i), 'T' || md5('from' || i), 'payer', now()
   FROM generate_series(1, ${links}) i`,
  // The customer of the order searched for below.
  `UPDATE payment_links SET request = jsonb_set(request, '{billing_details,billing_name}', '"Nguyễn Thị Hồng"') WHERE payment_link_ref = 'pl_42110'`,
];

/** The terms that find SEARCHED alone, by what they are, with the index each is looked up in. */
export async function searchTerms(db: Database): Promise<{ what: string; q: string; index: string }[]> {
  const [seeded] = await db.query<{ tx: string; to: string; from: string; payout: string }>(
    `SELECT md5('tx' || 42110) || md5('tx2' || 42110) AS tx, 'T' || md5('to' || 42110) AS to, 'T' || md5('from' || 42110) AS from, md5('payout' || 42110) AS payout`,
  );
  return [
    { what: 'order id', q: 'DH-42110', index: 'payment_links_search' },
    { what: 'link ref', q: 'pl_42110', index: 'payment_links_pkey' },
    { what: 'payment id', q: 'pay_42110', index: 'payments_search' },
    { what: 'refund id', q: 'rf_42110', index: 'refunds_search' },
    { what: 'transaction hash', q: seeded!.tx, index: 'chain_transfers_search' },
    { what: 'its first 8 characters', q: seeded!.tx.slice(0, 8).toUpperCase(), index: 'chain_transfers_search' },
    { what: 'receiving address', q: seeded!.to, index: 'payments_search' },
    { what: 'paying address', q: seeded!.from, index: 'chain_transfers_search' },
    { what: 'payout transaction', q: seeded!.payout, index: 'refunds_search' },
    { what: 'amount', q: '142.110', index: 'payment_links_by_amount' },
    { what: 'name without diacritics', q: 'nguyen thi hong', index: 'payment_links_search' },
    { what: 'e-mail', q: 'khach42110@example.com', index: 'payment_links_search' },
    { what: 'phone', q: '0900 042 110', index: 'payment_links_search' },
  ];
}

/** `links` paid orders on a migrated, empty database; the search's indexes built once over them, not a row at a time. */
export async function seedSearchOrders(db: Database, links: number): Promise<void> {
  const indexes = await db.query<{ indexname: string; indexdef: string }>(
    `SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = current_schema()
     AND indexname IN ('payment_links_search', 'payments_search', 'chain_transfers_search', 'refunds_search')`,
  );
  if (indexes.length !== 4) throw new Error(`the search's four indexes, not ${indexes.length}`);
  for (const { indexname } of indexes) await db.query(`DROP INDEX ${indexname}`);
  for (const statement of SEED(links)) await db.query(statement);
  for (const { indexdef } of indexes) await db.query(indexdef);
  await db.query('ANALYZE');
}

// Every statement about payment links and their payments: their rows, and the statuses derived from their facts
// (link-facts.ts) written back. Locks are taken in one order everywhere: a link, then its payments (by seq); the
// links of one order by payment_link_ref.
import type { AssetCode, LinkStatus, Network, PaymentLinkRequest, PaymentStatus, RateProvenance } from '../../contract/index.js';
import { QUOTE_OPEN_STATUSES } from '../../contract/rules.js';
import { one, sqlList, type Sql } from './database.js';
import { answerValues, withKeyedAnswer, type KeyedAnswer } from './idempotency.js';

export interface LinkRow {
  payment_link_ref: string;
  merchant_id: string;
  merchant_order_id: string;
  status: LinkStatus;
  amount: number;
  currency: string;
  request: Omit<PaymentLinkRequest, 'svc_key' | 'signature_hash'>;
  expires_at: Date;
  superseded_at: Date | null;
  /** When the merchant cancelled it (POST /api/paymentLink/{ref}/cancel); null otherwise. */
  cancelled_at: Date | null;
  paid_at: Date | null;
  created_at: Date;
}

/** A link's row without the merchant's request: all that deriving its statuses and refunding its money read. */
export type LinkRecord = Omit<LinkRow, 'request'>;

export interface PaymentRow {
  payment_id: string;
  payment_link_ref: string;
  status: PaymentStatus;
  overpaid: boolean;
  asset: AssetCode;
  network: Network;
  address: string;
  address_index: number;
  /** numeric: 18-decimal amounts outgrow int8. */
  amount_atomic: string;
  amount_vnd: number;
  rate: string;
  quote_expires_at: Date;
  confirmations_required: number;
  customer: unknown;
  accepted_at: Date | null;
  paid_at: Date | null;
  held_vnd: number;
  unsettled: boolean;
  /** When a reorganisation took back money of this payment after it was paid. */
  reorged_at: Date | null;
  /**
   * While its network cannot be seen (its node unreachable or behind): until when the gateway saw it in full. Nothing
   * on the network runs out by the clock past it. Null while the network is seen.
   */
  known_until: Date | null;
  created_at: Date;
}

export const LINK_COLUMNS = [
  'payment_link_ref', 'merchant_id', 'merchant_order_id', 'status', 'amount', 'currency', 'request', 'expires_at', 'superseded_at', 'cancelled_at', 'paid_at', 'created_at',
] as const;
const LINK = LINK_COLUMNS.join(', ');
/** A payment `p`'s columns; `now` is the parameter that holds the time, against which its network may be behind. */
export const paymentColumns = (now: string) => `p.payment_id, p.payment_link_ref, p.status, p.overpaid, p.asset, p.network, p.address, p.address_index,
  p.amount_atomic::text AS amount_atomic, p.amount_vnd, p.rate::text AS rate, p.quote_expires_at, p.confirmations_required, p.customer, p.accepted_at,
  p.paid_at, p.held_vnd, p.unsettled, p.reorged_at, p.created_at,
  (SELECT c.synced_at FROM chain_cursors c WHERE c.network = p.network AND c.synced_at + c.stale_after_ms * interval '1 millisecond' < ${now}) AS known_until`;

export interface NewLink {
  payment_link_ref: string;
  merchant_id: string;
  merchant_order_id: string;
  amount: number;
  request: object;
  expires_at: Date;
  created_at: Date;
}

const LINK_INSERT = `INSERT INTO payment_links (payment_link_ref, merchant_id, merchant_order_id, status, amount, currency, request, expires_at, created_at)`;
const linkValues = (l: NewLink) => [l.payment_link_ref, l.merchant_id, l.merchant_order_id, l.amount, JSON.stringify(l.request), l.expires_at, l.created_at];

/**
 * Inserts the link of an order that has none yet, in one statement; false when the order already has links, or when
 * `answer`'s key was used before. With `answer`, the key's answer is written by the same statement
 * (storage/idempotency.ts), so the link and the answer exist together or not at all.
 */
export async function insertFirstLinkOfOrder(sql: Sql, link: NewLink, answer?: KeyedAnswer): Promise<boolean> {
  const firstOfOrder = `${LINK_INSERT}
     SELECT $1, $2, $3, 'active', $4::bigint, 'VND', $5::jsonb, $6::timestamptz, $7::timestamptz
     WHERE NOT EXISTS (SELECT 1 FROM payment_links WHERE merchant_id = $2 AND merchant_order_id = $3)`;
  const rows = answer
    ? await sql.query(withKeyedAnswer(firstOfOrder, { merchant: '$2', first: 8 }), [...linkValues(link), ...answerValues(answer)])
    : await sql.query(`${firstOfOrder} RETURNING 1`, linkValues(link));
  return rows.length > 0;
}

export async function insertLink(sql: Sql, link: NewLink): Promise<void> {
  await sql.query(`${LINK_INSERT} VALUES ($1, $2, $3, 'active', $4, 'VND', $5, $6, $7)`, linkValues(link));
}

export async function readLink(sql: Sql, ref: string, lock = false): Promise<LinkRow | undefined> {
  return one<LinkRow>(sql, `SELECT ${LINK} FROM payment_links WHERE payment_link_ref = $1 ${lock ? 'FOR UPDATE' : ''}`, [ref]);
}

/** Every link of an order, locked in payment_link_ref order. */
export async function lockOrderLinks(sql: Sql, merchantId: string, orderId: string): Promise<LinkRow[]> {
  return sql.query<LinkRow>(
    `SELECT ${LINK} FROM payment_links WHERE merchant_id = $1 AND merchant_order_id = $2 ORDER BY payment_link_ref FOR UPDATE`,
    [merchantId, orderId],
  );
}

export async function findPaymentLink(sql: Sql, where: { payment_id: string } | { address: string }): Promise<{ payment_link_ref: string; payment_id: string } | undefined> {
  return 'payment_id' in where
    ? one(sql, 'SELECT payment_link_ref, payment_id FROM payments WHERE payment_id = $1', [where.payment_id])
    : one(sql, 'SELECT payment_link_ref, payment_id FROM payments WHERE address = $1', [where.address]);
}

export async function nextAddressIndex(sql: Sql): Promise<number> {
  return (await one<{ index: number }>(sql, `SELECT nextval('payment_address_index')::bigint AS index`))!.index;
}

/**
 * A new payment, with where its rate came from (read on its own: rateProvenanceOf) and the merchant's account key its
 * address derived from (null: the sandbox's keys, at the global index).
 */
export async function insertPayment(sql: Sql, row: PaymentRow, provenance: RateProvenance, accountKey: string | null): Promise<void> {
  await sql.query(
    `INSERT INTO payments (payment_id, payment_link_ref, status, asset, network, address, address_index, amount_atomic, amount_vnd, rate,
       quote_expires_at, confirmations_required, customer, created_at, rate_provenance, account_key)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16)`,
    [
      row.payment_id,
      row.payment_link_ref,
      row.status,
      row.asset,
      row.network,
      row.address,
      row.address_index,
      row.amount_atomic,
      row.amount_vnd,
      row.rate,
      row.quote_expires_at,
      row.confirmations_required,
      row.customer === undefined || row.customer === null ? null : JSON.stringify(row.customer),
      row.created_at,
      JSON.stringify(provenance),
      accountKey,
    ],
  );
}

/**
 * Where the rates of the payments of some links came from, by payment_id: only the merchant's reads show it, so a
 * link's facts (which every checkout read fetches) do not carry it.
 */
export async function rateProvenanceOf(sql: Sql, refs: readonly string[]): Promise<Map<string, RateProvenance | null>> {
  const rows = await sql.query<{ payment_id: string; rate_provenance: RateProvenance | null }>(
    'SELECT payment_id, rate_provenance FROM payments WHERE payment_link_ref = ANY($1::text[])',
    [refs],
  );
  return new Map(rows.map((r) => [r.payment_id, r.rate_provenance]));
}

export type DerivedPayment = Pick<PaymentRow, 'status' | 'overpaid' | 'paid_at' | 'held_vnd' | 'unsettled'>;

export async function writeDerivedPayment(sql: Sql, paymentId: string, derived: DerivedPayment): Promise<void> {
  await sql.query('UPDATE payments SET status = $2, overpaid = $3, paid_at = $4, held_vnd = $5, unsettled = $6 WHERE payment_id = $1', [
    paymentId,
    derived.status,
    derived.overpaid,
    derived.paid_at,
    derived.held_vnd,
    derived.unsettled,
  ]);
}

export async function writeDerivedLink(sql: Sql, ref: string, derived: Pick<LinkRow, 'status' | 'paid_at'>): Promise<void> {
  await sql.query('UPDATE payment_links SET status = $2, paid_at = $3 WHERE payment_link_ref = $1', [ref, derived.status, derived.paid_at]);
}

export async function supersedeLink(sql: Sql, ref: string, at: Date): Promise<void> {
  await sql.query('UPDATE payment_links SET superseded_at = $2 WHERE payment_link_ref = $1 AND superseded_at IS NULL', [ref, at]);
}

/** The merchant cancels the link at `at` (once: a second cancel changes nothing). */
export async function cancelLink(sql: Sql, ref: string, at: Date): Promise<void> {
  await sql.query('UPDATE payment_links SET cancelled_at = $2 WHERE payment_link_ref = $1 AND cancelled_at IS NULL', [ref, at]);
}

export async function acceptPayment(sql: Sql, paymentId: string, at: Date): Promise<void> {
  await sql.query('UPDATE payments SET accepted_at = $2 WHERE payment_id = $1', [paymentId, at]);
}

/** Sandbox: a quote or a link that runs out now. */
export async function endQuote(sql: Sql, paymentId: string, at: Date): Promise<void> {
  await sql.query('UPDATE payments SET quote_expires_at = $2 WHERE payment_id = $1 AND quote_expires_at > $2', [paymentId, at]);
}

export async function endLink(sql: Sql, ref: string, at: Date): Promise<void> {
  await sql.query('UPDATE payment_links SET expires_at = $2 WHERE payment_link_ref = $1 AND expires_at > $2', [ref, at]);
}

/**
 * A transfer is about to land at this address: the payment there is marked unsettled, in the transfer's own
 * transaction, so a gateway that dies before reconciling it finds it on start. Taking the payment's row lock first
 * also orders the transfer after any reconciliation under way, so its seen_at is never before a decision already made.
 */
export async function markUnsettledAt(sql: Sql, network: Network, address: string): Promise<void> {
  await sql.query('UPDATE payments SET unsettled = true WHERE address = $1 AND network = $2', [address, network]);
}

/** Links with a payment on `network` that blocks or transfers can still change. */
export async function unsettledLinks(sql: Sql, network: Network): Promise<string[]> {
  const rows = await sql.query<{ payment_link_ref: string }>('SELECT DISTINCT payment_link_ref FROM payments WHERE unsettled AND network = $1', [network]);
  return rows.map((r) => r.payment_link_ref);
}

/** Links whose time ran out, or with an open quote that did, by `now`. */
export async function linksDueAt(sql: Sql, now: Date): Promise<string[]> {
  const rows = await sql.query<{ payment_link_ref: string }>(
    `SELECT payment_link_ref FROM payment_links WHERE status = 'active' AND expires_at <= $1
     UNION
     SELECT payment_link_ref FROM payments WHERE status IN ${sqlList(QUOTE_OPEN_STATUSES)} AND quote_expires_at <= $1`,
    [now],
  );
  return rows.map((r) => r.payment_link_ref);
}

export async function isMerchantsLink(sql: Sql, merchantId: string, ref: string): Promise<boolean> {
  return (await one(sql, 'SELECT 1 FROM payment_links WHERE payment_link_ref = $1 AND merchant_id = $2', [ref, merchantId])) !== undefined;
}

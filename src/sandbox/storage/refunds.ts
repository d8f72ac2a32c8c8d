// Every statement about refunds. A refund returns part of one payment's money; the order's refunds are those of
// all its links.
import type { AssetCode, LinkRefund, Network, PAYOUT_WAITING_REASONS, RefundDestination, RefundHistoryEntry, RefundStatus } from '../../contract/index.js';
import { one, type Sql } from './database.js';
import { linkRecordFacts, linkRowsOf, type LinkFactsJson, type LinkRows } from './link-facts.js';
import type { LinkRecord } from './payments.js';

export interface NewRefund {
  refund_id: string;
  payment_link_ref: string;
  payment_id: string;
  amount: number;
  currency: string;
  channel: string;
  refund_status: RefundStatus;
  refund_type: string;
  refund_reason: string;
  description: string;
  psp_refund_id: string | null;
  /** What the refund sends back, in atomic units of the payment's asset. */
  amount_atomic: bigint;
  /** The rate it was worked out at: the payment's confirmed coins, and what they are worth to the order. */
  basis_atomic: bigint;
  basis_vnd: bigint;
  send_to: RefundDestination;
  claim_token: string | null;
  claim_expires_at: Date | null;
  destination: string | null;
  retry_of: string | null;
  created_at: Date;
}

/** A refund as the refund lists show it, with the claim's token (the service makes it the claim's URL). */
export type RefundRow = Omit<LinkRefund, 'claim_url'> & { claim_token: string | null };

const RECORD = `refund_id, payment_id, COALESCE(psp_refund_id, '') AS psp_refund_id, amount, lower(currency) AS currency,
  refund_status, refund_type, refund_reason, claim_token,
  to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"+00:00"') AS refund_date`;

/** A new refund, and the first step of its history. */
export async function insertRefund(sql: Sql, refund: NewRefund): Promise<void> {
  await sql.query(
    `INSERT INTO refunds (refund_id, payment_link_ref, payment_id, amount, currency, channel, refund_status, refund_type, refund_reason, description,
       psp_refund_id, created_at, amount_atomic, basis_atomic, basis_vnd, send_to, claim_token, claim_expires_at, destination, retry_of)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20)`,
    [
      refund.refund_id,
      refund.payment_link_ref,
      refund.payment_id,
      refund.amount,
      refund.currency,
      refund.channel,
      refund.refund_status,
      refund.refund_type,
      refund.refund_reason,
      refund.description,
      refund.psp_refund_id,
      refund.created_at,
      refund.amount_atomic.toString(),
      refund.basis_atomic.toString(),
      refund.basis_vnd.toString(),
      refund.send_to,
      refund.claim_token,
      refund.claim_expires_at,
      refund.destination,
      refund.retry_of,
    ],
  );
  await insertRefundEvent(sql, refund.refund_id, 'requested', refund.created_at, refund.destination);
}

export async function insertRefundEvent(sql: Sql, refundId: string, event: RefundHistoryEntry['event'], at: Date, detail: string | null): Promise<void> {
  await sql.query('INSERT INTO refund_events (refund_id, event, at, detail) VALUES ($1, $2, $3, $4)', [refundId, event, at, detail]);
}

/** The refunds of some links, in the order they were made, each with the payment whose money it returned. */
export async function refundsOfLinks(sql: Sql, refs: readonly string[]): Promise<RefundRow[]> {
  if (!refs.length) return [];
  return sql.query<RefundRow>(`SELECT ${RECORD} FROM refunds WHERE payment_link_ref = ANY($1::text[]) ORDER BY seq`, [refs]);
}

/** A refund with what its payout needs: its payment's coin, network and address, and the merchant whose it is. */
export interface RefundState {
  refund_id: string;
  merchant_id: string;
  merchant_order_id: string;
  payment_link_ref: string;
  payment_id: string;
  amount: number;
  refund_status: RefundStatus;
  refund_type: string;
  refund_reason: string;
  description: string;
  channel: string;
  currency: string;
  psp_refund_id: string | null;
  amount_atomic: string;
  basis_atomic: string;
  basis_vnd: number;
  send_to: RefundDestination;
  claim_token: string | null;
  claim_expires_at: Date | null;
  destination: string | null;
  failure_reason: string | null;
  retry_of: string | null;
  created_at: Date;
  /** created_at as the refund list writes it. */
  refund_date: string;
  asset: AssetCode;
  network: Network;
  /** The payment's one-time address: where the simulator's payout leaves from. */
  payment_address: string;
  /** The billing locale of the link: the claim page's language. */
  locale: string | null;
  merchant_name: string | null;
  /** Why its payout waits to be signed (migrations/022_merchant_payout_wallets.sql), when it does. */
  payout_waiting: PayoutWaiting['reason'] | null;
  payout_waiting_detail: string | null;
  payout_waiting_until: Date | null;
}

/** Why a payout waits: the merchant's daily cap (until when), or its payout wallet's funds. */
export interface PayoutWaiting {
  reason: (typeof PAYOUT_WAITING_REASONS)[number];
  detail: string;
  until: Date | null;
}

const STATE = `SELECT r.refund_id, l.merchant_id, l.merchant_order_id, r.payment_link_ref, r.payment_id, r.amount, r.refund_status,
    r.refund_type, r.refund_reason, r.description, r.channel, r.currency, r.psp_refund_id, r.amount_atomic::text AS amount_atomic,
    r.basis_atomic::text AS basis_atomic, r.basis_vnd, r.send_to, r.claim_token, r.claim_expires_at, r.destination, r.failure_reason,
    r.retry_of, r.created_at, to_char(r.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"+00:00"') AS refund_date, p.asset, p.network, p.address AS payment_address,
    l.request #>> '{billing_details,billing_address,locale}' AS locale, l.request #>> '{merchant_details,name}' AS merchant_name,
    r.payout_waiting, r.payout_waiting_detail, r.payout_waiting_until
  FROM refunds r JOIN payments p USING (payment_id) JOIN payment_links l ON l.payment_link_ref = r.payment_link_ref`;

/** A refund by its id, locked for a change when `lock`. */
export async function refundById(sql: Sql, refundId: string, { lock = false } = {}): Promise<RefundState | undefined> {
  return one<RefundState>(sql, `${STATE} WHERE r.refund_id = $1${lock ? ' FOR UPDATE OF r' : ''}`, [refundId]);
}

/** A payment's PENDING refunds nothing of which was sent yet (no transaction), newest first, locked for a change. */
export async function unsentRefundsOf(sql: Sql, paymentId: string): Promise<RefundState[]> {
  return sql.query<RefundState>(
    `${STATE} WHERE r.payment_id = $1 AND r.refund_status = 'PENDING' AND r.psp_refund_id IS NULL ORDER BY r.seq DESC FOR UPDATE OF r`,
    [paymentId],
  );
}

/** A refund by its claim link's token, locked for a change when `lock`. */
export async function refundByClaimToken(sql: Sql, token: string, { lock = false } = {}): Promise<RefundState | undefined> {
  return one<RefundState>(sql, `${STATE} WHERE r.claim_token = $1${lock ? ' FOR UPDATE OF r' : ''}`, [token]);
}

/** Every refund of a merchant's order, oldest first. */
export async function refundsOfOrder(sql: Sql, merchantId: string, orderId: string): Promise<RefundState[]> {
  return sql.query<RefundState>(`${STATE} WHERE l.merchant_id = $1 AND l.merchant_order_id = $2 ORDER BY r.seq`, [merchantId, orderId]);
}

/** The history of some refunds, each in order. */
export async function historiesOf(sql: Sql, refundIds: readonly string[]): Promise<Map<string, RefundHistoryEntry[]>> {
  const rows = await sql.query<{ refund_id: string; event: RefundHistoryEntry['event']; at: Date; detail: string | null }>(
    'SELECT refund_id, event, at, detail FROM refund_events WHERE refund_id = ANY($1::text[]) ORDER BY seq',
    [refundIds],
  );
  const histories = new Map<string, RefundHistoryEntry[]>(refundIds.map((id) => [id, []]));
  for (const { refund_id, event, at, detail } of rows) histories.get(refund_id)!.push({ event, at: at.toISOString(), detail });
  return histories;
}

/** Claims no one made in time: PENDING, waiting for an address, past their expiry. */
export async function lapsedClaims(sql: Sql, now: Date, scope?: { merchantId: string; orderId: string }): Promise<string[]> {
  const rows = await sql.query<{ refund_id: string }>(
    `SELECT r.refund_id FROM refunds r${scope ? ' JOIN payment_links l USING (payment_link_ref)' : ''}
     WHERE r.refund_status = 'PENDING' AND r.claim_expires_at <= $1 AND r.destination IS NULL${scope ? ' AND l.merchant_id = $2 AND l.merchant_order_id = $3' : ''}
     ORDER BY r.seq`,
    scope ? [now, scope.merchantId, scope.orderId] : [now],
  );
  return rows.map((r) => r.refund_id);
}

/** Refunds with a destination and no outcome yet, oldest first: payouts to send or to follow. */
export async function payoutsUnderWay(sql: Sql): Promise<string[]> {
  const rows = await sql.query<{ refund_id: string }>(
    `SELECT refund_id FROM refunds WHERE refund_status = 'PENDING' AND destination IS NOT NULL ORDER BY seq`,
  );
  return rows.map((r) => r.refund_id);
}

/**
 * Refunds SUCCESS since `since` whose payout a node's hot wallet signed: watched for a reorganisation that takes their
 * transaction back.
 */
export async function recentNodePayouts(sql: Sql, since: Date): Promise<string[]> {
  const rows = await sql.query<{ refund_id: string }>(
    `SELECT DISTINCT r.refund_id, r.seq FROM refund_events e JOIN refunds r USING (refund_id)
     WHERE e.event = 'confirmed' AND e.at >= $1 AND r.refund_status = 'SUCCESS'
       AND EXISTS (SELECT 1 FROM payout_transactions t WHERE t.refund_id = r.refund_id)
     ORDER BY r.seq`,
    [since],
  );
  return rows.map((r) => r.refund_id);
}

/** A SUCCESS refund whose payout left the chain: PENDING again, followed as before. */
export async function reopenRefund(sql: Sql, refundId: string): Promise<void> {
  await sql.query(`UPDATE refunds SET refund_status = 'PENDING' WHERE refund_id = $1`, [refundId]);
}

/** Why the refund's payout waits now, or null: it no longer does. */
export async function setPayoutWaiting(sql: Sql, refundId: string, waiting: PayoutWaiting | null): Promise<void> {
  await sql.query('UPDATE refunds SET payout_waiting = $2, payout_waiting_detail = $3, payout_waiting_until = $4 WHERE refund_id = $1', [
    refundId,
    waiting?.reason ?? null,
    waiting?.detail ?? null,
    waiting?.until ?? null,
  ]);
}

export async function setRefundDestination(sql: Sql, refundId: string, destination: string): Promise<void> {
  await sql.query('UPDATE refunds SET destination = $2 WHERE refund_id = $1', [refundId, destination]);
}

/** The payout's transaction: the refund's psp_refund_id. */
export async function setRefundTransaction(sql: Sql, refundId: string, hash: string): Promise<void> {
  await sql.query('UPDATE refunds SET psp_refund_id = $2 WHERE refund_id = $1', [refundId, hash]);
}

export async function endRefund(sql: Sql, refundId: string, status: Exclude<RefundStatus, 'PENDING'>, failureReason: string | null): Promise<void> {
  await sql.query('UPDATE refunds SET refund_status = $2, failure_reason = $3 WHERE refund_id = $1', [refundId, status, failureReason]);
}

const ORDER_REFUNDS = `SELECT coalesce(json_agg(json_build_object('facts', ${linkRecordFacts('$3')},
    'refunds', (SELECT coalesce(json_agg(r), '[]') FROM (SELECT seq, ${RECORD} FROM refunds WHERE payment_link_ref = l.payment_link_ref ORDER BY seq) r))
    ORDER BY l.created_at, l.payment_link_ref), '[]')::text AS links
  FROM payment_links l WHERE merchant_id = $1 AND merchant_order_id = $2`;

/**
 * An order's links with their facts (oldest first) and their refunds, in one statement, as JSON text: what the refund
 * listing reads, and keeps its answer with (services/payments/derived-answers.ts). parseOrderRefunds reads it.
 */
export async function readOrderRefundsText(sql: Sql, merchantId: string, orderId: string, now: Date): Promise<string> {
  return (await sql.query<{ links: string }>(ORDER_REFUNDS, [merchantId, orderId, now]))[0]!.links;
}

/** The links of readOrderRefundsText and every refund of them, in the order made. No links: no such order for this merchant. */
export function parseOrderRefunds(text: string): { links: LinkRows<LinkRecord>[]; refunds: RefundRow[] } {
  const rows = JSON.parse(text) as { facts: LinkFactsJson<LinkRecord>; refunds: (RefundRow & { seq: number })[] }[];
  const refunds = rows.flatMap((r) => r.refunds).sort((a, b) => a.seq - b.seq);
  return { links: rows.map((r) => linkRowsOf(r.facts)), refunds: refunds.map(({ seq: _seq, ...refund }) => refund) };
}

/** VND refunded per payment (refunds that did not fail), over some links. */
export async function refundedByPayment(sql: Sql, refs: readonly string[]): Promise<Map<string, number>> {
  if (!refs.length) return new Map();
  const rows = await sql.query<{ payment_id: string; total: number }>(
    `SELECT payment_id, sum(amount)::bigint AS total FROM refunds
     WHERE payment_link_ref = ANY($1::text[]) AND refund_status <> 'FAILED' AND payment_id IS NOT NULL GROUP BY payment_id`,
    [refs],
  );
  return new Map(rows.map((r) => [r.payment_id, r.total]));
}

/** Atomic units the refunds of a payment sent back (or are sending), failed ones aside. */
export async function atomicRefunded(sql: Sql, paymentId: string): Promise<bigint> {
  const rows = await sql.query<{ sent: string }>(
    `SELECT COALESCE(sum(amount_atomic), 0)::text AS sent FROM refunds WHERE payment_id = $1 AND refund_status <> 'FAILED'`,
    [paymentId],
  );
  return BigInt(rows[0]!.sent);
}

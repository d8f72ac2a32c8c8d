// Every statement about refunds. A refund returns part of one payment's money; the order's refunds are those of
// all its links.
import type { LinkRefund, RefundStatus } from '../../contract/index.js';
import type { Sql } from './database.js';
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
  /** What the refund sends back, in atomic units of the payment's asset; null for one that failed before sending. */
  amount_atomic: bigint | null;
  created_at: Date;
}

const RECORD = `refund_id, payment_id, COALESCE(psp_refund_id, '') AS psp_refund_id, amount, lower(currency) AS currency,
  refund_status, refund_type, refund_reason,
  to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"+00:00"') AS refund_date`;

export async function insertRefund(sql: Sql, refund: NewRefund): Promise<void> {
  await sql.query(
    `INSERT INTO refunds (refund_id, payment_link_ref, payment_id, amount, currency, channel, refund_status, refund_type, refund_reason, description,
       psp_refund_id, created_at, amount_atomic)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)`,
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
      refund.amount_atomic?.toString() ?? null,
    ],
  );
}

/** The refunds of some links, in the order they were made, each with the payment whose money it returned. */
export async function refundsOfLinks(sql: Sql, refs: readonly string[]): Promise<LinkRefund[]> {
  if (!refs.length) return [];
  return sql.query<LinkRefund>(`SELECT ${RECORD} FROM refunds WHERE payment_link_ref = ANY($1::text[]) ORDER BY seq`, [refs]);
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
export function parseOrderRefunds(text: string): { links: LinkRows<LinkRecord>[]; refunds: LinkRefund[] } {
  const rows = JSON.parse(text) as { facts: LinkFactsJson<LinkRecord>; refunds: (LinkRefund & { seq: number })[] }[];
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

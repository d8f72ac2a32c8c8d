// The merchant's list of links (GET /api/paymentLink): a page at a time, newest first, searched and filtered.
import type * as z from 'zod/mini';
import type { PaymentLinkListQuery } from '../../contract/index.js';
import type { Sql } from './database.js';

/** Where a page of links starts: after this sort key (created_at to the microsecond, then payment_link_ref). */
export interface LinkSortKey {
  created_at: string;
  payment_link_ref: string;
}

export type LinkFilters = Omit<z.output<typeof PaymentLinkListQuery>, 'cursor' | 'limit'>;

/** Money held on a payment and not yet returned: its held_vnd beyond the refunds (not failed) taken from it. */
const HOLDS_MONEY = `EXISTS (SELECT 1 FROM payments p WHERE p.payment_link_ref = l.payment_link_ref
  AND p.held_vnd > (SELECT coalesce(sum(r.amount), 0) FROM refunds r WHERE r.payment_id = p.payment_id AND r.refund_status <> 'FAILED'))`;

/** Up to `limit` of the merchant's links after `after`, newest first, with their sort keys. */
export async function pageOfLinks(sql: Sql, merchantId: string, filters: LinkFilters, after: LinkSortKey | undefined, limit: number): Promise<LinkSortKey[]> {
  const params: unknown[] = [merchantId];
  const param = (value: unknown) => `$${params.push(value)}`;
  const where = ['l.merchant_id = $1'];
  if (filters.merchant_order_id !== undefined) where.push(`l.merchant_order_id = ${param(filters.merchant_order_id)}`);
  if (filters.q !== undefined) {
    const like = param(`%${filters.q.replace(/[\\%_]/g, '\\$&')}%`);
    where.push(`(l.payment_link_ref = ${param(filters.q)} OR l.merchant_order_id ILIKE ${like} OR l.request #>> '{billing_details,billing_email}' ILIKE ${like}
      OR EXISTS (SELECT 1 FROM payments p WHERE p.payment_link_ref = l.payment_link_ref AND p.customer ->> 'email' ILIKE ${like}))`);
  }
  if (filters.status !== undefined) where.push(`l.status = ${param(filters.status)}`);
  if (filters.asset !== undefined || filters.network !== undefined) {
    const asset = filters.asset === undefined ? '' : ` AND p.asset = ${param(filters.asset)}`;
    const network = filters.network === undefined ? '' : ` AND p.network = ${param(filters.network)}`;
    where.push(`EXISTS (SELECT 1 FROM payments p WHERE p.payment_link_ref = l.payment_link_ref${asset}${network})`);
  }
  // Parsed here, not by the database: a bare date is midnight UTC, whatever the session's time zone.
  if (filters.created_from !== undefined) where.push(`l.created_at >= ${param(new Date(filters.created_from))}`);
  if (filters.created_before !== undefined) where.push(`l.created_at < ${param(new Date(filters.created_before))}`);
  if (filters.held !== undefined) where.push(filters.held === 'true' ? HOLDS_MONEY : `NOT ${HOLDS_MONEY}`);
  if (after !== undefined) where.push(`(l.created_at, l.payment_link_ref) < (${param(after.created_at)}::timestamptz, ${param(after.payment_link_ref)})`);
  return sql.query<LinkSortKey>(
    `SELECT l.payment_link_ref, to_char(l.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS created_at
     FROM payment_links l WHERE ${where.join(' AND ')}
     ORDER BY l.created_at DESC, l.payment_link_ref DESC LIMIT ${param(limit)}`,
    params,
  );
}

// The merchant's list of links (GET /api/paymentLink): a page at a time, newest first, searched and filtered.
import type * as z from 'zod/mini';
import type { LinkSort, PaymentLinkListQuery } from '../../contract/index.js';
import type { Sql } from './database.js';

/** Where a page of links starts: after this sort key (created_at to the microsecond, or the amount; then payment_link_ref). */
export interface LinkSortKey {
  created_at: string;
  amount: string;
  payment_link_ref: string;
}

/** The column a sort reads and its SQL type; ties go by payment_link_ref, the same way. */
const SORTED_BY = { created_at: ['l.created_at', 'timestamptz'], amount: ['l.amount', 'bigint'] } as const;

export type LinkFilters = Omit<z.output<typeof PaymentLinkListQuery>, 'cursor' | 'limit' | 'q' | 'include_total' | 'sort'>;

/** What a search looks for: the words as typed, and what they may also spell (services/merchant/merchant-links.ts). */
export interface LinkSearch {
  text: string;
  /** The digits of a phone number or of an amount typed with separators. */
  digits?: string;
  /** An amount in VND. */
  amount?: number;
}

/** Money held on a payment and not yet returned: its held_vnd beyond the refunds (not failed) taken from it. */
const HOLDS_MONEY = `EXISTS (SELECT 1 FROM payments p WHERE p.payment_link_ref = l.payment_link_ref
  AND p.held_vnd > (SELECT coalesce(sum(r.amount), 0) FROM refunds r WHERE r.payment_id = p.payment_id AND r.refund_status <> 'FAILED'))`;

/** VND of a link gone back or going (refunds that did not fail), and all it ever held: its price once paid, and what its payments hold beside. */
const REFUNDED_VND = `(SELECT coalesce(sum(r.amount), 0) FROM refunds r WHERE r.payment_link_ref = l.payment_link_ref AND r.refund_status <> 'FAILED')`;
const PAID_VALUE = `(l.amount + (SELECT coalesce(sum(p.held_vnd), 0) FROM payments p WHERE p.payment_link_ref = l.payment_link_ref))`;
/** A paid link refunded in part, or in full: what amountToRefund reads 0 for (services/orders/refund-ledger.ts). */
const REFUNDED: Record<NonNullable<LinkFilters['refunded']>, string> = {
  none: `${REFUNDED_VND} = 0`,
  partly: `l.status = 'paid' AND ${REFUNDED_VND} > 0 AND ${REFUNDED_VND} < ${PAID_VALUE}`,
  fully: `l.status = 'paid' AND ${REFUNDED_VND} >= ${PAID_VALUE}`,
};

/** The WHERE of the merchant's links that the filters and the search find, with its parameters ($1 the merchant). */
function linksWhere(merchantId: string, filters: LinkFilters, search: LinkSearch | undefined) {
  const params: unknown[] = [merchantId];
  const param = (value: unknown) => `$${params.push(value)}`;
  const where = ['l.merchant_id = $1'];
  if (filters.merchant_order_id !== undefined) where.push(`l.merchant_order_id = ${param(filters.merchant_order_id)}`);
  if (search !== undefined) where.push(`l.payment_link_ref IN (${linksFound(search, param)})`);
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
  if (filters.refunded !== undefined) where.push(REFUNDED[filters.refunded]);
  return { where, params, param };
}

/** Up to `limit` of the merchant's links after `after`, in the order `sort` names (newest first by default), with their sort keys. */
export async function pageOfLinks(
  sql: Sql,
  merchantId: string,
  filters: LinkFilters,
  search: LinkSearch | undefined,
  after: LinkSortKey | undefined,
  limit: number,
  sort: LinkSort = '-created_at',
): Promise<LinkSortKey[]> {
  const { where, params, param } = linksWhere(merchantId, filters, search);
  const descending = sort.startsWith('-');
  const by = sort.replace('-', '') as keyof typeof SORTED_BY;
  const [column, type] = SORTED_BY[by];
  if (after !== undefined) {
    where.push(`(${column}, l.payment_link_ref) ${descending ? '<' : '>'} (${param(after[by])}::${type}, ${param(after.payment_link_ref)})`);
  }
  const direction = descending ? 'DESC' : 'ASC';
  return sql.query<LinkSortKey>(
    `SELECT l.payment_link_ref, to_char(l.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS created_at, l.amount::text AS amount
     FROM payment_links l WHERE ${where.join(' AND ')}
     ORDER BY ${column} ${direction}, l.payment_link_ref ${direction} LIMIT ${param(limit)}`,
    params,
  );
}

/** How many of the merchant's links the filters and the search find, on every page. */
export async function countOfLinks(sql: Sql, merchantId: string, filters: LinkFilters, search: LinkSearch | undefined): Promise<number> {
  const { where, params } = linksWhere(merchantId, filters, search);
  const [row] = await sql.query<{ total: number }>(`SELECT count(*)::int AS total FROM payment_links l WHERE ${where.join(' AND ')}`, params);
  return row!.total;
}

/**
 * The refs of the links a search finds, each branch through an index of migrations/014_search.sql (the expressions
 * here are those of the indexes, word for word): a whole ref; a substring of the folded text of a link (order id,
 * billing contact), of a payment (id, address paid to, the contact given at checkout), of a transfer (transaction,
 * paying address) or of a refund (id, payout transaction, destination); an amount. A substring of fewer than three
 * characters has no trigram to look up: it is still found, by reading the indexes whole.
 */
function linksFound({ text, digits, amount }: LinkSearch, param: (value: unknown) => string): string {
  const pattern = (s: string) => param(`%${s.replace(/[\\%_]/g, '\\$&')}%`);
  const [typed, phone] = [pattern(text), digits === undefined ? undefined : pattern(digits)];
  // The digits of a phone are looked for among contacts alone: a hash or an address holds runs of digits too.
  const matches = (folded: string, contact = false) =>
    `(${folded} LIKE search_fold(${typed})${contact && phone ? ` OR ${folded} LIKE ${phone}` : ''})`;
  const byAmount = amount === undefined ? '' : ` OR (merchant_id = $1 AND amount = ${param(amount)})`;
  return `SELECT payment_link_ref FROM payment_links
      WHERE payment_link_ref = ${param(text)} OR ${matches('link_search_text(merchant_order_id, request)', true)}${byAmount}
    UNION ALL SELECT payment_link_ref FROM payments WHERE ${matches('payment_search_text(payment_id, address, customer)', true)}
    UNION ALL SELECT p.payment_link_ref FROM chain_transfers t JOIN payments p ON p.address = t.to_address
      WHERE ${matches("search_fold(t.tx_hash || E'\\n' || t.from_address)")}
    UNION ALL SELECT payment_link_ref FROM refunds
      WHERE ${matches("search_fold(refund_id || E'\\n' || coalesce(psp_refund_id, '') || E'\\n' || coalesce(destination, ''))")}`;
}

// The merchant's read of its payment links (GET /api/paymentLink/{ref}, GET /api/paymentLink): the link, its payments
// with their transactions, its refunds. Webhook bodies carry the same resource.
import type * as z from 'zod/mini';
import type { Customer, MerchantPayment, PaymentLinkList, PaymentLinkListQuery, PaymentLinkResource } from '../../contract/index.js';
import { invalid, notFound } from '../errors.js';
import { one, type Sql } from '../storage/database.js';
import type { LinkRow, PaymentRow } from '../storage/payments.js';
import { paymentLinkUrl } from './payment-links.js';
import type { PaymentView } from './payment-view.js';
import type { LinkSnapshot, Reconciler } from './reconciler.js';
import type { Refunds } from './refunds.js';

export type LinkListQuery = z.output<typeof PaymentLinkListQuery>;

/** Money held on a payment and not yet returned: its held_vnd beyond the refunds (not failed) taken from it. */
const HOLDS_MONEY = `EXISTS (SELECT 1 FROM payments p WHERE p.payment_link_ref = l.payment_link_ref
  AND p.held_vnd > (SELECT coalesce(sum(r.amount), 0) FROM refunds r WHERE r.payment_id = p.payment_id AND r.refund_status <> 'FAILED'))`;

export class LinkResources {
  constructor(
    private readonly reconciler: Reconciler,
    private readonly view: PaymentView,
    private readonly refunds: Refunds,
    private readonly checkoutUrl: string,
  ) {}

  /** One of the merchant's links; another merchant's is as unknown as a missing one. */
  async get(sql: Sql, merchantId: string, ref: string): Promise<PaymentLinkResource> {
    const owned = await one(sql, 'SELECT 1 FROM payment_links WHERE payment_link_ref = $1 AND merchant_id = $2', [ref, merchantId]);
    if (!owned) throw notFound('There is no payment link with this reference for this merchant.');
    return this.resource(sql, ref);
  }

  /**
   * A page of the merchant's links, newest first, narrowed by the query's filters. The cursor holds the sort key of
   * the page's last link (created_at to the microsecond, then payment_link_ref), so links created meanwhile (newer)
   * never shift the pages after it: every link of the list is on exactly one page.
   */
  async list(sql: Sql, merchantId: string, query: LinkListQuery): Promise<PaymentLinkList> {
    const params: unknown[] = [merchantId];
    const param = (value: unknown) => `$${params.push(value)}`;
    const where = ['l.merchant_id = $1'];
    if (query.merchant_order_id !== undefined) where.push(`l.merchant_order_id = ${param(query.merchant_order_id)}`);
    if (query.q !== undefined) {
      const like = param(`%${query.q.replace(/[\\%_]/g, '\\$&')}%`);
      where.push(`(l.payment_link_ref = ${param(query.q)} OR l.merchant_order_id ILIKE ${like} OR l.request #>> '{billing_details,billing_email}' ILIKE ${like}
        OR EXISTS (SELECT 1 FROM payments p WHERE p.payment_link_ref = l.payment_link_ref AND p.customer ->> 'email' ILIKE ${like}))`);
    }
    if (query.status !== undefined) where.push(`l.status = ${param(query.status)}`);
    if (query.asset !== undefined || query.network !== undefined) {
      const asset = query.asset === undefined ? '' : ` AND p.asset = ${param(query.asset)}`;
      const network = query.network === undefined ? '' : ` AND p.network = ${param(query.network)}`;
      where.push(`EXISTS (SELECT 1 FROM payments p WHERE p.payment_link_ref = l.payment_link_ref${asset}${network})`);
    }
    // Parsed here, not by the database: a bare date is midnight UTC, whatever the session's time zone.
    if (query.created_from !== undefined) where.push(`l.created_at >= ${param(new Date(query.created_from))}`);
    if (query.created_before !== undefined) where.push(`l.created_at < ${param(new Date(query.created_before))}`);
    if (query.held !== undefined) where.push(query.held === 'true' ? HOLDS_MONEY : `NOT ${HOLDS_MONEY}`);
    if (query.cursor !== undefined) {
      const after = decodeCursor(query.cursor);
      where.push(`(l.created_at, l.payment_link_ref) < (${param(after.created_at)}::timestamptz, ${param(after.ref)})`);
    }
    const rows = await sql.query<{ payment_link_ref: string; created_at: string }>(
      `SELECT l.payment_link_ref, to_char(l.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS created_at
       FROM payment_links l WHERE ${where.join(' AND ')}
       ORDER BY l.created_at DESC, l.payment_link_ref DESC LIMIT ${param(query.limit + 1)}`,
      params,
    );
    const page = rows.slice(0, query.limit);
    const last = page.at(-1);
    const payment_links: PaymentLinkResource[] = [];
    for (const row of page) payment_links.push(await this.resource(sql, row.payment_link_ref));
    return { payment_links, next_cursor: rows.length > query.limit && last ? encodeCursor(last.created_at, last.payment_link_ref) : null };
  }

  private async payments(sql: Sql, { link, payments, states, transfers }: LinkSnapshot): Promise<MerchantPayment[]> {
    const rendered: MerchantPayment[] = [];
    for (const [i, row] of payments.entries()) {
      const seen = transfers.get(row.payment_id) ?? [];
      const payment = await this.view.render(sql, link, row, states[i]!, seen);
      // The refunds service sends back to the same address (refunds.ts, refundSources).
      rendered.push({ ...payment, refund_address: seen.find((t) => t.confirmed_at)?.from_address ?? null });
    }
    return rendered;
  }

  private async resource(sql: Sql, ref: string): Promise<PaymentLinkResource> {
    const snapshot = await this.reconciler.read(sql, ref);
    const { link } = snapshot;
    const { amountToRefund, refundDetails } = await this.refunds.linkRefunds(sql, snapshot);
    return {
      payment_link_ref: link.payment_link_ref,
      payment_link: paymentLinkUrl(this.checkoutUrl, link.payment_link_ref),
      merchant_order_id: link.merchant_order_id,
      status: link.status,
      amount: link.amount,
      currency: 'VND',
      description: link.request.description,
      created_at: link.created_at.toISOString(),
      expires_at: link.expires_at.toISOString(),
      paid_at: link.paid_at?.toISOString() ?? null,
      superseded_at: link.superseded_at?.toISOString() ?? null,
      customer: customerOf(link, snapshot.payments),
      payments: await this.payments(sql, snapshot),
      refunds: refundDetails,
      amountToRefund,
    };
  }
}

/** The contact the customer gave at checkout (the latest payment that carries one), else the link's billing details. */
function customerOf(link: LinkRow, payments: readonly PaymentRow[]): Customer | null {
  const given = payments.findLast((p) => p.customer !== null && typeof p.customer === 'object')?.customer as Customer | undefined;
  if (given && (given.name || given.email || given.phone)) return given;
  const billing = link.request.billing_details;
  const contact = { name: billing?.billing_name, email: billing?.billing_email, phone: billing?.billing_phone };
  const known = Object.fromEntries(Object.entries(contact).filter(([, value]) => value));
  return Object.keys(known).length ? (known as Customer) : null;
}

const SORT_KEY = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/;

function encodeCursor(createdAt: string, ref: string): string {
  return Buffer.from(JSON.stringify([createdAt, ref])).toString('base64url');
}

function decodeCursor(cursor: string): { created_at: string; ref: string } {
  let key: unknown;
  try {
    key = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    key = undefined;
  }
  if (Array.isArray(key) && key.length === 2 && typeof key[0] === 'string' && SORT_KEY.test(key[0]) && !Number.isNaN(Date.parse(key[0])) && typeof key[1] === 'string') {
    return { created_at: key[0], ref: key[1] };
  }
  throw invalid('cursor is not one this list gave: pass the next_cursor of the page before, unchanged.', [
    { path: 'cursor', message: 'must be the next_cursor of an earlier page' },
  ]);
}

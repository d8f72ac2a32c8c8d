// The merchant's read model of its payment links (GET /api/paymentLink/{ref}, GET /api/paymentLink): the link, its
// payments with their transactions, its refunds. Webhook bodies carry the same resource. Read-only: built from the link
// reader, the refund ledger and the payment view.
import type * as z from 'zod/mini';
import type { Customer, LinkSort, MerchantPayment, PaymentLinkList, PaymentLinkListQuery, PaymentLinkResource, RateProvenance } from '../../../contract/index.js';
import type { Networks } from '../../chains/networks.js';
import { invalid, notFound } from '../../errors.js';
import type { Database, Sql } from '../../storage/database.js';
import { countOfLinks, pageOfLinks, type LinkSearch, type LinkSortKey } from '../../storage/link-list.js';
import { isMerchantsLink, rateProvenanceOf, type LinkRow, type PaymentRow } from '../../storage/payments.js';
import type { RefundLedger } from '../orders/refund-ledger.js';
import type { LinkReader, LinkSnapshot } from '../payments/link-reader.js';
import type { PaymentView } from '../payments/payment-view.js';

export type LinkListQuery = z.output<typeof PaymentLinkListQuery>;

export class MerchantLinks {
  constructor(
    private readonly db: Database,
    private readonly networks: Networks,
    private readonly reader: LinkReader,
    private readonly ledger: RefundLedger,
    private readonly view: PaymentView,
    private readonly checkoutUrl: string,
  ) {}

  /**
   * One of the merchant's links; another merchant's is as unknown as a missing one. Inside a transaction (a webhook
   * body, an accepted payment) pass it as `sql`, so the resource shows what that transaction wrote.
   */
  async get(merchantId: string, ref: string, sql: Sql = this.db): Promise<PaymentLinkResource> {
    if (!(await isMerchantsLink(sql, merchantId, ref))) throw notFound('There is no payment link with this reference for this merchant.');
    return this.resourceOf(sql, await this.reader.read(sql, ref));
  }

  /**
   * A page of the merchant's links, newest first, narrowed by the query's filters. The cursor holds the sort key of
   * the page's last link (created_at to the microsecond, then payment_link_ref), so links created meanwhile (newer)
   * never shift the pages after it: every link of the list is on exactly one page.
   */
  async list(merchantId: string, { cursor, limit, q, include_total, sort, ...filters }: LinkListQuery): Promise<PaymentLinkList> {
    const assets = [...new Set(this.networks.assets.map((a) => a.asset))];
    if (filters.asset !== undefined && !assets.includes(filters.asset)) throw invalid('asset is not one this gateway takes.', [{ path: 'asset', message: `must be one of ${assets.join(', ')}` }]);
    if (filters.network !== undefined && !this.networks.get(filters.network)) {
      throw invalid('network is not one of this gateway.', [{ path: 'network', message: `must be one of ${this.networks.ids.join(', ')}` }]);
    }
    const search = q === undefined ? undefined : linkSearch(q);
    const rows = await pageOfLinks(this.db, merchantId, filters, search, cursor === undefined ? undefined : decodeCursor(cursor, sort), limit + 1, sort);
    const page = rows.slice(0, limit);
    const last = page.at(-1);
    const payment_links: PaymentLinkResource[] = [];
    // The page's rate provenance in one statement.
    const provenance = await rateProvenanceOf(this.db, page.map((row) => row.payment_link_ref));
    for (const row of page) payment_links.push(await this.resourceOf(this.db, await this.reader.read(this.db, row.payment_link_ref), provenance));
    const next_cursor = rows.length > limit && last ? encodeCursor(last, sort) : null;
    if (include_total !== 'true') return { payment_links, next_cursor };
    return { payment_links, next_cursor, total: await countOfLinks(this.db, merchantId, filters, search) };
  }

  private async payments(sql: Sql, { link, payments, states, transfers }: LinkSnapshot, known?: Map<string, RateProvenance | null>): Promise<MerchantPayment[]> {
    const rendered: MerchantPayment[] = [];
    const provenance = known ?? (payments.length ? await rateProvenanceOf(sql, [link.payment_link_ref]) : new Map<string, RateProvenance | null>());
    for (const [i, row] of payments.entries()) {
      const seen = transfers.get(row.payment_id) ?? [];
      const payment = await this.view.render(sql, link, row, states[i]!, seen);
      // Refunds go back to the same address (orders/refund-ledger.ts, refundSources).
      rendered.push({ ...payment, refund_address: seen.find((t) => t.confirmed_at)?.from_address ?? null, rate_provenance: provenance.get(row.payment_id) ?? null });
    }
    return rendered;
  }

  /**
   * The resource of a link as a snapshot shows it (one just reconciled, in its transaction: a webhook's body); with
   * `provenance`, its payments' rate provenance as read already (a page of links reads them together).
   */
  async resourceOf(sql: Sql, snapshot: LinkSnapshot, provenance?: Map<string, RateProvenance | null>): Promise<PaymentLinkResource> {
    const { link } = snapshot;
    const { amountToRefund, refundDetails } = await this.ledger.linkRefunds(sql, snapshot);
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
      cancelled_at: link.cancelled_at?.toISOString() ?? null,
      customer: customerOf(link, snapshot.payments),
      payments: await this.payments(sql, snapshot, provenance),
      refunds: refundDetails,
      amountToRefund,
    };
  }
}

/** `payment_link`: `{checkout_url}?ref=<payment_link_ref>`. */
export function paymentLinkUrl(checkoutUrl: string, ref: string): string {
  const url = new URL(checkoutUrl);
  url.searchParams.set('ref', ref);
  return url.toString();
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

/** An amount in VND as people write it: `530000`, `530.000`, `530,000`, `530 000` (one separator throughout), `530.000 ₫`. */
const VND_SPELLED = /^(\d{1,3}(?:([.,\s])\d{3})?(?:\2\d{3})*|\d+)\s*(?:₫|đ|vnd)?$/iu;
/** A phone number as people write it: digits with spaces, dots, dashes, brackets, a leading +. */
const PHONE_SPELLED = /^\+?[\d\s.()-]{6,}$/;

/**
 * What a search term may stand for besides its text: an amount in VND, in whichever grouping the customer or the
 * portal's language wrote it, and the digits of a phone number (how the indexes keep phones).
 */
export function linkSearch(q: string): LinkSearch {
  const text = q.trim().replace(/\s+/g, ' ');
  const search: LinkSearch = { text };
  const digits = text.replace(/\D/g, '');
  if (PHONE_SPELLED.test(text) && digits !== text) search.digits = digits;
  const amount = VND_SPELLED.exec(text)?.[1];
  if (amount !== undefined) {
    const vnd = Number(amount.replace(/\D/g, ''));
    if (vnd > 0 && Number.isSafeInteger(vnd)) search.amount = vnd;
  }
  return search;
}

const SORT_KEY = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/;
const AMOUNT = /^\d{1,19}$/;

/**
 * The position after `key` in a list sorted by `sort`: newest first as `[created_at, ref]` (the form cursors always had),
 * any other order as `[sort, value, ref]`, so a cursor is only taken by a list in the order that gave it.
 */
function encodeCursor(key: LinkSortKey, sort: LinkSort): string {
  const position = sort === '-created_at' ? [key.created_at, key.payment_link_ref] : [sort, sort.endsWith('amount') ? key.amount : key.created_at, key.payment_link_ref];
  return Buffer.from(JSON.stringify(position)).toString('base64url');
}

function decodeCursor(cursor: string, sort: LinkSort): LinkSortKey {
  let key: unknown;
  try {
    key = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    key = undefined;
  }
  const position = Array.isArray(key) && key.length === 2 && sort === '-created_at' ? ['-created_at', ...key] : key;
  if (Array.isArray(position) && position.length === 3 && position[0] === sort && typeof position[1] === 'string' && typeof position[2] === 'string') {
    const [, value, ref] = position as [string, string, string];
    if (sort.endsWith('amount') && AMOUNT.test(value)) return { created_at: '', amount: value, payment_link_ref: ref };
    if (sort.endsWith('created_at') && SORT_KEY.test(value) && !Number.isNaN(Date.parse(value))) return { created_at: value, amount: '', payment_link_ref: ref };
  }
  throw invalid('cursor is not one this list gave: pass the next_cursor of the page before, unchanged.', [
    { path: 'cursor', message: 'must be the next_cursor of an earlier page' },
  ]);
}

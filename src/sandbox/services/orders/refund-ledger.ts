// The refund ledger: what an order holds and has returned, read without a lock and without a write. The refund list
// (docs/api.md, "Get the refunds of an order"), a link's refunds for the merchant's read, and the rule that says which
// payment's money a refund returns first.
import type { LinkRefund, RefundList } from '../../../contract/index.js';
import type { Clock } from '../../clock.js';
import { notFound } from '../../errors.js';
import type { Database, Sql } from '../../storage/database.js';
import type { LinkRecord, PaymentRow } from '../../storage/payments.js';
import { parseOrderRefunds, readOrderRefundsText, refundsOfLinks, type RefundRow } from '../../storage/refunds.js';
import { DerivedAnswers } from '../payments/derived-answers.js';
import type { LinkReader, LinkSnapshot } from '../payments/link-reader.js';
import type { PaymentState } from '../payments/payment-state.js';

/** One payment's money, as a refund sees it. */
export interface RefundSource {
  link: LinkRecord;
  payment: PaymentRow;
  state: PaymentState;
  /** VND of it already returned (refunds that did not fail). */
  refunded: number;
  /** Where its money came from: the refund goes back there. */
  payer: string;
}

/** An order's links as its refunds see them, with the VND refunded (not failed) per payment_id. */
export interface OrderMoney {
  links: LinkSnapshot<LinkRecord>[];
  refunded: Map<string, number>;
}

/** How many orders' listings a process keeps (services/payments/derived-answers.ts). */
const LISTS_KEPT = 1_000;

export class RefundLedger {
  readonly #lists = new DerivedAnswers<string>(LISTS_KEPT);

  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly reader: LinkReader,
    /** Where claim links point: the claim page on the gateway's public origin (claimUrlBase). */
    private readonly claimUrl: URL,
  ) {}

  /**
   * The order's refunds as JSON, read in one statement. A listing made before is served again while the order's facts
   * and the time window they hold in are the same (services/payments/derived-answers.ts).
   */
  async list(merchantId: string, orderId: string): Promise<string> {
    const facts = await readOrderRefundsText(this.db, merchantId, orderId, this.clock.now());
    const key = `${merchantId} ${orderId}`;
    const kept = this.#lists.get(key, facts, this.clock.now().getTime());
    if (kept !== undefined) return kept;
    const order = parseOrderRefunds(facts);
    if (!order.links.length) throw orderNotFound(orderId);
    const links = order.links.map((link) => this.reader.derive(link));
    const json = JSON.stringify(this.listed(links, order.refunds));
    this.#lists.set(key, facts, json, { from: this.clock.now().getTime(), until: Math.min(...links.map((l) => l.derived.stable_until)) });
    return json;
  }

  /**
   * The order's refunds up to the last of `made` (a refund request's own), and what was left after them: the answer
   * to that request, whenever it is read. An order's refunds are made under its lock, so those before it in seq order
   * are the ones made before it; each as it is now.
   */
  async listedThrough(merchantId: string, orderId: string, made: readonly string[]): Promise<RefundList> {
    const order = parseOrderRefunds(await readOrderRefundsText(this.db, merchantId, orderId, this.clock.now()));
    const last = Math.max(...made.map((id) => order.refunds.findIndex((r) => r.refund_id === id)));
    return this.listed(order.links.map((link) => this.reader.derive(link)), order.refunds.slice(0, last + 1));
  }

  /** What one link holds and has returned (the read API's `amountToRefund` for that link), each refund with its payment. */
  async linkRefunds(sql: Sql, snapshot: LinkSnapshot<LinkRecord>): Promise<{ amountToRefund: number; refundDetails: LinkRefund[] }> {
    return this.#withRefunds([snapshot], await refundsOfLinks(sql, [snapshot.link.payment_link_ref]));
  }

  /** Every refund of the order's links (docs/api.md, "Get the refunds of an order"), and what is left to refund. */
  listed(links: LinkSnapshot<LinkRecord>[], refunds: RefundRow[]): RefundList {
    const { amountToRefund, refundDetails } = this.#withRefunds(links, refunds);
    return { amountToRefund, refundDetails: refundDetails.map(({ payment_id: _payment, ...record }) => record) };
  }

  /** The absolute URL of a claim link. */
  claimUrlOf(token: string | null): string | null {
    if (token === null) return null;
    const url = new URL(this.claimUrl);
    url.searchParams.set('token', token);
    return url.href;
  }

  /** Links with their refunds, and what is left to refund: every VND they hold, once. */
  #withRefunds(links: LinkSnapshot<LinkRecord>[], rows: RefundRow[]): { amountToRefund: number; refundDetails: LinkRefund[] } {
    const refunded = new Map<string, number>();
    for (const { payment_id, amount, refund_status } of rows) {
      if (payment_id && refund_status !== 'FAILED') refunded.set(payment_id, (refunded.get(payment_id) ?? 0) + amount);
    }
    const refundDetails = rows.map(({ claim_token, ...row }) => ({ ...row, claim_url: this.claimUrlOf(claim_token) }));
    return { amountToRefund: refundSources({ links, refunded }).reduce((sum, s) => sum + refundable(s), 0), refundDetails };
  }
}

/** The claim page on the gateway's public origin, the origin of CHECKOUT_URL (docs/api.md, "Refund claims"). */
export const claimUrlBase = (checkoutUrl: string): URL => new URL('/refunds/claim', checkoutUrl);

/**
 * The payments holding money a refund may return: the order's paid money first (the payment that paid its link, then
 * those whose credit it counted), then held money, each group oldest first. Credit that may still pay an open link
 * is not returnable (docs/payment-lifecycle.md, "Credit across quotes").
 */
export function refundSources(order: OrderMoney): RefundSource[] {
  const sources = order.links.flatMap((l) =>
    l.payments.map((payment, i) => ({
      link: l.link,
      payment,
      state: l.states[i]!,
      refunded: order.refunded.get(payment.payment_id) ?? 0,
      payer: l.transfers.get(payment.payment_id)?.find((t) => t.confirmed_at)?.from_address ?? '',
    })),
  );
  const paidFirst = (s: RefundSource) => (s.payment.status === 'paid' ? 0 : s.state.credited_vnd > 0n ? 1 : 2);
  return sources
    .filter((s) => s.state.returnable_vnd > 0n)
    .sort((a, b) => paidFirst(a) - paidFirst(b) || a.payment.created_at.getTime() - b.payment.created_at.getTime());
}

/**
 * What a refund of the source may still return. Never below zero: refunds sent before a reorganisation took the
 * payment's money back may exceed what it holds now (refund-cover.ts), and that is not taken from the order's others.
 */
export const refundable = (source: RefundSource): number => Math.max(0, Number(source.state.returnable_vnd) - source.refunded);

export const orderNotFound = (orderId: string) => notFound(`There is no order ${orderId} for this merchant.`);

// The merchant's read of a payment link (GET /api/paymentLink/{ref}): the link, its payments with their
// transactions, its refunds. Webhook bodies carry the same resource.
import type { Payment, PaymentLinkResource } from '../../contract/index.js';
import { notFound } from '../errors.js';
import { one, type Sql } from '../storage/database.js';
import { paymentLinkUrl } from './payment-links.js';
import type { PaymentView } from './payment-view.js';
import type { LinkSnapshot, Reconciler } from './reconciler.js';
import type { Refunds } from './refunds.js';

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

  /** The merchant's links for an order, newest first. */
  async byOrder(sql: Sql, merchantId: string, orderId: string): Promise<PaymentLinkResource[]> {
    return this.resources(sql, `WHERE merchant_id = $1 AND merchant_order_id = $2 ORDER BY created_at DESC, payment_link_ref`, [merchantId, orderId]);
  }

  /** The merchant's latest links, newest first: the portal's transactions page. */
  async recent(sql: Sql, merchantId: string, limit: number): Promise<PaymentLinkResource[]> {
    return this.resources(sql, `WHERE merchant_id = $1 ORDER BY created_at DESC, payment_link_ref LIMIT $2`, [merchantId, limit]);
  }

  private async resources(sql: Sql, where: string, params: unknown[]): Promise<PaymentLinkResource[]> {
    const links = await sql.query<{ payment_link_ref: string }>(`SELECT payment_link_ref FROM payment_links ${where}`, params);
    const resources: PaymentLinkResource[] = [];
    for (const link of links) resources.push(await this.resource(sql, link.payment_link_ref));
    return resources;
  }

  private async payments(sql: Sql, { link, payments, states, transfers }: LinkSnapshot): Promise<Payment[]> {
    const rendered: Payment[] = [];
    for (const [i, row] of payments.entries()) rendered.push(await this.view.render(sql, link, row, states[i]!, transfers.get(row.payment_id) ?? []));
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
      payments: await this.payments(sql, snapshot),
      refunds: refundDetails,
      amountToRefund,
    };
  }
}

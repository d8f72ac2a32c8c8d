// The merchant's read of a payment link (GET /api/paymentLink/{ref}): the link, its payments with their
// transactions, its refunds. Webhook bodies carry the same resource.
import type { PaymentLinkResource } from '../../contract/index.js';
import { notFound } from '../http/problem.js';
import { one, type Sql } from '../storage/database.js';
import { paymentLinkUrl } from './payment-links.js';
import type { Payments } from './payments.js';
import type { Refunds } from './refunds.js';

interface LinkRow {
  payment_link_ref: string;
  merchant_id: string;
  merchant_order_id: string;
  status: PaymentLinkResource['status'];
  amount: number;
  currency: string;
  description: string;
  created_at: Date;
  expires_at: Date;
  paid_at: Date | null;
}

const COLUMNS = `payment_link_ref, merchant_id, merchant_order_id, status, amount, currency, request->>'description' AS description,
  created_at, expires_at, paid_at`;

export class LinkResources {
  constructor(
    private readonly payments: Payments,
    private readonly refunds: Refunds,
    private readonly checkoutUrl: string,
  ) {}

  /** One of the merchant's links; another merchant's is as unknown as a missing one. */
  async get(sql: Sql, merchantId: string, ref: string): Promise<PaymentLinkResource> {
    const link = await one<LinkRow>(sql, `SELECT ${COLUMNS} FROM payment_links WHERE payment_link_ref = $1 AND merchant_id = $2`, [ref, merchantId]);
    if (!link) throw notFound('There is no payment link with this reference for this merchant.');
    return this.resource(sql, link);
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
    const links = await sql.query<LinkRow>(`SELECT ${COLUMNS} FROM payment_links ${where}`, params);
    const resources: PaymentLinkResource[] = [];
    for (const link of links) resources.push(await this.resource(sql, link));
    return resources;
  }

  private async resource(sql: Sql, link: LinkRow): Promise<PaymentLinkResource> {
    const { amountToRefund, refundDetails } = await this.refunds.refundList(sql, link);
    return {
      payment_link_ref: link.payment_link_ref,
      payment_link: paymentLinkUrl(this.checkoutUrl, link.payment_link_ref),
      merchant_order_id: link.merchant_order_id,
      status: link.status,
      amount: link.amount,
      currency: 'VND',
      description: link.description,
      created_at: link.created_at.toISOString(),
      expires_at: link.expires_at.toISOString(),
      paid_at: link.paid_at?.toISOString() ?? null,
      payments: await this.payments.ofLink(sql, link.payment_link_ref),
      refunds: refundDetails,
      amountToRefund,
    };
  }
}

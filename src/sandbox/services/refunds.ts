// Refunds (seed 2.8, 2.9): only for a paid order, never more than was paid, also under concurrent requests.
import type { CreateRefundRequest, RefundList, RefundRecord, RefundStatus } from '../../contract/index.js';
import type { Clock } from '../clock.js';
import { conflict, notFound, unprocessable } from '../http/problem.js';
import { randomToken } from '../secrets.js';
import { one, type Database, type Sql } from '../storage/database.js';
import { idempotent, type IdempotencyScope } from './idempotency.js';
import type { MerchantEventSink } from './webhooks.js';

/** The paid link a refund is made against. */
export interface PaidOrder {
  payment_link_ref: string;
  amount: number;
  currency: string;
}

/** How a refund's money moves; the outcome is stored with the refund in the same transaction. */
export interface RefundSender {
  /** `refundedBefore`: VND of the order's earlier refunds that did not fail. */
  send(tx: Sql, order: PaidOrder, request: CreateRefundRequest, refundedBefore: number): Promise<{ refund_status: RefundStatus; psp_refund_id: string | null }>;
}

const RECORD_COLUMNS = `refund_id, COALESCE(psp_refund_id, '') AS psp_refund_id, amount, lower(currency) AS currency,
  refund_status, refund_type, refund_reason,
  to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"+00:00"') AS refund_date`;

export class Refunds {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly sender: RefundSender,
    private readonly events: MerchantEventSink,
  ) {}

  async list(merchantId: string, orderId: string): Promise<RefundList> {
    const order = await this.findOrder(this.db, merchantId, orderId, false);
    return this.refundList(this.db, order);
  }

  async create(
    merchantId: string,
    orderId: string,
    request: CreateRefundRequest,
    idempotency: Omit<IdempotencyScope, 'merchantId'>,
  ): Promise<{ value: RefundList; replayed: boolean }> {
    return idempotent(this.db, { ...idempotency, merchantId }, async (tx) => {
      // The row lock makes concurrent refunds of one order take turns, so their sum is checked against the truth.
      const order = await this.findOrder(tx, merchantId, orderId, true);
      if (order.status !== 'paid') throw conflict(`Order ${orderId} has not been paid; only a paid order can be refunded.`);
      const refundedBefore = await refundedSum(tx, order.payment_link_ref);
      const left = order.amount - refundedBefore;
      if (left === 0) throw unprocessable(`Order ${orderId} is already fully refunded.`, [{ path: 'amount', message: 'nothing is left to refund' }]);
      if (request.refund_type === 'full' && request.amount !== left) {
        throw unprocessable(`A full refund returns exactly what is left: ${left} VND.`, [
          { path: 'amount', message: `must be ${left} VND (what is left) for a full refund` },
        ]);
      }
      if (request.amount > left) {
        throw unprocessable(`amount ${request.amount} VND is more than the ${left} VND left to refund on order ${orderId}.`, [
          { path: 'amount', message: `must be at most ${left} VND, what is left to refund` },
        ]);
      }
      const outcome = await this.sender.send(tx, order, request, refundedBefore);
      const refundId = randomToken('rf', 12);
      await tx.query(
        `INSERT INTO refunds (refund_id, payment_link_ref, amount, currency, channel, refund_status, refund_type, refund_reason, description, psp_refund_id, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
        [
          refundId,
          order.payment_link_ref,
          request.amount,
          order.currency,
          request.channel,
          outcome.refund_status,
          request.refund_type,
          request.refund_reason,
          request.description,
          outcome.psp_refund_id,
          this.clock.now(),
        ],
      );
      if (outcome.refund_status !== 'PENDING') {
        const type = outcome.refund_status === 'SUCCESS' ? 'refund.succeeded' : 'refund.failed';
        await this.events.emit(tx, { merchantId, type, ref: order.payment_link_ref, refundId });
      }
      return this.refundList(tx, order);
    });
  }

  /** The order's paid link if it has one, else its latest link; 404 when the merchant has no such order. */
  private async findOrder(sql: Sql, merchantId: string, orderId: string, lock: boolean) {
    const order = await one<PaidOrder & { status: string }>(
      sql,
      `SELECT payment_link_ref, amount, currency, status FROM payment_links
       WHERE merchant_id = $1 AND merchant_order_id = $2
       ORDER BY status = 'paid' DESC, created_at DESC LIMIT 1 ${lock ? 'FOR UPDATE' : ''}`,
      [merchantId, orderId],
    );
    if (!order) throw notFound(`There is no order ${orderId} for this merchant.`);
    return order;
  }

  /** Every refund of a link, and what is left to refund. */
  async refundList(sql: Sql, order: PaidOrder & { status: string }): Promise<RefundList> {
    const refundDetails = await sql.query<RefundRecord>(
      `SELECT ${RECORD_COLUMNS} FROM refunds WHERE payment_link_ref = $1 ORDER BY seq`,
      [order.payment_link_ref],
    );
    const refunded = refundDetails.filter((r) => r.refund_status !== 'FAILED').reduce((sum, r) => sum + r.amount, 0);
    return { amountToRefund: order.status === 'paid' ? order.amount - refunded : 0, refundDetails };
  }
}

async function refundedSum(sql: Sql, ref: string): Promise<number> {
  const row = await one<{ total: number }>(
    sql,
    `SELECT COALESCE(sum(amount), 0)::bigint AS total FROM refunds WHERE payment_link_ref = $1 AND refund_status <> 'FAILED'`,
    [ref],
  );
  return row?.total ?? 0;
}

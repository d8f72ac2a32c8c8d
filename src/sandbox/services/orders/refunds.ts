// Refunds (docs/api.md, "Create a refund"): any VND the order holds, paid or held, can go back, never more than it holds, also under
// concurrent requests (the order's links are locked). A request without payment_id returns the paid payment's money
// first, then held payments', oldest first; a request larger than one payment holds becomes one refund per payment.
import type { CreateRefundRequest, RefundList, RefundStatus } from '../../../contract/index.js';
import type { Clock } from '../../clock.js';
import { conflict, invalid } from '../../errors.js';
import { randomToken } from '../../secrets.js';
import type { Database, Sql } from '../../storage/database.js';
import { insertRefund, refundsOfLinks } from '../../storage/refunds.js';
import { idempotent, type IdempotencyScope } from '../merchant/idempotency.js';
import type { MerchantEventSink } from '../webhooks/outbox.js';
import type { Orders } from './orders.js';
import { listed, orderNotFound, refundable, refundSources, type RefundSource } from './refund-ledger.js';

/** How a refund's money moves; the outcome is stored with the refund in the same transaction. */
export interface RefundSender {
  send(
    tx: Sql,
    source: RefundSource,
    amount: number,
    request: CreateRefundRequest,
  ): Promise<{ refund_status: RefundStatus; psp_refund_id: string | null; amount_atomic: bigint | null }>;
}

export class Refunds {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly orders: Orders,
    private readonly sender: RefundSender,
    private readonly events: MerchantEventSink,
  ) {}

  async create(
    merchantId: string,
    orderId: string,
    request: CreateRefundRequest,
    idempotency: Omit<IdempotencyScope, 'merchantId'>,
  ): Promise<{ value: RefundList; replayed: boolean }> {
    return idempotent(this.db, { ...idempotency, merchantId }, async (tx) => {
      const order = await this.orders.lockOrder(tx, merchantId, orderId);
      if (!order.links.length) throw orderNotFound(orderId);
      const sources = refundSources(order);
      const left = sources.reduce((sum, s) => sum + refundable(s), 0);
      if (!sources.length) {
        throw conflict(`Order ${orderId} holds no money yet: only a paid order, or one holding a payment, can be refunded.`);
      }
      if (left === 0) throw invalid(`Order ${orderId} is already fully refunded.`, [{ path: 'amount', message: 'nothing is left to refund' }]);
      const chosen = request.payment_id === undefined ? sources : sources.filter((s) => s.payment.payment_id === request.payment_id);
      if (request.payment_id !== undefined && !chosen.length) {
        throw invalid(`Order ${orderId} holds no money through payment ${request.payment_id}.`, [
          { path: 'payment_id', message: 'must be a payment of this order that holds money' },
        ]);
      }
      const available = chosen.reduce((sum, s) => sum + refundable(s), 0);
      if (request.refund_type === 'full' && request.amount !== available) {
        throw invalid(`A full refund returns exactly what is left: ${available} VND.`, [
          { path: 'amount', message: `must be ${available} VND (what is left) for a full refund` },
        ]);
      }
      if (request.amount > available) {
        throw invalid(`amount ${request.amount} VND is more than the ${available} VND left to refund on order ${orderId}.`, [
          { path: 'amount', message: `must be at most ${available} VND, what is left to refund` },
        ]);
      }
      let due = request.amount;
      for (const source of chosen) {
        const part = Math.min(due, refundable(source));
        if (part === 0) continue;
        due -= part;
        const outcome = await this.sender.send(tx, source, part, request);
        const refundId = randomToken('rf', 12);
        await insertRefund(tx, {
          refund_id: refundId,
          payment_link_ref: source.link.payment_link_ref,
          payment_id: source.payment.payment_id,
          amount: part,
          currency: source.link.currency,
          channel: request.channel,
          refund_status: outcome.refund_status,
          refund_type: request.refund_type,
          refund_reason: request.refund_reason,
          description: request.description,
          psp_refund_id: outcome.psp_refund_id,
          amount_atomic: outcome.amount_atomic,
          created_at: this.clock.now(),
        });
        if (outcome.refund_status !== 'PENDING') {
          const type = outcome.refund_status === 'SUCCESS' ? 'refund.succeeded' : 'refund.failed';
          await this.events.emit(tx, { merchantId, type, ref: source.link.payment_link_ref, refundId });
        }
        // A refund that failed moved nothing: the rest of the request does not go on to other payments.
        if (outcome.refund_status === 'FAILED' || due === 0) break;
      }
      return listed(order.links, await refundsOfLinks(tx, order.links.map((l) => l.link.payment_link_ref)));
    });
  }
}

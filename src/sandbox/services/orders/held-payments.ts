// Money held for the merchant (docs/payment-lifecycle.md, "What is held"): accepting a held payment so that it pays
// its link. Refunds (refunds.ts) return held money the same way as paid money.
import type { PaymentLinkResource } from '../../../contract/index.js';
import { conflict, notFound } from '../../errors.js';
import type { Sql } from '../../storage/database.js';
import { acceptPayment, findPaymentLink, readLink } from '../../storage/payments.js';
import type { IdempotencyScope } from '../merchant/idempotency.js';
import { LinkDecision } from './link-decision.js';

export class HeldPayments extends LinkDecision {
  /**
   * POST /api/payments/{payment_id}/accept: a held payment that arrived in full pays its link, while the order is not
   * paid. Another link of the order that is still open for payment is closed, so the order is paid once. Answers
   * with the link as it is now (a replay too: a key keeps the link's ref).
   */
  accept(merchantId: string, paymentId: string, idempotency: Omit<IdempotencyScope, 'merchantId'>): Promise<{ value: PaymentLinkResource; replayed: boolean }> {
    return this.decideOnce(merchantId, idempotency, (tx) => this.#accept(tx, merchantId, paymentId));
  }

  async #accept(tx: Sql, merchantId: string, paymentId: string): Promise<string> {
    const found = await findPaymentLink(tx, { payment_id: paymentId });
    const owner = found && (await readLink(tx, found.payment_link_ref));
    if (!owner || owner.merchant_id !== merchantId) throw notFound(`There is no payment ${paymentId} for this merchant.`);
    const order = await this.orders.lockOrder(tx, merchantId, owner.merchant_order_id);
    const paid = order.links.find((l) => l.link.status === 'paid');
    // Sent again without its key after it went through: the payment pays the link, so refunding it is no answer.
    if (paid?.derived.paid_by === paymentId) throw conflict(`Payment ${paymentId} already pays link ${paid.link.payment_link_ref}: there is nothing to accept.`);
    if (paid) {
      throw conflict(
        paid.link.payment_link_ref === owner.payment_link_ref
          ? 'This payment link is already paid; refund the held payment instead.'
          : `Order ${owner.merchant_order_id} is already paid through ${paid.link.payment_link_ref}; refund the held payment instead.`,
      );
    }
    const own = order.links.find((l) => l.link.payment_link_ref === owner.payment_link_ref)!;
    const payment = own.payments.find((p) => p.payment_id === paymentId)!;
    if (payment.status !== 'paid_late') {
      throw conflict(`Only a held payment that arrived in full and is confirmed (paid_late) can be accepted; this one is ${payment.status}.`);
    }
    if (order.refunded.get(paymentId)) throw conflict('Part of this payment was already refunded, so it can no longer pay the link.');
    await this.orders.closeLinks(tx, order, (link) => link.payment_link_ref !== owner.payment_link_ref && link.status === 'active');
    await acceptPayment(tx, paymentId, this.clock.now());
    await this.reconciler.reconcile(tx, owner.payment_link_ref);
    return owner.payment_link_ref;
  }
}

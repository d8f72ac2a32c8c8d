// The merchant's decisions about an order's money: what each link and payment of an order holds, and accepting a
// held payment so that it pays its link. Refunds (refunds.ts) return held money the same way as paid money.
import type { PaymentLinkResource } from '../../../contract/index.js';
import type { Clock } from '../../clock.js';
import { conflict, notFound } from '../../errors.js';
import type { Database, Sql } from '../../storage/database.js';
import type { TransferRecord } from '../../storage/link-facts.js';
import { acceptPayment, findPaymentLink, lockOrderLinks, readLink, supersedeLink, type LinkRecord } from '../../storage/payments.js';
import { lockShared } from '../../storage/locks.js';
import { refundedByPayment } from '../../storage/refunds.js';
import { FACTS_LOCK } from '../chains/chain-facts.js';
import type { LinkSnapshot, Reconciler } from '../payments/reconciler.js';

/** An order's links, locked and reconciled, with what each payment holds and has returned. */
export interface OrderSnapshot {
  links: LinkSnapshot<LinkRecord, TransferRecord>[];
  /** VND refunded (not failed) per payment_id. */
  refunded: Map<string, number>;
}

/** A second live link for an order: also what the unique index says when two creations race. */
export const liveLinkConflict = (orderId: string) => conflict(`Order ${orderId} already has an active or paid payment link.`);

export class Orders {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly reconciler: Reconciler,
    /** The link as the read API shows it (link-resources.ts, built after this service). */
    private readonly present: (sql: Sql, merchantId: string, ref: string) => Promise<PaymentLinkResource>,
  ) {}

  /** Every link of the order locked (links by ref, then each link's payments) and reconciled. */
  async lockOrder(tx: Sql, merchantId: string, orderId: string): Promise<OrderSnapshot> {
    // Which payment settled first must not change under the decision: no chain fact is recorded meanwhile.
    await lockShared(tx, FACTS_LOCK);
    const links: LinkSnapshot[] = [];
    for (const link of await lockOrderLinks(tx, merchantId, orderId)) links.push(await this.reconciler.reconcile(tx, link.payment_link_ref));
    return { links, refunded: await refundedByPayment(tx, links.map((l) => l.link.payment_link_ref)) };
  }

  /**
   * A new link for the order replaces its expired ones: a payment still confirming on one of them can no longer pay it,
   * and is held once confirmed. A 409 while one is active or paid: an order has one live link.
   */
  async replaceLinks(tx: Sql, order: OrderSnapshot, orderId: string): Promise<void> {
    if (order.links.some((l) => l.link.status !== 'expired')) throw liveLinkConflict(orderId);
    const now = this.clock.now();
    for (const { link } of order.links) {
      if (link.superseded_at) continue;
      await supersedeLink(tx, link.payment_link_ref, now);
      await this.reconciler.reconcile(tx, link.payment_link_ref);
    }
  }

  /**
   * POST /api/payments/{payment_id}/accept: a held payment that arrived in full pays its link, while the order is not
   * paid. Another link of the order that is still open for payment is closed, so the order is paid once.
   */
  async accept(merchantId: string, paymentId: string): Promise<PaymentLinkResource> {
    const ref = await this.db.transaction((tx) => this.acceptIn(tx, merchantId, paymentId));
    return this.present(this.db, merchantId, ref);
  }

  private async acceptIn(tx: Sql, merchantId: string, paymentId: string): Promise<string> {
    const found = await findPaymentLink(tx, { payment_id: paymentId });
    const owner = found && (await readLink(tx, found.payment_link_ref));
    if (!owner || owner.merchant_id !== merchantId) throw notFound(`There is no payment ${paymentId} for this merchant.`);
    const order = await this.lockOrder(tx, merchantId, owner.merchant_order_id);
    const paid = order.links.find((l) => l.link.status === 'paid');
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
    const now = this.clock.now();
    for (const other of order.links) {
      if (other === own || other.link.status !== 'active') continue;
      await supersedeLink(tx, other.link.payment_link_ref, now);
      await this.reconciler.reconcile(tx, other.link.payment_link_ref);
    }
    await acceptPayment(tx, paymentId, now);
    await this.reconciler.reconcile(tx, owner.payment_link_ref);
    return owner.payment_link_ref;
  }
}

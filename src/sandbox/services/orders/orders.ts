// An order's links together: locked (and reconciled) as one, and replaced by a new link once they expired. Refunds,
// accepting a held payment and creating a link all decide over the whole order, so they start here.
import type { Clock } from '../../clock.js';
import { conflict } from '../../errors.js';
import type { Sql } from '../../storage/database.js';
import { LOCK_KEYS, lockShared } from '../../storage/locks.js';
import { lockOrderLinks, supersedeLink, type LinkRecord } from '../../storage/payments.js';
import { refundedByPayment } from '../../storage/refunds.js';
import type { LinkSnapshot } from '../payments/link-reader.js';
import type { Reconciler } from '../payments/reconciler.js';
import type { OrderMoney } from './refund-ledger.js';

/** A second live link for an order: also what the unique index says when two creations race. */
export const liveLinkConflict = (orderId: string) => conflict(`Order ${orderId} already has an active or paid payment link.`);

export class Orders {
  constructor(
    private readonly clock: Clock,
    private readonly reconciler: Reconciler,
  ) {}

  /** Every link of the order locked (links by ref, then each link's payments), reconciled, with what each payment has returned. */
  async lockOrder(tx: Sql, merchantId: string, orderId: string): Promise<OrderMoney> {
    // Which payment settled first must not change under the decision: no chain fact is recorded meanwhile.
    await lockShared(tx, LOCK_KEYS.chainFactsAndSimulatedMining);
    const links: LinkSnapshot[] = [];
    for (const link of await lockOrderLinks(tx, merchantId, orderId)) links.push(await this.reconciler.reconcile(tx, link.payment_link_ref));
    return { links, refunded: await refundedByPayment(tx, links.map((l) => l.link.payment_link_ref)) };
  }

  /**
   * A new link for the order replaces its expired (and cancelled) ones: a payment still confirming on one of them can no longer pay it,
   * and is held once confirmed. A 409 while one is active or paid: an order has one live link.
   */
  async replaceLinks(tx: Sql, order: OrderMoney, orderId: string): Promise<void> {
    if (order.links.some((l) => l.link.status !== 'expired' && l.link.status !== 'cancelled')) throw liveLinkConflict(orderId);
    await this.closeLinks(tx, order, (link) => link.superseded_at === null);
  }

  /** Closes the links of the order that `which` picks (a newer link, or an accepted payment, took the order over). */
  async closeLinks(tx: Sql, order: OrderMoney, which: (link: LinkRecord) => boolean): Promise<void> {
    const now = this.clock.now();
    for (const { link } of order.links) {
      if (!which(link)) continue;
      await supersedeLink(tx, link.payment_link_ref, now);
      await this.reconciler.reconcile(tx, link.payment_link_ref);
    }
  }
}

// A link the merchant cancels (docs/api.md, "Cancel a payment link"; docs/payment-lifecycle.md, "Cancelled"): it
// takes no new payment, its open quote closes, and money that still reaches its addresses is held, as after expiry.
// Refused (409) once a customer has sent money: a customer paying in good faith never sees it turned into held funds.
import type { PaymentLinkResource } from '../../../contract/index.js';
import { conflict, notFound } from '../../errors.js';
import type { Sql } from '../../storage/database.js';
import { cancelLink, readLink } from '../../storage/payments.js';
import type { IdempotencyScope } from '../merchant/idempotency.js';
import { LinkDecision } from './link-decision.js';

export class LinkCancels extends LinkDecision {
  /**
   * POST /api/paymentLink/{payment_link_ref}/cancel: an active link that no payment has received money for is
   * cancelled. Cancelling a cancelled link changes nothing and answers the same (200, the link as it is now).
   */
  cancel(merchantId: string, ref: string, idempotency: Omit<IdempotencyScope, 'merchantId'>): Promise<{ value: PaymentLinkResource; replayed: boolean }> {
    return this.decideOnce(merchantId, idempotency, (tx) => this.#cancel(tx, merchantId, ref));
  }

  async #cancel(tx: Sql, merchantId: string, ref: string): Promise<string> {
    const owner = await readLink(tx, ref);
    if (!owner || owner.merchant_id !== merchantId) throw notFound(`There is no payment link ${ref} for this merchant.`);
    // The whole order locked and reconciled (and no chain fact recorded meanwhile): the decision is made on what is.
    const order = await this.orders.lockOrder(tx, merchantId, owner.merchant_order_id);
    const { link, payments, states } = order.links.find((l) => l.link.payment_link_ref === ref)!;
    if (link.status === 'cancelled') return ref;
    if (link.status === 'paid') throw conflict('This payment link is paid, so it cannot be cancelled; refund it instead.');
    if (link.status === 'expired') throw conflict('This payment link has expired (or a newer link replaced it): it takes no payment already, so there is nothing to cancel.');
    // Money already at an address (seen, confirming, underpaid, or the credit of a quote that ran out) belongs to a
    // customer paying in good faith; money already held (paid_late) stays held whatever the link becomes.
    const paying = payments.findIndex((p, i) => states[i]!.received > 0n && states[i]!.status !== 'paid_late');
    if (paying >= 0) {
      const p = payments[paying]!;
      const what = states[paying]!.confirmed < states[paying]!.received ? 'money seen and not yet confirmed' : `money (${states[paying]!.status})`;
      throw conflict(`Payment ${p.payment_id} of this link has received ${what}, so the link cannot be cancelled: wait for it to be paid or to run out, then refund what it holds.`);
    }
    await cancelLink(tx, ref, this.clock.now());
    await this.reconciler.reconcile(tx, ref);
    return ref;
  }
}

// A refund never returns money the order no longer holds (docs/payment-lifecycle.md, "Reorganisations and outages"):
// when the chain takes a payment's money back (a reorganisation, a rewind), what it may return shrinks below what its
// refunds return, and those nothing of which was sent yet end FAILED, newest first, until the rest fits. One already
// sent is a fact on its chain and stays. Run as a reconciliation's sink, so in the transaction that wrote the change:
// no claim or payout can come between.
import type { Sql } from '../../storage/database.js';
import { refundedByPayment, unsentRefundsOf } from '../../storage/refunds.js';
import type { ChangeSink, LinkChange } from '../payments/reconciler.js';
import type { Payouts } from './payouts.js';

export class RefundCover implements ChangeSink {
  constructor(private readonly payouts: Payouts) {}

  async apply(tx: Sql, { after, mayHoldLess }: LinkChange): Promise<void> {
    if (!mayHoldLess) return;
    const refunded = await refundedByPayment(tx, [after.link.payment_link_ref]);
    for (const [i, payment] of after.payments.entries()) {
      let over = (refunded.get(payment.payment_id) ?? 0) - Number(after.states[i]!.returnable_vnd);
      if (over <= 0) continue;
      for (const refund of await unsentRefundsOf(tx, payment.payment_id)) {
        if (over <= 0) break;
        over -= refund.amount;
        await this.payouts.fail(tx, refund, `the chain took back money of payment ${payment.payment_id} (a reorganisation) before this refund was sent: nothing was sent, and it can be made again once the payment holds the money`);
      }
    }
  }
}

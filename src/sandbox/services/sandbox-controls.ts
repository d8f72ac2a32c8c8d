// Sandbox controls: time runs out now for a quote or a link, so testers reach expiry, late payment and held funds
// without waiting, and tests never sleep.
import type { Payment } from '../../contract/index.js';
import type { Clock } from '../clock.js';
import { notFound } from '../http/problem.js';
import type { Database } from '../storage/database.js';
import { endLink, endQuote, findPaymentLink } from '../storage/payments.js';
import type { PaymentView } from './payment-view.js';
import type { Reconciler } from './reconciler.js';

export class SandboxControls {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly reconciler: Reconciler,
    private readonly view: PaymentView,
  ) {}

  /**
   * Ends a payment's quote now. The payment is named by its id, or by its address for the test wallet, which knows
   * only the QR.
   */
  async expireQuote(target: { payment_id: string } | { address: string }): Promise<Payment> {
    return this.db.transaction(async (tx) => {
      const found = await findPaymentLink(tx, target);
      if (!found) throw notFound('payment_id' in target ? `There is no payment ${target.payment_id}.` : 'No payment pays into this address.');
      await this.reconciler.reconcile(tx, found.payment_link_ref);
      await endQuote(tx, found.payment_id, this.clock.now());
      const snapshot = await this.reconciler.reconcile(tx, found.payment_link_ref);
      const index = snapshot.payments.findIndex((p) => p.payment_id === found.payment_id);
      const row = snapshot.payments[index]!;
      return this.view.render(tx, snapshot.link, row, snapshot.states[index]!, snapshot.transfers.get(row.payment_id) ?? []);
    });
  }

  /** Ends a link now: its open quote closes with it. */
  async expireLink(ref: string): Promise<void> {
    await this.db.transaction(async (tx) => {
      await this.reconciler.reconcile(tx, ref);
      await endLink(tx, ref, this.clock.now());
      await this.reconciler.reconcile(tx, ref);
    });
  }
}

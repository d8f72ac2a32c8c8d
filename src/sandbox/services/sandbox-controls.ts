// Sandbox controls: blocks now, and time running out now for a quote or a link, so testers reach every status
// without waiting, and tests never sleep.
import { NETWORKS, type Network, type Payment } from '../../contract/index.js';
import type { Clock } from '../clock.js';
import { notFound } from '../errors.js';
import type { Database } from '../storage/database.js';
import { endLink, endQuote, findPaymentLink } from '../storage/payments.js';
import type { Chain } from './chain.js';
import type { PaymentView } from './payment-view.js';
import type { Reconciler } from './reconciler.js';
import type { Watcher } from './watcher.js';

export class SandboxControls {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly reconciler: Reconciler,
    private readonly view: PaymentView,
    private readonly chain: Chain,
    private readonly watcher: Watcher,
  ) {}

  /** Mines `blocks` blocks now, on one network or all, and follows them; the new tips. */
  async mine(blocks: number, network?: Network): Promise<Partial<Record<Network, number>>> {
    const tips: Partial<Record<Network, number>> = {};
    for (const n of network ? [network] : NETWORKS) {
      tips[n] = await this.db.transaction((tx) => this.chain.mine(tx, n, blocks));
      await this.watcher.afterBlocks(n);
    }
    return tips;
  }

  tips(): Promise<Record<Network, number>> {
    return this.chain.tips(this.db);
  }

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

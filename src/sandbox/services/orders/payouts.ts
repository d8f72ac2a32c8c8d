// Payouts: a refund that knows where its coins go is sent on chain, followed to its network's confirmations, and ends
// SUCCESS once they are reached, or FAILED with why (its VND back in amountToRefund, since a failed refund counts for
// nothing). Every end of a refund is written here, with its history step and its webhook, in one transaction that
// holds the refund's row: a refund ends once, whichever process sees it first.
// On a simulated network the coins leave the payment's own address in the transaction that records the send, so
// they cannot leave twice. docs/payment-lifecycle.md, "Refunds", tells the whole story.
import type { Chains } from '../../chains/chains.js';
import type { Networks } from '../../chains/networks.js';
import type { Clock } from '../../clock.js';
import { log } from '../../logging.js';
import type { Database, Sql } from '../../storage/database.js';
import { endRefund, insertRefundEvent, lapsedClaims, payoutsUnderWay, refundById, setRefundTransaction, type RefundState } from '../../storage/refunds.js';
import type { MerchantEventSink } from '../webhooks/outbox.js';

/** How often payouts under way are followed, when no chain says it moved. */
const FOLLOW_MS = 1_000;

export class Payouts {
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly chains: Chains,
    private readonly networks: Networks,
    private readonly events: MerchantEventSink,
  ) {
    // A simulated chain says when it moved: its payouts are followed at once (also when the tests drive the blocks).
    for (const network of networks.all) this.chains.simulated(network.id)?.onChange(() => this.follow());
  }

  /** Sends a refund that has its destination, in the caller's transaction (which holds the refund's row). */
  async send(tx: Sql, refund: RefundState & { destination: string }): Promise<void> {
    const simulator = this.chains.simulated(refund.network);
    // A node's network: the refund waits, PENDING, for a payout that signs for it.
    if (!simulator) return;
    const hash = await simulator.broadcast(tx, refund.payment_address, refund.destination, refund.asset, BigInt(refund.amount_atomic));
    await setRefundTransaction(tx, refund.refund_id, hash);
    await insertRefundEvent(tx, refund.refund_id, 'sent', this.clock.now(), hash);
  }

  /** Ends a PENDING refund as FAILED with why: nothing of it was sent, or what was sent did not arrive. */
  async fail(tx: Sql, refund: RefundState, reason: string): Promise<void> {
    await endRefund(tx, refund.refund_id, 'FAILED', reason);
    await insertRefundEvent(tx, refund.refund_id, 'failed', this.clock.now(), reason);
    await this.events.emit(tx, { merchantId: refund.merchant_id, type: 'refund.failed', ref: refund.payment_link_ref, refundId: refund.refund_id });
  }

  /** Claims no one made in time end FAILED, their VND refundable again; only the order's with `scope`. */
  async endLapsedClaims(scope?: { merchantId: string; orderId: string }): Promise<void> {
    const now = this.clock.now();
    for (const refundId of await lapsedClaims(this.db, now, scope)) {
      await this.db.transaction(async (tx) => {
        const refund = await refundById(tx, refundId, { lock: true });
        if (refund?.refund_status !== 'PENDING' || refund.destination !== null) return;
        await this.fail(tx, refund, 'the claim link expired before the customer gave an address');
      });
    }
  }

  /** Ends the claims that ran out, and follows every payout under way: each one confirmed on its network ends SUCCESS. One that fails to be read waits for the next round. */
  follow(): Promise<void> {
    const round = async () => {
      await this.endLapsedClaims();
      for (const refundId of await payoutsUnderWay(this.db)) {
        await this.#followOne(refundId).catch((error: unknown) => log.error({ err: error, refund_id: refundId }, 'payouts: following a payout failed'));
      }
    };
    // One round at a time per process: a chain that moves during a round is followed by the next.
    this.#running = this.#running.then(round).catch((error: unknown) => log.error({ err: error }, 'payouts: round failed'));
    return this.#running;
  }

  async #followOne(refundId: string): Promise<void> {
    const seen = await refundById(this.db, refundId);
    if (!seen?.psp_refund_id) return;
    const simulator = this.chains.simulated(seen.network);
    if (!simulator) return;
    const network = this.networks.of(seen.network);
    const [sent, tip] = await Promise.all([simulator.locate(seen.psp_refund_id), simulator.head()]);
    if (sent?.height == null || tip.height - sent.height + 1 < network.confirmations) return;
    await this.db.transaction(async (tx) => {
      const refund = await refundById(tx, refundId, { lock: true });
      if (refund?.refund_status !== 'PENDING' || refund.psp_refund_id !== seen.psp_refund_id) return;
      await endRefund(tx, refundId, 'SUCCESS', null);
      await insertRefundEvent(tx, refundId, 'confirmed', this.clock.now(), refund.psp_refund_id);
      await this.events.emit(tx, { merchantId: refund.merchant_id, type: 'refund.succeeded', ref: refund.payment_link_ref, refundId });
    });
  }

  /** Follows payouts on a timer (a node's network tells nothing by itself). */
  start(): void {
    this.#timer = setInterval(() => void this.follow(), FOLLOW_MS);
    this.#timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.#timer);
    await this.#running;
  }
}

// Records what a chain showed (chains/follower.ts) as the gateway's own facts, in one transaction per step: blocks,
// transfers into its addresses, the cursor, and what a reorganisation takes back. A paid payment whose money, or some
// of its confirmations, leaves the chain is never hidden: it is marked and the merchant hears of it (payment.reorged),
// in the same transaction.
import type { Network } from '../../../contract/index.js';
import type { ChainStep } from '../../chains/follower.js';
import type { NetworkConfig } from '../../chains/networks.js';
import type { ChainBlock, ChainTransfer } from '../../chains/port.js';
import type { Clock } from '../../clock.js';
import { log } from '../../logging.js';
import {
  blockHashesAt,
  dropPendingExcept,
  insertBlocks,
  linksAtAddresses,
  markReorged,
  markSynced,
  markUnsettledAt,
  paymentsConfirmedAbove,
  pendingKeys,
  readCursor,
  recordMined,
  recordPending,
  recordedKeys,
  rewindTo,
  transferFactsOf,
  writeCursor,
  type Cursor,
  type TransferFact,
} from '../../storage/chain-facts.js';
import type { Database, Sql } from '../../storage/database.js';
import { LOCK_KEYS, lockExclusive } from '../../storage/locks.js';
import { payoutsAmong } from '../../storage/payouts.js';
import { unsettledLinks } from '../../storage/payments.js';
import type { Reconciler } from '../payments/reconciler.js';
import type { MerchantEventSink } from '../webhooks/merchant-events.js';

/** How long a node's network may go unseen before it counts as unavailable: a few rounds, or five seconds. */
export const staleAfterMs = (network: NetworkConfig): number | undefined =>
  network.source.kind === 'node' ? Math.max(5_000, 3 * network.source.pollMs + network.source.timeoutMs) : undefined;

export class ChainFacts {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly reconciler: Reconciler,
    private readonly merchantEvents: MerchantEventSink,
  ) {}

  /**
   * Records one step of following a network. Returns the links whose facts changed, or undefined when another process
   * moved the cursor since the step was read (the step is then read again).
   */
  record(network: NetworkConfig, step: ChainStep): Promise<string[] | undefined> {
    return this.db.transaction(async (tx) => {
      await lockExclusive(tx, LOCK_KEYS.chainFactsAndSimulatedMining);
      const cursor = await readCursor(tx, network.id, { lock: true });
      if (!sameCursor(cursor, step.from)) return undefined;
      const stale = staleAfterMs(network);
      const synced = stale !== undefined && step.atTip ? { at: this.clock.now(), staleAfterMs: stale } : undefined;
      // What waits for a block now against what the gateway recorded as waiting: only news is written. After a rewind
      // the chain's waiting transactions were read before it, so what left a block may be back among them: none is
      // dropped then.
      const waiting = await pendingKeys(tx, network.id);
      const news = step.pending?.filter((t) => !waiting.has(keyOf(t))) ?? [];
      // A payout the gateway sent is never a customer's money, even where it lands at one of the gateway's own
      // addresses (a refund claimed to a payment address before claims refused them, or to an address derived later):
      // counted, it would read as a second payment, and what is left to refund would grow by the refund. Known by
      // its transaction, not its sender: a simulated chain's payout leaves the payment's own address and a node's the
      // hot wallet, and a sender is not one address on every family (a Bitcoin transaction spends inputs, a contract
      // can be a token log's `from`), while every payout's hash is written down before any chain can show it (the
      // simulator's in the transaction that sends it, a node's when signed, before the broadcast, each fee bump too).
      const payouts = await payoutsAmong(tx, [...step.mined, ...news].map((t) => t.tx_hash));
      const ours = (t: { tx_hash: string }) => payouts.has(t.tx_hash);
      const mined = step.mined.filter((t) => !ours(t));
      const fresh = news.filter((t) => !ours(t));
      const seen = new Set(step.pending?.map(keyOf));
      const dropped = step.pending && !step.rewindTo && [...waiting].some((key) => !seen.has(key));
      if (!step.rewindTo && !step.blocks.length && !step.start && !fresh.length && !dropped) {
        if (synced) await markSynced(tx, network.id, synced.at, synced.staleAfterMs);
        return [];
      }
      const moved = new Set<string>();
      let reorged: { payment_id: string; payment_link_ref: string }[] = [];
      let before = new Map<string, TransferFact[]>();
      if (step.rewindTo) {
        // A payment whose confirmations reach into what is taken back may go back too, whether or not its money's block
        // leaves the chain; a paid one is told to the merchant.
        const shaken = await paymentsConfirmedAbove(tx, network.id, step.rewindTo.height);
        for (const { address } of shaken) moved.add(address);
        reorged = shaken.filter((p) => p.status === 'paid');
        // Read before the rewind: the merchant hears which transfers, in which blocks, the reorganisation took back.
        before = await transferFactsOf(tx, reorged.map((p) => p.payment_id));
        for (const address of await rewindTo(tx, network.id, step.rewindTo.height, { keepWaiting: step.pending !== undefined })) moved.add(address);
      }
      for (const t of [...mined, ...fresh]) moved.add(t.to);
      // The payments' row locks come before the clock: see markUnsettledAt.
      await markUnsettledAt(tx, network.id, [...moved]);
      const now = this.clock.now();
      await insertBlocks(tx, network.id, step.blocks, now);
      await recordMined(
        tx,
        network.id,
        mined.map(({ block, ...t }) => ({ ...t, height: block.height, block_hash: block.hash, block_time: block.time })),
        now,
        cursor?.synced_at ?? null,
      );
      await recordPending(tx, network.id, fresh, now);
      if (dropped) for (const address of await dropPendingExcept(tx, network.id, step.pending!.map((t) => t.tx_hash))) moved.add(address);
      await writeCursor(tx, network.id, step.blocks.at(-1) ?? step.rewindTo ?? step.start ?? step.from!, synced && { ...synced, at: now });
      const links = new Set(await linksAtAddresses(tx, network.id, [...moved]));
      // New blocks add confirmations to every payment still gaining them.
      if (step.blocks.length || step.rewindTo) for (const ref of await unsettledLinks(tx, network.id)) links.add(ref);
      if (reorged.length) await this.#reorged(tx, network.id, reorged, before, now);
      return [...links];
    });
  }

  /**
   * Records transfers found when followed blocks were read again (the cross-check, cross-check.ts): only those of a
   * block the gateway holds under the same hash (a block that left the chain is the follower's to walk back), not a
   * payout, and not recorded already, each at its block's time, as the follower would have. Returns the links they
   * touch; none when nothing was new.
   */
  recordFound(network: NetworkConfig, found: readonly (ChainTransfer & { block: ChainBlock })[]): Promise<string[]> {
    if (!found.length) return Promise.resolve([]);
    return this.db.transaction(async (tx) => {
      await lockExclusive(tx, LOCK_KEYS.chainFactsAndSimulatedMining);
      const held = await blockHashesAt(tx, network.id, [...new Set(found.map((t) => t.block.height))]);
      const recorded = await recordedKeys(tx, network.id, found.map((t) => t.tx_hash));
      const payouts = await payoutsAmong(tx, found.map((t) => t.tx_hash));
      const fresh = found.filter((t) => held.get(t.block.height) === t.block.hash && !recorded.has(keyOf(t)) && !payouts.has(t.tx_hash));
      if (!fresh.length) return [];
      const addresses = [...new Set(fresh.map((t) => t.to))];
      await markUnsettledAt(tx, network.id, addresses);
      await recordMined(
        tx,
        network.id,
        fresh.map(({ block, ...t }) => ({ ...t, height: block.height, block_hash: block.hash, block_time: block.time })),
        this.clock.now(),
        null,
      );
      return linksAtAddresses(tx, network.id, addresses);
    });
  }

  async #reorged(tx: Sql, network: Network, payments: { payment_id: string; payment_link_ref: string }[], before: Map<string, TransferFact[]>, at: Date) {
    log.warn({ network, payment_ids: payments.map((p) => p.payment_id) }, 'chain: a reorganisation took back the money of paid payments');
    await markReorged(tx, payments.map((p) => p.payment_id), at);
    for (const { payment_id, payment_link_ref } of payments) {
      const { link } = await this.reconciler.reconcile(tx, payment_link_ref);
      await this.merchantEvents.emit(tx, { merchantId: link.merchant_id, type: 'payment.reorged', ref: payment_link_ref, paymentId: payment_id, transfers: before.get(payment_id) });
    }
  }
}

const sameCursor = (a: Cursor | undefined, b: Cursor | undefined) => a?.height === b?.height && a?.hash === b?.hash;
const keyOf = (t: { tx_hash: string; position: string }) => `${t.tx_hash} ${t.position}`;

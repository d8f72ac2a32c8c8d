// A periodic cross-check of what the watcher recorded against what the chain holds (DESIGN.md 9.1; docs/networks.md,
// "The cross-check"): a provider that leaves a log out of one answer (a lagging backend, a flaky balancer) would
// otherwise hide a payment for good, since the cursor has passed its block. Each round takes a few open payments'
// addresses in turn, reads what each holds of the token at the tip, and, once the watcher has followed to that
// height, compares it with what the gateway recorded there. Only "the chain holds more than was counted" is a
// disagreement (an address that sent money away holds less, which says nothing): the blocks since the payment opened
// are then read again through the chain port, and a transfer is recorded only from a block's own logs, never from
// a balance. A round that cannot read the chain (a provider throttling) is skipped, and the watcher goes on.
import { FAMILIES } from '../../../codecs/families/index.js';
import type { Network } from '../../../contract/index.js';
import { BATCH } from '../../chains/follower.js';
import type { ChainPort } from '../../chains/port.js';
import { firstLine, log } from '../../logging.js';
import type { Database } from '../../storage/database.js';
import { firstBlockRecordedSince, openAddressesAfter, readCursor, receivedAt, type OpenAddress } from '../../storage/chain-facts.js';
import type { ChainFacts } from './chain-facts.js';

/** Addresses read per round, at one call each: a round is a few calls beside the watcher's, whatever is open. */
export const ADDRESSES_PER_ROUND = 20;
/** Blocks read again for one disagreement at most: the range TRON's eth_getLogs takes, about four hours of blocks. */
export const MOST_BLOCKS_READ_AGAIN = 5_000;

/** How a disagreement ended: its transfers found in the blocks read again, or not. */
export type CrossCheckOutcome = 'recovered' | 'unresolved';

export interface CrossCheckMetrics {
  crossChecked(network: Network, outcome: CrossCheckOutcome): void;
}

export interface CrossCheckWatcher {
  /** Follows the network to its tip (the watcher's own round). */
  follow(): Promise<void>;
  /** Re-derives these links. */
  reconcile(refs: readonly string[]): Promise<void>;
  /** The watcher is stopping: blocks are no longer read again. */
  stopping(): boolean;
}

/** A port that reads token balances. */
export type BalancePort = ChainPort & Required<Pick<ChainPort, 'tokenBalances'>>;

export const readsBalances = (port: ChainPort): port is BalancePort => typeof port.tokenBalances === 'function';

export class CrossCheck {
  /** The last payment checked, by creation order: the next round starts after it, and wraps to the first. */
  #after = 0;
  /**
   * Per address, the disagreement last told (`held/recorded`), and whether its blocks were read again: it is logged,
   * read again and counted once (read again on a later round when the chain could not be read).
   */
  readonly #told = new Map<string, { disagreement: string; readAgain: boolean }>();
  /** The addresses of this turn through the open payments. */
  readonly #seen = new Set<string>();
  #running: Promise<void> | undefined;

  constructor(
    private readonly db: Database,
    private readonly port: BalancePort,
    private readonly facts: ChainFacts,
    private readonly watcher: CrossCheckWatcher,
    private readonly metrics?: CrossCheckMetrics,
  ) {}

  /** One round, unless one is under way (a slow node never piles them up). Never rejects. */
  run(): Promise<void> {
    this.#running ??= this.#round()
      .catch((error: unknown) => log.warn({ network: this.port.network.id, error: firstLine(error) }, 'cross-check: the round failed; the next one tries again'))
      .finally(() => (this.#running = undefined));
    return this.#running;
  }

  /** The round under way, if any, ended. */
  settled(): Promise<void> {
    return this.#running ?? Promise.resolve();
  }

  async #round(): Promise<void> {
    const { network } = this.port;
    const open = await openAddressesAfter(this.db, network.id, this.#after, ADDRESSES_PER_ROUND);
    for (const { address } of open) this.#seen.add(address);
    this.#after = open.length < ADDRESSES_PER_ROUND ? 0 : open.at(-1)!.seq;
    if (this.#after === 0) {
      // A turn through every open payment ended: what was told of payments no longer open is forgotten.
      for (const address of this.#told.keys()) if (!this.#seen.has(address)) this.#told.delete(address);
      this.#seen.clear();
    }
    if (!open.length) return;
    const read = await this.port.tokenBalances(open.map((p) => p.address)).catch((error: unknown) => {
      // Throttled or unreachable: the watcher says so for the network; this round is only skipped.
      log.debug({ network: network.id, error: firstLine(error) }, 'cross-check: the balances could not be read; skipped');
      return undefined;
    });
    if (!read) return;
    // The balances may be of blocks the watcher has not followed yet: compared only once it has.
    await this.watcher.follow();
    const cursor = await readCursor(this.db, network.id);
    if (!cursor || cursor.height < read.height) return;
    const recorded = await receivedAt(this.db, network.id, read.asset, open.map((p) => p.address));
    for (const [i, payment] of open.entries()) {
      const held = read.balances[i]!;
      const counted = recorded.get(payment.address) ?? 0n;
      if (held <= counted) {
        this.#told.delete(payment.address);
        continue;
      }
      const disagreement = `${held}/${counted}`;
      const told = this.#told.get(payment.address);
      if (told?.disagreement === disagreement && told.readAgain) continue;
      const fields = { network: network.id, address: payment.address, held: held.toString(), recorded: counted.toString() };
      if (told?.disagreement !== disagreement) log.warn(fields, 'cross-check: the chain holds more at an address than the gateway recorded; reading its blocks again');
      this.#told.set(payment.address, { disagreement, readAgain: false });
      if (!(await this.#readAgain(payment, read.height))) continue;
      this.#told.set(payment.address, { disagreement, readAgain: true });
      const after = (await receivedAt(this.db, network.id, read.asset, [payment.address])).get(payment.address) ?? 0n;
      if (held <= after) {
        log.info({ ...fields, recorded: after.toString() }, 'cross-check: the transfers were found in the blocks read again');
        this.metrics?.crossChecked(network.id, 'recovered');
      } else {
        // Money that came otherwise (before the payment opened, or more than the blocks read again): never made a fact.
        log.warn({ ...fields, recorded: after.toString() }, 'cross-check: still more on chain than recorded after reading the blocks again; nothing is recorded without its log');
        this.metrics?.crossChecked(network.id, 'unresolved');
      }
    }
  }

  /**
   * Reads the blocks from the payment's opening to `height` again (at most MOST_BLOCKS_READ_AGAIN, in the follower's
   * batches) and records the transfers to its address they hold. False when the chain could not be read: the next
   * round tries again.
   */
  async #readAgain(payment: OpenAddress, height: number): Promise<boolean> {
    const { network } = this.port;
    const key = FAMILIES[network.family].addressKey(payment.address);
    const from = Math.max((await firstBlockRecordedSince(this.db, network.id, payment.opened_at)) ?? height + 1, height - MOST_BLOCKS_READ_AGAIN + 1);
    try {
      for (let start = from; start <= height; start += BATCH.node) {
        if (this.watcher.stopping()) return false;
        const blocks = await this.port.blocks(start, Math.min(height, start + BATCH.node - 1));
        const found = blocks.flatMap((block) => block.transfers.filter((t) => FAMILIES[network.family].addressKey(t.to) === key).map((t) => ({ ...t, to: payment.address, block })));
        await this.watcher.reconcile(await this.facts.recordFound(network, found));
      }
      return true;
    } catch (error) {
      log.warn({ network: network.id, address: payment.address, error: firstLine(error) }, 'cross-check: the blocks could not be read again; the next round tries again');
      return false;
    }
  }
}

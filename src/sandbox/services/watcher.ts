// The watcher follows the chain the way a real gateway's does. Reconciliation goes by state, not by window: every
// link with an unsettled payment (money still gaining confirmations, or a quote still open) is re-derived after a
// transfer, after any number of blocks, on start, and on the timer, which also mines due blocks and runs out links
// and quotes. Each link is reconciled in its own transaction: one that fails is logged and retried on the next round,
// and never stops the others or the timer.
import { NETWORKS, type Network } from '../../contract/index.js';
import type { Clock } from '../clock.js';
import type { PaymentSettings } from '../config.js';
import type { Database } from '../storage/database.js';
import { findPaymentLink, linksDueAt, unsettledLinks } from '../storage/payments.js';
import type { Chain } from './chain.js';
import type { Reconciler } from './reconciler.js';

/** Every this many ticks, every unsettled link is re-derived, whatever the tips did. */
const FULL_SWEEP_TICKS = 30;

export class Watcher {
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<void> = Promise.resolve();
  #ticks = 0;
  /** The tips this process last reconciled against: a tip that moved (here or in another process) means new blocks. */
  #tips: Partial<Record<Network, number>> = {};

  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly chain: Chain,
    private readonly reconciler: Reconciler,
    private readonly settings: PaymentSettings,
  ) {}

  /** Brings every link up to date (what a process that was down missed), then ticks every `intervalMs`. */
  async start(intervalMs = 1000): Promise<void> {
    await this.sweep();
    this.#timer = setInterval(() => void this.tick(), intervalMs);
    this.#timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.#timer);
    await this.#running;
  }

  /** One round: mine what is due, follow blocks, run out what is due. Rounds never overlap; a round never rejects. */
  tick(): Promise<void> {
    return this.#serially(async () => {
      const intervals = Object.fromEntries(NETWORKS.map((n) => [n, this.settings.networks[n].blockIntervalMs])) as Record<Network, number>;
      await this.#logged('mining', () => this.chain.mineDue(intervals));
      if (++this.#ticks % FULL_SWEEP_TICKS === 0) await this.#reconcileAll(await this.#unsettled());
      else await this.#reconcileAll(await this.#unsettled(await this.#movedTips()));
      await this.#reconcileAll(await this.#logged('expiry', () => linksDueAt(this.db, this.clock.now())));
    });
  }

  /** Every unsettled link and everything due, re-derived now: on start, and whenever a caller wants certainty. */
  sweep(): Promise<void> {
    return this.#serially(async () => {
      await this.#reconcileAll(await this.#unsettled());
      await this.#reconcileAll(await this.#logged('expiry', () => linksDueAt(this.db, this.clock.now())));
    });
  }

  /** A transfer landed at `address`: its payment's link, now. */
  async afterTransfer(address: string): Promise<void> {
    const found = await this.#logged('transfer', () => findPaymentLink(this.db, { address }));
    if (found) await this.#reconcileAll([found.payment_link_ref]);
  }

  /** Blocks were mined on `network`: every link with an unsettled payment there. */
  async afterBlocks(network: Network): Promise<void> {
    await this.#reconcileAll(await this.#logged('blocks', () => unsettledLinks(this.db, network)));
  }

  #serially(round: () => Promise<void>): Promise<void> {
    const next = this.#running.then(round).catch((error: unknown) => console.error('watcher round failed', error));
    this.#running = next;
    return next;
  }

  async #movedTips(): Promise<Network[]> {
    const tips = await this.#logged('tips', () => this.chain.tips(this.db));
    if (!tips) return [];
    const moved = NETWORKS.filter((n) => tips[n] !== this.#tips[n]);
    this.#tips = tips;
    return moved;
  }

  async #unsettled(networks: readonly Network[] = NETWORKS): Promise<string[]> {
    const refs = new Set<string>();
    for (const network of networks) for (const ref of (await this.#logged('unsettled', () => unsettledLinks(this.db, network))) ?? []) refs.add(ref);
    return [...refs];
  }

  /** One transaction per link, yielding between them: PGlite runs in this thread, and requests wait meanwhile. */
  async #reconcileAll(refs: readonly string[] | undefined): Promise<void> {
    for (const ref of refs ?? []) {
      await this.#logged(`reconciling ${ref}`, () => this.db.transaction((tx) => this.reconciler.reconcile(tx, ref)));
      await new Promise((resolve) => setImmediate(resolve));
    }
  }

  async #logged<T>(what: string, work: () => Promise<T>): Promise<T | undefined> {
    try {
      return await work();
    } catch (error) {
      console.error(`watcher: ${what} failed`, error);
      return undefined;
    }
  }
}

// The watcher follows every network through its chain port the way a real gateway's does, records what it sees as
// facts (chain-facts.ts), and re-derives the links those facts touch. A node's network is polled; a simulated one tells
// the watcher at once when it moves (and is polled too, for what another process's simulator did). Reconciliation
// goes by state, not by window: a link is re-derived after a transfer to it, after blocks while its money gains
// confirmations, when its time runs out, on start, and in a full sweep now and then. Each link is reconciled in its
// own transaction: one that fails is logged and retried on the next round, and never stops the others or the timers.
// Where a node's network asks for it, what was recorded is also cross-checked against the chain's balances now and
// then (cross-check.ts), on a timer of its own.
import type { Network } from '../../../contract/index.js';
import type { Chains } from '../../chains/chains.js';
import { ChainFollower } from '../../chains/follower.js';
import type { Clock } from '../../clock.js';
import { firstLine, log } from '../../logging.js';
import type { Database } from '../../storage/database.js';
import { linksDueAt, unsettledLinks } from '../../storage/payments.js';
import type { ChainFacts } from './chain-facts.js';
import { CrossCheck, readsBalances, type CrossCheckMetrics } from './cross-check.js';
import type { Reconciler } from '../payments/reconciler.js';

/** Every this many ticks, every unsettled link is re-derived, whatever the chains did. */
const FULL_SWEEP_TICKS = 30;
/** A step read again this many times at most when other processes keep moving the cursor. */
const STEPS_PER_ROUND = 1_000;

export class Watcher {
  readonly #followers = new Map<Network, ChainFollower>();
  /** Where a node's port reads balances and its network asks for it (TRON_CROSSCHECK_MS): cross-check.ts. */
  readonly #crossChecks = new Map<Network, { check: CrossCheck; everyMs: number }>();
  /**
   * One round at a time per network, and at most one waiting: a simulator's news and the timer never follow the same
   * chain at once, and a slow node never piles rounds up.
   */
  readonly #following = new Map<Network, { running: Promise<void>; waiting: Promise<void> | undefined }>();
  /** The last failure logged per network: an outage is logged when it starts and when it ends, not every round. */
  readonly #failing = new Map<Network, string>();
  /** When each network's last round ended, failed or not (the metrics). */
  readonly #lastRound = new Map<Network, number>();
  readonly #timers: NodeJS.Timeout[] = [];
  #running: Promise<void> = Promise.resolve();
  #ticks = 0;
  #stopped = false;

  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    chains: Chains,
    private readonly facts: ChainFacts,
    private readonly reconciler: Reconciler,
    metrics?: CrossCheckMetrics,
  ) {
    for (const port of chains.ports) {
      const network = port.network.id;
      this.#followers.set(network, new ChainFollower(db, port));
      port.onChange?.(() => this.follow(network));
      const { source } = port.network;
      if (source.kind === 'node' && source.crossCheckMs !== undefined && readsBalances(port)) {
        const watcher = { follow: () => this.follow(network), reconcile: (refs: readonly string[]) => this.#reconcileAll(refs), stopping: () => this.#stopped };
        this.#crossChecks.set(network, { check: new CrossCheck(db, port, facts, watcher, metrics), everyMs: source.crossCheckMs });
      }
    }
  }

  /**
   * Brings every network and link up to date (what a process that was down missed), then follows each node's network
   * at its poll interval and ticks every `intervalMs`.
   */
  async start(intervalMs = 1000): Promise<void> {
    await this.followAll();
    await this.sweep();
    const every = (ms: number, run: () => Promise<void>) => {
      const timer = setInterval(() => void run(), ms);
      timer.unref();
      this.#timers.push(timer);
    };
    for (const [network, { port }] of this.#followers) {
      const { source } = port.network;
      if (source.kind === 'node') every(source.pollMs, () => this.follow(network));
    }
    for (const { check, everyMs } of this.#crossChecks.values()) every(everyMs, () => (this.#stopped ? Promise.resolve() : check.run()));
    every(intervalMs, () => this.tick());
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    for (const timer of this.#timers) clearInterval(timer);
    await Promise.all([this.#running, ...[...this.#following.values()].map((f) => f.running), ...[...this.#crossChecks.values()].map(({ check }) => check.settled())]);
  }

  /** Every network followed to its tip now. */
  async followAll(): Promise<void> {
    await Promise.all([...this.#followers.keys()].map((network) => this.follow(network)));
  }

  /** One round: the simulated networks (another process may have moved them), then links whose time ran out. */
  tick(): Promise<void> {
    return this.#serially(async () => {
      for (const [network, { port }] of this.#followers) if (port.network.source.kind === 'simulated') await this.follow(network);
      if (++this.#ticks % FULL_SWEEP_TICKS === 0) await this.#reconcileAll(await this.#unsettled());
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

  /**
   * Follows one network to its tip now and re-derives the links whose facts changed. Never rejects: a chain that
   * cannot be seen is logged (once, until it can be again) and followed on the next round.
   */
  follow(network: Network): Promise<void> {
    let following = this.#following.get(network);
    if (!following) this.#following.set(network, (following = { running: Promise.resolve(), waiting: undefined }));
    if (following.waiting) return following.waiting;
    const entry = following;
    // The next round starts after the one under way, and every caller until it starts shares it.
    const next = entry.running.then(() => {
      entry.waiting = undefined;
      return this.#round(network);
    });
    entry.waiting = next;
    entry.running = next;
    return next;
  }

  /** When each network's last round ended (ms since the epoch). */
  lastRounds(): ReadonlyMap<Network, number> {
    return this.#lastRound;
  }

  async #round(network: Network): Promise<void> {
    const follower = this.#followers.get(network);
    if (!follower || this.#stopped) return;
    try {
      for (let steps = 0; steps < STEPS_PER_ROUND; steps++) {
        const step = await follower.step();
        const links = await this.facts.record(follower.port.network, step);
        if (links) await this.#reconcileAll(links);
        if (links && step.atTip) break;
      }
      if (this.#failing.delete(network)) log.info({ network }, 'watcher: the network can be followed again');
    } catch (error) {
      // A node's client writes a page about a timeout: its first line says what happened.
      const message = firstLine(error);
      if (this.#failing.get(network) !== message) log.warn({ network, error: message }, 'watcher: the network cannot be followed (said again only when the error changes)');
      this.#failing.set(network, message);
    } finally {
      this.#lastRound.set(network, Date.now());
    }
  }

  #serially(round: () => Promise<void>): Promise<void> {
    const next = this.#running.then(round).catch((error: unknown) => log.error({ err: error }, 'watcher: round failed'));
    this.#running = next;
    return next;
  }

  async #unsettled(): Promise<string[]> {
    const refs = new Set<string>();
    for (const network of this.#followers.keys()) {
      for (const ref of (await this.#logged('unsettled', () => unsettledLinks(this.db, network))) ?? []) refs.add(ref);
    }
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
      log.error({ err: error }, `watcher: ${what} failed`);
      return undefined;
    }
  }
}

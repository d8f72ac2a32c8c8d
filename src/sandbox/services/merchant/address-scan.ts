// After a restore, past every address the chain shows used (docs/operations.md, "Back up and restore"), as HD wallets
// and BTCPay's NBXplorer scan: from the index the margin moved a counter to, each next address is asked of every
// network on a node of its family (ChainPort.addressUsed: it sent, or holds the coin or a token), SCAN_GAP at a time,
// until SCAN_GAP in a row after the last used one are unused; the counter then moves past the last used. The margin
// covers addresses shown and not paid; this covers those paid beyond it (handed out by a process whose marks file is
// gone, or more than the margin since the backup). Bounded: at most SCAN_MOST_INDEXES asked per counter, and
// SCAN_DEADLINE_MS for the whole scan; a node that does not answer by then ends it, and what it found so far stands.
import type { HDKey } from '@scure/bip32';
import { deriveAddress, receivingKey, type NetworkFamily } from '../../../codecs/addresses.js';
import { firstLine } from '../../logging.js';
import type { ChainPort } from '../../chains/port.js';
import { GLOBAL_COUNTER, type AddressCounter } from '../../storage/address-guard.js';

/** Unused addresses in a row after the last used one that end a counter's scan: BIP44's gap limit, most wallets'. */
export const SCAN_GAP = 20;
/** Indexes asked at most per counter, past the margin: about 3 node calls each (nonce, coin, each token). */
export const SCAN_MOST_INDEXES = 1_000;
/**
 * The whole scan's time: other processes starting on the database wait for it (it runs under the guard's lock), and
 * their lock waits within DATABASE_STATEMENT_TIMEOUT_MS (30 s by default).
 */
export const SCAN_DEADLINE_MS = 15_000;

/** What a scan did: each counter it moved past a used address, how many addresses it asked, and why it ended early if it did. */
export interface ScanOutcome {
  networks: string[];
  moved: { counter: string; from: number; to: number }[];
  addresses_asked: number;
  /** Set when a node did not answer or time ran out: the counters it had not finished keep the margin alone. */
  unfinished?: string;
}

type Probe = ChainPort & Required<Pick<ChainPort, 'addressUsed'>>;

export class AddressScan {
  readonly #probes: Probe[];

  constructor(
    ports: readonly ChainPort[],
    /** The roots the global counter's addresses derive from (the sandbox's keys); none in live. */
    private readonly globalRoots: readonly HDKey[],
    private readonly limits = { gap: SCAN_GAP, mostIndexes: SCAN_MOST_INDEXES, deadlineMs: SCAN_DEADLINE_MS },
  ) {
    this.#probes = ports.filter((port): port is Probe => typeof port.addressUsed === 'function');
  }

  /** Whether any network can tell: without a node, there is nothing to scan. */
  get possible(): boolean {
    return this.#probes.length > 0;
  }

  /** Each counter's next index past the last address the chain shows used at or after its `next`; the same when none. */
  async scan(counters: readonly AddressCounter[]): Promise<ScanOutcome> {
    const outcome: ScanOutcome = { networks: this.#probes.map((p) => p.network.id), moved: [], addresses_asked: 0 };
    const deadline = Date.now() + this.limits.deadlineMs;
    try {
      // A node behind may not know of the latest use: asked first, it stops the scan before any address is.
      await this.#within(deadline, Promise.all(this.#probes.map((probe) => probe.head())));
      for (const counter of counters) {
        // What its answered windows found stands, should a later one fail.
        const found = { past: counter.next };
        try {
          await this.#past(counter, deadline, outcome, found);
        } finally {
          if (found.past > counter.next) outcome.moved.push({ counter: counter.counter, from: counter.next, to: found.past });
        }
      }
    } catch (error) {
      outcome.unfinished = firstLine(error);
    }
    return outcome;
  }

  /** Moves `found.past` past each used address it finds at or after the counter's next index, window by window. */
  async #past(counter: AddressCounter, deadline: number, outcome: ScanOutcome, found: { past: number }): Promise<void> {
    const addresses = this.#addressesOf(counter);
    if (!addresses) return;
    const most = counter.next + this.limits.mostIndexes;
    let asked = counter.next;
    let end = counter.next + this.limits.gap;
    while (asked < end && asked < most) {
      const indexes = Array.from({ length: Math.min(end, most) - asked }, (_, i) => asked + i);
      const asks = indexes.flatMap((index) => addresses(index).map(({ probe, address }) => probe.addressUsed(address).then((used) => (used ? index : -1))));
      outcome.addresses_asked += asks.length;
      const used = Math.max(-1, ...(await this.#within(deadline, Promise.all(asks))));
      asked = indexes.at(-1)! + 1;
      if (used >= 0) {
        found.past = used + 1;
        end = found.past + this.limits.gap;
      }
    }
  }

  /** The addresses of a counter's index on each network that can tell, or undefined when none derives from it here. */
  #addressesOf(counter: AddressCounter): ((index: number) => { probe: Probe; address: string }[]) | undefined {
    const roots: { family?: NetworkFamily; root: HDKey }[] =
      counter.counter === GLOBAL_COUNTER ? this.globalRoots.map((root) => ({ root })) : counter.account ? [{ family: counter.account.family, root: receivingKey(undefined, { [counter.account.family]: counter.account.xpub }) }] : [];
    const pairs = this.#probes.flatMap((probe) => roots.filter((r) => (r.family ?? probe.network.family) === probe.network.family).map(({ root }) => ({ probe, root })));
    if (!pairs.length) return undefined;
    // The sandbox merchant's root and the other merchants' are one where no HD_XPUB_* is set: each address asked once.
    return (index) => [
      ...new Map(pairs.map(({ probe, root }) => {
        const address = deriveAddress(root, probe.network.family, index);
        return [`${probe.network.id} ${address}`, { probe, address }] as const;
      })).values(),
    ];
  }

  async #within<T>(deadline: number, work: Promise<T>): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`the scan ran out of its ${this.limits.deadlineMs / 1000} s`)), Math.max(0, deadline - Date.now()));
    });
    try {
      return await Promise.race([work, late]);
    } finally {
      clearTimeout(timer);
    }
  }
}
